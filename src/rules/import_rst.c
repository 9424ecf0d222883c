// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --import-net-cachelines: Documentation/networking/net_cachelines/ tables to
 * a rules file.
 *
 * Two table formats occur upstream:
 *
 *  - the older whitespace-aligned one (through 6.12 at least): a header line
 *    "Type  Name  fastpath_tx_access  fastpath_rx_access  Comments", then one
 *    row per member, "-" or nothing for no access, and a "..struct ..NAME"
 *    row naming the struct;
 *  - an RST simple table: "=====" rulers around the header and at the end,
 *    empty cells for no access, types written with blanks ("struct
 *    list_head"), the struct named only in the title.
 *
 * Columns come from the ruler (RST) or from where the header's words start
 * (older format), never from splitting a row on blanks: an empty cell would
 * shift every cell after it. Each word of a row goes to the column its
 * first character lies in; the last column takes the rest of the line.
 * Hand-aligned rows of the older format are sometimes one or two characters
 * early ("icsk_keepalive_timer  -" in 6.12), so there a column starts
 * COLUMN_SLACK characters before its header word. RST tables are exact:
 * text in the margin between two columns makes the row malformed, as it
 * would for docutils.
 *
 * Mapping of fastpath_tx_access / fastpath_rx_access:
 *	a write (read_write or write_mostly) on both paths	write-hot:txrx
 *	a write on one path					write-hot:tx / write-hot:rx
 *	otherwise read_mostly on either path			read-mostly
 *	no access ("-" or empty) on both			cold
 * A row that cannot be mapped (no name, a name that is not a C member name
 * or that looks like a type, such as 6.12's "void*priv_destructor
 * struct_net_device", an access word outside those, more than one word in
 * a one-word cell, a member listed twice) is skipped with a warning naming
 * its line, and left in the output as a comment.
 *
 * Members of a nested struct member are written with the Type
 * "struct_X_T" (inet_connection_sock.rst: "struct_icsk_ack_u8 pending" is
 * icsk_ack.pending, a u8): a Type that is "struct_", a member name and a
 * scalar type (with a bit width or array bound) gives the pattern X.NAME.
 */
#include "rules/import_rst.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/c_macro.h"
#include "util/diag.h"
#include "util/dir_names.h"
#include "util/hash.h"
#include "util/read_file.h"
#include "util/slot_table.h"
#include "rules.h"

#define COLUMN_SLACK 2
#define SHARED_DOMAIN "txrx"

enum role { ROLE_OTHER, ROLE_TYPE, ROLE_NAME, ROLE_TX, ROLE_RX, ROLE_COMMENT };

struct column {
	size_t start;		/* first character */
	size_t end;		/* one past the last (RST ruler); SIZE_MAX for the last column */
	enum role role;
};

struct line {
	char *text;		/* tabs expanded to 8-column stops, no newline */
	size_t len;
	unsigned no;		/* 1-based */
};

struct table {
	bool rst;
	struct column *cols;
	size_t nr_cols;
	size_t body_begin, body_end;	/* indexes into the lines */
};

enum access { ACC_NONE, ACC_READ, ACC_WRITE, ACC_BAD };

struct row_out {
	unsigned line;
	char *name;
	char *tag;		/* "read-mostly", "write-hot:tx", ...; NULL: skipped */
	char *comment;		/* the table's comment, or the reason it was skipped */
	bool on_tx, on_rx;	/* the path reads or writes it */
	bool optional;		/* written '?NAME': config-dependent or not in the source */
};

struct import {
	const char *name;	/* for warnings */
	const char *display;	/* for the header */
	struct strbuf *warnings;
	size_t nr_warnings;
	struct row_out *rows;
	size_t nr_rows;
	bool nested;		/* some Type was struct_X_T */
	/*
	 * The tagged rows by name: a slot table over rows[]. A scan of every
	 * earlier row per row made 80,000 rows slow.
	 */
	struct ll_slots by_name;
	const char *header;	/* the struct's header, when the source tree resolved names */
};

static void warn(struct import *im, unsigned line, struct row_out *skipped, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn(struct import *im, unsigned line, struct row_out *skipped, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (im->warnings)
		sb_addf(im->warnings, "%s:%u: warning: %s\n", im->name, line, msg.buf);
	else
		ll_linef("%s:%u: warning: %s", im->name, line, msg.buf);
	im->nr_warnings++;
	if (skipped) {
		free(skipped->comment);
		skipped->comment = sb_detach(&msg);
	}
	sb_release(&msg);
}

/* ---- lines and columns --------------------------------------------------- */

static void split_lines(const char *text, size_t len, struct line **out, size_t *n)
{
	size_t cap = 0;
	unsigned no = 0;

	*out = NULL;
	*n = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = pos; i < end; i++) {
			if (text[i] == '\t') {
				do
					sb_addc(&sb, ' ');
				while (sb.len % 8);
			} else if (text[i] != '\r' || i + 1 != end) {
				sb_addc(&sb, text[i]);
			}
		}
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			sb.buf[--sb.len] = '\0';
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[*n].len = sb.len;
		(*out)[*n].text = sb_detach(&sb);
		(*out)[*n].no = ++no;
		(*n)++;
		pos = end + 1;
	}
}

