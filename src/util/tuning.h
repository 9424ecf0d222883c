/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the environment tunes below cli, as values. Nothing below cli
 * calls getenv(): cli reads LAYOUTLINT_THREADS, LAYOUTLINT_CACHE_MAX_MB,
 * LAYOUTLINT_SCAN and LAYOUTLINT_RELOC once (cli/options.c) and sets them
 * here before any work; a program that never does (a unit test, a fuzzer)
 * runs with the defaults, or sets what it tests. The man page's
 * ENVIRONMENT says what each means.
 */
#ifndef LAYOUTLINT_TUNING_H
#define LAYOUTLINT_TUNING_H

#include <stdbool.h>
#include <stdint.h>

/* Who relocates an ET_REL's DWARF (input/dwarf): LAYOUTLINT_RELOC. */
enum ll_reloc_mode {
	LL_RELOC_OWN_ELSE_LIBDWFL,	/* unset: ours, libdwfl where ours cannot */
	LL_RELOC_LIBDWFL,		/* =libdwfl: libdwfl always */
	LL_RELOC_OWN,			/* =own: ours, no fallback (the tests know who answered) */
};

struct ll_tuning {
	unsigned threads;		/* LAYOUTLINT_THREADS, 1 to 8; 0: the online CPUs (at most 8) */
	uint64_t cache_max_bytes;	/* LAYOUTLINT_CACHE_MAX_MB in bytes (util/cache_dir.h) */
	bool scan_libdw;		/* LAYOUTLINT_SCAN=libdw: no raw scan, libdw's walk */
	enum ll_reloc_mode reloc;
};

/* The values in force: the defaults until ll_tuning_set(). */
const struct ll_tuning *ll_tuning(void);
void ll_tuning_set(const struct ll_tuning *t);

#endif
