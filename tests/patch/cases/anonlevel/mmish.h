#ifndef MMISH_H
#define MMISH_H
/* Like mm_struct: everything inside one anonymous struct, a flexible array after it. */
struct mmish {
	struct {
		unsigned long users;		/* atomic, every fork and exit */
		const void *ops;
		/* set at exec */
		const char *exe;
		unsigned long faults;		/* every page fault */
#ifdef CONFIG_MMISH_STATS
		unsigned long stats[2];
#endif
		void *pgd;
		long spare[3];
	};
	unsigned long cpu_bitmap[];
};
#endif
