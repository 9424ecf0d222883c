// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout checks: mixed-cacheline, write-domains, split-hot, placement,
 * array-neighbours, group-span for the rules' groups and, when asked,
 * adjacent-lines.
 */
#include "checks/checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "util/strbuf.h"

/* ---- the checks ---------------------------------------------------------- */

static bool allowed(const struct ll_check_input *in, enum ll_check rule, const char *path)
{
	return ll_check_allowed(in->allows, in->nr_allows, rule, path);
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

static char *line_note_text(const struct ll_unit *u, uint64_t line, unsigned cl)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t lo, hi;
	char tag[128];

	unit_bytes_on_line(u, line, cl, &lo, &hi);
	tag_words(u, tag, sizeof(tag));
	sb_addf(&sb, "%s %s shares cacheline %llu (bytes %llu-%llu)", tag, u->m->path,
		(unsigned long long)line, (unsigned long long)lo, (unsigned long long)hi);
	return sb_detach(&sb);
}

static bool finding_names(const struct ll_finding *f, const char *path)
{
	for (size_t i = 0; i < f->nr_members; i++)
		if (strcmp(f->members[i], path) == 0)
			return true;
	return false;
}

/*
 * A note at every other member the finding names, and the one AT would
 * get: any of them can take the location (gating moves it).
 */
static void add_line_notes(struct ll_finding *f, const struct ll_line *line,
			   const struct ll_unit *at, unsigned cl)
{
	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];
		char *text;

		if (u == at || !finding_names(f, u->m->path))
			continue;
		text = line_note_text(u, line->index, cl);
		ll_finding_member_note(f, &u->m->decl, u->m->path, "%s", text);
		free(text);
	}
	f->located = at->m->path;
	f->located_note = line_note_text(at, line->index, cl);
}

static bool is_hot(const struct ll_unit *u)
{
	return u->tag == LL_READ_MOSTLY || u->tag == LL_WRITE_HOT;
}

/* R's readers are not all writers of the line W dirties. */
static bool mixes(const struct ll_unit *r, const struct ll_unit *w)
{
	return r->tag == LL_READ_MOSTLY && w->tag == LL_WRITE_HOT &&
	       ll_read_beside_write_shares(r->domain, w->domain);
}

static bool clashes(const struct ll_unit *a, const struct ll_unit *b)
{
	return a->tag == LL_WRITE_HOT && b->tag == LL_WRITE_HOT &&
	       ll_write_domains_clash(a->domain, b->domain);
}

static bool same_dom(const struct ll_unit *a, const struct ll_unit *b)
{
	return ll_same_domain(a->domain, b->domain);
}

/* The finding's members on LINE with TAG (and PARTNER's domain), in line order. */
static void list_names(struct strbuf *sb, const struct ll_line *line, enum ll_tag tag,
		       const struct ll_finding *f, const struct ll_unit *partner_filter)
{
	bool first = true;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];

		if (u->tag != tag || !finding_names(f, u->m->path))
			continue;
		if (partner_filter && !same_dom(u, partner_filter))
			continue;
		sb_addf(sb, "%s%s", first ? "" : ", ", u->m->path);
		first = false;
	}
}

/*
 * The pair A, B (both members too) into F, the finding of RULE at LINE
 * opened with the first pair, whose A is *AT, where it is located.
 */
static struct ll_finding *add_clash(struct ll_findings *out, struct ll_finding *f,
				    enum ll_check rule, int64_t line, const struct ll_unit *a,
				    const struct ll_unit *b, const struct ll_unit **at)
{
	if (!f) {
		f = ll_check_finding_add(out, rule, line);
		*at = a;
	}
	ll_finding_pair(f, a->m->path, b->m->path);
	ll_finding_member(f, a->m->path);
	ll_finding_member(f, b->m->path);
	return f;
}

/*
 * A check that pairs a line's units: RULE's finding holds every pair
 * (A, B), A tagged FIRST, that MEETS, neither allowed by the rules. A
 * SYMMETRIC relation takes B after A (each pair once) and lists the
 * members pair by pair; an asymmetric one lists every A, then every B.
 * DESCRIBE says, after "line N of struct S", what the line mixes.
 */
