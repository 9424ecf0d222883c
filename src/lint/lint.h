/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "Lint one struct" as a library function: what the CLI does for every
 * struct it found, and what a test can call on a model it built.
 */
#ifndef LAYOUTLINT_LINT_H
#define LAYOUTLINT_LINT_H

#include <stdbool.h>

#include "checks/run.h"
#include "model/access.h"
#include "model/profile.h"
#include "rules/rules.h"
#include "solver/suggest.h"
#include "util/diag.h"

struct ll_lint_opts {
	unsigned cacheline;		/* --cacheline; 0: the rules block's, else arch_cacheline */
	unsigned arch_cacheline;	/* the binary's architecture's line size */
	bool groups_off;		/* --groups=off */
	bool adjacent_lines;		/* --adjacent-lines */
	/*
	 * --in OUTER.PATH: the struct linted is OUTER; EMBED_BLOCK (the rules
	 * of EMBED_TYPE, or NULL) applies to the members of its member at
	 * EMBED_PATH, which must be of that type.
	 */
	const char *embed_path;
	const char *embed_type;
	struct ll_block *embed_block;
	bool suggest;			/* --suggest */
	bool patch;			/* --format=patch: read the header, keep declarations whole */
	const char *srcdir;		/* where headers are found (--srcdir) */
	const struct ll_profile *const *profiles;	/* --profile, for this binary */
	size_t nr_profiles;
	struct ll_measure_thresholds thresholds;	/* --measured-hot, --measured-writes */
	struct ll_static_thresholds static_thresholds;	/* --static-readers, --static-writers */
	/*
	 * --access: a struct no rules name is tagged from its evidence. Without
	 * it, evidence the cache held checks the tags there are, and tags none.
	 */
	bool static_tags;
};

/*
 * Lint L->layout (owned by L) with BLOCK (NULL: no rules): set its
 * cacheline, attach the profiles' measures (notes to L->profile_notes),
 * apply the rules, the kernel groups, every check and, with
 * o->suggest, the solver; then map its cachelines (L->units, L->lines)
 * and, with a suggestion, the proposal's (L->proposal).
 * A rules error (align below the type's) fails with ERR located.
 */
int ll_lint_struct(const struct ll_lint_opts *o, struct ll_block *block, struct ll_linted *l,
		   struct ll_error *err);
/*
 * --against/--baseline without --relayout: replace L's suggestion (if it
 * has one) by the smallest fix of the findings REF calls new
 * (ll_suggest_fix), with the same allows and source pieces.
 */
int ll_lint_smallest_fix(struct ll_linted *l, const struct ll_fix_ref *ref, struct ll_error *err);
/* Free what ll_lint_struct() and the reader put in L (not L->diff). */
void ll_linted_release(struct ll_linted *l);

#endif
