// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for --prove's arithmetic and CPU choice (src/prove/):
 * the Welch interval of a ratio must behave as a ratio does (scale with
 * the data, invert when the samples swap, widen with noise, hold 1 for one
 * sample against itself), the t quantile must match the printed tables,
 * the sysfs CPU-list parser must take what the kernel writes and refuse
 * the rest within its bounds, and the placement must put readers on
 * another socket, never on an SMT sibling, and refuse one CPU.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/prove/prove.h"

static const double A[] = { 101, 97, 103, 99, 100, 98, 102, 100 };
static const double B[] = { 151, 149, 148, 152, 150, 147, 153, 150 };
#define N 8

START_TEST(test_ratio_scales_and_inverts)
{
	double r, lo, hi, df, r2, lo2, hi2, df2, b3[N];

	ck_assert(ll_welch_ratio(A, N, B, N, &r, &lo, &hi, &df));
	ck_assert(fabs(r - 150.0 / 100.0) < 1e-12);
	ck_assert(lo < r && r < hi && lo > 1);
	/* Swapping the samples gives the reciprocal interval. */
	ck_assert(ll_welch_ratio(B, N, A, N, &r2, &lo2, &hi2, &df2));
	ck_assert(fabs(r2 * r - 1) < 1e-12);
	ck_assert(fabs(lo2 * hi - 1) < 1e-9 && fabs(hi2 * lo - 1) < 1e-9);
	ck_assert(fabs(df - df2) < 1e-9);
	/* Scaling B scales the ratio and its interval alike. */
	for (int i = 0; i < N; i++)
		b3[i] = 3 * B[i];
	ck_assert(ll_welch_ratio(A, N, b3, N, &r2, &lo2, &hi2, &df2));
	ck_assert(fabs(r2 / r - 3) < 1e-9 && fabs(lo2 / lo - 3) < 1e-9 && fabs(hi2 / hi - 3) < 1e-9);
}
END_TEST

START_TEST(test_noise_widens_and_self_holds_one)
{
	double noisy[N], r, lo, hi, df, r2, lo2, hi2, df2;

	for (int i = 0; i < N; i++)
		noisy[i] = 150 + (B[i] - 150) * 10;
	ck_assert(ll_welch_ratio(A, N, B, N, &r, &lo, &hi, &df));
	ck_assert(ll_welch_ratio(A, N, noisy, N, &r2, &lo2, &hi2, &df2));
	ck_assert(fabs(r - r2) < 1e-12);
	ck_assert(hi2 / lo2 > hi / lo);
	ck_assert(ll_welch_ratio(A, N, A, N, &r, &lo, &hi, &df));
	ck_assert(r == 1 && lo < 1 && hi > 1);
	ck_assert_int_eq(ll_prove_outcome_of(lo, hi, true), LL_PROVE_UNCHANGED);
	/* Too few samples, or a mean that is no throughput. */
	ck_assert(!ll_welch_ratio(A, 1, B, N, &r, &lo, &hi, &df));
	{
		const double zero[2] = { 0, 0 };

		ck_assert(!ll_welch_ratio(zero, 2, B, N, &r, &lo, &hi, &df));
	}
}
END_TEST

START_TEST(test_t_quantile)
{
	/* Student's t, 0.975, from the printed tables. */
	ck_assert(fabs(ll_t975(1) - 12.706) < 1e-3);
	ck_assert(fabs(ll_t975(10) - 2.228) < 1e-3);
	ck_assert(fabs(ll_t975(10.9) - 2.228) < 1e-3);	/* rounded down: wider */
	ck_assert(fabs(ll_t975(40) - 2.021) < 1e-3);
	ck_assert(fabs(ll_t975(60) - 2.000) < 1e-3);
	ck_assert(fabs(ll_t975(120) - 1.980) < 1e-3);
	ck_assert(fabs(ll_t975(1e9) - 1.960) < 1e-3);
	for (double df = 1; df < 500; df += 0.5)
		ck_assert(ll_t975(df + 0.5) <= ll_t975(df) + 1e-12);
}
END_TEST

START_TEST(test_outcomes)
{
	ck_assert_int_eq(ll_prove_outcome_of(1.1, 1.3, true), LL_PROVE_FASTER);
	ck_assert_int_eq(ll_prove_outcome_of(0.5, 0.8, true), LL_PROVE_SLOWER);
	ck_assert_int_eq(ll_prove_outcome_of(0.95, 1.05, true), LL_PROVE_UNCHANGED);
	ck_assert_int_eq(ll_prove_outcome_of(0.7, 1.4, true), LL_PROVE_NOISE);
	ck_assert_int_eq(ll_prove_outcome_of(1.1, 1.3, false), LL_PROVE_NOISE);
}
END_TEST

static bool parse(const char *s, bool *set, unsigned limit)
{
	memset(set, 0, limit * sizeof(*set));
	return ll_parse_cpu_list(s, strlen(s), set, limit);
}

