// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --write-net-cachelines: a net_cachelines table as the image has it, from
 * the plan doc-drift made (checks/docdrift.h). The file is copied line by
 * line, in its own format and order; rows that name nothing are left out;
 * a member no row lists gets a new row after the row of the member
 * declared before it (after the "..struct" row when none is), its type
 * spelt as the tables spell types (struct_sock*, unsigned_long:1), its
 * access columns empty, as the tables leave a member nobody measured.
 */
#include <string.h>

#include "checks/docdrift.h"
#include "report/report.h"

/* "struct sock *" -> "struct_sock*", "char[16]" -> "char" with "[16]" for the name. */
static void table_type(struct strbuf *type, struct strbuf *suffix, const struct ll_member *m)
{
	const char *t = m->type ? m->type : "?";
	const char *bracket = strchr(t, '[');
	size_t n = bracket ? (size_t)(bracket - t) : strlen(t);
	bool blank = false;

	for (size_t i = 0; i < n; i++) {
		if (t[i] == ' ') {
			blank = type->len > 0;
			continue;
		}
		if (blank && t[i] != '*')
			sb_addc(type, '_');
		blank = false;
		sb_addc(type, t[i]);
	}
	if (m->is_bitfield)
		sb_addf(type, ":%llu", (unsigned long long)m->bit_size);
	if (bracket)
		sb_adds(suffix, bracket);
}

static void new_row(struct strbuf *out, const struct ll_doc_table *t, const struct ll_member *m)
{
	struct strbuf type = STRBUF_INIT, suffix = STRBUF_INIT;
	size_t start = out->len;

	table_type(&type, &suffix, m);
	sb_add_escaped(out, type.buf ? type.buf : "");
	do
		sb_addc(out, ' ');
	while (out->len - start < t->name_column);
	sb_add_escaped(out, m->name);
	sb_add_escaped(out, suffix.buf ? suffix.buf : "");
	sb_addc(out, '\n');
	sb_release(&type);
	sb_release(&suffix);
}

static void additions(struct strbuf *out, const struct ll_doc_plan *p, size_t after)
{
	for (size_t i = 0; i < p->nr_add; i++)
		if (p->add[i].after_row == after)
			new_row(out, p->table, p->add[i].m);
}

void ll_report_net_cachelines(const struct ll_doc_plan *p, struct strbuf *out)
{
	const struct ll_doc_table *t = p->table;
	unsigned line = 0;
	size_t row = 0;

	for (size_t at = 0; at < t->len;) {
		const char *l = t->text + at;
		const char *nl = memchr(l, '\n', t->len - at);
		size_t n = nl ? (size_t)(nl - l) + 1 : t->len - at;
		bool dropped = false;

		at += n;
		line++;
		while (row < t->nr_rows && t->rows[row].line < line)
			row++;
		if (row < t->nr_rows && t->rows[row].line == line)
			dropped = p->drop[row];
		if (!dropped)
			sb_add(out, l, n);
		if (!nl && !dropped)
			sb_addc(out, '\n');
		if (line == t->struct_line)
			additions(out, p, 0);
		if (row < t->nr_rows && t->rows[row].line == line)
			additions(out, p, row + 1);
	}
}
