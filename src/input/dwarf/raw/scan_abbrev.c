// SPDX-License-Identifier: GPL-2.0-or-later
/* The raw scan's abbreviation tables: read, planned, and forms stepped over. */
#include "input/dwarf/raw/scanP.h"

/*
 * Read one unit header from HDR (the first bytes of the unit at OFF);
 * false on a header it cannot read.
 */
bool scan_read_unit(const unsigned char *hdr, size_t avail, uint64_t off, uint64_t info_size,
		    uint64_t abbrev_size, struct ll_scan_unit *u)
{
	struct ll_cursor c = { hdr, hdr + avail, false };
	uint64_t len = ll_fixed(&c, 4);
	unsigned unit_type = DW_UT_compile;

	u->offset = off;
	u->offset_size = 4;
	if (len == 0xffffffff) {
		len = ll_fixed(&c, 8);
		u->offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return false;
	}
	uint64_t start = off + (uint64_t)(c.p - hdr);

	if (c.bad || len > info_size - start)
		return false;
	u->end = start + len;
	u->version = (unsigned)ll_fixed(&c, 2);
	if (u->version < 2 || u->version > 5)
		return false;
	if (u->version >= 5) {
		unit_type = (unsigned)ll_fixed(&c, 1);
		u->addr_size = (unsigned)ll_fixed(&c, 1);
		u->abbrev_offset = ll_fixed(&c, u->offset_size);
		if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile)
			ll_skip(&c, 8);
		else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			ll_skip(&c, 8 + u->offset_size);
		else if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			return false;
	} else {
		u->abbrev_offset = ll_fixed(&c, u->offset_size);
		u->addr_size = (unsigned)ll_fixed(&c, 1);
	}
	if (c.bad || u->abbrev_offset >= abbrev_size)
		return false;
	u->first_die = off + (uint64_t)(c.p - hdr);
	if (u->first_die > u->end || u->first_die - u->offset > sizeof(u->head))
		return false;
	memcpy(u->head, hdr, (size_t)(u->first_die - u->offset));
	return true;
}

bool ll_scan_read_unit(const unsigned char *hdr, size_t avail, uint64_t off, uint64_t info_size,
		       uint64_t abbrev_size, struct ll_scan_unit *u)
{
	memset(u, 0, sizeof(*u));
	return scan_read_unit(hdr, avail, off, info_size, abbrev_size, u);
}

static bool wanted_tag(unsigned tag);

/* Size of a form when it does not depend on the value, else -1. */
static int fixed_form_size(unsigned form, const struct ll_scan_unit *u)
{
	switch (form) {
	case DW_FORM_flag_present: case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)u->addr_size;
	case DW_FORM_ref_addr:
		return (int)(u->version <= 2 ? u->addr_size : u->offset_size);
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return (int)u->offset_size;
	default:
		return -1;
	}
}

/* Where a constant of FORM sits in DIE bytes: as struct quick_const says. */
static bool quick_const_form(unsigned form, int64_t implicit, int32_t at, struct quick_const *q)
{
	switch (form) {
	case DW_FORM_data1: q->size = 1; break;
	case DW_FORM_data2: q->size = 2; break;
	case DW_FORM_data4: q->size = 4; break;
	case DW_FORM_data8: q->size = 8; break;
	case DW_FORM_implicit_const: q->size = 0; q->value = implicit; break;
	default: return false;
	}
	q->at = at;
	return true;
}

static bool ref_form_fixed(unsigned form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8;
}

/*
 * A's quick_aggregate plan: only where capture_aggregate()'s attribute
 * walk would read the same (no attribute repeated, every one of fixed
 * size after a leading inline name, none it leaves to libdw).
 */
static void precompute_quick_aggregate(const struct abbrev_table *t, struct abbrev *a,
				       const struct ll_scan_unit *u)
{
	int32_t at = 0;
	unsigned sizes = 0, lines = 0, files = 0;

	a->quick_aggregate = false;
	a->q_named = a->q_inline_name;
	for (unsigned i = a->q_inline_name; i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i], form = t->form[a->first + i];
		int64_t implicit = t->implicit[a->first + i];
		int size = fixed_form_size(form, u);

		if (size < 0 || attr == DW_AT_declaration || attr == DW_AT_specification ||
		    attr == DW_AT_abstract_origin)
			return;
		if (attr == DW_AT_name)
			a->q_named = true;
		else if (attr == DW_AT_byte_size && (sizes++ || !quick_const_form(form, implicit, at,
									       &a->q_byte_size)))
			return;
		else if (attr == DW_AT_decl_line && (lines++ || !quick_const_form(form, implicit, at,
									       &a->q_line)))
			return;
		else if (attr == DW_AT_decl_file && (files++ || !quick_const_form(form, implicit, at,
									       &a->q_file)))
			return;
		at += size;
	}
	a->q_bytes = (uint32_t)at;
	a->quick_aggregate = sizes && lines && files;
}

