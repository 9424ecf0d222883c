// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/json_writer.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct json_writer *w, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->pretty = pretty;
}

void jw_release(struct json_writer *w)
{
	sb_release(&w->out);
}

static void newline(struct json_writer *w)
{
	if (!w->pretty)
		return;
	sb_addc(&w->out, '\n');
	for (int i = 0; i < w->depth; i++)
		sb_add(&w->out, "  ", 2);
}

/* Separator and indentation before any value or key. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (w->need_comma[w->depth])
			sb_addc(&w->out, ',');
		newline(w);
	}
	w->need_comma[w->depth] = true;
}

static void open_scope(struct json_writer *w, char c)
{
	before_value(w);
	sb_addc(&w->out, c);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_scope(struct json_writer *w, char c)
{
	bool had = w->need_comma[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had)
		newline(w);
	sb_addc(&w->out, c);
}

void jw_begin_object(struct json_writer *w) { open_scope(w, '{'); }
void jw_end_object(struct json_writer *w) { close_scope(w, '}'); }
void jw_begin_array(struct json_writer *w) { open_scope(w, '['); }
void jw_end_array(struct json_writer *w) { close_scope(w, ']'); }

/*
 * Names come from binaries anyone can build: a byte that is not valid
 * UTF-8 becomes U+FFFD, so the document stays valid JSON.
 */
static void add_escaped(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			size_t n = ll_utf8_len(p, strnlen((const char *)p, 4));

			if (!n) {
				sb_adds(sb, "\\ufffd");
				continue;
			}
			sb_add(sb, (const char *)p, n);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"': sb_adds(sb, "\\\""); break;
		case '\\': sb_adds(sb, "\\\\"); break;
		case '\n': sb_adds(sb, "\\n"); break;
		case '\t': sb_adds(sb, "\\t"); break;
		case '\r': sb_adds(sb, "\\r"); break;
		default:
			if (*p < 0x20)
				sb_addf(sb, "\\u%04x", *p);
			else
				sb_addc(sb, (char)*p);
		}
	}
	sb_addc(sb, '"');
}

void jw_key(struct json_writer *w, const char *key)
{
	before_value(w);
	add_escaped(&w->out, key);
	sb_adds(&w->out, w->pretty ? ": " : ":");
	w->after_key = true;
}

void jw_string(struct json_writer *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	before_value(w);
	add_escaped(&w->out, s);
}

void jw_uint(struct json_writer *w, uint64_t v)
{
	before_value(w);
	sb_addf(&w->out, "%" PRIu64, v);
}

void jw_int(struct json_writer *w, int64_t v)
{
	before_value(w);
	sb_addf(&w->out, "%" PRId64, v);
}

void jw_double(struct json_writer *w, double v)
{
	/* JSON has no infinity or NaN: those are null. */
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	before_value(w);
	/*
	 * A whole number exactly, as far as a double holds one (2^53): %.6g
	 * made 1,234,567 measured samples 1.23457e+06. Fractions (shares,
	 * percentages) keep six significant digits.
	 */
	if (v == trunc(v) && fabs(v) < 9007199254740992.0)
		sb_addf(&w->out, "%.0f", v == 0 ? 0.0 : v);
	else
		sb_addf(&w->out, "%.6g", v);
}

void jw_kdouble(struct json_writer *w, const char *key, double v)
{
	jw_key(w, key);
	jw_double(w, v);
}

void jw_bool(struct json_writer *w, bool v)
{
	before_value(w);
	sb_adds(&w->out, v ? "true" : "false");
}

void jw_null(struct json_writer *w)
{
	before_value(w);
	sb_adds(&w->out, "null");
}

void jw_kstring(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_kuint(struct json_writer *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_uint(w, v);
}

void jw_kuint_or_null(struct json_writer *w, const char *key, bool has, uint64_t v)
{
	jw_key(w, key);
	if (has)
		jw_uint(w, v);
	else
		jw_null(w);
}

void jw_kbool(struct json_writer *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}

void jw_knull(struct json_writer *w, const char *key)
{
	jw_key(w, key);
	jw_null(w);
}

void jw_kbegin_array(struct json_writer *w, const char *key)
{
	jw_key(w, key);
	jw_begin_array(w);
}

void jw_kbegin_object(struct json_writer *w, const char *key)
{
	jw_key(w, key);
	jw_begin_object(w);
}
