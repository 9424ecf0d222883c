// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The second unit of the executable fixtures: struct ut_header again (as
 * a header's struct is defined in every unit of a vmlinux that includes
 * it), and a struct only this unit has.
 */
#include "fixture.h"

struct ut_second {
	struct ut_header h;
	unsigned long long count;
};

struct ut_second ut_second_var;
struct ut_header ut_header_again;
