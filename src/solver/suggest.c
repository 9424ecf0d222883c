// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reorder solver (see suggest.h for what it promises).
 *
 * Model. The members of the solve level are cut into units that move
 * whole: a member (with the zero-size members around it attached: a
 * __cacheline_group_end__ marker to the member before it, others to the
 * member after), a run of consecutive bitfields, or a kernel cacheline
 * group (__cacheline_group_begin__X ... __cacheline_group_end__X and its
 * pad), moved rigidly so that its markers stay around its members. A
 * layout is a sequence of units plus, for each, whether it must start a
 * new cacheline (a "break"). Offsets then follow C: a unit lands on the
 * first offset at or after the end of the previous one that its alignment
 * (for a bitfield run: the phases at which C reproduces the run's bit
 * layout) allows; after a break, at or after the next line boundary; a
 * pinned unit at its original offset. Two bitfield runs never touch: C
 * would pack them into one storage unit.
 *
 * Cost, compared lexicographically: findings, cachelines, bytes, then how
 * far the order is from the original (units outside the longest increasing
 * run of original positions). With nothing tagged hot, interior hole bytes
 * come before that: packing moves the slack to the tail, as pahole does.
 *
 * Search. Units are placed left to right; a state is (units placed,
 * cursor, what the line holding the cursor already carries, whether the
 * last unit was a bitfield run). Two states with the same key have the same
 * futures, so each step keeps only the best one per key: with few units
 * that is an exhaustive dynamic programme over subsets, exact for
 * findings, lines and bytes. With more units, each step keeps the most
 * promising states (a beam), ranked by findings, an estimate of the final
 * line count that knows each hot class needs lines of its own, wasted
 * bytes, and order changes. Identical units are interchangeable and only
 * ever placed in their original order. Then local moves: drop breaks that
 * buy nothing, move units back toward the original order, and (beam only)
 * relocate units while that lowers the cost.
 *
 * Branch and bound: the original order and a narrow first beam give a
 * layout to beat; states whose lower bound (bytes still to place, and,
 * when no finding is allowed, the lines each hot class still needs) cannot
 * beat it are dropped.
 *
 * The evaluator used while searching mirrors the checks' counting (one
 * finding per line and rule; split-hot merged per first line); the
 * proposal's reported numbers come from ll_check on the proposed model.
 */
#include "solver/suggest.h"

#include "checks/catalog.h"
#include "checks/checks.h"
#include "model/profile.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static uint64_t div_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a;
}

static bool several(uint64_t x)
{
	return (x & (x - 1)) != 0;
}

static bool exactly_one(uint64_t x)
{
	return x && !several(x);
}

static bool allowed_path(const struct ll_suggest_opts *o, const char *rule, const char *path)
{
	return ll_allowed(o->allows, o->nr_allows, rule, path);
}

/* A C++ base class comes before every member: no order can move it. */
static bool subtree_pinned(const struct ll_member *m)
{
	if (m->pinned || m->is_base)
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (subtree_pinned(&m->children[i]))
			return true;
	return false;
}

static bool subtree_last(const struct ll_member *m)
{
	if (m->pin_last)
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (subtree_last(&m->children[i]))
			return true;
	return false;
}

static bool member_empty(const struct ll_member *m)
{
	return m->is_bitfield ? false : m->size == 0;
}

static uint64_t member_align(const struct ll_member *m)
{
	return m->alignment ? m->alignment : 1;
}

static void add_note(struct ll_suggestion *sg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct ll_suggestion *sg, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < sg->nr_notes; i++) {
		if (strcmp(sg->notes[i], sb.buf) == 0) {
			sb_release(&sb);
			return;
		}
	}
	sg->notes = xgrow(sg->notes, sg->nr_notes, sizeof(*sg->notes));
	sg->notes[sg->nr_notes++] = sb_detach(&sb);
}

/* ---- the solve level ----------------------------------------------------- */

struct level {
	const struct ll_member *members;
	size_t n;
	const struct ll_member *container;	/* NULL: the struct itself */
	uint64_t base;		/* offset of the level's first byte */
	uint64_t align;		/* alignment of the aggregate at this level */
	size_t inner;		/* member descended into; SIZE_MAX at the solve level */
};

/*
 * Descend while a level is one non-empty anonymous struct among zero-size
 * members: its members may be reordered inside it, and nothing else moves.
 */
static size_t find_levels(const struct ll_struct *s, struct level *lv)
{
	size_t n = 0;

	lv[0] = (struct level){ s->members, s->nr_members, NULL, 0,
				s->alignment ? s->alignment : 1, SIZE_MAX };
	for (;;) {
		struct level *l = &lv[n];
		size_t nonempty = 0, which = 0;

		for (size_t i = 0; i < l->n; i++) {
			if (!member_empty(&l->members[i])) {
				nonempty++;
				which = i;
			}
		}
		if (nonempty != 1 || n + 1 >= MAX_CHAIN)
			break;
		const struct ll_member *x = &l->members[which];

		if (x->name || !x->is_aggregate || x->agg_kind != LL_STRUCT || !x->nr_children ||
		    x->pinned)
			break;
		l->inner = which;
		n++;
		lv[n] = (struct level){ x->children, x->nr_children, x, x->offset,
					member_align(x), SIZE_MAX };
	}
	return n + 1;
}

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

static int class_of(struct ctx *x, const struct ll_unit *lu, struct ll_error *err)
{
	if (lu->tag == LL_READ_MOSTLY)
		return 0;
	if (lu->tag != LL_WRITE_HOT)
		return -1;
	for (size_t i = 0; i < x->ndomains; i++) {
		const char *d = x->domains[i];

		if ((!d && !lu->domain) || (d && lu->domain && strcmp(d, lu->domain) == 0))
			return 1 + (int)i;
	}
	if (x->ndomains + 1 >= MAX_CLASSES)
		return ll_fail(err, "%s %s: more than %d write-hot domains", ll_kind_name(x->s->kind),
			       x->s->name, MAX_CLASSES - 1), -2;
	x->domains[x->ndomains] = lu->domain;
	return 1 + (int)x->ndomains++;
}

/* Where C puts each bitfield of a run started at byte P; true if that is the original. */
static bool bitfield_sim(const struct ll_member *mem, size_t first, size_t count,
			 uint64_t p, uint64_t orig)
{
	uint64_t pos = p * 8;

	for (size_t i = first; i < first + count; i++) {
		const struct ll_member *m = &mem[i];

		if (!m->is_bitfield)
			continue;
		uint64_t w = m->bit_size, unit = member_align(m) * 8;
		bool packed = member_align(m) == 1 && m->size > 1;

		if (w && !packed && pos / unit != (pos + w - 1) / unit)
			pos = round_up(pos, unit);
		if (m->bit_offset < orig * 8 || pos - p * 8 != m->bit_offset - orig * 8)
			return false;
		pos += w;
	}
	return true;
}

/*
 * A member whose type ends in a flexible array member: C lets nothing
 * follow it, and its users allocate past its end.
 */
static bool ends_flexible(const struct ll_member *m)
{
	while (m->is_aggregate && m->agg_kind == LL_STRUCT && m->nr_children) {
		const struct ll_member *t = &m->children[m->nr_children - 1];
		size_t n = t->type ? strlen(t->type) : 0;

		if (!t->is_aggregate && !t->is_bitfield && t->size == 0 && n >= 2 &&
		    strcmp(t->type + n - 2, "[]") == 0)
			return true;
		m = t;
	}
	return false;
}

static bool is_group_end(const struct ll_member *m)
{
	return m->name && strncmp(m->name, "__cacheline_group_end", 21) == 0;
}

static uint64_t member_end(const struct ll_member *m)
{
	return m->is_bitfield ? (m->bit_offset + m->bit_size + 7) / 8 : m->offset + m->size;
}

static uint64_t member_begin(const struct ll_member *m)
{
	return m->is_bitfield ? m->bit_offset / 8 : m->offset;
}

/*
 * One unit from members [FIRST, FIRST + COUNT): zero-size members before
 * the first non-empty one (the head) are attached in front of it; with
 * GROUP, everything from the head on is one rigid block.
 */
static void add_unit(struct ctx *x, size_t first, size_t count, bool group)
{
	const struct ll_member *mem = x->L->members;
	struct unit *u;
	uint64_t lead_align = 1, a = 1;
	size_t nonempty = 0;

	x->u = xgrow(x->u, x->nu, sizeof(*x->u));
	u = &x->u[x->nu];
	memset(u, 0, sizeof(*u));
	u->first = first;
	u->count = count;
	u->idx = x->nu++;
	u->prev_same = -1;
	for (size_t i = first; i < first + count; i++) {
		const struct ll_member *m = &mem[i];

		u->pinned |= subtree_pinned(m);
		if (ends_flexible(m))
			u->last = LAST_FLEXIBLE;
		else if (subtree_last(m) && u->last < LAST_PINNED)
			u->last = LAST_PINNED;
		if (!u->head && (!member_empty(m) || i + 1 == first + count))
			u->head = m;
		if (!u->head)
			lead_align = lead_align > member_align(m) ? lead_align : member_align(m);
		if (!member_empty(m)) {
			nonempty++;
			u->ends_bf = m->is_bitfield;
		}
	}
	u->bitfield = u->head->is_bitfield;
	u->orig = member_begin(u->head);
	u->block = group && nonempty > 1;
	if (u->block) {
		uint64_t end = u->orig;

		for (const struct ll_member *m = u->head; m < mem + first + count; m++) {
			uint64_t e = member_end(m);

			end = e > end ? e : end;
			a = a > member_align(m) ? a : member_align(m);
		}
		u->size = end - u->orig;
	} else if (u->bitfield) {
		uint64_t end = 0;

		for (size_t i = first; i < first + count; i++) {
			const struct ll_member *m = &mem[i];

			if (!m->is_bitfield)
				continue;
			uint64_t e = member_end(m);

			end = e > end ? e : end;
			a = a > member_align(m) ? a : member_align(m);
		}
		u->size = end > u->orig ? end - u->orig : 0;
	} else {
		u->size = u->head->size;
		a = member_align(u->head);
	}
	u->head_align = member_align(u->head) > lead_align ? member_align(u->head) : lead_align;
	a = a > lead_align ? a : lead_align;
	u->pmod = a;
	u->phase0 = u->orig % a;
	if (a <= 64) {
		u->pmask = 1ULL << u->phase0;
		if (u->bitfield && !u->block && bitfield_sim(mem, first, count, u->orig, u->orig)) {
			for (uint64_t ph = 0; ph < a; ph++)
				if (ph % lead_align == 0 && bitfield_sim(mem, first, count, ph + a, u->orig))
					u->pmask |= 1ULL << ph;
		}
	}
}

#define GROUP_BEGIN "__cacheline_group_begin__"
#define GROUP_END "__cacheline_group_end__"
#define GROUP_PAD "__cacheline_group_pad__"

static bool marker_is(const struct ll_member *m, const char *prefix, const char *group)
{
	size_t n = strlen(prefix);

	return m->name && strncmp(m->name, prefix, n) == 0 &&
	       (!group || strcmp(m->name + n, group) == 0);
}

