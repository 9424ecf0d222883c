/* A second struct entry, as hiredis's dict.h beside redis's: same name and size. */
struct entry {
	void *key;
	void *val;
	struct entry *next;
};
