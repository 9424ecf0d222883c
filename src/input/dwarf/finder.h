/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding named aggregates in a Dwarf handle without building any type
 * graph: one pass over the top-level DIEs of every CU, a callback for each
 * DIE whose name was asked for.
 */
#ifndef LAYOUTLINT_FINDER_H
#define LAYOUTLINT_FINDER_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/diag.h"
#include "input/dwarf/raw/scan.h"
#include "input/dwarf/raw/name_index.h"
#include "util/progress.h"
#include "input/dwarf/sparse_image.h"

struct ll_finder;

/*
 * What a whole-image listing (ll_finder_list()) read beyond the names for
 * the lookup that follows it: every top-level DIE whose name matches the
 * listing's lookup glob, read as ll_finder_scan()'s raw scan reads them,
 * so that --list, --audit and --contains walk the image once, not twice.
 * READY false: nothing kept.
 */
struct ll_finder_prescan {
	bool ready;
	bool distinct;			/* the scan kept distinct definitions only */
	struct ll_scan_input in;
	struct ll_scan_hit *hits;	/* in .debug_info order */
	size_t nr_hits;
	char **hit_names;		/* by a hit's query, owned; NULL where no hit */
	size_t nr_hit_names;
	struct ll_scan_unit *units;	/* every unit */
	size_t nr_units;
	uint8_t *verdicts;		/* by unit */
	char **comp_dirs;		/* what the hits' comp_dir point to */
	size_t nr_comp_dirs;
	/* Every top-level variable with a location (ll_scan_input's variables). */
	struct ll_scan_variable *variables;
	size_t nr_variables;
};

void ll_finder_prescan_release(struct ll_finder_prescan *pre);

/*
 * One named DIE: DIE from libdw, or, when the raw scan read everything a
 * signature needs, DIE NULL and RAW set (libdw has not touched it yet).
 */
typedef void (*ll_finder_fn)(Dwarf_Die *die, const struct ll_scan_hit *raw, const char *name,
			     void *arg);

/*
 * One body of DWARF the finder searches: a file's .debug_info, its DWARF 4
 * .debug_types (TYPES), a dwz supplementary file, or a split unit's .dwo.
 * RAW_OK: the file's own sections hold the DWARF as libdw reads it (no
 * relocations to apply), so the raw scan may be used; FD (or -1) is the
 * file, for reading it without the mapping. IMAGE, when not NULL, is the
 * sparse image DWARF was opened on: libdw reads of it go through
 * ll_finder_prepare().
 */
struct ll_finder_source {
	Dwarf *dwarf;
	struct ll_notes *notes;		/* the reader's (ll_input_options'); NULL: printed at once */
	struct ll_sparse_image *image;
	const char *path;
	int fd;
	/*
	 * A file holding .debug_str's bytes where DWARF's ELF says (-1:
	 * none): the file itself, or a relocated image's file when nothing
	 * relocates .debug_str. Only the scan's search for few names reads it.
	 */
	int str_fd;
	bool raw_ok;
	bool types;
	/*
	 * For ll_finder_scan(): the raw scan may keep one hit per distinct
	 * definition (ll_scan_input's distinct), whose line tables are
	 * LINES. False when a selector (--cu, --die) wants every copy.
	 */
	bool distinct;
	struct ll_line_sections lines;
	/* For ll_finder_list(): also read the top-level variables (ll_scan_input's). */
	bool variables;
	/*
	 * For ll_finder_list() and ll_finder_scan()'s raw scan (with
	 * DISTINCT): ll_scan_input's member_filter.
	 */
	const struct ll_member_filter *member_filter;
	/* For ll_finder_list(): the input's contains_word (ll_scan_words_reach()). */
	const char *contains_word;
	/*
	 * For ll_finder_scan(): a listing's prescan of this source, or NULL.
	 * When it was read the way this lookup would read (raw, and as
	 * DISTINCT), the lookup answers from it instead of scanning, and
	 * empties it.
	 */
	struct ll_finder_prescan *prescan;
};

/*
 * Visit every top-level struct, union, class or typedef DIE named in NAMES,
 * in unit order. INDEX (or NULL): a loaded name index of SRC's
 * .debug_info, which says which units to scan. *FINDER keeps what is
 * needed for later suggestions; free it with ll_finder_free().
 */
int ll_finder_scan(const struct ll_finder_source *src, struct ll_name_index *index,
		   const char *const *names, size_t n, ll_finder_fn fn, void *arg,
		   const struct ll_progress *progress, struct ll_finder **finder,
		   struct ll_error *err);

/*
 * A finder with no scan behind it, for a lookup the name index answers
 * whole: it knows the index's unit headers, so ll_finder_prepare() makes
 * real only the unit of each DIE built. NULL when the raw scan cannot
 * read SRC (or SRC is .debug_types, which no index covers). It borrows
 * INDEX's units: free it before releasing INDEX.
 */
