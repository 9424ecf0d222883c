// SPDX-License-Identifier: GPL-2.0-or-later
/* The raw top-level DIE scanner; see dwarf_scan.h for what it promises. */
#include "input/dwarf/dwarf_scan.h"

#include <dwarf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "input/dwarf/byte_cursor.h"
#include "input/dwarf/ctype_name.h"
#include "input/dwarf/scopes.h"
#include "util/huge_page.h"
#include "util/pathglob.h"
#include "util/read_file.h"
#include "util/strbuf.h"

#define MAX_ABBREV_CODE (1u << 16)
#define MAX_ATTRS 256

struct abbrev {
	uint16_t tag;
	bool children;
	bool present;
	bool wanted;		/* a tag whose name the scan checks */
	uint16_t nr_attrs;
	uint32_t first;		/* index into the spec arrays */
	/*
	 * Shortcuts for DIEs the scan only steps over: -1 unless every form
	 * before the attribute (or in the whole DIE) has a fixed size.
	 */
	int32_t fixed_size;
	int32_t sibling_at;
	uint16_t sibling_form;
	int32_t name_strp_at;	/* the first DW_AT_name, when a DW_FORM_strp */
	bool located;		/* a DW_TAG_variable with a DW_AT_location */
	/*
	 * The fields from fixed_size on are planned at the first DIE that
	 * uses the abbreviation (planned_abbrev()): a top-level walk meets a
	 * fraction of a unit's ~140 codes, and planning all of them was a
	 * third of loading the ~1,800 tables a lookup of struct file reads.
	 */
	bool planned;
	/*
	 * For hash_members(), which reads every member of every definition
	 * (most of a --list='*' scan): a DIE of fixed size with each of what
	 * it reads at most once and at a fixed place, read there at once.
	 * Or the same after an inline name (Q_INLINE_NAME): gcc writes a
	 * name of up to 3 characters as a DW_FORM_string, first, and ~9% of
	 * a kernel's members took the attribute walk for that alone. The
	 * places are then counted from the byte after the name's NUL.
	 */
	bool quick_child;
	bool q_inline_name;
	uint32_t q_bytes;	/* the fixed bytes (after an inline name) */
	struct quick_const {
		int32_t at;	/* -1: absent */
		uint8_t size;	/* 0: DW_FORM_implicit_const, VALUE */
		int64_t value;
	} q_loc, q_bits;
	int32_t q_name_at;	/* a member's DW_FORM_strp name; -1: absent */
	int32_t q_sibling_at;	/* a unit-relative DW_FORM_refN sibling; -1: none */
	uint8_t q_sibling_size;
	/*
	 * For capture_aggregate(), the same for a struct, union or class
	 * (~10^6 read in a --list='*' scan): size, line and file once each
	 * at fixed places, nothing that makes libdw integrate another DIE.
	 */
	bool quick_aggregate;
	bool q_named;		/* has a DW_AT_name, of any form */
	struct quick_const q_byte_size, q_line, q_file;
};

struct abbrev_table {
	struct abbrev *by_code;
	size_t nr_codes;
	size_t codes_used;	/* the highest code loaded, plus one: what to clear */
	uint16_t *attr;
	uint16_t *form;
	int64_t *implicit;	/* DW_FORM_implicit_const values, by spec */
	size_t nr_specs, cap_specs;
	uint64_t offset;	/* .debug_abbrev offset it was read from */
	unsigned addr_size, offset_size, version;	/* form sizes depend on these */
	bool valid;
	bool names_inline;	/* some wanted DIE may carry its name as DW_FORM_string */
	bool names_hidden;	/* ... or in a form whose bytes are not the .debug_str offset */
	bool scopes;		/* some entry has an ll_scope_tag() */
};

/*
 * Read one unit header from HDR (the first bytes of the unit at OFF);
 * false on a header it cannot read.
 */
static bool read_unit(const unsigned char *hdr, size_t avail, uint64_t off, uint64_t info_size,
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
	return read_unit(hdr, avail, off, info_size, abbrev_size, u);
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

static bool is_aggregate(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
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
 * A's quick_child plan, for a member (what hash_members() mostly meets;
 * planning every abbreviation made each unit's table slower to load), or
 * for an aggregate its quick_aggregate plan.
 * Only where hash_members()'s attribute walk would read the same: it
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

static void precompute(const struct abbrev_table *t, struct abbrev *a,
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

/* The abbreviation CODE of table T, planned; NULL when T has none. */
static inline const struct abbrev *planned_abbrev(const struct abbrev_table *t, uint64_t code)
{
	if (code >= t->nr_codes || !t->by_code[code].present)
		return NULL;
	struct abbrev *a = &t->by_code[code];

	if (!a->planned) {
		const struct ll_scan_unit u = { .addr_size = t->addr_size,
						.offset_size = t->offset_size,
						.version = t->version };

		precompute(t, a, &u);
	}
	return a;
}

static void abbrev_table_release(struct abbrev_table *t)
{
	free(t->by_code);
	free(t->attr);
	free(t->form);
	free(t->implicit);
}

static bool load_abbrevs(const struct ll_scan_input *in, const struct ll_scan_unit *u,
			 struct abbrev_table *t)
{
	uint64_t off = u->abbrev_offset;
	struct ll_cursor c = { in->abbrev + off, in->abbrev + in->abbrev_size, false };

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
			return false;
		if (code == 0)
			break;
		if (code >= MAX_ABBREV_CODE)
			return false;
		if (code >= t->nr_codes) {
			size_t n = t->nr_codes ? t->nr_codes : 256;

			while (n <= code)
				n *= 2;
			t->by_code = xrealloc(t->by_code, n * sizeof(*t->by_code));
			memset(t->by_code + t->nr_codes, 0, (n - t->nr_codes) * sizeof(*t->by_code));
			t->nr_codes = n;
		}
		struct abbrev *a = &t->by_code[code];

		if (code >= t->codes_used)
			t->codes_used = code + 1;
		/* A code defined twice: libdw and this scan would each pick one. */
		if (a->present)
			return false;
		a->tag = (uint16_t)ll_uleb(&c);
		t->scopes |= ll_scope_tag(a->tag);
		uint64_t children = ll_fixed(&c, 1);

		/*
		 * Only no (0) and yes (1) exist. Reading 2 as yes here and as no
		 * in libdw made the two disagree; the unit goes to the libdw
		 * walk, which refuses the table (ll_abbrev_children_valid).
		 */
		if (children > DW_CHILDREN_yes)
			return false;
		a->children = children;
		a->present = true;
		a->first = (uint32_t)t->nr_specs;
		a->nr_attrs = 0;
		for (;;) {
			uint64_t at = ll_uleb(&c), form = ll_uleb(&c);
			int64_t value = 0;

			if (c.bad)
				return false;
			if (at == 0 && form == 0)
				break;
			if (form == DW_FORM_implicit_const)
				value = ll_sleb(&c);	/* the value lives here, not in the DIE */
			if (at > 0xffff || form > 0xffff || a->nr_attrs == MAX_ATTRS)
				return false;
			if (t->nr_specs == t->cap_specs) {
				t->cap_specs = t->cap_specs ? t->cap_specs * 2 : 1024;
				t->attr = xrealloc(t->attr, t->cap_specs * sizeof(*t->attr));
				t->form = xrealloc(t->form, t->cap_specs * sizeof(*t->form));
				t->implicit = xrealloc(t->implicit,
						       t->cap_specs * sizeof(*t->implicit));
			}
			t->attr[t->nr_specs] = (uint16_t)at;
			t->form[t->nr_specs] = (uint16_t)form;
			t->implicit[t->nr_specs] = value;
			t->nr_specs++;
			a->nr_attrs++;
		}
		/*
		 * libdw's dwarf_siblingof() follows DW_AT_sibling from a DIE
		 * without children too, past whatever lies between; this scan
		 * steps to the next DIE. No compiler writes one there (gcc only
		 * on DIEs with children, clang none): the unit goes to the
		 * libdw walk, so that the two never read different trees.
		 */
		for (unsigned i = 0; !a->children && i < a->nr_attrs; i++)
			if (t->attr[a->first + i] == DW_AT_sibling)
				return false;
		a->wanted = wanted_tag(a->tag);
		for (unsigned i = 0; a->wanted && i < a->nr_attrs; i++) {
			if (t->attr[a->first + i] != DW_AT_name)
				continue;
			if (t->form[a->first + i] == DW_FORM_string)
				t->names_inline = true;
			else if (t->form[a->first + i] != DW_FORM_strp)
				t->names_hidden = true;
		}
	}
	t->offset = off;
	t->addr_size = u->addr_size;
	t->offset_size = u->offset_size;
	t->version = u->version;
	t->valid = true;
	return true;
}

/* Skip one attribute value; false for a form this scanner does not know. */
static bool skip_form(struct ll_cursor *c, unsigned form, const struct ll_scan_unit *u, int depth)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return true;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		ll_skip(c, 1); return true;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		ll_skip(c, 2); return true;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		ll_skip(c, 3); return true;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		ll_skip(c, 4); return true;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		ll_skip(c, 8); return true;
	case DW_FORM_data16:
		ll_skip(c, 16); return true;
	case DW_FORM_addr:
		ll_skip(c, u->addr_size); return true;
	case DW_FORM_ref_addr:
		ll_skip(c, u->version <= 2 ? u->addr_size : u->offset_size); return true;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		ll_skip(c, u->offset_size); return true;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
	case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		ll_skip_leb(c); return true;
	case DW_FORM_string: {
		const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));

		if (!nul) {
			c->bad = true;
			return false;
		}
		c->p = nul + 1;
		return true;
	}
	case DW_FORM_block1:
		ll_skip(c, ll_fixed(c, 1)); return true;
	case DW_FORM_block2:
		ll_skip(c, ll_fixed(c, 2)); return true;
	case DW_FORM_block4:
		ll_skip(c, ll_fixed(c, 4)); return true;
	case DW_FORM_block: case DW_FORM_exprloc:
		ll_skip(c, ll_uleb(c)); return true;
	case DW_FORM_indirect:
		if (depth > 4)
			return false;
		return skip_form(c, (unsigned)ll_uleb(c), u, depth + 1);
	default:
		return false;
	}
}

/* What the scan looks for: string offsets of the names, and the names. */
struct targets {
	uint32_t *list;		/* every candidate offset, for the byte filter */
	uint8_t *anchor;	/* by list entry: its rarest byte in DIE bytes (0-3) */
	size_t nr_list;
	uint64_t *offsets;	/* open addressing, 0 = empty slot (offset+1 stored) */
	uint32_t *offset_name;
	size_t mask;
	const char *const *names;
	size_t n;
	uint32_t *name_slots;	/* index + 1 into names, by content */
	size_t name_mask;
	size_t shortest;	/* length of the shortest name */
	bool collect_all;	/* every named struct/union/typedef, not NAMES */
	/*
	 * NAMES are distinct and at most 64: a unit's walk may stop once it
	 * has met a definition of each (scan_unit()).
	 */
	bool stop_when_defined;
};

static size_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static void add_offset(struct targets *t, uint64_t off, uint32_t name)
{
	size_t at = hash64(off) & t->mask;

	while (t->offsets[at] && t->offsets[at] != off + 1)
		at = (at + 1) & t->mask;
	t->offsets[at] = off + 1;
	t->offset_name[at] = name;
}

