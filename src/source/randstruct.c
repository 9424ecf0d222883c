// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * randstruct's marks in the source and in a .config: see randstruct.h.
 */
#include "source/randstruct.h"

#include <string.h>

#include "util/read_file.h"
#include "util/strbuf.h"

#define MAX_HEADER ((size_t)16 << 20)
#define MAX_CONFIG ((size_t)16 << 20)

static unsigned line_of(const char *text, const char *p)
{
	unsigned line = 1;

	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

enum ll_rand_mark ll_source_randomized(const char *srcdir, const struct ll_struct *s,
				       unsigned *line)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	enum ll_rand_mark mark = LL_RAND_NONE;
	const char *p;
	unsigned at = 1;
	int why, depth = 0;

	if (!srcdir || !s->decl.file || !s->decl.line)
		return LL_RAND_NONE;
	if (s->decl.file[0] == '/')
		sb_adds(&path, s->decl.file);
	else
		sb_addf(&path, "%s/%s", srcdir, s->decl.file);
	if (ll_read_regular(path.buf, MAX_HEADER, &text, &why) || !text.buf ||
	    memchr(text.buf, '\0', text.len))
		goto done;
	/* The declaration's line, then its body from the first '{', braces counted. */
	for (p = text.buf; *p && at < s->decl.line; p++)
		at += *p == '\n';
	p = strchr(p, '{');
	for (; p && *p; p++) {
		if (*p == '{') {
			depth++;
		} else if (*p == '}' && --depth == 0) {
			const char *end = strchr(p, ';');
			const char *r = strstr(p, "__randomize_layout");

			if (r && end && r < end) {
				mark = LL_RAND_LAYOUT;
				*line = line_of(text.buf, r);
			}
			break;
		} else if (depth == 1 && strncmp(p, "randomized_struct_fields_start", 30) == 0) {
			mark = LL_RAND_FIELDS;
			*line = line_of(text.buf, p);
		}
	}
done:
	sb_release(&path);
	sb_release(&text);
	return mark;
}

void ll_config_text_randstruct(const char *text, enum ll_rand_config *mode)
{
	*mode = LL_RAND_CONFIG_OFF;
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "CONFIG_RANDSTRUCT_FULL=y", 24) == 0)
			*mode = LL_RAND_CONFIG_FULL;
		else if (strncmp(p, "CONFIG_RANDSTRUCT_PERFORMANCE=y", 31) == 0)
			*mode = LL_RAND_CONFIG_PERFORMANCE;
		/* Before 5.19 the option was GCC_PLUGIN_RANDSTRUCT(_PERFORMANCE). */
		else if (strncmp(p, "CONFIG_GCC_PLUGIN_RANDSTRUCT=y", 30) == 0 &&
			 *mode == LL_RAND_CONFIG_OFF)
			*mode = LL_RAND_CONFIG_FULL;
		else if (strncmp(p, "CONFIG_GCC_PLUGIN_RANDSTRUCT_PERFORMANCE=y", 42) == 0)
			*mode = LL_RAND_CONFIG_PERFORMANCE;
	}
}

int ll_config_randstruct(const char *path, enum ll_rand_config *mode, struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	int why;

	*mode = LL_RAND_CONFIG_OFF;
	if (ll_read_regular(path, MAX_CONFIG, &text, &why))
		return ll_fail(err, "--config %s: %s", path, ll_read_error_text(why, MAX_CONFIG));
	ll_config_text_randstruct(text.buf, mode);
	sb_release(&text);
	return 0;
}
