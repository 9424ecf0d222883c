#ifndef ONELINE_H
#define ONELINE_H
struct pair {
	const void *ops;
	unsigned long lock; const char *name;
	unsigned long count;
};
#endif
