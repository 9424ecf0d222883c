/* mixed-cacheline: fires and stays silent. */
struct mixed_fire {
    const void *ops;            /* read-mostly */
    unsigned long flags;        /* read-mostly */
    long count;                 /* write-hot */
    int lock;                   /* write-hot */
};

/* One line of write-hot members of a single domain: nothing to report. */
struct one_domain {
    long head;
    long tail;
    int lock;
};

/* Read-mostly member starts exactly at offset 64, write-hot only on line 0. */
struct at_boundary {
    long count;
    int lock;
    char pad[52];
    const void *ops;
};

_Static_assert(__builtin_offsetof(struct at_boundary, ops) == 64, "ops at 64");

struct mixed_fire mf;
struct one_domain od;
struct at_boundary ab;

/* A large read-mostly member counts on every line it touches. */
struct big_table {
    long seq;                   /* bytes 0-7: write-hot, line 0 */
    char pad[24];
    const void *table[16];      /* bytes 32-159: read-mostly, lines 0-2 */
    long hits;                  /* bytes 160-167: write-hot, line 2 */
};

_Static_assert(__builtin_offsetof(struct big_table, hits) == 160, "hits at 160");

struct big_table bt;
