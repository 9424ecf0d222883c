#include "macro.h"
struct cache the_cache;