static bool find_offset(const struct targets *t, uint64_t off, uint32_t *name)
{
	size_t at = hash64(off) & t->mask;

	while (t->offsets[at]) {
		if (t->offsets[at] == off + 1) {
			*name = t->offset_name[at];
			return true;
		}
		at = (at + 1) & t->mask;
	}
	return false;
}

/*
 * Every place "NAME\0" occurs in .debug_str is a string offset a DIE may
 * use: the linker merges string tails, so "file" may live only as the end
 * of "profile".
 */
/* Names by content, for inline names and for finding many names at once. */
static uint64_t str_hash(const char *s, size_t n)
{
	return ll_sig_mix(LL_SIG_INIT, s, n);
}

static void name_index_init(struct targets *t)
{
	size_t slots = 16;

	while (slots < t->n * 4)
		slots *= 2;
	t->name_slots = xcalloc(slots, sizeof(*t->name_slots));
	t->name_mask = slots - 1;
	for (size_t i = 0; i < t->n; i++) {
		size_t at = str_hash(t->names[i], strlen(t->names[i])) & t->name_mask;

		while (t->name_slots[at] && strcmp(t->names[t->name_slots[at] - 1], t->names[i]) != 0)
			at = (at + 1) & t->name_mask;
		if (!t->name_slots[at])
			t->name_slots[at] = (uint32_t)i + 1;
	}
}

/* Index of the name S[0..n) among the targets, or -1. */
static long name_index(const struct targets *t, const char *s, size_t n)
{
	size_t at = str_hash(s, n) & t->name_mask;

	while (t->name_slots[at]) {
		const char *cand = t->names[t->name_slots[at] - 1];

		if (strncmp(cand, s, n) == 0 && cand[n] == '\0')
			return (long)t->name_slots[at] - 1;
		at = (at + 1) & t->name_mask;
	}
	return -1;
}

struct found_offsets {
	uint64_t *off;
	uint32_t *name;
	size_t n, cap;
};

static void found_push(struct found_offsets *f, uint64_t off, uint32_t name)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->off = xrealloc(f->off, f->cap * sizeof(*f->off));
		f->name = xrealloc(f->name, f->cap * sizeof(*f->name));
	}
	f->off[f->n] = off;
	f->name[f->n++] = name;
}

/* Below this many names, one search each; above, one pass over all strings. */
#define FEW_NAMES 8

/*
 * The first copy of NEEDLE (LEN bytes: a name and its NUL) in [P, END),
 * or NULL. 16 positions at a time, those whose first byte and whose last
 * (the NUL) are the needle's, then memcmp: glibc's memmem was 11% of a
 * cold lookup in xfs.ko (6.6 MB of .debug_str), serial before the scan's
 * threads start. memmem for the rest, and for an empty name (LEN 1).
 */
static const unsigned char *find_string(const unsigned char *p, const unsigned char *end,
					const unsigned char *needle, size_t len)
{
#ifdef __SSE2__
	const __m128i first = _mm_set1_epi8((char)needle[0]);
	const __m128i last = _mm_set1_epi8((char)needle[len - 1]);

	while (len >= 2 && (size_t)(end - p) >= len - 1 + 16) {
		__m128i a = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), first);
		__m128i b = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + len - 1)), last);
		unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(a, b));

		for (; mask; mask &= mask - 1) {
			const unsigned char *at = p + __builtin_ctz(mask);

			if (memcmp(at + 1, needle + 1, len - 2) == 0)
				return at;
		}
		p += 16;
	}
#endif
	return p < end ? memmem(p, (size_t)(end - p), needle, len) : NULL;
}

/*
 * Every copy of NAME (LEN bytes with its NUL) that starts in the first
 * STARTS bytes of [P, P + SIZE), bytes AT on of .debug_str, into F as
 * name K.
 */
static void push_copies(const unsigned char *p, size_t size, size_t starts, uint64_t at,
			const char *name, size_t len, uint32_t k, struct found_offsets *f)
{
	const unsigned char *from = p, *end = p + size;

	while (from < end) {
		const unsigned char *hit = find_string(from, end, (const unsigned char *)name, len);

		if (!hit || (size_t)(hit - p) >= starts)
			break;
		found_push(f, at + (uint64_t)(hit - p), k);
		from = hit + 1;
	}
}

/* .debug_str read at a time by search_file(), unless the input says. */
#define STR_CHUNK ((size_t)64 << 10)

/*
 * Every copy of the N (at most FEW_NAMES) NAMES in .debug_str, read from
 * IN's file (in->str_fd) a chunk at a time into one buffer, into F name
 * after name as the mapping's search finds them. Each chunk is read once
 * for all names, with the bytes of the next that the longest name needs,
 * so that a copy across the cut is seen once (from the chunk it starts
 * in). False, F untouched, when the file cannot be read or a name is
 * longer than a chunk: the mapping is searched instead.
 */
static bool search_file(const struct ll_scan_input *in, const char *const *names, size_t n,
			struct found_offsets *f)
{
	size_t chunk = in->str_chunk ? in->str_chunk : STR_CHUNK, len[FEW_NAMES], longest = 1;
	struct found_offsets per[FEW_NAMES] = { { 0 } };
	unsigned char *buf;
	bool ok = true;

	if (!in->str_in_file || n > FEW_NAMES)
		return false;
	for (size_t i = 0; i < n; i++) {
		len[i] = strlen(names[i]) + 1;	/* with the NUL */
		if (len[i] > chunk)
			return false;
		if (len[i] > longest)
			longest = len[i];
	}
	buf = xmalloc(chunk + longest);
	for (uint64_t off = 0; off < in->str_size && ok; off += chunk) {
		size_t want = in->str_size - off < chunk + longest - 1 ?
			      (size_t)(in->str_size - off) : chunk + longest - 1;

		ok = ll_pread_all(in->str_fd, buf, want, in->str_file_offset + off) == want;
		for (size_t i = 0; i < n && ok; i++)
			push_copies(buf, want, chunk, off, names[i], len[i], (uint32_t)i, &per[i]);
	}
	free(buf);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < per[i].n && ok; j++)
			found_push(f, per[i].off[j], per[i].name[j]);
		free(per[i].off);
		free(per[i].name);
	}
	return ok;
}

static void build_targets(const struct ll_scan_input *in, const char *const *names, size_t n,
			  struct targets *t)
{
	struct found_offsets f = { 0 };

	memset(t, 0, sizeof(*t));
	t->names = names;
	t->n = n;
	t->shortest = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) < t->shortest)
			t->shortest = strlen(names[i]);
	name_index_init(t);
	t->stop_when_defined = n > 0 && n <= 64;
	for (size_t i = 0; i < n && t->stop_when_defined; i++)
		t->stop_when_defined = name_index(t, names[i], strlen(names[i])) == (long)i;
	if (n > FEW_NAMES) {
		/*
		 * Every suffix of every string whose length and first byte are
		 * a wanted name's: hashing only those keeps this pass cheap.
		 */
		bool lens[257] = { false };
		uint8_t firsts[257][32] = { { 0 } };

		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(names[i]);
			unsigned char c0 = (unsigned char)names[i][0];

			if (l <= 256) {
				lens[l] = true;
				firsts[l][c0 >> 3] |= (uint8_t)(1u << (c0 & 7));
			}
		}
		size_t want[256], nr_want = 0, start = 0;

		for (size_t l = 1; l <= 256; l++)
			if (lens[l])
				want[nr_want++] = l;
		for (size_t end = 0; end < in->str_size; end++) {
			if (in->str[end])
				continue;
			/* The string is [start, end); only its suffixes of wanted lengths. */
			for (size_t i = 0; i < nr_want && want[i] <= end - start; i++) {
				size_t l = want[i];
				const char *s = (const char *)in->str + end - l;
				long k;

				if (!(firsts[l][(unsigned char)s[0] >> 3] & (1u << ((unsigned char)s[0] & 7))))
					continue;
				if ((k = name_index(t, s, l)) >= 0)
					found_push(&f, end - l, (uint32_t)k);
			}
			start = end + 1;
		}
	}
	/* Names too long for the suffix pass, and every name when there are few. */
	bool from_file = n <= FEW_NAMES && search_file(in, names, n, &f);

	for (size_t i = 0; i < n && !from_file; i++) {
		size_t len = strlen(names[i]) + 1;	/* with the NUL */

		if (n <= FEW_NAMES || len > 257)
			push_copies(in->str, in->str_size, in->str_size, 0, names[i], len,
				    (uint32_t)i, &f);
	}
	size_t slots = 16;

	while (slots < f.n * 4)
		slots *= 2;
	t->offsets = xcalloc(slots, sizeof(*t->offsets));
	t->offset_name = xcalloc(slots, sizeof(*t->offset_name));
	t->mask = slots - 1;
	t->list = xmalloc((f.n ? f.n : 1) * sizeof(*t->list));
	t->anchor = xcalloc(f.n ? f.n : 1, sizeof(*t->anchor));
	for (size_t i = 0; i < f.n; i++) {
		add_offset(t, f.off[i], f.name[i]);
		if (f.off[i] <= UINT32_MAX)
			t->list[t->nr_list++] = (uint32_t)f.off[i];
	}
	free(f.off);
	free(f.name);
}

static void release_targets(struct targets *t)
{
	free(t->offsets);
	free(t->offset_name);
	free(t->list);
	free(t->anchor);
	free(t->name_slots);
}

static bool wanted_tag(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_typedef;
}

/* Bytes of a unit DIE this reads ahead of deciding whether to read the unit. */
#define UNIT_HEAD 512

/* The first bytes of a unit DIE, read with the unit header. */
struct unit_die_head {
	unsigned char bytes[UNIT_HEAD];
	size_t len;
};

/*
 * in->distinct: what makes two hits of one thread the same, as far as a
 * lookup can tell them apart (finer than its signature, so that the first
 * of each signature is always kept). Strings point into the debug
 * sections, or into the worker's comp_dirs.
 */
struct distinct_key {
	uint64_t hash, size, line, members_hash;
	uint32_t query, nr_members;
	uint16_t tag;
	bool via_typedef, declaration;
	const char *dir, *name, *comp_dir, *dir0;
};

struct distinct {
	struct distinct_key *keys;
	size_t nr_keys;
	uint32_t *slots;	/* open addressing: key index + 1 */
	size_t mask;
};

/* What every hit of one unit shares. */
struct unit_info {
	const struct ll_scan_unit *unit;	/* NULL: none read yet */
	bool ok;
	uint64_t stmt_list;
	const char *comp_dir;			/* in worker.comp_dirs */
};

/*
 * A member name's ll_sig_name() by its .debug_str offset, direct-mapped:
 * 2^15 slots (512 KiB) held ~all the names a thread meets again in the
 * members of the 6.12 image's ~1.3 M definitions. A lookup of a few names
 * reads far fewer members, and zeroed pages cost ~10 us each here: 2^11.
 */
#define NAME_MEMO_BITS_ALL 15
#define NAME_MEMO_BITS_FEW 11

struct name_memo {
	uint64_t off1;			/* offset + 1; 0: empty */
	uint64_t hash;
};

