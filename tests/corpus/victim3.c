/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A third unit: struct huge_arr, 8 GiB intact, is refused by every run
 * that builds it (4095 MiB at most), so it lives apart from victim.c's
 * structs, which --list, --audit and --contains reach with
 * --decl-file='*' '/victim.c' (see run_corpus.py).
 */

/* Bounds wide enough that gcc writes them as data8: room to overflow. */
struct huge_arr {
	char m[0x100000001UL][2];
};

struct holder {
	int before;
	struct huge_arr *p;
};

struct holder g_holder;
