/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable NUL-terminated byte buffer; allocation failure aborts. */
#ifndef LAYOUTLINT_STRBUF_H
#define LAYOUTLINT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
/*
 * V in decimal, padded with spaces to WIDTH columns: on the left when
 * WIDTH > 0 (printf's %5), on the right when WIDTH < 0 (%-3). Without a
 * format string to parse: the text report writes three numbers a member.
 */
void sb_add_u64(struct strbuf *sb, uint64_t v, int width);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/*
 * --profile: PERCENT (0-100) as "97%", "9.7%", "0.05%": two significant
 * digits, as %.2g gives them, but never in exponent form (%.2g prints 99.7
 * as "1e+02") and never rounded up to 100 unless it is all ("99.7%",
 * ">99.9%"). Below 0.0001 it is "<0.0001%". The one writer of a share,
 * for reports and for the notes checks write.
 */
void sb_add_percent(struct strbuf *sb, double percent);
/* The N bytes at P in lower-case hex, two digits a byte (the one build-id writer). */
void sb_add_hex(struct strbuf *sb, const void *p, size_t n);
void sb_insert(struct strbuf *sb, size_t pos, const char *s);
void sb_reset(struct strbuf *sb);
/* Hand the string to the caller (never NULL) and reset the buffer. */
char *sb_detach(struct strbuf *sb);
void sb_release(struct strbuf *sb);
/*
 * Text from an input (names, file names) made safe for a terminal and a
 * line-based reader: every control byte (C0, DEL) and every byte of invalid
 * UTF-8 spelt as C does (\n, \t, \r, else \xNN), so no escape sequence,
 * bell or carriage return reaches a terminal, no newline forges a
 * diagnostic line, and a name survives JSON (a baseline). sb_add_escaped appends
 * S so; ll_escape_in_place replaces *S by its escaped copy when it needs one;
 * ll_escaped_dup returns a copy of S, escaped (one pass over S where it
 * needs nothing).
 */
void sb_add_escaped(struct strbuf *sb, const char *s);
void ll_escape_in_place(char **s);
char *ll_escaped_dup(const char *s);
/*
 * The one UTF-8 validator: bytes of the well-formed character at S (AVAIL
 * bytes there; 1 for ASCII), 0 if none (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF); its code point in *CP unless CP is NULL.
 */
size_t ll_utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp);
size_t ll_utf8_len(const unsigned char *s, size_t avail);
/* xmalloc-style helpers: out of memory is not an input error, so abort. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/*
 * V, an array of N elements of ELEM bytes, with room for one more: it
 * grows geometrically (the capacity is the next power of two above N), so
 * an array grown this way must be grown only this way. Appending one at a
 * time with xrealloc() is quadratic: 100,000 members took minutes under
 * ASan, whose realloc always moves.
 */
void *xgrow(void *v, size_t n, size_t elem);
/* Frees the array V of N elements and leaves it empty, to grow again. */
#define ll_array_free(v, n)                                                    \
	do {                                                                   \
		free(v);                                                       \
		(v) = NULL;                                                    \
		(n) = 0;                                                       \
	} while (0)
char *xstrdup(const char *s);
/* Frees each of the N strings of V, then V (the owner of a string list). */
void ll_strv_free(char **v, size_t n);
/*
 * Frees each of the N pointers of V, as systemd's free_many(): a release
 * function names what it owns once, ll_free_all(x->a, x->b, x), and a
 * member added to the struct is one word added to that list.
 */
void ll_free_many(void *const *v, size_t n);
#define ll_free_all(...)                                                       \
	ll_free_many((void *const[]){ __VA_ARGS__ },                           \
		     sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))

#endif
