// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the commands write: the progress line on stderr (a terminal's
 * only), and stdout, written whole.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/diag.h"

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void progress_update(const char *what, size_t done, size_t total, void *arg)
{
	struct progress_line *p = arg;

	if (seconds_since(&p->start) < 0.5 || (p->shown && done != total &&
						 seconds_since(&p->last) < 0.1))
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	fprintf(stderr, "\rlayoutlint: %s %zu/%zu (%zu%%)\033[K", what, done, total,
		total ? done * 100 / total : 100);
	p->shown = true;
}

struct ll_progress cli_progress_for(struct progress_line *p)
{
	struct ll_progress none = { 0 };

	if (!isatty(STDERR_FILENO))
		return none;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	return (struct ll_progress){ .fn = progress_update, .arg = p };
}

/* Erase the line before anything else is printed. */
void cli_progress_done(struct progress_line *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

void cli_exit_unfreed(int status)
{
#ifndef LL_FREE_AT_EXIT
	fflush(NULL);
	_exit(status);
#else
	(void)status;
#endif
}

/* Write OUT to stdout whole, or say why not. */
int cli_write_stdout(const struct strbuf *out)
{
	struct ll_error err;

	/* No fwrite of a NULL buffer: an empty report has none. */
	if ((!out->len || fwrite(out->buf, 1, out->len, stdout) == out->len) && fflush(stdout) == 0)
		return 0;
	ll_fail(&err, "cannot write output: %m");
	ll_report_error(&err);
	return 2;
}
