/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-user cache directory ($XDG_CACHE_HOME/layoutlint): creating it,
 * and keeping it bounded. Each binary leaves BUILD-ID.index (the name
 * index, input/dwarf/raw/name_index.h), BUILD-ID.vars (its global
 * variables, vars_cache.h) and BUILD-ID.names (shell completion);
 * a kernel engineer who looks at many builds would otherwise collect them
 * without end.
 */
#ifndef LAYOUTLINT_CACHE_DIR_H
#define LAYOUTLINT_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* mkdir -p DIR (mode 0755 for what it creates): 0, or -1. */
int ll_mkdir_p(const char *dir);

/*
 * Whether a cache file or directory may be believed: owned by this user
 * (the effective uid) and writable by nobody else, as ssh judges
 * ~/.ssh and git its safe.directory. A checksum catches damage, not a
 * forgery planted by another user. NULL when it may; else why not, a
 * phrase to follow "ignoring ...: ". ll_cache_dir_distrust() stats DIR
 * (following a link: ~/.cache may be one); ll_cache_file_distrust() takes
 * the fstat() of a file already opened.
 */
struct stat;
const char *ll_cache_dir_distrust(const char *dir);
const char *ll_cache_file_distrust(const struct stat *st);

/*
 * Open the cache file PATH of DIR to read: 0 (*FD open, *ST its fstat()),
 * 1 when there is none, -1 when it may not be believed (*WHY: a phrase,
 * as ll_cache_dir_distrust()'s): a symbolic link (never followed), not a
 * regular file, or one another user could have written.
 */
int ll_cache_open(const char *dir, const char *path, int *fd, struct stat *st, const char **why);

/* "ignoring WHAT PATH: WHY" into *NOTE (the caller's to free); -1, for a refusing return. */
int ll_cache_refusal(char **note, const char *what, const char *path, const char *why);

/* One piece of a cache file to write. */
struct ll_cache_part {
	const void *data;
	size_t len;
};

/*
 * PARTS (N of them) end to end into a new file beside PATH (mkstemp:
 * O_EXCL, mode 0600), renamed over PATH, which replaces a link there,
 * never follows it; then DIR trimmed to its bound, PATH kept. DIR is
 * made first, and nothing is written into one a later run would not
 * trust (ll_cache_dir_distrust()). Best effort: false when nothing was
 * written.
 */
bool ll_cache_replace(const char *dir, const char *path, const struct ll_cache_part *parts,
		      size_t n);

/*
 * The bound on the files a cache directory keeps: LAYOUTLINT_CACHE_MAX_MB
 * (MiB, fractions allowed; 0 keeps nothing; cli reads it, util/tuning.h)
 * or LL_CACHE_DEFAULT_MAX_MB.
 */
#define LL_CACHE_DEFAULT_MAX_MB 256
uint64_t ll_cache_max_bytes(void);

/*
 * Remove the least recently used *.index, *.vars, *.names and *.access files of DIR (by
 * modification time: a loaded index is touched) until the rest fit in
 * MAX_BYTES; the file KEEP (a path, or NULL), just written, goes last.
 * Best effort: nothing else in DIR is touched, links are not followed.
 */
void ll_cache_trim(const char *dir, uint64_t max_bytes, const char *keep);

#endif
