// SPDX-License-Identifier: GPL-2.0-or-later
/* The access evidence kept between runs (access_cache.h). */
#include "input/access/access_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util/cache_dir.h"
#include "util/hash.h"
#include "util/replace_file.h"
#include "util/strbuf.h"

#define MAGIC "layoutlint-access 1 " LAYOUTLINT_VERSION "\n"
/* Larger than the evidence of every struct of a vmlinux; beyond it, not ours. */
#define MAX_CACHE_FILE (1u << 30)
/* "C " and 16 hex digits: the checksum line. */
#define SUM_LINE 19

struct kept {
	struct ll_access_evidence **v;
	size_t n;
};

static void kept_release(struct kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		ll_access_evidence_free(k->v[i]);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

static bool hex_id(const char *id)
{
	if (!id || !*id || strlen(id) > 128)
		return false;
	for (const char *p = id; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

static void cache_path(const char *dir, const char *build_id, struct strbuf *out)
{
	sb_addf(out, "%s/%s.access", dir, build_id);
}

/* ---- reading ---- */

struct cursor {
	const char *p, *end;
	unsigned line;
};

/* The next line, without its newline; false at the end or on a line without one. */
static bool next_line(struct cursor *c, const char **s, size_t *n)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));

	if (!nl)
		return false;
	*s = c->p;
	*n = (size_t)(nl - c->p);
	c->p = nl + 1;
	c->line++;
	return true;
}

