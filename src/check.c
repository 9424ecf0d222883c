// SPDX-License-Identifier: GPL-2.0-or-later
/* Units, cacheline maps and verdicts: the geometry every check shares. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

const char *ll_level_name(enum ll_level level)
{
	switch (level) {
	case LL_LEVEL_NOTE: return "note";
	case LL_LEVEL_WARNING: return "warning";
	case LL_LEVEL_ERROR: break;
	}
	return "error";
}

const char *ll_verdict_name(enum ll_verdict v)
{
	switch (v) {
	case LL_VERDICT_MIXED: return "mixed";
	case LL_VERDICT_WRITE_DOMAINS: return "write-domains";
	case LL_VERDICT_UNTAGGED_ONLY: return "untagged-only";
	case LL_VERDICT_CLEAN: break;
	}
	return "clean";
}

void ll_findings_release(struct ll_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct ll_finding *x = &f->v[i];

		free(x->message);
		for (size_t j = 0; j < x->nr_members; j++)
			free(x->members[j]);
		free(x->members);
		for (size_t j = 0; j < x->nr_pairs; j++) {
			free(x->pairs[j].a);
			free(x->pairs[j].b);
		}
		free(x->pairs);
		for (size_t j = 0; j < x->nr_notes; j++)
			free(x->notes[j].message);
		free(x->notes);
		free(x->fingerprint);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

static bool has_tagged_descendant(const struct ll_member *m)
{
	for (size_t i = 0; i < m->nr_children; i++) {
		const struct ll_member *c = &m->children[i];

		if (c->tag_rule_line || has_tagged_descendant(c))
			return true;
	}
	return false;
}

static void push_unit(struct ll_units *out, const struct ll_member *m, enum ll_tag tag,
		      const char *domain)
{
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	out->v[out->n++] = (struct ll_unit){ .m = m, .tag = tag, .domain = domain };
}

static void collect(const struct ll_member *members, size_t n, enum ll_tag inherited,
		    const char *inherited_domain, bool inherited_set, struct ll_units *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		bool own = m->tag_rule_line != 0;
		enum ll_tag tag = own ? m->tag : inherited;
		const char *domain = own ? m->domain : inherited_domain;
		bool set = own || inherited_set;

		if (m->is_aggregate && m->nr_children &&
		    (!m->name || has_tagged_descendant(m))) {
			collect(m->children, m->nr_children, tag, domain, set, out);
			continue;
		}
		if (!m->name)
			continue;	/* unnamed bitfields and empty anonymous aggregates */
		push_unit(out, m, set ? tag : LL_UNTAGGED, set ? domain : NULL);
	}
}

void ll_collect_units(const struct ll_struct *s, struct ll_units *out)
{
	memset(out, 0, sizeof(*out));
	collect(s->members, s->nr_members, LL_UNTAGGED, NULL, false, out);
}

void ll_units_release(struct ll_units *u)
{
	free(u->v);
	u->v = NULL;
	u->n = 0;
}

static bool same_domain(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static enum ll_verdict verdict_of(const struct ll_line *line)
{
	bool read = false, write = false, tagged = false, domains = false;
	const char *first_domain = NULL;
	bool have_domain = false;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];

		if (u->tag != LL_UNTAGGED)
			tagged = true;
		if (u->tag == LL_READ_MOSTLY)
			read = true;
		if (u->tag == LL_WRITE_HOT) {
			write = true;
			if (!have_domain) {
				first_domain = u->domain;
				have_domain = true;
			} else if (!same_domain(first_domain, u->domain)) {
				domains = true;
			}
		}
	}
	if (read && write)
		return LL_VERDICT_MIXED;
	if (domains)
		return LL_VERDICT_WRITE_DOMAINS;
	return tagged ? LL_VERDICT_CLEAN : LL_VERDICT_UNTAGGED_ONLY;
}

