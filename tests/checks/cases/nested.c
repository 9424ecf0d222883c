/* Paths into nested aggregates, typedefs and anonymous unions. */
typedef struct {
    int counter;
} atomic_t;

struct spin {
    int lock;
    int owner;
};

struct with_inner {
    const void *ops;
    struct spin inner;
    long data;
};

struct with_atomic {
    atomic_t refs;
    int flags;
    const void *ops;
};

struct with_anon {
    const void *ops;
    union {
        unsigned long state;
        struct {
            int head;
            int tail;
        };
    };
    long spare;
};

/* Two alternatives of one union, tagged differently. */
struct with_union {
    union {
        unsigned long seq;
        const void *owner;
    } u;
    long spare;
};

struct with_inner wi;
struct with_atomic wa;
struct with_anon wn;
struct with_union wu;
