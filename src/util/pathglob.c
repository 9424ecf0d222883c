// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/pathglob.h"

#include <stddef.h>
#include <string.h>

bool ll_has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Match a bracket expression at *pp against c; advances *pp past it. */
static bool match_bracket(const char **pp, char c, bool *ok)
{
	const char *p = *pp + 1;
	bool negate = false, hit = false;

	if (*p == '!' || *p == '^') {
		negate = true;
		p++;
	}
	const char *start = p;

	while (*p && (*p != ']' || p == start)) {
		if (p[1] == '-' && p[2] && p[2] != ']') {
			if (c >= p[0] && c <= p[2])
				hit = true;
			p += 3;
		} else {
			if (c == *p)
				hit = true;
			p++;
		}
	}
	if (*p != ']') {
		*ok = false;	/* unterminated: treat '[' literally */
		return false;
	}
	*ok = true;
	*pp = p + 1;
	return hit != negate;
}

static bool glob_rec(const char *p, const char *t, const char *tend, int depth)
{
	if (depth > 64)
		return false;
	while (*p) {
		if (*p == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return true;
			for (const char *s = t; s <= tend; s++)
				if (glob_rec(p, s, tend, depth + 1))
					return true;
			return false;
		}
		if (t == tend)
			return false;
		if (*p == '?') {
			p++;
			t++;
			continue;
		}
		if (*p == '[') {
			bool ok;
			const char *q = p;

			if (match_bracket(&q, *t, &ok)) {
				p = q;
				t++;
				continue;
			}
			if (ok)
				return false;
		}
		if (*p == '\\' && p[1])
			p++;
		if (*p != *t)
			return false;
		p++;
		t++;
	}
	return t == tend;
}

bool ll_glob_component(const char *pattern, const char *text, size_t text_len)
{
	return glob_rec(pattern, text, text + text_len, 0);
}

/* Split into components in place-free fashion: offsets into the string. */
struct comp {
	const char *s;
	size_t n;
};

static size_t split(const char *s, struct comp *out, size_t max)
{
	size_t n = 0;

	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		const char *e = strchr(s, '/');

		if (!e)
			e = s + strlen(s);
		if (n < max)
			out[n] = (struct comp){ s, (size_t)(e - s) };
		n++;
		s = e;
	}
	return n;
}

static bool match_comps(const struct comp *g, size_t ng, const struct comp *p, size_t np)
{
	if (ng == 0)
		return np == 0;
	if (g[0].n == 2 && g[0].s[0] == '*' && g[0].s[1] == '*') {
		for (size_t k = 0; k <= np; k++)
			if (match_comps(g + 1, ng - 1, p + k, np - k))
				return true;
		return false;
	}
	if (np == 0)
		return false;
	char pat[4096];

	if (g[0].n >= sizeof(pat))
		return false;
	memcpy(pat, g[0].s, g[0].n);
	pat[g[0].n] = '\0';
	return ll_glob_component(pat, p[0].s, p[0].n) &&
	       match_comps(g + 1, ng - 1, p + 1, np - 1);
}

#define MAX_COMPONENTS 256

bool ll_path_glob_match(const char *glob, const char *path)
{
	struct comp g[MAX_COMPONENTS], p[MAX_COMPONENTS];
	size_t ng = split(glob, g, MAX_COMPONENTS);
	size_t np = split(path, p, MAX_COMPONENTS);

	if (ng > MAX_COMPONENTS || np > MAX_COMPONENTS)
		return false;
	bool anchored = glob[0] == '/';

	/* From the right: the glob matches a suffix of whole components. */
	for (size_t start = 0; start <= np; start++) {
		if (anchored && start > 0)
			break;
		if (match_comps(g, ng, p + start, np - start))
			return true;
	}
	return false;
}