/* The last member of the cacheline group opened by the marker at I, or SIZE_MAX. */
static size_t group_last(const struct ll_member *mem, size_t n, size_t i)
{
	const char *g = mem[i].name + strlen(GROUP_BEGIN);

	for (size_t j = i + 1; j < n; j++) {
		if (marker_is(&mem[j], GROUP_BEGIN, NULL))
			return SIZE_MAX;	/* nested or interleaved: no group */
		if (marker_is(&mem[j], GROUP_END, g)) {
			if (j + 1 < n && marker_is(&mem[j + 1], GROUP_PAD, g))
				j++;
			return j;
		}
	}
	return SIZE_MAX;
}

/* Past J: members glued to the one before them (opts->glued) join its unit. */
static size_t glue_end(const struct ctx *x, size_t j, bool *glued)
{
	const struct ll_suggest_opts *o = x->opts;

	while (o->glued && j < x->L->n && o->glued(&x->L->members[j - 1], o->glue_arg)) {
		j++;
		*glued = true;
	}
	return j;
}

static void build_units(struct ctx *x)
{
	const struct ll_member *mem = x->L->members;
	size_t n = x->L->n, pending = SIZE_MAX;

	for (size_t i = 0; i < n;) {
		const struct ll_member *m = &mem[i];
		size_t start = pending == SIZE_MAX ? i : pending, j;

		if (marker_is(m, GROUP_BEGIN, NULL) && (j = group_last(mem, n, i)) != SIZE_MAX) {
			size_t nonempty = 0;

			for (size_t k = i; k <= j; k++)
				nonempty += !member_empty(&mem[k]);
			if (nonempty) {
				bool glued = false;

				j = glue_end(x, j + 1, &glued);
				add_unit(x, start, j - start, true);
				pending = SIZE_MAX;
				i = j;
				continue;
			}
		}
		if (member_empty(m)) {
			if (subtree_pinned(m)) {
				add_unit(x, start, i + 1 - start, false);
				pending = SIZE_MAX;
			} else if (pending == SIZE_MAX && x->nu && is_group_end(m) &&
				   member_align(m) == 1 &&
				   x->u[x->nu - 1].first + x->u[x->nu - 1].count == i) {
				x->u[x->nu - 1].count++;
			} else if (pending == SIZE_MAX) {
				pending = i;
			}
			i++;
			continue;
		}
		j = i + 1;
		if (m->is_bitfield)
			while (j < n && mem[j].is_bitfield)
				j++;
		bool glued = false;

		j = glue_end(x, j, &glued);
		add_unit(x, start, j - start, glued);
		pending = SIZE_MAX;
		i = j;
	}
	x->tail_first = pending == SIZE_MAX ? n : pending;
}

struct ptr_ent {
	const struct ll_member *m;
	size_t level_index;
};

static int ptr_cmp(const void *a, const void *b)
{
	const struct ptr_ent *x = a, *y = b;

	return x->m < y->m ? -1 : x->m > y->m;
}

static void collect_ptrs(const struct ll_member *m, size_t idx, struct ptr_ent **v, size_t *n)
{
	*v = xgrow(*v, *n, sizeof(**v));
	(*v)[(*n)++] = (struct ptr_ent){ m, idx };
	for (size_t i = 0; i < m->nr_children; i++)
		collect_ptrs(&m->children[i], idx, v, n);
}

static int atom_cmp(const void *a, const void *b)
{
	const struct atom *x = a, *y = b;

	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->cls - y->cls;
}

struct iv {
	uint64_t b, e;
};

static int iv_cmp(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

static void unit_class_bytes(struct unit *u)
{
	for (size_t i = 0; i < u->nr_atoms; i++) {
		int c = u->atoms[i].cls;
		bool seen = false;

		for (size_t k = 0; k < u->ncb; k++)
			seen |= u->cb[k].cls == c;
		if (seen)
			continue;
		struct iv *v = xmalloc(u->nr_atoms * sizeof(*v));
		size_t n = 0;
		uint64_t bytes = 0, end = 0;

		for (size_t j = 0; j < u->nr_atoms; j++)
			if (u->atoms[j].cls == c)
				v[n++] = (struct iv){ u->atoms[j].b, u->atoms[j].e };
		if (n)
			qsort(v, n, sizeof(*v), iv_cmp);
		for (size_t j = 0; j < n; j++) {
			uint64_t b = v[j].b > end ? v[j].b : end;

			if (v[j].e > b)
				bytes += v[j].e - b;
			end = v[j].e > end ? v[j].e : end;
		}
		free(v);
		u->cb = xgrow(u->cb, u->ncb, sizeof(*u->cb));
		u->cb[u->ncb++] = (struct cls_bytes){ c, bytes };
	}
}

static int build_atoms(struct ctx *x, struct ll_error *err)
{
	struct ll_units lus;
	struct ptr_ent *ptrs = NULL;
	size_t nptrs = 0;
	size_t *unit_of = xmalloc((x->L->n ? x->L->n : 1) * sizeof(*unit_of));
	int rc = 0;

	for (size_t i = 0; i < x->L->n; i++)
		unit_of[i] = SIZE_MAX;
	for (size_t k = 0; k < x->nu; k++)
		for (size_t i = x->u[k].first; i < x->u[k].first + x->u[k].count; i++)
			unit_of[i] = k;
	for (size_t i = 0; i < x->L->n; i++)
		collect_ptrs(&x->L->members[i], i, &ptrs, &nptrs);
	if (nptrs)
		qsort(ptrs, nptrs, sizeof(*ptrs), ptr_cmp);

	ll_collect_units(x->s, &lus);
	for (size_t i = 0; i < lus.n && !rc; i++) {
		const struct ll_unit *lu = &lus.v[i];
		struct ptr_ent key = { lu->m, 0 }, *hit;
		struct ll_extent e = ll_member_extent(lu->m);
		int cls;

		if (e.end <= e.begin)
			continue;
		cls = class_of(x, lu, err);
		if (cls == -2) {
			rc = -1;
			break;
		}
		if (cls < 0)
			continue;
		hit = bsearch(&key, ptrs, nptrs, sizeof(*ptrs), ptr_cmp);
		if (!hit || unit_of[hit->level_index] == SIZE_MAX)
			continue;	/* outside the solve level: cannot happen for bytes */
		struct unit *u = &x->u[unit_of[hit->level_index]];
		struct atom a = { .cls = cls, .m = lu->m };
		const char *path = lu->m->path;

		if (e.begin < u->orig || e.end > u->orig + u->size)
			continue;
		a.b = e.begin - u->orig;
		a.e = e.end - u->orig;
		if (allowed_path(x->opts, "mixed-cacheline", path))
			a.allow |= AL_MIXED;
		if (allowed_path(x->opts, "write-domains", path))
			a.allow |= AL_DOM;
		if (allowed_path(x->opts, "split-hot", path))
			a.allow |= AL_SPLIT;
		a.split = !(a.allow & AL_SPLIT) && a.e - a.b <= x->cl;
		x->has_allows |= a.allow != 0;
		u->atoms = xgrow(u->atoms, u->nr_atoms, sizeof(*u->atoms));
		u->atoms[u->nr_atoms++] = a;
		u->hot = true;
	}
	ll_units_release(&lus);
	free(ptrs);
	free(unit_of);
	x->nclasses = 1 + (int)x->ndomains;
	for (size_t k = 0; k < x->nu; k++) {
		struct unit *u = &x->u[k];

		if (u->nr_atoms)
			qsort(u->atoms, u->nr_atoms, sizeof(*u->atoms), atom_cmp);
		unit_class_bytes(u);
		uint64_t lines = div_up(u->size ? u->size : 1, x->cl) + 2;

		if (lines > x->nscratch)
			x->nscratch = lines;
	}
	x->scratch = xcalloc(x->nscratch, sizeof(*x->scratch));
	return rc;
}

static void unit_phases(struct unit *u)
{
	u->pow2 = (u->pmod & (u->pmod - 1)) == 0;
	if (u->pmod > 64 || !u->bitfield || u->block)
		return;
	for (uint64_t r = 0; r < u->pmod; r++)
		for (uint64_t k = 0; k < u->pmod; k++)
			if (u->pmask >> ((r + k) % u->pmod) & 1) {
				u->skip[r] = (uint8_t)k;
				break;
			}
}

static bool units_identical(const struct unit *a, const struct unit *b)
{
	if (a->pinned || b->pinned || a->size != b->size || a->pmod != b->pmod ||
	    a->pmask != b->pmask || a->phase0 != b->phase0 || a->bitfield != b->bitfield ||
	    a->ends_bf != b->ends_bf || a->block != b->block || a->head_align != b->head_align ||
	    a->last != b->last || a->weight != b->weight ||
	    a->nr_atoms != b->nr_atoms)
		return false;
	for (size_t i = 0; i < a->nr_atoms; i++) {
		const struct atom *p = &a->atoms[i], *q = &b->atoms[i];

		if (p->b != q->b || p->e != q->e || p->cls != q->cls || p->allow != q->allow ||
		    p->split != q->split)
			return false;
	}
	return true;
}

static int pin_cmp_ctx_orig(const void *a, const void *b, void *arg)
{
	const struct ctx *x = arg;
	uint64_t p = x->u[*(const size_t *)a].orig, q = x->u[*(const size_t *)b].orig;

	return p < q ? -1 : p > q;
}

static void finish_units(struct ctx *x)
{
	for (size_t k = 0; k < x->nu; k++) {
		const struct ll_suggest_opts *o = x->opts;
		struct unit *u = &x->u[k];

		u->weight = o->weight ? o->weight(&x->L->members[u->first], u->count, o->glue_arg) : 1;
		if (!u->weight)
			u->weight = 1;
		unit_phases(&x->u[k]);
		for (ptrdiff_t j = (ptrdiff_t)k - 1; j >= 0; j--) {
			if (units_identical(&x->u[j], &x->u[k])) {
				x->u[k].prev_same = j;
				break;
			}
		}
		if (x->u[k].pinned) {
			x->pins = xgrow(x->pins, x->npins, sizeof(*x->pins));
			x->pins[x->npins++] = k;
		}
	}
	if (x->npins)
		if (x->npins)
			qsort_r(x->pins, x->npins, sizeof(*x->pins), pin_cmp_ctx_orig, x);
	x->words = (x->nu + 63) / 64;
	if (!x->words)
		x->words = 1;
	x->lis_tail = xmalloc((x->nu + 1) * sizeof(*x->lis_tail));
	x->lis_prev = xmalloc((x->nu + 1) * sizeof(*x->lis_prev));
}

static void free_units(struct ctx *x)
{
	for (size_t k = 0; k < x->nu; k++) {
		free(x->u[k].atoms);
		free(x->u[k].cb);
	}
	free(x->u);
	free(x->pins);
	free(x->scratch);
	free(x->lis_tail);
	free(x->lis_prev);
}

/* ---- placement and the evaluator ----------------------------------------- */

static uint64_t next_pos(const struct unit *u, uint64_t c)
{
	if (u->pmod <= 1)
		return c;
	if (u->pmod <= 64 && u->bitfield && !u->block)
		return c + u->skip[c % u->pmod];
	if (u->pow2)
		return c + ((u->phase0 - c) & (u->pmod - 1));
	return c + (u->phase0 + u->pmod - c % u->pmod) % u->pmod;
}


/* Where U goes after CURSOR, with or without a break; pinned: its own offset. */
static uint64_t place_at(const struct ctx *x, const struct unit *u, uint64_t cursor, bool brk)
{
	if (u->pinned)
		return u->orig;
	return next_pos(u, brk ? round_up(cursor, x->cl) : cursor);
}

static unsigned conflicts(struct lst l)
{
	return ((l.f & LS_R) && (l.f & LS_W)) + several(l.dom);
}

/*
 * Put U at P (>= CURSOR) over the open line state OPEN; return the findings
 * it adds and the state of the line holding the new cursor. SPAN (if not
 * NULL) gets the (class, line) pairs it adds: how many more lines the hot
 * classes touch.
 */
static unsigned apply_span(struct ctx *x, const struct unit *u, uint64_t cursor, struct lst open,
			   uint64_t p, struct lst *open_out, uint32_t *span)
{
	uint64_t cl = x->cl, o = cursor / cl, end = p + u->size;

	if (span)
		*span = 0;
	if (!u->nr_atoms) {
		if (end / cl == o && (end % cl || end == cursor))
			*open_out = open;
		else
			*open_out = (struct lst){ 0, 0, 0 };
		return 0;
	}
	uint64_t l0 = p / cl, l1 = (end - 1) / cl, nl = l1 - l0 + 1;
	struct lst *sc = x->scratch;
	unsigned delta = 0;

	memset(sc, 0, nl * sizeof(*sc));
	if (l0 == o)
		sc[0] = open;
	for (size_t i = 0; i < u->nr_atoms; i++) {
		const struct atom *a = &u->atoms[i];
		uint64_t lo = p + a->b, hi = p + a->e - 1, la = lo / cl, lb = hi / cl;
		uint8_t bits = 0;
		uint64_t dom = 0;

		if (a->cls == 0) {
			if (!(a->allow & AL_MIXED))
				bits = LS_R;
		} else {
			if (!(a->allow & AL_MIXED))
				bits = LS_W;
			if (!(a->allow & AL_DOM))
				dom = 1ULL << (a->cls - 1);
		}
		for (uint64_t l = la; l <= lb; l++) {
			sc[l - l0].f |= bits;
			sc[l - l0].dom |= dom;
			sc[l - l0].cls |= 1ULL << a->cls;
		}
		if (a->split && la != lb && !(sc[la - l0].f & LS_SPLIT)) {
			sc[la - l0].f |= LS_SPLIT;
			delta++;
		}
	}
	uint32_t touched = 0;

	for (uint64_t l = 0; l < nl; l++) {
		delta += conflicts(sc[l]);
		touched += (uint32_t)__builtin_popcountll(sc[l].cls);
	}
	if (l0 == o) {
		delta -= conflicts(open);
		touched -= (uint32_t)__builtin_popcountll(open.cls);
	}
	if (span)
		*span = touched;
	*open_out = end % cl ? sc[l1 - l0] : (struct lst){ 0, 0, 0 };
	return delta;
}

static unsigned apply(struct ctx *x, const struct unit *u, uint64_t cursor, struct lst open,
		      uint64_t p, struct lst *open_out)
{
	return apply_span(x, u, cursor, open, p, open_out, NULL);
}

/* The struct's size when the solve level's last byte ends at CURSOR. */
static uint64_t final_size(const struct ctx *x, uint64_t cursor)
{
	const struct level *L = x->L;
	uint64_t c = cursor;

	for (size_t i = x->tail_first; i < L->n; i++)
		c = round_up(c, member_align(&L->members[i]));
	for (size_t k = x->nlv; k-- > 0;) {
		const struct level *l = &x->lv[k];

		if (k + 1 < x->nlv)
			for (size_t i = l->inner + 1; i < l->n; i++)
				c = round_up(c, member_align(&l->members[i]));
		if (c < l->base)
			c = l->base;
		c = l->base + round_up(c - l->base, l->align);
	}
	return c;
}


static int cost_cmp3(const struct cost *a, const struct cost *b)
{
	if (a->findings != b->findings)
		return a->findings < b->findings ? -1 : 1;
	if (a->lines != b->lines)
		return a->lines < b->lines ? -1 : 1;
	if (a->span != b->span)
		return a->span < b->span ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->holes != b->holes)
		return a->holes < b->holes ? -1 : 1;
	return 0;
}