/* A multi-column RST ruler: only '=' and blanks, at least two runs of '='. */
static bool is_ruler(const struct line *l)
{
	size_t runs = 0;

	if (!l->len)
		return false;
	for (size_t i = 0; i < l->len; i++) {
		if (l->text[i] != '=' && l->text[i] != ' ')
			return false;
		if (l->text[i] == '=' && (i == 0 || l->text[i - 1] == ' '))
			runs++;
	}
	return runs >= 2;
}

static bool is_underline(const struct line *l)
{
	if (l->len < 3)
		return false;
	for (size_t i = 0; i < l->len; i++)
		if (l->text[i] != l->text[0] || !strchr("=-~^*#+", l->text[i]))
			return false;
	return true;
}

struct word {
	size_t start, end;
};

static size_t words(const struct line *l, struct word **out)
{
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; i < l->len;) {
		while (i < l->len && l->text[i] == ' ')
			i++;
		if (i == l->len)
			break;
		size_t s = i;

		while (i < l->len && l->text[i] != ' ')
			i++;
		*out = xgrow(*out, n, sizeof(**out));
		(*out)[n++] = (struct word){ s, i };
	}
	return n;
}

static bool word_is(const struct line *l, const struct word *w, const char *s)
{
	size_t n = strlen(s);

	return w->end - w->start == n && strncasecmp(l->text + w->start, s, n) == 0;
}

static enum role role_of(const char *cell, size_t len)
{
	static const struct { const char *text; enum role role; } names[] = {
		{ "type", ROLE_TYPE }, { "name", ROLE_NAME },
		{ "fastpath_tx_access", ROLE_TX }, { "fastpath_rx_access", ROLE_RX },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].text) == len && strncasecmp(cell, names[i].text, len) == 0)
			return names[i].role;
	if (len >= 7 && strncasecmp(cell, "comment", 7) == 0)
		return ROLE_COMMENT;
	return ROLE_OTHER;
}

static bool is_header(const struct line *l)
{
	struct word *w;
	size_t n = words(l, &w);
	bool tx = false, rx = false, name = false;

	for (size_t i = 0; i < n; i++) {
		tx |= word_is(l, &w[i], "fastpath_tx_access");
		rx |= word_is(l, &w[i], "fastpath_rx_access");
		name |= word_is(l, &w[i], "name");
	}
	free(w);
	return tx && rx && name;
}

static int find_table(const char *name, const struct line *lines, size_t n, struct table *t,
		      struct ll_error *err)
{
	size_t h;

	memset(t, 0, sizeof(*t));
	for (h = 0; h < n && !is_header(&lines[h]); h++)
		;
	if (h == n)
		return ll_fail(err, "%s: no net_cachelines table (no header line with Name, "
			       "fastpath_tx_access and fastpath_rx_access)", name);
	t->rst = h > 0 && is_ruler(&lines[h - 1]);
	if (t->rst) {
		const struct line *r = &lines[h - 1];
		size_t b;

		for (size_t i = 0; i < r->len; i++) {
			if (r->text[i] != '=' || (i && r->text[i - 1] == '='))
				continue;
			size_t e = i;

			while (e < r->len && r->text[e] == '=')
				e++;
			t->cols = xgrow(t->cols, t->nr_cols, sizeof(*t->cols));
			t->cols[t->nr_cols++] = (struct column){ i, e, ROLE_OTHER };
		}
		/* Header rows run to the next ruler; the body to the one after. */
		for (b = h + 1; b < n && !is_ruler(&lines[b]); b++)
			;
		if (b == n)
			return ll_fail(err, "%s:%u: the table's header has no closing ruler", name,
				       lines[h].no);
		t->body_begin = b + 1;
		for (t->body_end = t->body_begin; t->body_end < n && !is_ruler(&lines[t->body_end]);
		     t->body_end++)
			;
	} else {
		struct word *w;
		size_t nw = words(&lines[h], &w);

		for (size_t i = 0; i < nw; i++) {
			t->cols = xgrow(t->cols, t->nr_cols, sizeof(*t->cols));
			t->cols[t->nr_cols++] = (struct column){ w[i].start, 0, ROLE_OTHER };
		}
		free(w);
		for (size_t i = 0; i + 1 < t->nr_cols; i++)
			t->cols[i].end = t->cols[i + 1].start;
		t->body_begin = h + 1;
		t->body_end = n;
	}
	t->cols[t->nr_cols - 1].end = SIZE_MAX;

	bool have[ROLE_COMMENT + 1] = { false };
	const struct line *hl = &lines[h];

	for (size_t i = 0; i < t->nr_cols; i++) {
		size_t s = t->cols[i].start, e = t->cols[i].end;

		if (s >= hl->len)
			continue;
		if (e > hl->len)
			e = hl->len;
		while (s < e && hl->text[s] == ' ')
			s++;
		while (e > s && hl->text[e - 1] == ' ')
			e--;
		t->cols[i].role = role_of(hl->text + s, e - s);
		if (have[t->cols[i].role] && t->cols[i].role != ROLE_OTHER)
			return ll_fail(err, "%s:%u: the table has two %.*s columns", name, hl->no,
				       (int)(e - s), hl->text + s);
		have[t->cols[i].role] = true;
	}
	if (!have[ROLE_NAME] || !have[ROLE_TX] || !have[ROLE_RX])
		return ll_fail(err, "%s:%u: the ruler does not separate the Name, "
			       "fastpath_tx_access and fastpath_rx_access columns", name, hl->no);
	return 0;
}

/*
 * Split one row into cells. Returns 0, or -1 with WHY set when a word
 * lies in the margin between two columns or crosses into it (RST).
 */
