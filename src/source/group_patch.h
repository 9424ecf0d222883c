/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --group-markers: a rules 'group' written into a kernel tree as the
 * kernel writes its hot groups, three times over: the
 * __cacheline_group_begin/end markers around the members in the struct's
 * declaring header, the CACHELINE_ASSERT_GROUP_MEMBER / _SIZE lines in the
 * struct's check function, and (report/ renders those) net_cachelines rows.
 *
 * The edits are made on a set of texts (files under --srcdir, read once),
 * which may start from a patch already made (the --format=patch reorder),
 * so that every file is one diff of its original in the final patch.
 *
 * The header is scanned as srcpatch.c scans it (comments, strings, braces,
 * preprocessor lines), but only at the struct's own level: each
 * declaration is named by the last of its identifiers that is a member of
 * the binary's struct. A group is marked only where its declarations are
 * one run with nothing else (no other member, no #if line) between them;
 * otherwise the caller gets the reason and nothing is changed.
 *
 * Ownership: an ll_textset owns its files' texts.
 */
#ifndef LAYOUTLINT_GROUP_PATCH_H
#define LAYOUTLINT_GROUP_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/contracts.h"
#include "model/layout.h"
#include "util/strbuf.h"

struct ll_textset;

struct ll_textset *ll_textset_new(const char *srcdir);
void ll_textset_free(struct ll_textset *set);

/*
 * Take PATCH (git diffs, with any text before the first) as applied to the
 * files it names; their diffs are kept as written unless edited further.
 * 0, or -1 with WHY (a file unreadable, a hunk that does not apply).
 */
int ll_textset_take_patch(struct ll_textset *set, const char *patch, size_t len,
			  struct strbuf *why);

/* Replace PATH's text (relative to srcdir) by TEXT: 0, or -1 with WHY. */
int ll_textset_replace(struct ll_textset *set, const char *path, const char *text, size_t len,
		       struct strbuf *why);

/* PATH's text as edited so far, appended to OUT: 0, or -1 with WHY. */
int ll_textset_text(struct ll_textset *set, const char *path, struct strbuf *out,
		    struct strbuf *why);

/*
 * The patch: the text before the first diff of PATCH (as given to
 * ll_textset_take_patch) is not included; every file, in the order first
 * touched, as the diff it was given or, once edited here, as one diff of
 * its original.
 */
void ll_textset_diffs(const struct ll_textset *set, struct strbuf *out);

/* Where a group's markers went in a header. */
struct ll_group_site {
	/* The top-level member names of the struct in the text's order (owned; NULL:
	   a declaration naming none) and the group's first and last of them. */
	const char **order;
	size_t n, lo, hi;
	unsigned begin_line, end_line;	/* of the markers, in the edited header */
};

void ll_group_site_release(struct ll_group_site *site);

/*
 * Put __cacheline_group_begin(GROUP) / _end(GROUP) around the declarations
 * of the top-level members MEMBERS (N) of S in HEADER. 0 and SITE filled;
 * -1 with WHY (one line) and nothing changed: the struct is not found, a
 * member is not declared there, or the declarations are not one run.
 */
int ll_group_mark(struct ll_textset *set, const char *header, const struct ll_struct *s,
		  const char *group, const char *const *members, size_t n,
		  struct ll_group_site *site, struct strbuf *why);

/*
 * The bytes the group would span in IMAGE (the struct as one binary lays
 * it out) once its declarations are in SITE's order: the end marker's
 * offset minus the end of the begin marker, as CACHELINE_ASSERT_GROUP_SIZE
 * computes it. Members before the group keep their offsets while the
 * order is the binary's; after the first moved one, C's rules place them.
 * 0, or -1 with WHY (a bitfield or unnamed member that moved before the
 * group's end).
 */
int ll_group_size(const struct ll_struct *image, const struct ll_group_site *site,
		  uint64_t *size, struct strbuf *why);

/*
 * Add LINES (asserts, one a line, no indentation) for S where the kernel
 * keeps them: after the last CACHELINE_ASSERT_GROUP_* of S that ASSERTS
 * (the tree's) holds; else at the end of a function NAME_struct_check()
 * of a C file under the tree; else in a new static inline
 * NAME_struct_check() after the struct in HEADER. WHERE gets
 * "FILE:LINE" and, for a new function, *CREATED is set. 0, or -1 with WHY.
 */
int ll_group_asserts_add(struct ll_textset *set, const char *header, const struct ll_struct *s,
			 const struct ll_group_asserts *asserts, const char *lines,
			 struct strbuf *where, bool *created, struct strbuf *why);

#endif
