// SPDX-License-Identifier: GPL-2.0-or-later
/* "Did you mean": names near one that is not there, from the strings, the index or scopes. */
#include "input/dwarf/finderP.h"

/*
 * Missing names are rare, so the suggestion costs a second walk instead of
 * making every successful lookup collect all names.
 */
#define SUGGEST_CANDIDATES 16

struct near {
	const char *s;
	size_t dist;
};

/* One bit per identifier character (case kept), 0 for any other byte. */
static void char_bits(uint64_t bits[256])
{
	memset(bits, 0, 256 * sizeof(*bits));
	for (int c = 'a'; c <= 'z'; c++)
		bits[c] = 1ULL << (c - 'a');
	for (int c = 'A'; c <= 'Z'; c++)
		bits[c] = 1ULL << (26 + c - 'A');
	for (int c = '0'; c <= '9'; c++)
		bits[c] = 1ULL << (52 + c - '0');
	bits['_'] = 1ULL << 62;
}

/* Whether X has more than N bits set; N is small, and x86-64 may lack popcnt. */
static bool more_bits_than(uint64_t x, size_t n)
{
	for (size_t i = 0; i < n && x; i++)
		x &= x - 1;
	return x != 0;
}

/* The closest strings seen so far, sorted by distance, then by name. */
struct near_list {
	struct near v[SUGGEST_CANDIDATES];
	size_t n;
};

static void near_add(struct near_list *l, const char *s, size_t d)
{
	size_t at = l->n;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].s, s) == 0)
			return;
	while (at > 0 && (l->v[at - 1].dist > d ||
			  (l->v[at - 1].dist == d && strcmp(l->v[at - 1].s, s) > 0)))
		at--;
	if (at >= SUGGEST_CANDIDATES)
		return;
	if (l->n < SUGGEST_CANDIDATES)
		l->n++;
	memmove(&l->v[at + 1], &l->v[at], (l->n - 1 - at) * sizeof(l->v[0]));
	l->v[at] = (struct near){ s, d };
}

/* One thread's share of the .debug_str pass: the strings in [STR, END). */
struct near_pass {
	const char *str, *end;
	const char *name;
	size_t len, limit;
	const uint64_t *bits;	/* char_bits() */
	uint64_t name_set;	/* the name's characters, as bits */
	struct near_list found;
};

static void *near_pass_run(void *arg)
{
	struct near_pass *np = arg;
	const char *name = np->name;
	const uint64_t *bits = np->bits;
	const uint64_t name_set = np->name_set;
	const size_t len = np->len, limit = np->limit;

	for (const char *str = np->str; str < np->end;) {
		const char *nul = memchr(str, 0, (size_t)(np->end - str));
		size_t sl;

		if (!nul)
			break;
		sl = (size_t)(nul - str);
		/*
		 * ld merges string tails, so a name may exist only as the end
		 * of a longer string ("sk_buff" in "__sk_buff"): try every
		 * suffix of a length that could be close enough, growing it
		 * one character at a time from the end.
		 */
		size_t min = len > limit ? len - limit : 1, longest = 0;
		uint64_t suffix_set = 0;
		const char *s_end = nul;

		str = nul + 1;
		if (sl < min)
			continue;
		/*
		 * The longest suffix that could be close enough holds every
		 * character a shorter one does: when even it lacks more of
		 * the name's characters than edits allow, no suffix is close.
		 */
		while (longest < len + limit && longest < sl) {
			uint64_t bit = bits[(unsigned char)s_end[-(ptrdiff_t)longest - 1]];

			if (!bit)
				break;
			suffix_set |= bit;
			longest++;
		}
		if (longest < min || more_bits_than(name_set & ~suffix_set, limit))
			continue;
		suffix_set = 0;

		for (size_t l = 1; l <= len + limit && l <= sl; l++) {
			const char *s = s_end - l;
			uint64_t bit = bits[(unsigned char)s[0]];

			if (!bit)
				break;	/* not an identifier, nor any longer suffix */
			suffix_set |= bit;
			if (l < min || (s[0] >= '0' && s[0] <= '9'))
				continue;
			/*
			 * Each edit brings in at most one character the other
			 * side lacks: a cheap lower bound that rejects almost
			 * every string before the real distance is computed.
			 */
			if (more_bits_than(suffix_set & ~name_set, limit) ||
			    more_bits_than(name_set & ~suffix_set, limit))
				continue;
			/*
			 * The name itself is a candidate too: "union inner" asked
			 * where only struct inner is defined.
			 */
			size_t d = ll_edit_distance_n(name, len, s, l, limit);

			if (d <= limit)
				near_add(&np->found, s, d);
		}
	}
	return NULL;
}

