// SPDX-License-Identifier: GPL-2.0-or-later
/* The model-building steps both readers share (model/builder.h). */
#include "model/builder.h"

#include <stdlib.h>
#include <string.h>

#include "util/edit_distance.h"
#include "util/strbuf.h"

char *ll_member_path(const char *prefix, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (prefix && *prefix) {
		sb_adds(&sb, prefix);
		sb_addc(&sb, '.');
	}
	sb_adds(&sb, name);
	return sb_detach(&sb);
}

uint64_t ll_placed_alignment(uint64_t natural, bool position_says, uint64_t loc,
			     uint64_t parent_align)
{
	uint64_t a = natural ? natural : 1;	/* a 0-byte type: hostile, not a reason to divide by 0 */

	if (position_says && loc % a)
		return 1;
	return parent_align < a ? parent_align : a;
}

int ll_struct_validate(const struct ll_struct *s, const char *where, const char *declarer,
		       struct ll_error *err)
{
	const struct ll_member *bad, *prev;

	if (!ll_struct_alignments_ok(s, &bad))
		return ll_fail(err, "%s %s %s: alignment %llu is not a power of two up to 2^28",
			       bad ? "member" : "struct", bad && bad->path ? bad->path : s->name,
			       where, (unsigned long long)(bad ? bad->alignment : s->alignment));
	if ((bad = ll_struct_misfit(s)))
		return ll_fail(err, "member %s at offset %llu (%llu bytes) does not fit in the %llu "
			       "bytes %s declares, or in its enclosing member",
			       bad->path ? bad->path : "<anonymous>", (unsigned long long)bad->offset,
			       (unsigned long long)bad->size, (unsigned long long)s->size, declarer);
	if ((bad = ll_struct_overlap(s, &prev)))
		return ll_fail(err, "member %s at offset %llu overlaps member %s before it, in %s "
			       "(only a union's members may)",
			       bad->path ? bad->path : "<anonymous>", (unsigned long long)bad->offset,
			       prev->path ? prev->path : "<anonymous>", declarer);
	return 0;
}

void ll_nearest_init(struct ll_nearest *n, const char *name)
{
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->limit = ll_suggest_limit(strlen(name));
	n->best = n->limit + 1;
}

void ll_nearest_offer(struct ll_nearest *n, const char *cand, enum ll_kind kind)
{
	size_t d;

	/* The same name again (one struct in many units) cannot do better. */
	if (n->best_name && strcmp(cand, n->best_name) == 0)
		return;
	d = ll_edit_distance(n->name, cand, n->limit);
	if (d <= n->limit && (d < n->best || (d == n->best && strcmp(cand, n->best_name) < 0))) {
		free(n->best_name);
		n->best_name = xstrdup(cand);
		n->best_kind = kind;
		n->best = d;
	}
}

char *ll_nearest_finish(struct ll_nearest *n)
{
	struct strbuf sb = STRBUF_INIT;

	if (!n->best_name)
		return NULL;
	sb_addf(&sb, "did you mean %s %s?", ll_kind_name(n->best_kind), n->best_name);
	free(n->best_name);
	n->best_name = NULL;
	return sb_detach(&sb);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ll_names_sort_unique(char **v, size_t *n)
{
	size_t out = 0;

	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < *n; i++) {
		if (out && strcmp(v[out - 1], v[i]) == 0) {
			free(v[i]);
			continue;
		}
		v[out++] = v[i];
	}
	*n = out;
}
