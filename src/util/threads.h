/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LAYOUTLINT_THREADS_H
#define LAYOUTLINT_THREADS_H

#include <unistd.h>

#include "util/tuning.h"

/*
 * Threads a pass over a whole image may use: LAYOUTLINT_THREADS (read by
 * cli, util/tuning.h), else the online CPUs; 1 to 8 (man page,
 * ENVIRONMENT). Output never depends on it.
 */
static inline unsigned ll_threads(void)
{
	long n = ll_tuning()->threads ? (long)ll_tuning()->threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

#endif
