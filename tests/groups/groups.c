/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for kernel cacheline groups: the marker macros exactly as
 * include/linux/cache.h (6.12) spells them, in structs whose offsets
 * tests/groups/run_groups.py asserts (64-byte lines, LP64).
 */
typedef unsigned char __u8;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define SMP_CACHE_BYTES 64
#define __aligned(x) __attribute__((__aligned__(x)))
#define ____cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))

/* include/linux/cache.h */
#ifndef __cacheline_group_begin
#define __cacheline_group_begin(GROUP) \
	__u8 __cacheline_group_begin__##GROUP[0]
#endif

#ifndef __cacheline_group_end
#define __cacheline_group_end(GROUP) \
	__u8 __cacheline_group_end__##GROUP[0]
#endif

#define __cacheline_group_begin_aligned(GROUP, ...)		\
	__cacheline_group_begin(GROUP)				\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)

#define __cacheline_group_end_aligned(GROUP, ...)		\
	__cacheline_group_end(GROUP) __aligned(sizeof(long));	\
	struct { } __cacheline_group_pad__##GROUP		\
	__aligned((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)

/* Unaligned groups, as tcp_sock and net_device have them. */
struct grp_basic {
	long head[5];				/* 0-39 */
	__cacheline_group_begin(grp_basic_read_tx);	/* 40 */
	long r1;				/* 40 */
	long r2;				/* 48 */
	long r3;				/* 56 */
	int r4;					/* 64: the group touches lines 0-1 */
	__cacheline_group_end(grp_basic_read_tx);	/* 68: 28 bytes, min 1 line */
	__cacheline_group_begin(grp_basic_write_rx);	/* 68 */
	int w1;					/* 68: line 1 with r4 (mixed) */
	long w2;				/* 72 */
	__cacheline_group_end(grp_basic_write_rx);	/* 80 */
	long cold1;				/* 80: outside every group */
	__cacheline_group_begin(grp_basic_write_txrx);	/* 88 */
	long t1;				/* 88: line 1 with w1, w2 (domains) */
	__cacheline_group_end(grp_basic_write_txrx);	/* 96 */
	long fill[3];				/* 96-119 */
	__cacheline_group_begin(grp_basic_hot);	/* 120: no read/write token */
	char buf[100];				/* 120-219: lines 1-3, min 2 */
	__cacheline_group_end(grp_basic_hot);		/* 220 */
	int tail;				/* 220 */
};

/* The aligned variants, as netns_ipv4 (icmp) and page_pool (frag) have them. */
struct grp_aligned {
	int a;					/* 0 */
	__cacheline_group_begin_aligned(grp_aligned_write_tx);	/* 64 */
	long x;					/* 64 */
	long y;					/* 72 */
	__cacheline_group_end_aligned(grp_aligned_write_tx);	/* 80, pad at 128 */
	long b;					/* 128 */
	__cacheline_group_begin_aligned(grp_aligned_read_rx, 32);	/* 160 */
	long r[6];				/* 160-207: lines 2-3, min 1 */
	__cacheline_group_end_aligned(grp_aligned_read_rx, 32);	/* 208, pad at 224 */
	int c;					/* 224 */
};

struct grp_inner {
	long i0;
	__cacheline_group_begin(grp_inner_write_tx);
	long i1;
	__cacheline_group_end(grp_inner_write_tx);
};

/*
 * Markers inside anonymous aggregates are the struct's own; those of a
 * named nested struct belong to that struct's type.
 */
struct grp_nested {
	long n0;				/* 0 */
	struct {
		__cacheline_group_begin(grp_nested_read_rx);	/* 8 */
		long n1;			/* 8 */
		union {
			long n2;		/* 16 */
			int n3;
		};
		__cacheline_group_end(grp_nested_read_rx);	/* 24 */
	};
	struct grp_inner inner;			/* 24-39 */
	__cacheline_group_begin(grp_nested_write_rx);	/* 40 */
	long n4;				/* 40 */
	__cacheline_group_end(grp_nested_write_rx);	/* 48 */
};

/*
 * The fast-path conventions (6.12's tcp_sock, sock): a path's read group
 * may share a line with the same path's write group, a txrx write group
 * with a tx or rx one (grp_paths, silent); write_tx beside write_rx
 * (grp_clash) and read_txrx beside write_rx (grp_cross) are false sharing.
 */
struct grp_paths {
	__cacheline_group_begin(grp_paths_read_rx);	/* 0 */
	long pr1;					/* 0: line 0 */
	__cacheline_group_end(grp_paths_read_rx);	/* 8 */
	__cacheline_group_begin(grp_paths_write_rx);	/* 8 */
	long pw1;					/* 8: line 0 with pr1 */
	long pad0[6];					/* 16-63 */
	__cacheline_group_end(grp_paths_write_rx);	/* 64 */
	__cacheline_group_begin(grp_paths_write_txrx);	/* 64 */
	long pt1;					/* 64: line 1 */
	__cacheline_group_end(grp_paths_write_txrx);	/* 72 */
	__cacheline_group_begin(grp_paths_write_tx);	/* 72 */
	long pw2;					/* 72: line 1 with pt1 */
	__cacheline_group_end(grp_paths_write_tx);	/* 80 */
};

struct grp_clash {
	__cacheline_group_begin(grp_clash_write_tx);	/* 0 */
	long ct;					/* 0: line 0 */
	__cacheline_group_end(grp_clash_write_tx);	/* 8 */
	__cacheline_group_begin(grp_clash_write_rx);	/* 8 */
	long cr;					/* 8: line 0 with ct */
	__cacheline_group_end(grp_clash_write_rx);	/* 16 */
};

struct grp_cross {
	__cacheline_group_begin(grp_cross_read_txrx);	/* 0 */
	long xr;					/* 0: line 0 */
	__cacheline_group_end(grp_cross_read_txrx);	/* 8 */
	__cacheline_group_begin(grp_cross_write_rx);	/* 8 */
	long xw;					/* 8: line 0 with xr */
	__cacheline_group_end(grp_cross_write_rx);	/* 16 */
};

/*
 * split-hot's level: a scalar across a line boundary is a split lock
 * (error); a struct of several fields is written field by field, so its
 * straddle is the warning any hot member's is.
 */
struct __attribute__((packed)) grp_split {
	char head[60];					/* 0-59 */
	__cacheline_group_begin(grp_split_write_rx);	/* 60 */
	long cnt;					/* 60-67: straddles 0-1 */
	char mid[56];					/* 68-123 */
	struct { long a, b; } pair;			/* 124-139: straddles 1-2 */
	__cacheline_group_end(grp_split_write_rx);	/* 140 */
};

/* The members the tables in tests/groups/import/ describe. */
struct tcp_sock {
	struct { long l[4]; } inet_conn;
	u16 tcp_header_len;
	u16 gso_segs;
	u32 pred_flags;
	u64 bytes_received;
	u32 rtt_seq;
	u64 tcp_mstamp;
	struct { long a, b; } keepalive_timer;
	u32 snd_cwnd;
	u8 repair:1;
	u32 chrono_stat[3];
	u32 delivered;
	struct { long n, p; } tsq_node;
	struct { u8 pending; u8 quick; } icsk_ack;
};

struct grp_basic grp_basic;
struct grp_aligned grp_aligned;
struct grp_nested grp_nested;
struct grp_paths grp_paths;
struct grp_clash grp_clash;
struct grp_cross grp_cross;
struct grp_split grp_split;
struct tcp_sock tcp_sock;

int main(void)
{
	return 0;
}
