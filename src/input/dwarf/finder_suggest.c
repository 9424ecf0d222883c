// SPDX-License-Identifier: GPL-2.0-or-later
/* "Did you mean": names near one that is not there, from the strings, the index or scopes. */
#include "input/dwarf/finderP.h"

/*
 * Missing names are rare, so the suggestion costs a second walk instead of
 * making every successful lookup collect all names. The candidates,
 * closest first, are confirmed in batches that grow by BATCH_GROWTH: each
 * batch's scan stops once its closest candidate is found defined.
 */
#define CONFIRM_BATCH 64
#define BATCH_GROWTH 4

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

/* Strings within the limit; near_sort() orders them and drops repeats. */
struct near_list {
	struct near *v;
	size_t n;
};

static void near_add(struct near_list *l, const char *s, size_t d)
{
	l->v = xgrow(l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = (struct near){ s, d };
}

static int cmp_near(const void *a, const void *b)
{
	const struct near *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return strcmp(x->s, y->s);
}

/* Closest first, then by name, each string once (a string has one distance). */
static void near_sort(struct near_list *l)
{
	size_t kept = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_near);
	for (size_t i = 0; i < l->n; i++)
		if (!kept || strcmp(l->v[kept - 1].s, l->v[i].s) != 0)
			l->v[kept++] = l->v[i];
	l->n = kept;
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
 * The raw way: every string of .debug_str (and every tail of one: ld
 * merges string tails) within LIMIT of NAME is a candidate, into OUT,
 * closest first, then by name. The strings are split between two threads
 * at a NUL; sorting the two lists together makes the answer the
 * single-threaded one.
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
		free(pass[1].found.v);
	}
	near_sort(&pass[0].found);
	*out = pass[0].found;
}

static char *did_you_mean(int tag, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "did you mean %s %s?", tag == DW_TAG_union_type ? "union" : "struct", name);
	return sb_detach(&sb);
}

/*
 * The first of NAMES (NR, closest first) that a scan finds a struct or
 * union definition of, as "did you mean" text; NULL when none. ONLY (or
 * NULL): the units to scan, NR_ONLY of them. *INCOMPLETE: some unit the
 * scan could not read (clang's strx names) may hold a candidate: the
 * libdw walk must answer instead.
 */
static char *confirm_near(struct ll_finder *finder, const char *const *names, size_t nr,
			  const uint32_t *only, size_t nr_only, bool *incomplete)
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
			answer = did_you_mean(hit->tag, names[i]);
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

/*
 * Whether a batch of NEAR's candidates from AT on, of BATCH, is one
 * more to confirm; *NR: how many it holds.
 */
static bool next_batch(const struct near_list *near, size_t at, size_t batch, size_t *nr)
{
	*nr = near->n - at < batch ? near->n - at : batch;
	return at < near->n;
}

/*
 * The closest name within LIMIT of a struct or union the image defines,
 * among the names .debug_str holds: candidates from the strings, then
 * scanned for, closest first, so only a real definition is proposed.
 * Costs filtered scans instead of a libdw walk of every unit.
 */
static char *suggest_raw(struct ll_finder *finder, const char *name, size_t limit,
			 bool *incomplete)
{
	struct near_list near;
	char *answer = NULL;
	size_t nr;

	near_strings(finder, name, limit, &near);
	for (size_t at = 0, batch = CONFIRM_BATCH; !answer && !*incomplete &&
	     next_batch(&near, at, batch, &nr); at += nr, batch *= BATCH_GROWTH) {
		const char **names = xmalloc(nr * sizeof(*names));

		for (size_t i = 0; i < nr; i++)
			names[i] = near.v[at + i].s;
		answer = confirm_near(finder, names, nr, NULL, 0, incomplete);
		free(names);
	}
	free(near.v);
	return answer;
}

/*
 * Whether DEF, the index's record of a definition of NAME, is one: its
 * DIE read, as a build checks what the index names (the checksums catch
 * damage, not a stale or forged record).
 */
static bool recorded_is_real(struct ll_finder *finder, const struct ll_index_def *def,
			     const char *name)
{
	struct ll_error err;
	Dwarf_Die die;
	Dwarf_Attribute attr;
	const char *found;

	if (ll_finder_prepare(finder, def->die, &err) || !dwarf_offdie(finder->dwarf, def->die, &die))
		return false;
	found = dwarf_diename(&die);
	return dwarf_tag(&die) == (int)def->tag && !dwarf_attr(&die, DW_AT_declaration, &attr) &&
	       found && strcmp(found, name) == 0;
}

/*
 * Index entry K's answer from its recorded definitions: the first (in
 * .debug_info order) of a struct or union by that name, as the scan would
 * meet it; a typedef's anonymous one is not the name's. *FORGED: the
 * index names a DIE that is not that definition (a note says so).
 */
