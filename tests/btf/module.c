/* A "kernel module" for the split-BTF test (run_btf.py): its BTF is encoded
 * on top of layouts.c's (pahole -J --btf_base), the way a .ko's is on top of
 * vmlinux's, so struct inner below resolves to the base's type ids.  It also
 * brings what layouts.c lacks: floats as BTF_KIND_FLOAT (--btf_gen_floats)
 * and a variadic function pointer. */
struct inner {				/* exactly as in tests/fixtures/layouts.c */
	char tag;
	int x;
	unsigned bf : 3, bf2 : 7;
	long y;
};

struct mod_state {
	struct inner in;		/* a base type, by value */
	double ratio;
	float weight;
	int (*log)(const char *fmt, ...);
	unsigned long flags : 5, mode : 3;
	const char name[16];
	struct inner *peers[3];
	struct mod_state *next;
};

struct mod_state g_mod_state;
