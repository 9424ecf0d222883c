// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --diff FILE (change.h). Only what gating and the mail need: per file of
 * the new side, the lines the change added and its hunks' text. Text
 * around the diffs (a mail's headers and message, a diffstat, the "-- "
 * signature) is skipped as git apply skips it.
 */
#include "gating/change.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/read_file.h"

#define MAX_DIFF_FILE (256u << 20)

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* "+++ b/PATH\tdate" -> "PATH" (NULL for /dev/null). */
static char *new_path(const char *s, size_t len)
{
	size_t n;

	s += 4;
	len -= 4;
	n = 0;
	while (n < len && s[n] != '\t')
		n++;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 9 && memcmp(s, "/dev/null", 9) == 0)
		return NULL;
	if (n > 2 && s[0] == 'b' && s[1] == '/') {
		s += 2;
		n -= 2;
	}
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* "@@ -a[,b] +c[,d] @@": the counts; false when it is not one. */
static bool hunk_header(const char *s, size_t len, unsigned *old_count, unsigned *new_start,
			unsigned *new_count)
{
	char buf[128];
	unsigned long a, b = 1, c, d = 1;
	char *e;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (strncmp(buf, "@@ -", 4) != 0)
		return false;
	errno = 0;
	a = strtoul(buf + 4, &e, 10);
	if (*e == ',')
		b = strtoul(e + 1, &e, 10);
	if (strncmp(e, " +", 2) != 0)
		return false;
	c = strtoul(e + 2, &e, 10);
	if (*e == ',')
		d = strtoul(e + 1, &e, 10);
	if (strncmp(e, " @@", 3) != 0 || errno || a > 1u << 30 || b > 1u << 30 ||
	    c > 1u << 30 || d > 1u << 30)
		return false;
	/* Lines count from 1: start 0 only says "before the first line", with no lines. */
	if ((!a && b) || (!c && d))
		return false;
	*old_count = (unsigned)b;
	*new_start = (unsigned)c;
	*new_count = (unsigned)d;
	return true;
}

static int cmp_line(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* [FROM, TO) and a final newline, '\r's of CRLF mail dropped. */
static char *copy_lines(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *q = from; q < to; q++)
		if (*q != '\r')
			sb_addc(&sb, *q);
	sb_addc(&sb, '\n');
	return sb_detach(&sb);
}

