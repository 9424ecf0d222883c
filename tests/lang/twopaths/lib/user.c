#include "shared.h"
struct shared lib_copy;
