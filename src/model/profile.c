// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profiles attached to the model: which member each sampled offset lands
 * on, and the measured counterpart of a tag.
 */
#include "model/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void ll_profile_free(struct ll_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_rows; i++) {
		free(p->rows[i].type);
		free(p->rows[i].field);
		free(p->rows[i].symoff);
	}
	for (size_t i = 0; i < p->nr_build_ids; i++) {
		free(p->build_ids[i].id);
		free(p->build_ids[i].path);
	}
	ll_free_all(p->rows, p->build_ids, p->file, p);
}

void ll_profile_notes_release(struct ll_profile_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i].message);
	ll_array_free(n->v, n->n);
}

static void add_note(struct ll_profile_notes *notes, char *message)
{
	notes->v = xgrow(notes->v, notes->n, sizeof(*notes->v));
	notes->v[notes->n++].message = message;
}

/* perf says "struct stats" for a tagged struct, the typedef name for an anonymous one. */
static bool names_struct(const char *type, const struct ll_struct *s)
{
	const char *kind = ll_kind_name(s->kind);
	size_t k = strlen(kind);

	if (strncmp(type, kind, k) == 0 && type[k] == ' ')
		return strcmp(type + k + 1, s->name) == 0;
	return strcmp(type, s->name) == 0;
}

static bool member_is_named(const struct ll_member *m, const char *field)
{
	if (!field || !m->name)
		return false;
	if (strcmp(m->name, field) == 0)
		return true;
	return m->path && strcmp(m->path, field) == 0;
}

/*
 * The deepest member whose bytes hold OFFSET. Among union alternatives
 * (or zero-size markers) the one perf named wins, else the first.
 */
static struct ll_member *member_at(struct ll_member *v, size_t n, uint64_t offset,
				   const char *field)
{
	struct ll_member *found = NULL;

	for (size_t i = 0; i < n; i++) {
		struct ll_extent e = ll_member_extent(&v[i]);

		if (offset < e.begin || offset >= e.end)
			continue;
		if (!found || member_is_named(&v[i], field))
			found = &v[i];
	}
	if (found && found->nr_children) {
		struct ll_member *inner = member_at(found->children, found->nr_children, offset,
						    field);

		if (inner)
			return inner;
	}
	return found;
}

static void attach_row(const struct ll_profile *p, const struct ll_profile_row *r,
		       struct ll_struct *s, struct ll_profile_notes *notes, bool *all_access)
{
	struct ll_member *m;
	struct strbuf msg = STRBUF_INIT;

	s->measured_samples += r->samples;
	*all_access &= r->access != LL_ACCESS_UNKNOWN;
	m = member_at(s->members, s->nr_members, r->offset, r->field);
	if (!m) {
		sb_addf(&msg, "%s:%u: %s +%#llx%s%s%s: no member of %s %s holds that byte "
			"(%s; samples counted for the struct only)", p->file, r->line, r->type,
			(unsigned long long)r->offset, r->field ? " (" : "",
			r->field ? r->field : "", r->field ? ")" : "", ll_kind_name(s->kind),
			s->name, r->offset >= s->size ? "past its end" : "a hole or padding");
		add_note(notes, sb_detach(&msg));
		return;
	}
	m->measure.samples += r->samples;
	if (r->access == LL_ACCESS_LOAD || r->access == LL_ACCESS_RMW)
		m->measure.reads += r->samples;
	if (r->access == LL_ACCESS_STORE || r->access == LL_ACCESS_RMW)
		m->measure.writes += r->samples;
}

void ll_profile_apply(const struct ll_profile *const *profiles, size_t n, struct ll_struct *s,
		      struct ll_profile_notes *notes)
{
	bool all_access = true;

	for (size_t i = 0; i < n; i++) {
		const struct ll_profile *p = profiles[i];
		bool size_said = false;

		for (size_t k = 0; k < p->nr_rows; k++) {
			const struct ll_profile_row *r = &p->rows[k];

			if (!names_struct(r->type, s))
				continue;
			/* Same name, other size: another definition of the name, not this one. */
			if (r->type_size && r->type_size != s->size) {
				if (!size_said) {
					struct strbuf msg = STRBUF_INIT;

					sb_addf(&msg, "%s:%u: %s is %llu bytes in the profile, %llu "
						"in the binary: another definition; its rows are not "
						"used", p->file, r->line, r->type,
						(unsigned long long)r->type_size,
						(unsigned long long)s->size);
					add_note(notes, sb_detach(&msg));
					size_said = true;
				}
				continue;
			}
			s->measured = true;
			attach_row(p, r, s, notes, &all_access);
		}
	}
	s->measured_access = s->measured && all_access;
}

/* A member's measure with its children's. */
void ll_member_measure(const struct ll_member *m, struct ll_measure *t)
{
	t->samples += m->measure.samples;
	t->reads += m->measure.reads;
	t->writes += m->measure.writes;
	for (size_t i = 0; i < m->nr_children; i++)
		ll_member_measure(&m->children[i], t);
}

bool ll_measured_hot(const struct ll_member *m, const struct ll_struct *s,
		     const struct ll_measure_thresholds *t)
{
	struct ll_measure total = { 0 };

	if (!s->measured || s->measured_samples <= 0)
		return false;
	ll_member_measure(m, &total);
	return total.samples > 0 && 100.0 * total.samples >= t->hot_pct * s->measured_samples;
}

bool ll_measured_written(const struct ll_member *m, const struct ll_measure_thresholds *t)
{
	struct ll_measure total = { 0 };

	ll_member_measure(m, &total);
	return total.samples > 0 && total.writes > 0 &&
	       100.0 * total.writes >= t->write_pct * total.samples;
}

enum ll_tag ll_measured_tag(const struct ll_member *m, const struct ll_struct *s,
			    const struct ll_measure_thresholds *t)
{
	struct ll_measure total = { 0 };

	ll_member_measure(m, &total);
	if (total.samples <= 0)
		return LL_COLD;
	if (!ll_measured_hot(m, s, t))
		return LL_UNTAGGED;
	if (!s->measured_access)
		return LL_UNTAGGED;	/* hot, but read or written nobody can say */
	return ll_measured_written(m, t) ? LL_WRITE_HOT : LL_READ_MOSTLY;
}

static const struct ll_member *path_in(const struct ll_member *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &v[i];

		if (m->path && strcmp(m->path, path) == 0)
			return m;
		m = path_in(m->children, m->nr_children, path);
		if (m)
			return m;
	}
	return NULL;
}

const struct ll_member *ll_member_at_path(const struct ll_struct *s, const char *path)
{
	return path ? path_in(s->members, s->nr_members, path) : NULL;
}
