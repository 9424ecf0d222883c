/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors travel up as an ll_error filled where they happen and printed in
 * one place (main), so every failure is exactly one line on stderr.
 */
#ifndef LAYOUTLINT_DIAG_H
#define LAYOUTLINT_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define LL_ERROR_MAX 1024

struct ll_error {
	char msg[LL_ERROR_MAX];
	bool located;	/* msg starts with FILE:LINE:COL, as gcc prints it */
};

/* Always returns -1 so callers can write "return ll_fail(err, ...)". */
int ll_fail(struct ll_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ll_vfail(struct ll_error *err, const char *fmt, va_list ap);

/* Print "layoutlint: MSG" on stderr, or MSG alone when it names its location. */
void ll_report_error(const struct ll_error *err);
void ll_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ll_notef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * One line on stderr as formatted, with no prefix ("FILE:LINE: note: ..."
 * located as gcc locates one), escaped whole as every message is.
 */
void ll_linef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Notes a reader has about its input (a name index ignored, declaring
 * files that live in another file), each one line of text. A format that
 * carries them in its document (JSON, SARIF) collects them here; with no
 * collector (NOTES NULL) each is printed at once, as ll_notef() does.
 */
struct ll_notes {
	char **v;
	size_t n;
};

void ll_notes_addf(struct ll_notes *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print each collected note as ll_notef() does, and forget them. */
void ll_notes_flush(struct ll_notes *notes);
void ll_notes_release(struct ll_notes *notes);

#endif
