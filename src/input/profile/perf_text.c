// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's data-type profiles as text (perf_text.h). perf pads columns to
 * widths it does not always keep (a type wider than "Data Type" pushes
 * the rest of its row right), so rows are split on perf's two-space field
 * separator, not on the header's dotted widths.
 */
#include "input/profile/perf_text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/read_file.h"
#include "util/strbuf.h"

enum column { COL_OVERHEAD, COL_SELF, COL_SAMPLES, COL_TYPE, COL_TYPEOFF, COL_SYMOFF, COL_OTHER };

#define MAX_COLUMNS 16
#define MAX_EVENTS 16

struct parser {
	const char *file;
	unsigned line;
	struct ll_profile *p;
	struct ll_profile_notes *notes;
	/* perf report */
	enum column cols[MAX_COLUMNS];
	size_t nr_cols;
	bool have_header;
	enum ll_access event_access;	/* of the current "# Samples: ... of event" section */
	double event_samples;		/* that section's total, for rows printed as percent */
	enum ll_access group_access[MAX_EVENTS];	/* --group: per value column */
	size_t nr_group;		/* --group: events in the section, else 0 */
	bool said_no_header;
	/* perf annotate --data-type */
	bool in_annotate;
	char *ann_type;
	double ann_total;
	enum ll_access ann_access[MAX_EVENTS];
	size_t ann_events;
	int ann_values;			/* 0 percent, 1 samples, 2 period */
	uint64_t ann_size;
	bool ann_rows;			/* the outermost row was read */
	/* pseudo-types said once each */
	char *said_pseudo[8];
	size_t nr_said_pseudo;
};

static void note(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct parser *ps, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	sb_addf(&sb, "%s:%u: ", ps->file, ps->line);
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	ps->notes->v = xgrow(ps->notes->v, ps->notes->n, sizeof(*ps->notes->v));
	ps->notes->v[ps->notes->n++].message = sb_detach(&sb);
}

/* What an event's name says about its samples: perf mem's events, Intel's, AMD's, Arm's. */
static enum ll_access access_of_event(const char *name)
{
	if (strstr(name, "store") || strstr(name, "STORE"))
		return LL_ACCESS_STORE;
	if (strstr(name, "load") || strstr(name, "LOAD"))
		return LL_ACCESS_LOAD;
	return LL_ACCESS_UNKNOWN;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Split S in place on runs of two or more blanks; how many fields (at most MAX). */
static size_t split_fields(char *s, char **f, size_t max)
{
	size_t n = 0;

	s = trim(s);
	while (*s && n < max) {
		char *sep = strstr(s, "  ");

		f[n++] = s;
		if (!sep)
			break;
		*sep = '\0';
		s = sep + 2;
		while (*s == ' ')
			s++;
	}
	return n;
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	*out = strtod(s, &end);
	return end != s && (*end == '\0' || (*end == '%' && end[1] == '\0')) && isfinite(*out) &&
	       *out >= 0;
}

static bool parse_offset(const char *s, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	*out = strtoull(s, &end, 0);
	return end != s && *end == '\0' && *out < LL_MAX_STRUCT_SIZE;
}

/*
 * The events of a "--group" section: "anon group { cpu/mem-loads/P,
 * cpu/mem-stores/P }", one value column each. 0 when S names no group.
 */
static size_t group_events(struct parser *ps, const char *s)
{
	const char *open = strchr(s, '{'), *close = open ? strchr(open, '}') : NULL;
	size_t n = 0;

	if (!open || !close)
		return 0;
	/* perf joins the names with ", "; a name has commas of its own ("ldlat=30"). */
	for (const char *p = open + 1; p < close && n < MAX_EVENTS; n++) {
		const char *sep = strstr(p, ", ");
		const char *end = sep && sep < close ? sep : close;
		char *name = strndup(p, (size_t)(end - p));

		if (!name)
			abort();
		ps->group_access[n] = access_of_event(name);
		free(name);
		p = end + (end == close ? 1 : 2);
	}
	return n;
}

/* "# Samples: 918K of event 'cpu-clock:u'", or "... of events 'anon group { A, B }'" */
static void event_section(struct parser *ps, const char *s)
{
	char *end;
	double n = strtod(s, &end);
	const char *one = strstr(s, "of event '"), *group = strstr(s, "of events '");

	if (end == s || (!one && !group))
		return;
	n *= *end == 'K' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1;
	ps->event_samples = isfinite(n) ? n : 0;
	ps->nr_group = group ? group_events(ps, group) : 0;
	ps->event_access = one ? access_of_event(one + 10) : LL_ACCESS_UNKNOWN;
}

static enum column column_named(const char *name)
{
	static const struct { const char *name; enum column c; } names[] = {
		{ "Overhead", COL_OVERHEAD }, { "Self", COL_SELF }, { "Samples", COL_SAMPLES },
		{ "Data Type", COL_TYPE }, { "Data Type Offset", COL_TYPEOFF },
		{ "Symbol Offset", COL_SYMOFF },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].c;
	return COL_OTHER;
}

/* "# Overhead       Samples  Data Type  Data Type Offset  Symbol Offset" */
static void report_header(struct parser *ps, char *s)
{
	char *f[MAX_COLUMNS];
	size_t n = split_fields(s, f, MAX_COLUMNS);
	bool typeoff = false;

	for (size_t i = 0; i < n; i++) {
		ps->cols[i] = column_named(f[i]);
		typeoff |= ps->cols[i] == COL_TYPEOFF;
	}
	ps->nr_cols = n;
	ps->have_header = typeoff;
	if (!typeoff)
		note(ps, "a report without the typeoff sort key says no offsets (perf report "
		     "-s type,typeoff): its rows are not used");
}

static bool pseudo_said(struct parser *ps, const char *type)
{
	for (size_t i = 0; i < ps->nr_said_pseudo; i++)
		if (strcmp(ps->said_pseudo[i], type) == 0)
			return true;
	if (ps->nr_said_pseudo < sizeof(ps->said_pseudo) / sizeof(ps->said_pseudo[0]))
		ps->said_pseudo[ps->nr_said_pseudo++] = xstrdup(type);
	return false;
}

/* perf's own rows for samples it could not type: skipped, unknown ones with a note. */
static bool skip_pseudo(struct parser *ps, const char *type)
{
	if (type[0] != '(')
		return false;
	if (strcmp(type, "(unknown)") && strcmp(type, "(stack operation)") &&
	    strcmp(type, "(stack canary)") && !pseudo_said(ps, type))
		note(ps, "pseudo-type %s is not one perf 6.12 prints; its rows are skipped", type);
	return true;
}

static struct ll_profile_row *new_row(struct parser *ps)
{
	struct ll_profile *p = ps->p;
	struct ll_profile_row *r;

