/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for --group-markers (tests/grouppatch/run_grouppatch.py): the
 * kernel's macros as include/linux/cache.h (6.12) defines them, with
 * BUILD_BUG_ON a _Static_assert so that the compiler itself says whether
 * each assert holds on the target it builds for.
 */
#ifndef GP_KERNEL_H
#define GP_KERNEL_H

typedef unsigned char __u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#define offsetof(TYPE, MEMBER) __builtin_offsetof(TYPE, MEMBER)
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#define __cacheline_group_begin(GROUP) __u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) __u8 __cacheline_group_end__##GROUP[0]

#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) \
	BUILD_BUG_ON(!(offsetof(TYPE, MEMBER) >= \
		       offsetofend(TYPE, __cacheline_group_begin__##GROUP) && \
		       offsetofend(TYPE, MEMBER) <= \
		       offsetof(TYPE, __cacheline_group_end__##GROUP)))

#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) \
	BUILD_BUG_ON(offsetof(TYPE, __cacheline_group_end__##GROUP) - \
		     offsetofend(TYPE, __cacheline_group_begin__##GROUP) > \
		     SIZE)

#endif
