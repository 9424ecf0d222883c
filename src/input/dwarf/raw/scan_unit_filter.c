// SPDX-License-Identifier: GPL-2.0-or-later
/* Units the scan need not walk: the heuristics that skip them, and loading those it walks. */
#include "input/dwarf/raw/scanP.h"

/* Beyond this many candidate offsets the byte filter costs more than it saves. */
#define FILTER_MAX_OFFSETS 16

/*
 * C past an abbreviation's attribute specs and their terminating pair;
 * false when the table ends first. Most specs are two one-byte LEBs, the
 * terminator and DW_FORM_implicit_const (gcc's decl_file) among them:
 * those are taken without decoding, one pair at a time; a longer LEB the
 * careful way.
 */
static bool skip_abbrev_specs(struct ll_cursor *c)
{
	for (;;) {
		const unsigned char *p = c->p, *end = c->end;

		while (end - p >= 2 && !((p[0] | p[1]) & 0x80)) {
			unsigned at = p[0], form = p[1];

			p += 2;
			if (form == DW_FORM_implicit_const) {
				while (p < end && (*p & 0x80))
					p++;
				if (p == end) {
					c->bad = true;
					return false;
				}
				p++;
			} else if (!(at | form)) {
				c->p = p;
				return true;
			}
		}
		c->p = p;
		uint64_t at = ll_uleb(c), form = ll_uleb(c);

		if (c->bad)
			return false;
		if (at == 0 && form == 0)
			return true;
		if (form == DW_FORM_implicit_const)
			ll_skip_leb(c);
	}
}

/*
 * The attribute specs of abbreviation CODE in the table at OFF, found by
 * walking the table only as far as it. clang writes the unit DIE's first;
 * gcc orders a big table by use, so in a vmlinux the unit DIE's (used
 * once) sits near the end (code 241 of ~250 in the first 6.12 unit) and
 * this walks most of the table (much of a late lookup's instructions on
 * the 6.12 image before skip_abbrev_specs() took whole entries).
 */
static bool find_abbrev(const struct ll_scan_input *in, uint64_t off, uint64_t code,
			uint64_t *tag, struct ll_cursor *specs)
{
	struct ll_cursor c = { in->abbrev + off, in->abbrev + in->abbrev_size, false };

	if (off >= in->abbrev_size)
		return false;
	for (;;) {
		uint64_t have = ll_uleb(&c);

		if (c.bad || have == 0)
			return false;
		*tag = ll_uleb(&c);
		ll_skip(&c, 1);		/* DW_CHILDREN_* */
		if (c.bad)
			return false;
		if (have == code) {
			*specs = c;
			return true;
		}
		if (!skip_abbrev_specs(&c))
			return false;
	}
}

/* Entries after a unit DIE's that find_unit_abbrev() checks the numbers of. */
#define FOLLOWING_CHECKED 4
/* How far into .debug_abbrev find_unit_abbrev() looks (gcc's tables: ~3 KB). */
#define UNIT_ABBREV_SEARCH ((size_t)64 << 10)

/* Whether the entries at C are numbered CODE, CODE + 1, ... (the first few) or end the table. */
static bool numbered_from(struct ll_cursor c, uint64_t code)
{
	for (unsigned k = 0; k < FOLLOWING_CHECKED; k++, code++) {
		uint64_t have = ll_uleb(&c);

		if (c.bad || (have != code && have != 0))
			return false;
		if (have == 0)
			return true;
		ll_skip_leb(&c);	/* the tag */
		ll_skip(&c, 1);		/* DW_CHILDREN_* */
		if (c.bad || !skip_abbrev_specs(&c))
			return false;
	}
	return true;
}

/*
 * find_abbrev() of the unit DIE of a DWARF 5 DW_UT_compile unit U, whose
 * code is CODE: looked for by its first bytes (CODE, DW_TAG_compile_unit,
 * DW_CHILDREN_yes) rather than by walking the table to it, then taken
 * when the entries after it are numbered CODE + 1 on, as every producer
 * seen numbers them (gcc, clang; all 2,401 tables of the 6.12 image). The
 * walk to it cost a late lookup notable CPU: gcc orders a big table by
 * use, and the unit DIE's entry (used once) sits ~2 KB into ~2.7. Where
 * those bytes start no such run of entries (a copy inside another entry's
 * specs), the search goes on; where there is none, the walk answers.
 */
