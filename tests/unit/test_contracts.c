// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the group asserts' scan (source/asserts.h): what the
 * plain scan of C takes for an assert, and the constants it evaluates.
 * The evaluation on compiled images is tests/contracts/run_contracts.py's.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdlib.h>
#include <string.h>

#include "../../src/source/asserts.h"

static void parse(const char *text, struct ll_group_asserts *out)
{
	memset(out, 0, sizeof(*out));
	ll_group_asserts_parse("net/x.c", text, strlen(text), out);
}

START_TEST(test_constants)
{
	uint64_t v = 0;

	ck_assert(ll_eval_constant("96", &v) && v == 96);
	ck_assert(ll_eval_constant("91 + 4", &v) && v == 95);
	ck_assert(ll_eval_constant("0x40", &v) && v == 64);
	ck_assert(ll_eval_constant("(8 + 2) * 3 - 1", &v) && v == 29);
	ck_assert(ll_eval_constant("1 << 6", &v) && v == 64);
	ck_assert(ll_eval_constant("64UL / 2", &v) && v == 32);
	ck_assert(!ll_eval_constant("sizeof(long) * 4", &v));
	ck_assert(!ll_eval_constant("SMP_CACHE_BYTES", &v));
	ck_assert(!ll_eval_constant("4 / 0", &v));
	ck_assert(!ll_eval_constant("(4", &v));
	ck_assert(!ll_eval_constant("1 - 2", &v));
	ck_assert(!ll_eval_constant("", &v));
}
END_TEST

START_TEST(test_scan_asserts)
{
	struct ll_group_asserts a;

	parse("static void __init tcp_struct_check(void)\n"
	      "{\n"
	      "\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp_sock, tcp_sock_read_tx, max_window);\n"
	      "\tCACHELINE_ASSERT_GROUP_SIZE(struct tcp_sock,\n"
	      "\t\t\t\t    tcp_sock_write_txrx, 91 + 4);\n"
	      "\tCACHELINE_ASSERT_GROUP_MEMBER(union u, g, a . b);\n"
	      "}\n", &a);
	ck_assert_uint_eq(a.n, 3);
	ck_assert_int_eq(a.v[0].kind, LL_ASSERT_MEMBER);
	ck_assert_str_eq(a.v[0].struct_name, "tcp_sock");
	ck_assert_int_eq(a.v[0].struct_kind, LL_STRUCT);
	ck_assert_str_eq(a.v[0].group, "tcp_sock_read_tx");
	ck_assert_str_eq(a.v[0].member, "max_window");
	ck_assert_str_eq(a.v[0].decl.file, "net/x.c");
	ck_assert_uint_eq(a.v[0].decl.line, 3);
	ck_assert_uint_eq(a.v[0].decl.column, 2);
	ck_assert_int_eq(a.v[1].kind, LL_ASSERT_SIZE);
	ck_assert_uint_eq(a.v[1].decl.line, 4);
	ck_assert_str_eq(a.v[1].size_text, "91 + 4");
	ck_assert(a.v[1].size_known);
	ck_assert_uint_eq(a.v[1].size, 95);
	ck_assert_int_eq(a.v[2].struct_kind, LL_UNION);
	ck_assert_str_eq(a.v[2].member, "a.b");
	ll_group_asserts_release(&a);
}
END_TEST

START_TEST(test_scan_skips_what_is_no_assert)
{
	struct ll_group_asserts a;

	parse("#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) \\\n"
	      "\tBUILD_BUG_ON(0)\n"
	      "/* CACHELINE_ASSERT_GROUP_SIZE(struct s, g, 1); */\n"
	      "// CACHELINE_ASSERT_GROUP_SIZE(struct s, g, 2);\n"
	      "const char *x = \"CACHELINE_ASSERT_GROUP_SIZE(struct s, g, 3)\";\n"
	      "MY_CACHELINE_ASSERT_GROUP_SIZE(struct s, g, 4);\n"
	      "CACHELINE_ASSERT_GROUP_SIZE(struct s, g);\n"
	      "CACHELINE_ASSERT_GROUP_SIZE(struct s, g, 5, 6);\n"
	      "CACHELINE_ASSERT_GROUP_SIZE(struct s, g, sizeof(long));\n"
	      "CACHELINE_ASSERT_GROUP_SIZE(struct s, g, (7\n", &a);
	/* Only the sizeof one: an assert whose constant we leave unknown. */
	ck_assert_uint_eq(a.n, 1);
	ck_assert_str_eq(a.v[0].size_text, "sizeof(long)");
	ck_assert(!a.v[0].size_known);
	ck_assert_uint_eq(a.v[0].decl.line, 9);
	ll_group_asserts_release(&a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("contracts");
	TCase *t = tcase_create("scan");
	SRunner *sr;
	int failed;

	tcase_add_test(t, test_constants);
	tcase_add_test(t, test_scan_asserts);
	tcase_add_test(t, test_scan_skips_what_is_no_assert);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
