/*
 * Structs whose layouts differ between targets: run_cross.py compiles this
 * for each target, asks layoutlint for every aggregate defined here at the
 * start of a line, and has the same compiler check the answer.
 *
 * Only compiler-provided names: no header of a foreign C library is needed.
 */

/* Every base type, where the target has it. */
struct base_types {
	char c;
	signed char sc;
	unsigned char uc;
	_Bool b;
	short s;
	unsigned short us;
	int i;
	unsigned u;
	long l;
	unsigned long ul;
	long long ll;
	unsigned long long ull;
	void *p;
	int (*fn)(int);
	float f;
	double d;
#ifndef __bpf__
	long double ld;
	_Complex float cf;
	_Complex double cd;
	_Complex long double cld;
#endif
/* clang before 18 aligned __int128 to 16 on s390x, where gcc and the ABI say 8. */
#if defined(__SIZEOF_INT128__) && !(defined(__s390x__) && __clang_major__ < 18)
	__int128 i128;
	unsigned __int128 u128;
#endif
};

/* i386 aligns 8-byte (and 12-byte) types to 4 inside structs. */
struct eightbyte {
	char c;
	long long ll;
	char c2;
	double d;
	char c3;
	unsigned long long ull;
#ifndef __bpf__
	char c4;
	long double ld;
	char c5;
	_Complex double cd;
#endif
};

/* A u64 after an int: offset 4 and size 12 on i386. */
struct after_int {
	int i;
	unsigned long long u;
};

enum wide { WIDE_BIG = 0x100000000LL };

struct with_enum {
	char c;
	enum wide e;
	char c2;
};

typedef int aligned_int __attribute__((aligned(16)));

struct nested {
	char c;
	struct {
		short s;
		long long l;
	} inner;
	union {
		int i;
		double d;
	} u;
	int arr[3];
	struct after_int pairs[2];
	char tail;
	aligned_int ai;
};

struct anon {
	char c;
	struct {
		int x;
		char y;
	};
	union {
		short s;
		long long z;
	};
	char last;
};

/* The reproduction: a 0:0, b 0:3, c 2:0 on every target. */
struct nb {
	unsigned a:3;
	unsigned b:13;
	unsigned short c:4;
	unsigned char d;
};

struct bits_mixed {
	unsigned a:3;
	unsigned b:13;
	unsigned short c:4;
	unsigned char d;
	unsigned char e:1, f:7;
	unsigned long long g:40;
	int h:5;
	signed char i:2;
	_Bool j:1;
	unsigned :0;
	unsigned k:9;
	long long m:33;
};

struct bits_cross {
	unsigned char a:5;
	unsigned short b:10;
	unsigned c:20;
	unsigned long long d:50;
	unsigned e:3;
};

/* gcc writes DW_AT_bit_offset for these even with DWARF 5. */
union bits_union {
	struct {
		unsigned a:3;
		unsigned b:5;
	};
	unsigned c:7;
	unsigned short d:9;
	unsigned long long w:33;
	unsigned char e:2;
};

struct bits_in_union {
	int x;
	union {
		unsigned char p:2;
		unsigned q:20;
		unsigned long long r:41;
	} u;
	char y;
};

struct inner_bits {
	unsigned x:4, y:12;
	unsigned short z:3;
};

struct named_nested_bits {
	char c;
	struct inner_bits ib;
	struct inner_bits arr[2];
	unsigned tail:7;
};

struct packed_s {
	char c;
	int i;
	long long l;
	short s:5;
	short t:7;
} __attribute__((packed));

struct member_packed {
	char c;
	int i __attribute__((packed));
	long long l;
};

/*
 * 9 bytes. DWARF says nothing of packed but its effects, and a packed
 * struct of even size reads as aligned to 2 (docs/cli.md).
 */
struct bits_packed {
	unsigned a:3;
	unsigned long long b:45;
	char c;
	unsigned d:9;
} __attribute__((packed));

struct aligned_s {
	char c;
	int i __attribute__((aligned(16)));
	long long l;
} __attribute__((aligned(32)));

struct holds_packed {
	char c;
	struct packed_s p;
	struct member_packed mp;
	long long l;
};

struct base_types v_base_types;
struct eightbyte v_eightbyte;
struct after_int v_after_int;
struct with_enum v_with_enum;
struct nested v_nested;
struct anon v_anon;
struct nb v_nb;
struct bits_mixed v_bits_mixed;
struct bits_cross v_bits_cross;
union bits_union v_bits_union;
struct bits_in_union v_bits_in_union;
struct named_nested_bits v_named_nested_bits;
struct packed_s v_packed_s;
struct member_packed v_member_packed;
struct bits_packed v_bits_packed;
struct aligned_s v_aligned_s;
struct holds_packed v_holds_packed;
