// SPDX-License-Identifier: GPL-2.0-or-later
#include "report/listing.h"

#include <inttypes.h>

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

void ll_listing_boundaries(struct strbuf *out, uint64_t *next, uint64_t size, unsigned cl,
			   uint64_t begin, int depth, const char *on, const char *off)
{
	while (*next < size && begin >= *next) {
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
}
