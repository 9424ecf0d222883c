// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the kept variables' loader (input/dwarf/raw/vars_cache.c),
 * a file layoutlint itself wrote beside the name index. The input is such
 * a file. Its checksums catch damage, so raw mutations would stop at
 * them: the harness makes the magic, the version, the key (build-id,
 * size, times, device, inode, .debug_info size, unit count), the sizes
 * and every checksum agree with the counts the input gives (each
 * bounded), so that what is fuzzed is what a forger controls: the
 * variables and their strings. Inputs shorter than a header go to the
 * file as they are. What loads is checked as reader_variables() relies
 * on it, then written back and loaded again: the same variables.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/input/dwarf/raw/vars_cache.h"

/* vars_cache.c's format 1, as tests/index/run_index.py reads it too. */
struct fz_header {
	char magic[8];
	uint64_t version;
	uint64_t size, mtime_sec, mtime_nsec, ctime_sec, ctime_nsec, dev, ino;
	char build_id[128];
	uint64_t info_size, nr_units, nr_vars, strings_bytes, vars_sum, strings_sum;
	uint64_t header_sum;
};
_Static_assert(sizeof(struct fz_header) == 256, "the kept variables' header of format 1");
#define VAR_SIZE 72	/* struct disk_var */
#define BUILD_ID "f0a5"

static char dir[64];
static char path[96];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_vars.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(path, sizeof(path), "%s/%s.vars", dir, BUILD_ID);
	return 0;
}

static void write_file(const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
		abort();
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* What reader_variables() takes of each: named, typed, a file when it says so, in order. */
static void check(const struct ll_index_key *key, const struct ll_scan_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!v[i].raw || !v[i].fixed || !v[i].name || !*v[i].name || !v[i].type ||
		    (v[i].has_file && (!v[i].file_path || !v[i].comp_dir)) ||
		    v[i].die <= v[i].unit || v[i].die >= v[i].unit_end ||
		    v[i].unit_end > key->info_size || (i && v[i].die <= v[i - 1].die))
			abort();
		(void)strlen(v[i].name);
		(void)strlen(v[i].type);
	}
}

static void exercise(const struct ll_index_key *key)
{
	struct ll_scan_variable *v, *again;
	size_t n, nr_again;
	char *note = NULL;

	if (ll_vars_cache_load(key, &v, &n, &note) != 0) {
		free(note);
		return;
	}
	check(key, v, n);
	/* Written back (the key is old enough to write), it loads the same. */
	ll_vars_cache_write(key, v, n);
	if (ll_vars_cache_load(key, &again, &nr_again, &note) != 0 || nr_again != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (again[i].die != v[i].die || again[i].addr != v[i].addr ||
		    !same(again[i].name, v[i].name) || !same(again[i].type, v[i].type) ||
		    !same(again[i].file_path, v[i].file_path) ||
		    !same(again[i].comp_dir, v[i].comp_dir))
			abort();
	ll_scan_variables_free(again, nr_again);
	ll_scan_variables_free(v, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_header h;
	struct ll_index_key key = { .dir = dir, .build_id = BUILD_ID };
	uint64_t total;
	unsigned char *file;

	if (size < sizeof(h)) {
		write_file(data, size);
		exercise(&key);
		return 0;
	}
	memcpy(&h, data, sizeof(h));
	memcpy(h.magic, "LLVARS01", 8);
	h.version = 1;
	memset(h.build_id, 0, sizeof(h.build_id));
	strcpy(h.build_id, BUILD_ID);
	/* Bounded counts, still the input's: the file stays small. */
	h.nr_vars %= 256;
	h.strings_bytes %= 4096;
	h.info_size %= 1u << 20;
	/* An image at rest: more than 2 s old, so the write-back is not refused as racy. */
	h.mtime_sec %= 1u << 30;
	h.ctime_sec %= 1u << 30;
	key.size = h.size;
	key.mtime_sec = (int64_t)h.mtime_sec;
	key.mtime_nsec = (int64_t)h.mtime_nsec;
	key.ctime_sec = (int64_t)h.ctime_sec;
	key.ctime_nsec = (int64_t)h.ctime_nsec;
	key.dev = h.dev;
	key.ino = h.ino;
	key.info_size = h.info_size;
	key.nr_units = h.nr_units;
	total = sizeof(h) + h.nr_vars * VAR_SIZE + h.strings_bytes;
	file = calloc(1, (size_t)total);
	if (!file)
		abort();
	memcpy(file + sizeof(h), data + sizeof(h),
	       size - sizeof(h) < total - sizeof(h) ? size - sizeof(h) : (size_t)(total - sizeof(h)));
	h.vars_sum = ll_name_index_sum(file + sizeof(h), (size_t)(h.nr_vars * VAR_SIZE));
	h.strings_sum = ll_name_index_sum(file + sizeof(h) + h.nr_vars * VAR_SIZE,
					  (size_t)h.strings_bytes);
	h.header_sum = ll_name_index_sum((const unsigned char *)&h,
					 offsetof(struct fz_header, header_sum));
	memcpy(file, &h, sizeof(h));
	write_file(file, (size_t)total);
	free(file);
	exercise(&key);
	return 0;
}
