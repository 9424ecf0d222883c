// SPDX-License-Identifier: GPL-2.0-or-later
/* The persistent name index; see name_index.h for what it promises. */
#include "input/dwarf/name_index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/strbuf.h"

/* "LLNIDX" and two digits, the same as INDEX_VERSION. */
#define INDEX_MAGIC "LLNIDX02"
#define INDEX_VERSION 2
/* An index file larger than this is refused (6.12's is 5.5 MB). */
#define INDEX_MAX_SIZE (512u << 20)

/* The file's header; every field 8 bytes wide, so no padding. */
struct index_header {
	char magic[8];
	uint64_t version;
	uint64_t size, mtime_sec, mtime_nsec;	/* of the image */
	uint64_t ctime_sec, ctime_nsec, dev, ino;
	char build_id[128];			/* hex, NUL-padded */
	uint64_t info_size, nr_units;
	uint64_t nr_names, nr_postings, names_bytes;
	uint64_t checksum;	/* index_sum() of everything after the header */
};

/*
 * The checksum: FNV-1a over 8-byte little-endian words, then the tail
 * bytes; a word at a time, as byte-wise FNV was a fifth of a lookup that
 * loads the 5.5 MB index of the 6.12 image. It catches damage, not forgery
 * (the cache directory is the user's own).
 */
static uint64_t index_sum(const unsigned char *p, size_t n)
{
	uint64_t h = LL_FNV_INIT, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * LL_FNV_PRIME;
		h ^= h >> 29;
	}
	return ll_fnv1a(h, p + i, n - i);
}

static bool key_ok(const struct ll_index_key *key)
{
	return key && key->dir && key->build_id && strlen(key->build_id) < 128;
}

static void index_path(const struct ll_index_key *key, struct strbuf *out)
{
	sb_addf(out, "%s/%s.index", key->dir, key->build_id);
}

