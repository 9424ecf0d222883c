#include "mmish.h"
struct mmish the_mm;
