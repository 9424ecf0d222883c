/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two halves of --format=patch share, and nothing outside
 * source/ sees (as elfutils keeps libdwP.h): the tokens, declarations and
 * pieces srcpatch.c reads from the declaring file, which
 * srcpatch_hunk.c turns into the hunk. Shared functions carry the prefix sp_.
 */
#ifndef LAYOUTLINT_SOURCE_PRIVATE_H
#define LAYOUTLINT_SOURCE_PRIVATE_H

#include "source/srcpatch.h"

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

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

/* Fill WHY with the reason (printf-style); returns -1. */
int sp_refuse(struct strbuf *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes of LINE (1-based) without its newline. */
size_t sp_line_len(const struct ll_source *src, unsigned line);
/* A member's name, or what it is when it has none. */
const char *sp_member_label(const struct ll_member *m);

#endif
