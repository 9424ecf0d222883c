/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gating only on what is new (cli.md): a finding is made of its rule, its
 * struct and the member pairs it involves (read-mostly x write-hot,
 * write-hot x write-hot of two domains; for split-hot and stale-rule the one
 * member or pattern), by member path, never by line or offset. A reference
 * (a baseline file, or OLD-BINARY linted with the same rules) is a set of
 * such pairs; a finding is new when it has a pair the reference lacks.
 *
 * Also here: the per-struct layout diff that --against prints. The words
 * the reporters write about pairs and diffs are report/describe.h's.
 */
#ifndef LAYOUTLINT_BASELINE_H
#define LAYOUTLINT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/finding.h"
#include "util/diag.h"
#include "util/replace_file.h"
#include "model/layout.h"
#include "checks/run.h"
#include "util/json_reader.h"
#include "util/strbuf.h"

/* One (rule, struct, pair). Pairs match unordered: {a, b} == {b, a}. */
struct ll_pairkey {
	char *rule;
	enum ll_kind kind;
	char *name;		/* the struct's name */
	char *a;
	char *b;		/* NULL for a single member or pattern */
	unsigned line;		/* where a baseline file lists it; 0 otherwise */
	bool seen;		/* gating: some current finding has it */
};

/* A member of a recorded layout: its cachelines, none for a zero-size one. */
struct ll_layout_member_rec {
	char *path;
	bool lines;
	uint64_t first, last;
};

/*
 * A struct's layout as a baseline records it (layout_record.c): what
 * layout-change compares when the reference is a baseline, which holds
 * pairs, not binaries. One per struct and line size.
 */
struct ll_layout_record {
	enum ll_kind kind;
	char *name;
	unsigned cacheline;
	uint64_t size, cachelines;
	struct ll_layout_member_rec *members;	/* the struct's units, in offset order */
	size_t nr_members;
};

struct ll_pairset {
	struct ll_pairkey *v;	/* sorted and unique once built */
	size_t n;
	struct ll_layout_record *layouts;	/* sorted by kind, name, line size; unique */
	size_t nr_layouts;
};

/*
 * The pairs of every finding of RUN, sorted, one entry per pair, and the
 * layout of every struct RUN linted. layout-change findings add no pair:
 * a baseline gates them by its layouts, not by member names.
 */
void ll_pairset_from_run(const struct ll_run *run, struct ll_pairset *out);
/* OUT and the pairs of RUN (several references make one set). */
void ll_pairset_add_run(const struct ll_run *run, struct ll_pairset *out);
void ll_pairset_release(struct ll_pairset *set);

/* The baseline document for SET (JSON, one entry per line, stable). */
void ll_baseline_render(const struct ll_pairset *set, struct strbuf *out);
/*
 * Writing a baseline in two steps, so that a run that fails after the
 * baseline is computed (its output cannot be written) leaves the old one:
 * prepare writes the document to a temporary file next to PATH (refusing
 * a PATH that is a symbolic link or not a regular file, keeping an existing
 * file's mode), commit renames it over PATH, abandon removes it.
 */
struct ll_baseline_pending {
	struct ll_pending_file file;
};

int ll_baseline_prepare(const char *path, const struct ll_pairset *set,
			struct ll_baseline_pending *pending, struct ll_error *err);
int ll_baseline_commit(struct ll_baseline_pending *pending, struct ll_error *err);
void ll_baseline_abandon(struct ll_baseline_pending *pending);
/* Read a baseline; a malformed one fails naming PATH:LINE:COLUMN. */
int ll_baseline_load(const char *path, struct ll_pairset *out, struct ll_error *err);

/* For one reported finding: which of its gating pairs the reference lacks. */
struct ll_gate_mark {
	bool *pair_new;		/* one per gating pair (see ll_finding_gate_pairs) */
	size_t nr_pairs;
	size_t nr_new;
	/*
	 * --diff: the member whose line the change rewrote and that shifted
	 * this finding's members onto their line (borrowed path); NULL when
	 * the finding is located at one of its own members.
	 */
	const char *cause;
};

