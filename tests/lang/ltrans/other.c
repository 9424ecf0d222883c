#include <stddef.h>
#include <stdio.h>
#include "other.h"

struct entry other_entry;

int other_count(int n)
{
	printf("other %zu %zu %zu %zu\n", sizeof(struct entry), offsetof(struct entry, key),
	       offsetof(struct entry, val), offsetof(struct entry, next));
	return n + (other_entry.next != 0);
}
