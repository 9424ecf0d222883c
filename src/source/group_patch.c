// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --group-markers: rules groups written into the tree (group_patch.h).
 */
#include "source/group_patch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/c_ident.h"
#include "util/dir_names.h"
#include "util/read_file.h"

#define MAX_TEXT (64u << 20)

/* A file as lines, each with its newline (the last may lack one). */
struct lines {
	char **v;
	size_t n;
};

struct tfile {
	char *path;		/* relative to srcdir, as in the diff */
	struct lines orig, cur;
	char *verbatim;		/* the diff it came with, or NULL */
	bool edited;		/* changed here: diff it again */
};

struct ll_textset {
	char *srcdir;
	struct tfile *v;
	size_t n;
};

static void lines_split(struct lines *l, const char *text, size_t len)
{
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, text + at, n);
		l->v = xgrow(l->v, l->n, sizeof(*l->v));
		l->v[l->n++] = sb_detach(&sb);
		at += n;
	}
}

static void lines_release(struct lines *l)
{
	ll_strv_free(l->v, l->n);
	l->v = NULL;
	l->n = 0;
}

static void lines_copy(struct lines *to, const struct lines *from)
{
	to->v = xcalloc(from->n ? from->n : 1, sizeof(*to->v));
	to->n = from->n;
	for (size_t i = 0; i < from->n; i++)
		to->v[i] = xstrdup(from->v[i]);
}

/* Insert TEXT (whole lines) before line AT (0-based). */
static void lines_insert(struct lines *l, size_t at, const char *text)
{
	struct lines add = { 0 };

	lines_split(&add, text, strlen(text));
	/* A last line without its newline gets one: something follows it now. */
	if (at == l->n && l->n && !strchr(l->v[l->n - 1], '\n')) {
		struct strbuf sb = STRBUF_INIT;

		sb_adds(&sb, l->v[l->n - 1]);
		sb_addc(&sb, '\n');
		free(l->v[l->n - 1]);
		l->v[l->n - 1] = sb_detach(&sb);
	}
	l->v = xrealloc(l->v, (l->n + add.n + 1) * sizeof(*l->v));
	memmove(l->v + at + add.n, l->v + at, (l->n - at) * sizeof(*l->v));
	memcpy(l->v + at, add.v, add.n * sizeof(*l->v));
	l->n += add.n;
	free(add.v);
}

struct ll_textset *ll_textset_new(const char *srcdir)
{
	struct ll_textset *set = xcalloc(1, sizeof(*set));

	set->srcdir = xstrdup(srcdir ? srcdir : ".");
	return set;
}

void ll_textset_free(struct ll_textset *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++) {
		free(set->v[i].path);
		lines_release(&set->v[i].orig);
		lines_release(&set->v[i].cur);
		free(set->v[i].verbatim);
	}
	free(set->v);
	free(set->srcdir);
	free(set);
}

/* PATH's entry, read from the tree on first use; NULL with WHY. */
static struct tfile *file_of(struct ll_textset *set, const char *path, struct strbuf *why)
{
	struct strbuf full = STRBUF_INIT, text = STRBUF_INIT;
	int err = 0;

	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->v[i].path, path) == 0)
			return &set->v[i];
	if (path[0] == '/' || strncmp(path, "../", 3) == 0 || strstr(path, "/../")) {
		sb_addf(why, "%s: not a path inside %s", path, set->srcdir);
		return NULL;
	}
	sb_addf(&full, "%s/%s", set->srcdir, path);
	if (ll_read_regular(full.buf, MAX_TEXT, &text, &err)) {
		sb_addf(why, "%s: %s", full.buf, ll_read_error_text(err, MAX_TEXT));
		sb_release(&full);
		sb_release(&text);
		return NULL;
	}
	sb_release(&full);
	set->v = xgrow(set->v, set->n, sizeof(*set->v));
	struct tfile *f = &set->v[set->n++];

	*f = (struct tfile){ .path = xstrdup(path) };
	lines_split(&f->orig, text.buf ? text.buf : "", text.len);
	lines_copy(&f->cur, &f->orig);
	sb_release(&text);
	return f;
}

/* "@@ -A[,B] +C[,D] @@": A and B. */
static bool hunk_header(const char *l, size_t *start, size_t *count)
{
	char *end;

	if (strncmp(l, "@@ -", 4) != 0)
		return false;
	*start = strtoul(l + 4, &end, 10);
	*count = 1;
	if (*end == ',')
		*count = strtoul(end + 1, &end, 10);
	return *end == ' ';
}