static int make_dirs(const char *dir)
{
	struct strbuf buf = STRBUF_INIT;
	int rc = 0;

	sb_adds(&buf, dir);
	for (char *p = buf.buf + 1; *p && !rc; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf.buf, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (!rc && mkdir(buf.buf, 0755) != 0 && errno != EEXIST)
		rc = -1;
	sb_release(&buf);
	return rc;
}

/* Distinct name pointers, by address: open addressing, slot = index + 1. */
struct ptr_set {
	uint32_t *slots;
	size_t mask;
	const char **ptrs;	/* in first-seen order */
	size_t n;
};

static size_t ptr_hash(const char *p)
{
	uint64_t v = (uint64_t)(uintptr_t)p;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

/* Index of P in S, added if new. */
static uint32_t ptr_index(struct ptr_set *s, const char *p)
{
	size_t at;

	if ((s->n + 1) * 2 > s->mask + 1) {
		size_t cap = (s->mask + 1) * 2;

		free(s->slots);
		s->slots = xcalloc(cap, sizeof(*s->slots));
		s->mask = cap - 1;
		for (size_t i = 0; i < s->n; i++) {
			at = ptr_hash(s->ptrs[i]) & s->mask;
			while (s->slots[at])
				at = (at + 1) & s->mask;
			s->slots[at] = (uint32_t)i + 1;
		}
	}
	at = ptr_hash(p) & s->mask;
	while (s->slots[at]) {
		if (s->ptrs[s->slots[at] - 1] == p)
			return s->slots[at] - 1;
		at = (at + 1) & s->mask;
	}
	s->ptrs = xgrow(s->ptrs, s->n, sizeof(*s->ptrs));
	s->ptrs[s->n] = p;
	s->slots[at] = (uint32_t)s->n + 1;
	return (uint32_t)s->n++;
}

/* Order of distinct pointers by the names they point to. */
struct by_content {
	const char *name;
	uint32_t ptr;
};

static int cmp_by_content(const void *a, const void *b)
{
	return strcmp(((const struct by_content *)a)->name, ((const struct by_content *)b)->name);
}

/*
 * The payload of an index of POSTINGS (in unit order, as the scan gives
 * them): name_off, post_first, postings, names. The same name sits at
 * many .debug_str offsets (tails of longer strings) and in inline copies,
 * so pointers are grouped by content; then a counting sort by name keeps
 * each name's units in order, and equal neighbours are dropped.
 */
static void build(const struct ll_scan_posting *postings, size_t n, struct strbuf *payload,
		  uint64_t *nr_names_out, uint64_t *nr_postings_out, uint64_t *names_bytes_out)
{
	struct ptr_set set = { .slots = xcalloc(16, sizeof(uint32_t)), .mask = 15 };
	uint32_t *ptr_of = xmalloc((n ? n : 1) * sizeof(*ptr_of)), *id_of_ptr, *name_off;
	uint32_t *post_first, *fill, *units;
	struct by_content *bc;
	struct strbuf names = STRBUF_INIT;
	size_t nr_names = 0, nr_posts = 0;

	for (size_t i = 0; i < n; i++)
		ptr_of[i] = ptr_index(&set, postings[i].name);
	bc = xmalloc((set.n ? set.n : 1) * sizeof(*bc));
	for (size_t i = 0; i < set.n; i++)
		bc[i] = (struct by_content){ set.ptrs[i], (uint32_t)i };
	qsort(bc, set.n, sizeof(*bc), cmp_by_content);
	id_of_ptr = xmalloc((set.n ? set.n : 1) * sizeof(*id_of_ptr));
	name_off = xmalloc((set.n ? set.n : 1) * sizeof(*name_off));
	for (size_t i = 0; i < set.n; i++) {
		if (!i || strcmp(bc[i].name, bc[i - 1].name) != 0) {
			name_off[nr_names++] = (uint32_t)names.len;
			sb_add(&names, bc[i].name, strlen(bc[i].name) + 1);
		}
		id_of_ptr[bc[i].ptr] = (uint32_t)(nr_names - 1);
	}
	/* Counting sort of the postings by name id; units stay in order. */
	post_first = xcalloc(nr_names + 1, sizeof(*post_first));
	for (size_t i = 0; i < n; i++)
		post_first[id_of_ptr[ptr_of[i]] + 1]++;
	for (size_t i = 1; i <= nr_names; i++)
		post_first[i] += post_first[i - 1];
	fill = xmalloc((nr_names ? nr_names : 1) * sizeof(*fill));
	memcpy(fill, post_first, nr_names * sizeof(*fill));
	units = xmalloc((n ? n : 1) * sizeof(*units));
	for (size_t i = 0; i < n; i++)
		units[fill[id_of_ptr[ptr_of[i]]]++] = postings[i].unit;
	/* Drop repeats (a struct and its typedef in one unit), in place. */
	for (size_t id = 0, from = 0; id < nr_names; id++) {
		size_t to = post_first[id + 1], start = nr_posts;

		for (size_t k = from; k < to; k++)
			if (nr_posts == start || units[nr_posts - 1] != units[k])
				units[nr_posts++] = units[k];
		from = to;
		post_first[id + 1] = (uint32_t)nr_posts;
	}
	sb_add(payload, (const char *)name_off, nr_names * sizeof(*name_off));
	sb_add(payload, (const char *)post_first, (nr_names + 1) * sizeof(*post_first));
	sb_add(payload, (const char *)units, nr_posts * sizeof(*units));
	sb_add(payload, names.buf ? names.buf : "", names.len);
	*nr_names_out = nr_names;
	*nr_postings_out = nr_posts;
	*names_bytes_out = names.len;
	sb_release(&names);
	free(units);
	free(fill);
	free(post_first);
	free(name_off);
	free(id_of_ptr);
	free(bc);
	free(ptr_of);
	free(set.slots);
	free(set.ptrs);
}

/* Changed within 2 s: a change in the same timestamp tick could follow. */
static bool racy(const struct ll_index_key *key)
{
	struct timespec now;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		return true;
	return key->ctime_sec >= (int64_t)now.tv_sec - 2 || key->mtime_sec >= (int64_t)now.tv_sec - 2;
}

void ll_name_index_write(const struct ll_index_key *key, const struct ll_scan_posting *postings,
			 size_t n)
{
	struct index_header h = { .version = INDEX_VERSION };
	struct strbuf payload = STRBUF_INIT, path = STRBUF_INIT, tmp = STRBUF_INIT;
	int fd;

	if (!key_ok(key) || racy(key) || make_dirs(key->dir) != 0)
		return;
	memcpy(h.magic, INDEX_MAGIC, sizeof(h.magic));
	h.size = key->size;
	h.mtime_sec = (uint64_t)key->mtime_sec;
	h.mtime_nsec = (uint64_t)key->mtime_nsec;
	h.ctime_sec = (uint64_t)key->ctime_sec;
	h.ctime_nsec = (uint64_t)key->ctime_nsec;
	h.dev = key->dev;
	h.ino = key->ino;
	strcpy(h.build_id, key->build_id);
	h.info_size = key->info_size;
	h.nr_units = key->nr_units;
	build(postings, n, &payload, &h.nr_names, &h.nr_postings, &h.names_bytes);
	h.checksum = index_sum((const unsigned char *)(payload.buf ? payload.buf : ""), payload.len);
	index_path(key, &path);
	/* mkstemp: O_EXCL, never a link planted at a predictable name. */
	sb_addf(&tmp, "%s.XXXXXX", path.buf);
	if ((fd = mkstemp(tmp.buf)) >= 0) {
		bool ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
			  (!payload.len || write(fd, payload.buf, payload.len) == (ssize_t)payload.len);

		/* rename() replaces a link at PATH itself, never what it points to. */
		if (close(fd) != 0 || !ok || rename(tmp.buf, path.buf) != 0)
			unlink(tmp.buf);
	}
	sb_release(&payload);
	sb_release(&path);
	sb_release(&tmp);
}

static int refuse(char **note, const char *path, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "ignoring the name index %s: %s", path, why);
	*note = sb_detach(&sb);
	return -1;
}

/* Every count, offset and order in the loaded file; NULL when sound. */
static const char *check(struct ll_name_index *ix, const struct index_header *h)
{
	uint64_t room = ix->size - sizeof(*h), need;
	const unsigned char *p = ix->data + sizeof(*h);

	if (h->nr_names > room / 4 || h->nr_postings > room / 4 || h->names_bytes > room)
		return "its counts do not fit its size";
	need = h->nr_names * 4 + (h->nr_names + 1) * 4 + h->nr_postings * 4 + h->names_bytes;
	if (need != room)
		return "its counts do not fit its size";
	if (index_sum(p, room) != h->checksum)
		return "its checksum does not match (a damaged file)";
	ix->name_off = (const uint32_t *)p;
	ix->post_first = ix->name_off + h->nr_names;
	ix->postings = ix->post_first + h->nr_names + 1;
	ix->names = (const char *)(ix->postings + h->nr_postings);
	ix->nr_names = h->nr_names;
	ix->nr_postings = h->nr_postings;
	ix->nr_units = h->nr_units;
	ix->info_size = h->info_size;
	if (h->names_bytes && ix->names[h->names_bytes - 1] != '\0')
		return "a name runs past its end";
	if (ix->post_first[0] != 0 || ix->post_first[h->nr_names] != h->nr_postings)
		return "its postings do not add up";
	for (uint64_t i = 0; i < h->nr_names; i++) {
		if (ix->name_off[i] >= h->names_bytes)
			return "a name lies outside it";
		if (i && strcmp(ix->names + ix->name_off[i - 1], ix->names + ix->name_off[i]) >= 0)
			return "its names are out of order";
		if (ix->post_first[i + 1] < ix->post_first[i])
			return "its postings do not add up";
		for (uint32_t k = ix->post_first[i]; k < ix->post_first[i + 1]; k++)
			if (ix->postings[k] >= h->nr_units ||
			    (k > ix->post_first[i] && ix->postings[k] <= ix->postings[k - 1]))
				return "a posting is out of range or order";
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
	*note = NULL;
	if (!key_ok(key))
		return 1;
	index_path(key, &path);
	fd = open(path.buf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = errno == ENOENT ? 1 :
		     refuse(note, path.buf, errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		sb_release(&path);
		return rc;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if ((uint64_t)st.st_size > INDEX_MAX_SIZE || (size_t)st.st_size < sizeof(h))
		why = "its size is not an index's";
	if (!why) {
		ix->size = (size_t)st.st_size;
		ix->data = xmalloc(ix->size);
		for (size_t done = 0; done < ix->size && !why;) {
			ssize_t r = pread(fd, ix->data + done, ix->size - done, (off_t)done);

			if (r <= 0)
				why = "cannot be read whole";
			else
				done += (size_t)r;
		}
	}
	close(fd);
	if (!why) {
		memcpy(&h, ix->data, sizeof(h));
		if (memcmp(h.magic, INDEX_MAGIC, 6) != 0)
			why = "not a layoutlint name index";
		else if (memcmp(h.magic, INDEX_MAGIC, sizeof(h.magic)) != 0 ||
			 h.version != INDEX_VERSION)
			rc = 1;	/* another layoutlint's format: as if absent */
		else if (memchr(h.build_id, 0, sizeof(h.build_id)) == NULL ||
			 strcmp(h.build_id, key->build_id) != 0)
			why = "it belongs to another build-id";
		else if (h.size != key->size || h.mtime_sec != (uint64_t)key->mtime_sec ||
			 h.mtime_nsec != (uint64_t)key->mtime_nsec ||
			 h.ctime_sec != (uint64_t)key->ctime_sec ||
			 h.ctime_nsec != (uint64_t)key->ctime_nsec || h.dev != key->dev ||
			 h.ino != key->ino || h.info_size != key->info_size)
			rc = 1;	/* another copy's: as if absent */
		else
			why = check(ix, &h);
	}
	if (rc == 1)
		ll_name_index_release(ix);
	if (why) {
		rc = refuse(note, path.buf, why);
		ll_name_index_release(ix);
	}
	sb_release(&path);
	return rc;
}

void ll_name_index_release(struct ll_name_index *ix)
{
	free(ix->data);
	memset(ix, 0, sizeof(*ix));
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Index of NAME among the sorted names, or -1. */
static long find_name(const struct ll_name_index *ix, const char *name)
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

uint32_t *ll_name_index_units(const struct ll_name_index *ix, const char *const *names, size_t n,
			      size_t *nr)
{
	uint32_t *units = NULL;
	size_t count = 0, kept = 0;

	for (size_t i = 0; i < n; i++) {
		long k = find_name(ix, names[i]);

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
