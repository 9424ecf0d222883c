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
/*
 * A new finding of check ID (a catalog id) at the check's default level,
 * so that a level is declared once, here; a check that raises some of its
 * findings (split-hot) sets f->level itself.
 */
struct ll_finding *ll_check_finding_add(struct ll_findings *out, const char *id,
					int64_t cacheline);

#endif
