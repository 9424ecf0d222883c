/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The access analyzer (--access): every instruction of every function that
 * touches a struct, typed from DWARF. For each function, it disassembles
 * the code (capstone) and types each memory operand whose base register
 * holds a pointer to a struct:
 *  - parameters and variables by their locations (location lists,
 *    DW_OP_regN, DW_OP_bregN with DW_OP_stack_value as a biased pointer,
 *    which is how container_of() shows, frame-base stack slots), inlined
 *    subroutines' included, each access attributed to the innermost
 *    inlined function (by its abstract origin) and the function it was
 *    inlined into;
 *  - propagated through register moves and loads of pointer-typed members
 *    (file->f_mapping->host), forgotten at branch targets and calls;
 *  - instruction-pointer relative globals (linked images) and the kernel's
 *    per-CPU variables (%gs:ADDR).
 * Each access is a load, a store, both (a plain read-modify-write) or an
 * atomic (lock prefix, xchg, cmpxchg), with its width, at any nesting
 * depth of the struct (a struct embedded in another is found through it).
 *
 * x86-64 only: other machines are refused with one line naming them.
 */
#ifndef LAYOUTLINT_INPUT_ACCESS_H
#define LAYOUTLINT_INPUT_ACCESS_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/access.h"
#include "util/diag.h"

struct ll_access_target {
	const char *name;
	bool is_union;
	uint64_t size;
};

/*
 * Analyze the code of CODE_PATH (an ELF file: the image whose DWARF DW
 * describes, or the stripped binary it was found for) for accesses to each
 * of TARGETS (N of them). OUT[i] receives a new evidence for TARGETS[i].
 * 0, or -1 with ERR when nothing can be analyzed (not x86-64, no
 * capstone, the file unreadable).
 */
int ll_access_analyze(Dwarf *dw, const char *code_path, const struct ll_access_target *targets,
		      size_t n, struct ll_access_evidence **out, struct ll_error *err);

/*
 * Every named struct and union of the image at once (--audit --access):
 * OUT gets an evidence for each definition some typed access reached.
 */
int ll_access_analyze_all(Dwarf *dw, const char *code_path, struct ll_access_image *out,
			  struct ll_error *err);

#endif
