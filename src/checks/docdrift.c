// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc-drift: see docdrift.h. A row names a member when its name is one of
 * the struct's members as offsetof() reaches them (anonymous aggregates
 * searched through), or when the struct's header defines the name as a
 * member path ("#define inet_daddr sk.__sk_common.skc_daddr") that
 * resolves, or when one member below the top level, and only one, has
 * that name (the tables list a nested struct's members by their own
 * names). A member is listed when a row names it or a member below it.
 * The members a table should list are those offsetof() reaches at the top:
 * named members of the struct and of its anonymous aggregates, the
 * __cacheline_group markers and padding aside.
 */
#include "checks/docdrift.h"

#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "checks/groups.h"
#include "util/strbuf.h"

void ll_doc_tables_release(struct ll_doc_tables *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct ll_doc_table *x = &t->v[i];

		for (size_t r = 0; r < x->nr_rows; r++) {
			free(x->rows[r].type);
			free(x->rows[r].name);
			free(x->rows[r].macro_path);
		}
		ll_free_all(x->rows, x->file, x->path, x->struct_name, x->text);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void ll_doc_plan_release(struct ll_doc_plan *p)
{
	free(p->drop);
	free(p->add);
	memset(p, 0, sizeof(*p));
}

/* The top-level members, anonymous aggregates flattened, markers left out. */
static enum ll_pick documented_member(const struct ll_member *m)
{
	const char *ignored;

	if (!m->name)
		return m->is_aggregate ? LL_PICK_DESCEND : LL_PICK_SKIP;
	return ll_group_marker(m, &ignored) == LL_MARKER_NONE ? LL_PICK_TAKE : LL_PICK_SKIP;
}

static const struct ll_member *by_name(const struct ll_member *v, size_t n, const char *name,
				       size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (!v[i].name) {
			const struct ll_member *in = v[i].is_aggregate ?
				by_name(v[i].children, v[i].nr_children, name, len) : NULL;

			if (in)
				return in;
		} else if (strlen(v[i].name) == len && strncmp(v[i].name, name, len) == 0) {
			return &v[i];
		}
	}
	return NULL;
}

/* The first member of the dotted PATH; NULL unless the whole path resolves. */
static const struct ll_member *resolve(const struct ll_struct *s, const char *path,
				       const struct ll_member **top)
{
	const struct ll_member *v = s->members, *m = NULL;
	size_t n = s->nr_members;

	*top = NULL;
	for (const char *p = path;;) {
		size_t len = strcspn(p, ".");

		m = by_name(v, n, p, len);
		if (!m)
			return NULL;
		if (!*top)
			*top = m;
		if (!p[len])
			return m;
		v = m->children;
		n = m->nr_children;
		p += len + 1;
	}
}

/* Members named NAME at any depth below V: how many, the first and its top-level ancestor. */
static size_t find_deep(const struct ll_member *v, size_t n, const char *name,
			const struct ll_member *ancestor, const struct ll_member **found,
			const struct ll_member **top)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ll_member *a = ancestor ? ancestor : (v[i].name ? &v[i] : NULL);

		if (v[i].name && strcmp(v[i].name, name) == 0 && ancestor) {
			if (!count++) {
				*found = &v[i];
				*top = ancestor;
			}
		}
		if (v[i].is_aggregate) {
			const struct ll_member *f2 = NULL, *t2 = NULL;
			size_t c = find_deep(v[i].children, v[i].nr_children, name, a, &f2, &t2);

			if (c && !count) {
				*found = f2;
				*top = t2;
			}
			count += c;
		}
	}
	return count;
}

/*
 * A row's member: by name, by the header's macro, or, as the tables list
 * the members of a nested struct by their own names (inet_connection_sock's
 * icsk_ack.pending is row "pending"), by a name that one member below a
 * top-level member has, and only one.
 */
