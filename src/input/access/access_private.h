/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the access analyzer share, and nothing outside
 * input/access/ sees (as elfutils keeps libdwP.h): the analyzer's state,
 * and what access_dwarf.c (types, targets, attribution, registers,
 * variable locations) gives access.c (the code, the walk over each
 * function's instructions, the units). Shared functions carry the prefix ac_.
 */
#ifndef LAYOUTLINT_ACCESS_PRIVATE_H
#define LAYOUTLINT_ACCESS_PRIVATE_H

#include "config.h"

#ifdef HAVE_CAPSTONE
#include "input/access/access.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/elf/capstone_api.h"
#include "input/elf/elf_section.h"
#include "util/slot_table.h"
#include "util/strbuf.h"

#define MEMO_SIZE 4096

/* The sixteen general registers, in DWARF's x86-64 numbering. */
enum { NR_GPR = 16, REG_RBP = 6, REG_RSP = 7 };

/* A register holding a pointer BIAS bytes before the start of an aggregate. */
struct reg_type {
	bool valid;
	Dwarf_Die agg;
	int64_t bias;		/* [reg + d] is at offset d + bias of AGG */
};

/* Where DWARF puts a pointer-to-aggregate variable over [lo, hi). */
struct var_loc {
	uint64_t lo, hi;
	int reg;		/* 0-15, or -1 for a frame slot */
	int64_t slot;		/* frame-base offset, when reg is -1 */
	struct reg_type type;
};

struct inline_range {
	uint64_t lo, hi;
	unsigned depth;
	const char *name;	/* interned per target as needed: borrowed from libdw */
};

/* A top-level aggregate definition of the unit, by name. */
struct definition {
	const char *name;
	Dwarf_Die die;
};

/* A global at a fixed address whose type is an aggregate. */
struct global {
	uint64_t addr, size;
	Dwarf_Die agg;
};

/* An executable section of the code file. */
struct code_section {
	uint64_t addr, size;
	const unsigned char *bytes;
	bool init;		/* .init.text and the like */
};

struct code {
	int fd;
	Elf *elf;
	bool relocatable;	/* ET_REL, until libdwfl has laid it out */
	Dwfl *dwfl;		/* the layout of an ET_REL, and the DWARF read with it */
	Dwarf *own_dwarf;	/* the DWARF of a file that holds its own */
	struct code_section *sections;
	size_t nr_sections;
	uint64_t *lock_calls;	/* addresses of the functions that take or drop a lock, sorted */
	size_t nr_lock_calls;
};

/*
 * What an aggregate type contains, memoised by DIE offset for one unit:
 * an entry of another unit's generation is empty.
 */
struct contains_memo {
	Dwarf_Off off;
	uint32_t generation;
	bool contains;
};

struct analyzer {
	Dwarf *dw;
	/*
	 * The structs asked about, each with its evidence (out[i]); with
	 * EVERY_STRUCT, each named definition met becomes one.
	 */
	bool every_struct;
	struct ll_access_target *targets;
	size_t nr_targets;
	struct ll_access_evidence **out;
	struct ll_slots target_slots;	/* over targets, by name, size and kind */
	uint64_t skipped_functions, undecoded_bytes;	/* image-wide */
	struct code code;
	struct ll_capstone api;
	csh cs;
	cs_insn *insn;

	/* Per unit. */
	Dwarf_Die cu;
	const char *comp_dir;
	struct definition *defs;
	size_t nr_defs;
	struct global *globals;
	size_t nr_globals;
	struct contains_memo *memo;	/* MEMO_SIZE of them */
	uint32_t generation;

	/* Per function. */
	const char *func_name;
	bool func_init;
	struct var_loc *vars;
	size_t nr_vars;
	struct inline_range *inlines;
	size_t nr_inlines;
	struct insn *insns;	/* the range being walked, decoded */
	size_t nr_insns;
	struct join *joins;	/* its direct jumps' targets, sorted */
	size_t nr_joins;
	bool *is_touched;	/* per target: this function touched it */
	size_t *touched;	/* those targets, each once */
	size_t nr_touched;
	uint64_t operands, typed;
	int64_t frame_adjust;	/* rbp = frame base + this, when known */
	bool frame_known;
};


bool ac_type_of(Dwarf_Die *die, Dwarf_Die *out);
int ac_cmp_def(const void *a, const void *b);
bool ac_aggregate_of(struct analyzer *a, Dwarf_Die *t, Dwarf_Die *out);
uint64_t ac_byte_size(Dwarf_Die *d);
size_t ac_add_target(struct analyzer *a, const char *name, uint64_t size, bool is_union);
long ac_target_of(struct analyzer *a, Dwarf_Die *agg);
bool ac_contains_target(struct analyzer *a, Dwarf_Die *agg, int depth);
const char *ac_die_name(Dwarf_Die *d);
void ac_record_access(struct analyzer *a, size_t target, uint64_t off, uint32_t width,
		      enum ll_access_kind kind, uint64_t pc);
void ac_resolve_access(struct analyzer *a, Dwarf_Die *agg, int64_t off, uint32_t width,
		       enum ll_access_kind kind, uint64_t pc, int depth);
bool ac_member_at(struct analyzer *a, Dwarf_Die *agg, int64_t off,
		  bool (*want)(struct analyzer *a, Dwarf_Die *type, void *arg), void *arg,
		  int depth);
bool ac_member_pointee(struct analyzer *a, Dwarf_Die *agg, int64_t off, uint32_t width,
		       struct reg_type *out);
int ac_gpr_index(unsigned reg);
bool ac_is_reg64(unsigned reg);
void ac_collect_scope(struct analyzer *a, Dwarf_Die *d, unsigned depth);
#endif

#endif
