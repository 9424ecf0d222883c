// SPDX-License-Identifier: GPL-2.0-or-later
/* The global variables kept beside the name index (vars_cache.h). */
#include "input/dwarf/raw/vars_cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cache_dir.h"
#include "util/read_file.h"
#include "util/strbuf.h"

#define VARS_MAGIC "LLVARS01"
#define VARS_VERSION 1
/* Larger than the variables of any vmlinux (6.12's: ~4 MB); beyond it, not ours. */
#define VARS_MAX_SIZE (256u << 20)

/* The file's header; every field 8 bytes wide, so no padding. */
struct vars_header {
	char magic[8];
	uint64_t version;
	struct ll_index_disk_key key;
	uint64_t nr_units;
	uint64_t nr_vars, strings_bytes;
	uint64_t vars_sum, strings_sum;		/* ll_name_index_sum() of each section */
	uint64_t header_sum;	/* ll_name_index_sum() of every byte before it */
};

/* One variable as stored, after the header; then the strings. */
struct disk_var {
	uint64_t die, unit, unit_end, addr, file;
	uint32_t line, column, has_file, reserved;
	uint32_t name, type, file_path, comp_dir;	/* string offsets, or LL_INDEX_NO_STRING */
};

/* Whether V goes into the file: what reader_variables() takes of a raw variable. */
static bool kept(const struct ll_scan_variable *v)
{
	return v->fixed && v->name && v->type && (!v->has_file || (v->file_path && v->comp_dir));
}

bool ll_vars_cache_keepable(const struct ll_scan_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!v[i].raw)
			return false;
	return true;
}

static void vars_path(const struct ll_index_key *key, struct strbuf *out)
{
	sb_addf(out, "%s/%s.vars", key->dir, key->build_id);
}

/* ---- writing ---- */

static void build(const struct ll_scan_variable *v, size_t n, struct vars_header *h,
		  struct strbuf *vars, struct ll_index_strings *st)
{
	for (size_t i = 0; i < n; i++) {
		if (!kept(&v[i]))
			continue;
		struct disk_var d = {
			.die = v[i].die, .unit = v[i].unit, .unit_end = v[i].unit_end,
			.addr = v[i].addr, .file = v[i].file, .line = v[i].line,
			.column = v[i].column, .has_file = v[i].has_file,
			.name = ll_index_strings_add(st, v[i].name),
			.type = ll_index_strings_add(st, v[i].type),
			/* NULL without a file: LL_INDEX_NO_STRING. */
			.file_path = ll_index_strings_add(st, v[i].has_file ? v[i].file_path : NULL),
			.comp_dir = ll_index_strings_add(st, v[i].has_file ? v[i].comp_dir : NULL),
		};

		sb_add(vars, (const char *)&d, sizeof(d));
		h->nr_vars++;
	}
	h->strings_bytes = st->bytes.len;
	h->vars_sum = ll_name_index_sum((const unsigned char *)(vars->buf ? vars->buf : ""),
					vars->len);
	h->strings_sum = ll_name_index_sum((const unsigned char *)(st->bytes.buf ?
								     st->bytes.buf : ""),
					   st->bytes.len);
}

void ll_vars_cache_write(const struct ll_index_key *key, const struct ll_scan_variable *v,
			 size_t n)
{
	struct vars_header h = { .version = VARS_VERSION };
	struct ll_index_strings st = LL_INDEX_STRINGS_INIT;
	struct strbuf vars = STRBUF_INIT, path = STRBUF_INIT;

	/* As the index: an image at rest, into a directory a later run trusts (ll_cache_replace()). */
	if (!ll_name_index_writable(key) || !ll_vars_cache_keepable(v, n))
		return;
	memcpy(h.magic, VARS_MAGIC, sizeof(h.magic));
	ll_index_key_store(key, &h.key);
	h.nr_units = key->nr_units;
	build(v, n, &h, &vars, &st);
	h.header_sum = ll_name_index_sum((const unsigned char *)&h,
					 offsetof(struct vars_header, header_sum));
	vars_path(key, &path);
	const struct ll_cache_part parts[] = { { &h, sizeof(h) }, { vars.buf, vars.len },
					       { st.bytes.buf, st.bytes.len } };

	ll_cache_replace(key->dir, path.buf, parts, 3);
	sb_release(&vars);
	ll_index_strings_release(&st);
	sb_release(&path);
}

/* ---- reading ---- */

static int refuse(char **note, const char *path, const char *why)
{
	return ll_cache_refusal(note, "the kept variables", path, why);
}

/* The string at OFF of STRINGS (BYTES long, ending in a NUL), or NULL. */
static const char *string_at(const char *strings, uint64_t bytes, uint32_t off, bool *bad)
{
	if (off == LL_INDEX_NO_STRING)
		return NULL;
	if (off >= bytes) {
		*bad = true;
		return NULL;
	}
	return strings + off;
}

/*
 * D, in range of H, into *V (its strings copied): NULL, or what is wrong.
 * PREV_DIE: the last one's, each must come after it (.debug_info order).
 */
