// SPDX-License-Identifier: GPL-2.0-or-later
/* Same-name dedup: one hit per distinct definition of a name (its file, line, size, members). */
#include "input/dwarf/raw/scanP.h"

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool distinct_equal(const struct distinct_key *a, const struct distinct_key *b)
{
	return a->hash == b->hash && a->query == b->query && a->tag == b->tag &&
	       a->via_typedef == b->via_typedef && a->declaration == b->declaration &&
	       a->size == b->size && a->line == b->line && a->members_hash == b->members_hash &&
	       a->nr_members == b->nr_members && same_string(a->dir, b->dir) &&
	       same_string(a->name, b->name) && same_string(a->comp_dir, b->comp_dir) &&
	       same_string(a->dir0, b->dir0);
}

static uint64_t string_hash(uint64_t h, const char *s)
{
	return s ? ll_fnv1a(h, s, strlen(s) + 1) : ll_fnv1a(h, "", 1);
}

/* ll_slots_hash_fn over a thread's distinct keys. */
static uint64_t key_hash_of(const void *ctx, size_t index)
{
	return ((const struct distinct *)ctx)->keys[index].hash;
}

/* Whether K was seen before by this thread; if not, it is now. */
static bool distinct_seen(struct distinct *d, const struct distinct_key *k)
{
	size_t at;

	/* From 2,048 keys on: most threads of a whole-image scan keep ~10^5. */
	ll_slots_reserve(&d->at, d->nr_keys < 2048 ? 2048 : d->nr_keys + 1, key_hash_of, d);
	for (at = ll_slots_first(&d->at, k->hash); ll_slots_get(&d->at, at);
	     at = ll_slots_next(&d->at, at))
		if (distinct_equal(&d->keys[ll_slots_get(&d->at, at) - 1], k))
			return true;
	d->keys = xgrow(d->keys, d->nr_keys, sizeof(*d->keys));
	d->keys[d->nr_keys] = *k;
	ll_slots_put(&d->at, at, d->nr_keys++);
	return false;
}

void scan_distinct_release(struct distinct *d)
{
	free(d->keys);
	free(d->pending);
	free(d->pending_keyed);
	ll_slots_release(&d->at);
	memset(d, 0, sizeof(*d));
}

bool scan_unit_lines_load(struct worker *w, struct unit_lines *ul, uint64_t stmt_list,
			  const char *comp_dir)
{
	if (ul->tried)
		return ul->ok;
	ul->tried = true;
	if (!w->in->lines.line)
		return false;
	ul->comp_dir = comp_dir;
	ul->ok = ll_line_table_load(&w->in->lines, stmt_list, ul->comp_dir, &ul->table);
	if (!ul->ok)
		return false;
	ul->file_hash = xcalloc(ul->table.n ? ul->table.n : 1, sizeof(*ul->file_hash));
	ul->dir_hash = string_hash(string_hash(LL_FNV_INIT, ul->comp_dir), ul->table.dir0);
	return true;
}

void scan_unit_lines_release(struct unit_lines *ul)
{
	if (ul->ok)
		ll_line_table_release(&ul->table);
	free(ul->file_hash);
}

/*
 * The table hash of key K from SEED, field by field: hashing its bytes
 * one at a time was a small share of a --list='*' (a key per definition,
 * ~10^6). The strings enter through SEED (a file's hash); the hash never
 * leaves the thread's table.
 */
static uint64_t key_hash(uint64_t seed, const struct distinct_key *k)
{
	uint64_t h = seed;
	const uint64_t words[] = {
		k->size, k->line, k->members_hash,
		(uint64_t)k->query << 32 | k->nr_members,
		(uint64_t)k->tag << 16 | (uint64_t)k->via_typedef << 8 | k->declaration,
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		h = (h ^ words[i]) * LL_FNV_PRIME;
		h ^= h >> 29;
	}
	return h;
}

/*
 * The key of hit H, false when it has none (keep the hit): its file
 * unknown to the unit's line table, or a hit the lookup reads with libdw.
 */