/* NR unsigned decimal fields after TAG and a blank, into V; *REST after them. */
static bool fields(const char *s, size_t n, char tag, uint64_t *v, size_t nr, const char **rest)
{
	const char *p = s + 2, *end = s + n;

	if (n < 2 || s[0] != tag || s[1] != ' ')
		return false;
	for (size_t i = 0; i < nr; i++) {
		uint64_t x = 0;
		const char *start = p;

		while (p < end && *p >= '0' && *p <= '9') {
			if (x > (UINT64_MAX - 9) / 10)
				return false;
			x = x * 10 + (uint64_t)(*p++ - '0');
		}
		if (p == start || (i + 1 < nr && (p >= end || *p != ' ')))
			return false;
		v[i] = x;
		if (i + 1 < nr)
			p++;
	}
	if (rest) {
		if (p >= end || *p != ' ')
			return false;
		*rest = p + 1;
	} else if (p != end) {
		return false;
	}
	return true;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* One struct's block; NULL (and *WHY) when it is malformed. */
static struct ll_access_evidence *parse_one(struct cursor *c, const char *s, size_t n,
					    const char **why)
{
	uint64_t h[9], r[8];
	const char *name, *line;
	size_t len;
	struct ll_access_evidence *e;
	const char **strs = NULL;

	*why = "a malformed struct line";
	if (!fields(s, n, 'E', h, 9, &name) || h[0] > 1 || h[1] > LL_MAX_STRUCT_SIZE ||
	    h[5] > h[2] || name == s + n)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->name = dup_n(name, (size_t)(s + n - name));
	e->is_union = h[0];
	e->size = h[1];
	e->functions = h[2];
	e->operands = h[3];
	e->typed = h[4];
	e->skipped_functions = h[5];
	e->undecoded_bytes = h[6];
	if (e->typed > e->operands)
		goto bad;
	*why = "a malformed string line";
	for (uint64_t i = 0; i < h[7]; i++) {
		char *str;

		if (!next_line(c, &line, &len) || len < 2 || line[0] != 'S' || line[1] != ' ')
			goto bad;
		str = dup_n(line + 2, len - 2);
		strs = xgrow(strs, (size_t)i, sizeof(*strs));
		strs[i] = ll_access_intern(e, str);
		free(str);
	}
	*why = "a malformed record line";
	for (uint64_t i = 0; i < h[8]; i++) {
		if (!next_line(c, &line, &len) || !fields(line, len, 'R', r, 8, NULL) ||
		    r[0] >= e->size || r[1] == 0 || r[1] > 64 || r[2] >= LL_NR_ACCESS_KINDS ||
		    r[3] == 0 || r[3] > h[7] || r[4] > h[7] || r[5] > h[7] || r[6] > UINT32_MAX ||
		    r[7] > 1)
			goto bad;
		e->v = xgrow(e->v, e->n, sizeof(*e->v));
		e->v[e->n++] = (struct ll_access_record){
			.offset = r[0], .width = (uint32_t)r[1], .kind = (enum ll_access_kind)r[2],
			.function = strs[r[3] - 1],
			.inlined_into = r[4] ? strs[r[4] - 1] : NULL,
			.file = r[5] ? strs[r[5] - 1] : NULL,
			.line = (unsigned)r[6], .init_text = r[7],
		};
	}
	free(strs);
	return e;
bad:
	free(strs);
	ll_access_evidence_free(e);
	return NULL;
}

/* Every block of TEXT (LEN bytes) into K; NULL, or why the file is not believed. */
static const char *parse_all(const char *text, size_t len, struct kept *k)
{
	struct cursor c = { text, text + len, 0 };
	const char *s, *why, *sum_at;
	size_t n;
	char want[32];

	if (len < sizeof(MAGIC) - 1 || memcmp(text, MAGIC, sizeof(MAGIC) - 1) != 0)
		return "written by another layoutlint";
	/* The checksum line closes the file and covers every byte before it. */
	sum_at = len >= SUM_LINE ? text + len - SUM_LINE : NULL;
	snprintf(want, sizeof(want), "C %016" PRIx64 "\n",
		 sum_at ? ll_fnv1a(LL_FNV_INIT, text, (size_t)(sum_at - text)) : 0);
	if (!sum_at || memcmp(sum_at, want, SUM_LINE) != 0)
		return "its checksum does not match (damaged or cut short)";
	c.p = text + sizeof(MAGIC) - 1;
	c.end = sum_at;
	while (next_line(&c, &s, &n)) {
		struct ll_access_evidence *e = parse_one(&c, s, n, &why);

		if (!e)
			return why;
		k->v = xgrow(k->v, k->n, sizeof(*k->v));
		k->v[k->n++] = e;
	}
	return c.p == c.end ? NULL : "a line without its newline";
}

/* The file's text, when it may be believed; NULL, or why not (*MISSING: there is none). */
static const char *read_trusted(const char *dir, const char *path, struct strbuf *out,
				bool *missing)
{
	struct stat st;
	const char *why;
	int fd;

	*missing = false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*missing = errno == ENOENT;
		return "it cannot be opened";
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return "not a regular file";
	}
	if ((why = ll_cache_dir_distrust(dir)) || (why = ll_cache_file_distrust(&st))) {
		close(fd);
		return why;
	}
	if ((uint64_t)st.st_size > MAX_CACHE_FILE) {
		close(fd);
		return "larger than any evidence layoutlint writes";
	}
	for (;;) {
		char buf[1 << 16];
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			close(fd);
			return "it cannot be read";
		}
		if (got == 0)
			break;
		sb_add(out, buf, (size_t)got);
		if (out->len > MAX_CACHE_FILE) {
			close(fd);
			return "larger than any evidence layoutlint writes";
		}
	}
	close(fd);
	return NULL;
}

/* Every struct the cache holds into K; NULL, or why it was ignored. */
static const char *load_kept(const char *dir, const char *path, struct kept *k, bool *missing)
{
	struct strbuf text = STRBUF_INIT;
	const char *why = read_trusted(dir, path, &text, missing);

	if (!why)
		why = parse_all(text.buf ? text.buf : "", text.len, k);
	if (why)
		kept_release(k);
	sb_release(&text);
	return why;
}

static bool same_struct(const struct ll_access_evidence *e, const char *name, uint64_t size,
			bool is_union)
{
	return e->size == size && e->is_union == is_union && strcmp(e->name, name) == 0;
}

size_t ll_access_cache_load(const char *dir, const char *build_id,
			    const struct ll_access_target *targets, size_t n,
			    struct ll_access_evidence **out, char **note)
{
	struct strbuf path = STRBUF_INIT;
	struct kept k = { 0 };
	const char *why;
	bool missing;
	size_t found = 0;

