/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading JSON documents into a tree of values that remember their place. */
#ifndef LAYOUTLINT_JSON_READER_H
#define LAYOUTLINT_JSON_READER_H

#include <stddef.h>

#include "util/diag.h"

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_value {
	enum json_type type;
	unsigned line, column;
	char *str;		/* JSON_STRING */
	double number;		/* JSON_NUMBER */
	struct json_value *items;	/* JSON_ARRAY, JSON_OBJECT (values) */
	char **keys;		/* JSON_OBJECT */
	size_t n;
};

/*
 * Parse TEXT (LEN bytes, a leading UTF-8 byte order mark allowed) as one
 * document into OUT. On error, ERR says "FILE:LINE:COLUMN: WHAT: why"; OUT
 * may hold part of the tree and must still be released.
 */
int json_parse(const char *file, const char *what, const char *text, size_t len,
	       struct json_value *out, struct ll_error *err);
void json_value_release(struct json_value *v);
/* The value of KEY in object OBJ (the last one when repeated), or NULL. */
const struct json_value *json_member(const struct json_value *obj, const char *key);

#endif
