/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the parts of the DWARF reader (dwarf_reader.c, reader_*.c) share,
 * as libdw's libdwP.h is to libdw: the opened input, the memos of a build,
 * the state of a lookup, and the readers of a member's attributes, static
 * inline so that they stay inlined where they were when the reader was
 * one file. Not for use outside src/input/dwarf/.
 */
#ifndef LAYOUTLINT_DWARF_READERP_H
#define LAYOUTLINT_DWARF_READERP_H

#include "input/reader_impl.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "config.h"
#include "input/access/access.h"
#include "input/access/access_cache.h"
#include "input/dwarf/altlink.h"
#include "input/dwarf/raw/byte_cursor.h"
#include "input/dwarf/ctype_name.h"
#include "input/dwarf/dwp.h"
#include "input/elf/elf_reloc.h"
#include "input/elf/elf_section.h"
#include "input/dwarf/finder.h"
#include "input/dwarf/raw/line_table.h"
#include "input/dwarf/scopes.h"
#include "util/edit_distance.h"
#include "util/pathglob.h"
#include "input/dwarf/sparse_image.h"
#include "input/dwarf/raw/vars_cache.h"
#include "input/dwarf/variables.h"
#include "model/builder.h"
#include "util/hash.h"
#include "util/read_file.h"
#include "util/slot_table.h"
#include "util/strbuf.h"
#include "util/threads.h"

/* Bounds that keep hostile DWARF from costing unbounded work. */
#define MAX_NESTING 64
#define MAX_MEMBERS 1000000
/*
 * What all lookups of one input build together: a named struct's members
 * are built again in every struct that embeds it, so structs embedding
 * each other twice per level turn 5 KB of valid DWARF into millions of
 * members (gigabytes for --list). One member per .debug_info byte (a member
 * DIE takes several), or MEMBERS_FLOOR for small inputs: a vmlinux's
 * --list builds under 0.1 per byte.
 */
#define MEMBERS_PER_INFO_BYTE 1
#define MEMBERS_FLOOR 100000

#ifndef ELFCOMPRESS_ZSTD
#endif

/*
 * One body of DWARF a lookup searches, in this order: the file's
 * .debug_info; its .debug_types (DWARF 4 type units,
 * -fdebug-types-section); the dwz supplementary file its
 * .gnu_debugaltlink or .debug_sup names (partial units holding the types
 * dwz -m moved there, shared between binaries); the .dwo of each
 * skeleton unit (-gsplit-dwarf). A DIE offset means something only
 * together with its part.
 */
struct dwarf_part {
	struct ll_finder_source src;
	struct ll_line_sections lines;	/* raw line tables of its file; line NULL: libdw's */
	char *own_path;			/* src.path, when the part owns it */
	/*
	 * A split unit from a .dwp, which libdw does not link to its
	 * skeleton: the skeleton's line table and compilation directory.
	 */
	bool has_skeleton;
	uint64_t skeleton_stmt_list;
	char *skeleton_comp_dir;	/* owned; NULL: none */
	/* What the last listing read for the lookup after it (dwarf_list()). */
	struct ll_finder_prescan prescan;
	/*
	 * VARIABLES_KNOWN: a listing's scan read every unit, and these are all
	 * its top-level variables with a location, for reader_variables().
	 */
	bool variables_known;
	struct ll_scan_variable *variables;
	size_t nr_variables;
};

