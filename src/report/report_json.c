// SPDX-License-Identifier: GPL-2.0-or-later
/* --format=json: the document cli.md fixes; keys are never renamed. */
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "checks/groups.h"
#include "util/json_writer.h"
#include "model/profile.h"
#include "report/describe.h"
#include "report/report.h"
#include "solver/suggest.h"

static void decl(struct json_writer *w, const char *key, const struct ll_decl *d)
{
	jw_key(w, key);
	if (!d->file && !d->line) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	jw_kstring(w, "file", d->file);
	jw_kuint_or_null(w, "line", d->line, d->line);
	jw_kuint_or_null(w, "column", d->column, d->column);
	jw_end_object(w);
}

/*
 * --profile: the member's samples (its children's included), its share of
 * the struct's, and its reads and writes, null when the profile cannot
 * say loads from stores.
 */
void ll_report_measured_json(struct json_writer *w, const struct ll_struct *s,
			     const struct ll_member *m)
{
	struct ll_measure ms = { 0 };

	ll_member_measure(m, &ms);
	jw_begin_object(w);
	jw_kdouble(w, "samples", ms.samples);
	jw_kdouble(w, "share", s->measured_samples > 0 ? ms.samples / s->measured_samples : 0);
	if (s->measured_access) {
		jw_kdouble(w, "reads", ms.reads);
		jw_kdouble(w, "writes", ms.writes);
	} else {
		jw_knull(w, "reads");
		jw_knull(w, "writes");
	}
	jw_end_object(w);
}

/* --access: one kind's sites at M, as {function, inlined_into, file, line, count[, init]}. */
static void access_sites(struct json_writer *w, const struct ll_access_view *v,
			 const struct ll_member *m, enum ll_access_kind kind)
{
	struct ll_access_sites sites;

	ll_access_member_sites(v, m, kind, &sites);
	jw_kbegin_array(w, ll_access_kind_name(kind));
	for (size_t i = 0; i < sites.n; i++) {
		const struct ll_access_site *x = &sites.v[i];

		jw_begin_object(w);
		jw_kstring(w, "function", x->function);
		jw_kstring(w, "inlined_into", x->inlined_into);
		jw_kstring(w, "file", x->file);
		jw_kuint(w, "line", x->line);
		jw_kuint(w, "count", x->count);
		if (kind != LL_ACCESS_KIND_LOAD)
			jw_kbool(w, "init", x->init);
		jw_end_object(w);
	}
	jw_end_array(w);
	ll_access_sites_release(&sites);
}

