/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout checks. Work on the model alone (tags already applied by the
 * rules engine).
 */
#ifndef LAYOUTLINT_CHECKS_H
#define LAYOUTLINT_CHECKS_H

#include "model/finding.h"
#include "model/units.h"

struct ll_check_input {
	const struct ll_struct *s;
	uint64_t align;		/* start alignment assumed; 0: the cacheline size */
	const struct ll_allow *allows;
	size_t nr_allows;
	bool adjacent_lines;	/* --adjacent-lines: also check each aligned pair of lines */
	const struct ll_hot_sets *hot_sets;	/* the rules' groups; NULL: none */
};

/*
 * Run mixed-cacheline, write-domains, split-hot and placement on S, with
 * in->adjacent_lines adjacent-lines, and group-span on in->hot_sets.
 */
void ll_check(const struct ll_check_input *in, struct ll_findings *out);

#endif
