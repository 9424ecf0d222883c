// SPDX-License-Identifier: GPL-2.0-or-later
/* The raw scan's walk of a unit: one DIE read, a wanted one captured, names collected. */
#include "input/dwarf/raw/scanP.h"

static struct ll_scan_hit *push_hit(struct worker *w, uint64_t die, uint32_t name)
{
	if (w->nr_hits == w->cap_hits) {
		w->cap_hits = w->cap_hits ? w->cap_hits * 2 : 64;
		w->hits = xrealloc(w->hits, w->cap_hits * sizeof(*w->hits));
	}
	w->hits[w->nr_hits] = (struct ll_scan_hit){ .die = die, .query = name };
	return &w->hits[w->nr_hits++];
}

/*
 * DW_AT_stmt_list and DW_AT_comp_dir of unit U's DIE, read once per unit
 * and copied to every hit of it (the copy of comp_dir is the worker's,
 * handed to the scan result): --list reads ~10^6 definitions.
 */
static bool read_unit_info(struct worker *w, const struct ll_scan_unit *u)
{
	struct ll_cursor c = { w->ub + (u->first_die - w->ub_off), w->ub + (u->end - w->ub_off), false };
	const struct abbrev_table *t = &w->abbrevs;
	uint64_t code;
	const struct abbrev *a = next_abbrev(t, &c, &code);
	bool have_stmt = false, have_dir = false;

	if (!a)
		return false;

	for (unsigned i = 0; i < a->nr_attrs; i++) {
		unsigned at = t->attr[a->first + i], form = t->form[a->first + i];

		/* A repeated attribute: libdw answers with the first, so does this. */
		if (at == DW_AT_stmt_list && !have_stmt &&
		    (form == DW_FORM_sec_offset || form == DW_FORM_data4 || form == DW_FORM_data8)) {
			w->info.stmt_list = form == DW_FORM_data8 ? ll_fixed(&c, 8) :
					    form == DW_FORM_data4 ? ll_fixed(&c, 4) :
					    ll_fixed(&c, u->offset_size);
			have_stmt = !c.bad;
		} else if (at == DW_AT_comp_dir && !have_dir) {
			const char *dir = read_string(w->in, u, &c, form);

			if (!dir)
				return false;
			have_dir = true;
			/*
			 * One copy while units share it (a kernel's all do): the
			 * lookup remembers declaring files by their strings' addresses.
			 */
			if (!w->nr_comp_dirs || strcmp(w->comp_dirs[w->nr_comp_dirs - 1], dir) != 0) {
				w->comp_dirs = xgrow(w->comp_dirs, w->nr_comp_dirs,
						     sizeof(*w->comp_dirs));
				w->comp_dirs[w->nr_comp_dirs++] = xstrdup(dir);
			}
			w->info.comp_dir = w->comp_dirs[w->nr_comp_dirs - 1];
		} else if (!skip_form(&c, form, u, 0)) {
			return false;
		}
	}
	return have_stmt && !c.bad;
}

/* U's unit DIE facts in W->info, read at its first need; false when unreadable. */
bool scan_current_unit_info(struct worker *w, const struct ll_scan_unit *u)
{
	if (w->info.unit != u) {
		w->info = (struct unit_info){ .unit = u };
		w->info.ok = read_unit_info(w, u);
	}
	return w->info.ok;
}

static bool unit_info(struct worker *w, const struct ll_scan_unit *u, struct ll_scan_hit *h)
{
	bool ok = scan_current_unit_info(w, u);

	h->stmt_list = w->info.stmt_list;
	h->comp_dir = w->info.comp_dir;
	return ok;
}

/*
 * Whether the DIE at unit offset REF is a named type or no aggregate at
 * all, so that a typedef to it names nothing a lookup wants (only a
 * typedef of an anonymous struct or union does). False when unsure.
 */
