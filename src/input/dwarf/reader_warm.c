// SPDX-License-Identifier: GPL-2.0-or-later
/* The warm path: a lookup answered from the name index, the index written when it was not. */
#include "input/dwarf/readerP.h"

/* MEMBERS_PER_INFO_BYTE per byte of .debug_info as libdw reads it, or MEMBERS_FLOOR. */
size_t reader_member_budget(struct ll_dwarf_input *in)
{
	const unsigned char *data;
	size_t size = 0;
	Elf *elf = dwarf_getelf(in->dwarf);

	if (elf && !ll_elf_section_bytes(elf, ".debug_info", ".zdebug_info", &data, &size))
		size = 0;
	return size > MEMBERS_FLOOR / MEMBERS_PER_INFO_BYTE ? size * MEMBERS_PER_INFO_BYTE :
							      MEMBERS_FLOOR;
}

/*
 * Whether a name index can stand for IN: its DWARF is the file's own
 * .debug_info alone. Types in .debug_types, a dwz supplementary file or
 * split units (a DIE offset meaningful only with its part) are beyond
 * what the index records, so such inputs neither read nor write one.
 */
bool reader_index_sound(const struct ll_dwarf_input *in)
{
	return in->own_dwarf && in->nr_parts == 1 && in->parts[0].src.dwarf == in->dwarf &&
	       !in->parts[0].src.types && in->parts[0].src.raw_ok && !in->alt.dwarf &&
	       !in->build_root && in->dwp.n == 0;
}

/*
 * Whether the index may answer (and record) QUERIES: not with a selector
 * (--cu, --size, --die pick among copies the index joins) nor a qualified
 * name (C++, Rust: inside namespaces and types, which it does not record).
 */
static bool index_answers(const struct ll_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((queries[i].select && (queries[i].select->cu_glob || queries[i].select->by_size ||
					   queries[i].select->by_die)) ||
		    ll_scoped_name(queries[i].name))
			return false;
	return true;
}

/* The name index of IN, loaded on first use (a refused one is a note); NULL: none. */
struct ll_name_index *reader_index(struct ll_dwarf_input *in)
{
	struct ll_index_key key;
	char *note = NULL;
	const unsigned char *data;
	size_t size;
	Elf *elf;

	if (in->index_state)
		return in->index_state == 1 ? &in->index : NULL;
	in->index_state = -1;
	if (!reader_index_sound(in))
		return NULL;
	reader_index_key(in, &key);
	elf = dwarf_getelf(in->dwarf);
	if (!key.dir || !in->own_dwarf || !elf ||
	    !ll_elf_section_bytes(elf, ".debug_info", ".zdebug_info", &data, &size))
		return NULL;
	key.info_size = size;
	if (!ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &data, &size))
		return NULL;
	key.abbrev_size = size;
	if (ll_name_index_load(&key, &in->index, &note) == 0)
		in->index_state = 1;
	else if (note)
		ll_notes_addf(in->opts.notes, "%s", note);
	free(note);
	return in->index_state == 1 ? &in->index : NULL;
}

/*
 * Whether the index records what --audit's member filter says of every
 * definition of name K (none unknown): a warm --audit needs that.
 */
bool reader_index_name_filtered(const struct ll_name_index *ix, long k)
{
	size_t nd;
	const struct ll_index_def *defs;

	if (!(ix->flags[k] & LL_INDEX_DEFS_KNOWN))
		return false;
	defs = ll_name_index_defs(ix, k, &nd);
	for (size_t i = 0; i < nd; i++)
		if (!(defs[i].flags & LL_INDEX_DEF_FILTERED))
			return false;
	return true;
}

static bool index_flags_declare(uint32_t flags, enum ll_query_kind kind)
{
	return (kind != LL_QUERY_UNION && (flags & LL_INDEX_DECLARED_STRUCT)) ||
	       (kind != LL_QUERY_STRUCT && (flags & LL_INDEX_DECLARED_UNION));
}

/*
 * Q's candidates from the name index, as the scan would have found them:
 * false when the index cannot answer Q alone (its definitions were never
 * recorded, or a miss needs a "did you mean" scan).
 */
