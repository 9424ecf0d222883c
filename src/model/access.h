/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Static access evidence (--access): who loads, stores and atomically
 * updates each member of a struct, read from the binary's own machine code
 * by an analyzer in input/access/. This file knows nothing of machine code
 * or DWARF: an ll_access_evidence is a list of records, one per
 * instruction and direction, each at a byte range of the struct; the
 * functions below map them onto a model's members, decide which stores
 * are initialisation (constructors), and summarise them for the checks and
 * the reporters.
 *
 * Ownership: an ll_access_evidence owns its records and every string they
 * point to (interned: records share them). A struct's model borrows its
 * evidence (ll_struct.access); the caller keeps it alive as long.
 */
#ifndef LAYOUTLINT_ACCESS_H
#define LAYOUTLINT_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/layout.h"

enum ll_access_kind {
	LL_ACCESS_KIND_LOAD,
	LL_ACCESS_KIND_STORE,
	/* a locked read-modify-write (lock prefix, xchg, cmpxchg): not counted as a load or store */
	LL_ACCESS_KIND_ATOMIC,
	LL_NR_ACCESS_KINDS
};

/* One instruction touching bytes [offset, offset + width) of the struct. */
struct ll_access_record {
	uint64_t offset;		/* bytes from the start of the struct */
	uint32_t width;			/* bytes the instruction reads or writes */
	enum ll_access_kind kind;	/* a plain read-modify-write is two records */
	const char *function;		/* whose code: the inlined function when inlined */
	const char *inlined_into;	/* the out-of-line function it was inlined into, or NULL */
	const char *file;		/* the instruction's source file, or NULL */
	unsigned line;			/* 0 if unknown */
	/* The code is initialisation text (the kernel's .init.text). */
	bool init_text;
};

struct ll_access_evidence {
	char *name;			/* the struct's name */
	uint64_t size;			/* its size, to tell a same-named other apart */
	bool is_union;
	struct ll_access_record *v;
	size_t n;
	/*
	 * Coverage: of the memory operands (stack and instruction-pointer
	 * relative ones aside) in the functions that touch the struct, how
	 * many the analyzer could type (as perf's --type-stat counts).
	 */
	uint64_t operands;
	uint64_t typed;
	size_t functions;		/* out-of-line functions that touch the struct */
	/* What could not be read: functions without code or DWARF, bad code. */
	uint64_t skipped_functions;
	uint64_t undecoded_bytes;
	/* The interned strings, owned, and their lookup table. */
	char **strings;
	size_t nr_strings;
	struct ll_intern_table *intern;
};

void ll_access_evidence_free(struct ll_access_evidence *e);

/* The evidence of many structs of one image (--audit --access), owned. */
struct ll_access_image {
	struct ll_access_evidence **v;
	size_t n;
};

void ll_access_image_release(struct ll_access_image *img);
/* Sort IMG for ll_access_image_find(). */
void ll_access_image_sort(struct ll_access_image *img);
/* The evidence of struct (or union) NAME of SIZE bytes in the sorted IMG, or NULL. */
const struct ll_access_evidence *ll_access_image_find(const struct ll_access_image *img,
						      const char *name, uint64_t size,
						      bool is_union);
/* S, interned in E: the same pointer for the same text. */
const char *ll_access_intern(struct ll_access_evidence *e, const char *s);

/*
 * Which stores are initialisation: a function (or the function it was
 * inlined into) matching one of GLOBS (shell patterns: the rules'
 * `constructors` statement, else LL_DEFAULT_CONSTRUCTORS), code in
 * init text, or a function that stores at least half of the struct's
 * top-level members (and at least LL_CONSTRUCTOR_MIN_MEMBERS) and updates
 * none atomically: one that fills a struct it has just allocated.
 */
#define LL_DEFAULT_CONSTRUCTORS \
	"alloc_*", "*_alloc", "*_alloc_*", "*_init", "*_init_*", "init_*", "*_setup", "*_create*", \
	"*_ctor", "*_free", "*_destroy", "*_dtor"
