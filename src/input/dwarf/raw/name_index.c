// SPDX-License-Identifier: GPL-2.0-or-later
/* The persistent name index; see name_index.h for what it promises. */
#include "input/dwarf/raw/name_index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/types.h>
#include <unistd.h>

#include <dwarf.h>

#include "util/cache_dir.h"
#include "util/edit_distance.h"
#include "util/hash.h"
#include "util/read_file.h"
#include "util/slot_table.h"
#include "util/strbuf.h"
#include <stddef.h>

/*
 * "LLNIDX" and two digits, the same as INDEX_VERSION. 4: the layout of 3,
 * but hole counts from the hole finder that counts as pahole does around
 * bitfield runs; a 3 may hold the old counts, and warm --list prints them.
 * 5: the layout of 4, with the four-lane checksum below. 6: the layout of
 * 5, but members hashes mix a hash of each member's name
 * (ll_sig_member()), not its bytes: a 5's hashes would tell equal
 * definitions apart. 7: the layout of 6, with LL_INDEX_IN_STR on names
 * and LL_INDEX_DEF_NAMELESS in a definition's flags (a 6's zero there
 * would let "did you mean" propose a typedef's anonymous struct).
 * 8: each definition built has the words of its member types
 * (LL_INDEX_DEF_WORDS, a words section), so a warm --contains builds
 * only the definitions it may match. 9: the layout of 8, with what
 * --audit's member filter said of each definition
 * (LL_INDEX_DEF_FILTERED, LL_INDEX_DEF_NEEDED), so a warm --audit builds
 * only the definitions its digest reads. (A layoutlint of format 8
 * would refuse those flags with a note; as another format, it ignores
 * the index quietly.)
 */
#define INDEX_MAGIC "LLNIDX09"
#define INDEX_VERSION 9
/* An index file larger than this is refused (6.12's is ~7 MB). */
#define INDEX_MAX_SIZE (512u << 20)

/*
 * The sections, in file order, each 8-byte aligned. A lookup reads all
 * but the postings (a fifth of the file); each has its own checksum, so
 * what is read is checked without reading the rest.
 */
enum { SEC_UNITS, SEC_NAMES, SEC_DEFS, SEC_WORDS, SEC_STRINGS, SEC_POSTINGS, NR_SECS };

struct index_section {
	uint64_t off, size, sum;
};

/* The file's header; every field 8 bytes wide, so no padding. */
struct index_header {
	char magic[8];
	uint64_t version;
	struct ll_index_disk_key key;
	uint64_t nr_units;
	uint64_t nr_names, nr_postings, nr_defs, names_bytes, strings_bytes, nr_words;
	struct index_section sec[NR_SECS];
	uint64_t header_sum;	/* ll_name_index_sum() of every byte before it */
};

/*
 * A unit header as stored: struct ll_scan_unit's layout exactly, so that
 * a loaded index's units are used where they are mapped.
 */
struct disk_unit {
	uint64_t offset, end, first_die, abbrev_offset;
	uint32_t version, addr_size, offset_size, reserved;
	unsigned char head[32];
};
_Static_assert(sizeof(struct disk_unit) == sizeof(struct ll_scan_unit) &&
	       offsetof(struct disk_unit, version) == offsetof(struct ll_scan_unit, version) &&
	       offsetof(struct disk_unit, offset_size) ==
	       offsetof(struct ll_scan_unit, offset_size) &&
	       offsetof(struct disk_unit, head) == offsetof(struct ll_scan_unit, head),
	       "a stored unit header is a struct ll_scan_unit");

/*
 * The checksum: FNV-1a-like over 8-byte little-endian words in four
 * independent lanes (word k goes to lane k mod 4), folded, then the
 * tail words and bytes. One lane was a chain of dependent multiplies,
 * half of loading the 3.5 MB a warm lookup of the 6.12 image checks.
 * It catches damage, not forgery: a file is read only from a directory
 * and a file only the user can write (ll_cache_dir_distrust()).
 */
uint64_t ll_name_index_sum(const unsigned char *p, size_t n)
{
	uint64_t lane[4] = { LL_FNV_INIT, LL_FNV_INIT ^ 1, LL_FNV_INIT ^ 2, LL_FNV_INIT ^ 3 };
	uint64_t h, w;
	size_t i = 0;

	for (; i + 32 <= n; i += 32)
		for (int k = 0; k < 4; k++) {
			memcpy(&w, p + i + 8 * (size_t)k, 8);
			lane[k] = (lane[k] ^ w) * LL_FNV_PRIME;
			lane[k] ^= lane[k] >> 29;
		}
	h = LL_FNV_INIT;
	for (int k = 0; k < 4; k++) {
		h = (h ^ lane[k]) * LL_FNV_PRIME;
		h ^= h >> 29;
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * LL_FNV_PRIME;
		h ^= h >> 29;
	}
	return ll_fnv1a(h, p + i, n - i);
}

bool ll_index_key_ok(const struct ll_index_key *key)
{
	return key && key->dir && key->build_id && strlen(key->build_id) < 128;
}

static void index_path(const struct ll_index_key *key, struct strbuf *out)
{
	sb_addf(out, "%s/%s.index", key->dir, key->build_id);
}

