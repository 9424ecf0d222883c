// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A third unit, built by clang after gcc's two in ut-mixed-dwarf5.exe:
 * clang writes no .debug_aranges, so the raw scan's guess of the units
 * from them takes the second and third units for one, and finds out
 * only after the first was scanned.
 */
#include "fixture.h"

struct ut_third {
	struct ut_header h;
	long b;
};

struct ut_third ut_third_var;
