/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=patch: a suggestion as a unified diff of the real header.
 *
 * The source of a struct is read from its declaring file (relative to
 * --srcdir) and cut into pieces that move whole: a declaration with the
 * comment and blank lines above it and the comment after it on its last
 * line, or an #if ... #endif run with everything inside it. A piece with
 * no member in the binary (compiled out) moves with the piece above it.
 * The solver is told to keep each piece's members together (its glue
 * callback), so that the proposal is one C can write by moving lines.
 *
 * Anything the reader cannot map member by member (a member not spelled
 * out in its declaration, two declarations on one line, a preprocessor
 * line between members outside an #if run, a stale or missing file) makes
 * that struct's patch a one-line refusal, never a guess.
 *
 * Ownership: an ll_source owns its text and tables; it borrows the
 * members of the ll_struct it was read for, which must outlive it.
 */
#ifndef LAYOUTLINT_SRCPATCH_H
#define LAYOUTLINT_SRCPATCH_H

#include <stdbool.h>

#include "model/layout.h"
#include "util/strbuf.h"

struct ll_source;
struct ll_suggestion;

/*
 * Read and map S's source. NULL with WHY filled (one line, no newline)
 * when it cannot be patched safely.
 */
struct ll_source *ll_source_read(const struct ll_struct *s, const char *srcdir,
				 struct strbuf *why);
void ll_source_free(struct ll_source *src);

/* For ll_suggest_opts.glued: M and the member after it are in one piece. */
bool ll_source_glued(const struct ll_member *m, void *src);
/* For ll_suggest_opts.weight: the lines of source the members' pieces span. */
size_t ll_source_weight(const struct ll_member *first, size_t count, void *src);

struct ll_patch_opts {
	bool asserts;		/* add static_assert()s of the lines the proposal promises */
};

/*
 * The hunk (without file headers) that turns the source into the
 * proposal: appended to OUT, with its old-file start in *OLD_START. 0 on
 * success, 1 when there is nothing to change, -1 with WHY filled when the
 * proposal cannot be written as a patch.
 */
int ll_source_hunk(const struct ll_source *src, const struct ll_suggestion *sg,
		   const struct ll_patch_opts *opts, long line_delta, struct strbuf *out,
		   unsigned *old_start, long *new_delta, struct strbuf *why);

/* The path in the diff ("include/linux/fs.h") and where the struct opens. */
const char *ll_source_path(const struct ll_source *src);
unsigned ll_source_line(const struct ll_source *src);

/* The struct's size once the patch is applied (line starts round it up). */
uint64_t ll_source_patched_size(const struct ll_source *src, const struct ll_suggestion *sg);

#endif