void ll_index_key_store(const struct ll_index_key *key, struct ll_index_disk_key *d)
{
	memset(d, 0, sizeof(*d));
	d->size = key->size;
	d->mtime_sec = (uint64_t)key->mtime_sec;
	d->mtime_nsec = (uint64_t)key->mtime_nsec;
	d->ctime_sec = (uint64_t)key->ctime_sec;
	d->ctime_nsec = (uint64_t)key->ctime_nsec;
	d->dev = key->dev;
	d->ino = key->ino;
	strcpy(d->build_id, key->build_id);
	d->info_size = key->info_size;
}

const char *ll_index_key_differs(const struct ll_index_disk_key *d,
				 const struct ll_index_key *key)
{
	if (memchr(d->build_id, 0, sizeof(d->build_id)) == NULL ||
	    strcmp(d->build_id, key->build_id) != 0)
		return "it belongs to another build-id";
	if (d->size != key->size || d->mtime_sec != (uint64_t)key->mtime_sec ||
	    d->mtime_nsec != (uint64_t)key->mtime_nsec || d->ctime_sec != (uint64_t)key->ctime_sec ||
	    d->ctime_nsec != (uint64_t)key->ctime_nsec || d->dev != key->dev || d->ino != key->ino ||
	    d->info_size != key->info_size)
		return "";
	return NULL;
}

static uint64_t pad8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* Sizes of the sections the counts in H call for. */
static void section_sizes(const struct index_header *h, uint64_t size[NR_SECS])
{
	size[SEC_UNITS] = h->nr_units * sizeof(struct disk_unit);
	size[SEC_NAMES] = pad8(h->nr_names * 4 * 2 + (h->nr_names + 1) * 4 * 2 + h->names_bytes);
	size[SEC_DEFS] = h->nr_defs * sizeof(struct ll_index_def);
	size[SEC_WORDS] = pad8(h->nr_words * 4);
	size[SEC_STRINGS] = pad8(h->strings_bytes);
	size[SEC_POSTINGS] = pad8(h->nr_postings * 4);
}

/* A name of the scan by its content, for grouping equal ones. */
struct by_content {
	const char *name;
	uint32_t id;
};

static int cmp_by_content(const void *a, const void *b)
{
	return strcmp(((const struct by_content *)a)->name, ((const struct by_content *)b)->name);
}

static uint64_t content_hash(const void *ctx, size_t i)
{
	return ll_fnv1a_str(LL_FNV_INIT, ((const struct by_content *)ctx)[i].name);
}

/*
 * The first of each content among BC's USED names, kept in BC in order
 * (the count returned); every name's id in FIRST_OF mapped to its
 * content's first id. Each scan thread names what it met, so most names
 * come twice: sorting only the first of each halves the sort's string
 * compares (~80,000 names of the 6.12 image, in one thread).
 */
static size_t first_of_each(struct by_content *bc, size_t used, uint32_t *first_of)
{
	struct ll_slots at = LL_SLOTS_INIT;
	size_t kept = 0, k;

	ll_slots_reserve(&at, used + 1, content_hash, bc);
	for (size_t i = 0; i < used; i++) {
		size_t slot = ll_slots_first(&at, content_hash(bc, i));

		while ((k = ll_slots_get(&at, slot)) && strcmp(bc[k - 1].name, bc[i].name) != 0)
			slot = ll_slots_next(&at, slot);
		if (k) {
			first_of[bc[i].id] = bc[k - 1].id;
			continue;
		}
		first_of[bc[i].id] = bc[i].id;
		bc[kept] = bc[i];
		ll_slots_put(&at, slot, kept++);
	}
	ll_slots_release(&at);
	return kept;
}

/*
 * Equal names come from several threads and inline copies, so the names
 * are grouped by content first (only those postings use); each name's
 * units then come in order (the scan gives them so), and equal
 * neighbours are dropped.
 */
void ll_name_index_entries_from_postings(const struct ll_scan_posting *postings, size_t n,
					 char *const *names, const bool *name_strp, size_t nr_names,
					 struct ll_index_entry **entries, size_t *nr)
{
	uint32_t *entry_of = xmalloc((nr_names ? nr_names : 1) * sizeof(*entry_of));
	uint32_t *first_of = xmalloc((nr_names ? nr_names : 1) * sizeof(*first_of));
	struct by_content *bc;
	struct ll_index_entry *e;
	size_t used = 0, nr_entries;

	memset(entry_of, 0xff, (nr_names ? nr_names : 1) * sizeof(*entry_of));
	for (size_t i = 0; i < n; i++)
		if (postings[i].name < nr_names)
			entry_of[postings[i].name] = 0;
	bc = xmalloc((nr_names ? nr_names : 1) * sizeof(*bc));
	for (size_t i = 0; i < nr_names; i++)
		if (entry_of[i] == 0)
			bc[used++] = (struct by_content){ names[i], (uint32_t)i };
	nr_entries = first_of_each(bc, used, first_of);
	/* An entry is IN_STR when any copy of its name was read by .debug_str offset. */
	bool *in_str = xcalloc(nr_names ? nr_names : 1, sizeof(*in_str));

