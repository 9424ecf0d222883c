// SPDX-License-Identifier: GPL-2.0-or-later
/* Units, cacheline maps and verdicts: the geometry every check shares. */
#include "model/units.h"

#include <inttypes.h>
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
	ll_array_free(u->v, u->n);
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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t add_break(uint64_t *v, size_t n, uint64_t line, uint64_t nlines)
{
	if (line < nlines)
		v[n++] = line;
	return n;
}

void ll_line_words(struct strbuf *out, const struct ll_line *line)
{
	if (line->count > 1)
		sb_addf(out, "cachelines %" PRIu64 "-%" PRIu64, line->index, ll_line_last(line));
	else
		sb_addf(out, "cacheline %" PRIu64, line->index);
}

const struct ll_line *ll_lines_find(const struct ll_lines *lines, uint64_t line)
{
	size_t lo = 0, hi = lines->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ll_line_last(&lines->v[mid]) < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lines->n && lines->v[lo].index <= line ? &lines->v[lo] : NULL;
}

/*
 * The entries start where the set of units changes, and around every line
 * a unit only partly fills (its first and last line, when it starts or
 * ends inside them). Between two such breaks each unit present fills every
 * line, so the lines between are one entry: the map costs per unit, never
 * per byte (a struct of one 2 GiB array member was 33 million entries).
 */
void ll_map_lines(const struct ll_struct *s, const struct ll_units *units, struct ll_lines *out)
{
	uint64_t nlines = ll_struct_lines(s), *breaks;
	unsigned cl = s->cacheline;
	size_t nb = 0;

	memset(out, 0, sizeof(*out));
	out->nr_lines = nlines;
	breaks = xcalloc(4 * units->n + 1, sizeof(*breaks));
	nb = add_break(breaks, nb, 0, nlines);
	for (size_t i = 0; i < units->n; i++) {
		struct ll_extent e = ll_member_extent(units->v[i].m);
		uint64_t first, last;

		if (!ll_member_lines(units->v[i].m, cl, &first, &last))
			continue;
		nb = add_break(breaks, nb, first, nlines);
		if (e.begin % cl)
			nb = add_break(breaks, nb, first + 1, nlines);
		if (e.end % cl)
			nb = add_break(breaks, nb, last, nlines);
		nb = add_break(breaks, nb, last + 1, nlines);
	}
	qsort(breaks, nb, sizeof(*breaks), cmp_u64);
	out->v = xcalloc(nb ? nb : 1, sizeof(*out->v));
	for (size_t i = 0; i < nb; i++) {
		if (i && breaks[i] == breaks[i - 1])
			continue;
		out->v[out->n++].index = breaks[i];
	}
	for (size_t i = 0; i < out->n; i++)
		out->v[i].count = (i + 1 < out->n ? out->v[i + 1].index : nlines) - out->v[i].index;
	free(breaks);
	for (size_t i = 0; i < units->n; i++) {
		uint64_t first, last;
		size_t k;

		if (!ll_member_lines(units->v[i].m, cl, &first, &last) || first >= nlines)
			continue;
		k = (size_t)(ll_lines_find(out, first) - out->v);
		for (; k < out->n && out->v[k].index <= last; k++) {
			struct ll_line *line = &out->v[k];

			line->units = xgrow(line->units, line->nr_units, sizeof(*line->units));
			line->units[line->nr_units++] = &units->v[i];
		}
	}
	for (size_t i = 0; i < out->n; i++)
		out->v[i].verdict = verdict_of(&out->v[i]);
}

void ll_lines_release(struct ll_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].units);
	ll_array_free(l->v, l->n);
	l->nr_lines = 0;
}
