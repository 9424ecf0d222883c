// SPDX-License-Identifier: GPL-2.0-or-later
/* The scan on several threads: units walked into chunks, workers, their results merged. */
#include "input/dwarf/raw/scanP.h"

/* The work [first, last): units, or with w->only indexes into it. */
static void scan_units(struct worker *w, size_t first, size_t last)
{
	for (size_t k = first; k < last; k++) {
		size_t i = w->only ? w->only[k] : k;
		const struct ll_scan_unit *u = &w->units[i];

		/* Units come in ascending order: past the first definition, so are the rest. */
		if (atomic_load_explicit(w->stop, memory_order_relaxed) ||
		    i > atomic_load_explicit(w->first_defined, memory_order_relaxed))
			break;
		w->unit = (uint32_t)i;

		/* Every thread counts; the caller's thread (worker 0) reports. */
		size_t done = atomic_fetch_add_explicit(w->units_done, 1, memory_order_relaxed) + 1;

		if (w->report)
			ll_progress_report(w->in->progress, "units", done, w->nr_units);

		if (!w->targets->whole_units && w->targets->nr_list == 0 &&
		    !scan_unit_may_hold_inline(w, i))
			continue;
		if (scan_prefix(w, i, u))
			continue;
		/* An address size libdw reads otherwise: its walk's unit (scan_address_size_ok()). */
		bool loaded = scan_load_unit(w, u);

		if (w->guessed && !(loaded && scan_settle_guessed(w, i))) {
			atomic_store_explicit(w->wrong_guess, true, memory_order_relaxed);
			atomic_store_explicit(w->stop, true, memory_order_relaxed);
			break;
		}
		if (!loaded || !scan_address_size_ok(u)) {
			scan_push_fallback(w, u->offset);
			continue;
		}
		const unsigned char *p = w->ub + (u->first_die - w->ub_off);
		size_t n = u->end - u->first_die, inline_max = SIZE_MAX, end;
		enum filter_verdict v = scan_filter_unit(w, i, p, n, &inline_max, &end);

		if (v == UNIT_SKIP)
			continue;
		if (!scan_load_abbrevs(w->in, u, &w->abbrevs)) {
			scan_push_fallback(w, u->offset);
			continue;
		}
		w->nr_tables_read++;
		w->scopes |= w->abbrevs.scopes;
		if (v == UNIT_ASK_ABBREVS && !(end = scan_may_contain(w, p, n, inline_max)))
			continue;
		/*
		 * A .debug_str past 4 GiB has offsets the filter does not list;
		 * names in strx forms have no offset bytes to see: walk it all.
		 */
		if (w->in->str_size > UINT32_MAX || w->abbrevs.names_hidden)
			end = SIZE_MAX;
		size_t before = w->nr_hits, vars_before = w->nr_vars;
		struct unit_lines ul = { 0 };

		if (!scan_unit(w, u, end)) {
			scan_push_fallback(w, u->offset);
		} else {
			scan_variable_files(w, u, &ul, vars_before);
			if (w->in->distinct)
				scan_keep_distinct(w, u, &ul, before);
			else
				scan_note_first_definition(w, before);
		}
		scan_unit_lines_release(&ul);
	}
}

/*
 * Chunks in ascending order, as they come: each worker meets its units in
 * .debug_info order, so its first of each distinct definition (scan_keep_distinct())
 * is the first anywhere unless another worker met an earlier one.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t c;

	while ((c = atomic_fetch_add_explicit(w->next_chunk, 1, memory_order_relaxed)) <
	       w->nr_chunks) {
		struct chunk *ch = &w->chunks[c];

		ch->worker = w->id;
		ch->hits = w->nr_hits;
		ch->posts = w->nr_posts;
		ch->fallback = w->nr_fallback;
		ch->vars = w->nr_vars;
		ch->words = w->nr_words;
		scan_units(w, ch->first, ch->last);
		ch->nr_vars = w->nr_vars - ch->vars;
		ch->nr_words = w->nr_words - ch->words;
		ch->nr_hits = w->nr_hits - ch->hits;
		ch->nr_posts = w->nr_posts - ch->posts;
		ch->nr_fallback = w->nr_fallback - ch->fallback;
	}
	return NULL;
}

/*
 * The work in chunks of about equal bytes (of equal unit counts, for a
 * name index's few units): *NR of them.
 */
