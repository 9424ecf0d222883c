// SPDX-License-Identifier: GPL-2.0-or-later
/* The object that defines struct conn_pool, which embeds struct conn. */
#include <linux/conn_pool.h>

struct conn_pool conn_pool_instance;
