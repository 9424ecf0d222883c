/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout model: one aggregate, its members (a tree, because nested
 * aggregates are expanded in place), and the cachelines they land on.
 *
 * This file knows nothing of DWARF or of any other debug format: readers
 * fill it, checks and the solver read it, reporters print it.
 *
 * Ownership: an ll_struct owns every string and every member below it;
 * ll_struct_free() releases all of it.
 */
#ifndef LAYOUTLINT_LAYOUT_H
#define LAYOUTLINT_LAYOUT_H

struct ll_access_evidence;

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * LL_GLOBALS: a binary's global variables as one aggregate named
 * LL_GLOBALS_NAME (input/elf/globals.h), checked as a struct is.
 */
enum ll_kind { LL_STRUCT, LL_UNION, LL_GLOBALS };
#define LL_GLOBALS_NAME "variables"
#define LL_PERCPU_NAME "percpu"

/*
 * The largest size readers accept. The cacheline map costs per member, not
 * per line (a run of lines one member fills is one entry: units.h), so
 * this bounds no work: glibc's 2 GiB dtv (one array member) is laid out.
 * It is the largest whole number of MiB an unsigned int carries, because
 * readers print it as "%u MiB"; beyond it a size is refused as malformed.
 */
#define LL_MAX_STRUCT_SIZE (4095u << 20)

enum ll_tag { LL_UNTAGGED, LL_COLD, LL_READ_MOSTLY, LL_WRITE_HOT };

struct ll_decl {
	char *file;		/* normalised declaring file, NULL if unknown */
	unsigned line;		/* 0 if unknown */
	unsigned column;	/* 0 if unknown (clang emits none) */
};

struct ll_member {
	char *name;		/* NULL for an anonymous struct/union or unnamed bitfield */
	char *path;		/* dotted path rules use ("f_path.dentry"); NULL if unnamed */
	char *type;		/* the type as C spells it, abstract ("char[16]") */
	uint64_t offset;	/* bytes from the start of the outermost struct */
	uint64_t size;		/* bytes; for a bitfield, its storage unit's size */
	uint64_t alignment;	/* natural or explicit alignment, in bytes */
	bool explicit_align;	/* DW_AT_alignment / _Alignas on the member or its type */
	bool is_bitfield;
	uint64_t bit_offset;	/* bitfields: from bit 0 of the outermost struct */
	uint64_t bit_size;
	bool is_aggregate;	/* a nested struct/union whose members are children */
	/*
	 * A C++ base class, named (and pathed) "<base NAME>"; its members'
	 * paths are the derived class's (d.x, not d.<base NAME>.x). Before
	 * every member, where no reordering can move it.
	 */
	bool is_base;
	enum ll_kind agg_kind;	/* valid when is_aggregate */
	struct ll_decl decl;
	/* LL_GLOBALS: the variable's ELF section (".bss"); NULL elsewhere. */
	char *section;

	struct ll_member *children;
	size_t nr_children;

	/* Filled by the rules engine; untouched by readers. */
	enum ll_tag tag;
	char *domain;		/* write-hot domain; NULL is the default domain */
	int tag_rule_line;	/* rules line that tagged it, 0 if none */
	const char *tag_rule_file;	/* borrowed from the rules */
	unsigned tag_specificity;	/* of the pattern that tagged it */
	bool pinned;
	bool pin_last;		/* "pin last": a suggestion keeps it after every other member */

	/*
	 * Filled from profiles (--profile, model/profile.h); untouched by
	 * readers. A member's own samples, not its children's: an aggregate's
	 * are those perf put at an offset none of its children covers.
	 */
	struct ll_measure {
		double samples;		/* samples at its bytes */
		double reads;		/* of those, loads (an RMW counts as both) */
		double writes;		/* of those, stores */
	} measure;
};

