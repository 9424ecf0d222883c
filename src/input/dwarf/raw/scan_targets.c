// SPDX-License-Identifier: GPL-2.0-or-later
/* The names a scan looks for, as .debug_str offsets: found by an SSE2 search of the strings. */
#include "input/dwarf/raw/scanP.h"

static uint64_t offset_hash(const void *ctx, size_t i)
{
	return ll_hash_u64(((const struct targets *)ctx)->offsets[i]);
}

/* OFF, one of NAME's copies; an offset found again belongs to the name found last. */
static void add_offset(struct targets *t, uint64_t off, uint32_t name)
{
	size_t at = ll_slots_first(&t->by_offset, ll_hash_u64(off)), i;

	for (; (i = ll_slots_get(&t->by_offset, at)); at = ll_slots_next(&t->by_offset, at))
		if (t->offsets[i - 1] == off) {
			t->offset_name[i - 1] = name;
			return;
		}
	t->offsets[t->nr_offsets] = off;
	t->offset_name[t->nr_offsets] = name;
	ll_slots_put(&t->by_offset, at, t->nr_offsets++);
}

static uint64_t name_hash(const void *ctx, size_t i)
{
	const char *name = ((const struct targets *)ctx)->names[i];

	return str_hash(name, strlen(name));
}

/* Each distinct name, the first of equal ones (a later one is a repeat). */
static void name_index_init(struct targets *t)
{
	/* Room for twice the names: a probe that misses ends sooner in a table a quarter full. */
	ll_slots_reserve(&t->by_name, 2 * t->n, name_hash, t);
	for (size_t i = 0; i < t->n; i++) {
		const char *name = t->names[i];
		size_t at = ll_slots_first(&t->by_name, str_hash(name, strlen(name))), k;

		/* One probe: it ends on an equal name, or on the empty slot to put I in. */
		while ((k = ll_slots_get(&t->by_name, at)) && strcmp(t->names[k - 1], name) != 0)
			at = ll_slots_next(&t->by_name, at);
		if (!k)
			ll_slots_put(&t->by_name, at, i);
	}
}

struct found_offsets {
	uint64_t *off;
	uint32_t *name;
	size_t n, cap;
};

static void found_push(struct found_offsets *f, uint64_t off, uint32_t name)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->off = xrealloc(f->off, f->cap * sizeof(*f->off));
		f->name = xrealloc(f->name, f->cap * sizeof(*f->name));
	}
	f->off[f->n] = off;
	f->name[f->n++] = name;
}

/* Below this many names, one search each; above, one pass over all strings. */
#define FEW_NAMES 8

/*
 * The first copy of NEEDLE (LEN bytes: a name and its NUL) in [P, END),
 * or NULL. 16 positions at a time, those whose first byte and whose last
 * (the NUL) are the needle's, then memcmp: glibc's memmem slowed a cold
 * lookup in xfs.ko (6.6 MB of .debug_str), serial before the scan's
 * threads start. memmem for the rest, and for an empty name (LEN 1).
 */
const unsigned char *scan_find_string(const unsigned char *p, const unsigned char *end,
				      const unsigned char *needle, size_t len)
{
#ifdef __SSE2__
	const __m128i first = _mm_set1_epi8((char)needle[0]);
	const __m128i last = _mm_set1_epi8((char)needle[len - 1]);

	while (len >= 2 && (size_t)(end - p) >= len - 1 + 16) {
		__m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), first);
		__m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + len - 1)), last);
		unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(a, b));

		for (; mask; mask &= mask - 1) {
			const unsigned char *at = p + __builtin_ctz(mask);

			if (memcmp(at + 1, needle + 1, len - 2) == 0)
				return at;
		}
		p += 16;
	}
#endif
	return p < end ? memmem(p, (size_t)(end - p), needle, len) : NULL;
}

/*
 * Every copy of NAME (LEN bytes with its NUL) that starts in the first
 * STARTS bytes of [P, P + SIZE), bytes AT on of .debug_str, into F as
 * name K.
 */
static void push_copies(const unsigned char *p, size_t size, size_t starts, uint64_t at,
			const char *name, size_t len, uint32_t k, struct found_offsets *f)
{
	const unsigned char *from = p, *end = p + size;

	while (from < end) {
		const unsigned char *hit = scan_find_string(from, end, (const unsigned char *)name, len);

		if (!hit || (size_t)(hit - p) >= starts)
			break;
		found_push(f, at + (uint64_t)(hit - p), k);
		from = hit + 1;
	}
}

/* .debug_str read at a time by search_file(), unless the input says. */
#define STR_CHUNK ((size_t)64 << 10)

/*
 * Every copy of the N (at most FEW_NAMES) NAMES in .debug_str, read from
 * IN's file (in->str_fd) a chunk at a time into one buffer, into F name
 * after name as the mapping's search finds them. Each chunk is read once
 * for all names, with the bytes of the next that the longest name needs,
 * so that a copy across the cut is seen once (from the chunk it starts
 * in). False, F untouched, when the file cannot be read or a name is
 * longer than a chunk: the mapping is searched instead.
 */
