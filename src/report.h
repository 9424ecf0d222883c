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
#include "layout.h"
#include "strbuf.h"

struct ll_suggestion;

struct ll_linted {
	struct ll_struct *layout;
	struct ll_findings findings;
	bool has_rules;			/* a rules block applied to this struct */
	struct ll_suggestion *suggestion;	/* NULL unless --suggest */
};

struct ll_run {
	const char *binary_path;
	const char *build_id;
	struct ll_linted *structs;
	size_t nr_structs;
	bool color;
	bool quiet;		/* text: diagnostics only */
};

/* Each reporter renders the whole run into OUT; main writes it. */
void ll_report_text(const struct ll_run *run, struct strbuf *out);
void ll_report_json(const struct ll_run *run, struct strbuf *out);

#endif
