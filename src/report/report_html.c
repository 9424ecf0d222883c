// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=html and --html FILE: one self-contained page (inline CSS and
 * SVG, no script, no network, no fonts) drawing each struct's cachelines
 * to scale, members coloured by tag and labelled in text, holes hatched,
 * kernel cacheline groups outlined, findings on their lines and listed in
 * gcc's form; the proposal beside the current layout with --suggest, new
 * findings and moved members with --baseline or --against.
 *
 * Like every reporter it renders what the run concluded and computes no
 * finding of its own. Every string from the binary or the rules (struct,
 * member and type names, file paths) goes through esc(): a name is
 * attacker-controlled input, and the page is opened in a browser.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "checks/groups.h"
#include "model/access.h"
#include "report/describe.h"
#include "model/profile.h"
#include "report/report.h"
#include "solver/suggest.h"

/* Geometry the page declares (data-scale, data-x0) and the tests check. */
#define ROW_W 768		/* pixels for one cacheline, whatever its size */
#define LABEL_W 96		/* the line-number column left of the rows */
#define LANE_H 30		/* one lane of boxes; overlapping union members stack */
#define ROW_GAP 6
#define TOP 8
#define RULER_H 16		/* the offset ruler above the rows */
#define CHAR_EM 0.62		/* a monospace glyph's advance, in ems (a little over most fonts') */
#define FONT_PX 11		/* box names; .sub text is 10 */

/* ---- escaping -------------------------------------------------------- */

/* Code points that would reorder or hide the text around them. */
static bool invisible(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0xfeff;
}

/*
 * S as HTML text, safe in element content and in quoted attributes alike:
 * markup characters become references, control bytes, bytes that are not
 * UTF-8 and bidi or zero-width code points become visible \xNN / \u{N}.
 */
static void esc(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);

	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t len;

		if (c < 0x80) {
			switch (c) {
			case '&': sb_adds(out, "&amp;"); break;
			case '<': sb_adds(out, "&lt;"); break;
			case '>': sb_adds(out, "&gt;"); break;
			case '"': sb_adds(out, "&quot;"); break;
			case '\'': sb_adds(out, "&#39;"); break;
			default:
				if (c < 0x20 || c == 0x7f)
					sb_addf(out, "\\x%02x", c);
				else
					sb_addc(out, (char)c);
			}
			i++;
			continue;
		}
		len = ll_utf8_decode(p + i, n - i, &cp);
		if (!len) {
			sb_addf(out, "\\x%02x", c);
			i++;
		} else if (invisible(cp)) {
			sb_addf(out, "\\u{%" PRIx32 "}", cp);
			i += len;
		} else {
			sb_add(out, (const char *)p + i, len);
			i += len;
		}
	}
}

/* A path inside a URL: RFC 3986 unreserved bytes and '/' as they are. */
static void url_path(struct strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			sb_addc(out, (char)*p);
		else
			sb_addf(out, "%%%02X", *p);
	}
}

/* --source-url TEMPLATE with {file} and {line} filled in, escaped for href="". */
static void source_href(struct strbuf *out, const char *tmpl, const struct ll_decl *d)
{
	struct strbuf url = STRBUF_INIT;

	for (const char *p = tmpl; *p;) {
		if (strncmp(p, "{file}", 6) == 0) {
			url_path(&url, d->file);
			p += 6;
		} else if (strncmp(p, "{line}", 6) == 0) {
			sb_addf(&url, "%u", d->line);
			p += 6;
		} else {
			sb_addc(&url, *p++);
		}
	}
	esc(out, url.buf ? url.buf : "");
	sb_release(&url);
}

/* ---- sorted string sets: lookups per box stay O(log n) ---------------- */

/* Borrowed strings, sorted and unique once built. */
struct strset {
	const char **v;
	size_t n;
};

static void strset_add(struct strset *set, const char *s)
{
	if (!s)
		return;
	set->v = xgrow(set->v, set->n, sizeof(*set->v));
	set->v[set->n++] = s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void strset_seal(struct strset *set)
{
	size_t k = 0;

	if (!set->n)
		return;
	qsort(set->v, set->n, sizeof(*set->v), cmp_str);
	for (size_t i = 1; i < set->n; i++)
		if (strcmp(set->v[i], set->v[k]) != 0)
			set->v[++k] = set->v[i];
	set->n = k + 1;
}

/* Whether the first LEN bytes of KEY are an element of SET. */
static bool strset_has_prefix(const struct strset *set, const char *key, size_t len)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(key, set->v[mid], len);

		if (c == 0 && set->v[mid][len] != '\0')
			c = -1;
		if (c == 0)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static bool strset_has(const struct strset *set, const char *s)
{
	return s && strset_has_prefix(set, s, strlen(s));
}

/* Whether SET holds PATH or a member path above it ("f_path" for "f_path.mnt"). */
static bool strset_covers(const struct strset *set, const char *path)
{
	if (!path)
		return false;
	for (const char *p = path;; p++) {
		if ((*p == '.' || *p == '\0') && strset_has_prefix(set, path, (size_t)(p - path)))
			return true;
		if (!*p)
			return false;
	}
}

/* Which member a tag came from, for each member: sorted by member address. */
struct tag_origin {
	const struct ll_member *m;
	const struct ll_member *from;	/* NULL: no rule tagged it or a parent */
};

struct tag_origins {
	struct tag_origin *v;
	size_t n;
};

static void collect_origins(const struct ll_member *members, size_t n,
			    const struct ll_member *inherited, struct tag_origins *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		const struct ll_member *from = m->tag_rule_line ? m : inherited;

		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		out->v[out->n++] = (struct tag_origin){ m, from };
		collect_origins(m->children, m->nr_children, from, out);
	}
}

static int cmp_origin(const void *a, const void *b)
{
	const struct ll_member *x = ((const struct tag_origin *)a)->m;
	const struct ll_member *y = ((const struct tag_origin *)b)->m;

	return x < y ? -1 : x > y;
}

/* ---- per-struct context ---------------------------------------------- */

struct html_ctx {
	struct strbuf *out;
	const struct ll_run *run;
	const struct ll_linted *l;
	size_t index;			/* of the struct in the run: element ids */
	const char **domains;		/* write-hot domains in order of first use */
	size_t nr_domains;
	const struct strset *moved;	/* paths to mark moved in the map being drawn */
	bool current;			/* drawing the current layout: its findings apply */
	struct strset finding_paths;	/* members the findings name */
	struct strset sources;		/* declaring files of the struct and its members */
	struct tag_origins origins;	/* of the struct being drawn */
};

static const char *tag_letter(enum ll_tag t)
{
	return t == LL_WRITE_HOT ? "W" : t == LL_READ_MOSTLY ? "R" : t == LL_COLD ? "C" : "-";
}

static size_t domain_index(struct html_ctx *c, const char *domain)
{
	const char *d = domain ? domain : "";

	for (size_t i = 0; i < c->nr_domains; i++)
		if (strcmp(c->domains[i], d) == 0)
			return i;
	c->domains = xgrow(c->domains, c->nr_domains, sizeof(*c->domains));
	c->domains[c->nr_domains] = d;
	return c->nr_domains++;
}

