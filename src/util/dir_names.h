/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A directory's entries in name order, which is how layoutlint reads
 * every tree it walks (rules directories, --srcdir) so that what it finds
 * does not depend on the file system's order.
 */
#ifndef LAYOUTLINT_DIR_NAMES_H
#define LAYOUTLINT_DIR_NAMES_H

#include <stddef.h>

/*
 * The names in directory PATH, sorted by strcmp, leaving out those that
 * start with '.' (., .., .git and the like) into *NAMES (owned: free each
 * and the array) and *N. Returns -1 with errno set if PATH cannot be
 * opened, *NAMES NULL and *N 0.
 */
int ll_dir_names(const char *path, char ***names, size_t *n);

#endif
