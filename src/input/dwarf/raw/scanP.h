/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the parts of the raw scan (scan_*.c) share, as libdw's libdwP.h is
 * to libdw: the abbreviation tables, the targets, a worker's state, and
 * the small readers every part calls per DIE, static inline so that they
 * stay inlined where they were when the scan was one file.
 * Not for use outside src/input/dwarf/raw/.
 */
#ifndef LAYOUTLINT_RAW_SCANP_H
#define LAYOUTLINT_RAW_SCANP_H

#include "input/dwarf/raw/scan.h"

#include <dwarf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "input/dwarf/raw/byte_cursor.h"
#include "input/dwarf/raw/languages.h"
#include "input/dwarf/raw/type_spelling.h"
#include "util/hash.h"
#include "util/huge_page.h"
#include "util/pathglob.h"
#include "util/read_file.h"
#include "util/slot_table.h"
#include "util/strbuf.h"

#define MAX_ABBREV_CODE (1u << 16)
#define MAX_ATTRS 256

struct abbrev {
	uint16_t tag;
	bool children;
	bool present;
	bool wanted;		/* a tag whose name the scan checks */
	uint16_t nr_attrs;
	uint32_t first;		/* index into the spec arrays */
	/*
	 * Shortcuts for DIEs the scan only steps over: -1 unless every form
	 * before the attribute (or in the whole DIE) has a fixed size.
	 */
	int32_t fixed_size;
	int32_t sibling_at;
	uint16_t sibling_form;
	int32_t name_strp_at;	/* the first DW_AT_name, when a DW_FORM_strp */
	bool located;		/* a DW_TAG_variable with a DW_AT_location */
	/*
	 * The fields from fixed_size on are planned at the first DIE that
	 * uses the abbreviation (planned_abbrev()): a top-level walk meets a
	 * fraction of a unit's ~140 codes, and planning all of them was a
	 * third of loading the ~1,800 tables a lookup of struct file reads.
	 */
	bool planned;
	/*
	 * For scan_hash_members(), which reads every member of every definition
	 * (most of a --list='*' scan): a DIE of fixed size with each of what
	 * it reads at most once and at a fixed place, read there at once.
	 * Or the same after an inline name (Q_INLINE_NAME): gcc writes a
	 * name of up to 3 characters as a DW_FORM_string, first, and ~9% of
	 * a kernel's members took the attribute walk for that alone. The
	 * places are then counted from the byte after the name's NUL.
	 */
	bool quick_child;
	bool q_inline_name;
	uint32_t q_bytes;	/* the fixed bytes (after an inline name) */
	struct quick_const {
		int32_t at;	/* -1: absent */
		uint8_t size;	/* 0: DW_FORM_implicit_const, VALUE */
		int64_t value;
	} q_loc, q_bits;
	int32_t q_name_at;	/* a member's DW_FORM_strp name; -1: absent */
	int32_t q_sibling_at;	/* a unit-relative DW_FORM_refN sibling; -1: none */
	uint8_t q_sibling_size;
	/*
	 * For capture_aggregate(), the same for a struct, union or class
	 * (~10^6 read in a --list='*' scan): size, line and file once each
	 * at fixed places, nothing that makes libdw integrate another DIE.
	 */
	bool quick_aggregate;
	bool q_named;		/* has a DW_AT_name, of any form */
	struct quick_const q_byte_size, q_line, q_file;
};

struct abbrev_table {
	struct abbrev *by_code;
	size_t nr_codes;
	size_t codes_used;	/* the highest code loaded, plus one: what to clear */
	uint16_t *attr;
	uint16_t *form;
	int64_t *implicit;	/* DW_FORM_implicit_const values, by spec */
	size_t nr_specs, cap_specs;
	uint64_t offset;	/* .debug_abbrev offset it was read from */
	unsigned addr_size, offset_size, version;	/* form sizes depend on these */
	bool valid;
	bool names_inline;	/* some wanted DIE may carry its name as DW_FORM_string */
	bool names_hidden;	/* ... or in a form whose bytes are not the .debug_str offset */
	bool scopes;		/* some entry has an ll_scope_tag() */
};

