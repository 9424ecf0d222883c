/* Types every unit of the fixture defines: what dwz -m moves to the supplementary file. */
#ifndef DEBUGFORMATS_SHARED_H
#define DEBUGFORMATS_SHARED_H

struct shared_point { int x; long y; char tag; };
struct shared_list {
	struct shared_list *next;
	struct shared_point pt;
	unsigned flags : 3;
	unsigned mode : 5;
	short s;
};
typedef struct { double d; char c; int arr[3]; } shared_anon_t;
union shared_u { int i; double d; char b[12]; };
struct shared_nested { struct { char a; long b; } inner; union shared_u u; char tail; };

#endif
