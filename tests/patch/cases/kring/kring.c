#include "kring.h"
struct kring the_kring;
