/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Spell a DWARF type the way C does, for listings and JSON. */
#ifndef LAYOUTLINT_CTYPE_NAME_H
#define LAYOUTLINT_CTYPE_NAME_H

#include <elfutils/libdw.h>

/*
 * The C declaration of DECLARATOR with TYPE ("char f_name[16]",
 * "void (*fn)(int)"); an empty declarator gives the abstract type name
 * ("char[16]"). TYPE NULL means void. The caller frees the result.
 */
char *ll_c_declaration(Dwarf_Die *type, const char *declarator);

#endif