/*
 * The raw way: every string of .debug_str is a possible name; the closest
 * few are then scanned for, so only a real struct or union is proposed.
 * Costs one filtered scan instead of a libdw walk of every unit. The
 * strings are split between two threads at a NUL; each keeps its closest
 * SUGGEST_CANDIDATES and the merge keeps the closest of both, so the
 * answer is the single-threaded one.
 */
/*
 * *INCOMPLETE: some unit the confirming scan could not read (clang's strx
 * names) may hold a candidate: the libdw walk must answer instead.
 */
static void near_strings(const struct ll_finder *finder, const char *name, size_t limit,
			 struct near_list *out)
{
	const struct ll_scan_input *in = &finder->in;
	struct near_pass pass[2];
	uint64_t name_set = 0, bits[256];
	const char *str = (const char *)in->str, *end = str + in->str_size;
	const char *cut = str + in->str_size / 2;
	size_t len = strlen(name), nr_pass = 1;
	pthread_t tid;

	char_bits(bits);
	for (size_t k = 0; k < len; k++)
		name_set |= bits[(unsigned char)name[k]];
	for (size_t i = 0; i < 2; i++)
		pass[i] = (struct near_pass){ .str = str, .end = end, .name = name, .len = len,
					      .limit = limit, .bits = bits, .name_set = name_set };
	/* The second half starts after a NUL: whole strings on each side. */
	cut = cut < end ? memchr(cut, 0, (size_t)(end - cut)) : NULL;
	if (ll_threads() > 1 && cut && cut + 1 < end) {
		pass[0].end = cut + 1;
		pass[1].str = cut + 1;
		if (pthread_create(&tid, NULL, near_pass_run, &pass[1]) == 0)
			nr_pass = 2;
		else
			pass[0].end = end;
	}
	near_pass_run(&pass[0]);
	if (nr_pass == 2) {
		pthread_join(tid, NULL);
		for (size_t i = 0; i < pass[1].found.n; i++)
			near_add(&pass[0].found, pass[1].found.v[i].s, pass[1].found.v[i].dist);
	}
	*out = pass[0].found;
}

/*
 * The first of NAMES (NR, closest first) that a scan finds a struct or
 * union definition of, as "did you mean" text; NULL when none. ONLY (or
 * NULL): the units to scan, NR_ONLY of them. *INCOMPLETE: the scan could
 * not read some unit.
 */
static char *confirm_near(struct ll_finder *finder, const char *const *names, size_t nr,
			  const uint32_t *only, size_t nr_only, size_t *which, bool *incomplete)
{
	struct ll_scan_result r;
	char *answer = NULL;
	/* Found, the closest candidate is the answer: no need to scan on. */
	struct ll_scan_input first_wins = finder->in;

	first_wins.stop_at_first_definition = true;
	first_wins.units = finder->units;
	first_wins.nr_units = finder->nr_units;
	first_wins.verdicts = finder->verdicts;
	if (only) {
		first_wins.only = only;
		first_wins.nr_only = nr_only;
		first_wins.only_nr_units = finder->nr_units;
	}
	if (ll_scan(&first_wins, names, nr, ll_threads(), &r) != 0) {
		*incomplete = true;
		return NULL;
	}
	/* The closest candidate that names a struct or union definition. */
	for (size_t i = 0; i < nr && !answer; i++) {
		for (size_t h = 0; h < r.nr_hits; h++) {
			const struct ll_scan_hit *hit = &r.hits[h];

			if (strcmp(names[hit->query], names[i]) != 0 || hit->declaration ||
			    hit->via_typedef ||
			    (hit->tag != DW_TAG_structure_type && hit->tag != DW_TAG_union_type))
				continue;
			struct strbuf sb = STRBUF_INIT;

			sb_addf(&sb, "did you mean %s %s?",
				hit->tag == DW_TAG_union_type ? "union" : "struct", names[i]);
			answer = sb_detach(&sb);
			*which = i;
			break;
		}
	}
	/* A closer candidate may hide in a unit the scan left to libdw. */
	if (r.nr_fallback) {
		free(answer);
		answer = NULL;
		*incomplete = true;
	}
	ll_scan_result_release(&r);
	return answer;
}

