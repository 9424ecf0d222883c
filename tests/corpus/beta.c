/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The second, intact unit of the DW_CHILDREN cases. */
#include "alpha.h"

struct beta {
	short s;
	struct alpha a;
};

struct beta g_beta;

int main(void)
{
	return g_beta.s;
}