struct ll_gating {
	const char *reference;		/* the baseline file, or OLD-BINARY */
	const char *reference_build_id;	/* --against: OLD-BINARY's, may be NULL */
	bool against;
	bool strict;
	const struct ll_change *change;	/* --diff: locate new findings in it; NULL: none */
	const char *revision;		/* --base-revision: the reference's commit, or NULL */
	const char *repository;		/* --repository URI, or NULL */
	size_t reported_findings;	/* findings with at least one new pair */
	size_t new_pairs;
	size_t suppressed_findings;	/* findings whose pairs are all in the reference */
	size_t suppressed_pairs;
	size_t folded_findings;		/* --diff: shifted findings made notes of their cause's */
	struct ll_pairkey *vanished;	/* reference pairs of linted structs that no longer
					   occur; borrowed from the reference set */
	size_t nr_vanished;
};

/*
 * The gating pairs of F: its pairs; a finding without pairs falls back to
 * its members, one key each. Returns how many; A and B are borrowed.
 */
size_t ll_finding_gate_pairs(const struct ll_finding *f, size_t i, const char **a,
			     const char **b);

/*
 * Move from RUN's findings to ll_linted.unchanged those whose pairs REF all
 * has, mark the new pairs of the others (ll_linted.marks), locate each of
 * those at the member whose change made its first new pair (with
 * g->against, by ll_linted.diff) and count both; reference pairs of
 * structs RUN linted that no current finding has are the vanished ones.
 */
/*
 * Whether finding F of S has a pair the reference SET (a struct
 * ll_pairset, sorted) lacks: ll_fix_ref.is_new for the smallest fix.
 */
bool ll_pairset_finding_new(const struct ll_struct *s, const struct ll_finding *f, void *set);

void ll_gate(struct ll_run *run, struct ll_pairset *ref, struct ll_gating *g);
void ll_gate_release(struct ll_run *run, struct ll_gating *g);

/* ---- --against: how one struct's layout changed --------------------- */

struct ll_diff_member {
	char *path;
	bool old_lines, new_lines;	/* false for zero-size members */
	uint64_t old_first, old_last;
	uint64_t new_first, new_last;
};

struct ll_layout_diff {
	const char *reference;		/* the OLD-BINARY compared with (borrowed), when
					   --against names a directory; NULL: the gating's */
	bool in_reference;		/* false: OLD-BINARY does not define it */
	uint64_t old_size, new_size;
	uint64_t old_cachelines, new_cachelines;
	unsigned old_cacheline, new_cacheline;	/* line sizes */
	struct ll_diff_member *added, *removed, *moved;
	size_t nr_added, nr_removed, nr_moved;
};

/* Members (units, as findings name them) added, removed or moved to other lines. */
struct ll_layout_diff *ll_layout_diff(const struct ll_struct *old_s, const struct ll_struct *new_s);
void ll_layout_diff_free(struct ll_layout_diff *d);

/*
 * layout-change (layout_change.c): a finding of LEVEL on L when its diff
 * (L->diff, from ll_layout_diff) shows its size crossing a kmalloc size
 * class, more cachelines, or a member L's units tag on other lines.
 */
void ll_layout_change_check(struct ll_linted *l, enum ll_level level);

/* ---- layouts in a baseline (layout_record.c) ------------------------- */

void ll_layouts_add_run(const struct ll_run *run, struct ll_pairset *set);
void ll_layouts_release(struct ll_pairset *set);
/* The "layouts" array of the baseline document, one struct a line; nothing without any. */
void ll_layouts_render(const struct ll_pairset *set, struct strbuf *out);
/* Read the optional "layouts" array V of FILE into SET; malformed: FILE:LINE:COLUMN. */
int ll_layouts_read(const char *file, const struct json_value *v, struct ll_pairset *set,
		    struct ll_error *err);
/*
 * --baseline: layout-change for L against the layout SET recorded for its
 * struct at its line size (none recorded: nothing); REFERENCE (the
 * baseline's path) names it in the diff. Returns whether one was recorded.
 */
bool ll_layout_change_recorded(struct ll_linted *l, const struct ll_pairset *set,
			       const char *reference, enum ll_level level);

#endif