/*
 * A's quick_child plan, for a member (what scan_hash_members() mostly meets;
 * planning every abbreviation made each unit's table slower to load), or
 * for an aggregate its quick_aggregate plan.
 * Only where scan_hash_members()'s attribute walk would read the same: it
 * takes the last of a repeated attribute and steps over a location of
 * another form, so a repeat or another form takes that walk.
 */
static void precompute_quick(const struct abbrev_table *t, struct abbrev *a,
			     const struct ll_scan_unit *u)
{
	unsigned names = 0, locs = 0, bits = 0, siblings = 0;
	int32_t at = 0;
	bool inline_name = a->nr_attrs && t->attr[a->first] == DW_AT_name &&
			   t->form[a->first] == DW_FORM_string;

	a->quick_child = false;
	a->q_inline_name = inline_name;
	a->q_name_at = -1;
	a->q_loc = a->q_bits = (struct quick_const){ .at = -1 };
	a->q_sibling_at = -1;
	if (is_aggregate(a->tag)) {
		precompute_quick_aggregate(t, a, u);
		return;
	}
	a->quick_aggregate = false;
	if ((a->fixed_size < 0 && !inline_name) || a->tag != DW_TAG_member)
		return;
	names = inline_name;
	for (unsigned i = inline_name; i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i], form = t->form[a->first + i];
		int64_t implicit = t->implicit[a->first + i];
		int size = fixed_form_size(form, u);

		if (size < 0)
			return;
		if (attr == DW_AT_sibling) {
			siblings++;
			if (ref_form_fixed(form)) {
				a->q_sibling_at = at;
				a->q_sibling_size = (uint8_t)size;
			}
		} else if (attr == DW_AT_name) {
			names++;
			if (form != DW_FORM_strp)
				return;
			a->q_name_at = at;
		} else if (attr == DW_AT_data_member_location) {
			if (locs++ || !quick_const_form(form, implicit, at, &a->q_loc))
				return;
		} else if (attr == DW_AT_data_bit_offset) {
			if (bits++ || !quick_const_form(form, implicit, at, &a->q_bits))
				return;
		}
		at += size;
	}
	a->q_bytes = (uint32_t)at;
	a->quick_child = names <= 1 && siblings <= 1;
}

void scan_plan_abbrev(const struct abbrev_table *t, struct abbrev *a,
		      const struct ll_scan_unit *u)
{
	int32_t at = 0;
	bool fixed_so_far = true, named = false;

	a->sibling_at = -1;
	a->name_strp_at = -1;
	a->located = false;
	for (unsigned i = 0; a->tag == DW_TAG_variable && i < a->nr_attrs; i++)
		a->located |= t->attr[a->first + i] == DW_AT_location;
	for (unsigned i = 0; i < a->nr_attrs; i++) {
		int size = fixed_form_size(t->form[a->first + i], u);

		if (t->attr[a->first + i] == DW_AT_sibling && fixed_so_far) {
			a->sibling_at = at;
			a->sibling_form = t->form[a->first + i];
		}
		if (t->attr[a->first + i] == DW_AT_name && !named) {
			named = true;
			if (fixed_so_far && t->form[a->first + i] == DW_FORM_strp)
				a->name_strp_at = at;
		}
		if (size < 0)
			fixed_so_far = false;
		else
			at += size;
	}
	a->fixed_size = fixed_so_far ? at : -1;
	precompute_quick(t, a, u);
	a->planned = true;
}

void scan_abbrev_table_release(struct abbrev_table *t)
{
	ll_free_all(t->by_code, t->attr, t->form, t->implicit);
}

/* T's attribute spec arrays, full, twice as long. */
static void grow_specs(struct abbrev_table *t)
{
	t->cap_specs = t->cap_specs ? t->cap_specs * 2 : 1024;
	t->attr = xrealloc(t->attr, t->cap_specs * sizeof(*t->attr));
	t->form = xrealloc(t->form, t->cap_specs * sizeof(*t->form));
	t->implicit = xrealloc(t->implicit, t->cap_specs * sizeof(*t->implicit));
}

/*
 * One abbreviation's attribute specs from C into T from spec *SPECS on
 * (which counts them), A's count of them, and the table's name flags when
 * A is a wanted tag; false on a spec this scan refuses (C bad, an
 * attribute or form past 16 bits, more than MAX_ATTRS, a sibling of a
 * DIE without children).
 * The count and the flags are locals of the caller's loop: kept in T, they
 * were stored and loaded again around each spec's stores to the arrays,
 * which may alias them (a quarter of loading ~1,800 tables).
 */
