/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run concluded: per struct, its model, its findings and what the
 * later layers (solver, gating) added. Built by the CLI, read by gating and
 * by the reporters, which see only this, never a debug format.
 */
#ifndef LAYOUTLINT_RUN_H
#define LAYOUTLINT_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/groups.h"
#include "model/access.h"
#include "model/finding.h"
#include "model/layout.h"
#include "model/profile.h"
#include "model/units.h"

struct ll_suggestion;
struct ll_source;
struct ll_gate_mark;
struct ll_layout_diff;
struct ll_gating;
struct ll_contracts;

/*
 * --suggest: the proposed layout as a model of its own, mapped as the
 * current one is, so that a reporter draws it without analysing anything.
 * Owns the copy; its members' group tags borrow from ll_linted.groups.
 */
struct ll_proposal {
	struct ll_struct *layout;	/* ll_suggestion_layout(); NULL: no suggestion */
	struct ll_units units;		/* its units and cacheline map */
	struct ll_lines lines;
	struct ll_groups groups;	/* its kernel groups, where the markers moved to */
};

struct ll_linted {
	struct ll_struct *layout;
	const char *binary;		/* the binary it was read from (borrowed); NULL: the
					   run's binary_path */
	struct ll_findings findings;
	bool has_rules;			/* a rules block applied to this struct */
	struct ll_suggestion *suggestion;	/* NULL unless --suggest */
	struct ll_proposal proposal;	/* the suggestion applied (layout NULL without one) */
	struct ll_source *source;	/* --format=patch: the struct's header, mapped */
	char *no_patch;			/* --format=patch: why there is no source, or NULL */
	struct ll_gate_mark *marks;	/* per finding, which pairs are new; NULL unless gating */
	struct ll_findings unchanged;	/* gating: the findings it dropped, all of whose pairs
					   the reference has (SARIF reports them suppressed) */
	struct ll_layout_diff *diff;	/* NULL unless --against (baseline.h) */
	struct ll_units units;		/* the units and cacheline map of the final tags */
	struct ll_lines lines;
	struct ll_groups groups;	/* kernel cacheline groups (found even with --groups=off).
					   Members' group tags borrow from it: free it last. */
	struct ll_profile_notes profile_notes;	/* --profile rows that fit no member */
	/* --access: the layout's evidence with its constructors decided; e NULL: none. */
	struct ll_access_view access;
	struct ll_allow *allows;	/* the rules' allows (paths borrowed from the layout), kept
					   for the checks that run after the lint: layout-change */
	size_t nr_allows;
	/* The rules' 'group' hot sets (members borrowed from the layout), kept for
	   --group-markers, which writes them into the source as kernel groups. */
	struct ll_hot_sets hot_sets;
};

/* One binary of a run of several (--binary). */
struct ll_binary {
	const char *path;
	const char *build_id;
};

struct ll_change;

struct ll_run {
	const char *binary_path;	/* the first binary */
	const char *build_id;
	const struct ll_binary *binaries;	/* --binary: every binary, in order (the first is
						   binary_path); NULL for a positional BINARY */
	size_t nr_binaries;
	const char *srcroot;	/* SARIF %SRCROOT%: an absolute directory; NULL: none */
	struct ll_linted *structs;
	size_t nr_structs;
	bool color;
	bool quiet;		/* text: diagnostics only */
	const char *source_url;	/* html: link template with {file} and {line}; NULL: no links */
	bool line_pairs;	/* html: mark each 128-byte pair of 64-byte lines */
	const struct ll_gating *gating;	/* NULL unless --baseline or --against (baseline.h) */
	bool measured;		/* --profile: reporters show the measure of every struct */
	struct ll_measure_thresholds thresholds;	/* what the measures were judged by */
	struct ll_static_thresholds static_thresholds;	/* --access: static tags' */
	/* Several --binary, or --srcdir asserts: the per-image table (checks/contracts.h). */
	const struct ll_contracts *contracts;
	const struct ll_change *change;	/* --diff: the change under review (gating/change.h) */
	/*
	 * Notes about the run (util/diag.h): the readers' about their inputs
	 * and lint's own, for JSON's "notes" and SARIF's notifications; NULL
	 * or empty: none, or printed on stderr already.
	 */
	const struct ll_notes *notes;
};

#endif
