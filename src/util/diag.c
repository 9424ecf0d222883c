// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/diag.h"

#include <stdio.h>

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

void ll_report_error(const struct ll_error *err)
{
	fprintf(stderr, "%s%s\n", err->located ? "" : "layoutlint: ", err->msg);
}

void ll_warnf(const char *fmt, ...)
{
	va_list ap;

	fputs("layoutlint: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ll_notef(const char *fmt, ...)
{
	va_list ap;

	fputs("layoutlint: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
