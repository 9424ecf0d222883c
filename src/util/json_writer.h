/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON emitter into memory: documents are built whole and written
 * only on success, so a failure never leaves a truncated document behind.
 */
#ifndef LAYOUTLINT_JSON_WRITER_H
#define LAYOUTLINT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

#define JSON_MAX_DEPTH 128

struct json_writer {
	struct strbuf out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
	bool pretty;
};

void jw_init(struct json_writer *w, bool pretty);
void jw_release(struct json_writer *w);

void jw_begin_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_begin_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);
void jw_key(struct json_writer *w, const char *key);

void jw_string(struct json_writer *w, const char *s);	/* NULL writes null */
void jw_uint(struct json_writer *w, uint64_t v);
void jw_int(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);

/* key + value shorthands */
void jw_kstring(struct json_writer *w, const char *key, const char *s);
void jw_kuint(struct json_writer *w, const char *key, uint64_t v);
void jw_kbool(struct json_writer *w, const char *key, bool v);
/* V under KEY, or null when the value is unknown (!HAS: no line, no cacheline). */
void jw_kuint_or_null(struct json_writer *w, const char *key, bool has, uint64_t v);
/* A number with six significant digits; null when not finite. */
void jw_double(struct json_writer *w, double v);
void jw_kdouble(struct json_writer *w, const char *key, double v);
void jw_knull(struct json_writer *w, const char *key);
void jw_kbegin_array(struct json_writer *w, const char *key);
void jw_kbegin_object(struct json_writer *w, const char *key);

#endif
