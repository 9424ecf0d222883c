/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one open-addressing table (names, distinct definitions, targets).
 * Its slots hold positions, an index into the caller's own array plus one
 * (0: empty), never keys: the caller keeps its entries where they are and
 * says how to hash one (for a rehash) and when one matches (while
 * probing). Capacity a power of two, linear probing, at most half full.
 *
 *	ll_slots_reserve(&t, n + 1, hash_of, ctx);
 *	for (at = ll_slots_first(&t, h); ll_slots_get(&t, at); at = ll_slots_next(&t, at))
 *		if (matches(ll_slots_get(&t, at) - 1))
 *			return ...;
 *	ll_slots_put(&t, at, n);	(the empty slot the probe ended on)
 *
 * ll_slots_reserve() before the probe: a rehash moves every slot.
 */
#ifndef LAYOUTLINT_SLOT_TABLE_H
#define LAYOUTLINT_SLOT_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct ll_slots {
	uint32_t *slot;		/* mask + 1 of them; NULL before the first reserve */
	size_t mask;
	size_t used;
};

#define LL_SLOTS_INIT { NULL, 0, 0 }

/* The hash of entry INDEX of the caller's array, as it was put (for a rehash). */
typedef uint64_t (*ll_slots_hash_fn)(const void *ctx, size_t index);

/* ll_slots_reserve()'s growth: the rehash into a bigger table. */
void ll_slots_grow(struct ll_slots *t, size_t n, ll_slots_hash_fn hash_of, const void *ctx);

/*
 * Room for N entries in all at most half full, rehashing those in the
 * table with HASH_OF(CTX, index) when it grows. Inline, so that a caller
 * may reserve before every insertion it probes for (once per DIE).
 */
static inline void ll_slots_reserve(struct ll_slots *t, size_t n, ll_slots_hash_fn hash_of,
				    const void *ctx)
{
	if (!t->slot || 2 * n > t->mask + 1)
		ll_slots_grow(t, n, hash_of, ctx);
}
void ll_slots_release(struct ll_slots *t);

/* Where a probe for HASH starts (0 in a table without slots, where ll_slots_get() is 0). */
static inline size_t ll_slots_first(const struct ll_slots *t, uint64_t hash)
{
	return t->slot ? (size_t)hash & t->mask : 0;
}

static inline size_t ll_slots_next(const struct ll_slots *t, size_t at)
{
	return (at + 1) & t->mask;
}

/* Index + 1 at slot AT, 0 when it is empty. */
static inline size_t ll_slots_get(const struct ll_slots *t, size_t at)
{
	return t->slot ? t->slot[at] : 0;
}

/* Entry INDEX into the empty slot AT a probe ended on (after a reserve for it). */
static inline void ll_slots_put(struct ll_slots *t, size_t at, size_t index)
{
	t->slot[at] = (uint32_t)(index + 1);
	t->used++;
}

/* Entry INDEX in place of the one at the full slot AT (a chain's new head). */
static inline void ll_slots_replace(struct ll_slots *t, size_t at, size_t index)
{
	t->slot[at] = (uint32_t)(index + 1);
}

/* Entry INDEX, with hash HASH, into the first empty slot of its probe (duplicates allowed). */
static inline void ll_slots_add(struct ll_slots *t, uint64_t hash, size_t index)
{
	size_t at = ll_slots_first(t, hash);

	while (t->slot[at])
		at = ll_slots_next(t, at);
	ll_slots_put(t, at, index);
}

#endif
