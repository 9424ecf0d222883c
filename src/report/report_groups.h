/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=patch --group-markers: each rules 'group' of a struct written
 * into the tree the way the kernel writes its hot groups, as part of the
 * one patch: markers in the declaring header, group asserts in the
 * struct's check function, net_cachelines rows (source/group_patch.h does
 * the editing).
 */
#ifndef LAYOUTLINT_REPORT_GROUPS_H
#define LAYOUTLINT_REPORT_GROUPS_H

#include "checks/docdrift.h"
#include "checks/run.h"
#include "util/diag.h"
#include "util/strbuf.h"

/*
 * OUT holds ll_report_patch()'s patch; it is rewritten with the groups'
 * edits, each file one diff. PLANS (N) are doc-drift's plans of the
 * first binary. Refusals of one group are notes on stderr; -1 with ERR
 * when no struct linted has a rules group, or the tree cannot be read.
 */
int ll_report_group_patch(const struct ll_run *run, const char *srcdir,
			  const struct ll_doc_plan *plans, size_t n, struct strbuf *out,
			  struct ll_error *err);

#endif