static int cost_cmp(const struct cost *a, const struct cost *b)
{
	int c = cost_cmp3(a, b);

	if (c)
		return c;
	if (a->moved != b->moved)
		return a->moved < b->moved ? -1 : 1;
	return 0;
}

/*
 * With unit weights (opts->weight: lines of source): the weight outside the
 * heaviest run of units kept in original order; marks it in KEEP. Quadratic,
 * and only asked for by --format=patch, whose structs are small.
 */
static size_t order_moved_weighted(const struct ctx *x, const uint32_t *ord, size_t n, bool *keep)
{
	size_t *best = xmalloc((n ? n : 1) * sizeof(*best)), *prev = x->lis_prev;
	size_t total = 0, top = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		size_t w = x->u[ord[i]].weight;

		total += w;
		best[i] = w;
		prev[i] = SIZE_MAX;
		for (size_t j = 0; j < i; j++) {
			if (ord[j] < ord[i] && best[j] + w > best[i]) {
				best[i] = best[j] + w;
				prev[i] = j;
			}
		}
		if (top == SIZE_MAX || best[i] > best[top])
			top = i;
	}
	size_t kept = top == SIZE_MAX ? 0 : best[top];

	if (keep) {
		memset(keep, 0, n * sizeof(*keep));
		for (size_t i = top; i != SIZE_MAX; i = prev[i])
			keep[i] = true;
	}
	free(best);
	return total - kept;
}

/* Units minus the longest increasing run of original positions; marks it in KEEP. */
static size_t order_moved(const struct ctx *x, const uint32_t *ord, size_t n, bool *keep)
{
	if (x->opts->weight)
		return order_moved_weighted(x, ord, n, keep);

	size_t *tail = x->lis_tail, *prev = x->lis_prev;
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = len;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (ord[tail[mid]] < ord[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	if (keep) {
		memset(keep, 0, n * sizeof(*keep));
		for (size_t i = len ? tail[len - 1] : SIZE_MAX; i != SIZE_MAX; i = prev[i])
			keep[i] = true;
	}
	return n - len;
}

/* Lay out a whole sequence; false if it breaks a pin or joins two bitfield runs. */
static bool eval_seq(struct ctx *x, const uint32_t *ord, const uint8_t *brk, uint64_t *pos,
		     struct cost *c, bool with_moved)
{
	uint64_t cursor = x->L->base;
	struct lst open = { 0, 0, 0 };
	bool last_bf = false;
	uint8_t last = LAST_ANY;
	uint64_t findings = 0, span = 0;

	for (size_t i = 0; i < x->nu; i++) {
		const struct unit *u = &x->u[ord[i]];
		uint64_t p = place_at(x, u, cursor, brk[i]);
		uint32_t sp;

		if (p < cursor || (last_bf && u->bitfield && p == cursor) || u->last < last)
			return false;
		last = u->last;
		findings += apply_span(x, u, cursor, open, p, &open, &sp);
		span += sp;
		if (pos)
			pos[i] = p;
		cursor = p + u->size;
		last_bf = u->ends_bf;
	}
	c->findings = findings;
	c->span = span;
	c->holes = x->pack ? cursor - x->L->base - x->unit_bytes : 0;
	c->size = final_size(x, cursor);
	c->lines = div_up(c->size, x->cl);
	c->moved = with_moved ? order_moved(x, ord, x->nu, NULL) : 0;
	return true;
}

/* The hot classes' line count in the input order; UINT64_MAX if it is no valid sequence. */
static uint64_t orig_span(struct ctx *x)
{
	uint32_t *ord = xmalloc(x->nu * sizeof(*ord));
	uint8_t *brk = xcalloc(x->nu, sizeof(*brk));
	struct cost c;
	uint64_t span = UINT64_MAX;

	for (size_t i = 0; i < x->nu; i++)
		ord[i] = (uint32_t)i;
	if (eval_seq(x, ord, brk, NULL, &c, false))
		span = c.span;
	free(ord);
	free(brk);
	return span;
}

/* ---- the search ---------------------------------------------------------- */

struct node {
	uint64_t cursor, dom, placed, hash;
	uint32_t findings, moved, parent, unit, last_idx, est;
	uint32_t flb;		/* findings, plus what unplaced units cannot avoid */
	uint64_t waste;
	uint64_t cls;		/* the open line's hot classes (struct lst.cls) */
	uint32_t span;		/* (class, line) pairs so far */
	uint8_t f, brk, last_bf;
};

struct layer {
	struct node *v;
	size_t n, cap;
	uint64_t *sets;		/* words per node */
};

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t node_key_hash(const struct node *nd)
{
	return mix64(nd->hash ^ mix64(nd->cursor) ^ mix64(nd->dom * 31 + nd->f * 7 + nd->last_bf) ^
		     mix64(nd->cls));
}

static bool node_better(const struct node *a, const struct node *b)
{
	if (a->findings != b->findings)
		return a->findings < b->findings;
	if (a->span != b->span)
		return a->span < b->span;
	if (a->moved != b->moved)
		return a->moved < b->moved;
	return a->last_idx < b->last_idx;
}

struct search {
	struct ctx *x;
	struct layer *layers;
	size_t nlayers;
	size_t width;
	/* per-layer hash table of child indices */
	size_t *table;
	size_t tcap;
	int64_t *rem;		/* per class, for the parent being expanded */
};

static bool set_has(const uint64_t *set, size_t i)
{
	return set[i / 64] >> (i % 64) & 1;
}

static uint32_t estimate(const struct ctx *x, uint64_t cursor, struct lst open,
			 const int64_t *rem, int64_t rem_total)
{
	uint64_t cl = x->cl, F = cursor % cl ? cl - cursor % cl : 0;
	uint64_t used = div_up(cursor, cl), need = 0, best_cut = 0;
	int own;

	if (open.f & LS_R)
		own = open.dom || (open.f & LS_W) ? -2 : 0;
	else if (exactly_one(open.dom))
		own = 1 + __builtin_ctzll(open.dom);
	else if (!open.dom && !(open.f & LS_W))
		own = -1;
	else
		own = -2;
	for (int c = 0; c < x->nclasses; c++) {
		if (rem[c] <= 0)
			continue;
		uint64_t full = div_up((uint64_t)rem[c], cl);
		uint64_t cut = (uint64_t)rem[c] > F ? div_up((uint64_t)rem[c] - F, cl) : 0;

		need += full;
		if (own == c || own == -1)
			best_cut = full - cut > best_cut ? full - cut : best_cut;
	}
	need -= best_cut;
	uint64_t need2 = rem_total > (int64_t)F ? div_up((uint64_t)rem_total - F, cl) : 0;

	return (uint32_t)(used + (need > need2 ? need : need2));
}

/*
 * Branch and bound: true if every completion of ND is worse than the best
 * layout known. Bytes still to place need at least their own size; with no
 * finding allowed, each hot class also needs lines of its own (the estimate
 * is a lower bound then, unless "allow" lets classes share lines).
 */
static bool cannot_beat(const struct ctx *x, const struct node *nd, uint64_t rest)
{
	const struct cost *ub = x->ub;

	if (!ub)
		return false;
	if (nd->findings != ub->findings)
		return nd->findings > ub->findings;
	uint64_t size = final_size(x, nd->cursor + rest), lines = div_up(size, x->cl);

	if (!ub->findings && !x->has_allows && nd->est > lines)
		lines = nd->est;
	/* Span only grows: at equal lines, a larger one loses, an equal one loses on size. */
	return lines > ub->lines ||
	       (lines == ub->lines && (nd->span > ub->span ||
				       (nd->span == ub->span && size > ub->size)));
}

static int rank_cmp(const void *a, const void *b)
{
	const struct node *p = a, *q = b;

	if (p->flb != q->flb)
		return p->flb < q->flb ? -1 : 1;
	if (p->findings != q->findings)
		return p->findings < q->findings ? -1 : 1;
	if (p->est != q->est)
		return p->est < q->est ? -1 : 1;
	if (p->span != q->span)
		return p->span < q->span ? -1 : 1;
	if (p->waste != q->waste)
		return p->waste < q->waste ? -1 : 1;
	if (p->moved != q->moved)
		return p->moved < q->moved ? -1 : 1;
	if (p->cursor != q->cursor)
		return p->cursor < q->cursor ? -1 : 1;
	return p->hash < q->hash ? -1 : p->hash > q->hash;
}

static void layer_push(struct layer *l, const struct node *nd, const uint64_t *set, size_t words)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
		l->sets = xrealloc(l->sets, l->cap * words * sizeof(*l->sets));
	}
	l->v[l->n] = *nd;
	memcpy(&l->sets[l->n * words], set, words * sizeof(*set));
	l->n++;
}

