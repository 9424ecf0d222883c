// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The solver's units: the level whose members move, and the pieces that
 * move whole (solver_private.h).
 */
#include "solver/solver_private.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

/* ---- the solve level ----------------------------------------------------- */

/*
 * Descend while a level is one non-empty anonymous struct among zero-size
 * members: its members may be reordered inside it, and nothing else moves.
 */
size_t sg_find_levels(const struct ll_struct *s, struct level *lv)
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

void sg_build_units(struct ctx *x)
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
	int c = ll_cmp_keys((const uint64_t[]){ x->b, x->e }, (const uint64_t[]){ y->b, y->e }, 2);

	return c ? c : x->cls - y->cls;
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

int sg_build_atoms(struct ctx *x, struct ll_error *err)
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
		if (allowed_path(x->opts, LL_CHECK_MIXED_CACHELINE, path))
			a.allow |= AL_MIXED;
		if (allowed_path(x->opts, LL_CHECK_WRITE_DOMAINS, path))
			a.allow |= AL_DOM;
		if (allowed_path(x->opts, LL_CHECK_SPLIT_HOT, path))
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
	/* Units of more lines are counted by runs (apply_runs()). */
	if (x->nscratch > SG_SCRATCH_LINES)
		x->nscratch = SG_SCRATCH_LINES;
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

void sg_finish_units(struct ctx *x)
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

void sg_free_units(struct ctx *x)
{
	for (size_t k = 0; k < x->nu; k++) {
		free(x->u[k].atoms);
		free(x->u[k].cb);
	}
	ll_free_all(x->u, x->pins, x->scratch, x->lis_tail, x->lis_prev);
}
