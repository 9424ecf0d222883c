/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Spell a DWARF type the way C does, for listings and JSON. */
#ifndef LAYOUTLINT_CTYPE_NAME_H
#define LAYOUTLINT_CTYPE_NAME_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The C declaration of DECLARATOR with TYPE ("char f_name[16]",
 * "void (*fn)(int)"); an empty declarator gives the abstract type name
 * ("char[16]"). TYPE NULL means void. The caller frees the result.
 */
char *ll_c_declaration(Dwarf_Die *type, const char *declarator);

/*
 * A type DIE as ll_c_declaration_by() reads it: libdw's (DW), or one
 * another reader names by its offset in something of its own (RAW: the
 * raw scan's unit in memory, dwarf_scan.c).
 */
struct ll_type_die {
	union {
		Dwarf_Die dw;
		uint64_t raw;
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
 * Number of elements of a subrange DIE: DW_AT_count, or DW_AT_upper_bound
 * - lower + 1. False when there is neither (a flexible array member).
 * dwarf_formsdata sign-extends DW_FORM_data1/2/4, so unsigned forms are
 * read as unsigned: char[65536] has upper bound 0xffff in a data2.
 */
bool ll_subrange_count(Dwarf_Die *subrange, uint64_t *count);

#endif
