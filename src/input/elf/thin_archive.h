/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Thin archives (ar --thin, ar T; kbuild's built-in.a): an archive whose
 * members are paths to object files, not their bytes. Linting one means
 * linting each member object.
 */
#ifndef LAYOUTLINT_THIN_ARCHIVE_H
#define LAYOUTLINT_THIN_ARCHIVE_H

#include <stddef.h>

#include "util/diag.h"

/*
 * PATH's member objects, each resolved against the archive's directory as
 * ar does (a relative PATH gives relative members: fs/built-in.a's
 * file_table.o is fs/file_table.o), in archive order, without duplicates;
 * a member that is itself a thin archive is replaced by its members.
 * Returns 1 with *MEMBERS (each string and the array the caller's to free)
 * when PATH is a thin archive, 0 when it is not one (or cannot be opened:
 * the reader says why), -1 with ERR naming the file and the header offset
 * when it is one but malformed, or names no object.
 */
int ll_thin_archive_members(const char *path, char ***members, size_t *nr, struct ll_error *err);

#endif
