// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the bounds-checked DWARF byte reader (src/input/dwarf/raw/byte_cursor.h):
 * every helper on values whose encodings the DWARF 5 standard spells out
 * (section 7.6, figures 3 and 4), at the edges of the 64-bit range, and
 * each way of running off the end. Inputs live in heap blocks of exactly
 * their size, so under ASan a read one byte too far is a report too.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/input/dwarf/raw/byte_cursor.h"

/* A cursor over a private heap copy of N bytes; free(c.p - consumed) via bytes_free. */
struct bytes {
	unsigned char *buf;
	struct ll_cursor c;
};

static struct bytes bytes_of(const void *data, size_t n)
{
	struct bytes b;

	b.buf = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(b.buf);
	if (n)
		memcpy(b.buf, data, n);
	b.c = (struct ll_cursor){ b.buf, b.buf + n, false };
	return b;
}

#define BYTES(...) bytes_of((const unsigned char[]){ __VA_ARGS__ }, \
			    sizeof((const unsigned char[]){ __VA_ARGS__ }))

static size_t consumed(const struct bytes *b)
{
	return (size_t)(b->c.p - b->buf);
}

/* ---- ULEB128 ---------------------------------------------------------------- */

START_TEST(test_uleb_standard_values)
{
	/* DWARF 5 figure 3. */
	static const struct { unsigned char enc[3]; size_t len; uint64_t v; } tab[] = {
		{ { 2 }, 1, 2 }, { { 127 }, 1, 127 }, { { 0x80, 1 }, 2, 128 },
		{ { 0x81, 1 }, 2, 129 }, { { 0x82, 1 }, 2, 130 }, { { 0xb9, 100 }, 2, 12857 },
		{ { 0xe5, 0x8e, 0x26 }, 3, 624485 }, { { 0 }, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct bytes b = bytes_of(tab[i].enc, tab[i].len);

		ck_assert_uint_eq(ll_uleb(&b.c), tab[i].v);
		ck_assert(!b.c.bad);
		ck_assert_uint_eq(consumed(&b), tab[i].len);
		free(b.buf);
	}
}
END_TEST

START_TEST(test_uleb_max_and_overlong)
{
	struct bytes b = BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);

	ck_assert_uint_eq(ll_uleb(&b.c), UINT64_MAX);
	ck_assert(!b.c.bad);
	ck_assert_uint_eq(consumed(&b), 10);
	free(b.buf);

	/* Padded past 64 bits: the extra groups are dropped, the value kept. */
	b = BYTES(0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x2a);
	ck_assert_uint_eq(ll_uleb(&b.c), 5);
	ck_assert(!b.c.bad);
	ck_assert_uint_eq(consumed(&b), 13);
	ck_assert_uint_eq(ll_uleb(&b.c), 42);
	free(b.buf);

	/* Bits 63 and up of the tenth group are outside the value. */
	b = BYTES(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f);
	ck_assert_uint_eq(ll_uleb(&b.c), (uint64_t)1 << 63);
	free(b.buf);
}
END_TEST

