// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-image table of a run of several binaries, and the verdict of
 * every kernel group assert on each (checks/contracts.h), in text and JSON.
 * The numbers are precomputed; this file only lays them out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "checks/contracts.h"
#include "report/report.h"
#include "util/json_writer.h"

static void row_label(struct strbuf *sb, const struct ll_image_row *r)
{
	if (r->group) {
		sb_adds(sb, "  group ");
		sb_add_escaped(sb, r->group);
	} else {
		sb_addf(sb, "%s ", ll_kind_name(r->kind));
		sb_add_escaped(sb, r->struct_name);
	}
}

static void row_cell(struct strbuf *sb, const struct ll_image_row *r, size_t k)
{
	if (!r->present[k]) {
		sb_adds(sb, "-");
		return;
	}
	sb_addf(sb, "%" PRIu64 "B %" PRIu64 "L", r->size[k], r->lines[k]);
	if (!r->group)
		sb_addf(sb, " %zuF", r->findings[k]);
}

static void assert_label(struct strbuf *sb, const struct ll_assert_result *r)
{
	const struct ll_group_assert *a = r->a;

	sb_add_escaped(sb, a->decl.file);
	sb_addf(sb, ":%u %s ", a->decl.line, a->kind == LL_ASSERT_SIZE ? "SIZE" : "MEMBER");
	sb_add_escaped(sb, a->group);
	sb_adds(sb, a->kind == LL_ASSERT_SIZE ? " <= " : " has ");
	sb_add_escaped(sb, a->kind == LL_ASSERT_SIZE ? a->size_text : a->member);
}

static bool assert_differs(const struct ll_assert_result *r, size_t n)
{
	for (size_t k = 1; k < n; k++)
		if (r->verdict[k] != r->verdict[0] ||
		    (r->a->kind == LL_ASSERT_SIZE && r->group_size[k] != r->group_size[0]))
			return true;
	return false;
}

static void assert_cell(struct strbuf *sb, const struct ll_assert_result *r, size_t k)
{
	sb_adds(sb, ll_assert_verdict_name(r->verdict[k]));
	if (r->a->kind == LL_ASSERT_SIZE &&
	    (r->verdict[k] == LL_ASSERT_HOLDS || r->verdict[k] == LL_ASSERT_FAILS ||
	     r->verdict[k] == LL_ASSERT_UNKNOWN))
		sb_addf(sb, " %" PRIu64, r->group_size[k]);
}

/* One table: LABELS[i] then the N cells of row i, padded to columns. */
static void table(struct strbuf *out, struct strbuf *labels, struct strbuf *cells, bool *differs,
		  size_t rows, size_t n)
{
	size_t lw = 0, cw = 3;

	for (size_t i = 0; i < rows; i++) {
		if (labels[i].len > lw)
			lw = labels[i].len;
		for (size_t k = 0; k < n; k++)
			if (cells[i * n + k].len > cw)
				cw = cells[i * n + k].len;
	}
	sb_addf(out, "  %-*s", (int)lw, "");
	for (size_t k = 0; k < n; k++)
		sb_addf(out, "  [%zu]%*s", k + 1, (int)(cw - 3 - (k + 1 >= 10)), "");
	sb_addc(out, '\n');
	for (size_t i = 0; i < rows; i++) {
		sb_addf(out, "%c %-*s", differs[i] ? '*' : ' ', (int)lw,
			labels[i].buf ? labels[i].buf : "");
		for (size_t k = 0; k < n; k++)
			sb_addf(out, "  %-*s", (int)cw,
				cells[i * n + k].buf ? cells[i * n + k].buf : "");
		sb_addc(out, '\n');
	}
}

/*
 * One binary: the listing already shows its groups, so only a count of the
 * asserts' verdicts and the asserts that do not hold (or are stale).
 */
