// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=patch (see srcpatch.h for what it promises).
 *
 * The reader is a C tokenizer, not a parser: it knows comments, strings,
 * preprocessor lines and brackets, which is all it takes to cut a struct
 * body into whole-line pieces and to find the ';' of each declaration. It
 * trusts nothing it cannot check: every member of the binary must map, by
 * its DWARF declaring line, to one declaration that spells its name, and
 * the pieces must tile the body line by line.
 */
#include "source/source_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "solver/suggest.h"
#include "source/randstruct.h"

int sp_refuse(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	sb_reset(why);
	va_start(ap, fmt);
	sb_vaddf(why, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- reading and tokenizing ---------------------------------------------- */

static int read_text(const char *path, char **text, size_t *len, struct strbuf *why)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	size_t n;

	if (!f)
		return sp_refuse(why, "cannot read %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (sb.len + n > MAX_SOURCE) {
			fclose(f);
			sb_release(&sb);
			return sp_refuse(why, "%s is larger than %u MB", path, MAX_SOURCE >> 20);
		}
		sb_add(&sb, chunk, n);
	}
	if (ferror(f)) {
		fclose(f);
		sb_release(&sb);
		return sp_refuse(why, "cannot read %s", path);
	}
	fclose(f);
	*len = sb.len;
	*text = sb.buf ? sb_detach(&sb) : xstrdup("");
	return 0;
}

static void split_lines(struct ll_source *src)
{
	size_t i = 0;

	src->nlines = 0;
	while (i < src->len) {
		const char *nl = memchr(src->text + i, '\n', src->len - i);

		src->line_off = xgrow(src->line_off, (size_t)src->nlines + 2, sizeof(size_t));
		src->line_off[++src->nlines] = i;
		i = nl ? (size_t)(nl - src->text) + 1 : src->len;
	}
	src->final_newline = !src->len || src->text[src->len - 1] == '\n';
}

size_t sp_line_len(const struct ll_source *src, unsigned line)
{
	size_t b = src->line_off[line], e = line < src->nlines ? src->line_off[line + 1] : src->len;

	if (e > b && src->text[e - 1] == '\n')
		e--;
	return e - b;
}

static bool is_ident(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '$';
}

static void push_tok(struct ll_source *src, enum tok_kind k, size_t b, size_t e, unsigned l0,
		     unsigned l1)
{
	src->toks = xgrow(src->toks, src->ntoks + 1, sizeof(*src->toks));
	src->toks[src->ntoks++] = (struct tok){ k, l0, l1, b, e - b };
}

/* Past a comment opening at I ("/ *" or "//"); counts newlines into *LINE. */
static size_t skip_comment(const char *t, size_t len, size_t i, unsigned *line)
{
	if (t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i++;
		return i;
	}
	for (i += 2; i < len; i++) {
		if (t[i] == '\n')
			(*line)++;
		else if (t[i] == '*' && i + 1 < len && t[i + 1] == '/')
			return i + 2;
	}
	return len;
}

static void tokenize(struct ll_source *src)
{
	const char *t = src->text;
	size_t len = src->len, i = 0;
	unsigned line = 1;
	bool line_start = true;

	while (i < len) {
		char c = t[i];
		size_t b = i;
		unsigned l0 = line;

		if (c == '\n') {
			line++;
			line_start = true;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && (t[i + 1] == '*' || t[i + 1] == '/')) {
			i = skip_comment(t, len, i, &line);
			push_tok(src, TK_COMMENT, b, i, l0, line);
			continue;
		}
		if (c == '#' && line_start) {
			/* The whole logical line, continuations and comments included. */
			while (i < len && t[i] != '\n') {
				if (t[i] == '\\' && i + 1 < len && t[i + 1] == '\n') {
					i += 2;
					line++;
				} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
					i = skip_comment(t, len, i, &line);
				} else {
					i++;
				}
			}
			push_tok(src, TK_PP, b, i, l0, line);
			continue;
		}
		line_start = false;
		if (c == '"' || c == '\'') {
			for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
				if (t[i] == '\\' && i + 1 < len)
					i++;
			if (i < len && t[i] == c)
				i++;
			push_tok(src, TK_STR, b, i, l0, line);
		} else if (is_ident(c) && !(c >= '0' && c <= '9')) {
			while (i < len && is_ident(t[i]))
				i++;
			push_tok(src, TK_IDENT, b, i, l0, line);
		} else if (c >= '0' && c <= '9') {
			while (i < len && (is_ident(t[i]) || t[i] == '.'))
				i++;
			push_tok(src, TK_NUM, b, i, l0, line);
		} else {
			push_tok(src, TK_PUNCT, b, i + 1, l0, line);
			i++;
		}
	}
}