static int split_row(const struct table *t, const struct line *l, struct strbuf *cells,
		     char *why, size_t why_len)
{
	struct word *w;
	size_t nw = words(l, &w);
	int rc = 0;

	for (size_t i = 0; i < nw; i++) {
		size_t c = 0;

		if (t->rst) {
			for (c = 0; c < t->nr_cols; c++)
				if (w[i].start >= t->cols[c].start && w[i].start < t->cols[c].end)
					break;
			if (c == t->nr_cols) {
				snprintf(why, why_len, "'%.*s' at column %zu lies in the margin between "
					 "two columns of the ruler", (int)(w[i].end - w[i].start),
					 l->text + w[i].start, w[i].start + 1);
				rc = -1;
				break;
			}
			if (c + 1 < t->nr_cols && w[i].end > t->cols[c].end) {
				snprintf(why, why_len, "'%.*s' at column %zu runs past the end of its "
					 "column (%zu)", (int)(w[i].end - w[i].start),
					 l->text + w[i].start, w[i].start + 1, t->cols[c].end);
				rc = -1;
				break;
			}
		} else {
			for (size_t k = 1; k < t->nr_cols; k++) {
				size_t b = t->cols[k].start > COLUMN_SLACK ?
					   t->cols[k].start - COLUMN_SLACK : 0;

				if (b <= t->cols[k - 1].start)
					b = t->cols[k - 1].start + 1;
				if (w[i].start >= b)
					c = k;
			}
		}
		if (c + 1 == t->nr_cols) {
			/* The last column keeps its blanks: the rest of the line. */
			sb_add(&cells[c], l->text + w[i].start, l->len - w[i].start);
			break;
		}
		if (cells[c].len)
			sb_addc(&cells[c], ' ');
		sb_add(&cells[c], l->text + w[i].start, w[i].end - w[i].start);
	}
	free(w);
	return rc;
}

static enum access parse_access(const char *s)
{
	if (!*s || strcmp(s, "-") == 0)
		return ACC_NONE;
	if (strcmp(s, "read_mostly") == 0)
		return ACC_READ;
	if (strcmp(s, "read_write") == 0 || strcmp(s, "write_mostly") == 0)
		return ACC_WRITE;
	return ACC_BAD;
}

static bool is_identifier(const char *s);

/*
 * "struct_icsk_ack_u8" -> "icsk_ack"; NULL unless TYPE is struct_X_T with T
 * a scalar type name, optionally ":BITS" or "[N]".
 */
static char *nested_parent(const char *type)
{
	static const char *const scalars[] = {
		"unsigned_long", "unsigned_int", "unsigned_short", "unsigned_char",
		"__u8", "__u16", "__u32", "__u64", "__be16", "__be32", "__be64",
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "be16", "be32",
		"int", "long", "short", "char", "bool",
	};
	size_t len = strlen(type);

	if (strncmp(type, "struct_", 7) != 0 && strncmp(type, "struct ", 7) != 0)
		return NULL;
	len = strcspn(type, ":[");
	if (type[len] && !(type[len] == ':' || (type[len] == '[' && type[strlen(type) - 1] == ']')))
		return NULL;
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
		size_t n = strlen(scalars[i]);

		if (len > 7 + n + 1 && strncmp(type + len - n, scalars[i], n) == 0 &&
		    type[len - n - 1] == '_') {
			char *parent = strndup(type + 7, len - n - 1 - 7);

			if (is_identifier(parent))
				return parent;
			free(parent);
			return NULL;
		}
	}
	return NULL;
}