/* A and B, each with or without its newline, are the same line. */
static bool same_line(const char *a, const char *b)
{
	size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");

	return na == nb && memcmp(a, b, na) == 0;
}

/* Apply the hunks of one diff (lines P[0..N)) to F->cur. */
static int apply_hunks(struct tfile *f, char **p, size_t n, struct strbuf *why)
{
	struct lines out = { 0 };
	size_t at = 0;		/* next line of f->cur to copy */

	for (size_t i = 0; i < n; i++) {
		size_t start, count;

		if (!hunk_header(p[i], &start, &count))
			continue;
		size_t first = count ? start - 1 : start;

		if (first < at || first > f->cur.n)
			goto bad;
		while (at < first)
			out.v = xgrow(out.v, out.n, sizeof(*out.v)), out.v[out.n++] = xstrdup(f->cur.v[at++]);
		for (i++; i < n && p[i][0] != '@'; i++) {
			const char *l = p[i];
			char c = l[0];

			if (c == '\\') {
				/* "\ No newline at end of file": the line before has none. */
				if (out.n && i && p[i - 1][0] == '+') {
					char *last = out.v[out.n - 1];
					size_t k = strlen(last);

					if (k && last[k - 1] == '\n')
						last[k - 1] = 0;
				}
				continue;
			}
			if (c == ' ' || c == '-') {
				if (at >= f->cur.n || !same_line(f->cur.v[at], l + 1))
					goto bad;
				if (c == ' ')
					out.v = xgrow(out.v, out.n, sizeof(*out.v)),
					out.v[out.n++] = xstrdup(f->cur.v[at]);
				at++;
			} else if (c == '+') {
				out.v = xgrow(out.v, out.n, sizeof(*out.v));
				out.v[out.n++] = xstrdup(l + 1);
			} else {
				break;
			}
		}
		i--;
	}
	while (at < f->cur.n)
		out.v = xgrow(out.v, out.n, sizeof(*out.v)), out.v[out.n++] = xstrdup(f->cur.v[at++]);
	lines_release(&f->cur);
	f->cur = out;
	return 0;
bad:
	lines_release(&out);
	sb_addf(why, "%s: the reorder hunks --format=patch wrote do not apply to the file in "
		"sequence (the tree changed, or several binaries propose different orders for "
		"it: give one --binary)", f->path);
	return -1;
}

int ll_textset_take_patch(struct ll_textset *set, const char *patch, size_t len,
			  struct strbuf *why)
{
	struct lines all = { 0 };
	int rc = 0;

	lines_split(&all, patch, len);
	for (size_t i = 0; i < all.n && rc == 0; i++) {
		if (strncmp(all.v[i], "diff --git a/", 13) != 0)
			continue;
		size_t end = i + 1;

		while (end < all.n && strncmp(all.v[end], "diff --git a/", 13) != 0)
			end++;
		/* The path: "diff --git a/P b/P". */
		const char *a = all.v[i] + 13;
		const char *b = strstr(a, " b/");
		struct strbuf path = STRBUF_INIT, verb = STRBUF_INIT;

		sb_add(&path, a, b ? (size_t)(b - a) : strcspn(a, "\n"));
		struct tfile *f = file_of(set, path.buf, why);

		if (!f || apply_hunks(f, all.v + i, end - i, why))
			rc = -1;
		else {
			for (size_t k = i; k < end; k++)
				sb_adds(&verb, all.v[k]);
			free(f->verbatim);
			f->verbatim = sb_detach(&verb);
		}
		sb_release(&path);
		sb_release(&verb);
		i = end - 1;
	}
	lines_release(&all);
	return rc;
}

int ll_textset_replace(struct ll_textset *set, const char *path, const char *text, size_t len,
		       struct strbuf *why)
{
	struct tfile *f = file_of(set, path, why);

	if (!f)
		return -1;
	lines_release(&f->cur);
	lines_split(&f->cur, text, len);
	f->edited = true;
	return 0;
}

int ll_textset_text(struct ll_textset *set, const char *path, struct strbuf *out,
		    struct strbuf *why)
{
	struct tfile *f = file_of(set, path, why);

	if (!f)
		return -1;
	for (size_t i = 0; i < f->cur.n; i++)
		sb_adds(out, f->cur.v[i]);
	return 0;
}

/* ---- unified diff of two line arrays ---- */

static bool same(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return strcmp(a->v[i], b->v[j]) == 0;
}

