/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Measured hotness: what a perf data-type profile (--profile) says about
 * the members of a struct. The input layer parses perf's text into an
 * ll_profile; ll_profile_apply() attaches it to a model as each member's
 * ll_measure, which checks and reporters read. Nothing here knows perf's
 * formats, only what they record: samples per (type, offset), and, when
 * the profile can tell, how many of them were loads and stores.
 *
 * Ownership: an ll_profile owns its rows, strings and build-ids.
 */
#ifndef LAYOUTLINT_PROFILE_H
#define LAYOUTLINT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/layout.h"

/* How the sampled instruction touched memory, when anything could say. */
enum ll_access { LL_ACCESS_UNKNOWN, LL_ACCESS_LOAD, LL_ACCESS_STORE, LL_ACCESS_RMW };

/* One row of a profile: samples at one offset of one type. */
struct ll_profile_row {
	char *type;		/* as perf names it: "struct stats", "stats_t" */
	uint64_t type_size;	/* bytes; 0 when the profile does not say */
	uint64_t offset;	/* from the start of the outermost type */
	double samples;		/* samples (estimated from percent when only that is printed) */
	char *field;		/* perf's name of the member there, NULL if none */
	char *symoff;		/* the sampled instruction, "writer+0x10"; NULL if not given */
	enum ll_access access;	/* from the event, or the instruction */
	unsigned line;		/* line of the profile file */
};

struct ll_profile_build_id {
	char *id;		/* lower-case hex */
	char *path;		/* the file perf recorded it for */
};

struct ll_profile {
	char *file;		/* the profile's path, for messages */
	struct ll_profile_row *rows;
	size_t nr_rows;
	struct ll_profile_build_id *build_ids;
	size_t nr_build_ids;
};

void ll_profile_free(struct ll_profile *p);

/*
 * Where a profile and a struct disagree: a row whose offset names no
 * member, or a type of the same name and another size. Said once each.
 */
struct ll_profile_note {
	char *message;
};

struct ll_profile_notes {
	struct ll_profile_note *v;
	size_t n;
};

void ll_profile_notes_release(struct ll_profile_notes *n);

/*
 * Attach the rows of PROFILES (N of them) that name S (by "struct NAME" or
 * "union NAME", or a typedef's NAME, and size when the profile gives one)
 * to S's members, by offset within the outermost type: the deepest member
 * containing the byte gets the samples. Adds to what an earlier profile
 * attached. Notes for rows that land on no member, to NOTES. Reads and
 * writes are known for S (s->measured_access) when every row attached to
 * it has an access.
 */
void ll_profile_apply(const struct ll_profile *const *profiles, size_t n, struct ll_struct *s,
		      struct ll_profile_notes *notes);

/*
 * The measured counterpart of a tag (--write-rules, rule-drift): write-hot
 * when at least WRITE_PCT% of a hot member's samples wrote, read-mostly
 * when hot and read only, cold when never sampled, untagged when sampled
 * but below HOT_PCT% of the struct's samples.
 */
struct ll_measure_thresholds {
	double hot_pct;		/* --measured-hot */
	double write_pct;	/* --measured-writes */
};

#define LL_MEASURED_HOT_DEFAULT 0.05
#define LL_MEASURED_WRITES_DEFAULT 10.0

/* Add M's measure and its children's to *T (zero it first). */
void ll_member_measure(const struct ll_member *m, struct ll_measure *t);

/* The member of S whose path is PATH, at any depth; NULL if none. */
const struct ll_member *ll_member_at_path(const struct ll_struct *s, const char *path);

enum ll_tag ll_measured_tag(const struct ll_member *m, const struct ll_struct *s,
			    const struct ll_measure_thresholds *t);
/* M's samples are at least T->hot_pct% of its struct's. */
bool ll_measured_hot(const struct ll_member *m, const struct ll_struct *s,
		     const struct ll_measure_thresholds *t);
/* M's write samples are at least T->write_pct% of its samples; false when unknown. */
bool ll_measured_written(const struct ll_member *m, const struct ll_measure_thresholds *t);

#endif
