/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's data-type profiles, as text: `perf report --stdio -s
 * type,typeoff[,symoff]` (with or without -n, one section per event) and
 * `perf annotate --stdio --data-type` (one or several event columns),
 * each optionally preceded by the lines of `perf buildid-list`.
 */
#ifndef LAYOUTLINT_PERF_TEXT_H
#define LAYOUTLINT_PERF_TEXT_H

#include <stddef.h>

#include "model/profile.h"
#include "util/diag.h"

/* The most a profile may hold: a report of every type of a kernel is a few MB. */
#define LL_PROFILE_MAX_BYTES (256u << 20)

/*
 * Parse TEXT (LEN bytes; NULs end a line's useful part) read from FILE.
 * Rows that cannot be read (truncated, garbled, pseudo-types perf has no
 * type for) are skipped with a note in NOTES naming FILE:LINE. Text with
 * no row of a data-type profile at all is an error. 0 and *OUT, or -1
 * and ERR.
 */
int ll_profile_parse(const char *file, const char *text, size_t len, struct ll_profile **out,
		     struct ll_profile_notes *notes, struct ll_error *err);
/* ll_profile_parse() on the regular file at PATH. */
int ll_profile_load(const char *path, struct ll_profile **out, struct ll_profile_notes *notes,
		    struct ll_error *err);

#endif