static void table_reset(struct search *S, size_t want)
{
	size_t cap = 64;

	while (cap < want * 2)
		cap *= 2;
	if (cap > S->tcap) {
		free(S->table);
		S->table = xmalloc(cap * sizeof(*S->table));
		S->tcap = cap;
	}
	for (size_t i = 0; i < cap; i++)
		S->table[i] = SIZE_MAX;
	S->tcap = cap;
}

static void table_grow(struct search *S, struct layer *l)
{
	size_t cap = S->tcap * 2;

	free(S->table);
	S->table = xmalloc(cap * sizeof(*S->table));
	for (size_t i = 0; i < cap; i++)
		S->table[i] = SIZE_MAX;
	S->tcap = cap;
	for (size_t k = 0; k < l->n; k++) {
		size_t h = node_key_hash(&l->v[k]) & (cap - 1);

		while (S->table[h] != SIZE_MAX)
			h = (h + 1) & (cap - 1);
		S->table[h] = k;
	}
}

static void offer(struct search *S, struct layer *next, const struct node *nd, const uint64_t *set)
{
	size_t words = S->x->words;

	if ((next->n + 1) * 2 > S->tcap)
		table_grow(S, next);
	size_t h = node_key_hash(nd) & (S->tcap - 1);

	for (;;) {
		size_t k = S->table[h];

		if (k == SIZE_MAX)
			break;
		struct node *o = &next->v[k];

		if (o->hash == nd->hash && o->cursor == nd->cursor && o->dom == nd->dom &&
		    o->f == nd->f && o->last_bf == nd->last_bf && o->cls == nd->cls &&
		    memcmp(&next->sets[k * words], set, words * sizeof(*set)) == 0) {
			if (node_better(nd, o))
				*o = *nd;
			return;
		}
		h = (h + 1) & (S->tcap - 1);
	}
	S->table[h] = next->n;
	layer_push(next, nd, set, words);
}

/* Reorder IDX so that its first K entries are the K best nodes of V. */
static void select_best(const struct node *v, uint32_t *idx, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		uint32_t a = idx[lo], b = idx[lo + (hi - lo) / 2], c = idx[hi - 1], p;

		/* median of three */
		if (rank_cmp(&v[a], &v[b]) > 0) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		p = rank_cmp(&v[b], &v[c]) <= 0 ? b : rank_cmp(&v[a], &v[c]) <= 0 ? c : a;
		size_t lt = lo, i = lo, gt = hi;
		const struct node pv = v[p];

		while (i < gt) {
			int r = rank_cmp(&v[idx[i]], &pv);
			uint32_t t = idx[i];

			if (r < 0) {
				idx[i++] = idx[lt];
				idx[lt++] = t;
			} else if (r > 0) {
				idx[i] = idx[--gt];
				idx[gt] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k <= gt)
			return;
		else
			lo = gt;
	}
}

static void prune(struct search *S, struct layer *l, size_t width)
{
	size_t words = S->x->words;

	if (l->n <= width)
		return;
	uint32_t *idx = xmalloc(l->n * sizeof(*idx));

	for (size_t i = 0; i < l->n; i++)
		idx[i] = (uint32_t)i;
	select_best(l->v, idx, l->n, width);
	/* Keep the chosen ones in their original relative order: deterministic. */
	bool *take = xcalloc(l->n, sizeof(*take));

	for (size_t i = 0; i < width; i++)
		take[idx[i]] = true;
	size_t o = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!take[i])
			continue;
		l->v[o] = l->v[i];
		if (o != i)
			memcpy(&l->sets[o * words], &l->sets[i * words], words * sizeof(*l->sets));
		o++;
	}
	l->n = width;
	free(take);
	free(idx);
	S->x->truncated = true;
}

static uint64_t zobrist(size_t i)
{
	return mix64(0x5eed0000ULL + i);
}

/* Expand every state of layer I into layer I + 1. */
static void expand(struct search *S, size_t li)
{
	struct ctx *x = S->x;
	struct layer *cur = &S->layers[li], *next = &S->layers[li + 1];
	size_t words = x->words;
	uint64_t *set = xmalloc(words * sizeof(*set));

	table_reset(S, cur->n * 4 + 16);
	for (size_t si = 0; si < cur->n; si++) {
		const struct node *pn = &cur->v[si];
		const uint64_t *pset = &cur->sets[si * words];
		int64_t rem_total = 0;
		uint32_t rem_min = 0;
		size_t pin_next = SIZE_MAX;
		uint8_t last_min = LAST_FLEXIBLE;
		uint64_t pin_limit = UINT64_MAX;
		struct lst open = { pn->dom, pn->f, pn->cls };

		for (int c = 0; c < x->nclasses; c++)
			S->rem[c] = 0;
		for (size_t k = 0; k < x->nu; k++) {
			if (set_has(pset, k))
				continue;
			rem_total += (int64_t)x->u[k].size;
			rem_min += x->u[k].min_alone;
			last_min = x->u[k].last < last_min ? x->u[k].last : last_min;
			for (size_t j = 0; j < x->u[k].ncb; j++)
				S->rem[x->u[k].cb[j].cls] += (int64_t)x->u[k].cb[j].bytes;
		}
		for (size_t k = 0; k < x->npins; k++) {
			if (!set_has(pset, x->pins[k])) {
				pin_next = x->pins[k];
				pin_limit = x->u[pin_next].orig;
				break;
			}
		}
		for (size_t k = 0; k < x->nu; k++) {
			const struct unit *u = &x->u[k];

			if (set_has(pset, k))
				continue;
			if (u->prev_same >= 0 && !set_has(pset, (size_t)u->prev_same))
				continue;
			if (u->pinned && k != pin_next)
				continue;
			if (u->last > last_min)
				continue;
			for (int b = 0; b < 2; b++) {
				uint64_t p;

				if (b) {
					if (u->pinned || pn->cursor % x->cl == 0 ||
					    (!x->exact_mode && !u->hot))
						continue;
					p = place_at(x, u, pn->cursor, true);
					if (p == place_at(x, u, pn->cursor, false))
						continue;
				} else {
					p = place_at(x, u, pn->cursor, false);
				}
				if (p < pn->cursor || (pn->last_bf && u->bitfield && p == pn->cursor))
					continue;
				if (!u->pinned && p + u->size > pin_limit)
					continue;
				struct node nd = *pn;
				struct lst lo;
				uint32_t sp;

				nd.findings += apply_span(x, u, pn->cursor, open, p, &lo, &sp);
				nd.span += sp;
				nd.cls = lo.cls;
				nd.flb = nd.findings + rem_min - u->min_alone;
				nd.cursor = p + u->size;
				nd.dom = lo.dom;
				nd.f = lo.f;
				nd.last_bf = u->ends_bf;
				nd.brk = (uint8_t)b;
				nd.unit = (uint32_t)k;
				nd.parent = (uint32_t)si;
				nd.moved += (li > 0 && u->idx < pn->last_idx) ? (uint32_t)u->weight : 0;
				nd.last_idx = (uint32_t)u->idx;
				nd.placed += u->size;
				nd.hash ^= zobrist(k);
				nd.waste = nd.cursor - x->L->base - nd.placed;
				for (size_t j = 0; j < u->ncb; j++)
					S->rem[u->cb[j].cls] -= (int64_t)u->cb[j].bytes;
				nd.est = estimate(x, nd.cursor, lo, S->rem, rem_total - (int64_t)u->size);
				for (size_t j = 0; j < u->ncb; j++)
					S->rem[u->cb[j].cls] += (int64_t)u->cb[j].bytes;
				if (cannot_beat(x, &nd, (uint64_t)rem_total - u->size))
					continue;
				memcpy(set, pset, words * sizeof(*set));
				set[k / 64] |= 1ULL << (k % 64);
				offer(S, next, &nd, set);
			}
		}
	}
	free(set);
	/* Sets of the layer just expanded are no longer needed. */
	free(cur->sets);
	cur->sets = NULL;
}

static size_t beam_width(const struct ctx *x)
{
	if (x->opts->beam)
		return x->opts->beam;
	uint64_t n = x->nu ? x->nu : 1, w = BEAM_BUDGET / (n * n);

	return w < BEAM_MIN ? BEAM_MIN : w > BEAM_MAX ? BEAM_MAX : (size_t)w;
}

