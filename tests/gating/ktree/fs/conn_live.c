// SPDX-License-Identifier: GPL-2.0-or-later
/* The code that says what struct conn_live's members are: read-mostly ops, write-hot hits. */
#include <linux/conn_live.h>

const void *conn_live_ops(const struct conn_live *l)
{
	return __atomic_load_n(&l->ops, __ATOMIC_RELAXED);
}

int conn_live_has_ops(const struct conn_live *l)
{
	return l->ops != 0;
}

const void *conn_live_ops_twice(const struct conn_live *l, int n)
{
	return n ? l->ops : 0;
}

void conn_live_hit(struct conn_live *l)
{
	__atomic_fetch_add(&l->hits, 1, __ATOMIC_RELAXED);
}
