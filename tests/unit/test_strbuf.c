// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the strbuf (src/util/strbuf.c) where it no longer leans
 * on printf: sb_add_u64() must write what "%*llu" / "%-*llu" would, and
 * sb_vaddf(), which now formats into the room already there, must give
 * what vsnprintf() gives whether or not the text fits that room.
 * ll_escape_in_place() must keep printable ASCII (the same pointer: no
 * copy) and escape every control byte and DEL wherever it sits;
 * ll_escaped_dup() must give what a copy escaped in place gives. The
 * huge-page helpers (src/util/huge_page.c) must give aligned whole huge
 * pages that carry the kernel's advice, and refuse a size that overflows.
 * sb_add_hex() writes what "%02x" writes. The slot table
 * (src/util/slot_table.c) finds every entry after many rehashes, and
 * entries of one key stay in the order they were added, also when their
 * probe run wraps round the end of the table. A notes collector
 * (src/util/diag.c) keeps each note formatted, in order, and prints them
 * as ll_notef() would only when flushed; without one a note is printed
 * at once.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/util/c_macro.h"
#include "../../src/util/diag.h"
#include "../../src/util/huge_page.h"
#include "../../src/util/json_writer.h"
#include "../../src/util/slot_table.h"
#include "../../src/util/sort.h"
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

/* What FN(ARG) writes on stderr (fd 2 sent to a temporary file meanwhile). */
static char *stderr_of(void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/ll-notes-XXXXXX", *text = xcalloc(4096, 1);
	int fd = mkstemp(path), saved = dup(2);

	ck_assert(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert(pread(fd, text, 4095, 0) >= 0);
	close(fd);
	unlink(path);
	return text;
}

static void add_two(void *arg)
{
	ll_notes_addf(arg, "first %d", 1);
	ll_notes_addf(arg, "second %s", "x\ty");
}

static void flush(void *arg)
{
	ll_notes_flush(arg);
}

START_TEST(test_notes_collected_then_flushed)
{
	struct ll_notes notes = { 0 };
	char *quiet = stderr_of(add_two, &notes), *flushed, *direct;

	ck_assert_str_eq(quiet, "");
	ck_assert_uint_eq(notes.n, 2);
	ck_assert_str_eq(notes.v[0], "first 1");
	ck_assert_str_eq(notes.v[1], "second x\ty");
	flushed = stderr_of(flush, &notes);
	/* Printed as ll_notef() prints: prefixed, one line each, control bytes escaped. */
	ck_assert_str_eq(flushed, "layoutlint: note: first 1\nlayoutlint: note: second x\\ty\n");
	ck_assert_uint_eq(notes.n, 0);
	ck_assert_ptr_null(notes.v);
	direct = stderr_of(add_two, NULL);
	ck_assert_str_eq(direct, flushed);
	free(quiet);
	free(flushed);
	free(direct);
}
END_TEST

START_TEST(test_escape_keeps_printable)
{
	char *s = xstrdup("struct list_head next; /* fs/file_table.c */ ~!@#$%^&*()");
	char *before = s;

	ll_escape_in_place(&s);
	ck_assert_ptr_eq(s, before);
	ck_assert_str_eq(s, "struct list_head next; /* fs/file_table.c */ ~!@#$%^&*()");
	char *dup = ll_escaped_dup(s);

	ck_assert_ptr_ne(dup, s);
	ck_assert_str_eq(dup, s);
	free(dup);
	/* Valid UTF-8 is kept; an invalid byte is spelt \xNN, as in place. */
	dup = ll_escaped_dup("caf\xc3\xa9 \xff");
	ck_assert_str_eq(dup, "caf\xc3\xa9 \\xff");
	free(dup);
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
			char *dup = ll_escaped_dup(raw);

			ck_assert_str_eq(dup, s);
			free(dup);
			free(s);
		}
}
END_TEST