START_TEST(test_uleb_truncated)
{
	struct bytes b = BYTES(0x81, 0x82);	/* continuation bit set on the last byte */

	ck_assert_uint_eq(ll_uleb(&b.c), 0);
	ck_assert(b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	free(b.buf);

	b = bytes_of("", 0);
	ck_assert_uint_eq(ll_uleb(&b.c), 0);
	ck_assert(b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	free(b.buf);
}
END_TEST

/* ---- SLEB128 ---------------------------------------------------------------- */

START_TEST(test_sleb_standard_values)
{
	/* DWARF 5 figure 4, and a three-byte one. */
	static const struct { unsigned char enc[3]; size_t len; int64_t v; } tab[] = {
		{ { 2 }, 1, 2 }, { { 0x7e }, 1, -2 }, { { 0xff, 0 }, 2, 127 },
		{ { 0x81, 0x7f }, 2, -127 }, { { 0x80, 1 }, 2, 128 }, { { 0x80, 0x7f }, 2, -128 },
		{ { 0x81, 1 }, 2, 129 }, { { 0xff, 0x7e }, 2, -129 }, { { 0x3f }, 1, 63 },
		{ { 0x40 }, 1, -64 }, { { 0xc0, 0xbb, 0x78 }, 3, -123456 }, { { 0 }, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct bytes b = bytes_of(tab[i].enc, tab[i].len);

		ck_assert_int_eq(ll_sleb(&b.c), tab[i].v);
		ck_assert(!b.c.bad);
		ck_assert_uint_eq(consumed(&b), tab[i].len);
		free(b.buf);
	}
}
END_TEST

START_TEST(test_sleb_extremes)
{
	struct bytes b = BYTES(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f);

	ck_assert_int_eq(ll_sleb(&b.c), INT64_MIN);
	ck_assert(!b.c.bad);
	free(b.buf);

	b = BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00);
	ck_assert_int_eq(ll_sleb(&b.c), INT64_MAX);
	ck_assert(!b.c.bad);
	ck_assert_uint_eq(consumed(&b), 10);
	free(b.buf);

	b = BYTES(0x7f);
	ck_assert_int_eq(ll_sleb(&b.c), -1);
	free(b.buf);
}
END_TEST

START_TEST(test_sleb_truncated)
{
	struct bytes b = BYTES(0xc0, 0xbb);	/* -123456 without its last byte */

	ck_assert_int_eq(ll_sleb(&b.c), 0);
	ck_assert(b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	free(b.buf);
}
END_TEST

/* ---- skipping ---------------------------------------------------------------- */

START_TEST(test_skip_leb)
{
	struct bytes b = BYTES(0xe5, 0x8e, 0x26, 0x7f, 0x05);

	ll_skip_leb(&b.c);
	ck_assert_uint_eq(consumed(&b), 3);
	ll_skip_leb(&b.c);
	ck_assert_uint_eq(consumed(&b), 4);
	ck_assert_uint_eq(ll_uleb(&b.c), 5);
	ck_assert(!b.c.bad);
	ll_skip_leb(&b.c);		/* at the end: nothing to skip */
	ck_assert(b.c.bad);
	free(b.buf);

	b = BYTES(0x80, 0x80);
	ll_skip_leb(&b.c);
	ck_assert(b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	free(b.buf);
}
END_TEST

START_TEST(test_skip)
{
	struct bytes b = BYTES(1, 2, 3, 4);

	ll_skip(&b.c, 3);
	ck_assert(!b.c.bad);
	ck_assert_uint_eq(ll_fixed(&b.c, 1), 4);
	ll_skip(&b.c, 0);
	ck_assert(!b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	free(b.buf);

	b = BYTES(1, 2, 3, 4);
	ll_skip(&b.c, 5);		/* one too many: refused, cursor where it was */
	ck_assert(b.c.bad);
	ck_assert_uint_eq(consumed(&b), 0);
	free(b.buf);

	b = BYTES(1, 2, 3, 4);
	ll_skip(&b.c, 1);
	ll_skip(&b.c, UINT64_MAX);	/* no wrap-around of the pointer */
	ck_assert(b.c.bad);
	ck_assert_uint_eq(consumed(&b), 1);
	free(b.buf);
}
END_TEST

/* ---- fixed-size ---------------------------------------------------------------- */

START_TEST(test_fixed_little_endian)
{
	struct bytes b = BYTES(0x11, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11,
			       0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0xab, 0xcd, 0xef);

	ck_assert_uint_eq(ll_fixed(&b.c, 1), 0x11);
	ck_assert_uint_eq(ll_fixed(&b.c, 2), 0x1122);
	ck_assert_uint_eq(ll_fixed(&b.c, 4), 0x11223344);
	ck_assert_uint_eq(ll_fixed(&b.c, 8), 0x1122334455667788ULL);
	ck_assert_uint_eq(ll_fixed(&b.c, 3), 0xefcdab);	/* DW_FORM_strx3 */
	ck_assert(!b.c.bad);
	ck_assert_ptr_eq(b.c.p, b.c.end);
	ck_assert_uint_eq(ll_fixed(&b.c, 0), 0);
	ck_assert(!b.c.bad);
	free(b.buf);

	b = BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	ck_assert_uint_eq(ll_fixed(&b.c, 8), UINT64_MAX);
	free(b.buf);
}
END_TEST

START_TEST(test_fixed_overrun)
{
	struct bytes b = BYTES(1, 2, 3);

	ck_assert_uint_eq(ll_fixed(&b.c, 4), 0);
	ck_assert(b.c.bad);
	ck_assert_uint_eq(consumed(&b), 0);	/* nothing consumed by a refused read */
	free(b.buf);

	b = BYTES(1, 2, 3, 4, 5, 6, 7);
	ck_assert_uint_eq(ll_fixed(&b.c, 4), 0x04030201);
	ck_assert_uint_eq(ll_fixed(&b.c, 4), 0);
	ck_assert(b.c.bad);
	ck_assert_uint_eq(consumed(&b), 4);
	free(b.buf);
}
END_TEST

/* A run of reads is checked once at its end: bad, once set, stays set. */
START_TEST(test_bad_is_sticky)
{
	struct bytes b = BYTES(0x80, 0x05, 0x07);

	ck_assert_uint_eq(ll_fixed(&b.c, 4), 0);
	ck_assert(b.c.bad);
	ck_assert_uint_eq(ll_uleb(&b.c), 0x280);	/* still readable, still bad */
	ck_assert_uint_eq(ll_fixed(&b.c, 1), 7);
	ck_assert(b.c.bad);
	free(b.buf);
}
END_TEST

/* ---- look-ahead ---------------------------------------------------------------- */

START_TEST(test_ahead)
{
	struct bytes b = BYTES(10, 20, 30, 40);
	struct ll_cursor r;

	ll_skip(&b.c, 1);
	r = ll_ahead(&b.c, 2);
	ck_assert(!r.bad);
	ck_assert_uint_eq(ll_fixed(&r, 1), 40);
	ck_assert_uint_eq(consumed(&b), 1);	/* the original does not move */
	ck_assert(!b.c.bad);

	r = ll_ahead(&b.c, 3);			/* exactly at the end: allowed, empty */
	ck_assert(!r.bad);
	ck_assert_ptr_eq(r.p, r.end);
	ck_assert_uint_eq(ll_fixed(&r, 1), 0);
	ck_assert(r.bad);

	r = ll_ahead(&b.c, 4);			/* past the end */
	ck_assert(r.bad);
	ck_assert(!b.c.bad);

	r = ll_ahead(&b.c, UINT64_MAX);
	ck_assert(r.bad);
	ck_assert_ptr_eq(r.end, b.c.end);
	free(b.buf);
}
END_TEST

static Suite *cursor_suite(void)
{
	Suite *s = suite_create("byte_cursor");
	TCase *t = tcase_create("leb128");

	tcase_add_test(t, test_uleb_standard_values);
	tcase_add_test(t, test_uleb_max_and_overlong);
	tcase_add_test(t, test_uleb_truncated);
	tcase_add_test(t, test_sleb_standard_values);
	tcase_add_test(t, test_sleb_extremes);
	tcase_add_test(t, test_sleb_truncated);
	tcase_add_test(t, test_skip_leb);
	suite_add_tcase(s, t);

	t = tcase_create("fixed");
	tcase_add_test(t, test_skip);
	tcase_add_test(t, test_fixed_little_endian);
	tcase_add_test(t, test_fixed_overrun);
	tcase_add_test(t, test_bad_is_sticky);
	tcase_add_test(t, test_ahead);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cursor_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
