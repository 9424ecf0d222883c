/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The global variables of an image, kept beside its name index
 * ($XDG_CACHE_HOME/layoutlint/BUILD-ID.vars): what the scan of the
 * variables alone (ll_finder_variables()) reads, every unit whole, for a
 * warm --audit whose glob takes in the global variables. Written by the
 * first warm --audit that scans them; the ones after read it instead.
 *
 * Only variables the scan read whole (ll_scan_variable's RAW) at a fixed
 * address are kept: a scan that left any to libdw's walk writes none.
 * The declaring file is kept raw (as the line table and DW_AT_comp_dir
 * spell it), so --prefix-map and --srcdir apply when it is read, as for
 * the index.
 *
 * The file is untrusted, as the index is (name_index.h): read only as a
 * regular file, never through a symbolic link, from a directory and a
 * file only the user can write, of bounded size, with the right magic,
 * key and checksums, every offset inside it in range and its variables in
 * .debug_info order; anything else is ignored with a note. One of another
 * copy of the build, or of another format, is ignored quietly.
 */
#ifndef LAYOUTLINT_VARS_CACHE_H
#define LAYOUTLINT_VARS_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "input/dwarf/raw/name_index.h"
#include "input/dwarf/raw/scan.h"

/*
 * Whether V[0..N) may be kept: every one read whole. Those not at a fixed
 * address (or unnamed) are left out, as the globals' reader leaves them.
 */
bool ll_vars_cache_keepable(const struct ll_scan_variable *v, size_t n);

/* Write KEY's variables V[0..N) (ll_vars_cache_keepable()); best effort. */
void ll_vars_cache_write(const struct ll_index_key *key, const struct ll_scan_variable *v,
			 size_t n);

/*
 * Load KEY's variables into *V (owned, as the scan's: free with
 * ll_scan_variables_free()), *N of them: 0; 1 when there are none kept;
 * -1 when the file was refused (*NOTE says why, owned by the caller).
 */
int ll_vars_cache_load(const struct ll_index_key *key, struct ll_scan_variable **v, size_t *n,
		       char **note);

#endif
