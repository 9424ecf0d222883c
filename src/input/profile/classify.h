/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loads and stores from the sampled instruction: a profile taken with a
 * software event (cpu-clock) says where samples fell, not whether the
 * instruction there loaded or stored. Disassembling it (capstone) can:
 * its memory operand is read, written, or both (a lock-prefixed or
 * memory-destination arithmetic instruction). Approximate: the sample's
 * instruction is the one perf attributed the data type from, but under
 * skid the cost may belong to its neighbour.
 */
#ifndef LAYOUTLINT_PROFILE_CLASSIFY_H
#define LAYOUTLINT_PROFILE_CLASSIFY_H

#include "model/profile.h"
#include "util/diag.h"

/*
 * Set the access of every row of P with a symoff from the instruction at
 * that symbol and offset in BINARY (an ELF file with a symbol table).
 * Rows whose instruction cannot be found (another DSO's function) or
 * decoded stay unknown. 0, or -1 with ERR when BINARY
 * cannot be read as ELF. *WHY_NOT (static text) says why nothing could be
 * classified (no capstone, not x86-64, no symoff column), or NULL.
 */
int ll_profile_classify(struct ll_profile *p, const char *binary, const char **why_not,
			struct ll_error *err);

#endif
