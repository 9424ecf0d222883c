#ifndef RING_H
#define RING_H
#include <stddef.h>

/* Three classes that each need a line of their own: the proposal must start lines. */
struct ring {
	unsigned long head;		/* producer */
	unsigned long tail;		/* consumer */
	void *slots;
	unsigned int mask;
	unsigned int size;
	unsigned long prod_seq;
	unsigned long cons_seq;
	const char *name;
	void *owner;
	unsigned long head_stat;
	unsigned long tail_stat;
	long pad[4];
};
#endif