struct pair_check {
	enum ll_check rule;
	enum ll_tag first;
	bool (*meets)(const struct ll_unit *a, const struct ll_unit *b);
	bool symmetric;
	void (*describe)(struct strbuf *msg, const struct ll_line *line, const struct ll_finding *f);
};

/* PC's finding on LINE, pairs and members, or NULL; *AT: its first A. */
static struct ll_finding *pair_up(const struct ll_check_input *in, const struct ll_line *line,
				  const struct pair_check *pc, const struct ll_unit **at,
				  struct ll_findings *out)
{
	struct ll_finding *f = NULL;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *a = line->units[i];

		if (a->tag != pc->first || allowed(in, pc->rule, a->m->path))
			continue;
		for (size_t j = pc->symmetric ? i + 1 : 0; j < line->nr_units; j++) {
			const struct ll_unit *b = line->units[j];

			if (!pc->meets(a, b) || allowed(in, pc->rule, b->m->path))
				continue;
			if (!f) {
				f = ll_check_finding_add(out, pc->rule, (int64_t)line->index);
				*at = a;
			}
			ll_finding_pair(f, a->m->path, b->m->path);
		}
	}
	/* Members: pair by pair, or (asymmetric) every A, then every B. */
	for (size_t i = 0; f && i < f->nr_pairs; i++) {
		ll_finding_member(f, f->pairs[i].a);
		if (pc->symmetric)
			ll_finding_member(f, f->pairs[i].b);
	}
	for (size_t i = 0; f && !pc->symmetric && i < f->nr_pairs; i++)
		ll_finding_member(f, f->pairs[i].b);
	return f;
}

static void check_pairs(const struct ll_check_input *in, const struct ll_line *line,
			const struct pair_check *pc, struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	const struct ll_unit *at = NULL;
	struct ll_finding *f = pair_up(in, line, pc, &at, out);
	struct strbuf msg = STRBUF_INIT;

	if (!f)
		return;
	ll_line_words(&msg, line);
	sb_addf(&msg, " of %s %s", ll_kind_name(s->kind), s->name);
	pc->describe(&msg, line, f);
	f->message = sb_detach(&msg);
	f->location = at->m->decl;
	add_line_notes(f, line, at, s->cacheline);
	ll_finding_seal(f, s);
}

static void describe_mixed(struct strbuf *msg, const struct ll_line *line,
			   const struct ll_finding *f)
{
	sb_adds(msg, " mixes read-mostly ");
	list_names(msg, line, LL_READ_MOSTLY, f, NULL);
	sb_adds(msg, " with write-hot ");
	list_names(msg, line, LL_WRITE_HOT, f, NULL);
}

/* Each domain once, with its members: "mixes write-hot domains rx (a, b), tx (c)". */
static void describe_domains(struct strbuf *msg, const struct ll_line *line,
			     const struct ll_finding *f)
{
	const struct ll_unit *seen[64];
	size_t nseen = 0;

	sb_adds(msg, " mixes write-hot domains");
	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];
		bool dup = false;

		if (u->tag != LL_WRITE_HOT || !finding_names(f, u->m->path))
			continue;
		for (size_t k = 0; k < nseen; k++)
			dup |= same_dom(seen[k], u);
		if (dup || nseen == 64)
			continue;
		seen[nseen++] = u;
		sb_addf(msg, "%s %s (", nseen > 1 ? "," : "", u->domain ? u->domain : "default");
		list_names(msg, line, LL_WRITE_HOT, f, u);
		sb_addc(msg, ')');
	}
}

static const struct pair_check mixed_cacheline = {
	LL_CHECK_MIXED_CACHELINE, LL_READ_MOSTLY, mixes, false, describe_mixed,
};
static const struct pair_check write_domains = {
	LL_CHECK_WRITE_DOMAINS, LL_WRITE_HOT, clashes, true, describe_domains,
};

