/* Patterns: stale names, pointers, nested aggregates, conflicts. */
struct node {
    struct node *next;
    long x;
};

struct counters {
    const void *ops;
    long counter;
    struct node *ptr;
    long hits;
};

struct counters c;
