#include "kq.h"
struct kq the_kq;
