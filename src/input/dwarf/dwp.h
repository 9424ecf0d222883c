/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DWARF packages (.dwp, from dwp or llvm-dwp): every split unit of a
 * program in one file, each unit's share of .debug_abbrev.dwo,
 * .debug_str_offsets.dwo and .debug_line.dwo found through
 * .debug_cu_index. libdw 0.188 reads .dwo files but not packages, so each
 * unit is given back to it as the .dwo it was packed from: an ELF image
 * in memory holding that unit and its shares (and the whole
 * .debug_str.dwo, which the offsets point into).
 */
#ifndef LAYOUTLINT_DWP_H
#define LAYOUTLINT_DWP_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct ll_dwp_unit {
	uint64_t dwo_id;	/* the signature its skeleton unit carries */
	unsigned char *image;	/* the rebuilt .dwo */
	Elf *elf;
	Dwarf *dwarf;
};

struct ll_dwp {
	struct ll_dwp_unit *units;	/* in .debug_cu_index row order */
	size_t n;
};

/*
 * Every compilation unit of the package ELF (PATH for messages): a
 * malformed index, or a unit libdw cannot open, is an error naming PATH.
 */
int ll_dwp_load(Elf *elf, const char *path, struct ll_dwp *dwp, struct ll_error *err);
void ll_dwp_release(struct ll_dwp *dwp);

/* The unit whose skeleton carries DWO_ID, or NULL. */
Dwarf *ll_dwp_find(const struct ll_dwp *dwp, uint64_t dwo_id);

#endif
