/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file61.c — struct file of Debian 12's 6.1 kernel (x86_64), without kernel
 * headers, for trying layoutlint on a small object file:
 *
 *	gcc -g -c -I examples/include examples/file61.c -o file61.o
 *	layoutlint -r rules/file.rules file61.o
 *
 * The definition of struct file is in include/linux/fs.h (next to this file),
 * copied from v6.1 with the kernel's lines and columns. The types it uses are
 * stand-ins defined here under the kernel's own names, with the kernel's sizes
 * and alignments (x86_64, no lockdep, no randstruct); their insides are
 * simplified where that changes nothing. The _Static_asserts at the end pin
 * every offset and size to what pahole prints for the 6.1 vmlinux
 * (pahole -F dwarf -C file vmlinux-6.1.0-*-cloud-amd64), so this file does not
 * compile unless the layout is the kernel's.
 */
#include <stddef.h>

/* Debian's 6.1 cloud kernel has both; the members exist only with them. */
#define CONFIG_SECURITY 1
#define CONFIG_EPOLL 1

#define __bitwise
#define __randomize_layout	/* CONFIG_RANDSTRUCT_NONE */

/* include/uapi/asm-generic/int-ll64.h, include/asm-generic/int-ll64.h */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef signed long long __s64;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __s64 s64;
typedef __u64 u64;

/* include/uapi/asm-generic/posix_types.h, include/linux/types.h */
typedef unsigned int __kernel_uid32_t;
typedef long long __kernel_loff_t;
typedef __kernel_uid32_t uid_t;
typedef __kernel_loff_t loff_t;
typedef unsigned int __bitwise fmode_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

/* include/linux/atomic/atomic-long.h (CONFIG_64BIT) */
typedef atomic64_t atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node;
struct hlist_head {
	struct hlist_node *first;
};

/* include/linux/types.h */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
} __attribute__((aligned(sizeof(void *))));
#define rcu_head callback_head

/* include/linux/llist.h */
struct llist_node {
	struct llist_node *next;
};

/* include/asm-generic/qspinlock_types.h (little-endian) */
typedef struct qspinlock {
	union {
		atomic_t val;
		struct {
			u8	locked;
			u8	pending;
		};
		struct {
			u16	locked_pending;
			u16	tail;
		};
	};
} arch_spinlock_t;

/* include/asm-generic/qrwlock_types.h (little-endian) */
typedef struct qrwlock {
	union {
		atomic_t cnts;
		struct {
			u8 wlocked;	/* Locked for write? */
			u8 __lstate[3];
		};
	};
	arch_spinlock_t		wait_lock;
} arch_rwlock_t;

/* include/linux/spinlock_types_raw.h, spinlock_types.h, rwlock_types.h */
typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;

typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
	};
} spinlock_t;

typedef struct {
	arch_rwlock_t raw_lock;
} rwlock_t;

/* include/linux/osq_lock.h */
struct optimistic_spin_queue {
	atomic_t tail;
};

/* include/linux/mutex.h (CONFIG_MUTEX_SPIN_ON_OWNER, no debug): 32 bytes */
struct mutex {
	atomic_long_t		owner;
	raw_spinlock_t		wait_lock;
	struct optimistic_spin_queue osq;
	struct list_head	wait_list;
};

/* include/linux/uidgid.h, include/linux/pid.h */
typedef struct {
	uid_t val;
} kuid_t;

enum pid_type {
	PIDTYPE_PID,
	PIDTYPE_TGID,
	PIDTYPE_PGID,
	PIDTYPE_SID,
	PIDTYPE_MAX,
};

/* include/linux/path.h */
struct vfsmount;
struct dentry;
struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
} __randomize_layout;

/* include/linux/fs.h, above struct file */
struct pid;
struct fown_struct {
	rwlock_t lock;          /* protects pid, uid, euid fields */
	struct pid *pid;	/* pid or -pgrp where SIGIO should be sent */
	enum pid_type pid_type;	/* Kind of process group SIGIO should be sent to */
	kuid_t uid, euid;	/* uid/euid of process setting the owner */
	int signum;		/* posix.1b rt signal to be delivered on IO */
};

struct file_ra_state {
	unsigned long start;
	unsigned int size;
	unsigned int async_size;
	unsigned int ra_pages;
	unsigned int mmap_miss;
	loff_t prev_pos;
};

/* include/linux/errseq.h */
typedef u32 errseq_t;

/* Only pointed to. */
struct inode;
struct file_operations;
struct cred;
struct address_space;

#include "include/linux/fs.h"

/* An instance, so that every compiler emits the type's DWARF. */
struct file example_file;

/* The numbers pahole 1.24 prints for the Debian 6.1 vmlinux. */
#define MEMBER_AT(m, off, size)						\
	_Static_assert(offsetof(struct file, m) == (off),		\
		       "offset of " #m);				\
	_Static_assert(sizeof(((struct file *)0)->m) == (size),	\
		       "size of " #m)

_Static_assert(sizeof(struct file) == 232, "sizeof(struct file)");
_Static_assert(_Alignof(struct file) == 8, "alignment of struct file");
MEMBER_AT(f_llist,        0,  8);	/* anonymous union, bytes 0-15 */
MEMBER_AT(f_rcuhead,      0, 16);
MEMBER_AT(f_iocb_flags,   0,  4);
MEMBER_AT(f_path,        16, 16);
MEMBER_AT(f_inode,       32,  8);
MEMBER_AT(f_op,          40,  8);
MEMBER_AT(f_lock,        48,  4);	/* 4-byte hole at 52 */
MEMBER_AT(f_count,       56,  8);
MEMBER_AT(f_flags,       64,  4);	/* cacheline 1 */
MEMBER_AT(f_mode,        68,  4);
MEMBER_AT(f_pos_lock,    72, 32);
MEMBER_AT(f_pos,        104,  8);
MEMBER_AT(f_owner,      112, 32);	/* straddles lines 1 and 2 */
MEMBER_AT(f_cred,       144,  8);
MEMBER_AT(f_ra,         152, 32);
MEMBER_AT(f_version,    184,  8);
MEMBER_AT(f_security,   192,  8);	/* cacheline 3 */
MEMBER_AT(private_data, 200,  8);
MEMBER_AT(f_ep,         208,  8);
MEMBER_AT(f_mapping,    216,  8);
MEMBER_AT(f_wb_err,     224,  4);
MEMBER_AT(f_sb_err,     228,  4);
