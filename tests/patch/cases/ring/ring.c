#include "ring.h"
struct ring the_ring;