/* What the scan looks for: string offsets of the names, and the names. */
struct targets {
	uint32_t *list;		/* every candidate offset, for the byte filter */
	uint8_t *anchor;	/* by list entry: its rarest byte in DIE bytes (0-3) */
	size_t nr_list;
	uint64_t *offsets;	/* every candidate offset once, in no order */
	uint32_t *offset_name;	/* by offsets entry: its index in names */
	size_t nr_offsets;
	struct ll_slots by_offset;	/* into offsets */
	const char *const *names;
	size_t n;
	struct ll_slots by_name;	/* into names, by content */
	size_t shortest;	/* length of the shortest name */
	bool collect_all;	/* every named struct/union/typedef, not NAMES */
	/*
	 * Every unit read whole, none skipped or cut short by the names'
	 * bytes: collect_all, or the input's variables (which any unit may
	 * hold, with no names at all).
	 */
	bool whole_units;
	/*
	 * NAMES are distinct and at most 64: a unit's walk may stop once it
	 * has met a definition of each (scan_unit()).
	 */
	bool stop_when_defined;
};

/* Bytes of a unit DIE this reads ahead of deciding whether to read the unit. */
#define UNIT_HEAD 512

/* The first bytes of a unit DIE, read with the unit header. */
struct unit_die_head {
	unsigned char bytes[UNIT_HEAD];
	size_t len;
};

/*
 * in->distinct: what makes two hits of one thread the same, as far as a
 * lookup can tell them apart (finer than its signature, so that the first
 * of each signature is always kept). Strings point into the debug
 * sections, or into the worker's comp_dirs.
 */
struct distinct_key {
	uint64_t hash, size, line, members_hash;
	uint32_t query, nr_members;
	uint16_t tag;
	bool via_typedef, declaration;
	const char *dir, *name, *comp_dir, *dir0;
};

struct distinct {
	struct distinct_key *keys;
	size_t nr_keys;
	struct ll_slots at;	/* over keys, by their hash */
	/* scan_keep_distinct()'s: one unit's hits' keys, before they are probed */
	struct distinct_key *pending;
	bool *pending_keyed;
	size_t cap_pending;
};

/* What every hit of one unit shares. */
struct unit_info {
	const struct ll_scan_unit *unit;	/* NULL: none read yet */
	bool ok;
	uint64_t stmt_list;
	const char *comp_dir;			/* in worker.comp_dirs */
};

/*
 * A member name's ll_sig_name() by its .debug_str offset, direct-mapped:
 * 2^15 slots (512 KiB) held ~all the names a thread meets again in the
 * members of the 6.12 image's ~1.3 M definitions. A lookup of a few names
 * reads far fewer members, and each zeroed page costs a fault: 2^11.
 */
#define NAME_MEMO_BITS_ALL 15
#define NAME_MEMO_BITS_FEW 11

struct name_memo {
	uint64_t off1;			/* offset + 1; 0: empty */
	uint64_t hash;
};

/*
 * The members hash of a definition by what its members' DIEs hold: each
 * name as its .debug_str offset (one section, so one offset is one
 * string), its location and bit offset. Every copy of a header's struct
 * in every unit has the same offsets, so only the first copy a thread
 * meets has its names' hashes looked up one by one (strp_name_hash(), a
 * cache miss each: a tenth of a whole-image scan's CPU).
 */
struct members_memo {
	struct members_memo_entry {
		uint64_t raw;		/* hash of the offsets */
		uint64_t members_hash;
		uint32_t nr;		/* members */
	} *v;
	size_t n;
	struct ll_slots at;	/* into v, by raw and nr */
	size_t last;		/* the entry met last: its successor is the guess */
};

/* A .debug_str offset whose name a collect_all scan has: names[id]. */
struct seen_name {
	uint64_t off;
	uint32_t id;
	bool captured;			/* the name matches in->capture_glob */
};

/*
 * A run of consecutive units of the work, taken whole by whichever worker
 * is free, and where that worker's results for it went: the results are
 * merged in chunk order, so they come out in unit order however the
 * chunks were shared.
 */
