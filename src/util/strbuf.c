// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/strbuf.h"
#include "util/huge_page.h"

#include <stdbool.h>

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
	fputs("layoutlint: out of memory\n", stderr);
	abort();
}

#define HUGE_FROM ((size_t)4 << 20)

/*
 * Ask for transparent huge pages in a block of N bytes at P from 4 MiB on
 * (best effort; advice only, so any allocator's block will do). The big
 * arrays are written whole soon after they are made: the globals
 * aggregate's 39,454 members of the 6.12 image (8.5 MB), the scan's hits
 * and keys. Their ~1,000 faults were costly in a cold --audit='*'
 * (bench/RESULTS.md). A block glibc grows in place or by mremap keeps
 * the advice for its new tail; one it copies has touched its new pages
 * first.
 */
static void *prefer_huge(void *p, size_t n)
{
	if (n >= HUGE_FROM)
		ll_advise_huge(p, n);
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return prefer_huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return prefer_huge(p, n * size);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return prefer_huge(p, n);
}

void *xgrow(void *v, size_t n, size_t elem)
{
	if (n & (n - 1))
		return v;	/* capacity is the next power of two: room left */
	if (n > SIZE_MAX / 2 / elem)
		out_of_memory();
	return xrealloc(v, (n ? 2 * n : 1) * elem);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		out_of_memory();
	return d;
}

void ll_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ll_free_many(void *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	size_t want = sb->alloc ? sb->alloc * 2 : 64;

	while (want < sb->len + extra + 1)
		want *= 2;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
}

void sb_add(struct strbuf *sb, const char *data, size_t len)
{
	if (!len) {
		sb_grow(sb, 0);	/* still NUL-terminated */
		sb->buf[sb->len] = '\0';
		return;
	}
	sb_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_add_u64(struct strbuf *sb, uint64_t v, int width)
{
	char digits[20];
	size_t n = 0, pad;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	pad = (size_t)(width < 0 ? -width : width);
	pad = pad > n ? pad - n : 0;
	sb_grow(sb, n + pad);
	if (width > 0)
		for (size_t i = 0; i < pad; i++)
			sb->buf[sb->len++] = ' ';
	while (n)
		sb->buf[sb->len++] = digits[--n];
	if (width < 0)
		for (size_t i = 0; i < pad; i++)
			sb->buf[sb->len++] = ' ';
	sb->buf[sb->len] = '\0';
}

/*
 * Formatted into the room already there first, measured only when it
 * does not fit: measuring every time doubled the cost of the text
 * report, whose ~20,000 sb_addf calls were a sixth of the instructions
 * of a warm 20-struct lookup.
 */
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	sb_grow(sb, 63);
	va_copy(again, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	if (n >= 0 && (size_t)n >= sb->alloc - sb->len) {
		sb_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, again);
	}
	if (n >= 0)
		sb->len += (size_t)n;
	else
		sb->buf[sb->len] = '\0';	/* a failed format adds nothing */
	va_end(again);
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_add_hex(struct strbuf *sb, const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;

	sb_grow(sb, 2 * n);
	for (size_t i = 0; i < n; i++) {
		sb->buf[sb->len++] = digits[b[i] >> 4];
		sb->buf[sb->len++] = digits[b[i] & 15];
	}
	sb->buf[sb->len] = '\0';
}

static void drop_trailing_zeros(char *num)
{
	char *end = num + strlen(num);

	if (!strchr(num, '.'))
		return;
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		end[-1] = '\0';
}

void sb_add_percent(struct strbuf *out, double percent)
{
	char num[32];
	int decimals = 0;

	if (!(percent > 0)) {
		sb_adds(out, "0%");
		return;
	}
	if (percent >= 100) {
		sb_adds(out, "100%");
		return;
	}
	if (percent < 0.0001) {
		sb_adds(out, "<0.0001%");
		return;
	}
	for (double p = percent; p < 10 && decimals < 4; p *= 10)
		decimals++;
	snprintf(num, sizeof(num), "%.*f", decimals, percent);
	if (strtod(num, NULL) >= 100) {	/* 99.5 and up: one decimal, or ">99.9" */
		if (percent >= 99.95) {
			sb_adds(out, ">99.9%");
			return;
		}
		snprintf(num, sizeof(num), "%.1f", percent);
	}
	drop_trailing_zeros(num);
	sb_addf(out, "%s%%", num);
}

void sb_insert(struct strbuf *sb, size_t pos, const char *s)
{
	size_t n = strlen(s);

	if (pos > sb->len)
		pos = sb->len;
	sb_grow(sb, n);
	memmove(sb->buf + pos + n, sb->buf + pos, sb->len - pos + 1);
	memcpy(sb->buf + pos, s, n);
	sb->len += n;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

size_t ll_utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp)
{
	size_t len;
	uint32_t v;

	if (!avail)
		return 0;
	if (s[0] < 0x80) {
		len = 1;
		v = s[0];
	} else {
		len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
		if (s[0] < 0xc2 || s[0] > 0xf4 || len > avail)
			return 0;
		v = s[0] & (0x3f >> (len - 1));
		for (size_t i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;	/* also stops at a NUL */
			v = v << 6 | (s[i] & 0x3f);
		}
		/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8 (RFC 3629). */
		if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
		    (v >= 0xd800 && v <= 0xdfff))
			return 0;
	}
	if (cp)
		*cp = v;
	return len;
}

size_t ll_utf8_len(const unsigned char *s, size_t avail)
{
	return ll_utf8_decode(s, avail, NULL);
}

/* Bytes at P that print as they are: a well-formed, non-control character. */
static size_t plain_length(const unsigned char *p)
{
	return is_control(*p) ? 0 : ll_utf8_len(p, strnlen((const char *)p, 4));
}

void sb_add_escaped(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = plain_length(p);

		if (n) {
			sb_add(sb, (const char *)p, n);
			p += n;
			continue;
		}
		if (*p == '\n')
			sb_adds(sb, "\\n");
		else if (*p == '\t')
			sb_adds(sb, "\\t");
		else if (*p == '\r')
			sb_adds(sb, "\\r");
		else
			sb_addf(sb, "\\x%02x", *p);
		p++;
	}
}

/* Whether S, LEN bytes, has a byte sb_add_escaped() would spell otherwise. */
static bool needs_escape(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char outside = 0;
	size_t n;

	/*
	 * Printable ASCII first: nearly every name and path of a model is all
	 * of it. A loop of known length with no early exit, which the compiler
	 * vectorizes: a byte at a time slowed a warm 20-struct lookup.
	 */
	for (size_t i = 0; i < len; i++)
		outside |= (unsigned char)(p[i] - 0x20) >= 0x5f;	/* not 0x20..0x7e */
	if (!outside)
		return false;
	for (; *p; p += n) {
		n = *p >= 0x20 && *p < 0x7f ? 1 : plain_length(p);
		if (!n)
			break;
	}
	return *p != 0;
}

void ll_escape_in_place(char **s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!*s || !needs_escape(*s, strlen(*s)))
		return;
	sb_add_escaped(&sb, *s);
	free(*s);
	*s = sb_detach(&sb);
}

char *ll_escaped_dup(const char *s)
{
	size_t len = strlen(s);
	struct strbuf sb = STRBUF_INIT;

	if (!needs_escape(s, len)) {
		char *copy = xmalloc(len + 1);

		memcpy(copy, s, len + 1);
		return copy;
	}
	sb_add_escaped(&sb, s);
	return sb_detach(&sb);
}