	for (size_t i = 0; name_strp && i < nr_names; i++)
		if (entry_of[i] == 0 && name_strp[i])
			in_str[first_of[i]] = true;
	qsort(bc, nr_entries, sizeof(*bc), cmp_by_content);
	e = xcalloc(nr_entries ? nr_entries : 1, sizeof(*e));
	for (size_t i = 0; i < nr_entries; i++) {
		e[i].name = bc[i].name;
		entry_of[bc[i].id] = (uint32_t)i;
		if (in_str[bc[i].id])
			e[i].flags |= LL_INDEX_IN_STR;
	}
	for (size_t i = 0; i < nr_names; i++)
		if (entry_of[i] == 0 && first_of[i] != i)
			entry_of[i] = entry_of[first_of[i]];
	for (size_t i = 0; i < n; i++) {
		if (postings[i].name >= nr_names)
			continue;
		struct ll_index_entry *x = &e[entry_of[postings[i].name]];

		if (x->nr_units && x->units[x->nr_units - 1] == postings[i].unit)
			continue;
		x->units = xgrow(x->units, x->nr_units, sizeof(*x->units));
		x->units[x->nr_units++] = postings[i].unit;
	}
	*entries = e;
	*nr = nr_entries;
	ll_free_all(bc, entry_of, first_of, in_str);
}

void ll_name_index_entries_free(struct ll_index_entry *entries, size_t n)
{
	for (size_t i = 0; entries && i < n; i++) {
		free(entries[i].units);
		for (size_t d = 0; d < entries[i].nr_defs; d++)
			free(entries[i].defs[d].owned);
		free(entries[i].defs);
	}
	free(entries);
}

/*
 * ll_name_index_mark_str_tails()'s search: the entries looked for (by
 * index, with their names' lengths), found by the hash of the name.
 */
struct str_tails {
	struct ll_index_entry *entries;
	size_t *which, *len;
	size_t n, left;
	size_t lengths[LL_STR_TAIL_LENGTHS];	/* the distinct lengths of the names */
	size_t nr_lengths;
	struct ll_slots at;
};

static uint64_t str_tail_hash(const void *ctx, size_t i)
{
	const struct str_tails *t = ctx;

	return ll_fnv1a(LL_FNV_INIT, t->entries[t->which[i]].name, t->len[i]);
}

/* The entries without LL_INDEX_IN_STR into T; false past LL_STR_TAIL_LENGTHS lengths. */
static bool str_tails_init(struct str_tails *t, struct ll_index_entry *entries, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->entries = entries;
	t->which = xmalloc((n ? n : 1) * sizeof(*t->which));
	t->len = xmalloc((n ? n : 1) * sizeof(*t->len));
	for (size_t i = 0; i < n; i++) {
		if (entries[i].flags & LL_INDEX_IN_STR)
			continue;
		size_t len = strlen(entries[i].name), k = 0;

		while (k < t->nr_lengths && t->lengths[k] != len)
			k++;
		if (k == t->nr_lengths) {
			if (k == LL_STR_TAIL_LENGTHS)
				return false;
			t->lengths[t->nr_lengths++] = len;
		}
		t->which[t->n] = i;
		t->len[t->n++] = len;
	}
	t->left = t->n;
	ll_slots_reserve(&t->at, t->n + 1, str_tail_hash, t);
	for (size_t i = 0; i < t->n; i++)
		ll_slots_add(&t->at, str_tail_hash(t, i), i);
	return true;
}

/* Each entry T looks for whose name is the LEN bytes at S: marked, and no longer looked for. */
static void str_tail_at(struct str_tails *t, const char *s, size_t len)
{
	size_t i;

	for (size_t at = ll_slots_first(&t->at, ll_fnv1a(LL_FNV_INIT, s, len));
	     (i = ll_slots_get(&t->at, at)); at = ll_slots_next(&t->at, at)) {
		struct ll_index_entry *e = &t->entries[t->which[i - 1]];

		if (t->len[i - 1] == len && !(e->flags & LL_INDEX_IN_STR) &&
		    memcmp(e->name, s, len) == 0) {
			e->flags |= LL_INDEX_IN_STR;
			t->left--;
		}
	}
}

static void str_tails_release(struct str_tails *t)
{
	ll_free_all(t->which, t->len);
	ll_slots_release(&t->at);
}

void ll_name_index_mark_str_tails(struct ll_index_entry *entries, size_t n, const char *str,
				  size_t size)
{
	struct str_tails t;

	if (!size)
		return;
	if (!str_tails_init(&t, entries, n)) {
		/* Names of many lengths (-fno-merge-debug-strings): one search each. */
		for (size_t i = 0; i < n; i++)
			if (!(entries[i].flags & LL_INDEX_IN_STR) &&
			    memmem(str, size, entries[i].name, strlen(entries[i].name) + 1))
				entries[i].flags |= LL_INDEX_IN_STR;
		str_tails_release(&t);
		return;
	}
	/* Every NUL ends a string, and the bytes before it are its tails. */
	for (const char *nul = memchr(str, 0, size); nul && t.left;
	     nul = memchr(nul + 1, 0, size - (size_t)(nul + 1 - str))) {
		size_t before = (size_t)(nul - str);

		for (size_t k = 0; k < t.nr_lengths; k++)
			if (t.lengths[k] <= before)
				str_tail_at(&t, nul - t.lengths[k], t.lengths[k]);
	}
	str_tails_release(&t);
}

