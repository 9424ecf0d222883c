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

/*
 * Why an assert was left out: the member's offset depends on the
 * configuration, so that the assert would break the build in some.
 */
enum ll_assert_skip_why {
	LL_ASSERT_SIZE_VARIES,	/* CAUSE, before it, has a type whose size the config sets */
	LL_ASSERT_AFTER_IF,	/* CAUSE, before it, is declared under #if (LINE) */
	LL_ASSERT_UNDER_IF,	/* the member itself is declared under #if (LINE) */
};

struct ll_assert_skip {
	const struct ll_member *member;	/* the member whose assert was left out */
	const struct ll_member *cause;	/* what makes its offset config-dependent; NULL
					   for an #if run with no member in this build */
	const char *cause_type;		/* SIZE_VARIES: the type found in CAUSE (borrowed) */
	unsigned line;			/* *_IF: the #if line */
	enum ll_assert_skip_why why;
};

struct ll_assert_skips {
	struct ll_assert_skip *v;
	size_t n;
	size_t emitted;		/* asserts written */
	unsigned randomized_line;	/* > 0: __randomize_layout there; the asserts are
					   under #ifndef CONFIG_RANDSTRUCT */
};

struct ll_patch_opts {
	bool asserts;		/* add static_assert()s of the lines the proposal promises */
	/*
	 * With asserts: the ones left out and why, appended here (may be
	 * NULL). An assert is written only when nothing before the member in
	 * the new order has a config-dependent size (locks that grow under
	 * lock debugging, lockdep maps, wait queues, work and timers, their
	 * containers) or is declared under #if; a __randomize_layout struct's
	 * asserts are under #ifndef CONFIG_RANDSTRUCT.
	 */
	struct ll_assert_skips *skipped;
};

/* Whether TYPE's size depends on the kernel configuration: the name of the lock type found. */
const char *ll_config_sized_type(const struct ll_member *m);
void ll_assert_skips_release(struct ll_assert_skips *s);

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
