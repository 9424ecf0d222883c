/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reorder solver: on the model alone (tags already applied), propose a
 * member order with no mixed-cacheline, write-domains or split-hot finding,
 * the fewest cachelines, then the fewest bytes, then the fewest members
 * moved.
 *
 * What moves: the members of one level (the top level, or the members of
 * the anonymous struct the top level consists of, as in struct mm_struct).
 * A run of consecutive bitfields, a union, a named nested aggregate and an
 * anonymous aggregate at that level move whole. Pinned members keep their
 * offsets. Offsets follow C: every member lands on the next offset its
 * alignment allows after the previous one; the only other gaps are explicit
 * ones, each reported: a line start (____cacheline_aligned_in_smp), a pinned
 * member's fixed offset, and the byte a bitfield run must start on to keep
 * its storage-unit layout.
 *
 * Every number in the result comes from the real checks (ll_check) and
 * ll_summarize run on the proposed layout, never from the solver's own
 * bookkeeping.
 *
 * Ownership: an ll_suggestion owns its arrays and strings; it borrows the
 * members of the ll_struct it was computed from, which must outlive it.
 */
#ifndef LAYOUTLINT_SUGGEST_H
#define LAYOUTLINT_SUGGEST_H

/* Members (units) one --suggest run places at most; more is an error. */
#define LL_SUGGEST_MAX_UNITS 4096

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/finding.h"
#include "util/diag.h"
#include "model/layout.h"
#include "util/strbuf.h"

struct ll_suggested_member {
	const struct ll_member *m;		/* the member, in the input model */
	const struct ll_member *container;	/* the anonymous struct it is reordered
						   inside; NULL at the top level */
	uint64_t offset;	/* new offset (bitfields: the byte holding the first bit) */
	uint64_t bit_offset;	/* bitfields: new bit offset from bit 0 of the struct */
	uint64_t size;		/* bytes; differs from m->size only for a container */
	uint64_t pad_before;	/* explicit padding C would not add by itself */
	bool line_start;	/* starts a line on purpose: ____cacheline_aligned_in_smp */
	bool moved;		/* not part of the longest run kept in original order */
};

/*
 * What the solver notes about its proposal, as data; report/describe.c
 * says it in words. Members are borrowed from the struct the suggestion
 * was computed from; only the fields a kind names are set.
 */
enum ll_suggest_note_kind {
	/* A and B, of classes CLASS_A and CLASS_B, share a line wherever UNIT goes (SHARED says why). */
	LL_SUGGEST_NOTE_UNIT_MIXES,
	/* A, of CLASS_A, straddles a line boundary wherever UNIT goes. */
	LL_SUGGEST_NOTE_UNIT_STRADDLES,
	/* The pinned members on their own already put classes on one line. */
	LL_SUGGEST_NOTE_PINNED_MIX,
	/* A union's members all start at 0: no order helps. */
	LL_SUGGEST_NOTE_UNION,
	/* Findings stay, but the search over UNITS units was not exhaustive. */
	LL_SUGGEST_NOTE_NOT_EXHAUSTIVE,
	/* Findings stay, and the exhaustive search over UNITS units proves no order removes them. */
	LL_SUGGEST_NOTE_NO_ROOM,
	/* A starts line LINE: ____cacheline_aligned_in_smp, or a PAD-byte pad. */
	LL_SUGGEST_NOTE_PAD_LINE_START,
	/* A is pinned at OFFSET: a PAD-byte pad before it. */
	LL_SUGGEST_NOTE_PAD_PINNED,
	/* A's bitfield run must start at OFFSET: a PAD-byte pad before it. */
	LL_SUGGEST_NOTE_PAD_BITFIELD,
	/* A PAD-byte pad before A. */
	LL_SUGGEST_NOTE_PAD,
	/* With ____cacheline_aligned_in_smp the struct is CACHELINE-aligned, SIZE bytes. */
	LL_SUGGEST_NOTE_ALIGNED_SIZE,
	/* The members moved are those of the anonymous struct at OFFSET. */
	LL_SUGGEST_NOTE_INNER_LEVEL,
	/* ll_suggest_fix(): no fix moving at most UNITS members (BOUNDED: the search was cut). */
	LL_SUGGEST_NOTE_NO_SMALL_FIX,
};

/* Why two members of one unit share a line wherever it goes. */
enum ll_suggest_shared {
	LL_SUGGEST_SHARED_BITFIELDS,	/* bitfields of one storage unit */
	LL_SUGGEST_SHARED_UNION,	/* alternatives of one union, sharing bytes */
	LL_SUGGEST_SHARED_ANON_UNION,	/* ... of one anonymous union */
	LL_SUGGEST_SHARED_AGGREGATE,	/* inside one named member that moves whole */
	LL_SUGGEST_SHARED_ANON_AGGREGATE, /* inside one anonymous aggregate */
	LL_SUGGEST_SHARED_MEMBER,	/* parts of one member */
};

/* A class the checks keep apart: read-mostly, or write-hot of one domain. */
struct ll_suggest_class {
	bool write_hot;
	const char *domain;	/* write-hot only; NULL: the default domain (borrowed) */
};

