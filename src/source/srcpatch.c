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
#include "source/srcpatch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "solver/suggest.h"
#include "source/randstruct.h"

#define MAX_SOURCE (64u << 20)	/* larger than any header; beyond it, refuse */
#define CONTEXT 3		/* lines of context around a hunk, as diff -u */

enum tok_kind { TK_IDENT, TK_NUM, TK_STR, TK_PUNCT, TK_COMMENT, TK_PP };

struct tok {
	enum tok_kind kind;
	unsigned line, end_line;	/* 1-based */
	size_t off, len;
};

/* One declaration: from its first token to its ';'. */
struct decl {
	size_t t0, t1;			/* tokens [t0, t1], t1 the ';' */
	unsigned first_line, semi_line;
	size_t nmembers;
};

/* What moves as one: lines [first, last] of the file. */
struct piece {
	unsigned first, last;
	bool conditional;		/* an #if ... #endif run */
	size_t d0, nd;			/* its declarations in src->decls */
	size_t nmembers;
	size_t host;			/* a piece with no member moves with this one */
};

struct ll_source {
	const struct ll_struct *s;
	/*
	 * The level that moves: the struct's members, or those of the
	 * anonymous struct it consists of (mm_struct), as the solver picks.
	 */
	const struct ll_member *members;
	size_t n;
	char *path;			/* in the diff */
	char *text;
	size_t len;
	size_t *line_off;		/* start of each line, 1-based (line_off[0] unused) */
	unsigned nlines;
	bool final_newline;
	struct tok *toks;
	size_t ntoks;
	unsigned open_line;		/* the "struct NAME {" line */
	unsigned body_first, body_last;	/* lines strictly inside the braces */
	unsigned end_line;		/* the line of the ';' that ends the struct */
	struct decl *decls;
	size_t ndecls;
	struct piece *pieces;
	size_t npieces;
	size_t *piece_of;		/* per top-level member */
	size_t *decl_of;
	enum { IDIOM_KERNEL, IDIOM_ALIGNAS, IDIOM_C11 } idiom;
	bool has_offsetof;		/* offsetof is known where the struct is */
	unsigned randomized_line;	/* __randomize_layout (or randomized fields) there */
};

