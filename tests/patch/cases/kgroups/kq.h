#ifndef KQ_H
#define KQ_H
#include <linux/cache.h>

struct kq {
	unsigned long head;		/* written by every enqueue */
	/* Fields the fast path only reads. */
	__cacheline_group_begin(kq_read_mostly);
	const void *ops;
	const char *name;
	void *owner;
	unsigned int flags;
	__cacheline_group_end(kq_read_mostly);
	unsigned long tail;		/* written by every dequeue */
	long spare[5];
};
#endif
