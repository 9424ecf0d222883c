/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_CONN_POOL_H
#define _LINUX_CONN_POOL_H

#include <linux/conn.h>

/*
 * No rules name it, and it embeds struct conn, which they do, inside an
 * anonymous struct in an anonymous union: a change to struct conn moves
 * its members here too (layoutlint-kernel lints it with struct conn's
 * rules in place).
 */
struct conn_pool {
	long nr;
	union {
		struct {
			struct conn primary;
			int weight;
		};
		long raw;
	};
};

#endif
