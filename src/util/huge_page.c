// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/huge_page.h"

#include <stdlib.h>
#include <sys/mman.h>

void ll_advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ll_huge_round_up((uintptr_t)p);
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(LL_HUGE_PAGE - 1);

	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *ll_huge_alloc(size_t size, size_t *cap)
{
	size_t n = ll_huge_round_up(size);
	void *p = NULL;

	if (n < size || n == 0 || posix_memalign(&p, LL_HUGE_PAGE, n) != 0)
		return NULL;
	ll_advise_huge(p, n);
	*cap = n;
	return p;
}
