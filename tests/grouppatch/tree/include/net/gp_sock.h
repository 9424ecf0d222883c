/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two structs without cacheline group markers, for --group-markers:
 * gp_sock has a gp_sock_struct_check() in net/gp_sock.c, gp_net has none.
 * Pointers and longs make the groups smaller on 32-bit targets, and i386
 * aligns a u64 to 4 bytes only.
 */
#ifndef GP_SOCK_H
#define GP_SOCK_H

struct gp_sock {
	long refcnt;
	void *ops;		/* set once */
	u32 mode, kind:4;	/* two members, one declaration, before the groups */
	u64 tx_seq;
	u64 tx_bytes;
	/* the receive path's sequence */
	long rx_seq;
	void *rx_list;
	u32 rx_bytes;
	u32 flags;
};

struct gp_net {
	int id;
	long hits;		/* lookups */
	long misses;
	void *owner;
};

#endif