START_TEST(test_cmp_keys)
{
	const uint64_t a[] = { 1, 5, UINT64_MAX }, b[] = { 1, 5, 0 }, c[] = { 2, 0, 0 };

	ck_assert_int_eq(ll_cmp_keys(a, a, 3), 0);
	ck_assert_int_eq(ll_cmp_keys(a, b, 3), 1);	/* unsigned: the max is largest */
	ck_assert_int_eq(ll_cmp_keys(b, a, 3), -1);
	ck_assert_int_eq(ll_cmp_keys(a, c, 3), -1);	/* the first field decides */
	ck_assert_int_eq(ll_cmp_keys(a, b, 2), 0);	/* only N fields count */
	ck_assert_int_eq(ll_cmp_keys(a, c, 0), 0);
}
END_TEST

START_TEST(test_free_all_and_array_free)
{
	char *x = xstrdup("x"), *none = NULL;
	int *v = NULL;
	size_t n = 0;

	/* Under ASan a pointer left out is a leak, one freed twice an error. */
	ll_free_all(x, none, xmalloc(16));
	for (int i = 0; i < 3; i++) {
		v = xgrow(v, n, sizeof(*v));
		v[n++] = i;
	}
	ll_array_free(v, n);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(n, 0);
	v = xgrow(v, n, sizeof(*v));	/* empty again: it grows as new */
	v[n++] = 7;
	ck_assert_int_eq(v[0], 7);
	ll_array_free(v, n);
}
END_TEST

START_TEST(test_json_keyed_values)
{
	struct json_writer w;

	jw_init(&w, false);
	jw_begin_object(&w);
	jw_kuint_or_null(&w, "line", true, 12);
	jw_kuint_or_null(&w, "column", false, 3);
	jw_kbegin_array(&w, "pairs");
	jw_string(&w, "a");
	jw_end_array(&w);
	jw_kbegin_object(&w, "size");
	jw_kuint(&w, "old", 1);
	jw_end_object(&w);
	jw_end_object(&w);
	ck_assert_str_eq(w.out.buf,
			 "{\"line\":12,\"column\":null,\"pairs\":[\"a\"],\"size\":{\"old\":1}}");
	jw_release(&w);
}
END_TEST

START_TEST(test_huge_round_up)
{
	ck_assert_uint_eq(ll_huge_round_up(0), 0);
	ck_assert_uint_eq(ll_huge_round_up(1), LL_HUGE_PAGE);
	ck_assert_uint_eq(ll_huge_round_up(LL_HUGE_PAGE), LL_HUGE_PAGE);
	ck_assert_uint_eq(ll_huge_round_up(LL_HUGE_PAGE + 1), 2 * LL_HUGE_PAGE);
}
END_TEST

/*
 * Whether the mapping that holds P carries the huge-page advice ("hg" in
 * /proc/self/smaps's VmFlags). -1 when this kernel cannot say (no THP).
 */
