// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=mail: what a reviewer pastes into a reply on a list. Plain
 * text at 72 columns: a line saying what was compared, then per finding
 * the hunk of --diff it sits in, quoted ("> "), the finding and its notes
 * wrapped, and at the end the fix as --format=patch writes it, never
 * wrapped (a wrapped patch does not apply).
 */
#include "report/report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "gating/change.h"
#include "report/describe.h"

#define MAIL_WIDTH 72
#define QUOTE_CONTEXT 3		/* lines of the hunk quoted either side of the finding's */

/*
 * TEXT word-wrapped at MAIL_WIDTH: the first line after FIRST, the others
 * after INDENT. A word longer than a line stays whole.
 */
static void wrap(struct strbuf *out, const char *first, const char *indent, const char *text)
{
	size_t col = strlen(first);
	bool fresh = true;

	sb_adds(out, first);
	for (const char *p = text; *p;) {
		size_t n;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " ");
		if (!fresh && col + 1 + n > MAIL_WIDTH) {
			sb_addc(out, '\n');
			sb_adds(out, indent);
			col = strlen(indent);
			fresh = true;
		}
		if (!fresh) {
			sb_addc(out, ' ');
			col++;
		}
		sb_add(out, p, n);
		col += n;
		fresh = false;
		p += n;
	}
	sb_addc(out, '\n');
}

static void where(struct strbuf *sb, const struct ll_run *run, const struct ll_linted *l,
		  const struct ll_decl *d)
{
	if (d->file && d->line) {
		sb_add_escaped(sb, d->file);
		sb_addf(sb, ":%u:", d->line);
	} else {
		sb_add_escaped(sb, l->binary ? l->binary : run->binary_path);
		sb_addf(sb, ": %s %s:", ll_kind_name(l->layout->kind), l->layout->name);
	}
}

/*
 * The lines of hunk H around LINE of the new side, quoted: its @@ line,
 * then QUOTE_CONTEXT lines either side (removed lines where they were).
 */
static void quote_hunk(struct strbuf *out, const struct ll_change_hunk *h, unsigned line)
{
	const char *p = h->text, *nl = strchr(p, '\n');
	unsigned at = h->new_start;

	sb_adds(out, "> ");
	sb_add(out, p, (size_t)(nl - p) + 1);
	for (p = nl + 1; *p; p = nl + 1) {
		size_t len;

		nl = strchr(p, '\n');
		len = (size_t)(nl - p);
		if (at + QUOTE_CONTEXT >= line && at <= line + QUOTE_CONTEXT) {
			sb_adds(out, len ? "> " : ">");
			sb_add(out, p, len);
			sb_addc(out, '\n');
		}
		if (len == 0 || p[0] == ' ' || p[0] == '+')
			at++;
	}
}

static void finding(struct strbuf *out, const struct ll_run *run, const struct ll_linted *l,
		    size_t i, const struct ll_change_hunk **quoted)
{
	const struct ll_finding *f = &l->findings.v[i];
	const struct ll_change_hunk *h = NULL;
	struct strbuf sb = STRBUF_INIT, lead = STRBUF_INIT;

	if (run->change && f->location.file)
		h = ll_change_hunk_at(run->change, f->location.file, f->location.line);
	/* Each hunk once, before the first finding in it. */
	if (h && h != *quoted) {
		quote_hunk(out, h, f->location.line);
		sb_addc(out, '\n');
		*quoted = h;
	}
	where(&lead, run, l, &f->location);
	sb_addf(&sb, "%s: %s [%s]", ll_level_name(f->level), f->message, f->rule);
	sb_addc(&lead, ' ');
	wrap(out, lead.buf, "  ", sb.buf);
	for (size_t n = 0; n < f->nr_notes; n++) {
		sb_reset(&lead);
		sb_reset(&sb);
		sb_adds(&lead, "  ");
		where(&lead, run, l, &f->notes[n].decl);
		sb_addf(&sb, "note: %s", f->notes[n].message);
		sb_addc(&lead, ' ');
		wrap(out, lead.buf, "    ", sb.buf);
	}
	if (l->marks && l->marks[i].nr_new < l->marks[i].nr_pairs) {
		sb_reset(&sb);
		sb_adds(&sb, "new since the reference: ");
		ll_gate_describe_new(f, &l->marks[i], &sb);
		wrap(out, "  ", "    ", sb.buf);
	}
	sb_addc(out, '\n');
	sb_release(&sb);
	sb_release(&lead);
}

void ll_report_mail(const struct ll_run *run, bool asserts, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT, patch = STRBUF_INIT;
	const struct ll_change_hunk *quoted = NULL;
	size_t n = 0;

	for (size_t i = 0; i < run->nr_structs; i++)
		n += run->structs[i].findings.n;
	sb_addf(&sb, "layoutlint: %zu %sfinding%s", n, run->gating ? "new " : "", n == 1 ? "" : "s");
	if (run->gating) {
		sb_addf(&sb, " against %s", run->gating->reference);
		if (run->gating->suppressed_findings)
			sb_addf(&sb, " (%zu already there, not shown)",
				run->gating->suppressed_findings);
	}
	if (run->nr_structs)
		sb_adds(&sb, " in");
	for (size_t i = 0; i < run->nr_structs; i++)
		sb_addf(&sb, "%s %s %s", i ? "," : "", ll_kind_name(run->structs[i].layout->kind),
			run->structs[i].layout->name);
	sb_adds(&sb, n ? ":" : ".");
	wrap(out, "", "", sb.buf);
	sb_addc(out, '\n');
	for (size_t i = 0; i < run->nr_structs; i++)
		for (size_t k = 0; k < run->structs[i].findings.n; k++)
			finding(out, run, &run->structs[i], k, &quoted);
	if (n) {
		ll_report_patch(run, asserts, &patch);
		if (patch.len && strstr(patch.buf, "\ndiff --git ")) {
			wrap(out, "", "", "A fix (git apply takes it; the lines before the diff "
			     "say what it changes):");
			sb_addc(out, '\n');
			sb_add(out, patch.buf, patch.len);
		} else {
			wrap(out, "", "", "No fix as a patch (layoutlint said why on stderr).");
		}
	}
	sb_release(&sb);
	sb_release(&patch);
}
