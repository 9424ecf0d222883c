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
static void drop_trailing_zeros(char *num)
{
	char *end = num + strlen(num);

	if (!strchr(num, '.'))
		return;
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		end[-1] = '\0';
}

void ll_percent_describe(double percent, struct strbuf *out)
{
	char num[32];
	int decimals = 0;

	if (!(percent > 0)) {
		sb_adds(out, "0%");
		return;
	}
	if (percent >= 100) {
		sb_adds(out, "100%");
		return;
	}
	if (percent < 0.0001) {
		sb_adds(out, "<0.0001%");
		return;
	}
	for (double p = percent; p < 10 && decimals < 4; p *= 10)
		decimals++;
	snprintf(num, sizeof(num), "%.*f", decimals, percent);
	if (strtod(num, NULL) >= 100) {	/* 99.5 and up: one decimal, or ">99.9" */
		if (percent >= 99.95) {
			sb_adds(out, ">99.9%");
			return;
		}
		snprintf(num, sizeof(num), "%.1f", percent);
	}
	drop_trailing_zeros(num);
	sb_addf(out, "%s%%", num);
}
