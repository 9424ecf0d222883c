/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Spell a DWARF type the way C does, for listings and JSON: libdw's DIEs. */
#ifndef LAYOUTLINT_CTYPE_NAME_H
#define LAYOUTLINT_CTYPE_NAME_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "input/dwarf/raw/type_spelling.h"

/*
 * The C declaration of DECLARATOR with TYPE ("char f_name[16]",
 * "void (*fn)(int)"); an empty declarator gives the abstract type name
 * ("char[16]"). TYPE NULL means void. The caller frees the result.
 */
char *ll_c_declaration(Dwarf_Die *type, const char *declarator);

/* ll_c_array_base_name_by() of TYPE (NULL: void), as libdw reads it. */
const char *ll_c_array_base_name(Dwarf_Die *type);

/*
 * Number of elements of a subrange DIE: DW_AT_count, or DW_AT_upper_bound
 * - lower + 1. False when there is neither (a flexible array member).
 * dwarf_formsdata sign-extends DW_FORM_data1/2/4, so unsigned forms are
 * read as unsigned: char[65536] has upper bound 0xffff in a data2.
 */
bool ll_subrange_count(Dwarf_Die *subrange, uint64_t *count);

#endif
