#ifndef FLEX_H
#define FLEX_H
struct payload {
	unsigned int len;
	unsigned char data[];	/* allocated past the struct's end */
};

struct msg {
	struct payload body;	/* ends in a flexible array: must stay last */
};

struct req {
	unsigned long refs;	/* written on every get/put */
	const void *ops;
	const char *name;
	void *cookie;
	unsigned long hits;
	long pad[3];
	struct msg tail;	/* ends in a flexible array through struct msg */
};
#endif
