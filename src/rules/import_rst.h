/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --import-net-cachelines: a rules file (rules.md) from one table of the
 * kernel's Documentation/networking/net_cachelines/ (its *.rst files).
 */
#ifndef LAYOUTLINT_IMPORT_RST_H
#define LAYOUTLINT_IMPORT_RST_H

#include <stddef.h>

#include "util/diag.h"
#include "util/strbuf.h"

/*
 * Read PATH and append the rules to OUT. Rows that cannot be mapped are
 * skipped with a "PATH:LINE: warning: ..." line on stderr each. The header
 * comment names the file (relative to the kernel tree when PATH lies in
 * one) and the kernel release from the tree's top Makefile, when found.
 * Returns 0, or -1 with ERR filled when PATH is unreadable or holds no
 * table of a struct.
 */
int ll_import_net_cachelines(const char *path, struct strbuf *out, struct ll_error *err);

/*
 * The same on TEXT (LEN bytes). NAME is the source file as warnings and
 * errors show it, DISPLAY as the header shows it (NULL: NAME); RELEASE the
 * kernel release, or NULL when unknown.
 * Warnings go to WARNINGS, one line each, or to stderr when it is NULL.
 * *NR_WARNINGS (when not NULL) gets how many rows were skipped.
 */
int ll_import_net_cachelines_text(const char *name, const char *display, const char *text,
				  size_t len, const char *release, struct strbuf *out,
				  struct strbuf *warnings, size_t *nr_warnings,
				  struct ll_error *err);

#endif
