/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osq.c — struct optimistic_spin_node as in Linux 6.1 and 6.12 (x86_64), the
 * per-CPU MCS node of the optimistic spin queue used by mutexes and rwsems:
 *
 *	gcc -g -c -I examples/include examples/osq.c -o osq.o
 *	layoutlint -r rules/osq_lock.rules osq.o
 *
 * The definition is in include/linux/osq_lock.h (next to this file), copied
 * from v6.1 with the kernel's lines and columns. The _Static_asserts pin the
 * layout pahole prints for both Debian vmlinux images.
 */
#include <stddef.h>

#include "include/linux/osq_lock.h"

/*
 * kernel/locking/osq_lock.c has
 *	static DEFINE_PER_CPU_SHARED_ALIGNED(struct optimistic_spin_node, osq_node);
 * so each CPU's node starts a cacheline, as layoutlint assumes by default.
 */
struct optimistic_spin_node osq_node __attribute__((aligned(64)));

#define MEMBER_AT(m, off, size)						\
	_Static_assert(offsetof(struct optimistic_spin_node, m) == (off), \
		       "offset of " #m);				\
	_Static_assert(sizeof(((struct optimistic_spin_node *)0)->m) == (size), \
		       "size of " #m)

_Static_assert(sizeof(struct optimistic_spin_node) == 24,
	       "sizeof(struct optimistic_spin_node)");
_Static_assert(_Alignof(struct optimistic_spin_node) == 8,
	       "alignment of struct optimistic_spin_node");
MEMBER_AT(next,    0, 8);
MEMBER_AT(prev,    8, 8);
MEMBER_AT(locked, 16, 4);
MEMBER_AT(cpu,    20, 4);
