/*
 * Fixture for --contains answered from the scan's member words: which
 * structs can hold a type at some depth is decided over names, across
 * two units (contains_words.c, contains_words2.c); every struct below
 * that holds cw_leaf, through whatever path, must still be found.
 */
struct cw_leaf { int a; };

struct cw_holder {			/* directly */
	long pad;
	struct cw_leaf leaf;
};

typedef struct cw_holder cw_holder_t;	/* a typedef of a named struct: no definition hit */
typedef struct { struct cw_holder h; } cw_anon_t;	/* a typedef of an anonymous one */

/* Each path the words follow. */
struct cw_paths {
	cw_holder_t by_typedef;			/* typedef -> struct -> leaf */
	const struct cw_holder by_const;	/* a qualifier */
	struct cw_holder by_array[2][2];	/* arrays */
	cw_anon_t by_anon_typedef;		/* typedef -> anonymous struct -> struct */
	union {
		struct { char c; struct cw_holder deep; };	/* anonymous, nested */
		long other;
	};
	volatile cw_holder_t by_volatile_typedef;
};

/* Three levels of named structs, and a typedef of the middle one. */
struct cw_level1 { struct cw_holder h; };
typedef struct cw_level1 cw_level1_t;
struct cw_level2 { int x; cw_level1_t l1; };
struct cw_level3 { struct cw_level2 l2[3]; };

/* Near misses: no cw_leaf by value at any depth. */
struct cw_pointers {
	struct cw_leaf *p;
	struct cw_holder *hp;
	cw_holder_t *tp;
	struct cw_level3 (*fn)(struct cw_leaf);
	int (*arr_of_ptr[2])[3];
};
enum cw_enum { CW_A };
struct cw_plain {
	enum cw_enum e;
	int n[4];
	struct cw_pointers ptrs;
};