	p->rows = xgrow(p->rows, p->nr_rows, sizeof(*p->rows));
	r = &p->rows[p->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->line = ps->line;
	return r;
}

/* "struct stats +0x8 (ops)" for TYPE: the offset and the field perf named. */
static bool parse_typeoff(const char *s, const char *type, uint64_t *off, char **field)
{
	size_t tl = strlen(type);
	const char *p, *close;
	char num[32];
	size_t nl;

	if (strncmp(s, type, tl) != 0 || strncmp(s + tl, " +", 2) != 0)
		return false;
	p = s + tl + 2;
	nl = strcspn(p, " ");
	if (nl == 0 || nl >= sizeof(num))
		return false;
	memcpy(num, p, nl);
	num[nl] = '\0';
	if (!parse_offset(num, off))
		return false;
	p += nl;
	*field = NULL;
	if (*p == '\0')
		return true;
	if (p[0] != ' ' || p[1] != '(' || !(close = strrchr(p, ')')) || close[1] != '\0')
		return false;
	if (strncmp(p + 2, "no field", 8) != 0 || p + 10 != close)
		*field = strndup(p + 2, (size_t)(close - p - 2));
	return true;
}

/* The values of one row, per event of the section (one unless --group). */
struct row_values {
	double pct[MAX_EVENTS];		/* -1: not printed */
	double samples[MAX_EVENTS];
	const char *type, *typeoff, *symoff;
};

static bool is_value_column(enum column c)
{
	return c == COL_OVERHEAD || c == COL_SELF || c == COL_SAMPLES;
}

/* Read F (N fields) by the header's columns, each value column one field per event. */
static bool row_fields(struct parser *ps, char **f, size_t n, size_t events, struct row_values *v)
{
	size_t k = 0, want = 0;

	for (size_t i = 0; i < ps->nr_cols; i++)
		want += is_value_column(ps->cols[i]) ? events : 1;
	if (n != want) {
		note(ps, "a row of %zu fields where the header has %zu (truncated or garbled): "
		     "skipped", n, want);
		return false;
	}
	for (size_t e = 0; e < events; e++)
		v->pct[e] = v->samples[e] = -1;
	for (size_t i = 0; i < ps->nr_cols; i++) {
		enum column c = ps->cols[i];

		for (size_t e = 0; is_value_column(c) && e < events; e++, k++) {
			double x;

			if (!parse_double(f[k], &x)) {
				note(ps, "'%s' is not a number: row skipped", f[k]);
				return false;
			}
			if (c == COL_SAMPLES)
				v->samples[e] = x;
			else if (c == COL_SELF || v->pct[e] < 0)	/* Self wins over Children */
				v->pct[e] = x;
		}
		if (is_value_column(c))
			continue;
		if (c == COL_TYPE)
			v->type = f[k];
		else if (c == COL_TYPEOFF)
			v->typeoff = f[k];
		else if (c == COL_SYMOFF)
			v->symoff = f[k];
		k++;
	}
	return true;
}

static void add_report_row(struct parser *ps, const struct row_values *v, uint64_t off,
			   const char *field, double samples, enum ll_access access)
{
	struct ll_profile_row *r = new_row(ps);
	const char *symoff = v->symoff;

	r->type = xstrdup(v->type);
	r->offset = off;
	r->field = field ? xstrdup(field) : NULL;
	r->samples = samples;
	r->access = access;
	if (symoff) {
		/* "[.] writer+0x15": the privilege level, then the instruction. */
		if (symoff[0] == '[' && symoff[1] && symoff[2] == ']' && symoff[3] == ' ')
			symoff += 4;
		r->symoff = xstrdup(symoff);
	}
}

static void report_row(struct parser *ps, char *s)
{
	char *f[MAX_COLUMNS * MAX_EVENTS];
	size_t n = split_fields(s, f, MAX_COLUMNS * MAX_EVENTS);
	size_t events = ps->nr_group ? ps->nr_group : 1;
	struct row_values v = { 0 };
	uint64_t off;
	char *field = NULL;

	if (!row_fields(ps, f, n, events, &v) || !v.type || !v.typeoff || skip_pseudo(ps, v.type))
		return;
	if (!parse_typeoff(v.typeoff, v.type, &off, &field)) {
		note(ps, "'%s' is not '%s +OFFSET (FIELD)': row skipped", v.typeoff, v.type);
		return;
	}
	for (size_t e = 0; e < events; e++) {
		/* Percent of the section's samples when no Samples column is printed. */
		double samples = v.samples[e] >= 0 ? v.samples[e] :
				 v.pct[e] >= 0 && ps->event_samples > 0 ?
				 v.pct[e] / 100.0 * ps->event_samples / (double)events : v.pct[e];

		if (samples > 0)
			add_report_row(ps, &v, off, field, samples,
				       ps->nr_group ? ps->group_access[e] : ps->event_access);
	}
	free(field);
}

/* "Annotate type: 'struct stats' in /tmp/x/prog (63559 samples):" */
static void annotate_start(struct parser *ps, const char *s)
{
	const char *q1 = strchr(s, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
	const char *paren = strrchr(s, '(');

	free(ps->ann_type);
	ps->ann_type = NULL;
	ps->in_annotate = false;
	if (!q1 || !q2 || q2 == q1 + 1) {
		note(ps, "an 'Annotate type:' line without a quoted type: block skipped");
		return;
	}
	ps->ann_type = strndup(q1 + 1, (size_t)(q2 - q1 - 1));
	ps->ann_total = paren ? strtod(paren + 1, NULL) : 0;
	if (!isfinite(ps->ann_total) || ps->ann_total < 0)
		ps->ann_total = 0;
	ps->in_annotate = true;
	ps->ann_events = 0;
	ps->ann_values = -1;
	ps->ann_size = 0;
	ps->ann_rows = false;
}

static void annotate_value_header(struct parser *ps, const char *s)
{
	ps->ann_values = strncmp(s, "Percent", 7) == 0 ? 0 : strncmp(s, "Samples", 7) == 0 ? 1 : 2;
}

/* One member row: VALUE... OFFSET SIZE TYPE\tNAME [{|;] */
static void annotate_row(struct parser *ps, char *s)
{
	size_t nv = ps->ann_events ? ps->ann_events : 1;
	double v[MAX_EVENTS];
	uint64_t off, size;
	char *tok[MAX_EVENTS + 2], *rest = s;
	size_t k;

	/* The end of a nested aggregate: its members were rows of their own. */
	if (strcmp(trim(s), "};") == 0 || strcmp(trim(s), "}") == 0)
		return;
	for (k = 0; k < nv + 2; k++) {
		rest += strspn(rest, " ");
		tok[k] = rest;
		rest += strcspn(rest, " \t");
		if (*rest)
			*rest++ = '\0';
	}
	for (k = 0; k < nv; k++)
		if (!parse_double(tok[k], &v[k]))
			break;
	if (k < nv || !parse_offset(tok[nv], &off) || !parse_offset(tok[nv + 1], &size)) {
		note(ps, "not a member row of perf annotate --data-type (truncated or garbled): "
		     "skipped");
		return;
	}
	rest = trim(rest);
	size_t len = strlen(rest);

	if (!ps->ann_rows) {	/* the type itself: its size */
		ps->ann_rows = true;
		ps->ann_size = size;
		return;
	}
	/* A nested aggregate ("... {") sums its members: only leaves ("...;") are rows. */
	if (len == 0 || rest[len - 1] != ';')
		return;
	rest[len - 1] = '\0';
	char *name = strrchr(rest, '\t');

	name = name ? trim(name + 1) : NULL;
	for (k = 0; k < nv; k++) {
		double samples = ps->ann_values == 0 ? v[k] / 100.0 * ps->ann_total / (double)nv : v[k];
		struct ll_profile_row *r;

		if (samples <= 0)
			continue;
		r = new_row(ps);
		r->type = xstrdup(ps->ann_type);
		r->type_size = ps->ann_size;
		r->offset = off;
		r->samples = samples;
		r->field = name && *name ? xstrdup(name) : NULL;
		r->access = ps->ann_events ? ps->ann_access[k] : LL_ACCESS_UNKNOWN;
	}
}

static void annotate_line(struct parser *ps, char *s)
{
	char *t = trim(s);

	if (!*t) {
		ps->in_annotate = ps->ann_rows ? false : ps->in_annotate;
		return;
	}
	if (strncmp(t, "event[", 6) == 0) {
		const char *eq = strstr(t, "= ");

		if (ps->ann_events < MAX_EVENTS && eq)
			ps->ann_access[ps->ann_events++] = access_of_event(eq + 2);
		return;
	}
	if (t[0] == '=')
		return;
	if (ps->ann_values < 0) {
		annotate_value_header(ps, t);
		return;
	}
	annotate_row(ps, s);
}

/* "1ca5a0fe475233ca1f1cb2265dc0063262d44627 /tmp/x/prog" (perf buildid-list). */
static bool build_id_line(struct parser *ps, const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	const char *path;

	if (n < 16 || n > 128 || n % 2 || s[n] != ' ')
		return false;
	path = s + n + 1;
	path += strspn(path, " ");
	if (!*path)
		return false;
	struct ll_profile *p = ps->p;

	p->build_ids = xgrow(p->build_ids, p->nr_build_ids, sizeof(*p->build_ids));
	p->build_ids[p->nr_build_ids].id = strndup(s, n);
	p->build_ids[p->nr_build_ids++].path = xstrdup(path);
	return true;
}

static void parse_line(struct parser *ps, char *s)
{
	if (strncmp(s, "Annotate type: ", 15) == 0) {
		annotate_start(ps, s);
		return;
	}
	if (ps->in_annotate) {
		annotate_line(ps, s);
		return;
	}
	if (s[0] == '#') {
		char *t = trim(s + 1);

		if (strncmp(t, "Samples: ", 9) == 0)
			event_section(ps, t + 9);
		else if (strstr(t, "Data Type"))
			report_header(ps, t);
		return;
	}
	if (!*trim(s) || build_id_line(ps, s))
		return;
	if (ps->have_header) {
		report_row(ps, s);
	} else if (!ps->said_no_header) {
		ps->said_no_header = true;
		note(ps, "text before any perf report header or 'Annotate type:' block: "
		     "ignored");
	}
}

int ll_profile_parse(const char *file, const char *text, size_t len, struct ll_profile **out,
		     struct ll_profile_notes *notes, struct ll_error *err)
{
	struct ll_profile *p = xcalloc(1, sizeof(*p));
	struct parser ps = { .file = file, .p = p, .notes = notes };
	size_t pos = 0;

	p->file = xstrdup(file);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *line = strndup(text + pos, end - pos);

		ps.line++;
		if (!line)
			abort();
		/* A report cut short ends mid-row: that row's fields cannot be trusted. */
		if (!nl && *line) {
			note(&ps, "the last line has no newline (the report is truncated): ignored");
			free(line);
			break;
		}
		parse_line(&ps, line);
		free(line);
		pos = end + 1;
	}
	free(ps.ann_type);
	for (size_t i = 0; i < ps.nr_said_pseudo; i++)
		free(ps.said_pseudo[i]);
	if (!p->nr_rows && !ps.have_header && !ps.ann_rows) {
		ll_profile_free(p);
		return ll_fail(err, "%s: not a perf data-type profile: no 'Data Type Offset' "
			       "column and no 'Annotate type:' block (make one with perf report "
			       "--stdio -n -s type,typeoff,symoff, or perf annotate --stdio "
			       "--data-type)", file);
	}
	*out = p;
	return 0;
}

int ll_profile_load(const char *path, struct ll_profile **out, struct ll_profile_notes *notes,
		    struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	int why, rc;

	if (ll_read_regular(path, LL_PROFILE_MAX_BYTES, &text, &why)) {
		sb_release(&text);
		return ll_fail(err, "--profile %s: %s", path,
			       ll_read_error_text(why, LL_PROFILE_MAX_BYTES));
	}
	rc = ll_profile_parse(path, text.buf ? text.buf : "", text.len, out, notes, err);
	sb_release(&text);
	return rc;
}