static void one_binary(const struct ll_contracts *c, struct strbuf *out)
{
	size_t count[LL_ASSERT_UNKNOWN + 1] = { 0 }, stale = 0;
	size_t files = c->asserts ? c->asserts->files_scanned : 0;

	for (size_t i = 0; i < c->nr_results; i++) {
		count[c->results[i].verdict[0]]++;
		stale += c->results[i].stale;
	}
	sb_addf(out, "group asserts: %zu evaluated (from a scan of %zu file%s under --srcdir): "
		"%zu hold, %zu fail, %zu stale, %zu unknown, %zu name no group or member\n",
		c->nr_results, files, files == 1 ? "" : "s", count[LL_ASSERT_HOLDS],
		count[LL_ASSERT_FAILS], stale, count[LL_ASSERT_UNKNOWN], count[LL_ASSERT_NO_GROUP]);
	for (size_t i = 0; i < c->nr_results; i++) {
		const struct ll_assert_result *r = &c->results[i];
		struct strbuf line = STRBUF_INIT;

		if (r->verdict[0] == LL_ASSERT_HOLDS && !r->stale)
			continue;
		sb_adds(&line, "  ");
		assert_label(&line, r);
		sb_adds(&line, ": ");
		assert_cell(&line, r, 0);
		if (r->stale)
			sb_addf(&line, " (stale: %" PRIu64 ")", r->max_size);
		sb_addf(out, "%s\n", line.buf);
		sb_release(&line);
	}
}

void ll_report_contracts_text(const struct ll_contracts *c, struct strbuf *out)
{
	size_t n = c->nr_images, rows = c->nr_rows + c->nr_results;
	struct strbuf *labels = xcalloc(rows ? rows : 1, sizeof(*labels));
	struct strbuf *cells = xcalloc((rows ? rows : 1) * (n ? n : 1), sizeof(*cells));
	bool *differs = xcalloc(rows ? rows : 1, sizeof(*differs));

	if (n == 1) {
		one_binary(c, out);
		free(labels);
		free(cells);
		free(differs);
		return;
	}
	sb_addf(out, "layout on %zu binar%s (B bytes, L cachelines touched, F findings; "
		"* the binaries differ):\n", n, n == 1 ? "y" : "ies");
	for (size_t k = 0; k < n; k++) {
		sb_addf(out, "  [%zu] ", k + 1);
		sb_add_escaped(out, c->images[k]);
		sb_addc(out, '\n');
	}
	for (size_t i = 0; i < c->nr_rows; i++) {
		row_label(&labels[i], &c->rows[i]);
		differs[i] = c->rows[i].differs;
		for (size_t k = 0; k < n; k++)
			row_cell(&cells[i * n + k], &c->rows[i], k);
	}
	table(out, labels, cells, differs, c->nr_rows, n);
	if (c->nr_results) {
		size_t base = c->nr_rows;

		size_t files = c->asserts ? c->asserts->files_scanned : 0;

		sb_addf(out, "group asserts (%zu, from a scan of %zu file%s under --srcdir):\n",
			c->nr_results, files, files == 1 ? "" : "s");
		for (size_t i = 0; i < c->nr_results; i++) {
			const struct ll_assert_result *r = &c->results[i];

			assert_label(&labels[base + i], r);
			if (r->stale)
				sb_addf(&labels[base + i], " (stale: %" PRIu64 ")", r->max_size);
			differs[base + i] = assert_differs(r, n);
			for (size_t k = 0; k < n; k++)
				assert_cell(&cells[(base + i) * n + k], r, k);
		}
		table(out, labels + base, cells + base * n, differs + base, c->nr_results, n);
	}
	for (size_t i = 0; i < rows; i++) {
		sb_release(&labels[i]);
		for (size_t k = 0; k < n; k++)
			sb_release(&cells[i * n + k]);
	}
	free(labels);
	free(cells);
	free(differs);
}

