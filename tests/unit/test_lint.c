// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for ll_lint_struct() (lint/lint.h), the "lint one struct" the
 * CLI calls for every struct it found, on hand-built models and rules
 * parsed from text: no binary, no debug format. They pin the order of the
 * steps (rules, groups, checks, solver, maps) by what each leaves behind.
 */

#include <check.h>	/* the Check framework; ours is src/checks/checks.h */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif
#include "../../src/lint/lint.h"
#include "../../src/solver/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_builder.h"

/* One lint: the rules it parsed, the struct it owns, what it returned. */
struct linted {
	struct ll_rules rules;
	struct ll_linted l;
	struct ll_error err;
	int rc;
};

/*
 * Lint S (taken over) with the "struct demo" block of RULES (NULL: no
 * rules) on a 64-byte-line architecture; O's other fields as given.
 */
static void lint(struct linted *t, struct ll_struct *s, const char *rules,
		 struct ll_lint_opts o)
{
	struct ll_block *b = NULL;

	memset(t, 0, sizeof(*t));
	if (rules) {
		ck_assert_msg(ll_rules_parse(&t->rules, "t.rules", rules, strlen(rules),
					     &t->err) == 0, "%s", t->err.msg);
		b = ll_rules_find(&t->rules, LL_STRUCT, "demo");
		ck_assert_ptr_nonnull(b);
	}
	if (!o.arch_cacheline)
		o.arch_cacheline = 64;
	t->l.layout = s;
	t->rc = ll_lint_struct(&o, b, &t->l, &t->err);
}

static void release(struct linted *t)
{
	ll_linted_release(&t->l);
	ll_rules_release(&t->rules);
}

/* struct demo, 64 bytes: ops, flags read-mostly; count write-hot; all one line. */
static struct ll_struct *one_line(void)
{
	struct ll_struct *s = mb_struct(LL_STRUCT, "demo", 64, 8, 64);

	mb_decl(mb_add(s, "ops", "const struct demo_ops *", 0, 8), 2, 29);
	mb_decl(mb_add(s, "flags", "unsigned int", 8, 4), 3, 15);
	mb_decl(mb_add(s, "count", "long", 16, 8), 4, 7);
	mb_decl(mb_add(s, "rest", "char[40]", 24, 40), 5, 7);
	return s;
}

static const char one_line_rules[] =
	"struct demo\n"
	"\tread-mostly ops flags\n"
	"\twrite-hot count\n";

/*
 * struct demo, 128 bytes: ops (read-mostly) and count (write-hot) share
 * line 0, then two untagged 56-byte buffers. Putting a buffer between them
 * separates them: no finding, still two lines.
 */
static struct ll_struct *two_lines(void)
{
	struct ll_struct *s = mb_struct(LL_STRUCT, "demo", 128, 8, 64);

	mb_decl(mb_add(s, "ops", "const struct demo_ops *", 0, 8), 2, 29);
	mb_decl(mb_add(s, "count", "long", 8, 8), 3, 7);
	mb_decl(mb_add(s, "a", "char[56]", 16, 56), 4, 7)->alignment = 1;
	mb_decl(mb_add(s, "b", "char[56]", 72, 56), 5, 7)->alignment = 1;
	return s;
}

static const char two_lines_rules[] =
	"struct demo\n"
	"\tread-mostly ops\n"
	"\twrite-hot count\n";

static const struct ll_member *member_of(const struct ll_struct *s, const char *path)
{
	for (size_t i = 0; i < s->nr_members; i++)
		if (strcmp(s->members[i].path, path) == 0)
			return &s->members[i];
	ck_abort_msg("no member %s", path);
	return NULL;
}

static uint64_t line_of(const struct ll_struct *s, const char *path)
{
	uint64_t first, last;

	ck_assert(ll_member_lines(member_of(s, path), s->cacheline, &first, &last));
	ck_assert_uint_eq(first, last);
	return first;
}

/* ---- findings ---------------------------------------------------------------- */

