/* A second unit: idx_beta again, idx_gamma only here. */
struct idx_alpha { int a; long b; };
struct idx_beta { char c; struct idx_alpha in; };
struct idx_gamma { void *p; struct idx_beta b; };

struct idx_beta g_beta2;
struct idx_gamma g_gamma;
struct idx_dup { long there; char c; } g_dup2;	/* distinct from index.c's */
