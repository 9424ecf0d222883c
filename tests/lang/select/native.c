#include <stdio.h>

#include "core_info.c"

unsigned long compat_core_info_size(void);

/* The truth the test compares with: what the compiler made of each. */
int main(void)
{
	printf("native.c %lu\ncompat.c %lu\n", core_info_size(), compat_core_info_size());
	return 0;
}