static const char *read_var(const struct vars_header *h, const struct disk_var *d,
			    const char *strings, uint64_t prev_die, struct ll_scan_variable *v)
{
	bool bad = false;
	const char *name = string_at(strings, h->strings_bytes, d->name, &bad);
	const char *type = string_at(strings, h->strings_bytes, d->type, &bad);
	const char *file_path = string_at(strings, h->strings_bytes, d->file_path, &bad);
	const char *comp_dir = string_at(strings, h->strings_bytes, d->comp_dir, &bad);

	if (bad || !name || !*name || !type || d->has_file > 1 ||
	    (d->has_file && (!file_path || !comp_dir)))
		return "a variable's strings are out of range";
	if (d->unit >= d->unit_end || d->unit_end > h->key.info_size || d->die <= d->unit ||
	    d->die >= d->unit_end || (prev_die != UINT64_MAX && d->die <= prev_die))
		return "a variable's DIE is out of range or out of order";
	*v = (struct ll_scan_variable){
		.die = d->die, .unit = d->unit, .unit_end = d->unit_end, .raw = true, .fixed = true,
		.has_file = d->has_file, .addr = d->addr, .file = d->file, .line = d->line,
		.column = d->column, .name = xstrdup(name), .type = xstrdup(type),
		.file_path = d->has_file ? xstrdup(file_path) : NULL,
		.comp_dir = d->has_file ? xstrdup(comp_dir) : NULL,
	};
	return NULL;
}

/* The sections after H, read whole from FD, into *V and *N: NULL, or what is wrong. */
static const char *read_body(int fd, const struct vars_header *h, uint64_t file_size,
			     struct ll_scan_variable **v, size_t *n)
{
	uint64_t vars_bytes = h->nr_vars * sizeof(struct disk_var);
	const char *why = NULL;

	if (h->nr_vars > file_size / sizeof(struct disk_var) || h->strings_bytes > file_size ||
	    sizeof(*h) + vars_bytes + h->strings_bytes != file_size)
		return "its counts do not fit its size";
	unsigned char *body = xmalloc(vars_bytes + h->strings_bytes + 1);
	const char *strings = (const char *)body + vars_bytes;

	if (ll_pread_all(fd, body, (size_t)(vars_bytes + h->strings_bytes), sizeof(*h)) !=
	    vars_bytes + h->strings_bytes)
		why = "cannot be read whole";
	else if (ll_name_index_sum(body, (size_t)vars_bytes) != h->vars_sum ||
		 ll_name_index_sum((const unsigned char *)strings, (size_t)h->strings_bytes) !=
		 h->strings_sum)
		why = "its checksum does not match (a damaged file)";
	else if (h->strings_bytes && strings[h->strings_bytes - 1] != 0)
		why = "its strings do not end in a NUL";
	*v = xcalloc(h->nr_vars ? (size_t)h->nr_vars : 1, sizeof(**v));
	*n = 0;
	for (uint64_t i = 0; !why && i < h->nr_vars; i++) {
		struct disk_var d;

		memcpy(&d, body + i * sizeof(d), sizeof(d));
		why = read_var(h, &d, strings, *n ? (*v)[*n - 1].die : UINT64_MAX, &(*v)[*n]);
		*n += !why;
	}
	free(body);
	if (why) {
		ll_scan_variables_free(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return why;
}

/* The header of FD (ST its fstat()) checked: NULL with *RC 0 to read on; *RC 1: as if absent. */
static const char *check_header(int fd, const struct stat *st, const struct ll_index_key *key,
				struct vars_header *h, int *rc)
{
	*rc = 0;
	if ((uint64_t)st->st_size > VARS_MAX_SIZE || (size_t)st->st_size < sizeof(*h))
		return "its size is not a variables file's";
	if (ll_pread_all(fd, h, sizeof(*h), 0) != sizeof(*h))
		return "cannot be read whole";
	if (memcmp(h->magic, VARS_MAGIC, 6) != 0)
		return "not layoutlint's kept variables";
	if (memcmp(h->magic, VARS_MAGIC, sizeof(h->magic)) != 0 || h->version != VARS_VERSION) {
		*rc = 1;	/* another layoutlint's format: as if absent */
		return NULL;
	}
	if (ll_name_index_sum((const unsigned char *)h, offsetof(struct vars_header, header_sum)) !=
	    h->header_sum)
		return "its checksum does not match (a damaged file)";
	const char *why = ll_index_key_differs(&h->key, key);

	if (why && *why)
		return why;
	/* Another copy's: as if absent. */
	*rc = why || h->nr_units != key->nr_units;
	return NULL;
}

int ll_vars_cache_load(const struct ll_index_key *key, struct ll_scan_variable **v, size_t *n,
		       char **note)
{
	struct strbuf path = STRBUF_INIT;
	struct vars_header h;
	struct stat st;
	const char *why = NULL;
	int fd, rc = 0;

	*v = NULL;
	*n = 0;
	*note = NULL;
	if (!ll_index_key_ok(key))
		return 1;
	vars_path(key, &path);
	rc = ll_cache_open(key->dir, path.buf, &fd, &st, &why);
	if (rc) {
		if (why)
			refuse(note, path.buf, why);
		sb_release(&path);
		return rc;
	}
	why = check_header(fd, &st, key, &h, &rc);
	if (!why && !rc && !(why = read_body(fd, &h, (uint64_t)st.st_size, v, n)))
		futimens(fd, NULL);	/* used now: the cache's bound evicts the least recent */
	close(fd);
	if (why)
		rc = refuse(note, path.buf, why);
	sb_release(&path);
	return rc;
}
