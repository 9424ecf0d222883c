// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=patch --group-markers (report_groups.h). Per struct with rules
 * groups, once however many binaries or line sizes lint it: each group's
 * markers, its asserts (the SIZE constant the largest size over the
 * binaries of the run, so that it holds on each), and the net_cachelines
 * rows its members lack; then the whole patch again, one diff a file, with
 * a summary line per group before it (git apply skips that text).
 */
#include "report/report_groups.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "source/asserts.h"
#include "source/group_patch.h"
#include "source/srcpatch.h"
#include "util/diag.h"

static void note(const struct ll_struct *s, const char *group, const char *why)
{
	if (s->decl.file)
		ll_linef("%s:%u: note: %s %s: group %s: not written: %s", s->decl.file,
			 s->decl.line, ll_kind_name(s->kind), s->name, group ? group : "*", why);
	else
		ll_notef("%s %s: group %s: not written: %s", ll_kind_name(s->kind), s->name,
			 group ? group : "*", why);
}

static bool same_struct(const struct ll_struct *a, const struct ll_struct *b)
{
	return a->kind == b->kind && a->name && b->name && strcmp(a->name, b->name) == 0;
}

/* The top-level member of S the path P (of S) lies in, or NULL. */
static const char *top_name(const struct ll_struct *s, const char *p)
{
	size_t n = p ? strcspn(p, ".") : 0;

	for (size_t i = 0; n && i < s->nr_members; i++)
		if (s->members[i].name && strlen(s->members[i].name) == n &&
		    memcmp(s->members[i].name, p, n) == 0)
			return s->members[i].name;
	return NULL;
}

/* The group's top-level members, in S's order. */
static size_t group_members(const struct ll_struct *s, const struct ll_hot_set *hs,
			    const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr_members; i++) {
		const char *name = s->members[i].name;
		bool in = false;

		for (size_t k = 0; name && k < hs->n && !in; k++)
			in = top_name(s, hs->members[k]->path) == name;
		if (in)
			out[n++] = name;
	}
	return n;
}

static bool listed(const char *name, const char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return true;
	return false;
}

/* The table path in the patch: relative to SRCDIR. NULL: not under it. */
static const char *table_path(const struct ll_doc_table *t, const char *srcdir)
{
	size_t n = strlen(srcdir);

	if (t->file[0] != '/' && strncmp(t->file, "../", 3) != 0)
		return t->file;
	if (strncmp(t->file, srcdir, n) == 0 && t->file[n] == '/')
		return t->file + n + 1;
	return NULL;
}

/* The net_cachelines rows of MARKED (N) members S's tables lack. */
static void table_rows(const struct ll_struct *s, const struct ll_doc_plan *plans, size_t nplans,
		       const char *srcdir, const char **marked, size_t n,
		       struct ll_textset *set, struct strbuf *summary)
{
	for (size_t p = 0; p < nplans; p++) {
		const struct ll_doc_plan *plan = &plans[p];
		struct ll_doc_plan mine = { .table = plan->table, .linted = plan->linted };
		struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
		const char *path;

		if (!same_struct(plan->linted->layout, s))
			continue;
		mine.drop = xcalloc(plan->table->nr_rows + 1, sizeof(*mine.drop));
		mine.add = xcalloc(plan->nr_add + 1, sizeof(*mine.add));
		for (size_t k = 0; k < plan->nr_add; k++)
			if (plan->add[k].m->name && listed(plan->add[k].m->name, marked, n))
				mine.add[mine.nr_add++] = plan->add[k];
		path = table_path(plan->table, srcdir);
		if (mine.nr_add && !path) {
			note(s, NULL, "its net_cachelines table is not under --srcdir: no rows");
		} else if (mine.nr_add) {
			ll_report_net_cachelines(&mine, &text);
			if (ll_textset_replace(set, path, text.buf, text.len, &why))
				note(s, NULL, why.buf);
			else
				sb_addf(summary, "layoutlint: %s %s: %zu net_cachelines row%s (%s)\n",
					ll_kind_name(s->kind), s->name, mine.nr_add,
					mine.nr_add == 1 ? "" : "s", path);
		}
		free(mine.drop);
		free(mine.add);
		sb_release(&text);
		sb_release(&why);
	}
}

/* One struct's groups: markers, then asserts, then rows. */
static void one_struct(const struct ll_run *run, size_t first, const char *srcdir,
		       const struct ll_group_asserts *asserts, const struct ll_source *src,
		       const struct ll_doc_plan *plans, size_t nplans, struct ll_textset *set,
		       struct strbuf *summary)
{
	const struct ll_linted *l = &run->structs[first];
	const struct ll_struct *s = l->layout;
	const char **names = xcalloc(s->nr_members + 1, sizeof(*names));
	const char **marked = xcalloc(s->nr_members + 1, sizeof(*marked));
	size_t nmarked = 0;
	struct strbuf lines = STRBUF_INIT, why = STRBUF_INIT, where = STRBUF_INIT;
	const char *header = ll_source_path(src);

