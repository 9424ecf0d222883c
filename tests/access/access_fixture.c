// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access analyzer's fixture (tests/access/run.py): each member of
 * struct stats is touched in exactly one known way, by a known function.
 * Compiled with gcc and clang at -O0 and -O2; the runner asserts each
 * member's load, store and atomic sets from --access's JSON.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct inner {
	long nested_hits;		/* stored through a nested member */
	int nested_flags;
};

struct ops {
	int (*run)(int);
};

/* A lock word: its type's name says lock, and fixture_lock() takes it by address. */
typedef struct {
	int word;
} fixture_spinlock_t;

struct mapping {
	long host_count;		/* stored through a pointer chain: s->map->host_count */
};

struct stats {
	const struct ops *ops;		/* read-mostly: loaded by readers, stored by the constructor */
	long refs;			/* atomically updated (lock xadd) */
	long seq;			/* updated with a cmpxchg loop */
	long hits;			/* plain stores by the writer */
	unsigned mode : 3;		/* a bitfield stored by set_mode */
	unsigned kind : 5;
	struct inner in;		/* nested member */
	struct mapping *map;		/* a pointer followed to another struct */
	long via_helper;		/* stored by an inlined helper */
	long via_container;		/* stored through container_of */
	long global_only;		/* stored in the global instance only */
	int cpu;			/* stored only by the constructor */
	struct ops own_ops;		/* the member container_of starts from */
	fixture_spinlock_t lock;	/* taken by a call: an atomic update of the caller's */
};

struct stats global_stats;
/*
 * The kernel's per-CPU variables are reached as %gs:ADDR (this_cpu_write()):
 * compiled here, never run (%gs is not set up for it in a program).
 */
struct stats percpu_stats;

static int run_one(int x) { return x + 1; }
static const struct ops default_ops = { run_one };

NOINLINE struct stats *stats_alloc(int cpu)
{
	struct stats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ops = &default_ops;
	s->cpu = cpu;
	s->map = calloc(1, sizeof(*s->map));
	return s;
}

NOINLINE void stats_get(struct stats *s)
{
	__atomic_fetch_add(&s->refs, 1, __ATOMIC_SEQ_CST);
}

NOINLINE void stats_seq_bump(struct stats *s)
{
	long old = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(&s->seq, &old, old + 1, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
}

NOINLINE void stats_hit(struct stats *s, long n)
{
	s->hits = n;
}

NOINLINE void stats_set_mode(struct stats *s, unsigned m)
{
	s->mode = m;
}

NOINLINE void stats_nested(struct stats *s, long v)
{
	s->in.nested_hits = v;
}

NOINLINE void stats_chain(struct stats *s, long v)
{
	s->map->host_count = v;
}

static inline void helper_store(struct stats *s, long v)
{
	s->via_helper = v;
}

NOINLINE void stats_through_helper(struct stats *s, long v)
{
	helper_store(s, v);
}

NOINLINE void stats_from_ops(struct ops *o, long v)
{
	struct stats *s = container_of(o, struct stats, own_ops);

	s->via_container = v;
}

NOINLINE void stats_global(long v)
{
	global_stats.global_only = v;
}

NOINLINE void fixture_lock(fixture_spinlock_t *l)
{
	__atomic_store_n(&l->word, 1, __ATOMIC_RELEASE);
}

NOINLINE void stats_locked(struct stats *s)
{
	fixture_lock(&s->lock);
}

NOINLINE void stats_percpu(long v)
{
	__seg_gs struct stats *p = (__seg_gs struct stats *)(uintptr_t)&percpu_stats;

	p->global_only = v;
}

/* test dword [mem], imm: capstone 4 calls the operand written; it is only read. */
NOINLINE void stats_slow_path(void)
{
	__asm__ volatile("");
}

NOINLINE void stats_cpu_flag(const struct stats *s)
{
	/* A branch to a call: compilers test the memory operand itself. */
	if (s->cpu & 0x400000)
		stats_slow_path();
}

NOINLINE int stats_read(struct stats *s, int x)
{
	return s->ops->run(x);
}

NOINLINE int stats_read_again(const struct stats *s, int x)
{
	return s->ops->run(x + 1);
}

int main(int argc, char **argv)
{
	struct stats *s = stats_alloc(argc);

	(void)argv;
	if (!s)
		return 1;
	stats_get(s);
	stats_seq_bump(s);
	stats_hit(s, argc);
	stats_set_mode(s, (unsigned)argc);
	stats_nested(s, argc);
	stats_chain(s, argc);
	stats_through_helper(s, argc);
	stats_from_ops(&s->own_ops, argc);
	stats_global(argc);
	stats_locked(s);
	if (argc > 99)
		stats_percpu(argc);	/* never: %gs means nothing in a program */
	stats_cpu_flag(s);
	return stats_read(s, argc) + stats_read_again(s, argc) - 4;
}
