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
	const char *member;	/* the member it is at (borrowed path); NULL: not one member */
};

struct ll_pair {
	char *a;
	char *b;	/* NULL for single-member findings (split-hot, stale-rule) */
};

/*
 * What a finding's tags rest on: the rules (and the kernel's group
 * markers), the machine code (--access), or a profile (--profile).
 */
enum ll_tier { LL_TIER_DECLARED, LL_TIER_STATIC, LL_TIER_MEASURED };

const char *ll_tier_name(enum ll_tier tier);

struct ll_finding {
	const char *rule;	/* static rule id */
	enum ll_level level;
	enum ll_tier tier;
	char *message;
	int64_t cacheline;	/* -1 when the finding is not about one line */
	char **members;		/* member paths (or the pattern, for stale-rule) */
	size_t nr_members;
	struct ll_pair *pairs;
	size_t nr_pairs;
	struct ll_decl location; /* borrowed; file NULL when unknown */
	struct ll_note *notes;
	size_t nr_notes;
	/*
	 * A finding whose notes are all of one kind (a line's members) can be
	 * located at any of its members (gating puts it where the change is):
	 * the member at LOCATION (borrowed path) and the note it gets when it
	 * gives the location up. NULL both when the finding cannot move.
	 */
	const char *located;
	char *located_note;
	char *fingerprint;	/* hash of rule, struct and member paths */
};

struct ll_findings {
	struct ll_finding *v;
	size_t n;
};

void ll_findings_release(struct ll_findings *f);
/* What one finding owns (not F itself). */
void ll_finding_release(struct ll_finding *f);
const char *ll_level_name(enum ll_level level);

/* Builders shared by every producer of findings. */
struct ll_finding *ll_finding_add(struct ll_findings *out, const char *rule,
				  enum ll_level level, int64_t cacheline);
void ll_finding_member(struct ll_finding *f, const char *path);
void ll_finding_pair(struct ll_finding *f, const char *a, const char *b);
void ll_finding_note(struct ll_finding *f, const struct ll_decl *decl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ll_finding_note, saying which member the note is at (PATH, borrowed). */
void ll_finding_member_note(struct ll_finding *f, const struct ll_decl *decl, const char *path,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Locate F at member PATH, which has a note: the member located so far
 * takes that note's place with its located_note. False (F unchanged) when
 * F cannot move or PATH has no note.
 */
bool ll_finding_relocate(struct ll_finding *f, const char *path);
/*
 * Gating with the change at hand (--diff): locate F at DECL, the line of
 * member PATH that is none of its own (the member whose insertion or move
 * shifted F's members onto their line); where F was becomes its first
 * note. WHY is the note the cause gets if F moves on. False when F cannot
 * move.
 */
bool ll_finding_locate_at_cause(struct ll_finding *f, const struct ll_decl *decl,
				const char *path, const char *why);
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

/*
 * A hot set: the members a rules 'group' statement names, read or written
 * together on one path (rules.md, Hot sets). Its lines are counted
 * against the fewest its bytes could fit in (group-span).
 */
struct ll_hot_set {
	const char *name;			/* borrowed from the rules */
	const char *file;			/* the statement's place, borrowed */
	unsigned line, column;
	const struct ll_member **members;	/* borrowed from the model, each once */
	size_t n;
};

struct ll_hot_sets {
	struct ll_hot_set *v;
	size_t n;
};

void ll_hot_sets_release(struct ll_hot_sets *sets);

#endif
