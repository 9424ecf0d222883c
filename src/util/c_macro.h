/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader of "#define NAME a.b.c" lines: the kernel names members
 * below a struct by macros (inet_sock's '#define inet_daddr
 * sk.__sk_common.skc_daddr'), and both the net_cachelines importer and
 * doc-drift must resolve a table row through them the same way.
 */
#ifndef LAYOUTLINT_C_MACRO_H
#define LAYOUTLINT_C_MACRO_H

/*
 * The value of the object-like macro NAME defined in C TEXT (NUL-terminated)
 * when it is a dotted member path ("a.b.c", identifiers only), malloc()ed;
 * NULL when TEXT defines no such macro or defines it otherwise. The first
 * definition counts.
 */
char *ll_macro_member_path(const char *text, const char *name);

#endif
