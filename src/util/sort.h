/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qsort() and bsearch() for arrays that may be empty: C declares their
 * array argument nonnull even for zero elements, and an array grown with
 * xgrow() is NULL until its first element (UBSan reports the call).
 */
#ifndef LAYOUTLINT_SORT_H
#define LAYOUTLINT_SORT_H

#include <stdlib.h>

static inline void ll_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static inline void *ll_bsearch(const void *key, const void *base, size_t n, size_t size,
			       int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

#endif