struct ll_suggest_note {
	enum ll_suggest_note_kind kind;
	const struct ll_member *a, *b;	/* the members it is about */
	const struct ll_member *unit;	/* the member naming the unit that moves whole */
	struct ll_suggest_class class_a, class_b;
	enum ll_suggest_shared shared;
	uint64_t offset, pad, line, cacheline, size;
	size_t units;
	bool bounded;
};

struct ll_suggestion {
	/*
	 * Listing order: top-level members, each container followed by its
	 * members in their new order. Every member of the levels involved
	 * appears once.
	 */
	struct ll_suggested_member *members;
	size_t n;

	/* After (measured on the proposed layout). */
	uint64_t size, alignment, cachelines, holes, hole_bytes;
	size_t findings;	/* mixed-cacheline + write-domains + split-hot */
	/* Before (the input layout). */
	uint64_t before_size, before_cachelines, before_holes, before_hole_bytes;
	size_t before_findings;

	/* max(sum over classes of whole lines their hot bytes need, total/line) */
	uint64_t lower_bound_lines;
	size_t units;		/* what moved as one piece */
	size_t moved;		/* units moved: units minus the longest kept order */
	bool changed;		/* some offset differs from the input */
	bool optimal;		/* the search was exhaustive: nothing better exists */
	bool impossible;	/* some finding cannot be removed by any order */

	struct ll_suggest_note *notes;	/* pads needed, reasons a finding stays, ...;
					   report/ says them (ll_suggest_note_describe) */
	size_t nr_notes;

	size_t model_findings;	/* what the solver's own evaluator predicted */

	/*
	 * ll_suggest_fix() only: the smallest fix of what a change broke
	 * against a reference (--against, --baseline), not a whole re-layout.
	 */
	bool smallest_fix;
	bool fix_found;		/* every new finding removed within the bound */
	size_t new_before;	/* findings the reference lacks, in the input layout */
	size_t new_after;	/* ... in the proposal */
	size_t restored;	/* units back at their reference offsets, moved ones */
	char **left;		/* messages of the findings the reference already had
				   that the proposal keeps */
	size_t nr_left;
};

struct ll_suggest_opts {
	const struct ll_allow *allows;	/* findings the rules accept ("allow") */
	size_t nr_allows;
	size_t beam;		/* states kept per step once search is not exhaustive;
				   0: chosen from the number of units */
	size_t exact_units;	/* exhaustive up to this many units; 0: default (10),
				   SIZE_MAX: never */
	/*
	 * Whether M and the member after it at the solve level must move as
	 * one rigid piece (one source declaration, an #if run); NULL: none.
	 */
	bool (*glued)(const struct ll_member *m, void *arg);
	void *glue_arg;
	/*
	 * What moving the COUNT members from FIRST (one unit) costs, e.g. its
	 * lines of source, among orders equal otherwise; NULL: 1 per unit.
	 * Gets glue_arg.
	 */
	size_t (*weight)(const struct ll_member *first, size_t count, void *arg);
};

/* S's tags and pins already applied. Returns -1 (ERR filled) on bad input. */
int ll_suggest(const struct ll_struct *s, struct ll_suggestion **out, struct ll_error *err);
int ll_suggest_opts(const struct ll_struct *s, const struct ll_suggest_opts *opts,
		    struct ll_suggestion **out, struct ll_error *err);
void ll_suggestion_free(struct ll_suggestion *sg);

/*
 * The smallest fix: a member order that removes every finding REF->is_new
 * calls new (those the reference lacks) with the fewest units moved from
 * the input order, keeping the reference's placements. The search, in
 * order, stopping at the first size that works:
 *   1. for K = 1, 2, ...: put back K units the change moved (the units
 *      outside the longest run kept in the reference's relative order),
 *      each reinserted after the unit the reference has before it; if none
 *      of those works and K <= max_moves, move K units of the input order
 *      anywhere (the units holding members of the new findings first);
 *   2. from the reference order (those all put back), move 1, then 2 units
 *      anywhere, the units holding members of the new findings first,
 *      within a budget of candidate layouts (each a copy of S and its
 *      checks: 20 million member visits, 2,000 to 200,000 layouts);
 * ties broken by units moved (weighted like ll_suggest_opts), then units
 * whose head lands at its reference offset, then fewest findings, then the
 * first in enumeration order: deterministic. Members the reference does not
 * have stay where the change added them. A layout with no new finding is
 * its own answer (nothing moves); none found within the bound gives the
 * input order with fix_found false. REF->ref NULL (a baseline): the input
 * order is the reference.
 */
struct ll_fix_ref {
	const struct ll_struct *ref;	/* the reference's layout of the same struct, or NULL */
	/* Whether finding F of the struct S is new (some pair the reference lacks). */
	bool (*is_new)(const struct ll_struct *s, const struct ll_finding *f, void *arg);
	void *arg;
	size_t max_moves;	/* step 2's bound; 0: 2 */
	size_t budget;		/* candidate layouts evaluated at most; 0: by S's size */
};

int ll_suggest_fix(const struct ll_struct *s, const struct ll_suggest_opts *opts,
		   const struct ll_fix_ref *ref, struct ll_suggestion **out, struct ll_error *err);

/*
 * The proposed layout as a model of its own (a deep copy of S, members
 * reordered and moved), for listings, JSON and the checks. Free it with
 * ll_struct_free().
 */
struct ll_struct *ll_suggestion_layout(const struct ll_struct *s, const struct ll_suggestion *sg);


#endif
