#ifndef CONN_H
#define CONN_H

#include <stddef.h>

struct ops;

struct conn {
	union {
		/* Which end: set once at connect. */
		const void *peer;
		unsigned long peer_id;
	};
	/* Protects the state below; taken on every send. */
	int lock;
	const struct ops *ops;		/* never changes after setup */
	unsigned long tx_bytes;		/* bumped per packet */
#ifdef CONFIG_STATS
	unsigned long rx_drops;
	unsigned long tx_drops;
#endif
	const char *name;
	/*
	 * Sequence numbers: written on every packet.
	 */
	unsigned long seq __attribute__((aligned(8)));
	void *priv;			/* read-mostly: set at open */
#ifdef CONFIG_DEBUG
	/* only in debug builds */
	int debug_level;
#endif
	unsigned int flags;
	char pad_tail[20];
};

#endif