static bool is_identifier(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* "name[16]" -> "name"; false when the brackets are unbalanced. */
static bool strip_array(char *name)
{
	char *b = strchr(name, '[');

	if (!b)
		return true;
	if (name[strlen(name) - 1] != ']')
		return false;
	*b = '\0';
	return true;
}

static struct row_out *new_row(struct import *im, unsigned line, const char *name)
{
	im->rows = xgrow(im->rows, im->nr_rows, sizeof(*im->rows));
	struct row_out *r = &im->rows[im->nr_rows++];

	memset(r, 0, sizeof(*r));
	r->line = line;
	r->name = name ? xstrdup(name) : NULL;
	return r;
}

/* The tagged row named NAME, or NULL (the first recorded of a name). */
static const struct row_out *find_row(const struct import *im, const char *name)
{
	for (size_t at = ll_slots_first(&im->by_name, ll_fnv1a_str(LL_FNV_INIT, name));
	     ll_slots_get(&im->by_name, at); at = ll_slots_next(&im->by_name, at))
		if (strcmp(im->rows[ll_slots_get(&im->by_name, at) - 1].name, name) == 0)
			return &im->rows[ll_slots_get(&im->by_name, at) - 1];
	return NULL;
}

static uint64_t row_hash(const void *ctx, size_t i)
{
	const struct import *im = ctx;

	return ll_fnv1a_str(LL_FNV_INIT, im->rows[i].name);
}

/* Record row I (tagged, named) for find_row(). */
static void index_row(struct import *im, size_t i)
{
	ll_slots_reserve(&im->by_name, im->by_name.used + 1, row_hash, im);
	ll_slots_add(&im->by_name, row_hash(im, i), i);
}

struct aggregate {
	char kind[16];		/* "struct", "union", "enum", or "" */
	char *name;
};

static void set_aggregate(struct aggregate *a, const char *kind, const char *name)
{
	snprintf(a->kind, sizeof(a->kind), "%s", kind);
	free(a->name);
	a->name = name ? xstrdup(name) : NULL;
}

/* "tcp_sock struct fast path usage breakdown" (title) -> struct tcp_sock. */
static void aggregate_from_title(const struct line *lines, size_t n, size_t limit,
				 struct aggregate *a)
{
	for (size_t i = 0; i + 1 < n && i < limit; i++) {
		char first[128], second[16];

		if (!lines[i].len || !is_underline(&lines[i + 1]) || is_underline(&lines[i]))
			continue;
		if (sscanf(lines[i].text, "%127s %15s", first, second) == 2 &&
		    (strcmp(second, "struct") == 0 || strcmp(second, "union") == 0 ||
		     strcmp(second, "enum") == 0) && is_identifier(first))
			set_aggregate(a, second, first);
		return;
	}
}

static void handle_row(struct import *im, const struct table *t, const struct line *l,
		       struct aggregate *agg)
{
	struct strbuf *cells = xcalloc(t->nr_cols, sizeof(*cells));
	const char *cell[ROLE_COMMENT + 1] = { NULL };
	char why[256];

	if (l->len >= 3 && strncmp(l->text, ".. ", 3) == 0)
		goto out;	/* an RST comment */
	if (split_row(t, l, cells, why, sizeof(why))) {
		warn(im, l->no, new_row(im, l->no, NULL), "malformed row: %s", why);
		goto out;
	}
	for (size_t c = 0; c < t->nr_cols; c++) {
		if (!cells[c].buf)
			sb_adds(&cells[c], "");
		/* A one-word column holding two words lost a column boundary. */
		if ((t->cols[c].role == ROLE_NAME || t->cols[c].role == ROLE_TX ||
		     t->cols[c].role == ROLE_RX) && strchr(cells[c].buf, ' ')) {
			warn(im, l->no, new_row(im, l->no, NULL), "malformed row: '%s' is more than "
			     "one word in a one-word column", cells[c].buf);
			goto out;
		}
		if (t->cols[c].role != ROLE_OTHER)
			cell[t->cols[c].role] = cells[c].buf;
	}

	const char *type = cell[ROLE_TYPE] ? cell[ROLE_TYPE] : "";
	const char *name = cell[ROLE_NAME];
	bool any = false;

	for (size_t c = 0; c < t->nr_cols; c++)
		any |= cells[c].len > 0;
	if (!any)
		goto out;
	/* "..struct ..tcp_sock": which aggregate the table describes. */
	if (strncmp(type, "..", 2) == 0 || strncmp(name, "..", 2) == 0) {
		const char *kind = strncmp(type, "..", 2) == 0 ? type + 2 : "";
		const char *aname = strncmp(name, "..", 2) == 0 ? name + 2 : name;

		if (strcmp(kind, "enum") == 0) {
			set_aggregate(agg, "enum", *aname ? aname : NULL);
		} else if ((strcmp(kind, "struct") == 0 || strcmp(kind, "union") == 0) &&
			   is_identifier(aname)) {
			set_aggregate(agg, kind, aname);
		} else {
			warn(im, l->no, new_row(im, l->no, NULL), "cannot read the aggregate row "
			     "'%s %s' (expected ..struct ..NAME)", type, name);
		}
		goto out;
	}

	char *member = xstrdup(name);
	struct row_out *r = NULL;
	enum access tx = parse_access(cell[ROLE_TX]), rx = parse_access(cell[ROLE_RX]);

	if (!*member) {
		warn(im, l->no, new_row(im, l->no, NULL), "malformed row: no member name in the "
		     "Name column");
	} else if (!strip_array(member) || !is_identifier(member)) {
		warn(im, l->no, new_row(im, l->no, NULL), "malformed row: '%s' is not a member "
		     "name", name);
	} else if (strncmp(member, "struct_", 7) == 0 || strncmp(member, "union_", 6) == 0 ||
		   strncmp(member, "enum_", 5) == 0) {
		warn(im, l->no, new_row(im, l->no, NULL), "malformed row: '%s' in the Name column "
		     "looks like a type (Type column: '%s')", name, type);
	} else if (tx == ACC_BAD || rx == ACC_BAD) {
		warn(im, l->no, new_row(im, l->no, member), "%s: unknown access '%s' in %s "
		     "(expected read_mostly, read_write, write_mostly, - or an empty cell)",
		     member, tx == ACC_BAD ? cell[ROLE_TX] : cell[ROLE_RX],
		     tx == ACC_BAD ? "fastpath_tx_access" : "fastpath_rx_access");
	} else {
		const char *tag;
		const struct row_out *prev;
		char *parent = nested_parent(type);

		if (parent) {
			struct strbuf full = STRBUF_INIT;

			sb_addf(&full, "%s.%s", parent, member);
			free(member);
			free(parent);
			member = sb_detach(&full);
			im->nested = true;
		}

		if (tx == ACC_WRITE && rx == ACC_WRITE)
			tag = "write-hot:" SHARED_DOMAIN;
		else if (tx == ACC_WRITE)
			tag = "write-hot:tx";
		else if (rx == ACC_WRITE)
			tag = "write-hot:rx";
		else if (tx == ACC_READ || rx == ACC_READ)
			tag = "read-mostly";
		else
			tag = "cold";
		prev = find_row(im, member);
		if (prev) {
			bool same = strcmp(prev->tag, tag) == 0;
			unsigned prev_line = prev->line;

			warn(im, l->no, new_row(im, l->no, member), "%s is listed again (first at "
			     "line %u%s); row skipped", member, prev_line,
			     same ? "" : ", with other access");
		} else {
			r = new_row(im, l->no, member);
			r->tag = xstrdup(tag);
			r->on_tx = tx == ACC_READ || tx == ACC_WRITE;
			r->on_rx = rx == ACC_READ || rx == ACC_WRITE;
			r->comment = cell[ROLE_COMMENT] && *cell[ROLE_COMMENT] ?
				     xstrdup(cell[ROLE_COMMENT]) : NULL;
			index_row(im, (size_t)(r - im->rows));
		}
	}
	free(member);
out:
	for (size_t c = 0; c < t->nr_cols; c++)
		sb_release(&cells[c]);
	free(cells);
}

/*
 * A fast path's working set as 'group' statements, eight names a line
 * (statements of one name add up): group-span then says how many lines
 * the path touches against the fewest it could.
 */
static void emit_path_group(const struct import *im, const char *group, bool tx,
			    struct strbuf *out)
{
	size_t on_line = 0;

	for (size_t i = 0; i < im->nr_rows; i++) {
		const struct row_out *r = &im->rows[i];

		if (!r->tag || !(tx ? r->on_tx : r->on_rx))
			continue;
		if (on_line == 8) {
			sb_addc(out, '\n');
			on_line = 0;
		}
		if (!on_line)
			sb_addf(out, "\tgroup %s", group);
		/* Optional: a missing member is the tag statement's stale-rule, once. */
		sb_addf(out, " ?%s", r->name);
		on_line++;
	}
	if (on_line)
		sb_addc(out, '\n');
}

static void emit(const struct import *im, const struct aggregate *agg, const char *release,
		 struct strbuf *out)
{
	size_t tag_w = 0, name_w = 0;

	sb_addf(out, "# Rules generated by layoutlint --import-net-cachelines\n"
		"# from %s, %s%s.\n", im->display, release ? "Linux " : "kernel release unknown",
		release ? release : "");
	sb_adds(out, "# Tags from fastpath_tx_access / fastpath_rx_access: read_mostly ->\n"
		"# read-mostly; read_write or write_mostly -> write-hot:tx or write-hot:rx,\n"
		"# write-hot:" SHARED_DOMAIN " when both paths write; no access on either path "
		"-> cold.\n"
		"# Trailing comments are the table's Comments column.\n"
		"# group fastpath_tx / fastpath_rx: every member the path reads or writes.\n");
	if (im->nested)
		sb_adds(out, "# Type struct_X_T (a T member of the nested struct X) -> pattern X.NAME.\n");
	if (im->header)
		sb_addf(out, "# Names checked against the struct's definition in %s:\n"
			"# a macro for a member path is that path, a nested struct's type its\n"
			"# member; a member only under #if, or not a member there (a flag bit),\n"
			"# is optional ('?'). Each says so in its comment.\n", im->header);
	sb_addc(out, '\n');
	sb_addf(out, "%s %s\n", agg->kind, agg->name);
	for (size_t i = 0; i < im->nr_rows; i++) {
		const struct row_out *r = &im->rows[i];
		size_t tl = r->tag ? strlen(r->tag) : 0;
		size_t nl = (r->name ? strlen(r->name) : 0) + r->optional;

		if (!r->tag)
			continue;
		tag_w = tl > tag_w ? tl : tag_w;
		name_w = nl > name_w ? nl : name_w;
	}
	for (size_t i = 0; i < im->nr_rows; i++) {
		const struct row_out *r = &im->rows[i];

		if (!r->tag) {
			sb_addf(out, "\t# skipped line %u: %s\n", r->line, r->comment);
			continue;
		}
		if (r->comment)
			sb_addf(out, "\t%-*s %s%-*s  # %s\n", (int)tag_w, r->tag,
				r->optional ? "?" : "", (int)(name_w - r->optional), r->name,
				r->comment);
		else
			sb_addf(out, "\t%-*s %s%s\n", (int)tag_w, r->tag, r->optional ? "?" : "",
				r->name);
	}
	emit_path_group(im, "fastpath_tx", true, out);
	emit_path_group(im, "fastpath_rx", false, out);
}

/*
 * The rules, appended to OUT only if the rules parser takes them: what the
 * importer writes from a damaged table must not be a file layoutlint then
 * refuses (the table's names and comments end up in it).
 */
static int emit_checked(struct import *im, const struct aggregate *agg, const char *release,
			struct strbuf *out, struct ll_error *err)
{
	struct strbuf rules_text = STRBUF_INIT;
	struct ll_rules rules = { 0 };
	struct ll_error why;
	int rc = 0;

	emit(im, agg, release, &rules_text);
	if (ll_rules_parse(&rules, "imported", rules_text.buf ? rules_text.buf : "",
			   rules_text.len, &why))
		rc = ll_fail(err, "%s: the table yields rules layoutlint cannot read (%s): "
			     "is it damaged?", im->name, why.msg);
	else
		sb_add(out, rules_text.buf ? rules_text.buf : "", rules_text.len);
	ll_rules_release(&rules);
	sb_release(&rules_text);
	return rc;
}

/* ---- names checked against the struct's source ---------------------------- */

/*
 * The header that defines the struct, when the table lies in a kernel tree:
 * the tables name some members by macros for member paths (inet_sock.rst's
 * inet_daddr is "#define inet_daddr sk.__sk_common.skc_daddr"), by the type
 * of a nested struct (tcp_sock.rst's tcp_rack, the type of member rack), and
 * list flags that became bits of one word (inet_sock's recverr, in
 * inet_flags since 6.6) or members that exist only under #if. A rules
 * pattern for any of those matches no member and is a stale-rule error.
 */
struct source {
	char *header;		/* relative to the tree: include/net/inet_sock.h */
	char *text;
};

struct body_ident {
	char *name;
	bool conditional;	/* only seen under #if (relative to the struct) */
};

struct body {
	struct body_ident *idents;
	size_t nr_idents;
	char **nested_type, **nested_member;	/* "struct tcp_rack { ... } rack;" */
	size_t nr_nested;
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Offset of "KIND NAME {" at the start of a line of TEXT, or -1. */
static long find_definition_in(const char *text, const char *kind, const char *name)
{
	size_t kl = strlen(kind), nl = strlen(name);

	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		if (strncmp(q, kind, kl) != 0 || (q[kl] != ' ' && q[kl] != '\t'))
			continue;
		q += kl;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, nl) != 0 || ident_char(q[nl]))
			continue;
		q += nl;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '{')
			return (long)(p - text);
	}
	return -1;
}

