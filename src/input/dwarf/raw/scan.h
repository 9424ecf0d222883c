/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A raw pre-filter over .debug_info: walk only the top-level DIEs of every
 * unit, jumping over children by DW_AT_sibling, and report those whose
 * DW_AT_name is one of the names asked for. No libdw and no allocation per
 * DIE, so it runs on several threads at once.
 *
 * It understands just enough DWARF (2-5) to skip attributes. Anything it
 * does not expect in a unit (a strx name, an unknown form, a bound it
 * would cross) marks that unit for the plain libdw walk instead, so a
 * surprise costs speed, never an answer.
 */
#ifndef LAYOUTLINT_DWARF_SCAN_H
#define LAYOUTLINT_DWARF_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "input/dwarf/raw/line_table.h"
#include "input/member_filter.h"
#include "util/hash.h"
#include "util/progress.h"

struct ll_scan_input {
	const unsigned char *info;	/* NULL when use_pread */
	size_t info_size;
	/*
	 * Read units with pread into a reused buffer instead of touching the
	 * mapping: first-touch page faults cost more than the copy, and the
	 * mapped pages would count against peak RSS for the whole image.
	 */
	bool use_pread;
	int fd;
	uint64_t info_file_offset;
	const unsigned char *abbrev;
	size_t abbrev_size;
	const unsigned char *str;
	size_t str_size;
	/*
	 * Optional: str_fd's bytes [str_file_offset, + str_size) are
	 * .debug_str's. A search of the whole section for a few names reads
	 * it from there, str_chunk bytes at a time (0: 64 KiB): the first
	 * touch of its mapping was costly here for the 4.5-6.6 MB of a
	 * vmlinux or xfs.ko (bench/RESULTS.md).
	 */
	bool str_in_file;
	int str_fd;
	uint64_t str_file_offset;
	size_t str_chunk;
	/*
	 * With STR_IN_FILE: read all of .debug_str from the file into one
	 * block (huge pages where the kernel gives them) for the scan, and
	 * search and read names there instead of in the mapping. For an
	 * ET_REL: `ld -r` keeps each object's strings apart (105 copies of
	 * "xfs_mount" in xfs.ko), so each unit's copy of a struct names its
	 * members by offsets of its own, and the walk reads names from every
	 * part of the section; in its mapping that was ~110 page faults.
	 * (A relocated image that read .debug_str into its own memory with
	 * .debug_info, as xfs.ko's does, gives the scan no STR_FD at all.)
	 */
	bool str_read_whole;
	const unsigned char *line_str;	/* for DW_AT_comp_dir in DW_FORM_line_strp */
	size_t line_str_size;
	/* Optional: unit offsets, to split the header walk between threads. */
	const unsigned char *aranges;
	size_t aranges_size;
	/* A dwz / DWARF 5 supplementary file may hold names: no shortcuts. */
	bool supplementary;
	const struct ll_progress *progress;	/* units done, from the calling thread */
	/*
	 * Stop once some unit defines a struct or union named NAMES[0]: the
	 * result then holds that definition but maybe not every other hit.
	 * Enough to confirm the closest "did you mean" candidate, which is
	 * mostly a common struct defined in the first units scanned.
	 */
	bool stop_at_first_definition;
	/*
	 * Optional: the unit headers an earlier ll_scan() of this input
	 * returned, so a second scan does not read them again.
	 */
	const struct ll_scan_unit *units;
	size_t nr_units;
	/*
	 * Optional, with UNITS: the producer verdicts by unit an earlier
	 * ll_scan() returned, which this one reads and completes.
	 */
	uint8_t *verdicts;
	/* With NAMES NULL: also record which unit holds each name (postings). */
	bool by_unit;
	/*
	 * With NAMES NULL: also read each top-level DIE whose name matches
	 * CAPTURE_GLOB into a hit, as a scan for those names would, so that a
	 * listing followed by a lookup of what it listed (--list, --audit,
	 * --contains) walks the image once. A hit's query then indexes the
	 * result's names; equal names may have several indexes.
	 */
	const char *capture_glob;
	/*
	 * With NAMES NULL, or no names at all (N 0: then the variables
	 * alone, every unit read whole): also list every top-level
	 * DW_TAG_variable whose abbreviation has a DW_AT_location (the
	 * result's variables), all the global variables walk (variables.h)
	 * can use.
	 */
	bool variables;
	/*
	 * Keep, of the definitions each thread finds, only the first of each
	 * kind, size, line, members, declaring file (as the unit's line table
	 * in LINES spells it) and compilation directory, and of the
	 * declarations only the first of each name and kind: --list meets
	 * struct file in ~1,800 units and wants one. The hits that remain
	 * hold the first definition of every signature a lookup groups, since
	 * equal fields make equal signatures. Not for --cu or --die, which
	 * want every copy.
	 */
	bool distinct;
	struct ll_line_sections lines;
	/*
	 * Optional, with DISTINCT (--audit): what the caller reads of a
	 * struct. A kept definition of C that certainly has none
	 * of those members is marked (the hit's nothing_needed), and the
	 * lookup need not build it.
	 */
	const struct ll_member_filter *member_filter;
	/*
	 * Optional, with DISTINCT (--contains TYPE: its word): each kept
	 * definition of C gets its member words (the hit's words_known, the
	 * result's words), and those that hold no member of that type at
	 * any depth are marked nothing_needed (ll_scan_words_reach()), when
	 * the scan read every unit.
	 */
	const char *contains_word;
	/*
	 * Take the units from .debug_aranges without first probing a few of
	 * their headers (guess_probes_fit()): for the tests of the scan's
	 * own recovery from a wrong guess, which a probe would spare it.
	 */
	bool unprobed_guess;
	/*
	 * Optional: scan only these unit indexes (ascending), when the walk
	 * finds ONLY_NR_UNITS units; otherwise every unit. A name index
	 * (name_index.h) says which units can hold the names asked for.
	 */
	const uint32_t *only;
	size_t nr_only, only_nr_units;
};

