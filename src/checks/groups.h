/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel cacheline groups (include/linux/cache.h): the zero-size marker
 * members __cacheline_group_begin__NAME / __cacheline_group_end__NAME that
 * networking structs carry since 6.8, found in the model, turned into tags
 * (a "read" token in NAME: read-mostly; a "write" token: write-hot with the
 * rest of NAME as the domain) and checked (group-span, group-member).
 * Works on the model alone: no debug format.
 *
 * Order in a lint: apply the rules block first, then ll_groups_apply_tags()
 * (rules tags always win), then ll_check() and ll_check_groups().
 *
 * Ownership: ll_groups owns its names and arrays; members are borrowed from
 * the ll_struct it was found in, which must outlive it. Members tagged by
 * ll_groups_apply_tags() borrow tag_rule_file from the ll_groups too, so
 * release the groups only after the struct is done with (or freed).
 */
#ifndef LAYOUTLINT_GROUPS_H
#define LAYOUTLINT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/checks.h"
#include "util/diag.h"
#include "model/layout.h"
#include "util/strbuf.h"

#define LL_GROUP_BEGIN_PREFIX "__cacheline_group_begin__"
#define LL_GROUP_END_PREFIX "__cacheline_group_end__"
#define LL_GROUP_PAD_PREFIX "__cacheline_group_pad__"

/* tag_rule_line of a member tagged by a group rather than by a rules file. */
#define LL_GROUP_TAG_LINE (-1)

enum ll_marker_kind { LL_MARKER_NONE, LL_MARKER_BEGIN, LL_MARKER_END, LL_MARKER_PAD };

struct ll_group {
	char *name;			/* "tcp_sock_read_tx" */
	const struct ll_member *begin;	/* the markers, borrowed from the struct */
	const struct ll_member *end;
	const struct ll_member *pad;	/* __cacheline_group_pad__NAME of the aligned variant, or NULL */
	uint64_t begin_offset;		/* bytes [begin_offset, end_offset): what */
	uint64_t end_offset;		/* CACHELINE_ASSERT_GROUP_SIZE measures */
	bool aligned;			/* begin marker carries an explicit alignment */
	uint64_t alignment;		/* the begin marker's alignment */

	/* From the name: LL_READ_MOSTLY, LL_WRITE_HOT, or LL_UNTAGGED (span only). */
	enum ll_tag tag;
	char *domain;			/* write groups: the tokens after "write"; NULL if none */
	char *tag_origin;		/* "group tcp_sock_read_tx": tag_rule_file of tagged members */

	/* Members declared between the markers (the markers and pad excluded). */
	const struct ll_member **members;
	size_t nr_members;

	/* Geometry at the line-aligned placement; zero lines for an empty group. */
	unsigned cacheline;
	uint64_t first_line, last_line;
	uint64_t nr_lines;		/* lines the group's bytes touch */
	uint64_t min_lines;		/* ceil(bytes / cacheline) */
};

struct ll_groups {
	struct ll_group *v;
	size_t n;
};

/* What a member is, judged by its name alone; NAME gets the group name. */
enum ll_marker_kind ll_group_marker(const struct ll_member *m, const char **name);

/*
 * Groups of S, in declaration order of their begin markers: markers at the
 * top level or inside anonymous aggregates (those are S's own members in C;
 * markers inside a named nested struct belong to that struct's type and are
 * found when that type is linted). A begin marker without its end marker,
 * or the reverse, is no group. Uses s->cacheline for the geometry.
 * Returns the number of groups.
 */
size_t ll_find_groups(const struct ll_struct *s, struct ll_groups *out);
void ll_groups_release(struct ll_groups *g);

/*
 * Parse a group name: the last "_"-separated token that is "read" or
 * "write" decides. Returns the tag (LL_UNTAGGED without such a token) and,
 * for "write", the tokens after it in *domain (malloc'd; NULL when none).
 */
enum ll_tag ll_group_name_tag(const char *name, char **domain);

/*
 * Tag the members of every read/write group of S that no rules file tagged
 * (tag_rule_line == 0, and no ancestor tagged by the rules): tag_rule_line
 * becomes LL_GROUP_TAG_LINE, tag_rule_file the group's tag_origin.
 * Returns how many members were tagged.
 */
size_t ll_groups_apply_tags(struct ll_struct *s, const struct ll_groups *g);

/*
 * group-span (warning): a group touches more cachelines than ceil(bytes /
 * cacheline). group-member (warning): a member a rules file tags hot that
 * the markers contradict (see groups.c). Honours "allow" entries of IN.
 */
void ll_check_groups(const struct ll_check_input *in, const struct ll_groups *g,
		     struct ll_findings *out);

/* Whether any member of S carries a tag from a group (LL_GROUP_TAG_LINE). */
bool ll_groups_tagged(const struct ll_struct *s);

/* What the reporters write about groups is report/describe.h's and report_json.c's. */

#endif
