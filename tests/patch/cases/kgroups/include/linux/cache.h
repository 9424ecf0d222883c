/* What this fixture needs of the kernel's include/linux/cache.h, compiler_types.h and build_bug.h. */
#ifndef _LINUX_CACHE_H
#define _LINUX_CACHE_H
#include <stddef.h>
typedef unsigned char __u8;
#define SMP_CACHE_BYTES 64
#define __aligned(x) __attribute__((__aligned__(x)))
#ifdef CONFIG_SMP
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))
#else
#define ____cacheline_aligned_in_smp
#endif
#define __cacheline_group_begin(GROUP) \
	__u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) \
	__u8 __cacheline_group_end__##GROUP[0]
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#endif