struct chunk {
	size_t first, last;		/* work indexes [first, last) */
	unsigned worker;
	size_t hits, nr_hits;		/* the worker's hits [hits, hits + nr_hits) */
	size_t posts, nr_posts;
	size_t fallback, nr_fallback;
	size_t vars, nr_vars;
	size_t words, nr_words;		/* the worker's words [words, words + nr_words) */
};

/* Chunks per thread: enough that the last one to finish waits little. */
#define CHUNKS_PER_THREAD 128

/*
 * The last producer string inline_name_max() judged, and its verdict: a
 * vmlinux's units share a few producers, each one .debug_str string, and
 * judging one is two strstr() over ~300 bytes.
 */
struct producer_memo {
	const char *producer;	/* NULL: none yet */
	size_t max;
	bool strp_names;
};

#define WORD_CHAIN_MAX 4
/*
 * Both memos below are keyed by DIE, so they only ever hit within one
 * unit: small enough to stay in cache beside the unit's bytes. Larger,
 * their probes missed it, most of the member filter's time
 * (bench/RESULTS.md).
 */
#define WORD_CHAIN_SLOTS 512
#define NEED_MEMO_SLOTS 256

struct worker {
	const struct ll_scan_input *in;
	unsigned id;
	struct chunk *chunks;		/* shared; each written by the worker that took it */
	size_t nr_chunks;
	atomic_size_t *next_chunk;	/* shared */
	const struct unit_die_head *dies;	/* by unit, or NULL */
	const unsigned char *ub;	/* bytes of the unit being scanned */
	uint64_t ub_off;		/* .debug_info offset of ub[0] */
	unsigned char *buf;		/* pread buffer, reused across units */
	size_t buf_size;
	size_t largest_unit;		/* of the work: what buf is made for */
	const struct targets *targets;
	const struct ll_scan_unit *units;
	/*
	 * With units guessed from .debug_aranges (scan_units_from_aranges()):
	 * the same array, whose headers the worker reads with each unit's
	 * bytes; a range that is not one unit sets *WRONG_GUESS and stops.
	 */
	struct ll_scan_unit *guessed;
	atomic_bool *wrong_guess;
	uint8_t *verdicts;		/* by unit, shared: each worker writes its chunks' */
	struct ll_scan_hit *hits;
	size_t nr_hits, cap_hits;
	uint64_t *fallback;
	size_t nr_fallback, cap_fallback;
	struct abbrev_table abbrevs;
	size_t lead;			/* scan_names_end()'s first needle: the last to lead */
	atomic_size_t *units_done;	/* shared by all workers */
	atomic_bool *stop;		/* shared: a wrong guess gave the scan up */
	/*
	 * Shared: the lowest unit where in->stop_at_first_definition was met
	 * (SIZE_MAX: none yet). Units past it are not read; those before it
	 * all are, so that the first definition is the same on any thread.
	 */
	atomic_size_t *first_defined;
	size_t nr_units;
	bool report;			/* this worker runs in the caller's thread */
	/* collect_all: the distinct names seen, as .debug_str offsets or copies */
	struct seen_name *seen;		/* in the order met */
	size_t nr_seen;
	struct ll_slots seen_at;	/* into seen, by offset */
	size_t seen_last;		/* the seen name met last: its successor is the guess */
	char **names;
	size_t nr_names, cap_names;
	struct ll_scan_posting *posts;	/* in->by_unit */
	size_t nr_posts;
	uint32_t unit;			/* index of the unit being scanned */
	const uint32_t *only;		/* in->only, or NULL */
	struct distinct distinct;	/* in->distinct */
	struct unit_info info;		/* of the last unit a hit needed it for */
	char **comp_dirs;		/* owned until the result takes them */
	size_t nr_comp_dirs;
	struct name_memo *name_memo;	/* allocated at the first member name */
	size_t name_memo_mask;
	struct members_memo members_memo;
	struct producer_memo producer_memo;	/* inline_name_max()'s */
	struct ll_scan_variable *vars;	/* in->variables */
	size_t nr_vars;
	uint64_t *words;		/* in->contains_word: the kept hits' words */
	size_t nr_words;
	/*
	 * A member type's words, by DIE (.debug_info offset + 1), where its
	 * chain met no anonymous aggregate and gave at most WORD_CHAIN_MAX.
	 */
	struct word_chain {
		uint64_t key1;
		uint8_t n;
		uint64_t words[WORD_CHAIN_MAX];
	} *chains;
	/* The member filter's answer for a named member's type, by DIE (+ 1). */
	struct need_memo {
		uint64_t key1;
		bool needed;
	} *needs;
	/* Types the variables' reading spelled, by DIE: a unit's variables share them. */
	struct spelled_type {
		uint64_t die1;		/* .debug_info offset + 1; 0: empty */
		char *text;
	} *spelled;
	size_t nr_tables_read;		/* units whose abbreviations were read */
	bool scopes;			/* ... and any of them had a scope tag */
	bool defined_every_name;	/* scan_unit() stopped at the last definition */
	/* Bytes of the unit at ub_off that buf already holds (scan_prefix()). */
	size_t loaded_head;
	/* scan_prefix(): heads walked, and those that were enough. */
	size_t prefix_tries, prefix_wins;
};