struct ll_struct {
	enum ll_kind kind;
	char *name;		/* tag name, or the typedef name of an anonymous aggregate */
	uint64_t size;
	uint64_t alignment;
	bool explicit_align;
	/*
	 * The alignment (the struct's and its members') was inferred from
	 * member types and offsets alone, because the input records no
	 * alignment attributes (BTF): an _Alignas or aligned(N) that left no
	 * trace in the offsets is unknown, so suggestions must say so.
	 */
	bool alignment_inferred;
	/*
	 * The compiler chose the member order (Rust without #[repr(C)]; DWARF
	 * does not say which): the members are listed by offset, and no
	 * order can be suggested in the source.
	 */
	bool compiler_orders_members;
	struct ll_decl decl;
	/*
	 * Where the reader found the definition, for cross-checking with
	 * readelf or pahole: the .debug_info offset of its DIE, or the BTF
	 * type id; 0 if none.
	 */
	uint64_t origin;
	unsigned cacheline;	/* line size used for this struct */
	/*
	 * A profile named this struct (model/profile.h): its members'
	 * measures mean something, zero samples included. Reads and writes
	 * are known only when measured_access is set too.
	 */
	bool measured;
	bool measured_access;
	double measured_samples;	/* every sample at the struct, members or not */
	/*
	 * --access: the static evidence of who loads and stores its members
	 * (model/access.h), borrowed: its owner outlives every copy. NULL when
	 * not asked for.
	 */
	const struct ll_access_evidence *access;

	struct ll_member *members;
	size_t nr_members;
};

/* Bytes [begin, end) a member occupies, bitfields widened to whole bytes. */
struct ll_extent {
	uint64_t begin;
	uint64_t end;
};

struct ll_extent ll_member_extent(const struct ll_member *m);

/*
 * The first member, at any depth, that does not lie within the struct (or
 * within the member it is nested in); NULL when every one does. Readers
 * refuse such a layout: no compiler writes one, and every cacheline
 * figure drawn from it would be wrong.
 */
const struct ll_member *ll_struct_misfit(const struct ll_struct *s);
/*
 * The first member of a struct (not a union), at any depth, that starts
 * before an earlier member of the same struct ends (in bits), or NULL; *PREV:
 * that earlier member. No C struct has one: only damaged input does.
 */
const struct ll_member *ll_struct_overlap(const struct ll_struct *s, const struct ll_member **prev);

/* The largest alignment a model holds: gcc's own limit, 2^28. */
#define LL_MAX_ALIGNMENT (1u << 28)

/*
 * Whether every alignment in S (its own, every member's) is a power of two
 * up to LL_MAX_ALIGNMENT; *BAD is the first member that is not, or NULL
 * when it is the struct's own. The solver and the checks divide and
 * round by these, so the readers refuse anything else.
 */
bool ll_struct_alignments_ok(const struct ll_struct *s, const struct ll_member **bad);
bool ll_member_is_empty(const struct ll_member *m);

/* First and last cacheline a member touches; false for zero-size members. */
bool ll_member_lines(const struct ll_member *m, unsigned cacheline,
		     uint64_t *first, uint64_t *last);

uint64_t ll_struct_lines(const struct ll_struct *s);
/*
 * Same kind, name, size and line size, and the same member paths at the
 * same offsets and sizes (bits too), nested members included: the one
 * struct, whichever binary it was read from. Declaring files and tags are
 * not compared.
 */
bool ll_struct_same_layout(const struct ll_struct *a, const struct ll_struct *b);

/* A gap at one nesting level: between two members or after the last one. */
struct ll_hole {
	uint64_t offset;	/* first byte of the gap */
	uint64_t size;		/* bytes; bit holes are reported as bits */
	uint64_t bits;		/* non-zero for a hole between bitfields */
	const struct ll_member *after;	/* NULL when the gap opens the struct */
	bool is_padding;	/* tail padding of the aggregate at this level */
};

struct ll_holes {
	struct ll_hole *v;
	size_t n;
};

/*
 * Holes and tail padding among one level of members lying in
 * [begin, begin + size). Union levels have no holes between members,
 * only padding after the largest one.
 */