static bool find_header(const char *root, const char *rel, const char *kind, const char *name,
			struct source *src, unsigned depth);

/* Entry E of directory REL: a directory to search, or a header that defines NAME. */
static bool header_entry(const char *root, const char *rel, const char *e, const char *kind,
			 const char *name, struct source *src, unsigned depth)
{
	struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT, text = STRBUF_INIT;
	size_t el = strlen(e);
	bool found = false;
	struct stat st;
	int why;

	sb_addf(&sub, "%s/%s", rel, e);
	sb_addf(&path, "%s/%s", root, sub.buf);
	if (lstat(path.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
		found = find_header(root, sub.buf, kind, name, src, depth + 1);
	} else if (el > 2 && strcmp(e + el - 2, ".h") == 0 && S_ISREG(st.st_mode) &&
		   ll_read_regular(path.buf, (size_t)4 << 20, &text, &why) == 0 && text.buf &&
		   memchr(text.buf, '\0', text.len) == NULL &&
		   find_definition_in(text.buf, kind, name) >= 0) {
		src->header = sb_detach(&sub);
		src->text = sb_detach(&text);
		found = true;
	}
	sb_release(&path);
	sb_release(&sub);
	sb_release(&text);
	return found;
}

/* Depth-first under DIR (relative REL), *.h files, in name order. */
static bool find_header(const char *root, const char *rel, const char *kind, const char *name,
			struct source *src, unsigned depth)
{
	struct strbuf dir = STRBUF_INIT;
	char **names = NULL;
	size_t n = 0;
	bool found = false;

	if (depth > 12)
		return false;
	sb_addf(&dir, "%s/%s", root, rel);
	if (ll_dir_names(dir.buf, &names, &n) == 0)
		for (size_t i = 0; i < n && !found; i++)
			found = header_entry(root, rel, names[i], kind, name, src, depth);
	ll_strv_free(names, n);
	sb_release(&dir);
	return found;
}


static void add_ident(struct body *b, const char *s, size_t len, bool conditional)
{
	for (size_t i = 0; i < b->nr_idents; i++)
		if (strlen(b->idents[i].name) == len && strncmp(b->idents[i].name, s, len) == 0) {
			b->idents[i].conditional &= conditional;
			return;
		}
	b->idents = xgrow(b->idents, b->nr_idents, sizeof(*b->idents));
	b->idents[b->nr_idents++] = (struct body_ident){ strndup(s, len), conditional };
}

/*
 * The identifiers of the definition at OFF in TEXT (comments and
 * preprocessor lines left out), each with whether it occurs only under an
 * #if opened inside the definition; and each nested named struct or union
 * type with the member it declares.
 */
static void scan_body(const char *text, long off, struct body *b)
{
	const char *p = text + off;
	int braces = 0, ifs = 0;
	bool comment = false, started = false;
	char *open_type[16];
	int open_at[16], nr_open = 0;

	while (*p && !(started && braces == 0)) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len), *c = line;
		const char *pp = line;
		int before = braces;

		p += len + (p[len] == '\n');
		/* Comments out, across lines. */
		for (char *r = line; *r;) {
			if (comment) {
				char *end = strstr(r, "*/");

				memset(r, ' ', end ? (size_t)(end + 2 - r) : strlen(r));
				if (!end)
					break;
				r = end + 2;
				comment = false;
			} else if (r[0] == '/' && r[1] == '*') {
				comment = true;
			} else if (r[0] == '/' && r[1] == '/') {
				*r = '\0';
			} else {
				r++;
			}
		}
		while (*pp == ' ' || *pp == '\t')
			pp++;
		if (*pp == '#') {
			pp++;
			while (*pp == ' ' || *pp == '\t')
				pp++;
			if (strncmp(pp, "if", 2) == 0)
				ifs++;
			else if (strncmp(pp, "endif", 5) == 0 && ifs > 0)
				ifs--;
			free(line);
			continue;
		}
		for (c = line; *c; c++) {
			if (*c == '{') {
				braces++;
				started = true;
			} else if (*c == '}') {
				braces--;
			}
		}
		/* A nested "struct NAME {": remember NAME until its closing brace. */
		if (started && before >= 1 && nr_open < 16) {
			const char *k = line;

			while (*k == ' ' || *k == '\t')
				k++;
			if ((strncmp(k, "struct", 6) == 0 || strncmp(k, "union", 5) == 0) &&
			    strchr(k, '{')) {
				k += k[0] == 's' ? 6 : 5;
				while (*k == ' ' || *k == '\t')
					k++;
				size_t il = 0;

				while (ident_char(k[il]))
					il++;
				if (il) {
					open_type[nr_open] = strndup(k, il);
					open_at[nr_open++] = before;
				}
			}
		}
		for (c = line; *c;) {
			if (isalpha((unsigned char)*c) || *c == '_') {
				size_t il = 0;

				while (ident_char(c[il]))
					il++;
				if (before >= 1 || braces >= 1)
					add_ident(b, c, il, ifs > 0);
				c += il;
			} else {
				c++;
			}
		}
		while (nr_open > 0 && braces <= open_at[nr_open - 1]) {
			const char *close = strrchr(line, '}');
			size_t il = 0;

			nr_open--;
			if (close) {
				close++;
				while (*close == ' ' || *close == '\t')
					close++;
				while (ident_char(close[il]))
					il++;
			}
			if (il) {
				b->nested_type = xgrow(b->nested_type, b->nr_nested,
						       sizeof(*b->nested_type));
				b->nested_member = xgrow(b->nested_member, b->nr_nested,
							 sizeof(*b->nested_member));
				b->nested_type[b->nr_nested] = open_type[nr_open];
				b->nested_member[b->nr_nested++] = strndup(close, il);
			} else {
				free(open_type[nr_open]);
			}
		}
		free(line);
	}
	while (nr_open > 0)
		free(open_type[--nr_open]);
}

