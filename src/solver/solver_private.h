/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the solver share, and nothing outside solver/ sees
 * (as elfutils keeps libdwP.h): the model of units, costs and the
 * context of one solve (suggest.c's opening comment says how they fit).
 *   suggest_units.c   the solve level and its units
 *   suggest_search.c  placement, the evaluator, the search, local moves
 *   suggest.c         the result, its notes, ll_suggest_opts()
 *   suggest_fix.c     ll_suggest_fix(), the smallest fix
 * Functions shared between them carry the prefix sg_.
 */
#ifndef LAYOUTLINT_SOLVER_PRIVATE_H
#define LAYOUTLINT_SOLVER_PRIVATE_H

#include "solver/suggest.h"

#include "checks/catalog.h"
#include "checks/checks.h"
#include "model/profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXACT_UNITS_DEFAULT 10
#define EXACT_STATE_CAP 400000	/* per step; beyond it even "exact" mode prunes */
#define BEAM_BUDGET 400000	/* roughly: states x units x units per search */
#define BEAM_MIN 64
#define BEAM_MAX 512
#define QUICK_BEAM 8
#define RELOCATE_BUDGET 30000000	/* unit placements per local-search phase */
#define MAX_CLASSES 64		/* read-mostly + 63 write-hot domains */
#define MAX_CHAIN 16

/* Where a unit may go: anywhere, after those (pin last), after everything (flexible). */
#define LAST_ANY 0
#define LAST_PINNED 1
#define LAST_FLEXIBLE 2

/* ---- small helpers ------------------------------------------------------- */

static inline uint64_t round_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static inline uint64_t div_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a;
}

static inline bool several(uint64_t x)
{
	return (x & (x - 1)) != 0;
}

static inline bool exactly_one(uint64_t x)
{
	return x && !several(x);
}

static inline bool allowed_path(const struct ll_suggest_opts *o, enum ll_check rule,
				const char *path)
{
	return ll_check_allowed(o->allows, o->nr_allows, rule, path);
}

static inline bool pinned_first(const struct ll_member *m)
{
	return m->pinned || m->is_base;
}

static inline bool pinned_last(const struct ll_member *m)
{
	return m->pin_last;
}

/* A C++ base class comes before every member: no order can move it. */
static inline bool subtree_pinned(const struct ll_member *m)
{
	return ll_member_any(m, pinned_first);
}

static inline bool subtree_last(const struct ll_member *m)
{
	return ll_member_any(m, pinned_last);
}

static inline bool member_empty(const struct ll_member *m)
{
	return m->is_bitfield ? false : m->size == 0;
}

static inline uint64_t member_align(const struct ll_member *m)
{
	return m->alignment ? m->alignment : 1;
}
/* Add NOTE to SG's notes unless one that reads the same is there. */
void sg_add_note(struct ll_suggestion *sg, struct ll_suggest_note note);

/* ---- the solve level ----------------------------------------------------- */
struct level {
	const struct ll_member *members;
	size_t n;
	const struct ll_member *container;	/* NULL: the struct itself */
	uint64_t base;		/* offset of the level's first byte */
	uint64_t align;		/* alignment of the aggregate at this level */
	size_t inner;		/* member descended into; SIZE_MAX at the solve level */
};

/* ---- units ------------------------------------------------------------- */

#define AL_MIXED 1
#define AL_DOM 2
#define AL_SPLIT 4

struct atom {
	uint64_t b, e;		/* bytes [b, e) relative to the unit's start */
	int cls;		/* 0: read-mostly; 1 + d: write-hot of domain d */
	unsigned char allow;	/* AL_*: rules that accept findings of this atom */
	bool split;		/* a split-hot candidate: hot, fits a line, not allowed */
	const struct ll_member *m;
};

struct cls_bytes {
	int cls;
	uint64_t bytes;		/* bytes of this class in the unit (overlaps merged) */
};

