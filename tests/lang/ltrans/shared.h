/*
 * Under gcc -flto, a variable-length array of a file-scope struct (or of
 * pointers to one) makes the ltrans unit ("<artificial>") write its own
 * copy of the struct, without DW_AT_decl_file: redis-server's
 * robj argv[argc] and dictEntry *des[n] do this.
 */
struct entry {
	void *key;
	union {
		void *val;
		unsigned long u64;
		double d;
	} v;
	struct entry *next;
};

struct obj {
	unsigned type:4, enc:4, lru:24;
	int refcount;
	void *ptr;
};

int fill(int n, char **argv);
int other_count(int n);
