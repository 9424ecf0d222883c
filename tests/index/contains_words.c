#include "contains_words.h"

struct cw_paths cw_paths;
struct cw_level3 cw_level3;
struct cw_plain cw_plain;

/* Defined here without cw_leaf, in contains_words2.c with it: the name is shared. */
struct cw_twice { int only_here; };
struct cw_embeds_twice { struct cw_twice t; };
struct cw_embeds_twice cw_embeds_twice_here;

int main(void)
{
	return cw_paths.by_const.leaf.a + cw_level3.l2[0].l1.h.leaf.a + cw_plain.n[0] +
	       cw_embeds_twice_here.t.only_here;
}
