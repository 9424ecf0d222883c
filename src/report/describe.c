// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The words reporters write about kernel groups, gating pairs and --against
 * diffs (see describe.h), moved here from checks/groups.c and gating/ so
 * that those layers compute and this one writes.
 */
#include "report/describe.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel groups (text listing) ---------------------------------------- */

static void tag_words(enum ll_tag tag, const char *domain, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", ll_tag_name(tag), domain ? ":" : "", domain ? domain : "");
}

static const struct ll_group *group_of_marker(const struct ll_groups *g,
					      const struct ll_member *m, enum ll_marker_kind *kind)
{
	for (size_t i = 0; g && i < g->n; i++) {
		if (g->v[i].begin == m) {
			*kind = LL_MARKER_BEGIN;
			return &g->v[i];
		}
		if (g->v[i].end == m) {
			*kind = LL_MARKER_END;
			return &g->v[i];
		}
		if (g->v[i].pad == m) {
			*kind = LL_MARKER_PAD;
			return &g->v[i];
		}
	}
	return NULL;
}

static void describe(const struct ll_group *g, struct strbuf *out)
{
	uint64_t bytes = g->end_offset - g->begin_offset;
	char tag[128];

	tag_words(g->tag, g->domain, tag, sizeof(tag));
	sb_addf(out, "%s, ", g->tag == LL_UNTAGGED ? "span only" : tag);
	if (!bytes) {
		sb_addf(out, "empty at byte %" PRIu64, g->begin_offset);
	} else {
		sb_addf(out, "bytes %" PRIu64 "-%" PRIu64 " (%" PRIu64 "), ", g->begin_offset,
			g->end_offset - 1, bytes);
		if (g->nr_lines == 1)
			sb_addf(out, "line %" PRIu64, g->first_line);
		else
			sb_addf(out, "lines %" PRIu64 "-%" PRIu64, g->first_line, g->last_line);
		sb_addf(out, ", %" PRIu64 " of min %" PRIu64, g->nr_lines, g->min_lines);
		if (g->nr_lines > g->min_lines)
			sb_adds(out, " [group-span]");
	}
	if (g->aligned)
		sb_addf(out, ", aligned %" PRIu64, g->alignment);
}

void ll_groups_marker_note(const struct ll_groups *g, const struct ll_member *m,
			   struct strbuf *out)
{
	enum ll_marker_kind kind = LL_MARKER_NONE;
	const struct ll_group *grp = group_of_marker(g, m, &kind);
	const char *name;

	if (!grp) {
		/* A marker without its partner is worth a word too. */
		kind = ll_group_marker(m, &name);
		if (kind == LL_MARKER_BEGIN)
			sb_addf(out, " begin of group %s, which has no end marker", name);
		else if (kind == LL_MARKER_END)
			sb_addf(out, " end of group %s, which has no begin marker", name);
		return;
	}
	switch (kind) {
	case LL_MARKER_BEGIN:
		sb_addf(out, " begin of group %s: ", grp->name);
		describe(grp, out);
		break;
	case LL_MARKER_END:
		sb_addf(out, " end of group %s", grp->name);
		break;
	case LL_MARKER_PAD:
		sb_addf(out, " pad of group %s", grp->name);
		break;
	case LL_MARKER_NONE:
		break;
	}
}

void ll_groups_summary(const struct ll_groups *g, struct strbuf *out)
{
	size_t over = 0;

	if (!g || !g->n)
		return;
	for (size_t i = 0; i < g->n; i++)
		over += g->v[i].nr_lines > g->v[i].min_lines;
	sb_addf(out, "\t/* groups: %zu", g->n);
	if (over)
		sb_addf(out, ", %zu touching more cachelines than their bytes need", over);
	sb_adds(out, " */\n");
	for (size_t i = 0; i < g->n; i++) {
		sb_addf(out, "\t/*   %s: ", g->v[i].name);
		describe(&g->v[i], out);
		sb_adds(out, " */\n");
	}
}

/* ---- gating ---------------------------------------------------------------- */

static void describe_pair(const char *a, const char *b, struct strbuf *out)
{
	sb_adds(out, a);
	if (b)
		sb_addf(out, " with %s", b);
}

void ll_gate_describe_new(const struct ll_finding *f, const struct ll_gate_mark *m,
			  struct strbuf *out)
{
	const char *a = NULL, *b = NULL;
	bool first = true;

	for (size_t i = 0; i < m->nr_pairs; i++) {
		if (!m->pair_new[i])
			continue;
		ll_finding_gate_pairs(f, i, &a, &b);
		if (!first)
			sb_adds(out, ", ");
		describe_pair(a, b, out);
		first = false;
	}
}

void ll_pairkey_describe(const struct ll_pairkey *k, struct strbuf *out)
{
	sb_addf(out, "%s, %s %s: ", k->rule, ll_kind_name(k->kind), k->name);
	describe_pair(k->a, k->b, out);
}

/* ---- --against ------------------------------------------------------------- */

const char *ll_diff_lines(bool has, uint64_t first, uint64_t last, char *buf, size_t n)
{
	if (!has)
		snprintf(buf, n, "no line");
	else if (first == last)
		snprintf(buf, n, "line %llu", (unsigned long long)first);
	else
		snprintf(buf, n, "lines %llu-%llu", (unsigned long long)first,
			 (unsigned long long)last);
	return buf;
}

/* ---- measured shares (text, HTML, rules) --------------------------------- */