static struct chunk *make_chunks(const struct ll_scan_input *in, const struct ll_scan_unit *units,
				 const uint32_t *only, size_t nr_work, unsigned threads, size_t *nr)
{
	size_t want = (size_t)threads * CHUNKS_PER_THREAD, n = 0;
	struct chunk *chunks;

	if (want > nr_work)
		want = nr_work ? nr_work : 1;
	chunks = xcalloc(want, sizeof(*chunks));
	for (size_t c = 0, next = 0; c < want && next < nr_work; c++) {
		chunks[c].first = next;
		if (only) {
			next = nr_work / want * (c + 1);
			if (c + 1 == want)
				next = nr_work;
		} else {
			uint64_t goal = in->info_size / want * (c + 1);

			do
				next++;
			while (next < nr_work && (c + 1 == want || units[next].offset < goal));
		}
		chunks[c].last = next;
		n++;
	}
	*nr = n;
	return chunks;
}

static void *walk_range(void *arg)
{
	struct unit_walk *wk = arg;
	const struct ll_scan_input *in = wk->in;

	uint64_t off = wk->from;

	wk->ok = false;
	while (off < wk->to) {
		struct ll_scan_unit u;
		unsigned char hdr[sizeof(((struct ll_scan_unit *)0)->head) + UNIT_HEAD];
		const unsigned char *h = in->info ? in->info + off : hdr;
		size_t want = wk->keep_dies ? sizeof(hdr) : sizeof(u.head);
		size_t avail = (size_t)(in->info_size - off < want ? in->info_size - off : want);

		if (in->use_pread &&
		    ll_pread_all(in->fd, hdr, avail, in->info_file_offset + off) != avail)
			return NULL;
		if (!scan_read_unit(h, avail < sizeof(u.head) ? avail : sizeof(u.head), off, in->info_size,
			       in->abbrev_size, &u))
			return NULL;
		if (wk->nr == wk->cap) {
			wk->cap = wk->cap ? wk->cap * 2 : 1024;
			wk->units = xrealloc(wk->units, wk->cap * sizeof(*wk->units));
			if (wk->keep_dies)
				wk->dies = xrealloc(wk->dies, wk->cap * sizeof(*wk->dies));
		}
		if (wk->keep_dies) {
			size_t skip = (size_t)(u.first_die - u.offset), len = avail - skip;

			if (len > UNIT_HEAD)
				len = UNIT_HEAD;
			if (len > u.end - u.first_die)
				len = (size_t)(u.end - u.first_die);
			memcpy(wk->dies[wk->nr].bytes, h + skip, len);
			wk->dies[wk->nr].len = len;
		}
		wk->units[wk->nr++] = u;
		off = u.end;
	}
	wk->ok = off == wk->to;
	return NULL;
}

/*
 * Where a second thread may start walking unit headers: the .debug_info
 * offset named by a .debug_aranges set nearest the middle, or 0. Only a
 * guess: it counts only if the first half's walk ends exactly there.
 */
/*
 * The .debug_info offset the .debug_aranges set at C names, C moved past
 * the set; false at the end or on a set that cannot be read.
 */
static bool next_aranges_set(struct ll_cursor *c, uint64_t *info)
{
	uint64_t len = ll_fixed(c, 4);
	unsigned offset_size = 4;

	if (len == 0xffffffff) {
		len = ll_fixed(c, 8);
		offset_size = 8;
	}
	if (c->bad || len < 2 + (uint64_t)offset_size || len > (uint64_t)(c->end - c->p))
		return false;
	struct ll_cursor set = { c->p, c->p + len, false };

	ll_fixed(&set, 2);	/* version */
	*info = ll_fixed(&set, offset_size);
	c->p += len;
	return !set.bad;
}

