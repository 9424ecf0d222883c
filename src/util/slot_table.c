// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/slot_table.h"

#include <stdlib.h>

#include "util/strbuf.h"

void ll_slots_grow(struct ll_slots *t, size_t n, ll_slots_hash_fn hash_of, const void *ctx)
{
	size_t cap = t->slot ? t->mask + 1 : 0, want = cap ? cap : 16;

	while (want < 2 * n)
		want *= 2;
	if (want == cap)
		return;
	struct ll_slots old = *t;

	size_t empty = 0;

	t->slot = xcalloc(want, sizeof(*t->slot));
	t->mask = want - 1;
	t->used = 0;
	/*
	 * From an empty slot on, round the old table: each probe run is met
	 * in probe order, so entries of one key keep the order they were put
	 * in (the rules' blocks of one name are found first-opened first).
	 */
	while (empty < cap && old.slot[empty])
		empty++;
	for (size_t k = 1; k <= cap; k++) {
		uint32_t v = old.slot[(empty + k) & old.mask];

		if (v)
			ll_slots_add(t, hash_of(ctx, v - 1), v - 1);
	}
	free(old.slot);
}

void ll_slots_release(struct ll_slots *t)
{
	free(t->slot);
	*t = (struct ll_slots)LL_SLOTS_INIT;
}
