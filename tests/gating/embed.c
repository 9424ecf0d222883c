/*
 * layout-change fixtures (tests/gating/run_gating.py): each struct as it is,
 * and with -DGROW as a change to another struct or a member makes it.
 * struct file mirrors Linux 6.12's: struct path embedded by value at line 1;
 * one more pointer in struct path takes struct file from 184 to 192 bytes
 * and f_security from line 1 to line 2 with no new pair of tags on a line.
 */
struct path {
	void *mnt;
	void *dentry;
#ifdef GROW
	void *grown;
#endif
};

struct file {
	long f_count;
	const void *f_op;
	char pad0[48];
	struct path f_path;	/* line 1: 16 bytes, 24 with GROW */
	char pad1[40];
	void *f_security;	/* offset 120, 128 with GROW */
	char tail[56];
};

/* 96 bytes (kmalloc-96), 104 with GROW (kmalloc-128): two lines either way. */
struct req {
	long id;
	char body[80];
	long untagged_tail;
#ifdef GROW
	long more;
#endif
};

/* 128 bytes, 136 with GROW: three cachelines and kmalloc-192. */
struct big {
	char a[120];
	long b;
#ifdef GROW
	long c;
#endif
};

/* An untagged member moves, nothing else: no finding. */
struct quiet {
	long hot;
#ifdef GROW
	int pad;
#endif
	char fill[52];
	long untagged;
};

struct file f;
struct req r;
struct big b;
struct quiet q;
