// SPDX-License-Identifier: GPL-2.0-or-later
/* The DWARF reader's operations (reader_impl.h); readerP.h says how its parts share the work. */
#include "input/dwarf/readerP.h"

/* The variables PART's listing found, kept past the lookup that takes its prescan. */
static void keep_variables(struct dwarf_part *part)
{
	ll_scan_variables_free(part->variables, part->nr_variables);
	part->variables = part->prescan.variables;
	part->nr_variables = part->prescan.nr_variables;
	part->variables_known = part->prescan.ready;
	part->prescan.variables = NULL;
	part->prescan.nr_variables = 0;
}

/*
 * Whether a warm --audit of LOOKUP_GLOB can take its names and
 * definitions from IX: it records what the member filter said of every
 * definition of every name the glob matches.
 */
static bool index_audits(const struct ll_name_index *ix, const char *lookup_glob)
{
	for (uint64_t k = 0; k < ix->nr_names; k++) {
		const char *name = ix->names + ix->name_off[k];

		if ((!lookup_glob || ll_glob_component(lookup_glob, name, strlen(name))) &&
		    !reader_index_name_filtered(ix, (long)k))
			return false;
	}
	return true;
}

/*
 * The global variables the caller asks for next (--audit), for a listing
 * the index answers: the ones kept beside the index (vars_cache.h), or
 * read by a scan of the variables alone (ll_finder_variables()), where
 * libdw's walk of every unit took longer than the full scan, and then
 * kept. Without either, the globals' lookup walks with libdw.
 */
static void index_variables(struct ll_dwarf_input *in, const struct ll_name_index *ix)
{
	struct dwarf_part *part = &in->parts[0];
	struct ll_index_key key;
	char *note = NULL;

	ll_scan_variables_free(part->variables, part->nr_variables);
	part->variables = NULL;
	part->nr_variables = 0;
	reader_index_key(in, &key);
	key.info_size = ix->info_size;
	key.nr_units = ix->nr_units;
	int kept = ll_vars_cache_load(&key, &part->variables, &part->nr_variables, &note);

	if (note)
		ll_notes_addf(in->opts.notes, "%s", note);
	free(note);
	part->variables_known = kept == 0;
	if (part->variables_known)
		return;
	part->src.lines = part->lines;
	part->variables_known = ll_finder_variables(&part->src, ix->units, ix->nr_units,
						    &in->opts.progress, &part->variables,
						    &part->nr_variables);
	if (part->variables_known)
		ll_vars_cache_write(&key, part->variables, part->nr_variables);
}

static int dwarf_list(void *state, const char *lookup_glob, char ***names, size_t *n,
		      struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct ll_name_index *ix = reader_index(in);
	struct ll_index_key key;

	/*
	 * The index holds every name a listing finds, sorted, each once. With
	 * the global variables the caller asks for next (--audit), only when
	 * it records what --audit's member filter said of each definition
	 * the lookup after will ask about: then its definitions are the
	 * index's, and only the variables need a scan (one of them alone).
	 * Otherwise the listing's scan reads them with the definitions.
	 */
	if (ix && in->opts.globals_next && in->opts.member_filter && index_audits(ix, lookup_glob))
		index_variables(in, ix);
	if (ix && (!in->opts.globals_next || in->parts[0].variables_known)) {
		*n = ix->nr_names;
		*names = xcalloc(*n ? *n : 1, sizeof(**names));
		for (size_t i = 0; i < *n; i++)
			(*names)[i] = xstrdup(ix->names + ix->name_off[i]);
		return 0;
	}
	reader_index_key(in, &key);
	ll_finder_seed_release(&in->seed);
	*names = NULL;
	*n = 0;
	for (size_t p = 0; p < in->nr_parts; p++) {
		char **more = NULL;
		size_t nr_more = 0;

		/* The index the lookup after writes: seeded by the one part it covers. */
		bool seed = !ix && p == 0 && reader_index_sound(in) && ll_name_index_writable(&key);

		/* Read as the lookup of what is listed will want it (reader_lookup()). */
		in->parts[p].src.distinct = true;
		in->parts[p].src.lines = in->parts[p].lines;
		in->parts[p].src.variables = in->opts.globals_next;
		in->parts[p].src.member_filter = in->opts.member_filter;
		in->parts[p].src.contains_word = in->opts.contains_word;
		if (ll_finder_list(&in->parts[p].src, seed ? &in->seed : NULL, lookup_glob,
				   &in->parts[p].prescan, &more, &nr_more, &in->opts.progress, err)) {
			ll_finder_seed_release(&in->seed);
			/* What it had listed before failing is ours to free, and so is ours. */
			ll_strv_free(more, nr_more);
			ll_strv_free(*names, *n);
			*names = NULL;
			*n = 0;
			return -1;
		}
		keep_variables(&in->parts[p]);
		for (size_t i = 0; i < nr_more; i++) {
			*names = xgrow(*names, *n, sizeof(**names));
			(*names)[(*n)++] = more[i];
		}
		free(more);
	}
	/* Each part's names are sorted, each once: only several need merging. */
	if (in->nr_parts > 1)
		ll_names_sort_unique(*names, n);
	return 0;
}

