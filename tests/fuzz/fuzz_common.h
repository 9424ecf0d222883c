/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both fuzzers do with a struct once they have one: lint it as
 * main.c's lint_one() does (rules block, kernel groups, checks) and render
 * it in every output format, so the reporters see hostile models too.
 */
#ifndef LL_FUZZ_COMMON_H
#define LL_FUZZ_COMMON_H

#include <string.h>

#include "../../src/checks/checks.h"
#include "../../src/checks/groups.h"
#include "../../src/report/report.h"
#include "../../src/rules/rules.h"
#include "../../src/util/strbuf.h"

/* Lint S (owned by L from here on) with BLOCK, or none; false on a rules error. */
static inline bool fuzz_lint(struct ll_linted *l, struct ll_struct *s, struct ll_block *block)
{
	struct ll_allows allows = { 0 };
	struct ll_hot_sets sets = { 0 };
	struct ll_error err;
	uint64_t align = 0;

	memset(l, 0, sizeof(*l));
	l->layout = s;
	if (block) {
		if (block->cacheline)
			s->cacheline = block->cacheline;
		l->has_rules = true;
		if (ll_rules_apply(block, s, &l->findings, &allows, &sets, &err)) {
			free(allows.v);
			ll_hot_sets_release(&sets);
			return false;
		}
		align = block->align == LL_ALIGN_TYPE ? s->alignment : block->align;
		if (block->align && block->align != LL_ALIGN_TYPE && block->align < s->alignment) {
			free(allows.v);
			ll_hot_sets_release(&sets);
			return false;	/* main.c: exit 2 */
		}
	}
	struct ll_check_input ci = { .s = s, .align = align, .allows = allows.v,
				     .nr_allows = allows.n, .adjacent_lines = true,
				     .hot_sets = &sets };
	const struct ll_static_thresholds st = { 1, 1 };

	/* --access: the evidence's checks, and static tags where no rules gave any. */
	if (s->access) {
		ll_access_view_init(&l->access, s->access, s, NULL);
		ci.access = &l->access;
		if (!block)
			ll_access_static_tags(&l->access, s->members, s->nr_members, &st);
	}

	ll_find_groups(s, &l->groups);
	ll_groups_apply_tags(s, &l->groups);
	ll_check(&ci, &l->findings);
	ll_check_groups(&ci, &l->groups, &l->findings);
	free(allows.v);
	ll_hot_sets_release(&sets);
	return true;
}

static inline void fuzz_linted_release(struct ll_linted *l)
{
	ll_findings_release(&l->findings);
	ll_access_view_release(&l->access);
	ll_struct_free(l->layout);
	ll_groups_release(&l->groups);	/* last: member tags borrow from it */
	memset(l, 0, sizeof(*l));
}

/* Every reporter over RUN; the output is dropped. */
static inline void fuzz_report(const struct ll_run *run)
{
	struct strbuf out = STRBUF_INIT;

	ll_report_text(run, &out);
	sb_reset(&out);
	ll_report_json(run, &out);
	sb_reset(&out);
	ll_report_sarif(run, &out);
	sb_release(&out);
}

#endif
