/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _LINUX_CONN_LIVE_H
#define _LINUX_CONN_LIVE_H

/*
 * No rules name it: `layoutlint-kernel --access` lints it with tags from
 * the code (fs/conn_live.c loads ops in three functions and updates hits
 * atomically), once a change touches its definition.
 */
struct conn_live {
	const void *ops;
	long calls;
	_Alignas(64) long hits;
};

#endif