/*
 * The members hash of a definition by what its members' DIEs hold: each
 * name as its .debug_str offset (one section, so one offset is one
 * string), its location and bit offset. Every copy of a header's struct
 * in every unit has the same offsets, so only the first copy a thread
 * meets has its names' hashes looked up one by one (strp_name_hash(), a
 * cache miss each: a tenth of a whole-image scan's CPU).
 */
struct members_memo {
	struct members_memo_slot {
		uint64_t raw;		/* hash of the offsets */
		uint64_t members_hash;
		uint32_t nr;		/* members */
		bool used;
	} *v;
	size_t mask, used;
};

/* A .debug_str offset whose name a collect_all scan has: names[id]. */
struct seen_name {
	uint64_t off1;			/* offset + 1; 0: empty slot */
	uint32_t id;
	bool captured;			/* the name matches in->capture_glob */
};

/*
 * A run of consecutive units of the work, taken whole by whichever worker
 * is free, and where that worker's results for it went: the results are
 * merged in chunk order, so they come out in unit order however the
 * chunks were shared.
 */
struct chunk {
	size_t first, last;		/* work indexes [first, last) */
	unsigned worker;
	size_t hits, nr_hits;		/* the worker's hits [hits, hits + nr_hits) */
	size_t posts, nr_posts;
	size_t fallback, nr_fallback;
	size_t vars, nr_vars;
};

/* Chunks per thread: enough that the last one to finish waits little. */
#define CHUNKS_PER_THREAD 32

/*
 * The last producer string inline_name_max() judged, and its verdict: a
 * vmlinux's units share a few producers, each one .debug_str string, and
 * judging one is two strstr() over ~300 bytes.
 */
struct producer_memo {
	const char *producer;	/* NULL: none yet */
	size_t max;
	bool strp_names;
};

struct worker {
	const struct ll_scan_input *in;
	unsigned id;
	struct chunk *chunks;		/* shared; each written by the worker that took it */
	size_t nr_chunks;
	atomic_size_t *next_chunk;	/* shared */
	const struct unit_die_head *dies;	/* by unit, or NULL */
	const unsigned char *ub;	/* bytes of the unit being scanned */
	uint64_t ub_off;		/* .debug_info offset of ub[0] */
	unsigned char *buf;		/* pread buffer, reused across units */
	size_t buf_size;
	size_t largest_unit;		/* of the work: what buf is made for */
	const struct targets *targets;
	const struct ll_scan_unit *units;
	/*
	 * With units guessed from .debug_aranges (units_from_aranges()):
	 * the same array, whose headers the worker reads with each unit's
	 * bytes; a range that is not one unit sets *WRONG_GUESS and stops.
	 */
	struct ll_scan_unit *guessed;
	atomic_bool *wrong_guess;
	uint8_t *verdicts;		/* by unit, shared: each worker writes its chunks' */
	struct ll_scan_hit *hits;
	size_t nr_hits, cap_hits;
	uint64_t *fallback;
	size_t nr_fallback, cap_fallback;
	struct abbrev_table abbrevs;
	size_t lead;			/* names_end()'s first needle: the last to lead */
	atomic_size_t *units_done;	/* shared by all workers */
	atomic_bool *stop;		/* shared: in->stop_at_first_definition was met */
	size_t nr_units;
	bool report;			/* this worker runs in the caller's thread */
	/* collect_all: the distinct names seen, as .debug_str offsets or copies */
	struct seen_name *seen;		/* open addressing */
	size_t seen_mask, nr_seen;
	char **names;
	size_t nr_names, cap_names;
	struct ll_scan_posting *posts;	/* in->by_unit */
	size_t nr_posts;
	uint32_t unit;			/* index of the unit being scanned */
	const uint32_t *only;		/* in->only, or NULL */
	struct distinct distinct;	/* in->distinct */
	struct unit_info info;		/* of the last unit a hit needed it for */
	char **comp_dirs;		/* owned until the result takes them */
	size_t nr_comp_dirs;
	struct name_memo *name_memo;	/* allocated at the first member name */
	size_t name_memo_mask;
	struct members_memo members_memo;
	struct producer_memo producer_memo;	/* inline_name_max()'s */
	struct ll_scan_variable *vars;	/* in->variables */
	size_t nr_vars;
	/* Types the variables' reading spelled, by DIE: a unit's variables share them. */
	struct spelled_type {
		uint64_t die1;		/* .debug_info offset + 1; 0: empty */
		char *text;
	} *spelled;
	size_t nr_tables_read;		/* units whose abbreviations were read */
	bool scopes;			/* ... and any of them had a scope tag */
	bool defined_every_name;	/* scan_unit() stopped at the last definition */
	/* Bytes of the unit at ub_off that buf already holds (scan_prefix()). */
	size_t loaded_head;
};

static bool skip_children(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c);

static struct ll_scan_hit *push_hit(struct worker *w, uint64_t die, uint32_t name)
{
	if (w->nr_hits == w->cap_hits) {
		w->cap_hits = w->cap_hits ? w->cap_hits * 2 : 64;
		w->hits = xrealloc(w->hits, w->cap_hits * sizeof(*w->hits));
	}
	w->hits[w->nr_hits] = (struct ll_scan_hit){ .die = die, .query = name };
	return &w->hits[w->nr_hits++];
}

/* A constant attribute value; false (nothing read) for non-constant forms. */
static bool read_const(struct ll_cursor *c, unsigned form, uint64_t *v)
{
	switch (form) {
	case DW_FORM_data1: *v = ll_fixed(c, 1); break;
	case DW_FORM_data2: *v = ll_fixed(c, 2); break;
	case DW_FORM_data4: *v = ll_fixed(c, 4); break;
	case DW_FORM_data8: *v = ll_fixed(c, 8); break;
	case DW_FORM_udata: *v = ll_uleb(c); break;
	default: return false;
	}
	return !c->bad;
}

/* The constant of attribute spec SPEC of T: in the DIE, or in the abbreviation. */
static bool read_const_spec(struct ll_cursor *c, const struct abbrev_table *t, uint32_t spec,
			    uint64_t *v)
{
	if (t->form[spec] == DW_FORM_implicit_const) {
		*v = (uint64_t)t->implicit[spec];	/* as dwarf_formudata() gives it */
		return true;
	}
	return read_const(c, t->form[spec], v);
}

/* A unit-relative reference; false (nothing read) for other forms. */
static bool read_ref(struct ll_cursor *c, unsigned form, uint64_t *v)
{
	switch (form) {
	case DW_FORM_ref1: *v = ll_fixed(c, 1); break;
	case DW_FORM_ref2: *v = ll_fixed(c, 2); break;
	case DW_FORM_ref4: *v = ll_fixed(c, 4); break;
	case DW_FORM_ref8: *v = ll_fixed(c, 8); break;
	case DW_FORM_ref_udata: *v = ll_uleb(c); break;
	default: return false;
	}
	return !c->bad;
}

/* A string attribute: inline, or in .debug_str / .debug_line_str. */
static const char *read_string(const struct ll_scan_input *in, const struct ll_scan_unit *u,
			       struct ll_cursor *c, unsigned form)
{
	const unsigned char *base;
	size_t size;
	uint64_t off;

	if (form == DW_FORM_string) {
		const char *s = (const char *)c->p;

		return skip_form(c, form, u, 0) ? s : NULL;
	}
	if (form == DW_FORM_strp) {
		base = in->str;
		size = in->str_size;
	} else if (form == DW_FORM_line_strp) {
		base = in->line_str;
		size = in->line_str_size;
	} else {
		return NULL;
	}
	off = ll_fixed(c, u->offset_size);
	/* A section that ends in a NUL holds one after every offset in it. */
	if (c->bad || !base || off >= size ||
	    (base[size - 1] != 0 && !memchr(base + off, 0, size - off)))
		return NULL;
	return (const char *)base + off;
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
	uint64_t code = ll_uleb(&c);
	bool have_stmt = false, have_dir = false;

	if (c.bad || code >= t->nr_codes || !t->by_code[code].present)
		return false;
	const struct abbrev *a = planned_abbrev(t, code);

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
			w->comp_dirs = xgrow(w->comp_dirs, w->nr_comp_dirs, sizeof(*w->comp_dirs));
			w->comp_dirs[w->nr_comp_dirs++] = xstrdup(dir);
			w->info.comp_dir = w->comp_dirs[w->nr_comp_dirs - 1];
		} else if (!skip_form(&c, form, u, 0)) {
			return false;
		}
	}
	return have_stmt && !c.bad;
}

/* U's unit DIE facts in W->info, read at its first need; false when unreadable. */
static bool current_unit_info(struct worker *w, const struct ll_scan_unit *u)
{
	if (w->info.unit != u) {
		w->info = (struct unit_info){ .unit = u };
		w->info.ok = read_unit_info(w, u);
	}
	return w->info.ok;
}

static bool unit_info(struct worker *w, const struct ll_scan_unit *u, struct ll_scan_hit *h)
{
	bool ok = current_unit_info(w, u);

	h->stmt_list = w->info.stmt_list;
	h->comp_dir = w->info.comp_dir;
	return ok;
}

/*
 * ll_sig_name() of a member's name at C in FORM: remembered by
 * .debug_str offset, since the same few thousand names recur in every
 * unit. False when the name cannot be read.
 */
static bool strp_name_hash(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
			   uint64_t *hash);

static bool member_name_hash(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
			     unsigned form, uint64_t *hash)
{
	if (form != DW_FORM_strp) {
		const char *name = read_string(w->in, u, c, form);

		*hash = ll_sig_name(name);
		return name != NULL;
	}
	return strp_name_hash(w, u, c, hash);
}

/* member_name_hash() of the DW_FORM_strp at C. */
static bool strp_name_hash(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
			   uint64_t *hash)
{
	struct ll_cursor at = *c;
	uint64_t off = ll_fixed(&at, u->offset_size);

	if (at.bad)
		return false;
	if (!w->name_memo) {
		size_t slots = (size_t)1 << (w->targets->collect_all ? NAME_MEMO_BITS_ALL :
							       NAME_MEMO_BITS_FEW);

		w->name_memo = xcalloc(slots, sizeof(*w->name_memo));
		w->name_memo_mask = slots - 1;
	}
	struct name_memo *slot = &w->name_memo[hash64(off) & w->name_memo_mask];

	if (slot->off1 == off + 1) {
		*c = at;
		*hash = slot->hash;
		return true;
	}
	const char *name = read_string(w->in, u, c, DW_FORM_strp);

	if (!name)
		return false;
	*slot = (struct name_memo){ off + 1, ll_sig_name(name) };
	*hash = slot->hash;
	return true;
}

/* N (1, 2, 4 or 8) bytes at P, little endian, which the caller knows are there. */
static inline uint64_t load_fixed(const unsigned char *p, unsigned n)
{
	struct ll_cursor c = { p, p + n, false };

	return ll_fixed(&c, n);
}

static uint64_t quick_const_value(const unsigned char *fixed, const struct quick_const *q)
{
	return q->size ? load_fixed(fixed + q->at, q->size) : (uint64_t)q->value;
}