/* Fill ORD/BRK with the best sequence found; false if none is valid. */
static bool search(struct ctx *x, size_t width, uint32_t *ord, uint8_t *brk)
{
	struct search S = { .x = x };
	bool ok = false;

	S.layers = xcalloc(x->nu + 1, sizeof(*S.layers));
	S.rem = xcalloc((size_t)x->nclasses + 1, sizeof(*S.rem));
	uint64_t *empty = xcalloc(x->words, sizeof(*empty));
	struct node root = { .cursor = x->L->base, .parent = UINT32_MAX, .unit = UINT32_MAX };

	layer_push(&S.layers[0], &root, empty, x->words);
	free(empty);
	for (size_t li = 0; li < x->nu; li++) {
		expand(&S, li);
		prune(&S, &S.layers[li + 1], width);
		if (!S.layers[li + 1].n)
			goto out;
	}
	/* Pick the best complete state. */
	struct layer *last = &S.layers[x->nu];
	size_t best = SIZE_MAX;
	struct cost bc = { 0 };

	for (size_t i = 0; i < last->n; i++) {
		const struct node *nd = &last->v[i];
		struct cost c;

		c.findings = nd->findings;
		c.span = nd->span;
		c.holes = x->pack ? nd->waste : 0;
		c.size = final_size(x, nd->cursor);
		c.lines = div_up(c.size, x->cl);
		c.moved = nd->moved;
		if (best == SIZE_MAX || cost_cmp(&c, &bc) < 0) {
			best = i;
			bc = c;
		}
	}
	for (size_t li = x->nu, i = best; li > 0; li--) {
		const struct node *nd = &S.layers[li].v[i];

		ord[li - 1] = nd->unit;
		brk[li - 1] = nd->brk;
		i = nd->parent;
	}
	ok = true;
out:
	for (size_t i = 0; i <= x->nu; i++) {
		free(S.layers[i].v);
		free(S.layers[i].sets);
	}
	free(S.layers);
	free(S.rem);
	free(S.table);
	return ok;
}

/* ---- local moves --------------------------------------------------------- */

struct seq {
	uint32_t *ord;
	uint8_t *brk;
	struct cost c;
};

static void seq_move(uint32_t *ord, uint8_t *brk, size_t from, size_t to)
{
	uint32_t u = ord[from];
	uint8_t b = brk[from];

	if (from < to) {
		memmove(&ord[from], &ord[from + 1], (to - from) * sizeof(*ord));
		memmove(&brk[from], &brk[from + 1], (to - from) * sizeof(*brk));
	} else if (to < from) {
		memmove(&ord[to + 1], &ord[to], (from - to) * sizeof(*ord));
		memmove(&brk[to + 1], &brk[to], (from - to) * sizeof(*brk));
	}
	ord[to] = u;
	brk[to] = b;
}

/* Drop breaks that buy nothing. */
static void drop_breaks(struct ctx *x, struct seq *q)
{
	for (size_t i = 0; i < x->nu; i++) {
		struct cost c;

		if (!q->brk[i])
			continue;
		q->brk[i] = 0;
		if (eval_seq(x, q->ord, q->brk, NULL, &c, true) && cost_cmp(&c, &q->c) <= 0)
			q->c = c;
		else
			q->brk[i] = 1;
	}
}

/*
 * Move units to other places while the cost drops: with FULL, any unit and
 * cost; otherwise only units outside the kept order, for a smaller "moved"
 * at no cost in findings, lines or bytes.
 */
static void relocate(struct ctx *x, struct seq *q, bool full, int passes)
{
	size_t n = x->nu;
	uint64_t work = 0;	/* units placed so far: a budget keeps huge structs fast */
	uint32_t *ord = xmalloc(n * sizeof(*ord));
	uint8_t *brk = xmalloc(n * sizeof(*brk));
	bool *keep = xmalloc(n * sizeof(*keep));

	for (int pass = 0; pass < passes; pass++) {
		bool improved = false;

		for (size_t i = 0; i < n && work < RELOCATE_BUDGET; i++) {
			order_moved(x, q->ord, n, keep);
			if (!full && keep[i])
				continue;
			size_t best_to = SIZE_MAX;
			int best_b = -1;
			struct cost best = q->c;

			for (size_t to = 0; to < n; to++) {
				for (int b = 0; b < (full ? 2 : 1); b++) {
					struct cost c;

					if (to == i && b == 0)
						continue;
					memcpy(ord, q->ord, n * sizeof(*ord));
					memcpy(brk, q->brk, n * sizeof(*brk));
					seq_move(ord, brk, i, to);
					if (b)
						brk[to] ^= 1;
					work += n;
					if (!eval_seq(x, ord, brk, NULL, &c, false))
						continue;
					int d = cost_cmp3(&c, &best);

					if (d > 0)
						continue;
					c.moved = order_moved(x, ord, n, NULL);
					if (d < 0 || c.moved < best.moved) {
						best = c;
						best_to = to;
						best_b = b;
					}
				}
			}
			if (best_to != SIZE_MAX) {
				seq_move(q->ord, q->brk, i, best_to);
				if (best_b)
					q->brk[best_to] ^= 1;
				q->c = best;
				improved = true;
			}
		}
		if (!improved)
			break;
	}
	free(ord);
	free(brk);
	free(keep);
}

/* ---- building the result ------------------------------------------------- */

static void member_copy(struct ll_member *d, const struct ll_member *m)
{
	*d = *m;
	d->name = m->name ? xstrdup(m->name) : NULL;
	d->path = m->path ? xstrdup(m->path) : NULL;
	d->type = m->type ? xstrdup(m->type) : NULL;
	d->domain = m->domain ? xstrdup(m->domain) : NULL;
	d->decl.file = m->decl.file ? xstrdup(m->decl.file) : NULL;
	d->children = NULL;
	if (m->nr_children) {
		d->children = xcalloc(m->nr_children, sizeof(*d->children));
		for (size_t i = 0; i < m->nr_children; i++)
			member_copy(&d->children[i], &m->children[i]);
	}
}

static void member_shift(struct ll_member *m, int64_t delta)
{
	m->offset = (uint64_t)((int64_t)m->offset + delta);
	m->bit_offset = (uint64_t)((int64_t)m->bit_offset + delta * 8);
	for (size_t i = 0; i < m->nr_children; i++)
		member_shift(&m->children[i], delta);
}

static struct ll_struct *struct_copy(const struct ll_struct *s)
{
	struct ll_struct *d = xcalloc(1, sizeof(*d));

	*d = *s;
	d->name = s->name ? xstrdup(s->name) : NULL;
	d->decl.file = s->decl.file ? xstrdup(s->decl.file) : NULL;
	d->members = xcalloc(s->nr_members ? s->nr_members : 1, sizeof(*d->members));
	for (size_t i = 0; i < s->nr_members; i++)
		member_copy(&d->members[i], &s->members[i]);
	return d;
}

/*
 * Apply SG to the level whose members in S are ORIG[0..n) (copied as COPY):
 * reorder, move, and recurse into containers listed in SG.
 */
static void apply_level(const struct ll_suggestion *sg, const struct ll_member *container,
			const struct ll_member *orig, struct ll_member *copy, size_t n)
{
	struct ll_member *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	size_t k = 0;

	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (sm->container != container || sm->m < orig || sm->m >= orig + n)
			continue;
		size_t idx = (size_t)(sm->m - orig);
		struct ll_member *m = &copy[idx];
		bool is_container = false;

		for (size_t j = 0; j < sg->n; j++)
			is_container |= sg->members[j].container == sm->m;
		if (is_container) {
			m->offset = sm->offset;
			m->size = sm->size;
			apply_level(sg, sm->m, sm->m->children, m->children, m->nr_children);
		} else {
			int64_t delta = m->is_bitfield ?
					0 : (int64_t)sm->offset - (int64_t)m->offset;

			if (m->is_bitfield) {
				m->bit_offset = sm->bit_offset;
				m->offset = sm->bit_offset / 8;
			} else {
				member_shift(m, delta);
			}
		}
		if (k < n)
			tmp[k++] = *m;
	}
	if (k == n)
		memcpy(copy, tmp, n * sizeof(*tmp));
	free(tmp);
}

struct ll_struct *ll_suggestion_layout(const struct ll_struct *s, const struct ll_suggestion *sg)
{
	struct ll_struct *d = struct_copy(s);

	apply_level(sg, NULL, s->members, d->members, s->nr_members);
	d->size = sg->size;
	return d;
}

static size_t real_findings(const struct ll_struct *s, const struct ll_suggest_opts *o)
{
	struct ll_check_input in = { .s = s, .align = 0, .allows = o->allows,
				     .nr_allows = o->nr_allows };
	struct ll_findings f = { 0 };
	size_t n = 0;

	ll_check(&in, &f);
	for (size_t i = 0; i < f.n; i++)
		n += ll_check_fixable_by_reorder(f.v[i].rule);
	ll_findings_release(&f);
	return n;
}

static void push_member(struct ll_suggestion *sg, struct ll_suggested_member sm)
{
	sg->members = xgrow(sg->members, sg->n, sizeof(*sg->members));
	sg->members[sg->n++] = sm;
}

/* List level K of the chain and below, with the solve level laid out by POS. */
static void emit_level(struct ctx *x, struct ll_suggestion *sg, size_t k, const uint32_t *ord,
		       const uint8_t *brk, const uint64_t *pos, const bool *keep, uint64_t *cursor)
{
	const struct level *l = &x->lv[k];

	if (k + 1 < x->nlv) {
		/* Zero-size members around the container keep their offsets until it ends. */
		for (size_t i = 0; i < l->n; i++) {
			const struct ll_member *m = &l->members[i];

			if (i < l->inner) {
				push_member(sg, (struct ll_suggested_member){ m, l->container, m->offset,
					    m->bit_offset, m->size, 0, false, false });
			} else if (i == l->inner) {
				size_t at = sg->n;

				push_member(sg, (struct ll_suggested_member){ m, l->container, m->offset,
					    m->bit_offset, m->size, 0, false, false });
				emit_level(x, sg, k + 1, ord, brk, pos, keep, cursor);
				uint64_t end = m->offset + round_up(*cursor - m->offset, member_align(m));

				sg->members[at].size = end - m->offset;
				*cursor = end;
			} else {
				uint64_t off = round_up(*cursor, member_align(m));

				push_member(sg, (struct ll_suggested_member){ m, l->container, off,
					    off * 8, m->size, 0, false, false });
				*cursor = off;
			}
		}
		return;
	}
	/* The solve level. */
	const struct ll_member *mem = l->members;
	uint64_t c = l->base;

	for (size_t i = 0; i < x->nu; i++) {
		const struct unit *u = &x->u[ord[i]];
		uint64_t p = pos[i], natural, pad;

		/* Where C would put it with no explicit pad; bitfields start at the cursor. */
		natural = u->bitfield ? c : round_up(c, u->head_align);
		pad = p > natural ? p - natural : 0;
		bool line_start = pad && brk[i] && !u->pinned;
		uint64_t zc = c + pad;	/* where leading zero-size members begin */
		size_t head = (size_t)(u->head - mem);

		for (size_t j = u->first; j < u->first + u->count; j++) {
			const struct ll_member *m = &mem[j];
			struct ll_suggested_member sm = { .m = m, .container = l->container,
							  .size = m->size, .moved = !keep[i] };

			if (j == u->first) {
				sm.pad_before = pad;
				sm.line_start = line_start;
			}
			if (j < head) {
				zc = round_up(zc, member_align(m));
				sm.offset = zc;
				sm.bit_offset = zc * 8;
			} else if (j == head || u->block || (u->bitfield && m->is_bitfield)) {
				/* Rigid: the head and what moves with it keep their distances. */
				if (m->is_bitfield) {
					sm.bit_offset = m->bit_offset - u->orig * 8 + p * 8;
					sm.offset = sm.bit_offset / 8;
				} else {
					sm.offset = m->offset - u->orig + p;
					sm.bit_offset = sm.offset * 8;
				}
			} else {
				sm.offset = p + u->size;
				sm.bit_offset = sm.offset * 8;
			}
			push_member(sg, sm);
		}
		c = p + u->size;
	}
	for (size_t i = x->tail_first; i < l->n; i++) {
		const struct ll_member *m = &mem[i];

		c = round_up(c, member_align(m));
		push_member(sg, (struct ll_suggested_member){ m, l->container, c, c * 8, m->size, 0,
			    false, false });
	}
	*cursor = c;
}

