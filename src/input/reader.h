/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reader boundary: a binary goes in, ll_struct models come out. Only
 * the reader implementations know the debug format: ll_input_open() looks
 * at the input and picks DWARF (libdw) or BTF (libbpf), see reader.c.
 *
 * Which format a file is read as:
 *  - a raw BTF blob (magic 0xeB9F, either byte order; /sys/kernel/btf/...):
 *    BTF;
 *  - an ELF file with a .BTF section and no .debug_info: BTF;
 *  - an ELF file with both: DWARF, unless prefer_btf (--btf) or btf_base
 *    (--btf-base) is set;
 *  - anything else: DWARF (which also follows build-ids and debuglinks).
 * BTF carries no declaring files or lines (decl.file stays NULL) and no
 * alignment attributes (ll_struct.alignment_inferred).
 */
#ifndef LAYOUTLINT_READER_H
#define LAYOUTLINT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/member_filter.h"
#include "model/layout.h"
#include "util/diag.h"
#include "util/progress.h"

struct ll_input;

struct ll_input_options {
	const char *srcdir;		/* make absolute declaring files relative to it */
	const char *const *prefix_maps;	/* "OLD=NEW" entries */
	size_t nr_prefix_maps;
	bool prefer_btf;		/* --btf: read .BTF even when there is DWARF */
	const char *btf_base;		/* --btf-base: base BTF for split BTF (modules);
					   implies prefer_btf */
	struct ll_progress progress;	/* long scans report here; fn NULL: silent */
	/*
	 * Where the DWARF reader keeps each image's name index
	 * (input/dwarf/raw/name_index.h); NULL: it neither reads nor writes one.
	 */
	const char *cache_dir;
	/*
	 * The caller asks for the global variables aggregates after a
	 * listing (--audit): a reader may read the variables in the
	 * listing's pass over the file.
	 */
	bool globals_next;
	/*
	 * Optional (--audit): what the queries' digests read of a struct. A definition answered without a build is not read
	 * further, and damage in it goes unseen, as it would in a lookup of
	 * another struct.
	 */
	const struct ll_member_filter *member_filter;
	/*
	 * Optional (--contains): the word the queries' digests look for
	 * (ll_query's digest_type_word, the same for every query). A
	 * reader that can tell a definition holds no member spelled so at
	 * any depth may answer it without a build, as member_filter's.
	 */
	const char *contains_word;
	/*
	 * Where the reader's notes about the input go (util/diag.h): the
	 * caller renders them with its report; NULL: printed at once.
	 */
	struct ll_notes *notes;
};

int ll_input_open(const char *path, const struct ll_input_options *opts,
		  struct ll_input **out, struct ll_error *err);
void ll_input_close(struct ll_input *in);

/*
 * A thin archive (kbuild's built-in.a) holds no object, only the paths of
 * its members: 1 with those paths (input/elf/thin_archive.h says how they
 * resolve; the caller frees each and the array) when PATH is one, 0 when
 * it is not (open it), -1 with ERR when it is one but malformed.
 */
int ll_input_archive_members(const char *path, char ***members, size_t *n,
			     struct ll_error *err);

/* Hex build-id, or NULL when the binary has none. */
const char *ll_input_build_id(const struct ll_input *in);
/* Cacheline size of the binary's architecture (not the host's). */
unsigned ll_input_arch_cacheline(const struct ll_input *in);

enum ll_query_kind {
	LL_QUERY_ANY = -1, LL_QUERY_STRUCT = LL_STRUCT, LL_QUERY_UNION = LL_UNION,
	LL_QUERY_GLOBALS = LL_GLOBALS,	/* answered from the symbol table, not the debug format */
};

/* Does a definition (a union when IS_UNION) answer a query for WANT? */
static inline bool ll_query_kind_matches(enum ll_query_kind want, bool is_union)
{
	return want == LL_QUERY_ANY ||
	       (want != LL_QUERY_GLOBALS && (want == LL_QUERY_UNION) == is_union);
}

/*
 * What else picks one of same-named distinct definitions, when their
 * declaring files cannot (two at one file and line: a .c file included by
 * two others with different #defines): the compilation unit's file, the
 * size, or the DIE offset the ambiguity error prints. DWARF only.
 */
struct ll_selector {
	const char *cu_glob;		/* --cu: a unit whose DW_AT_name matches */
	bool by_size;
	uint64_t size;			/* --size */
	bool by_die;
	uint64_t die;			/* --die: .debug_info offset of the definition */
};

