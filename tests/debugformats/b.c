#include "shared.h"
struct only_b { short s; struct shared_list *l; char c[5]; };
struct only_b ob; struct shared_list slb; shared_anon_t sbt; union shared_u sub;
struct shared_nested snb;
int fb(void) { return ob.s + slb.s + (int)sbt.c + sub.i + snb.tail; }
