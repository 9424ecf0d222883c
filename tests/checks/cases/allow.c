/* allow: accepted pairs leave the finding. */
struct sock_lite {
    const void *ops;
    unsigned long flags;
    int lock;
    int refs;
    long drops;
};

struct sock_lite sl;