static char *suggest_raw(struct ll_finder *finder, const char *name, size_t limit,
			 bool *incomplete)
{
	const char *names[SUGGEST_CANDIDATES];	/* point into .debug_str */
	struct near_list near;

	near_strings(finder, name, limit, &near);
	if (!near.n)
		return NULL;
	for (size_t i = 0; i < near.n; i++)
		names[i] = near.v[i].s;
	size_t which;

	return confirm_near(finder, names, near.n, NULL, 0, &which, incomplete);
}

/* An index name within the limit, and its distance. */
struct index_near {
	const char *s;
	size_t dist;
};

static int cmp_index_near(const void *a, const void *b)
{
	const struct index_near *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return strcmp(x->s, y->s);
}

static int cmp_unit(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * When the index recorded every definition of each name FOUND[0..*NR)
 * (what --list, --audit and --contains leave): the ascending units holding
 * one, and the names, in order, that have any (NAMES, FOUND and *NR
 * become those). The first copy of each distinct definition is recorded,
 * so the first definition of a name in .debug_info order is in these
 * units. NULL when some name's definitions are unknown: then its units
 * come from the postings (most of the index file, read and checked).
 */
static uint32_t *def_units(const struct ll_name_index *ix, struct index_near *found, size_t *nr,
			   const char **names, size_t *nr_units)
{
	uint32_t *units = NULL;
	size_t n = 0, kept = 0;

	for (size_t i = 0; i < *nr; i++) {
		long k = ll_name_index_find(ix, found[i].s);

		if (k < 0 || !(ix->flags[k] & LL_INDEX_DEFS_KNOWN)) {
			free(units);
			return NULL;
		}
	}
	for (size_t i = 0; i < *nr; i++) {
		size_t nd;
		const struct ll_index_def *defs = ll_name_index_defs(ix, ll_name_index_find(ix,
									 found[i].s), &nd);

		if (!nd)
			continue;
		for (size_t d = 0; d < nd; d++) {
			units = xgrow(units, n, sizeof(*units));
			units[n++] = defs[d].unit;
		}
		found[kept] = found[i];
		names[kept++] = found[i].s;
	}
	*nr = kept;
	if (n)
		qsort(units, n, sizeof(*units), cmp_unit);
	size_t u = 0;

	for (size_t i = 0; i < n; i++)
		if (!u || units[u - 1] != units[i])
			units[u++] = units[i];
	*nr_units = u;
	return units ? units : xcalloc(1, sizeof(*units));
}

/*
 * suggest_raw()'s answer, with the name index's help. Its candidates are
 * the SUGGEST_CANDIDATES strings of .debug_str closest to NAME, and its
 * answer the first of them that names a struct or union definition: a
 * name of the index. So the index's names within LIMIT, closest first,
 * are scanned for in their own units only, and the first one defined, X
 * at distance D, is the answer when suggest_raw() would have counted it
 * among its candidates: when the pass over .debug_str, run with limit D
 * (far cheaper than LIMIT: most strings fail its first filter), keeps X
 * among the SUGGEST_CANDIDATES closest. No index name within LIMIT: no
 * answer, and no pass at all. *FALLBACK: the index cannot answer alone
 * (too many near names, or postings it refused): suggest_raw() must.
 */
static char *suggest_indexed(struct ll_finder *finder, const char *name, size_t limit,
			     bool *incomplete, bool *fallback)
{
	struct ll_name_index *ix = finder->index;
	struct index_near found[SUGGEST_CANDIDATES];
	const char *names[SUGGEST_CANDIDATES];
	size_t nr = 0, len = strlen(name), nr_units = 0;
	char *answer, *note = NULL;
	uint32_t *units;

	*fallback = true;
	if (finder->nr_units != ix->nr_units)
		return NULL;
	for (uint64_t i = 0; i < ix->nr_names; i++) {
		const char *s = ix->names + ix->name_off[i];
		size_t l = strlen(s), d;

		/* Each edit changes the length by one at most. */
		if (l + limit < len || l > len + limit ||
		    (d = ll_edit_distance_n(name, len, s, l, limit)) > limit)
			continue;
		if (nr == SUGGEST_CANDIDATES)
			return NULL;
		found[nr++] = (struct index_near){ s, d };
	}
	*fallback = false;
	if (!nr)
		return NULL;
	qsort(found, nr, sizeof(*found), cmp_index_near);
	for (size_t i = 0; i < nr; i++)
		names[i] = found[i].s;
	units = def_units(ix, found, &nr, names, &nr_units);
	if (!units)
		units = ll_name_index_units(ix, names, nr, &nr_units, &note);
	if (note)
		ll_notes_addf(finder->notes, "%s", note);
	free(note);
	if (!units) {
		*fallback = true;
		return NULL;
	}
	if (!nr) {
		free(units);
		return NULL;
	}
	size_t which = 0;

	answer = confirm_near(finder, names, nr, units, nr_units, &which, incomplete);
	free(units);
	if (!answer || *incomplete)
		return answer;
	const struct index_near *x = &found[which];
	struct near_list near;

	near_strings(finder, name, x->dist, &near);
	for (size_t i = 0; i < near.n; i++)
		if (strcmp(near.v[i].s, x->s) == 0)
			return answer;
	free(answer);
	return NULL;
}

struct in_scope {
	const char *name;
	size_t len;
	struct strbuf found;	/* "ns::Name" or "a::Name or b::Name" */
	size_t n;
};

static int on_in_scope(Dwarf_Die *die, const char *qname, void *arg)
{
	struct in_scope *is = arg;
	size_t ql = strlen(qname);
	Dwarf_Attribute attr;

	if (ql <= is->len + 2 || strcmp(qname + ql - is->len, is->name) != 0 ||
	    qname[ql - is->len - 1] != ':' || dwarf_tag(die) == DW_TAG_typedef ||
	    dwarf_attr(die, DW_AT_declaration, &attr) || is->n >= 3)
		return 0;
	if (is->found.len && strstr(is->found.buf, qname))
		return 0;
	sb_addf(&is->found, "%s%s %s", is->n ? " or " : "",
		dwarf_tag(die) == DW_TAG_union_type ? "union" : "struct", qname);
	is->n++;
	return 0;
}

/*
 * An unqualified NAME that a namespace or a type holds (C++, Rust): "did
 * you mean struct ns::NAME?". Only when the abbreviations say such scopes
 * exist, so a C image costs nothing.
 */
static char *suggest_scoped(struct ll_finder *finder, const char *name)
{
	const unsigned char *abbrev;
	size_t abbrev_size;
	Elf *elf = dwarf_getelf(finder->dwarf);
	struct in_scope is = { name, strlen(name), STRBUF_INIT, 0 };
	struct ll_error err;
	char *answer = NULL;

	if (ll_scoped_name(name) || !elf ||
	    !ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &abbrev, &abbrev_size) ||
	    !ll_abbrevs_have_scopes(abbrev, abbrev_size) || fill_all(finder, &err))
		return NULL;
	if (ll_scoped_walk(finder->dwarf, "", on_in_scope, &is, &err) == 0 && is.n) {
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "did you mean %s?", is.found.buf);
		answer = sb_detach(&sb);
	}
	sb_release(&is.found);
	return answer;
}

