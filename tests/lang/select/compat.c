#define COMPAT 1
#include "core_info.c"
