// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small JSON reader that knows where it is: every value carries its line
 * and column, and every error names FILE:LINE:COLUMN, so a hand-edited
 * baseline fails like a compiler diagnostic. Depth is bounded; strings are
 * decoded to UTF-8 (surrogate pairs joined, lone surrogates refused).
 */
#include "util/json_reader.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

struct jparser {
	const char *file;
	const char *p, *end;
	const char *line_start;
	unsigned line;
	int depth;
	const char *what;	/* "malformed baseline": the message prefix */
	struct ll_error *err;
};

#define JSON_PARSE_MAX_DEPTH 64

static unsigned column_of(const struct jparser *j, const char *at)
{
	return (unsigned)(at - j->line_start) + 1;
}

static int jfail(struct jparser *j, const char *at, const char *what)
{
	return ll_fail(j->err, "%s:%u:%u: %s: %s", j->file, j->line,
		       column_of(j, at), j->what, what);
}

static void skip_ws(struct jparser *j)
{
	while (j->p < j->end) {
		char c = *j->p;

		if (c == '\n') {
			j->line++;
			j->line_start = j->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		j->p++;
	}
}

void json_value_release(struct json_value *v)
{
	free(v->str);
	for (size_t i = 0; i < v->n; i++) {
		json_value_release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		sb_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		sb_addc(sb, (char)(0xc0 | (cp >> 6)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_addc(sb, (char)(0xe0 | (cp >> 12)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_addc(sb, (char)(0xf0 | (cp >> 18)));
		sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int parse_string(struct jparser *j, char **out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *open = j->p;

	j->p++;	/* the opening quote */
	for (;;) {
		if (j->p >= j->end) {
			sb_release(&sb);
			return jfail(j, open, "string not closed");
		}
		unsigned char c = (unsigned char)*j->p;

		if (c == '"') {
			j->p++;
			break;
		}
		if (c < 0x20) {
			sb_release(&sb);
			return jfail(j, j->p, "control character in a string");
		}
		if (c != '\\') {
			sb_addc(&sb, (char)c);
			j->p++;
			continue;
		}
		if (j->end - j->p < 2) {
			sb_release(&sb);
			return jfail(j, j->p, "string not closed");
		}
		const char *esc = j->p;
		unsigned cp, lo;

		switch (j->p[1]) {
		case '"': sb_addc(&sb, '"'); break;
		case '\\': sb_addc(&sb, '\\'); break;
		case '/': sb_addc(&sb, '/'); break;
		case 'b': sb_addc(&sb, '\b'); break;
		case 'f': sb_addc(&sb, '\f'); break;
		case 'n': sb_addc(&sb, '\n'); break;
		case 'r': sb_addc(&sb, '\r'); break;
		case 't': sb_addc(&sb, '\t'); break;
		case 'u':
			if (j->end - j->p < 6 || hex4(j->p + 2, &cp))
				goto bad_escape;
			j->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (j->end - j->p < 8 || j->p[2] != '\\' || j->p[3] != 'u' ||
				    hex4(j->p + 4, &lo) || lo < 0xdc00 || lo >= 0xe000)
					goto bad_escape;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				j->p += 6;
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				goto bad_escape;
			}
			if (cp == 0) {
				sb_release(&sb);
				return jfail(j, esc, "NUL character in a string");
			}
			add_utf8(&sb, cp);
			break;
		default:
			goto bad_escape;
		}
		j->p += 2;
		continue;
bad_escape:
		sb_release(&sb);
		return jfail(j, esc, "invalid escape in a string");
	}
	*out = sb_detach(&sb);
	return 0;
}

static int parse_number(struct jparser *j, struct json_value *v)
{
	const char *s = j->p;
	char buf[64];

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0') {
		j->p++;
	} else if (j->p < j->end && *j->p >= '1' && *j->p <= '9') {
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	} else {
		return jfail(j, s, "expected a value");
	}
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return jfail(j, j->p, "expected a digit after '.'");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return jfail(j, j->p, "expected a digit in the exponent");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if ((size_t)(j->p - s) >= sizeof(buf))
		return jfail(j, s, "number too long");
	memcpy(buf, s, (size_t)(j->p - s));
	buf[j->p - s] = '\0';
	v->type = JSON_NUMBER;
	v->number = strtod(buf, NULL);
	return 0;
}

static bool literal(struct jparser *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return false;
	j->p += n;
	return true;
}

static int parse_value(struct jparser *j, struct json_value *v);

static int parse_container(struct jparser *j, struct json_value *v, bool object)
{
	char close = object ? '}' : ']';

	if (++j->depth > JSON_PARSE_MAX_DEPTH)
		return jfail(j, j->p, "nested too deeply");
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	j->p++;
	skip_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(j);
		if (object) {
			if (j->p >= j->end || *j->p != '"')
				return jfail(j, j->p, "expected a string key");
			if (parse_string(j, &key))
				return -1;
			skip_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				return jfail(j, j->p, "expected ':'");
			}
			j->p++;
		}
		v->items = xgrow(v->items, v->n, sizeof(*v->items));
		memset(&v->items[v->n], 0, sizeof(*v->items));
		if (object) {
			v->keys = xgrow(v->keys, v->n, sizeof(*v->keys));
			v->keys[v->n] = key;
		}
		v->n++;
		if (parse_value(j, &v->items[v->n - 1]))
			return -1;
		skip_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return 0;
		}
		return jfail(j, j->p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct jparser *j, struct json_value *v)
{
	skip_ws(j);
	v->line = j->line;
	v->column = column_of(j, j->p);
	if (j->p >= j->end)
		return jfail(j, j->p, "unexpected end of file, expected a value");
	switch (*j->p) {
	case '{':
		return parse_container(j, v, true);
	case '[':
		return parse_container(j, v, false);
	case '"':
		v->type = JSON_STRING;
		return parse_string(j, &v->str);
	case 't':
	case 'f':
	case 'n':
		if (literal(j, "true") || literal(j, "false")) {
			v->type = JSON_BOOL;
			return 0;
		}
		if (literal(j, "null")) {
			v->type = JSON_NULL;
			return 0;
		}
		return jfail(j, j->p, "expected a value");
	default:
		return parse_number(j, v);
	}
}

const struct json_value *json_member(const struct json_value *obj, const char *key)
{
	const struct json_value *found = NULL;

	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			found = &obj->items[i];	/* the last one wins, as in most parsers */
	return found;
}

int json_parse(const char *file, const char *what, const char *text, size_t len,
	       struct json_value *out, struct ll_error *err)
{
	struct jparser j = { .file = file, .what = what, .line = 1, .err = err };
	const char *nul;

	memset(out, 0, sizeof(*out));
	j.p = j.line_start = text;
	j.end = j.p + len;
	if (len >= 3 && memcmp(j.p, "\xef\xbb\xbf", 3) == 0)
		j.p += 3, j.line_start = j.p;	/* a UTF-8 byte order mark */
	nul = memchr(j.p, '\0', (size_t)(j.end - j.p));
	if (nul) {
		for (const char *q = j.p; q < nul; q++)
			if (*q == '\n')
				j.line++, j.line_start = q + 1;
		return jfail(&j, nul, "NUL byte");
	}
	if (parse_value(&j, out))
		return -1;
	skip_ws(&j);
	if (j.p < j.end)
		return jfail(&j, j.p, "text after the end of the document");
	return 0;
}