static bool warm_state(const struct ll_dwarf_input *in, const struct ll_name_index *ix,
		       const struct ll_query *q, struct query_state *qs)
{
	long k;
	size_t nd;
	const struct ll_index_def *defs;

	if (q->kind != LL_QUERY_ANY && q->kind != LL_QUERY_STRUCT && q->kind != LL_QUERY_UNION)
		return false;
	k = ll_name_index_find(ix, q->name);
	if (k < 0) {	/* no struct, union or typedef of that name anywhere */
		if (q->no_suggestion)
			return true;
		/*
		 * Missing, known without a scan (whose postings alone are most
		 * of the index file). Nothing to propose either when no name
		 * of the index is near: then not even .debug_str is read (far
		 * longer than a warm found name takes; bench/RESULTS.md);
		 * otherwise ll_finder_suggest() proposes, with the index.
		 */
		qs->nothing_near = !ll_name_index_has_near(ix, q->name,
							   ll_suggest_limit(strlen(q->name)));
		return true;
	}
	if (!(ix->flags[k] & LL_INDEX_DEFS_KNOWN) ||
	    (in->opts.member_filter && !reader_index_name_filtered(ix, k)))
		return false;
	defs = ll_name_index_defs(ix, k, &nd);
	/* The index's distinct definitions, joined as their canonical paths join. */
	for (size_t i = 0; i < nd; i++) {
		const struct ll_index_def *d = &defs[i];
		const char *raw = ll_name_index_string(ix, d->file);
		const char *comp_dir = ll_name_index_string(ix, d->comp_dir);
		char *file = raw ? reader_display_path(in, raw, comp_dir) : NULL;
		struct ll_finder_sig sig = {
			.tag = (int)d->tag, .size = d->size, .line = d->line,
			.file_hash = file ? reader_canonical_file_hash(in, raw, comp_dir) : 0,
			.members_hash = d->members_hash, .nr_members = d->nr_members,
		};
		size_t before = qs->nr_cands;

		if (!kind_matches(q->kind, (int)d->tag)) {
			free(file);
			continue;
		}
		/* What the filter said counts only for the filter's own digest (--audit). */
		uint32_t filtered = in->opts.member_filter ?
				    d->flags & (LL_INDEX_DEF_FILTERED | LL_INDEX_DEF_NEEDED) : 0;

		reader_add_candidate(qs, d->die, 0, q->name, &sig, file, true, false, NULL, NULL,
				     filtered == LL_INDEX_DEF_FILTERED, filtered);
		if (qs->nr_cands > before) {
			qs->cands[before].holes = d->holes;
			qs->cands[before].from_index = true;
			qs->cands[before].lacks_word = q->digest_type_word &&
				ll_name_index_def_lacks_word(ix, d, q->digest_type_word);
			qs->cands[before].record_words = (q->summary_only || q->digest) &&
							 !(d->flags & LL_INDEX_DEF_WORDS);
		}
	}
	qs->declared = index_flags_declare(ix->flags[k], q->kind);
	return qs->nr_cands || qs->declared || q->no_suggestion;
}

/* What the build of CAND says of its definition D: its hole count, and its words when known. */
static void def_from_build(struct ll_index_def_src *d, const struct candidate *cand)
{
	d->d.holes = cand->holes;
	if (!cand->words.blob)
		return;
	d->d.flags |= LL_INDEX_DEF_WORDS;
	d->d.nr_words = cand->words.nr;
	d->words = cand->words.blob;	/* borrowed until the index is written */
}

