#include "conn.h"
struct conn the_conn;
