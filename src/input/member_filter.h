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
 * Not for --contains, which would need every aggregate a struct holds by
 * value read too: measured on the 6.12 image, that reading cost more of a
 * cold run's CPU than the builds it saved (bench/RESULTS.md), and a warm
 * run (which does not scan) would then read damage a cold one leaves unread.
 */
struct ll_member_filter {
	bool (*needed)(const char *type, const void *arg);
	const void *arg;
	/*
	 * NEEDED says yes only to a spelling that ends in " *", which only a
	 * pointer type has: a member of another type need not be spelled.
	 */
	bool pointers_only;
};

#endif
