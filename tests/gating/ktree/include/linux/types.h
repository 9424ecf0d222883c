/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef struct { int counter; } atomic_t;
typedef struct { unsigned int slock; } spinlock_t;
/* The test widens this to move what follows it. */
typedef struct { long v[1]; } conn_stat_t;

#endif
