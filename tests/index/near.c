/*
 * "Did you mean": twenty variables one edit from idx_near_q, one struct
 * two edits from it. The struct is the answer, however many closer
 * strings .debug_str holds; the anonymous struct of a typedef one edit
 * away is not a struct of that name. Neither is a name .debug_str does
 * not hold (qz, which gcc writes inline) nor one with a byte no
 * identifier has (near$bar).
 */
#define NEAR_FOOX typedef struct { int x; } near_foox
#include "near.h"

struct idx_nearby_q { int a; };
typedef struct { int x; } idx_near_t;
struct qz { int z; };
struct near$bar { int y; };
union near_su { int a; float f; };	/* and struct near_su in near2.c: this one is first */

struct idx_nearby_q g_nearby;
idx_near_t g_near_t;
near_foox g_foox_typedef;
struct qz g_short;
struct near$bar g_dollar;
union near_su g_su_union;
int idx_near_0, idx_near_1, idx_near_2, idx_near_3, idx_near_4;
int idx_near_5, idx_near_6, idx_near_7, idx_near_8, idx_near_9;
int idx_near_a, idx_near_b, idx_near_c, idx_near_d, idx_near_e;
int idx_near_f, idx_near_g, idx_near_h, idx_near_i, idx_near_j;

int main(void)
{
	return 0;
}