	for (size_t g = 0; g < l->hot_sets.n; g++) {
		const struct ll_hot_set *hs = &l->hot_sets.v[g];
		size_t n = group_members(s, hs, names);
		struct ll_group_site site;
		struct strbuf sizes = STRBUF_INIT;
		uint64_t max = 0;
		bool sized = true;

		sb_reset(&why);
		if (!n) {
			note(s, hs->name, "it names no member of the struct");
			continue;
		}
		if (ll_group_mark(set, header, s, hs->name, names, n, &site, &why)) {
			note(s, hs->name, why.buf);
			continue;
		}
		/* N: the largest size over the binaries, so the assert holds on each. */
		for (size_t i = first; i < run->nr_structs && sized; i++) {
			const struct ll_linted *o = &run->structs[i];
			uint64_t size;

			if (!same_struct(o->layout, s) ||
			    (i > first && same_struct(run->structs[i - 1].layout, s) &&
			     run->structs[i - 1].binary == o->binary))
				continue;
			if (ll_group_size(o->layout, &site, &size, &why)) {
				sized = false;
				break;
			}
			if (size > max)
				max = size;
			sb_addf(&sizes, "%s%" PRIu64 " on %s", sizes.len ? ", " : "", size,
				o->binary ? o->binary : run->binary_path);
		}
		for (size_t k = 0; k < n; k++) {
			sb_addf(&lines, "CACHELINE_ASSERT_GROUP_MEMBER(%s %s, %s, %s);\n",
				ll_kind_name(s->kind), s->name, hs->name, names[k]);
			if (!listed(names[k], marked, nmarked))	/* nested groups share */
				marked[nmarked++] = names[k];
		}
		if (sized)
			sb_addf(&lines, "CACHELINE_ASSERT_GROUP_SIZE(%s %s, %s, %" PRIu64 ");\n",
				ll_kind_name(s->kind), s->name, hs->name, max);
		else
			note(s, hs->name, why.buf);
		sb_addf(summary, "layoutlint: %s %s: group %s: %zu member%s marked (%s:%u-%u)",
			ll_kind_name(s->kind), s->name, hs->name, n, n == 1 ? "" : "s", header,
			site.begin_line, site.end_line);
		if (sized)
			sb_addf(summary, ", size %" PRIu64 " (%s)", max, sizes.buf);
		sb_addc(summary, '\n');
		sb_release(&sizes);
		ll_group_site_release(&site);
	}
	if (lines.len) {
		bool created = false;

		sb_reset(&why);
		if (ll_group_asserts_add(set, header, s, asserts, lines.buf, &where, &created, &why))
			note(s, NULL, why.buf);
		else if (created)
			sb_addf(summary, "layoutlint: %s %s: asserts in a new %s_struct_check() (%s): "
				"call it from an __init function, as tcp_init() calls "
				"tcp_struct_check()\n", ll_kind_name(s->kind), s->name, s->name,
				where.buf);
		else
			sb_addf(summary, "layoutlint: %s %s: asserts at %s\n", ll_kind_name(s->kind),
				s->name, where.buf);
	}
	if (nmarked)
		table_rows(s, plans, nplans, srcdir, marked, nmarked, set, summary);
	free(names);
	free(marked);
	sb_release(&lines);
	sb_release(&why);
	sb_release(&where);
}

int ll_report_group_patch(const struct ll_run *run, const char *srcdir,
			  const struct ll_doc_plan *plans, size_t n, struct strbuf *out,
			  struct ll_error *err)
{
	struct ll_textset *set = ll_textset_new(srcdir);
	struct ll_group_asserts asserts = { 0 };
	struct strbuf why = STRBUF_INIT, summary = STRBUF_INIT, diffs = STRBUF_INIT;
	const char *text = out->buf ? out->buf : "";
	const char *first_diff = strstr(text, "diff --git a/");
	size_t pre = first_diff && (first_diff == text || first_diff[-1] == '\n') ?
		     (size_t)(first_diff - text) : out->len;
	bool any = false;
	int rc = -1;

	if (ll_textset_take_patch(set, text + pre, out->len - pre, &why)) {
		ll_fail(err, "--group-markers: %s", why.buf);
		goto out;
	}
	if (ll_scan_group_asserts(srcdir, &asserts, err))
		goto out;
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];
		bool seen = false;

		if (!l->hot_sets.n)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = run->structs[k].hot_sets.n && same_struct(run->structs[k].layout,
									 l->layout);
		if (seen)
			continue;
		any = true;
		if (l->layout->kind != LL_STRUCT)
			note(l->layout, NULL, "kernel groups mark structs, not unions");
		else if (l->source)
			one_struct(run, i, srcdir, &asserts, l->source, plans, n, set, &summary);
		else if (l->no_patch)
			note(l->layout, NULL, l->no_patch);
		else {
			/* No suggestion wanted: the header is mapped for the groups alone. */
			struct strbuf no = STRBUF_INIT;
			struct ll_source *src = ll_source_read(l->layout, srcdir, &no);

			if (src)
				one_struct(run, i, srcdir, &asserts, src, plans, n, set, &summary);
			else
				note(l->layout, NULL, no.buf);
			ll_source_free(src);
			sb_release(&no);
		}
	}
	if (!any) {
		ll_fail(err, "--group-markers: no rules 'group' statement names a member of the "
			"structs linted (rules.md, 'group NAME PATTERN...')");
		goto out;
	}
	ll_textset_diffs(set, &diffs);
	/* The suggestions' summary, the groups', then every file's one diff. */
	struct strbuf all = STRBUF_INIT;
	size_t keep = pre;

	while (keep && out->buf[keep - 1] == '\n' && keep >= 2 && out->buf[keep - 2] == '\n')
		keep--;
	sb_add(&all, out->buf ? out->buf : "", keep);
	sb_add(&all, summary.buf ? summary.buf : "", summary.len);
	if (all.len && diffs.len)
		sb_addc(&all, '\n');
	sb_add(&all, diffs.buf ? diffs.buf : "", diffs.len);
	sb_release(out);
	*out = all;
	rc = 0;
out:
	ll_group_asserts_release(&asserts);
	ll_textset_free(set);
	sb_release(&why);
	sb_release(&summary);
	sb_release(&diffs);
	return rc;
}
