/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-user cache directory ($XDG_CACHE_HOME/layoutlint): creating it,
 * and keeping it bounded. Each binary leaves BUILD-ID.index (the name
 * index, input/dwarf/raw/name_index.h) and BUILD-ID.names (shell completion);
 * a kernel engineer who looks at many builds would otherwise collect them
 * without end.
 */
#ifndef LAYOUTLINT_CACHE_DIR_H
#define LAYOUTLINT_CACHE_DIR_H

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
 * The bound on the files a cache directory keeps: LAYOUTLINT_CACHE_MAX_MB
 * (MiB, fractions allowed; 0 keeps nothing; cli reads it, util/tuning.h)
 * or LL_CACHE_DEFAULT_MAX_MB.
 */
#define LL_CACHE_DEFAULT_MAX_MB 256
uint64_t ll_cache_max_bytes(void);

/*
 * Remove the least recently used *.index, *.names and *.access files of DIR (by
 * modification time: a loaded index is touched) until the rest fit in
 * MAX_BYTES; the file KEEP (a path, or NULL), just written, goes last.
 * Best effort: nothing else in DIR is touched, links are not followed.
 */
void ll_cache_trim(const char *dir, uint64_t max_bytes, const char *keep);

#endif