static bool distinct_key_of(struct worker *w, struct unit_lines *ul, const struct ll_scan_hit *h,
			    struct distinct_key *k)
{
	memset(k, 0, sizeof(*k));
	k->query = h->query;
	k->tag = h->tag;
	k->via_typedef = h->via_typedef;
	k->declaration = h->declaration;
	if (h->settled) {
		k->hash = key_hash(LL_FNV_INIT, k);
		return true;
	}
	if (!h->has_sig || !scan_unit_lines_load(w, ul, h->stmt_list, h->comp_dir) ||
	    h->decl_file >= ul->table.n ||
	    !ul->table.names[h->decl_file] || h->stmt_list != ul->table.stmt_list)
		return false;
	k->size = h->byte_size;
	k->line = h->decl_line;
	k->members_hash = h->members_hash;
	k->nr_members = h->nr_members;
	k->dir = ul->table.dirs ? ul->table.dirs[h->decl_file] : NULL;
	k->name = ul->table.names[h->decl_file];
	k->comp_dir = ul->comp_dir;
	k->dir0 = ul->table.dir0;
	if (!ul->file_hash[h->decl_file])
		ul->file_hash[h->decl_file] = string_hash(string_hash(ul->dir_hash, k->dir),
							  k->name) | 1;
	k->hash = key_hash(ul->file_hash[h->decl_file], k);
	return true;
}

/*
 * The keys of hits [FROM, end) into D's pending ones, each one's slot
 * asked for ahead of the probes: a thread's table (~13,000 keys on the
 * 6.12 image) is out of cache by the next unit, and a probe per hit
 * waited for its slot, then for its key, most of distinct_seen()'s time.
 */
static void pending_keys(struct worker *w, struct unit_lines *ul, size_t from)
{
	struct distinct *d = &w->distinct;
	size_t n = w->nr_hits - from;

	if (d->cap_pending < n) {
		d->cap_pending = n * 2;
		d->pending = xrealloc(d->pending, d->cap_pending * sizeof(*d->pending));
		d->pending_keyed = xrealloc(d->pending_keyed,
					    d->cap_pending * sizeof(*d->pending_keyed));
	}
	for (size_t j = 0; j < n; j++) {
		const struct ll_scan_hit *h = &w->hits[from + j];

		d->pending_keyed[j] = !(h->settled && !h->declaration) &&
				      distinct_key_of(w, ul, h, &d->pending[j]);
		if (d->pending_keyed[j] && d->at.slot)
			__builtin_prefetch(&d->at.slot[ll_slots_first(&d->at, d->pending[j].hash)]);
	}
	/* Then the key each probe will compare first. */
	for (size_t j = 0; j < n && d->at.slot; j++) {
		size_t first = d->pending_keyed[j] ?
			       ll_slots_get(&d->at, ll_slots_first(&d->at, d->pending[j].hash)) : 0;

		if (first)
			__builtin_prefetch(&d->keys[first - 1]);
	}
}

/*
 * in->distinct, once a unit's walk succeeded: drop its hits [FROM, end)
 * that this thread has seen the like of, and typedefs of named types
 * (settled, no declaration: they name nothing a lookup wants).
 */
void scan_keep_distinct(struct worker *w, const struct ll_scan_unit *u, struct unit_lines *ul,
			size_t from)
{
	size_t kept = from;

	pending_keys(w, ul, from);
	for (size_t i = from; i < w->nr_hits; i++) {
		struct ll_scan_hit *h = &w->hits[i];
		const struct distinct_key *k = &w->distinct.pending[i - from];
		bool drop = h->settled && !h->declaration;

		if (w->distinct.pending_keyed[i - from]) {
			drop = distinct_seen(&w->distinct, k);
			h->has_file = k->name != NULL;
			h->file_dir = k->dir;
			h->file_name = k->name;
			h->file_dir0 = k->dir0;
		}
		if (drop)
			continue;
		if (w->in->member_filter) {
			h->needs_read = true;
			h->nothing_needed = scan_nothing_needed(w, u, h);
		}
		if (w->in->contains_word)
			scan_member_words(w, u, h);
		w->hits[kept++] = *h;
	}
	w->nr_hits = kept;
}

/*
 * The declaring files of unit U's variables [FROM, end) that the scan
 * read (scan_read_variable()), through the unit's line table UL as the reader
 * resolves them (table_file() in reader_files.c). A file the table cannot
 * give is libdw's to find: the variable is left to the libdw walk.
 */
void scan_variable_files(struct worker *w, const struct ll_scan_unit *u,
			 struct unit_lines *ul, size_t from)
{
	struct strbuf path = STRBUF_INIT;

	for (size_t i = from; i < w->nr_vars; i++) {
		struct ll_scan_variable *v = &w->vars[i];

		if (!v->raw || !v->fixed || !v->has_file)
			continue;
		sb_reset(&path);
		if (!scan_current_unit_info(w, u) || !w->info.comp_dir ||
		    !scan_unit_lines_load(w, ul, w->info.stmt_list, w->info.comp_dir) ||
		    !ll_line_table_path(&ul->table, v->file, &path)) {
			scan_drop_variable_strings(v, 1);
			v->raw = false;
			continue;
		}
		v->file_path = xstrdup(path.buf ? path.buf : "");
		v->comp_dir = xstrdup(w->info.comp_dir);
	}
	sb_release(&path);
}
