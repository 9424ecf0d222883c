// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/listing.h"

#include <inttypes.h>
#include <stdlib.h>

#include "model/layout.h"
#include "model/units.h"

void ll_listing_indent(struct strbuf *out, int depth)
{
	for (int i = 0; i <= depth; i++)
		sb_addc(out, '\t');
}

/* Visible width of an indented prefix, tabs at 8. */
static size_t visible_width(const char *line)
{
	size_t w = 0;

	for (const char *p = line; *p; p++)
		w = *p == '\t' ? (w / 8 + 1) * 8 : w + 1;
	return w;
}

void ll_listing_pad_to(struct strbuf *out, size_t line_start, size_t column)
{
	size_t w = visible_width(out->buf + line_start);

	do {
		sb_addc(out, ' ');
		w++;
	} while (w < column);
}

void ll_listing_summary(struct strbuf *out, const struct ll_struct *s)
{
	struct ll_summary sum;

	ll_summarize(s, &sum);
	sb_addf(out, "\n\t/* size: %" PRIu64 ", cachelines: %" PRIu64 ", members: %zu */\n",
		s->size, ll_struct_lines(s), s->nr_members);
	sb_addf(out, "\t/* sum holes: %zu holes, %" PRIu64 " bytes", sum.holes, sum.hole_bytes);
	if (sum.bit_holes)
		sb_addf(out, ", %" PRIu64 " bits", sum.bit_holes);
	sb_addf(out, "; padding: %" PRIu64, sum.padding);
}

void ll_listing_member_decl(struct strbuf *out, const struct ll_member *m)
{
	const char *type = m->type ? m->type : "?";
	char *d = ll_c_decl_with_name(type, m->name ? m->name : "");

	sb_adds(out, d ? d : type);
	free(d);
	if (m->is_bitfield)
		sb_addf(out, ":%" PRIu64, m->bit_size);
	sb_addc(out, ';');
}

static void boundary(struct strbuf *out, uint64_t *next, unsigned cl, uint64_t begin,
		     int depth, const char *on, const char *off)
{
	ll_listing_indent(out, depth);
	if (begin == *next)
		sb_addf(out, "%s/* --- cacheline %" PRIu64 " boundary (%" PRIu64
			" bytes) --- */%s\n", on, *next / cl, *next, off);
	else
		sb_addf(out, "%s/* --- cacheline %" PRIu64 " boundary (%" PRIu64
			" bytes) was %" PRIu64 " bytes ago --- */%s\n", on, *next / cl, *next,
			begin - *next, off);
	*next += cl;
}

void ll_listing_boundaries(struct strbuf *out, uint64_t *next, uint64_t size, unsigned cl,
			   uint64_t begin, int depth, const char *on, const char *off)
{
	uint64_t last, n;

	if (*next >= size || begin < *next)
		return;
	last = begin < size ? begin : size - 1;
	last -= last % cl;	/* the last boundary to mark */
	n = (last - *next) / cl + 1;
	if (n >= LL_LINE_RUN_MIN) {
		/*
		 * Inside one member or hole: its first and last boundary, the
		 * others one line, as the HTML map elides the run (a 2 GiB
		 * array member has 33 million boundaries).
		 */
		uint64_t from = *next + cl, to = last - cl;

		boundary(out, next, cl, begin, depth, on, off);
		ll_listing_indent(out, depth);
		sb_addf(out, "%s/* --- %" PRIu64 " cacheline boundaries elided: lines %" PRIu64 "-%"
			PRIu64 " (%" PRIu64 "-%" PRIu64 " bytes) --- */%s\n", on, n - 2, from / cl,
			to / cl, from, to, off);
		*next = last;
	}
	while (*next <= last)
		boundary(out, next, cl, begin, depth, on, off);
}
