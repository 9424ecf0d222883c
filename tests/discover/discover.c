/* Fixture for --list, --contains and --audit: known answers by construction. */
typedef struct { int counter; } atomic_t;
typedef struct { unsigned int lock; } spinlock_t;
struct widget_ops { int (*open)(void); void (*close)(void); };

struct disc_inner { long a; long b; };

/* A lock and an ops pointer on line 0, a refcount and another on line 1. */
struct disc_hot {
	const struct widget_ops *ops;
	spinlock_t lock;
	long pad[6];
	const struct widget_ops *ops2;
	atomic_t refs;
};

/* One mixed line only. */
struct disc_mild {
	const struct widget_ops *ops;
	atomic_t count;
};

/* Clean: the lock sits a line away from the ops pointer. */
struct disc_clean {
	const struct widget_ops *ops;
	long pad[7];
	spinlock_t lock;
};

/* Embeds disc_inner by value at two depths, and by pointer (not a match). */
struct disc_host {
	int x;
	struct disc_inner inner;
	struct { struct disc_inner deep; } nested;
	struct disc_inner *ptr;
	struct disc_inner arr[2];
};

union disc_union { struct disc_inner in; long l; };

struct disc_hot g_hot;
struct disc_mild g_mild;
struct disc_clean g_clean;
struct disc_host g_host;
union disc_union g_union;
