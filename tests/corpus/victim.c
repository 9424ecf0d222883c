/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real object make_corpus.py breaks: one struct per kind of damage. */
struct victim {
	int a;
	long b;
	char c[10];
	struct victim *next;
};

typedef int td_a;
typedef td_a td_b;

struct uses_td {
	td_b x;
	int y;
};

struct victim g_victim;
struct uses_td g_uses_td;