static bool tok_is(const struct ll_source *src, size_t i, const char *word)
{
	const struct tok *k = &src->toks[i];
	size_t n = strlen(word);

	return k->len == n && memcmp(src->text + k->off, word, n) == 0;
}

static bool punct_is(const struct ll_source *src, size_t i, char c)
{
	return i < src->ntoks && src->toks[i].kind == TK_PUNCT && src->text[src->toks[i].off] == c;
}

/* The next token at or after I that is not a comment; NTOKS if none. */
static size_t next_code(const struct ll_source *src, size_t i)
{
	while (i < src->ntoks && src->toks[i].kind == TK_COMMENT)
		i++;
	return i;
}

/* The directive of a preprocessor token ("ifdef"), into BUF. */
static void pp_word(const struct ll_source *src, size_t i, char *buf, size_t n)
{
	const char *p = src->text + src->toks[i].off + 1, *e = src->text + src->toks[i].off +
							     src->toks[i].len;
	size_t k = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (p < e && is_ident(*p) && k + 1 < n)
		buf[k++] = *p++;
	buf[k] = '\0';
}

/* ---- finding the struct ---------------------------------------------------- */

/* The token after the brace matching the one at OPEN; SIZE_MAX if unbalanced. */
static size_t match_brace(const struct ll_source *src, size_t open)
{
	int depth = 0;

	for (size_t i = open; i < src->ntoks; i++) {
		if (punct_is(src, i, '{'))
			depth++;
		else if (punct_is(src, i, '}') && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

/* Token indices of the struct's '{' and '}'. */
static int find_struct(struct ll_source *src, size_t *ob, size_t *cb, struct strbuf *why)
{
	const struct ll_struct *s = src->s;
	const char *kw = s->kind == LL_UNION ? "union" : "struct";

	for (size_t i = 0; i < src->ntoks; i++) {
		if (src->toks[i].line != s->decl.line || src->toks[i].kind != TK_IDENT ||
		    !tok_is(src, i, kw))
			continue;
		size_t j = next_code(src, i + 1), k;

		if (j < src->ntoks && src->toks[j].kind == TK_IDENT && tok_is(src, j, s->name)) {
			k = next_code(src, j + 1);
			if (!punct_is(src, k, '{'))
				continue;
		} else if (punct_is(src, j, '{')) {
			/* typedef struct { ... } NAME; */
			size_t c = match_brace(src, j), n = c == SIZE_MAX ? c : next_code(src, c + 1);

			if (n >= src->ntoks || src->toks[n].kind != TK_IDENT || !tok_is(src, n, s->name))
				continue;
			k = j;
		} else {
			continue;
		}
		*ob = k;
		*cb = match_brace(src, k);
		if (*cb == SIZE_MAX)
			return sp_refuse(why, "%s:%u: %s %s: its braces do not balance", src->path,
					 s->decl.line, kw, s->name);
		return 0;
	}
	return sp_refuse(why, "%s:%u: no '%s %s {' on that line: the source is not the one the "
			 "binary was built from, or the struct is macro-generated", src->path,
			 s->decl.line, kw, s->name);
}

/* ---- cutting the body into pieces ---------------------------------------- */

static void push_decl(struct ll_source *src, size_t t0, size_t t1)
{
	src->decls = xgrow(src->decls, src->ndecls + 1, sizeof(*src->decls));
	src->decls[src->ndecls++] = (struct decl){ t0, t1, src->toks[t0].line,
						   src->toks[t1].line, 0 };
}

/* The ';' ending the declaration at T (bracket depth 0), or SIZE_MAX. */
static size_t decl_end(const struct ll_source *src, size_t t, size_t to, bool allow_pp,
		       size_t *bad_pp)
{
	int depth = 0;

	for (size_t i = t; i < to; i++) {
		const struct tok *k = &src->toks[i];

		if (k->kind == TK_PP) {
			if (!depth && !allow_pp) {
				*bad_pp = i;
				return SIZE_MAX;
			}
			continue;
		}
		if (k->kind != TK_PUNCT)
			continue;
		char c = src->text[k->off];

		if (c == '{' || c == '(' || c == '[')
			depth++;
		else if (c == '}' || c == ')' || c == ']')
			depth--;
		else if (c == ';' && depth == 0)
			return i;
	}
	return SIZE_MAX;
}

/* The last line of a piece ending at token END: comments opening on its line go with it. */
static unsigned tail_line(const struct ll_source *src, size_t end)
{
	unsigned last = src->toks[end].end_line;

	for (size_t i = end + 1; i < src->ntoks && src->toks[i].line == src->toks[end].end_line &&
	     src->toks[i].kind == TK_COMMENT; i++)
		last = src->toks[i].end_line > last ? src->toks[i].end_line : last;
	return last;
}

/* The #endif matching the #if at I, or SIZE_MAX. */
static size_t match_endif(const struct ll_source *src, size_t i, size_t to)
{
	int depth = 0;
	char w[16];

	for (size_t k = i; k < to; k++) {
		if (src->toks[k].kind != TK_PP)
			continue;
		pp_word(src, k, w, sizeof(w));
		if (strncmp(w, "if", 2) == 0)
			depth++;
		else if (strcmp(w, "endif") == 0 && --depth == 0)
			return k;
	}
	return SIZE_MAX;
}

static int cut_pieces(struct ll_source *src, size_t ob, size_t cb, struct strbuf *why)
{
	unsigned prev_last = src->toks[ob].line;	/* last line taken so far */
	char w[16];

	for (size_t t = next_code(src, ob + 1); t < cb; t = next_code(src, t + 1)) {
		const struct tok *k = &src->toks[t];
		struct piece p = { .first = prev_last + 1, .d0 = src->ndecls };
		size_t end;

		if (k->line <= prev_last)
			return sp_refuse(why, "%s:%u: two declarations share this line; move them to "
					 "lines of their own first", src->path, k->line);
		if (k->kind == TK_PP) {
			pp_word(src, t, w, sizeof(w));
			if (strncmp(w, "if", 2) != 0)
				return sp_refuse(why, "%s:%u: '#%s' between members, outside any #if run",
						 src->path, k->line, w);
			end = match_endif(src, t, cb);
			if (end == SIZE_MAX)
				return sp_refuse(why, "%s:%u: '#%s' has no #endif inside the struct",
						 src->path, k->line, w);
			p.conditional = true;
			for (size_t d = next_code(src, t + 1); d < end; d = next_code(src, d + 1)) {
				size_t bad, semi;

				if (src->toks[d].kind == TK_PP)
					continue;
				semi = decl_end(src, d, end, true, &bad);
				if (semi == SIZE_MAX)
					return sp_refuse(why, "%s:%u: a declaration the #if run does not "
							 "close", src->path, src->toks[d].line);
				push_decl(src, d, semi);
				d = semi;
			}
			p.last = tail_line(src, end);
		} else {
			size_t bad = SIZE_MAX;

			end = decl_end(src, t, cb, false, &bad);
			if (end == SIZE_MAX && bad != SIZE_MAX)
				return sp_refuse(why, "%s:%u: a preprocessor line inside the declaration "
						 "that starts at line %u", src->path, src->toks[bad].line,
						 k->line);
			if (end == SIZE_MAX)
				return sp_refuse(why, "%s:%u: a declaration without its ';'", src->path,
						 k->line);
			push_decl(src, t, end);
			p.last = tail_line(src, end);
		}
		p.nd = src->ndecls - p.d0;
		src->pieces = xgrow(src->pieces, src->npieces + 1, sizeof(*src->pieces));
		src->pieces[src->npieces++] = p;
		prev_last = p.last;
		t = end;
		/* Skip the comments tail_line() gave to this piece. */
		while (t + 1 < cb && src->toks[t + 1].kind == TK_COMMENT &&
		       src->toks[t + 1].line == src->toks[end].end_line)
			t++;
	}
	if (src->toks[cb].line <= prev_last)
		return sp_refuse(why, "%s:%u: the struct's '}' shares a line with a declaration",
				 src->path, src->toks[cb].line);
	src->body_first = src->toks[ob].line + 1;
	src->body_last = src->toks[cb].line - 1;
	/* A comment opening on the '{' line must close there: the body is whole lines. */
	for (size_t i = ob + 1; i < cb && src->toks[i].line == src->toks[ob].line; i++)
		if (src->toks[i].end_line != src->toks[ob].line)
			return sp_refuse(why, "%s:%u: a comment that opens on the '{' line runs on",
					 src->path, src->toks[ob].line);
	return 0;
}

/* ---- mapping members to declarations -------------------------------------- */

static bool decl_spells(const struct ll_source *src, const struct decl *d, const char *name)
{
	for (size_t i = d->t0; i <= d->t1; i++)
		if (src->toks[i].kind == TK_IDENT && tok_is(src, i, name))
			return true;
	return false;
}

/*
 * The kernel's cacheline group markers (include/linux/cache.h): the
 * declaration "__cacheline_group_begin(G);" declares the zero-size member
 * __cacheline_group_begin__G, "__cacheline_group_end_aligned(G);" the end
 * marker and __cacheline_group_pad__G. Only these macros are trusted to
 * generate members whose names the source does not spell.
 */
static bool decl_is_group_marker(const struct ll_source *src, const struct decl *d,
				 const char *name)
{
	static const char prefix[] = "__cacheline_group_";
	const struct tok *m = &src->toks[d->t0];
	const char *macro = src->text + m->off;
	size_t a = next_code(src, d->t0 + 1), g = next_code(src, a + 1);

	if (m->kind != TK_IDENT || m->len <= sizeof(prefix) - 1 ||
	    memcmp(macro, prefix, sizeof(prefix) - 1) != 0 || !punct_is(src, a, '(') ||
	    g >= src->ntoks || src->toks[g].kind != TK_IDENT)
		return false;
	/* The kind the macro names: begin, end, begin_aligned or end_aligned. */
	const char *kind = macro + sizeof(prefix) - 1;
	size_t klen = m->len - (sizeof(prefix) - 1);
	bool aligned = klen > 8 && memcmp(kind + klen - 8, "_aligned", 8) == 0;
	size_t base = aligned ? klen - 8 : klen;
	struct strbuf want = STRBUF_INIT;
	bool ok = false;

	if ((base == 5 && memcmp(kind, "begin", 5) == 0) || (base == 3 && memcmp(kind, "end", 3) == 0)) {
		for (int pad = 0; pad < 1 + (aligned && base == 3) && !ok; pad++) {
			sb_reset(&want);
			sb_addf(&want, "%s%.*s__%.*s", prefix, pad ? 3 : (int)base, pad ? "pad" : kind,
				(int)src->toks[g].len, src->text + src->toks[g].off);
			ok = strcmp(want.buf, name) == 0;
		}
	}
	sb_release(&want);
	return ok;
}

static bool decl_has_brace(const struct ll_source *src, const struct decl *d)
{
	for (size_t i = d->t0; i <= d->t1; i++)
		if (punct_is(src, i, '{'))
			return true;
	return false;
}

/*
 * The body of D: OB its first '{', CB the '}' that closes it. False when D
 * has no body whose braces balance inside it.
 */
static bool decl_body(const struct ll_source *src, const struct decl *d, size_t *ob, size_t *cb)
{
	*ob = SIZE_MAX;
	for (size_t t = d->t0; t <= d->t1 && *ob == SIZE_MAX; t++)
		if (punct_is(src, t, '{'))
			*ob = t;
	*cb = *ob == SIZE_MAX ? SIZE_MAX : match_brace(src, *ob);
	return *cb != SIZE_MAX && *cb <= d->t1;
}

/*
 * A declaration of an anonymous struct or union: a body, then nothing but
 * attributes ("} __randomize_layout;"), no declarator naming a member.
 */
static bool decl_is_anonymous(const struct ll_source *src, const struct decl *d)
{
	size_t ob, cb;

	if (!decl_body(src, d, &ob, &cb))
		return false;
	for (size_t t = cb + 1; t < d->t1; t++) {
		if (src->toks[t].kind != TK_IDENT)
			continue;
		for (size_t i = 0; i < src->n; i++)
			if (src->members[i].name && tok_is(src, t, src->members[i].name))
				return false;
	}
	return true;
}

const char *sp_member_label(const struct ll_member *m)
{
	return m->name ? m->name : m->is_aggregate ? (m->agg_kind == LL_UNION ?
				   "<anonymous union>" : "<anonymous struct>") : "<unnamed>";
}

/*
 * A declarator's type as words, stars and array lengths, enough to tell
 * "char a" from "long a": qualifiers and words starting "__" (the
 * kernel's __rcu, __percpu; and on both sides alike __u32) left out,
 * the base type keywords in one order (long unsigned int = unsigned long).
 */
struct type_shape {
	char words[160];	/* names: typedefs, tags, and macros the source may use */
	char base[32];		/* the base type keywords, one spelling; "" when none */
	unsigned stars;
	unsigned long dims[4];
	unsigned ndims;
	bool unknown_dim;
};

static bool base_word(const char *w)
{
	static const char *const kw[] = { "signed", "unsigned", "short", "long", "int", "char",
					  "_Bool", "float", "double", "void" };

	for (size_t i = 0; i < sizeof(kw) / sizeof(*kw); i++)
		if (strcmp(w, kw[i]) == 0)
			return true;
	return false;
}

/* Add word W (LEN bytes) to SH, or fold it into the base-type counts. */
static void shape_word(struct type_shape *sh, unsigned base[10], const char *w, size_t len)
{
	static const char *const kw[] = { "signed", "unsigned", "short", "long", "int", "char",
					  "_Bool", "float", "double", "void" };
	char buf[64];

	if (len >= sizeof(buf) || (len >= 2 && w[0] == '_' && w[1] == '_'))
		return;
	memcpy(buf, w, len);
	buf[len] = '\0';
	if (!strcmp(buf, "const") || !strcmp(buf, "volatile") || !strcmp(buf, "restrict") ||
	    !strcmp(buf, "register"))
		return;
	if (strcmp(buf, "bool") == 0)	/* the kernel's typedef of _Bool, C23's keyword */
		snprintf(buf, sizeof(buf), "_Bool");
	if (base_word(buf)) {
		for (int k = 0; k < 10; k++)
			if (strcmp(buf, kw[k]) == 0)
				base[k]++;
		return;
	}
	if (strlen(sh->words) + len + 2 < sizeof(sh->words)) {
		if (sh->words[0])
			strcat(sh->words, " ");
		strcat(sh->words, buf);
	}
}

/* The base type the keyword counts BASE spell, appended to SH's words. */
static void shape_base(struct type_shape *sh, const unsigned base[10])
{
	enum { SIGNED, UNSIGNED, SHORT, LONG, INT, CHAR, BOOL, FLOAT, DOUBLE, VOID };
	char b[64] = "";
	bool any = false;

	for (int k = 0; k < 10; k++)
		any |= base[k] != 0;
	if (!any)
		return;
	if (base[CHAR])
		snprintf(b, sizeof(b), "%schar", base[UNSIGNED] ? "unsigned " :
			 base[SIGNED] ? "signed " : "");
	else if (base[BOOL] || base[VOID])
		snprintf(b, sizeof(b), "%s", base[BOOL] ? "_Bool" : "void");
	else if (base[FLOAT] || base[DOUBLE])
		snprintf(b, sizeof(b), "%s%s", base[LONG] ? "long " : "",
			 base[FLOAT] ? "float" : "double");
	else
		snprintf(b, sizeof(b), "%s%s%s%sint", base[UNSIGNED] ? "unsigned " : "",
			 base[SHORT] ? "short " : "", base[LONG] ? "long " : "",
			 base[LONG] > 1 ? "long " : "");
	snprintf(sh->base, sizeof(sh->base), "%s", b);
}

/* The shape of the C type TYPE as the debug info spells it; false when not simple. */
static bool dwarf_shape(const char *type, struct type_shape *sh)
{
	unsigned base[10] = { 0 };

	memset(sh, 0, sizeof(*sh));
	for (const char *c = type; *c;) {
		if (*c == ' ') {
			c++;
		} else if (*c == '*') {
			sh->stars++;
			c++;
		} else if (*c == '[') {
			char *end;
			unsigned long v = strtoul(c + 1, &end, 10);

			if (*end != ']' || sh->ndims == 4)
				return false;
			sh->dims[sh->ndims++] = v;
			c = end + 1;
		} else if (*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) {
			const char *w = c;

			while (*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			       (*c >= '0' && *c <= '9'))
				c++;
			shape_word(sh, base, w, (size_t)(c - w));
		} else {
			return false;	/* a function pointer, an anonymous type: not compared */
		}
	}
	shape_base(sh, base);
	return true;
}

/*
 * The shape of member NAME's type in declaration D, when D is one plain
 * declarator (words and stars, the name, array lengths, a bit width);
 * false for anything else (attributes, function pointers, bodies, macros
 * after the name), which is then not compared.
 */
static bool source_shape(const struct ll_source *src, const struct decl *d, const char *name,
			 struct type_shape *sh, unsigned long *bits, bool *has_bits)
{
	unsigned base[10] = { 0 };
	size_t i = d->t0, at = SIZE_MAX;

	memset(sh, 0, sizeof(*sh));
	*has_bits = false;
	for (; i < d->t1; i++) {
		const struct tok *k = &src->toks[i];

		if (k->kind == TK_COMMENT)
			continue;
		if (k->kind == TK_IDENT && tok_is(src, i, name)) {
			at = i;
			break;
		}
		if (k->kind == TK_IDENT)
			shape_word(sh, base, src->text + k->off, k->len);
		else if (punct_is(src, i, '*'))
			sh->stars++;
		else
			return false;
	}
	if (at == SIZE_MAX)
		return false;
	for (i = at + 1; i < d->t1; i++) {
		if (src->toks[i].kind == TK_COMMENT)
			continue;
		if (punct_is(src, i, '[') && i + 2 <= d->t1 && punct_is(src, i + 2, ']') &&
		    sh->ndims < 4) {
			if (src->toks[i + 1].kind == TK_NUM)
				sh->dims[sh->ndims] = strtoul(src->text + src->toks[i + 1].off, NULL, 0);
			else
				sh->unknown_dim = true;
			sh->ndims++;
			i += 2;
		} else if (punct_is(src, i, ':') && i + 1 < d->t1 &&
			   src->toks[i + 1].kind == TK_NUM) {
			*bits = strtoul(src->text + src->toks[i + 1].off, NULL, 0);
			*has_bits = true;
			i++;
		} else {
			return false;
		}
	}
	shape_base(sh, base);
	return true;
}

/*
 * Whether member M's declaration D says another type than the build did
 * (a header edited after the build, the same names on the same lines):
 * the proposal's offsets would be promised for the build's types. SRC_TYPE
 * gets the source's words.
 */
static bool declared_otherwise(const struct ll_source *src, const struct decl *d,
			       const struct ll_member *m, struct strbuf *src_type)
{
	struct type_shape a, b;
	unsigned long bits = 0;
	bool has_bits;

	if (!m->name || !m->type || !source_shape(src, d, m->name, &a, &bits, &has_bits) ||
	    !dwarf_shape(m->type, &b))
		return false;
	sb_adds(src_type, a.words);
	sb_addf(src_type, "%s%s", a.words[0] && a.base[0] ? " " : "", a.base);
	for (unsigned k = 0; k < a.stars; k++)
		sb_adds(src_type, k ? "*" : " *");
	/*
	 * Names are not compared: the preprocessor may rename them
	 * (#define rcu_head callback_head) or add words that expand to
	 * nothing (randomized_struct_fields_start). Base types, pointers,
	 * array lengths and bit widths it does not touch.
	 */
	if ((a.base[0] && b.base[0] && strcmp(a.base, b.base) != 0) || a.stars != b.stars ||
	    a.ndims != b.ndims || (has_bits && m->is_bitfield && bits != m->bit_size))
		return true;
	for (unsigned k = 0; k < a.ndims && !a.unknown_dim; k++)
		if (a.dims[k] != b.dims[k])
			return true;
	return false;
}

static int map_members(struct ll_source *src, struct strbuf *why)
{
	const struct ll_struct *s = src->s;
	size_t n = src->n;

	free(src->piece_of);
	free(src->decl_of);
	src->piece_of = xcalloc(n ? n : 1, sizeof(*src->piece_of));
	src->decl_of = xcalloc(n ? n : 1, sizeof(*src->decl_of));
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &src->members[i];
		size_t p, d = SIZE_MAX;

		if (!m->decl.line && !m->name && m->is_aggregate) {
			/*
			 * gcc gives an anonymous struct or union no declaring line:
			 * it is the next declaration with a body, and the order
			 * check below catches a guess that skips a member.
			 */
			for (size_t k = i ? src->decl_of[i - 1] + 1 : 0; k < src->ndecls && d == SIZE_MAX; k++)
				if (decl_is_anonymous(src, &src->decls[k]))
					d = k;
			for (p = 0; d != SIZE_MAX && p < src->npieces; p++)
				if (d >= src->pieces[p].d0 && d < src->pieces[p].d0 + src->pieces[p].nd)
					break;
			if (d != SIZE_MAX)
				goto mapped;
		}
		if (!m->decl.line || !m->decl.file || strcmp(m->decl.file, s->decl.file) != 0)
			return sp_refuse(why, "%s:%u: %s %s: the debug info declares member %s %s%s, "
					 "not in the struct's body (macro-generated?)", src->path,
					 s->decl.line, ll_kind_name(s->kind), s->name, sp_member_label(m),
					 m->decl.file ? "in " : "nowhere",
					 m->decl.file ? m->decl.file : "");
		for (p = 0; p < src->npieces && d == SIZE_MAX; p++)
			for (size_t k = src->pieces[p].d0; k < src->pieces[p].d0 + src->pieces[p].nd; k++)
				if (src->decls[k].first_line <= m->decl.line &&
				    m->decl.line <= src->decls[k].semi_line) {
					d = k;
					break;
				}
		if (d == SIZE_MAX)
			return sp_refuse(why, "%s:%u: member %s of %s %s is declared here, outside "
					 "every declaration of the struct's body (macro-generated?)",
					 src->path, m->decl.line, sp_member_label(m), ll_kind_name(s->kind), s->name);
		p--;
mapped:
		if (m->name ? !decl_spells(src, &src->decls[d], m->name) &&
			      !decl_is_group_marker(src, &src->decls[d], m->name) :
		    m->is_aggregate && !decl_has_brace(src, &src->decls[d]))
			return sp_refuse(why, "%s:%u: member %s of %s %s is not spelled out in the "
					 "declaration there (macro-generated?)", src->path, m->decl.line,
					 sp_member_label(m), ll_kind_name(s->kind), s->name);
		struct strbuf said = STRBUF_INIT;

		if (m->name && declared_otherwise(src, &src->decls[d], m, &said)) {
			sp_refuse(why, "%s:%u: member %s of %s %s is '%s' in the source but '%s' in the "
				  "build: the source differs from the build (rebuild, or check out the "
			       "revision built)", src->path, m->decl.line, sp_member_label(m),
				  ll_kind_name(s->kind), s->name, said.buf, m->type);
			sb_release(&said);
			return -1;
		}
		sb_release(&said);
		if (i && p < src->piece_of[i - 1])
			return sp_refuse(why, "%s:%u: member %s comes before %s in the source but after "
					 "it in the binary", src->path, m->decl.line, sp_member_label(m),
					 sp_member_label(&src->members[i - 1]));
		src->piece_of[i] = p;
		src->decl_of[i] = d;
		src->pieces[p].nmembers++;
		src->decls[d].nmembers++;
	}
	/* Compiled out: a piece with no member moves with the piece above it. */
	for (size_t p = 0; p < src->npieces; p++) {
		size_t h = p;

		while (h < src->npieces && !src->pieces[h].nmembers)
			h = h ? h - 1 : SIZE_MAX;
		if (h == SIZE_MAX)
			for (h = p; h < src->npieces && !src->pieces[h].nmembers; h++)
				;
		src->pieces[p].host = h < src->npieces ? h : p;
	}
	return 0;
}

static bool file_has(const char *path, const char *needle)
{
	char *text;
	size_t len;
	struct strbuf why = STRBUF_INIT;
	bool found = false;

	if (read_text(path, &text, &len, &why) == 0) {
		found = memmem(text, len, needle, strlen(needle)) != NULL;
		free(text);
	}
	sb_release(&why);
	return found;
}

/* The tree's own spelling of "start a new cacheline", from what it already has. */
static void detect_idiom(struct ll_source *src, const char *srcdir)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s/include/linux/cache.h", srcdir ? srcdir : ".");
	if (memmem(src->text, src->len, "____cacheline_aligned_in_smp", 28) ||
	    file_has(sb.buf, "define ____cacheline_aligned_in_smp"))
		src->idiom = IDIOM_KERNEL;
	else if (memmem(src->text, src->len, "<stdalign.h>", 12) ||
		 memmem(src->text, src->len, "alignas(", 8))
		src->idiom = IDIOM_ALIGNAS;
	else
		src->idiom = IDIOM_C11;
	/* Else __builtin_offsetof (gcc, clang): the header may not include <stddef.h>. */
	src->has_offsetof = src->idiom == IDIOM_KERNEL ||
			    memmem(src->text, src->len, "<stddef.h>", 10);
	sb_release(&sb);
}

/*
 * Into the anonymous struct a level consists of, as the solver's levels go
 * (suggest.h): one non-empty member among zero-size ones, an unnamed,
 * unpinned struct. Its body is cut and mapped as the struct's was.
 */
static int descend(struct ll_source *src, struct strbuf *why)
{
	for (int depth = 0; depth < 15; depth++) {
		size_t nonempty = 0, which = 0;

		for (size_t i = 0; i < src->n; i++) {
			const struct ll_member *m = &src->members[i];

			if (m->is_bitfield || m->size) {
				nonempty++;
				which = i;
			}
		}
		const struct ll_member *x = &src->members[which];

		if (nonempty != 1 || x->name || !x->is_aggregate || x->agg_kind != LL_STRUCT ||
		    !x->nr_children || x->pinned)
			return 0;
		const struct decl *d = &src->decls[src->decl_of[which]];
		size_t ob, cb;

		if (!decl_body(src, d, &ob, &cb))
			return sp_refuse(why, "%s:%u: the anonymous struct's braces do not balance",
					 src->path, d->first_line);
		src->ndecls = 0;
		src->npieces = 0;
		src->members = x->children;
		src->n = x->nr_children;
		if (cut_pieces(src, ob, cb, why) || map_members(src, why))
			return -1;
	}
	return 0;
}

/* Whether the relative PATH, read component by component, climbs above its start. */
static bool escapes_tree(const char *path)
{
	long depth = 0;

	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return true;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += *p == '/';
	}
	return false;
}