/* The input layout as a suggestion: nothing moves. */
static void emit_original(struct ctx *x, struct ll_suggestion *sg)
{
	for (size_t k = 0; k < x->nlv; k++) {
		const struct level *l = &x->lv[k];

		for (size_t i = 0; i < l->n; i++) {
			const struct ll_member *m = &l->members[i];

			push_member(sg, (struct ll_suggested_member){ m, l->container, m->offset,
				    m->bit_offset, m->size, 0, false, false });
		}
	}
	/*
	 * Listing order: each level's members up to its container, the solve
	 * level, then what follows each container, innermost first.
	 */
	if (x->nlv > 1) {
		struct ll_suggested_member *v = sg->members, *out = xmalloc(sg->n * sizeof(*out));
		size_t *start = xmalloc(x->nlv * sizeof(*start)), o = 0;

		for (size_t k = 0, at = 0; k < x->nlv; k++) {
			start[k] = at;
			at += x->lv[k].n;
		}
		for (size_t k = 0; k < x->nlv; k++) {
			size_t upto = x->lv[k].inner == SIZE_MAX ? x->lv[k].n : x->lv[k].inner + 1;

			for (size_t i = 0; i < upto; i++)
				out[o++] = v[start[k] + i];
		}
		for (size_t k = x->nlv - 1; k-- > 0;)
			for (size_t i = x->lv[k].inner + 1; i < x->lv[k].n; i++)
				out[o++] = v[start[k] + i];
		memcpy(v, out, sg->n * sizeof(*out));
		free(out);
		free(start);
	}
}

static void measure(struct ctx *x, const struct ll_struct *s, struct ll_suggestion *sg)
{
	struct ll_struct *d = ll_suggestion_layout(s, sg);
	struct ll_summary sum;

	sg->findings = real_findings(d, x->opts);
	ll_summarize(d, &sum);
	sg->holes = sum.holes;
	sg->hole_bytes = sum.hole_bytes;
	sg->cachelines = ll_struct_lines(d);
	ll_struct_free(d);
	sg->changed = false;
	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (sm->m->is_bitfield ? sm->bit_offset != sm->m->bit_offset :
		    sm->offset != sm->m->offset || sm->size != sm->m->size)
			sg->changed = true;
	}
	if (sg->size != s->size)
		sg->changed = true;
}

/* ---- explanations -------------------------------------------------------- */

static bool classes_conflict(const struct atom *a, const struct atom *b)
{
	if (a->cls == 0 && b->cls == 0)
		return false;
	if (a->cls == 0 || b->cls == 0)
		return !(a->allow & AL_MIXED) && !(b->allow & AL_MIXED);
	return a->cls != b->cls && !(a->allow & AL_DOM) && !(b->allow & AL_DOM);
}

static const char *class_name(const struct ctx *x, int cls, char *buf, size_t n)
{
	if (cls == 0)
		return "read-mostly";
	const char *d = x->domains[cls - 1];

	snprintf(buf, n, "write-hot%s%s", d ? ":" : "", d ? d : "");
	return buf;
}

/* Fewest findings U has on its own, over every offset it may take. */
static unsigned unit_alone(struct ctx *x, const struct unit *u, uint64_t *best_p)
{
	unsigned best = UINT32_MAX;
	uint64_t span = x->cl > u->pmod ? x->cl : u->pmod;

	if (u->pinned) {
		struct lst lo;

		*best_p = u->orig;
		return apply(x, u, u->orig, (struct lst){ 0, 0, 0 }, u->orig, &lo);
	}
	for (uint64_t p = 0; p < span; p++) {
		struct lst lo;

		if (next_pos(u, p) != p)
			continue;
		unsigned f = apply(x, u, p, (struct lst){ 0, 0, 0 }, p, &lo);

		if (f < best) {
			best = f;
			*best_p = p;
		}
		if (!best)
			break;
	}
	return best == UINT32_MAX ? 0 : best;
}

static void explain_unit(struct ctx *x, struct ll_suggestion *sg, const struct unit *u, uint64_t p)
{
	const struct ll_member *h = u->head;
	char b1[96], b2[96];

	for (size_t i = 0; i < u->nr_atoms; i++) {
		for (size_t j = i + 1; j < u->nr_atoms; j++) {
			const struct atom *a = &u->atoms[i], *b = &u->atoms[j];

			if (!classes_conflict(a, b))
				continue;
			uint64_t al = (p + a->b) / x->cl, ah = (p + a->e - 1) / x->cl;
			uint64_t bl = (p + b->b) / x->cl, bh = (p + b->e - 1) / x->cl;

			if (al > bh || bl > ah)
				continue;
			const char *what;

			if (u->bitfield)
				what = "are bitfields of one storage unit, which moves whole";
			else if (h->is_aggregate && h->agg_kind == LL_UNION && a->b < b->e && b->b < a->e)
				what = h->name ? "are alternatives of one union and share its bytes" :
				       "are alternatives of one anonymous union and share its bytes";
			else if (h->is_aggregate && h->name)
				what = "are inside one member that moves whole";
			else if (h->is_aggregate)
				what = "are inside one anonymous aggregate that moves whole";
			else
				what = "share one member";
			add_note(sg, "cannot be removed: %s %s and %s %s %s (%s), so they share a "
				 "cacheline at every offset it may take",
				 class_name(x, a->cls, b1, sizeof(b1)), ll_member_label(a->m),
				 class_name(x, b->cls, b2, sizeof(b2)), ll_member_label(b->m), what,
				 ll_member_label(h));
			return;
		}
	}
	for (size_t i = 0; i < u->nr_atoms; i++) {
		const struct atom *a = &u->atoms[i];

		if (a->split && (p + a->b) / x->cl != (p + a->e - 1) / x->cl) {
			add_note(sg, "cannot be removed: %s %s straddles a cacheline boundary at every "
				 "offset %s may take", class_name(x, a->cls, b1, sizeof(b1)),
				 ll_member_label(a->m), ll_member_label(h));
			return;
		}
	}
}

/* Why no finding-free order exists (or may not), as notes; true if proven. */
static bool explain_impossible(struct ctx *x, struct ll_suggestion *sg)
{
	bool proven = false;

	for (size_t k = 0; k < x->nu; k++) {
		const struct unit *u = &x->u[k];
		uint64_t p = 0;

		if (!u->nr_atoms)
			continue;
		if (unit_alone(x, u, &p)) {
			explain_unit(x, sg, u, p);
			proven = true;
		}
	}
	if (proven || !x->npins)
		return proven;
	/* Pinned units on their own. */
	uint64_t cursor = x->L->base;
	struct lst open = { 0, 0, 0 };
	unsigned f = 0;

	for (size_t k = 0; k < x->npins; k++) {
		const struct unit *u = &x->u[x->pins[k]];

		if (u->orig < cursor)
			break;
		f += apply(x, u, cursor, open, u->orig, &open);
		cursor = u->orig + u->size;
	}
	if (f) {
		add_note(sg, "cannot be removed: pinned members alone already share cachelines "
			 "between classes that must be apart");
		proven = true;
	}
	return proven;
}

/* ---- the entry points ---------------------------------------------------- */

void ll_suggestion_free(struct ll_suggestion *sg)
{
	if (!sg)
		return;
	free(sg->members);
	for (size_t i = 0; i < sg->nr_notes; i++)
		free(sg->notes[i]);
	free(sg->notes);
	for (size_t i = 0; i < sg->nr_left; i++)
		free(sg->left[i]);
	free(sg->left);
	free(sg);
}

static uint64_t lower_bound(const struct ctx *x)
{
	uint64_t total = 0, hot_lines = 0;
	uint64_t *bytes = xcalloc((size_t)x->nclasses, sizeof(*bytes));

	for (size_t k = 0; k < x->nu; k++) {
		total += x->u[k].size;
		for (size_t j = 0; j < x->u[k].ncb; j++)
			bytes[x->u[k].cb[j].cls] += x->u[k].cb[j].bytes;
	}
	for (int c = 0; c < x->nclasses; c++)
		hot_lines += div_up(bytes[c], x->cl);
	free(bytes);
	total += x->L->base;
	uint64_t all = div_up(total, x->cl);

	return hot_lines > all ? hot_lines : all;
}

static void layout_notes(struct ctx *x, struct ll_suggestion *sg)
{
	bool any_line_start = false;

	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (!sm->pad_before)
			continue;
		if (sm->line_start) {
			any_line_start = true;
			add_note(sg, "%s: starts cacheline %" PRIu64 "; needs ____cacheline_aligned_in_smp "
				 "(or an explicit %" PRIu64 "-byte pad before it)", ll_member_label(sm->m),
				 sm->offset / x->cl, sm->pad_before);
		} else if (sm->m->pinned || subtree_pinned(sm->m)) {
			add_note(sg, "%s: pinned at offset %" PRIu64 "; needs an explicit %" PRIu64
				 "-byte pad before it", ll_member_label(sm->m), sm->offset, sm->pad_before);
		} else if (sm->m->is_bitfield) {
			add_note(sg, "%s: its bitfield run must start at offset %" PRIu64 " to keep its "
				 "storage-unit layout; needs an explicit %" PRIu64 "-byte pad before it",
				 ll_member_label(sm->m), sm->offset, sm->pad_before);
		} else {
			add_note(sg, "%s: needs an explicit %" PRIu64 "-byte pad before it",
				 ll_member_label(sm->m), sm->pad_before);
		}
	}
	if (any_line_start && sg->size % x->cl)
		add_note(sg, "with ____cacheline_aligned_in_smp instead of pads the struct becomes "
			 "%" PRIu64 "-byte aligned and its size rounds up to %" PRIu64, x->cl,
			 round_up(sg->size, x->cl));
	if (x->nlv > 1)
		add_note(sg, "members are reordered inside the anonymous struct at offset %" PRIu64,
			 x->L->base);
}

int ll_suggest(const struct ll_struct *s, struct ll_suggestion **out, struct ll_error *err)
{
	struct ll_suggest_opts o = { 0 };

	return ll_suggest_opts(s, &o, out, err);
}

/*
 * The context for S and a fresh suggestion with the input's numbers:
 * levels, units, atoms. NULL (ERR filled, nothing left to free) on error.
 */