static char *recorded_definition(struct ll_finder *finder, long k, bool *forged)
{
	const struct ll_name_index *ix = finder->index;
	const char *name = ix->names + ix->name_off[k];
	size_t nd;
	const struct ll_index_def *defs = ll_name_index_defs(ix, k, &nd), *first = NULL;

	for (size_t i = 0; i < nd; i++)
		if ((defs[i].tag == DW_TAG_structure_type || defs[i].tag == DW_TAG_union_type) &&
		    !(defs[i].flags & LL_INDEX_DEF_NAMELESS) && (!first || defs[i].die < first->die))
			first = &defs[i];
	if (!first)
		return NULL;
	if (!recorded_is_real(finder, first, name)) {
		ll_notes_addf(finder->notes, "the name index %s names DIE 0x%llx for %s, but it is "
			      "not its definition; ignoring the index for \"did you mean\"",
			      ix->path ? ix->path : "", (unsigned long long)first->die, name);
		*forged = true;
		return NULL;
	}
	return did_you_mean((int)first->tag, name);
}

/* The index entry of the name NEAR names, when it recorded its definitions; else -1. */
static long recorded_entry(const struct ll_name_index *ix, const struct near *near)
{
	long k = ll_name_index_find(ix, near->s);

	return k >= 0 && (ix->flags[k] & LL_INDEX_DEFS_KNOWN) ? k : -1;
}

/*
 * The NR names of V, whose definitions the index did not record, scanned
 * for in the units its postings list for them. *FALLBACK: postings refused.
 */
static char *confirm_from_postings(struct ll_finder *finder, const struct near *v, size_t nr,
				   bool *incomplete, bool *fallback)
{
	const char **names = xmalloc(nr * sizeof(*names));
	char *answer = NULL, *note = NULL;
	size_t nr_units = 0;
	uint32_t *units;

	for (size_t i = 0; i < nr; i++)
		names[i] = v[i].s;
	units = ll_name_index_units(finder->index, names, nr, &nr_units, &note);
	if (note)
		ll_notes_addf(finder->notes, "%s", note);
	free(note);
	if (units)
		answer = confirm_near(finder, names, nr, units, nr_units, incomplete);
	else
		*fallback = true;
	free(units);
	free(names);
	return answer;
}

struct index_near {
	const struct ll_name_index *ix;
	struct near_list *out;
	uint64_t bits[256];	/* char_bits() */
};

/*
 * Whether near_pass_run() would meet NAME as a candidate: identifier
 * characters only (it reads a string's tail up to the first other byte),
 * not starting with a digit.
 */
static bool pass_would_meet(const char *name, const uint64_t bits[256])
{
	if (!*name || (*name >= '0' && *name <= '9'))
		return false;
	for (const char *p = name; *p; p++)
		if (!bits[(unsigned char)*p])
			return false;
	return true;
}

/*
 * ll_name_index_each_near(): name K, DIST edits away, is a candidate if
 * .debug_str holds it as the pass over .debug_str would meet it.
 */
static bool add_in_str(void *arg, uint64_t k, size_t dist)
{
	struct index_near *in = arg;
	const char *name = in->ix->names + in->ix->name_off[k];

	if ((in->ix->flags[k] & LL_INDEX_IN_STR) && pass_would_meet(name, in->bits))
		near_add(in->out, name, dist);
	return false;
}

/*
 * suggest_raw()'s answer, from the name index: its names within LIMIT
 * that .debug_str holds (LL_INDEX_IN_STR) are the candidates
 * suggest_raw() confirms, in the same order, and the first one defined is
 * the answer. A name whose definitions the index recorded answers with
 * its DIE read (what --list, --audit and --contains leave); a run of
 * names it did not record is scanned for in the units their postings
 * list. No index name within LIMIT: no answer, nothing read. *FALLBACK:
 * the index cannot answer (postings refused, or a recorded definition
 * that is not one): suggest_raw() must.
 */
static char *suggest_indexed(struct ll_finder *finder, const char *name, size_t limit,
			     bool *incomplete, bool *fallback)
{
	struct ll_name_index *ix = finder->index;
	struct near_list near = { 0 };
	struct index_near in_str = { ix, &near, { 0 } };
	char *answer = NULL;

	*fallback = true;
	if (finder->nr_units != ix->nr_units)
		return NULL;
	*fallback = false;
	char_bits(in_str.bits);
	ll_name_index_each_near(ix, name, limit, add_in_str, &in_str);
	near_sort(&near);
	for (size_t i = 0, run; i < near.n && !answer && !*incomplete && !*fallback; i += run) {
		long k = recorded_entry(ix, &near.v[i]);

		if (k >= 0) {
			answer = recorded_definition(finder, k, fallback);
			run = 1;
			continue;
		}
		for (run = 1; run < CONFIRM_BATCH && i + run < near.n &&
			      recorded_entry(ix, &near.v[i + run]) < 0; run++)
			;
		answer = confirm_from_postings(finder, &near.v[i], run, incomplete, fallback);
	}
	free(near.v);
	return answer;
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
