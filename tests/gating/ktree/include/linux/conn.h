/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_CONN_H
#define _LINUX_CONN_H

#include <linux/types.h>

struct conn_ops;

struct conn {
	/* line 0: read-mostly */
	const struct conn_ops *ops;
	unsigned long flags;
	void *priv;
	conn_stat_t stat;

	/* line 1: write-hot, and cfg read next to lock: an old finding */
	_Alignas(64) spinlock_t lock;
	atomic_t refs;
	const void *cfg;
#ifdef CONFIG_CONN_DEBUG
	unsigned long debug_flags;
#endif

	/* line 2: write-hot */
	_Alignas(64) long count;
	long bytes;
};

#endif