static void body_release(struct body *b)
{
	for (size_t i = 0; i < b->nr_idents; i++)
		free(b->idents[i].name);
	free(b->idents);
	ll_strv_free(b->nested_type, b->nr_nested);
	ll_strv_free(b->nested_member, b->nr_nested);
}

static void prepend_comment(struct row_out *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void prepend_comment(struct row_out *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (r->comment)
		sb_addf(&sb, "; %s", r->comment);
	free(r->comment);
	r->comment = sb_detach(&sb);
}

static void resolve_names(struct import *im, const struct aggregate *agg,
			  const struct source *src)
{
	long off = find_definition_in(src->text, agg->kind, agg->name);
	struct body b = { 0 };

	if (off < 0)
		return;
	scan_body(src->text, off, &b);
	im->header = src->header;
	for (size_t i = 0; i < im->nr_rows; i++) {
		struct row_out *r = &im->rows[i];
		const struct body_ident *id = NULL;
		char *path;

		if (!r->tag || !r->name || strchr(r->name, '.'))
			continue;
		for (size_t k = 0; k < b.nr_idents && !id; k++)
			if (strcmp(b.idents[k].name, r->name) == 0)
				id = &b.idents[k];
		for (size_t k = 0; k < b.nr_nested; k++) {
			if (strcmp(b.nested_type[k], r->name) != 0)
				continue;
			prepend_comment(r, "%s: the type of member %s", r->name, b.nested_member[k]);
			free(r->name);
			r->name = xstrdup(b.nested_member[k]);
			id = NULL;
			for (size_t j = 0; j < b.nr_idents && !id; j++)
				if (strcmp(b.idents[j].name, r->name) == 0)
					id = &b.idents[j];
			break;
		}
		if (id && !id->conditional)
			continue;
		if (id) {
			r->optional = true;
			prepend_comment(r, "only under #if in %s", src->header);
			continue;
		}
		path = ll_macro_member_path(src->text, r->name);
		if (path) {
			prepend_comment(r, "%s: a macro for %s", r->name, path);
			free(r->name);
			r->name = path;
			continue;
		}
		r->optional = true;
		prepend_comment(r, "not a member of %s %s in %s", agg->kind, agg->name, src->header);
	}
	body_release(&b);
}

static int import_text(const char *name, const char *display, const char *text, size_t len,
		       const char *release, const struct source *src, struct strbuf *out,
		       struct strbuf *warnings, size_t *nr_warnings, struct ll_error *err);

int ll_import_net_cachelines_text(const char *name, const char *display, const char *text,
				  size_t len, const char *release, struct strbuf *out,
				  struct strbuf *warnings, size_t *nr_warnings,
				  struct ll_error *err)
{
	return import_text(name, display, text, len, release, NULL, out, warnings, nr_warnings,
			   err);
}

static int import_text(const char *name, const char *display, const char *text, size_t len,
		       const char *release, const struct source *src, struct strbuf *out,
		       struct strbuf *warnings, size_t *nr_warnings, struct ll_error *err)
{
	struct import im = { .name = name, .display = display ? display : name,
			     .warnings = warnings };
	struct aggregate agg = { "", NULL };
	struct line *lines;
	size_t n;
	struct table t;
	int rc = -1;

	/* The rules it writes quote the table's text: the parser takes UTF-8 only. */
	for (size_t k = 0, line = 1, col = 1; k < len; col++) {
		size_t u = text[k] ? ll_utf8_len((const unsigned char *)text + k, len - k) : 0;

		if (!u)
			return ll_fail(err, "%s:%zu:%zu: %s 0x%02x", name, line, col,
				       text[k] ? "invalid UTF-8 byte" : "NUL byte",
				       (unsigned char)text[k]);
		if (text[k] == '\n') {
			line++;
			col = 0;
		}
		k += u;
	}
	split_lines(text, len, &lines, &n);
	if (find_table(name, lines, n, &t, err))
		goto done;
	aggregate_from_title(lines, n, t.body_begin, &agg);
	for (size_t i = t.body_begin; i < t.body_end; i++)
		if (lines[i].len)
			handle_row(&im, &t, &lines[i], &agg);
	if (strcmp(agg.kind, "enum") == 0) {
		ll_fail(err, "%s: the table describes enum%s%s, not a struct: there are no members "
			"to tag", name, agg.name ? " " : "", agg.name ? agg.name : "");
		goto done;
	}
	if (!agg.name) {
		ll_fail(err, "%s: cannot tell which struct the table describes (no \"..struct "
			"..NAME\" row and no \"NAME struct ...\" title)", name);
		goto done;
	}
	if (src && strcmp(agg.kind, "struct") == 0)
		resolve_names(&im, &agg, src);
	rc = emit_checked(&im, &agg, release, out, err);
done:
	if (nr_warnings)
		*nr_warnings = im.nr_warnings;
	for (size_t i = 0; i < im.nr_rows; i++) {
		free(im.rows[i].name);
		free(im.rows[i].tag);
		free(im.rows[i].comment);
	}
	free(im.rows);
	ll_slots_release(&im.by_name);
	for (size_t i = 0; i < n; i++)
		free(lines[i].text);
	free(lines);
	free(t.cols);
	free(agg.name);
	return rc;
}

/* ---- files: the kernel tree around the table ----------------------------- */

/* A net_cachelines table, or a kernel Makefile: a few KiB; 64 MiB bounds a hostile one. */
#define MAX_DOC_FILE ((size_t)64 << 20)

static char *read_file(const char *path, size_t *len, struct ll_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int why;

	if (ll_read_regular(path, MAX_DOC_FILE, &sb, &why)) {
		if (err)
			ll_fail(err, "cannot read %s: %s", path, ll_read_error_text(why, MAX_DOC_FILE));
		sb_release(&sb);
		return NULL;
	}
	*len = sb.len;
	if (!sb.buf)
		sb_adds(&sb, "");
	return sb_detach(&sb);
}

/* "VERSION = 6" -> "6"; NULL when the Makefile does not set it. */
static char *make_var(const char *mk, const char *var)
{
	size_t n = strlen(var);

	for (const char *p = mk; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		if (strncmp(q, var, n) != 0)
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t len = strcspn(q, " \t\r\n#");

		return strndup(q, len);
	}
	return NULL;
}

/* The tree's release from its top Makefile: VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION. */
static char *kernel_release(const char *root)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;
	size_t len;
	char *mk, *v, *p, *s, *x;

	sb_addf(&path, "%s/Makefile", root);
	mk = read_file(path.buf, &len, NULL);
	sb_release(&path);
	if (!mk)
		return NULL;
	v = make_var(mk, "VERSION");
	p = make_var(mk, "PATCHLEVEL");
	s = make_var(mk, "SUBLEVEL");
	x = make_var(mk, "EXTRAVERSION");
	if (v && *v) {
		sb_adds(&rel, v);
		if (p && *p) {
			sb_addf(&rel, ".%s", p);
			if (s && *s)
				sb_addf(&rel, ".%s", s);
		}
		if (x)
			sb_adds(&rel, x);
	}
	ll_free_all(mk, v, p, s, x);
	return rel.len ? sb_detach(&rel) : (sb_release(&rel), NULL);
}