static bool find_unit_abbrev(const struct ll_scan_input *in, const struct ll_scan_unit *u,
			     uint64_t code, uint64_t *tag, struct ll_cursor *specs)
{
	size_t type_at = u->offset_size == 8 ? 14 : 6;
	unsigned char lead[12];
	size_t n = 0;

	if (u->version < 5 || u->first_die - u->offset <= type_at ||
	    u->head[type_at] != DW_UT_compile || u->abbrev_offset >= in->abbrev_size)
		return find_abbrev(in, u->abbrev_offset, code, tag, specs);
	for (uint64_t v = code; n == 0 || v; v >>= 7)
		lead[n++] = (unsigned char)((v & 0x7f) | (v >> 7 ? 0x80 : 0));
	lead[n++] = DW_TAG_compile_unit;
	lead[n++] = DW_CHILDREN_yes;

	const unsigned char *from = in->abbrev + u->abbrev_offset;
	const unsigned char *end = in->abbrev + in->abbrev_size;
	const unsigned char *stop = (size_t)(end - from) > UNIT_ABBREV_SEARCH ?
				    from + UNIT_ABBREV_SEARCH : end;
	const unsigned char *at;

	while ((at = scan_find_string(from, stop, lead, n)) != NULL) {
		struct ll_cursor c = { at + n, end, false }, s = c;

		if (skip_abbrev_specs(&c) && numbered_from(c, code + 1)) {
			*tag = DW_TAG_compile_unit;
			*specs = s;
			return true;
		}
		from = at + 1;
	}
	return find_abbrev(in, u->abbrev_offset, code, tag, specs);
}

/*
 * The longest name a unit may carry inline (DW_FORM_string), known from
 * its DW_AT_producer; SIZE_MAX when the producer does not tell. gcc puts a
 * string inline only when it is no longer than a .debug_str offset
 * (gcc/dwarf2out.cc, AT_string_form: strlen + 1 <= offset size), unless
 * -fno-merge-debug-strings; LLVM always uses .debug_str (strp or strx)
 * for names. Everything else, or a unit DIE this cannot read: any length.
 * STRP_NAMES: gcc's rule holds, so every longer name is a DW_FORM_strp
 * (gcc writes strx only with -gsplit-dwarf), and the unit's bytes hold
 * the .debug_str offset of every name they use.
 */
static size_t inline_name_max(const struct ll_scan_input *in, const struct ll_scan_unit *u,
			      const unsigned char *die, const unsigned char *end,
			      struct producer_memo *memo, bool *strp_names)
{
	struct ll_cursor c = { die, end, false }, specs;
	uint64_t code = ll_uleb(&c), tag;

	*strp_names = false;
	if (c.bad || in->supplementary || !find_unit_abbrev(in, u, code, &tag, &specs) ||
	    (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit))
		return SIZE_MAX;
	for (;;) {
		uint64_t at = ll_uleb(&specs), form = ll_uleb(&specs);

		if (specs.bad || (at == 0 && form == 0))
			return SIZE_MAX;
		if (form == DW_FORM_implicit_const) {
			ll_skip_leb(&specs);
			continue;
		}
		if (at != DW_AT_producer) {
			if (!skip_form(&c, (unsigned)form, u, 0))
				return SIZE_MAX;
			continue;
		}
		const char *producer = read_string(in, u, &c, (unsigned)form);

		if (!producer)
			return SIZE_MAX;
		/* The same string (of .debug_str, or of a unit read in place) judges the same. */
		if (producer != memo->producer || form != DW_FORM_strp) {
			memo->producer = form == DW_FORM_strp ? producer : NULL;
			memo->strp_names = strncmp(producer, "GNU C", 5) == 0 &&
					   !strstr(producer, "-fno-merge-debug-strings") &&
					   !strstr(producer, "-gsplit-dwarf");
			memo->max = memo->strp_names ? 0 :
				    strstr(producer, "clang version") ? 0 : SIZE_MAX;
		}
		*strp_names = memo->strp_names;
		return memo->strp_names ? u->offset_size - 1 : memo->max;
	}
}

