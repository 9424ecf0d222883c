/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress of a long scan, for the one updating line main prints on a terminal. */
#ifndef LAYOUTLINT_PROGRESS_H
#define LAYOUTLINT_PROGRESS_H

#include <stddef.h>

struct ll_progress {
	/* Called from one thread only; WHAT is a short noun ("units"). */
	void (*fn)(const char *what, size_t done, size_t total, void *arg);
	void *arg;
};

static inline void ll_progress_report(const struct ll_progress *p, const char *what, size_t done,
				      size_t total)
{
	if (p && p->fn)
		p->fn(what, done, total, p->arg);
}

#endif