int ll_find_holes(const struct ll_member *members, size_t n, enum ll_kind kind,
		  uint64_t begin, uint64_t size, struct ll_holes *out);
void ll_holes_free(struct ll_holes *h);

/*
 * For a walk of one level's members in order, with *CURSOR 0 before the
 * first: the holes H has right after member M (*NR of them), *CURSOR moved
 * past them. ll_find_holes() gives the holes in member order, so the walk
 * reads each hole once: asking every hole at every member made listing
 * the 39,454 global variables of the 6.12 image quadratic.
 */
const struct ll_hole *ll_holes_after(const struct ll_holes *h, const struct ll_member *m,
				     size_t *cursor, size_t *nr);

struct ll_summary {
	size_t members;		/* named leaves and aggregates, all levels */
	size_t top_members;
	size_t holes;
	uint64_t hole_bytes;
	uint64_t padding;	/* tail padding of the outermost struct */
	uint64_t bit_holes;
};

void ll_summarize(const struct ll_struct *s, struct ll_summary *out);

/* Visit every member, depth first, in declaration order. */
typedef int (*ll_visit_fn)(struct ll_member *m, int depth, void *arg);
int ll_visit(struct ll_member *members, size_t n, ll_visit_fn fn, void *arg);

/* What ll_members_pick() does with one member. */
enum ll_pick { LL_PICK_SKIP, LL_PICK_TAKE, LL_PICK_DESCEND };
struct ll_member_list {
	const struct ll_member **v;	/* owned: free(v) */
	size_t n;
};
/*
 * Appends to OUT, depth first in declaration order, the members PICK takes,
 * descending into those it says to: one walk for every "the members that
 * count, anonymous aggregates flattened" list.
 */
void ll_members_pick(const struct ll_member *members, size_t n,
		     enum ll_pick (*pick)(const struct ll_member *m), struct ll_member_list *out);

/* Whether PRED holds of M or of a member inside it. */
bool ll_member_any(const struct ll_member *m, bool (*pred)(const struct ll_member *m));
/* The first string FN gives of M or of a member inside it, depth first; NULL if none. */
const char *ll_member_first(const struct ll_member *m,
			    const char *(*fn)(const struct ll_member *m));

void ll_member_release(struct ll_member *m);
/* Free S's members only: what is left says the struct's kind, name, size and place. */
void ll_struct_drop_members(struct ll_struct *s);
void ll_struct_free(struct ll_struct *s);
/*
 * A deep copy of S as a reader made it (strings and members are copied;
 * the rules' borrowed file names stay borrowed): the same struct, linted
 * again under other settings (several --cacheline sizes).
 */
struct ll_struct *ll_struct_clone(const struct ll_struct *s);

const char *ll_tag_name(enum ll_tag tag);
const char *ll_kind_name(enum ll_kind kind);
/* What to call M in a message: its path, else its name, else what it is. */
const char *ll_member_label(const struct ll_member *m);

/* Normalise a path: collapse "//", drop "./", resolve "dir/.." lexically. */
char *ll_normalize_path(const char *path);


/*
 * Put NAME into an abstract C type ("void (*)(int)" -> "void (*fn)(int)",
 * "char[16]" -> "char name[16]"). The caller frees the result.
 */
char *ll_c_decl_with_name(const char *type, const char *name);

/*
 * A base type as C programmers write it: gcc's DWARF and BTF say "long
 * unsigned int", pahole users read "unsigned long". Names not in the table
 * (clang's, which are already these, "char", "_Bool") come back unchanged.
 */
const char *ll_c_base_name(const char *debug_name);

struct strbuf;
/*
 * Append qualifier Q ("const") and a blank to PREFIX, the qualifiers
 * collected ahead of a base type, unless it is there already: debug info
 * repeats qualifiers on an array and on its elements, and "const char
 * name[16]" must not come out as "const const char name[16]".
 */
void ll_c_qualify(struct strbuf *prefix, const char *q);

#endif