static bool read_specs(struct ll_cursor *c, struct abbrev_table *t, struct abbrev *a,
		       size_t *nr_specs, bool *names_inline, bool *names_hidden)
{
	size_t specs = *nr_specs;
	unsigned nr = 0;
	uint16_t *attr = t->attr, *forms = t->form;
	int64_t *implicit = t->implicit;

	for (;;) {
		uint64_t at, form;
		int64_t value = 0;

		/* Most specs are two one-byte LEBs (skip_abbrev_specs()). */
		if (c->end - c->p >= 2 && !((c->p[0] | c->p[1]) & 0x80)) {
			at = c->p[0];
			form = c->p[1];
			c->p += 2;
		} else {
			at = ll_uleb(c);
			form = ll_uleb(c);
			if (c->bad)
				return false;
		}
		if (at == 0 && form == 0)
			break;
		if (form == DW_FORM_implicit_const)
			value = ll_sleb(c);	/* the value lives here, not in the DIE */
		if (at > 0xffff || form > 0xffff || nr == MAX_ATTRS)
			return false;
		if (specs == t->cap_specs) {
			grow_specs(t);
			attr = t->attr;
			forms = t->form;
			implicit = t->implicit;
		}
		attr[specs] = (uint16_t)at;
		forms[specs] = (uint16_t)form;
		implicit[specs] = value;
		specs++;
		nr++;
		/*
		 * libdw's dwarf_siblingof() follows DW_AT_sibling from a DIE
		 * without children too, past whatever lies between; this scan
		 * steps to the next DIE. No compiler writes one there (gcc only
		 * on DIEs with children, clang none): the unit goes to the
		 * libdw walk, so that the two never read different trees.
		 */
		if (at == DW_AT_sibling && !a->children)
			return false;
		if (at == DW_AT_name && a->wanted) {
			if (form == DW_FORM_string)
				*names_inline = true;
			else if (form != DW_FORM_strp)
				*names_hidden = true;
		}
	}
	a->nr_attrs = (uint16_t)nr;
	*nr_specs = specs;
	return true;
}

bool scan_load_abbrevs(const struct ll_scan_input *in, const struct ll_scan_unit *u,
		       struct abbrev_table *t)
{
	uint64_t off = u->abbrev_offset;
	struct ll_cursor c = { in->abbrev + off, in->abbrev + in->abbrev_size, false };
	size_t specs = 0, used = 0;
	bool names_inline = false, names_hidden = false, scopes = false;

	if (t->valid && t->offset == off && t->addr_size == u->addr_size &&
	    t->offset_size == u->offset_size && t->version == u->version)
		return true;
	if (t->by_code)
		memset(t->by_code, 0, t->codes_used * sizeof(*t->by_code));
	t->codes_used = 0;
	t->nr_specs = 0;
	t->valid = false;
	t->addr_size = u->addr_size;
	t->offset_size = u->offset_size;
	t->version = u->version;
	t->names_inline = t->names_hidden = t->scopes = false;
	for (;;) {
		uint64_t code = ll_uleb(&c);

		if (c.bad)
			goto bad;
		if (code == 0)
			break;
		if (code >= MAX_ABBREV_CODE)
			goto bad;
		if (code >= t->nr_codes) {
			size_t n = t->nr_codes ? t->nr_codes : 256;

			while (n <= code)
				n *= 2;
			t->by_code = xrealloc(t->by_code, n * sizeof(*t->by_code));
			memset(t->by_code + t->nr_codes, 0, (n - t->nr_codes) * sizeof(*t->by_code));
			t->nr_codes = n;
		}
		struct abbrev *a = &t->by_code[code];

		if (code >= used)
			used = code + 1;
		/* A code defined twice: libdw and this scan would each pick one. */
		if (a->present)
			goto bad;
		a->tag = (uint16_t)ll_uleb(&c);
		scopes |= ll_scope_tag(a->tag);
		uint64_t children = ll_fixed(&c, 1);

		/*
		 * Only no (0) and yes (1) exist. Reading 2 as yes here and as no
		 * in libdw made the two disagree; the unit goes to the libdw
		 * walk, which refuses the table (ll_abbrev_children_valid).
		 */
		if (children > DW_CHILDREN_yes)
			goto bad;
		a->children = children;
		a->present = true;
		a->first = (uint32_t)specs;
		a->wanted = wanted_tag(a->tag);
		if (!read_specs(&c, t, a, &specs, &names_inline, &names_hidden))
			goto bad;
	}
	t->codes_used = used;
	t->nr_specs = specs;
	t->names_inline = names_inline;
	t->names_hidden = names_hidden;
	t->scopes = scopes;
	t->offset = off;
	t->valid = true;
	return true;
bad:
	/* What to clear at the next load; the table stays invalid. */
	t->codes_used = used;
	return false;
}

static bool wanted_tag(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_typedef;
}
