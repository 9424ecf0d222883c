/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LAYOUTLINT_MEMBER_FILTER_H
#define LAYOUTLINT_MEMBER_FILTER_H

#include <stdbool.h>

/*
 * What a whole-image question (--audit) reads of a struct: the members
 * whose type, spelled as ll_member's type is, NEEDED says yes to (ARG its
 * own), at the struct's top level and inside its anonymous members. A
 * reader may answer a definition it can tell has none by a layout without
 * members, digested, instead of building it.
 *
 * Not for --contains, which needs every aggregate a struct holds by value
 * read too: reading them all for each definition cost more of a cold
 * run's CPU than the builds it saved (bench/RESULTS.md). It has the
 * input's contains_word instead: each definition's member words, read
 * once, and the rest decided over names (ll_scan_words_reach()).
 */
struct ll_member_filter {
	bool (*needed)(const char *type, const void *arg);
	const void *arg;
	/*
	 * NEEDED says yes only to a spelling that ends in " *", which only a
	 * pointer type has: a member of another type need not be spelled.
	 */
	bool pointers_only;
	/*
	 * With pointers_only: NEEDED says yes only to a pointer to a qualified
	 * type ("const struct x *"), so a pointer to anything else (void, a
	 * typedef, a struct, a base type) need not be spelled either.
	 */
	bool qualified_pointee_only;
};

#endif