/* The CSS class of a tag: t-r, t-c, t-u, or t-w0..t-w5 by domain. */
static void tag_class(struct html_ctx *c, struct strbuf *out, enum ll_tag t, const char *domain)
{
	if (t == LL_WRITE_HOT)
		sb_addf(out, "t-w%zu", domain_index(c, domain) % 6);
	else
		sb_adds(out, t == LL_READ_MOSTLY ? "t-r" : t == LL_COLD ? "t-c" : "t-u");
}

static void tag_text(struct strbuf *out, enum ll_tag t, const char *domain)
{
	sb_adds(out, ll_tag_name(t));
	if (t == LL_WRITE_HOT && domain) {
		sb_adds(out, ":");
		esc(out, domain);
	}
}

/* The member at or above M that a rule tagged: what M's tag came from. */
static const struct ll_member *tagger(const struct html_ctx *c, const struct ll_member *m)
{
	struct tag_origin key = { m, NULL };
	const struct tag_origin *o = bsearch(&key, c->origins.v, c->origins.n,
					     sizeof(*c->origins.v), cmp_origin);

	return o ? o->from : NULL;
}

static void rule_text(const struct html_ctx *c, struct strbuf *out, const struct ll_member *m)
{
	const struct ll_member *t = tagger(c, m);

	if (!t) {
		sb_adds(out, "no rule");
		return;
	}
	if (t->tag_rule_line == LL_GROUP_TAG_LINE) {
		esc(out, t->tag_rule_file);
	} else if (t->tag_rule_line == LL_STATIC_TAG_LINE) {
		sb_adds(out, "static evidence (--access)");
	} else {
		esc(out, t->tag_rule_file ? t->tag_rule_file : "rules");
		sb_addf(out, ":%d", t->tag_rule_line);
	}
	if (t != m) {
		sb_adds(out, " (inherited from ");
		esc(out, t->path);
		sb_adds(out, ")");
	}
}

static void decl_text(struct strbuf *out, const struct ll_decl *d)
{
	if (!d->file) {
		sb_adds(out, "unknown");
		return;
	}
	esc(out, d->file);
	if (d->line)
		sb_addf(out, ":%u", d->line);
	if (d->column)
		sb_addf(out, ":%u", d->column);
}

static void decl_cell(struct html_ctx *c, const struct ll_decl *d)
{
	if (d->file && d->line && c->run->source_url) {
		sb_adds(c->out, "<a href=\"");
		source_href(c->out, c->run->source_url, d);
		sb_adds(c->out, "\">");
		decl_text(c->out, d);
		sb_adds(c->out, "</a>");
	} else {
		decl_text(c->out, d);
	}
}

/* ---- the map --------------------------------------------------------- */

struct seg {
	uint64_t begin, end;	/* bytes within the struct */
	size_t lane;
	const struct ll_unit *u;
};

struct row {
	uint64_t line;		/* the line drawn; an elided row: the first line it stands for */
	const struct ll_line *entry;	/* the map's entry holding the line */
	struct seg *segs;
	size_t n;
	size_t lanes;
	double y;
	double h;
	/*
	 * Inside a run of lines alike (one member fills them whole, or none
	 * touches them), without findings: only the run's first and last are
	 * drawn, the others are this one short row, lines LINE to ELIDED_TO
	 * (a 2 GiB array is 33 million lines, one entry of the map).
	 */
	bool elided;
	uint64_t elided_to;
};

struct rows {
	struct row *v;
	size_t n;
};

#define ELIDE_MIN LL_LINE_RUN_MIN	/* lines in a run before its middle is elided */
#define ELIDED_H 18

static void fmt_num(struct strbuf *out, double v)
{
	sb_addf(out, "%.10g", v);
}

static void line_findings(struct html_ctx *c, uint64_t line, struct strbuf *out, bool *any_new);

static struct row *push_row(struct rows *rs, uint64_t line, const struct ll_line *entry)
{
	struct row *r;

	rs->v = xgrow(rs->v, rs->n, sizeof(*rs->v));
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->line = line;
	r->entry = entry;
	return r;
}

/* Lines FROM to TO of ENTRY, none with a finding: the middle of a long run elided. */
static void push_quiet(struct rows *rs, const struct ll_line *entry, uint64_t from, uint64_t to)
{
	if (to - from + 1 >= ELIDE_MIN) {
		struct row *r;

		push_row(rs, from, entry);
		r = push_row(rs, from + 1, entry);
		r->elided = true;
		r->elided_to = to - 1;
		push_row(rs, to, entry);
		return;
	}
	for (uint64_t k = from; k <= to; k++)
		push_row(rs, k, entry);
}

