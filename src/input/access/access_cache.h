/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The access evidence kept between runs: DIR/BUILD-ID.access, beside the
 * name index, holding the evidence of every struct an --access run has
 * analyzed in that image, so that a second question about one of them is
 * answered without disassembling again.
 *
 * Text, one record a line, with a checksum line last; believed only when
 * the directory and the file are the user's own and no one else may write
 * them (util/cache_dir.h), and only for the layoutlint version that wrote
 * it: the evidence is what this analyzer found, not a fact of the image.
 * Anything else is ignored with one note.
 */
#ifndef LAYOUTLINT_ACCESS_CACHE_H
#define LAYOUTLINT_ACCESS_CACHE_H

#include <stddef.h>

#include "input/access/access.h"

/*
 * OUT[i] (N of them, NULL where not kept) for each of TARGETS found in the
 * cache of BUILD_ID under DIR; how many were found. *NOTE: why the file
 * was ignored (owned by the caller), or NULL.
 */
size_t ll_access_cache_load(const char *dir, const char *build_id,
			    const struct ll_access_target *targets, size_t n,
			    struct ll_access_evidence **out, char **note);

/*
 * Keep EV (N of them) in the cache of BUILD_ID under DIR, with what it
 * held of other structs; best effort, silent.
 */
void ll_access_cache_store(const char *dir, const char *build_id,
			   struct ll_access_evidence *const *ev, size_t n);

#endif
