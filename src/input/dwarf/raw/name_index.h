/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The persistent name index of an image: every struct, union and typedef
 * name its top-level DIEs carry; for each, the units that hold one and
 * (once a lookup has seen them all) its distinct definitions, each with
 * one representative DIE and its unit (and, once built, its hole count
 * and the words of its member types); and every unit header. A listing
 * (--list, --audit, --contains) writes it to
 * $XDG_CACHE_HOME/layoutlint/BUILD-ID.index; a later lookup of the same
 * image (same build-id, size and mtime) whose names all have definitions
 * recorded reads only the unit of each definition it builds, --list
 * takes its rows from it, --contains builds only the definitions whose
 * words it may match, and --audit only those its member filter needs
 * (once an --audit recorded what the filter said of each); other
 * lookups read only the units listed for their names. The answer is the
 * same either way: a unit the index leaves out holds no top-level DIE of
 * that name, and the definitions are the ones the full scan groups, in
 * the order it meets them.
 *
 * The file is untrusted: it is read only if it is a regular file (never
 * through a symbolic link), of bounded size, with the right magic,
 * build-id and checksums (one per section, so a lookup checks what it
 * reads without reading the rest), and every offset and count inside it in
 * range; anything else is ignored with a note. One written for another
 * copy of the build (size, mtime, ctime, device or inode differ), or in
 * another version's format, is ignored quietly, as absent: copies of a
 * binary share its build-id, and the next whole-image run rewrites it. An
 * image changed less than 2 s before a run gets no index written, so a
 * change within one timestamp tick cannot leave a matching key (git's
 * "racy" entries). It is written to a new mkstemp() file (O_EXCL) and
 * renamed into place, which replaces a link, never follows it; then the
 * directory is trimmed to its bound (util/cache_dir.h).
 */
#ifndef LAYOUTLINT_NAME_INDEX_H
#define LAYOUTLINT_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/dwarf/raw/scan.h"
#include "util/slot_table.h"
#include "util/strbuf.h"

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
	uint64_t abbrev_size;	/* of .debug_abbrev: every unit's abbrev_offset within it */
	uint64_t nr_units;
};

/* What a name's flags say (ll_name_index_flags). */
enum {
	LL_INDEX_DEFS_KNOWN = 1,	/* its definitions are recorded (else: units only) */
	LL_INDEX_DECLARED_STRUCT = 2,	/* some declaration of a struct or class */
	LL_INDEX_DECLARED_UNION = 4,	/* some declaration of a union */
	/*
	 * .debug_str holds the name, whole or as the tail of a longer string:
	 * a "did you mean" candidate (finder_suggest.c), as the scan would
	 * meet it there.
	 */
	LL_INDEX_IN_STR = 8,
};
/* What a definition's flags say (ll_index_def.flags). */
enum {
	/* The aggregate has no name: the entry's name is a typedef's of it. */
	LL_INDEX_DEF_NAMELESS = 1,
	/* Its words (the words of its member types) are recorded: it was built. */
	LL_INDEX_DEF_WORDS = 2,
	/*
	 * --audit's member filter (ll_member_filter) read its members; with
	 * LL_INDEX_DEF_NEEDED, one of them is a member the audit's digest
	 * reads (the audit builds it), else none is (the audit's answer
	 * needs no build: it mixes nothing). A warm --audit answers from
	 * these when every definition it asks about has them.
	 */
	LL_INDEX_DEF_FILTERED = 4,
	LL_INDEX_DEF_NEEDED = 8,
	LL_INDEX_DEF_KNOWN_FLAGS = 15,
};
#define LL_INDEX_NO_STRING UINT32_MAX
#define LL_INDEX_NO_HOLES UINT32_MAX

/*
 * One distinct definition of a name, as a lookup groups them: the first
 * DIE (in .debug_info order) of each signature, with what the signature
 * and a --list row need. The declaring file is kept raw (as the line
 * table and the unit's DW_AT_comp_dir spell it): --prefix-map and
 * --srcdir apply when it is read, so one index serves every option.
 */