struct ll_finder *ll_finder_from_index(const struct ll_finder_source *src,
				       const struct ll_name_index *index);
void ll_finder_free(struct ll_finder *finder);

/*
 * Before libdw reads the DIE at .debug_info offset OFF: make its unit (and
 * every unit header before it) real bytes in the sparse image. A unit
 * whose DIEs may point outside it makes the whole section real.
 */
int ll_finder_prepare(struct ll_finder *finder, uint64_t off, struct ll_error *err);

/*
 * Whether ll_finder_prepare() stands a made-up unit header in for units,
 * or will (ll_finder_skip_headers()): libdw's handle then holds a unit
 * the file does not, and the image must not become the file's mapping.
 */
bool ll_finder_faked(const struct ll_finder *finder);

/*
 * The .debug_info range [*BEGIN, *END) of the unit holding OFF, as the
 * scan or the index found it; false when the finder knows no units.
 */
bool ll_finder_unit_span(const struct ll_finder *finder, uint64_t off, uint64_t *begin,
			 uint64_t *end);

/*
 * Give back the memory of the unit holding OFF that ll_finder_prepare()
 * read (its header stays: libdw may read it to reach a later unit).
 * Nothing may read the unit's DIEs until it is prepared again.
 */
void ll_finder_release(struct ll_finder *finder, uint64_t off);

/*
 * For a finder from ll_finder_from_index() about to build the DIEs DIES
 * (any order): when each DIE's unit is DWARF 5 and refers to nothing
 * outside itself, later ll_finder_prepare() calls write one made-up unit
 * header spanning the units libdw would otherwise register one by one
 * (a page fault each: ~3,000 on a vmlinux). The caller must then prepare
 * those DIEs in ascending order and read nothing else of .debug_info.
 */
void ll_finder_skip_headers(struct ll_finder *finder, const uint64_t *dies, size_t n);

/*
 * Every name of a top-level struct, union, class or typedef DIE, sorted,
 * each once; the caller frees them and the array.
 */
/*
 * What a whole-image listing leaves for the name index: each name's units
 * (names owned), and every unit header.
 */
struct ll_finder_seed {
	struct ll_index_entry *entries;
	size_t nr_entries;
	struct ll_scan_unit *units;
	size_t nr_units;
	uint64_t info_size;
};

void ll_finder_seed_release(struct ll_finder_seed *seed);

/*
 * SEED (or NULL): where to leave the name index's seed, when the raw scan
 * read every unit (seed->entries stays NULL otherwise). PRESCAN (or
 * NULL): where to leave the definitions of the names matching
 * LOOKUP_GLOB, read in the same pass (prescan->ready stays false when the
 * raw scan could not read them all).
 */
int ll_finder_list(const struct ll_finder_source *src, struct ll_finder_seed *seed,
		   const char *lookup_glob, struct ll_finder_prescan *prescan, char ***names,
		   size_t *n, const struct ll_progress *progress, struct ll_error *err);

/*
 * The top-level variables of SRC's .debug_info alone, read by the raw
 * scan as ll_finder_list() reads them (ll_scan_input's variables), into
 * *VARS (owned by the caller): a warm --audit takes its names from the
 * name index and still needs them. UNITS (NR_UNITS, or NULL): the unit
 * headers the index holds. False, nothing kept, when the raw scan cannot
 * read them all: the globals' lookup then walks with libdw.
 */
bool ll_finder_variables(const struct ll_finder_source *src, const struct ll_scan_unit *units,
			 size_t nr_units, const struct ll_progress *progress,
			 struct ll_scan_variable **vars, size_t *nr_vars);

/* "did you mean struct X?" text for a missing NAME, or NULL. */
char *ll_finder_suggest(struct ll_finder *finder, const char *name);

/*
 * INDEX (borrowed, or NULL): the loaded name index of the finder's
 * .debug_info, which ll_finder_suggest() may use to find the same answer
 * with less reading.
 */
void ll_finder_use_index(struct ll_finder *finder, struct ll_name_index *index);

/*
 * What makes two same-named definitions "the same": kind, size, the
 * normalised declaring file and line, and the top-level members' names and
 * offsets.
 */
struct ll_finder_sig {
	int tag;
	uint64_t size;
	unsigned line;
	uint64_t file_hash;
	uint64_t members_hash;
	uint32_t nr_members;
	bool nameless;		/* reached through a typedef: not compared */
};

void ll_finder_signature(Dwarf_Die *agg, const char *display_file, struct ll_finder_sig *sig);
void ll_finder_sig_from_scan(const struct ll_scan_hit *h, const char *display_file,
			     struct ll_finder_sig *sig);
bool ll_finder_sig_equal(const struct ll_finder_sig *a, const struct ll_finder_sig *b);

#endif
