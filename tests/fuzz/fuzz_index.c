// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the name index loader (input/dwarf/raw/name_index.c),
 * the one parser of a file layoutlint itself wrote (issue 40: a forged
 * index with valid checksums crashed a lookup). The input is an index
 * file. Its checksums catch damage, so raw mutations would stop at them:
 * the harness makes the magic, the version, the key (build-id, size,
 * times, device, inode, .debug_info size), the section table and every
 * checksum agree with the counts the input gives (each bounded), so that
 * what is fuzzed is what a forger controls: counts, unit headers, names,
 * postings, definitions, words and strings. Inputs shorter than a header go to
 * the file as they are. The file is loaded from a private cache directory
 * (mode 0700, the user's) and every lookup the reader makes is made.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "../../src/input/dwarf/raw/name_index.h"

/* name_index.c's format 9, as tests/index/run_index.py reads it too. */
#define NR_SECS 6
struct fz_section {
	uint64_t off, size, sum;
};
struct fz_header {
	char magic[8];
	uint64_t version;
	uint64_t size, mtime_sec, mtime_nsec, ctime_sec, ctime_nsec, dev, ino;
	char build_id[128];
	uint64_t info_size, nr_units;
	uint64_t nr_names, nr_postings, nr_defs, names_bytes, strings_bytes, nr_words;
	struct fz_section sec[NR_SECS];
	uint64_t header_sum;
};
_Static_assert(sizeof(struct fz_header) == 416, "the index header of format 9");
#define UNIT_SIZE 80	/* struct disk_unit */
#define BUILD_ID "f022"

static char dir[64];
static char path[96];

/* name_index.c's index_sum(). */
static uint64_t pad8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_index.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(path, sizeof(path), "%s/%s.index", dir, BUILD_ID);
	return 0;
}

static void write_file(const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
		abort();
}

static void exercise(const struct ll_index_key *key)
{
	struct ll_name_index ix;
	struct ll_index_entry *entries;
	char *note = NULL;
	size_t n, nd;

	if (ll_name_index_load(key, &ix, &note) != 0) {
		free(note);
		return;
	}
	const char *names[3] = { "a", "wide", ix.nr_names ? ix.names + ix.name_off[0] : "b" };

	for (int i = 0; i < 3; i++) {
		long k = ll_name_index_find(&ix, names[i]);

		if (k < 0)
			continue;
		const struct ll_index_def *d = ll_name_index_defs(&ix, k, &nd);

		for (size_t j = 0; j < nd; j++) {
			const char *f = ll_name_index_string(&ix, d[j].file);

			if (f && !*f)
				continue;
			/* The unit each definition names, as the finder takes it. */
			if (d[j].unit >= ix.nr_units || ix.units[d[j].unit].first_die > d[j].die)
				abort();
			/* Its words, as a warm --contains reads them. */
			(void)ll_name_index_def_lacks_word(&ix, &d[j], names[i]);
		}
	}
	free(ll_name_index_units(&ix, names, 3, &n, &note));
	free(note);
	note = NULL;
	if (ll_name_index_entries_from_index(&ix, &entries, &n, &note) == 0)
		ll_name_index_entries_free(entries, n);
	free(note);
	ll_name_index_release(&ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_header h;
	struct ll_index_key key = { .dir = dir, .build_id = BUILD_ID, .abbrev_size = 4096 };
	uint64_t sec_size[NR_SECS], total;
	unsigned char *file;

	if (size < sizeof(h)) {
		write_file(data, size);
		exercise(&key);
		return 0;
	}
	memcpy(&h, data, sizeof(h));
	memcpy(h.magic, "LLNIDX09", 8);
	h.version = 9;
	memset(h.build_id, 0, sizeof(h.build_id));
	strcpy(h.build_id, BUILD_ID);
	/* Bounded counts, still the input's: the file stays small. */
	h.nr_units %= 64;
	h.nr_names %= 256;
	h.nr_postings %= 1024;
	h.nr_defs %= 256;
	h.names_bytes %= 4096;
	h.strings_bytes %= 4096;
	h.nr_words %= 1024;
	h.info_size %= 1u << 20;
	key.size = h.size;
	key.mtime_sec = (int64_t)h.mtime_sec;
	key.mtime_nsec = (int64_t)h.mtime_nsec;
	key.ctime_sec = (int64_t)h.ctime_sec;
	key.ctime_nsec = (int64_t)h.ctime_nsec;
	key.dev = h.dev;
	key.ino = h.ino;
	key.info_size = h.info_size;
	sec_size[0] = h.nr_units * UNIT_SIZE;
	sec_size[1] = pad8(h.nr_names * 8 + (h.nr_names + 1) * 8 + h.names_bytes);
	sec_size[2] = h.nr_defs * sizeof(struct ll_index_def);
	sec_size[3] = pad8(h.nr_words * 4);
	sec_size[4] = pad8(h.strings_bytes);
	sec_size[5] = pad8(h.nr_postings * 4);
	total = sizeof(h);
	for (int i = 0; i < NR_SECS; i++) {
		h.sec[i].off = total;
		h.sec[i].size = sec_size[i];
		total += sec_size[i];
	}
	file = calloc(1, (size_t)total);
	if (!file)
		abort();
	memcpy(file + sizeof(h), data + sizeof(h),
	       size - sizeof(h) < total - sizeof(h) ? size - sizeof(h) : (size_t)(total - sizeof(h)));
	for (int i = 0; i < NR_SECS; i++)
		h.sec[i].sum = ll_name_index_sum(file + h.sec[i].off, (size_t)h.sec[i].size);
	h.header_sum = ll_name_index_sum((const unsigned char *)&h, offsetof(struct fz_header, header_sum));
	memcpy(file, &h, sizeof(h));
	write_file(file, (size_t)total);
	free(file);
	exercise(&key);
	return 0;
}