START_TEST(test_mixed_line)
{
	struct linted t;
	const struct ll_finding *f;

	lint(&t, one_line(), one_line_rules, (struct ll_lint_opts){ 0 });
	ck_assert_int_eq(t.rc, 0);
	ck_assert(t.l.has_rules);
	ck_assert_uint_eq(t.l.layout->cacheline, 64);
	ck_assert_msg(t.l.findings.n == 1, "%zu findings (first: %s)", t.l.findings.n,
		      t.l.findings.n ? t.l.findings.v[0].message : "-");
	f = &t.l.findings.v[0];
	ck_assert_str_eq(f->rule, "mixed-cacheline");
	ck_assert_int_eq(f->level, LL_LEVEL_ERROR);	/* the catalog's */
	ck_assert_int_eq(f->cacheline, 0);
	ck_assert_uint_eq(f->nr_pairs, 2);
	ck_assert_str_eq(f->pairs[0].a, "ops");
	ck_assert_str_eq(f->pairs[0].b, "count");
	ck_assert_str_eq(f->pairs[1].a, "flags");
	ck_assert_str_eq(f->pairs[1].b, "count");
	ck_assert_uint_eq(f->location.line, 2);	/* at the first read-mostly member */

	/* The map every reporter draws: one line, mixed, all four units. */
	ck_assert_uint_eq(t.l.units.n, 4);
	ck_assert_uint_eq(t.l.lines.n, 1);
	ck_assert_int_eq(t.l.lines.v[0].verdict, LL_VERDICT_MIXED);
	ck_assert_uint_eq(t.l.lines.v[0].nr_units, 4);
	/* No --suggest: no solver, no proposal. */
	ck_assert_ptr_null(t.l.suggestion);
	ck_assert_ptr_null(t.l.proposal.layout);
	release(&t);
}
END_TEST

START_TEST(test_no_rules_no_findings)
{
	struct linted t;

	lint(&t, one_line(), NULL, (struct ll_lint_opts){ 0 });
	ck_assert_int_eq(t.rc, 0);
	ck_assert(!t.l.has_rules);
	ck_assert_uint_eq(t.l.findings.n, 0);
	ck_assert_uint_eq(t.l.lines.n, 1);
	ck_assert_int_eq(t.l.lines.v[0].verdict, LL_VERDICT_UNTAGGED_ONLY);
	release(&t);
}
END_TEST

START_TEST(test_stale_rule)
{
	struct linted t;

	lint(&t, one_line(),
	     "struct demo\n\tread-mostly ops\n\twrite-hot f_count ?f_security\n",
	     (struct ll_lint_opts){ 0 });
	ck_assert_int_eq(t.rc, 0);
	/* ops alone is tagged: nothing mixes; f_count matches nothing, ?f_security may not. */
	ck_assert_uint_eq(t.l.findings.n, 1);
	ck_assert_str_eq(t.l.findings.v[0].rule, "stale-rule");
	ck_assert_int_eq(t.l.findings.v[0].level, LL_LEVEL_ERROR);
	ck_assert_ptr_nonnull(strstr(t.l.findings.v[0].message, "'f_count'"));
	release(&t);
}
END_TEST

/* --cacheline beats the block's, which beats the architecture's. */
START_TEST(test_cacheline_order)
{
	static const char rules[] = "struct demo\n\tcacheline 32\n\tread-mostly ops\n";
	struct linted t;

	lint(&t, one_line(), rules, (struct ll_lint_opts){ .arch_cacheline = 128 });
	ck_assert_int_eq(t.rc, 0);
	ck_assert_uint_eq(t.l.layout->cacheline, 32);
	ck_assert_uint_eq(t.l.lines.nr_lines, 2);
	release(&t);

	lint(&t, one_line(), rules, (struct ll_lint_opts){ .cacheline = 16, .arch_cacheline = 128 });
	ck_assert_uint_eq(t.l.layout->cacheline, 16);
	ck_assert_uint_eq(t.l.lines.nr_lines, 4);
	release(&t);

	lint(&t, one_line(), NULL, (struct ll_lint_opts){ .arch_cacheline = 128 });
	ck_assert_uint_eq(t.l.layout->cacheline, 128);
	ck_assert_uint_eq(t.l.lines.nr_lines, 1);
	release(&t);
}
END_TEST