/*
 * Top-level DIEs of unit UNIT named NAME, an index into the scan result's
 * names. Eight bytes: a whole-image scan makes ~1.3 M of them, and each
 * fresh page of them cost a fault in the scan's threads.
 */
struct ll_scan_posting {
	uint32_t name;
	uint32_t unit;
};

/*
 * What the scan read about a hit, so that the ~1,800 identical copies of
 * struct file in a vmlinux can be compared without libdw touching each:
 * valid when has_sig.
 */
struct ll_scan_hit {
	uint64_t die;		/* .debug_info offset of the DIE */
	uint32_t query;		/* index into the names */
	/*
	 * The aggregate's tag: the DIE's, or with via_typedef its target's
	 * (DW_TAG_typedef when the scan read no further).
	 */
	uint16_t tag;
	/*
	 * A typedef of an anonymous struct or union in its unit, read through
	 * to it: AGGREGATE is its .debug_info offset, and the fields below
	 * describe it (as a lookup builds the aggregate for the name).
	 */
	bool via_typedef;
	uint64_t aggregate;
	bool declaration;	/* DW_AT_declaration: not a definition */
	/*
	 * Nothing for libdw to add: a declaration of an aggregate, or a
	 * typedef of a named type (only typedefs of anonymous aggregates
	 * name something a lookup wants).
	 */
	bool settled;
	bool has_sig;		/* every field below was read */
	uint64_t byte_size;
	uint64_t decl_line;
	uint64_t decl_file;	/* DW_AT_decl_file index */
	uint64_t members_hash;	/* as ll_finder_signature() computes it */
	uint32_t nr_members;
	uint64_t stmt_list;	/* the unit's line table */
	/* The unit's DW_AT_comp_dir, owned by the scan result; NULL if none. */
	const char *comp_dir;
	/*
	 * HAS_FILE: DECL_FILE's entry as the unit's line table gives it
	 * (ll_line_table: FILE_DIR NULL when the name stands alone) and the
	 * table's directory 0, which the scan read to tell definitions apart;
	 * they point into the line sections (or at COMP_DIR), so that the
	 * lookup need not read the table again.
	 */
	bool has_file;
	const char *file_dir, *file_name, *file_dir0;
	/*
	 * With the input's member_filter (NEEDS_READ: it was applied): no
	 * member of this definition is one the caller reads (a definition
	 * the scan was unsure of is false, and gets built).
	 */
	bool needs_read, nothing_needed;
	/*
	 * With the input's contains_word: each member type's name as
	 * --contains compares it (ll_c_array_base_name_by(), when one
	 * identifier), and the names the type passes through (arrays,
	 * typedefs, qualifiers) down to a named struct or union, with the
	 * members of the anonymous ones read in their place, at every depth:
	 * the result's words [words_at, words_at + nr_words),
	 * each an ll_scan_word() (LL_SCAN_WORD_AGGREGATE set where that name
	 * is a struct's or union's, whose own members go deeper). Unknown
	 * (false) for a definition the scan could not read so (not C, a form
	 * or reference it does not follow).
	 */
	bool words_known;
	uint32_t words_at, nr_words;
};

