#include "flex.h"
struct req the_req;