static bool names_nothing_wanted(const struct worker *w, const struct ll_scan_unit *u, uint64_t ref)
{
	const struct abbrev_table *t = &w->abbrevs;

	if (ref >= u->end - u->offset || u->offset + ref < u->first_die)
		return false;
	struct ll_cursor c = { w->ub + (u->offset + ref - w->ub_off), w->ub + (u->end - w->ub_off),
			    false };
	uint64_t code;
	const struct abbrev *a = next_abbrev(t, &c, &code);

	if (!a)
		return false;

	if (!is_aggregate(a->tag))
		return true;
	for (unsigned i = 0; i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i], form = t->form[a->first + i];

		/* A name inherited from elsewhere is for libdw to follow. */
		if (attr == DW_AT_specification || attr == DW_AT_abstract_origin)
			return false;
		/*
		 * A name libdw cannot read (a .debug_str offset past the
		 * section) leaves the aggregate anonymous there, so the
		 * typedef names it: let libdw settle that, as it would.
		 */
		if (attr == DW_AT_name)
			return (form != DW_FORM_string && form != DW_FORM_strp &&
				form != DW_FORM_line_strp) || read_string(w->in, u, &c, form);
		if (!skip_form(&c, form, u, 0) || c.bad)
			return false;
	}
	return false;
}

/*
 * The aggregate DIE at AT (its abbreviation code first), read into H:
 * settled for a declaration, has_sig when everything the signature needs
 * was read. Anything unexpected leaves both false and the caller asks
 * libdw.
 */
/* capture_aggregate()'s reading of a quick_aggregate DIE at C (its code read). */
static bool read_quick_aggregate(struct ll_cursor *c, const struct abbrev *a,
				 struct ll_scan_hit *h)
{
	if (a->q_inline_name) {
		const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));

		if (!nul)
			return false;
		c->p = nul + 1;
	}
	const unsigned char *fixed = c->p;

	if ((uint64_t)(c->end - fixed) < a->q_bytes)
		return false;
	h->byte_size = quick_const_value(fixed, &a->q_byte_size);
	h->decl_line = quick_const_value(fixed, &a->q_line);
	h->decl_file = quick_const_value(fixed, &a->q_file);
	c->p = fixed + a->q_bytes;
	return true;
}

static void capture_aggregate(struct worker *w, const struct ll_scan_unit *u,
			      const unsigned char *at, struct ll_scan_hit *h)
{
	const struct abbrev_table *t = &w->abbrevs;
	struct ll_cursor c = { at, w->ub + (u->end - w->ub_off), false };
	uint64_t code;
	const struct abbrev *a = next_abbrev(t, &c, &code);
	bool have_size = false, have_line = false, have_file = false;

	if (!a)
		return;

	if (!is_aggregate(a->tag))
		return;
	h->tag = a->tag;
	bool quick = a->quick_aggregate && !(a->q_named && h->via_typedef);

	if (quick) {
		if (!read_quick_aggregate(&c, a, h))
			return;
		have_size = have_line = have_file = true;
	}
	for (unsigned i = 0; !quick && i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i], form = t->form[a->first + i];

		/* A repeated attribute: libdw answers with the first, so does this. */
		if (attr == DW_AT_byte_size && !have_size)
			have_size = read_const_spec(&c, t, a->first + i, &h->byte_size);
		else if (attr == DW_AT_decl_line && !have_line)
			have_line = read_const_spec(&c, t, a->first + i, &h->decl_line);
		else if (attr == DW_AT_decl_file && !have_file)
			have_file = read_const_spec(&c, t, a->first + i, &h->decl_file);
		else if (attr == DW_AT_declaration)
			h->declaration = form == DW_FORM_flag_present ||
					 (form == DW_FORM_flag && ll_fixed(&c, 1) != 0);
		else if (attr == DW_AT_specification || attr == DW_AT_abstract_origin ||
			 (attr == DW_AT_name && h->via_typedef) || !skip_form(&c, form, u, 0))
			return;	/* parts of it live elsewhere: libdw integrates them */
		if (c.bad)
			return;
	}
	if (h->declaration) {
		h->settled = true;
		return;
	}
	if (!have_size || !have_line || !have_file)
		return;
	if (a->children && !members_of(w, u, &c, h))
		return;
	if (!a->children)
		h->members_hash = LL_SIG_INIT;
	h->has_sig = unit_info(w, u, h);
}