struct ll_dwarf_input {
	char *path;
	int fd;
	Elf *elf;
	Dwfl *dwfl;		/* offline session, when libdwfl found the DWARF */
	Dwarf *dwarf;		/* owned by dwfl when dwfl is set */
	bool own_dwarf;
	char *build_id;
	unsigned arch_cacheline;
	bool big_endian;	/* EI_DATA: which end DW_AT_bit_offset counts from */
	struct ll_target target;	/* whose ABI aligns base types */
	struct ll_sparse_image *image;	/* what elf reads, when .debug_info is read sparsely */
	/* What elf reads for an ET_REL relocated here: every byte real. */
	struct ll_sparse_image *relocated;
	/* Definitions by qualified name, for types only declared where used (struct decl_defs). */
	struct decl_defs *decl_defs;
	/* That image with its COMDAT .debug_info/.debug_types joined (elf_reloc.h), or NULL. */
	unsigned char *joined;
	size_t joined_size;
	struct ll_line_sections lines;	/* raw line tables, when held plainly in memory */
	char *srcdir;			/* --srcdir, absolute and normalised */
	struct ll_input_options opts;
	size_t member_budget;		/* 0 until the first lookup sets it */
	size_t members_built;
	/* What one lookup's serial builds keep between structs; NULL between lookups. */
	struct build_memo *build_memo;
	/* The name index (name_index.h): loaded on first use. */
	struct ll_name_index index;
	int index_state;		/* 0: not tried yet; 1: loaded; -1: none */
	/*
	 * An entity the index named was not what it said (a forged or stale
	 * record its checksums cannot see): the lookup is done again without
	 * the index, with one note. Set from the build threads.
	 */
	atomic_bool index_forged;
	/* What a listing leaves for the index the lookup after it writes. */
	struct ll_finder_seed seed;
	char *debug_path;		/* the file libdwfl found the DWARF in, if another */
	struct ll_alt_file alt;		/* fd -1: none */
	char *build_root;		/* the first compile unit's comp_dir, when dwz'd */
	struct dwarf_part *parts;	/* [0]: the file's .debug_info */
	size_t nr_parts;
	/* The DWARF package: BINARY itself, or BINARY.dwp beside it. */
	struct ll_dwp dwp;
	int dwp_fd;
	Elf *dwp_elf;
	bool dwp_tried;
};

struct decl_defs {
	bool tried;
	Elf *elf;		/* owned, with DWARF, when a handle of its own */
	Dwarf *dwarf;
	struct decl_def {
		char *name;
		int tag;
		uint64_t size;
		Dwarf_Off die;
		bool ambiguous;	/* another definition of the name has another size */
	} *v;
	size_t n;
};

/*
 * The attributes a build asks of one child of an aggregate, read in one
 * pass. libdw's dwarf_attr() walks the abbreviation's attribute list from
 * its start on every call, and each member was asked ~15 times, most of
 * them for attributes it lacks: a large share of the instructions of a
 * warm 20-struct lookup. The first of a repeated attribute is kept, as
 * dwarf_attr() answers. A DIE that inherits attributes (abstract origin,
 * specification) or that libdw cannot walk is asked the old way.
 */
enum {
	MA_NAME, MA_TYPE, MA_LOCATION, MA_DECL_FILE, MA_DECL_LINE, MA_DECL_COLUMN, MA_BIT_SIZE,
	MA_BYTE_SIZE, MA_DATA_BIT_OFFSET, MA_BIT_OFFSET, MA_ALIGNMENT, MA_DECLARATION,
	MA_EXTERNAL, MA_NR
};

struct member_attrs {
	Dwarf_Die *die;
	bool walked;		/* false: ask libdw for each (dwarf_attr_integrate) */
	unsigned have;		/* bit 1 << MA_x */
	Dwarf_Attribute a[MA_NR];
};

/* Display paths of one unit's file entries, resolved once each. */
struct file_cache {
	uintptr_t cu;		/* the unit DIE's address: offsets repeat between parts */
	char **paths;		/* by DW_AT_decl_file index; NULL: not resolved yet */
	bool *resolved;
	size_t n;
	/*
	 * The unit's line table, loaded at its first file: a kernel unit's
	 * lists ~1,000 files, and reading it again for each file a struct's
	 * members name was most of a warm lookup of task_struct.
	 */
	struct ll_line_table table;
	const struct ll_line_sections *table_lines;
	bool table_tried, table_ok;
};

struct type_memo;

