// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=patch: each suggestion as a unified diff of its declaring
 * header (source/srcpatch.c maps and rewrites the declarations), with a
 * summary git apply skips; a struct with no patch gets one note on stderr.
 */
#include "report/report.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/describe.h"
#include "solver/suggest.h"
#include "source/srcpatch.h"
#include "util/diag.h"

/* Length of a leading "FILE:LINE: " in WHY, 0 if it has none. */
static size_t location_prefix(const char *why)
{
	const char *colon = strchr(why, ':');
	size_t n;

	if (!colon || colon == why || memchr(why, ' ', (size_t)(colon - why)))
		return 0;
	n = strspn(colon + 1, "0123456789");
	if (!n || strncmp(colon + 1 + n, ": ", 2) != 0)
		return 0;
	return (size_t)(colon - why) + 1 + n + 2;
}

/*
 * One line on stderr for a struct that gets no hunk, and why, located
 * where the reason is (a member's line) or else at the struct.
 */
static void no_patch(const struct ll_linted *l, const char *why)
{
	const struct ll_struct *s = l->layout;
	size_t loc = location_prefix(why);
	struct strbuf self = STRBUF_INIT;
	const char *rest = why + loc;

	sb_addf(&self, "%s %s: ", ll_kind_name(s->kind), s->name);
	if (strncmp(rest, self.buf, self.len) == 0)
		rest += self.len;
	if (loc)
		ll_linef("%.*s: note: %s %s: no patch: %s", (int)(loc - 2), why,
			 ll_kind_name(s->kind), s->name, rest);
	else if (s->decl.file)
		ll_linef("%s:%u: note: %s %s: no patch: %s", s->decl.file, s->decl.line,
			 ll_kind_name(s->kind), s->name, rest);
	else
		ll_notef("%s %s: no patch: %s", ll_kind_name(s->kind), s->name, rest);
	sb_release(&self);
}

/* The summary's line for an assert left out: what makes the member's offset config-dependent. */
static void skipped_assert(const struct ll_source *src, const struct ll_assert_skip *sk,
			   struct strbuf *out)
{
	const char *name = ll_member_label(sk->member);

	sb_addf(out, "layoutlint:   no static_assert for %s: ", name);
	switch (sk->why) {
	case LL_ASSERT_SIZE_VARIES:
		sb_addf(out, "%s before it has a %s, whose size depends on the configuration "
			"(lock debugging, lockdep, PREEMPT_RT)\n", ll_member_label(sk->cause),
			sk->cause_type);
		break;
	case LL_ASSERT_AFTER_IF:
		if (sk->cause)
			sb_addf(out, "%s before it is declared under #if (%s:%u), absent in other "
				"configurations\n", ll_member_label(sk->cause), ll_source_path(src),
				sk->line);
		else
			sb_addf(out, "the #if run before it (%s:%u) declares members in other "
				"configurations\n", ll_source_path(src), sk->line);
		break;
	case LL_ASSERT_UNDER_IF:
		sb_addf(out, "it is declared under #if (%s:%u), absent in other configurations\n",
			ll_source_path(src), sk->line);
		break;
	}
}

/* What the smallest fix moved, and the findings it leaves (the reference had them). */
/* A smallest fix that found none: why, as the solver's last note says it. */
static void no_smallest_fix(const struct ll_suggestion *sg, struct strbuf *out)
{
	sb_adds(out, "layoutlint:   no smallest fix: ");
	if (sg->nr_notes)
		ll_suggest_note_describe(&sg->notes[sg->nr_notes - 1], out);
	else
		sb_adds(out, "the whole re-layout");
	sb_addc(out, '\n');
}

static void smallest_fix_summary(const struct ll_suggestion *sg, struct strbuf *out)
{
	const char *sep = "";

	sb_addf(out, "layoutlint:   smallest fix: %zu member%s moved (", sg->moved,
		sg->moved == 1 ? "" : "s");
	for (size_t m = 0; m < sg->n; m++) {
		if (sg->members[m].moved) {
			sb_addf(out, "%s%s", sep, ll_member_label(sg->members[m].m));
			sep = " ";
		}
	}
	sb_addf(out, "), %zu new finding%s -> %zu; --relayout proposes the whole re-layout\n",
		sg->new_before, sg->new_before == 1 ? "" : "s", sg->new_after);
	for (size_t k = 0; k < sg->nr_left; k++)
		sb_addf(out, "layoutlint:   leaves (already in the reference): %s\n", sg->left[k]);
}

/* Whether A and B put the members in the same order (paths compared, pads aside). */
static bool same_order(const struct ll_suggestion *a, const struct ll_suggestion *b)
{
	if (a->n != b->n)
		return false;
	for (size_t m = 0; m < a->n; m++) {
		const char *x = a->members[m].m->path, *y = b->members[m].m->path;

		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0) ||
		    a->members[m].line_start != b->members[m].line_start)
			return false;
	}
	return true;
}

static const char *binary_of(const struct ll_run *run, const struct ll_linted *l)
{
	return l->binary ? l->binary : run->binary_path;
}

/*
 * --binary: the other binaries' copies of the declaration C just patched
 * (same header and line) are the same source; one hunk serves them all. Where
 * one of them would order the members otherwise, say so: the patch is C's.
 */