struct ll_query {
	const char *name;
	enum ll_query_kind kind;
	const char *decl_glob;		/* pick among same-named definitions; NULL: none */
	const struct ll_selector *select;	/* more of that; NULL: none */
	bool no_suggestion;		/* a miss needs no "did you mean" (costs a scan) */
	/*
	 * The caller reads only the layout's kind, name, size, cacheline,
	 * decl and origin, and the result's holes (--list): a reader may
	 * then answer from its index without building the members.
	 */
	bool summary_only;
	/*
	 * Whole-image questions (--contains, --audit) print a few lines per
	 * struct: DIGEST reduces a layout to those, into DIGEST_ARG (this
	 * query's own), as soon as it is built, so that ~9,000 member trees
	 * are never all alive at once. It may run on another thread than
	 * the caller's, and touches only S and DIGEST_ARG. A reader that
	 * calls it sets the result's digested and frees the members; one
	 * that does not leaves the layout whole for the caller to digest.
	 * The members a reader digests may lack their declaring files
	 * (ll_member's decl): no whole-image question prints them.
	 */
	void (*digest)(struct ll_struct *s, void *digest_arg);
	void *digest_arg;
	/*
	 * Optional, with DIGEST: the digest reads only members whose type is
	 * spelled WORD, "struct WORD" or "union WORD", bare or followed by
	 * "[" (ll_contains_word()). A reader that can tell no member's type
	 * is spelled so may digest the layout without the members' types
	 * and paths (NULL); a layout it cannot tell of is built whole.
	 */
	const char *digest_type_word;
};

enum ll_lookup_status {
	LL_FOUND,
	LL_MISSING,		/* no definition, no declaration */
	LL_DECLARED_ONLY,	/* declared (incomplete) but never defined */
	LL_AMBIGUOUS,		/* distinct definitions and no glob picks one */
	/*
	 * A definition of a shape layoutlint does not lay out (a C++ class
	 * with a virtual base, a Rust enum, a type only declared where it is
	 * used, a layout beyond the size limit); detail says what and why.
	 */
	LL_UNSUPPORTED,
};

struct ll_lookup_result {
	enum ll_lookup_status status;
	struct ll_struct *layout;	/* LL_FOUND: owned by the caller */
	char *detail;			/* suggestion or candidate list; owned by the caller */
	/*
	 * Only for a summary_only query: the layout has no members, and
	 * HOLES is what ll_summarize() counts for the whole definition.
	 */
	bool summary;
	size_t holes;
	bool digested;			/* the query's digest ran; the layout has no members */
	bool escaped;			/* the reader escaped the layout's strings itself */
};

/*
 * Start reading both globals aggregates (the debug format's variables
 * first, here; then the symbol table, on a thread of its own) for the
 * globals queries that follow the next lookup: --audit's lookup of the
 * structs keeps one core busy, mostly. The first globals query takes what
 * the thread read, or fails as it would have alone; nothing is reported
 * here, and ll_input_close() waits for the thread.
 */
void ll_input_globals_ahead(struct ll_input *in);

/*
 * Resolve every query in one pass over the binary. results[i] answers
 * queries[i]. Returns -1 only when the binary itself is unreadable; then
 * every result is released already.
 */
int ll_input_lookup(struct ll_input *in, const struct ll_query *queries, size_t n,
		    struct ll_lookup_result *results, struct ll_error *err);

void ll_lookup_result_release(struct ll_lookup_result *r);

struct ll_access_evidence;
/*
 * --access: who loads, stores and atomically updates each of STRUCTS (N
 * structs this input's lookup built), read from the image's machine code.
 * OUT[i] receives the evidence of STRUCTS[i] (model/access.h), owned by
 * the caller. -1 with ERR when the input has no code the analyzer reads
 * (BTF, another machine, no capstone). CACHED_ONLY: only what the access
 * cache keeps (OUT[i] NULL for the rest), never an analysis or an error.
 */
int ll_input_access(struct ll_input *in, const struct ll_struct *const *structs, size_t n,
		    bool cached_only, struct ll_access_evidence **out, struct ll_error *err);
/* --audit --access: the evidence of every struct of the image, sorted (model/access.h). */
struct ll_access_image;
int ll_input_access_all(struct ll_input *in, struct ll_access_image *out, struct ll_error *err);

/*
 * Every name the binary gives a struct, union or typedef, sorted, each
 * once (a typedef may name a non-aggregate: look the names up to know).
 * The caller frees each name and the array. LOOKUP_GLOB (or NULL): the
 * names the caller looks up next, in one ll_input_lookup() of kind
 * LL_QUERY_ANY; a reader may read their definitions in the same pass
 * and answer that lookup from what it kept.
 */
int ll_input_list(struct ll_input *in, const char *lookup_glob, char ***names, size_t *n,
		  struct ll_error *err);

#endif
