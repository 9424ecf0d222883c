/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bytes of a C identifier, ASCII whatever the locale: a letter or
 * '_' first, then digits too. The one test every reader of C names
 * (rules, macros, asserts, patches, --contains) makes.
 */
#ifndef LAYOUTLINT_C_IDENT_H
#define LAYOUTLINT_C_IDENT_H

#include <stdbool.h>

static inline bool ll_c_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool ll_c_ident_byte(char c)
{
	return ll_c_ident_start(c) || (c >= '0' && c <= '9');
}

/* Whether S is one whole C identifier. */
static inline bool ll_c_identifier(const char *s)
{
	if (!ll_c_ident_start(*s))
		return false;
	while (*++s)
		if (!ll_c_ident_byte(*s))
			return false;
	return true;
}

#endif