static bool search_file(const struct ll_scan_input *in, const char *const *names, size_t n,
			struct found_offsets *f)
{
	size_t chunk = in->str_chunk ? in->str_chunk : STR_CHUNK, len[FEW_NAMES], longest = 1;
	struct found_offsets per[FEW_NAMES] = { { 0 } };
	unsigned char *buf;
	bool ok = true;

	if (!in->str_in_file || n > FEW_NAMES)
		return false;
	for (size_t i = 0; i < n; i++) {
		len[i] = strlen(names[i]) + 1;	/* with the NUL */
		if (len[i] > chunk)
			return false;
		if (len[i] > longest)
			longest = len[i];
	}
	buf = xmalloc(chunk + longest);
	for (uint64_t off = 0; off < in->str_size && ok; off += chunk) {
		size_t want = in->str_size - off < chunk + longest - 1 ?
			      (size_t)(in->str_size - off) : chunk + longest - 1;

		ok = ll_pread_all(in->str_fd, buf, want, in->str_file_offset + off) == want;
		for (size_t i = 0; i < n && ok; i++)
			push_copies(buf, want, chunk, off, names[i], len[i], (uint32_t)i, &per[i]);
	}
	free(buf);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < per[i].n && ok; j++)
			found_push(f, per[i].off[j], per[i].name[j]);
		free(per[i].off);
		free(per[i].name);
	}
	return ok;
}

void scan_build_targets(const struct ll_scan_input *in, const char *const *names, size_t n,
			struct targets *t)
{
	struct found_offsets f = { 0 };

	memset(t, 0, sizeof(*t));
	t->names = names;
	t->n = n;
	t->shortest = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) < t->shortest)
			t->shortest = strlen(names[i]);
	name_index_init(t);
	t->stop_when_defined = n > 0 && n <= 64;
	for (size_t i = 0; i < n && t->stop_when_defined; i++)
		t->stop_when_defined = name_index(t, names[i], strlen(names[i])) == (long)i;
	if (n > FEW_NAMES) {
		/*
		 * Every suffix of every string whose length and first byte are
		 * a wanted name's: hashing only those keeps this pass cheap.
		 */
		bool lens[257] = { false };
		uint8_t firsts[257][32] = { { 0 } };

		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(names[i]);
			unsigned char c0 = (unsigned char)names[i][0];

			if (l <= 256) {
				lens[l] = true;
				firsts[l][c0 >> 3] |= (uint8_t)(1u << (c0 & 7));
			}
		}
		size_t want[256], nr_want = 0, start = 0;

		for (size_t l = 1; l <= 256; l++)
			if (lens[l])
				want[nr_want++] = l;
		for (size_t end = 0; end < in->str_size; end++) {
			if (in->str[end])
				continue;
			/* The string is [start, end); only its suffixes of wanted lengths. */
			for (size_t i = 0; i < nr_want && want[i] <= end - start; i++) {
				size_t l = want[i];
				const char *s = (const char *)in->str + end - l;
				long k;

				if (!(firsts[l][(unsigned char)s[0] >> 3] & (1u << ((unsigned char)s[0] & 7))))
					continue;
				if ((k = name_index(t, s, l)) >= 0)
					found_push(&f, end - l, (uint32_t)k);
			}
			start = end + 1;
		}
	}
	/* Names too long for the suffix pass, and every name when there are few. */
	bool from_file = n <= FEW_NAMES && search_file(in, names, n, &f);

	for (size_t i = 0; i < n && !from_file; i++) {
		size_t len = strlen(names[i]) + 1;	/* with the NUL */

		if (n <= FEW_NAMES || len > 257)
			push_copies(in->str, in->str_size, in->str_size, 0, names[i], len,
				    (uint32_t)i, &f);
	}
	t->offsets = xmalloc((f.n ? f.n : 1) * sizeof(*t->offsets));
	t->offset_name = xmalloc((f.n ? f.n : 1) * sizeof(*t->offset_name));
	/* Most probes miss (any other name): they end sooner in a table a quarter full. */
	ll_slots_reserve(&t->by_offset, 2 * f.n, offset_hash, t);
	t->list = xmalloc((f.n ? f.n : 1) * sizeof(*t->list));
	t->anchor = xcalloc(f.n ? f.n : 1, sizeof(*t->anchor));
	for (size_t i = 0; i < f.n; i++) {
		add_offset(t, f.off[i], f.name[i]);
		if (f.off[i] <= UINT32_MAX)
			t->list[t->nr_list++] = (uint32_t)f.off[i];
	}
	free(f.off);
	free(f.name);
}

void scan_release_targets(struct targets *t)
{
	ll_free_all(t->offsets, t->offset_name, t->list, t->anchor);
	ll_slots_release(&t->by_offset);
	ll_slots_release(&t->by_name);
}
