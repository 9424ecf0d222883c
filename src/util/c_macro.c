// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/c_macro.h"

#include <stdbool.h>
#include <string.h>

#include "util/c_ident.h"

static const char *skip_blanks(const char *q)
{
	while (*q == ' ' || *q == '\t')
		q++;
	return q;
}

/* V[0..LEN) is a.b.c: identifiers joined by single dots, with at least one dot. */
static bool member_path(const char *v, size_t len)
{
	if (!len || !memchr(v, '.', len) || !ll_c_ident_start(*v))
		return false;
	for (size_t k = 0; k < len; k++)
		if (!ll_c_ident_byte(v[k]) && !(v[k] == '.' && k + 1 < len && v[k + 1] != '.'))
			return false;
	return v[len - 1] != '.';
}

char *ll_macro_member_path(const char *text, const char *name)
{
	size_t nl = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = skip_blanks(p), *v;
		size_t len;

		if (strncmp(q, "#define", 7) != 0 || (q[7] != ' ' && q[7] != '\t'))
			continue;
		q = skip_blanks(q + 7);
		/* NAME itself, object-like: not a longer name, not NAME(...). */
		if (strncmp(q, name, nl) != 0 || ll_c_ident_byte(q[nl]) || q[nl] == '(')
			continue;
		v = skip_blanks(q + nl);
		len = strcspn(v, " \t\r\n");
		return member_path(v, len) ? strndup(v, len) : NULL;
	}
	return NULL;
}