/* ll_scan_hit's words: a name's hash, its lowest bit the kind. */
#define LL_SCAN_WORD_AGGREGATE 1u

static inline uint64_t ll_scan_word(const char *name, bool aggregate)
{
	return (ll_fnv1a_str(LL_FNV_INIT, name) & ~(uint64_t)LL_SCAN_WORD_AGGREGATE) |
	       (aggregate ? LL_SCAN_WORD_AGGREGATE : 0);
}

/* The aggregate DIE a hit stands for: its own, or its typedef's target. */
static inline uint64_t ll_scan_hit_aggregate(const struct ll_scan_hit *h)
{
	return h->via_typedef ? h->aggregate : h->die;
}

/* A unit header as read by the scan. */
struct ll_scan_unit {
	uint64_t offset, end, first_die, abbrev_offset;
	unsigned version, addr_size, offset_size;
	unsigned reserved;	/* 0; a name index stores this struct as it is */
	/*
	 * The header's bytes (first_die - offset of them), kept so that a
	 * sparse image can be given them without reading the file again.
	 */
	unsigned char head[32];
};

/*
 * Read the unit header at .debug_info offset OFF from HDR (AVAIL bytes of
 * it) into *U, as the scan reads one: false when it is not a header the
 * scan can read (length, version, unit_type, abbrev_offset within
 * ABBREV_SIZE, the unit within INFO_SIZE).
 */
bool ll_scan_read_unit(const unsigned char *hdr, size_t avail, uint64_t off, uint64_t info_size,
		       uint64_t abbrev_size, struct ll_scan_unit *u);

