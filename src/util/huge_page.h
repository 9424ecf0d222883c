/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transparent huge pages, where the kernel gives them (on madvise). A
 * 4 KiB first-touch fault is slow here (bench/RESULTS.md); memory
 * that is written whole soon after (big arrays, pread buffers, the heap)
 * is cheaper in 2 MiB pages. Advice only: without THP everything still
 * works, in small pages.
 */
#ifndef LAYOUTLINT_HUGE_PAGE_H
#define LAYOUTLINT_HUGE_PAGE_H

#include <stddef.h>
#include <stdint.h>

/* 2 MiB: the PMD size on x86-64 and on arm64 with 4 KiB pages. */
#define LL_HUGE_PAGE ((size_t)2 << 20)

/* A rounded up to a multiple of LL_HUGE_PAGE. */
static inline uintptr_t ll_huge_round_up(uintptr_t a)
{
	return (a + LL_HUGE_PAGE - 1) & ~(uintptr_t)(LL_HUGE_PAGE - 1);
}

/* Ask for huge pages in the whole huge pages of [P, P + N); none: nothing. */
void ll_advise_huge(void *p, size_t n);

/*
 * A block of at least SIZE bytes (free() it) in whole huge pages, aligned
 * to one and advised, its capacity in *CAP; NULL when the allocator cannot
 * give such a block (the caller then takes a plain one).
 */
void *ll_huge_alloc(size_t size, size_t *cap);

#endif