static struct ll_suggestion *setup(struct ctx *x, const struct ll_struct *s,
				   const struct ll_suggest_opts *opts, struct ll_error *err)
{
	struct ll_suggestion *sg;
	struct ll_summary before;

	*x = (struct ctx){ .s = s, .opts = opts, .cl = s->cacheline };
	if (!s->cacheline)
		return ll_fail(err, "%s %s: no cacheline size", ll_kind_name(s->kind), s->name),
		       NULL;
	sg = xcalloc(1, sizeof(*sg));
	ll_summarize(s, &before);
	sg->before_size = s->size;
	sg->before_cachelines = ll_struct_lines(s);
	sg->before_holes = before.holes;
	sg->before_hole_bytes = before.hole_bytes;
	sg->before_findings = real_findings(s, opts);

	x->nlv = find_levels(s, x->lv);
	x->L = &x->lv[x->nlv - 1];
	build_units(x);
	/* The search is quadratic in units at best: 8,000 took 14 s. */
	if (x->nu > LL_SUGGEST_MAX_UNITS) {
		ll_fail(err, "%s %s: %zu members to place, more than the %d --suggest takes",
			ll_kind_name(s->kind), s->name, x->nu, LL_SUGGEST_MAX_UNITS);
		free_units(x);
		ll_suggestion_free(sg);
		return NULL;
	}
	if (build_atoms(x, err)) {
		free_units(x);
		ll_suggestion_free(sg);
		return NULL;
	}
	finish_units(x);
	x->pack = true;
	for (size_t k = 0; k < x->nu; k++) {
		x->u[k].min_alone = unit_alone(x, &x->u[k], &x->u[k].best_alone);
		x->pack &= !x->u[k].hot;
		x->unit_bytes += x->u[k].size;
	}
	sg->units = x->nu;
	sg->lower_bound_lines = lower_bound(x);
	sg->alignment = s->alignment;
	return sg;
}

int ll_suggest_opts(const struct ll_struct *s, const struct ll_suggest_opts *opts,
		    struct ll_suggestion **out, struct ll_error *err)
{
	struct ctx x;
	struct ll_suggestion *sg;
	size_t exact_units = opts->exact_units ? opts->exact_units : EXACT_UNITS_DEFAULT;

	*out = NULL;
	sg = setup(&x, s, opts, err);
	if (!sg)
		return -1;

	uint32_t *ord = xmalloc((x.nu ? x.nu : 1) * sizeof(*ord));
	uint8_t *brk = xcalloc(x.nu ? x.nu : 1, sizeof(*brk));
	uint64_t *pos = xmalloc((x.nu ? x.nu : 1) * sizeof(*pos));
	bool *keep = xmalloc((x.nu ? x.nu : 1) * sizeof(*keep));
	struct seq q = { ord, brk, { 0 } };
	bool found = false;

	if ((s->kind == LL_STRUCT || x.nlv > 1) && x.nu > 1) {
		uint32_t *o2 = xmalloc(x.nu * sizeof(*o2));
		uint8_t *b2 = xcalloc(x.nu, sizeof(*b2));
		struct cost c2, ub;

		/* The original order is the first layout to beat. */
		for (size_t i = 0; i < x.nu; i++)
			ord[i] = (uint32_t)i;
		found = eval_seq(&x, ord, brk, NULL, &q.c, true);
		/* A narrow beam next: the better the bound, the cheaper the real search. */
		for (int round = 0; round < 2; round++) {
			size_t width = QUICK_BEAM;

			if (round) {
				x.truncated = false;
				x.exact_mode = exact_units != SIZE_MAX && x.nu <= exact_units;
				width = x.exact_mode ? EXACT_STATE_CAP : beam_width(&x);
			}
			ub = q.c;
			x.ub = found ? &ub : NULL;
			if (search(&x, width, o2, b2) && eval_seq(&x, o2, b2, NULL, &c2, true) &&
			    (!found || cost_cmp(&c2, &q.c) < 0)) {
				memcpy(ord, o2, x.nu * sizeof(*ord));
				memcpy(brk, b2, x.nu * sizeof(*brk));
				q.c = c2;
				found = true;
			}
		}
		x.ub = NULL;
		free(o2);
		free(b2);
		if (found) {
			drop_breaks(&x, &q);
			if (x.truncated || !x.exact_mode)
				relocate(&x, &q, true, 2);
			drop_breaks(&x, &q);
			relocate(&x, &q, false, 3);
		}
	}
	if (found) {
		uint64_t cursor = 0;

		eval_seq(&x, ord, brk, pos, &q.c, true);
		order_moved(&x, ord, x.nu, keep);
		size_t units_moved = 0;

		for (size_t i = 0; i < x.nu; i++)
			units_moved += !keep[i];
		emit_level(&x, sg, 0, ord, brk, pos, keep, &cursor);
		sg->size = final_size(&x, pos[x.nu - 1] + x.u[ord[x.nu - 1]].size);
		sg->model_findings = q.c.findings;
		sg->moved = units_moved;
		sg->optimal = x.exact_mode && !x.truncated;
		measure(&x, s, sg);
		/* Never propose something worse than what is there. */
		struct cost now = { sg->findings, sg->cachelines, sg->size,
				    x.pack ? sg->hole_bytes : 0, q.c.moved, q.c.span };
		struct cost was = { sg->before_findings, sg->before_cachelines, s->size,
				    x.pack ? sg->before_hole_bytes : 0, 0, orig_span(&x) };

		if (cost_cmp(&was, &now) <= 0) {
			found = false;
			free(sg->members);
			sg->members = NULL;
			sg->n = 0;
		}
	}
	if (!found) {
		emit_original(&x, sg);
		sg->size = s->size;
		sg->moved = 0;
		sg->model_findings = sg->before_findings;
		if ((s->kind != LL_STRUCT && x.nlv == 1) || x.nu <= 1)
			sg->optimal = true;
		measure(&x, s, sg);
		if (s->kind == LL_UNION && x.nlv == 1 && sg->findings)
			add_note(sg, "members of a union all start at offset 0: no order changes "
				 "where they land");
	}
	if (sg->findings) {
		bool proven = explain_impossible(&x, sg);
		bool fixed = s->kind == LL_UNION && x.nlv == 1;

		sg->impossible = proven || sg->optimal || fixed;
		if (!sg->impossible)
			add_note(sg, "no finding-free order was found, but the search was not "
				 "exhaustive (%zu units); the findings left may be avoidable", x.nu);
		else if (!proven && !fixed)
			add_note(sg, "cannot be removed: no order of the %zu units (searched "
				 "exhaustively) separates every class; pinned members or alignment "
				 "leave no room", x.nu);
	}
	layout_notes(&x, sg);
	free(ord);
	free(brk);
	free(pos);
	free(keep);
	free_units(&x);
	*out = sg;
	return 0;
}

/* ---- the smallest fix ------------------------------------------------------ */

/* What names a level member across two builds: its path, or its first named member's. */
static const char *member_key(const struct ll_member *m)
{
	if (m->path)
		return m->path;
	for (size_t i = 0; i < m->nr_children; i++) {
		const char *k = member_key(&m->children[i]);

		if (k)
			return k;
	}
	return NULL;
}

struct fix {
	struct ctx *x;
	const struct ll_fix_ref *r;
	long *rank;		/* per unit: its head's place in the reference, -1: new */
	int64_t *ref_off;	/* per unit: its head's reference offset, -1: none */
	uint8_t *brk;		/* all zero: a fix adds no line-start pads */
	uint64_t *pos;
	bool *keep;
	size_t evals, budget;
	bool truncated;
	bool *involved;		/* per unit: holds a member of a new finding of the base */
	/* The best candidate so far. */
	uint32_t *best;
	bool have;
	size_t best_new, best_moved, best_restored, best_findings;
};

struct fix_score {
	size_t nnew, moved, restored, findings;
};

/*
 * Lay out ORD (no breaks) and count with the real checks: findings the
 * reference lacks, fixable findings, units moved from the input and units
 * at their reference offsets. LEFT (may be NULL) gets the messages of the
 * findings that are not new. False if ORD is no valid layout.
 */
static bool fix_eval(struct fix *F, const uint32_t *ord, struct fix_score *sc, char ***left,
		     size_t *nr_left, bool *involved)
{
	struct ctx *x = F->x;
	struct ll_suggestion tmp = { 0 };
	struct ll_findings f = { 0 };
	struct cost c;
	uint64_t cursor = 0;

	F->evals++;
	if (!eval_seq(x, ord, F->brk, F->pos, &c, false))
		return false;
	for (size_t i = 0; i < x->nu; i++)
		F->keep[i] = true;
	emit_level(x, &tmp, 0, ord, F->brk, F->pos, F->keep, &cursor);
	tmp.size = final_size(x, F->pos[x->nu - 1] + x->u[ord[x->nu - 1]].size);

	struct ll_struct *d = ll_suggestion_layout(x->s, &tmp);
	struct ll_check_input in = { .s = d, .allows = x->opts->allows,
				     .nr_allows = x->opts->nr_allows };

	ll_check(&in, &f);
	*sc = (struct fix_score){ 0 };
	for (size_t i = 0; i < f.n; i++) {
		if (!ll_check_fixable_by_reorder(f.v[i].rule))
			continue;
		sc->findings++;
		if (F->r->is_new(d, &f.v[i], F->r->arg)) {
			sc->nnew++;
			/* The units holding its members: what step 2 tries to move first. */
			for (size_t k = 0; involved && k < f.v[i].nr_members; k++) {
				const struct ll_member *m = ll_member_at_path(d, f.v[i].members[k]);

				for (size_t p = 0; m && p < x->nu; p++)
					if (F->pos[p] <= m->offset &&
					    m->offset < F->pos[p] + x->u[ord[p]].size)
						involved[ord[p]] = true;
			}
		} else if (left) {
			*left = xgrow(*left, *nr_left, sizeof(**left));
			(*left)[(*nr_left)++] = xstrdup(f.v[i].message);
		}
	}
	ll_findings_release(&f);
	ll_struct_free(d);
	free(tmp.members);
	sc->moved = order_moved(x, ord, x->nu, NULL);
	for (size_t i = 0; i < x->nu; i++)
		sc->restored += F->ref_off[ord[i]] >= 0 &&
				F->pos[i] == (uint64_t)F->ref_off[ord[i]];
	return true;
}

/* Fewer moved, then more at their reference offsets, then fewer findings. */
static bool fix_better(const struct fix *F, const struct fix_score *sc)
{
	if (!F->have)
		return true;
	if (sc->moved != F->best_moved)
		return sc->moved < F->best_moved;
	if (sc->restored != F->best_restored)
		return sc->restored > F->best_restored;
	return sc->findings < F->best_findings;
}

/* Offer ORD as a fix: kept if it removes every new finding and beats the best. */
static void fix_offer(struct fix *F, const uint32_t *ord)
{
	struct fix_score sc;

	if (F->evals >= F->budget) {
		F->truncated = true;
		return;
	}
	if (!fix_eval(F, ord, &sc, NULL, NULL, NULL) || sc.nnew || !fix_better(F, &sc))
		return;
	memcpy(F->best, ord, F->x->nu * sizeof(*ord));
	F->have = true;
	F->best_moved = sc.moved;
	F->best_restored = sc.restored;
	F->best_findings = sc.findings;
}

/*
 * The input order with the units of PUT (N of them, by unit index) put
 * back: each reinserted after the unit the reference has before it (the
 * nearest lower rank among those in place), or first.
 */