struct ll_source *ll_source_read(const struct ll_struct *s, const char *srcdir,
				 struct strbuf *why)
{
	struct ll_source *src;
	struct strbuf fs = STRBUF_INIT;
	size_t ob = 0, cb = 0;

	if (!s->decl.file || !s->decl.line) {
		sp_refuse(why, "%s %s: the debug info names no declaring file (BTF has none; use "
		       "DWARF)", ll_kind_name(s->kind), s->name);
		return NULL;
	}
	if (s->decl.file[0] == '/') {
		sp_refuse(why, "%s:%u: %s %s: declared outside %s; give the tree with --srcdir",
			  s->decl.file, s->decl.line, ll_kind_name(s->kind), s->name,
			  srcdir ? srcdir : "the current directory");
		return NULL;
	}
	/*
	 * "../include/x.h" (an ordinary -fdebug-prefix-map build) names a file
	 * outside the tree: never read nor patched, and git apply refuses it.
	 */
	if (escapes_tree(s->decl.file)) {
		sp_refuse(why, "%s:%u: %s %s: declared outside %s (the path climbs out of it with "
		       "'..'); give the tree it is in with --srcdir, or map it with --prefix-map",
			  s->decl.file, s->decl.line, ll_kind_name(s->kind), s->name,
			  srcdir ? srcdir : "the current directory");
		return NULL;
	}
	src = xcalloc(1, sizeof(*src));
	src->s = s;
	if (ll_source_randomized(srcdir, s, &src->randomized_line) == LL_RAND_NONE)
		src->randomized_line = 0;
	else if (!src->randomized_line)
		src->randomized_line = s->decl.line ? s->decl.line : 1;
	src->path = xstrdup(s->decl.file);
	sb_addf(&fs, "%s/%s", srcdir ? srcdir : ".", s->decl.file);
	if (read_text(fs.buf, &src->text, &src->len, why))
		goto fail;
	split_lines(src);
	tokenize(src);
	src->members = s->members;
	src->n = s->nr_members;
	if (find_struct(src, &ob, &cb, why) || cut_pieces(src, ob, cb, why) ||
	    map_members(src, why) || descend(src, why))
		goto fail;
	src->open_line = src->toks[ob].line;
	src->end_line = src->toks[cb].line;
	for (size_t i = cb + 1; i < src->ntoks; i++) {
		if (punct_is(src, i, ';')) {
			src->end_line = tail_line(src, i);
			break;
		}
	}
	detect_idiom(src, srcdir);
	sb_release(&fs);
	return src;
fail:
	sb_release(&fs);
	ll_source_free(src);
	return NULL;
}