/*
 * hash_members()'s reading of a quick_child DIE at C (its code read): the
 * same values its attribute walk gives, C moved past the DIE. Its fixed
 * bytes are checked to be there once, then read in place.
 */
static bool read_quick_child(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
			     const struct abbrev *a, bool raw, uint64_t *name, uint64_t *loc,
			     uint64_t *bits, uint64_t *sibling)
{
	if (a->q_inline_name) {
		const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));

		if (!nul) {
			c->bad = true;
			return false;
		}
		*name = ll_sig_name((const char *)c->p);
		c->p = nul + 1;
	}
	const unsigned char *fixed = c->p;

	if ((uint64_t)(c->end - fixed) < a->q_bytes) {
		c->bad = true;
		return false;
	}
	if (a->q_name_at >= 0) {
		/* RAW: the offset itself (+ 1, so that no name differs from offset 0). */
		if (raw) {
			*name = load_fixed(fixed + a->q_name_at, u->offset_size) + 1;
		} else {
			struct ll_cursor at = { fixed + a->q_name_at, c->end, false };

			if (!strp_name_hash(w, u, &at, name))
				return false;
		}
	}
	if (a->q_loc.at >= 0)
		*loc = quick_const_value(fixed, &a->q_loc);
	if (a->q_bits.at >= 0)
		*bits = quick_const_value(fixed, &a->q_bits);
	if (a->q_sibling_at >= 0)
		*sibling = load_fixed(fixed + a->q_sibling_at, a->q_sibling_size) + u->offset;
	c->p = fixed + a->q_bytes;
	return true;
}

enum members_read { MEMBERS_BAD, MEMBERS_READ, MEMBERS_NOT_RAW };

/*
 * A member's name for hash_members() by offsets: a DW_FORM_strp as its
 * offset + 1; an inline name (gcc's for names of up to 3 characters) as
 * its hash, read where it is; MEMBERS_NOT_RAW for any other form.
 */
static enum members_read member_name_key(struct worker *w, const struct ll_scan_unit *u,
					 struct ll_cursor *c, unsigned form, uint64_t *name)
{
	if (form == DW_FORM_strp) {
		*name = ll_fixed(c, u->offset_size) + 1;
		return c->bad ? MEMBERS_BAD : MEMBERS_READ;
	}
	if (form != DW_FORM_string)
		return MEMBERS_NOT_RAW;
	const char *inline_name = read_string(w->in, u, c, form);

	if (!inline_name)
		return MEMBERS_BAD;
	*name = ll_sig_name(inline_name);
	return MEMBERS_READ;
}

/*
 * The members hash of ll_finder_signature(), from the raw children; with
 * RAW, each name by member_name_key() instead (members_memo), or
 * MEMBERS_NOT_RAW where a member's name is in a form that cannot say.
 */
static enum members_read hash_members(struct worker *w, const struct ll_scan_unit *u,
				      struct ll_cursor *c, struct ll_scan_hit *h, bool raw)
{
	const struct abbrev_table *t = &w->abbrevs;

	h->members_hash = LL_SIG_INIT;
	h->nr_members = 0;
	for (;;) {
		uint64_t code = ll_uleb(c);

		if (c->bad)
			return MEMBERS_BAD;
		if (code == 0)
			return MEMBERS_READ;
		if (code >= t->nr_codes || !t->by_code[code].present)
			return MEMBERS_BAD;
		const struct abbrev *a = planned_abbrev(t, code);
		bool member = a->tag == DW_TAG_member;
		uint64_t name = raw ? 0 : ll_sig_name(NULL), loc = 0, bits = 0;
		uint64_t sibling = 0;

		if (a->quick_child) {
			if (!read_quick_child(w, u, c, a, raw, &name, &loc, &bits, &sibling))
				return MEMBERS_BAD;
		}
		for (unsigned i = 0; !a->quick_child && i < a->nr_attrs; i++) {
			unsigned at = t->attr[a->first + i], form = t->form[a->first + i];

			if (member && at == DW_AT_name && raw) {
				enum members_read r = member_name_key(w, u, c, form, &name);

				if (r != MEMBERS_READ)
					return r;
			} else if (member && at == DW_AT_name) {
				if (!member_name_hash(w, u, c, form, &name))
					return MEMBERS_BAD;
			} else if (member && at == DW_AT_data_member_location &&
				   read_const_spec(c, t, a->first + i, &loc)) {
				/* read */
			} else if (member && at == DW_AT_data_bit_offset &&
				   read_const_spec(c, t, a->first + i, &bits)) {
				/* read */
			} else if (at == DW_AT_sibling && read_ref(c, form, &sibling)) {
				sibling += u->offset;
			} else if (!skip_form(c, form, u, 0)) {
				return MEMBERS_BAD;
			}
		}
		if (c->bad)
			return MEMBERS_BAD;
		if (member) {
			h->members_hash = ll_sig_member_hashed(h->members_hash, name, loc, bits);
			h->nr_members++;
		}
		if (!a->children)
			continue;
		/* A type defined inside the struct (clang puts anonymous unions here). */
		if (sibling) {
			if (sibling <= w->ub_off + (uint64_t)(c->p - w->ub) || sibling > u->end)
				return MEMBERS_BAD;
			c->p = w->ub + (sibling - w->ub_off);
		} else if (!skip_children(w, u, c)) {
			return MEMBERS_BAD;
		}
	}
}

static size_t members_memo_at(const struct members_memo *m, uint64_t raw, uint32_t nr)
{
	return hash64(raw ^ nr) & m->mask;
}

/* The members hash M remembers for the offsets' hash RAW of NR members. */
static bool members_memo_find(const struct members_memo *m, uint64_t raw, uint32_t nr,
			      uint64_t *members_hash)
{
	if (!m->v)
		return false;
	for (size_t at = members_memo_at(m, raw, nr); m->v[at].used; at = (at + 1) & m->mask)
		if (m->v[at].raw == raw && m->v[at].nr == nr) {
			*members_hash = m->v[at].members_hash;
			return true;
		}
	return false;
}

static void members_memo_add(struct members_memo *m, uint64_t raw, uint32_t nr,
			     uint64_t members_hash)
{
	if (!m->v || (m->used + 1) * 2 > m->mask + 1) {
		struct members_memo grown = { .mask = m->v ? m->mask * 2 + 1 : 63 };

		grown.v = xcalloc(grown.mask + 1, sizeof(*grown.v));
		for (size_t i = 0; m->v && i <= m->mask; i++)
			if (m->v[i].used)
				members_memo_add(&grown, m->v[i].raw, m->v[i].nr,
						 m->v[i].members_hash);
		free(m->v);
		*m = grown;
	}
	size_t at = members_memo_at(m, raw, nr);

	while (m->v[at].used)
		at = (at + 1) & m->mask;
	m->v[at] = (struct members_memo_slot){ raw, members_hash, nr, true };
	m->used++;
}

/*
 * hash_members() of the children at C into H, through the thread's
 * members_memo: read by offsets first, and only a definition whose
 * offsets the thread has not met has its names' hashes looked up (then it
 * is remembered). The same answer either way: equal offsets are equal
 * names, and whatever the offsets' reading cannot take (a member named
 * another way) takes the names' reading.
 */
static bool members_of(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c,
		       struct ll_scan_hit *h)
{
	struct ll_cursor start = *c;
	enum members_read by_offsets = hash_members(w, u, c, h, true);
	uint64_t raw = h->members_hash;

	if (by_offsets == MEMBERS_BAD)
		return false;
	if (by_offsets == MEMBERS_READ &&
	    members_memo_find(&w->members_memo, raw, h->nr_members, &h->members_hash))
		return true;
	*c = start;
	if (hash_members(w, u, c, h, false) != MEMBERS_READ)
		return false;
	if (by_offsets == MEMBERS_READ)
		members_memo_add(&w->members_memo, raw, h->nr_members, h->members_hash);
	return true;
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
	uint64_t code = ll_uleb(&c);

	if (c.bad || code == 0 || code >= t->nr_codes || !t->by_code[code].present)
		return false;
	const struct abbrev *a = planned_abbrev(t, code);

	if (!is_aggregate(a->tag))
		return true;
	for (unsigned i = 0; i < a->nr_attrs; i++) {
		unsigned attr = t->attr[a->first + i];

		/* A name inherited from elsewhere is for libdw to follow. */
		if (attr == DW_AT_specification || attr == DW_AT_abstract_origin)
			return false;
		if (attr == DW_AT_name)
			return true;
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
	uint64_t code = ll_uleb(&c);
	bool have_size = false, have_line = false, have_file = false;

	if (c.bad || code >= t->nr_codes || !t->by_code[code].present)
		return;
	const struct abbrev *a = planned_abbrev(t, code);

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
	uint64_t code = ll_uleb(&c), type = 0;
	bool have_type = false;

	if (c.bad || code >= t->nr_codes || !t->by_code[code].present)
		return;
	const struct abbrev *a = planned_abbrev(t, code);

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

static void push_fallback(struct worker *w, uint64_t unit)
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

static void seen_grow(struct worker *w)
{
	size_t cap = w->seen_mask ? (w->seen_mask + 1) * 2 : 4096;
	struct seen_name *old = w->seen;
	size_t old_cap = w->seen_mask ? w->seen_mask + 1 : 0;

	w->seen = xcalloc(cap, sizeof(*w->seen));
	w->seen_mask = cap - 1;
	for (size_t i = 0; i < old_cap; i++) {
		if (!old[i].off1)
			continue;
		size_t at = hash64(old[i].off1 - 1) & w->seen_mask;

		while (w->seen[at].off1)
			at = (at + 1) & w->seen_mask;
		w->seen[at] = old[i];
	}
	free(old);
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
	if (w->nr_seen * 2 >= w->seen_mask)
		seen_grow(w);
	size_t at = hash64(str_off) & w->seen_mask;

	while (w->seen[at].off1) {
		if (w->seen[at].off1 == str_off + 1) {
			*id = w->seen[at].id;
			add_posting(w, *id);
			return w->seen[at].captured;
		}
		at = (at + 1) & w->seen_mask;
	}
	const char *name = (const char *)w->in->str + str_off;

	add_name(w, name);
	w->seen[at] = (struct seen_name){ str_off + 1, (uint32_t)(w->nr_names - 1),
					  captured_name(w, name) };
	w->nr_seen++;
	*id = w->seen[at].id;
	add_posting(w, *id);
	return w->seen[at].captured;
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
	uint64_t code = ll_uleb(c);

	*match = false;
	*sibling = 0;
	if (c->bad)
		return DIE_UNSURE;
	if (code == 0)
		return DIE_END;
	if (code >= t->nr_codes || !t->by_code[code].present)
		return DIE_UNSURE;
	const struct abbrev *a = planned_abbrev(t, code);
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
static bool skip_children(struct worker *w, const struct ll_scan_unit *u, struct ll_cursor *c)
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
		if (sibling) {
			if (sibling <= w->ub_off + (uint64_t)(c->p - w->ub) || sibling > u->end)
				return false;
			c->p = w->ub + (sibling - w->ub_off);
		} else {
			depth++;
		}
	}
	return true;
}

/* ---- variables read raw ------------------------------------------------ */

/* The strings of V[0..N), which stay: what the scan read of them is dropped. */
static void drop_variable_strings(struct ll_scan_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].file_path);
		free(v[i].comp_dir);
		v[i].name = v[i].type = v[i].file_path = v[i].comp_dir = NULL;
	}
}