static void diff_line(struct strbuf *out, char c, const char *l)
{
	sb_addc(out, c);
	sb_adds(out, l);
	if (!strchr(l, '\n'))
		sb_adds(out, "\n\\ No newline at end of file\n");
}

/*
 * The edit script as a per-line mark: KEEP_A[i] / KEEP_B[j] true where the
 * line is common. An LCS over the lines between the common head and tail;
 * beyond 16M cells the whole middle is replaced.
 */
static void lcs(const struct lines *a, const struct lines *b, bool *keep_a, bool *keep_b)
{
	size_t head = 0, tail = 0;

	while (head < a->n && head < b->n && same(a, head, b, head))
		keep_a[head] = keep_b[head] = true, head++;
	while (tail < a->n - head && tail < b->n - head &&
	       same(a, a->n - 1 - tail, b, b->n - 1 - tail)) {
		keep_a[a->n - 1 - tail] = keep_b[b->n - 1 - tail] = true;
		tail++;
	}
	size_t n = a->n - head - tail, m = b->n - head - tail;

	if (!n || !m || n * m > (16u << 20))
		return;
	unsigned *t = xcalloc((n + 1) * (m + 1), sizeof(*t));
#define T(i, j) t[(i) * (m + 1) + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			T(i, j) = same(a, head + i, b, head + j) ? T(i + 1, j + 1) + 1 :
				  T(i + 1, j) > T(i, j + 1) ? T(i + 1, j) : T(i, j + 1);
	for (size_t i = 0, j = 0; i < n && j < m;) {
		if (same(a, head + i, b, head + j)) {
			keep_a[head + i++] = keep_b[head + j++] = true;
		} else if (T(i + 1, j) >= T(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef T
	free(t);
}

static void unified(const char *path, const struct lines *a, const struct lines *b,
		    struct strbuf *out)
{
	bool *ka = xcalloc(a->n + 1, 1), *kb = xcalloc(b->n + 1, 1);
	/* Pairs (i, j) walking both files: a change is a run where either is not kept. */
	size_t i = 0, j = 0;
	struct strbuf hunks = STRBUF_INIT;
	const size_t ctx = 3;

	lcs(a, b, ka, kb);
	while (i < a->n || j < b->n) {
		if (i < a->n && j < b->n && ka[i] && kb[j]) {
			i++, j++;
			continue;
		}
		/* A hunk starts ctx common lines before this change. */
		size_t back = 0;

		while (back < ctx && back < i && back < j)
			back++;
		size_t hi = i - back, hj = j - back, ei = i, ej = j;

		/* Extend over changes closer than 2*ctx common lines apart. */
		for (;;) {
			while (ei < a->n && !ka[ei])
				ei++;
			while (ej < b->n && !kb[ej])
				ej++;
			size_t common = 0;

			while (ei + common < a->n && ej + common < b->n && ka[ei + common] &&
			       kb[ej + common])
				common++;
			if (ei + common >= a->n && ej + common >= b->n) {
				size_t c = common < ctx ? common : ctx;

				ei += c, ej += c;
				break;
			}
			if (common > 2 * ctx) {
				ei += ctx, ej += ctx;
				break;
			}
			ei += common, ej += common;
		}
		sb_addf(&hunks, "@@ -%zu,%zu +%zu,%zu @@\n", ei - hi ? hi + 1 : hi, ei - hi,
			ej - hj ? hj + 1 : hj, ej - hj);
		size_t x = hi, y = hj;

		while (x < ei || y < ej) {
			if (x < ei && y < ej && ka[x] && kb[y]) {
				diff_line(&hunks, ' ', a->v[x]);
				x++, y++;
			} else if (x < ei && !ka[x]) {
				diff_line(&hunks, '-', a->v[x++]);
			} else {
				diff_line(&hunks, '+', b->v[y++]);
			}
		}
		i = ei, j = ej;
	}
	if (hunks.len)
		sb_addf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s", path, path, path, path,
			hunks.buf);
	sb_release(&hunks);
	free(ka);
	free(kb);
}

void ll_textset_diffs(const struct ll_textset *set, struct strbuf *out)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct tfile *f = &set->v[i];

		if (f->edited)
			unified(f->path, &f->orig, &f->cur, out);
		else if (f->verbatim)
			sb_adds(out, f->verbatim);
	}
}

/* ---- the struct's declarations in a header ---- */

