/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The persistent name index of an image: every struct, union and typedef
 * name its top-level DIEs carry, and for each the units that hold one.
 * A run that lists every name (--list, --audit, --contains) writes it to
 * $XDG_CACHE_HOME/layoutlint/BUILD-ID.index; a later lookup of the same
 * image (same build-id, size and mtime) reads only those units instead of
 * filtering all of them. The answer is the same either way: a unit the
 * index leaves out holds no top-level DIE of that name, so the scan would
 * have found nothing there.
 *
 * The file is untrusted: it is read only if it is a regular file (never
 * through a symbolic link), of bounded size, with the right magic,
 * build-id and checksum, and every offset and count inside it in range;
 * anything else is ignored with a note. One written for another copy of
 * the build (size, mtime, ctime, device or inode differ), or in another
 * version's format, is ignored quietly, as absent: copies of a binary
 * share its build-id, and the next whole-image run rewrites it. An image
 * changed less than 2 s before a run gets no index written, so a change
 * within one timestamp tick cannot leave a matching key (git's "racy"
 * entries). It is written to a new mkstemp() file
 * (O_EXCL) and renamed into place, which replaces a link, never follows it.
 */
#ifndef LAYOUTLINT_NAME_INDEX_H
#define LAYOUTLINT_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/dwarf/dwarf_scan.h"

/*
 * Which image an index belongs to: its build-id names the index file; the
 * rest must match too (copies of one build, a file rewritten in place).
 */
struct ll_index_key {
	const char *dir;	/* the cache directory; NULL: no index */
	const char *build_id;	/* hex; NULL: no index */
	uint64_t size, dev, ino;	/* of the image file */
	int64_t mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
	uint64_t info_size;	/* of .debug_info */
	uint64_t nr_units;
};

struct ll_name_index {
	unsigned char *data;	/* the whole file, owned */
	size_t size;
	const uint32_t *name_off, *post_first, *postings;
	const char *names;
	uint64_t nr_names, nr_postings, nr_units, info_size;
};

/* Build and write the index of POSTINGS (a scan with by_unit); best effort. */
void ll_name_index_write(const struct ll_index_key *key, const struct ll_scan_posting *postings,
			 size_t n);

/*
 * Load KEY's index: 1 when there is none, 0 when loaded, -1 when it was
 * refused (then *NOTE says why, owned by the caller).
 */
int ll_name_index_load(const struct ll_index_key *key, struct ll_name_index *ix, char **note);
void ll_name_index_release(struct ll_name_index *ix);

/* The ascending units that hold any of NAMES; owned by the caller. */
uint32_t *ll_name_index_units(const struct ll_name_index *ix, const char *const *names, size_t n,
			      size_t *nr);

#endif
