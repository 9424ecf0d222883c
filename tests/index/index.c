/* The name index's fixture: a few aggregates and typedefs in two units. */
struct idx_alpha { int a; long b; };
struct idx_beta { char c; struct idx_alpha in; };
typedef struct { int x; } idx_anon_t;
union idx_union { int i; float f; };
struct idx_dup { int only_here; };	/* another idx_dup in index2.c */

struct idx_alpha g_alpha;
struct idx_beta g_beta;
idx_anon_t g_anon;
union idx_union g_union;
struct idx_dup g_dup;
#ifdef EXTRA
struct idx_extra { int e[EXTRA]; } g_extra;	/* another build-id per value */
#endif

int main(void)
{
	return 0;
}