void ll_map_lines(const struct ll_struct *s, const struct ll_units *units, struct ll_lines *out)
{
	uint64_t nlines = ll_struct_lines(s);

	memset(out, 0, sizeof(*out));
	out->v = xcalloc(nlines ? nlines : 1, sizeof(*out->v));
	out->n = nlines;
	for (uint64_t i = 0; i < nlines; i++)
		out->v[i].index = i;
	for (size_t i = 0; i < units->n; i++) {
		uint64_t first, last;

		if (!ll_member_lines(units->v[i].m, s->cacheline, &first, &last))
			continue;
		for (uint64_t l = first; l <= last && l < nlines; l++) {
			struct ll_line *line = &out->v[l];

			line->units = xgrow(line->units, line->nr_units, sizeof(*line->units));
			line->units[line->nr_units++] = &units->v[i];
		}
	}
	for (uint64_t i = 0; i < nlines; i++)
		out->v[i].verdict = verdict_of(&out->v[i]);
}

void ll_lines_release(struct ll_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].units);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* ---- finding builders ---------------------------------------------------- */

struct ll_finding *ll_finding_add(struct ll_findings *out, const char *rule,
				  enum ll_level level, int64_t cacheline)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	struct ll_finding *f = &out->v[out->n++];

	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->level = level;
	f->cacheline = cacheline;
	return f;
}

void ll_finding_member(struct ll_finding *f, const char *path)
{
	for (size_t i = 0; i < f->nr_members; i++)
		if (strcmp(f->members[i], path) == 0)
			return;
	f->members = xrealloc(f->members, (f->nr_members + 1) * sizeof(*f->members));
	f->members[f->nr_members++] = xstrdup(path);
}

void ll_finding_pair(struct ll_finding *f, const char *a, const char *b)
{
	f->pairs = xrealloc(f->pairs, (f->nr_pairs + 1) * sizeof(*f->pairs));
	f->pairs[f->nr_pairs++] = (struct ll_pair){ xstrdup(a), b ? xstrdup(b) : NULL };
}

void ll_finding_note(struct ll_finding *f, const struct ll_decl *decl, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	f->notes = xrealloc(f->notes, (f->nr_notes + 1) * sizeof(*f->notes));
	f->notes[f->nr_notes++] = (struct ll_note){ sb_detach(&sb), *decl };
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;	/* separator */
	h *= 0x100000001b3ULL;
	return h;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ll_finding_seal(struct ll_finding *f, const struct ll_struct *s)
{
	char **sorted = xmalloc((f->nr_members ? f->nr_members : 1) * sizeof(*sorted));
	uint64_t h = 0xcbf29ce484222325ULL;
	char hex[17];

	if (f->nr_members)
		memcpy(sorted, f->members, f->nr_members * sizeof(*sorted));
	if (f->nr_members)
		qsort(sorted, f->nr_members, sizeof(*sorted), str_cmp);
	h = fnv1a(h, f->rule);
	h = fnv1a(h, ll_kind_name(s->kind));
	h = fnv1a(h, s->name);
	for (size_t i = 0; i < f->nr_members; i++)
		h = fnv1a(h, sorted[i]);
	free(sorted);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	free(f->fingerprint);
	f->fingerprint = xstrdup(hex);
}

enum ll_level ll_findings_max_level(const struct ll_findings *f, bool *any)
{
	enum ll_level max = LL_LEVEL_NOTE;

	*any = f->n > 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].level > max)
			max = f->v[i].level;
	return max;
}

/* ---- the checks ---------------------------------------------------------- */

static bool allowed(const struct ll_check_input *in, const char *rule, const char *path)
{
	for (size_t i = 0; i < in->nr_allows; i++) {
		const struct ll_allow *a = &in->allows[i];
		size_t n = strlen(a->path);

		if (strcmp(a->rule, rule) == 0 && strncmp(path, a->path, n) == 0 &&
		    (path[n] == '\0' || path[n] == '.'))
			return true;
	}
	return false;
}

static void unit_bytes_on_line(const struct ll_unit *u, uint64_t line, unsigned cl,
			       uint64_t *lo, uint64_t *hi)
{
	struct ll_extent e = ll_member_extent(u->m);
	uint64_t begin = line * cl, end = begin + cl;

	*lo = e.begin > begin ? e.begin : begin;
	*hi = (e.end < end ? e.end : end) - 1;
}

static void tag_words(const struct ll_unit *u, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", ll_tag_name(u->tag), u->domain ? ":" : "",
		 u->domain ? u->domain : "");
}

