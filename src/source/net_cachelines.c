// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net_cachelines tables and the macros they name: see net_cachelines.h.
 */
#include "source/net_cachelines.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/c_macro.h"
#include "util/dir_names.h"
#include "util/read_file.h"
#include "util/strbuf.h"

#define MAX_DOC_FILE ((size_t)16 << 20)
#define MAX_HEADER ((size_t)16 << 20)
#define TABLES_DIR "Documentation/networking/net_cachelines"

/* The next word of LINE at *P (blanks skipped): its start and length; 0 at the end. */
static size_t word(const char *line, size_t len, size_t *p, size_t *start)
{
	size_t i = *p;

	while (i < len && isspace((unsigned char)line[i]))
		i++;
	*start = i;
	while (i < len && !isspace((unsigned char)line[i]))
		i++;
	*p = i;
	return i - *start;
}

static bool rule_line(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)line[i]))
		i++;
	if (i == len || (line[i] != '=' && line[i] != '-'))
		return false;
	for (; i < len; i++)
		if (line[i] != '=' && line[i] != '-' && !isspace((unsigned char)line[i]))
			return false;
	return true;
}

/* "name[16]" -> "name", "flag:1" -> "flag". */
static char *clean_name(const char *w, size_t n)
{
	size_t k = 0;

	while (k < n && w[k] != '[' && w[k] != ':')
		k++;
	return strndup(w, k);
}

void ll_doc_table_parse(const char *file, char *text, size_t len, struct ll_doc_tables *out)
{
	struct ll_doc_table *t;
	unsigned line = 0;
	bool in_table = false;

	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	t = &out->v[out->n++];
	memset(t, 0, sizeof(*t));
	t->file = xstrdup(file);
	t->text = text;
	t->len = len;
	for (size_t at = 0; at < len;) {
		const char *l = text + at;
		const char *nl = memchr(l, '\n', len - at);
		size_t n = nl ? (size_t)(nl - l) : len - at, p = 0, s1, s2;
		size_t w1, w2;

		at += n + 1;
		line++;
		w1 = word(l, n, &p, &s1);
		if (!w1 || rule_line(l, n))
			continue;
		w2 = word(l, n, &p, &s2);
		if (!in_table) {
			/* The header: "Type  Name  fastpath_tx_access ...". */
			if (w1 == 4 && strncmp(l + s1, "Type", 4) == 0 && w2 == 4 &&
			    strncmp(l + s2, "Name", 4) == 0) {
				size_t s3;

				in_table = true;
				t->header_line = line;
				t->name_column = (unsigned)s2;
				if (word(l, n, &p, &s3))
					t->access_column = (unsigned)s3;
			}
			continue;
		}
		if (w1 >= 2 && l[s1] == '.' && l[s1 + 1] == '.') {
			/* "..struct ..tcp_sock": the struct the table is of. */
			if (!t->struct_name && w1 == 8 && strncmp(l + s1, "..struct", 8) == 0 &&
			    w2 > 2 && l[s2] == '.' && l[s2 + 1] == '.') {
				t->struct_name = strndup(l + s2 + 2, w2 - 2);
				t->struct_line = line;
			}
			continue;
		}
		if (!w2 || l[s1] == '.')
			continue;	/* an RST comment, or a row without a name */
		t->rows = xgrow(t->rows, t->nr_rows, sizeof(*t->rows));
		t->rows[t->nr_rows++] = (struct ll_doc_row){
			.line = line,
			.type = strndup(l + s1, w1),
			.name = clean_name(l + s2, w2),
		};
	}
}

int ll_doc_table_read(const char *path, const char *file, struct ll_doc_tables *out,
		      struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	int why;

	if (ll_read_regular(path, MAX_DOC_FILE, &text, &why))
		return ll_fail(err, "--net-cachelines %s: %s", path,
			       ll_read_error_text(why, MAX_DOC_FILE));
	if (text.buf && memchr(text.buf, '\0', text.len)) {
		sb_release(&text);
		return ll_fail(err, "--net-cachelines %s: a NUL byte: not a text file", path);
	}
	size_t len = text.len;

	ll_doc_table_parse(file, sb_detach(&text), len, out);
	out->v[out->n - 1].path = xstrdup(path);
	return 0;
}

int ll_doc_tables_find(const char *srcdir, struct ll_doc_tables *out, struct ll_error *err)
{
	struct strbuf dir = STRBUF_INIT;
	char **names;
	size_t n;
	int rc = 0;

	sb_addf(&dir, "%s/%s", srcdir, TABLES_DIR);
	if (ll_dir_names(dir.buf, &names, &n)) {
		sb_release(&dir);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct strbuf path = STRBUF_INIT, file = STRBUF_INIT;
		size_t len = strlen(names[i]);

		if (len <= 4 || strcmp(names[i] + len - 4, ".rst") != 0)
			continue;
		sb_addf(&path, "%s/%s", dir.buf, names[i]);
		sb_addf(&file, "%s/%s", TABLES_DIR, names[i]);
		if (!rc)
			rc = ll_doc_table_read(path.buf, file.buf, out, err);
		sb_release(&path);
		sb_release(&file);
	}
	ll_strv_free(names, n);
	sb_release(&dir);
	return rc;
}


void ll_doc_table_macros(struct ll_doc_table *t, const char *srcdir, const char *header)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int why;

	if (!srcdir || !header)
		return;
	if (header[0] == '/')
		sb_adds(&path, header);
	else
		sb_addf(&path, "%s/%s", srcdir, header);
	if (ll_read_regular(path.buf, MAX_HEADER, &text, &why) == 0 && text.buf &&
	    !memchr(text.buf, '\0', text.len)) {
		for (size_t r = 0; r < t->nr_rows; r++) {
			free(t->rows[r].macro_path);
			t->rows[r].macro_path = ll_macro_member_path(text.buf, t->rows[r].name);
		}
	}
	sb_release(&path);
	sb_release(&text);
}