/*
 * Whether one locked instruction can cover M: a scalar, or an aggregate
 * wrapping a single one (atomic_t, refcount_t, a one-word lock). A struct
 * of several fields (tcp_sock's rcv_rtt_est) is written field by field: its
 * straddle costs a second line, not a split lock.
 */
static bool one_access(const struct ll_member *m)
{
	while (m->is_aggregate) {
		if (m->nr_children != 1)
			return false;
		m = &m->children[0];
	}
	return true;
}

static void check_split(const struct ll_check_input *in, const struct ll_units *units,
			struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	enum ll_check rule = LL_CHECK_SPLIT_HOT;

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
			if (out->v[k].rule == ll_check_id(rule) && out->v[k].cacheline == (int64_t)first)
				f = &out->v[k];
		/* An atomic on a small write-hot member is a split lock: above the catalog's level. */
		bool raise = u->tag == LL_WRITE_HOT && e.end - e.begin <= 16 && one_access(u->m);

		tag_words(u, tag, sizeof(tag));
		if (f) {
			ll_finding_note(f, &u->m->decl, "%s %s also straddles it", tag, u->m->path);
		} else {
			struct strbuf msg = STRBUF_INIT;

			f = ll_check_finding_add(out, rule, (int64_t)first);
			sb_addf(&msg, "%s %s (bytes %llu-%llu) straddles the boundary of cachelines "
				"%llu and %llu of %s %s although it fits in one line", tag,
				u->m->path, (unsigned long long)e.begin,
				(unsigned long long)e.end - 1, (unsigned long long)first,
				(unsigned long long)first + 1, ll_kind_name(s->kind), s->name);
			f->message = sb_detach(&msg);
			f->location = u->m->decl;
		}
		if (raise)
			f->level = LL_LEVEL_ERROR;
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
	enum ll_check rule;
	const struct ll_unit *a, *b;
	size_t hits;
};

struct pkeys {
	struct pkey *v;
	size_t n;
};

