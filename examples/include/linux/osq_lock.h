/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LINUX_OSQ_LOCK_H
#define __LINUX_OSQ_LOCK_H

/*
 * An MCS like lock especially tailored for optimistic spinning for sleeping
 * lock implementations (mutex, rwsem, etc).
 */
struct optimistic_spin_node {
	struct optimistic_spin_node *next, *prev;
	int locked; /* 1 if lock acquired */
	int cpu; /* encoded CPU # + 1 value */
};

/*
 * layoutlint example: the lines above are v6.1 include/linux/osq_lock.h
 * verbatim, so struct optimistic_spin_node sits at line 9 and its members at
 * 10:31 (next), 10:38 (prev), 11:6 (locked) and 12:6 (cpu), as in the DWARF of
 * Debian's 6.1 vmlinux. Layout (6.1 and 6.12 alike): next 0/8, prev 8/8,
 * locked 16/4, cpu 20/4; 24 bytes, one cacheline.
 *
 * Since v6.7 (commit 7c2230982129 "locking/osq_lock: Move the definition of
 * optimistic_spin_node into osq_lock.c") the same definition lives in
 * kernel/locking/osq_lock.c (line 15 in Debian's 6.12 vmlinux), which is why
 * rules/osq_lock.rules has no `in` clause.
 */

#endif
