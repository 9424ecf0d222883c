#include "shared.h"
#include <stdarg.h>
struct shared lib_copy;
/* gcc declares __va_list_tag at "<built-in>", in each unit's directory. */
va_list lib_args;
