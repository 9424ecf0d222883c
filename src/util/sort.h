/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qsort() and bsearch() for arrays that may be empty: C declares their
 * array argument nonnull even for zero elements, and an array grown with
 * xgrow() is NULL until its first element (UBSan reports the call).
 */
#ifndef LAYOUTLINT_SORT_H
#define LAYOUTLINT_SORT_H

#include <stddef.h>
#include <stdint.h>
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

/* Orders two keys of N unsigned fields, most significant first, as qsort() wants. */
static inline int ll_cmp_keys(const uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

#endif
