/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct file exactly as Debian 12's 6.1 kernel (linux-image-6.1.0-*-cloud-amd64,
 * x86_64) lays it out: same members, order, offsets, sizes, alignment and total
 * size (232 bytes, 4 cachelines). The definition below is the text of v6.1
 * include/linux/fs.h, tabs included, so DW_AT_decl_column of every member is
 * the kernel's; the #line directive makes DW_AT_decl_line the kernel's too
 * (struct file at 948, f_path at 954, f_lock at 962, ...). So layoutlint
 * reports on examples/file61.o and on the 6.1 vmlinux point at the same
 * include/linux/fs.h:LINE:COLUMN.
 *
 * NOTE: because of #line, the line numbers in diagnostics are those of the
 * kernel's fs.h, not of this file: struct file below starts at kernel line 948.
 *
 * The stand-in types it needs (spinlock_t, atomic_long_t, struct mutex, ...)
 * are defined by the file that includes this one (examples/file61.c), with the
 * kernel's names, sizes and alignments. Pointed-to types stay incomplete.
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#line 948
struct file {
	union {
		struct llist_node	f_llist;
		struct rcu_head 	f_rcuhead;
		unsigned int 		f_iocb_flags;
	};
	struct path		f_path;
	struct inode		*f_inode;	/* cached value */
	const struct file_operations	*f_op;

	/*
	 * Protects f_ep, f_flags.
	 * Must not be taken from IRQ context.
	 */
	spinlock_t		f_lock;
	atomic_long_t		f_count;
	unsigned int 		f_flags;
	fmode_t			f_mode;
	struct mutex		f_pos_lock;
	loff_t			f_pos;
	struct fown_struct	f_owner;
	const struct cred	*f_cred;
	struct file_ra_state	f_ra;

	u64			f_version;
#ifdef CONFIG_SECURITY
	void			*f_security;
#endif
	/* needed for tty driver, and maybe others */
	void			*private_data;

#ifdef CONFIG_EPOLL
	/* Used by fs/eventpoll.c to link all the hooks to this file */
	struct hlist_head	*f_ep;
#endif /* #ifdef CONFIG_EPOLL */
	struct address_space	*f_mapping;
	errseq_t		f_wb_err;
	errseq_t		f_sb_err; /* for syncfs */
} __randomize_layout
  __attribute__((aligned(4)));	/* lest something weird decides that 2 is OK */

#endif /* _LINUX_FS_H */
