/*
 * Structs whose size is an array member, not work (tests/discover/run_discover.py):
 * laid out in every format at a cost per member. Built twice into one
 * executable: without DTV_UNION, struct huge_arr (2 GiB of array between
 * scalars), struct dtv (glibc's shape: one array of union dtv, 2 GiB) and
 * struct too_big (8 GiB, past what a reader accepts); with DTV_UNION, the
 * union dtv that shares the struct's name, as in glibc's debug file. With
 * PRINT, a program printing the compiler's sizeof and offsetof of each.
 */
#include <stddef.h>

struct dtv_pointer {
	void *val;
	void *to_free;
};

#ifdef DTV_UNION
typedef union dtv {
	size_t counter;
	struct dtv_pointer pointer;
} dtv_t;
dtv_t dtv_one;
#else
union dtv_elem {
	size_t counter;
	struct dtv_pointer pointer;
};

struct huge_arr {
	long before;
	char a[1UL << 31];
	int after;
	short tail;
};

struct dtv {
	union dtv_elem slot[(1UL << 31) / sizeof(union dtv_elem)];
};

struct too_big {
	long a;
	char b[1UL << 33];
};

/* Two 2 GiB alternatives on every line: one mixed run, one finding. */
union huge_union {
	char r[1UL << 31];
	long w[(1UL << 31) / sizeof(long)];
};

/* A 256 MiB hole (gcc's largest alignment) between two bytes. */
struct huge_hole {
	char a;
	_Alignas(1 << 28) char b;
};

union huge_union *huge_union_p;
struct huge_hole *huge_hole_p;
struct huge_arr *huge_arr_p;
struct dtv *dtv_p;
struct too_big *too_big_p;

#ifdef PRINT
#include <stdio.h>
int main(void)
{
	printf("huge_arr %zu before %zu a %zu after %zu tail %zu\n", sizeof(struct huge_arr),
	       offsetof(struct huge_arr, before), offsetof(struct huge_arr, a),
	       offsetof(struct huge_arr, after), offsetof(struct huge_arr, tail));
	printf("dtv %zu slot %zu\n", sizeof(struct dtv), offsetof(struct dtv, slot));
	printf("huge_hole %zu a %zu b %zu\n", sizeof(struct huge_hole),
	       offsetof(struct huge_hole, a), offsetof(struct huge_hole, b));
	return 0;
}
#else
int main(void)
{
	return 0;
}
#endif
#endif