#define LL_CONSTRUCTOR_MIN_MEMBERS 3

struct ll_constructors {
	const char *const *globs;	/* NULL: the defaults */
	size_t nr_globs;
};

/* One function's accesses of one kind to one member, merged by site. */
struct ll_access_site {
	const char *function;
	const char *inlined_into;
	const char *file;
	unsigned line;
	unsigned count;			/* instructions at that site */
	bool init;			/* a constructor's (stores only) */
};

struct ll_access_sites {
	struct ll_access_site *v;
	size_t n;
};

void ll_access_sites_release(struct ll_access_sites *s);

/*
 * The analyzed view of one struct: its evidence with the constructors
 * decided. INIT_FUNCTIONS: the functions (by interned name) judged
 * constructors, sorted by pointer.
 */
struct ll_access_view {
	const struct ll_access_evidence *e;
	const struct ll_struct *s;
	const char **init_functions;
	size_t nr_init_functions;
};

void ll_access_view_init(struct ll_access_view *v, const struct ll_access_evidence *e,
			 const struct ll_struct *s, const struct ll_constructors *c);
void ll_access_view_release(struct ll_access_view *v);
bool ll_access_record_is_init(const struct ll_access_view *v, const struct ll_access_record *r);

/*
 * The sites of kind KIND touching M's bytes (any of them, bitfields
 * widened to bytes), merged by function, inlined_into, file and line,
 * sorted by function, file and line. Stores from constructors are
 * included with init set.
 */
void ll_access_member_sites(const struct ll_access_view *v, const struct ll_member *m,
			    enum ll_access_kind kind, struct ll_access_sites *out);

/* Counts for M: instructions of each kind, stores outside constructors, writer functions. */
struct ll_access_summary {
	unsigned count[LL_NR_ACCESS_KINDS];
	unsigned runtime_writes;	/* stores and atomics outside constructors */
	unsigned runtime_atomics;	/* of those, atomics */
	unsigned load_functions;	/* distinct functions loading it */
	unsigned writer_functions;	/* distinct functions storing (outside constructors) or atomically updating it */
};

void ll_access_member_summary(const struct ll_access_view *v, const struct ll_member *m,
			      struct ll_access_summary *out);

/*
 * The static counterpart of a tag (--write-rules without --profile,
 * --audit): write-hot when atomically updated (outside constructors; a
 * lock taken or dropped counts) or stored by at least T->writers functions
 * that are at least 1/LL_STATIC_WRITER_SHARE of the functions loading it;
 * read-mostly when loaded in at least T->readers functions and stored only
 * by constructors; untagged otherwise (and for a member the code never
 * touches).
 */
#define LL_STATIC_WRITER_SHARE 4
struct ll_static_thresholds {
	unsigned readers;		/* --static-readers */
	unsigned writers;		/* --static-writers */
};

/* tag_rule_line of a member tagged from the code (groups.h's are -1 and -2). */
#define LL_STATIC_TAG_LINE (-3)

#define LL_STATIC_READERS_DEFAULT 3
#define LL_STATIC_WRITERS_DEFAULT 2

enum ll_tag ll_static_tag(const struct ll_access_view *v, const struct ll_member *m,
			  const struct ll_static_thresholds *t);

const char *ll_access_kind_name(enum ll_access_kind k);

/*
 * Tag each untagged leaf of the N MEMBERS with ll_static_tag() (setting
 * tag_rule_line to LL_STATIC_TAG_LINE); true when any got a tag.
 */
bool ll_access_static_tags(const struct ll_access_view *v, struct ll_member *members, size_t n,
			   const struct ll_static_thresholds *t);

/*
 * The outermost functions that store M (outside constructors) or update it
 * atomically, each once, sorted by name; the caller frees the array.
 */
size_t ll_access_writers(const struct ll_access_view *v, const struct ll_member *m,
			 const char ***out);

#endif
