/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --prove fixtures: layouts whose answer is known.
 *
 * struct shared_ref: a reference count updated atomically on every get and
 * put shares its line with the members every reader loads (struct file's
 * f_count beside f_op and f_mode before 6.13): the suggestion moves it off
 * the line, and the readers must measure faster.
 *
 * struct apart_ref: the same members with the count on a line of its own
 * already: the suggestion keeps it, both runs measure one layout, and the
 * verdict must be "no measurable difference".
 */
typedef struct {
	long counter;
} atomic_long_t;

struct shared_ref {
	const void *ops;
	unsigned long flags;
	atomic_long_t refs;
	unsigned int mode;
	unsigned int uid;
	void *private_data;
	char name[24];
};

struct apart_ref {
	const void *ops;
	unsigned long flags;
	unsigned int mode;
	unsigned int uid;
	void *private_data;
	char name[24];
	_Alignas(64) atomic_long_t refs;
};

struct shared_ref shared_ref;
struct apart_ref apart_ref;