/*
 * inline_name_max() of unit I, remembered by unit: a name missing from
 * .debug_str asks it twice per unit, then again in the "did you mean"
 * scan that follows. Only the verdicts of gcc and LLVM are kept: SIZE_MAX
 * may mean that END cut the unit DIE short, and a longer read may know.
 */
static size_t unit_inline_max(struct worker *w, size_t i, const unsigned char *die,
			      const unsigned char *end, bool *strp_names)
{
	const struct ll_scan_unit *u = &w->units[i];
	uint8_t v = w->verdicts[i];
	size_t max;

	if (v & LL_VERDICT_KNOWN) {
		*strp_names = v & LL_VERDICT_GCC;
		return *strp_names ? u->offset_size - 1 : 0;
	}
	max = inline_name_max(w->in, u, die, end, &w->producer_memo, strp_names);
	if (*strp_names && max == u->offset_size - 1)
		w->verdicts[i] = LL_VERDICT_KNOWN | LL_VERDICT_GCC;
	else if (!*strp_names && max == 0)
		w->verdicts[i] = LL_VERDICT_KNOWN;
	return max;
}

/*
 * With no .debug_str offset to look for, a unit can hold a wanted name
 * only inline: false when its producer rules that out for every name, so
 * a missing name costs a few hundred bytes per unit, not the whole image.
 */
bool scan_unit_may_hold_inline(struct worker *w, size_t i)
{
	const struct ll_scan_unit *u = &w->units[i];
	const unsigned char *p;
	size_t avail;
	bool strp_names;

	/* Read with the header when units are pread (ll_scan's keep_dies). */
	if (w->dies) {
		p = w->dies[i].bytes;
		avail = w->dies[i].len;
	} else {
		p = w->in->info + u->first_die;
		avail = u->end - u->first_die < UNIT_HEAD ? (size_t)(u->end - u->first_die) :
							   UNIT_HEAD;
	}

	return unit_inline_max(w, i, p, p + avail, &strp_names) >= w->targets->shortest;
}

/*
 * memmem for a short needle (a .debug_str offset, or a name and its NUL)
 * in DIE bytes, from the end: where the last copy starting at or after
 * P[FROM] starts, plus one; 0 when there is none. memrchr for the needle's
 * byte at ANCHOR, then memcmp: that runs near memrchr's speed where the
 * anchor byte is rare, as identifier letters are in DIE bytes (glibc's
 * memmem was over half of a lookup of a short name that must be searched
 * for inline in every unit). The last copy, not the first, because the
 * walk may stop past it (scan_unit()).
 */
static size_t last_bytes(const unsigned char *p, size_t n, size_t from, const void *needle,
			 size_t len, size_t anchor)
{
	const unsigned char *want = needle, *lo, *s;
	size_t span;

	if (len == 0)
		return n + 1;
	if (n < len || from > n - len)
		return 0;
	/* The anchor byte of a match sits in [lo, lo + span). */
	lo = p + from + anchor;
	span = n - len - from + 1;
	while (span && (s = memrchr(lo, want[anchor], span)) != NULL) {
		if (len == 4 ? memcmp(s - anchor, needle, 4) == 0 :
			       memcmp(s - anchor, needle, len) == 0)
			return (size_t)(s - anchor - p) + 1;
		span = (size_t)(s - lo);
	}
	return 0;
}

/* Bytes of .debug_info whose byte frequencies pick each offset's anchor. */
#define ANCHOR_SAMPLE (64u << 10)