static void put_back(const struct fix *F, const size_t *put, size_t n, uint32_t *ord)
{
	const struct ctx *x = F->x;
	size_t len = 0;
	size_t *by_rank = xmalloc((n ? n : 1) * sizeof(*by_rank));

	for (size_t i = 0; i < x->nu; i++) {
		bool out = false;

		for (size_t k = 0; k < n; k++)
			out |= put[k] == i;
		if (!out)
			ord[len++] = (uint32_t)i;
	}
	memcpy(by_rank, put, n * sizeof(*by_rank));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && F->rank[by_rank[j]] < F->rank[by_rank[j - 1]]; j--) {
			size_t t = by_rank[j];

			by_rank[j] = by_rank[j - 1];
			by_rank[j - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		size_t u = by_rank[k], at = 0;
		long best = -1;

		for (size_t i = 0; i < len; i++)
			if (F->rank[ord[i]] >= 0 && F->rank[ord[i]] < F->rank[u] &&
			    F->rank[ord[i]] > best) {
				best = F->rank[ord[i]];
				at = i + 1;
			}
		memmove(ord + at + 1, ord + at, (len - at) * sizeof(*ord));
		ord[at] = (uint32_t)u;
		len++;
	}
	free(by_rank);
}

/* Every K-subset of D (ND units) put back, in lexicographic order. */
static void try_put_back(struct fix *F, const size_t *D, size_t nd, size_t k, uint32_t *ord)
{
	size_t idx[64], put[64];

	if (k > nd || k > 64)
		return;
	for (size_t i = 0; i < k; i++)
		idx[i] = i;
	for (;;) {
		for (size_t i = 0; i < k; i++)
			put[i] = D[idx[i]];
		put_back(F, put, k, ord);
		fix_offer(F, ord);
		if (F->truncated)
			return;
		size_t i = k;

		while (i > 0 && idx[i - 1] == nd - k + i - 1)
			i--;
		if (i == 0)
			return;
		idx[i - 1]++;
		for (size_t j = i; j < k; j++)
			idx[j] = idx[j - 1] + 1;
	}
}

static void seq_move_only(uint32_t *ord, size_t from, size_t to)
{
	uint32_t u = ord[from];

	if (from < to)
		memmove(ord + from, ord + from + 1, (to - from) * sizeof(*ord));
	else
		memmove(ord + to + 1, ord + to, (from - to) * sizeof(*ord));
	ord[to] = u;
}

/*
 * From BASE, every way of moving DEPTH more units; each leaf offered.
 * ONLY_INVOLVED: only units holding members of the new findings move; else
 * the leaves where one such unit moved are skipped (tried already).
 */
static void try_moves(struct fix *F, const uint32_t *base, size_t depth, uint32_t *scratch,
		      bool only_involved, bool other_moved)
{
	size_t n = F->x->nu;

	for (size_t from = 0; from < n && !F->truncated; from++) {
		bool inv = F->involved[base[from]];

		if (only_involved && !inv)
			continue;
		for (size_t to = 0; to < n && !F->truncated; to++) {
			/* to + 1 == from is from - 1 moved after it: tried from there. */
			if (to == from || to + 1 == from)
				continue;
			uint32_t *ord = scratch + (depth - 1) * n;

			memcpy(ord, base, n * sizeof(*ord));
			seq_move_only(ord, from, to);
			if (depth > 1)
				try_moves(F, ord, depth - 1, scratch, only_involved,
					  other_moved || !inv);
			else if (only_involved || other_moved || !inv)
				fix_offer(F, ord);
		}
	}
}

/* Members in V, at every depth: what one candidate's copy and checks cost. */
static size_t count_members(const struct ll_member *v, size_t n)
{
	size_t c = n;

	for (size_t i = 0; i < n; i++)
		c += count_members(v[i].children, v[i].nr_children);
	return c;
}
/* What the smallest fix's search holds, freed on either way out. */
static void fix_release(struct fix *F, uint32_t *ord, void *scratch, void *D)
{
	free(F->rank);
	free(F->ref_off);
	free(F->brk);
	free(F->pos);
	free(F->keep);
	free(F->best);
	free(F->involved);
	free(ord);
	free(scratch);
	free(D);
	free_units(F->x);
}


int ll_suggest_fix(const struct ll_struct *s, const struct ll_suggest_opts *opts,
		   const struct ll_fix_ref *r, struct ll_suggestion **out, struct ll_error *err)
{
	struct ctx x;
	struct ll_suggestion *sg;
	struct fix F = { .x = &x, .r = r };
	size_t max_moves = r->max_moves ? r->max_moves : 2;

	*out = NULL;
	sg = setup(&x, s, opts, err);
	if (!sg)
		return -1;
	sg->smallest_fix = true;
	size_t n = x.nu ? x.nu : 1;

	/*
	 * Each candidate costs a copy of the struct and the checks on it:
	 * about 20 million member visits in all, at most 200,000 layouts.
	 */
	size_t total = count_members(s->members, s->nr_members);

	F.budget = r->budget ? r->budget : 20000000 / (total ? total : 1);
	if (!r->budget && F.budget > 200000)
		F.budget = 200000;
	if (!r->budget && F.budget < 2000)
		F.budget = 2000;
	F.involved = xcalloc(n, sizeof(*F.involved));
	F.rank = xmalloc(n * sizeof(*F.rank));
	F.ref_off = xmalloc(n * sizeof(*F.ref_off));
	F.brk = xcalloc(n, sizeof(*F.brk));
	F.pos = xmalloc(n * sizeof(*F.pos));
	F.keep = xmalloc(n * sizeof(*F.keep));
	F.best = xmalloc(n * sizeof(*F.best));

	uint32_t *ord = xmalloc(n * sizeof(*ord));
	uint32_t *scratch = xmalloc(n * (max_moves + 1) * sizeof(*scratch));
	size_t *D = xmalloc(n * sizeof(*D)), nd = 0;
	struct level rl[MAX_CHAIN];
	size_t rnlv = r->ref ? find_levels(r->ref, rl) : 0;
	const struct level *R = rnlv ? &rl[rnlv - 1] : NULL;

	/* Each unit's place in the reference; with no reference layout, the input's own. */
	for (size_t k = 0; k < x.nu; k++) {
		const char *key = member_key(x.u[k].head);

		F.rank[k] = R ? -1 : (long)k;
		F.ref_off[k] = R ? -1 : (int64_t)x.u[k].head->offset;
		for (size_t i = 0; R && key && i < R->n; i++) {
			const char *rk = member_key(&R->members[i]);

			if (!member_empty(&R->members[i]) && rk && strcmp(rk, key) == 0) {
				F.rank[k] = (long)i;
				F.ref_off[k] = (int64_t)R->members[i].offset;
				break;
			}
		}
	}
	/* What the change moved: units with a rank outside the longest run kept in reference order. */
	{
		size_t *len = xmalloc(n * sizeof(*len)), *prev = xmalloc(n * sizeof(*prev));
		bool *in_run = xcalloc(n, sizeof(*in_run));
		size_t top = SIZE_MAX;

		for (size_t i = 0; i < x.nu; i++) {
			len[i] = 0;
			prev[i] = SIZE_MAX;
			if (F.rank[i] < 0)
				continue;
			len[i] = 1;
			for (size_t j = 0; j < i; j++)
				if (F.rank[j] >= 0 && F.rank[j] < F.rank[i] && len[j] + 1 > len[i]) {
					len[i] = len[j] + 1;
					prev[i] = j;
				}
			if (top == SIZE_MAX || len[i] > len[top])
				top = i;
		}
		for (size_t i = top; i != SIZE_MAX; i = prev[i])
			in_run[i] = true;
		for (size_t i = 0; i < x.nu; i++)
			if (F.rank[i] >= 0 && !in_run[i])
				D[nd++] = i;
		free(len);
		free(prev);
		free(in_run);
	}

	struct fix_score now;
	bool valid = false;

	for (size_t i = 0; i < x.nu; i++)
		ord[i] = (uint32_t)i;
	if (x.nu)
		valid = fix_eval(&F, ord, &now, NULL, NULL, NULL);
	sg->new_before = valid ? now.nnew : 0;
	if (valid && now.nnew == 0) {
		memcpy(F.best, ord, x.nu * sizeof(*ord));
		F.have = true;
	} else if (valid && (s->kind == LL_STRUCT || x.nlv > 1) && x.nu > 1) {
		uint32_t *cur = xmalloc(n * sizeof(*cur));
		struct fix_score rs;

		/*
		 * 1. Fewest moved first: K members the change moved put back, and,
		 * when no K put back do it (K up to max_moves), K members moved
		 * anywhere from the current order, those of the new findings first.
		 */
		for (size_t i = 0; i < x.nu; i++)
			cur[i] = (uint32_t)i;
		fix_eval(&F, cur, &rs, NULL, NULL, F.involved);
		for (size_t k = 1; (k <= nd || k <= max_moves) && !F.have && !F.truncated; k++) {
			if (k <= nd)
				try_put_back(&F, D, nd, k, ord);
			if (!F.have && !F.truncated && k <= max_moves)
				try_moves(&F, cur, k, scratch, true, false);
			if (!F.have && !F.truncated && k <= max_moves)
				try_moves(&F, cur, k, scratch, false, false);
		}
		free(cur);
		/* 2. From the reference order, move 1, 2, ... units anywhere. */
		if (!F.have && !F.truncated && nd) {
			put_back(&F, D, nd, ord);
			memset(F.involved, 0, n * sizeof(*F.involved));
			fix_eval(&F, ord, &rs, NULL, NULL, F.involved);
			/* The units of the new findings first: the likely fixes within the budget. */
			for (size_t depth = 1; depth <= max_moves && !F.have && !F.truncated; depth++) {
				try_moves(&F, ord, depth, scratch, true, false);
				if (!F.have)
					try_moves(&F, ord, depth, scratch, false, false);
			}
		}
	}
	sg->fix_found = F.have;
	if (!F.have) {
		/* Nothing within the bound: the whole re-layout, said to be that. */
		struct ll_suggestion *whole;

		fix_release(&F, ord, scratch, D);
		if (ll_suggest_opts(s, opts, &whole, err)) {
			ll_suggestion_free(sg);
			return -1;
		}
		whole->smallest_fix = true;
		whole->fix_found = false;
		whole->new_before = sg->new_before;
		whole->new_after = SIZE_MAX;	/* not counted: the caller's checks say */
		add_note(whole, "no order moving at most %zu member%s from the reference's removes "
			 "every new finding%s: this is the whole re-layout", max_moves,
			 max_moves == 1 ? "" : "s", F.truncated ? " (search bounded)" : "");
		ll_suggestion_free(sg);
		*out = whole;
		return 0;
	}

	struct fix_score fin;
	uint64_t cursor = 0;

	fix_eval(&F, F.best, &fin, &sg->left, &sg->nr_left, NULL);
	sg->new_after = fin.nnew;
	sg->restored = fin.restored;
	sg->moved = order_moved(&x, F.best, x.nu, F.keep);
	emit_level(&x, sg, 0, F.best, F.brk, F.pos, F.keep, &cursor);
	sg->size = final_size(&x, F.pos[x.nu - 1] + x.u[F.best[x.nu - 1]].size);
	sg->model_findings = fin.findings;
	measure(&x, s, sg);
	layout_notes(&x, sg);
	fix_release(&F, ord, scratch, D);
	*out = sg;
	return 0;
}
