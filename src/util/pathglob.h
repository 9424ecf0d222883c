/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Path and name globs, as rules.md's Patterns and Paths sections define them. */
#ifndef LAYOUTLINT_PATHGLOB_H
#define LAYOUTLINT_PATHGLOB_H

#include <stdbool.h>
#include <stddef.h>

/* fnmatch-like on one component: '*' and '?' and [...] never cross '/' or '.'. */
bool ll_glob_component(const char *pattern, const char *text, size_t text_len);

/*
 * Does PATH match GLOB from the right, on whole '/'-separated components?
 * '*' does not cross '/', a '**' component matches any number of them.
 */
bool ll_path_glob_match(const char *glob, const char *path);

bool ll_has_glob_chars(const char *s);

#endif