/* rules.md: align N below the type's own alignment is an error at the rules line. */
START_TEST(test_align_below_type)
{
	struct linted t;

	lint(&t, one_line(), "struct demo\n\talign 4\n\tread-mostly ops\n",
	     (struct ll_lint_opts){ 0 });
	ck_assert_int_eq(t.rc, -1);
	ck_assert(t.err.located);
	ck_assert_msg(strncmp(t.err.msg, "t.rules:2: error: align 4 is below the 8-byte", 45) == 0,
		      "%s", t.err.msg);
	release(&t);
}
END_TEST

/* ---- --suggest ----------------------------------------------------------------- */

START_TEST(test_suggest_clears_mixed)
{
	struct linted t;
	const struct ll_suggestion *sg;
	const struct ll_proposal *p;

	lint(&t, two_lines(), two_lines_rules, (struct ll_lint_opts){ .suggest = true });
	ck_assert_int_eq(t.rc, 0);
	/* The findings are the current layout's... */
	ck_assert_uint_eq(t.l.findings.n, 1);
	ck_assert_str_eq(t.l.findings.v[0].rule, "mixed-cacheline");
	ck_assert_int_eq(t.l.lines.v[0].verdict, LL_VERDICT_MIXED);
	/* ...the suggestion's are none, in as many lines. */
	sg = t.l.suggestion;
	ck_assert_ptr_nonnull(sg);
	ck_assert(sg->changed);
	ck_assert_uint_eq(sg->before_findings, 1);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->size, 128);
	ck_assert_uint_eq(sg->cachelines, 2);

	/* The proposal, mapped for the reporters: ops and count apart, no mixed line. */
	p = &t.l.proposal;
	ck_assert_ptr_nonnull(p->layout);
	ck_assert_ptr_ne(p->layout, t.l.layout);
	ck_assert_uint_eq(p->lines.nr_lines, 2);
	ck_assert_uint_eq(p->units.n, 4);
	for (size_t i = 0; i < p->lines.n; i++)
		ck_assert_int_ne(p->lines.v[i].verdict, LL_VERDICT_MIXED);
	ck_assert_uint_ne(line_of(p->layout, "ops"), line_of(p->layout, "count"));
	/* The current layout is left as it was. */
	ck_assert_uint_eq(line_of(t.l.layout, "ops"), line_of(t.l.layout, "count"));
	release(&t);
}
END_TEST

START_TEST(test_suggest_nothing_to_fix)
{
	struct linted t;

	/* Tagged and clean: the solver is not asked (a hole alone is for untagged structs). */
	lint(&t, one_line(), "struct demo\n\tread-mostly ops flags\n", (struct ll_lint_opts){
	     .suggest = true });
	ck_assert_int_eq(t.rc, 0);
	ck_assert_uint_eq(t.l.findings.n, 0);
	ck_assert_ptr_null(t.l.suggestion);
	ck_assert_ptr_null(t.l.proposal.layout);
	release(&t);
}
END_TEST

static Suite *lint_suite(void)
{
	Suite *s = suite_create("lint");
	TCase *tc = tcase_create("findings");

	tcase_add_test(tc, test_mixed_line);
	tcase_add_test(tc, test_no_rules_no_findings);
	tcase_add_test(tc, test_stale_rule);
	tcase_add_test(tc, test_cacheline_order);
	tcase_add_test(tc, test_align_below_type);
	suite_add_tcase(s, tc);

	tc = tcase_create("suggest");
	tcase_add_test(tc, test_suggest_clears_mixed);
	tcase_add_test(tc, test_suggest_nothing_to_fix);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lint_suite());
	int failures;

	srunner_run_all(sr, CK_ENV);
	failures = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failures ? 1 : 0;
}
