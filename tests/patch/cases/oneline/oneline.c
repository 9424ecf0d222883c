#include "oneline.h"
struct pair the_pair;
