// SPDX-License-Identifier: GPL-2.0-or-later
/* A second object that includes conn.h: struct conn is defined in both. */
#include <linux/conn.h>

long conn_stats_bytes(const struct conn *c)
{
	return c->bytes;
}
