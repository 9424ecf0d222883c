/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A second unit, so the linked corpus binaries have several, like a vmlinux. */
struct victim {
	int a;
	long b;
	char c[10];
	struct victim *next;
};

struct other {
	short s;
	struct victim v;
};

struct other g_other;

int main(void)
{
	return g_other.s;
}
