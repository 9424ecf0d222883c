// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program the profile tests record: one thread writes a counter while
 * another reads the ops pointer and flags beside it. Built as is, `hits`
 * shares a cacheline with `ops` and `flags` (false sharing); built with
 * -DCLEAN, `ops` starts the next line and the two threads share nothing.
 * `hits` comes first so that the writer's locked add addresses the struct
 * pointer itself: perf 6.12 loses the type of a pointer moved past the
 * start (gcc's `add $0x10,%rdi`) and would put the writes at offset 0.
 * `name` is never touched: the member a profile leaves cold.
 *
 * usage: sharing [ITERATIONS]   (default 10000000 per thread)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct conn_ops {
	int (*handle)(int);
};

#ifdef CLEAN
#define OWN_LINE __attribute__((aligned(64)))
#else
#define OWN_LINE
#endif

struct stats {
	unsigned long hits;		/* written by the writer thread */
	const struct conn_ops *ops OWN_LINE;	/* read by the reader thread */
	unsigned int flags;		/* read by the reader thread */
	unsigned int refcnt;		/* never touched after setup */
	char name[16];			/* never touched: cold */
};

static int handle(int x)
{
	return x + 1;
}

static const struct conn_ops the_ops = { handle };
static unsigned long iterations = 10000000UL;

/* noinline and a typed pointer argument: the sampled instructions address
 * the struct through a register whose DWARF type perf can name. */
__attribute__((noinline)) static void *writer(void *arg)
{
	struct stats *s = arg;

	for (unsigned long i = 0; i < iterations; i++)
		__atomic_fetch_add(&s->hits, 1, __ATOMIC_RELAXED);
	return NULL;
}

__attribute__((noinline)) static void *reader(void *arg)
{
	struct stats *s = arg;
	unsigned long sum = 0;

	for (unsigned long i = 0; i < iterations; i++) {
		/*
		 * Opaque to gcc, so that it does not keep &s->flags in a
		 * register of its own, whose type perf cannot name.
		 */
		__asm__ volatile("" : "+r"(s));
		const struct conn_ops *ops = __atomic_load_n(&s->ops, __ATOMIC_RELAXED);
		unsigned int flags = __atomic_load_n(&s->flags, __ATOMIC_RELAXED);

		sum += flags + (ops != NULL);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	static struct stats st = { .ops = &the_ops, .flags = 1, .refcnt = 1 };
	pthread_t w, r;
	void *sum;

	if (argc > 1)
		iterations = strtoul(argv[1], NULL, 0);
	if (pthread_create(&w, NULL, writer, &st) || pthread_create(&r, NULL, reader, &st))
		return 1;
	pthread_join(w, NULL);
	pthread_join(r, &sum);
	printf("hits=%lu sum=%lu handle=%d\n", st.hits, (unsigned long)sum, st.ops->handle(0));
	return 0;
}
