// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compiled fixture of the raw DWARF readers' unit tests
 * (test_line_table.c, test_dwarf_scan.c): built with gcc and clang, DWARF
 * 4 and 5, as an object and as an executable (tests/meson.build). Its
 * types are declared in three files in three directories, so the line
 * table has directory entries beyond the compilation directory; every type
 * is used by a global, so every compiler keeps it.
 */
#include "fixture.h"
#include "sub/fixture_sub.h"

struct ut_main {
	int a;
	long b;
	char c[3];
	struct ut_header h;
};

union ut_union {
	int i;
	double d;
};

typedef struct {
	int x, y;
} ut_anon_t;

typedef struct ut_main ut_main_t;

/*
 * Twins: one shape, other member names. The scan remembers a definition's
 * members by their names' .debug_str offsets (and a short name, which gcc
 * writes inline, by its bytes): neither twin may pass for the other.
 */
struct ut_twin_long {
	int alpha;
	long beta;
};

struct ut_twin_long2 {
	int gamma;
	long delta;
};

struct ut_twin_short {
	int x;
	long y;
};

struct ut_twin_short2 {
	int p;
	long q;
};

/* A pointer to a const struct beside bare ones: what --audit's filter reads. */
struct ut_ops_user {
	const struct ut_header *ops;
	struct ut_header *plain;
	const char *name;
};

struct ut_declared;

struct ut_main ut_main_var;
union ut_union ut_union_var;
ut_anon_t ut_anon_var;
struct ut_ops_user ut_ops_user_var;
ut_main_t *ut_main_ptr;
struct ut_declared *ut_declared_ptr;
struct ut_sub ut_sub_var;
struct ut_twin_long ut_twin_long_var;
struct ut_twin_long2 ut_twin_long2_var;
struct ut_twin_short ut_twin_short_var;
struct ut_twin_short2 ut_twin_short2_var;
/* Declarators the variables' raw reading spells as ll_c_declaration() does. */
int (*ut_fn_var)(const char *, ...);
void (*ut_proto_var)(void);
const unsigned char ut_grid_var[2][3] = { { 1 } };
volatile long *const ut_cptr_var = 0;
extern int ut_defined_var;
int ut_defined_var = 1;

int main(void)
{
	return ut_main_var.a + ut_sub_var.s + ut_grid_var[1][2] + ut_defined_var +
	       (ut_fn_var != 0) + (ut_proto_var != 0) + (ut_cptr_var != 0);
}
