// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for --group-markers' texts (source/group_patch.h): the
 * unified diff it writes of an edited file, read back by its own hunk
 * applier, gives the edited text for random edits of files with many
 * equal lines (where an LCS has choices) and with or without a last
 * newline; and hunks that do not fit the file are refused. That the
 * diffs are ones git apply takes is tests/grouppatch's.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/source/group_patch.h"

static char dir[] = "/tmp/ll-group-patch-XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A text of N lines drawn from K distinct ones, maybe without its last newline. */
static void random_text(struct strbuf *sb, unsigned n, unsigned k, bool newline)
{
	for (unsigned i = 0; i < n; i++)
		sb_addf(sb, "line %u\n", (unsigned)rand() % k);
	if (!newline && sb->len)
		sb->buf[--sb->len] = 0;
}

/* Delete, insert and change lines of TEXT at random. */
static void random_edit(const char *text, struct strbuf *out, unsigned k)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");
		int r = rand() % 10;

		if (r == 0) {
			/* deleted */
		} else if (r == 1) {
			sb_addf(out, "new %u\n", (unsigned)rand() % k);
			sb_add(out, p, n);
			sb_addc(out, '\n');
		} else if (r == 2) {
			sb_addf(out, "changed %u\n", (unsigned)rand() % k);
		} else {
			sb_add(out, p, n);
			if (p[n])
				sb_addc(out, '\n');
		}
		p += n + (p[n] == '\n');
	}
	if (rand() % 5 == 0)
		sb_adds(out, "appended\n");
}

START_TEST(test_round_trip)
{
	srand(42);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int iter = 0; iter < 1500; iter++) {
		struct strbuf orig = STRBUF_INIT, edited = STRBUF_INIT, patch = STRBUF_INIT;
		struct strbuf back = STRBUF_INIT, why = STRBUF_INIT;
		struct ll_textset *a = ll_textset_new(dir), *b = ll_textset_new(dir);

		random_text(&orig, (unsigned)rand() % 40, 1 + (unsigned)rand() % 6, rand() % 4 != 0);
		random_edit(orig.buf ? orig.buf : "", &edited, 6);
		write_file("f.h", orig.buf ? orig.buf : "");
		ck_assert_int_eq(ll_textset_replace(a, "f.h", edited.buf ? edited.buf : "",
						    edited.len, &why), 0);
		ll_textset_diffs(a, &patch);
		ck_assert_msg(ll_textset_take_patch(b, patch.buf ? patch.buf : "", patch.len,
						    &why) == 0,
			      "iteration %d: %s\n%s", iter, why.buf, patch.buf);
		ck_assert_int_eq(ll_textset_text(b, "f.h", &back, &why), 0);
		ck_assert_msg(strcmp(back.buf ? back.buf : "", edited.buf ? edited.buf : "") == 0,
			      "iteration %d:\n--- orig\n%s\n--- edited\n%s\n--- patch\n%s\n--- back\n%s",
			      iter, orig.buf, edited.buf, patch.buf, back.buf);
		/* Nothing changed, no diff. */
		ck_assert(patch.len || strcmp(orig.buf ? orig.buf : "",
					      edited.buf ? edited.buf : "") == 0);
		ll_textset_free(a);
		ll_textset_free(b);
		sb_release(&orig);
		sb_release(&edited);
		sb_release(&patch);
		sb_release(&back);
		sb_release(&why);
	}
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/f.h", dir);
		unlink(path);
		rmdir(dir);
	}
}
END_TEST

START_TEST(test_refuses_misfit)
{
	struct strbuf why = STRBUF_INIT;
	struct ll_textset *set;
	char d[] = "/tmp/ll-group-patch-XXXXXX";
	char path[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(d));
	snprintf(path, sizeof(path), "%s/g.h", d);
	f = fopen(path, "w");
	fputs("a\nb\nc\n", f);
	fclose(f);
	set = ll_textset_new(d);
	const char *bad = "diff --git a/g.h b/g.h\n--- a/g.h\n+++ b/g.h\n@@ -1,2 +1,2 @@\n a\n-x\n+y\n";
	ck_assert_int_eq(ll_textset_take_patch(set, bad, strlen(bad), &why), -1);
	ck_assert_ptr_nonnull(strstr(why.buf, "g.h"));
	ll_textset_free(set);
	sb_reset(&why);
	set = ll_textset_new(d);
	const char *outside = "diff --git a/../g.h b/../g.h\n@@ -1 +1 @@\n-a\n+b\n";
	ck_assert_int_eq(ll_textset_take_patch(set, outside, strlen(outside), &why), -1);
	ll_textset_free(set);
	sb_release(&why);
	unlink(path);
	rmdir(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("group_patch");
	TCase *tc = tcase_create("texts");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_refuses_misfit);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
