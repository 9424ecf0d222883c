/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * randstruct: whether the source marks a struct's layout for randomization
 * (__randomize_layout after its closing brace, or its members between
 * randomized_struct_fields_start and randomized_struct_fields_end, as
 * task_struct), read from its declaring header under --srcdir by a plain
 * scan; and which randstruct a kernel .config builds with.
 */
#ifndef LAYOUTLINT_SOURCE_RANDSTRUCT_H
#define LAYOUTLINT_SOURCE_RANDSTRUCT_H

#include <stdbool.h>

#include "checks/contracts.h"
#include "util/diag.h"

/*
 * S's declaration under SRCDIR: LL_RAND_NONE, or how the source marks it
 * (*LINE: the marker's line).
 */
enum ll_rand_mark ll_source_randomized(const char *srcdir, const struct ll_struct *s,
				       unsigned *line);

/* The randstruct mode of a .config's TEXT (NUL-terminated): OFF when it sets none. */
void ll_config_text_randstruct(const char *text, enum ll_rand_config *mode);

/* --config FILE: its randstruct mode; 0, or -1 with ERR when unreadable. */
int ll_config_randstruct(const char *path, enum ll_rand_config *mode, struct ll_error *err);

#endif
