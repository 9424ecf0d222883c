// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suggestion as a C listing (text output of --suggest): the proposed
 * member order with cacheline markers, holes and the before/after numbers
 * the solver computed with the real checks. Renders only: the proposed
 * layout is ll_linted.proposal, which ll_lint_struct() built, and every
 * number comes from struct ll_suggestion.
 */
#include "report/report.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/describe.h"
#include "report/listing.h"
#include "solver/suggest.h"

#define DECL_COLUMN 48

struct text {
	struct strbuf *out;
	const struct ll_struct *d;	/* the proposed layout */
	const struct ll_struct *s;
	const struct ll_suggestion *sg;
	uint64_t next_boundary;
};

static void markers(struct text *t, uint64_t begin, int depth)
{
	ll_listing_boundaries(t->out, &t->next_boundary, t->d->size, t->d->cacheline, begin, depth,
			      "", "");
}

/* The suggestion entry for a member of the proposed copy, by path and kind. */
static const struct ll_suggested_member *entry_for(const struct text *t, const struct ll_member *m)
{
	for (size_t i = 0; i < t->sg->n; i++) {
		const struct ll_suggested_member *sm = &t->sg->members[i];

		if (sm->offset == m->offset && sm->m->is_bitfield == m->is_bitfield &&
		    (sm->m->is_bitfield ? sm->bit_offset == m->bit_offset : true) &&
		    ((sm->m->path && m->path && strcmp(sm->m->path, m->path) == 0) ||
		     (!sm->m->path && !m->path && sm->m->decl.line == m->decl.line &&
		      sm->m->size == m->size)))
			return sm;
	}
	return NULL;
}

static void list_members(struct text *t, const struct ll_member *members, size_t n,
			 enum ll_kind kind, uint64_t begin, uint64_t size, int depth, bool outermost)
{
	struct ll_holes holes = { 0 };
	unsigned cl = t->d->cacheline;
	size_t cursor = 0;

	ll_find_holes(members, n, kind, begin, size, &holes);
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		struct ll_extent e = ll_member_extent(m);
		const struct ll_suggested_member *sm = entry_for(t, m);
		size_t line_start;

		if (sm && sm->pad_before) {
			ll_listing_indent(t->out, depth);
			if (sm->line_start)
				sb_addf(t->out, "/* XXX %" PRIu64 " bytes: ____cacheline_aligned_in_smp "
					"on %s (or an explicit pad) */\n", sm->pad_before,
					ll_member_label(sm->m));
			else
				sb_addf(t->out, "/* XXX %" PRIu64 " bytes: explicit pad before %s */\n",
					sm->pad_before, ll_member_label(sm->m));
		}
		markers(t, e.begin, depth);
		line_start = t->out->len;
		ll_listing_indent(t->out, depth);
		if (m->is_aggregate && !m->name) {
			sb_addf(t->out, "%s {\n", ll_kind_name(m->agg_kind));
			list_members(t, m->children, m->nr_children, m->agg_kind, m->offset, m->size,
				     depth + 1, false);
			line_start = t->out->len;
			ll_listing_indent(t->out, depth);
			sb_adds(t->out, "};");
		} else if (m->is_base) {
			sb_addf(t->out, "%s;", m->name);	/* "<base NAME>" */
		} else {
			ll_listing_member_decl(t->out, m);
		}
		ll_listing_pad_to(t->out, line_start, DECL_COLUMN);
		if (m->is_bitfield)
			sb_addf(t->out, "/* %5" PRIu64 ":%-2" PRIu64, m->bit_offset / 8, m->bit_offset % 8);
		else
			sb_addf(t->out, "/* %5" PRIu64 "   ", m->offset);
		sb_addf(t->out, " line %" PRIu64 " +%-3" PRIu64 " %4" PRIu64, e.begin / cl,
			e.begin % cl, m->size);
		if (m->tag != LL_UNTAGGED)
			sb_addf(t->out, " %s%s%s", ll_tag_name(m->tag), m->domain ? ":" : "",
				m->domain ? m->domain : "");
		if (sm && sm->moved)
			sb_adds(t->out, " (moved)");
		if (m->pinned)
			sb_adds(t->out, " (pinned)");
		sb_adds(t->out, " */\n");
		size_t nr_after;
		const struct ll_hole *after = ll_holes_after(&holes, m, &cursor, &nr_after);

