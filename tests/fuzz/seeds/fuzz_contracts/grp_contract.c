/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for group-assert (tests/contracts/run_contracts.py): a struct
 * with the kernel's cacheline group markers and, in an __init-style
 * function, its CACHELINE_ASSERT_GROUP_SIZE / _MEMBER lines, with the
 * macros as include/linux/cache.h (6.12) defines them. BUILD_BUG_ON is a
 * _Static_assert, so the compiler itself says whether each assert holds
 * on the target it builds for: the test's reference. Pointers and longs
 * make the groups smaller on 32-bit targets, as tcp_sock's are on armhf,
 * and i386 aligns a u64 to 4 bytes only: three targets, three layouts.
 * The test copies this file and edits the constants marked EDIT.
 */
typedef unsigned char __u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#define offsetof(TYPE, MEMBER) __builtin_offsetof(TYPE, MEMBER)
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#define __cacheline_group_begin(GROUP) __u8 __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) __u8 __cacheline_group_end__##GROUP[0]

#ifndef CACHELINE_ASSERT_GROUP_MEMBER
#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) \
	BUILD_BUG_ON(!(offsetof(TYPE, MEMBER) >= \
		       offsetofend(TYPE, __cacheline_group_begin__##GROUP) && \
		       offsetofend(TYPE, MEMBER) <= \
		       offsetof(TYPE, __cacheline_group_end__##GROUP)))
#endif

#ifndef CACHELINE_ASSERT_GROUP_SIZE
#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) \
	BUILD_BUG_ON(offsetof(TYPE, __cacheline_group_end__##GROUP) - \
		     offsetofend(TYPE, __cacheline_group_begin__##GROUP) > \
		     SIZE)
#endif

struct grp_contract {
	long head;
	__cacheline_group_begin(grp_contract_read_tx);
	void *ops;		/* 8 or 4 bytes */
	u32 mss;
	u32 flags;
	__cacheline_group_end(grp_contract_read_tx);
	__cacheline_group_begin(grp_contract_write_rx);
	u32 drops;
	u64 bytes;		/* 8-aligned everywhere but i386 */
	long seq;
	__cacheline_group_end(grp_contract_write_rx);
	u32 outside;
	__cacheline_group_begin(grp_contract_read_rx);
	u32 rcvbuf;
	__cacheline_group_end(grp_contract_read_rx);
	struct grp_inner {
		u32 a;
		u32 b;
	} inner;
};

/* randstruct's mark (include/linux/compiler_types.h without the plugin). */
#define __randomize_layout

struct grp_rand {
	void *ops;
	long refs;
	u32 flags;
} __randomize_layout;

struct grp_rand rand_instance;

/* A name for a member path, as inet_sock.h's inet_daddr (doc-drift resolves it). */
#define inner_a inner.a

struct grp_contract contract_instance;

/* The asserts, one per line, as tcp_struct_check() has them. */
int grp_contract_check(void)
{
	/* read_tx: 16 bytes on LP64, 12 on ILP32 */
	CACHELINE_ASSERT_GROUP_MEMBER(struct grp_contract, grp_contract_read_tx, ops);
	CACHELINE_ASSERT_GROUP_MEMBER(struct grp_contract, grp_contract_read_tx, mss);
	CACHELINE_ASSERT_GROUP_SIZE(struct grp_contract, grp_contract_read_tx, 16);	/* EDIT tx */
	/* write_rx: 24 bytes on x86-64, 20 on armhf, 16 on i386 */
	CACHELINE_ASSERT_GROUP_MEMBER(struct grp_contract, grp_contract_write_rx, drops);
	CACHELINE_ASSERT_GROUP_SIZE(struct grp_contract, grp_contract_write_rx, 20 + 4);	/* EDIT rx */
	CACHELINE_ASSERT_GROUP_MEMBER(struct grp_contract, grp_contract_read_rx, rcvbuf);	/* EDIT member */
	CACHELINE_ASSERT_GROUP_SIZE(struct grp_contract, grp_contract_read_rx, 4);
	/* CACHELINE_ASSERT_GROUP_SIZE(struct grp_contract, grp_contract_read_rx, 0): a comment */
	return 0;
}
