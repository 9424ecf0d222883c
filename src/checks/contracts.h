/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's layout contracts across images: the group asserts
 * (CACHELINE_ASSERT_GROUP_SIZE / _MEMBER, include/linux/cache.h) that
 * source/asserts.c reads from --srcdir, evaluated on every binary of a run
 * against the __cacheline_group markers each one has (check group-assert);
 * and the per-image table of a run of several binaries (each struct's
 * size, lines and findings, each group's size and lines, on each binary,
 * differences marked), which the reporters render.
 *
 * Works on linted structs (checks/run.h) alone: no debug format, no text.
 */
#ifndef LAYOUTLINT_CONTRACTS_H
#define LAYOUTLINT_CONTRACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/run.h"

enum ll_assert_kind { LL_ASSERT_SIZE, LL_ASSERT_MEMBER };

/* One CACHELINE_ASSERT_GROUP_SIZE or _MEMBER as written in the source. */
struct ll_group_assert {
	enum ll_assert_kind kind;
	struct ll_decl decl;		/* file relative to --srcdir, line, column (owned) */
	enum ll_kind struct_kind;	/* LL_STRUCT or LL_UNION */
	char *struct_name;
	char *group;
	char *member;			/* _MEMBER: the designator as written ("a.b") */
	char *size_text;		/* _SIZE: the constant as written ("91 + 4") */
	bool size_known;		/* size_text evaluated to SIZE */
	uint64_t size;
};

struct ll_group_asserts {
	struct ll_group_assert *v;
	size_t n;
	size_t files_scanned;		/* how many C files the scan read */
};

void ll_group_asserts_release(struct ll_group_asserts *a);

/* One binary of the run and the structs it gave (borrowed). */
struct ll_contract_image {
	const char *path;
	struct ll_linted *structs;
	size_t nr_structs;
};

/* What one assert does on one image. */
enum ll_assert_verdict {
	LL_ASSERT_ABSENT,		/* the image defines no such struct (not linted) */
	LL_ASSERT_NO_GROUP,		/* the struct has no markers of that group, or no such member */
	LL_ASSERT_HOLDS,
	LL_ASSERT_FAILS,
	LL_ASSERT_UNKNOWN,		/* the constant is no integer expression we evaluate */
};

const char *ll_assert_verdict_name(enum ll_assert_verdict v);

struct ll_assert_result {
	const struct ll_group_assert *a;	/* borrowed */
	enum ll_assert_verdict *verdict;		/* per image */
	uint64_t *group_size;			/* per image: the group's bytes (valid unless
						   ABSENT/NO_GROUP) */
	uint64_t max_size;			/* over the images where the group exists */
	uint64_t unit;				/* the alignment unit: its members' largest alignment */
	bool stale;				/* SIZE: max_size + unit <= size */
};

/* One row of the per-image table: a struct, or one of its groups. */
struct ll_image_row {
	enum ll_kind kind;
	char *struct_name;		/* owned: the layouts may be merged away */
	char *group;			/* NULL: the struct's own row */
	bool *present;			/* per image */
	uint64_t *size;			/* per image: bytes */
	uint64_t *lines;		/* per image: cachelines touched */
	size_t *findings;		/* per image: findings (struct rows only): its own, and
					   each group assert failing there */
	unsigned *cacheline;		/* per image: the line size used */
	bool differs;			/* some two present images disagree (or one lacks it) */
};

struct ll_contracts {
	size_t nr_images;
	const char **images;		/* borrowed paths */
	struct ll_assert_result *results;
	size_t nr_results;
	struct ll_image_row *rows;
	size_t nr_rows;
	const struct ll_group_asserts *asserts;	/* NULL: no --srcdir scan */
};

/*
 * group-assert: evaluate every assert of A on each of the N images, adding
 * findings to the structs of the images (error where an assert fails,
 * warning for a stale SIZE constant, once, on the first image that has
 * the struct), and fill OUT's results. A may be NULL (no scan): only the
 * table is built. Call before the binaries' structs are merged.
 */
void ll_check_contracts(const struct ll_group_asserts *a, struct ll_contract_image *images,
			size_t n, struct ll_contracts *out);
/* The per-image rows; call after every finding is in (ll_check_contracts adds some). */
void ll_contracts_table(struct ll_contract_image *images, size_t n, struct ll_contracts *out);
void ll_contracts_release(struct ll_contracts *c);

/* randstruct: how the source marks a struct, and what the build's config says. */
enum ll_rand_mark { LL_RAND_NONE, LL_RAND_LAYOUT, LL_RAND_FIELDS };
enum ll_rand_config { LL_RAND_CONFIG_UNKNOWN, LL_RAND_CONFIG_OFF, LL_RAND_CONFIG_FULL,
		      LL_RAND_CONFIG_PERFORMANCE };

/*
 * Whether S gets a randstruct note whatever the build's config: marked
 * (MARK) or of function pointers only. Others are noted only for a config
 * that randomizes, when the source was not read.
 */
bool ll_randstruct_candidate(const struct ll_struct *s, enum ll_rand_mark mark);

/*
 * Note (check randstruct), once on L, that its layout may be randomized:
 * MARK at MARK_AT (its header's line; MARK_KNOWN: the source was read), a
 * struct of function pointers only (randomized unmarked), or, source
 * unread, a build whose CONFIG (read from CONFIG_FILE) randomizes. With
 * RANDSTRUCT_PERFORMANCE, the groups of members the plugin shuffles
 * within (cacheline-sized runs of members).
 */
void ll_note_randstruct(struct ll_linted *l, enum ll_rand_mark mark, bool mark_known,
			const struct ll_decl *mark_at, enum ll_rand_config config,
			const char *config_file);

#endif