enum members_read { MEMBERS_BAD, MEMBERS_READ, MEMBERS_NOT_RAW };

#define SPELLED_SLOTS 512

/* One unit's line table, loaded for the first definition that needs it. */
struct unit_lines {
	bool tried, ok;
	struct ll_line_table table;
	uint64_t *file_hash;	/* by file index, 0: not yet */
	const char *comp_dir;	/* the hits', which the table borrows */
	uint64_t dir_hash;
};

enum filter_verdict { UNIT_SKIP, UNIT_SCAN, UNIT_ASK_ABBREVS };

/* The unit headers of .debug_info [from, to), as one thread reads them. */
struct unit_walk {
	const struct ll_scan_input *in;
	uint64_t from, to;
	bool keep_dies;		/* also the unit DIEs' first bytes */
	struct ll_scan_unit *units;
	struct unit_die_head *dies;
	size_t nr, cap;
	bool ok;		/* read, and the last unit ends exactly at TO */
};

/* ---- one part's, called by another ------------------------------------ */

/* scan_abbrev.c */
bool scan_read_unit(const unsigned char *hdr, size_t avail, uint64_t off, uint64_t info_size,
		    uint64_t abbrev_size, struct ll_scan_unit *u);
void scan_plan_abbrev(const struct abbrev_table *t, struct abbrev *a,
		      const struct ll_scan_unit *u);
void scan_abbrev_table_release(struct abbrev_table *t);
bool scan_load_abbrevs(const struct ll_scan_input *in, const struct ll_scan_unit *u,
		       struct abbrev_table *t);

/* scan_targets.c */
const unsigned char *scan_find_string(const unsigned char *p, const unsigned char *end,
				      const unsigned char *needle, size_t len);
void scan_build_targets(const struct ll_scan_input *in, const char *const *names, size_t n,
			struct targets *t);
void scan_release_targets(struct targets *t);

/* scan_die.c */
bool scan_current_unit_info(struct worker *w, const struct ll_scan_unit *u);
void scan_push_fallback(struct worker *w, uint64_t unit);
bool scan_skip_children(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c);

/*
 * Moves C to the DIE at SIBLING (a .debug_info offset), which must lie
 * past C and inside unit U: a DW_AT_sibling that points back would loop.
 */
static inline bool jump_to_sibling(const struct worker *w, const struct ll_scan_unit *u,
				   struct ll_cursor *c, uint64_t sibling)
{
	if (sibling <= w->ub_off + (uint64_t)(c->p - w->ub) || sibling > u->end)
		return false;
	c->p = w->ub + (sibling - w->ub_off);
	return true;
}
bool scan_unit(struct worker *w, const struct ll_scan_unit *u, size_t names_end);

/* scan_members.c */
enum members_read scan_hash_members(struct worker *w, const struct ll_scan_unit *u,
				    struct ll_cursor *c, struct ll_scan_hit *h, bool raw);
void scan_members_memo_add(struct members_memo *m, uint64_t raw, uint32_t nr,
			   uint64_t members_hash);

/* scan_variables.c */
void scan_drop_variable_strings(struct ll_scan_variable *v, size_t n);
bool scan_nothing_needed(struct worker *w, const struct ll_scan_unit *u,
			 const struct ll_scan_hit *h);