struct item {
	unsigned first, last;	/* lines (0-based) the declaration spans, comments above it too */
	unsigned start;		/* its first code line */
	const char *name;	/* the (last) member it declares (borrowed), or NULL */
	const char **more;	/* every member it declares, in order (owned array) */
	size_t nmore;
	bool pp;		/* a preprocessor line */
	char *synth;		/* an owned name: a marker's "__cacheline_group_begin__X" */
};

struct body {
	struct item *v;
	size_t n;
	unsigned open, close;	/* the "{" line, the line of the ';' after the "}" */
};

static void body_release(struct body *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].synth);
		free(b->v[i].more);
	}
	free(b->v);
}

/* S's top-level member named NAME (length N), or NULL. */
static const char *member_name(const struct ll_struct *s, const char *name, size_t n)
{
	for (size_t i = 0; i < s->nr_members; i++) {
		const char *m = s->members[i].name;

		if (m && strlen(m) == n && memcmp(m, name, n) == 0)
			return m;
	}
	return NULL;
}

static bool comment_only(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return strncmp(l, "/*", 2) == 0 || strncmp(l, "//", 2) == 0 || *l == '*';
}

/* The line (0-based) where "struct NAME" opens its body nearest to LINE (1-based). */
static long find_open(const struct lines *t, const struct ll_struct *s, unsigned line)
{
	const char *kw = s->kind == LL_UNION ? "union" : "struct";
	size_t kl = strlen(kw), nl = strlen(s->name);
	long best = -1;

	for (size_t i = 0; i < t->n; i++) {
		const char *l = t->v[i];

		for (const char *p = strstr(l, kw); p; p = strstr(p + 1, kw)) {
			if ((p > l && ll_c_ident_byte(p[-1])) || ll_c_ident_byte(p[kl]))
				continue;
			const char *q = p + kl;

			while (*q == ' ' || *q == '\t')
				q++;
			if (strncmp(q, s->name, nl) != 0 || ll_c_ident_byte(q[nl]))
				continue;
			q += nl;
			/* The brace on this line, or alone on the next. */
			while (*q == ' ' || *q == '\t')
				q++;
			bool opens = *q == '{' ||
				     ((*q == '\n' || !*q) && i + 1 < t->n &&
				      t->v[i + 1][strspn(t->v[i + 1], " \t")] == '{');

			if (opens && (best < 0 || labs((long)i + 1 - (long)line) <
						  labs(best + 1 - (long)line)))
				best = (long)i;
		}
	}
	return best;
}

/*
 * The declarations between the braces of the struct opening at line OPEN:
 * -1 with WHY when the body does not close.
 */
static int scan_body(const struct lines *t, long open, const struct ll_struct *s,
		     struct body *b, struct strbuf *why)
{
	int depth = 0, paren = 0, bracket = 0;
	bool comment = false, started = false, stop_names = false, marker = false;
	bool opened = false, new_declarator = true;
	struct item cur = { 0 };
	const char *marker_kind = NULL;