static int advised_huge(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in_range = 0, found = -1;

	if (!f || access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0) {
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		/* A mapping's first line: "lo-hi perms ..."; the rest are "Key: value". */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2) {
			in_range = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in_range && strncmp(line, "VmFlags:", 8) == 0) {
			found = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

START_TEST(test_huge_alloc_aligned_and_advised)
{
	static const size_t sizes[] = { 1, 256 << 10, LL_HUGE_PAGE, LL_HUGE_PAGE + 1 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t cap = 0;
		unsigned char *p = ll_huge_alloc(sizes[i], &cap);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % LL_HUGE_PAGE, 0);
		ck_assert_uint_ge(cap, sizes[i]);
		ck_assert_uint_eq(cap % LL_HUGE_PAGE, 0);
		ck_assert_uint_lt(cap - sizes[i], LL_HUGE_PAGE);
		memset(p, 0xa5, cap);	/* all of it is ours (ASan would say) */
		ck_assert_int_ne(advised_huge(p), 0);
		ck_assert_int_ne(advised_huge(p + cap - 1), 0);
		free(p);
	}
}
END_TEST

START_TEST(test_huge_alloc_too_big)
{
	size_t cap = 7;

	ck_assert_ptr_null(ll_huge_alloc(SIZE_MAX - 5, &cap));
	ck_assert_uint_eq(cap, 7);
	ck_assert_ptr_null(ll_huge_alloc(0, &cap));
}
END_TEST

/* Advice for a block with no whole huge page inside: nothing, and no harm. */
START_TEST(test_advise_small_block)
{
	unsigned char *p = xmalloc(4096);

	ll_advise_huge(p, 4096);
	memset(p, 1, 4096);
	free(p);
}
END_TEST

START_TEST(test_macro_member_path)
{
	const char *h = "#define inet_dport\tsk.__sk_common.skc_dport\n"
			"  #  define x y.z\n"
			"\t#define  inet_daddr   sk.__sk_common.skc_daddr  \n";
	char *v = ll_macro_member_path(h, "inet_daddr");

	ck_assert_str_eq(v, "sk.__sk_common.skc_daddr");
	free(v);
	v = ll_macro_member_path(h, "inet_dport");
	ck_assert_str_eq(v, "sk.__sk_common.skc_dport");
	free(v);
	/* '#  define' is not '#define': the kernel never spells it so, nor do we read it. */
	ck_assert_ptr_null(ll_macro_member_path(h, "x"));
}
END_TEST

START_TEST(test_macro_not_a_path)
{
	const char *h = "#define a(x) b.c\n#define ab b.c\n#define d e\n#define f g..h\n"
			"#define i j.\n#define k .l\n#define m n.o+1\n#define";

	ck_assert_ptr_null(ll_macro_member_path(h, "a"));	/* function-like */
	ck_assert_ptr_null(ll_macro_member_path(h, "d"));	/* no dot */
	ck_assert_ptr_null(ll_macro_member_path(h, "f"));
	ck_assert_ptr_null(ll_macro_member_path(h, "i"));
	ck_assert_ptr_null(ll_macro_member_path(h, "k"));
	ck_assert_ptr_null(ll_macro_member_path(h, "m"));
	ck_assert_ptr_null(ll_macro_member_path(h, "missing"));
	ck_assert_ptr_null(ll_macro_member_path("", "a"));
}
END_TEST

START_TEST(test_add_hex_matches_printf)
{
	unsigned char bytes[256];
	struct strbuf sb = STRBUF_INIT;
	char want[3];

	for (int i = 0; i < 256; i++)
		bytes[i] = (unsigned char)(255 - i);
	sb_adds(&sb, "id:");
	sb_add_hex(&sb, bytes, sizeof(bytes));
	ck_assert_uint_eq(sb.len, 3 + 2 * sizeof(bytes));
	for (int i = 0; i < 256; i++) {
		snprintf(want, sizeof(want), "%02x", bytes[i]);
		ck_assert_int_eq(memcmp(sb.buf + 3 + 2 * i, want, 2), 0);
	}
	ck_assert_int_eq(sb.buf[sb.len], '\0');
	sb_release(&sb);
}
END_TEST

/* Keys are small numbers; HASH_OF gives each its own bucket or a chosen one. */
struct keys {
	unsigned key[4096];
	uint64_t (*bucket)(unsigned key);
};

static uint64_t key_hash(const void *ctx, size_t i)
{
	const struct keys *k = ctx;

	return k->bucket(k->key[i]);
}

static uint64_t spread(unsigned key)
{
	return (uint64_t)key * 0x9e3779b97f4a7c15ULL;
}

/* Every key lands on the table's last slots, whatever the size: runs wrap round. */
static uint64_t at_the_end(unsigned key)
{
	return ~(uint64_t)0 - (key % 3);
}

/* The entries of key KEY in probe order, into OUT; how many. */
static size_t entries_of(const struct ll_slots *t, const struct keys *k, unsigned key,
			 size_t *out, size_t max)
{
	size_t n = 0;

	for (size_t at = ll_slots_first(t, k->bucket(key)); ll_slots_get(t, at);
	     at = ll_slots_next(t, at))
		if (k->key[ll_slots_get(t, at) - 1] == key && n < max)
			out[n++] = ll_slots_get(t, at) - 1;
	return n;
}

static void add_keys(struct keys *k, uint64_t (*bucket)(unsigned), unsigned distinct)
{
	struct ll_slots t = LL_SLOTS_INIT;
	size_t seen[4096];

	k->bucket = bucket;
	for (size_t i = 0; i < 4096; i++) {
		k->key[i] = (unsigned)(i % distinct);
		ll_slots_reserve(&t, i + 1, key_hash, k);
		ll_slots_add(&t, key_hash(k, i), i);
		ck_assert_uint_le(2 * t.used, t.mask + 1);
	}
	ck_assert_uint_eq(t.used, 4096);
	for (unsigned key = 0; key < distinct; key++) {
		size_t n = entries_of(&t, k, key, seen, 4096);

		ck_assert_uint_eq(n, (4096 - key + distinct - 1) / distinct);
		for (size_t j = 0; j < n; j++)
			ck_assert_uint_eq(seen[j], key + j * distinct);	/* added first, found first */
	}
	ll_slots_release(&t);
	ck_assert_ptr_null(t.slot);
}

START_TEST(test_slots_find_all_in_order)
{
	static struct keys k;

	add_keys(&k, spread, 4096);	/* one entry a key */
	add_keys(&k, spread, 7);	/* long runs of one key */
	add_keys(&k, at_the_end, 3);	/* runs that wrap */
}
END_TEST

START_TEST(test_slots_empty_table)
{
	struct ll_slots t = LL_SLOTS_INIT;

	ck_assert_uint_eq(ll_slots_get(&t, ll_slots_first(&t, 12345)), 0);
	ll_slots_reserve(&t, 0, key_hash, NULL);
	ck_assert_uint_eq(t.mask + 1, 16);
	ck_assert_uint_eq(ll_slots_get(&t, ll_slots_first(&t, 12345)), 0);
	ll_slots_release(&t);
}
END_TEST

static Suite *strbuf_suite(void)
{
	Suite *s = suite_create("strbuf");
	TCase *m = tcase_create("c_macro");

	tcase_add_test(m, test_macro_member_path);
	tcase_add_test(m, test_macro_not_a_path);
	suite_add_tcase(s, m);
	TCase *t = tcase_create("format");

	tcase_add_test(t, test_add_u64_matches_printf);
	tcase_add_test(t, test_addf_fits_and_overflows);
	tcase_add_test(t, test_addf_into_empty);
	tcase_add_test(t, test_add_hex_matches_printf);
	suite_add_tcase(s, t);
	t = tcase_create("slot_table");
	tcase_add_test(t, test_slots_find_all_in_order);
	tcase_add_test(t, test_slots_empty_table);
	suite_add_tcase(s, t);
	t = tcase_create("notes");
	tcase_add_test(t, test_notes_collected_then_flushed);
	suite_add_tcase(s, t);
	t = tcase_create("escape");
	tcase_add_test(t, test_escape_keeps_printable);
	tcase_add_test(t, test_escape_every_position);
	suite_add_tcase(s, t);
	t = tcase_create("helpers");
	tcase_add_test(t, test_cmp_keys);
	tcase_add_test(t, test_free_all_and_array_free);
	tcase_add_test(t, test_json_keyed_values);
	suite_add_tcase(s, t);
	t = tcase_create("huge_page");
	tcase_add_test(t, test_huge_round_up);
	tcase_add_test(t, test_huge_alloc_aligned_and_advised);
	tcase_add_test(t, test_huge_alloc_too_big);
	tcase_add_test(t, test_advise_small_block);
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