void ll_scan_variables_free(struct ll_scan_variable *v, size_t n)
{
	if (v)
		drop_variable_strings(v, n);
	free(v);
}

/* One attribute of a DIE as dwarf_attr() finds it: the first of its name. */
struct raw_attr {
	unsigned form;
	uint32_t spec;		/* for DW_FORM_implicit_const */
	struct ll_cursor at;	/* at the value */
};

/* How many of a DIE's attributes the last one read keeps (more: CUT). */
#define RAW_ATTRS_KEPT 24

/*
 * A top-level variable's declaration and type, read from the unit the
 * worker holds as libdw's walk (variables.c) reads them through
 * dwarf_attr_integrate(), dwarf_getlocation() and ll_c_declaration(): a
 * DIE is its offset in the unit. What this does not read as libdw would
 * (a reference out of the unit, a name in .debug_str_offsets, a form it
 * does not know) sets FAILED, and the variable is left to libdw.
 */
struct raw_unit {
	struct worker *w;
	const struct ll_scan_unit *u;
	bool failed;
	/*
	 * The last DIE read, its attributes located once: spelling asks one
	 * DIE for its tag, type and name, and a variable's DIE is asked for
	 * six attributes. CUT: the reading stopped at a form it cannot step
	 * over, or after RAW_ATTRS_KEPT; what lies beyond is unknown.
	 */
	struct {
		uint64_t off;			/* UINT64_MAX: none */
		const struct abbrev *a;		/* NULL: the null entry */
		unsigned n;
		bool cut;
		unsigned names[RAW_ATTRS_KEPT];
		struct raw_attr attrs[RAW_ATTRS_KEPT];
		uint64_t end;			/* unit offset past the attributes, unless CUT */
	} last;
};

/* The cursor at unit offset OFF, or false when OFF is no DIE start in the unit. */
static bool raw_at(struct raw_unit *ru, uint64_t off, struct ll_cursor *c)
{
	const struct ll_scan_unit *u = ru->u;

	if (off < u->first_die - u->offset || off >= u->end - u->offset) {
		ru->failed = true;
		return false;
	}
	*c = (struct ll_cursor){ ru->w->ub + (u->offset + off - ru->w->ub_off),
				 ru->w->ub + (u->end - ru->w->ub_off), false };
	return true;
}

/* The unit offset cursor C (made by raw_at()) has reached. */
static uint64_t raw_offset(const struct raw_unit *ru, const struct ll_cursor *c)
{
	return ru->w->ub_off + (uint64_t)(c->p - ru->w->ub) - ru->u->offset;
}

/* The abbreviation of the DIE at C, C moved past its code; NULL: a null entry, or damage. */
static const struct abbrev *raw_abbrev(struct raw_unit *ru, struct ll_cursor *c)
{
	const struct abbrev_table *t = &ru->w->abbrevs;
	uint64_t code = ll_uleb(c);

	if (c->bad || code >= t->nr_codes || (code && !t->by_code[code].present)) {
		ru->failed = true;
		return NULL;
	}
	return code ? planned_abbrev(t, code) : NULL;
}

/* The DIE at OFF into RU->last; false (FAILED set) when OFF is no DIE of the unit. */
static bool raw_load(struct raw_unit *ru, uint64_t off)
{
	const struct abbrev_table *t = &ru->w->abbrevs;
	struct ll_cursor c;
	const struct abbrev *a;

	if (ru->last.off == off)
		return true;
	ru->last.off = UINT64_MAX;
	if (!raw_at(ru, off, &c))
		return false;
	a = raw_abbrev(ru, &c);
	if (!a && ru->failed)
		return false;
	ru->last.a = a;
	ru->last.n = 0;
	ru->last.cut = false;
	for (unsigned i = 0; a && i < a->nr_attrs; i++) {
		unsigned form = t->form[a->first + i];

		if (i == RAW_ATTRS_KEPT) {
			ru->last.cut = true;
			break;
		}
		ru->last.names[i] = t->attr[a->first + i];
		ru->last.attrs[i] = (struct raw_attr){ form, a->first + i, c };
		ru->last.n++;
		if (!skip_form(&c, form, ru->u, 0) || c.bad) {
			ru->last.cut = true;
			break;
		}
	}
	ru->last.end = raw_offset(ru, &c);
	ru->last.off = off;
	return true;
}

static bool raw_find(struct raw_unit *ru, uint64_t off, unsigned name, struct raw_attr *out)
{
	if (!raw_load(ru, off) || !ru->last.a)
		return false;
	for (unsigned i = 0; i < ru->last.n; i++)
		if (ru->last.names[i] == name) {
			*out = ru->last.attrs[i];
			return true;
		}
	if (ru->last.cut)
		ru->failed = true;	/* it may lie past what was read */
	return false;
}

/* A unit-relative reference: false, FAILED set, for any other form. */
static bool raw_ref(struct raw_unit *ru, struct raw_attr *a, uint64_t *off)
{
	if (!read_ref(&a->at, a->form, off)) {
		ru->failed = true;
		return false;
	}
	return true;
}

/* dwarf_attr_integrate(): NAME on the DIE, else on its abstract origin or specification. */
static bool raw_find_integrate(struct raw_unit *ru, uint64_t off, unsigned name,
			       struct raw_attr *out)
{
	for (int chain = 0; chain <= 16 && !ru->failed; chain++) {
		struct raw_attr origin;

		if (raw_find(ru, off, name, out))
			return true;
		if (!raw_find(ru, off, DW_AT_abstract_origin, &origin) &&
		    !raw_find(ru, off, DW_AT_specification, &origin))
			return false;
		if (!raw_ref(ru, &origin, &off))
			return false;
	}
	return false;
}

/* dwarf_formstring() of A: .debug_str, .debug_line_str or the DIE itself. */
static const char *raw_string(struct raw_unit *ru, struct raw_attr *a)
{
	const char *s = NULL;

	if (a->form == DW_FORM_string || a->form == DW_FORM_strp || a->form == DW_FORM_line_strp)
		s = read_string(ru->w->in, ru->u, &a->at, a->form);
	if (!s)
		ru->failed = true;
	return s;
}

/* dwarf_formudata() of a constant; false (FAILED set) for a form this does not read. */
static bool raw_udata(struct raw_unit *ru, struct raw_attr *a, uint64_t *v)
{
	if (read_const_spec(&a->at, &ru->w->abbrevs, a->spec, v))
		return true;
	ru->failed = true;
	return false;
}

static bool raw_is_ref_or_block(unsigned form)
{
	switch (form) {
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata: case DW_FORM_ref_addr: case DW_FORM_exprloc:
	case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
		return true;
	default:
		return false;
	}
}

/*
 * A bound as ctype_name.c's read_bound() reads it: unsigned forms as
 * unsigned, all ones as -1. False (without FAILED) where libdw refuses
 * the form too: a reference or an expression (a variable-length array).
 */
static bool raw_bound(struct raw_unit *ru, struct raw_attr *a, int64_t *out)
{
	uint64_t u;

	switch (a->form) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4: case DW_FORM_data8:
	case DW_FORM_udata:
		if (!raw_udata(ru, a, &u))
			return false;
		*out = u == UINT64_MAX ? -1 : u > INT64_MAX ? INT64_MAX : (int64_t)u;
		return true;
	case DW_FORM_sdata:
		*out = ll_sleb(&a->at);
		if (a->at.bad)
			ru->failed = true;
		return !a->at.bad;
	case DW_FORM_implicit_const:
		*out = ru->w->abbrevs.implicit[a->spec];
		return true;
	default:
		if (!raw_is_ref_or_block(a->form))
			ru->failed = true;
		return false;
	}
}

static int raw_tag(void *ctx, const struct ll_type_die *d)
{
	struct raw_unit *ru = ctx;

	if (!raw_load(ru, d->u.raw) || !ru->last.a) {
		ru->failed = true;
		return 0;
	}
	return ru->last.a->tag;
}

static bool raw_type(void *ctx, const struct ll_type_die *d, struct ll_type_die *out)
{
	struct raw_unit *ru = ctx;
	struct raw_attr a;

	return raw_find_integrate(ru, d->u.raw, DW_AT_type, &a) && raw_ref(ru, &a, &out->u.raw);
}

static const char *raw_name(void *ctx, const struct ll_type_die *d)
{
	struct raw_unit *ru = ctx;
	struct raw_attr a;

	return raw_find_integrate(ru, d->u.raw, DW_AT_name, &a) ? raw_string(ru, &a) : NULL;
}

/* Past the DIE at OFF: to its first child, or (CHILDREN_TOO) to what follows it. */
static bool raw_past(struct raw_unit *ru, uint64_t off, bool children_too, uint64_t *next,
		     bool *has_children)
{
	struct raw_attr sib;
	uint64_t sibling = 0;

	if (!raw_load(ru, off) || !ru->last.a || ru->last.cut) {
		ru->failed = true;
		return false;
	}
	if (raw_find(ru, off, DW_AT_sibling, &sib) &&
	    (!read_ref(&sib.at, sib.form, &sibling) || !sibling)) {
		ru->failed = true;
		return false;
	}
	*has_children = ru->last.a->children;
	/* As dwarf_siblingof(): the sibling a DIE names, else past its children. */
	if (children_too && sibling) {
		if (sibling <= off) {
			ru->failed = true;
			return false;
		}
		*next = sibling;
		return true;
	}
	*next = ru->last.end;
	if (ru->last.a->children && children_too) {
		struct ll_cursor c;

		if (!raw_at(ru, *next, &c) || !skip_children(ru->w, ru->u, &c)) {
			ru->failed = true;
			return false;
		}
		*next = raw_offset(ru, &c);
	}
	return true;
}

/* Whether the entry at OFF is a DIE, not the null entry ending its siblings. */
static bool raw_is_die(struct raw_unit *ru, uint64_t off)
{
	return raw_load(ru, off) && ru->last.a != NULL;
}

static bool raw_first_child(void *ctx, const struct ll_type_die *d, struct ll_type_die *out)
{
	struct raw_unit *ru = ctx;
	bool children;
	uint64_t next;

	return raw_past(ru, d->u.raw, false, &next, &children) && children &&
	       raw_is_die(ru, next) && (out->u.raw = next, true);
}

static bool raw_next_sibling(void *ctx, struct ll_type_die *d)
{
	struct raw_unit *ru = ctx;
	bool children;
	uint64_t next;

	return raw_past(ru, d->u.raw, true, &next, &children) && raw_is_die(ru, next) &&
	       (d->u.raw = next, true);
}

static bool raw_subrange_count(void *ctx, const struct ll_type_die *d, uint64_t *count)
{
	struct raw_unit *ru = ctx;
	struct raw_attr a;
	int64_t upper, lower = 0;

	if (raw_find(ru, d->u.raw, DW_AT_count, &a)) {
		if (raw_is_ref_or_block(a.form))
			return false;
		return raw_udata(ru, &a, count);
	}
	if (!raw_find(ru, d->u.raw, DW_AT_upper_bound, &a) || !raw_bound(ru, &a, &upper))
		return false;
	if (raw_find(ru, d->u.raw, DW_AT_lower_bound, &a) && !raw_bound(ru, &a, &lower))
		return false;
	*count = upper >= lower ? (uint64_t)(upper - lower) + 1 : 0;
	return true;
}

