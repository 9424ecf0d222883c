/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both readers do the same way when they turn a debug format into the
 * model: member paths, the alignment a member is taken to have once its
 * placement is known, the checks a finished struct must pass, the
 * "did you mean" among aggregate names, and sorted name lists. Each reader
 * keeps only what its format really does differently (how a type is
 * sized and aligned, how a bitfield is positioned, what names an origin).
 */
#ifndef LAYOUTLINT_BUILDER_H
#define LAYOUTLINT_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/layout.h"
#include "util/diag.h"

/* "prefix.name", or NAME alone at the top level (PREFIX NULL or ""). Owned. */
char *ll_member_path(const char *prefix, const char *name);

/*
 * The alignment to record for a member whose type aligns to NATURAL, placed
 * LOC bytes into an aggregate aligned to PARENT_ALIGN. Packing shows only
 * in the offsets: a member at an offset its type does not allow was packed
 * on its own (alignment 1), and no member of a packed aggregate is aligned
 * beyond the aggregate itself.
 *
 * POSITION_SAYS: LOC is where the member's own bytes start. The readers
 * differ here for a reason: a DWARF bitfield's LOC is its storage unit's
 * (DW_AT_data_member_location, aligned), so it still says something; a BTF
 * bitfield has only a bit offset, whose byte says nothing of its type's
 * alignment, so BTF passes false for bitfields.
 */
uint64_t ll_placed_alignment(uint64_t natural, bool position_says, uint64_t loc,
			     uint64_t parent_align);

/*
 * The checks a struct from any reader must pass before anything trusts it:
 * every alignment a power of two up to 2^28, every member inside the
 * struct and inside its enclosing member, no two members of a struct
 * overlapping (a union's may). WHERE names the struct's origin
 * in its format ("at DIE 0x2d", "of BTF type [12]"), DECLARER what declared
 * its size ("the struct at DIE 0x2d", "BTF type [12]").
 */
int ll_struct_validate(const struct ll_struct *s, const char *where, const char *declarer,
		       struct ll_error *err);

/*
 * The nearest aggregate name to one that was not found, by the project's
 * one edit distance and threshold; ties go to the name that sorts first.
 */
struct ll_nearest {
	const char *name;	/* what was asked for */
	size_t limit;
	size_t best;
	char *best_name;	/* owned */
	enum ll_kind best_kind;
};

void ll_nearest_init(struct ll_nearest *n, const char *name);
void ll_nearest_offer(struct ll_nearest *n, const char *cand, enum ll_kind kind);
/* "did you mean struct X?", owned, or NULL when nothing was close; releases N. */
char *ll_nearest_finish(struct ll_nearest *n);

/* Sort V[0..*N) and drop (and free) repeats. */
void ll_names_sort_unique(char **v, size_t *n);

#endif
