/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: what the checks conclude about one struct's layout, and the
 * builders every producer of findings (checks, rules, groups) shares.
 */
#ifndef LAYOUTLINT_FINDING_H
#define LAYOUTLINT_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/layout.h"

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

/* Members whose findings of one rule the rules accept ("allow"). */
struct ll_allow {
	const char *rule;	/* static rule id */
	const char *path;	/* member path; covers its children too */
};

/*
 * Do ALLOWS accept findings of RULE at PATH? An allow covers its member and
 * everything below it ("f_path" covers "f_path.dentry"); a NULL PATH (a
 * member without a name) is never allowed.
 */
bool ll_allowed(const struct ll_allow *allows, size_t n, const char *rule, const char *path);

#endif
