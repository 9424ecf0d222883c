/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The variables DWARF places at a fixed address: each unit's top-level
 * DW_TAG_variable whose location is one address (DW_OP_addr, or
 * DW_OP_addrx into .debug_addr), with its name, type and declaration. What
 * the global variables aggregate (input/elf/globals.h) adds to the ELF
 * symbol table's sizes and sections.
 *
 * Function-scope statics are nested in their functions and not read: gcc
 * names their symbols "name.N" in any case, which no DWARF name matches.
 */
#ifndef LAYOUTLINT_DWARF_VARIABLES_H
#define LAYOUTLINT_DWARF_VARIABLES_H

#include <elfutils/libdw.h>

#include "input/dwarf/raw/scan.h"
#include "input/elf/globals.h"
#include "util/diag.h"

/* Fill OUT with DIE's declaration, as the reader displays declarations. */
typedef void (*ll_die_decl_fn)(void *ctx, Dwarf_Die *die, struct ll_decl *out);

/*
 * Up to two walkers over one .debug_info: DW[i] is a libdw handle of its
 * own for each (libdw's unit tables are not shared between threads) and
 * CTX[i] what DECL gets with its DIEs. With two, each walks about half of
 * .debug_info in a thread: the whole of a vmlinux's is ~200 MB.
 */
struct ll_variables_walk {
	const char *path;		/* for errors */
	Dwarf *dw[2];
	void *ctx[2];
	size_t nr;			/* 1 or 2 */
	ll_die_decl_fn decl;
	/*
	 * Called (from either walker's thread) with the .debug_info range
	 * [BEGIN, END) of whole units, about 2 MB of them, once they have
	 * been read, so that their pages may go: the walk does not need
	 * them again (also while the split between the walkers is looked
	 * for, which reads every unit header). NULL: nothing to do.
	 */
	void (*unit_done)(void *arg, Dwarf_Off begin, Dwarf_Off end);
	void *unit_done_arg;
	/*
	 * USE_ONLY: read only these DIEs (in .debug_info order), which a raw
	 * scan found to be every top-level DW_TAG_variable with a location,
	 * instead of walking every unit's top-level DIEs with libdw: the
	 * answer is the same, and the walk of the 6.12 image, much of a cold
	 * --audit='*', all but goes.
	 */
	bool use_only;
	const struct ll_scan_variable *only;
	size_t nr_only;
};

/*
 * Every such variable into OUT, in .debug_info order (released by the
 * caller, also on failure). Returns 0, or -1 with ERR set when a unit
 * cannot be read.
 */
int ll_dwarf_variables(const struct ll_variables_walk *walk, struct ll_variables *out,
		       struct ll_error *err);

#endif
