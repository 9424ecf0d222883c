// SPDX-License-Identifier: GPL-2.0-or-later
/* --list rows, --contains matches and the --audit heuristic, on the model. */
#include "checks/discover.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/finding.h"
#include "model/units.h"
#include "util/c_ident.h"

size_t ll_struct_holes(const struct ll_struct *s)
{
	struct ll_summary sum;

	ll_summarize(s, &sum);
	return sum.holes;
}

/* "struct TYPE", "union TYPE", "TYPE", each optionally followed by "[N]..." */
static bool is_type(const char *spelled, const char *type)
{
	static const char *const prefixes[] = { "", "struct ", "union " };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]), tl = strlen(type);

		if (strncmp(spelled, prefixes[i], pl) != 0 || strncmp(spelled + pl, type, tl) != 0)
			continue;
		const char *rest = spelled + pl + tl;

		if (*rest == '\0' || *rest == '[')
			return true;
	}
	return false;
}

static void contains_level(const struct ll_member *members, size_t n, const char *type,
			   const struct ll_member ***found, size_t *nr)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];

		if (m->name && m->type && is_type(m->type, type)) {
			*found = xgrow(*found, *nr, sizeof(**found));
			(*found)[(*nr)++] = m;
			continue;
		}
		contains_level(m->children, m->nr_children, type, found, nr);
	}
}

const char *ll_contains_word(const char *type)
{
	if (strncmp(type, "struct ", 7) == 0)
		type += 7;
	else if (strncmp(type, "union ", 6) == 0)
		type += 6;
	return ll_c_identifier(type) ? type : NULL;
}

size_t ll_contains(const struct ll_struct *s, const char *type, const struct ll_member ***found)
{
	size_t nr = 0;

	*found = NULL;
	contains_level(s->members, s->nr_members, type, found, &nr);
	return nr;
}

/* Written by every CPU that takes, bumps or waits on them. */
#define HOT(s) { s, sizeof(s) - 1 }
static const struct hot_type {
	const char *name;
	size_t len;
} write_hot_types[] = {
	HOT("spinlock_t"), HOT("raw_spinlock_t"), HOT("arch_spinlock_t"), HOT("rwlock_t"),
	HOT("atomic_t"), HOT("atomic64_t"), HOT("atomic_long_t"), HOT("refcount_t"),
	HOT("seqcount_t"), HOT("seqcount_spinlock_t"), HOT("seqlock_t"), HOT("struct mutex"),
	HOT("struct rw_semaphore"), HOT("struct qspinlock"), HOT("struct optimistic_spin_queue"),
	HOT("wait_queue_head_t"), HOT("struct wait_queue_head"), HOT("struct lockref"),
};
#undef HOT

static bool audit_write_hot(const char *type)
{
	/* "volatile atomic_t" and the like: look past qualifiers (the first byte first). */
	while ((type[0] == 'v' && strncmp(type, "volatile ", 9) == 0) ||
	       (type[0] == '_' && strncmp(type, "_Atomic ", 8) == 0))
		type += type[0] == 'v' ? 9 : 8;
	/*
	 * The length and first byte before the bytes: --audit='*' asks this
	 * of each of the 6.12 image's 39,454 global variables, and comparing
	 * every name in full was ~5 ms.
	 */
	size_t len = strlen(type);

	for (size_t i = 0; i < sizeof(write_hot_types) / sizeof(write_hot_types[0]); i++)
		if (write_hot_types[i].len == len && write_hot_types[i].name[0] == type[0] &&
		    memcmp(type, write_hot_types[i].name, len) == 0)
			return true;
	return false;
}

/* Set once, read on every call through them: pointers to const ops tables. */
static bool audit_read_mostly(const char *type)
{
	size_t n = strlen(type);

	if (n < 3 || strcmp(type + n - 2, " *") != 0 || strncmp(type, "const struct ", 13) != 0)
		return false;
	const char *name_end = type + n - 2;

	return (name_end - type > 11 && strncmp(name_end - 11, "_operations", 11) == 0) ||
	       (name_end - type > 4 && strncmp(name_end - 4, "_ops", 4) == 0);
}

bool ll_audit_needs_member_type(const char *type, const void *arg)
{
	(void)arg;
	return audit_read_mostly(type);
}

#define AUDIT_TAG_LINE -2

static void audit_tag(struct ll_member *members, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ll_member *m = &members[i];

		if (m->name && m->type && audit_write_hot(m->type)) {
			m->tag = LL_WRITE_HOT;
			m->tag_rule_line = AUDIT_TAG_LINE;
			m->tag_rule_file = "audit";
			continue;
		}
		if (m->name && m->type && audit_read_mostly(m->type)) {
			m->tag = LL_READ_MOSTLY;
			m->tag_rule_line = AUDIT_TAG_LINE;
			m->tag_rule_file = "audit";
			continue;
		}
		/* The struct's own members: a nested struct is its own audit. */
		if (!m->name)
			audit_tag(m->children, m->nr_children);
	}
}

/* LINE's members of tag WANT, their paths appended to A's; how many. */
static size_t audit_paths(const struct ll_line *line, enum ll_tag want, struct ll_audit_line *a)
{
	size_t n = 0;

	for (size_t u = 0; u < line->nr_units; u++) {
		if (line->units[u]->tag != want)
			continue;
		size_t at = a->nr_read_mostly + a->nr_write_hot + n;

		a->paths = xgrow(a->paths, at, sizeof(*a->paths));
		a->paths[at] = xstrdup(line->units[u]->m->path);
		n++;
	}
	return n;
}

