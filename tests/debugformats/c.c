#include "shared.h"
struct only_c { int q; struct shared_point pts[2]; };
struct only_c oc; struct shared_list slc; union shared_u suc; struct shared_nested snc;
int fc(void) { return oc.q + slc.s + suc.i + snc.tail; }