/*
 * Anchor each candidate offset's search on its rarest byte in DIE bytes,
 * as counted in a sample from the middle of .debug_info. The low byte is
 * what the search used to anchor on; on the 6.1 image some low bytes are
 * 1% of all DIE bytes while the next byte is 0.1%, and every false start
 * is a memcmp. Only speed depends on the choice: a match is a match
 * whatever byte found it, and a sample that cannot be read keeps byte 0.
 */
void scan_choose_anchors(const struct ll_scan_input *in, struct targets *t)
{
	uint32_t freq[256] = { 0 };
	size_t n = in->info_size < ANCHOR_SAMPLE ? in->info_size : ANCHOR_SAMPLE;
	uint64_t from = (in->info_size - n) / 2;
	unsigned char *buf;
	const unsigned char *p;

	if (t->collect_all || t->nr_list == 0 || t->nr_list > FILTER_MAX_OFFSETS || n == 0)
		return;
	buf = in->use_pread ? xmalloc(n) : NULL;
	if (buf && ll_pread_all(in->fd, buf, n, in->info_file_offset + from) != n) {
		free(buf);
		return;
	}
	p = buf ? buf : in->info + from;
	for (size_t i = 0; i < n; i++)
		freq[p[i]]++;
	free(buf);
	for (size_t i = 0; i < t->nr_list; i++) {
		uint32_t v = t->list[i];

		for (unsigned k = 1; k < 4; k++)
			if (freq[(v >> (8 * k)) & 0xff] < freq[(v >> (8 * t->anchor[i])) & 0xff])
				t->anchor[i] = (uint8_t)k;
	}
}

/*
 * Can this unit hold a wanted name at all? Its DIEs name things by
 * .debug_str offset, so a unit whose bytes never contain a candidate
 * offset (or, where names may be inline, the name itself) cannot. Returns
 * where the last such copy starts in P, plus one: 0 when there is none,
 * and no DIE starting at or after that can name a target.
 */