/*
 * Read a matched DIE again, this time keeping what the signature needs:
 * an aggregate's, or for a typedef of an anonymous struct or union (a
 * name a lookup wants), its target's. A typedef of anything else is
 * settled: it names nothing a lookup wants. Anything unexpected leaves
 * has_sig false and the caller asks libdw.
 */
static void capture(struct worker *w, const struct ll_scan_unit *u, const unsigned char *at,
		    struct ll_scan_hit *h)
{
	const struct abbrev_table *t = &w->abbrevs;
	struct ll_cursor c = { at, w->ub + (u->end - w->ub_off), false };
	uint64_t code, type = 0;
	const struct abbrev *a = next_abbrev(t, &c, &code);
	bool have_type = false;

	if (!a)
		return;

	h->tag = a->tag;
	if (a->tag != DW_TAG_typedef) {
		capture_aggregate(w, u, at, h);
		return;
	}
	for (unsigned i = 0; i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i], form = t->form[a->first + i];

		if (attr == DW_AT_type && !have_type && read_ref(&c, form, &type))
			have_type = true;
		else if (attr == DW_AT_specification || attr == DW_AT_abstract_origin ||
			 !skip_form(&c, form, u, 0))
			return;
		if (c.bad)
			return;
	}
	if (!have_type)
		return;
	if (names_nothing_wanted(w, u, type)) {
		h->settled = true;
		return;
	}
	/* An anonymous aggregate in this unit: what libdw would build for the name. */
	if (type >= u->end - u->offset || u->offset + type < u->first_die)
		return;
	h->via_typedef = true;
	h->aggregate = u->offset + type;
	capture_aggregate(w, u, w->ub + (u->offset + type - w->ub_off), h);
	if (!h->settled && !h->has_sig) {
		/* Unsure: libdw reads the typedef itself. */
		h->via_typedef = false;
		h->aggregate = 0;
		h->tag = a->tag;
	}
}

void scan_push_fallback(struct worker *w, uint64_t unit)
{
	if (w->nr_fallback == w->cap_fallback) {
		w->cap_fallback = w->cap_fallback ? w->cap_fallback * 2 : 16;
		w->fallback = xrealloc(w->fallback, w->cap_fallback * sizeof(*w->fallback));
	}
	w->fallback[w->nr_fallback++] = unit;
}

static void add_name(struct worker *w, const char *name)
{
	if (w->nr_names == w->cap_names) {
		w->cap_names = w->cap_names ? w->cap_names * 2 : 1024;
		w->names = xrealloc(w->names, w->cap_names * sizeof(*w->names));
	}
	w->names[w->nr_names++] = xstrdup(name);
}

static bool captured_name(const struct worker *w, const char *name)
{
	return w->in->capture_glob && ll_glob_component(w->in->capture_glob, name, strlen(name));
}

static uint64_t seen_hash(const void *ctx, size_t i)
{
	return ll_hash_u64(((const struct worker *)ctx)->seen[i].off);
}

/* A unit's DIEs of one name make one posting: a name met again in the unit adds none. */
static void add_posting(struct worker *w, uint32_t id)
{
	if (!w->in->by_unit || (w->nr_posts && w->posts[w->nr_posts - 1].name == id &&
				w->posts[w->nr_posts - 1].unit == w->unit))
		return;
	w->posts = xgrow(w->posts, w->nr_posts, sizeof(*w->posts));
	w->posts[w->nr_posts++] = (struct ll_scan_posting){ id, w->unit };
}