static void same_declaration(const struct ll_run *run, const struct ll_linted *c, bool *done,
			     struct strbuf *out)
{
	for (size_t k = 0; k < run->nr_structs; k++) {
		const struct ll_linted *o = &run->structs[k];

		if (done[k] || o == c || !o->source || !o->suggestion ||
		    o->layout->kind != c->layout->kind ||
		    strcmp(o->layout->name ? o->layout->name : "",
			   c->layout->name ? c->layout->name : "") != 0 ||
		    strcmp(ll_source_path(o->source), ll_source_path(c->source)) != 0 ||
		    ll_source_line(o->source) != ll_source_line(c->source))
			continue;
		done[k] = true;
		if (o->suggestion->changed && same_order(o->suggestion, c->suggestion))
			continue;
		sb_addf(out, "layoutlint:   %s would order it otherwise%s; this patch is %s's "
			"(one source: lint each binary alone to see its own)\n", binary_of(run, o),
			o->suggestion->changed ? "" : " (it keeps the current order)",
			binary_of(run, c));
	}
}

/*
 * --format=patch: a summary line per struct (git apply skips text before
 * the first diff), then one diff per file, its hunks in line order.
 */
void ll_report_patch(const struct ll_run *run, bool asserts, struct strbuf *out)
{
	struct ll_patch_opts po = { .asserts = asserts };
	struct strbuf diffs = STRBUF_INIT, why = STRBUF_INIT;
	bool *done = xcalloc(run->nr_structs ? run->nr_structs : 1, sizeof(*done));

	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];

		if (!l->suggestion || done[i])
			continue;
		if (!l->source) {
			no_patch(l, l->no_patch ? l->no_patch : "no source");
			continue;
		}
		if (!l->suggestion->changed) {
			no_patch(l, l->suggestion->smallest_fix && !l->suggestion->new_before ?
				 "no finding the reference lacks: nothing to fix (--relayout proposes "
				 "the whole re-layout)" : "the proposal is the current order");
			continue;
		}
		/* Every struct of this file, in line order: one diff, hunks in sequence. */
		const char *path = ll_source_path(l->source);
		struct strbuf hunks = STRBUF_INIT;
		long delta = 0;

		for (;;) {
			size_t pick = SIZE_MAX;

			for (size_t k = i; k < run->nr_structs; k++) {
				const struct ll_linted *c = &run->structs[k];

				if (done[k] || !c->source || !c->suggestion || !c->suggestion->changed ||
				    strcmp(ll_source_path(c->source), path) != 0)
					continue;
				if (pick == SIZE_MAX ||
				    ll_source_line(c->source) < ll_source_line(run->structs[pick].source))
					pick = k;
			}
			if (pick == SIZE_MAX)
				break;
			done[pick] = true;
			const struct ll_linted *c = &run->structs[pick];
			const struct ll_suggestion *sg = c->suggestion;
			struct ll_assert_skips skips = { 0 };
			unsigned start;
			long nd = delta;
			int rc;

			po.skipped = &skips;
			rc = ll_source_hunk(c->source, sg, &po, delta, &hunks, &start, &nd, &why);
			if (rc < 0) {
				no_patch(c, why.buf);
				ll_assert_skips_release(&skips);
				continue;
			}
			if (rc > 0) {
				no_patch(c, "the proposal is the current order");
				ll_assert_skips_release(&skips);
				continue;
			}
			delta = nd;
			sb_addf(out, "layoutlint: %s %s (%s:%u): %zu finding%s -> %zu, %" PRIu64
				" -> %" PRIu64 " cachelines, %" PRIu64 " -> %" PRIu64 " bytes\n",
				ll_kind_name(c->layout->kind), c->layout->name, path,
				ll_source_line(c->source), sg->before_findings,
				sg->before_findings == 1 ? "" : "s", sg->findings,
				sg->before_cachelines, sg->cachelines, sg->before_size,
				ll_source_patched_size(c->source, sg));
			/* What the rebuilt binary must show, for review and for tests. */
			sb_adds(out, "layoutlint:   offsets:");
			for (size_t m = 0; m < sg->n; m++) {
				const struct ll_suggested_member *sm = &sg->members[m];

				if (sm->m->path && !sm->m->is_bitfield)
					sb_addf(out, " %s@%" PRIu64, sm->m->path, sm->offset);
			}
			sb_addc(out, '\n');
			if (sg->smallest_fix && sg->fix_found)
				smallest_fix_summary(sg, out);
			else if (sg->smallest_fix)
				no_smallest_fix(sg, out);
			if (asserts && skips.randomized_line)
				sb_addf(out, "layoutlint:   %s %s is __randomize_layout (%s:%u): its "
					"asserts are under #ifndef CONFIG_RANDSTRUCT\n",
					ll_kind_name(c->layout->kind), c->layout->name, path,
					skips.randomized_line);
			for (size_t k = 0; asserts && k < skips.n; k++)
				skipped_assert(c->source, &skips.v[k], out);
			ll_assert_skips_release(&skips);
			same_declaration(run, c, done, out);
		}
		if (hunks.len)
			sb_addf(&diffs, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s", path, path,
				path, path, hunks.buf);
		sb_release(&hunks);
	}
	if (out->len && diffs.len)
		sb_addc(out, '\n');
	sb_add(out, diffs.buf ? diffs.buf : "", diffs.len);
	sb_release(&diffs);
	sb_release(&why);
	free(done);
}
