/*
 * --audit's member filter, as the name index records it (format 9): what
 * holds a pointer to a const ops table is built, the rest is not.
 */
typedef struct { int counter; } atomic_t;
struct af_operations { int (*open)(void); };
struct af_mixed { const struct af_operations *ops; atomic_t refs; };	/* one line: mixed */
struct af_nested { long pad; struct { const struct af_operations *ops; atomic_t n; }; };
struct af_plain { atomic_t refs; long b; };	/* no ops pointer: never built */

struct af_mixed g_mixed;
struct af_nested g_nested;
struct af_plain g_plain;

int main(void)
{
	return g_mixed.refs.counter + g_nested.n.counter + g_plain.refs.counter;
}