/* ---- the reader's operations (reader_impl.h) --------------------------- */

static int dwarf_open(const char *path, bool raw, const struct ll_input_options *opts,
		     void **state, struct ll_error *err)
{
	struct ll_dwarf_input *in = NULL;
	int rc;

	(void)raw;	/* DWARF lives in ELF only */
	rc = ll_dwarf_input_open(path, opts, &in, err);
	*state = in;
	return rc;
}

/*
 * --access: the evidence the cache keeps for this build-id, and the
 * analyzer's for the rest, which the cache then keeps too.
 */
static int dwarf_access(void *state, const struct ll_struct *const *structs, size_t n,
			bool cached_only, struct ll_access_evidence **out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct ll_access_target *t = xcalloc(n ? n : 1, sizeof(*t)), *missing;
	struct ll_access_evidence **fresh;
	size_t hits, nr_missing = 0, k = 0;
	char *note = NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		t[i] = (struct ll_access_target){ structs[i]->name, structs[i]->kind == LL_UNION,
						  structs[i]->size };
	hits = ll_access_cache_load(in->opts.cache_dir, in->build_id, t, n, out, &note);
	if (note)
		ll_notes_addf(in->opts.notes, "%s", note);
	free(note);
	missing = xcalloc(n ? n : 1, sizeof(*missing));
	fresh = xcalloc(n ? n : 1, sizeof(*fresh));
	for (size_t i = 0; i < n; i++)
		if (!out[i])
			missing[nr_missing++] = t[i];
	if (hits < n && !cached_only)
		rc = ll_access_analyze(in->dwarf, in->path, missing, nr_missing, fresh, err);
	for (size_t i = 0; i < n; i++)
		if (!out[i])
			out[i] = fresh[k++];
	if (rc == 0 && nr_missing && !cached_only)
		ll_access_cache_store(in->opts.cache_dir, in->build_id, fresh, nr_missing);
	if (rc) {
		for (size_t i = 0; i < n; i++) {
			ll_access_evidence_free(out[i]);
			out[i] = NULL;
		}
	}
	free(fresh);
	free(missing);
	free(t);
	return rc;
}

static int dwarf_access_all(void *state, struct ll_access_image *out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;

	if (ll_access_analyze_all(in->dwarf, in->path, out, err))
		return -1;
	ll_access_image_sort(out);
	return 0;
}

const struct ll_input_ops ll_dwarf_input_ops = {
	.name = "DWARF",
	.open = dwarf_open,
	.close = reader_close,
	.build_id = reader_build_id,
	.arch_cacheline = reader_arch_cacheline,
	.lookup = reader_lookup,
	.list = dwarf_list,
	.variables = reader_variables,
	.variables_alone = reader_variables_alone,
	.access = dwarf_access,
	.access_all = dwarf_access_all,
};
