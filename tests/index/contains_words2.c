#include "contains_words.h"

/* The other cw_twice: this one holds cw_leaf, and so does what embeds it here. */
struct cw_twice { struct cw_leaf leaf; };
struct cw_embeds_there { struct cw_twice t; };
struct cw_embeds_there cw_embeds_there;