void scan_member_words(struct worker *w, const struct ll_scan_unit *u, struct ll_scan_hit *h);
void scan_read_variable(struct worker *w, const struct ll_scan_unit *u,
			struct ll_scan_variable *v);

/* scan_distinct.c */
void scan_distinct_release(struct distinct *d);
bool scan_unit_lines_load(struct worker *w, struct unit_lines *ul, uint64_t stmt_list,
			  const char *comp_dir);
void scan_unit_lines_release(struct unit_lines *ul);
void scan_keep_distinct(struct worker *w, const struct ll_scan_unit *u, struct unit_lines *ul,
			size_t from);
void scan_variable_files(struct worker *w, const struct ll_scan_unit *u,
			 struct unit_lines *ul, size_t from);

/* scan_unit_filter.c */
bool scan_unit_may_hold_inline(struct worker *w, size_t i);
void scan_choose_anchors(const struct ll_scan_input *in, struct targets *t);
size_t scan_names_end(const struct targets *t, const unsigned char *p, size_t n,
		      size_t inline_max, size_t *lead);
enum filter_verdict scan_filter_unit(struct worker *w, size_t i, const unsigned char *p,
				     size_t n, size_t *inline_max, size_t *end);
size_t scan_may_contain(struct worker *w, const unsigned char *p, size_t n, size_t inline_max);
bool scan_load_unit(struct worker *w, const struct ll_scan_unit *u);
bool scan_settle_guessed(struct worker *w, size_t i);
/*
 * With in->stop_at_first_definition, when the unit being read (w->unit)
 * defines NAMES[0] in its hits from FIRST on: *first_defined lowered to it.
 */
void scan_note_first_definition(struct worker *w, size_t first);
bool scan_prefix(struct worker *w, size_t i, const struct ll_scan_unit *u);

/* scan_threads.c */
bool scan_units_from_aranges(const struct ll_scan_input *in, struct unit_walk *out);
bool scan_walk_units(const struct ll_scan_input *in, bool keep_dies, unsigned threads,
		     struct unit_walk *out);
int scan_walked(const struct ll_scan_input *in, struct targets *targets,
		struct unit_walk *walk, bool guessed, unsigned threads,
		struct ll_scan_result *out);

/* ---- read per DIE by several parts: inline, as in one file ------------ */

static inline bool is_aggregate(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/*
 * Whether the scan reads unit U's address-sized forms itself: only the
 * sizes libdw reads as its header says, 4 and 8. libdw 0.188 reads a
 * DW_FORM_addr of a unit that says 2 (a size DWARF allows) as 8 bytes,
 * so the two walks met different DIEs (fuzz_scan_diff); any other size
 * is libdw's to read or refuse, never this scan's guess.
 */
static inline bool scan_address_size_ok(const struct ll_scan_unit *u)
{
	return u->addr_size == 4 || u->addr_size == 8;
}

/* The abbreviation CODE of table T, planned; NULL when T has none. */
static inline const struct abbrev *planned_abbrev(const struct abbrev_table *t, uint64_t code)
{
	if (code >= t->nr_codes || !t->by_code[code].present)
		return NULL;
	struct abbrev *a = &t->by_code[code];

	if (!a->planned) {
		const struct ll_scan_unit u = { .addr_size = t->addr_size,
						.offset_size = t->offset_size,
						.version = t->version };

		scan_plan_abbrev(t, a, &u);
	}
	return a;
}

/*
 * The abbreviation of the DIE at C, C moved past its code in *CODE; NULL
 * for a null entry (*CODE 0 and C not bad), damage, or a code T lacks.
 */
static inline const struct abbrev *next_abbrev(const struct abbrev_table *t, struct ll_cursor *c,
					       uint64_t *code)
{
	*code = ll_uleb(c);
	return c->bad ? NULL : planned_abbrev(t, *code);
}

/* Skip one attribute value; false for a form this scanner does not know. */
static inline bool skip_form(struct ll_cursor *c, unsigned form, const struct ll_scan_unit *u,
			     int depth)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return true;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		ll_skip(c, 1); return true;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		ll_skip(c, 2); return true;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		ll_skip(c, 3); return true;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		ll_skip(c, 4); return true;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		ll_skip(c, 8); return true;
	case DW_FORM_data16:
		ll_skip(c, 16); return true;
	case DW_FORM_addr:
		ll_skip(c, u->addr_size); return true;
	case DW_FORM_ref_addr:
		ll_skip(c, u->version <= 2 ? u->addr_size : u->offset_size); return true;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		ll_skip(c, u->offset_size); return true;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
	case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		ll_skip_leb(c); return true;
	case DW_FORM_string: {
		const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));

		if (!nul) {
			c->bad = true;
			return false;
		}
		c->p = nul + 1;
		return true;
	}
	case DW_FORM_block1:
		ll_skip(c, ll_fixed(c, 1)); return true;
	case DW_FORM_block2:
		ll_skip(c, ll_fixed(c, 2)); return true;
	case DW_FORM_block4:
		ll_skip(c, ll_fixed(c, 4)); return true;
	case DW_FORM_block: case DW_FORM_exprloc:
		ll_skip(c, ll_uleb(c)); return true;
	case DW_FORM_indirect:
		if (depth > 4)
			return false;
		return skip_form(c, (unsigned)ll_uleb(c), u, depth + 1);
	default:
		return false;
	}
}

