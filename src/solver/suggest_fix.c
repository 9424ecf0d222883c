// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The smallest fix (ll_suggest_fix(), see suggest.h).
 */
#include "solver/solver_private.h"

#include <stdlib.h>
#include <string.h>

/* ---- the smallest fix ------------------------------------------------------ */

static const char *own_path(const struct ll_member *m)
{
	return m->path;
}

/* What names a level member across two builds: its path, or its first named member's. */
static const char *member_key(const struct ll_member *m)
{
	return ll_member_first(m, own_path);
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
	if (!sg_eval_seq(x, ord, F->brk, F->pos, &c, false))
		return false;
	for (size_t i = 0; i < x->nu; i++)
		F->keep[i] = true;
	sg_emit_level(x, &tmp, 0, ord, F->brk, F->pos, F->keep, &cursor);
	tmp.size = sg_final_size(x, F->pos[x->nu - 1] + x->u[ord[x->nu - 1]].size);

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
	sc->moved = sg_order_moved(x, ord, x->nu, NULL);
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
	ll_free_all(F->rank, F->ref_off, F->brk, F->pos, F->keep, F->best, F->involved, ord,
		    scratch, D);
	sg_free_units(F->x);
}

int ll_suggest_fix(const struct ll_struct *s, const struct ll_suggest_opts *opts,
		   const struct ll_fix_ref *r, struct ll_suggestion **out, struct ll_error *err)
{
	struct ctx x;
	struct ll_suggestion *sg;
	struct fix F = { .x = &x, .r = r };
	size_t max_moves = r->max_moves ? r->max_moves : 2;

	*out = NULL;
	sg = sg_setup(&x, s, opts, err);
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
	size_t rnlv = r->ref ? sg_find_levels(r->ref, rl) : 0;
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
		sg_add_note(whole, (struct ll_suggest_note){ .kind = LL_SUGGEST_NOTE_NO_SMALL_FIX,
							     .units = max_moves,
							     .bounded = F.truncated });
		ll_suggestion_free(sg);
		*out = whole;
		return 0;
	}

	struct fix_score fin;
	uint64_t cursor = 0;

	fix_eval(&F, F.best, &fin, &sg->left, &sg->nr_left, NULL);
	sg->new_after = fin.nnew;
	sg->restored = fin.restored;
	sg->moved = sg_order_moved(&x, F.best, x.nu, F.keep);
	sg_emit_level(&x, sg, 0, F.best, F.brk, F.pos, F.keep, &cursor);
	sg->size = sg_final_size(&x, F.pos[x.nu - 1] + x.u[F.best[x.nu - 1]].size);
	sg->model_findings = fin.findings;
	sg_measure(&x, s, sg);
	sg_layout_notes(&x, sg);
	fix_release(&F, ord, scratch, D);
	*out = sg;
	return 0;
}
