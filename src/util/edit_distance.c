// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/edit_distance.h"

#include <string.h>

/*
 * Edit distance counting a swap of neighbours as one edit (strcut ->
 * struct), computed only within LIMIT of the diagonal: any answer above
 * LIMIT comes back as LIMIT + 1, which is all a suggestion needs.
 */
size_t ll_edit_distance_n(const char *a, size_t la, const char *b, size_t lb, size_t limit)
{
	size_t r0[LL_EDIT_MAX_LEN + 1], r1[LL_EDIT_MAX_LEN + 1], r2[LL_EDIT_MAX_LEN + 1];
	size_t *prev2 = r0, *prev = r1, *row = r2;
	const size_t far = limit + 1;

	if (la > LL_EDIT_MAX_LEN || lb > LL_EDIT_MAX_LEN || (la > lb ? la - lb : lb - la) > limit)
		return far;
	for (size_t j = 0; j <= lb; j++) {
		prev[j] = j <= limit ? j : far;
		prev2[j] = far;
	}
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i > limit ? i - limit : 1, hi = i + limit < lb ? i + limit : lb;
		size_t row_min = far;

		row[0] = i <= limit ? i : far;
		for (size_t j = 1; j <= lb; j++) {
			if (j < lo || j > hi) {
				row[j] = far;
				continue;
			}
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			row[j] = best < far ? best : far;
			if (row[j] < row_min)
				row_min = row[j];
		}
		if (row_min >= far)
			return far;
		size_t *t = prev2;

		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[lb];
}

size_t ll_suggest_limit(size_t len)
{
	return len < 4 ? 1 : len < 8 ? 2 : 3;
}

size_t ll_edit_distance(const char *a, const char *b, size_t limit)
{
	return ll_edit_distance_n(a, strlen(a), b, strlen(b), limit);
}
