/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LAYOUTLINT_THREADS_H
#define LAYOUTLINT_THREADS_H

#include <stdlib.h>
#include <unistd.h>

/*
 * Threads a pass over a whole image may use: LAYOUTLINT_THREADS, else the
 * online CPUs; 1 to 8 (man page, ENVIRONMENT). Output never depends on it.
 */
static inline unsigned ll_threads(void)
{
	const char *env = getenv("LAYOUTLINT_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

#endif