int ll_change_load(const char *path, struct ll_change *out, struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	struct ll_change_file *file = NULL;
	struct ll_change_hunk *hunk = NULL;
	unsigned old_left = 0, new_left = 0, new_line = 0, lineno = 0;
	const char *p, *end, *hunk_begin = NULL;
	int why;

	memset(out, 0, sizeof(*out));
	out->path = path;
	if (ll_read_regular(path, MAX_DIFF_FILE, &text, &why))
		return ll_fail(err, "%s: cannot read the diff: %s", path,
			       ll_read_error_text(why, MAX_DIFF_FILE));
	p = text.buf ? text.buf : "";
	end = p + text.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		if (len && p[len - 1] == '\r')
			len--;
		if (memchr(p, 0, len)) {
			ll_change_release(out);
			sb_release(&text);
			return ll_fail(err, "%s:%u: a NUL byte: not a text diff", path, lineno);
		}
		if (hunk && (old_left || new_left)) {
			char c = len ? p[0] : ' ';	/* an empty line: a blank context line */

			if (c == '\\') {
				/* "\ No newline at end of file" */
			} else if ((c == ' ' && old_left && new_left) || (c == '+' && new_left) ||
				   (c == '-' && old_left)) {
				if (c != '+')
					old_left--;
				if (c != '-') {
					if (c == '+') {
						file->added = xgrow(file->added, file->nr_added,
								    sizeof(*file->added));
						file->added[file->nr_added++] = new_line;
					}
					new_line++;
					new_left--;
				}
			} else {
				ll_change_release(out);
				sb_release(&text);
				return ll_fail(err, "%s:%u: the hunk ends early (%u old and %u new "
					       "lines still to come)", path, lineno, old_left,
					       new_left);
			}
			if (!old_left && !new_left)
				hunk->text = copy_lines(hunk_begin, p + len);
		} else if (starts(p, len, "+++ ")) {
			char *np = new_path(p, len);

			/* "./x" is x, as ll_change_find() reads it: one entry for both. */
			while (np && np[0] == '.' && np[1] == '/')
				memmove(np, np + 2, strlen(np + 2) + 1);
			if (np && !*np) {
				free(np);
				ll_change_release(out);
				sb_release(&text);
				return ll_fail(err, "%s:%u: '+++' names no file", path, lineno);
			}
			hunk = NULL;
			file = NULL;
			if (np) {
				/* A file diffed twice (a series in one mail): one entry. */
				for (size_t i = 0; i < out->nr_files && !file; i++)
					if (strcmp(out->files[i].path, np) == 0)
						file = &out->files[i];
				if (file) {
					free(np);
				} else {
					out->files = xgrow(out->files, out->nr_files,
							   sizeof(*out->files));
					file = &out->files[out->nr_files++];
					memset(file, 0, sizeof(*file));
					file->path = np;
				}
			}
		} else if (starts(p, len, "@@ ")) {
			unsigned start, count;

			if (!hunk_header(p, len, &old_left, &start, &count)) {
				ll_change_release(out);
				sb_release(&text);
				return ll_fail(err, "%s:%u: not a hunk header (expected @@ -A,B +C,D @@)",
					       path, lineno);
			}
			if (!file) {
				/* A deleted file's hunk: nothing on the new side. */
				hunk = NULL;
				old_left = 0;
			} else {
				file->hunks = xgrow(file->hunks, file->nr_hunks, sizeof(*file->hunks));
				hunk = &file->hunks[file->nr_hunks++];
				hunk->new_start = start;
				hunk->new_count = count;
				hunk->text = NULL;
				hunk_begin = p;
				new_left = count;
				if (!old_left && !new_left)
					hunk->text = copy_lines(hunk_begin, p + len);
				new_line = start;
			}
		} else {
			hunk = NULL;
		}
		p = nl ? nl + 1 : end;
	}
	sb_release(&text);
	if (hunk && (old_left || new_left)) {
		ll_change_release(out);
		return ll_fail(err, "%s:%u: the diff ends inside a hunk", path, lineno);
	}
	/* Hunks out of order, or a file diffed twice: ascending, once each. */
	for (size_t i = 0; i < out->nr_files; i++) {
		struct ll_change_file *f = &out->files[i];
		size_t kept = 0;

		if (f->nr_added > 1)
			qsort(f->added, f->nr_added, sizeof(*f->added), cmp_line);
		for (size_t k = 0; k < f->nr_added; k++)
			if (!kept || f->added[kept - 1] != f->added[k])
				f->added[kept++] = f->added[k];
		f->nr_added = kept;
	}
	return 0;
}

void ll_change_release(struct ll_change *c)
{
	for (size_t i = 0; i < c->nr_files; i++) {
		struct ll_change_file *f = &c->files[i];

		for (size_t h = 0; h < f->nr_hunks; h++)
			free(f->hunks[h].text);
		free(f->hunks);
		free(f->added);
		free(f->path);
	}
	ll_array_free(c->files, c->nr_files);
}

/*
 * FILE as the change names it: the same path, else the longest path of the
 * change that FILE ends with at a '/' (a declaring file is often absolute,
 * a diff's path relative to the tree). Never a shorter one when a longer
 * one matches: "fs.h" and "include/linux/fs.h" can both be in one change.
 */
const struct ll_change_file *ll_change_find(const struct ll_change *c, const char *file)
{
	const struct ll_change_file *best = NULL;
	size_t best_len = 0;

	if (!c || !file)
		return NULL;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	size_t fl = strlen(file);

	for (size_t i = 0; i < c->nr_files; i++) {
		const char *p = c->files[i].path;
		size_t pl;

		while (p[0] == '.' && p[1] == '/')
			p += 2;
		pl = strlen(p);
		if (strcmp(p, file) == 0)
			return &c->files[i];
		if (fl > pl && pl > best_len && file[fl - pl - 1] == '/' &&
		    strcmp(file + fl - pl, p) == 0) {
			best = &c->files[i];
			best_len = pl;
		}
	}
	return best;
}

bool ll_change_touches(const struct ll_change *c, const char *file, unsigned line)
{
	const struct ll_change_file *f = ll_change_find(c, file);
	size_t lo = 0, hi;

	if (!f || !line)
		return false;
	hi = f->nr_added;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->added[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nr_added && f->added[lo] == line;
}

const struct ll_change_hunk *ll_change_hunk_at(const struct ll_change *c, const char *file,
					       unsigned line)
{
	const struct ll_change_file *f = ll_change_find(c, file);

	for (size_t i = 0; f && i < f->nr_hunks; i++) {
		const struct ll_change_hunk *h = &f->hunks[i];

		if (line >= h->new_start && line < h->new_start + (h->new_count ? h->new_count : 1))
			return h;
	}
	return NULL;
}