	b->open = (unsigned)open;
	for (size_t ln = (size_t)open; ln < t->n; ln++) {
		const char *l = t->v[ln];
		size_t k = 0, len = strlen(l);

		if (opened && depth == 1 && !comment && !started &&
		    l[strspn(l, " \t")] == '#') {
			/* A preprocessor line (and its continuations) at the struct's level. */
			size_t first = ln;

			while (ln + 1 < t->n && len >= 2 && l[len - 2] == '\\')
				l = t->v[++ln], len = strlen(l);
			b->v = xgrow(b->v, b->n, sizeof(*b->v));
			b->v[b->n++] = (struct item){ .first = (unsigned)first, .start = (unsigned)first,
						      .last = (unsigned)ln, .pp = true };
			continue;
		}
		while (k < len) {
			char c = l[k];

			if (comment) {
				if (c == '*' && l[k + 1] == '/')
					comment = false, k++;
				k++;
				continue;
			}
			if (c == '/' && l[k + 1] == '*') {
				comment = true;
				k += 2;
				continue;
			}
			if (c == '/' && l[k + 1] == '/')
				break;
			if (c == '"' || c == '\'') {
				for (k++; k < len && l[k] != c; k++)
					if (l[k] == '\\')
						k++;
				k++;
				continue;
			}
			if (!opened) {
				if (c == '{')
					opened = true, depth = 1;
				k++;
				continue;
			}
			if (depth == 0) {
				if (c == ';') {
					b->close = (unsigned)ln;
					return 0;
				}
				k++;
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				k++;
				continue;
			}
			if (depth == 1 && !started) {
				if (c == '}') {
					depth = 0;
					k++;
					continue;
				}
				started = true;
				stop_names = marker = false;
				new_declarator = true;
				marker_kind = NULL;
				cur = (struct item){ .first = (unsigned)ln, .start = (unsigned)ln };
			}
			if (c == '{')
				depth++;
			else if (c == '}')
				depth--;
			else if (c == '(')
				paren++;
			else if (c == ')')
				paren--;
			else if (c == '[')
				bracket++;
			else if (c == ']')
				bracket--;
			else if (depth == 1 && paren == 0 && bracket == 0 && (c == ':' || c == '='))
				stop_names = true;
			else if (depth == 1 && paren == 0 && bracket == 0 && c == ',')
				stop_names = false, new_declarator = true;
			else if (c == ';' && depth == 1 && paren == 0) {
				cur.last = (unsigned)ln;
				/* Comment lines just above belong to it. */
				unsigned floor = b->n ? b->v[b->n - 1].last + 1 : b->open + 1;

				while (cur.first > floor && comment_only(t->v[cur.first - 1]))
					cur.first--;
				b->v = xgrow(b->v, b->n, sizeof(*b->v));
				b->v[b->n++] = cur;
				started = false;
				k++;
				continue;
			} else if (ll_c_ident_start(c)) {
				size_t e = k;

				while (e < len && ll_c_ident_byte(l[e]))
					e++;
				if (marker && paren == 1 && !cur.synth) {
					struct strbuf sb = STRBUF_INIT;

					sb_addf(&sb, "%s__%.*s", marker_kind, (int)(e - k), l + k);
					cur.synth = sb_detach(&sb);
					cur.name = cur.synth;
				} else if (depth == 1 && bracket == 0 && !stop_names &&
					   (paren == 0 || (paren == 1 && k && l[k - 1] == '*'))) {
					const char *m = member_name(s, l + k, e - k);

					if (m && !cur.synth) {
						/* "u8 a, b:1": each declarator names one. */
						if (cur.nmore && cur.more[cur.nmore - 1] == cur.name &&
						    !new_declarator)
							cur.more[cur.nmore - 1] = m;
						else {
							cur.more = xgrow(cur.more, cur.nmore,
									 sizeof(*cur.more));
							cur.more[cur.nmore++] = m;
						}
						cur.name = m;
						new_declarator = false;
					}
					bool begin = strncmp(l + k, "__cacheline_group_begin", 23) == 0;

					if (paren == 0 && (begin || strncmp(l + k, "__cacheline_group_end",
									    21) == 0)) {
						marker = true;
						marker_kind = begin ? "__cacheline_group_begin" :
								      "__cacheline_group_end";
					}
				}
				k = e;
				continue;
			}
			k++;
		}
		/* A trailing comment still open: the declaration ends where it does. */
		if (b->n && b->v[b->n - 1].last == ln && comment && !started) {
			size_t e = ln;

			while (e + 1 < t->n && !strstr(t->v[e + 1], "*/"))
				e++;
			b->v[b->n - 1].last = (unsigned)(e + 1 < t->n ? e + 1 : e);
		}
	}
	if (started) {
		free(cur.synth);	/* a declaration not pushed yet */
		free(cur.more);
	}
	sb_addf(why, "the body of %s %s does not close", ll_kind_name(s->kind), s->name);
	return -1;
}

void ll_group_site_release(struct ll_group_site *site)
{
	for (size_t i = 0; i < site->n; i++)
		free((char *)site->order[i]);
	free(site->order);
	memset(site, 0, sizeof(*site));
}

static bool in_list(const char *name, const char *const *v, size_t n)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(v[i], name) == 0)
			return true;
	return false;
}

static bool any_in(const struct item *it, const char *const *v, size_t n)
{
	for (size_t k = 0; k < it->nmore; k++)
		if (in_list(it->more[k], v, n))
			return true;
	return false;
}

static bool all_in(const struct item *it, const char *const *v, size_t n)
{
	for (size_t k = 0; k < it->nmore; k++)
		if (!in_list(it->more[k], v, n))
			return false;
	return true;
}

static size_t indent_of(const char *l)
{
	return strspn(l, " \t");
}

int ll_group_mark(struct ll_textset *set, const char *header, const struct ll_struct *s,
		  const char *group, const char *const *members, size_t n,
		  struct ll_group_site *site, struct strbuf *why)
{
	struct tfile *f = file_of(set, header, why);
	struct body b = { 0 };
	long open;
	int rc = -1;
	size_t lo = SIZE_MAX, hi = 0;