struct ll_index_def {
	uint64_t die;		/* the aggregate DIE to build */
	uint64_t size;
	uint64_t members_hash;
	uint32_t unit;		/* index of the unit holding DIE */
	uint32_t tag;		/* DW_TAG_structure_type, _union_type or _class_type */
	uint32_t line;
	uint32_t nr_members;
	uint32_t file;		/* string offset, or LL_INDEX_NO_STRING: no known file */
	uint32_t comp_dir;	/* string offset, or LL_INDEX_NO_STRING */
	uint32_t holes;		/* of the built struct; LL_INDEX_NO_HOLES: never built */
	uint32_t flags;		/* LL_INDEX_DEF_* */
	/*
	 * With LL_INDEX_DEF_WORDS: the words of its member types at every
	 * depth (each ll_c_array_base_name() that is one C identifier), as
	 * NR_WORDS string offsets from WORDS on in the words section, sorted
	 * and each once. A --contains TYPE whose word is none of them
	 * matches no member: a warm one builds only the others.
	 */
	uint32_t words, nr_words;
};

/* A definition on its way into an index: strings instead of offsets. */
struct ll_index_def_src {
	struct ll_index_def d;	/* file, comp_dir and words unused */
	const char *file, *comp_dir;
	/* With LL_INDEX_DEF_WORDS: d.nr_words NUL-terminated words end to end. */
	const char *words;
	char *owned;		/* WORDS, when the entry owns it (read from an index) */
};

/* One name of an index to write; sorted by name, each name once. */
struct ll_index_entry {
	const char *name;
	uint32_t flags;
	uint32_t *units;	/* ascending */
	size_t nr_units;
	struct ll_index_def_src *defs;
	size_t nr_defs;
};

struct ll_name_index {
	int fd;			/* for the postings, read on first use; -1 when closed */
	char *path;
	struct ll_index_key key;
	void *map;		/* the file up to the postings, read-only */
	size_t map_size;
	const unsigned char *names_sec, *defs_sec, *words_sec, *strings_sec, *units_sec;
	uint32_t *postings;	/* NULL until ll_name_index_units() needs them */
	uint64_t postings_off, postings_size, postings_sum;
	const uint32_t *name_off, *post_first, *def_first, *flags;
	const char *names, *strings;
	const struct ll_index_def *defs;
	const uint32_t *words;	/* string offsets (struct ll_index_def's words) */
	const struct ll_scan_unit *units;
	uint64_t nr_names, nr_postings, nr_defs, nr_words, nr_units, info_size, strings_bytes;
};

/* Whether KEY names a file: a cache directory, a build-id that fits the header. */
bool ll_index_key_ok(const struct ll_index_key *key);

/* KEY as a cache file's header stores it (the index's, vars_cache.c's). */
struct ll_index_disk_key {
	uint64_t size, mtime_sec, mtime_nsec;	/* of the image */
	uint64_t ctime_sec, ctime_nsec, dev, ino;
	char build_id[128];			/* hex, NUL-padded */
	uint64_t info_size;
};
void ll_index_key_store(const struct ll_index_key *key, struct ll_index_disk_key *d);
/*
 * Whether D was written for KEY: NULL when it was; else why not, a phrase
 * for a note, or "" for a file of another copy of the build (as if absent:
 * copies share a build-id).
 */
const char *ll_index_key_differs(const struct ll_index_disk_key *d,
				 const struct ll_index_key *key);

/* Strings stored once each, end to end (the index's, vars_cache.c's). */
struct ll_index_strings {
	struct strbuf bytes;
	struct ll_slots at;	/* offset + 1 of each string, by content */
};
#define LL_INDEX_STRINGS_INIT { .bytes = STRBUF_INIT, .at = LL_SLOTS_INIT }
/* S's offset in T, added once; LL_INDEX_NO_STRING for NULL. */
uint32_t ll_index_strings_add(struct ll_index_strings *t, const char *s);
void ll_index_strings_release(struct ll_index_strings *t);

/* Whether an index for KEY would be written (a cache directory, an image at rest). */
bool ll_name_index_writable(const struct ll_index_key *key);

/*
 * Write KEY's index of ENTRIES (N of them) over the NR_UNITS units UNITS;
 * best effort. Then trim the cache directory to its bound (cache_dir.h).
 */
void ll_name_index_write(const struct ll_index_key *key, const struct ll_scan_unit *units,
			 size_t nr_units, const struct ll_index_entry *entries, size_t n);