/* The definitions QS captured, as an index entry's; false if a DIE is in no unit. */
static bool entry_defs(const struct query_state *qs, const struct ll_scan_unit *units,
		       size_t nr_units, struct ll_index_entry *e)
{
	struct ll_index_def_src *defs = xcalloc(qs->nr_raw_defs ? qs->nr_raw_defs : 1,
						sizeof(*defs));

	for (size_t i = 0; i < qs->nr_raw_defs; i++) {
		defs[i] = qs->raw_defs[i].def;
		defs[i].d.flags |= qs->raw_defs[i].filtered;
		size_t u = ll_scan_unit_index(units, nr_units, defs[i].d.die);

		if (u >= UINT32_MAX) {
			free(defs);
			return false;
		}
		defs[i].d.unit = (uint32_t)u;
		/* The pick's hole count and words, when this definition was built. */
		for (size_t c = 0; c < qs->nr_cands; c++)
			if (qs->cands[c].die == defs[i].d.die)
				def_from_build(&defs[i], &qs->cands[c]);
	}
	for (size_t i = 0; i < e->nr_defs; i++)
		free(e->defs[i].owned);
	free(e->defs);
	e->defs = defs;
	e->nr_defs = qs->nr_raw_defs;
	e->flags = (e->flags & LL_INDEX_IN_STR) | LL_INDEX_DEFS_KNOWN | qs->declared_flags;
	return true;
}

/* Definition DIE of entry E, or NULL. */
static struct ll_index_def_src *entry_def(struct ll_index_entry *e, uint64_t die)
{
	for (size_t d = 0; d < e->nr_defs; d++)
		if (e->defs[d].d.die == die)
			return &e->defs[d];
	return NULL;
}

/*
 * What the member filter said of QS's captured definitions, onto entry E
 * that records them already (an index a --list wrote, read by a cold
 * --audit): whether any flag was new. A definition E does not hold stays
 * unfiltered there, and the next --audit is cold again.
 */
static bool entry_filtered(const struct query_state *qs, struct ll_index_entry *e)
{
	bool changed = false;

	for (size_t i = 0; i < qs->nr_raw_defs; i++) {
		struct ll_index_def_src *d = entry_def(e, qs->raw_defs[i].def.d.die);

		if (d && qs->raw_defs[i].filtered && !(d->d.flags & LL_INDEX_DEF_FILTERED)) {
			d->d.flags |= qs->raw_defs[i].filtered;
			changed = true;
		}
	}
	return changed;
}

/*
 * After a lookup that captured definitions: write the index again with
 * them, onto the listing's seed or the loaded index. Only names asked for
 * as any kind are recorded (a struct query sees no unions of its name).
 * A name recorded already gains what the member filter said.
 */
static void update_index(struct ll_dwarf_input *in, const struct lookup_ctx *lc)
{
	struct ll_index_entry *e = NULL;
	size_t n = 0, nr_units;
	const struct ll_scan_unit *units;
	struct ll_index_key key;
	char *note = NULL;
	bool own = false, changed = false;

	if (in->seed.entries) {
		e = in->seed.entries;
		n = in->seed.nr_entries;
		units = in->seed.units;
		nr_units = in->seed.nr_units;
	} else if (in->index_state == 1) {
		if (ll_name_index_entries_from_index(&in->index, &e, &n, &note)) {
			if (note)
				ll_notes_addf(in->opts.notes, "%s", note);
			free(note);
			return;
		}
		own = true;
		units = in->index.units;
		nr_units = in->index.nr_units;
	} else {
		return;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t q1 = reader_queries_named(lc, e[i].name); q1; q1 = lc->next[q1 - 1]) {
			if (!lc->state[q1 - 1].capture)
				continue;
			changed |= e[i].flags & LL_INDEX_DEFS_KNOWN ?
				   entry_filtered(&lc->state[q1 - 1], &e[i]) :
				   entry_defs(&lc->state[q1 - 1], units, nr_units, &e[i]);
			break;
		}
	}
	reader_index_key(in, &key);
	key.info_size = in->seed.entries ? in->seed.info_size : in->index.info_size;
	if (changed || in->seed.entries)
		ll_name_index_write(&key, units, nr_units, e, n);
	if (own)
		ll_name_index_entries_free(e, n);
	else
		ll_finder_seed_release(&in->seed);
}

/*
 * After a whole-image run answered from the index (--list, --contains):
 * the definitions it built that the index had no words for (an index
 * that an --audit wrote, which builds ~150 structs, or one of a lookup
 * of a few names) get their hole counts and words recorded, so that the
 * next such run does not build them again. Nothing is written when none
 * was built, and never for a lookup of a few names (its candidates are
 * not record_words).
 */
