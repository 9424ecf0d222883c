/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounds-checked reading of little-endian DWARF bytes, for the raw readers
 * (raw/scan*.c, line_table.c). Reading past the end sets bad and yields
 * 0; callers check bad once after a run of reads.
 */
#ifndef LAYOUTLINT_BYTE_CURSOR_H
#define LAYOUTLINT_BYTE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ll_cursor {
	const unsigned char *p, *end;
	bool bad;
};

static inline uint64_t ll_uleb(struct ll_cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	/* Most values (codes, attributes, forms) fit one byte. */
	if (c->p < c->end && !(*c->p & 0x80))
		return *c->p++;
	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

static inline int64_t ll_sleb(struct ll_cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	c->bad = true;
	return 0;
}

static inline void ll_skip_leb(struct ll_cursor *c)
{
	while (c->p < c->end)
		if (!(*c->p++ & 0x80))
			return;
	c->bad = true;
}

/*
 * N (at most 8) bytes, little endian: the raw readers refuse big-endian
 * input. The widths DWARF uses are single loads on a little-endian host:
 * N is rarely a constant here (an offset size, a form's width), and the
 * byte loop was most of reading a member's fixed-place values.
 */
static inline uint64_t ll_fixed(struct ll_cursor *c, unsigned n)
{
	uint64_t v = 0;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	switch (n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	case 1:
		v = c->p[0];
		break;
	case 2: {
		uint16_t v2;

		memcpy(&v2, c->p, 2);
		v = v2;
		break;
	}
	case 4: {
		uint32_t v4;

		memcpy(&v4, c->p, 4);
		v = v4;
		break;
	}
	case 8:
		memcpy(&v, c->p, 8);
		break;
#endif
	default:
		for (unsigned i = 0; i < n; i++)
			v |= (uint64_t)c->p[i] << (8 * i);
	}
	c->p += n;
	return v;
}

/*
 * A cursor N bytes ahead of C (an attribute at a precomputed offset),
 * bad when that is past C's end: a damaged DIE must not send a read
 * beyond the unit.
 */
static inline struct ll_cursor ll_ahead(const struct ll_cursor *c, uint64_t n)
{
	struct ll_cursor r = *c;

	if ((uint64_t)(c->end - c->p) < n)
		r.bad = true;
	else
		r.p += n;
	return r;
}

static inline void ll_skip(struct ll_cursor *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = true;
		return;
	}
	c->p += n;
}

#endif