static inline bool find_offset(const struct targets *t, uint64_t off, uint32_t *name)
{
	const struct ll_slots *by = &t->by_offset;
	size_t i;

	for (size_t at = ll_slots_first(by, ll_hash_u64(off)); (i = ll_slots_get(by, at));
	     at = ll_slots_next(by, at))
		if (t->offsets[i - 1] == off) {
			*name = t->offset_name[i - 1];
			return true;
		}
	return false;
}

/*
 * Every place "NAME\0" occurs in .debug_str is a string offset a DIE may
 * use: the linker merges string tails, so "file" may live only as the end
 * of "profile".
 */
/* Names by content, for inline names and for finding many names at once. */
static inline uint64_t str_hash(const char *s, size_t n)
{
	return ll_sig_mix(LL_SIG_INIT, s, n);
}

/* Index of the name S[0..n) among the targets, or -1. */
static inline long name_index(const struct targets *t, const char *s, size_t n)
{
	const struct ll_slots *by = &t->by_name;
	size_t i;

	for (size_t at = ll_slots_first(by, str_hash(s, n)); (i = ll_slots_get(by, at));
	     at = ll_slots_next(by, at)) {
		const char *cand = t->names[i - 1];

		if (strncmp(cand, s, n) == 0 && cand[n] == '\0')
			return (long)i - 1;
	}
	return -1;
}

/* A constant attribute value; false (nothing read) for non-constant forms. */
static inline bool read_const(struct ll_cursor *c, unsigned form, uint64_t *v)
{
	switch (form) {
	case DW_FORM_data1: *v = ll_fixed(c, 1); break;
	case DW_FORM_data2: *v = ll_fixed(c, 2); break;
	case DW_FORM_data4: *v = ll_fixed(c, 4); break;
	case DW_FORM_data8: *v = ll_fixed(c, 8); break;
	case DW_FORM_udata: *v = ll_uleb(c); break;
	default: return false;
	}
	return !c->bad;
}

/* The constant of attribute spec SPEC of T: in the DIE, or in the abbreviation. */
static inline bool read_const_spec(struct ll_cursor *c, const struct abbrev_table *t, uint32_t spec,
				   uint64_t *v)
{
	if (t->form[spec] == DW_FORM_implicit_const) {
		*v = (uint64_t)t->implicit[spec];	/* as dwarf_formudata() gives it */
		return true;
	}
	return read_const(c, t->form[spec], v);
}

/*
 * A unit-relative reference; false (nothing read) for other forms. Their
 * codes are consecutive in every DWARF version: ref1, ref2, ref4, ref8
 * (1 << 0 to 1 << 3 bytes), then ref_udata.
 */