	memset(site, 0, sizeof(*site));
	if (!f)
		return -1;
	open = find_open(&f->cur, s, s->decl.line);
	if (open < 0) {
		sb_addf(why, "%s: no definition of %s %s", header, ll_kind_name(s->kind), s->name);
		return -1;
	}
	if (scan_body(&f->cur, open, s, &b, why))
		goto out;
	for (size_t i = 0; i < b.n; i++) {
		if (b.v[i].synth && strcmp(b.v[i].synth + strlen("__cacheline_group_") +
					   (b.v[i].synth[18] == 'b' ? 7 : 5), group) == 0) {
			sb_addf(why, "%s:%u: the struct already has kernel group %s", header,
				b.v[i].start + 1, group);
			goto out;
		}
		if (!b.v[i].pp && any_in(&b.v[i], members, n)) {
			if (lo == SIZE_MAX)
				lo = i;
			hi = i;
		}
	}
	for (size_t k = 0; k < n; k++) {
		bool found = false;

		for (size_t i = 0; i < b.n && !found; i++)
			found = !b.v[i].pp && in_list(members[k], b.v[i].more, b.v[i].nmore);
		if (!found) {
			sb_addf(why, "%s: no declaration of member %s in %s %s", header, members[k],
				ll_kind_name(s->kind), s->name);
			goto out;
		}
	}
	for (size_t i = lo; i <= hi; i++) {
		const struct item *it = &b.v[i];

		if (!it->pp && any_in(it, members, n) && !all_in(it, members, n)) {
			sb_addf(why, "%s:%u: the group's members are declared together with others "
				"in one declaration: no markers without splitting it", header,
				it->start + 1);
			goto out;
		}
		if (it->pp || !any_in(it, members, n)) {
			sb_addf(why, "%s:%u: the members are not contiguous in the header as the patch "
				"leaves it (%s between %s and %s): no markers without a reorder", header, it->start + 1,
				it->pp ? "a preprocessor line" : it->name ? it->name : "a declaration",
				b.v[lo].name, b.v[hi].name);
			goto out;
		}
	}
	/* The order every binary will have, for the sizes. */
	for (size_t i = 0; i < b.n; i++) {
		if (b.v[i].pp)
			continue;
		if (i == lo)
			site->lo = site->n;
		/* Each member the declaration names, or one NULL for none (unnamed). */
		for (size_t k = 0; k < (b.v[i].nmore ? b.v[i].nmore : 1); k++) {
			const char *name = b.v[i].synth ? b.v[i].synth :
					   b.v[i].nmore ? b.v[i].more[k] : NULL;

			site->order = xgrow(site->order, site->n, sizeof(*site->order));
			site->order[site->n++] = name ? xstrdup(name) : NULL;
		}
		if (i == hi)
			site->hi = site->n - 1;
	}
	/* End first: the begin marker's insertion moves the lines after it. */
	struct strbuf m = STRBUF_INIT;
	const char *l = f->cur.v[b.v[lo].start];
	size_t ind = indent_of(l);

	sb_add(&m, l, ind);
	sb_addf(&m, "__cacheline_group_end(%s);\n", group);
	lines_insert(&f->cur, b.v[hi].last + 1, m.buf);
	sb_reset(&m);
	sb_add(&m, l, ind);
	sb_addf(&m, "__cacheline_group_begin(%s);\n", group);
	lines_insert(&f->cur, b.v[lo].first, m.buf);
	sb_release(&m);
	site->begin_line = b.v[lo].first + 1;
	site->end_line = b.v[hi].last + 3;
	f->edited = true;
	rc = 0;
out:
	body_release(&b);
	if (rc)
		ll_group_site_release(site);
	return rc;
}

static const struct ll_member *top_member(const struct ll_struct *s, const char *name, size_t *at)
{
	for (size_t i = 0; i < s->nr_members; i++)
		if (s->members[i].name && strcmp(s->members[i].name, name) == 0) {
			*at = i;
			return &s->members[i];
		}
	return NULL;
}

static uint64_t member_end(const struct ll_member *m)
{
	return m->is_bitfield ? (m->bit_offset + m->bit_size + 7) / 8 : m->offset + m->size;
}

