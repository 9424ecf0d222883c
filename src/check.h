/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: what the checks conclude about one struct's layout. Works on
 * the model alone (tags already applied by the rules engine).
 */
#ifndef LAYOUTLINT_CHECK_H
#define LAYOUTLINT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"

enum ll_level { LL_LEVEL_NOTE, LL_LEVEL_WARNING, LL_LEVEL_ERROR };

struct ll_note {
	char *message;
	struct ll_decl decl;	/* borrowed from the model */
};

struct ll_pair {
	char *a;
	char *b;	/* NULL for single-member findings (split-hot, stale-rule) */
};

struct ll_finding {
	const char *rule;	/* static rule id */
	enum ll_level level;
	char *message;
	int64_t cacheline;	/* -1 when the finding is not about one line */
	char **members;		/* member paths (or the pattern, for stale-rule) */
	size_t nr_members;
	struct ll_pair *pairs;
	size_t nr_pairs;
	struct ll_decl location; /* borrowed; file NULL when unknown */
	struct ll_note *notes;
	size_t nr_notes;
	char *fingerprint;	/* hash of rule, struct and member paths */
};

struct ll_findings {
	struct ll_finding *v;
	size_t n;
};

void ll_findings_release(struct ll_findings *f);
const char *ll_level_name(enum ll_level level);


/*
 * A unit is what findings name: a leaf member, or a named nested aggregate
 * whose bytes carry one tag (no child tagged more specifically). Anonymous
 * aggregates are always looked into.
 */
struct ll_unit {
	const struct ll_member *m;
	enum ll_tag tag;		/* effective tag, inherited from the closest tagged parent */
	const char *domain;
};

struct ll_units {
	struct ll_unit *v;
	size_t n;
};

void ll_collect_units(const struct ll_struct *s, struct ll_units *out);
void ll_units_release(struct ll_units *u);

enum ll_verdict { LL_VERDICT_CLEAN, LL_VERDICT_MIXED, LL_VERDICT_WRITE_DOMAINS,
		  LL_VERDICT_UNTAGGED_ONLY };

struct ll_line {
	uint64_t index;
	const struct ll_unit **units;	/* units touching this line, in offset order */
	size_t nr_units;
	enum ll_verdict verdict;
};

struct ll_lines {
	struct ll_line *v;
	size_t n;
};

/* Map units to the cachelines of S at its line-aligned placement. */
void ll_map_lines(const struct ll_struct *s, const struct ll_units *units, struct ll_lines *out);
void ll_lines_release(struct ll_lines *l);
const char *ll_verdict_name(enum ll_verdict v);

/* Members whose findings of one rule the rules accept ("allow"). */
struct ll_allow {
	const char *rule;	/* static rule id */
	const char *path;	/* member path; covers its children too */
};

struct ll_check_input {
	const struct ll_struct *s;
	uint64_t align;		/* start alignment assumed; 0: the cacheline size */
	const struct ll_allow *allows;
	size_t nr_allows;
};

/* Run mixed-cacheline, write-domains, split-hot and placement on S. */
void ll_check(const struct ll_check_input *in, struct ll_findings *out);

/* Builders shared by every producer of findings. */
struct ll_finding *ll_finding_add(struct ll_findings *out, const char *rule,
				  enum ll_level level, int64_t cacheline);
void ll_finding_member(struct ll_finding *f, const char *path);
void ll_finding_pair(struct ll_finding *f, const char *a, const char *b);
void ll_finding_note(struct ll_finding *f, const struct ll_decl *decl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fingerprint from rule, struct and the member paths, order-independent. */
void ll_finding_seal(struct ll_finding *f, const struct ll_struct *s);

enum ll_level ll_findings_max_level(const struct ll_findings *f, bool *any);

#endif