/*
 * What one struct's build learns of each type it meets, by the DIE's
 * address (an offset repeats between .debug_info, .debug_types and a
 * supplementary file): its alignment, its C spelling and its size.
 *
 * Alignments: without the memo a hostile (or very deep) type graph is
 * walked once per path to each node: a fuzzed DAG of self-referring
 * members made that exponential. One in progress stands for a cycle and
 * counts as 1. Every type's is kept, not only an aggregate's: the same
 * typedef chains (u64, spinlock_t, atomic_t) come member after member,
 * and asking each link for DW_AT_alignment, DW_AT_type and
 * DW_AT_byte_size again was a quarter of the instructions of a warm
 * 20-struct lookup; spelling them again, an eighth.
 *
 * The memo travels with the target, whose ABI aligns the base types.
 */
enum align_state { ALIGN_UNKNOWN, ALIGN_IN_PROGRESS, ALIGN_KNOWN };

struct type_memo {
	struct type_facts {
		uint64_t die;		/* its address */
		uint64_t align;
		enum align_state align_state;
		bool explicit_align;
		bool sized;
		bool based;		/* BASE is known */
		/*
		 * ll_c_array_base_name() of the type when it is one C identifier
		 * (the word --contains compares, ll_contains_word()); NULL: none.
		 */
		char *base;
		char *spelled;		/* NULL: not yet */
		uint64_t size;
	} *v;			/* in the order met */
	size_t n;
	struct ll_slots at;	/* into v, by die */
	struct ll_target target;
	/*
	 * Where a type only declared is looked up by name (reader_resolve_decl());
	 * NULL: not in this build (one on the second thread: it fails, and
	 * is built again serially).
	 */
	const struct ll_dwarf_input *resolve_in;
	/*
	 * An alignment met a cycle or the nesting limit: what was remembered
	 * since depends on the path the build took, so the memo must not
	 * outlive the build (struct build_memo).
	 */
	bool path_dependent;
};

/*
 * What the builds of one thread keep from struct to struct while they stay
 * in one unit: its declaring files (and line table) and the facts of its
 * types. A kernel unit's structs share both, spinlock_t and list_head and
 * the unit's ~1,000 files; each build had read them all again, the line
 * table once per struct.
 */
struct build_memo {
	const void *unit;	/* the Dwarf_CU the memo is of; NULL: none yet */
	struct file_cache files;
	struct type_memo types;
};

/*
 * The words of a built struct's member types, at every depth: each
 * ll_c_array_base_name() that is one C identifier, once, sorted, as
 * NR NUL-terminated strings end to end in BLOB (owned; NULL: not known).
 * A --contains TYPE whose ll_contains_word() is none of them matches no
 * member of the struct (struct ll_query's digest_type_word), so the name
 * index keeps them and a warm --contains builds only the structs that
 * may match.
 */
struct member_words {
	char *blob;
	uint32_t nr;
};

/* What one build is asked for. */
struct build_how {
	size_t budget;		/* members it may still count */
	/*
	 * For a --list row or a digest, which read no member's declaring
	 * place: those are left out, and the aggregate's declaring file is
	 * FILE (NULL: none), as the lookup already spelled it for the
	 * candidate (a whole-image run builds a struct or two per unit, and
	 * reading each unit's line table again for that one path was a small
	 * share of its instructions).
	 */
	bool shape_only;
	const char *file;
	bool list_row;		/* a --list row: only ll_summarize() reads it */
	/*
	 * The members need no type nor path: a --list row, or a digest of a
	 * layout none of whose members' types can be spelled TYPE_WORD
	 * (ll_query's digest_type_word: a chain of arrays ending at a type of
	 * that name). Such a build is done again whole where it fails (a
	 * message names a member by its path) or where a member's type may be
	 * spelled so (reader_build_struct_budget()).
	 */
	bool lean;
	const char *type_word;
	bool resolve_decls;	/* types only declared may be resolved (reader_resolve_decl()) */
};

