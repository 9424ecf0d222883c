// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --against: how one struct's layout changed between OLD-BINARY and BINARY.
 * Members are compared as findings name them (units: leaves, or named nested
 * aggregates that carry one tag; members of anonymous aggregates by their
 * own names), by path.
 */
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "util/strbuf.h"

static const struct ll_unit *find_unit(const struct ll_units *u, const char *path)
{
	for (size_t i = 0; i < u->n; i++)
		if (strcmp(u->v[i].m->path, path) == 0)
			return &u->v[i];
	return NULL;
}

static void push(struct ll_diff_member **v, size_t *n, const struct ll_member *old_m,
		 unsigned old_cl, const struct ll_member *new_m, unsigned new_cl)
{
	struct ll_diff_member d = { .path = xstrdup(new_m ? new_m->path : old_m->path) };

	if (old_m)
		d.old_lines = ll_member_lines(old_m, old_cl, &d.old_first, &d.old_last);
	if (new_m)
		d.new_lines = ll_member_lines(new_m, new_cl, &d.new_first, &d.new_last);
	*v = xgrow(*v, *n, sizeof(**v));
	(*v)[(*n)++] = d;
}

struct ll_layout_diff *ll_layout_diff(const struct ll_struct *old_s, const struct ll_struct *new_s)
{
	struct ll_layout_diff *d = xcalloc(1, sizeof(*d));
	struct ll_units old_u, new_u;

	d->new_size = new_s->size;
	d->new_cachelines = ll_struct_lines(new_s);
	d->new_cacheline = new_s->cacheline;
	if (!old_s)
		return d;
	d->in_reference = true;
	d->old_size = old_s->size;
	d->old_cachelines = ll_struct_lines(old_s);
	d->old_cacheline = old_s->cacheline;
	ll_collect_units(old_s, &old_u);
	ll_collect_units(new_s, &new_u);
	for (size_t i = 0; i < new_u.n; i++) {
		const struct ll_member *m = new_u.v[i].m;
		const struct ll_unit *o = find_unit(&old_u, m->path);
		uint64_t of = 0, ol = 0, nf = 0, nl = 0;
		bool oh, nh;

		if (!o) {
			push(&d->added, &d->nr_added, NULL, 0, m, new_s->cacheline);
			continue;
		}
		oh = ll_member_lines(o->m, old_s->cacheline, &of, &ol);
		nh = ll_member_lines(m, new_s->cacheline, &nf, &nl);
		if (oh != nh || of != nf || ol != nl)
			push(&d->moved, &d->nr_moved, o->m, old_s->cacheline, m, new_s->cacheline);
	}
	for (size_t i = 0; i < old_u.n; i++)
		if (!find_unit(&new_u, old_u.v[i].m->path))
			push(&d->removed, &d->nr_removed, old_u.v[i].m, old_s->cacheline, NULL, 0);
	ll_units_release(&old_u);
	ll_units_release(&new_u);
	return d;
}

static void free_list(struct ll_diff_member *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void ll_layout_diff_free(struct ll_layout_diff *d)
{
	if (!d)
		return;
	free_list(d->added, d->nr_added);
	free_list(d->removed, d->nr_removed);
	free_list(d->moved, d->nr_moved);
	free(d);
}
