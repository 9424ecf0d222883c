/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One definition in both units of the DW_CHILDREN cases (alpha.c, beta.c),
 * so that the copy in a damaged unit cannot hide behind the other.
 */
struct alpha {
	int a;
	long b;
	struct alpha *next;
};