struct candidate {
	Dwarf_Off die;		/* the aggregate DIE, in part PART */
	size_t part;
	const char *name;	/* query name it answers */
	struct ll_finder_sig sig;
	char *file;		/* display path, for listing ambiguities */
	unsigned line;
	size_t hits;		/* CUs carrying this same definition */
	uint32_t holes;		/* of the built struct, or LL_INDEX_NO_HOLES */
	/*
	 * Once built: the words of its members' types, for the name index
	 * (struct member_words; owned). From the index: LACKS_WORD says no
	 * member's type is spelled with the query's digest_type_word, so its
	 * digest needs no build.
	 */
	struct member_words words;
	bool lacks_word;
	/*
	 * From the index, which has no words for it (never built there), for
	 * a whole-image query (--list, --contains): the run that builds it
	 * records them (reader_warm.c's fill_index()).
	 */
	bool record_words;
	bool selected;		/* one of its copies is the query's --die or in its --cu */
	/* The scan's nothing_needed, of the copy DIE: a digest needs no build. */
	bool nothing_needed;
	bool from_index;	/* named by the name index alone: checked when built */
};

/*
 * A definition as the name index keeps it: distinct by its raw declaring
 * file and compilation directory, not by the display path they make (two
 * raw paths one --prefix-map joins are two here, one candidate there).
 */
struct raw_def {
	struct ll_index_def_src def;	/* die, size, tag, line, members; strings owned */
	uint64_t file_hash;		/* of the raw file and comp_dir */
	uint32_t filtered;		/* reader_add_candidate()'s FILTERED, of this DIE */
};

/* Strings kept once each: the raw files of --list's thousands of definitions repeat. */
struct interned {
	char **strings;		/* each once, owned */
	size_t n;
	struct ll_slots at;	/* over strings[] */
};

struct query_state {
	struct candidate *cands;
	size_t nr_cands;
	bool declared;
	/* Missing, and the name index holds no name close enough to propose. */
	bool nothing_near;
	uint32_t declared_flags;	/* LL_INDEX_DECLARED_*, by the declarations' kinds */
	struct interned *capture;	/* set: collect raw_defs for the name index */
	struct raw_def *raw_defs;	/* strings in *capture */
	size_t nr_raw_defs;
};

/*
 * The display paths of one unit's files, by DW_AT_decl_file index. Hits
 * arrive unit by unit in .debug_info order, so one entry suffices; --list
 * asks about every definition of every struct, where resolving the path
 * per hit was quadratic in the number of files. The scan hands each hit's
 * entry over (has_file); the unit's line table is read here only for a
 * hit without one.
 */
struct unit_files {
	bool active;
	size_t part;
	uint64_t stmt_list;
	char **display;		/* by file index, resolved on first use */
	char **raw;		/* by file index: what display[] was made of */
	/*
	 * By file index: reader_canonical_file_hash() of raw[] against ROOT.
	 * A whole-image lookup meets many definitions per header in a unit:
	 * each header is hashed once per unit, not once per definition.
	 */
	struct file_hash_memo {
		bool known;
		const char *root;
		uint64_t hash;
	} *hashes;
	size_t n;
	const char *dir0;	/* the table's directory 0, once known */
	struct ll_line_table table;
	bool table_tried, table_ok;
};

/*
 * Across units: a raw hit's declaring file (its display path, raw path
 * and canonical hash) by the strings the scan read it as (directory,
 * name, the table's directory 0) and the root it is relative to. DWARF 5
 * units share those strings in .debug_line_str: a header met in ~1,800
 * units is resolved once, not once per unit (struct unit_files).
 */
struct file_memo {
	struct file_memo_entry {
		const char *dir, *name, *dir0, *root;
		char *display;		/* NULL: none */
		char *raw;
		uint64_t hash;
	} *v;
	size_t n;
	struct ll_slots at;	/* into v, by the four pointers */
};

void reader_file_memo_release(struct file_memo *m);

