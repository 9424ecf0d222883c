#ifndef KRING_H
#define KRING_H
#include <linux/cache.h>

struct kring {
	/* producer side */
	unsigned long head;
	unsigned long tail;		/* consumer */
	void *slots;
	unsigned int mask;
	unsigned int size;
	unsigned long prod_seq;
	unsigned long cons_seq;
#ifdef CONFIG_KRING_NAMES
	const char *name;		/* set once */
#endif
	void *owner;
	unsigned long head_stat;
	unsigned long tail_stat;
	long pad[4];
} __attribute__((aligned(8)));
#endif