/*
 * collect_all: remember each distinct name once per thread. Names by
 * .debug_str offset are deduplicated by offset (ld merged equal strings);
 * inline names are few and short, and the caller deduplicates all.
 * Returns whether the DIE is to be captured (in->capture_glob), and
 * sets *ID to its name's index in w->names.
 */
static bool collect_name(struct worker *w, uint64_t str_off, const char *inline_name,
			 uint32_t *id)
{
	if (inline_name) {
		add_name(w, inline_name);
		*id = (uint32_t)(w->nr_names - 1);
		add_posting(w, *id);
		return captured_name(w, inline_name);
	}
	const unsigned char *str = w->in->str;
	size_t size = w->in->str_size;

	/* As read_string(): a section ending in a NUL holds one after every offset. */
	if (str_off >= size || (str[size - 1] != 0 && !memchr(str + str_off, 0, size - str_off)))
		return false;
	/*
	 * Units include the same headers in the same order: the name met
	 * after the last one is, ~85% of the time (6.12 image), the one met
	 * after it the first time, the next in SEEN. Checked before the
	 * probe, whose slot and entry are out of cache (~10^6 names met).
	 */
	size_t i = w->seen_last + 1;

	if (i < w->nr_seen && w->seen[i].off == str_off) {
		w->seen_last = i;
		*id = w->seen[i].id;
		add_posting(w, *id);
		return w->seen[i].captured;
	}
	/* Room for one more before the probe (a rehash moves every slot); a listing meets ~40,000. */
	ll_slots_reserve(&w->seen_at, w->nr_seen < 2048 ? 2048 : w->nr_seen + 1, seen_hash, w);
	size_t at = ll_slots_first(&w->seen_at, ll_hash_u64(str_off));

	for (; (i = ll_slots_get(&w->seen_at, at)); at = ll_slots_next(&w->seen_at, at))
		if (w->seen[i - 1].off == str_off) {
			w->seen_last = i - 1;
			*id = w->seen[i - 1].id;
			add_posting(w, *id);
			return w->seen[i - 1].captured;
		}
	const char *name = (const char *)w->in->str + str_off;
	struct seen_name *seen;

	add_name(w, name);
	w->seen = xgrow(w->seen, w->nr_seen, sizeof(*w->seen));
	seen = &w->seen[w->nr_seen];
	*seen = (struct seen_name){ str_off, (uint32_t)(w->nr_names - 1), captured_name(w, name) };
	w->seen_last = w->nr_seen;
	ll_slots_put(&w->seen_at, at, w->nr_seen++);
	*id = seen->id;
	add_posting(w, *id);
	return seen->captured;
}

enum die_status { DIE_OK, DIE_END, DIE_UNSURE };

/*
 * Read one DIE at c. For a wanted DIE, *match says whether its name is a
 * target. *sibling is the DW_AT_sibling target or 0.
 */
