// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The group asserts of a source tree, by a plain scan of the C: see
 * asserts.h for what it reads and what it leaves to the preprocessor.
 */
#include "source/asserts.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/c_ident.h"
#include "util/dir_names.h"
#include "util/read_file.h"
#include "util/strbuf.h"

/* A kernel source file is far below this; larger is no C file we read. */
#define MAX_SOURCE_FILE (16u << 20)

static const char size_macro[] = "CACHELINE_ASSERT_GROUP_SIZE";
static const char member_macro[] = "CACHELINE_ASSERT_GROUP_MEMBER";

/* ---- the constant --------------------------------------------------------- */

struct expr {
	const char *p;
	bool ok;
};

static void skip_blanks(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static uint64_t expr_or(struct expr *e, int depth);

static uint64_t expr_primary(struct expr *e, int depth)
{
	uint64_t v = 0;
	char *end;

	skip_blanks(e);
	if (depth > 64) {
		e->ok = false;
		return 0;
	}
	if (*e->p == '(') {
		e->p++;
		v = expr_or(e, depth + 1);
		skip_blanks(e);
		if (*e->p != ')')
			e->ok = false;
		else
			e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -expr_primary(e, depth + 1);
	}
	if (*e->p == '+') {
		e->p++;
		return expr_primary(e, depth + 1);
	}
	if (!isdigit((unsigned char)*e->p)) {
		e->ok = false;
		return 0;
	}
	errno = 0;
	v = strtoull(e->p, &end, 0);
	if (errno || end == e->p) {
		e->ok = false;
		return 0;
	}
	e->p = end;
	/* Integer suffixes: u, l, ll in either case. */
	while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
		e->p++;
	return v;
}

static uint64_t expr_mul(struct expr *e, int depth)
{
	uint64_t v = expr_primary(e, depth);

	for (;;) {
		char op;
		uint64_t r;

		skip_blanks(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->p++;
		r = expr_primary(e, depth);
		if ((op == '/' || op == '%') && r == 0) {
			e->ok = false;
			return 0;
		}
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
}

static uint64_t expr_add(struct expr *e, int depth)
{
	uint64_t v = expr_mul(e, depth);

	for (;;) {
		char op;

		skip_blanks(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		v = op == '+' ? v + expr_mul(e, depth) : v - expr_mul(e, depth);
	}
}

static uint64_t expr_or(struct expr *e, int depth)
{
	uint64_t v = expr_add(e, depth);

	for (;;) {
		bool left;
		uint64_t r;

		skip_blanks(e);
		if ((e->p[0] != '<' && e->p[0] != '>') || e->p[1] != e->p[0])
			return v;
		left = e->p[0] == '<';
		e->p += 2;
		r = expr_add(e, depth);
		v = r >= 64 ? 0 : left ? v << r : v >> r;
	}
}

bool ll_eval_constant(const char *text, uint64_t *value)
{
	struct expr e = { .p = text, .ok = true };
	uint64_t v = expr_or(&e, 0);

	skip_blanks(&e);
	if (!e.ok || *e.p || (int64_t)v < 0)
		return false;
	*value = v;
	return true;
}

/* ---- the scan ------------------------------------------------------------- */

struct cursor {
	const char *s, *end;
	unsigned line, column;
};

static void advance(struct cursor *c)
{
	if (*c->s == '\n') {
		c->line++;
		c->column = 1;
	} else {
		c->column++;
	}
	c->s++;
}

/* At a comment or a literal: step over it whole. True when there was one. */
static bool skip_opaque(struct cursor *c)
{
	if (c->s + 1 < c->end && c->s[0] == '/' && c->s[1] == '/') {
		while (c->s < c->end && *c->s != '\n')
			advance(c);
		return true;
	}
	if (c->s + 1 < c->end && c->s[0] == '/' && c->s[1] == '*') {
		advance(c);
		advance(c);
		while (c->s < c->end && !(c->s + 1 < c->end && c->s[0] == '*' && c->s[1] == '/'))
			advance(c);
		if (c->s < c->end) {
			advance(c);
			advance(c);
		}
		return true;
	}
	if (*c->s == '"' || *c->s == '\'') {
		char quote = *c->s;

		advance(c);
		while (c->s < c->end && *c->s != quote && *c->s != '\n') {
			if (*c->s == '\\' && c->s + 1 < c->end)
				advance(c);
			advance(c);
		}
		if (c->s < c->end)
			advance(c);
		return true;
	}
	return false;
}

/* An argument's text, blanks collapsed to one space and trimmed. */
static char *tidy(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	bool blank = false;

	for (const char *p = from; p < to; p++) {
		if (isspace((unsigned char)*p)) {
			blank = sb.len > 0;
			continue;
		}
		if (blank)
			sb_addc(&sb, ' ');
		blank = false;
		sb_addc(&sb, *p);
	}
	return sb_detach(&sb);
}

/*
 * The three arguments of the macro call at C (just past its name), or
 * false: no '(' follows, the call does not end, or its arity is not 3.
 */
static bool call_args(struct cursor *c, char *args[3])
{
	const char *start;
	int depth = 0;
	size_t n = 0;

	while (c->s < c->end && isspace((unsigned char)*c->s))
		advance(c);
	if (c->s >= c->end || *c->s != '(')
		return false;
	advance(c);
	start = c->s;
	while (c->s < c->end) {
		if (skip_opaque(c))
			continue;
		char ch = *c->s;

		if (ch == '(') {
			depth++;
		} else if ((ch == ')' && depth == 0) || (ch == ',' && depth == 0)) {
			if (n == 3)
				break;
			args[n++] = tidy(start, c->s);
			advance(c);
			start = c->s;
			if (ch == ')' && n == 3)
				return true;
			if (ch == ')')
				break;
			continue;
		} else if (ch == ')') {
			depth--;
		} else if (ch == ';' || ch == '{' || ch == '}') {
			break;
		}
		advance(c);
	}
	for (size_t i = 0; i < n; i++)
		free(args[i]);
	return false;
}

/* "struct NAME" or "union NAME": the kind and NAME; false otherwise. */
static bool type_arg(const char *arg, enum ll_kind *kind, const char **name)
{
	if (strncmp(arg, "struct ", 7) == 0) {
		*kind = LL_STRUCT;
		*name = arg + 7;
	} else if (strncmp(arg, "union ", 6) == 0) {
		*kind = LL_UNION;
		*name = arg + 6;
	} else {
		return false;
	}
	return ll_c_identifier(*name);
}

static void add_assert(struct ll_group_asserts *out, const char *file, unsigned line,
		       unsigned column, bool size, char *args[3])
{
	enum ll_kind kind;
	const char *name;
	struct ll_group_assert *a;

	if (!type_arg(args[0], &kind, &name) || !ll_c_identifier(args[1]) || !*args[2])
		return;
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	a = &out->v[out->n++];
	memset(a, 0, sizeof(*a));
	a->kind = size ? LL_ASSERT_SIZE : LL_ASSERT_MEMBER;
	a->decl = (struct ll_decl){ xstrdup(file), line, column };
	a->struct_kind = kind;
	a->struct_name = xstrdup(name);
	a->group = xstrdup(args[1]);
	if (size) {
		a->size_text = xstrdup(args[2]);
		a->size_known = ll_eval_constant(a->size_text, &a->size);
	} else {
		/* offsetof's designator: blanks around '.' mean nothing. */
		struct strbuf m = STRBUF_INIT;

		for (const char *p = args[2]; *p; p++)
			if (*p != ' ')
				sb_addc(&m, *p);
		a->member = sb_detach(&m);
	}
}

void ll_group_asserts_parse(const char *file, const char *text, size_t len,
			    struct ll_group_asserts *out)
{
	struct cursor c = { text, text + len, 1, 1 };
	const size_t prefix = sizeof("CACHELINE_ASSERT_GROUP_") - 1;

	/* Most files have none: one search decides. */
	if (!memmem(text, len, size_macro, prefix))
		return;
	while (c.s < c.end) {
		if (skip_opaque(&c))
			continue;
		if (!ll_c_ident_byte(*c.s)) {
			advance(&c);
			continue;
		}
		const char *id = c.s;
		unsigned line = c.line, column = c.column;

		while (c.s < c.end && ll_c_ident_byte(*c.s))
			advance(&c);
		size_t n = (size_t)(c.s - id);
		bool size = n == sizeof(size_macro) - 1 && memcmp(id, size_macro, n) == 0;
		bool member = n == sizeof(member_macro) - 1 && memcmp(id, member_macro, n) == 0;
		char *args[3];

		if ((!size && !member) || !call_args(&c, args))
			continue;
		add_assert(out, file, line, column, size, args);
		for (int i = 0; i < 3; i++)
			free(args[i]);
	}
}

static bool source_name(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* DIR (REL below the root): its entries in name order, directories walked where they sort. */
static int walk(struct strbuf *path, size_t rel, struct ll_group_asserts *out, int depth,
		struct ll_error *err)
{
	char **names;
	size_t n;
	int rc = 0;

	if (depth > 64)
		return 0;
	if (ll_dir_names(path->buf, &names, &n))
		return depth ? 0 : ll_fail(err, "--srcdir %s: %s", path->buf, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		size_t len = path->len;
		struct stat st;

		sb_addf(path, "/%s", names[i]);
		if (lstat(path->buf, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				rc = walk(path, rel, out, depth + 1, err);
			} else if (S_ISREG(st.st_mode) && source_name(names[i])) {
				struct strbuf text = STRBUF_INIT;
				int why;

				if (ll_read_regular(path->buf, MAX_SOURCE_FILE, &text, &why) == 0) {
					out->files_scanned++;
					ll_group_asserts_parse(path->buf + rel, text.buf ? text.buf : "",
							       text.len, out);
				}
				sb_release(&text);
			}
		}
		path->len = len;
		path->buf[len] = '\0';
		free(names[i]);
	}
	free(names);
	return rc;
}

int ll_scan_group_asserts(const char *srcdir, struct ll_group_asserts *out, struct ll_error *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t rel;
	int rc;

	sb_adds(&path, srcdir);
	while (path.len > 1 && path.buf[path.len - 1] == '/')
		path.buf[--path.len] = '\0';
	rel = path.len + 1;
	rc = walk(&path, rel, out, 0, err);
	sb_release(&path);
	return rc;
}