static void fill_index(struct ll_dwarf_input *in, const struct ll_query *queries,
		       const struct query_state *state, size_t n)
{
	struct ll_name_index *ix = &in->index;
	struct ll_index_entry *e = NULL;
	struct ll_index_key key;
	size_t nr = 0, gained = 0;
	char *note = NULL;

	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < state[i].nr_cands; c++)
			gained += state[i].cands[c].record_words && state[i].cands[c].words.blob;
	if (!gained)
		return;
	if (ll_name_index_entries_from_index(ix, &e, &nr, &note)) {
		if (note)
			ll_notes_addf(in->opts.notes, "%s", note);
		free(note);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		long k = ll_name_index_find(ix, queries[i].name);

		for (size_t c = 0; k >= 0 && c < state[i].nr_cands; c++) {
			const struct candidate *cand = &state[i].cands[c];
			struct ll_index_def_src *d = entry_def(&e[k], cand->die);

			if (cand->record_words && cand->words.blob && d &&
			    !(d->d.flags & LL_INDEX_DEF_WORDS))
				def_from_build(d, cand);
		}
	}
	reader_index_key(in, &key);
	key.info_size = ix->info_size;
	ll_name_index_write(&key, ix->units, ix->nr_units, e, nr);
	ll_name_index_entries_free(e, nr);
}

/* Queries above this many (--list, --audit) build most units: no header to skip. */
#define COLD_SKIP_MAX 64

/*
 * Whether each query has one definition to build: nothing is then read
 * of .debug_info but the picks' units (no "did you mean", no candidates
 * to describe), as ll_finder_skip_headers() requires.
 */
static bool every_query_builds(const struct ll_query *queries, struct query_state *state,
			       size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!reader_pick_to_build(&queries[i], &state[i]))
			return false;
	return true;
}

/*
 * Many queries and few builds (--audit='*' builds ~150 of the 6.12 image's
 * ~8,000 structs: the scan's nothing_needed): resolve_all() builds them in
 * DIE order, behind made-up unit headers (ll_finder_skip_headers())
 * instead of both threads' handles registering every unit header, while
 * errors stay in query order. Only where nothing else is read of
 * .debug_info: no query asks "did you mean".
 */
static void skip_for_few_builds(const struct ll_dwarf_input *in, const struct ll_query *queries,
				struct query_state *state, size_t n, struct ll_finder *finder)
{
	uint64_t *dies = xmalloc((n ? n : 1) * sizeof(*dies));
	size_t nr_dies = 0;

	for (size_t i = 0; i < n; i++) {
		const struct candidate *pick = reader_pick_to_build(&queries[i], &state[i]);

		if (!queries[i].no_suggestion) {
			nr_dies = 0;
			break;
		}
		if (pick)
			dies[nr_dies++] = pick->die;
	}
	if (nr_dies <= FEW_BUILDS_MAX && reader_builds_in_parallel(in, n, nr_dies))
		ll_finder_skip_headers(finder, dies, nr_dies);
	free(dies);
}

/*
 * The order to resolve queries in: by the DIE each will build, so the
 * finder may stand one made-up unit header in for the many before each
 * (ll_finder_skip_headers()) instead of libdw reading them all.
 */
static size_t *warm_order(const struct ll_query *queries, struct query_state *state, size_t n,
			  struct ll_finder *finder)
{
	struct by_die *v = xmalloc((n ? n : 1) * sizeof(*v));
	uint64_t *dies = xmalloc((n ? n : 1) * sizeof(*dies));
	size_t *order = xmalloc((n ? n : 1) * sizeof(*order)), nr_dies = 0;

	for (size_t i = 0; i < n; i++) {
		const struct candidate *pick = reader_pick_to_build(&queries[i], &state[i]);

		v[i] = (struct by_die){ pick ? pick->die : 0, i };
		if (pick)
			dies[nr_dies++] = pick->die;
	}
	qsort(v, n, sizeof(*v), reader_cmp_by_die);
	for (size_t i = 0; i < n; i++)
		order[i] = v[i].at;
	/*
	 * A missing name's "did you mean" may end in libdw's walk of every
	 * unit (ll_finder_suggest()), which made-up headers would mislead.
	 */
	bool suggests = false;