static enum die_status read_die(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
				bool want, const struct abbrev **out, uint64_t *sibling,
				bool *match, uint32_t *index_out)
{
	const struct abbrev_table *t = &w->abbrevs;
	uint64_t code;
	const struct abbrev *a = next_abbrev(t, c, &code);

	*match = false;
	*sibling = 0;
	if (!a)
		return code == 0 && !c->bad ? DIE_END : DIE_UNSURE;
	bool check_name = want && a->wanted;

	*out = a;
	/*
	 * A wanted tag named by a .debug_str offset at a fixed place (most
	 * typedefs and structs of a unit): read just the offset (a target?
	 * collected?), then step over the DIE as below. A DIE these shortcuts
	 * do not fit takes the attribute walk (a listing of the 6.12 image
	 * collects ~1.27 M names; walking each of their DIEs attribute by
	 * attribute was 4.5 M skip_form() calls).
	 */
	if (check_name && a->name_strp_at >= 0 &&
	    (a->children ? a->sibling_at >= 0 : a->fixed_size >= 0)) {
		struct ll_cursor n = ll_ahead(c, (uint64_t)a->name_strp_at);
		uint64_t off = ll_fixed(&n, u->offset_size);

		if (!n.bad) {
			*match = w->targets->collect_all ? collect_name(w, off, NULL, index_out) :
							   find_offset(w->targets, off, index_out);
			check_name = false;
		}
	}
	/* Fast paths for the DIEs the scan only steps over. */
	if (!check_name) {
		if (a->children && a->sibling_at >= 0) {
			struct ll_cursor s = ll_ahead(c, (uint64_t)a->sibling_at);
			uint64_t v;

			switch (a->sibling_form) {
			case DW_FORM_ref1: v = ll_fixed(&s, 1); break;
			case DW_FORM_ref2: v = ll_fixed(&s, 2); break;
			case DW_FORM_ref4: v = ll_fixed(&s, 4); break;
			case DW_FORM_ref8: v = ll_fixed(&s, 8); break;
			default: goto slow;
			}
			if (s.bad)
				return DIE_UNSURE;
			*sibling = u->offset + v;
			/* The caller jumps to the sibling; the cursor position no longer matters. */
			c->p = s.p;
			return DIE_OK;
		}
		if (!a->children && a->fixed_size >= 0) {
			ll_skip(c, (uint64_t)a->fixed_size);
			return c->bad ? DIE_UNSURE : DIE_OK;
		}
	}
slow:
	for (unsigned i = 0; i < a->nr_attrs; i++) {
		unsigned at = t->attr[a->first + i], form = t->form[a->first + i];

		if (at == DW_AT_sibling) {
			uint64_t v;

			switch (form) {
			case DW_FORM_ref1: v = ll_fixed(c, 1); break;
			case DW_FORM_ref2: v = ll_fixed(c, 2); break;
			case DW_FORM_ref4: v = ll_fixed(c, 4); break;
			case DW_FORM_ref8: v = ll_fixed(c, 8); break;
			case DW_FORM_ref_udata: v = ll_uleb(c); break;
			default: return DIE_UNSURE;
			}
			*sibling = u->offset + v;
			continue;
		}
		if (check_name && at == DW_AT_name) {
			if (form == DW_FORM_strp) {
				uint64_t off = ll_fixed(c, u->offset_size);

				if (c->bad)
					return DIE_UNSURE;
				if (w->targets->collect_all) {
					*match = collect_name(w, off, NULL, index_out);
					continue;
				}
				if (find_offset(w->targets, off, index_out))
					*match = true;
				continue;
			}
			if (form == DW_FORM_string) {
				const unsigned char *s = c->p;

				if (!skip_form(c, form, u, 0))
					return DIE_UNSURE;
				if (w->targets->collect_all) {
					*match = collect_name(w, 0, (const char *)s, index_out);
					continue;
				}
				long k = name_index(w->targets, (const char *)s, strlen((const char *)s));

				if (k >= 0) {
					*match = true;
					*index_out = (uint32_t)k;
				}
				continue;
			}
			/* strx, dwz's strp_alt: names this scanner cannot see. */
			return DIE_UNSURE;
		}
		if (!skip_form(c, form, u, 0))
			return DIE_UNSURE;
	}
	return c->bad ? DIE_UNSURE : DIE_OK;
}

/* Walk a subtree's children without DW_AT_sibling help. */
bool scan_skip_children(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c)
{
	size_t depth = 1;

	while (depth) {
		const struct abbrev *a = NULL;
		uint64_t sibling;
		bool match;
		uint32_t idx;
		enum die_status st = read_die(w, u, c, false, &a, &sibling, &match, &idx);

		if (st == DIE_UNSURE)
			return false;
		if (st == DIE_END) {
			depth--;
			continue;
		}
		if (!a->children)
			continue;
		if (!sibling)
			depth++;
		else if (!jump_to_sibling(w, u, c, sibling))
			return false;
	}
	return true;
}