static void member_access(struct json_writer *w, const struct ll_access_view *v,
			  const struct ll_member *m)
{
	jw_kbegin_object(w, "access");
	for (int k = 0; k < LL_NR_ACCESS_KINDS; k++)
		access_sites(w, v, m, (enum ll_access_kind)k);
	jw_end_object(w);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* --access: the struct's coverage and the functions judged constructors. */
static void struct_access(struct json_writer *w, const struct ll_access_view *v)
{
	const struct ll_access_evidence *e = v->e;

	jw_kbegin_object(w, "access");
	jw_kbegin_object(w, "coverage");
	jw_kuint(w, "functions", e->functions);
	jw_kuint(w, "operands", e->operands);
	jw_kuint(w, "typed", e->typed);
	jw_kdouble(w, "share", e->operands ? (double)e->typed / (double)e->operands : 0);
	jw_kuint(w, "skipped_functions", e->skipped_functions);
	jw_kuint(w, "undecoded_bytes", e->undecoded_bytes);
	jw_end_object(w);
	jw_kbegin_array(w, "constructors");
	{
		/* The view keeps them by address; a reader wants them by name. */
		const char **names = xcalloc(v->nr_init_functions + 1, sizeof(*names));

		for (size_t i = 0; i < v->nr_init_functions; i++)
			names[i] = v->init_functions[i];
		if (v->nr_init_functions)
			qsort(names, v->nr_init_functions, sizeof(*names), cmp_names);
		for (size_t i = 0; i < v->nr_init_functions; i++)
			jw_string(w, names[i]);
		free(names);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void member(struct json_writer *w, const struct ll_struct *s, const struct ll_member *m,
		   unsigned cacheline, const struct ll_access_view *av)
{
	struct ll_extent e = ll_member_extent(m);
	uint64_t first, last;

	jw_begin_object(w);
	jw_kstring(w, "name", m->name);
	jw_kstring(w, "path", m->path);
	jw_kstring(w, "type", m->type);
	if (m->is_base)
		jw_kbool(w, "base", true);
	jw_kuint(w, "offset", m->offset);
	jw_kuint(w, "size", m->size);
	jw_kuint(w, "alignment", m->alignment);
	if (m->is_bitfield) {
		jw_kuint(w, "bit_offset", m->bit_offset);
		jw_kuint(w, "bit_size", m->bit_size);
	} else {
		jw_knull(w, "bit_offset");
		jw_knull(w, "bit_size");
	}
	jw_kstring(w, "tag", ll_tag_name(m->tag));
	jw_kstring(w, "domain", m->domain);
	jw_key(w, "lines");
	if (ll_member_lines(m, cacheline, &first, &last)) {
		jw_begin_array(w);
		jw_uint(w, first);
		jw_uint(w, last);
		jw_end_array(w);
	} else {
		jw_null(w);
	}
	jw_kuint(w, "line_offset", e.begin % cacheline);
	decl(w, "decl", &m->decl);
	if (s->measured) {
		jw_key(w, "measured");
		ll_report_measured_json(w, s, m);
	}
	if (av->e)
		member_access(w, av, m);
	jw_kbegin_array(w, "members");
	for (size_t i = 0; i < m->nr_children; i++)
		member(w, s, &m->children[i], cacheline, av);
	jw_end_array(w);
	jw_end_object(w);
}

static void diff_lines(struct json_writer *w, const char *key, bool has, uint64_t first,
		       uint64_t last)
{
	jw_key(w, key);
	if (!has) {
		jw_null(w);
		return;
	}
	jw_begin_array(w);
	jw_uint(w, first);
	jw_uint(w, last);
	jw_end_array(w);
}

/* {"old": OLD, "new": NOW} under KEY. */
static void old_new(struct json_writer *w, const char *key, uint64_t old, uint64_t now)
{
	jw_kbegin_object(w, key);
	jw_kuint(w, "old", old);
	jw_kuint(w, "new", now);
	jw_end_object(w);
}

/*
 * One of --against's member lists under KEY: each member's path and its
 * lines in the reference (OLD), now (NOW), or both ("from" and "to").
 */
static void diff_members(struct json_writer *w, const char *key, const struct ll_diff_member *v,
			 size_t n, bool old, bool now)
{
	jw_kbegin_array(w, key);
	for (size_t i = 0; i < n; i++) {
		jw_begin_object(w);
		jw_kstring(w, "path", v[i].path);
		if (old)
			diff_lines(w, now ? "from" : "lines", v[i].old_lines, v[i].old_first,
				   v[i].old_last);
		if (now)
			diff_lines(w, old ? "to" : "lines", v[i].new_lines, v[i].new_first,
				   v[i].new_last);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* --against: the "against" object of one struct. */
static void against(struct json_writer *w, const struct ll_layout_diff *d)
{
	jw_kbegin_object(w, "against");
	if (d->reference)
		jw_kstring(w, "reference", d->reference);
	jw_kbool(w, "in_reference", d->in_reference);
	if (d->in_reference) {
		old_new(w, "size", d->old_size, d->new_size);
		old_new(w, "cachelines", d->old_cachelines, d->new_cachelines);
	}
	diff_members(w, "added", d->added, d->nr_added, false, true);
	diff_members(w, "removed", d->removed, d->nr_removed, true, false);
	diff_members(w, "moved", d->moved, d->nr_moved, true, true);
	jw_end_object(w);
}

static void finding(struct json_writer *w, const struct ll_finding *f,
		    const struct ll_gate_mark *mark)
{
	jw_begin_object(w);
	jw_kstring(w, "rule", f->rule);
	jw_kstring(w, "level", ll_level_name(f->level));
	jw_kstring(w, "tier", ll_tier_name(f->tier));
	jw_kstring(w, "message", f->message);
	jw_kbegin_array(w, "members");
	for (size_t i = 0; i < f->nr_members; i++)
		jw_string(w, f->members[i]);
	jw_end_array(w);
	jw_kuint_or_null(w, "cacheline", f->cacheline >= 0, (uint64_t)f->cacheline);
	decl(w, "location", &f->location);
	jw_kbegin_array(w, "pairs");
	for (size_t i = 0; i < f->nr_pairs; i++) {
		jw_begin_array(w);
		jw_string(w, f->pairs[i].a);
		if (f->pairs[i].b)
			jw_string(w, f->pairs[i].b);
		jw_end_array(w);
	}
	jw_end_array(w);
	jw_kstring(w, "fingerprint", f->fingerprint);
	if (mark) {
		jw_key(w, "new_pairs");
		ll_gate_pairs_json(w, f, mark);
	}
	jw_end_object(w);
}

#define JSON_RUN_MIN 64

static void lines(struct json_writer *w, const struct ll_lines *map)
{
	jw_kbegin_array(w, "lines");
	for (size_t i = 0; i < map->n; i++) {
		const struct ll_line *line = &map->v[i];

		/* Lines no member touches (padding) say nothing: a 64 MB struct has a million. */
		if (!line->nr_units)
			continue;
		/*
		 * A run of JSON_RUN_MIN or more lines alike (every member on them
		 * fills them whole) is one object whose extra key "through" is
		 * its last line: a 2 GiB array member is one object, not 33
		 * million. Shorter runs keep an object per line, so that the
		 * lines of every struct without a 4 KiB member read as before.
		 */
		bool run = line->count >= JSON_RUN_MIN;

		for (uint64_t k = line->index; k <= ll_line_last(line); k++) {
			jw_begin_object(w);
			jw_kuint(w, "index", k);
			if (run)
				jw_kuint(w, "through", ll_line_last(line));
			jw_kbegin_array(w, "members");
			for (size_t u = 0; u < line->nr_units; u++)
				jw_string(w, line->units[u]->m->path);
			jw_end_array(w);
			jw_kstring(w, "verdict", ll_verdict_name(line->verdict));
			jw_end_object(w);
			if (run)
				break;
		}
	}
	jw_end_array(w);
}

/* cli.md's core keys (members: path, offset, size; size; cachelines; findings), then extras. */
static void suggestion(struct json_writer *w, const struct ll_linted *l)
{
	const struct ll_suggestion *sg = l->suggestion;

	jw_key(w, "suggestion");
	if (!sg) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	jw_kbegin_array(w, "members");
	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *m = &sg->members[i];

		jw_begin_object(w);
		jw_kstring(w, "path", m->m->path);
		jw_kuint(w, "offset", m->offset);
		jw_kuint(w, "size", m->size);
		if (m->m->is_bitfield)
			jw_kuint(w, "bit_offset", m->bit_offset);
		jw_kstring(w, "container", m->container ? "anonymous" : NULL);
		jw_kbool(w, "moved", m->moved);
		jw_kbool(w, "line_start", m->line_start);
		jw_kuint(w, "pad_before", m->pad_before);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_kuint(w, "size", sg->size);
	jw_kuint(w, "cachelines", sg->cachelines);
	jw_kuint(w, "findings", sg->findings);
	jw_kuint(w, "holes", sg->holes);
	jw_kuint(w, "hole_bytes", sg->hole_bytes);
	jw_kbegin_object(w, "before");
	jw_kuint(w, "size", sg->before_size);
	jw_kuint(w, "cachelines", sg->before_cachelines);
	jw_kuint(w, "holes", sg->before_holes);
	jw_kuint(w, "findings", sg->before_findings);
	jw_end_object(w);
	jw_kuint(w, "lower_bound_lines", sg->lower_bound_lines);
	jw_kuint(w, "moved", sg->moved);
	jw_kbool(w, "impossible", sg->impossible);
	/* --against/--baseline without --relayout: what the smallest fix does and leaves. */
	jw_key(w, "smallest_fix");
	if (sg->smallest_fix) {
		jw_begin_object(w);
		jw_kbool(w, "found", sg->fix_found);
		jw_kuint(w, "new_before", sg->new_before);
		if (sg->fix_found) {
			jw_kuint(w, "new_after", sg->new_after);
			jw_kuint(w, "restored", sg->restored);
		}
		jw_kbegin_array(w, "leaves");
		for (size_t i = 0; i < sg->nr_left; i++)
			jw_string(w, sg->left[i]);
		jw_end_array(w);
		jw_end_object(w);
	} else {
		jw_null(w);
	}
	jw_kbegin_array(w, "notes");
	for (size_t i = 0; i < sg->nr_notes; i++) {
		struct strbuf note = STRBUF_INIT;

		ll_suggest_note_describe(&sg->notes[i], &note);
		jw_string(w, note.buf);
		sb_release(&note);
	}
	jw_end_array(w);
	jw_end_object(w);
}

/*
 * The "groups" key of one struct, an array of { name, begin, end (the end
 * marker's offset, exclusive), bytes, lines ([first, last] or null),
 * nr_lines, min_lines, tag ("read-mostly", "write-hot" or null), domain,
 * aligned, alignment, begin_marker, end_marker, pad, members }.
 */
static void groups_json(struct json_writer *w, const struct ll_groups *g)
{
	jw_kbegin_array(w, "groups");
	for (size_t i = 0; g && i < g->n; i++) {
		const struct ll_group *grp = &g->v[i];

		jw_begin_object(w);
		jw_kstring(w, "name", grp->name);
		jw_kuint(w, "begin", grp->begin_offset);
		jw_kuint(w, "end", grp->end_offset);
		jw_kuint(w, "bytes", grp->end_offset - grp->begin_offset);
		jw_key(w, "lines");
		if (grp->nr_lines) {
			jw_begin_array(w);
			jw_uint(w, grp->first_line);
			jw_uint(w, grp->last_line);
			jw_end_array(w);
		} else {
			jw_null(w);
		}
		jw_kuint(w, "nr_lines", grp->nr_lines);
		jw_kuint(w, "min_lines", grp->min_lines);
		jw_kstring(w, "tag", grp->tag == LL_UNTAGGED ? NULL : ll_tag_name(grp->tag));
		jw_kstring(w, "domain", grp->domain);
		jw_kbool(w, "aligned", grp->aligned);
		jw_kuint(w, "alignment", grp->alignment);
		jw_kstring(w, "begin_marker", grp->begin->path);
		jw_kstring(w, "end_marker", grp->end->path);
		jw_kstring(w, "pad", grp->pad ? grp->pad->path : NULL);
		jw_kbegin_array(w, "members");
		for (size_t k = 0; k < grp->nr_members; k++)
			jw_string(w, grp->members[k]->path);
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void one_struct(struct json_writer *w, const struct ll_run *run, const struct ll_linted *l)
{
	const struct ll_struct *s = l->layout;
	struct ll_summary sum;

	ll_summarize(s, &sum);
	jw_begin_object(w);
	if (run->binaries)
		jw_kstring(w, "binary", l->binary ? l->binary : run->binary_path);
	jw_kstring(w, "kind", ll_kind_name(s->kind));
	jw_kstring(w, "name", s->name);
	jw_kuint(w, "size", s->size);
	jw_kuint(w, "alignment", s->alignment);
	jw_kbool(w, "alignment_inferred", s->alignment_inferred);
	jw_kuint(w, "cacheline", s->cacheline);
	jw_kuint(w, "cachelines", ll_struct_lines(s));
	jw_kuint(w, "holes", sum.holes);
	jw_kuint(w, "hole_bytes", sum.hole_bytes);
	jw_kuint(w, "padding", sum.padding);
	decl(w, "decl", &s->decl);
	if (s->origin)
		jw_kuint(w, "origin", s->origin);
	if (s->measured) {
		jw_kdouble(w, "measured_samples", s->measured_samples);
		jw_kbool(w, "measured_access", s->measured_access);
	}
	if (l->access.e)
		struct_access(w, &l->access);
	jw_kbegin_array(w, "members");
	for (size_t i = 0; i < s->nr_members; i++)
		member(w, s, &s->members[i], s->cacheline, &l->access);
	jw_end_array(w);
	lines(w, &l->lines);
	groups_json(w, &l->groups);
	jw_kbegin_array(w, "findings");
	for (size_t i = 0; i < l->findings.n; i++)
		finding(w, &l->findings.v[i], l->marks ? &l->marks[i] : NULL);
	jw_end_array(w);
	suggestion(w, l);
	if (l->diff)
		against(w, l->diff);
	jw_end_object(w);
}

void ll_report_binaries_json(struct json_writer *w, const struct ll_run *run)
{
	jw_begin_array(w);
	for (size_t i = 0; i < run->nr_binaries; i++) {
		jw_begin_object(w);
		jw_kstring(w, "path", run->binaries[i].path);
		jw_kstring(w, "build_id", run->binaries[i].build_id);
		jw_end_object(w);
	}
	jw_end_array(w);
}

void ll_report_gating_json(struct json_writer *w, const struct ll_gating *g)
{
	jw_begin_object(w);
	jw_kstring(w, "reference", g->against ? "against" : "baseline");
	jw_kstring(w, "path", g->reference);
	if (g->against)
		jw_kstring(w, "build_id", g->reference_build_id);
	if (g->revision)
		jw_kstring(w, "revision", g->revision);
	jw_kbool(w, "strict", g->strict);
	jw_kuint(w, "reported_findings", g->reported_findings);
	jw_kuint(w, "new_pairs", g->new_pairs);
	jw_kuint(w, "suppressed_findings", g->suppressed_findings);
	jw_kuint(w, "suppressed_pairs", g->suppressed_pairs);
	jw_kuint(w, "vanished_pairs", g->nr_vanished);
	jw_kbegin_array(w, "vanished");
	for (size_t i = 0; i < g->nr_vanished; i++) {
		const struct ll_pairkey *k = &g->vanished[i];
		struct strbuf name = STRBUF_INIT;

		sb_addf(&name, "%s %s", ll_kind_name(k->kind), k->name);
		jw_begin_object(w);
		jw_kstring(w, "rule", k->rule);
		jw_kstring(w, "struct", name.buf);
		jw_kbegin_array(w, "pair");
		jw_string(w, k->a);
		if (k->b)
			jw_string(w, k->b);
		jw_end_array(w);
		jw_kuint_or_null(w, "line", k->line, k->line);
		jw_end_object(w);
		sb_release(&name);
	}
	jw_end_array(w);
	jw_end_object(w);
}

void ll_report_json(const struct ll_run *run, struct strbuf *out)
{
	struct json_writer w;

	jw_init(&w, true);
	jw_begin_object(&w);
	jw_kuint(&w, "format", 1);
	jw_kbegin_object(&w, "binary");
	jw_kstring(&w, "path", run->binary_path);
	jw_kstring(&w, "build_id", run->build_id);
	jw_end_object(&w);
	if (run->binaries) {
		jw_key(&w, "binaries");
		ll_report_binaries_json(&w, run);
	}
	jw_kbegin_array(&w, "structs");
	for (size_t i = 0; i < run->nr_structs; i++)
		one_struct(&w, run, &run->structs[i]);
	jw_end_array(&w);
	if (run->contracts) {
		jw_key(&w, "contracts");
		ll_report_contracts_json(&w, run->contracts);
	}
	if (run->gating) {
		jw_key(&w, "gating");
		ll_report_gating_json(&w, run->gating);
	}
	if (run->notes && run->notes->n) {
		jw_kbegin_array(&w, "notes");
		for (size_t i = 0; i < run->notes->n; i++)
			jw_string(&w, run->notes->v[i]);
		jw_end_array(&w);
	}
	jw_end_object(&w);
	sb_addc(&w.out, '\n');
	sb_add(out, w.out.buf, w.out.len);
	jw_release(&w);
}