char *ll_finder_suggest(struct ll_finder *finder, const char *name)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct ll_nearest near;
	char *scoped;

	if (!finder)
		return NULL;
	/* An index is written only for an image without qualified names. */
	if (!finder->index && (scoped = suggest_scoped(finder, name)))
		return scoped;
	if (finder->raw && finder->index) {
		bool incomplete = false, fallback = false;
		char *answer = suggest_indexed(finder, name, ll_suggest_limit(strlen(name)),
					       &incomplete, &fallback);

		if (!incomplete && !fallback)
			return answer;
		free(answer);
	}
	if (finder->raw) {
		bool incomplete = false;
		char *answer = suggest_raw(finder, name, ll_suggest_limit(strlen(name)),
					   &incomplete);

		if (!incomplete)
			return answer;
	}
	struct ll_error err;

	if (fill_all(finder, &err))
		return NULL;
	ll_nearest_init(&near, name);
	while (next_unit(finder->dwarf, finder->types, off, &next, &hsize, NULL) == 0) {
		Dwarf_Die cu, child;

		if (!unit_die(finder->dwarf, finder->types, off + hsize, &cu))
			break;
		off = next;
		if (dwarf_child(&cu, &child) != 0)
			continue;
		do {
			int tag = dwarf_tag(&child);
			const char *cand;
			Dwarf_Attribute attr;

			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
				continue;
			if (dwarf_attr(&child, DW_AT_declaration, &attr))
				continue;
			cand = dwarf_diename(&child);
			if (cand)
				ll_nearest_offer(&near, cand,
						 tag == DW_TAG_union_type ? LL_UNION : LL_STRUCT);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return ll_nearest_finish(&near);
}