static bool raw_prototyped(void *ctx, const struct ll_type_die *d)
{
	struct raw_attr a;

	return raw_find(ctx, d->u.raw, DW_AT_prototyped, &a);
}

/*
 * The one address a location expression names, as variables.c's
 * fixed_address() reads it: 1 an address, 0 none (another expression, a
 * location list), -1 for libdw to say (an index into .debug_addr, or a
 * DW_OP_addr cut short).
 */
static int raw_fixed_address(struct raw_unit *ru, struct raw_attr *a, uint64_t *addr)
{
	uint64_t len;

	switch (a->form) {
	case DW_FORM_exprloc: case DW_FORM_block: len = ll_uleb(&a->at); break;
	case DW_FORM_block1: len = ll_fixed(&a->at, 1); break;
	case DW_FORM_block2: len = ll_fixed(&a->at, 2); break;
	case DW_FORM_block4: len = ll_fixed(&a->at, 4); break;
	case DW_FORM_data4: case DW_FORM_data8: case DW_FORM_sec_offset: case DW_FORM_loclistx:
		return 0;	/* a location list: dwarf_getlocation() gives none */
	default:
		return -1;
	}
	if (a->at.bad || len > (uint64_t)(a->at.end - a->at.p))
		return -1;
	if (len && (a->at.p[0] == DW_OP_addrx || a->at.p[0] == DW_OP_GNU_addr_index))
		return -1;
	/*
	 * A DW_OP_addr whose block is too short for its address: libdw's
	 * dwarf_getlocation() reads the address past the block's end and
	 * calls it fixed, where this reader would say "no address". Whatever
	 * libdw makes of it is the answer: its walk reads the variable.
	 */
	if (len && a->at.p[0] == DW_OP_addr && len < 1 + (uint64_t)ru->u->addr_size)
		return -1;
	if (len != 1 + (uint64_t)ru->u->addr_size || a->at.p[0] != DW_OP_addr)
		return 0;
	a->at.p++;
	*addr = ll_fixed(&a->at, ru->u->addr_size);
	return 1;
}

/* dwarf_decl_line()'s reading of an integrated constant: 0 when none or beyond an int. */
static unsigned raw_decl_int(struct raw_unit *ru, uint64_t off, unsigned name)
{
	struct raw_attr a;
	uint64_t v;

	if (!raw_find_integrate(ru, off, name, &a) || !raw_udata(ru, &a, &v))
		return 0;
	return v <= INT_MAX ? (unsigned)v : 0;
}

#define SPELLED_SLOTS 512

/*
 * ll_c_declaration() of TYPE as READER (on unit U) reads it, remembered
 * by DIE until another type takes its slot. A spelling READER could not
 * finish (its FAILED) is not remembered.
 */
static char *spell_type(struct worker *w, const struct ll_scan_unit *u,
			const struct ll_type_reader *reader, const struct ll_type_die *type)
{
	const struct raw_unit *ru = reader->ctx;
	uint64_t die1 = u->offset + type->u.raw + 1;
	struct spelled_type *slot;
	char *text;

	if (!w->spelled)
		w->spelled = xcalloc(SPELLED_SLOTS, sizeof(*w->spelled));
	slot = &w->spelled[hash64(die1) & (SPELLED_SLOTS - 1)];
	if (slot->die1 == die1)
		return xstrdup(slot->text);
	text = ll_c_declaration_by(reader, type, "");
	if (!ru->failed) {
		free(slot->text);
		*slot = (struct spelled_type){ die1, xstrdup(text) };
	}
	return text;
}

static const struct ll_type_reader raw_type_reader = {
	raw_tag, raw_type, raw_name, raw_first_child, raw_next_sibling, raw_subrange_count,
	raw_prototyped, NULL, NULL,
};

/* Anonymous aggregates inside anonymous aggregates, deeper than C code nests them. */
#define NEEDED_DEPTH_MAX 8

enum member_need { NEED_UNSURE = -1, NEED_NONE, NEED_SOME };

/*
 * The type an anonymous member's members come from, as peel() in
 * dwarf_reader.c finds it: through typedefs and qualifiers. False when
 * there is none (const void) or RU failed.
 */
static bool raw_peel(struct raw_unit *ru, struct ll_type_die *type, int *tag)
{
	for (int i = 0; i < NEEDED_DEPTH_MAX * 4; i++) {
		*tag = raw_tag(ru, type);
		if (ru->failed)
			return false;
		if (*tag != DW_TAG_typedef && *tag != DW_TAG_const_type &&
		    *tag != DW_TAG_volatile_type && *tag != DW_TAG_restrict_type &&
		    *tag != DW_TAG_atomic_type)
			return true;
		if (!raw_type(ru, type, type))
			return false;
	}
	ru->failed = true;
	return false;
}

/* What members_needed() reads of a member DIE, read at once (spelling loads other DIEs). */
struct raw_member {
	const char *name;	/* NULL: anonymous */
	bool bitfield;
	struct ll_type_die type;
};

/* The data member at unit offset OFF into *M; false for any other child, or one unsure. */
static bool raw_member(struct raw_unit *ru, uint64_t off, struct raw_member *m)
{
	struct raw_attr a;
	uint64_t bits;

	/* Bases, static members, variant parts, inherited attributes: the build's. */
	if (raw_tag(ru, &(struct ll_type_die){ .u.raw = off }) != DW_TAG_member ||
	    raw_find(ru, off, DW_AT_declaration, &a) || raw_find(ru, off, DW_AT_external, &a) ||
	    raw_find(ru, off, DW_AT_abstract_origin, &a) ||
	    raw_find(ru, off, DW_AT_specification, &a) ||
	    !raw_find(ru, off, DW_AT_type, &a) || !raw_ref(ru, &a, &m->type.u.raw))
		return false;
	m->name = raw_find(ru, off, DW_AT_name, &a) ? raw_string(ru, &a) : NULL;
	m->bitfield = raw_find(ru, off, DW_AT_bit_size, &a);
	if (m->bitfield && !raw_udata(ru, &a, &bits))
		return false;
	return !ru->failed;
}

/*
 * Whether the input's member_filter says yes to a member of the
 * aggregate at unit offset AGG, read as build_members() in dwarf_reader.c
 * reads the members ll_audit() looks at: a named data member by its
 * spelled type, an anonymous one by the members of its aggregate (they
 * are the struct's own). NEED_UNSURE for any shape this does not read,
 * or a DIE it cannot: the lookup builds such a definition.
 */
static enum member_need members_needed(struct worker *w, const struct ll_scan_unit *u,
				       struct raw_unit *ru, uint64_t agg, int depth)
{
	const struct ll_member_filter *f = w->in->member_filter;
	struct ll_type_reader reader = raw_type_reader;
	struct ll_type_die parent = { .u.raw = agg }, child;
	bool more;

	reader.ctx = ru;
	if (depth > NEEDED_DEPTH_MAX)
		return NEED_UNSURE;
	if (!raw_first_child(ru, &parent, &child))
		return ru->failed ? NEED_UNSURE : NEED_NONE;
	do {
		struct ll_type_die here = child;
		int tag = raw_tag(ru, &here);
		struct raw_member m;

		if (ru->failed)
			return NEED_UNSURE;
		/* Types defined inside it (clang's anonymous unions) take no room. */
		bool a_type = tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			      tag == DW_TAG_enumeration_type || tag == DW_TAG_typedef;

		if (!a_type && !raw_member(ru, here.u.raw, &m))
			return NEED_UNSURE;
		/* The next child first: spelling and peeling read other DIEs. */
		more = raw_next_sibling(ru, &child);
		if (ru->failed)
			return NEED_UNSURE;
		if (a_type || (!m.name && m.bitfield))
			continue;
		/* Spelling is most of this reading's cost: not where no spelling can pass. */
		if (m.name && f->pointers_only && raw_tag(ru, &m.type) != DW_TAG_pointer_type) {
			if (ru->failed)
				return NEED_UNSURE;
			continue;
		}
		if (m.name) {
			char *spelled = spell_type(w, u, &reader, &m.type);
			bool needed = !ru->failed && f->needed(spelled, f->arg);

			free(spelled);
			if (ru->failed)
				return NEED_UNSURE;
			if (needed)
				return NEED_SOME;
			continue;
		}
		/* An anonymous member lends its aggregate's members to the struct. */
		if (!raw_peel(ru, &m.type, &tag)) {
			if (ru->failed)
				return NEED_UNSURE;
			continue;
		}
		if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
		    tag != DW_TAG_class_type)
			continue;
		enum member_need inner = members_needed(w, u, ru, m.type.u.raw, depth + 1);

		if (inner != NEED_NONE)
			return inner;
	} while (more);
	return ru->failed ? NEED_UNSURE : NEED_NONE;
}

/* Whether the scan may mark H nothing_needed: a C definition with no member wanted. */
static bool nothing_needed(struct worker *w, const struct ll_scan_unit *u,
			   const struct ll_scan_hit *h)
{
	struct raw_unit ru = { .w = w, .u = u, .last.off = UINT64_MAX };
	struct raw_attr a;
	uint64_t lang;

	if (h->declaration || h->settled || !is_aggregate(h->tag) ||
	    !raw_find(&ru, u->first_die - u->offset, DW_AT_language, &a) ||
	    !raw_udata(&ru, &a, &lang) || !ll_language_is_c((int)lang))
		return false;
	return members_needed(w, u, &ru, ll_scan_hit_aggregate(h) - u->offset, 0) == NEED_NONE;
}

/*
 * V (its DIE read already as a located variable) read whole, as the libdw
 * walk would: V->raw set when this read all of it.
 */
static void read_variable(struct worker *w, const struct ll_scan_unit *u,
			  struct ll_scan_variable *v)
{
	struct raw_unit ru = { .w = w, .u = u, .last.off = UINT64_MAX };
	struct ll_type_reader reader = raw_type_reader;
	uint64_t off = v->die - u->offset;
	struct raw_attr a;
	const char *name = NULL;
	struct ll_type_die type;
	bool typed;
	int fixed;

	reader.ctx = &ru;
	if (!raw_find(&ru, off, DW_AT_location, &a) ||
	    (fixed = raw_fixed_address(&ru, &a, &v->addr)) < 0)
		return;
	if (raw_find_integrate(&ru, off, DW_AT_name, &a))
		name = raw_string(&ru, &a);
	typed = raw_find_integrate(&ru, off, DW_AT_type, &a) && raw_ref(&ru, &a, &type.u.raw);
	if (ru.failed)
		return;
	v->fixed = fixed == 1 && name && *name;
	if (!v->fixed) {
		v->raw = true;
		return;
	}
	char *spelled = typed ? spell_type(w, u, &reader, &type) : xstrdup("");