/* Strings of the index, each once: a slot table (util/slot_table.h) over byte offsets. */
static uint64_t string_hash(const void *ctx, size_t offset)
{
	const struct ll_index_strings *t = ctx;

	return ll_fnv1a_str(LL_FNV_INIT, t->bytes.buf + offset);
}

uint32_t ll_index_strings_add(struct ll_index_strings *t, const char *s)
{
	size_t at;

	if (!s)
		return LL_INDEX_NO_STRING;
	ll_slots_reserve(&t->at, t->at.used + 1, string_hash, t);
	for (at = ll_slots_first(&t->at, ll_fnv1a_str(LL_FNV_INIT, s)); ll_slots_get(&t->at, at);
	     at = ll_slots_next(&t->at, at))
		if (strcmp(t->bytes.buf + ll_slots_get(&t->at, at) - 1, s) == 0)
			return (uint32_t)ll_slots_get(&t->at, at) - 1;
	ll_slots_put(&t->at, at, t->bytes.len);
	sb_add(&t->bytes, s, strlen(s) + 1);
	return (uint32_t)ll_slots_get(&t->at, at) - 1;
}

void ll_index_strings_release(struct ll_index_strings *t)
{
	sb_release(&t->bytes);
	ll_slots_release(&t->at);
}

static void add_u32s(struct strbuf *sb, const uint32_t *v, size_t n)
{
	if (n)
		sb_add(sb, (const char *)v, n * sizeof(*v));
}

static void add_pad8(struct strbuf *sb)
{
	static const char zeros[8];

	if (sb->len % 8)
		sb_add(sb, zeros, 8 - sb->len % 8);
}

/*
 * DEF's words (LL_INDEX_DEF_WORDS: its nr_words strings end to end in
 * BLOB) as string offsets onto WORDS, and where they start into DEF.
 */
static void add_words(struct ll_index_strings *st, struct strbuf *words, struct ll_index_def *def,
		      const char *blob)
{
	uint32_t nr = def->nr_words;

	def->words = (uint32_t)(words->len / 4);
	if (!(def->flags & LL_INDEX_DEF_WORDS) || !blob) {
		def->flags &= ~(uint32_t)LL_INDEX_DEF_WORDS;
		def->words = def->nr_words = 0;
		return;
	}
	for (uint32_t k = 0; k < nr; k++) {
		uint32_t off = ll_index_strings_add(st, blob);

		sb_add(words, (const char *)&off, sizeof(off));
		blob += strlen(blob) + 1;
	}
}

/*
 * The sections of ENTRIES into BODY, all but the postings, which go into
 * POSTS, to be written after BODY (most of the file: copied into BODY
 * they cost a second 5 MB of fresh pages); offsets and counts into H.
 */
static void build(const struct ll_scan_unit *units, size_t nr_units,
		  const struct ll_index_entry *e, size_t n, struct index_header *h,
		  struct strbuf *body, struct strbuf *posts)
{
	struct ll_index_strings st = LL_INDEX_STRINGS_INIT;
	uint32_t *name_off = xmalloc((n ? n : 1) * 4), *post_first = xmalloc((n + 1) * 4);
	uint32_t *def_first = xmalloc((n + 1) * 4), *flags = xmalloc((n ? n : 1) * 4);
	struct strbuf names = STRBUF_INIT, defs = STRBUF_INIT, words = STRBUF_INIT;
	uint64_t start[NR_SECS + 1];
	size_t nr_posts = 0, nr_defs = 0;