		for (size_t h = 0; h < nr_after; h++) {
			const struct ll_hole *hl = &after[h];

			if (outermost && hl->is_padding)
				continue;
			/* A pad already announced before the next member is not a hole to fix. */
			const struct ll_suggested_member *nx = i + 1 < n ? entry_for(t, &members[i + 1]) : NULL;
			uint64_t size = hl->size;

			if (nx && nx->pad_before && !hl->bits)
				size = size > nx->pad_before ? size - nx->pad_before : 0;
			if (hl->bits) {
				ll_listing_indent(t->out, depth);
				sb_addf(t->out, "/* XXX %" PRIu64 " bit%s hole */\n", hl->bits,
					hl->bits == 1 ? "" : "s");
			} else if (size) {
				ll_listing_indent(t->out, depth);
				sb_addf(t->out, "/* XXX %" PRIu64 " byte%s %s */\n", size,
					size == 1 ? "" : "s", hl->is_padding ? "padding" : "hole");
			}
		}
	}
	ll_holes_free(&holes);
}

void ll_report_suggestion(const struct ll_struct *s, const struct ll_suggestion *sg,
			  const struct ll_struct *d, struct strbuf *out)
{
	struct text t = { .out = out, .d = d, .s = s, .sg = sg, .next_boundary = s->cacheline };
	uint64_t lb = sg->lower_bound_lines;

	if (sg->smallest_fix && sg->fix_found && sg->changed)
		sb_addf(out, "/* smallest fix: %zu of %zu units moved (--relayout: the whole "
			"re-layout) */\n", sg->moved, sg->units);
	else if (sg->smallest_fix && sg->fix_found)
		sb_adds(out, "/* smallest fix: keep the current layout (no new finding) */\n");
	else if (sg->changed)
		sb_addf(out, "/* suggested layout: %zu of %zu units moved%s */\n", sg->moved,
			sg->units, sg->optimal ? " (exhaustive search)" : "");
	else
		sb_adds(out, "/* suggested layout: keep the current one */\n");
	sb_addf(out, "%s %s {\n", ll_kind_name(s->kind), s->name);
	list_members(&t, d->members, d->nr_members, d->kind, 0, d->size, 0, true);
	ll_listing_summary(out, d);
	sb_adds(out, " */\n};\n");
	sb_addf(out, "before: %" PRIu64 " bytes, %" PRIu64 " cacheline%s, %" PRIu64 " hole%s (%" PRIu64
		" bytes), %zu finding%s\n", sg->before_size, sg->before_cachelines,
		sg->before_cachelines == 1 ? "" : "s", sg->before_holes,
		sg->before_holes == 1 ? "" : "s", sg->before_hole_bytes, sg->before_findings,
		sg->before_findings == 1 ? "" : "s");
	sb_addf(out, "after:  %" PRIu64 " bytes, %" PRIu64 " cacheline%s, %" PRIu64 " hole%s (%" PRIu64
		" bytes), %zu finding%s\n", sg->size, sg->cachelines, sg->cachelines == 1 ? "" : "s",
		sg->holes, sg->holes == 1 ? "" : "s", sg->hole_bytes, sg->findings,
		sg->findings == 1 ? "" : "s");
	sb_addf(out, "lower bound: %" PRIu64 " cacheline%s", lb, lb == 1 ? "" : "s");
	if (sg->findings)
		sb_adds(out, " (holds only for a layout without findings)\n");
	else if (sg->cachelines <= lb)
		sb_adds(out, "; the proposal meets it\n");
	else
		sb_addf(out, "; the proposal is %" PRIu64 " above it\n", sg->cachelines - lb);
	if (sg->smallest_fix && sg->fix_found) {
		sb_addf(out, "smallest fix: %zu new finding%s -> %zu; %zu unit%s at the reference's "
			"offsets\n", sg->new_before, sg->new_before == 1 ? "" : "s", sg->new_after,
			sg->restored, sg->restored == 1 ? "" : "s");
		for (size_t i = 0; i < sg->nr_left; i++)
			sb_addf(out, "leaves (already in the reference): %s\n", sg->left[i]);
	}
	if (sg->impossible)
		sb_adds(out, "some findings cannot be removed by any order:\n");
	for (size_t i = 0; i < sg->nr_notes; i++) {
		sb_adds(out, "note: ");
		ll_suggest_note_describe(&sg->notes[i], out);
		sb_addc(out, '\n');
	}
}