	/*
	 * Integrated as the line is: gcc's definition after an extern
	 * declaration names its file only through DW_AT_specification (in
	 * this unit, or RU fails), an index into this unit's line table.
	 */
	v->has_file = raw_find_integrate(&ru, off, DW_AT_decl_file, &a) &&
		      raw_udata(&ru, &a, &v->file);
	v->line = raw_decl_int(&ru, off, DW_AT_decl_line);
	v->column = raw_decl_int(&ru, off, DW_AT_decl_column);
	if (ru.failed) {
		free(spelled);
		return;
	}
	v->name = xstrdup(name);
	v->type = spelled;
	v->raw = true;
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
static bool scan_unit(struct worker *w, const struct ll_scan_unit *u, size_t names_end)
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

	if (t->stop_when_defined && !t->collect_all && !variables)
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
			read_variable(w, u, &w->vars[w->nr_vars++]);
		}
		if (!a->children)
			continue;
		if (sibling) {
			if (sibling <= w->ub_off + (uint64_t)(c.p - w->ub) || sibling > u->end)
				goto unsure;
			c.p = w->ub + (sibling - w->ub_off);
		} else if (!skip_children(w, u, &c)) {
			goto unsure;
		}
	}
	return true;
unsure:
	w->nr_hits = start_hits;
	if (w->nr_vars > start_vars)
		drop_variable_strings(w->vars + start_vars, w->nr_vars - start_vars);
	w->nr_vars = start_vars;
	return false;
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool distinct_equal(const struct distinct_key *a, const struct distinct_key *b)
{
	return a->hash == b->hash && a->query == b->query && a->tag == b->tag &&
	       a->via_typedef == b->via_typedef && a->declaration == b->declaration &&
	       a->size == b->size && a->line == b->line && a->members_hash == b->members_hash &&
	       a->nr_members == b->nr_members && same_string(a->dir, b->dir) &&
	       same_string(a->name, b->name) && same_string(a->comp_dir, b->comp_dir) &&
	       same_string(a->dir0, b->dir0);
}

static uint64_t string_hash(uint64_t h, const char *s)
{
	return s ? ll_fnv1a(h, s, strlen(s) + 1) : ll_fnv1a(h, "", 1);
}

/* Whether K was seen before by this thread; if not, it is now. */
static bool distinct_seen(struct distinct *d, const struct distinct_key *k)
{
	if ((d->nr_keys + 1) * 2 > d->mask) {
		size_t cap = d->mask ? (d->mask + 1) * 2 : 4096;

		free(d->slots);
		d->slots = xcalloc(cap, sizeof(*d->slots));
		d->mask = cap - 1;
		for (size_t i = 0; i < d->nr_keys; i++) {
			size_t at = d->keys[i].hash & d->mask;

			while (d->slots[at])
				at = (at + 1) & d->mask;
			d->slots[at] = (uint32_t)i + 1;
		}
	}
	size_t at = k->hash & d->mask;

	for (; d->slots[at]; at = (at + 1) & d->mask)
		if (distinct_equal(&d->keys[d->slots[at] - 1], k))
			return true;
	d->keys = xgrow(d->keys, d->nr_keys, sizeof(*d->keys));
	d->keys[d->nr_keys] = *k;
	d->slots[at] = (uint32_t)++d->nr_keys;
	return false;
}

static void distinct_release(struct distinct *d)
{
	free(d->keys);
	free(d->slots);
	memset(d, 0, sizeof(*d));
}

/* One unit's line table, loaded for the first definition that needs it. */
struct unit_lines {
	bool tried, ok;
	struct ll_line_table table;
	uint64_t *file_hash;	/* by file index, 0: not yet */
	const char *comp_dir;	/* the hits', which the table borrows */
	uint64_t dir_hash;
};

static bool unit_lines_load(struct worker *w, struct unit_lines *ul, uint64_t stmt_list,
			    const char *comp_dir)
{
	if (ul->tried)
		return ul->ok;
	ul->tried = true;
	if (!w->in->lines.line)
		return false;
	ul->comp_dir = comp_dir;
	ul->ok = ll_line_table_load(&w->in->lines, stmt_list, ul->comp_dir, &ul->table);
	if (!ul->ok)
		return false;
	ul->file_hash = xcalloc(ul->table.n ? ul->table.n : 1, sizeof(*ul->file_hash));
	ul->dir_hash = string_hash(string_hash(LL_FNV_INIT, ul->comp_dir), ul->table.dir0);
	return true;
}

static void unit_lines_release(struct unit_lines *ul)
{
	if (ul->ok)
		ll_line_table_release(&ul->table);
	free(ul->file_hash);
}

/*
 * The table hash of key K from SEED, field by field: hashing its bytes
 * one at a time was ~4% of a --list='*' (a key per definition, ~10^6).
 * The strings enter through SEED (a file's hash); the hash never leaves
 * the thread's table.
 */
static uint64_t key_hash(uint64_t seed, const struct distinct_key *k)
{
	uint64_t h = seed;
	const uint64_t words[] = {
		k->size, k->line, k->members_hash,
		(uint64_t)k->query << 32 | k->nr_members,
		(uint64_t)k->tag << 16 | (uint64_t)k->via_typedef << 8 | k->declaration,
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		h = (h ^ words[i]) * LL_FNV_PRIME;
		h ^= h >> 29;
	}
	return h;
}

/*
 * The key of hit H, false when it has none (keep the hit): its file
 * unknown to the unit's line table, or a hit the lookup reads with libdw.
 */
static bool distinct_key_of(struct worker *w, struct unit_lines *ul, const struct ll_scan_hit *h,
			    struct distinct_key *k)
{
	memset(k, 0, sizeof(*k));
	k->query = h->query;
	k->tag = h->tag;
	k->via_typedef = h->via_typedef;
	k->declaration = h->declaration;
	if (h->settled) {
		k->hash = key_hash(LL_FNV_INIT, k);
		return true;
	}
	if (!h->has_sig || !unit_lines_load(w, ul, h->stmt_list, h->comp_dir) ||
	    h->decl_file >= ul->table.n ||
	    !ul->table.names[h->decl_file] || h->stmt_list != ul->table.stmt_list)
		return false;
	k->size = h->byte_size;
	k->line = h->decl_line;
	k->members_hash = h->members_hash;
	k->nr_members = h->nr_members;
	k->dir = ul->table.dirs ? ul->table.dirs[h->decl_file] : NULL;
	k->name = ul->table.names[h->decl_file];
	k->comp_dir = ul->comp_dir;
	k->dir0 = ul->table.dir0;
	if (!ul->file_hash[h->decl_file])
		ul->file_hash[h->decl_file] = string_hash(string_hash(ul->dir_hash, k->dir),
							  k->name) | 1;
	k->hash = key_hash(ul->file_hash[h->decl_file], k);
	return true;
}

/*
 * in->distinct, once a unit's walk succeeded: drop its hits [FROM, end)
 * that this thread has seen the like of, and typedefs of named types
 * (settled, no declaration: they name nothing a lookup wants).
 */
static void keep_distinct(struct worker *w, const struct ll_scan_unit *u, struct unit_lines *ul,
			  size_t from)
{
	size_t kept = from;

	for (size_t i = from; i < w->nr_hits; i++) {
		struct ll_scan_hit *h = &w->hits[i];
		struct distinct_key k;
		bool drop = h->settled && !h->declaration;

		if (!drop && distinct_key_of(w, ul, h, &k)) {
			drop = distinct_seen(&w->distinct, &k);
			h->has_file = k.name != NULL;
			h->file_dir = k.dir;
			h->file_name = k.name;
			h->file_dir0 = k.dir0;
		}
		if (drop)
			continue;
		if (w->in->member_filter)
			h->nothing_needed = nothing_needed(w, u, h);
		w->hits[kept++] = *h;
	}
	w->nr_hits = kept;
}

/*
 * The declaring files of unit U's variables [FROM, end) that the scan
 * read (read_variable()), through the unit's line table UL as the reader
 * resolves them (table_file() in dwarf_reader.c). A file the table cannot
 * give is libdw's to find: the variable is left to the libdw walk.
 */
static void variable_files(struct worker *w, const struct ll_scan_unit *u,
			   struct unit_lines *ul, size_t from)
{
	struct strbuf path = STRBUF_INIT;