static void pkey_hit(struct pkeys *k, enum ll_check rule, const struct ll_unit *a,
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
	k->v = xgrow(k->v, k->n, sizeof(*k->v));
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

			if (fa != la && e.end - e.begin <= cl && !allowed(in, LL_CHECK_SPLIT_HOT, a->m->path)) {
				size_t before = keys.n;

				pkey_hit(&keys, LL_CHECK_SPLIT_HOT, a, NULL, si, last_shift);
				if (keys.n > before)
					last_shift[keys.n - 1] = si;
			}
			for (size_t j = 0; j < units->n; j++) {
				const struct ll_unit *b = &units->v[j];
				uint64_t fb, lb;
				enum ll_check rule = LL_CHECK_COUNT;	/* none */

				if (j == i || !shifted_lines(b, shift, cl, &fb, &lb) ||
				    !lines_overlap(fa, la, fb, lb))
					continue;
				if (mixes(a, b))
					rule = LL_CHECK_MIXED_CACHELINE;
				else if (j > i && clashes(a, b))
					rule = LL_CHECK_WRITE_DOMAINS;
				if (rule == LL_CHECK_COUNT || allowed(in, rule, a->m->path) || allowed(in, rule, b->m->path))
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
	struct strbuf msg = STRBUF_INIT, one = STRBUF_INIT;
	size_t partial = 0;

	/*
	 * One finding for the struct: with one pair its message says which;
	 * with more, one short note per pair at the member, so that a struct
	 * with dozens of placement-dependent pairs is not one line of a
	 * thousand characters.
	 */
	for (size_t i = 0; i < keys.n; i++)
		partial += keys.v[i].hits != nshifts;
	for (size_t i = 0; i < keys.n; i++) {
		const struct pkey *k = &keys.v[i];

		if (k->hits == nshifts)
			continue;
		if (!f) {
			f = ll_check_finding_add(out, LL_CHECK_PLACEMENT, -1);
			f->location = k->a->m->decl;
		}
		sb_reset(&one);
		if (k->b)
			sb_addf(&one, "%s %s/%s in %zu of %zu start offsets", ll_check_id(k->rule), k->a->m->path,
				k->b->m->path, k->hits, nshifts);
		else
			sb_addf(&one, "%s %s in %zu of %zu start offsets", ll_check_id(k->rule), k->a->m->path,
				k->hits, nshifts);
		if (partial > 1)
			ll_finding_member_note(f, &k->a->m->decl, k->a->m->path, "%s", one.buf);
		ll_finding_member(f, k->a->m->path);
		if (k->b)
			ll_finding_member(f, k->b->m->path);
		ll_finding_pair(f, k->a->m->path, k->b ? k->b->m->path : NULL);
	}
	if (f) {
		sb_addf(&msg, "%s %s starts at a multiple of %llu, not of the %u-byte cacheline: ",
			ll_kind_name(s->kind), s->name, (unsigned long long)align, cl);
		if (partial == 1)
			sb_addf(&msg, "some findings depend on where an instance lands: %s", one.buf);
		else
			sb_addf(&msg, "%zu findings depend on where an instance lands", partial);
		f->message = sb_detach(&msg);
		ll_finding_seal(f, s);
	}
	sb_release(&one);
	sb_release(&msg);
	free(keys.v);
	free(last_shift);
}

/*
 * adjacent-lines: the adjacent-line prefetcher moves a line with its
 * aligned partner, so lines 2k and 2k+1 behave as one wider line for
 * sharing. A pair of units is reported when it would be mixed-cacheline or
 * write-domains on one line and the two sit on the two lines of one pair,
 * no line in common (a common line is the one-line checks' business).
 */
static bool on_line(const struct ll_unit *u, uint64_t line, unsigned cl)
{
	uint64_t first, last;

	return ll_member_lines(u->m, cl, &first, &last) && first <= line && line <= last;
}

static bool pair_conflict(const struct ll_unit *a, const struct ll_unit *b)
{
	return mixes(a, b) || mixes(b, a) || clashes(a, b);
}

static void adjacent_names(struct strbuf *sb, const struct ll_line *line,
			   const struct ll_finding *f, uint64_t other, unsigned cl)
{
	bool first = true;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];
		char tag[128];

		if (on_line(u, other, cl) || !finding_names(f, u->m->path))
			continue;
		tag_words(u, tag, sizeof(tag));
		sb_addf(sb, "%s%s %s", first ? "" : ", ", tag, u->m->path);
		first = false;
	}
}

static void check_adjacent_pair(const struct ll_check_input *in, const struct ll_line *a,
				const struct ll_line *b, struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	enum ll_check rule = LL_CHECK_ADJACENT_LINES;
	unsigned cl = s->cacheline;
	struct ll_finding *f = NULL;
	const struct ll_unit *at = NULL;

	for (size_t i = 0; i < a->nr_units; i++) {
		const struct ll_unit *u = a->units[i];

		if (!is_hot(u) || on_line(u, b->index, cl) || allowed(in, rule, u->m->path))
			continue;
		for (size_t j = 0; j < b->nr_units; j++) {
			const struct ll_unit *v = b->units[j];

			if (on_line(v, a->index, cl) || !pair_conflict(u, v) ||
			    allowed(in, rule, v->m->path))
				continue;
			f = add_clash(out, f, rule, (int64_t)a->index, u, v, &at);
		}
	}
	if (!f)
		return;

	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "cachelines %llu and %llu of %s %s, one %u-byte pair for the adjacent-line "
		"prefetcher, hold ", (unsigned long long)a->index, (unsigned long long)b->index,
		ll_kind_name(s->kind), s->name, 2 * cl);
	adjacent_names(&msg, a, f, b->index, cl);
	sb_addf(&msg, " on line %llu and ", (unsigned long long)a->index);
	adjacent_names(&msg, b, f, a->index, cl);
	sb_addf(&msg, " on line %llu", (unsigned long long)b->index);
	f->message = sb_detach(&msg);
	f->location = at->m->decl;
	add_line_notes(f, a, at, cl);
	for (size_t j = 0; j < b->nr_units; j++) {
		const struct ll_unit *v = b->units[j];
		char *text;

		if (on_line(v, a->index, cl) || !finding_names(f, v->m->path))
			continue;
		text = line_note_text(v, b->index, cl);
		ll_finding_member_note(f, &v->m->decl, v->m->path, "%s", text);
		free(text);
	}
	ll_finding_seal(f, s);
}