	for (size_t i = 0; i < n; i++)
		suggests |= !state[i].nr_cands && !state[i].declared && !state[i].nothing_near &&
			    !queries[i].no_suggestion;
	if (!suggests)
		ll_finder_skip_headers(finder, dies, nr_dies);
	free(dies);
	free(v);
	return order;
}

/*
 * Whether any query's definitions (or what the member filter says of
 * them) would be new to the index (or its seed).
 */
static bool wants_capture(struct ll_dwarf_input *in, const struct ll_name_index *ix,
			  const struct ll_query *q)
{
	long k;

	if (q->kind != LL_QUERY_ANY)
		return false;
	if (in->seed.entries)
		return true;
	if (!ix)
		return false;
	k = ll_name_index_find(ix, q->name);
	return k >= 0 && (!(ix->flags[k] & LL_INDEX_DEFS_KNOWN) ||
			  (in->opts.member_filter && !reader_index_name_filtered(ix, k)));
}

/* Whether a query picks among copies by their unit or DIE (--cu, --die). */
static bool wants_every_copy(const struct ll_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (queries[i].select && (queries[i].select->cu_glob || queries[i].select->by_die))
			return true;
	return false;
}

/*
 * Whether a warm lookup of --contains queries may answer otherwise than
 * cold: a build failed (RC), or a struct did not lay out. Each of those
 * was never built before (it would have its words), and a cold run
 * builds only what the scan's member words say can hold the type.
 */
static bool contains_unsure(const struct ll_query *queries, const struct ll_lookup_result *results,
			    size_t n, int rc)
{
	bool contains = false, unsupported = false;

	for (size_t i = 0; i < n; i++) {
		contains |= queries[i].digest_type_word != NULL;
		unsupported |= rc == 0 && results[i].status == LL_UNSUPPORTED;
	}
	return contains && (rc || unsupported);
}