	for (size_t i = from; i < w->nr_vars; i++) {
		struct ll_scan_variable *v = &w->vars[i];

		if (!v->raw || !v->fixed || !v->has_file)
			continue;
		sb_reset(&path);
		if (!current_unit_info(w, u) || !w->info.comp_dir ||
		    !unit_lines_load(w, ul, w->info.stmt_list, w->info.comp_dir) ||
		    !ll_line_table_path(&ul->table, v->file, &path)) {
			drop_variable_strings(v, 1);
			v->raw = false;
			continue;
		}
		v->file_path = xstrdup(path.buf ? path.buf : "");
		v->comp_dir = xstrdup(w->info.comp_dir);
	}
	sb_release(&path);
}

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
 * this walks most of the table (~45% of the instructions of a late
 * lookup on the 6.12 image before skip_abbrev_specs() took whole entries).
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
 * walk to it was 10% of a late lookup's CPU: gcc orders a big table by
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

	while ((at = find_string(from, stop, lead, n)) != NULL) {
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
static bool unit_may_hold_inline(struct worker *w, size_t i)
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
static void choose_anchors(const struct ll_scan_input *in, struct targets *t)
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
static size_t names_end(const struct targets *t, const unsigned char *p, size_t n,
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

enum filter_verdict { UNIT_SKIP, UNIT_SCAN, UNIT_ASK_ABBREVS };

/*
 * The byte filter of the unit at P (its unit DIE on): UNIT_ASK_ABBREVS
 * when only the unit's abbreviations can tell how its names are stored.
 * *END: names_end() for UNIT_SCAN, SIZE_MAX when no filter ran.
 */
static enum filter_verdict filter_unit(struct worker *w, size_t i, const unsigned char *p,
				       size_t n, size_t *inline_max, size_t *end)
{
	const struct targets *t = w->targets;
	bool strp_names;

	*end = SIZE_MAX;
	if (t->collect_all || t->nr_list > FILTER_MAX_OFFSETS)
		return UNIT_SCAN;
	*inline_max = unit_inline_max(w, i, p, p + n, &strp_names);
	if (!strp_names)
		return UNIT_ASK_ABBREVS;
	*end = names_end(t, p, n, *inline_max, &w->lead);
	return *end ? UNIT_SCAN : UNIT_SKIP;
}

/*
 * The byte filter once the abbreviations are known: names_end(), or
 * SIZE_MAX (walk it all) when names hide in forms whose bytes it cannot
 * see.
 */
static size_t may_contain(struct worker *w, const unsigned char *p, size_t n, size_t inline_max)
{
	if (w->abbrevs.names_hidden)
		return SIZE_MAX;
	return names_end(w->targets, p, n, w->abbrevs.names_inline ? inline_max : 0, &w->lead);
}

/* Buffers from this size on ask for a huge page. */
#define HUGE_BUFFER ((size_t)256 << 10)

/*
 * A pread buffer of at least SIZE bytes, its capacity in *CAP, made once
 * for the work's largest unit: grown unit by unit, the buffers of a late
 * lookup in the 6.12 image faulted in ~420 fresh pages, ~15 us each on
 * these VMs (6% of its CPU). From HUGE_BUFFER on, in a huge page where
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
static bool load_unit(struct worker *w, const struct ll_scan_unit *u)
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
 * The header of guessed unit I, from its bytes just read: true when they
 * are exactly one unit, as its .debug_aranges range said.
 */
static bool settle_guessed(struct worker *w, size_t i)
{
	struct ll_scan_unit *u = &w->guessed[i], read;
	size_t avail = (size_t)(u->end - u->offset);

	if (!read_unit(w->ub, avail, u->offset, w->in->info_size, w->in->abbrev_size, &read) ||
	    read.end != u->end)
		return false;
	*u = read;
	return true;
}

/* Whether hits from FIRST on hold a struct or union definition of NAMES[0]. */
static bool defines_first_name(const struct worker *w, size_t first)
{
	for (size_t i = first; i < w->nr_hits; i++) {
		const struct ll_scan_hit *h = &w->hits[i];

		if (h->query == 0 && !h->declaration && !h->via_typedef &&
		    (h->tag == DW_TAG_structure_type || h->tag == DW_TAG_union_type))
			return true;
	}
	return false;
}

/*
 * Bytes of a unit read before the rest, when a walk may stop early
 * (targets' stop_when_defined), in units of at least UNIT_PREFIX_MIN.
 */
#define UNIT_PREFIX ((size_t)48 << 10)
#define UNIT_PREFIX_MIN ((size_t)64 << 10)

/*
 * Scan unit I (U) from its first UNIT_PREFIX bytes only: true when that
 * was enough, its walk having met a definition of every name there (then
 * its hits are kept as a whole unit's walk keeps them). False, with
 * nothing kept, when the caller must read and walk the whole unit: the
 * copy of the rest of the unit was most of a lookup of struct file,
 * which ~1,800 units define well before their end.
 */
static bool scan_prefix(struct worker *w, size_t i, const struct ll_scan_unit *u)
{
	const struct targets *t = w->targets;
	struct ll_scan_unit head = *u;
	size_t inline_max = SIZE_MAX, end, before = w->nr_hits;
	struct unit_lines ul = { 0 };
	bool done;

	if (!t->stop_when_defined || t->collect_all || w->in->variables || !w->in->use_pread ||
	    w->guessed || u->end - u->offset < (uint64_t)UNIT_PREFIX_MIN ||
	    u->first_die - u->offset >= UNIT_PREFIX ||
	    (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8))
		return false;
	head.end = u->offset + UNIT_PREFIX;
	if (!load_unit(w, &head))
		return false;
	w->loaded_head = UNIT_PREFIX;
	const unsigned char *p = w->ub + (u->first_die - w->ub_off);
	size_t n = (size_t)(head.end - u->first_die);
	enum filter_verdict v = filter_unit(w, i, p, n, &inline_max, &end);

	if (v == UNIT_SKIP || !load_abbrevs(w->in, u, &w->abbrevs))
		return false;
	if (v == UNIT_ASK_ABBREVS && !(end = may_contain(w, p, n, inline_max)))
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
	w->nr_tables_read++;
	w->scopes |= w->abbrevs.scopes;
	if (w->in->distinct)
		keep_distinct(w, u, &ul, before);
	else if (w->in->stop_at_first_definition && defines_first_name(w, before))
		atomic_store_explicit(w->stop, true, memory_order_relaxed);
	unit_lines_release(&ul);
	return true;
}

/* The work [first, last): units, or with w->only indexes into it. */
static void scan_units(struct worker *w, size_t first, size_t last)
{
	for (size_t k = first; k < last; k++) {
		size_t i = w->only ? w->only[k] : k;
		const struct ll_scan_unit *u = &w->units[i];

		if (atomic_load_explicit(w->stop, memory_order_relaxed))
			break;
		w->unit = (uint32_t)i;

		/* Every thread counts; the caller's thread (worker 0) reports. */
		size_t done = atomic_fetch_add_explicit(w->units_done, 1, memory_order_relaxed) + 1;

		if (w->report)
			ll_progress_report(w->in->progress, "units", done, w->nr_units);

		if (!w->targets->collect_all && w->targets->nr_list == 0 &&
		    !unit_may_hold_inline(w, i))
			continue;
		if (scan_prefix(w, i, u))
			continue;
		/*
		 * An address size DWARF does not define: the forms sized by it
		 * are libdw's to read (or to refuse), never this scan's guess.
		 */
		bool loaded = load_unit(w, u);

		if (w->guessed && !(loaded && settle_guessed(w, i))) {
			atomic_store_explicit(w->wrong_guess, true, memory_order_relaxed);
			atomic_store_explicit(w->stop, true, memory_order_relaxed);
			break;
		}
		if (!loaded || (u->addr_size != 2 && u->addr_size != 4 && u->addr_size != 8)) {
			push_fallback(w, u->offset);
			continue;
		}
		const unsigned char *p = w->ub + (u->first_die - w->ub_off);
		size_t n = u->end - u->first_die, inline_max = SIZE_MAX, end;
		enum filter_verdict v = filter_unit(w, i, p, n, &inline_max, &end);

		if (v == UNIT_SKIP)
			continue;
		if (!load_abbrevs(w->in, u, &w->abbrevs)) {
			push_fallback(w, u->offset);
			continue;
		}
		w->nr_tables_read++;
		w->scopes |= w->abbrevs.scopes;
		if (v == UNIT_ASK_ABBREVS && !(end = may_contain(w, p, n, inline_max)))
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
			push_fallback(w, u->offset);
		} else {
			variable_files(w, u, &ul, vars_before);
			if (w->in->distinct)
				keep_distinct(w, u, &ul, before);
			else if (w->in->stop_at_first_definition && defines_first_name(w, before))
				atomic_store_explicit(w->stop, true, memory_order_relaxed);
		}
		unit_lines_release(&ul);
	}
}

/*
 * Chunks in ascending order, as they come: each worker meets its units in
 * .debug_info order, so its first of each distinct definition (keep_distinct())
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
		scan_units(w, ch->first, ch->last);
		ch->nr_vars = w->nr_vars - ch->vars;
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

/* The unit headers of .debug_info [from, to), as one thread reads them. */
struct unit_walk {
	const struct ll_scan_input *in;
	uint64_t from, to;
	bool keep_dies;		/* also the unit DIEs' first bytes */
	struct ll_scan_unit *units;
	struct unit_die_head *dies;
	size_t nr, cap;
	bool ok;		/* read, and the last unit ends exactly at TO */
};

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
		if (!read_unit(h, avail < sizeof(u.head) ? avail : sizeof(u.head), off, in->info_size,
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
		    !read_unit(hdr, avail, units[i].offset, in->info_size, in->abbrev_size, &read) ||
		    read.end != units[i].end)
			return false;
	}
	return true;
}

/*
 * The units as .debug_aranges names them, without reading a header: one
 * range from each unit offset it names to the next (gcc names every unit
 * of a vmlinux, 2,401 in 6.12). Their headers are read with their bytes
 * (settle_guessed(), version 0 until then); a unit it does not name makes
 * a range two units long, and the scan then walks the headers after all.
 * Saves a pread per unit: ~7 ms of a cold lookup of the 6.12 image.
 */
static bool units_from_aranges(const struct ll_scan_input *in, struct unit_walk *out)
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
static bool walk_units(const struct ll_scan_input *in, bool keep_dies, unsigned threads,
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
 * The workers' results into OUT: names thread by thread; hits, postings
 * and fallback units chunk by chunk, so in unit order. A captured hit's
 * query and a posting's name (collect_all) named their thread's names:
 * renumbered into OUT's.
 */
static void merge_results(struct ll_scan_result *out, const struct worker *w, unsigned threads,
			  const struct chunk *chunks, size_t nr_chunks, bool collect_all)
{
	size_t nr_hits = 0, nr_posts = 0, nr_fallback = 0, nr_vars = 0;
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
	}
	out->variables = nr_vars ? xmalloc(nr_vars * sizeof(*out->variables)) : NULL;
	out->hits = xmalloc((nr_hits + 1) * sizeof(*out->hits));
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
		drop_variable_strings(w->vars, w->nr_vars);
}

/* A worker's buffers, once its results were merged or discarded. */
static void release_worker(struct worker *w)
{
	free(w->hits);
	free(w->posts);
	free(w->fallback);
	free(w->names);
	free(w->comp_dirs);
	distinct_release(&w->distinct);
	abbrev_table_release(&w->abbrevs);
	free(w->buf);
	free(w->seen);
	free(w->name_memo);
	free(w->members_memo.v);
	free(w->vars);
	for (size_t i = 0; w->spelled && i < SPELLED_SLOTS; i++)
		free(w->spelled[i].text);
	free(w->spelled);
}

/*
 * The scan of WALK's units (GUESSED: from units_from_aranges()) into OUT,
 * which takes the units. 1: the guess was wrong, and OUT and the units
 * are as before.
 */
static int scan_walked(const struct ll_scan_input *in, struct targets *targets,
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

/*
 * Map .debug_abbrev's pages (the file's mapping, in the page cache):
 * every unit's producer verdict walks its unit's table, and the first
 * touch of each page cost ~3.4 us on these VMs, one page per unit, in the
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
	build_targets(in, names, n, &targets);
	if (populate)
		pthread_join(populating, NULL);
	targets.collect_all = names == NULL;
	choose_anchors(in, &targets);
	/*
	 * A name with no .debug_str offset is looked for by each unit's
	 * producer: read the unit DIE's first bytes with its header, one
	 * pread per unit instead of two.
	 */
	bool keep_dies = in->use_pread && !targets.collect_all && targets.nr_list == 0;
	struct unit_walk walk;
	/*
	 * Guess the units where every one is read whole with its header
	 * (not a name index's few, nor a scan that may stop early).
	 */
	bool guess = in->use_pread && !keep_dies && !in->units && !in->only &&
		     !in->stop_at_first_definition;
	int rc = 1;

	if (guess && units_from_aranges(in, &walk)) {
		rc = scan_walked(in, &targets, &walk, true, threads, out);
		if (rc)
			free(walk.units);
	}
	if (rc && walk_units(in, keep_dies, threads, &walk))
		rc = scan_walked(in, &targets, &walk, false, threads, out);
	release_targets(&targets);
	free(str);
	return rc ? -1 : 0;
}

bool ll_scan_unit_refs_outside(const struct ll_scan_input *in, const struct ll_scan_unit *u)
{
	struct abbrev_table t = { 0 };
	bool outside = !load_abbrevs(in, u, &t);

	for (size_t i = 0; !outside && i < t.nr_specs; i++) {
		unsigned form = t.form[i];

		/* DW_FORM_indirect may stand for any of them. */
		outside = form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
			  form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8 ||
			  form == DW_FORM_GNU_ref_alt || form == DW_FORM_indirect;
	}
	abbrev_table_release(&t);
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
	for (size_t i = 0; i < r->nr_comp_dirs; i++)
		free(r->comp_dirs[i]);
	free(r->comp_dirs);
	free(r->hits);
	for (size_t i = 0; i < r->nr_names; i++)
		free(r->names[i]);
	free(r->names);
	free(r->fallback_units);
	free(r->units);
	free(r->verdicts);
	free(r->postings);
	ll_scan_variables_free(r->variables, r->nr_variables);
	memset(r, 0, sizeof(*r));
}
