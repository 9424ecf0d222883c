/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for tests/gating/run_gating.py: where a new finding is located.
 * Compiled twice with gcc -g -c: as is (the reference) and with -DMOVED,
 * where two members move next to members of the other kind:
 *
 *   line 0: write-hot hits moves up next to read-mostly ops and name. Its
 *           finding is new; the check puts it at ops, gating at hits.
 *   line 1: read-mostly table moves down next to write-hot refs, where
 *           read-mostly cfg already met refs. The finding gains a new pair
 *           (table with refs); the check puts it at cfg, gating at table.
 *
 * The "@NAME" comments mark the declarations the test looks for.
 */

struct mv {
	const void *ops;			/* read-mostly */
	const char *name;			/* read-mostly */
#ifdef MOVED
	long hits;				/* @hits, moved */
#else
	const void *table;			/* @table, before */
#endif
	/* --- line 1 --- */
	_Alignas(64) const void *cfg;		/* read-mostly */
	long refs;				/* write-hot */
#ifdef MOVED
	const void *table;			/* @table, moved */
#endif
	/* --- line 2 --- */
	_Alignas(64) long bytes;
#ifndef MOVED
	long hits;				/* @hits, before */
#endif
};

struct mv mv_v;