START_TEST(test_cpu_list)
{
	bool set[32];
	static const char *const bad[] = { "", "\n", "a", "1,,2", "1,", ",1", "3-1", "1-", "-1",
					   "1 2", "12345678", "0-12345678", "1-2-3", "0x1" };

	ck_assert(parse("0-3,8,10-11\n", set, 32));
	for (unsigned c = 0; c < 32; c++)
		ck_assert(set[c] == (c <= 3 || c == 8 || c == 10 || c == 11));
	ck_assert(parse("5", set, 32) && set[5] && !set[4]);
	/* Beyond LIMIT: taken as far as it goes, without looping on. */
	ck_assert(parse("30-1000000", set, 32) && set[30] && set[31]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(!parse(bad[i], set, 32), "accepted '%s'", bad[i]);
}
END_TEST

static void plan_two_classes(struct ll_prove_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->nr_classes = 2;
	p->classes = calloc(2, sizeof(*p->classes));
	p->classes[0] = (struct ll_prove_class){ .name = strdup("writer"), .writes = true };
	p->classes[1] = (struct ll_prove_class){ .name = strdup("reader") };
}

START_TEST(test_place_other_socket_no_siblings)
{
	/* Two sockets, two cores each, two SMT threads per core: 0/4 1/5 on socket 0. */
	struct ll_cpu cpus[8];
	struct ll_topology t = { cpus, 8, 2, 2, 4 };
	struct ll_prove_plan p;
	struct ll_placement pl;
	struct ll_error err;

	for (unsigned i = 0; i < 8; i++)
		cpus[i] = (struct ll_cpu){ .id = i, .package = (i % 4) / 2, .core = (int)i % 2,
					   .node = (int)(i % 4) / 2, .siblings = 2,
					   .sibling_group = i % 4 };
	plan_two_classes(&p);
	ck_assert_int_eq(ll_prove_place(&p, &t, false, &pl, &err), 0);
	ck_assert_uint_eq(p.classes[0].threads, 1);
	ck_assert_uint_eq(p.classes[0].cpus[0], 0);
	ck_assert_uint_ge(p.classes[1].threads, 1);
	for (unsigned k = 0; k < p.classes[1].threads; k++) {
		unsigned c = p.classes[1].cpus[k];

		ck_assert_uint_ne(cpus[c].sibling_group, cpus[0].sibling_group);
		for (unsigned j = 0; j < k; j++)
			ck_assert_uint_ne(cpus[p.classes[1].cpus[j]].sibling_group,
					  cpus[c].sibling_group);
	}
	ck_assert_int_eq(cpus[p.classes[1].cpus[0]].node, 1);
	ck_assert_ptr_nonnull(strstr(pl.how, "NUMA"));
	ll_placement_release(&pl);
	ll_prove_plan_release(&p);
}
END_TEST

START_TEST(test_place_refuses)
{
	struct ll_cpu one = { .id = 3, .package = 0, .siblings = 1, .sibling_group = 3 };
	struct ll_cpu smt[2] = { { .id = 0, .siblings = 2, .sibling_group = 0 },
				 { .id = 1, .siblings = 2, .sibling_group = 0 } };
	struct ll_topology t1 = { &one, 1, 1, 1, 1 }, t2 = { smt, 2, 1, 1, 1 };
	struct ll_prove_plan p;
	struct ll_placement pl;
	struct ll_error err;

	plan_two_classes(&p);
	ck_assert_int_eq(ll_prove_place(&p, &t1, false, &pl, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "two CPUs"));
	ck_assert_ptr_nonnull(strstr(err.msg, "CPU 3"));
	ck_assert_int_eq(ll_prove_place(&p, &t2, false, &pl, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--prove-smt"));
	ck_assert_int_eq(ll_prove_place(&p, &t2, true, &pl, &err), 0);
	ck_assert_uint_ne(p.classes[0].cpus[0], p.classes[1].cpus[0]);
	ll_placement_release(&pl);
	ll_prove_plan_release(&p);
}
END_TEST

START_TEST(test_real_topology)
{
	struct ll_topology t;
	struct ll_error err;

	ck_assert_int_eq(ll_topology_read("/sys/devices/system", &t, &err), 0);
	ck_assert_uint_ge(t.nr_cpus, 1);
	ck_assert_uint_ge(t.cores, 1);
	ck_assert_uint_le(t.cores, t.nr_cpus);
	ll_topology_release(&t);
}
END_TEST

static Suite *prove_suite(void)
{
	Suite *s = suite_create("prove");
	TCase *t = tcase_create("stats");

	tcase_add_test(t, test_ratio_scales_and_inverts);
	tcase_add_test(t, test_noise_widens_and_self_holds_one);
	tcase_add_test(t, test_t_quantile);
	tcase_add_test(t, test_outcomes);
	suite_add_tcase(s, t);
	t = tcase_create("topology");
	tcase_add_test(t, test_cpu_list);
	tcase_add_test(t, test_place_other_socket_no_siblings);
	tcase_add_test(t, test_place_refuses);
	tcase_add_test(t, test_real_topology);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prove_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