static void add_line_notes(struct ll_finding *f, const struct ll_line *line,
			   const struct ll_unit *at, bool (*involved)(const struct ll_unit *),
			   const struct ll_check_input *in, unsigned cl)
{
	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];
		uint64_t lo, hi;
		char tag[128];

		if (u == at || !involved(u) || allowed(in, f->rule, u->m->path))
			continue;
		unit_bytes_on_line(u, line->index, cl, &lo, &hi);
		tag_words(u, tag, sizeof(tag));
		ll_finding_note(f, &u->m->decl, "%s %s shares cacheline %llu (bytes %llu-%llu)",
				tag, u->m->path, (unsigned long long)line->index,
				(unsigned long long)lo, (unsigned long long)hi);
	}
}

static bool is_hot(const struct ll_unit *u)
{
	return u->tag == LL_READ_MOSTLY || u->tag == LL_WRITE_HOT;
}

static bool is_write(const struct ll_unit *u)
{
	return u->tag == LL_WRITE_HOT;
}

static bool same_dom(const struct ll_unit *a, const struct ll_unit *b)
{
	return same_domain(a->domain, b->domain);
}

static void list_names(struct strbuf *sb, const struct ll_line *line, enum ll_tag tag,
		       const char *rule, const struct ll_check_input *in,
		       const struct ll_unit *partner_filter)
{
	bool first = true;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];

		if (u->tag != tag || allowed(in, rule, u->m->path))
			continue;
		if (partner_filter && !same_dom(u, partner_filter))
			continue;
		sb_addf(sb, "%s%s", first ? "" : ", ", u->m->path);
		first = false;
	}
}

static void check_mixed(const struct ll_check_input *in, const struct ll_line *line,
			struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	const char *rule = "mixed-cacheline";
	struct ll_finding *f = NULL;
	const struct ll_unit *at = NULL;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *r = line->units[i];

		if (r->tag != LL_READ_MOSTLY || allowed(in, rule, r->m->path))
			continue;
		for (size_t j = 0; j < line->nr_units; j++) {
			const struct ll_unit *w = line->units[j];

			if (w->tag != LL_WRITE_HOT || allowed(in, rule, w->m->path))
				continue;
			if (!f) {
				f = ll_finding_add(out, rule, LL_LEVEL_ERROR, (int64_t)line->index);
				at = r;
			}
			ll_finding_pair(f, r->m->path, w->m->path);
		}
	}
	if (!f)
		return;
	for (size_t i = 0; i < f->nr_pairs; i++)
		ll_finding_member(f, f->pairs[i].a);
	for (size_t i = 0; i < f->nr_pairs; i++)
		ll_finding_member(f, f->pairs[i].b);

	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "cacheline %llu of %s %s mixes read-mostly ",
		(unsigned long long)line->index, ll_kind_name(s->kind), s->name);
	list_names(&msg, line, LL_READ_MOSTLY, rule, in, NULL);
	sb_adds(&msg, " with write-hot ");
	list_names(&msg, line, LL_WRITE_HOT, rule, in, NULL);
	f->message = sb_detach(&msg);
	f->location = at->m->decl;
	add_line_notes(f, line, at, is_hot, in, s->cacheline);
	ll_finding_seal(f, s);
}

static void check_domains(const struct ll_check_input *in, const struct ll_line *line,
			  struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	const char *rule = "write-domains";
	struct ll_finding *f = NULL;
	const struct ll_unit *at = NULL;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *a = line->units[i];

		if (a->tag != LL_WRITE_HOT || allowed(in, rule, a->m->path))
			continue;
		for (size_t j = i + 1; j < line->nr_units; j++) {
			const struct ll_unit *b = line->units[j];

			if (b->tag != LL_WRITE_HOT || same_dom(a, b) || allowed(in, rule, b->m->path))
				continue;
			if (!f) {
				f = ll_finding_add(out, rule, LL_LEVEL_ERROR, (int64_t)line->index);
				at = a;
			}
			ll_finding_pair(f, a->m->path, b->m->path);
			ll_finding_member(f, a->m->path);
			ll_finding_member(f, b->m->path);
		}
	}
	if (!f)
		return;

	struct strbuf msg = STRBUF_INIT;
	const struct ll_unit *seen[64];
	size_t nseen = 0;

	sb_addf(&msg, "cacheline %llu of %s %s mixes write-hot domains",
		(unsigned long long)line->index, ll_kind_name(s->kind), s->name);
	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];
		bool dup = false;

		if (u->tag != LL_WRITE_HOT || allowed(in, rule, u->m->path))
			continue;
		for (size_t k = 0; k < nseen; k++)
			dup |= same_dom(seen[k], u);
		if (dup || nseen == 64)
			continue;
		seen[nseen++] = u;
		sb_addf(&msg, "%s %s (", nseen > 1 ? "," : "", u->domain ? u->domain : "default");
		list_names(&msg, line, LL_WRITE_HOT, rule, in, u);
		sb_addc(&msg, ')');
	}
	f->message = sb_detach(&msg);
	f->location = at->m->decl;
	add_line_notes(f, line, at, is_write, in, s->cacheline);
	ll_finding_seal(f, s);
}

