#include "../lib/shared.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
struct shared src_copy;
va_list src_args;
int main(void)
{
	printf("%zu %zu %zu %zu\n", sizeof(struct shared), offsetof(struct shared, a),
	       offsetof(struct shared, b), offsetof(struct shared, c));
	return 0;
}