size_t scan_names_end(const struct targets *t, const unsigned char *p, size_t n,
		      size_t inline_max, size_t *lead)
{
	size_t end = 0, first = *lead < t->nr_list ? *lead : 0;

	/*
	 * Each needle only matters past the last copy found so far, so the
	 * offset that was last the lead (task_struct has 7 offsets, one of
	 * them in every unit that names it) goes first, swapped with the
	 * first: the others then search only the unit's tail. The order
	 * changes no answer, as long as every needle is searched once.
	 */
	for (size_t k = 0; k < t->nr_list; k++) {
		size_t i = k == 0 ? first : k == first ? 0 : k;
		uint32_t v = t->list[i];
		const unsigned char le[4] = { (unsigned char)v, (unsigned char)(v >> 8),
					      (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
		size_t at = last_bytes(p, n, end, le, sizeof(le), t->anchor[i]);

		if (at > end) {
			end = at;
			*lead = i;
		}
	}
	for (size_t k = 0; k < t->n && inline_max; k++) {
		size_t len = strlen(t->names[k]), at;

		if (len <= inline_max && (at = last_bytes(p, n, end, t->names[k], len + 1, 0)) > end)
			end = at;
	}
	return end;
}

/*
 * The byte filter of the unit at P (its unit DIE on): UNIT_ASK_ABBREVS
 * when only the unit's abbreviations can tell how its names are stored.
 * *END: scan_names_end() for UNIT_SCAN, SIZE_MAX when no filter ran.
 */
enum filter_verdict scan_filter_unit(struct worker *w, size_t i, const unsigned char *p,
				     size_t n, size_t *inline_max, size_t *end)
{
	const struct targets *t = w->targets;
	bool strp_names;

	*end = SIZE_MAX;
	if (t->whole_units || t->nr_list > FILTER_MAX_OFFSETS)
		return UNIT_SCAN;
	*inline_max = unit_inline_max(w, i, p, p + n, &strp_names);
	if (!strp_names)
		return UNIT_ASK_ABBREVS;
	*end = scan_names_end(t, p, n, *inline_max, &w->lead);
	return *end ? UNIT_SCAN : UNIT_SKIP;
}

/*
 * The byte filter once the abbreviations are known: scan_names_end(), or
 * SIZE_MAX (walk it all) when names hide in forms whose bytes it cannot
 * see.
 */
size_t scan_may_contain(struct worker *w, const unsigned char *p, size_t n, size_t inline_max)
{
	if (w->abbrevs.names_hidden)
		return SIZE_MAX;
	return scan_names_end(w->targets, p, n, w->abbrevs.names_inline ? inline_max : 0, &w->lead);
}

/* Buffers from this size on ask for a huge page. */
#define HUGE_BUFFER ((size_t)256 << 10)

/*
 * A pread buffer of at least SIZE bytes, its capacity in *CAP, made once
 * for the work's largest unit: grown unit by unit, the buffers of a late
 * lookup in the 6.12 image faulted in ~420 fresh pages, each fault slow
 * here (bench/RESULTS.md). From HUGE_BUFFER on, in a huge page where
 * the kernel gives one: a single fault.
 */
static unsigned char *unit_buffer(size_t size, size_t *cap)
{
	void *p = size >= HUGE_BUFFER ? ll_huge_alloc(size, cap) : NULL;

	if (p)
		return p;
	*cap = size ? size : 1;
	return xmalloc(*cap);
}

/* Point w->ub at the unit's bytes: the mapping, or a pread copy. */
bool scan_load_unit(struct worker *w, const struct ll_scan_unit *u)
{
	uint64_t size = u->end - u->offset;

	if (!w->in->use_pread) {
		w->ub = w->in->info + u->offset;
		w->ub_off = u->offset;
		return true;
	}
	if (size > SIZE_MAX / 2)
		return false;
	size_t head = w->loaded_head;

	w->loaded_head = 0;
	if (w->buf_size < size) {
		free(w->buf);
		w->buf = unit_buffer(size > w->largest_unit ? (size_t)size : w->largest_unit,
				     &w->buf_size);
		head = 0;
	}
	/* The first bytes of this very unit may be there already (scan_prefix()). */
	if (w->ub != w->buf || w->ub_off != u->offset || head > size)
		head = 0;
	if (ll_pread_all(w->in->fd, w->buf + head, (size_t)size - head,
			 w->in->info_file_offset + u->offset + head) != size - head)
		return false;
	w->ub = w->buf;
	w->ub_off = u->offset;
	return true;
}

/*
 * The header of guessed unit I, from the first AVAIL of its bytes just
 * read: true when it spans exactly the unit's .debug_aranges range.
 */
static bool settle_guessed_from(struct worker *w, size_t i, size_t avail)
{
	struct ll_scan_unit *u = &w->guessed[i], read;

	if (!scan_read_unit(w->ub, avail, u->offset, w->in->info_size, w->in->abbrev_size, &read) ||
	    read.end != u->end)
		return false;
	*u = read;
	return true;
}

/*
 * The header of guessed unit I, from its bytes just read: true when they
 * are exactly one unit, as its .debug_aranges range said.
 */
bool scan_settle_guessed(struct worker *w, size_t i)
{
	return settle_guessed_from(w, i, (size_t)(w->guessed[i].end - w->guessed[i].offset));
}

/* Whether hits from FIRST on hold a struct or union definition of NAMES[0]. */
static bool scan_defines_first_name(const struct worker *w, size_t first)
{
	for (size_t i = first; i < w->nr_hits; i++) {
		const struct ll_scan_hit *h = &w->hits[i];

		if (h->query == 0 && !h->declaration && !h->via_typedef &&
		    (h->tag == DW_TAG_structure_type || h->tag == DW_TAG_union_type))
			return true;
	}
	return false;
}

void scan_note_first_definition(struct worker *w, size_t first)
{
	if (!w->in->stop_at_first_definition || !scan_defines_first_name(w, first))
		return;
	size_t seen = atomic_load_explicit(w->first_defined, memory_order_relaxed);

	while (w->unit < seen &&
	       !atomic_compare_exchange_weak_explicit(w->first_defined, &seen, w->unit,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

/*
 * Bytes of a unit read before the rest, when a walk may stop early
 * (targets' stop_when_defined), in units of at least UNIT_PREFIX_MIN.
 */
#define UNIT_PREFIX ((size_t)48 << 10)
#define UNIT_PREFIX_MIN ((size_t)64 << 10)
/*
 * Heads a worker tries before it judges them: once fewer than half were
 * enough, it reads its units whole. A head that is not enough costs a
 * second pread and, where it holds a candidate, a walk done again: every
 * head failed for a name few units define (optimistic_spin_node, 0 of
 * ~1,380) and for 20 names at once (20 structs: more wall time), while ~99%
 * were enough for struct file. 16 and 32 measured alike.
 */
#define PREFIX_TRIAL 16

/* Whether unit U's header and address size let its head be walked alone. */
static bool prefix_fits(const struct ll_scan_unit *u)
{
	return u->first_die - u->offset < UNIT_PREFIX && scan_address_size_ok(u);
}

/*
 * Scan unit I (U) from its first UNIT_PREFIX bytes only: true when that
 * was enough, its walk having met a definition of every name there (then
 * its hits are kept as a whole unit's walk keeps them). False, with
 * nothing kept, when the caller must read and walk the whole unit: the
 * copy of the rest of the unit was most of a lookup of struct file,
 * which ~1,800 units define well before their end.
 */
bool scan_prefix(struct worker *w, size_t i, const struct ll_scan_unit *u)
{
	const struct targets *t = w->targets;
	struct ll_scan_unit head = *u;
	size_t inline_max = SIZE_MAX, end, before = w->nr_hits;
	struct unit_lines ul = { 0 };
	bool done;

	/*
	 * Nor with a member filter or a contains word: both read
	 * member types, anywhere in the unit, and the head alone is in the
	 * buffer.
	 */
	if (!t->stop_when_defined || t->whole_units || !w->in->use_pread ||
	    w->in->member_filter || w->in->contains_word ||
	    u->end - u->offset < (uint64_t)UNIT_PREFIX_MIN || (!w->guessed && !prefix_fits(u)) ||
	    (w->prefix_tries >= PREFIX_TRIAL && w->prefix_wins * 2 < w->prefix_tries))
		return false;
	head.end = u->offset + UNIT_PREFIX;
	if (!scan_load_unit(w, &head))
		return false;
	w->loaded_head = UNIT_PREFIX;
	/*
	 * A unit guessed from .debug_aranges has its header read here, from
	 * the head; one that does not fit its range is the caller's to find
	 * again (it reads the rest and settles the whole).
	 */
	if (w->guessed && !(settle_guessed_from(w, i, UNIT_PREFIX) && prefix_fits(u)))
		return false;
	/* Settling rewrote *U (its header, first DIE, end): the head is taken again from it. */
	head = *u;
	head.end = u->offset + UNIT_PREFIX;
	w->prefix_tries++;
	const unsigned char *p = w->ub + (u->first_die - w->ub_off);
	size_t n = (size_t)(head.end - u->first_die);
	enum filter_verdict v = scan_filter_unit(w, i, p, n, &inline_max, &end);

	if (v == UNIT_SKIP || !scan_load_abbrevs(w->in, u, &w->abbrevs))
		return false;
	if (v == UNIT_ASK_ABBREVS && !(end = scan_may_contain(w, p, n, inline_max)))
		return false;
	if (w->in->str_size > UINT32_MAX || w->abbrevs.names_hidden)
		end = SIZE_MAX;
	done = scan_unit(w, &head, end) && w->defined_every_name;
	/* What unit_info() remembered is keyed by HEAD, which is gone. */
	w->info = (struct unit_info){ 0 };
	if (!done) {
		w->nr_hits = before;
		return false;
	}
	w->prefix_wins++;
	w->nr_tables_read++;
	w->scopes |= w->abbrevs.scopes;
	if (w->in->distinct)
		scan_keep_distinct(w, u, &ul, before);
	else
		scan_note_first_definition(w, before);
	scan_unit_lines_release(&ul);
	return true;
}