/* *UNSURE: a warm --contains that may answer otherwise cold (contains_unsure()). */
static int lookup_once(struct ll_dwarf_input *in, const struct ll_query *queries, size_t n,
		       struct ll_lookup_result *results, bool *unsure, struct ll_error *err)
{
	struct query_state *state = xcalloc(n ? n : 1, sizeof(*state));
	struct ll_finder **finders = xcalloc(in->nr_parts, sizeof(*finders));
	struct lookup_ctx lc = { .in = in, .queries = queries, .n = n, .state = state };
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	bool use_index = index_answers(queries, n);
	struct ll_name_index *ix = use_index ? reader_index(in) : NULL;
	/*
	 * With a member filter (--audit), warm only where the index records
	 * what the filter said of every definition (warm_state()): answered
	 * from it otherwise, every struct was built (~8,000 of the 6.12
	 * image: warm was slower than cold).
	 */
	bool warm = ix != NULL, capture = false;
	struct interned strings = { 0 };	/* of the definitions captured */
	size_t *order = NULL;	/* warm: queries by their pick's DIE */
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		names[i] = queries[i].name;
		memset(&results[i], 0, sizeof(results[i]));
	}
	if (!in->member_budget)
		in->member_budget = reader_member_budget(in);
	reader_index_queries(&lc);
	/* Every query answered by the index: no scan, only the picks' units read. */
	for (size_t i = 0; i < n && warm; i++)
		warm = warm_state(in, ix, &queries[i], &state[i]);
	/* An index is read only for an input of one part (reader_index_sound()). */
	if (warm)
		finders[0] = ll_finder_from_index(&in->parts[0].src, ix);
	warm = warm && finders[0];
	if (warm) {
		/* Only the built units (mapped from the file) and one made-up header get touched. */
		order = warm_order(queries, state, n, finders[0]);
	} else {
		for (size_t i = 0; i < n; i++) {
			reader_query_state_release(&state[i]);
			memset(&state[i], 0, sizeof(state[i]));
			state[i].capture = use_index && wants_capture(in, ix, &queries[i]) ?
					   &strings : NULL;
			capture |= state[i].capture != NULL;
		}
		/* The name index covers the file's own .debug_info only. */
		for (size_t p = 0; p < in->nr_parts && !rc; p++) {
			lc.part = p;
			lc.finder = &finders[p];
			in->parts[p].src.distinct = !wants_every_copy(queries, n);
			in->parts[p].src.lines = in->parts[p].lines;
			in->parts[p].src.contains_word = in->opts.contains_word;
			in->parts[p].src.member_filter = in->opts.member_filter;
			in->parts[p].src.prescan = &in->parts[p].prescan;
			rc = ll_finder_scan(&in->parts[p].src, p ? NULL : ix, names, n, reader_on_named_die,
					    &lc, &in->opts.progress, &finders[p], err);
			in->parts[p].src.prescan = NULL;
			if (!rc && lc.prepare_rc) {
				*err = lc.prepare_err;
				rc = -1;
			}
		}
	}
	/*
	 * Cold, a few structs each found once: built in DIE order behind the
	 * one made-up unit header, as warm. A late struct of the 6.12 image
	 * otherwise had ~3,000 real headers written, a fresh page and a
	 * fault each: over a third of the lookup.
	 */
	if (rc == 0 && !order && in->nr_parts == 1 && n <= COLD_SKIP_MAX &&
	    every_query_builds(queries, state, n))
		order = warm_order(queries, state, n, finders[0]);
	else if (rc == 0 && !order && in->nr_parts == 1)
		skip_for_few_builds(in, queries, state, n, finders[0]);
	/* With thousands of queries (--list, --audit) this is the long part. */
	if (rc == 0)
		rc = reader_resolve_queries(in, queries, state, finders, results, n, order, err);
	*unsure = warm && contains_unsure(queries, results, n, rc);
	free(order);
	/* Its type facts are by DIE address: good only while this lookup's handles live. */
	if (in->build_memo) {
		reader_build_memo_release(in->build_memo);
		free(in->build_memo);
		in->build_memo = NULL;
	}
	if (!rc && use_index && (capture || in->seed.entries))
		update_index(in, &lc);
	else if (!rc && warm)
		fill_index(in, queries, state, n);
	/* A listing's prescan serves the one lookup after it. */
	for (size_t p = 0; p < in->nr_parts; p++)
		ll_finder_prescan_release(&in->parts[p].prescan);
	for (size_t i = 0; i < n; i++)
		reader_query_state_release(&state[i]);
	reader_interned_release(&strings);
	for (size_t p = 0; p < in->nr_parts; p++)
		ll_finder_free(finders[p]);
	free(finders);
	free(state);
	free(names);
	ll_slots_release(&lc.first);
	free(lc.next);
	free(lc.named);
	reader_unit_files_release(&lc.files);
	reader_file_memo_release(&lc.seen_files);
	return rc;
}

/* The lookup again, without the index (RESULTS emptied first). */
static int lookup_without_index(struct ll_dwarf_input *in, const struct ll_query *queries,
				size_t n, struct ll_lookup_result *results, struct ll_error *err)
{
	bool unsure;

	for (size_t i = 0; i < n; i++) {
		ll_struct_free(results[i].layout);
		free(results[i].detail);
	}
	atomic_store(&in->index_forged, false);
	ll_name_index_release(&in->index);
	in->index_state = -1;
	return lookup_once(in, queries, n, results, &unsure, err);	/* cold: never unsure */
}

/*
 * An index whose entity check failed is ignored, not obeyed and not fatal:
 * the lookup runs again as without one, after one note. A warm
 * --contains unsure of its answer (contains_unsure()) runs again cold,
 * without a note: the index was sound.
 */
int reader_lookup(void *reader, const struct ll_query *queries, size_t n,
		  struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_dwarf_input *in = reader;
	bool unsure;
	int rc = lookup_once(in, queries, n, results, &unsure, err);

	if (rc && atomic_load(&in->index_forged) && in->index_state == 1) {
		ll_notes_addf(in->opts.notes, "%s; ignoring the name index (remove it, or run with "
			      "--no-cache)", err->msg);
		rc = lookup_without_index(in, queries, n, results, err);
	} else if (unsure && in->index_state == 1) {
		rc = lookup_without_index(in, queries, n, results, err);
	}
	return rc;
}
