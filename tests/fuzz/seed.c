/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small translation unit with the names fuzz_reader.c asks for; scripts/fuzz
 * compiles it with gcc and clang (DWARF 4 and 5, object and executable) to
 * seed the reader fuzzer with real ELF images of every shape we read.
 */
struct bits {
	unsigned long long a : 60, b : 10;
	unsigned x : 3;
	unsigned : 0;
	unsigned y : 5;
	signed char sc : 2;
};

struct nested_anon {
	int kind;
	union {
		long l;
		struct {
			short s1, s2;
		};
	};
	char tail[3];
};

struct inner {
	char c;
	int i;
};

struct outer {
	short kind;
	struct inner inner;
	struct inner pair[2];
};

struct victim {
	long hot __attribute__((aligned(64)));
	long cold;
	char flex[];
};

struct wide {
	char pad[200];
	double d;
};

union u {
	int i;
	double d;
};

typedef struct {
	int x, y;
} anon_typedef_t;

struct file {
	long f_count;
	int f_lock;
	const void *f_op;
};

struct bits g_bits;
struct nested_anon g_nested_anon;
struct outer g_outer;
struct victim g_victim;
struct wide g_wide;
union u g_u;
anon_typedef_t g_anon;
struct file g_file;

int main(void)
{
	return g_bits.x + g_u.i;
}