static void check_split(const struct ll_check_input *in, const struct ll_units *units,
			struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	const char *rule = "split-hot";

	for (size_t i = 0; i < units->n; i++) {
		const struct ll_unit *u = &units->v[i];
		struct ll_extent e = ll_member_extent(u->m);
		uint64_t first, last;
		char tag[128];

		if (!is_hot(u) || allowed(in, rule, u->m->path))
			continue;
		if (!ll_member_lines(u->m, s->cacheline, &first, &last) || first == last)
			continue;
		if (e.end - e.begin > s->cacheline)
			continue;	/* does not fit in one line anyway */
		/* One finding per line: merge with one already raised there. */
		struct ll_finding *f = NULL;

		for (size_t k = 0; k < out->n; k++)
			if (out->v[k].rule == rule && out->v[k].cacheline == (int64_t)first)
				f = &out->v[k];
		enum ll_level level = u->tag == LL_WRITE_HOT && e.end - e.begin <= 16 ?
				      LL_LEVEL_ERROR : LL_LEVEL_WARNING;

		tag_words(u, tag, sizeof(tag));
		if (f) {
			if (level > f->level)
				f->level = level;
			ll_finding_note(f, &u->m->decl, "%s %s also straddles it", tag, u->m->path);
		} else {
			struct strbuf msg = STRBUF_INIT;

			f = ll_finding_add(out, rule, level, (int64_t)first);
			sb_addf(&msg, "%s %s (bytes %llu-%llu) straddles the boundary of cachelines "
				"%llu and %llu of %s %s although it fits in one line", tag,
				u->m->path, (unsigned long long)e.begin,
				(unsigned long long)e.end - 1, (unsigned long long)first,
				(unsigned long long)first + 1, ll_kind_name(s->kind), s->name);
			f->message = sb_detach(&msg);
			f->location = u->m->decl;
		}
		ll_finding_member(f, u->m->path);
		ll_finding_pair(f, u->m->path, NULL);
		ll_finding_seal(f, s);
	}
}

/*
 * Placement: with a start alignment below the line size, an instance can
 * begin at any multiple of it within a line. Each shifted placement maps
 * units to other lines; a pair that meets in some placements but not all
 * is a warning, because which one a given object gets is luck.
 */
struct pkey {
	const char *rule;
	const struct ll_unit *a, *b;
	size_t hits;
};

struct pkeys {
	struct pkey *v;
	size_t n;
};

static void pkey_hit(struct pkeys *k, const char *rule, const struct ll_unit *a,
		     const struct ll_unit *b, size_t shift_index, size_t *last_shift)
{
	for (size_t i = 0; i < k->n; i++) {
		if (k->v[i].rule == rule && k->v[i].a == a && k->v[i].b == b) {
			if (last_shift[i] != shift_index) {
				k->v[i].hits++;
				last_shift[i] = shift_index;
			}
			return;
		}
	}
	(void)last_shift;
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	k->v[k->n++] = (struct pkey){ rule, a, b, 1 };
}

static bool shifted_lines(const struct ll_unit *u, uint64_t shift, unsigned cl,
			  uint64_t *first, uint64_t *last)
{
	struct ll_extent e = ll_member_extent(u->m);

	if (e.end <= e.begin)
		return false;
	*first = (e.begin + shift) / cl;
	*last = (e.end - 1 + shift) / cl;
	return true;
}

static bool lines_overlap(uint64_t f1, uint64_t l1, uint64_t f2, uint64_t l2)
{
	return f1 <= l2 && f2 <= l1;
}

