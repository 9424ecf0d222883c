/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Questions about a whole binary rather than one struct: which aggregates
 * look like GLOB (--list), which embed a type by value (--contains), and
 * which mix lock-like members with ops pointers on one line (--audit, a
 * heuristic that needs no rules). Works on models the reader built; the
 * answers are data, which report/report_discover.c writes out.
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
 * --contains: the members of S (any depth, through named nested
 * aggregates) whose type is TYPE by value ("struct TYPE", "union TYPE",
 * TYPE itself for typedefs, or arrays of those), in declaration order,
 * into *FOUND (the caller frees the array; the members are S's). Returns
 * how many.
 */
size_t ll_contains(const struct ll_struct *s, const char *type, const struct ll_member ***found);

/*
 * TYPE without a leading "struct " or "union ", when what is left is one
 * C identifier WORD: then every type ll_contains() takes for TYPE is
 * spelled WORD, "struct WORD" or "union WORD", bare or followed by "[".
 * NULL for any other TYPE ("unsigned int", "foo *"). ll_contains() skips
 * a member without a type, so a layout none of whose members' types is
 * spelled so can be digested without them (ll_query's digest_type_word).
 */
const char *ll_contains_word(const char *type);

/* A line, or a run of lines alike, that --audit finds mixed. */
struct ll_audit_line {
	uint64_t first, last;
	char **paths;		/* the read-mostly members' paths, then the write-hot ones */
	size_t nr_read_mostly, nr_write_hot;
};

/* A global variable (a name and its declaring file, NULL: none). */
struct ll_audit_name {
	char *name, *file;
};

/*
 * A lock-like global variable --audit names: on LINE (at ADDR), sharing
 * it with NR_STRANGERS variables other files declare (the first few of
 * them in SHOWN), or in a read-mostly SECTION (NULL: not).
 */
struct ll_audit_var {
	uint64_t line, addr;
	char *type;
	struct ll_audit_name var;
	struct ll_audit_name *shown;
	size_t nr_shown, nr_strangers;
	char *section;
};

struct ll_audit {
	size_t mixed_lines;	/* lines holding a lock-like and an ops-like member */
	struct ll_audit_line *lines;	/* of a struct */
	size_t nr_lines;
	struct ll_audit_var *vars;	/* of the global variables aggregate */
	size_t nr_vars;
};

void ll_audit_release(struct ll_audit *a);

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
 * declares, or that lies in a read-mostly section, one VARS entry each.
 * S is unchanged.
 */
void ll_audit_globals(const struct ll_struct *s, struct ll_audit *out);

#endif