static uint64_t middle_unit(const struct ll_scan_input *in)
{
	uint64_t goal = in->info_size / 2, best = 0, info;

	if (!in->aranges)
		return 0;
	struct ll_cursor c = { in->aranges, in->aranges + in->aranges_size, false };

	while (c.p < c.end && next_aranges_set(&c, &info))
		if (info > 0 && info < in->info_size &&
		    (best == 0 || (info > goal ? info - goal : goal - info) <
				  (best > goal ? best - goal : goal - best)))
			best = info;
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Ranges whose headers are read before a guess is trusted (guess_probes_fit()). */
#define GUESS_PROBES 16

/*
 * Whether the headers of a few of the guessed UNITS, evenly spaced, the
 * first and the last among them, each span exactly their range. Only
 * speed depends on it: a wrong guess found by the scan costs the scan
 * done until then, and units aranges does not name come in runs (a
 * library built by another compiler), which a probe meets early.
 */
static bool guess_probes_fit(const struct ll_scan_input *in, const struct ll_scan_unit *units,
			     size_t n)
{
	size_t probes = n < GUESS_PROBES ? n : GUESS_PROBES;

	for (size_t k = 0; k < probes; k++) {
		size_t i = probes > 1 ? k * (n - 1) / (probes - 1) : 0;
		unsigned char hdr[sizeof(units->head)];
		struct ll_scan_unit read;
		size_t avail = (size_t)(units[i].end - units[i].offset);

		if (avail > sizeof(hdr))
			avail = sizeof(hdr);
		if (ll_pread_all(in->fd, hdr, avail, in->info_file_offset + units[i].offset) !=
		    avail ||
		    !scan_read_unit(hdr, avail, units[i].offset, in->info_size, in->abbrev_size, &read) ||
		    read.end != units[i].end)
			return false;
	}
	return true;
}

/*
 * The units as .debug_aranges names them, without reading a header: one
 * range from each unit offset it names to the next (gcc names every unit
 * of a vmlinux, 2,401 in 6.12). Their headers are read with their bytes
 * (scan_settle_guessed(), version 0 until then); a unit it does not name makes
 * a range two units long, and the scan then walks the headers after all.
 * Saves a pread per unit of a cold lookup (bench/RESULTS.md).
 */
bool scan_units_from_aranges(const struct ll_scan_input *in, struct unit_walk *out)
{
	uint64_t *offs = NULL, info = 0;
	size_t n = 0;

	if (!in->aranges)
		return false;
	struct ll_cursor c = { in->aranges, in->aranges + in->aranges_size, false };

	bool read = true;

	while (read && c.p < c.end) {
		read = next_aranges_set(&c, &info) && info < in->info_size;
		offs = xgrow(offs, n, sizeof(*offs));
		offs[n++] = info;
	}
	/* Every set read, or no guess. */
	if (!read || n == 0) {
		free(offs);
		return false;
	}
	qsort(offs, n, sizeof(*offs), cmp_u64);
	*out = (struct unit_walk){ .in = in, .ok = true };
	out->units = xcalloc(n, sizeof(*out->units));
	for (size_t i = 0; i < n; i++) {
		if (i && offs[i] == offs[i - 1])
			continue;
		out->units[out->nr].offset = offs[i];
		if (out->nr)
			out->units[out->nr - 1].end = offs[i];
		out->nr++;
	}
	out->units[out->nr - 1].end = in->info_size;
	free(offs);
	if (out->units[0].offset == 0 &&
	    (in->unprobed_guess || guess_probes_fit(in, out->units, out->nr)))
		return true;
	free(out->units);
	return false;
}

/*
 * Every unit header, in order. Reading them is one pread each, a few ms on
 * a vmlinux: with two threads and a trustworthy middle, each reads half.
 */
bool scan_walk_units(const struct ll_scan_input *in, bool keep_dies, unsigned threads,
		     struct unit_walk *out)
{
	struct unit_walk half[2];
	uint64_t mid;
	pthread_t tid;

	/* An earlier scan read them; the unit DIEs' bytes it did not keep. */
	if (in->units && !keep_dies) {
		*out = (struct unit_walk){ .in = in, .nr = in->nr_units, .ok = true };
		out->units = xmalloc((in->nr_units ? in->nr_units : 1) * sizeof(*out->units));
		memcpy(out->units, in->units, in->nr_units * sizeof(*out->units));
		return true;
	}
	mid = threads > 1 ? middle_unit(in) : 0;
	if (mid) {
		half[0] = (struct unit_walk){ .in = in, .from = 0, .to = mid, .keep_dies = keep_dies };
		half[1] = (struct unit_walk){ .in = in, .from = mid, .to = in->info_size,
					      .keep_dies = keep_dies };
		bool threaded = pthread_create(&tid, NULL, walk_range, &half[1]) == 0;

		walk_range(&half[0]);
		if (threaded)
			pthread_join(tid, NULL);
		else
			walk_range(&half[1]);
		if (half[0].ok && half[1].ok) {
			*out = half[0];
			if (half[1].nr) {
				out->units = xrealloc(out->units, (out->nr + half[1].nr) *
							  sizeof(*out->units));
				memcpy(out->units + out->nr, half[1].units,
				       half[1].nr * sizeof(*out->units));
				if (keep_dies) {
					out->dies = xrealloc(out->dies, (out->nr + half[1].nr) *
								sizeof(*out->dies));
					memcpy(out->dies + out->nr, half[1].dies,
					       half[1].nr * sizeof(*out->dies));
				}
				out->nr += half[1].nr;
			}
			free(half[1].units);
			free(half[1].dies);
			return true;
		}
		for (int i = 0; i < 2; i++) {
			free(half[i].units);
			free(half[i].dies);
		}
	}
	/* One thread, or the middle was no unit start: walk it all in order. */
	*out = (struct unit_walk){ .in = in, .from = 0, .to = in->info_size, .keep_dies = keep_dies };
	walk_range(out);
	if (out->ok)
		return true;
	free(out->units);
	free(out->dies);
	return false;
}

/*
 * The words of chunk CH's hits (just copied to the end of OUT's) into
 * OUT's: a hit's words are its worker's from the chunk's start on.
 */
static void merge_words(struct ll_scan_result *out, const struct worker *cw,
			const struct chunk *ch)
{
	struct ll_scan_hit *h = out->hits + out->nr_hits;
	size_t base = out->nr_words;

	if (!ch->nr_words)
		return;
	memcpy(out->words + base, cw->words + ch->words, ch->nr_words * sizeof(*out->words));
	out->nr_words += ch->nr_words;
	for (size_t i = 0; i < ch->nr_hits; i++)
		if (h[i].words_known)
			h[i].words_at = (uint32_t)(h[i].words_at - ch->words + base);
}

/*
 * The workers' results into OUT: names thread by thread; hits, postings
 * and fallback units chunk by chunk, so in unit order. A captured hit's
 * query and a posting's name (collect_all) named their thread's names:
 * renumbered into OUT's.
 */
static void merge_results(struct ll_scan_result *out, const struct worker *w, unsigned threads,
			  const struct chunk *chunks, size_t nr_chunks, bool collect_all)
{
	size_t nr_hits = 0, nr_posts = 0, nr_fallback = 0, nr_vars = 0, nr_words = 0;
	size_t *names_base = xcalloc(threads, sizeof(*names_base));

	for (unsigned t = 0; t < threads; t++) {
		names_base[t] = out->nr_names;
		if (w[t].nr_names) {
			out->names = xrealloc(out->names,
					      (out->nr_names + w[t].nr_names) * sizeof(*out->names));
			memcpy(out->names + out->nr_names, w[t].names,
			       w[t].nr_names * sizeof(*out->names));
			out->nr_names += w[t].nr_names;
		}
		nr_hits += w[t].nr_hits;
		nr_posts += w[t].nr_posts;
		nr_fallback += w[t].nr_fallback;
		nr_vars += w[t].nr_vars;
		nr_words += w[t].nr_words;
	}
	if (collect_all) {
		out->name_strp = xcalloc(out->nr_names ? out->nr_names : 1,
					 sizeof(*out->name_strp));
		for (unsigned t = 0; t < threads; t++)
			for (size_t i = 0; i < w[t].nr_seen; i++)
				if (w[t].seen[i].id < w[t].nr_names)
					out->name_strp[names_base[t] + w[t].seen[i].id] = true;
	}
	out->variables = nr_vars ? xmalloc(nr_vars * sizeof(*out->variables)) : NULL;
	out->hits = xmalloc((nr_hits + 1) * sizeof(*out->hits));
	out->words = nr_words ? xmalloc(nr_words * sizeof(*out->words)) : NULL;
	out->fallback_units = xmalloc((nr_fallback + 1) * sizeof(*out->fallback_units));
	out->postings = nr_posts ? xmalloc(nr_posts * sizeof(*out->postings)) : NULL;
	for (size_t c = 0; c < nr_chunks; c++) {
		const struct chunk *ch = &chunks[c];
		const struct worker *cw = &w[ch->worker];

		if (ch->nr_hits)
			memcpy(out->hits + out->nr_hits, cw->hits + ch->hits,
			       ch->nr_hits * sizeof(*out->hits));
		for (size_t i = 0; collect_all && i < ch->nr_hits; i++)
			out->hits[out->nr_hits + i].query += (uint32_t)names_base[ch->worker];
		merge_words(out, cw, ch);
		out->nr_hits += ch->nr_hits;
		for (size_t i = 0; i < ch->nr_posts; i++)
			out->postings[out->nr_postings++] = (struct ll_scan_posting){
				cw->posts[ch->posts + i].name + (uint32_t)names_base[ch->worker],
				cw->posts[ch->posts + i].unit };
		if (ch->nr_fallback)
			memcpy(out->fallback_units + out->nr_fallback, cw->fallback + ch->fallback,
			       ch->nr_fallback * sizeof(*out->fallback_units));
		out->nr_fallback += ch->nr_fallback;
		if (ch->nr_vars)
			memcpy(out->variables + out->nr_variables, cw->vars + ch->vars,
			       ch->nr_vars * sizeof(*out->variables));
		out->nr_variables += ch->nr_vars;
	}
	free(names_base);
}

/* A worker's own results, when the scan is given up (a wrong guess). */
static void discard_worker(struct worker *w)
{
	for (size_t i = 0; i < w->nr_names; i++)
		free(w->names[i]);
	w->nr_names = 0;
	for (size_t i = 0; i < w->nr_comp_dirs; i++)
		free(w->comp_dirs[i]);
	w->nr_comp_dirs = 0;
	if (w->vars)
		scan_drop_variable_strings(w->vars, w->nr_vars);
}

/* A worker's buffers, once its results were merged or discarded. */
static void release_worker(struct worker *w)
{
	ll_free_all(w->hits, w->posts, w->fallback, w->names, w->comp_dirs, w->words,
		    w->chains, w->needs);
	scan_distinct_release(&w->distinct);
	scan_abbrev_table_release(&w->abbrevs);
	free(w->buf);
	free(w->seen);
	ll_slots_release(&w->seen_at);
	free(w->name_memo);
	free(w->members_memo.v);
	ll_slots_release(&w->members_memo.at);
	free(w->vars);
	for (size_t i = 0; w->spelled && i < SPELLED_SLOTS; i++)
		free(w->spelled[i].text);
	free(w->spelled);
}

/*
 * The scan of WALK's units (GUESSED: from scan_units_from_aranges()) into OUT,
 * which takes the units. 1: the guess was wrong, and OUT and the units
 * are as before.
 */
int scan_walked(const struct ll_scan_input *in, struct targets *targets,
		struct unit_walk *walk, bool guessed, unsigned threads,
		struct ll_scan_result *out)
{
	struct ll_scan_unit *units = walk->units;
	size_t nr_units = walk->nr;
	struct unit_die_head *dies = walk->dies;
	/* The earlier scan's verdicts, or this scan's own, kept in the result. */
	uint8_t *verdicts = in->verdicts && in->units && in->nr_units == nr_units ?
			    in->verdicts : xcalloc(nr_units ? nr_units : 1, 1);

	/* A name index's units, if they were listed for these units. */
	const uint32_t *only = in->only && in->only_nr_units == nr_units ? in->only : NULL;
	size_t nr_work = only ? in->nr_only : nr_units;

	if (threads < 1)
		threads = 1;
	if (threads > nr_work)
		threads = nr_work ? (unsigned)nr_work : 1;
	struct worker *w = xcalloc(threads, sizeof(*w));
	atomic_size_t units_done = 0, next_chunk = 0;
	atomic_bool stop = false, wrong_guess = false;
	atomic_size_t first_defined = SIZE_MAX;
	pthread_t *tids = xcalloc(threads, sizeof(*tids));
	size_t nr_chunks;
	struct chunk *chunks = make_chunks(in, units, only, nr_work, threads, &nr_chunks);

	size_t largest = 0;

	for (size_t k = 0; in->use_pread && k < nr_work; k++) {
		const struct ll_scan_unit *u = &units[only ? only[k] : k];

		if (u->end - u->offset > largest && u->end - u->offset <= SIZE_MAX / 2)
			largest = (size_t)(u->end - u->offset);
	}
	for (unsigned t = 0; t < threads; t++) {
		w[t].in = in;
		w[t].id = t;
		w[t].largest_unit = largest;
		w[t].chunks = chunks;
		w[t].nr_chunks = nr_chunks;
		w[t].next_chunk = &next_chunk;
		w[t].units_done = &units_done;
		w[t].stop = &stop;
		w[t].first_defined = &first_defined;
		w[t].nr_units = nr_units;
		w[t].report = t == 0;
		w[t].targets = targets;
		w[t].units = units;
		w[t].guessed = guessed ? units : NULL;
		w[t].wrong_guess = &wrong_guess;
		w[t].verdicts = verdicts;
		w[t].dies = dies;
		w[t].only = only;
		if (only)
			w[t].nr_units = nr_work;
	}
	for (unsigned t = 1; t < threads; t++)
		if (pthread_create(&tids[t], NULL, worker_main, &w[t]) != 0)
			worker_main(&w[t]), tids[t] = 0;
	worker_main(&w[0]);
	for (unsigned t = 1; t < threads; t++)
		if (tids[t])
			pthread_join(tids[t], NULL);

	/* Every guessed unit read, each one unit: else walk the headers after all. */
	for (size_t i = 0; guessed && !atomic_load(&wrong_guess) && i < nr_units; i++)
		if (units[i].version == 0)
			atomic_store(&wrong_guess, true);
	if (atomic_load(&wrong_guess)) {
		for (unsigned t = 0; t < threads; t++) {
			discard_worker(&w[t]);
			release_worker(&w[t]);
		}
		if (verdicts != in->verdicts)
			free(verdicts);
		free(chunks);
		free(w);
		free(tids);
		return 1;
	}
	if (verdicts != in->verdicts)
		out->verdicts = verdicts;
	merge_results(out, w, threads, chunks, nr_chunks, targets->collect_all);
	for (unsigned t = 0; t < threads; t++) {
		for (size_t i = 0; i < w[t].nr_comp_dirs; i++) {
			out->comp_dirs = xgrow(out->comp_dirs, out->nr_comp_dirs,
					       sizeof(*out->comp_dirs));
			out->comp_dirs[out->nr_comp_dirs++] = w[t].comp_dirs[i];
		}
		release_worker(&w[t]);
	}
	free(chunks);
	size_t tables_read = 0;

	for (unsigned t = 0; t < threads; t++) {
		tables_read += w[t].nr_tables_read;
		out->scopes |= w[t].scopes;
	}
	out->every_table_read = tables_read == nr_units;
	out->nr_units = nr_units;
	out->units = units;
	free(w);
	free(tids);
	free(dies);
	return 0;
}
