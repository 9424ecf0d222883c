/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --diff FILE: the change under review, as a unified diff (git diff, git
 * format-patch's mail, diff -u). Gating locates a new finding at the
 * member whose source line the change touched (cli.md, "Findings located
 * in the diff"); --format=mail quotes the hunk it sits in.
 */
#ifndef LAYOUTLINT_CHANGE_H
#define LAYOUTLINT_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"
#include "util/strbuf.h"

struct ll_change_hunk {
	unsigned new_start, new_count;	/* the new side's lines, as @@ says */
	char *text;			/* the hunk, its @@ line first, each line '\n'-ended */
};

struct ll_change_file {
	char *path;			/* the new side's path, a/ and b/ taken off */
	unsigned *added;		/* the new side's lines the change added, ascending */
	size_t nr_added;
	struct ll_change_hunk *hunks;
	size_t nr_hunks;
};

struct ll_change {
	const char *path;		/* FILE, as given (borrowed) */
	struct ll_change_file *files;
	size_t nr_files;
};

/* Read a unified diff; a malformed one fails naming FILE:LINE. */
int ll_change_load(const char *path, struct ll_change *out, struct ll_error *err);
void ll_change_release(struct ll_change *c);

/*
 * The file of C that FILE (a declaring file as DWARF names it: relative,
 * "./"-prefixed or absolute) is: the same path, or one FILE ends with
 * after a '/'. NULL when the change does not touch it.
 */
const struct ll_change_file *ll_change_find(const struct ll_change *c, const char *file);
/* Did the change add (or rewrite) LINE of FILE's new side? */
bool ll_change_touches(const struct ll_change *c, const char *file, unsigned line);
/* The hunk of FILE whose new side holds LINE; NULL if none. */
const struct ll_change_hunk *ll_change_hunk_at(const struct ll_change *c, const char *file,
					       unsigned line);

#endif