struct lookup_ctx {
	struct ll_dwarf_input *in;
	const struct ll_query *queries;
	size_t n;
	struct query_state *state;
	/* Queries by name: --list asks for thousands at once. */
	struct ll_slots first;	/* the first query of each name */
	size_t *next;		/* next query with the same name, index + 1 */
	/*
	 * By a raw hit's query (the finder's index of its name): the first
	 * query of that name + 1, 0 until asked. ~25,000 hits of ~8,600
	 * names (--audit='*'): each name hashed once, not once a hit.
	 */
	size_t *named;
	struct unit_files files;	/* of the unit the last raw hit was in */
	struct file_memo seen_files;	/* raw hits' files with has_file, any unit */
	size_t part;			/* the part being scanned */
	struct ll_finder **finder;	/* its finder, set before the first callback */
	int prepare_rc;			/* a sparse image read failed */
	struct ll_error prepare_err;
};

/* Builds above this many read most units: no unit header to skip (skip_for_few_builds()). */
#define FEW_BUILDS_MAX 512

/* A query or a build job (AT), by the DIE it builds: what goes in .debug_info order. */
struct by_die {
	uint64_t die;
	size_t at;
};

/* ---- one part's, called by another ------------------------------------ */

/* reader_open.c */
void reader_line_sections(Elf *elf, struct ll_line_sections *lines);
int ll_dwarf_input_open(const char *path, const struct ll_input_options *opts,
		 struct ll_dwarf_input **out, struct ll_error *err);
void reader_close(void *state);
const char *reader_build_id(const void *state);
unsigned reader_arch_cacheline(const void *state);

/* reader_dwo.c */
int reader_open_package(struct ll_dwarf_input *in, struct ll_error *err);
int reader_find_parts(struct ll_dwarf_input *in, struct ll_error *err);

/* reader_files.c */
char *reader_display_path(const struct ll_dwarf_input *in, const char *raw, const char *comp_dir);
uint64_t reader_canonical_file_hash(const struct ll_dwarf_input *in, const char *raw,
				    const char *comp_dir);
const char *reader_cu_comp_dir(Dwarf_Die *cu);
size_t reader_part_of(const struct ll_dwarf_input *in, Dwarf_Die *die);
void *reader_grow_zeroed(void *v, size_t old, size_t n, size_t elem);
void reader_file_cache_reset(struct file_cache *fc);
char *reader_decl_file(const struct ll_dwarf_input *in, Dwarf_Die *die, struct member_attrs *ma,
		       struct file_cache *fc);
char *reader_decl_file_raw(const struct ll_dwarf_input *in, Dwarf_Die *die, char **raw,
			   char **comp_dir);
void reader_die_decl_position(Dwarf_Die *die, struct ll_decl *d);
void reader_die_decl(const struct ll_dwarf_input *in, Dwarf_Die *die, struct file_cache *fc,
		     struct ll_decl *d);

/* reader_types.c */
bool reader_peel(Dwarf_Die *type, Dwarf_Die *out);
void reader_decl_defs_free(struct decl_defs *d);
int reader_type_size(Dwarf_Die *type, uint64_t *size, struct ll_error *err, int depth,
		     const struct type_memo *memo);
bool reader_resolve_decl(const struct type_memo *memo, Dwarf_Die *decl, Dwarf_Die *def);
struct type_facts *reader_memo_slot(struct type_memo *memo, uint64_t die);
void reader_build_memo_release(struct build_memo *memo);
void reader_build_memo_enter(struct build_memo *memo, const struct ll_dwarf_input *in,
			     Dwarf_Die *agg);
void reader_build_memo_leave(struct build_memo *memo, int rc);
uint64_t reader_aggregate_alignment(Dwarf_Die *agg, bool *explicit_align, int depth,
				    struct type_memo *memo);
uint64_t reader_type_alignment(Dwarf_Die *type, bool *explicit_align, int depth,
			       struct type_memo *memo);

/* reader_members.c */
int reader_build_struct_budget(const struct ll_dwarf_input *in, Dwarf_Die *agg,
			       const char *name, const struct build_how *how,
			       struct build_memo *memo, struct ll_struct **out, bool *unsupported,
			       size_t *members, struct member_words *words, struct ll_error *err);
