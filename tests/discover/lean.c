/*
 * Fixture for --contains where most structs are digested without their
 * members' types (a lean build): each match below must still be found,
 * and each near miss left out.
 */
struct lean_in { int a; };
typedef struct lean_in lean_t;
typedef long lean_long;

/* "long int" in DWARF, "long" as C and --contains spell it. */
struct lean_longs {
	long l;
	long arr[2];
	const long c;		/* "const long": not by value of "long" */
	long *p;		/* a pointer */
	unsigned long u;	/* "long unsigned int": spelled "unsigned long" */
	lean_long typedefed;	/* "lean_long" */
};

/* A typedef is its own name: --contains lean_t is not --contains lean_in. */
struct lean_typedefs {
	lean_t t;
	lean_t ta[3];
	struct lean_in s;
	lean_t *tp;
	void (*fn)(struct lean_in);	/* names lean_in only inside the parameters */
};

/* Deep inside anonymous members and a named nested one. */
struct lean_deep {
	int x;
	union {
		struct {
			char pad;
			struct lean_in deep;
		};
		long other;
	};
	struct { struct lean_in named_deep[2]; } wrap;
};

/* Only a chain of arrays keeps the spelling: const, pointers and functions change it. */
struct lean_chains {
	struct lean_in grid[2][3];		/* "struct lean_in[2][3]": found */
	const struct lean_in carr[2];		/* "const struct lean_in[2]" */
	volatile lean_t vt;			/* "volatile lean_t" */
	struct lean_in *parr[2];		/* "struct lean_in *[2]" */
	struct lean_in (*pa)[2];		/* "struct lean_in (*)[2]" */
	struct lean_in *const cp;		/* "struct lean_in *const" */
};

/* Nothing to find here for any of the names above but int. */
struct lean_none { int i; char c; struct lean_none *self; };

struct lean_longs g_longs;
struct lean_typedefs g_typedefs;
struct lean_deep g_deep;
struct lean_chains g_chains;
struct lean_none g_none;
