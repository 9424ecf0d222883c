// SPDX-License-Identifier: GPL-2.0-or-later
#include "finder.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

struct ll_finder {
	Dwarf *dwarf;
};

/* FNV-1a: cheap, stable across runs, good enough to tell layouts apart. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

static bool wanted_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_typedef;
}

/* A tiny open-addressing set of the names asked for. */
struct name_set {
	const char **slots;
	size_t mask;
};

static uint64_t name_hash(const char *s)
{
	return fnv(FNV_INIT, s, strlen(s));
}

static void set_init(struct name_set *set, const char *const *names, size_t n)
{
	size_t cap = 16;

	while (cap < n * 4)
		cap *= 2;
	set->slots = xcalloc(cap, sizeof(*set->slots));
	set->mask = cap - 1;
	for (size_t i = 0; i < n; i++) {
		size_t at = name_hash(names[i]) & set->mask;

		while (set->slots[at] && strcmp(set->slots[at], names[i]) != 0)
			at = (at + 1) & set->mask;
		set->slots[at] = names[i];
	}
}

static bool set_has(const struct name_set *set, const char *name)
{
	size_t at = name_hash(name) & set->mask;

	while (set->slots[at]) {
		if (strcmp(set->slots[at], name) == 0)
			return true;
		at = (at + 1) & set->mask;
	}
	return false;
}

int ll_finder_scan(Dwarf *dwarf, const char *path, const char *const *names, size_t n,
		   ll_finder_fn fn, void *arg, struct ll_finder **finder,
		   struct ll_error *err)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct name_set set;
	int rc;

	*finder = xcalloc(1, sizeof(**finder));
	(*finder)->dwarf = dwarf;
	set_init(&set, names, n);
	while ((rc = dwarf_next_unit(dwarf, off, &next, &hsize, NULL, NULL, NULL, NULL,
				     NULL, NULL)) == 0) {
		Dwarf_Die cu, child;

		if (!dwarf_offdie(dwarf, off + hsize, &cu)) {
			free(set.slots);
			return ll_fail(err, "%s: unreadable compilation unit at .debug_info "
				       "offset 0x%llx: %s", path, (unsigned long long)off,
				       dwarf_errmsg(-1));
		}
		off = next;
		if (dwarf_child(&cu, &child) != 0)
			continue;
		do {
			const char *name;

			if (!wanted_tag(dwarf_tag(&child)))
				continue;
			name = dwarf_diename(&child);
			if (name && set_has(&set, name))
				fn(&child, name, arg);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	free(set.slots);
	if (rc < 0)
		return ll_fail(err, "%s: malformed .debug_info unit header at offset 0x%llx: %s",
			       path, (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}

void ll_finder_free(struct ll_finder *finder)
{
	free(finder);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xmalloc((lb + 1) * sizeof(*row));

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];

	free(row);
	return d;
}

/*
 * Missing names are rare, so the suggestion costs a second walk instead of
 * making every successful lookup collect all names.
 */
char *ll_finder_suggest(struct ll_finder *finder, const char *name)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	size_t best = (size_t)-1;
	size_t limit = strlen(name) / 3 + 1;
	char *best_name = NULL;
	const char *best_kind = NULL;

	if (!finder)
		return NULL;
	while (dwarf_next_unit(finder->dwarf, off, &next, &hsize, NULL, NULL, NULL, NULL,
			       NULL, NULL) == 0) {
		Dwarf_Die cu, child;

		if (!dwarf_offdie(finder->dwarf, off + hsize, &cu))
			break;
		off = next;
		if (dwarf_child(&cu, &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *cand;
			Dwarf_Attribute attr;

			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
				continue;
			if (dwarf_attr(&child, DW_AT_declaration, &attr))
				continue;
			cand = dwarf_diename(&child);
			if (!cand || (best_name && strcmp(cand, best_name) == 0))
				continue;
			size_t d = edit_distance(name, cand);

			if (d <= limit && (d < best || (d == best && strcmp(cand, best_name) < 0))) {
				free(best_name);
				best_name = xstrdup(cand);
				best_kind = tag == DW_TAG_union_type ? "union" : "struct";
				best = d;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!best_name)
		return NULL;
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "did you mean %s %s?", best_kind, best_name);
	free(best_name);
	return sb_detach(&sb);
}

void ll_finder_signature(Dwarf_Die *agg, const char *display_file, struct ll_finder_sig *sig)
{
	Dwarf_Attribute attr;
	Dwarf_Word size = 0;
	Dwarf_Die child;
	int line = 0;

	memset(sig, 0, sizeof(*sig));
	sig->tag = dwarf_tag(agg);
	if (dwarf_attr(agg, DW_AT_byte_size, &attr))
		dwarf_formudata(&attr, &size);
	sig->size = size;
	dwarf_decl_line(agg, &line);
	sig->line = line > 0 ? (unsigned)line : 0;
	sig->file_hash = display_file ? name_hash(display_file) : 0;
	sig->members_hash = FNV_INIT;
	if (dwarf_child(agg, &child) != 0)
		return;
	do {
		const char *name;
		Dwarf_Word loc = 0, bits = 0;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		name = dwarf_diename(&child);
		if (dwarf_attr(&child, DW_AT_data_member_location, &attr))
			dwarf_formudata(&attr, &loc);
		if (dwarf_attr(&child, DW_AT_data_bit_offset, &attr))
			dwarf_formudata(&attr, &bits);
		sig->members_hash = fnv(sig->members_hash, name ? name : "", name ? strlen(name) + 1 : 1);
		sig->members_hash = fnv(sig->members_hash, &loc, sizeof(loc));
		sig->members_hash = fnv(sig->members_hash, &bits, sizeof(bits));
		sig->nr_members++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

bool ll_finder_sig_equal(const struct ll_finder_sig *a, const struct ll_finder_sig *b)
{
	return a->tag == b->tag && a->size == b->size && a->line == b->line &&
	       a->file_hash == b->file_hash && a->members_hash == b->members_hash &&
	       a->nr_members == b->nr_members;
}