int ll_group_size(const struct ll_struct *image, const struct ll_group_site *site,
		  uint64_t *size, struct strbuf *why)
{
	size_t pos = 0;
	bool moved = false;
	uint64_t end = 0, start = 0;

	for (size_t t = 0; t <= site->hi && t < site->n; t++) {
		const struct ll_member *m = NULL;
		size_t at = 0;

		if (!site->order[t]) {
			if (!moved && pos < image->nr_members && !image->members[pos].name) {
				m = &image->members[pos];
				at = pos;
			} else {
				sb_addf(why, "an unnamed member moves before the group's end in %s %s",
					ll_kind_name(image->kind), image->name);
				return -1;
			}
		} else {
			m = top_member(image, site->order[t], &at);
		}
		if (!m)
			continue;	/* compiled out of this binary */
		uint64_t off, mend;

		if (!moved && at == pos) {
			off = m->offset;
			mend = member_end(m);
			pos++;
		} else {
			uint64_t a = m->alignment ? m->alignment : 1;

			moved = true;
			if (m->is_bitfield) {
				sb_addf(why, "bitfield %s moves before the group's end in %s %s",
					m->name ? m->name : "(unnamed)", ll_kind_name(image->kind),
					image->name);
				return -1;
			}
			off = (end + a - 1) / a * a;
			mend = off + m->size;
		}
		(void)off;
		if (t == site->lo)
			start = end;
		if (mend > end)
			end = mend;
	}
	*size = end - start;
	return 0;
}

/* ---- where the asserts go ---- */

/* The line (0-based) of the first ';' at or after LINE. */
static size_t statement_end(const struct lines *t, size_t line)
{
	while (line + 1 < t->n && !strchr(t->v[line], ';'))
		line++;
	return line;
}

/*
 * In T, the definition "NAME(void) {": the line of its closing brace, or
 * -1. Comments and strings are skipped when counting braces.
 */
static long function_close(const struct lines *t, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < t->n; i++) {
		const char *p = strstr(t->v[i], name);

		if (!p || (p > t->v[i] && ll_c_ident_byte(p[-1])) || ll_c_ident_byte(p[nl]))
			continue;
		p += nl;
		p += strspn(p, " \t");
		if (strncmp(p, "(void)", 6) != 0)
			continue;
		p += 6;
		/* The brace on this line or the next: a definition, not a call. */
		size_t ln = i;

		p += strspn(p, " \t\r\n");
		if (!*p && i + 1 < t->n) {
			ln = i + 1;
			p = t->v[ln] + strspn(t->v[ln], " \t");
		}
		if (*p != '{')
			continue;
		int depth = 0;
		bool comment = false;

		for (const char *l = p; ln < t->n; l = ++ln < t->n ? t->v[ln] : "") {
			for (size_t k = 0; l[k]; k++) {
				if (comment) {
					if (l[k] == '*' && l[k + 1] == '/')
						comment = false, k++;
					continue;
				}
				if (l[k] == '/' && l[k + 1] == '*') {
					comment = true, k++;
					continue;
				}
				if (l[k] == '/' && l[k + 1] == '/')
					break;
				if (l[k] == '"' || l[k] == '\'') {
					char q = l[k];

					for (k++; l[k] && l[k] != q; k++)
						if (l[k] == '\\' && l[k + 1])
							k++;
					if (!l[k])
						break;
					continue;
				}
				if (l[k] == '{')
					depth++;
				else if (l[k] == '}' && --depth == 0)
					return (long)ln;
			}
		}
	}
	return -1;
}

/*
 * The first C file under DIR (relative REL), in name order, defining
 * NAME(void): its path into FOUND. Symbolic links and dot-names skipped.
 */
static bool find_function(const char *root, const char *rel, const char *name,
			  struct strbuf *found, int depth)
{
	struct strbuf dir = STRBUF_INIT;
	char **names;
	size_t n;
	bool hit = false;

	if (depth > 64)
		return false;
	sb_addf(&dir, "%s%s%s", root, *rel ? "/" : "", rel);
	if (ll_dir_names(dir.buf, &names, &n)) {
		sb_release(&dir);
		return false;
	}
	for (size_t i = 0; i < n && !hit; i++) {
		struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT, text = STRBUF_INIT;
		struct stat st;
		size_t len = strlen(names[i]);
		int why;

		sb_addf(&path, "%s/%s", dir.buf, names[i]);
		sb_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		if (lstat(path.buf, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				hit = find_function(root, sub.buf, name, found, depth + 1);
			} else if (S_ISREG(st.st_mode) && len > 2 && strcmp(names[i] + len - 2, ".c") == 0 &&
				   ll_read_regular(path.buf, MAX_TEXT, &text, &why) == 0 && text.buf &&
				   strstr(text.buf, name)) {
				struct lines t = { 0 };

				lines_split(&t, text.buf, text.len);
				if (function_close(&t, name) >= 0) {
					sb_adds(found, sub.buf);
					hit = true;
				}
				lines_release(&t);
			}
		}
		sb_release(&path);
		sb_release(&sub);
		sb_release(&text);
	}
	ll_strv_free(names, n);
	sb_release(&dir);
	return hit;
}

