/* The definitions of the kernel's include/linux/cache.h and build_bug.h this fixture uses. */
#ifndef _LINUX_CACHE_H
#define _LINUX_CACHE_H
#include <stddef.h>
#define SMP_CACHE_BYTES 64
#ifdef CONFIG_SMP
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))
#else
#define ____cacheline_aligned_in_smp
#endif
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#endif
