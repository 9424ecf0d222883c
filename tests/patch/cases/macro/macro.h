#ifndef MACRO_H
#define MACRO_H
#define COUNTERS(n) unsigned long n##_hits; unsigned long n##_misses

struct cache {
	const void *ops;
	COUNTERS(lookup);
	const char *name;
	unsigned long lock;
};
#endif