int reader_build_struct(struct ll_dwarf_input *in, Dwarf_Die *agg, const char *name,
			const struct build_how *asked, struct ll_struct **out, bool *unsupported,
			struct member_words *words, struct ll_error *err);

/* reader_lookup.c */
void reader_interned_release(struct interned *t);
void reader_add_candidate(struct query_state *qs, Dwarf_Off die, size_t part, const char *name,
			  const struct ll_finder_sig *sig, char *file, bool selected, bool by_die,
			  const char *raw_file, const char *comp_dir, bool nothing_needed,
			  uint32_t filtered);
void reader_query_state_release(struct query_state *qs);
void reader_unit_files_release(struct unit_files *uf);
void reader_index_key(const struct ll_dwarf_input *in, struct ll_index_key *key);
void reader_index_queries(struct lookup_ctx *lc);
size_t reader_queries_named(const struct lookup_ctx *lc, const char *name);
void reader_on_named_die(Dwarf_Die *die, const struct ll_scan_hit *raw, const char *name,
			 void *arg);
const struct candidate *reader_pick_to_build(const struct ll_query *q, struct query_state *qs);
int reader_resolve_unbuilt(struct ll_dwarf_input *in, const struct ll_query *q,
			   struct query_state *qs, struct ll_finder **finders,
			   struct ll_lookup_result *r, struct candidate **pick);
int reader_pick_die(struct ll_dwarf_input *in, struct ll_finder **finders,
		    const struct candidate *pick, Dwarf_Die *die, struct ll_error *err);
size_t reader_settle_layout(const struct ll_query *q, struct ll_struct *layout, bool *digested);
int reader_finish_build(struct ll_dwarf_input *in, const struct ll_query *q,
			struct candidate *pick, struct ll_lookup_result *r, int build_rc,
			struct ll_struct *layout, const size_t *holes, bool unsupported,
			struct member_words *words, const struct ll_error *berr,
			struct ll_error *err);
struct build_how reader_build_how_for(const struct ll_query *q, const struct candidate *pick);
int reader_resolve_query(struct ll_dwarf_input *in, const struct ll_query *q,
			 struct query_state *qs, struct ll_finder **finders,
			 struct ll_lookup_result *r, struct ll_error *err);

/* reader_builds.c */
bool reader_builds_in_parallel(const struct ll_dwarf_input *in, size_t nr_queries,
			       size_t nr_jobs);
int reader_cmp_by_die(const void *a, const void *b);
int reader_resolve_queries(struct ll_dwarf_input *in, const struct ll_query *queries,
			   struct query_state *state, struct ll_finder **finders,
			   struct ll_lookup_result *results, size_t n, const size_t *order,
			   struct ll_error *err);

/* reader_warm.c */
size_t reader_member_budget(struct ll_dwarf_input *in);
bool reader_index_sound(const struct ll_dwarf_input *in);
struct ll_name_index *reader_index(struct ll_dwarf_input *in);
bool reader_index_name_filtered(const struct ll_name_index *ix, long k);
int reader_lookup(void *reader, const struct ll_query *queries, size_t n,
		  struct ll_lookup_result *results, struct ll_error *err);

/* reader_globals.c */
int reader_variables(void *state, struct ll_variables *out, struct ll_error *err);
bool reader_variables_alone(void *state);

/* ---- read per member by several parts: inline, as in one file --------- */

static inline int member_attr_slot(unsigned at)
{
	switch (at) {
	case DW_AT_name: return MA_NAME;
	case DW_AT_type: return MA_TYPE;
	case DW_AT_data_member_location: return MA_LOCATION;
	case DW_AT_decl_file: return MA_DECL_FILE;
	case DW_AT_decl_line: return MA_DECL_LINE;
	case DW_AT_decl_column: return MA_DECL_COLUMN;
	case DW_AT_bit_size: return MA_BIT_SIZE;
	case DW_AT_byte_size: return MA_BYTE_SIZE;
	case DW_AT_data_bit_offset: return MA_DATA_BIT_OFFSET;
	case DW_AT_bit_offset: return MA_BIT_OFFSET;
	case DW_AT_alignment: return MA_ALIGNMENT;
	case DW_AT_declaration: return MA_DECLARATION;
	case DW_AT_external: return MA_EXTERNAL;
	default: return -1;
	}
}