/* "12.50" -> "12.5", "3.00" -> "3": as %g drops them. */
static void describe_class(const struct ll_suggest_class *c, struct strbuf *out)
{
	/* At most 95 bytes, as the solver's notes have always been cut. */
	char buf[96];

	if (!c->write_hot) {
		sb_addf(out, "read-mostly");
		return;
	}
	snprintf(buf, sizeof(buf), "write-hot%s%s", c->domain ? ":" : "",
		 c->domain ? c->domain : "");
	sb_addf(out, "%s", buf);
}

static const char *shared_reason(enum ll_suggest_shared shared)
{
	switch (shared) {
	case LL_SUGGEST_SHARED_BITFIELDS:
		return "are bitfields of one storage unit, which moves whole";
	case LL_SUGGEST_SHARED_UNION:
		return "are alternatives of one union and share its bytes";
	case LL_SUGGEST_SHARED_ANON_UNION:
		return "are alternatives of one anonymous union and share its bytes";
	case LL_SUGGEST_SHARED_AGGREGATE:
		return "are inside one member that moves whole";
	case LL_SUGGEST_SHARED_ANON_AGGREGATE:
		return "are inside one anonymous aggregate that moves whole";
	case LL_SUGGEST_SHARED_MEMBER:
		break;
	}
	return "share one member";
}

void ll_suggest_note_describe(const struct ll_suggest_note *n, struct strbuf *out)
{
	switch (n->kind) {
	case LL_SUGGEST_NOTE_UNIT_MIXES:
		sb_addf(out, "cannot be removed: ");
		describe_class(&n->class_a, out);
		sb_addf(out, " %s and ", ll_member_label(n->a));
		describe_class(&n->class_b, out);
		sb_addf(out, " %s %s (%s), so they share a cacheline at every offset it may take",
			ll_member_label(n->b), shared_reason(n->shared), ll_member_label(n->unit));
		break;
	case LL_SUGGEST_NOTE_UNIT_STRADDLES:
		sb_addf(out, "cannot be removed: ");
		describe_class(&n->class_a, out);
		sb_addf(out, " %s straddles a cacheline boundary at every offset %s may take",
			ll_member_label(n->a), ll_member_label(n->unit));
		break;
	case LL_SUGGEST_NOTE_PINNED_MIX:
		sb_addf(out, "cannot be removed: pinned members alone already share cachelines "
			"between classes that must be apart");
		break;
	case LL_SUGGEST_NOTE_UNION:
		sb_addf(out, "members of a union all start at offset 0: no order changes where they "
			"land");
		break;
	case LL_SUGGEST_NOTE_NOT_EXHAUSTIVE:
		sb_addf(out, "no finding-free order was found, but the search was not exhaustive "
			"(%zu units); the findings left may be avoidable", n->units);
		break;
	case LL_SUGGEST_NOTE_NO_ROOM:
		sb_addf(out, "cannot be removed: no order of the %zu units (searched exhaustively) "
			"separates every class; pinned members or alignment leave no room", n->units);
		break;
	case LL_SUGGEST_NOTE_PAD_LINE_START:
		sb_addf(out, "%s: starts cacheline %" PRIu64 "; needs ____cacheline_aligned_in_smp "
			"(or an explicit %" PRIu64 "-byte pad before it)", ll_member_label(n->a),
			n->line, n->pad);
		break;
	case LL_SUGGEST_NOTE_PAD_PINNED:
		sb_addf(out, "%s: pinned at offset %" PRIu64 "; needs an explicit %" PRIu64
			"-byte pad before it", ll_member_label(n->a), n->offset, n->pad);
		break;
	case LL_SUGGEST_NOTE_PAD_BITFIELD:
		sb_addf(out, "%s: its bitfield run must start at offset %" PRIu64 " to keep its "
			"storage-unit layout; needs an explicit %" PRIu64 "-byte pad before it",
			ll_member_label(n->a), n->offset, n->pad);
		break;
	case LL_SUGGEST_NOTE_PAD:
		sb_addf(out, "%s: needs an explicit %" PRIu64 "-byte pad before it",
			ll_member_label(n->a), n->pad);
		break;
	case LL_SUGGEST_NOTE_ALIGNED_SIZE:
		sb_addf(out, "with ____cacheline_aligned_in_smp instead of pads the struct becomes "
			"%" PRIu64 "-byte aligned and its size rounds up to %" PRIu64, n->cacheline,
			n->size);
		break;
	case LL_SUGGEST_NOTE_INNER_LEVEL:
		sb_addf(out, "members are reordered inside the anonymous struct at offset %" PRIu64,
			n->offset);
		break;
	case LL_SUGGEST_NOTE_NO_SMALL_FIX:
		sb_addf(out, "no order moving at most %zu member%s from the reference's removes "
			"every new finding%s: this is the whole re-layout", n->units,
			n->units == 1 ? "" : "s", n->bounded ? " (search bounded)" : "");
		break;
	}
}

void ll_gate_pairs_json(struct json_writer *w, const struct ll_finding *f,
			const struct ll_gate_mark *m)
{
	const char *a = NULL, *b = NULL;
	size_t n = ll_finding_gate_pairs(f, 0, &a, &b);

	jw_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		if (m && !m->pair_new[i])
			continue;
		ll_finding_gate_pairs(f, i, &a, &b);
		jw_begin_array(w);
		jw_string(w, a);
		if (b)
			jw_string(w, b);
		jw_end_array(w);
	}
	jw_end_array(w);
}
