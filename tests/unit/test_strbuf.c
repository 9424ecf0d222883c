// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the strbuf (src/util/strbuf.c) where it no longer leans
 * on printf: sb_add_u64() must write what "%*llu" / "%-*llu" would, and
 * sb_vaddf(), which now formats into the room already there, must give
 * what vsnprintf() gives whether or not the text fits that room.
 * ll_escape_in_place() must keep printable ASCII (the same pointer: no
 * copy) and escape every control byte and DEL wherever it sits.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/util/strbuf.h"

START_TEST(test_add_u64_matches_printf)
{
	static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 12345, 99999, 100000,
					   4294967295u, 18446744073709551615ull };
	static const int widths[] = { 0, 1, 2, 3, 4, 5, 7, -1, -2, -3, -6 };

	for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			struct strbuf sb = STRBUF_INIT;
			char want[64];

			sb_adds(&sb, "<");
			sb_add_u64(&sb, values[v], widths[w]);
			sb_adds(&sb, ">");
			snprintf(want, sizeof(want), "<%*" PRIu64 ">", widths[w], values[v]);
			ck_assert_str_eq(sb.buf, want);
			ck_assert_uint_eq(sb.len, strlen(want));
			sb_release(&sb);
		}
}
END_TEST

START_TEST(test_addf_fits_and_overflows)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;
	char big[3000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* Short texts into the room there, then one longer than any room so far. */
	for (int i = 0; i < 200; i++) {
		char piece[32];

		sb_addf(&sb, "%d:%s;", i, i % 2 ? "odd" : "even");
		snprintf(piece, sizeof(piece), "%d:%s;", i, i % 2 ? "odd" : "even");
		sb_adds(&want, piece);
	}
	sb_addf(&sb, "[%s]", big);
	sb_adds(&want, "[");
	sb_adds(&want, big);
	sb_adds(&want, "]");
	ck_assert_uint_eq(sb.len, want.len);
	ck_assert_str_eq(sb.buf, want.buf);
	ck_assert_uint_eq(strlen(sb.buf), sb.len);
	sb_release(&sb);
	sb_release(&want);
}
END_TEST

START_TEST(test_addf_into_empty)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s", "");
	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_str_eq(sb.buf, "");
	sb_release(&sb);
}
END_TEST

START_TEST(test_escape_keeps_printable)
{
	char *s = xstrdup("struct list_head next; /* fs/file_table.c */ ~!@#$%^&*()");
	char *before = s;

	ll_escape_in_place(&s);
	ck_assert_ptr_eq(s, before);
	ck_assert_str_eq(s, "struct list_head next; /* fs/file_table.c */ ~!@#$%^&*()");
	free(s);
}
END_TEST

START_TEST(test_escape_every_position)
{
	static const unsigned char bad[] = { 0x01, 0x09, 0x1b, 0x1f, 0x7f };

	for (size_t b = 0; b < sizeof(bad); b++)
		for (size_t at = 0; at < 40; at++) {
			char raw[41];
			char *s;

			memset(raw, 'a', 40);
			raw[40] = '\0';
			raw[at] = (char)bad[b];
			s = xstrdup(raw);
			ll_escape_in_place(&s);
			ck_assert_str_ne(s, raw);
			for (const unsigned char *p = (const unsigned char *)s; *p; p++)
				ck_assert(*p >= 0x20 && *p != 0x7f);
			free(s);
		}
}
END_TEST

static Suite *strbuf_suite(void)
{
	Suite *s = suite_create("strbuf");
	TCase *t = tcase_create("format");

	tcase_add_test(t, test_add_u64_matches_printf);
	tcase_add_test(t, test_addf_fits_and_overflows);
	tcase_add_test(t, test_addf_into_empty);
	suite_add_tcase(s, t);
	t = tcase_create("escape");
	tcase_add_test(t, test_escape_keeps_printable);
	tcase_add_test(t, test_escape_every_position);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(strbuf_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