/*
 * The entries of POSTINGS (a scan with by_unit, N of them, naming NAMES),
 * units only: sorted by name, into *ENTRIES, whose names point into
 * NAMES; free with ll_name_index_entries_free(). NAME_STRP (the scan's,
 * or NULL): an entry read by .debug_str offset anywhere is LL_INDEX_IN_STR.
 */
void ll_name_index_entries_from_postings(const struct ll_scan_posting *postings, size_t n,
					 char *const *names, const bool *name_strp, size_t nr_names,
					 struct ll_index_entry **entries, size_t *nr);

/*
 * ENTRIES (N of them) whose name STR (SIZE bytes: .debug_str) holds as a
 * string or the tail of one, the way ld merges string tails, marked
 * LL_INDEX_IN_STR: a name written inline (gcc's of up to 3 characters)
 * that a "did you mean" over .debug_str would meet anyway. One pass over
 * STR for every name, not a search of it per name; names of more than
 * LL_STR_TAIL_LENGTHS different lengths are searched for one by one.
 */
#define LL_STR_TAIL_LENGTHS 16
void ll_name_index_mark_str_tails(struct ll_index_entry *entries, size_t n, const char *str,
				  size_t size);

/* The entries of a loaded index (names and strings point into IX); -1 if refused. */
int ll_name_index_entries_from_index(struct ll_name_index *ix, struct ll_index_entry **entries,
				     size_t *nr, char **note);
void ll_name_index_entries_free(struct ll_index_entry *entries, size_t n);

/*
 * Load KEY's index: 1 when there is none, 0 when loaded, -1 when it was
 * refused (then *NOTE says why, owned by the caller). Only the header,
 * names, definitions, unit headers and strings are read and checked here;
 * the postings (most of the file) when first asked for.
 */
int ll_name_index_load(const struct ll_index_key *key, struct ll_name_index *ix, char **note);
void ll_name_index_release(struct ll_name_index *ix);
/* The checksum of the index file's header and sections (tests forge indexes with it). */
uint64_t ll_name_index_sum(const unsigned char *p, size_t n);

/* Index of NAME among the index's names, or -1. */
long ll_name_index_find(const struct ll_name_index *ix, const char *name);

/*
 * Whether some name of the index is within LIMIT edits of NAME
 * (ll_edit_distance_n()). Every struct or union a "did you mean" may
 * propose is a name of the index, so without one there is nothing to
 * propose, known without reading .debug_str. (An index is written only
 * for an image without qualified names, which it could not list: no
 * "ns::NAME" to propose either.)
 */
bool ll_name_index_has_near(const struct ll_name_index *ix, const char *name, size_t limit);
/*
 * FN(ARG, K, DIST) for each name K of IX within LIMIT edits of NAME, DIST
 * edits away, in the index's order, until FN returns true; returns
 * whether it did.
 */
bool ll_name_index_each_near(const struct ll_name_index *ix, const char *name, size_t limit,
			     bool (*fn)(void *arg, uint64_t k, size_t dist), void *arg);

/* Name K's definitions, in the order a lookup meets them. */
static inline const struct ll_index_def *ll_name_index_defs(const struct ll_name_index *ix,
							    long k, size_t *n)
{
	*n = ix->def_first[k + 1] - ix->def_first[k];
	return ix->defs + ix->def_first[k];
}

/* A string of the index (a def's file or comp_dir), or NULL for LL_INDEX_NO_STRING. */
static inline const char *ll_name_index_string(const struct ll_name_index *ix, uint32_t off)
{
	return off == LL_INDEX_NO_STRING ? NULL : ix->strings + off;
}

/*
 * Whether D is recorded as built, with no member whose type's word
 * (struct ll_index_def's words) is WORD.
 */
bool ll_name_index_def_lacks_word(const struct ll_name_index *ix, const struct ll_index_def *d,
				  const char *word);

/*
 * The ascending units that hold any of NAMES; owned by the caller. NULL
 * when the postings turn out damaged (then *NOTE says so).
 */
uint32_t *ll_name_index_units(struct ll_name_index *ix, const char *const *names, size_t n,
			      size_t *nr, char **note);

#endif