_Static_assert(DW_FORM_ref2 == DW_FORM_ref1 + 1 && DW_FORM_ref4 == DW_FORM_ref1 + 2 &&
	       DW_FORM_ref8 == DW_FORM_ref1 + 3 && DW_FORM_ref_udata == DW_FORM_ref1 + 4,
	       "the reference forms are consecutive");
static inline bool read_ref(struct ll_cursor *c, unsigned form, uint64_t *v)
{
	if (form < DW_FORM_ref1 || form > DW_FORM_ref_udata)
		return false;
	*v = form == DW_FORM_ref_udata ? ll_uleb(c) : ll_fixed(c, 1u << (form - DW_FORM_ref1));
	return !c->bad;
}

/* A string attribute: inline, or in .debug_str / .debug_line_str. */
static inline const char *read_string(const struct ll_scan_input *in, const struct ll_scan_unit *u,
				      struct ll_cursor *c, unsigned form)
{
	const unsigned char *base;
	size_t size;
	uint64_t off;

	if (form == DW_FORM_string) {
		const char *s = (const char *)c->p;

		return skip_form(c, form, u, 0) ? s : NULL;
	}
	if (form == DW_FORM_strp) {
		base = in->str;
		size = in->str_size;
	} else if (form == DW_FORM_line_strp) {
		base = in->line_str;
		size = in->line_str_size;
	} else {
		return NULL;
	}
	off = ll_fixed(c, u->offset_size);
	/* A section that ends in a NUL holds one after every offset in it. */
	if (c->bad || !base || off >= size ||
	    (base[size - 1] != 0 && !memchr(base + off, 0, size - off)))
		return NULL;
	return (const char *)base + off;
}

/* N (1, 2, 4 or 8) bytes at P, little endian, which the caller knows are there. */
static inline uint64_t load_fixed(const unsigned char *p, unsigned n)
{
	struct ll_cursor c = { p, p + n, false };

	return ll_fixed(&c, n);
}

static inline uint64_t quick_const_value(const unsigned char *fixed, const struct quick_const *q)
{
	return q->size ? load_fixed(fixed + q->at, q->size) : (uint64_t)q->value;
}

static inline uint64_t members_memo_hash(uint64_t raw, uint32_t nr)
{
	return ll_hash_u64(raw ^ nr);
}

/*
 * The members hash M remembers for the offsets' hash RAW of NR members.
 * Units define their headers' structs in the same order: the entry after
 * the one met last is tried first, as collect_name() does for names.
 */
static inline bool members_memo_find(struct members_memo *m, uint64_t raw, uint32_t nr,
				     uint64_t *members_hash)
{
	size_t i = m->last + 1;

	if (i < m->n && m->v[i].raw == raw && m->v[i].nr == nr) {
		m->last = i;
		*members_hash = m->v[i].members_hash;
		return true;
	}
	for (size_t at = ll_slots_first(&m->at, members_memo_hash(raw, nr));
	     (i = ll_slots_get(&m->at, at)); at = ll_slots_next(&m->at, at))
		if (m->v[i - 1].raw == raw && m->v[i - 1].nr == nr) {
			m->last = i - 1;
			*members_hash = m->v[i - 1].members_hash;
			return true;
		}
	return false;
}

/*
 * scan_hash_members() of the children at C into H, through the thread's
 * members_memo: read by offsets first, and only a definition whose
 * offsets the thread has not met has its names' hashes looked up (then it
 * is remembered). The same answer either way: equal offsets are equal
 * names, and whatever the offsets' reading cannot take (a member named
 * another way) takes the names' reading.
 */
static inline bool members_of(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
			      struct ll_scan_hit *h)
{
	struct ll_cursor start = *c;
	enum members_read by_offsets = scan_hash_members(w, u, c, h, true);
	uint64_t raw = h->members_hash;

	if (by_offsets == MEMBERS_BAD)
		return false;
	if (by_offsets == MEMBERS_READ &&
	    members_memo_find(&w->members_memo, raw, h->nr_members, &h->members_hash))
		return true;
	*c = start;
	if (scan_hash_members(w, u, c, h, false) != MEMBERS_READ)
		return false;
	if (by_offsets == MEMBERS_READ)
		scan_members_memo_add(&w->members_memo, raw, h->nr_members, h->members_hash);
	return true;
}

#endif
