/* near.h's line again, now a named struct: the same file, line, size and members. */
#define NEAR_FOOX struct near_foox { int x; }
#include "near.h"

struct near_foox g_foox;
struct near_su { long b; } g_su_struct;