void ll_source_free(struct ll_source *src)
{
	if (!src)
		return;
	ll_free_all(src->path, src->text, src->line_off, src->toks, src->decls, src->pieces,
		    src->piece_of, src->decl_of, src);
}

bool ll_source_glued(const struct ll_member *m, void *arg)
{
	const struct ll_source *src = arg;
	const struct ll_member *v = src->members;
	size_t n = src->n;

	if (m < v || m >= v + n || m + 1 >= v + n)
		return false;
	return src->piece_of[m - v] == src->piece_of[m - v + 1];
}

static size_t piece_lines(const struct ll_source *src, size_t p)
{
	size_t n = 0;

	for (size_t q = 0; q < src->npieces; q++)
		if (q == p || (!src->pieces[q].nmembers && src->pieces[q].host == p))
			n += src->pieces[q].last - src->pieces[q].first + 1;
	return n;
}

size_t ll_source_weight(const struct ll_member *first, size_t count, void *arg)
{
	const struct ll_source *src = arg;
	const struct ll_member *v = src->members;
	size_t n = src->n, lines = 0, last = SIZE_MAX;

	if (first < v || first >= v + n)
		return 1;
	for (size_t i = (size_t)(first - v); i < (size_t)(first - v) + count && i < n; i++) {
		if (src->piece_of[i] != last)
			lines += piece_lines(src, src->piece_of[i]);
		last = src->piece_of[i];
	}
	return lines;
}

const char *ll_source_path(const struct ll_source *src)
{
	return src->path;
}

unsigned ll_source_line(const struct ll_source *src)
{
	return src->s->decl.line;
}
