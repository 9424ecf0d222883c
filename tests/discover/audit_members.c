/*
 * Fixture for --audit on an executable, where the raw scan tells which
 * structs have a member the audit reads and only those are built: each
 * struct here has its ops pointer where that reading must still find it.
 */
typedef struct { int counter; } atomic_t;
typedef struct { unsigned int lock; } spinlock_t;
struct gadget_ops { int (*open)(void); };

/* Inside anonymous members: the struct's own, on one line with the lock. */
struct aud_anon {
	union {
		const struct gadget_ops *ops;
		long raw;
	};
	struct {
		struct {
			spinlock_t lock;
		};
	};
};

/* Named by a typedef of an anonymous struct. */
typedef struct {
	const struct gadget_ops *ops;
	atomic_t refs;
} aud_typedefd;

/*
 * After an unnamed bitfield, in an anonymous union beside a named member
 * whose own ops pointer is not this struct's.
 */
typedef union { const struct gadget_ops *ops; long raw; } aud_either;
struct aud_deep {
	unsigned int : 3;
	union {
		aud_either either;
		const struct gadget_ops *ops;
	};
	atomic_t count;
};

/* No ops pointer at all: nothing to mix, so not built, and not listed. */
struct aud_plain {
	spinlock_t lock;
	long a, b;
};

/* The ops pointer in a named member: that struct's audit, not this one's. */
struct aud_outer {
	struct aud_plain plain;
	aud_typedefd named;
	spinlock_t lock;
};

/*
 * For --contains aud_plain, raw and through libdw: held by value three
 * levels down, in an array, behind a typedef (whose name is no match, but
 * whose members are searched), and by pointer (no match).
 */
typedef struct aud_plain aud_plain_t;
struct aud_holder {
	struct {
		struct aud_outer outer;
	} wrap;
	aud_plain_t typed;
	struct aud_plain many[2];
	struct aud_plain *ptr;
};

struct aud_holder g_holder;
struct aud_anon g_anon;
aud_typedefd g_typedefd;
struct aud_deep g_deep;
struct aud_plain g_plain;
struct aud_outer g_outer;

int main(void)
{
	return g_anon.raw != 0;
}