/* The lines of S (tagged) that mix read-mostly and write-hot members, into OUT. */
static void audit_lines(const struct ll_struct *s, struct ll_audit *out)
{
	struct ll_units units;
	struct ll_lines lines;

	memset(out, 0, sizeof(*out));
	ll_collect_units(s, &units);
	ll_map_lines(s, &units, &lines);
	for (size_t l = 0; l < lines.n; l++) {
		const struct ll_line *line = &lines.v[l];
		struct ll_audit_line *a;

		if (line->verdict != LL_VERDICT_MIXED)
			continue;
		out->mixed_lines += (size_t)line->count;
		out->lines = xgrow(out->lines, out->nr_lines, sizeof(*out->lines));
		a = &out->lines[out->nr_lines++];
		*a = (struct ll_audit_line){ .first = line->index, .last = ll_line_last(line) };
		a->nr_read_mostly = audit_paths(line, LL_READ_MOSTLY, a);
		a->nr_write_hot = audit_paths(line, LL_WRITE_HOT, a);
	}
	ll_lines_release(&lines);
	ll_units_release(&units);
}

static void audit_name_release(struct ll_audit_name *n)
{
	free(n->name);
	free(n->file);
}

void ll_audit_release(struct ll_audit *a)
{
	for (size_t i = 0; i < a->nr_lines; i++) {
		struct ll_audit_line *l = &a->lines[i];

		ll_strv_free(l->paths, l->nr_read_mostly + l->nr_write_hot);
	}
	free(a->lines);
	for (size_t i = 0; i < a->nr_vars; i++) {
		struct ll_audit_var *v = &a->vars[i];

		free(v->type);
		audit_name_release(&v->var);
		for (size_t k = 0; k < v->nr_shown; k++)
			audit_name_release(&v->shown[k]);
		free(v->shown);
		free(v->section);
	}
	free(a->vars);
	memset(a, 0, sizeof(*a));
}

void ll_audit(struct ll_struct *s, struct ll_audit *out)
{
	audit_tag(s->members, s->nr_members);
	audit_lines(s, out);
}

void ll_audit_static(struct ll_struct *s, const struct ll_access_evidence *e,
		     const struct ll_static_thresholds *t, struct ll_audit *out)
{
	struct ll_access_view v;

	ll_access_view_init(&v, e, s, NULL);
	if (e)
		ll_access_static_tags(&v, s->members, s->nr_members, t);
	audit_lines(s, out);
	ll_access_view_release(&v);
}

/* ---- --audit of global variables --------------------------------------- */

/* How many neighbours one audit line names before it counts the rest. */
#define AUDIT_NEIGHBOURS_SHOWN 4

static struct ll_audit_name audit_name_of(const struct ll_member *m)
{
	return (struct ll_audit_name){ xstrdup(m->name), m->decl.file ? xstrdup(m->decl.file) : NULL };
}

static bool same_file(const struct ll_member *a, const struct ll_member *b)
{
	return a->decl.file && b->decl.file && strcmp(a->decl.file, b->decl.file) == 0;
}

static bool lines_meet(const struct ll_member *a, const struct ll_member *b, unsigned cl)
{
	uint64_t fa, la, fb, lb;

	return ll_member_lines(a, cl, &fa, &la) && ll_member_lines(b, cl, &fb, &lb) &&
	       fa <= lb && fb <= la;
}

/*
 * LOCK's neighbours on its lines that another file declares: variables
 * that only the linker put there, whose readers and writers know nothing
 * of the lock's. Its own file's variables are most often what it guards.
 * The first AUDIT_NEIGHBOURS_SHOWN of them into V, all counted.
 */
static void audit_strangers(const struct ll_struct *s, size_t lock, struct ll_audit_var *v)
{
	const struct ll_member *l = &s->members[lock];
	size_t lo = lock, hi = lock + 1;

	while (lo > 0 && lines_meet(&s->members[lo - 1], l, s->cacheline))
		lo--;
	while (hi < s->nr_members && lines_meet(&s->members[hi], l, s->cacheline))
		hi++;
	for (size_t j = lo; j < hi; j++) {
		const struct ll_member *m = &s->members[j];

		if (j == lock || same_file(m, l))
			continue;
		if (v->nr_shown < AUDIT_NEIGHBOURS_SHOWN) {
			v->shown = xgrow(v->shown, v->nr_shown, sizeof(*v->shown));
			v->shown[v->nr_shown++] = audit_name_of(m);
		}
		v->nr_strangers++;
	}
}

void ll_audit_globals(const struct ll_struct *s, struct ll_audit *out)
{
	uint64_t last_counted = UINT64_MAX;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->nr_members; i++) {
		const struct ll_member *m = &s->members[i];
		struct ll_audit_var v;
		uint64_t first, last;

		if (!m->name || !m->type || !audit_write_hot(m->type) ||
		    !ll_member_lines(m, s->cacheline, &first, &last))
			continue;
		v = (struct ll_audit_var){ .line = first, .addr = s->origin + first * s->cacheline };
		audit_strangers(s, i, &v);
		bool read_mostly = m->section && strstr(m->section, "read_mostly");

		if (!v.nr_strangers && !read_mostly) {
			free(v.shown);	/* none shown: no strangers */
			continue;
		}
		v.type = xstrdup(m->type);
		v.var = audit_name_of(m);
		v.section = read_mostly ? xstrdup(m->section) : NULL;
		if (last_counted != first)
			out->mixed_lines++;
		last_counted = last;
		out->vars = xgrow(out->vars, out->nr_vars, sizeof(*out->vars));
		out->vars[out->nr_vars++] = v;
	}
}
