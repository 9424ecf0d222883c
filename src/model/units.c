// SPDX-License-Identifier: GPL-2.0-or-later
/* Units, cacheline maps and verdicts: the geometry every check shares. */
#include "model/units.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

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

bool ll_same_domain(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

unsigned ll_domain_paths(const char *d)
{
	unsigned paths = 0;

	if (!d)
		return 0;
	while (*d) {
		if (*d == '_' || *d == '-') {
			d++;
		} else if (strncmp(d, "tx", 2) == 0) {
			paths |= LL_PATH_TX;
			d += 2;
		} else if (strncmp(d, "rx", 2) == 0) {
			paths |= LL_PATH_RX;
			d += 2;
		} else {
			return 0;
		}
	}
	return paths;
}

bool ll_write_domains_clash(const char *a, const char *b)
{
	unsigned pa = ll_domain_paths(a), pb = ll_domain_paths(b);

	if (ll_same_domain(a, b))
		return false;
	if (pa && pb && ((pa & pb) == pa || (pa & pb) == pb))
		return false;
	return true;
}

bool ll_read_beside_write_shares(const char *r, const char *w)
{
	unsigned pr = ll_domain_paths(r), pw = ll_domain_paths(w);

	if (!r)
		return true;
	if (ll_same_domain(r, w))
		return false;
	return !(pr && pw && (pr & ~pw) == 0);
}

static enum ll_verdict verdict_of(const struct ll_line *line)
{
	bool tagged = false, mixed = false, domains = false;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *a = line->units[i];

		if (a->tag != LL_UNTAGGED)
			tagged = true;
		for (size_t j = 0; j < line->nr_units && a->tag != LL_UNTAGGED; j++) {
			const struct ll_unit *b = line->units[j];

			if (b->tag != LL_WRITE_HOT || i == j)
				continue;
			if (a->tag == LL_READ_MOSTLY &&
			    ll_read_beside_write_shares(a->domain, b->domain))
				mixed = true;
			if (a->tag == LL_WRITE_HOT && ll_write_domains_clash(a->domain, b->domain))
				domains = true;
		}
	}
	if (mixed)
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