/*
 * Top-level DIEs of one unit; false when the unit needs the libdw walk.
 * NAMES_END: the byte filter chose this unit, and a DIE can name a target
 * only with bytes that filter looks for (a candidate .debug_str offset,
 * or an inline name), the last of which starts before unit byte
 * first_die + NAMES_END; SIZE_MAX when no filter ran. A top-level DIE
 * starting at or after that cannot be a hit, so the walk stops there: a
 * unit holding its struct early (task_struct in ~1,500 units) is not
 * walked to its end, and the answer is the same.
 */
bool scan_unit(struct worker *w, const struct ll_scan_unit *u, size_t names_end)
{
	struct ll_cursor c = { w->ub + (u->first_die - w->ub_off), w->ub + (u->end - w->ub_off), false };
	const struct abbrev *a = NULL;
	uint64_t sibling;
	bool match;
	uint32_t idx;
	/* One compare per DIE: the unit's end, or the byte filter's NAMES_END. */
	const unsigned char *stop = names_end < (size_t)(c.end - c.p) ? c.p + names_end : c.end;

	/* The unit DIE itself; its children are the top-level DIEs. */
	if (read_die(w, u, &c, false, &a, &sibling, &match, &idx) != DIE_OK)
		return false;
	if (!a->children)
		return true;
	size_t start_hits = w->nr_hits, start_vars = w->nr_vars;
	const bool variables = w->in->variables;
	const struct targets *t = w->targets;
	uint64_t defined = 0, defined_all = 0;

	w->defined_every_name = false;

	if (t->stop_when_defined && !t->whole_units)
		defined_all = t->n == 64 ? UINT64_MAX : ((uint64_t)1 << t->n) - 1;

	for (;;) {
		uint64_t die = w->ub_off + (uint64_t)(c.p - w->ub);
		enum die_status st;

		/*
		 * Some producers omit the final null entry; and past STOP no
		 * DIE holds a wanted name's bytes.
		 */
		if (c.p >= stop)
			break;
		st = read_die(w, u, &c, true, &a, &sibling, &match, &idx);
		if (st == DIE_END)
			break;
		if (st == DIE_UNSURE)
			goto unsure;
		if (match) {
			struct ll_scan_hit *h = push_hit(w, die, idx);

			capture(w, u, w->ub + (die - w->ub_off), h);
			/*
			 * C gives a tag one definition per file scope, so
			 * once this unit has defined every name asked for, the
			 * rest of it holds no other definition of them: ~1,800
			 * units of a vmlinux define struct file, most of them
			 * well before their end. (A typedef of an anonymous
			 * struct under the same name after the definition is
			 * not looked for; no compiler output we read has one.)
			 */
			if (defined_all && h->has_sig && !h->via_typedef && !h->declaration &&
			    is_aggregate(h->tag) && idx < 64) {
				defined |= (uint64_t)1 << idx;
				if (defined == defined_all) {
					w->defined_every_name = true;
					break;
				}
			}
		}
		if (variables && a->located) {
			w->vars = xgrow(w->vars, w->nr_vars, sizeof(*w->vars));
			w->vars[w->nr_vars] = (struct ll_scan_variable){ .die = die, .unit = u->offset,
									 .unit_end = u->end };
			scan_read_variable(w, u, &w->vars[w->nr_vars++]);
		}
		if (!a->children)
			continue;
		if (sibling ? !jump_to_sibling(w, u, &c, sibling) : !scan_skip_children(w, u, &c))
			goto unsure;
	}
	return true;
unsure:
	w->nr_hits = start_hits;
	if (w->nr_vars > start_vars)
		scan_drop_variable_strings(w->vars + start_vars, w->nr_vars - start_vars);
	w->nr_vars = start_vars;
	return false;
}
