#include <stddef.h>
#include <stdio.h>
#include "shared.h"

struct entry g_entry;
struct obj g_obj;

int main(int argc, char **argv)
{
	printf("entry %zu %zu %zu %zu\n", sizeof(struct entry), offsetof(struct entry, key),
	       offsetof(struct entry, v), offsetof(struct entry, next));
	printf("obj %zu %zu %zu\n", sizeof(struct obj), offsetof(struct obj, refcount),
	       offsetof(struct obj, ptr));
	return fill(argc, argv) + other_count(argc) == 12345;
}
