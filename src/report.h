/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run concluded, handed to one reporter per output format. The
 * reporters see only the model and the findings, never a debug format.
 */
#ifndef LAYOUTLINT_REPORT_H
#define LAYOUTLINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "groups.h"
#include "layout.h"
#include "strbuf.h"

struct ll_suggestion;
struct ll_source;
struct ll_gate_mark;
struct ll_layout_diff;
struct ll_gating;

struct ll_linted {
	struct ll_struct *layout;
	struct ll_findings findings;
	bool has_rules;			/* a rules block applied to this struct */
	struct ll_suggestion *suggestion;	/* NULL unless --suggest */
	struct ll_source *source;	/* --format=patch: the struct's header, mapped */
	char *no_patch;			/* --format=patch: why there is no source, or NULL */
	struct ll_gate_mark *marks;	/* per finding, which pairs are new; NULL unless gating */
	struct ll_layout_diff *diff;	/* NULL unless --against (baseline.h) */
	struct ll_groups groups;	/* kernel cacheline groups; empty with --groups=off.
					   Members' group tags borrow from it: free it last. */
};

struct ll_run {
	const char *binary_path;
	const char *build_id;
	struct ll_linted *structs;
	size_t nr_structs;
	bool color;
	bool quiet;		/* text: diagnostics only */
	const struct ll_gating *gating;	/* NULL unless --baseline or --against (baseline.h) */
};

/* Each reporter renders the whole run into OUT; main writes it. */
void ll_report_text(const struct ll_run *run, struct strbuf *out);
void ll_report_json(const struct ll_run *run, struct strbuf *out);
void ll_report_sarif(const struct ll_run *run, struct strbuf *out);

#endif
