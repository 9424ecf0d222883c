/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for tests/gating/run_gating.py, compiled at test time with
 * gcc -g -c (and clang, for input without columns) in several variants:
 *
 *   (none)     struct conn has one finding: line 0 mixes ops with lock.
 *   -DNEW_HOT  adds write-hot hits next to read-mostly cfg and flags on
 *              line 1: exactly one new finding.
 *   -DNEW_READ adds read-mostly name next to ops and lock on line 0: the
 *              line 0 finding gains one new pair (name with lock).
 *   -DFIXED    moves lock to line 2: the line 0 finding goes away.
 *   -DV2       struct sess, reordered: cfg moves from line 2 to line 0, ops
 *              from line 0 to line 1 (next to write-hot counter: the one new
 *              finding); extra is added; cfg with lock no longer share line 2.
 *   -DNO_SESS  no struct sess at all.
 *
 * _Alignas(64) pins where each cacheline starts, so that a change on one
 * line moves nothing on the others.
 */

struct conn {
	const void *ops;		/* read-mostly */
#ifndef FIXED
	int lock;			/* write-hot */
#endif
	int state;
#ifdef NEW_READ
	const char *name;		/* read-mostly */
#endif
	/* --- line 1 --- */
	_Alignas(64) const void *cfg;	/* read-mostly */
	unsigned long flags;		/* read-mostly */
#ifdef NEW_HOT
	long hits;			/* write-hot */
#endif
	/* --- line 2 --- */
	_Alignas(64) long count;	/* write-hot */
	long bytes;			/* write-hot */
#ifdef FIXED
	int lock;
#endif
};

#ifndef NO_SESS
#ifndef V2
struct sess {
	const void *ops;		/* read-mostly, line 0 */
	long pad0[7];
	_Alignas(64) long counter;	/* write-hot, line 1 */
	long stats[6];
	_Alignas(64) const void *cfg;	/* read-mostly, line 2 */
	int lock;			/* write-hot, line 2: the old finding */
};
#else
struct sess {
	const void *cfg;		/* line 2 -> line 0 */
	long pad0[7];
	_Alignas(64) long counter;
	const void *ops;		/* line 0 -> line 1: the new finding */
	long stats[6];
	_Alignas(64) int lock;
	long extra[8];			/* added: lines 2-3 */
};
#endif
#endif

/* A write-hot member across a line boundary: a single-member (split-hot) pair. */
struct __attribute__((packed)) spl {
	char pad[60];
	long hot;
};

/* No rules, no findings. */
struct quiet {
	int a;
	long b;
};

struct conn conn_v;
#ifndef NO_SESS
struct sess sess_v;
#endif
struct spl spl_v;
struct quiet quiet_v;