void ll_report_contracts_json(struct json_writer *w, const struct ll_contracts *c)
{
	size_t n = c->nr_images;

	jw_begin_object(w);
	jw_kbegin_array(w, "binaries");
	for (size_t k = 0; k < n; k++)
		jw_string(w, c->images[k]);
	jw_end_array(w);
	jw_kbegin_array(w, "rows");
	for (size_t i = 0; i < c->nr_rows; i++) {
		const struct ll_image_row *r = &c->rows[i];

		jw_begin_object(w);
		jw_kstring(w, "kind", ll_kind_name(r->kind));
		jw_kstring(w, "struct", r->struct_name);
		jw_kstring(w, "group", r->group);
		jw_kbool(w, "differs", r->differs);
		jw_kbegin_array(w, "per_binary");
		for (size_t k = 0; k < n; k++) {
			if (!r->present[k]) {
				jw_null(w);
				continue;
			}
			jw_begin_object(w);
			jw_kuint(w, "size", r->size[k]);
			jw_kuint(w, "lines", r->lines[k]);
			jw_kuint(w, "cacheline", r->cacheline[k]);
			if (!r->group)
				jw_kuint(w, "findings", r->findings[k]);
			jw_end_object(w);
		}
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_kbegin_array(w, "asserts");
	for (size_t i = 0; i < c->nr_results; i++) {
		const struct ll_assert_result *r = &c->results[i];
		const struct ll_group_assert *a = r->a;

		jw_begin_object(w);
		jw_kstring(w, "file", a->decl.file);
		jw_kuint(w, "line", a->decl.line);
		jw_kstring(w, "macro", a->kind == LL_ASSERT_SIZE ? "CACHELINE_ASSERT_GROUP_SIZE" :
				       "CACHELINE_ASSERT_GROUP_MEMBER");
		jw_kstring(w, "kind", ll_kind_name(a->struct_kind));
		jw_kstring(w, "struct", a->struct_name);
		jw_kstring(w, "group", a->group);
		if (a->kind == LL_ASSERT_SIZE) {
			jw_kstring(w, "size_text", a->size_text);
			if (a->size_known)
				jw_kuint(w, "size", a->size);
			else
				jw_knull(w, "size");
			jw_kuint(w, "max_group_size", r->max_size);
			jw_kuint(w, "alignment_unit", r->unit);
			jw_kbool(w, "stale", r->stale);
		} else {
			jw_kstring(w, "member", a->member);
		}
		jw_kbegin_array(w, "per_binary");
		for (size_t k = 0; k < n; k++) {
			jw_begin_object(w);
			jw_kstring(w, "verdict", ll_assert_verdict_name(r->verdict[k]));
			if (r->verdict[k] != LL_ASSERT_ABSENT && r->verdict[k] != LL_ASSERT_NO_GROUP)
				jw_kuint(w, "group_size", r->group_size[k]);
			jw_end_object(w);
		}
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

/* Text already safe for a terminal (sb_add_escaped), made safe for HTML too. */
static void html_text(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sb_adds(out, "&amp;"); break;
		case '<': sb_adds(out, "&lt;"); break;
		case '>': sb_adds(out, "&gt;"); break;
		case '"': sb_adds(out, "&quot;"); break;
		default: sb_addc(out, *s);
		}
	}
}

static void html_row(struct strbuf *out, bool differs, const struct strbuf *label,
		     const struct strbuf *cells, size_t n)
{
	sb_addf(out, "<tr%s><th scope=\"row\">", differs ? " class=\"differs\"" : "");
	html_text(out, label->buf);
	sb_adds(out, "</th>");
	for (size_t k = 0; k < n; k++) {
		sb_adds(out, "<td>");
		html_text(out, cells[k].buf);
		sb_adds(out, "</td>");
	}
	sb_adds(out, "</tr>\n");
}

void ll_report_contracts_html(const struct ll_contracts *c, struct strbuf *out)
{
	size_t n = c->nr_images;
	struct strbuf label = STRBUF_INIT, *cells = xcalloc(n ? n : 1, sizeof(*cells));

	sb_adds(out, "<section class=\"contracts\"><h2>Layout on each binary</h2>\n"
		"<table class=\"contracts\"><caption>B bytes, L cachelines touched, F findings; "
		"rows marked &#x2731; differ between the binaries</caption>\n<tr><th></th>");
	for (size_t k = 0; k < n; k++) {
		struct strbuf path = STRBUF_INIT;

		sb_add_escaped(&path, c->images[k]);
		sb_addf(out, "<th scope=\"col\">[%zu] ", k + 1);
		html_text(out, path.buf);
		sb_adds(out, "</th>");
		sb_release(&path);
	}
	sb_adds(out, "</tr>\n");
	for (size_t i = 0; i < c->nr_rows + c->nr_results; i++) {
		bool differs;

		if (i < c->nr_rows) {
			row_label(&label, &c->rows[i]);
			differs = c->rows[i].differs;
			for (size_t k = 0; k < n; k++)
				row_cell(&cells[k], &c->rows[i], k);
		} else {
			const struct ll_assert_result *r = &c->results[i - c->nr_rows];

			assert_label(&label, r);
			if (r->stale)
				sb_addf(&label, " (stale: %" PRIu64 ")", r->max_size);
			differs = assert_differs(r, n);
			for (size_t k = 0; k < n; k++)
				assert_cell(&cells[k], r, k);
		}
		if (differs) {
			struct strbuf marked = STRBUF_INIT;

			sb_addf(&marked, "* %s", label.buf ? label.buf : "");
			html_row(out, true, &marked, cells, n);
			sb_release(&marked);
		} else {
			html_row(out, false, &label, cells, n);
		}
		sb_release(&label);
		for (size_t k = 0; k < n; k++)
			sb_release(&cells[k]);
	}
	sb_adds(out, "</table></section>\n");
	free(cells);
}