static int refuse(struct strbuf *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(struct strbuf *why, const char *fmt, ...)
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
		return refuse(why, "cannot read %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (sb.len + n > MAX_SOURCE) {
			fclose(f);
			sb_release(&sb);
			return refuse(why, "%s is larger than %u MB", path, MAX_SOURCE >> 20);
		}
		sb_add(&sb, chunk, n);
	}
	if (ferror(f)) {
		fclose(f);
		sb_release(&sb);
		return refuse(why, "cannot read %s", path);
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

static size_t line_len(const struct ll_source *src, unsigned line)
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
			return refuse(why, "%s:%u: %s %s: its braces do not balance", src->path,
				      s->decl.line, kw, s->name);
		return 0;
	}
	return refuse(why, "%s:%u: no '%s %s {' on that line: the source is not the one the "
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
			return refuse(why, "%s:%u: two declarations share this line; move them to "
				      "lines of their own first", src->path, k->line);
		if (k->kind == TK_PP) {
			pp_word(src, t, w, sizeof(w));
			if (strncmp(w, "if", 2) != 0)
				return refuse(why, "%s:%u: '#%s' between members, outside any #if run",
					      src->path, k->line, w);
			end = match_endif(src, t, cb);
			if (end == SIZE_MAX)
				return refuse(why, "%s:%u: '#%s' has no #endif inside the struct",
					      src->path, k->line, w);
			p.conditional = true;
			for (size_t d = next_code(src, t + 1); d < end; d = next_code(src, d + 1)) {
				size_t bad, semi;

				if (src->toks[d].kind == TK_PP)
					continue;
				semi = decl_end(src, d, end, true, &bad);
				if (semi == SIZE_MAX)
					return refuse(why, "%s:%u: a declaration the #if run does not "
						      "close", src->path, src->toks[d].line);
				push_decl(src, d, semi);
				d = semi;
			}
			p.last = tail_line(src, end);
		} else {
			size_t bad = SIZE_MAX;

			end = decl_end(src, t, cb, false, &bad);
			if (end == SIZE_MAX && bad != SIZE_MAX)
				return refuse(why, "%s:%u: a preprocessor line inside the declaration "
					      "that starts at line %u", src->path, src->toks[bad].line,
					      k->line);
			if (end == SIZE_MAX)
				return refuse(why, "%s:%u: a declaration without its ';'", src->path,
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
		return refuse(why, "%s:%u: the struct's '}' shares a line with a declaration",
			      src->path, src->toks[cb].line);
	src->body_first = src->toks[ob].line + 1;
	src->body_last = src->toks[cb].line - 1;
	/* A comment opening on the '{' line must close there: the body is whole lines. */
	for (size_t i = ob + 1; i < cb && src->toks[i].line == src->toks[ob].line; i++)
		if (src->toks[i].end_line != src->toks[ob].line)
			return refuse(why, "%s:%u: a comment that opens on the '{' line runs on",
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
 * A declaration of an anonymous struct or union: a body, then nothing but
 * attributes ("} __randomize_layout;"), no declarator naming a member.
 */
static bool decl_is_anonymous(const struct ll_source *src, const struct decl *d)
{
	size_t ob = SIZE_MAX, cb;

	for (size_t t = d->t0; t <= d->t1 && ob == SIZE_MAX; t++)
		if (punct_is(src, t, '{'))
			ob = t;
	cb = ob == SIZE_MAX ? SIZE_MAX : match_brace(src, ob);
	if (cb == SIZE_MAX || cb > d->t1)
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

static const char *label(const struct ll_member *m)
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
			return refuse(why, "%s:%u: %s %s: the debug info declares member %s %s%s, "
				      "not in the struct's body (macro-generated?)", src->path,
				      s->decl.line, ll_kind_name(s->kind), s->name, label(m),
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
			return refuse(why, "%s:%u: member %s of %s %s is declared here, outside "
				      "every declaration of the struct's body (macro-generated?)",
				      src->path, m->decl.line, label(m), ll_kind_name(s->kind), s->name);
		p--;
mapped:
		if (m->name ? !decl_spells(src, &src->decls[d], m->name) &&
			      !decl_is_group_marker(src, &src->decls[d], m->name) :
		    m->is_aggregate && !decl_has_brace(src, &src->decls[d]))
			return refuse(why, "%s:%u: member %s of %s %s is not spelled out in the "
				      "declaration there (macro-generated?)", src->path, m->decl.line,
				      label(m), ll_kind_name(s->kind), s->name);
		struct strbuf said = STRBUF_INIT;

		if (m->name && declared_otherwise(src, &src->decls[d], m, &said)) {
			refuse(why, "%s:%u: member %s of %s %s is '%s' in the source but '%s' in the "
			       "build: the source differs from the build (rebuild, or check out the "
			       "revision built)", src->path, m->decl.line, label(m),
			       ll_kind_name(s->kind), s->name, said.buf, m->type);
			sb_release(&said);
			return -1;
		}
		sb_release(&said);
		if (i && p < src->piece_of[i - 1])
			return refuse(why, "%s:%u: member %s comes before %s in the source but after "
				      "it in the binary", src->path, m->decl.line, label(m),
				      label(&src->members[i - 1]));
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
		size_t ob = SIZE_MAX, cb;

		for (size_t t = d->t0; t <= d->t1 && ob == SIZE_MAX; t++)
			if (punct_is(src, t, '{'))
				ob = t;
		cb = ob == SIZE_MAX ? SIZE_MAX : match_brace(src, ob);
		if (cb == SIZE_MAX || cb > d->t1)
			return refuse(why, "%s:%u: the anonymous struct's braces do not balance",
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
		refuse(why, "%s %s: the debug info names no declaring file (BTF has none; use "
		       "DWARF)", ll_kind_name(s->kind), s->name);
		return NULL;
	}
	if (s->decl.file[0] == '/') {
		refuse(why, "%s:%u: %s %s: declared outside %s; give the tree with --srcdir",
		       s->decl.file, s->decl.line, ll_kind_name(s->kind), s->name,
		       srcdir ? srcdir : "the current directory");
		return NULL;
	}
	/*
	 * "../include/x.h" (an ordinary -fdebug-prefix-map build) names a file
	 * outside the tree: never read nor patched, and git apply refuses it.
	 */
	if (escapes_tree(s->decl.file)) {
		refuse(why, "%s:%u: %s %s: declared outside %s (the path climbs out of it with "
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
	free(src->path);
	free(src->text);
	free(src->line_off);
	free(src->toks);
	free(src->decls);
	free(src->pieces);
	free(src->piece_of);
	free(src->decl_of);
	free(src);
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

/* ---- writing the hunk ------------------------------------------------------ */

struct span {
	const char *s;
	size_t n;
	char *own;			/* a line the patch rewrote */
};

struct lines {
	struct span *v;
	size_t n;
};

static void lines_push(struct lines *l, const char *s, size_t n, char *own)
{
	l->v = xgrow(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct span){ s, n, own };
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].own);
	free(l->v);
}

static void push_file_line(struct lines *l, const struct ll_source *src, unsigned line)
{
	lines_push(l, src->text + src->line_off[line], line_len(src, line), NULL);
}

static size_t col_of(const struct ll_source *src, size_t tok)
{
	return src->toks[tok].off - src->line_off[src->toks[tok].line];
}

/* Line LINE of the file with TEXT inserted at column COL. */
static void push_edited(struct lines *l, const struct ll_source *src, unsigned line, size_t col,
			const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *b = src->text + src->line_off[line];

	sb_add(&sb, b, col);
	sb_adds(&sb, text);
	sb_add(&sb, b + col, line_len(src, line) - col);
	size_t n = sb.len;
	char *own = sb_detach(&sb);

	lines_push(l, own, n, own);
}

struct edit {
	unsigned line;
	size_t col;
	const char *text;
};

/* The member that must start a line: where the tree's idiom goes. */
static int line_start_edit(const struct ll_source *src, const struct ll_member *m, size_t idx,
			   uint64_t cl, struct edit *e, char *buf, size_t bufsz, struct strbuf *why)
{
	const struct decl *d = &src->decls[src->decl_of[idx]];

	if (m->is_bitfield)
		return refuse(why, "%s:%u: bitfield %s would have to start a cacheline, and C "
			      "cannot align a bitfield", src->path, m->decl.line, label(m));
	if (d->nmembers > 1)
		return refuse(why, "%s:%u: %s must start a cacheline but shares its declaration "
			      "with other members; split it first", src->path, m->decl.line,
			      label(m));
	if (src->idiom == IDIOM_KERNEL) {
		*e = (struct edit){ d->semi_line, col_of(src, d->t1), " ____cacheline_aligned_in_smp" };
		return 0;
	}
	if (!m->name)
		return refuse(why, "%s:%u: the %s must start a cacheline, and C allows no "
			      "alignment specifier on an unnamed member", src->path, m->decl.line,
			      label(m));
	snprintf(buf, bufsz, "%s(%" PRIu64 ") ", src->idiom == IDIOM_ALIGNAS ? "alignas" :
		 "_Alignas", cl);
	*e = (struct edit){ d->first_line, col_of(src, d->t0), buf };
	return 0;
}

/*
 * A pahole-style "--- cacheline N boundary (B bytes) ---" comment line, as
 * struct file has: it describes the old layout, so it does not move with
 * the member below it; the new boundaries get comments of their own.
 */
static bool boundary_line(const struct ll_source *src, unsigned line)
{
	const char *b = src->text + src->line_off[line], *e = b + line_len(src, line);
	static const char open[] = "/* --- cacheline ", close[] = " --- */";

	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return (size_t)(e - b) > sizeof(open) + sizeof(close) &&
	       memcmp(b, open, sizeof(open) - 1) == 0 &&
	       memcmp(e - (sizeof(close) - 1), close, sizeof(close) - 1) == 0;
}

/* Append the lines of piece P, applying the one edit that falls in it, if any. */
static void push_piece(struct lines *l, const struct ll_source *src, const struct piece *p,
		       const struct edit *edits, size_t nedits)
{
	for (unsigned line = p->first; line <= p->last; line++) {
		const struct edit *e = NULL;

		if (boundary_line(src, line))
			continue;

		for (size_t k = 0; k < nedits; k++)
			if (edits[k].line == line)
				e = &edits[k];
		if (e)
			push_edited(l, src, line, e->col, e->text);
		else
			push_file_line(l, src, line);
	}
}

uint64_t ll_source_patched_size(const struct ll_source *src, const struct ll_suggestion *sg)
{
	uint64_t cl = src->s->cacheline;

	for (size_t i = 0; i < sg->n; i++)
		if (sg->members[i].line_start)
			return (sg->size + cl - 1) / cl * cl;
	return sg->size;
}

static bool subtree_hot(const struct ll_member *m)
{
	if (m->tag == LL_READ_MOSTLY || m->tag == LL_WRITE_HOT)
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (subtree_hot(&m->children[i]))
			return true;
	return false;
}

/*
 * Kernel types whose size the configuration sets: locks that grow under
 * lock debugging (DEBUG_SPINLOCK, DEBUG_MUTEXES, DEBUG_LOCK_ALLOC, PREEMPT_RT),
 * what embeds a lockdep map (work, timers, wait queues) and what is empty
 * without SMP or LOCKDEP. Matched on the type as C spells it, typedef or tag.
 */
static const char *const config_sized[] = {
	"spinlock_t", "struct spinlock", "raw_spinlock_t", "struct raw_spinlock",
	"arch_spinlock_t", "rwlock_t", "arch_rwlock_t", "struct mutex", "struct rw_semaphore",
	"struct semaphore", "struct rt_mutex", "struct rt_mutex_base", "struct ww_mutex",
	"struct percpu_rw_semaphore", "struct lockdep_map", "struct lock_class_key",
	"local_lock_t", "local_trylock_t", "wait_queue_head_t", "struct wait_queue_head",
	"struct swait_queue_head", "struct completion", "seqlock_t", "seqcount_t",
	"struct seqcount", "struct work_struct", "struct delayed_work", "struct rcu_work",
	"struct timer_list", "struct kthread_work", "struct kthread_delayed_work",
	"struct lockref", "struct optimistic_spin_queue",
};

static bool type_is(const char *type, const char *name)
{
	size_t n = strlen(name);

	while (strncmp(type, "const ", 6) == 0 || strncmp(type, "volatile ", 9) == 0)
		type += type[0] == 'c' ? 6 : 9;
	/* An array of it: "spinlock_t[4]". */
	return strncmp(type, name, n) == 0 && (type[n] == '\0' || type[n] == '[');
}

const char *ll_config_sized_type(const struct ll_member *m)
{
	/* A pointer's size is the pointer's. */
	if (m->type && !strchr(m->type, '*')) {
		for (size_t i = 0; i < sizeof(config_sized) / sizeof(config_sized[0]); i++)
			if (type_is(m->type, config_sized[i]))
				return config_sized[i];
		/* seqcount_spinlock_t, seqcount_mutex_t, ...: each embeds a lockdep map. */
		if (strncmp(m->type, "seqcount_", 9) == 0)
			return m->type;
	}
	for (size_t i = 0; i < m->nr_children; i++) {
		const char *t = ll_config_sized_type(&m->children[i]);

		if (t)
			return t;
	}
	return NULL;
}

void ll_assert_skips_release(struct ll_assert_skips *s)
{
	free(s->v);
	*s = (struct ll_assert_skips){ 0 };
}

static void skip_assert(struct ll_assert_skips *out, struct ll_assert_skip sk)
{
	if (!out)
		return;
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	out->v[out->n++] = sk;
}

/*
 * static_asserts of the line each hot or line-starting member lands on, in
 * the new order EMIT of pieces, as long as nothing before the member can
 * change size with the configuration: a lock type that lock debugging
 * grows, or a declaration under #if (another configuration drops it). The
 * others are left out, each in OUT with what makes it config-dependent.
 * SM_OF maps a top-level member to its entry in the suggestion.
 */
static void push_asserts(struct lines *l, const struct ll_source *src,
			 const struct ll_suggestion *sg, const size_t *emit, size_t nemit,
			 const size_t *sm_of, struct ll_assert_skips *out)
{
	const struct ll_struct *s = src->s;
	const char *kw = ll_kind_name(s->kind);
	unsigned cl = s->cacheline;
	bool any = false, smp = false;
	struct strbuf sb = STRBUF_INIT;
	/* The first thing so far whose size or presence the configuration sets. */
	struct ll_assert_skip cause = { .cause = NULL };
	bool have_cause = false;

	/* ____cacheline_aligned_in_smp aligns nothing without CONFIG_SMP. */
	for (size_t i = 0; i < sg->n && src->idiom == IDIOM_KERNEL; i++)
		smp |= sg->members[i].line_start;
	if (out)
		out->randomized_line = src->randomized_line;
	for (size_t k = 0; k < nemit; k++) {
		const struct piece *p = &src->pieces[emit[k]];
		const struct ll_member *first_in_piece = NULL;

		for (size_t idx = 0; idx < src->n; idx++) {
			const struct ll_suggested_member *sm;

			if (src->piece_of[idx] != emit[k] || sm_of[idx] == SIZE_MAX)
				continue;
			sm = &sg->members[sm_of[idx]];
			if (!first_in_piece)
				first_in_piece = sm->m;
			bool wanted = sm->m->name && !sm->m->is_bitfield &&
				      (subtree_hot(sm->m) || sm->line_start);

			if (wanted && have_cause) {
				struct ll_assert_skip sk = cause;

				sk.member = sm->m;
				skip_assert(out, sk);
			} else if (wanted && p->conditional) {
				skip_assert(out, (struct ll_assert_skip){ .member = sm->m, .cause = sm->m,
					    .line = p->first, .why = LL_ASSERT_UNDER_IF });
			} else if (wanted) {
				if (!any && src->randomized_line && src->idiom == IDIOM_KERNEL)
					lines_push(l, "#ifndef CONFIG_RANDSTRUCT", 25, NULL);
				if (!any && smp)
					lines_push(l, "#ifdef CONFIG_SMP", 17, NULL);
				any = true;
				if (out)
					out->emitted++;
				sb_reset(&sb);
				if (src->idiom == IDIOM_KERNEL)
					sb_addf(&sb, "static_assert(offsetof(%s %s, %s) / %u == %" PRIu64
						");", kw, s->name, sm->m->name, cl, sm->offset / cl);
				else
					sb_addf(&sb, "_Static_assert(%s(%s %s, %s) / %u == %" PRIu64
						", \"%s %s: %s on cacheline %" PRIu64 "\");",
						src->has_offsetof ? "offsetof" : "__builtin_offsetof", kw,
						s->name, sm->m->name, cl, sm->offset / cl, kw, s->name,
						sm->m->name, sm->offset / cl);
				size_t n = sb.len;
				char *own = sb_detach(&sb);

				lines_push(l, own, n, own);
			}
			/* What follows this member moves when its size does. */
			const char *t = have_cause || p->conditional ? NULL :
					ll_config_sized_type(sm->m);

			if (t) {
				cause = (struct ll_assert_skip){ .cause = sm->m, .cause_type = t,
								 .why = LL_ASSERT_SIZE_VARIES };
				have_cause = true;
			}
		}
		/* Compiled out here, maybe not elsewhere: CAUSE NULL then, the #if line says. */
		if (!have_cause && p->conditional) {
			cause = (struct ll_assert_skip){ .cause = first_in_piece, .line = p->first,
							 .why = LL_ASSERT_AFTER_IF };
			have_cause = true;
		}
	}
	if (any && smp)
		lines_push(l, "#endif", 6, NULL);
	if (any && src->randomized_line && src->idiom == IDIOM_KERNEL)
		lines_push(l, "#endif", 6, NULL);
	sb_release(&sb);
}

static bool span_eq(const struct span *a, const struct span *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* The new text of lines [body_first, end_line], or -1 with WHY. */
static int new_region(const struct ll_source *src, const struct ll_suggestion *sg,
		      const struct ll_patch_opts *opts, struct lines *out, struct strbuf *why)
{
	const struct ll_struct *s = src->s;
	size_t n = src->n, np = src->npieces, nseq = 0, nemit = 0, nedits = 0;
	size_t *seq = xmalloc((np ? np : 1) * sizeof(*seq));
	size_t *emit = xmalloc((np ? np : 1) * sizeof(*emit));
	size_t *sm_of = xmalloc((n ? n : 1) * sizeof(*sm_of));
	bool *done = xcalloc(np ? np : 1, sizeof(*done));
	struct edit *edits = xcalloc(sg->n ? sg->n : 1, sizeof(*edits));
	char (*bufs)[32] = xcalloc(sg->n ? sg->n : 1, sizeof(*bufs));
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		sm_of[i] = SIZE_MAX;
	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];
		size_t idx = (size_t)(sm->m - src->members);

		/* Members outside the level that moves keep their lines. */
		if (sm->m < src->members || idx >= n)
			continue;
		sm_of[idx] = i;
		if (sm->pad_before && !sm->line_start) {
			refuse(why, "%s:%u: %s needs %" PRIu64 " bytes of explicit padding before it "
			       "(a pinned offset or a bitfield's storage unit), which moving lines "
			       "cannot give", src->path, sm->m->decl.line, label(sm->m),
			       sm->pad_before);
			goto out;
		}
		if (sm->line_start) {
			if (line_start_edit(src, sm->m, idx, s->cacheline, &edits[nedits],
					    bufs[nedits], sizeof(bufs[nedits]), why))
				goto out;
			nedits++;
		}
		size_t p = src->piece_of[idx];

		if (nseq && seq[nseq - 1] == p)
			continue;
		if (done[p]) {
			refuse(why, "%s:%u: the proposal splits the piece of source that starts here "
			       "(one declaration or #if run)", src->path, src->pieces[p].first);
			goto out;
		}
		done[p] = true;
		seq[nseq++] = p;
	}
	/* Each piece with members, with the member-less pieces it hosts in source order. */
	for (size_t k = 0; k < nseq; k++)
		for (size_t q = 0; q < np; q++)
			if (q == seq[k] || (!src->pieces[q].nmembers && src->pieces[q].host == seq[k]))
				emit[nemit++] = q;
	if (nemit != np) {
		refuse(why, "%s:%u: %s %s: the proposal does not place every declaration",
		       src->path, s->decl.line, ll_kind_name(s->kind), s->name);
		goto out;
	}
	bool boundaries = false;
	uint64_t shown = 0, prev_end = 0, cl = s->cacheline;

	for (unsigned line = src->body_first; line <= src->body_last && !boundaries; line++)
		boundaries = boundary_line(src, line);
	for (size_t k = 0; k < nemit; k++) {
		const struct piece *p = &src->pieces[emit[k]];
		uint64_t first = UINT64_MAX, end = 0;

		for (size_t i = 0; i < n; i++) {
			const struct ll_suggested_member *sm;

			if (src->piece_of[i] != emit[k] || sm_of[i] == SIZE_MAX)
				continue;
			sm = &sg->members[sm_of[i]];
			first = sm->offset < first ? sm->offset : first;
			end = sm->offset + sm->size > end ? sm->offset + sm->size : end;
		}
		/* The tree marks boundaries: mark the new ones that fall between pieces. */
		if (boundaries && first != UINT64_MAX && first / cl > shown &&
		    prev_end <= first / cl * cl) {
			struct strbuf sb = STRBUF_INIT;

			shown = first / cl;
			sb_addf(&sb, "\t/* --- cacheline %" PRIu64 " boundary (%" PRIu64 " bytes) --- */",
				shown, shown * cl);
			size_t len = sb.len;
			char *own = sb_detach(&sb);

			lines_push(out, own, len, own);
		}
		if (first != UINT64_MAX)
			prev_end = end > prev_end ? end : prev_end;
		push_piece(out, src, p, edits, nedits);
	}
	unsigned tail = np ? src->pieces[np - 1].last + 1 : src->body_first;

	for (unsigned line = tail; line <= src->end_line; line++)
		push_file_line(out, src, line);
	if (opts->asserts)
		push_asserts(out, src, sg, emit, nemit, sm_of, opts->skipped);
	rc = 0;
out:
	free(seq);
	free(emit);
	free(sm_of);
	free(done);
	free(edits);
	free(bufs);
	return rc;
}

#define LCS_CELLS (4u << 20)	/* beyond it, the changed block is replaced whole */

static void emit_line(struct strbuf *out, char mark, const struct span *l)
{
	sb_addc(out, mark);
	sb_add(out, l->s, l->n);
	sb_addc(out, '\n');
}

/*
 * Old lines O[0, NO) become N[0, NN): as context, removals and additions
 * along a longest common subsequence, so that a reviewer sees the lines
 * that move, not the whole body removed and added again.
 */
#define NO_NEWLINE "\\ No newline at end of file\n"

/*
 * The changed lines, old O[0..NO) against new N[0..NN). UNTERMINATED: the
 * last old line is the file's last and has no newline: it is removed
 * (with the marker git apply needs) and never kept as context, so that
 * the new lines, each with its newline, follow it.
 */
static void emit_changed(struct strbuf *out, const struct span *o, size_t no, const struct span *n,
			 size_t nn, bool unterminated)
{
	if ((no + 1) * (nn + 1) > LCS_CELLS || unterminated) {
		for (size_t i = 0; i < no; i++)
			emit_line(out, '-', &o[i]);
		if (unterminated && no)
			sb_adds(out, NO_NEWLINE);
		for (size_t j = 0; j < nn; j++)
			emit_line(out, '+', &n[j]);
		return;
	}
	uint32_t *dp = xcalloc((no + 1) * (nn + 1), sizeof(*dp));
#define DP(i, j) dp[(i) * (nn + 1) + (j)]

	for (size_t i = no; i-- > 0;)
		for (size_t j = nn; j-- > 0;)
			DP(i, j) = span_eq(&o[i], &n[j]) ? DP(i + 1, j + 1) + 1 :
				   DP(i + 1, j) > DP(i, j + 1) ? DP(i + 1, j) : DP(i, j + 1);
	size_t i = 0, j = 0;

	while (i < no || j < nn) {
		if (i < no && j < nn && span_eq(&o[i], &n[j]) && DP(i, j) == DP(i + 1, j + 1) + 1) {
			emit_line(out, ' ', &o[i]);
			i++;
			j++;
		} else if (i < no && (j == nn || DP(i + 1, j) >= DP(i, j + 1))) {
			emit_line(out, '-', &o[i++]);
		} else {
			emit_line(out, '+', &n[j++]);
		}
	}
#undef DP
	free(dp);
}

int ll_source_hunk(const struct ll_source *src, const struct ll_suggestion *sg,
		   const struct ll_patch_opts *opts, long line_delta, struct strbuf *out,
		   unsigned *old_start, long *new_delta, struct strbuf *why)
{
	struct lines now = { 0 }, old = { 0 };
	unsigned first = src->body_first;
	int rc = 1;

	if (new_region(src, sg, opts, &now, why)) {
		lines_release(&now);
		return -1;
	}
	for (unsigned line = first; line <= src->end_line; line++)
		push_file_line(&old, src, line);
	size_t pre = 0, post = 0;

	while (pre < old.n && pre < now.n && span_eq(&old.v[pre], &now.v[pre]))
		pre++;
	while (post < old.n - pre && post < now.n - pre &&
	       span_eq(&old.v[old.n - 1 - post], &now.v[now.n - 1 - post]))
		post++;
	if (pre == old.n && pre == now.n)
		goto done;
	/* Changed: old lines [a, b) of the file, replaced by now.v[pre .. now.n - post). */
	unsigned a = first + (unsigned)pre, b = first + (unsigned)(old.n - post);
	unsigned ca = a > CONTEXT ? a - CONTEXT : 1, cb = b + CONTEXT;
	bool unterminated = !src->final_newline && b == src->nlines + 1;

	if (ca < 1)
		ca = 1;
	if (cb > src->nlines + 1)
		cb = src->nlines + 1;
	size_t added = now.n - pre - post, removed = b - a;
	unsigned old_len = (b - a) + (a - ca) + (cb - b);
	unsigned new_len = (unsigned)added + (a - ca) + (cb - b);

	*old_start = ca;
	sb_addf(out, "@@ -%u,%u +%ld,%u @@\n", ca, old_len, (long)ca + line_delta, new_len);
	for (unsigned line = ca; line < a; line++) {
		sb_addc(out, ' ');
		sb_add(out, src->text + src->line_off[line], line_len(src, line));
		sb_addc(out, '\n');
	}
	emit_changed(out, &old.v[pre], b - a, &now.v[pre], added, unterminated);
	for (unsigned line = b; line < cb; line++) {
		sb_addc(out, ' ');
		sb_add(out, src->text + src->line_off[line], line_len(src, line));
		sb_addc(out, '\n');
		/* The file's last line, both sides: git apply needs to be told it has no newline. */
		if (line == src->nlines && !src->final_newline)
			sb_adds(out, NO_NEWLINE);
	}
	*new_delta = line_delta + (long)added - (long)removed;
	rc = 0;
done:
	lines_release(&now);
	lines_release(&old);
	return rc;
}