static inline int collect_member_attr(Dwarf_Attribute *attr, void *arg)
{
	struct member_attrs *ma = arg;
	unsigned at = dwarf_whatattr(attr);
	int slot = member_attr_slot(at);

	if (at == DW_AT_abstract_origin || at == DW_AT_specification) {
		ma->walked = false;
		return DWARF_CB_ABORT;
	}
	if (slot >= 0 && !(ma->have & (1u << slot))) {
		ma->have |= 1u << slot;
		ma->a[slot] = *attr;
	}
	return DWARF_CB_OK;
}

static inline void read_member_attrs(Dwarf_Die *die, struct member_attrs *ma)
{
	ma->die = die;
	ma->have = 0;
	ma->walked = true;
	if (dwarf_getattrs(die, collect_member_attr, ma, 0) != 1)
		ma->walked = false;
}

/* dwarf_attr() (INTEGRATE: dwarf_attr_integrate()) of the member, from MA. */
static inline Dwarf_Attribute *member_attr(struct member_attrs *ma, unsigned at, bool integrate,
					   Dwarf_Attribute *out)
{
	int slot = member_attr_slot(at);

	if (!ma->walked || slot < 0)
		return integrate ? dwarf_attr_integrate(ma->die, at, out) :
				   dwarf_attr(ma->die, at, out);
	if (!(ma->have & (1u << slot)))
		return NULL;
	*out = ma->a[slot];
	return out;
}

static inline bool member_udata(struct member_attrs *ma, unsigned at, Dwarf_Word *out)
{
	Dwarf_Attribute attr;

	return member_attr(ma, at, false, &attr) && dwarf_formudata(&attr, out) == 0;
}

static inline bool member_type(struct member_attrs *ma, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return member_attr(ma, DW_AT_type, true, &attr) && dwarf_formref_die(&attr, out) != NULL;
}

/* dwarf_decl_line() and dwarf_decl_column(), from MA. */
static inline int member_decl_int(struct member_attrs *ma, unsigned at, int *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!member_attr(ma, at, true, &attr) || dwarf_formudata(&attr, &v) != 0 || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* reader_die_decl() of a member whose attributes MA holds. */
static inline void member_decl(const struct ll_dwarf_input *in, struct member_attrs *ma,
			       struct file_cache *fc, struct ll_decl *d)
{
	int v;

	d->file = reader_decl_file(in, ma->die, ma, fc);
	d->line = member_decl_int(ma, DW_AT_decl_line, &v) == 0 && v > 0 ? (unsigned)v : 0;
	d->column = member_decl_int(ma, DW_AT_decl_column, &v) == 0 && v > 0 ? (unsigned)v : 0;
}

static inline bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	       dwarf_formref_die(&attr, out) != NULL;
}

static inline bool die_udata(Dwarf_Die *die, unsigned at, Dwarf_Word *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, at, &attr) && dwarf_formudata(&attr, out) == 0;
}

static inline bool is_aggregate_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/*
 * A child that takes room in its aggregate: a data member or (C++) a base
 * class; not a static data member (ll_static_member()), which DWARF 4
 * writes as a member too.
 */
static inline bool is_data_member(struct member_attrs *ma)
{
	int tag = dwarf_tag(ma->die);
	Dwarf_Attribute attr;

	return (tag == DW_TAG_member && !member_attr(ma, DW_AT_declaration, false, &attr) &&
		!member_attr(ma, DW_AT_external, false, &attr)) ||
	       tag == DW_TAG_inheritance;
}

static inline bool kind_matches(enum ll_query_kind want, int tag)
{
	return ll_query_kind_matches(want, tag == DW_TAG_union_type);
}

#endif
