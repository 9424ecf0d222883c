/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * C++ and Rust in DWARF: what a reader written for C must know not to
 * misread them. Their types live inside namespaces and other types
 * (ns::Outer::Inner, mycrate::module::Name), their classes have base
 * classes, static data members and empty members that take no room, and
 * rustc lays fields out in an order of its own.
 */
#ifndef LAYOUTLINT_SCOPES_H
#define LAYOUTLINT_SCOPES_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/dwarf/raw/languages.h"
#include "util/diag.h"

/*
 * Whether NAME is qualified: it has a "::" outside template arguments
 * ("ns::Box<int>" is, "Box<ns::T>" is not: that one is a top-level name).
 */
bool ll_scoped_name(const char *name);

/*
 * The qualified name of a type DIE, as C++ and Rust spell it: its
 * enclosing namespaces and types joined by "::" ("ns::Outer::Inner";
 * "(anonymous namespace)" as gdb writes it). NULL when DIE has no name.
 * Costs a walk of its unit: for a few DIEs (base classes), not for every
 * member. The caller frees it.
 */
char *ll_scoped_die_name(Dwarf_Die *die);

/* The DW_LANG_* of DIE's unit; -1 when unknown. */
int ll_die_language(Dwarf_Die *die);
/* ll_language_is_c(), _cxx(), _rust(): raw/languages.h. */

/*
 * A C++ static data member: DWARF 4 writes it as a DW_TAG_member that is
 * only a declaration (DW_AT_declaration, DW_AT_external); it has no place
 * in the object. (DWARF 5 writes a DW_TAG_variable, which no reader of
 * members looks at.)
 */
bool ll_static_member(Dwarf_Die *member);

/*
 * Whether TYPE (through typedefs and qualifiers) is a class with no data:
 * no non-static data member, and only such bases. sizeof is 1 for it, yet
 * as an empty base or a [[no_unique_address]] member it takes no byte.
 */
bool ll_empty_class(Dwarf_Die *type);

/*
 * One type definition found by ll_scoped_walk(): DIE, its qualified NAME
 * (valid during the call).
 */
typedef int (*ll_scoped_fn)(Dwarf_Die *die, const char *name, void *arg);

/*
 * Visit every named struct, class, union or typedef nested in a namespace
 * or a type, in units that are not C, in .debug_info order, with its
 * qualified name. Errors (an unreadable DIE) name PATH and the offset.
 */
int ll_scoped_walk(Dwarf *dwarf, const char *path, ll_scoped_fn fn, void *arg,
		   struct ll_error *err);

/*
 * Whether the abbreviation tables ABBREV (SIZE bytes) declare any DIE only
 * C++ or Rust writes: a namespace, a class, a base class, a template
 * parameter, a reference. --list adds qualified names only then, so that
 * a C image (a vmlinux) costs no second walk.
 */
bool ll_abbrevs_have_scopes(const unsigned char *abbrev, size_t size);

#endif
