// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fixtures for the HTML page: holes, tail padding, a union, bitfields, a
 * member spanning lines, a kernel cacheline group; and a struct whose
 * names and declaring file run_html.py replaces, byte for byte in the
 * object, with markup and control characters. -DOLD_LAYOUT builds the
 * reference for --against.
 */
struct html_demo {
	long hot_counter;
#ifndef OLD_LAYOUT
	int lock;
#endif
	char flag;			/* 3-byte hole after */
	const void *ops;
	union {
		long u_long;
		int u_int;
	};
	unsigned bf_a : 3, bf_b : 5;	/* 3-byte hole after */
	int __cacheline_group_begin__demo_read[0];
	long read_a;
	long read_b;
	int __cacheline_group_end__demo_read[0];
	char name[70];			/* spans lines 0-1 */
	long tail;
	char last;			/* 7 bytes of padding after */
#ifdef OLD_LAYOUT
	int lock;			/* the reference of --against: lock on line 2 */
#endif
};

struct hostile_struct_name_placeholder_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx {
	int hostile_member_placeholder_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;
	long other;
};

struct html_demo demo;
struct hostile_struct_name_placeholder_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx hostile;