int ll_import_net_cachelines(const char *path, struct strbuf *out, struct ll_error *err)
{
	size_t len;
	char *text = read_file(path, &len, err);
	char *real, *release = NULL, *root = NULL;
	const char *display = path, *doc;
	struct source src = { 0 };
	struct strbuf probe_warnings = STRBUF_INIT;
	bool have_src = false;
	int rc;

	if (!text)
		return -1;
	/* Inside a kernel tree: name the file from the tree's root, read its release. */
	real = realpath(path, NULL);
	doc = real ? strstr(real, "/Documentation/") : NULL;
	if (doc) {
		root = strndup(real, (size_t)(doc - real));
		display = doc + 1;
		release = kernel_release(root);
	} else {
		const char *slash = strrchr(path, '/');

		display = slash ? slash + 1 : path;
	}
	if (root) {
		/* The table's struct, from its name: "..struct ..NAME", or the title. */
		struct strbuf probe = STRBUF_INIT;
		struct ll_error probe_err;
		size_t nw = 0;

		if (ll_import_net_cachelines_text(path, display, text, len, release, &probe,
						  &probe_warnings, &nw, &probe_err) == 0 && probe.buf) {
			const char *q = strstr(probe.buf, "\nstruct ");
			char sname[256];

			if (q && sscanf(q + 8, "%255s", sname) == 1)
				have_src = find_header(root, "include", "struct", sname, &src, 0);
		}
		sb_release(&probe);
	}
	rc = import_text(path, display, text, len, release, have_src ? &src : NULL, out, NULL,
			 NULL, err);
	free(src.header);
	free(src.text);
	free(root);
	sb_release(&probe_warnings);
	free(release);
	free(real);
	free(text);
	return rc;
}