static void check_placement(const struct ll_check_input *in, const struct ll_units *units,
			    struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	unsigned cl = s->cacheline;
	uint64_t align = in->align ? in->align : cl;
	struct pkeys keys = { 0 };
	size_t *last_shift = NULL, cap = 0;

	if (align >= cl)
		return;
	size_t nshifts = cl / align;

	for (size_t si = 0; si < nshifts; si++) {
		uint64_t shift = si * align;

		for (size_t i = 0; i < units->n; i++) {
			const struct ll_unit *a = &units->v[i];
			uint64_t fa, la;

			if (!is_hot(a) || !shifted_lines(a, shift, cl, &fa, &la))
				continue;
			if (cap < keys.n + units->n + 1) {
				cap = (keys.n + units->n + 1) * 2;
				last_shift = xrealloc(last_shift, cap * sizeof(*last_shift));
			}
			struct ll_extent e = ll_member_extent(a->m);

			if (fa != la && e.end - e.begin <= cl && !allowed(in, "split-hot", a->m->path)) {
				size_t before = keys.n;

				pkey_hit(&keys, "split-hot", a, NULL, si, last_shift);
				if (keys.n > before)
					last_shift[keys.n - 1] = si;
			}
			for (size_t j = 0; j < units->n; j++) {
				const struct ll_unit *b = &units->v[j];
				uint64_t fb, lb;
				const char *rule = NULL;

				if (j == i || !shifted_lines(b, shift, cl, &fb, &lb) ||
				    !lines_overlap(fa, la, fb, lb))
					continue;
				if (a->tag == LL_READ_MOSTLY && b->tag == LL_WRITE_HOT)
					rule = "mixed-cacheline";
				else if (a->tag == LL_WRITE_HOT && b->tag == LL_WRITE_HOT && j > i &&
					 !same_dom(a, b))
					rule = "write-domains";
				if (!rule || allowed(in, rule, a->m->path) || allowed(in, rule, b->m->path))
					continue;
				size_t before = keys.n;

				if (cap < keys.n + 2) {
					cap = (keys.n + 2) * 2;
					last_shift = xrealloc(last_shift, cap * sizeof(*last_shift));
				}
				pkey_hit(&keys, rule, a, b, si, last_shift);
				if (keys.n > before)
					last_shift[keys.n - 1] = si;
			}
		}
	}

	struct ll_finding *f = NULL;
	struct strbuf msg = STRBUF_INIT;
	size_t partial = 0;

	for (size_t i = 0; i < keys.n; i++) {
		const struct pkey *k = &keys.v[i];

		if (k->hits == nshifts)
			continue;
		if (!f) {
			f = ll_finding_add(out, "placement", LL_LEVEL_WARNING, -1);
			f->location = k->a->m->decl;
			sb_addf(&msg, "%s %s starts at a multiple of %llu, not of the %u-byte "
				"cacheline: some findings depend on where an instance lands:",
				ll_kind_name(s->kind), s->name, (unsigned long long)align, cl);
		}
		partial++;
		if (k->b)
			sb_addf(&msg, " %s %s/%s in %zu of %zu start offsets;", k->rule,
				k->a->m->path, k->b->m->path, k->hits, nshifts);
		else
			sb_addf(&msg, " %s %s in %zu of %zu start offsets;", k->rule,
				k->a->m->path, k->hits, nshifts);
		ll_finding_member(f, k->a->m->path);
		if (k->b)
			ll_finding_member(f, k->b->m->path);
		ll_finding_pair(f, k->a->m->path, k->b ? k->b->m->path : NULL);
	}
	if (f) {
		if (msg.len && msg.buf[msg.len - 1] == ';')
			msg.buf[--msg.len] = '\0';
		f->message = sb_detach(&msg);
		ll_finding_seal(f, s);
	}
	sb_release(&msg);
	free(keys.v);
	free(last_shift);
}

void ll_check(const struct ll_check_input *in, struct ll_findings *out)
{
	struct ll_units units;
	struct ll_lines lines;

	ll_collect_units(in->s, &units);
	ll_map_lines(in->s, &units, &lines);
	for (size_t i = 0; i < lines.n; i++)
		check_mixed(in, &lines.v[i], out);
	for (size_t i = 0; i < lines.n; i++)
		check_domains(in, &lines.v[i], out);
	check_split(in, &units, out);
	check_placement(in, &units, out);
	ll_lines_release(&lines);
	ll_units_release(&units);
}
