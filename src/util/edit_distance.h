/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one edit distance every "did you mean" uses (struct names in both
 * readers, member names in the rules), so that a typo ranks the same way
 * wherever it is made.
 */
#ifndef LAYOUTLINT_EDIT_DISTANCE_H
#define LAYOUTLINT_EDIT_DISTANCE_H

#include <stddef.h>

/* Strings longer than this are never close to anything. */
#define LL_EDIT_MAX_LEN 256

/*
 * Optimal string alignment distance (insertions, deletions, substitutions,
 * and a swap of neighbours as one edit: strcut -> struct) between A[0..LA)
 * and B[0..LB), computed only within LIMIT of the diagonal: an answer
 * above LIMIT comes back as LIMIT + 1, which is all a suggestion needs.
 */
size_t ll_edit_distance_n(const char *a, size_t la, const char *b, size_t lb, size_t limit);
size_t ll_edit_distance(const char *a, const char *b, size_t limit);

/* How many edits a name of LEN characters may be from a suggestion. */
size_t ll_suggest_limit(size_t len);

#endif
