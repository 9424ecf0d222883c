/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules language (rules.md): parsing into blocks of statements, and
 * applying a block's tags to one struct's model.
 *
 * Ownership: ll_rules owns every block, statement and string below it.
 */
#ifndef LAYOUTLINT_RULES_H
#define LAYOUTLINT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/finding.h"
#include "util/diag.h"
#include "util/slot_table.h"
#include "model/layout.h"

#define LL_ALIGN_TYPE UINT64_MAX	/* "align type" */

struct ll_pattern {
	char *text;		/* as written, without the leading '?' */
	char **components;	/* split on '.' */
	size_t nr_components;
	size_t exact_components; /* components without glob characters */
	bool optional;
	unsigned line, column;
	const char *file;	/* borrowed from ll_rules */
	size_t matches;		/* filled by ll_rules_apply */
};

enum ll_stmt_kind { LL_STMT_TAG, LL_STMT_PIN, LL_STMT_ALLOW, LL_STMT_GROUP };

struct ll_stmt {
	enum ll_stmt_kind kind;
	enum ll_tag tag;	/* LL_STMT_TAG */
	char *domain;		/* write-hot domain, NULL for the default one */
	const char *allow_rule;	/* LL_STMT_ALLOW: a static rule id */
	bool pin_last;		/* LL_STMT_PIN: "pin last", keep at the end rather than in place */
	char *group;		/* LL_STMT_GROUP: the hot set's name */
	unsigned column;	/* of the statement's first word */
	struct ll_pattern *patterns;
	size_t nr_patterns;
	unsigned line;
	const char *file;
};

struct ll_block {
	enum ll_kind kind;
	char *name;
	char *in_glob;		/* NULL: no "in" */
	unsigned cacheline;	/* 0: not set by the rules */
	bool cacheline_in_block;	/* set inside the block, not inherited from the file */
	const char *cacheline_file;	/* where the value was set, for conflicts */
	unsigned cacheline_line;
	unsigned instance;		/* the struct/union line being parsed for it */
	unsigned cacheline_from_instance; /* which of them set the value */
	uint64_t align;		/* 0: not set (line-aligned); LL_ALIGN_TYPE: "align type" */
	const char *align_file;	/* where align was set, for conflicts */
	unsigned align_line;
	struct ll_stmt *stmts;
	size_t nr_stmts;
	/* "constructors GLOB...": functions whose stores initialise (--access) */
	char **constructors;
	size_t nr_constructors;
	const char *file;	/* where the first block for this aggregate opened */
	unsigned line, column;
};

struct ll_rules {
	struct ll_block *blocks;
	size_t nr_blocks;
	char **files;		/* every file read, owned */
	size_t nr_files;
	unsigned instances;	/* struct/union lines seen, for merge bookkeeping */
	/*
	 * Blocks by kind and name (a slot table over blocks[]), so that 40,000
	 * blocks are not 40,000 linear searches.
	 */
	struct ll_slots by_name;
};

/* Read a rules file or a directory of *.rules (recursively, in name order). */
int ll_rules_load(struct ll_rules *rules, const char *path, struct ll_error *err);
/* Parse rules text; FILE names it in errors. TEXT need not be NUL-terminated. */
int ll_rules_parse(struct ll_rules *rules, const char *file, const char *text, size_t len,
		   struct ll_error *err);
void ll_rules_release(struct ll_rules *rules);

/* The block for KIND NAME (and its "in" glob), or NULL. */
struct ll_block *ll_rules_find(struct ll_rules *rules, enum ll_kind kind, const char *name);

bool ll_rule_id_known(const char *id);
const char *ll_rule_id_static(const char *id);

/*
 * Tag and pin S's members from BLOCK, collect its "allow"s into ALLOWS;
 * stale patterns become findings in OUT.
 * Returns -1 (exit 2) on a pattern through a pointer or two equally
 * specific patterns that disagree.
 */
struct ll_allows {
	struct ll_allow *v;	/* paths borrowed from the model */
	size_t n;
};

/* SETS gets one hot set per 'group' name of BLOCK (statements of one name merge). */
int ll_rules_apply(struct ll_block *block, struct ll_struct *s, struct ll_findings *out,
		   struct ll_allows *allows, struct ll_hot_sets *sets, struct ll_error *err);

#endif
