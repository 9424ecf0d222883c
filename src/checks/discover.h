/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Questions about a whole binary rather than one struct: which aggregates
 * look like GLOB (--list), which embed a type by value (--contains), and
 * which mix lock-like members with ops pointers on one line (--audit, a
 * heuristic that needs no rules). Works on models the reader built.
 */
#ifndef LAYOUTLINT_DISCOVER_H
#define LAYOUTLINT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/access.h"
#include "model/layout.h"
#include "util/strbuf.h"

/* What ll_summarize() counts as S's holes. */
size_t ll_struct_holes(const struct ll_struct *s);

/*
 * One row of --list; HOLES is S's hole count (ll_struct_holes(), or a
 * reader's summary of a layout it did not build).
 */
void ll_list_row(const struct ll_struct *s, size_t holes, struct strbuf *out);

/*
 * --contains: append to OUT one line per member of S (any depth, through
 * named nested aggregates) whose type is TYPE by value ("struct TYPE",
 * "union TYPE", TYPE itself for typedefs, or arrays of those). Returns
 * how many lines were added.
 */
size_t ll_contains(const struct ll_struct *s, const char *type, struct strbuf *out);

struct ll_audit {
	size_t mixed_lines;	/* lines holding a lock-like and an ops-like member */
	char *detail;		/* "line 0: f_op with f_lock, f_count; ..." (owned) */
};

/*
 * --audit: tag S by member types alone (locks, atomics, refcounts,
 * seqcounts write-hot; const pointers to *_operations / *_ops tables
 * read-mostly) and count the lines that mix them. Tags are set on S; use
 * a fresh model for anything else.
 */
void ll_audit(struct ll_struct *s, struct ll_audit *out);
/*
 * --audit --access: tag S from the code's evidence E (ll_static_tag, T)
 * instead of by type names, and count the lines that mix read-mostly and
 * write-hot members; E NULL (no function touches S) tags nothing.
 */
void ll_audit_static(struct ll_struct *s, const struct ll_access_evidence *e,
		     const struct ll_static_thresholds *t, struct ll_audit *out);

/*
 * Whether ll_audit() tags a member of spelled type TYPE read-mostly (ARG
 * unused): only pointers ("const struct file_operations *"). A struct
 * none of whose members at its top level or inside its anonymous members
 * has such a type has no line to mix: a reader need not build it
 * (ll_input_options' member_filter).
 */
bool ll_audit_needs_member_type(const char *type, const void *arg);


/*
 * --audit of a global variables aggregate (LL_GLOBALS), by types and
 * declarations alone: each lock-like or atomic variable (the types ll_audit
 * calls write-hot) that shares a cacheline with a variable another file
 * declares, or that lies in a read-mostly section. DETAIL holds one line per
 * such variable, each starting with a newline and indented, as
 * "line L (ADDR): TYPE NAME (FILE) with NAME (FILE), ...". S is unchanged.
 */
void ll_audit_globals(const struct ll_struct *s, struct ll_audit *out);

#endif
