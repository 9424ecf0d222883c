// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/diag.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/strbuf.h"

int ll_vfail(struct ll_error *err, const char *fmt, va_list ap)
{
	if (err) {
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		err->located = false;
	}
	return -1;
}

int ll_fail(struct ll_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ll_vfail(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Messages are one line each: whatever of the input they quote is escaped. */
static void print_line(const char *prefix, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, prefix);
	sb_add_escaped(&sb, msg);
	fprintf(stderr, "%s\n", sb.buf);
	sb_release(&sb);
}

void ll_report_error(const struct ll_error *err)
{
	print_line(err->located ? "" : "layoutlint: ", err->msg);
}

static void vprint_line(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT;

	sb_vaddf(&msg, fmt, ap);
	print_line(prefix, msg.buf ? msg.buf : "");
	sb_release(&msg);
}

void ll_warnf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line("layoutlint: warning: ", fmt, ap);
	va_end(ap);
}

void ll_notef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line("layoutlint: note: ", fmt, ap);
	va_end(ap);
}

void ll_linef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line("", fmt, ap);
	va_end(ap);
}

void ll_notes_addf(struct ll_notes *notes, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	if (!notes) {
		vprint_line("layoutlint: note: ", fmt, ap);
		va_end(ap);
		return;
	}
	sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	notes->v = xgrow(notes->v, notes->n, sizeof(*notes->v));
	notes->v[notes->n++] = sb_detach(&msg);
}

void ll_notes_flush(struct ll_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		print_line("layoutlint: note: ", notes->v[i]);
	ll_notes_release(notes);
}

void ll_notes_release(struct ll_notes *notes)
{
	ll_strv_free(notes->v, notes->n);
	notes->v = NULL;
	notes->n = 0;
}
