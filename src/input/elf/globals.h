/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A binary's global and static variables as aggregates of kind
 * LL_GLOBALS: LL_GLOBALS_NAME holds each variable of a writable, allocated
 * data section but .data..percpu, LL_PERCPU_NAME those of .data..percpu
 * (offsets in one CPU's copy, which every CPU has), each member at its
 * address, counted from the page of the first. Members carry no type and no
 * declaration: they come from the ELF symbol table alone.
 */
#ifndef LAYOUTLINT_GLOBALS_H
#define LAYOUTLINT_GLOBALS_H

#include <gelf.h>

#include "model/layout.h"
#include "util/diag.h"

/*
 * Read PATH's variables of WHICH (LL_GLOBALS_NAME or LL_PERCPU_NAME) at
 * line size CL into *OUT (NULL when there are none). Returns 0, or -1 with
 * ERR set when PATH is no readable ELF file.
 */
int ll_globals_read(const char *path, const char *which, unsigned cl, struct ll_struct **out,
		    struct ll_error *err);

#endif
