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
#include "solver/solver_private.h"

#include <stdlib.h>
#include <string.h>

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Members said the same way: by their label (the same path is the same member). */
static bool same_member(const struct ll_member *a, const struct ll_member *b)
{
	return a == b || (a && b && strcmp(ll_member_label(a), ll_member_label(b)) == 0);
}

static bool same_class(const struct ll_suggest_class *a, const struct ll_suggest_class *b)
{
	return a->write_hot == b->write_hot && (!a->write_hot || same_text(a->domain, b->domain));
}

/* Notes that would read the same are one note. */
static bool same_note(const struct ll_suggest_note *a, const struct ll_suggest_note *b)
{
	return a->kind == b->kind && same_member(a->a, b->a) && same_member(a->b, b->b) &&
	       same_member(a->unit, b->unit) && same_class(&a->class_a, &b->class_a) &&
	       same_class(&a->class_b, &b->class_b) && a->shared == b->shared &&
	       a->offset == b->offset && a->pad == b->pad && a->line == b->line &&
	       a->cacheline == b->cacheline && a->size == b->size && a->units == b->units &&
	       a->bounded == b->bounded;
}

void sg_add_note(struct ll_suggestion *sg, struct ll_suggest_note note)
{
	for (size_t i = 0; i < sg->nr_notes; i++)
		if (same_note(&sg->notes[i], &note))
			return;
	sg->notes = xgrow(sg->notes, sg->nr_notes, sizeof(*sg->notes));
	sg->notes[sg->nr_notes++] = note;
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
void sg_emit_level(struct ctx *x, struct ll_suggestion *sg, size_t k, const uint32_t *ord,
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
				sg_emit_level(x, sg, k + 1, ord, brk, pos, keep, cursor);
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

void sg_measure(struct ctx *x, const struct ll_struct *s, struct ll_suggestion *sg)
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

static struct ll_suggest_class class_of_atom(const struct ctx *x, int cls)
{
	if (cls == 0)
		return (struct ll_suggest_class){ false, NULL };
	return (struct ll_suggest_class){ true, x->domains[cls - 1] };
}

/* Fewest findings U has on its own, over every offset it may take. */
static unsigned unit_alone(struct ctx *x, const struct unit *u, uint64_t *best_p)
{
	unsigned best = UINT32_MAX;
	uint64_t span = x->cl > u->pmod ? x->cl : u->pmod;

	if (u->pinned) {
		struct lst lo;

		*best_p = u->orig;
		return sg_apply(x, u, u->orig, (struct lst){ 0, 0, 0 }, u->orig, &lo);
	}
	for (uint64_t p = 0; p < span; p++) {
		struct lst lo;

		if (sg_next_pos(u, p) != p)
			continue;
		unsigned f = sg_apply(x, u, p, (struct lst){ 0, 0, 0 }, p, &lo);

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

	for (size_t i = 0; i < u->nr_atoms; i++) {
		for (size_t j = i + 1; j < u->nr_atoms; j++) {
			const struct atom *a = &u->atoms[i], *b = &u->atoms[j];

			if (!classes_conflict(a, b))
				continue;
			uint64_t al = (p + a->b) / x->cl, ah = (p + a->e - 1) / x->cl;
			uint64_t bl = (p + b->b) / x->cl, bh = (p + b->e - 1) / x->cl;

			if (al > bh || bl > ah)
				continue;
			enum ll_suggest_shared shared;

			if (u->bitfield)
				shared = LL_SUGGEST_SHARED_BITFIELDS;
			else if (h->is_aggregate && h->agg_kind == LL_UNION && a->b < b->e && b->b < a->e)
				shared = h->name ? LL_SUGGEST_SHARED_UNION : LL_SUGGEST_SHARED_ANON_UNION;
			else if (h->is_aggregate && h->name)
				shared = LL_SUGGEST_SHARED_AGGREGATE;
			else if (h->is_aggregate)
				shared = LL_SUGGEST_SHARED_ANON_AGGREGATE;
			else
				shared = LL_SUGGEST_SHARED_MEMBER;
			sg_add_note(sg, (struct ll_suggest_note){
				.kind = LL_SUGGEST_NOTE_UNIT_MIXES, .a = a->m, .b = b->m, .unit = h,
				.class_a = class_of_atom(x, a->cls), .class_b = class_of_atom(x, b->cls),
				.shared = shared });
			return;
		}
	}
	for (size_t i = 0; i < u->nr_atoms; i++) {
		const struct atom *a = &u->atoms[i];

		if (a->split && (p + a->b) / x->cl != (p + a->e - 1) / x->cl) {
			sg_add_note(sg, (struct ll_suggest_note){
				.kind = LL_SUGGEST_NOTE_UNIT_STRADDLES, .a = a->m, .unit = h,
				.class_a = class_of_atom(x, a->cls) });
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
		f += sg_apply(x, u, cursor, open, u->orig, &open);
		cursor = u->orig + u->size;
	}
	if (f) {
		sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_PINNED_MIX });
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
	free(sg->notes);
	ll_strv_free(sg->left, sg->nr_left);
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

void sg_layout_notes(struct ctx *x, struct ll_suggestion *sg)
{
	bool any_line_start = false;

	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (!sm->pad_before)
			continue;
		struct ll_suggest_note note = { .a = sm->m, .offset = sm->offset,
						.pad = sm->pad_before };

		if (sm->line_start) {
			any_line_start = true;
			note.kind = LL_SUGGEST_NOTE_PAD_LINE_START;
			note.line = sm->offset / x->cl;
		} else if (sm->m->pinned || subtree_pinned(sm->m)) {
			note.kind = LL_SUGGEST_NOTE_PAD_PINNED;
		} else if (sm->m->is_bitfield) {
			note.kind = LL_SUGGEST_NOTE_PAD_BITFIELD;
		} else {
			note.kind = LL_SUGGEST_NOTE_PAD;
		}
		sg_add_note(sg, note);
	}
	if (any_line_start && sg->size % x->cl)
		sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_ALIGNED_SIZE,
							  .cacheline = x->cl,
							  .size = round_up(sg->size, x->cl) });
	if (x->nlv > 1)
		sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_INNER_LEVEL,
							  .offset = x->L->base });
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
struct ll_suggestion *sg_setup(struct ctx *x, const struct ll_struct *s,
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

	x->nlv = sg_find_levels(s, x->lv);
	x->L = &x->lv[x->nlv - 1];
	sg_build_units(x);
	/* The search is quadratic in units at best: 8,000 were slow. */
	if (x->nu > LL_SUGGEST_MAX_UNITS) {
		ll_fail(err, "%s %s: %zu members to place, more than the %d --suggest takes",
			ll_kind_name(s->kind), s->name, x->nu, LL_SUGGEST_MAX_UNITS);
		sg_free_units(x);
		ll_suggestion_free(sg);
		return NULL;
	}
	if (sg_build_atoms(x, err)) {
		sg_free_units(x);
		ll_suggestion_free(sg);
		return NULL;
	}
	sg_finish_units(x);
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
	sg = sg_setup(&x, s, opts, err);
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
		found = sg_eval_seq(&x, ord, brk, NULL, &q.c, true);
		/* A narrow beam next: the better the bound, the cheaper the real search. */
		for (int round = 0; round < 2; round++) {
			size_t width = QUICK_BEAM;

			if (round) {
				x.truncated = false;
				x.exact_mode = exact_units != SIZE_MAX && x.nu <= exact_units;
				width = x.exact_mode ? EXACT_STATE_CAP : sg_beam_width(&x);
			}
			ub = q.c;
			x.ub = found ? &ub : NULL;
			if (sg_search(&x, width, o2, b2) && sg_eval_seq(&x, o2, b2, NULL, &c2, true) &&
			    (!found || sg_cost_cmp(&c2, &q.c) < 0)) {
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
			sg_drop_breaks(&x, &q);
			if (x.truncated || !x.exact_mode)
				sg_relocate(&x, &q, true, 2);
			sg_drop_breaks(&x, &q);
			sg_relocate(&x, &q, false, 3);
		}
	}
	if (found) {
		uint64_t cursor = 0;

		sg_eval_seq(&x, ord, brk, pos, &q.c, true);
		sg_order_moved(&x, ord, x.nu, keep);
		size_t units_moved = 0;

		for (size_t i = 0; i < x.nu; i++)
			units_moved += !keep[i];
		sg_emit_level(&x, sg, 0, ord, brk, pos, keep, &cursor);
		sg->size = sg_final_size(&x, pos[x.nu - 1] + x.u[ord[x.nu - 1]].size);
		sg->model_findings = q.c.findings;
		sg->moved = units_moved;
		sg->optimal = x.exact_mode && !x.truncated;
		sg_measure(&x, s, sg);
		/* Never propose something worse than what is there. */
		struct cost now = { sg->findings, sg->cachelines, sg->size,
				    x.pack ? sg->hole_bytes : 0, q.c.moved, q.c.span };
		struct cost was = { sg->before_findings, sg->before_cachelines, s->size,
				    x.pack ? sg->before_hole_bytes : 0, 0, sg_orig_span(&x) };

		if (sg_cost_cmp(&was, &now) <= 0) {
			found = false;
			ll_array_free(sg->members, sg->n);
		}
	}
	if (!found) {
		emit_original(&x, sg);
		sg->size = s->size;
		sg->moved = 0;
		sg->model_findings = sg->before_findings;
		if ((s->kind != LL_STRUCT && x.nlv == 1) || x.nu <= 1)
			sg->optimal = true;
		sg_measure(&x, s, sg);
		if (s->kind == LL_UNION && x.nlv == 1 && sg->findings)
			sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_UNION });
	}
	if (sg->findings) {
		bool proven = explain_impossible(&x, sg);
		bool fixed = s->kind == LL_UNION && x.nlv == 1;

		sg->impossible = proven || sg->optimal || fixed;
		if (!sg->impossible)
			sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_NOT_EXHAUSTIVE,
								  .units = x.nu });
		else if (!proven && !fixed)
			sg_add_note(sg, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_NO_ROOM,
								  .units = x.nu });
	}
	sg_layout_notes(&x, sg);
	ll_free_all(ord, brk, pos, keep);
	sg_free_units(&x);
	*out = sg;
	return 0;
}
