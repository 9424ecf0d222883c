#include "shared.h"

/* The VLAs: one of struct obj, one of pointers to struct entry. */
int fill(int n, char **argv)
{
	struct obj objs[n];
	struct entry *ents[n];
	int sum = 0;

	for (int i = 0; i < n; i++) {
		objs[i].refcount = i;
		objs[i].ptr = argv[i];
		ents[i] = (struct entry *)argv[i];
	}
	for (int i = 0; i < n; i++)
		sum += objs[i].refcount + (ents[i] != 0);
	return sum;
}
