/* Zero-size members occupy no bytes. */
struct empty { };

struct zero_size {
    const void *ops;
    unsigned long flags;
    char marker[0];             /* group marker at offset 16 */
    struct empty nothing;       /* empty struct at offset 16 */
    long data[];                /* flexible array member at offset 16 */
};

_Static_assert(sizeof(struct zero_size) == 16, "16 bytes");

struct zero_size zs;

/* Zero-size members right at a cacheline boundary. */
struct zero_boundary {
    char pad[56];
    long hits;                  /* bytes 56-63: write-hot */
    char begin[0];              /* offset 64: read-mostly, but no bytes */
    const void *ops;            /* bytes 64-71: read-mostly */
    char end[0];                /* offset 72: write-hot, but no bytes */
    long more;
};

_Static_assert(__builtin_offsetof(struct zero_boundary, begin) == 64, "begin at 64");

struct zero_boundary zb;
