// SPDX-License-Identifier: GPL-2.0-or-later
/* libdw's reading of a type DIE, for the spelling in raw/type_spelling.c. */
#include "input/dwarf/ctype_name.h"

#include <dwarf.h>
#include <stdbool.h>
#include <string.h>

/* ---- libdw's reading of a type DIE ---------------------------------- */

/*
 * A struct ll_type_die keeps a Dwarf_Die as bytes (raw/type_spelling.h
 * does not see libdw): copied out and back in, never read in place.
 */
_Static_assert(sizeof(Dwarf_Die) <= sizeof(((struct ll_type_die *)0)->u.dw),
	       "a Dwarf_Die fits struct ll_type_die");

static Dwarf_Die die_of(const struct ll_type_die *d)
{
	Dwarf_Die die;

	memcpy(&die, d->u.dw, sizeof(die));
	return die;
}

static void set_die(struct ll_type_die *d, const Dwarf_Die *die)
{
	memcpy(d->u.dw, die, sizeof(*die));
}

static int dw_tag(void *ctx, const struct ll_type_die *d)
{
	Dwarf_Die die = die_of(d);

	(void)ctx;
	return dwarf_tag(&die);
}

static bool dw_type(void *ctx, const struct ll_type_die *d, struct ll_type_die *out)
{
	Dwarf_Die die = die_of(d), type;
	Dwarf_Attribute attr;

	(void)ctx;
	if (!dwarf_attr_integrate(&die, DW_AT_type, &attr) || dwarf_formref_die(&attr, &type) == NULL)
		return false;
	set_die(out, &type);
	return true;
}

static const char *dw_name(void *ctx, const struct ll_type_die *d)
{
	Dwarf_Die die = die_of(d);

	(void)ctx;
	return dwarf_diename(&die);
}

static bool dw_first_child(void *ctx, const struct ll_type_die *d, struct ll_type_die *out)
{
	Dwarf_Die die = die_of(d), child;

	(void)ctx;
	if (dwarf_child(&die, &child) != 0)
		return false;
	set_die(out, &child);
	return true;
}

static bool dw_next_sibling(void *ctx, struct ll_type_die *d)
{
	Dwarf_Die die = die_of(d);
	int r = dwarf_siblingof(&die, &die);

	(void)ctx;
	set_die(d, &die);
	return r == 0;
}

static bool dw_subrange_count(void *ctx, const struct ll_type_die *d, uint64_t *count)
{
	Dwarf_Die die = die_of(d);

	(void)ctx;
	return ll_subrange_count(&die, count);
}

static bool dw_prototyped(void *ctx, const struct ll_type_die *d)
{
	Dwarf_Die die = die_of(d);
	Dwarf_Attribute attr;

	(void)ctx;
	return dwarf_attr(&die, DW_AT_prototyped, &attr) != NULL;
}

static const char *dw_containing_name(void *ctx, const struct ll_type_die *d)
{
	Dwarf_Die die = die_of(d), cls;
	Dwarf_Attribute attr;

	(void)ctx;
	if (!dwarf_attr_integrate(&die, DW_AT_containing_type, &attr) ||
	    !dwarf_formref_die(&attr, &cls))
		return NULL;
	return dwarf_diename(&cls);
}

static const struct ll_type_reader libdw_reader = {
	dw_tag, dw_type, dw_name, dw_first_child, dw_next_sibling, dw_subrange_count,
	dw_prototyped, NULL, dw_containing_name,
};

char *ll_c_declaration(Dwarf_Die *type, const char *declarator)
{
	struct ll_type_die d;

	if (type)
		set_die(&d, type);
	return ll_c_declaration_by(&libdw_reader, type ? &d : NULL, declarator);
}

const char *ll_c_array_base_name(Dwarf_Die *type)
{
	struct ll_type_die d;

	if (type)
		set_die(&d, type);
	return ll_c_array_base_name_by(&libdw_reader, type ? &d : NULL);
}

/*
 * A bound's value as the producer meant it. Only a 64-bit all-ones value
 * is -1 (older gcc's "[0]"); a data1/data2/data4 bound is unsigned.
 */
static bool read_bound(Dwarf_Attribute *attr, int64_t *out)
{
	Dwarf_Word u;
	Dwarf_Sword v;

	switch (dwarf_whatform(attr)) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dwarf_formudata(attr, &u) != 0)
			return false;
		if (dwarf_whatform(attr) == DW_FORM_data1)
			u &= 0xff;
		else if (dwarf_whatform(attr) == DW_FORM_data2)
			u &= 0xffff;
		else if (dwarf_whatform(attr) == DW_FORM_data4)
			u &= 0xffffffff;
		*out = u == UINT64_MAX ? -1 : u > INT64_MAX ? INT64_MAX : (int64_t)u;
		return true;
	default:
		if (dwarf_formsdata(attr, &v) != 0)
			return false;
		*out = v;
		return true;
	}
}

bool ll_subrange_count(Dwarf_Die *sub, uint64_t *count)
{
	Dwarf_Attribute attr;
	Dwarf_Word c;
	int64_t upper, lower = 0;

	if (dwarf_attr(sub, DW_AT_count, &attr))
		return dwarf_formudata(&attr, &c) == 0 ? (*count = c, true) : false;
	if (!dwarf_attr(sub, DW_AT_upper_bound, &attr) || !read_bound(&attr, &upper))
		return false;
	if (dwarf_attr(sub, DW_AT_lower_bound, &attr) && !read_bound(&attr, &lower))
		return false;
	*count = upper >= lower ? (uint64_t)(upper - lower) + 1 : 0;
	return true;
}
