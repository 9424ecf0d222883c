// SPDX-License-Identifier: GPL-2.0-or-later
/* DIEs read raw at random, for --audit and globals: variables, their types and members. */
#include "input/dwarf/raw/scanP.h"

#include "util/c_ident.h"

/* The strings of V[0..N), which stay: what the scan read of them is dropped. */
void scan_drop_variable_strings(struct ll_scan_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ll_free_all(v[i].name, v[i].type, v[i].file_path, v[i].comp_dir);
		v[i].name = v[i].type = v[i].file_path = v[i].comp_dir = NULL;
	}
}

void ll_scan_variables_free(struct ll_scan_variable *v, size_t n)
{
	if (v)
		scan_drop_variable_strings(v, n);
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
	uint64_t code;
	const struct abbrev *a = next_abbrev(t, c, &code);

	if (!a && (c->bad || code))
		ru->failed = true;
	return a;
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

		if (!raw_at(ru, *next, &c) || !scan_skip_children(ru->w, ru->u, &c)) {
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
	slot = &w->spelled[(size_t)ll_hash_u64(die1) & (SPELLED_SLOTS - 1)];
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
 * The type an anonymous member's members come from, as reader_peel()
 * in reader_types.c finds it: through typedefs and qualifiers. False when
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

/* What members_needed() reads of a child DIE, in place. */
struct raw_member {
	uint16_t tag;
	bool named;		/* a DW_AT_name that reads as a string */
	bool bitfield;		/* a DW_AT_bit_size that reads as a constant */
	bool typed;		/* a DW_AT_type in the unit: TYPE */
	bool plain;		/* none of what makes a member the build's to judge */
	struct ll_type_die type;
};

/*
 * The child at C into *M, C moved past it and its children; false (RU
 * failed) when it cannot be read. As raw_member() read it before: a data
 * member without DW_AT_declaration, DW_AT_external, DW_AT_abstract_origin
 * or DW_AT_specification is plain; its name must read as a string, its
 * bit size as a constant, its type as a reference in the unit.
 */
static bool read_child(struct raw_unit *ru, struct ll_cursor *c, const struct abbrev *a,
		       struct raw_member *m)
{
	const struct abbrev_table *t = &ru->w->abbrevs;
	uint64_t sibling = 0, v;

	*m = (struct raw_member){ .tag = a->tag, .plain = true };
	for (unsigned i = 0; i < a->nr_attrs && !c->bad; i++) {
		unsigned at = t->attr[a->first + i], form = t->form[a->first + i];

		switch (at) {
		case DW_AT_name:
			m->named = read_string(ru->w->in, ru->u, c, form) != NULL;
			if (!m->named)
				c->bad = true;
			continue;
		case DW_AT_bit_size:
			m->bitfield = read_const_spec(c, t, a->first + i, &v);
			if (!m->bitfield)
				c->bad = true;
			continue;
		case DW_AT_type:
			m->typed = read_ref(c, form, &m->type.u.raw);
			if (!m->typed)
				c->bad = true;
			continue;
		case DW_AT_sibling:
			if (read_ref(c, form, &sibling)) {
				sibling += ru->u->offset;
				continue;
			}
			break;
		case DW_AT_declaration: case DW_AT_external: case DW_AT_abstract_origin:
		case DW_AT_specification:
			m->plain = false;
			break;
		default:
			break;
		}
		if (!skip_form(c, form, ru->u, 0))
			c->bad = true;
	}
	if (!c->bad && a->children &&
	    (sibling ? !jump_to_sibling(ru->w, ru->u, c, sibling) :
		       !scan_skip_children(ru->w, ru->u, c)))
		c->bad = true;
	if (c->bad)
		ru->failed = true;
	return !c->bad;
}

/* The children of an aggregate DIE, each read in place by read_child(). */
struct child_walk {
	struct ll_cursor c;
	bool children;
};

/* A walk of AGG's children (unit offset); false when AGG cannot be read (RU failed). */
static bool child_walk_start(struct raw_unit *ru, uint64_t agg, struct child_walk *cw)
{
	uint64_t first;

	return raw_past(ru, agg, false, &first, &cw->children) && raw_at(ru, first, &cw->c);
}

/* The next child into *M: 1; 0 past the last; -1 (RU failed) when it cannot be read. */
static int child_walk_next(struct raw_unit *ru, struct child_walk *cw, struct raw_member *m)
{
	uint64_t code;
	const struct abbrev *a;

	if (!cw->children)
		return 0;
	a = next_abbrev(&ru->w->abbrevs, &cw->c, &code);
	if (!a && !cw->c.bad && code == 0)
		return 0;
	if (!a || !read_child(ru, &cw->c, a, m)) {
		ru->failed = true;
		return -1;
	}
	return 1;
}

/* A type defined inside an aggregate: it takes no room (clang's anonymous unions). */
static bool defined_inside(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_enumeration_type || tag == DW_TAG_typedef;
}

/* A qualifier DIE: what a spelling's leading "const" comes from. */
static bool is_qualifier(int tag)
{
	return tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
}

/*
 * Whether F's hints leave TYPE's spelling anything to say: a pointer for
 * pointers_only; a pointer to a qualifier DIE for qualified_pointee_only
 * (a pointer to void, a typedef, a struct or a base type spells its
 * pointee bare). RU fails where the DIEs cannot be read.
 */
static bool spelling_can_pass(const struct ll_member_filter *f, struct raw_unit *ru,
			      const struct ll_type_die *type)
{
	struct ll_type_die pointee;

	if (!f->pointers_only)
		return true;
	if (raw_tag(ru, type) != DW_TAG_pointer_type || ru->failed)
		return false;
	if (!f->qualified_pointee_only)
		return true;
	return raw_type(ru, type, &pointee) && is_qualifier(raw_tag(ru, &pointee));
}

/*
 * Whether the member filter says yes to a named member of TYPE, as the
 * build spells it; remembered by DIE (struct need_memo): a unit's structs
 * share their members' types.
 */
static enum member_need type_needed(struct worker *w, struct raw_unit *ru,
				    const struct ll_type_reader *reader, struct ll_type_die type)
{
	const struct ll_member_filter *f = w->in->member_filter;
	uint64_t key1 = ru->u->offset + type.u.raw + 1;
	struct need_memo *slot;
	bool needed = false;

	if (!w->needs)
		w->needs = xcalloc(NEED_MEMO_SLOTS, sizeof(*w->needs));
	slot = &w->needs[(size_t)ll_hash_u64(key1) & (NEED_MEMO_SLOTS - 1)];
	if (slot->key1 == key1)
		return slot->needed ? NEED_SOME : NEED_NONE;
	/* Spelling is most of this reading's cost: not where no spelling can pass. */
	if (spelling_can_pass(f, ru, &type)) {
		char *spelled = ru->failed ? NULL : spell_type(w, ru->u, reader, &type);

		needed = !ru->failed && f->needed(spelled, f->arg);
		free(spelled);
	}
	if (ru->failed)
		return NEED_UNSURE;
	*slot = (struct need_memo){ key1, needed };
	return needed ? NEED_SOME : NEED_NONE;
}

/*
 * Whether the input's member_filter says yes to a member of the
 * aggregate at unit offset AGG, read as build_members() in reader_members.c
 * reads the members ll_audit() looks at: a named data member by its
 * spelled type, an anonymous one by the members of its aggregate (they
 * are the struct's own). NEED_UNSURE for any shape this does not read,
 * or a DIE it cannot: the lookup builds such a definition.
 */
static enum member_need members_needed(struct worker *w, const struct ll_scan_unit *u,
				       struct raw_unit *ru, uint64_t agg, int depth)
{
	struct ll_type_reader reader = raw_type_reader;
	struct child_walk cw;
	struct raw_member m;
	int next;

	reader.ctx = ru;
	if (depth > NEEDED_DEPTH_MAX || !child_walk_start(ru, agg, &cw))
		return NEED_UNSURE;
	while ((next = child_walk_next(ru, &cw, &m)) > 0) {
		int tag;

		if (defined_inside(m.tag))
			continue;
		/* Bases, static members, variant parts, inherited attributes: the build's. */
		if (m.tag != DW_TAG_member || !m.plain || !m.typed)
			return NEED_UNSURE;
		if (!m.named && m.bitfield)
			continue;
		if (m.named) {
			enum member_need need = type_needed(w, ru, &reader, m.type);

			if (need != NEED_NONE)
				return need;
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
	}
	return next < 0 ? NEED_UNSURE : NEED_NONE;
}

/* Whether H is a definition of a C struct or union: what the raw readings of members judge. */
static bool c_definition(struct raw_unit *ru, const struct ll_scan_hit *h)
{
	struct raw_attr a;
	uint64_t lang;

	return !h->declaration && !h->settled && is_aggregate(h->tag) &&
	       raw_find(ru, ru->u->first_die - ru->u->offset, DW_AT_language, &a) &&
	       raw_udata(ru, &a, &lang) && ll_language_is_c((int)lang);
}

/* Whether the scan may mark H nothing_needed: a C definition with no member wanted. */
bool scan_nothing_needed(struct worker *w, const struct ll_scan_unit *u,
			 const struct ll_scan_hit *h)
{
	struct raw_unit ru = { .w = w, .u = u, .last.off = UINT64_MAX };

	return c_definition(&ru, h) &&
	       members_needed(w, u, &ru, ll_scan_hit_aggregate(h) - u->offset, 0) == NEED_NONE;
}

static int cmp_word(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void push_word(struct worker *w, uint64_t word)
{
	w->words = xgrow(w->words, w->nr_words, sizeof(*w->words));
	w->words[w->nr_words++] = word;
}

static bool aggregate_words(struct worker *w, struct raw_unit *ru, uint64_t agg, int depth);

/*
 * The words of a member's TYPE (struct ll_scan_hit's words): the name
 * --contains compares (ll_c_array_base_name_by(), when one identifier:
 * "long" for DWARF's "long int", as the build records it), then each name
 * on its way through arrays, typedefs and qualifiers, down to a struct
 * or union, whose name ends it, or whose members (anonymous) are read
 * in its place. A pointer, a function, an enum or a base type ends it:
 * nothing is held by value past it. False when RU failed.
 * A chain that meets no anonymous aggregate is remembered by DIE
 * (struct word_chain): the members of a unit's structs share their types.
 */
static bool type_words(struct worker *w, struct raw_unit *ru, struct ll_type_die type, int depth)
{
	uint64_t key1 = ru->u->offset + type.u.raw + 1;
	struct word_chain *slot;
	size_t from = w->nr_words;
	bool anonymous = false;

	if (!w->chains)
		w->chains = xcalloc(WORD_CHAIN_SLOTS, sizeof(*w->chains));
	slot = &w->chains[(size_t)ll_hash_u64(key1) & (WORD_CHAIN_SLOTS - 1)];
	if (slot->key1 == key1) {
		for (unsigned k = 0; k < slot->n; k++)
			push_word(w, slot->words[k]);
		return true;
	}
	struct ll_type_reader reader = raw_type_reader;

	reader.ctx = ru;
	const char *base = ll_c_array_base_name_by(&reader, &type);

	if (ru->failed)
		return false;
	if (base && ll_c_identifier(base))
		push_word(w, ll_scan_word(base, false));
	for (int i = 0;; i++) {
		int tag = i < NEEDED_DEPTH_MAX * 4 ? raw_tag(ru, &type) : (ru->failed = true, 0);
		const char *name = NULL;

		if (ru->failed)
			return false;
		if (tag == DW_TAG_typedef || tag == DW_TAG_array_type || tag == DW_TAG_const_type ||
		    tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
		    tag == DW_TAG_atomic_type) {
			if (tag == DW_TAG_typedef && (name = raw_name(ru, &type)))
				push_word(w, ll_scan_word(name, false));
			if (ru->failed)
				return false;
			if (raw_type(ru, &type, &type))
				continue;
			if (ru->failed)
				return false;
		} else if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			   tag == DW_TAG_class_type) {
			if ((name = raw_name(ru, &type)))
				push_word(w, ll_scan_word(name, true));
			else if (ru->failed || !aggregate_words(w, ru, type.u.raw, depth + 1))
				return false;
			anonymous = !name;
		}
		break;
	}
	if (!anonymous && w->nr_words - from <= WORD_CHAIN_MAX) {
		slot->key1 = key1;
		slot->n = (uint8_t)(w->nr_words - from);
		if (slot->n)
			memcpy(slot->words, w->words + from, slot->n * sizeof(*slot->words));
	}
	return true;
}

/*
 * The words of the members of the aggregate at unit offset AGG, read in
 * place (child_walk_next()). A child other than a plain data member or a
 * type defined inside (a member with an abstract origin, a declaration)
 * fails RU: the build reads those.
 */
static bool aggregate_words(struct worker *w, struct raw_unit *ru, uint64_t agg, int depth)
{
	struct child_walk cw;
	struct raw_member m;
	int next;

	if (depth > NEEDED_DEPTH_MAX) {
		ru->failed = true;
		return false;
	}
	if (!child_walk_start(ru, agg, &cw))
		return false;
	while ((next = child_walk_next(ru, &cw, &m)) > 0) {
		if (defined_inside(m.tag))
			continue;
		if (m.tag != DW_TAG_member || !m.plain) {
			ru->failed = true;	/* a shape of another language: the build's */
			return false;
		}
		if (m.typed && !type_words(w, ru, m.type, depth))
			return false;
	}
	return next == 0;
}

/*
 * H's words, when the input wants member words: its member types', at
 * every depth, each name once (words_known); nothing for a definition
 * that is not C, or that this cannot read.
 */
void scan_member_words(struct worker *w, const struct ll_scan_unit *u, struct ll_scan_hit *h)
{
	struct raw_unit ru = { .w = w, .u = u, .last.off = UINT64_MAX };
	size_t from = w->nr_words, kept = from;

	h->words_known = false;
	if (!c_definition(&ru, h) ||
	    !aggregate_words(w, &ru, ll_scan_hit_aggregate(h) - u->offset, 0) || ru.failed) {
		w->nr_words = from;
		return;
	}
	if (w->nr_words > from)
		qsort(w->words + from, w->nr_words - from, sizeof(*w->words), cmp_word);
	for (size_t i = from; i < w->nr_words; i++)
		if (i == from || w->words[i] != w->words[kept - 1])
			w->words[kept++] = w->words[i];
	w->nr_words = kept;
	h->words_known = true;
	h->words_at = (uint32_t)from;
	h->nr_words = (uint32_t)(kept - from);
}

/*
 * V (its DIE read already as a located variable) read whole, as the libdw
 * walk would: V->raw set when this read all of it.
 */
void scan_read_variable(struct worker *w, const struct ll_scan_unit *u,
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