struct unit {
	size_t first, count;	/* members [first, first + count) of the level */
	const struct ll_member *head;	/* the member that names it */
	uint64_t orig, size;
	uint64_t pmod;		/* placement: offset % pmod in pmask (pmod <= 64), */
	uint64_t pmask;		/* or == phase0 */
	uint64_t phase0;
	uint64_t head_align;	/* where C puts the head after a cursor (non-bitfield head) */
	bool bitfield;		/* the head is a bitfield: C starts it at the cursor */
	bool block;		/* several non-empty members, moved rigidly (a cacheline group) */
	bool ends_bf;		/* the last non-empty member is a bitfield */
	bool pinned, hot;
	uint8_t last;		/* LAST_*: units go in non-decreasing order of it */
	size_t weight;		/* what moving it costs: 1, or its lines of source */
	struct atom *atoms;
	size_t nr_atoms;
	struct cls_bytes *cb;
	size_t ncb;
	size_t idx;
	ptrdiff_t prev_same;	/* previous identical unit, -1 if none */
	unsigned min_alone;	/* findings it has on its own wherever it goes */
	uint8_t skip[64];	/* bitfield runs: bytes from offset % pmod to an allowed phase */
	bool pow2;		/* pmod is a power of two */
	uint64_t best_alone;	/* an offset where it has that few */
};

struct cost {
	uint64_t findings, lines, size;
	uint64_t holes;		/* pack mode only: bytes of gaps before the last unit ends */
	uint64_t moved;
	uint64_t span;		/* lines each hot class touches, summed over the classes */
};

/* Lines of the per-line scratch map; a unit of more lines is counted by runs. */
#define SG_SCRATCH_LINES 4096

struct lst {
	uint64_t dom;		/* write-hot domains counted by write-domains */
	uint8_t f;
	uint64_t cls;		/* hot classes with bytes on the line, allowed or not */
};

#define LS_R 1			/* read-mostly counted by mixed-cacheline */
#define LS_W 2			/* write-hot counted by mixed-cacheline */
#define LS_SPLIT 4		/* a split-hot finding already raised on this line */

struct ctx {
	const struct ll_struct *s;
	const struct ll_suggest_opts *opts;
	uint64_t cl;
	struct level lv[MAX_CHAIN];
	size_t nlv;
	const struct level *L;	/* the solve level */
	size_t tail_first;	/* trailing zero-size members of the solve level */
	struct unit *u;
	size_t nu;
	size_t *pins;		/* pinned units by offset */
	size_t npins;
	int nclasses;
	const char *domains[MAX_CLASSES];
	size_t ndomains;
	struct lst *scratch;
	size_t nscratch;
	size_t words;
	bool exact_mode;
	bool truncated;
	bool has_allows;	/* some atom is allowed: classes may share lines */
	bool pack;		/* nothing hot: fewest holes matter before fewest moves */
	uint64_t unit_bytes;	/* sum of the units' sizes */
	size_t *lis_tail, *lis_prev;
	const struct cost *ub;	/* prune what cannot beat it; NULL: none */
};

/* A layout: units in order, and whether each starts a new line. */
struct seq {
	uint32_t *ord;
	uint8_t *brk;
	struct cost c;
};


/* suggest_units.c */
size_t sg_find_levels(const struct ll_struct *s, struct level *lv);
void sg_build_units(struct ctx *x);
int sg_build_atoms(struct ctx *x, struct ll_error *err);
void sg_finish_units(struct ctx *x);
void sg_free_units(struct ctx *x);

/* suggest_search.c */
uint64_t sg_next_pos(const struct unit *u, uint64_t c);
unsigned sg_apply(struct ctx *x, const struct unit *u, uint64_t cursor, struct lst open,
		  uint64_t p, struct lst *open_out);
uint64_t sg_final_size(const struct ctx *x, uint64_t cursor);
int sg_cost_cmp(const struct cost *a, const struct cost *b);
size_t sg_order_moved(const struct ctx *x, const uint32_t *ord, size_t n, bool *keep);
bool sg_eval_seq(struct ctx *x, const uint32_t *ord, const uint8_t *brk, uint64_t *pos,
		 struct cost *c, bool with_moved);
uint64_t sg_orig_span(struct ctx *x);
size_t sg_beam_width(const struct ctx *x);
bool sg_search(struct ctx *x, size_t width, uint32_t *ord, uint8_t *brk);
void sg_drop_breaks(struct ctx *x, struct seq *q);
void sg_relocate(struct ctx *x, struct seq *q, bool full, int passes);

/* suggest.c */
void sg_emit_level(struct ctx *x, struct ll_suggestion *sg, size_t k, const uint32_t *ord,
		   const uint8_t *brk, const uint64_t *pos, const bool *keep, uint64_t *cursor);
void sg_measure(struct ctx *x, const struct ll_struct *s, struct ll_suggestion *sg);
void sg_layout_notes(struct ctx *x, struct ll_suggestion *sg);
struct ll_suggestion *sg_setup(struct ctx *x, const struct ll_struct *s,
			       const struct ll_suggest_opts *opts, struct ll_error *err);

#endif
