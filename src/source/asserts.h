/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's group asserts read from a source tree (--srcdir): a plain
 * scan of the C, not a compile. Every *.c and *.h file under the tree
 * (symbolic links and dot-directories skipped) is searched for
 * CACHELINE_ASSERT_GROUP_SIZE(struct S, GROUP, N) and
 * CACHELINE_ASSERT_GROUP_MEMBER(struct S, GROUP, MEMBER) outside comments
 * and string literals. The preprocessor is not run: an assert under
 * #ifdef counts as if compiled, the macros' definitions (whose first
 * argument is no "struct NAME") are not asserts, and N is evaluated as an
 * integer constant expression of literals, + - * / % << >> and
 * parentheses; anything else (sizeof, a macro) leaves it unknown.
 */
#ifndef LAYOUTLINT_SOURCE_ASSERTS_H
#define LAYOUTLINT_SOURCE_ASSERTS_H

#include "checks/contracts.h"
#include "util/diag.h"

/*
 * Append to OUT every assert under SRCDIR; decl.file is relative to it.
 * 0, or -1 with ERR when SRCDIR cannot be walked.
 */
int ll_scan_group_asserts(const char *srcdir, struct ll_group_asserts *out, struct ll_error *err);

/* The asserts of one text (FILE names it in their decls): exposed for the unit tests. */
void ll_group_asserts_parse(const char *file, const char *text, size_t len,
			    struct ll_group_asserts *out);

/* Evaluate TEXT as the constant expression above: false when it is not one. */
bool ll_eval_constant(const char *text, uint64_t *value);

#endif