static int cmp_line(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The rows of the map: a line of ENTRY each, but a run of lines alike
 * (an entry of LL_LINE_RUN_MIN lines or more) broken only at the lines a
 * finding sits on and elided between.
 */
static void entry_rows(struct html_ctx *c, struct rows *rs, const struct ll_line *e, bool findings)
{
	const struct ll_linted *l = c->l;
	uint64_t *at = NULL, from = e->index;
	size_t nat = 0;

	if (e->count < ELIDE_MIN) {
		push_quiet(rs, e, e->index, ll_line_last(e));
		return;
	}
	for (size_t i = 0; findings && i < l->findings.n; i++) {
		int64_t fl = l->findings.v[i].cacheline;

		if (fl >= 0 && (uint64_t)fl >= e->index && (uint64_t)fl <= ll_line_last(e)) {
			at = xgrow(at, nat, sizeof(*at));
			at[nat++] = (uint64_t)fl;
		}
	}
	if (nat)
		qsort(at, nat, sizeof(*at), cmp_line);
	for (size_t i = 0; i < nat; i++) {
		if (i && at[i] == at[i - 1])
			continue;
		if (at[i] > from)
			push_quiet(rs, e, from, at[i] - 1);
		push_row(rs, at[i], e);
		from = at[i] + 1;
	}
	if (from <= ll_line_last(e))
		push_quiet(rs, e, from, ll_line_last(e));
	free(at);
}

/* Place every unit's part on each line in lanes: union members overlap. */
static void place_rows(struct html_ctx *c, const struct ll_struct *s, const struct ll_lines *lines,
		       struct rows *rs, bool findings)
{
	unsigned cl = s->cacheline;
	double y = TOP + RULER_H;

	for (size_t i = 0; i < lines->n; i++)
		entry_rows(c, rs, &lines->v[i], findings);
	for (size_t i = 0; i < rs->n; i++) {
		struct row *r = &rs->v[i];
		const struct ll_line *e = r->entry;
		uint64_t *lane_end = xcalloc(e->nr_units + 1, sizeof(*lane_end));
		uint64_t lb = r->line * cl, le = lb + cl;

		r->segs = xcalloc(e->nr_units + 1, sizeof(*r->segs));
		for (size_t k = 0; k < e->nr_units; k++) {
			const struct ll_unit *u = e->units[k];
			struct ll_extent x = ll_member_extent(u->m);
			struct seg *g = &r->segs[r->n++];
			size_t lane = 0;

			g->u = u;
			g->begin = x.begin > lb ? x.begin : lb;
			g->end = x.end < le ? x.end : le;
			while (lane < r->lanes && lane_end[lane] > g->begin)
				lane++;
			if (lane == r->lanes)
				r->lanes++;
			lane_end[lane] = g->end;
			g->lane = lane;
		}
		free(lane_end);
		if (!r->lanes)
			r->lanes = 1;
		r->y = y;
		r->h = r->elided ? ELIDED_H : (double)r->lanes * LANE_H;
		y += r->h + ROW_GAP;
	}
}

/* The first row drawing LINE or after it (rows are in line order). */
static size_t row_at(const struct rows *rs, uint64_t line)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t last = rs->v[mid].elided ? rs->v[mid].elided_to : rs->v[mid].line;

		if (last < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The one short row of an elided run: which lines, inside which member. */
static void draw_elided(struct html_ctx *c, const struct row *r)
{
	const struct ll_member *m = r->n ? r->segs[0].u->m : NULL;
	uint64_t first = r->line;

	sb_addf(c->out, "<g class=\"row elided\" data-line=\"%" PRIu64 "\" data-last=\"%" PRIu64
		"\" data-path=\"", first, r->elided_to);
	if (r->n == 1)
		esc(c->out, m->path ? m->path : "");
	sb_adds(c->out, "\"><text class=\"sub\" x=\"4\" y=\"");
	fmt_num(c->out, r->y + 13);
	sb_addf(c->out, "\">\xe2\x8b\xae lines %" PRIu64 "-%" PRIu64 " (%" PRIu64 "): ", first,
		r->elided_to, r->elided_to - first + 1);
	if (!r->n)
		sb_adds(c->out, "no member");
	else
		sb_adds(c->out, "inside ");
	for (size_t k = 0; k < r->n; k++) {
		if (k)
			sb_adds(c->out, ", ");
		esc(c->out, ll_member_label(r->segs[k].u->m));
	}
	sb_adds(c->out, "</text></g>\n");
}

static double xof(const struct ll_struct *s, uint64_t byte)
{
	return LABEL_W + (double)(byte % s->cacheline) * ROW_W / s->cacheline;
}

static void rect(struct strbuf *out, double x, double y, double w, double h)
{
	sb_adds(out, " x=\"");
	fmt_num(out, x);
	sb_adds(out, "\" y=\"");
	fmt_num(out, y);
	sb_adds(out, "\" width=\"");
	fmt_num(out, w);
	sb_adds(out, "\" height=\"");
	fmt_num(out, h);
	sb_adds(out, "\"");
}

/* --profile: "68062 samples (97%), 100% writes", or what is not known. */
static void measure_text(struct strbuf *out, const struct ll_struct *s, const struct ll_member *m)
{
	struct ll_measure ms = { 0 };

	ll_member_measure(m, &ms);
	sb_addf(out, "%.0f samples", ms.samples);
	if (ms.samples > 0 && s->measured_samples > 0) {
		sb_adds(out, " (");
		sb_add_percent(out, 100.0 * ms.samples / s->measured_samples);
		sb_adds(out, ")");
	}
	if (s->measured_access && ms.samples > 0) {
		sb_adds(out, ", ");
		sb_add_percent(out, 100.0 * ms.writes / ms.samples);
		sb_adds(out, " writes");
	}
}

static void member_title(struct html_ctx *c, const struct ll_struct *s, const struct ll_unit *u)
{
	const struct ll_member *m = u->m;
	struct ll_extent e = ll_member_extent(m);
	struct strbuf *out = c->out;

	sb_adds(out, "<title>");
	esc(out, m->path ? m->path : m->name);
	if (m->is_bitfield)
		sb_addf(out, "\noffset %" PRIu64 ":%" PRIu64 " (bit %" PRIu64 ", %" PRIu64 " bits)",
			m->bit_offset / 8, m->bit_offset % 8, m->bit_offset, m->bit_size);
	else
		sb_addf(out, "\noffset %" PRIu64, m->offset);
	sb_addf(out, " (line %" PRIu64 " +%" PRIu64 "), size %" PRIu64 "\ntype ",
		e.begin / s->cacheline, e.begin % s->cacheline, m->size);
	esc(out, m->type);
	sb_adds(out, "\ntag ");
	tag_text(out, u->tag, u->domain);
	sb_adds(out, "\nrule ");
	rule_text(c, out, m);
	sb_adds(out, "\ndeclared ");
	decl_text(out, &m->decl);
	if (s->measured) {
		sb_adds(out, "\nmeasured ");
		measure_text(out, s, m);
	}
	if (c->moved && strset_covers(c->moved, m->path))
		sb_adds(out, "\nmoved");
	sb_adds(out, "</title>");
}

/* Code points of S: the characters a label takes room for. */
static size_t text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * A label that does not fit AVAIL pixels at PX is set smaller and
 * squeezed to exactly AVAIL (textLength): shrunk, never cut. N: its
 * characters.
 */
static void fit_attrs(struct strbuf *out, size_t n, double px, double avail)
{
	double est = CHAR_EM * px * (double)n;

	if (!n || est <= avail || avail <= 0)
		return;
	px = avail / (CHAR_EM * (double)n);
	if (px < 4)
		px = 4;
	sb_adds(out, " style=\"font-size:");
	fmt_num(out, px);
	sb_adds(out, "px\" textLength=\"");
	fmt_num(out, avail);
	sb_adds(out, "\" lengthAdjust=\"spacingAndGlyphs\"");
}

/* Byte offsets within a line along the top of a map, every eighth of a line. */
static void draw_ruler(struct html_ctx *c, const struct ll_struct *s)
{
	struct strbuf *out = c->out;
	unsigned cl = s->cacheline, step = cl >= 8 ? cl / 8 : 1;

	sb_adds(out, "<g class=\"ruler\" aria-hidden=\"true\"><text class=\"sub\" x=\"4\" y=\"");
	fmt_num(out, TOP + 9);
	sb_adds(out, "\">offset</text>");
	for (unsigned b = 0; b <= cl; b += step) {
		double x = LABEL_W + (double)b * ROW_W / cl;

		sb_adds(out, "<path d=\"M");
		fmt_num(out, x);
		sb_addf(out, " %d v4\"/><text class=\"sub\" x=\"", TOP + RULER_H - 5);
		fmt_num(out, x);
		sb_addf(out, "\" y=\"%d\" text-anchor=\"%s\">+%u</text>", TOP + 9,
			b == 0 ? "start" : b == cl ? "end" : "middle", b);
	}
	sb_adds(out, "</g>\n");
}

static void draw_seg(struct html_ctx *c, const struct ll_struct *s, const struct row *r,
		     const struct seg *g)
{
	const struct ll_unit *u = g->u;
	const struct ll_member *m = u->m;
	struct strbuf *out = c->out;
	double x = xof(s, g->begin), y = r->y + (double)g->lane * LANE_H;
	double w = (double)(g->end - g->begin) * ROW_W / s->cacheline;
	bool moved = c->moved && strset_covers(c->moved, m->path);
	struct ll_extent e = ll_member_extent(m);

	sb_adds(out, "<g class=\"m ");
	tag_class(c, out, u->tag, u->domain);
	if (moved)
		sb_adds(out, " moved");
	if (c->current && strset_covers(&c->finding_paths, m->path))
		sb_adds(out, " hit");
	sb_adds(out, "\" data-path=\"");
	esc(out, m->path ? m->path : m->name);
	sb_addf(out, "\" data-offset=\"%" PRIu64 "\" data-size=\"%" PRIu64 "\" data-begin=\"%"
		PRIu64 "\" data-end=\"%" PRIu64 "\" data-tag=\"%s\">", e.begin, e.end - e.begin,
		g->begin, g->end, ll_tag_name(u->tag));
	member_title(c, s, u);
	sb_adds(out, "<rect");
	rect(out, x, y + 1, w, LANE_H - 2);
	sb_adds(out, "/>");
	/* A nested svg clips its text to the box. */
	sb_adds(out, "<svg");
	rect(out, x, y + 1, w, LANE_H - 2);
	/* Whole names, shrunk to the box when they are wider: never cut off. */
	const char *name = m->name ? m->name : m->path;
	struct strbuf sub = STRBUF_INIT;

	sb_adds(out, "><text class=\"name\" x=\"3\" y=\"12\"");
	fit_attrs(out, text_chars(name) + (moved ? 2 : 0), FONT_PX, w - 5);
	sb_adds(out, ">");
	if (moved)
		sb_adds(out, "\xe2\x86\x94 ");	/* ↔: moved, in text too */
	esc(out, name);
	sb_addf(&sub, "%" PRIu64 "B %s", m->size, tag_letter(u->tag));
	if (u->tag == LL_WRITE_HOT && u->domain) {
		sb_adds(&sub, ":");
		sb_adds(&sub, u->domain);
	}
	if (e.begin < g->begin)
		sb_adds(&sub, " (cont.)");
	sb_adds(out, "</text><text class=\"sub\" x=\"3\" y=\"24\"");
	fit_attrs(out, text_chars(sub.buf), FONT_PX - 1, w - 5);
	sb_adds(out, ">");
	esc(out, sub.buf);
	sb_adds(out, "</text></svg></g>\n");
	sb_release(&sub);
}

/* Bytes of line I no unit covers: holes, padding, and past the struct's end. */
static void draw_gaps(struct html_ctx *c, const struct ll_struct *s, const struct row *r,
		      uint64_t i, uint64_t members_end)
{
	unsigned cl = s->cacheline;
	uint64_t lb = (uint64_t)i * cl, le = lb + cl, at = lb;
	while (at < le) {
		uint64_t next = le;
		bool covered = false;

		for (size_t k = 0; k < r->n; k++) {
			if (r->segs[k].begin <= at && r->segs[k].end > at) {
				covered = true;
				break;
			}
			if (r->segs[k].begin > at && r->segs[k].begin < next)
				next = r->segs[k].begin;
		}
		if (covered) {
			uint64_t end = at + 1;

			for (bool grew = true; grew;) {
				grew = false;
				for (size_t k = 0; k < r->n; k++)
					if (r->segs[k].begin <= end && r->segs[k].end > end) {
						end = r->segs[k].end;
						grew = true;
					}
			}
			at = end;
			continue;
		}
		uint64_t stop = next < s->size || at >= s->size ? next : s->size;
		const char *kind = at >= s->size ? "beyond" : at >= members_end ? "pad" : "hole";
		double x = xof(s, at), w = (double)(stop - at) * ROW_W / cl;

		sb_addf(c->out, "<g class=\"gap %s\" data-begin=\"%" PRIu64 "\" data-end=\"%" PRIu64
			"\"><title>%s: %" PRIu64 " byte%s at offset %" PRIu64 "</title><rect", kind,
			at, stop, strcmp(kind, "beyond") == 0 ? "after the struct's end" :
			strcmp(kind, "pad") == 0 ? "padding" : "hole", stop - at,
			stop - at == 1 ? "" : "s", at);
		rect(c->out, x, r->y + 1, w, r->h - 2);
		sb_adds(c->out, "/>");
		if (strcmp(kind, "beyond") != 0) {
			sb_adds(c->out, "<svg");
			rect(c->out, x, r->y + 1, w, r->h - 2);
			sb_addf(c->out, "><text x=\"3\" y=\"12\">%s %" PRIu64 "</text></svg>", kind,
				stop - at);
		}
		sb_adds(c->out, "</g>\n");
		at = stop;
	}
}

static void draw_groups(struct html_ctx *c, const struct ll_struct *s, const struct rows *rs,
			const struct ll_groups *groups)
{
	unsigned cl = s->cacheline;

	for (size_t gi = 0; groups && gi < groups->n; gi++) {
		const struct ll_group *g = &groups->v[gi];

		if (g->end_offset <= g->begin_offset)
			continue;
		sb_adds(c->out, "<g class=\"grp\" data-group=\"");
		esc(c->out, g->name);
		sb_addf(c->out, "\" data-begin=\"%" PRIu64 "\" data-end=\"%" PRIu64 "\"><title>group ",
			g->begin_offset, g->end_offset);
		esc(c->out, g->name);
		sb_addf(c->out, ": bytes %" PRIu64 "-%" PRIu64 ", %" PRIu64 " line%s (min %" PRIu64
			")</title>", g->begin_offset, g->end_offset - 1, g->nr_lines,
			g->nr_lines == 1 ? "" : "s", g->min_lines);
		for (size_t ri = row_at(rs, g->begin_offset / cl);
		     ri < rs->n && rs->v[ri].line <= (g->end_offset - 1) / cl; ri++) {
			const struct row *r = &rs->v[ri];
			uint64_t line = r->line;
			uint64_t b = line * cl > g->begin_offset ? line * cl : g->begin_offset;
			uint64_t e = (line + 1) * cl < g->end_offset ? (line + 1) * cl : g->end_offset;

			if (r->elided)
				continue;

			sb_adds(c->out, "<rect");
			rect(c->out, xof(s, b), r->y - 2, (double)(e - b) * ROW_W / cl,
			     r->h + 4);
			sb_adds(c->out, "/>");
			if (b == g->begin_offset) {
				sb_adds(c->out, "<text class=\"grpname\" x=\"");
				fmt_num(c->out, xof(s, b) + 2);
				sb_adds(c->out, "\" y=\"");
				fmt_num(c->out, r->y + r->h - 3);
				sb_adds(c->out, "\">");
				esc(c->out, g->name);
				sb_adds(c->out, "</text>");
			}
		}
		sb_adds(c->out, "</g>\n");
	}
}

/* The finding numbers (1-based, as listed) that sit on LINE. */
static void line_findings(struct html_ctx *c, uint64_t line, struct strbuf *out, bool *any_new)
{
	const struct ll_linted *l = c->l;
	bool first = true;

	for (size_t i = 0; i < l->findings.n; i++) {
		if (l->findings.v[i].cacheline != (int64_t)line)
			continue;
		sb_addf(out, "%sF%zu", first ? "" : " ", i + 1);
		if (l->marks && l->marks[i].nr_new)
			*any_new = true;
		first = false;
	}
}

/*
 * One layout S as an SVG, from its UNITS, LINES and GROUPS as the lint
 * mapped them: FINDINGS true for the current layout (its findings are
 * drawn on their lines), false for a proposal.
 */
static void draw_map(struct html_ctx *c, const struct ll_struct *s, const struct ll_units *units,
		     const struct ll_lines *lines, const struct ll_groups *groups, bool findings,
		     const char *caption)
{
	c->current = findings;
	struct rows rs = { 0 };
	struct strbuf *out = c->out;
	uint64_t members_end = 0;	/* tail padding starts here */
	double height;

	place_rows(c, s, lines, &rs, findings);
	height = rs.n ? rs.v[rs.n - 1].y + rs.v[rs.n - 1].h + TOP : 2 * TOP;
	sb_adds(out, "<figure class=\"map\"><figcaption>");
	sb_adds(out, caption);
	sb_addf(out, " &middot; %u-byte lines, 1 byte = ", s->cacheline);
	fmt_num(out, (double)ROW_W / s->cacheline);
	sb_adds(out, " px</figcaption>\n<svg role=\"img\" "
		"class=\"lines\" aria-label=\"");
	sb_addf(out, "%s ", ll_kind_name(s->kind));
	esc(out, s->name);
	sb_addf(out, ": %" PRIu64 " cachelines\" width=\"%d\" height=\"", lines->nr_lines,
		LABEL_W + ROW_W + 4);
	fmt_num(out, height);
	sb_addf(out, "\" viewBox=\"0 0 %d ", LABEL_W + ROW_W + 4);
	fmt_num(out, height);
	sb_addf(out, "\" data-scale=\"");
	fmt_num(out, (double)ROW_W / s->cacheline);
	sb_addf(out, "\" data-x0=\"%d\" data-cacheline=\"%u\" data-size=\"%" PRIu64 "\">\n",
		LABEL_W, s->cacheline, s->size);
	draw_ruler(c, s);
	for (size_t i = 0; i < rs.n; i++) {
		const struct row *r = &rs.v[i];
		struct strbuf fl = STRBUF_INIT;
		bool any_new = false;
		const char *v = ll_verdict_name(r->entry->verdict);

		if (r->elided) {
			draw_elided(c, r);
			continue;
		}
		if (findings)
			line_findings(c, r->line, &fl, &any_new);
		sb_addf(out, "<g class=\"row v-%s%s%s\" data-line=\"%" PRIu64 "\">", v,
			fl.len ? " flagged" : "", any_new ? " new" : "", r->line);
		sb_adds(out, "<rect class=\"bg\"");
		rect(out, LABEL_W, r->y, ROW_W, r->h);
		sb_adds(out, "/><text class=\"ln\" x=\"4\" y=\"");
		fmt_num(out, r->y + 12);
		sb_addf(out, "\">line %" PRIu64 "</text><text class=\"sub\" x=\"4\" y=\"", r->line);
		fmt_num(out, r->y + 24);
		sb_addf(out, "\">%s%s", fl.len ? "\xe2\x9a\xa0 " : "", fl.len ? fl.buf : v);
		if (any_new)
			sb_adds(out, " new");
		sb_adds(out, "</text>");
		sb_adds(out, "</g>\n");
		sb_release(&fl);
	}
	for (size_t i = 0; i < units->n; i++) {
		struct ll_extent e = ll_member_extent(units->v[i].m);

		if (e.end > members_end)
			members_end = e.end;
	}
	for (size_t i = 0; i < rs.n; i++) {
		const struct row *r = &rs.v[i];

		if (r->elided)
			continue;
		draw_gaps(c, s, r, r->line, members_end);
		for (size_t k = 0; k < r->n; k++)
			draw_seg(c, s, r, &r->segs[k]);
	}
	draw_groups(c, s, &rs, groups);
	if (c->run->line_pairs && s->cacheline <= 64) {
		for (size_t i = 0; i + 1 < rs.n; i++) {
			const struct row *a = &rs.v[i], *b = &rs.v[i + 1];

			if (a->elided || b->elided || a->line % 2 || b->line != a->line + 1)
				continue;
			sb_addf(out, "<g class=\"pair\" data-pair=\"%" PRIu64 "\"><title>lines %" PRIu64
				"-%" PRIu64 ": one 128-byte pair</title><path d=\"M%d ", a->line / 2,
				a->line, b->line, LABEL_W - 4);
			fmt_num(out, a->y + 2);
			sb_adds(out, " h-6 V");
			fmt_num(out, b->y + b->h - 2);
			sb_adds(out, " h6\"/></g>\n");
		}
	}
	sb_adds(out, "</svg></figure>\n");
	for (size_t i = 0; i < rs.n; i++)
		free(rs.v[i].segs);
	free(rs.v);
}

/* ---- text parts ------------------------------------------------------ */

static void location(struct html_ctx *c, const struct ll_decl *d)
{
	const struct ll_struct *s = c->l->layout;
	struct strbuf *out = c->out;
	/* The binary's own sources only: never a rules file a note points at. */
	bool link = c->run->source_url && strset_has(&c->sources, d->file);

	if (d->file && d->line) {
		if (link) {
			sb_adds(out, "<a href=\"");
			source_href(out, c->run->source_url, d);
			sb_adds(out, "\">");
		}
		esc(out, d->file);
		sb_addf(out, ":%u:", d->line);
		if (d->column)
			sb_addf(out, "%u:", d->column);
		if (link)
			sb_adds(out, "</a>");
	} else {
		esc(out, c->l->binary ? c->l->binary : c->run->binary_path);
		sb_addf(out, ": %s ", ll_kind_name(s->kind));
		esc(out, s->name);
		sb_adds(out, ":");
	}
}

static void findings_list(struct html_ctx *c)
{
	const struct ll_linted *l = c->l;
	struct strbuf *out = c->out;

	sb_adds(out, "<h3>Findings</h3>\n");
	if (!l->findings.n) {
		sb_adds(out, "<p class=\"none\">No findings.</p>\n");
		return;
	}
	sb_adds(out, "<ol class=\"findings\">\n");
	for (size_t i = 0; i < l->findings.n; i++) {
		const struct ll_finding *f = &l->findings.v[i];
		bool is_new = l->marks && l->marks[i].nr_new;

		sb_addf(out, "<li id=\"s%zu-f%zu\" class=\"finding %s%s\" data-rule=\"%s\" "
			"data-tier=\"%s\"><pre>", c->index, i + 1, ll_level_name(f->level),
			is_new ? " new" : "", f->rule, ll_tier_name(f->tier));
		if (is_new)
			sb_adds(out, "<span class=\"badge\">NEW</span> ");
		/* What the tags rest on, when it is not the rules: the code or a profile. */
		if (f->tier != LL_TIER_DECLARED)
			sb_addf(out, "<span class=\"badge tier\" title=\"%s\">%s</span> ",
				f->tier == LL_TIER_STATIC ? "tags from the machine code (--access)" :
				"tags from a perf profile (--profile)", ll_tier_name(f->tier));
		location(c, &f->location);
		sb_addf(out, " <span class=\"lvl\">%s:</span> ", ll_level_name(f->level));
		esc(out, f->message);
		sb_addf(out, " [%s]", f->rule);
		for (size_t n = 0; n < f->nr_notes; n++) {
			sb_adds(out, "\n");
			location(c, &f->notes[n].decl);
			sb_adds(out, " note: ");
			esc(out, f->notes[n].message);
		}
		if (l->marks && l->marks[i].nr_new != l->marks[i].nr_pairs) {
			struct strbuf d = STRBUF_INIT;

			ll_gate_describe_new(f, &l->marks[i], &d);
			sb_adds(out, "\nnote: new since ");
			esc(out, c->run->gating->reference);
			sb_adds(out, ": ");
			esc(out, d.buf ? d.buf : "");
			sb_addf(out, " (%zu of %zu pairs were already there)",
				l->marks[i].nr_pairs - l->marks[i].nr_new, l->marks[i].nr_pairs);
			sb_release(&d);
		}
		sb_adds(out, "</pre></li>\n");
	}
	sb_adds(out, "</ol>\n");
}

static void suggestion_summary(struct html_ctx *c, const struct ll_suggestion *sg)
{
	struct strbuf *out = c->out;

	sb_addf(out, "<table class=\"ba\"><caption>Suggested order: %zu of %zu units moved%s"
		"</caption><tr><th></th><th>size</th><th>cachelines</th><th>holes</th>"
		"<th>findings</th></tr>\n", sg->moved, sg->units,
		sg->optimal ? " (exhaustive search)" : "");
	sb_addf(out, "<tr><th>before</th><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
		" (%" PRIu64 " bytes)</td><td>%zu</td></tr>\n", sg->before_size,
		sg->before_cachelines, sg->before_holes, sg->before_hole_bytes,
		sg->before_findings);
	sb_addf(out, "<tr><th>after</th><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
		" (%" PRIu64 " bytes)</td><td>%zu</td></tr></table>\n", sg->size, sg->cachelines,
		sg->holes, sg->hole_bytes, sg->findings);
	sb_addf(out, "<p>lower bound: %" PRIu64 " cacheline%s</p>\n", sg->lower_bound_lines,
		sg->lower_bound_lines == 1 ? "" : "s");
	for (size_t i = 0; i < sg->nr_notes; i++) {
		struct strbuf note = STRBUF_INIT;

		ll_suggest_note_describe(&sg->notes[i], &note);
		sb_adds(out, "<p class=\"note\">note: ");
		esc(out, note.buf);
		sb_release(&note);
		sb_adds(out, "</p>\n");
	}
}

/* --against's rows of one KIND: each member, its lines before (OLD) and now (NOW). */
static void diff_rows(struct strbuf *out, const char *kind, const struct ll_diff_member *v,
		      size_t n, bool old, bool now)
{
	char a[64], b[64];

	for (size_t i = 0; i < n; i++) {
		sb_addf(out, "<tr%s><td>%s</td><td>", old && now ? " class=\"moved\"" : "", kind);
		esc(out, v[i].path);
		sb_addf(out, "</td><td>%s</td><td>%s</td></tr>\n",
			old ? ll_diff_lines(v[i].old_lines, v[i].old_first, v[i].old_last, a,
					    sizeof(a)) : "",
			now ? ll_diff_lines(v[i].new_lines, v[i].new_first, v[i].new_last, b,
					    sizeof(b)) : "");
	}
}

static void diff_table(struct html_ctx *c)
{
	const struct ll_layout_diff *d = c->l->diff;
	struct strbuf *out = c->out;

	sb_adds(out, "<h3>Against ");
	esc(out, c->run->gating->reference);
	sb_adds(out, "</h3>\n");
	if (!d->in_reference) {
		sb_adds(out, "<p>Not defined there; all its findings are new.</p>\n");
		return;
	}
	sb_addf(out, "<p>size: %" PRIu64 " &rarr; %" PRIu64 " bytes, cachelines: %" PRIu64
		" &rarr; %" PRIu64 "</p>\n", d->old_size, d->new_size, d->old_cachelines,
		d->new_cachelines);
	if (!d->nr_moved && !d->nr_added && !d->nr_removed) {
		sb_adds(out, "<p>No member added, removed or moved to another cacheline.</p>\n");
		return;
	}
	sb_adds(out, "<table class=\"diff\"><tr><th>change</th><th>member</th><th>before</th>"
		"<th>now</th></tr>\n");
	diff_rows(out, "moved", d->moved, d->nr_moved, true, true);
	diff_rows(out, "added", d->added, d->nr_added, false, true);
	diff_rows(out, "removed", d->removed, d->nr_removed, true, false);
	sb_adds(out, "</table>\n");
}

static void groups_table(struct html_ctx *c, const struct ll_groups *g)
{
	struct strbuf *out = c->out;

	if (!g->n)
		return;
	sb_adds(out, "<h3>Cacheline groups</h3>\n<table class=\"groups\"><tr><th>group</th>"
		"<th>bytes</th><th>lines</th><th>tag</th></tr>\n");
	for (size_t i = 0; i < g->n; i++) {
		const struct ll_group *gr = &g->v[i];

		sb_adds(out, "<tr><td>");
		esc(out, gr->name);
		sb_addf(out, "</td><td>%" PRIu64 "-%" PRIu64 " (%" PRIu64 ")</td><td>", gr->begin_offset,
			gr->end_offset, gr->end_offset - gr->begin_offset);
		if (gr->nr_lines)
			sb_addf(out, "%" PRIu64 "-%" PRIu64 " (%" PRIu64 ", min %" PRIu64 ")",
				gr->first_line, gr->last_line, gr->nr_lines, gr->min_lines);
		sb_adds(out, "</td><td>");
		tag_text(out, gr->tag, gr->domain);
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</table>\n");
}

static void member_rows(struct html_ctx *c, const struct ll_member *members, size_t n, int depth)
{
	const struct ll_struct *s = c->l->layout;
	struct strbuf *out = c->out;

	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		uint64_t first, last;

		sb_addf(out, "<tr data-offset=\"%" PRIu64 "\"><td class=\"d%d\">", m->offset,
			depth < 6 ? depth : 6);
		if (m->name)
			esc(out, m->path ? m->path : m->name);
		else
			sb_addf(out, "<i>(anonymous %s)</i>",
				m->is_aggregate ? ll_kind_name(m->agg_kind) : "bitfield");
		if (m->is_bitfield)
			sb_addf(out, "</td><td>%" PRIu64 ":%" PRIu64 "</td><td>%" PRIu64 ":%" PRIu64,
				m->bit_offset / 8, m->bit_offset % 8, m->size, m->bit_size);
		else
			sb_addf(out, "</td><td>%" PRIu64 "</td><td>%" PRIu64, m->offset, m->size);
		sb_adds(out, "</td><td>");
		if (ll_member_lines(m, s->cacheline, &first, &last))
			sb_addf(out, first == last ? "%" PRIu64 : "%" PRIu64 "-%" PRIu64, first, last);
		sb_adds(out, "</td><td>");
		esc(out, m->type);
		sb_adds(out, "</td><td>");
		if (m->tag != LL_UNTAGGED)
			tag_text(out, m->tag, m->domain);
		sb_adds(out, "</td><td>");
		if (m->tag_rule_line)
			rule_text(c, out, m);
		sb_adds(out, "</td><td>");
		decl_cell(c, &m->decl);
		if (s->measured) {
			sb_adds(out, "</td><td>");
			measure_text(out, s, m);
		}
		sb_adds(out, "</td></tr>\n");
		member_rows(c, m->children, m->nr_children, depth + 1);
	}
}

static void members_table(struct html_ctx *c)
{
	const struct ll_struct *s = c->l->layout;

	sb_adds(c->out, "<details open><summary>Members</summary>\n<table class=\"members\"><tr>"
		"<th>member</th><th>offset</th><th>size</th><th>lines</th><th>type</th>"
		"<th>tag</th><th>rule</th><th>declared</th>");
	if (s->measured)
		sb_adds(c->out, "<th>measured</th>");
	sb_adds(c->out, "</tr>\n");
	member_rows(c, s->members, s->nr_members, 0);
	sb_adds(c->out, "</table></details>\n");
}

static void legend(struct html_ctx *c)
{
	struct strbuf *out = c->out;

	sb_adds(out, "<ul class=\"legend\">"
		"<li><span class=\"sw t-r\"></span>R read-mostly</li>");
	for (size_t i = 0; i < c->nr_domains; i++) {
		sb_addf(out, "<li><span class=\"sw t-w%zu\"></span>W write-hot", i % 6);
		if (*c->domains[i]) {
			sb_adds(out, ":");
			esc(out, c->domains[i]);
		}
		sb_adds(out, "</li>");
	}
	if (!c->nr_domains)
		sb_adds(out, "<li><span class=\"sw t-w0\"></span>W write-hot</li>");
	sb_adds(out, "<li><span class=\"sw t-c\"></span>C cold</li>"
		"<li><span class=\"sw t-u\"></span>- untagged</li>"
		"<li><span class=\"sw hole\"></span>hole / padding (hatched)</li>"
		"<li><span class=\"sw grp\"></span>kernel cacheline group (dashed)</li>"
		"<li><span class=\"sw hit\"></span>named in a finding (thick border)</li>"
		"<li>\xe2\x86\x94 moved</li><li>\xe2\x9a\xa0 Fn: finding n on this line</li></ul>\n");
}

/* Paths of the units a suggestion moves (an anonymous container: all inside). */
static void moved_paths(const struct ll_member *m, struct strset *set)
{
	if (m->path) {
		strset_add(set, m->path);
		return;
	}
	for (size_t i = 0; i < m->nr_children; i++)
		moved_paths(&m->children[i], set);
}

static void source_files(const struct ll_member *members, size_t n, struct strset *set)
{
	for (size_t i = 0; i < n; i++) {
		strset_add(set, members[i].decl.file);
		source_files(members[i].children, members[i].nr_children, set);
	}
}

/* What one struct's drawing looks up per box, built once. */
static void prepare(struct html_ctx *c, const struct ll_struct *s)
{
	free(c->origins.v);
	c->origins = (struct tag_origins){ 0 };
	collect_origins(s->members, s->nr_members, NULL, &c->origins);
	if (c->origins.n)
		qsort(c->origins.v, c->origins.n, sizeof(*c->origins.v), cmp_origin);
}

static void one_struct(struct html_ctx *c)
{
	const struct ll_linted *l = c->l;
	const struct ll_struct *s = l->layout;
	struct strbuf *out = c->out;
	struct ll_summary sum;
	struct strset sg_moved = { 0 }, diff_moved = { 0 };

	/* Domains in order of first use, so both maps colour them alike. */
	for (size_t i = 0; i < l->units.n; i++)
		if (l->units.v[i].tag == LL_WRITE_HOT)
			domain_index(c, l->units.v[i].domain);
	for (size_t i = 0; l->suggestion && i < l->suggestion->n; i++)
		if (l->suggestion->members[i].moved)
			moved_paths(l->suggestion->members[i].m, &sg_moved);
	strset_seal(&sg_moved);
	for (size_t i = 0; l->diff && i < l->diff->nr_moved; i++)
		strset_add(&diff_moved, l->diff->moved[i].path);
	strset_seal(&diff_moved);
	for (size_t i = 0; i < l->findings.n; i++)
		for (size_t k = 0; k < l->findings.v[i].nr_members; k++)
			strset_add(&c->finding_paths, l->findings.v[i].members[k]);
	strset_seal(&c->finding_paths);
	strset_add(&c->sources, s->decl.file);
	source_files(s->members, s->nr_members, &c->sources);
	strset_seal(&c->sources);
	prepare(c, s);

	ll_summarize(s, &sum);
	sb_addf(out, "<section class=\"struct\" id=\"s%zu\" aria-labelledby=\"s%zu-h\">\n"
		"<h2 id=\"s%zu-h\">%s ", c->index, c->index, c->index, ll_kind_name(s->kind));
	esc(out, s->name);
	sb_adds(out, "</h2>\n<p class=\"meta\">");
	/* Several binaries: which one this struct is from. */
	if (c->run->binaries) {
		sb_adds(out, "in ");
		esc(out, l->binary ? l->binary : c->run->binary_path);
		sb_adds(out, " &middot; ");
	}
	sb_adds(out, "declared ");
	decl_cell(c, &s->decl);
	sb_addf(out, " &middot; size %" PRIu64 ", cachelines %" PRIu64 ", members %zu &middot; "
		"holes %zu (%" PRIu64 " bytes), padding %" PRIu64 " &middot; alignment %" PRIu64
		" &middot; findings %zu</p>\n", s->size, ll_struct_lines(s), s->nr_members, sum.holes,
		sum.hole_bytes, sum.padding, s->alignment, l->findings.n);
	legend(c);
	sb_adds(out, "<div class=\"maps\">\n");
	c->moved = l->diff ? &diff_moved : &sg_moved;
	draw_map(c, s, &l->units, &l->lines, &l->groups, true,
		 l->diff ? "current layout (\xe2\x86\x94: moved since the reference)" :
		 l->suggestion ? "current layout (\xe2\x86\x94: the suggestion moves it)" :
		 "current layout");
	if (l->suggestion) {
		const struct ll_proposal *p = &l->proposal;

		prepare(c, p->layout);
		c->moved = &sg_moved;
		draw_map(c, p->layout, &p->units, &p->lines, &p->groups, false,
			 "suggested layout (\xe2\x86\x94: moved)");
		prepare(c, s);
	}
	sb_adds(out, "</div>\n");
	if (l->suggestion)
		suggestion_summary(c, l->suggestion);
	findings_list(c);
	if (l->diff)
		diff_table(c);
	groups_table(c, &l->groups);
	c->moved = NULL;
	members_table(c);
	sb_adds(out, "</section>\n");
	free(sg_moved.v);
	free(diff_moved.v);
}

static const char style[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--mut:#5a5a5a;--row:#f3f3f3;"
	"--line:#888;--r:#9ecbff;--w0:#ff8f8f;--w1:#ffb35c;--w2:#e89bd9;--w3:#c7a17a;"
	"--w4:#f5d76e;--w5:#ff6fa8;--c:#cfd8cf;--u:#e2e2e2;--hole:#b0b0b0;--bad:#c40000;"
	"--grp:#0a7a3c;--new:#d45500}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#161616;--fg:#e8e8e8;--mut:#a8a8a8;"
	"--row:#242424;--line:#777;--r:#2f5f93;--w0:#9a2c2c;--w1:#9a5a14;--w2:#7d3f72;"
	"--w3:#6e5233;--w4:#77661c;--w5:#9b2d5a;--c:#3b463b;--u:#3a3a3a;--hole:#5c5c5c;"
	"--bad:#ff6b6b;--grp:#4fd18b;--new:#ff9a4d}}\n"
	"body{background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,sans-serif;"
	"margin:1em 2em}\n"
	"h1{font-size:1.4em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid var(--line)}"
	"\n.meta,figcaption{color:var(--mut)}\n"
	".maps{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\n"
	"figure{margin:0;flex:1 1 720px;min-width:0}"
	"svg.lines{width:100%;height:auto;font:11px ui-monospace,monospace}\n"
	".ruler path{stroke:var(--mut)}\n"
	"svg text{fill:var(--fg)}svg text.sub{fill:var(--mut);font-size:10px}\n"
	".row .bg{fill:var(--row)}.row.flagged .bg{stroke:var(--bad);stroke-width:2}\n"
	".row.flagged text.sub{fill:var(--bad);font-weight:bold}\n"
	".row.new .bg{stroke:var(--new);stroke-width:3}\n"
	".m rect{stroke:var(--bg);stroke-width:1}.m.hit rect{stroke:var(--bad);stroke-width:2.5}\n"
	".m.moved rect{stroke:var(--fg);stroke-width:2;stroke-dasharray:5 3}\n"
	".t-r rect,.sw.t-r{fill:var(--r);background:var(--r)}"
	".t-w0 rect,.sw.t-w0{fill:var(--w0);background:var(--w0)}"
	".t-w1 rect,.sw.t-w1{fill:var(--w1);background:var(--w1)}"
	".t-w2 rect,.sw.t-w2{fill:var(--w2);background:var(--w2)}"
	".t-w3 rect,.sw.t-w3{fill:var(--w3);background:var(--w3)}"
	".t-w4 rect,.sw.t-w4{fill:var(--w4);background:var(--w4)}"
	".t-w5 rect,.sw.t-w5{fill:var(--w5);background:var(--w5)}"
	".t-c rect,.sw.t-c{fill:var(--c);background:var(--c)}"
	".t-u rect,.sw.t-u{fill:var(--u);background:var(--u)}\n"
	".gap rect{fill:var(--row);stroke:var(--hole)}"
	".gap.hole rect,.gap.pad rect{fill:url(#hatch)}"
	".gap.beyond rect{fill:none;stroke:none}\n"
	".hb{fill:var(--row)}.hl{stroke:var(--hole);stroke-width:3}\n"
	".grp rect{fill:none;stroke:var(--grp);stroke-width:2;stroke-dasharray:6 3}"
	".grp text{fill:var(--grp);font-size:9px}\n"
	".pair path{fill:none;stroke:var(--mut);stroke-width:1.5}\n"
	".legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4em 1.2em}\n"
	".sw{display:inline-block;width:1.1em;height:1.1em;vertical-align:middle;margin-right:.3em;"
	"border:1px solid var(--line)}\n"
	".sw.hole{background:repeating-linear-gradient(45deg,var(--hole) 0 2px,transparent 2px 5px)}"
	"\n.sw.grp{border:2px dashed var(--grp)}.sw.hit{border:3px solid var(--bad)}\n"
	"pre{white-space:pre-wrap;margin:.2em 0;font:12px/1.35 ui-monospace,monospace}\n"
	".finding.error .lvl{color:var(--bad);font-weight:bold}.finding.warning .lvl{color:var(--new)}"
	"\n.badge{background:var(--new);color:#000;padding:0 .3em;font-weight:bold}\n"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid var(--line);"
	"padding:.1em .5em;text-align:left;vertical-align:top}\n"
	"table.members td:first-child{font-family:ui-monospace,monospace}\n"
	"table.contracts td,table.contracts th{font-family:ui-monospace,monospace}"
	"table.contracts tr.differs th{color:var(--new)}\n"
	".d1{padding-left:1.5em}.d2{padding-left:2.5em}.d3{padding-left:3.5em}"
	".d4,.d5,.d6{padding-left:4.5em}\n"
	"a{color:inherit}\n"
	"@media print{:root{--bg:#fff;--fg:#000;--mut:#333;--row:#f6f6f6}body{margin:0}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"section.struct{break-before:page}details>table{display:table}"
	".maps{display:block}figure{break-inside:avoid}}\n";

void ll_report_html(const struct ll_run *run, struct strbuf *out)
{
	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n"
		"<meta name=\"generator\" content=\"layoutlint\">\n<title>layoutlint: ");
	esc(out, run->binary_path);
	sb_adds(out, "</title>\n<style>\n");
	sb_adds(out, style);
	sb_adds(out, "</style>\n</head>\n<body>\n"
		/* One hatch for every map: referenced as url(#hatch), same page. */
		"<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
		"<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect class=\"hb\" width=\"6\" height=\"6\"/>"
		"<line class=\"hl\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\"/>"
		"</pattern></defs></svg>\n<header><h1>layoutlint cacheline map</h1>\n<p>");
	for (size_t i = 0; i < (run->binaries ? run->nr_binaries : 1); i++) {
		const struct ll_binary one = { run->binary_path, run->build_id };
		const struct ll_binary *b = run->binaries ? &run->binaries[i] : &one;

		if (i)
			sb_adds(out, "<br>\n");
		esc(out, b->path);
		if (b->build_id) {
			sb_adds(out, " &middot; build-id ");
			esc(out, b->build_id);
		}
	}
	if (run->gating) {
		sb_addf(out, " &middot; %s ", run->gating->against ? "against" : "baseline");
		esc(out, run->gating->reference);
		sb_addf(out, ": %zu finding%s with new pairs, %zu already there (suppressed)",
			run->gating->reported_findings, run->gating->reported_findings == 1 ? "" : "s",
			run->gating->suppressed_findings);
	}
	sb_adds(out, "</p>\n");
	if (run->nr_structs > 1) {
		sb_adds(out, "<nav><ul>\n");
		for (size_t i = 0; i < run->nr_structs; i++) {
			const struct ll_struct *s = run->structs[i].layout;

			sb_addf(out, "<li><a href=\"#s%zu\">%s ", i, ll_kind_name(s->kind));
			esc(out, s->name);
			sb_addf(out, "</a>: %zu finding%s</li>\n", run->structs[i].findings.n,
				run->structs[i].findings.n == 1 ? "" : "s");
		}
		sb_adds(out, "</ul></nav>\n");
	}
	sb_adds(out, "</header>\n<main>\n");
	if (run->contracts)
		ll_report_contracts_html(run->contracts, out);
	for (size_t i = 0; i < run->nr_structs; i++) {
		struct html_ctx c = { .out = out, .run = run, .l = &run->structs[i], .index = i };

		one_struct(&c);
		ll_free_all(c.domains, c.finding_paths.v, c.sources.v, c.origins.v);
	}
	if (!run->nr_structs)
		sb_adds(out, "<p>No struct was linted.</p>\n");
	sb_adds(out, "</main>\n</body>\n</html>\n");
}
