/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's net_cachelines tables (the .rst files of Documentation/networking/net_cachelines),
 * for doc-drift (checks/docdrift.h): the whitespace-aligned form of 6.8 and
 * later ("Type  Name  fastpath_tx_access  fastpath_rx_access  comment",
 * a "..struct ..NAME" row, one row per member), and RST simple tables
 * (rows between "=====" rules) alike: the first two words of a row are its
 * type and name. Macro names are resolved from the struct's declaring
 * header under --srcdir ("#define inet_daddr sk.__sk_common.skc_daddr").
 * This is doc-drift's own reader; --import-net-cachelines has its own
 * (rules/import_rst.c).
 */
#ifndef LAYOUTLINT_SOURCE_NET_CACHELINES_H
#define LAYOUTLINT_SOURCE_NET_CACHELINES_H

#include "checks/docdrift.h"
#include "util/diag.h"

/* Read PATH (shown as FILE) into a new table of OUT: 0, or -1 with ERR. */
int ll_doc_table_read(const char *path, const char *file, struct ll_doc_tables *out,
		      struct ll_error *err);
/* Parse TEXT (owned by the table from now on) as FILE. */
void ll_doc_table_parse(const char *file, char *text, size_t len, struct ll_doc_tables *out);
/* Every table under SRCDIR/Documentation/networking/net_cachelines (none: 0). */
int ll_doc_tables_find(const char *srcdir, struct ll_doc_tables *out, struct ll_error *err);
/*
 * Each row's macro_path, from "#define NAME a.b" lines of HEADER (a file
 * under SRCDIR, as the struct's declaration names it). Unreadable: none.
 */
void ll_doc_table_macros(struct ll_doc_table *t, const char *srcdir, const char *header);

#endif
