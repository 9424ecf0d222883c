/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Spell a DWARF type the way C does ("char f_name[16]", "void (*fn)(int)")
 * from whatever reads its DIEs: libdw (ctype_name.h) or the raw scan.
 * No libdw here.
 */
#ifndef LAYOUTLINT_RAW_TYPE_SPELLING_H
#define LAYOUTLINT_RAW_TYPE_SPELLING_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A type DIE as ll_c_declaration_by() reads it: libdw's (DW), or one
 * another reader names by its offset in something of its own (RAW: the
 * raw scan's unit in memory, raw/scan_variables.c).
 */
struct ll_type_die {
	union {
		/*
		 * libdw's Dwarf_Die, as bytes: this library does not see
		 * libdw. ctype_name.c copies it in and out and checks it fits.
		 */
		unsigned char dw[4 * sizeof(void *)];
		uint64_t raw;
		void *align;
	} u;
};

/*
 * What spelling reads of a type DIE, for a reader other than libdw. TYPE
 * follows DW_AT_type; NAME is DW_AT_name (NULL: none); FIRST_CHILD and
 * NEXT_SIBLING walk a DIE's children (false: none left); SUBRANGE_COUNT
 * is ll_subrange_count()'s; PROTOTYPED says whether DW_AT_prototyped is
 * there. A reader that meets what it cannot read answers as it can and
 * remembers, for its caller to throw the spelling away.
 */
struct ll_type_reader {
	int (*tag)(void *ctx, const struct ll_type_die *d);
	bool (*type)(void *ctx, const struct ll_type_die *d, struct ll_type_die *out);
	const char *(*name)(void *ctx, const struct ll_type_die *d);
	bool (*first_child)(void *ctx, const struct ll_type_die *d, struct ll_type_die *out);
	bool (*next_sibling)(void *ctx, struct ll_type_die *d);
	bool (*subrange_count)(void *ctx, const struct ll_type_die *d, uint64_t *count);
	bool (*prototyped)(void *ctx, const struct ll_type_die *d);
	void *ctx;
	/* A pointer to member's DW_AT_containing_type, by name (NULL: unknown). Optional. */
	const char *(*containing_name)(void *ctx, const struct ll_type_die *d);
};

/* ll_c_declaration() of TYPE (NULL: void) as READER reads it. */
char *ll_c_declaration_by(const struct ll_type_reader *reader, const struct ll_type_die *type,
			  const char *declarator);

/*
 * When the spelling of TYPE (NULL: void) as READER reads it is a base
 * and nothing after it but array dimensions ("NAME", "struct NAME[4]"):
 * that base's name as the spelling writes it ("long" for "long int",
 * "void", "{...}" for an unnamed struct). NULL when a pointer, a
 * qualifier or a function puts a "*", a keyword or a "(" into it, or the
 * chain is too long to spell. Asks what a spelling begins with without
 * making it.
 */
const char *ll_c_array_base_name_by(const struct ll_type_reader *reader,
				    const struct ll_type_die *type);

#endif