/* Index of the unit among UNITS (N, in order) holding .debug_info offset OFF, or SIZE_MAX. */
static inline size_t ll_scan_unit_index(const struct ll_scan_unit *units, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (units[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && off >= units[lo].offset ? lo : SIZE_MAX;
}

/*
 * A top-level variable with a location, and its unit's .debug_info range.
 * RAW: the scan read the rest as libdw's walk (variables.c) would, so
 * that walk need not: FIXED when its location is one address, ADDR; then
 * its NAME, its TYPE as C spells it, and when it has a DW_AT_decl_file
 * (HAS_FILE) the raw path the unit's line table gives (FILE_PATH, NULL
 * when the table could not say: then RAW is false) and the unit's
 * COMP_DIR; LINE and COLUMN 0 when none. The strings are owned
 * (ll_scan_variables_free()).
 */
struct ll_scan_variable {
	uint64_t die, unit, unit_end;
	bool raw, fixed, has_file;
	uint64_t addr, file;
	unsigned line, column;
	char *name, *type, *file_path, *comp_dir;
};

/* Free V[0..N) and their strings. */
void ll_scan_variables_free(struct ll_scan_variable *v, size_t n);

/*
 * A unit's producer verdict (ll_scan_result.verdicts), once its unit DIE
 * was read: LL_VERDICT_KNOWN, with LL_VERDICT_GCC when gcc's rule holds
 * (inline names of up to offset_size - 1 characters, every longer one a
 * DW_FORM_strp), without it when no name is inline (LLVM). 0: not asked,
 * or the producer does not tell.
 */
#define LL_VERDICT_KNOWN 1
#define LL_VERDICT_GCC 2

struct ll_scan_result {
	struct ll_scan_hit *hits;	/* named DIEs, in .debug_info order */
	size_t nr_hits;
	uint64_t *fallback_units;	/* unit offsets to walk with libdw, in order */
	size_t nr_fallback;
	struct ll_scan_unit *units;	/* every unit, in order */
	size_t nr_units;
	uint8_t *verdicts;		/* by unit, owned; NULL when the input gave them */
	char **names;			/* NAMES NULL: every struct/union/typedef name, */
	size_t nr_names;		/* owned, unsorted, possibly repeated */
	/*
	 * NAMES NULL: whether names[i] was read by its .debug_str offset (so
	 * .debug_str holds it), not inline; owned, nr_names of them.
	 */
	bool *name_strp;
	struct ll_scan_posting *postings;	/* by_unit: in unit order, owned */
	size_t nr_postings;
	char **comp_dirs;		/* what the hits' comp_dir point to, owned */
	size_t nr_comp_dirs;
	/*
	 * Every unit's abbreviations were read; SCOPES: one of them has an
	 * ll_scope_tag() (scopes.h). Without one, no unit holds a qualified
	 * name.
	 */
	bool every_table_read, scopes;
	struct ll_scan_variable *variables;	/* in->variables: in order, owned */
	size_t nr_variables;
	uint64_t *words;		/* in->contains_word: the hits' words, owned */
	size_t nr_words;
};

/*
 * Marks nothing_needed each definition of R (a scan with contains_word;
 * its hits' queries index NAMES: the scan's names, or those it was
 * given) that holds no member spelled WORD ("WORD", "struct WORD",
 * "union WORD", maybe with [N]) at any depth: none of its words is WORD,
 * nor the name of a struct or union that may hold one. Over names, not
 * DIEs: a definition whose words are not known, and a struct no
 * definition names, may hold one, and so may all that hold them. How
 * many were marked.
 */
size_t ll_scan_words_reach(struct ll_scan_result *r, const char *const *names, const char *word);

/* The FNV-1a step shared by the raw and the libdw signatures. */
#define ll_sig_mix ll_fnv1a

/*
 * One member of a signature: its name, then its offsets as whole words
 * (a byte-wise FNV over 16 bytes per member was a tenth of a lookup of
 * struct task_struct, hashed in ~1,500 units).
 */
/*
 * A member's name enters the members hash as a hash of its own, so that
 * the raw scan can remember it by .debug_str offset: hashing every
 * member's name again was a third of a whole-image scan, most of it the
 * cache misses of reading the names.
 */
static inline uint64_t ll_sig_name(const char *name)
{
	return ll_fnv1a_str(LL_FNV_INIT, name ? name : "");
}

static inline uint64_t ll_sig_member_hashed(uint64_t h, uint64_t name_hash, uint64_t loc,
					    uint64_t bits)
{
	h = (h ^ name_hash) * LL_FNV_PRIME;
	h = (h ^ (h >> 31) ^ loc) * LL_FNV_PRIME;
	h = (h ^ (h >> 29) ^ bits) * LL_FNV_PRIME;
	return h ^ (h >> 32);
}

static inline uint64_t ll_sig_member(uint64_t h, const char *name, uint64_t loc, uint64_t bits)
{
	return ll_sig_member_hashed(h, ll_sig_name(name), loc, bits);
}

#define LL_SIG_INIT LL_FNV_INIT

/*
 * Scan for top-level struct/union/class/typedef DIEs named NAMES[i]; with
 * NAMES NULL, collect the names of all of them instead (no hits).
 * THREADS <= 1 scans in the caller's thread. Returns -1 only when the
 * unit headers themselves cannot be walked (then use libdw for all).
 */
int ll_scan(const struct ll_scan_input *in, const char *const *names, size_t n,
	    unsigned threads, struct ll_scan_result *out);
void ll_scan_result_release(struct ll_scan_result *r);

/*
 * Whether DIEs of unit U may refer to DIEs outside it (DW_FORM_ref_addr,
 * type signatures, supplementary files); true when its abbreviations
 * cannot be read.
 */
bool ll_scan_unit_refs_outside(const struct ll_scan_input *in, const struct ll_scan_unit *u);

/*
 * Whether every DW_CHILDREN byte of the abbreviation table at OFF in
 * .debug_abbrev (ABBREV, SIZE bytes) is 0 or 1; if not, *BAD_AT is the
 * .debug_abbrev offset of the first other one. libdw reads any byte but 1
 * as "no children", so a unit using such a table would lose its DIEs (or
 * a struct its members) without a word: its walkers refuse it instead.
 */
/*
 * The same holds for a code defined twice (each reader would pick one of
 * the two): false with *DUP_CODE set to it and *BAD_AT at its second
 * definition; *DUP_CODE is 0 when the problem is a DW_CHILDREN byte.
 */
struct ll_u64_set {
	uint64_t *bits;		/* codes below 2^16 */
	uint64_t *v;		/* larger codes */
	size_t n;
};
bool ll_abbrev_children_valid(const unsigned char *abbrev, size_t size, uint64_t off,
			      uint64_t *bad_at, uint64_t *dup_code);

#endif