	*note = NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = NULL;
	if (!dir || !hex_id(build_id))
		return 0;
	cache_path(dir, build_id, &path);
	why = load_kept(dir, path.buf, &k, &missing);
	if (why && !missing)
		ll_cache_refusal(note, "the access cache", path.buf, why);
	for (size_t i = 0; !why && i < n; i++) {
		for (size_t j = 0; j < k.n; j++) {
			if (!k.v[j] || !same_struct(k.v[j], targets[i].name, targets[i].size,
						    targets[i].is_union))
				continue;
			out[i] = k.v[j];
			k.v[j] = NULL;	/* moved */
			found++;
			break;
		}
	}
	kept_release(&k);
	sb_release(&path);
	return found;
}

/* ---- writing ---- */

struct string_index {
	const char *s;
	size_t index;
};

static int cmp_string_index(const void *a, const void *b)
{
	const char *x = ((const struct string_index *)a)->s, *y = ((const struct string_index *)b)->s;

	return (x > y) - (x < y);
}

static size_t index_of(const struct string_index *ix, size_t n, const char *s)
{
	struct string_index key = { s, 0 }, *hit;

	if (!s)
		return 0;
	hit = bsearch(&key, ix, n, sizeof(key), cmp_string_index);
	return hit ? hit->index + 1 : 0;
}

/* E as text; false when a string cannot be written as one line. */
static bool serialize(const struct ll_access_evidence *e, struct strbuf *out)
{
	struct string_index *ix = xcalloc(e->nr_strings ? e->nr_strings : 1, sizeof(*ix));

	if (strchr(e->name, '\n')) {
		free(ix);
		return false;
	}
	sb_addf(out, "E %d %" PRIu64 " %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %zu %zu %s\n",
		e->is_union, e->size, e->functions, e->operands, e->typed, e->skipped_functions,
		e->undecoded_bytes, e->nr_strings, e->n, e->name);
	for (size_t i = 0; i < e->nr_strings; i++) {
		if (strchr(e->strings[i], '\n')) {
			free(ix);
			return false;
		}
		sb_addf(out, "S %s\n", e->strings[i]);
		ix[i] = (struct string_index){ e->strings[i], i };
	}
	qsort(ix, e->nr_strings, sizeof(*ix), cmp_string_index);
	for (size_t i = 0; i < e->n; i++) {
		const struct ll_access_record *r = &e->v[i];

		sb_addf(out, "R %" PRIu64 " %u %d %zu %zu %zu %u %d\n", r->offset, r->width,
			(int)r->kind, index_of(ix, e->nr_strings, r->function),
			index_of(ix, e->nr_strings, r->inlined_into),
			index_of(ix, e->nr_strings, r->file), r->line, r->init_text);
	}
	free(ix);
	return true;
}

void ll_access_cache_store(const char *dir, const char *build_id,
			   struct ll_access_evidence *const *ev, size_t n)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct kept k = { 0 };
	struct ll_pending_file pending = { 0 };
	struct ll_error err;
	bool missing, ok = true;
	char sum[32];

	if (!dir || !hex_id(build_id) || ll_mkdir_p(dir) != 0 || ll_cache_dir_distrust(dir))
		return;
	cache_path(dir, build_id, &path);
	load_kept(dir, path.buf, &k, &missing);
	sb_adds(&text, MAGIC);
	for (size_t i = 0; i < n && ok; i++)
		ok = serialize(ev[i], &text);
	/* What the file held of other structs stays. */
	for (size_t j = 0; j < k.n && ok; j++) {
		bool replaced = false;

		for (size_t i = 0; i < n && !replaced; i++)
			replaced = same_struct(k.v[j], ev[i]->name, ev[i]->size, ev[i]->is_union);
		if (!replaced)
			ok = serialize(k.v[j], &text);
	}
	snprintf(sum, sizeof(sum), "C %016" PRIx64 "\n", ll_fnv1a(LL_FNV_INIT, text.buf, text.len));
	sb_adds(&text, sum);
	if (ok && ll_file_prepare(path.buf, "--access", "the access cache", text.buf, text.len,
				  &pending, &err) == 0 && ll_file_commit(&pending, &err) == 0)
		ll_cache_trim(dir, ll_cache_max_bytes(), path.buf);
	ll_file_abandon(&pending);
	kept_release(&k);
	sb_release(&text);
	sb_release(&path);
}