/*
 * Each pair (2k, 2k+1) whose lines are in two entries of the map: the
 * last line of one entry, even, and the first of the next. A pair inside
 * one entry has every unit on both its lines, which is no finding.
 */
static void check_adjacent(const struct ll_check_input *in, const struct ll_lines *lines,
			   struct ll_findings *out)
{
	for (size_t k = 0; k + 1 < lines->n; k++) {
		struct ll_line a = lines->v[k];

		if (ll_line_last(&a) % 2)
			continue;
		a.index = ll_line_last(&a);
		a.count = 1;
		check_adjacent_pair(in, &a, &lines->v[k + 1], out);
	}
}

/*
 * group-span for a hot set: the lines its members touch against the fewest
 * its bytes could fill (overlapping members, a struct and one of its own
 * members, count once), the figure the networking tables give per path.
 */
struct extent_list {
	struct ll_extent *v;
	size_t n;
};

static int extent_cmp(const void *a, const void *b)
{
	const struct ll_extent *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static void hot_set_geometry(const struct extent_list *e, unsigned cl, uint64_t *bytes,
			     uint64_t *lines, struct strbuf *ranges)
{
	uint64_t end = 0, last_line = UINT64_MAX, run_start = 0;
	bool any = false;

	*bytes = *lines = 0;
	for (size_t i = 0; i < e->n; i++) {
		uint64_t b = e->v[i].begin > end ? e->v[i].begin : end;

		if (e->v[i].end > b)
			*bytes += e->v[i].end - b;
		if (e->v[i].end > end)
			end = e->v[i].end;
		for (uint64_t l = e->v[i].begin / cl; l <= (e->v[i].end - 1) / cl; l++) {
			if (any && l <= last_line)
				continue;
			if (any && l != last_line + 1) {
				sb_addf(ranges, run_start == last_line ? "%s%llu" : "%s%llu-%llu",
					ranges->len ? ", " : "", (unsigned long long)run_start,
					(unsigned long long)last_line);
				run_start = l;
			} else if (!any) {
				run_start = l;
			}
			any = true;
			last_line = l;
			(*lines)++;
		}
	}
	if (any)
		sb_addf(ranges, run_start == last_line ? "%s%llu" : "%s%llu-%llu",
			ranges->len ? ", " : "", (unsigned long long)run_start,
			(unsigned long long)last_line);
}

static void check_hot_set(const struct ll_check_input *in, const struct ll_hot_set *set,
			  struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	enum ll_check rule = LL_CHECK_GROUP_SPAN;
	unsigned cl = s->cacheline;
	struct extent_list e = { 0 };
	const struct ll_member *first = NULL;
	uint64_t bytes, lines, need;
	struct strbuf ranges = STRBUF_INIT;

	for (size_t i = 0; i < set->n; i++) {
		struct ll_extent x = ll_member_extent(set->members[i]);

		if (x.end <= x.begin || allowed(in, rule, set->members[i]->path))
			continue;
		e.v = xgrow(e.v, e.n, sizeof(*e.v));
		e.v[e.n++] = x;
		if (!first || x.begin < ll_member_extent(first).begin)
			first = set->members[i];
	}
	if (e.n)
		qsort(e.v, e.n, sizeof(*e.v), extent_cmp);
	hot_set_geometry(&e, cl, &bytes, &lines, &ranges);
	need = (bytes + cl - 1) / cl;
	if (first && lines > need) {
		struct ll_finding *f = ll_check_finding_add(out, rule,
							    (int64_t)(ll_member_extent(first).begin / cl));
		struct strbuf msg = STRBUF_INIT;

		sb_addf(&msg, "group %s of %s %s (%s:%u) touches %llu cachelines (%s) but its "
			"%llu bytes need only %llu", set->name, ll_kind_name(s->kind), s->name,
			set->file, set->line, (unsigned long long)lines, ranges.buf,
			(unsigned long long)bytes, (unsigned long long)need);
		f->message = sb_detach(&msg);
		f->location = first->decl;
		for (size_t i = 0; i < set->n; i++)
			if (!allowed(in, rule, set->members[i]->path))
				ll_finding_member(f, set->members[i]->path);
		ll_finding_pair(f, first->path, NULL);
		ll_finding_seal(f, s);
	}
	sb_release(&ranges);
	free(e.v);
}

/*
 * array-neighbours: the element count of an array type ("struct slot[4]",
 * "u64[2][8]": every dimension multiplies), 0 when TYPE is no array.
 */
static uint64_t array_elements(const char *type)
{
	const char *p = strchr(type, '[');
	uint64_t n = 1;

	if (!p || strstr(type, "(*"))
		return 0;
	while (p && *p == '[') {
		char *end;
		unsigned long long d = strtoull(p + 1, &end, 10);

		if (*end != ']' || !d || n > UINT64_MAX / d)
			return 0;
		n *= d;
		p = end + 1;
	}
	return n;
}

static void check_array(const struct ll_check_input *in, const struct ll_unit *u,
			struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	enum ll_check rule = LL_CHECK_ARRAY_NEIGHBOURS;
	uint64_t n = array_elements(u->m->type ? u->m->type : ""), elem, per_line;
	struct strbuf msg = STRBUF_INIT;
	struct ll_finding *f;

	/*
	 * Arrays of structs: per-writer slots (per CPU, queue, node) are
	 * structs; an array of scalars (chrono_stat[3], a histogram) mostly
	 * has one writer, and its warnings would be noise.
	 */
	if (u->tag != LL_WRITE_HOT || n < 2 || allowed(in, rule, u->m->path) ||
	    (strncmp(u->m->type, "struct ", 7) != 0 && strncmp(u->m->type, "union ", 6) != 0))
		return;
	elem = u->m->size / n;
	if (elem < 4 || elem >= s->cacheline || elem * n != u->m->size)
		return;
	per_line = s->cacheline / elem;
	f = ll_check_finding_add(out, rule, (int64_t)(ll_member_extent(u->m).begin / s->cacheline));
	sb_addf(&msg, "write-hot %s (%s) puts %llu of its %llu-byte elements on each %u-byte "
		"cacheline of %s %s: writers of different elements share a line", u->m->path,
		u->m->type, (unsigned long long)(per_line < n ? per_line : n),
		(unsigned long long)elem, s->cacheline, ll_kind_name(s->kind), s->name);
	f->message = sb_detach(&msg);
	f->location = u->m->decl;
	ll_finding_member(f, u->m->path);
	ll_finding_pair(f, u->m->path, NULL);
	ll_finding_seal(f, s);
}

void ll_check(const struct ll_check_input *in, struct ll_findings *out)
{
	struct ll_units units;
	struct ll_lines lines;

	ll_collect_units(in->s, &units);
	ll_map_lines(in->s, &units, &lines);
	for (size_t i = 0; i < lines.n; i++)
		check_pairs(in, &lines.v[i], &mixed_cacheline, out);
	for (size_t i = 0; i < lines.n; i++)
		check_pairs(in, &lines.v[i], &write_domains, out);
	check_split(in, &units, out);
	check_placement(in, &units, out);
	if (in->adjacent_lines)
		check_adjacent(in, &lines, out);
	for (size_t i = 0; i < units.n; i++)
		check_array(in, &units.v[i], out);
	for (size_t i = 0; in->hot_sets && i < in->hot_sets->n; i++)
		check_hot_set(in, &in->hot_sets->v[i], out);
	ll_check_measured(in, &units, &lines, out);
	if (in->access && in->access->e)
		ll_check_access(in, &units, &lines, out);
	ll_lines_release(&lines);
	ll_units_release(&units);
}