static const struct ll_member *row_member(const struct ll_struct *s, const struct ll_doc_row *r,
					  const struct ll_member **top)
{
	const struct ll_member *m = resolve(s, r->name, top), *found = NULL, *ancestor = NULL;

	if (!m && r->macro_path)
		m = resolve(s, r->macro_path, top);
	if (!m && find_deep(s->members, s->nr_members, r->name, NULL, &found, &ancestor) == 1) {
		m = found;
		*top = ancestor;
	}
	return m;
}

static void unlisted(struct ll_linted *l, const struct ll_doc_table *t, const struct ll_member *m)
{
	const struct ll_struct *s = l->layout;
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_DOC_DRIFT, -1);
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "%s of %s %s (%s) is not in %s", m->name, ll_kind_name(s->kind), s->name,
		m->type ? m->type : "?", t->file);
	f->message = sb_detach(&msg);
	f->location = m->decl;
	ll_finding_member(f, m->path);
	ll_finding_pair(f, m->path, NULL);
	ll_finding_note(f, &(struct ll_decl){ t->file, t->header_line, 0 },
			"the table of %s %s starts here; --write-net-cachelines writes it with a "
			"row for %s", ll_kind_name(s->kind), s->name, m->name);
	ll_finding_seal(f, s);
}

static void names_nothing(struct ll_linted *l, const struct ll_doc_table *t,
			  const struct ll_doc_row *r)
{
	const struct ll_struct *s = l->layout;
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_DOC_DRIFT, -1);
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "row %s of %s names no member of %s %s", r->name, t->file,
		ll_kind_name(s->kind), s->name);
	if (r->macro_path)
		sb_addf(&msg, " (the header defines it as %s, which does not resolve)",
			r->macro_path);
	f->message = sb_detach(&msg);
	f->location = (struct ll_decl){ t->file, r->line, 1 };
	/* A pattern, as stale-rule's: the row's name, not a member path. */
	ll_finding_member(f, r->name);
	ll_finding_pair(f, r->name, NULL);
	ll_finding_seal(f, s);
}

void ll_check_doc_drift(const struct ll_doc_table *t, struct ll_linted *l,
			struct ll_doc_plan *plan)
{
	const struct ll_struct *s = l->layout;
	struct ll_member_list f = { 0 };
	bool *listed;
	size_t *row_of;

	ll_members_pick(s->members, s->nr_members, documented_member, &f);
	listed = xcalloc(f.n ? f.n : 1, sizeof(*listed));
	/* For each member, the last row at or before it: where a new row goes. */
	row_of = xcalloc(f.n ? f.n : 1, sizeof(*row_of));
	if (plan) {
		memset(plan, 0, sizeof(*plan));
		plan->table = t;
		plan->linted = l;
		plan->drop = xcalloc(t->nr_rows ? t->nr_rows : 1, sizeof(*plan->drop));
	}
	for (size_t r = 0; r < t->nr_rows; r++) {
		const struct ll_member *top, *m = row_member(s, &t->rows[r], &top);

		if (!m) {
			names_nothing(l, t, &t->rows[r]);
			if (plan)
				plan->drop[r] = true;
			continue;
		}
		for (size_t i = 0; i < f.n; i++) {
			if (f.v[i] == top) {
				listed[i] = true;
				row_of[i] = r + 1;
			}
		}
	}
	for (size_t i = 0, after = 0; i < f.n; i++) {
		if (listed[i]) {
			after = row_of[i] > after ? row_of[i] : after;
			continue;
		}
		if (!f.v[i]->path)
			continue;
		/* Accepted: no finding, and --write-net-cachelines leaves the table as it is. */
		if (ll_check_allowed(l->allows, l->nr_allows, LL_CHECK_DOC_DRIFT, f.v[i]->path))
			continue;
		unlisted(l, t, f.v[i]);
		if (plan) {
			plan->add = xgrow(plan->add, plan->nr_add, sizeof(*plan->add));
			plan->add[plan->nr_add++] = (struct ll_doc_plan_row){ after, f.v[i] };
		}
	}
	free(listed);
	free(row_of);
	free(f.v);
}
