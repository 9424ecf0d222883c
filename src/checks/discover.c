// SPDX-License-Identifier: GPL-2.0-or-later
/* --list rows, --contains matches and the --audit heuristic, on the model. */
#include "checks/discover.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/finding.h"
#include "model/units.h"

size_t ll_struct_holes(const struct ll_struct *s)
{
	struct ll_summary sum;

	ll_summarize(s, &sum);
	return sum.holes;
}

void ll_list_row(const struct ll_struct *s, size_t holes, struct strbuf *out)
{
	sb_addf(out, "%-6s %-40s %7" PRIu64 " %4" PRIu64 " %5zu  ", ll_kind_name(s->kind), s->name,
		s->size, ll_struct_lines(s), holes);
	if (s->decl.file)
		sb_addf(out, "%s:%u", s->decl.file, s->decl.line);
	sb_addc(out, '\n');
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

static size_t contains_level(const struct ll_struct *s, const struct ll_member *members,
			     size_t n, const char *type, struct strbuf *out)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];

		if (m->name && m->type && is_type(m->type, type)) {
			sb_addf(out, "%s %s: %s %s at offset %" PRIu64 " (line %" PRIu64 " +%" PRIu64
				"), %" PRIu64 " bytes\n", ll_kind_name(s->kind), s->name, m->type,
				m->path, m->offset, m->offset / s->cacheline, m->offset % s->cacheline,
				m->size);
			found++;
			continue;
		}
		found += contains_level(s, m->children, m->nr_children, type, out);
	}
	return found;
}

size_t ll_contains(const struct ll_struct *s, const char *type, struct strbuf *out)
{
	return contains_level(s, s->members, s->nr_members, type, out);
}

/* Written by every CPU that takes, bumps or waits on them. */
static const char *const write_hot_types[] = {
	"spinlock_t", "raw_spinlock_t", "arch_spinlock_t", "rwlock_t", "atomic_t", "atomic64_t",
	"atomic_long_t", "refcount_t", "seqcount_t", "seqcount_spinlock_t", "seqlock_t",
	"struct mutex", "struct rw_semaphore", "struct qspinlock", "struct optimistic_spin_queue",
	"wait_queue_head_t", "struct wait_queue_head", "struct lockref",
};

static bool audit_write_hot(const char *type)
{
	/* "volatile atomic_t" and the like: look past qualifiers. */
	while (strncmp(type, "volatile ", 9) == 0 || strncmp(type, "_Atomic ", 8) == 0)
		type += type[0] == 'v' ? 9 : 8;
	for (size_t i = 0; i < sizeof(write_hot_types) / sizeof(write_hot_types[0]); i++)
		if (strcmp(type, write_hot_types[i]) == 0)
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

/* The lines of S (tagged) that mix read-mostly and write-hot members, into OUT. */
static void audit_lines(const struct ll_struct *s, struct ll_audit *out)
{
	struct ll_units units;
	struct ll_lines lines;
	struct strbuf detail = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	ll_collect_units(s, &units);
	ll_map_lines(s, &units, &lines);
	for (size_t l = 0; l < lines.n; l++) {
		const struct ll_line *line = &lines.v[l];

		if (line->verdict != LL_VERDICT_MIXED)
			continue;
		out->mixed_lines += (size_t)line->count;
		if (line->count > 1)
			sb_addf(&detail, "%slines %" PRIu64 "-%" PRIu64 ":", detail.len ? "; " : "",
				line->index, ll_line_last(line));
		else
			sb_addf(&detail, "%sline %" PRIu64 ":", detail.len ? "; " : "", line->index);
		for (int pass = 0; pass < 2; pass++) {
			enum ll_tag want = pass ? LL_WRITE_HOT : LL_READ_MOSTLY;
			bool first = true;

			if (pass)
				sb_adds(&detail, " with");
			for (size_t u = 0; u < line->nr_units; u++) {
				if (line->units[u]->tag != want)
					continue;
				sb_addf(&detail, "%s %s", first ? "" : ",", line->units[u]->m->path);
				first = false;
			}
		}
	}
	out->detail = detail.len ? sb_detach(&detail) : NULL;
	sb_release(&detail);
	ll_lines_release(&lines);
	ll_units_release(&units);
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

static void audit_name_var(const struct ll_member *m, struct strbuf *out)
{
	sb_addf(out, "%s (%s)", m->name, m->decl.file ? m->decl.file : "no declaration");
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
 */
static size_t audit_strangers(const struct ll_struct *s, size_t lock, struct strbuf *out)
{
	const struct ll_member *l = &s->members[lock];
	size_t found = 0, lo = lock, hi = lock + 1;

	while (lo > 0 && lines_meet(&s->members[lo - 1], l, s->cacheline))
		lo--;
	while (hi < s->nr_members && lines_meet(&s->members[hi], l, s->cacheline))
		hi++;
	for (size_t j = lo; j < hi; j++) {
		const struct ll_member *m = &s->members[j];

		if (j == lock || same_file(m, l))
			continue;
		if (found < AUDIT_NEIGHBOURS_SHOWN) {
			sb_adds(out, found ? ", " : " with ");
			audit_name_var(m, out);
		}
		found++;
	}
	if (found > AUDIT_NEIGHBOURS_SHOWN)
		sb_addf(out, " and %zu more", found - AUDIT_NEIGHBOURS_SHOWN);
	return found;
}

void ll_audit_globals(const struct ll_struct *s, struct ll_audit *out)
{
	struct strbuf detail = STRBUF_INIT, one = STRBUF_INIT;
	uint64_t last_counted = UINT64_MAX;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->nr_members; i++) {
		const struct ll_member *m = &s->members[i];
		uint64_t first, last;

		if (!m->name || !m->type || !audit_write_hot(m->type) ||
		    !ll_member_lines(m, s->cacheline, &first, &last))
			continue;
		sb_reset(&one);
		sb_addf(&one, "line %" PRIu64 " (%#" PRIx64 "): %s ", first,
			s->origin + first * s->cacheline, m->type);
		audit_name_var(m, &one);
		bool strangers = audit_strangers(s, i, &one) > 0;
		bool read_mostly = m->section && strstr(m->section, "read_mostly");

		if (read_mostly)
			sb_addf(&one, "%s in %s, which is for data written rarely",
				strangers ? ";" : "", m->section);
		if (!strangers && !read_mostly)
			continue;
		if (last_counted != first)
			out->mixed_lines++;
		last_counted = last;
		sb_addf(&detail, "\n      %s", one.buf);
	}
	out->detail = detail.len ? sb_detach(&detail) : NULL;
	sb_release(&detail);
	sb_release(&one);
}
