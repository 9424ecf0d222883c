// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The solver's search: where a unit lands, the evaluator, the beam or
 * exhaustive search over orders, and the local moves after it.
 */
#include "solver/solver_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/sort.h"

/* ---- placement and the evaluator ----------------------------------------- */

uint64_t sg_next_pos(const struct unit *u, uint64_t c)
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
	return sg_next_pos(u, brk ? round_up(cursor, x->cl) : cursor);
}

static unsigned conflicts(struct lst l)
{
	return ((l.f & LS_R) && (l.f & LS_W)) + several(l.dom);
}

/* What atom A puts on every line it touches. */
static struct lst atom_state(const struct atom *a)
{
	struct lst st = { 0, 0, 1ULL << a->cls };

	if (!(a->allow & AL_MIXED))
		st.f = a->cls == 0 ? LS_R : LS_W;
	if (a->cls != 0 && !(a->allow & AL_DOM))
		st.dom = 1ULL << (a->cls - 1);
	return st;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * apply_span() for a unit of more lines than the scratch map holds (an
 * array of megabytes): the lines between two consecutive atom edges have
 * one state, so each such run is counted once, times its length, and the
 * cost follows the atoms, not the bytes. Same answer as the per-line walk.
 */
static unsigned apply_runs(struct ctx *x, const struct unit *u, uint64_t cursor, struct lst open,
			   uint64_t p, struct lst *open_out, uint32_t *span)
{
	uint64_t cl = x->cl, o = cursor / cl, end = p + u->size;
	uint64_t l0 = p / cl, l1 = (end - 1) / cl;
	size_t ne = 0, ns = 0;
	uint64_t *edge = xmalloc((2 * u->nr_atoms + 4) * sizeof(*edge));
	uint64_t *split = xmalloc((u->nr_atoms + 1) * sizeof(*split));
	uint64_t delta = 0, touched = 0;
	struct lst last = { 0, 0, 0 };

	edge[ne++] = l0;
	edge[ne++] = l0 + 1;	/* line l0 also holds OPEN */
	edge[ne++] = l1;	/* line l1 is what stays open */
	edge[ne++] = l1 + 1;
	for (size_t i = 0; i < u->nr_atoms; i++) {
		const struct atom *a = &u->atoms[i];
		uint64_t la = (p + a->b) / cl, lb = (p + a->e - 1) / cl;

		edge[ne++] = la;
		edge[ne++] = lb + 1;
		if (a->split && la != lb)
			split[ns++] = la;
	}
	qsort(edge, ne, sizeof(*edge), u64_cmp);
	qsort(split, ns, sizeof(*split), u64_cmp);
	/* One split-hot finding per line an atom starts on, not already open. */
	for (size_t i = 0; i < ns; i++)
		if ((i == 0 || split[i] != split[i - 1]) &&
		    !(split[i] == l0 && l0 == o && (open.f & LS_SPLIT)))
			delta++;
	for (size_t k = 0; k + 1 < ne; k++) {
		uint64_t from = edge[k], to = edge[k + 1];
		struct lst st = { 0, 0, 0 };

		if (from == to || from < l0 || from > l1)
			continue;
		if (from == l0 && l0 == o)
			st = open;
		for (size_t i = 0; i < u->nr_atoms; i++) {
			const struct atom *a = &u->atoms[i];
			uint64_t la = (p + a->b) / cl, lb = (p + a->e - 1) / cl;

			if (la > from || lb < from)
				continue;
			struct lst as = atom_state(a);

			st.f |= as.f;
			st.dom |= as.dom;
			st.cls |= as.cls;
		}
		if (bsearch(&from, split, ns, sizeof(*split), u64_cmp) ||
		    (from == l0 && l0 == o && (open.f & LS_SPLIT)))
			st.f |= LS_SPLIT;
		delta += (uint64_t)conflicts(st) * (to - from);
		touched += (uint64_t)__builtin_popcountll(st.cls) * (to - from);
		if (from == l1)
			last = st;
	}
	if (l0 == o) {
		delta -= conflicts(open);
		touched -= (uint64_t)__builtin_popcountll(open.cls);
	}
	free(edge);
	free(split);
	if (span)
		*span = touched > UINT32_MAX ? UINT32_MAX : (uint32_t)touched;
	*open_out = end % cl ? last : (struct lst){ 0, 0, 0 };
	return delta > UINT_MAX ? UINT_MAX : (unsigned)delta;
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

	if (nl > x->nscratch)
		return apply_runs(x, u, cursor, open, p, open_out, span);

	memset(sc, 0, nl * sizeof(*sc));
	if (l0 == o)
		sc[0] = open;
	for (size_t i = 0; i < u->nr_atoms; i++) {
		const struct atom *a = &u->atoms[i];
		uint64_t lo = p + a->b, hi = p + a->e - 1, la = lo / cl, lb = hi / cl;
		struct lst as = atom_state(a);

		for (uint64_t l = la; l <= lb; l++) {
			sc[l - l0].f |= as.f;
			sc[l - l0].dom |= as.dom;
			sc[l - l0].cls |= as.cls;
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

unsigned sg_apply(struct ctx *x, const struct unit *u, uint64_t cursor, struct lst open,
		  uint64_t p, struct lst *open_out)
{
	return apply_span(x, u, cursor, open, p, open_out, NULL);
}

/* The struct's size when the solve level's last byte ends at CURSOR. */
uint64_t sg_final_size(const struct ctx *x, uint64_t cursor)
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
	const uint64_t x[] = { a->findings, a->lines, a->span, a->size, a->holes };
	const uint64_t y[] = { b->findings, b->lines, b->span, b->size, b->holes };

	return ll_cmp_keys(x, y, sizeof(x) / sizeof(x[0]));
}

int sg_cost_cmp(const struct cost *a, const struct cost *b)
{
	int c = cost_cmp3(a, b);

	return c ? c : ll_cmp_keys(&a->moved, &b->moved, 1);
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
size_t sg_order_moved(const struct ctx *x, const uint32_t *ord, size_t n, bool *keep)
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
bool sg_eval_seq(struct ctx *x, const uint32_t *ord, const uint8_t *brk, uint64_t *pos,
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
	c->size = sg_final_size(x, cursor);
	c->lines = div_up(c->size, x->cl);
	c->moved = with_moved ? sg_order_moved(x, ord, x->nu, NULL) : 0;
	return true;
}

/* The hot classes' line count in the input order; UINT64_MAX if it is no valid sequence. */
uint64_t sg_orig_span(struct ctx *x)
{
	uint32_t *ord = xmalloc(x->nu * sizeof(*ord));
	uint8_t *brk = xcalloc(x->nu, sizeof(*brk));
	struct cost c;
	uint64_t span = UINT64_MAX;

	for (size_t i = 0; i < x->nu; i++)
		ord[i] = (uint32_t)i;
	if (sg_eval_seq(x, ord, brk, NULL, &c, false))
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

static uint64_t node_key_hash(const struct node *nd)
{
	return ll_hash_u64(nd->hash ^ ll_hash_u64(nd->cursor) ^
			   ll_hash_u64(nd->dom * 31 + nd->f * 7 + nd->last_bf) ^ ll_hash_u64(nd->cls));
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
	uint64_t size = sg_final_size(x, nd->cursor + rest), lines = div_up(size, x->cl);

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
	const uint64_t x[] = { p->flb, p->findings, p->est, p->span, p->waste, p->moved,
			       p->cursor, p->hash };
	const uint64_t y[] = { q->flb, q->findings, q->est, q->span, q->waste, q->moved,
			       q->cursor, q->hash };

	return ll_cmp_keys(x, y, sizeof(x) / sizeof(x[0]));
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
	return ll_hash_u64(0x5eed0000ULL + i);
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

size_t sg_beam_width(const struct ctx *x)
{
	if (x->opts->beam)
		return x->opts->beam;
	uint64_t n = x->nu ? x->nu : 1, w = BEAM_BUDGET / (n * n);

	return w < BEAM_MIN ? BEAM_MIN : w > BEAM_MAX ? BEAM_MAX : (size_t)w;
}

/* Fill ORD/BRK with the best sequence found; false if none is valid. */
bool sg_search(struct ctx *x, size_t width, uint32_t *ord, uint8_t *brk)
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
		c.size = sg_final_size(x, nd->cursor);
		c.lines = div_up(c.size, x->cl);
		c.moved = nd->moved;
		if (best == SIZE_MAX || sg_cost_cmp(&c, &bc) < 0) {
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
void sg_drop_breaks(struct ctx *x, struct seq *q)
{
	for (size_t i = 0; i < x->nu; i++) {
		struct cost c;

		if (!q->brk[i])
			continue;
		q->brk[i] = 0;
		if (sg_eval_seq(x, q->ord, q->brk, NULL, &c, true) && sg_cost_cmp(&c, &q->c) <= 0)
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
void sg_relocate(struct ctx *x, struct seq *q, bool full, int passes)
{
	size_t n = x->nu;
	uint64_t work = 0;	/* units placed so far: a budget keeps huge structs fast */
	uint32_t *ord = xmalloc(n * sizeof(*ord));
	uint8_t *brk = xmalloc(n * sizeof(*brk));
	bool *keep = xmalloc(n * sizeof(*keep));

	for (int pass = 0; pass < passes; pass++) {
		bool improved = false;

		for (size_t i = 0; i < n && work < RELOCATE_BUDGET; i++) {
			sg_order_moved(x, q->ord, n, keep);
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
					if (!sg_eval_seq(x, ord, brk, NULL, &c, false))
						continue;
					int d = cost_cmp3(&c, &best);

					if (d > 0)
						continue;
					c.moved = sg_order_moved(x, ord, n, NULL);
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
