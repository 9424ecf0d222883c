/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The first unit of the DW_CHILDREN cases: make_corpus.py damages its abbreviations. */
#include "alpha.h"

struct only_in_alpha {
	char c;
	int i;
};

struct alpha g_alpha;
struct only_in_alpha g_only_in_alpha;
