/*
 * Structs whose layouts differ between targets: run_cross.py compiles this
 * for each target, asks layoutlint for every aggregate defined here at the
 * start of a line, and has the same compiler check the answer.
 *
 * Only compiler-provided names: no header of a foreign C library is needed.
 */

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

struct bits_packed {
	unsigned a:3;
	unsigned long long b:45;
	char c;
	unsigned d:9;
} __attribute__((packed));

struct nb v_nb;
struct bits_mixed v_bits_mixed;
struct bits_cross v_bits_cross;
union bits_union v_bits_union;
struct bits_in_union v_bits_in_union;
struct named_nested_bits v_named_nested_bits;
struct packed_s v_packed_s;
struct bits_packed v_bits_packed;
