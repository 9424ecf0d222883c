/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The catalog of checks (checks/catalog.c). A new check is one entry there
 * plus the code in checks/ that produces its findings.
 */
#ifndef LAYOUTLINT_CATALOG_H
#define LAYOUTLINT_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "model/finding.h"

/*
 * Every check, in catalog order: what the code producing findings names a
 * check by, so that a check the catalog lacks does not compile. A finding
 * carries its check's string id (ll_check_id()): rules, baselines and
 * reports, which read ids from files, keep those.
 */
enum ll_check {
	LL_CHECK_MIXED_CACHELINE,
	LL_CHECK_WRITE_DOMAINS,
	LL_CHECK_SPLIT_HOT,
	LL_CHECK_STALE_RULE,
	LL_CHECK_PLACEMENT,
	LL_CHECK_GROUP_SPAN,
	LL_CHECK_GROUP_MEMBER,
	LL_CHECK_ARRAY_NEIGHBOURS,
	LL_CHECK_ADJACENT_LINES,
	LL_CHECK_RULE_DRIFT,
	LL_CHECK_MEASURED_MIXED,
	LL_CHECK_WRITTEN_READ_MOSTLY,
	LL_CHECK_UNWRITTEN_WRITE_HOT,
	LL_CHECK_STATIC_WRITE_DOMAINS,
	LL_CHECK_LAYOUT_CHANGE,
	LL_CHECK_GROUP_ASSERT,
	LL_CHECK_DOC_DRIFT,
	LL_CHECK_RANDSTRUCT,
	LL_CHECK_COUNT
};

struct ll_check_def {
	const char *id;			/* what findings, rules and baselines say */
	const char *sarif_name;		/* SARIF reportingDescriptor name */
	enum ll_level level;		/* default level */
	/* --suggest is for findings an order can remove; the others are not the solver's. */
	bool fixable_by_reorder;
	/* Its pairs are written as found (read-mostly member first), not sorted. */
	bool ordered_pair;
	/* Its one "member" is a rules pattern, not a member path. */
	bool names_pattern;
	const char *summary;		/* one sentence */
	const char *description;	/* what it means and why it costs */
	const char *help;		/* how to fix or accept it */
};

/* Every check, in catalog order; *N is how many. */
const struct ll_check_def *ll_catalog(size_t *n);
/* The entry for ID, or NULL when ID names no check. */
const struct ll_check_def *ll_check_find(const char *id);
/* Position of ID in catalog order, or -1. */
int ll_check_index(const char *id);
bool ll_check_fixable_by_reorder(const char *id);
/* CHECK's string id, the one its findings carry (the same pointer each time). */
const char *ll_check_id(enum ll_check check);
/* Whether RULE, a finding's or a file's id, is CHECK's. */
bool ll_check_is(const char *rule, enum ll_check check);
/* Whether the rules' 'allow' statements accept CHECK's findings at PATH (ll_allowed()). */
bool ll_check_allowed(const struct ll_allow *allows, size_t n, enum ll_check check,
		      const char *path);
/*
 * A new finding of CHECK at the check's default level, so that a level is
 * declared once, here; a check that raises some of its findings
 * (split-hot) sets f->level itself.
 */
struct ll_finding *ll_check_finding_add(struct ll_findings *out, enum ll_check check,
					int64_t cacheline);

#endif
