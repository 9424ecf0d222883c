/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A binary's global and static variables as one aggregate of kind
 * LL_GLOBALS named LL_GLOBALS_NAME: each variable of a writable, allocated
 * data section (not .data..percpu) is a member at its address, counted
 * from the line its first variable lands on. Members carry no type and no
 * declaration: they come from the ELF symbol table alone.
 */
#ifndef LAYOUTLINT_GLOBALS_H
#define LAYOUTLINT_GLOBALS_H

#include <gelf.h>

#include "model/layout.h"
#include "util/diag.h"

/*
 * Read PATH's variables at line size CL into *OUT (NULL when it has none).
 * Returns 0, or -1 with ERR set when PATH is no readable ELF file.
 */
int ll_globals_read(const char *path, unsigned cl, struct ll_struct **out, struct ll_error *err);

#endif
