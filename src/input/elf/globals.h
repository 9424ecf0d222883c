/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A binary's global and static variables as aggregates of kind
 * LL_GLOBALS: LL_GLOBALS_NAME holds each variable of a writable, allocated
 * data section but .data..percpu, LL_PERCPU_NAME those of .data..percpu
 * (offsets in one CPU's copy, which every CPU has), each member at its
 * address, counted from the page of the first. The ELF symbol table says
 * which variables there are, where, how large and in which section; a debug
 * format's variables (ll_variables, from DWARF) add each one's type and
 * declaration where they can be matched to a symbol.
 */
#ifndef LAYOUTLINT_GLOBALS_H
#define LAYOUTLINT_GLOBALS_H

#include <gelf.h>

#include "model/layout.h"
#include "util/diag.h"

/*
 * What the debug info says of one variable with a fixed address. ADDR is
 * as the file records it: a relocatable object's are not final, so there
 * variables are matched to symbols by name (when the name is unique on
 * both sides), elsewhere by address.
 */
struct ll_variable {
	char *name;
	uint64_t addr;
	uint64_t order;		/* where the debug info has it: variables come in this order */
	char *type;		/* as C spells it ("spinlock_t", "struct rq[8]") */
	struct ll_decl decl;
};

struct ll_variables {
	struct ll_variable *v;
	size_t n;
};

void ll_variables_release(struct ll_variables *vars);

/*
 * Both aggregates of one file, read in one pass over its symbol table:
 * by kind ([0] LL_GLOBALS_NAME, [1] LL_PERCPU_NAME), the layout (NULL
 * when there are no such variables) or why it cannot be made.
 */
struct ll_globals {
	struct ll_struct *layout[2];
	int rc[2];
	struct ll_error err[2];
};

/*
 * Read PATH's variables of both kinds at line size CL into *OUT, with the
 * types and declarations DEBUG (NULL: none) gives, every string escaped
 * already (ll_escape_in_place()). Returns 0, or -1 with ERR set when PATH
 * is no readable ELF file.
 */
int ll_globals_read(const char *path, unsigned cl, const struct ll_variables *debug,
		    struct ll_globals *out, struct ll_error *err);

/*
 * ll_globals_read() in two steps, so that the symbol table can be read
 * (and sorted) before the debug variables are known: read PATH's symbols
 * into *OUT (always set: release it, whatever is returned; PATH must
 * outlive it), then build both aggregates from them with DEBUG. Returns
 * 0, or -1 with ERR set as ll_globals_read() does.
 */
struct ll_globals_symbols;
int ll_globals_symbols_read(const char *path, struct ll_globals_symbols **out,
			    struct ll_error *err);
void ll_globals_symbols_build(struct ll_globals_symbols *syms, unsigned cl,
			      const struct ll_variables *debug, struct ll_globals *out);
void ll_globals_symbols_release(struct ll_globals_symbols *syms);

/*
 * The aggregate WHICH (LL_GLOBALS_NAME or LL_PERCPU_NAME) of G into *OUT,
 * the caller's now (NULL: no such variables; G no longer holds it), or -1
 * with ERR set when it cannot be made.
 */
int ll_globals_take(struct ll_globals *g, const char *which, struct ll_struct **out,
		    struct ll_error *err);
void ll_globals_release(struct ll_globals *g);

#endif
