/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two C listings (the layout and the suggestion) draw alike:
 * indentation, the column the offset comment starts at, and the cacheline
 * boundary markers, pahole's words.
 */
#ifndef LAYOUTLINT_LISTING_H
#define LAYOUTLINT_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct ll_member;
struct ll_struct;

/* One tab per level, the outermost level included. */
void ll_listing_indent(struct strbuf *out, int depth);
/* Spaces from the line starting at LINE_START to COLUMN (tabs at 8), at least one. */
void ll_listing_pad_to(struct strbuf *out, size_t line_start, size_t column);
/*
 * The listing's closing summary as pahole words it: the size, cachelines
 * and members line, then the sum of holes up to "; padding: N", whose
 * comment the caller ends (text adds the alignment first).
 */
void ll_listing_summary(struct strbuf *out, const struct ll_struct *s);
/* A plain member's declaration as C writes it: "TYPE NAME[:BITS];" ("?" for no type). */
void ll_listing_member_decl(struct strbuf *out, const struct ll_member *m);
/*
 * The "--- cacheline N boundary ---" markers for every boundary up to
 * BEGIN (a member's first byte) in a SIZE-byte struct of CL-byte lines;
 * *NEXT is the next boundary to mark. ON/OFF wrap each marker (colour).
 * LL_LINE_RUN_MIN or more boundaries at once (inside one member or hole):
 * the first and the last, the ones between as one "elided" line.
 */
void ll_listing_boundaries(struct strbuf *out, uint64_t *next, uint64_t size, unsigned cl,
			   uint64_t begin, int depth, const char *on, const char *off);

#endif