	for (size_t i = 0; i < n; i++)
		nr_posts += e[i].nr_units;
	sb_grow(posts, nr_posts * 4 + 8);
	nr_posts = 0;
	post_first[0] = def_first[0] = 0;
	for (size_t i = 0; i < n; i++) {
		name_off[i] = (uint32_t)names.len;
		sb_add(&names, e[i].name, strlen(e[i].name) + 1);
		flags[i] = e[i].flags;
		add_u32s(posts, e[i].units, e[i].nr_units);
		nr_posts += e[i].nr_units;
		post_first[i + 1] = (uint32_t)nr_posts;
		for (size_t d = 0; d < e[i].nr_defs; d++) {
			struct ll_index_def def = e[i].defs[d].d;

			def.file = ll_index_strings_add(&st, e[i].defs[d].file);
			def.comp_dir = ll_index_strings_add(&st, e[i].defs[d].comp_dir);
			def.flags &= LL_INDEX_DEF_KNOWN_FLAGS;
			if (!(def.flags & LL_INDEX_DEF_FILTERED))
				def.flags &= ~(uint32_t)LL_INDEX_DEF_NEEDED;
			add_words(&st, &words, &def, e[i].defs[d].words);
			sb_add(&defs, (const char *)&def, sizeof(def));
		}
		nr_defs += e[i].nr_defs;
		def_first[i + 1] = (uint32_t)nr_defs;
	}
	h->nr_units = nr_units;
	h->nr_names = n;
	h->nr_postings = nr_posts;
	h->nr_defs = nr_defs;
	h->names_bytes = names.len;
	h->strings_bytes = st.bytes.len;
	h->nr_words = words.len / 4;
	start[SEC_UNITS] = body->len;
	for (size_t i = 0; i < nr_units; i++) {
		struct disk_unit du = {
			.offset = units[i].offset, .end = units[i].end,
			.first_die = units[i].first_die, .abbrev_offset = units[i].abbrev_offset,
			.version = units[i].version, .addr_size = units[i].addr_size,
			.offset_size = units[i].offset_size,
		};

		uint64_t head_len = units[i].first_die - units[i].offset;

		/*
		 * Only the header's own bytes: the rest of the scanner's buffer is
		 * not the file's, and would make two writes of one index differ.
		 */
		if (units[i].first_die >= units[i].offset && head_len <= sizeof(du.head))
			memcpy(du.head, units[i].head, (size_t)head_len);
		sb_add(body, (const char *)&du, sizeof(du));
	}
	start[SEC_NAMES] = body->len;
	add_u32s(body, name_off, n);
	add_u32s(body, post_first, n + 1);
	add_u32s(body, def_first, n + 1);
	add_u32s(body, flags, n);
	sb_add(body, names.buf ? names.buf : "", names.len);
	add_pad8(body);
	start[SEC_DEFS] = body->len;
	sb_add(body, defs.buf ? defs.buf : "", defs.len);
	start[SEC_WORDS] = body->len;
	sb_add(body, words.buf ? words.buf : "", words.len);
	add_pad8(body);
	start[SEC_STRINGS] = body->len;
	sb_add(body, st.bytes.buf ? st.bytes.buf : "", st.bytes.len);
	add_pad8(body);
	start[SEC_POSTINGS] = body->len;
	add_pad8(posts);
	start[NR_SECS] = body->len + posts->len;
	for (int i = 0; i < NR_SECS; i++) {
		const char *at = i == SEC_POSTINGS ? posts->buf : body->buf + start[i];

		h->sec[i].off = sizeof(*h) + start[i];
		h->sec[i].size = start[i + 1] - start[i];
		h->sec[i].sum = ll_name_index_sum((const unsigned char *)(at ? at : ""), h->sec[i].size);
	}
	sb_release(&names);
	sb_release(&defs);
	sb_release(&words);
	ll_index_strings_release(&st);
	ll_free_all(name_off, post_first, def_first, flags);
}

/* Changed within 2 s: a change in the same timestamp tick could follow. */
static bool racy(const struct ll_index_key *key)
{
	struct timespec now;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		return true;
	return key->ctime_sec >= (int64_t)now.tv_sec - 2 || key->mtime_sec >= (int64_t)now.tv_sec - 2;
}

bool ll_name_index_writable(const struct ll_index_key *key)
{
	return ll_index_key_ok(key) && !racy(key);
}

void ll_name_index_write(const struct ll_index_key *key, const struct ll_scan_unit *units,
			 size_t nr_units, const struct ll_index_entry *entries, size_t n)
{
	struct index_header h = { .version = INDEX_VERSION };
	struct strbuf body = STRBUF_INIT, posts = STRBUF_INIT, path = STRBUF_INIT;

	if (!ll_name_index_writable(key))
		return;
	memcpy(h.magic, INDEX_MAGIC, sizeof(h.magic));
	ll_index_key_store(key, &h.key);
	build(units, nr_units, entries, n, &h, &body, &posts);
	h.header_sum = ll_name_index_sum((const unsigned char *)&h,
					 offsetof(struct index_header, header_sum));
	index_path(key, &path);
	const struct ll_cache_part parts[] = { { &h, sizeof(h) }, { body.buf, body.len },
					       { posts.buf, posts.len } };

	ll_cache_replace(key->dir, path.buf, parts, 3);
	sb_release(&body);
	sb_release(&posts);
	sb_release(&path);
}

static int refuse(char **note, const char *path, const char *why)
{
	return ll_cache_refusal(note, "the name index", path, why);
}

/* Whether the sections H describes lie end to end and fill FILE_SIZE bytes. */
static bool layout_ok(const struct index_header *h, uint64_t file_size)
{
	uint64_t size[NR_SECS], at = sizeof(*h);

	if (h->nr_units > file_size / sizeof(struct disk_unit) || h->nr_names > file_size / 4 ||
	    h->nr_postings > file_size / 4 || h->nr_defs > file_size / sizeof(struct ll_index_def) ||
	    h->nr_words > file_size / 4 ||
	    h->names_bytes > file_size || h->strings_bytes > file_size ||
	    h->nr_units > UINT32_MAX || h->nr_defs > UINT32_MAX || h->nr_postings > UINT32_MAX ||
	    h->nr_words > UINT32_MAX ||
	    h->strings_bytes >= LL_INDEX_NO_STRING)
		return false;
	section_sizes(h, size);
	for (int i = 0; i < NR_SECS; i++) {
		if (h->sec[i].off != at || h->sec[i].size != size[i])
			return false;
		at += size[i];
	}
	return at == file_size;
}

