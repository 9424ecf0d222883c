// SPDX-License-Identifier: GPL-2.0-or-later
/* The raw top-level DIE scanner's entry points; see scan.h for what it promises. */
#include "input/dwarf/raw/scanP.h"

/*
 * Map .debug_abbrev's pages (the file's mapping, in the page cache):
 * every unit's producer verdict walks its unit's table, and the first
 * touch of each page is costly on these VMs, one page per unit, in the
 * scan's two threads. Done on a thread of its own while this one looks
 * for the names in .debug_str. Best effort: an older kernel refuses.
 */
static void *populate_abbrev(void *arg)
{
	const struct ll_scan_input *in = arg;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = (uintptr_t)in->abbrev / page * page;
	uintptr_t to = (uintptr_t)(in->abbrev + in->abbrev_size);

#ifdef MADV_POPULATE_READ
	(void)madvise((void *)from, to - from, MADV_POPULATE_READ);
#else
	(void)from;
	(void)to;
#endif
	return NULL;
}

/*
 * IN's .debug_str read whole from its file into a block of its own (the
 * caller frees it), and *COPY as IN reading names there; NULL, *COPY
 * untouched, when IN does not ask for it or the file cannot be read.
 */
static unsigned char *read_str_whole(const struct ll_scan_input *in, struct ll_scan_input *copy)
{
	unsigned char *str;
	size_t cap;

	if (!in->str_read_whole || !in->str_in_file || in->str_size == 0)
		return NULL;
	str = ll_huge_alloc(in->str_size, &cap);
	if (!str)
		str = xmalloc(in->str_size);
	if (ll_pread_all(in->str_fd, str, in->str_size, in->str_file_offset) != in->str_size) {
		free(str);
		return NULL;	/* the mapping, as without it */
	}
	*copy = *in;
	copy->str = str;
	copy->str_in_file = false;
	return str;
}

int ll_scan(const struct ll_scan_input *in, const char *const *names, size_t n,
	    unsigned threads, struct ll_scan_result *out)
{
	struct targets targets;
	const uint16_t probe = 1;
	pthread_t populating;
	bool populate;
	struct ll_scan_input with_str;
	unsigned char *str;

	memset(out, 0, sizeof(*out));
	/* Values are read little endian; a big-endian image takes the libdw walk. */
	if (*(const unsigned char *)&probe != 1)
		return -1;
	str = read_str_whole(in, &with_str);
	if (str)
		in = &with_str;
	populate = threads > 1 && in->abbrev_size &&
		   pthread_create(&populating, NULL, populate_abbrev, (void *)in) == 0;
	scan_build_targets(in, names, n, &targets);
	if (populate)
		pthread_join(populating, NULL);
	targets.collect_all = names == NULL;
	targets.whole_units = targets.collect_all || in->variables;
	scan_choose_anchors(in, &targets);
	/*
	 * A name with no .debug_str offset is looked for by each unit's
	 * producer: read the unit DIE's first bytes with its header, one
	 * pread per unit instead of two.
	 */
	bool keep_dies = in->use_pread && !targets.whole_units && targets.nr_list == 0;
	struct unit_walk walk;
	/*
	 * Guess the units where every one is read whole with its header
	 * (not a name index's few, nor a scan that may stop early).
	 */
	bool guess = in->use_pread && !keep_dies && !in->units && !in->only &&
		     !in->stop_at_first_definition;
	int rc = 1;

	if (guess && scan_units_from_aranges(in, &walk)) {
		rc = scan_walked(in, &targets, &walk, true, threads, out);
		if (rc)
			free(walk.units);
	}
	if (rc && scan_walk_units(in, keep_dies, threads, &walk))
		rc = scan_walked(in, &targets, &walk, false, threads, out);
	scan_release_targets(&targets);
	free(str);
	if (rc == 0 && in->contains_word && out->nr_fallback == 0)
		ll_scan_words_reach(out, names ? names : (const char *const *)out->names,
				    in->contains_word);
	return rc ? -1 : 0;
}

bool ll_scan_unit_refs_outside(const struct ll_scan_input *in, const struct ll_scan_unit *u)
{
	struct abbrev_table t = { 0 };
	bool outside = !scan_load_abbrevs(in, u, &t);

	for (size_t i = 0; !outside && i < t.nr_specs; i++) {
		unsigned form = t.form[i];

		/* DW_FORM_indirect may stand for any of them. */
		outside = form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
			  form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8 ||
			  form == DW_FORM_GNU_ref_alt || form == DW_FORM_indirect;
	}
	scan_abbrev_table_release(&t);
	return outside;
}

/* Step over one abbreviation's attribute specs. */
static void skip_specs(struct ll_cursor *c)
{
	for (;;) {
		uint64_t at = ll_uleb(c), form = ll_uleb(c);

		if (c->bad || (at == 0 && form == 0))
			return;
		if (form == DW_FORM_implicit_const)
			ll_skip_leb(c);
	}
}

/*
 * Whether CODE was seen before in this table; remembers it. Codes are
 * small in practice (a bit each); the rare large one goes to a list.
 */
static bool seen_before(struct ll_u64_set *seen, uint64_t code)
{
	if (code < MAX_ABBREV_CODE) {
		uint64_t bit = 1ull << (code % 64);
		bool was;

		if (!seen->bits)
			seen->bits = xcalloc(MAX_ABBREV_CODE / 64, sizeof(*seen->bits));
		was = seen->bits[code / 64] & bit;
		seen->bits[code / 64] |= bit;
		return was;
	}
	for (size_t i = 0; i < seen->n; i++)
		if (seen->v[i] == code)
			return true;
	seen->v = xgrow(seen->v, seen->n, sizeof(*seen->v));
	seen->v[seen->n++] = code;
	return false;
}

bool ll_abbrev_children_valid(const unsigned char *abbrev, size_t size, uint64_t off,
			      uint64_t *bad_at, uint64_t *dup_code)
{
	struct ll_cursor c = { abbrev, abbrev + size, false };
	struct ll_u64_set seen = { 0 };
	bool ok = true;

	*dup_code = 0;
	/* A table that is not there, or ends early, is libdw's to report. */
	if (off >= size)
		return true;
	c.p += off;
	for (;;) {
		const unsigned char *at = c.p;
		uint64_t code = ll_uleb(&c);

		if (c.bad || code == 0)
			break;
		if (seen_before(&seen, code)) {
			*bad_at = (uint64_t)(at - abbrev);
			*dup_code = code;
			ok = false;
			break;
		}
		ll_skip_leb(&c);	/* the tag */
		if (c.bad || c.p == c.end)
			break;
		if (*c.p > DW_CHILDREN_yes) {
			*bad_at = (uint64_t)(c.p - abbrev);
			ok = false;
			break;
		}
		c.p++;
		skip_specs(&c);
	}
	free(seen.v);
	free(seen.bits);
	return ok;
}

void ll_scan_result_release(struct ll_scan_result *r)
{
	ll_strv_free(r->comp_dirs, r->nr_comp_dirs);
	free(r->hits);
	ll_strv_free(r->names, r->nr_names);
	ll_free_all(r->fallback_units, r->units, r->verdicts, r->postings, r->name_strp, r->words);
	ll_scan_variables_free(r->variables, r->nr_variables);
	memset(r, 0, sizeof(*r));
}
