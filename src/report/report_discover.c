// SPDX-License-Identifier: GPL-2.0-or-later
/* The discovery commands' text: --list rows, --contains matches, --audit rows (checks/discover.h). */
#include "report/report.h"

#include <inttypes.h>

#include "checks/discover.h"
#include "model/units.h"

void ll_report_list_header(struct strbuf *out)
{
	sb_addf(out, "%-6s %-40s %7s %4s %5s  %s\n", "kind", "name", "size", "lines", "holes",
		"declared at");
}

void ll_report_list_row(const struct ll_struct *s, size_t holes, struct strbuf *out)
{
	sb_addf(out, "%-6s %-40s %7" PRIu64 " %4" PRIu64 " %5zu  ", ll_kind_name(s->kind), s->name,
		s->size, ll_struct_lines(s), holes);
	if (s->decl.file)
		sb_addf(out, "%s:%u", s->decl.file, s->decl.line);
	sb_addc(out, '\n');
}

void ll_report_list_unlaid(const char *name, bool ambiguous, const char *why, struct strbuf *out)
{
	struct strbuf escaped = STRBUF_INIT;

	sb_add_escaped(&escaped, name);
	sb_addf(out, "%-6s %-40s  (%s: %s)\n", "?", escaped.buf,
		ambiguous ? "distinct definitions" : "not laid out", why);
	sb_release(&escaped);
}

void ll_report_contains(const struct ll_struct *s, const struct ll_member *const *found, size_t n,
			struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = found[i];

		sb_addf(out, "%s %s: %s %s at offset %" PRIu64 " (line %" PRIu64 " +%" PRIu64
			"), %" PRIu64 " bytes\n", ll_kind_name(s->kind), s->name, m->type, m->path,
			m->offset, m->offset / s->cacheline, m->offset % s->cacheline, m->size);
	}
}

void ll_report_audit_header(bool by_code, struct strbuf *out)
{
	if (by_code)
		sb_adds(out, "# static evidence (--access), no rules: lines mixing members the "
			"code updates atomically\n# or stores in several functions with members "
			"many functions load and only\n# constructors store; for global variables, "
			"lock-like ones sharing a line\n# with another file's variables or in a "
			"read-mostly section\n");
	else
		sb_adds(out, "# heuristic, no rules: lines mixing lock-like members "
			"(spinlock_t, atomic_t, refcount_t, struct mutex...)\n# with pointers to "
			"const ops tables; for global variables, lock-like ones sharing a "
			"line\n# with another file's variables or in a read-mostly section; "
			"write rules for what matters\n");
}

/* " a, b": member paths, each after a space, the later ones after a comma. */
static void audit_paths(char *const *paths, size_t n, struct strbuf *out)
{
	for (size_t k = 0; k < n; k++)
		sb_addf(out, "%s %s", k ? "," : "", paths[k]);
}

/* " line 3: f_op with f_lock, f_count": one mixed line of a struct, "; " before all but the first. */
static void audit_line(const struct ll_audit_line *l, bool first, struct strbuf *out)
{
	sb_adds(out, first ? " " : "; ");
	if (l->last > l->first)
		sb_addf(out, "lines %" PRIu64 "-%" PRIu64 ":", l->first, l->last);
	else
		sb_addf(out, "line %" PRIu64 ":", l->first);
	audit_paths(l->paths, l->nr_read_mostly, out);
	sb_adds(out, " with");
	audit_paths(l->paths + l->nr_read_mostly, l->nr_write_hot, out);
}

static void audit_name(const struct ll_audit_name *n, struct strbuf *out)
{
	sb_addf(out, "%s (%s)", n->name, n->file ? n->file : "no declaration");
}

/* One lock-like global variable, on a line of its own, indented under its row. */
static void audit_var(const struct ll_audit_var *v, struct strbuf *out)
{
	sb_addf(out, "\n      line %" PRIu64 " (%#" PRIx64 "): %s ", v->line, v->addr, v->type);
	audit_name(&v->var, out);
	for (size_t k = 0; k < v->nr_shown; k++) {
		sb_adds(out, k ? ", " : " with ");
		audit_name(&v->shown[k], out);
	}
	if (v->nr_strangers > v->nr_shown)
		sb_addf(out, " and %zu more", v->nr_strangers - v->nr_shown);
	if (v->section)
		sb_addf(out, "%s in %s, which is for data written rarely",
			v->nr_strangers ? ";" : "", v->section);
}

void ll_report_audit_row(const char *kind, const char *name, const struct ll_audit *a,
			 struct strbuf *out)
{
	sb_addf(out, "%4zu  %s %s:", a->mixed_lines, kind, name);
	for (size_t i = 0; i < a->nr_lines; i++)
		audit_line(&a->lines[i], i == 0, out);
	for (size_t i = 0; i < a->nr_vars; i++)
		audit_var(&a->vars[i], out);
	sb_addc(out, '\n');
}

void ll_report_audit_unlaid(const char *name, const char *why, struct strbuf *out)
{
	sb_adds(out, "   ?  ");
	sb_add_escaped(out, name);
	sb_addf(out, ": not laid out: %s\n", why);
}