static bool is_def_tag(uint32_t tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* Every unit, name and definition in range (and units, names in order); NULL when sound. */
static const char *check(struct ll_name_index *ix, const struct index_header *h,
			 uint64_t abbrev_size)
{
	const uint64_t n = h->nr_names;
	const unsigned char *p = ix->names_sec;
	/* The section is 8-byte aligned in the file, and so in the mapping. */
	const struct ll_scan_unit *units = (const struct ll_scan_unit *)(const void *)ix->units_sec;

	ix->units = units;
	/*
	 * Each unit as its stored header bytes read (the bytes a sparse image
	 * is given for it), every field: the finder and the scan index
	 * .debug_abbrev, .debug_info and the image by them unchecked. The
	 * units tile .debug_info, as the scan that wrote them walked it.
	 */
	for (uint64_t i = 0; i < h->nr_units; i++) {
		const struct ll_scan_unit *u = &units[i];
		struct ll_scan_unit read;

		if (u->offset >= u->end || u->end > h->key.info_size || u->first_die <= u->offset ||
		    u->first_die > u->end || u->first_die - u->offset > sizeof(u->head) ||
		    u->offset != (i ? units[i - 1].end : 0) ||
		    (i + 1 == h->nr_units && u->end != h->key.info_size))
			return "a unit is out of range or order";
		if (!ll_scan_read_unit(u->head, (size_t)(u->first_die - u->offset), u->offset,
				       h->key.info_size, abbrev_size, &read) ||
		    read.end != u->end || read.first_die != u->first_die ||
		    read.abbrev_offset != u->abbrev_offset || read.version != u->version ||
		    read.addr_size != u->addr_size || read.offset_size != u->offset_size ||
		    u->reserved != 0 || (u->addr_size != 4 && u->addr_size != 8 && u->addr_size != 2))
			return "a unit's header does not read as the fields stored with it";
	}
	ix->name_off = (const uint32_t *)p;
	ix->post_first = ix->name_off + n;
	ix->def_first = ix->post_first + n + 1;
	ix->flags = ix->def_first + n + 1;
	ix->names = (const char *)(ix->flags + n);
	ix->defs = (const struct ll_index_def *)ix->defs_sec;
	ix->words = (const uint32_t *)(const void *)ix->words_sec;
	ix->strings = (const char *)ix->strings_sec;
	ix->nr_names = n;
	ix->nr_postings = h->nr_postings;
	ix->nr_defs = h->nr_defs;
	ix->nr_words = h->nr_words;
	ix->nr_units = h->nr_units;
	ix->info_size = h->key.info_size;
	ix->strings_bytes = h->strings_bytes;
	if (h->names_bytes && ix->names[h->names_bytes - 1] != '\0')
		return "a name runs past its end";
	if (h->strings_bytes && ix->strings[h->strings_bytes - 1] != '\0')
		return "a string runs past its end";
	for (uint64_t i = 0; i < h->nr_words; i++)
		if (ix->words[i] >= h->strings_bytes)
			return "a word lies outside its strings";
	if (ix->post_first[0] != 0 || ix->post_first[n] != h->nr_postings ||
	    ix->def_first[0] != 0 || ix->def_first[n] != h->nr_defs)
		return "its postings do not add up";
	for (uint64_t i = 0; i < n; i++) {
		if (ix->name_off[i] >= h->names_bytes)
			return "a name lies outside it";
		if (i && strcmp(ix->names + ix->name_off[i - 1], ix->names + ix->name_off[i]) >= 0)
			return "its names are out of order";
		if (ix->post_first[i + 1] < ix->post_first[i] || ix->def_first[i + 1] < ix->def_first[i])
			return "its postings do not add up";
		if (ix->flags[i] & ~(uint32_t)(LL_INDEX_DEFS_KNOWN | LL_INDEX_DECLARED_STRUCT |
					       LL_INDEX_DECLARED_UNION | LL_INDEX_IN_STR) ||
		    (!(ix->flags[i] & LL_INDEX_DEFS_KNOWN) && ix->def_first[i + 1] != ix->def_first[i]))
			return "a name's flags are unknown";
		for (uint32_t k = ix->def_first[i]; k < ix->def_first[i + 1]; k++) {
			const struct ll_index_def *d = &ix->defs[k];

			if (d->unit >= h->nr_units || d->die < units[d->unit].first_die ||
			    d->die >= units[d->unit].end || !is_def_tag(d->tag) ||
			    (d->flags & ~(uint32_t)LL_INDEX_DEF_KNOWN_FLAGS) ||
			    ((d->flags & LL_INDEX_DEF_NEEDED) && !(d->flags & LL_INDEX_DEF_FILTERED)) ||
			    (!(d->flags & LL_INDEX_DEF_WORDS) && (d->words || d->nr_words)) ||
			    (uint64_t)d->words + d->nr_words > h->nr_words ||
			    (d->file != LL_INDEX_NO_STRING && d->file >= h->strings_bytes) ||
			    (d->comp_dir != LL_INDEX_NO_STRING && d->comp_dir >= h->strings_bytes))
				return "a definition is out of range or order";
		}
	}
	return NULL;
}

int ll_name_index_load(const struct ll_index_key *key, struct ll_name_index *ix, char **note)
{
	struct strbuf path = STRBUF_INIT;
	struct index_header h;
	struct stat st;
	const char *why = NULL;
	int fd, rc = 0;

	memset(ix, 0, sizeof(*ix));
	ix->fd = -1;
	*note = NULL;
	if (!ll_index_key_ok(key))
		return 1;
	index_path(key, &path);
	rc = ll_cache_open(key->dir, path.buf, &fd, &st, &why);
	if (rc) {
		if (why)
			refuse(note, path.buf, why);
		sb_release(&path);
		return rc;
	}
	char magic[sizeof(h.magic)];

	/* Another layoutlint's format, whatever its size: as if absent, quietly. */
	if ((size_t)st.st_size >= sizeof(magic) &&
	    ll_pread_all(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
	    memcmp(magic, INDEX_MAGIC, 6) == 0 && memcmp(magic, INDEX_MAGIC, sizeof(magic)) != 0)
		rc = 1;
	else if ((uint64_t)st.st_size > INDEX_MAX_SIZE || (size_t)st.st_size < sizeof(h))
		why = "its size is not an index's";
	else if (ll_pread_all(fd, &h, sizeof(h), 0) != sizeof(h))
		why = "cannot be read whole";
	else if (memcmp(h.magic, INDEX_MAGIC, 6) != 0)
		why = "not a layoutlint name index";
	else if (memcmp(h.magic, INDEX_MAGIC, sizeof(h.magic)) != 0 || h.version != INDEX_VERSION)
		rc = 1;	/* another layoutlint's format: as if absent */
	else if (ll_name_index_sum((const unsigned char *)&h, offsetof(struct index_header, header_sum)) !=
		 h.header_sum)
		why = "its checksum does not match (a damaged file)";
	else if ((why = ll_index_key_differs(&h.key, key)) != NULL)
		;
	else if (!layout_ok(&h, (uint64_t)st.st_size))
		why = "its counts do not fit its size";
	if (why && !*why) {
		why = NULL;
		rc = 1;	/* another copy's: as if absent */
	}
	if (!why && !rc) {
		/*
		 * Units, names, definitions and strings lie end to end: mapped,
		 * not read. Copying the 3.5 MB of the 6.12 image's index into
		 * fresh anonymous pages was half a warm lookup, in page faults.
		 * Index files are replaced by rename, never rewritten in place,
		 * so the mapped file does not shrink under us.
		 */
		uint64_t from = h.sec[SEC_UNITS].off;
		void *map = mmap(NULL, (size_t)h.sec[SEC_POSTINGS].off, PROT_READ, MAP_PRIVATE, fd, 0);
		unsigned char *all = map == MAP_FAILED ? NULL : (unsigned char *)map + from;

		if (!all) {
			why = "cannot be read whole";
		} else {
			ix->map = map;
			ix->map_size = (size_t)h.sec[SEC_POSTINGS].off;
			ix->units_sec = all;
			ix->names_sec = all + (h.sec[SEC_NAMES].off - from);
			ix->defs_sec = all + (h.sec[SEC_DEFS].off - from);
			ix->words_sec = all + (h.sec[SEC_WORDS].off - from);
			ix->strings_sec = all + (h.sec[SEC_STRINGS].off - from);
		}
		for (int i = SEC_UNITS; i < SEC_POSTINGS && !why; i++)
			if (ll_name_index_sum(all + (h.sec[i].off - from), h.sec[i].size) != h.sec[i].sum)
				why = "its checksum does not match (a damaged file)";
		if (!why)
			why = check(ix, &h, key->abbrev_size);
	}
	if (!why && !rc) {
		ix->fd = fd;
		ix->path = sb_detach(&path);
		ix->postings_off = h.sec[SEC_POSTINGS].off;
		ix->postings_size = h.sec[SEC_POSTINGS].size;
		ix->postings_sum = h.sec[SEC_POSTINGS].sum;
		/* Used now: the cache's bound evicts the least recently used first. */
		futimens(fd, NULL);
		return 0;
	}
	close(fd);
	ll_name_index_release(ix);
	if (why)
		rc = refuse(note, path.buf, why);
	sb_release(&path);
	return rc;
}

void ll_name_index_release(struct ll_name_index *ix)
{
	if (ix->fd >= 0)
		close(ix->fd);
	if (ix->map)
		munmap(ix->map, ix->map_size);
	free(ix->postings);
	free(ix->path);
	memset(ix, 0, sizeof(*ix));
	ix->fd = -1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

long ll_name_index_find(const struct ll_name_index *ix, const char *name)
{
	uint64_t lo = 0, hi = ix->nr_names;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ix->names + ix->name_off[mid], name);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Which of 64 classes of bytes S[0..N) holds, as bits. */
static uint64_t byte_classes(const char *s, size_t n)
{
	uint64_t set = 0;

	for (size_t i = 0; i < n; i++)
		set |= 1ULL << ((unsigned char)s[i] & 63);
	return set;
}

/* Whether X has more than N bits set. */
static bool more_bits(uint64_t x, size_t n)
{
	for (size_t i = 0; i < n && x; i++)
		x &= x - 1;
	return x != 0;
}

bool ll_name_index_each_near(const struct ll_name_index *ix, const char *name, size_t limit,
			     bool (*fn)(void *arg, uint64_t k, size_t dist), void *arg)
{
	size_t len = strlen(name);
	uint64_t name_set = byte_classes(name, len);

	for (uint64_t i = 0; i < ix->nr_names; i++) {
		const char *s = ix->names + ix->name_off[i];
		size_t l = strlen(s);

		/* Each edit changes the length by one at most. */
		if (l + limit < len || l > len + limit)
			continue;
		/*
		 * And brings in at most one class of bytes the other side
		 * lacks: a lower bound that spares most names the distance.
		 */
		uint64_t set = byte_classes(s, l);

		if (more_bits(set & ~name_set, limit) || more_bits(name_set & ~set, limit))
			continue;
		size_t d = ll_edit_distance_n(name, len, s, l, limit);

		if (d <= limit && fn(arg, i, d))
			return true;
	}
	return false;
}

static bool any_near(void *arg, uint64_t k, size_t dist)
{
	(void)arg;
	(void)k;
	(void)dist;
	return true;
}

bool ll_name_index_has_near(const struct ll_name_index *ix, const char *name, size_t limit)
{
	return ll_name_index_each_near(ix, name, limit, any_near, NULL);
}

/* Read and check the postings section: 0, or -1 with *NOTE. */
static int load_postings(struct ll_name_index *ix, char **note)
{
	const char *why = NULL;

	if (ix->postings)
		return 0;
	ix->postings = xmalloc(ix->postings_size ? ix->postings_size : 1);
	if (ix->fd < 0 || ll_pread_all(ix->fd, ix->postings, ix->postings_size, ix->postings_off) !=
			     ix->postings_size)
		why = "cannot be read whole";
	else if (ll_name_index_sum((const unsigned char *)ix->postings, ix->postings_size) !=
		 ix->postings_sum)
		why = "its checksum does not match (a damaged file)";
	for (uint64_t i = 0; i < ix->nr_names && !why; i++)
		for (uint32_t k = ix->post_first[i]; k < ix->post_first[i + 1] && !why; k++)
			if (ix->postings[k] >= ix->nr_units ||
			    (k > ix->post_first[i] && ix->postings[k] <= ix->postings[k - 1]))
				why = "a posting is out of range or order";
	if (!why)
		return 0;
	free(ix->postings);
	ix->postings = NULL;
	return refuse(note, ix->path, why);
}

uint32_t *ll_name_index_units(struct ll_name_index *ix, const char *const *names, size_t n,
			      size_t *nr, char **note)
{
	uint32_t *units = NULL;
	size_t count = 0, kept = 0;

	*nr = 0;
	if (load_postings(ix, note))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		long k = ll_name_index_find(ix, names[i]);

		if (k < 0)
			continue;
		for (uint32_t p = ix->post_first[k]; p < ix->post_first[k + 1]; p++) {
			units = xgrow(units, count, sizeof(*units));
			units[count++] = ix->postings[p];
		}
	}
	if (count)
		qsort(units, count, sizeof(*units), cmp_u32);
	for (size_t i = 0; i < count; i++)
		if (!kept || units[kept - 1] != units[i])
			units[kept++] = units[i];
	*nr = kept;
	return units ? units : xmalloc(sizeof(*units));
}

/* D's words end to end, as an index is written from (struct ll_index_def_src); owned. */
static char *words_blob(const struct ll_name_index *ix, const struct ll_index_def *d)
{
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t k = 0; k < d->nr_words; k++) {
		const char *w = ix->strings + ix->words[d->words + k];

		sb_add(&sb, w, strlen(w) + 1);
	}
	return sb_detach(&sb);
}

bool ll_name_index_def_lacks_word(const struct ll_name_index *ix, const struct ll_index_def *d,
				  const char *word)
{
	if (!(d->flags & LL_INDEX_DEF_WORDS))
		return false;
	for (uint32_t k = 0; k < d->nr_words; k++)
		if (strcmp(ix->strings + ix->words[d->words + k], word) == 0)
			return false;
	return true;
}

int ll_name_index_entries_from_index(struct ll_name_index *ix, struct ll_index_entry **entries,
				     size_t *nr, char **note)
{
	struct ll_index_entry *e;

	*entries = NULL;
	*nr = 0;
	if (load_postings(ix, note))
		return -1;
	e = xcalloc(ix->nr_names ? ix->nr_names : 1, sizeof(*e));
	for (uint64_t i = 0; i < ix->nr_names; i++) {
		size_t nd, nu = ix->post_first[i + 1] - ix->post_first[i];
		const struct ll_index_def *d = ll_name_index_defs(ix, (long)i, &nd);

		e[i].name = ix->names + ix->name_off[i];
		e[i].flags = ix->flags[i];
		e[i].nr_units = nu;
		e[i].units = xmalloc((nu ? nu : 1) * sizeof(*e[i].units));
		memcpy(e[i].units, ix->postings + ix->post_first[i], nu * sizeof(*e[i].units));
		e[i].nr_defs = nd;
		e[i].defs = xcalloc(nd ? nd : 1, sizeof(*e[i].defs));
		for (size_t k = 0; k < nd; k++) {
			e[i].defs[k] = (struct ll_index_def_src){
				.d = d[k], .file = ll_name_index_string(ix, d[k].file),
				.comp_dir = ll_name_index_string(ix, d[k].comp_dir),
			};
			if (d[k].flags & LL_INDEX_DEF_WORDS)
				e[i].defs[k].words = e[i].defs[k].owned = words_blob(ix, &d[k]);
		}
	}
	*entries = e;
	*nr = ix->nr_names;
	return 0;
}