/*
 * Where line LINE (0-based) of F's original is in its edited text: the
 * same line nearest to where the edits' balance puts it; -1 if none.
 */
static long now_at(const struct tfile *f, size_t line)
{
	long guess = (long)line + (long)f->cur.n - (long)f->orig.n, best = -1;

	if (line >= f->orig.n)
		return -1;
	for (size_t i = 0; i < f->cur.n; i++)
		if (strcmp(f->cur.v[i], f->orig.v[line]) == 0 &&
		    (best < 0 || labs((long)i - guess) < labs(best - guess)))
			best = (long)i;
	return best;
}

/* LINES, each indented with the first INDENT bytes of LIKE. */
static void indented(struct strbuf *out, const char *lines, const char *like, size_t indent)
{
	for (const char *l = lines; *l;) {
		size_t n = strcspn(l, "\n");

		sb_add(out, like, indent);
		sb_add(out, l, n);
		sb_addc(out, '\n');
		l += n + (l[n] == '\n');
	}
}

int ll_group_asserts_add(struct ll_textset *set, const char *header, const struct ll_struct *s,
			 const struct ll_group_asserts *asserts, const char *lines,
			 struct strbuf *where, bool *created, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT, fn = STRBUF_INIT, file = STRBUF_INIT;
	const struct ll_group_assert *last = NULL;
	struct tfile *f;
	int rc = -1;

	*created = false;
	/* After the struct's last assert in the file of its first. */
	for (size_t i = 0; asserts && i < asserts->n; i++) {
		const struct ll_group_assert *a = &asserts->v[i];

		if (a->struct_kind != s->kind || strcmp(a->struct_name, s->name) != 0)
			continue;
		if (!last || (strcmp(a->decl.file, last->decl.file) == 0 &&
			      a->decl.line > last->decl.line))
			last = a;
	}
	sb_addf(&fn, "%s_struct_check", s->name);
	if (last) {
		f = file_of(set, last->decl.file, why);
		if (!f)
			goto out;
		long line = now_at(f, last->decl.line - 1);

		if (line < 0) {
			sb_addf(why, "%s:%u: the assert's line is gone from the patched file",
				f->path, last->decl.line);
			goto out;
		}
		size_t at = statement_end(&f->cur, (size_t)line);

		indented(&text, lines, f->cur.v[line], indent_of(f->cur.v[line]));
		lines_insert(&f->cur, at + 1, text.buf);
		sb_addf(where, "%s:%zu", f->path, at + 2);
	} else if (find_function(set->srcdir, "", fn.buf, &file, 0)) {
		f = file_of(set, file.buf, why);
		if (!f)
			goto out;
		long close = function_close(&f->cur, fn.buf);

		if (close < 0) {
			sb_addf(why, "%s: %s() no longer found", file.buf, fn.buf);
			goto out;
		}
		indented(&text, lines, "\t", 1);
		lines_insert(&f->cur, (size_t)close, text.buf);
		sb_addf(where, "%s:%ld", f->path, close + 1);
	} else {
		struct body b = { 0 };
		long open;

		f = file_of(set, header, why);
		if (!f)
			goto out;
		open = find_open(&f->cur, s, s->decl.line);
		if (open < 0 || scan_body(&f->cur, open, s, &b, why)) {
			if (open < 0)
				sb_addf(why, "%s: no definition of %s %s", header,
					ll_kind_name(s->kind), s->name);
			body_release(&b);
			goto out;
		}
		sb_addf(&text, "\n/*\n * The groups of %s %s, checked at build time. The kernel's "
			"BUILD_BUG_ON\n * checks only code that is built: call this from an __init "
			"function,\n * as tcp_init() calls tcp_struct_check().\n */\n"
			"static inline void %s(void)\n{\n", ll_kind_name(s->kind), s->name, fn.buf);
		indented(&text, lines, "\t", 1);
		sb_adds(&text, "}\n");
		lines_insert(&f->cur, b.close + 1, text.buf);
		sb_addf(where, "%s:%u", f->path, b.close + 2);
		body_release(&b);
		*created = true;
	}
	f->edited = true;
	rc = 0;
out:
	sb_release(&text);
	sb_release(&fn);
	sb_release(&file);
	return rc;
}
