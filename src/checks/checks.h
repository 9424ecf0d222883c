/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout checks. Work on the model alone (tags already applied by the
 * rules engine).
 */
#ifndef LAYOUTLINT_CHECKS_H
#define LAYOUTLINT_CHECKS_H

#include "model/access.h"
#include "model/finding.h"
#include "model/profile.h"
#include "model/units.h"

struct ll_check_input {
	const struct ll_struct *s;
	uint64_t align;		/* start alignment assumed; 0: the cacheline size */
	const struct ll_allow *allows;
	size_t nr_allows;
	bool adjacent_lines;	/* --adjacent-lines: also check each aligned pair of lines */
	const struct ll_hot_sets *hot_sets;	/* the rules' groups; NULL: none */
	struct ll_measure_thresholds thresholds;	/* for rule-drift, measured-mixed */
	bool has_rules;		/* a rules block applied: untagged members are news */
	const struct ll_access_view *access;	/* --access: the code's evidence; NULL: none */
};

/*
 * Run mixed-cacheline, write-domains, split-hot, placement, array-neighbours
 * and group-span on in->hot_sets; with in->adjacent_lines, adjacent-lines;
 * when a profile measured S, rule-drift and measured-mixed (measured.c).
 */
void ll_check(const struct ll_check_input *in, struct ll_findings *out);
/*
 * checks/access.c: the tags against the machine code (--access):
 * written-read-mostly, unwritten-write-hot, static-write-domains.
 */
void ll_check_access(const struct ll_check_input *in, const struct ll_units *units,
		     const struct ll_lines *lines, struct ll_findings *out);
/* checks/measured.c: the two checks of measured hotness, on S's units and lines. */
void ll_check_measured(const struct ll_check_input *in, const struct ll_units *units,
		       const struct ll_lines *lines, struct ll_findings *out);

#endif
