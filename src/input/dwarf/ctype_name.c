// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C declarator syntax is inside out: the type is read from the name
 * outwards, so the declarator string is grown around the name while
 * walking the type chain, and the base type goes in front at the end.
 */
#include "input/dwarf/ctype_name.h"

#include <dwarf.h>
#include <stdbool.h>
#include <string.h>

#include "model/layout.h"
#include "util/strbuf.h"

/* Long chains only come from corrupt DWARF; cut them instead of looping. */
#define MAX_TYPE_DEPTH 64

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	       dwarf_formref_die(&attr, out) != NULL;
}

static void add_named(struct strbuf *out, const char *kw, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);

	if (kw) {
		sb_adds(out, kw);
		sb_addc(out, ' ');
	}
	sb_adds(out, name ? name : (kw ? "{...}" : "<anonymous>"));
}

static void add_params(struct strbuf *decl, Dwarf_Die *fn, int depth);


static void spell(Dwarf_Die *type, struct strbuf *decl, struct strbuf *out, int depth);

static void finish_base(struct strbuf *out, const char *base, struct strbuf *decl)
{
	sb_adds(out, base);
	if (decl->len && decl->buf[0] != '[' && decl->buf[0] != '(')
		sb_addc(out, ' ');
	else if (decl->len && decl->buf[0] == '(')
		sb_addc(out, ' ');
	sb_add(out, decl->buf ? decl->buf : "", decl->len);
}

static void spell(Dwarf_Die *type, struct strbuf *decl, struct strbuf *out, int depth)
{
	Dwarf_Die next;
	struct strbuf base = STRBUF_INIT;

	if (depth > MAX_TYPE_DEPTH) {
		finish_base(out, "<type chain too deep>", decl);
		return;
	}
	if (!type) {
		finish_base(out, "void", decl);
		return;
	}
	switch (dwarf_tag(type)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		sb_insert(decl, 0, dwarf_tag(type) == DW_TAG_pointer_type ? "*" : "&");
		if (!die_type(type, &next)) {
			spell(NULL, decl, out, depth + 1);
			return;
		}
		if (dwarf_tag(&next) == DW_TAG_array_type ||
		    dwarf_tag(&next) == DW_TAG_subroutine_type) {
			sb_insert(decl, 0, "(");
			sb_addc(decl, ')');
		}
		spell(&next, decl, out, depth + 1);
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type: {
		const char *q = dwarf_tag(type) == DW_TAG_const_type ? "const" :
				dwarf_tag(type) == DW_TAG_volatile_type ? "volatile" :
				dwarf_tag(type) == DW_TAG_restrict_type ? "restrict" : "_Atomic";
		bool has_next = die_type(type, &next);

		if (has_next && dwarf_tag(&next) == DW_TAG_pointer_type) {
			/* Qualifies the pointer itself: "char *const p". */
			if (decl->len)
				sb_insert(decl, 0, " ");
			sb_insert(decl, 0, q);
			spell(&next, decl, out, depth + 1);
			return;
		}
		/*
		 * Qualifiers collect in OUT ahead of the base type. gcc repeats
		 * them on an array and on its elements ("const char name[16]"
		 * is const array of const char): say each once.
		 */
		ll_c_qualify(out, q);
		spell(has_next ? &next : NULL, decl, out, depth + 1);
		return;
	}
	case DW_TAG_array_type: {
		Dwarf_Die sub;

		if (dwarf_child(type, &sub) == 0) {
			do {
				uint64_t count;

				if (dwarf_tag(&sub) != DW_TAG_subrange_type)
					continue;
				if (ll_subrange_count(&sub, &count))
					sb_addf(decl, "[%llu]", (unsigned long long)count);
				else
					sb_adds(decl, "[]");
			} while (dwarf_siblingof(&sub, &sub) == 0);
		} else {
			sb_adds(decl, "[]");
		}
		spell(die_type(type, &next) ? &next : NULL, decl, out, depth + 1);
		return;
	}
	case DW_TAG_subroutine_type:
		add_params(decl, type, depth);
		spell(die_type(type, &next) ? &next : NULL, decl, out, depth + 1);
		return;
	case DW_TAG_structure_type:
		add_named(&base, "struct", type);
		break;
	case DW_TAG_union_type:
		add_named(&base, "union", type);
		break;
	case DW_TAG_enumeration_type:
		add_named(&base, "enum", type);
		break;
	case DW_TAG_class_type:
		add_named(&base, "class", type);
		break;
	case DW_TAG_base_type: {
		const char *name = ll_c_base_name(dwarf_diename(type));

		sb_adds(&base, name ? name : "<anonymous>");
		break;
	}
	case DW_TAG_unspecified_type:
	case DW_TAG_typedef:
	default:
		add_named(&base, NULL, type);
		break;
	}
	finish_base(out, base.buf, decl);
	sb_release(&base);
}

static void add_params(struct strbuf *decl, Dwarf_Die *fn, int depth)
{
	Dwarf_Die child;
	bool first = true;
	Dwarf_Attribute attr;
	bool prototyped = dwarf_attr(fn, DW_AT_prototyped, &attr) != NULL;

	sb_addc(decl, '(');
	if (dwarf_child(fn, &child) == 0) {
		do {
			int tag = dwarf_tag(&child);

			if (tag == DW_TAG_formal_parameter) {
				Dwarf_Die pt;
				struct strbuf pd = STRBUF_INIT, ps = STRBUF_INIT;

				spell(die_type(&child, &pt) ? &pt : NULL, &pd, &ps, depth + 1);
				if (!first)
					sb_adds(decl, ", ");
				sb_add(decl, ps.buf ? ps.buf : "", ps.len);
				sb_release(&pd);
				sb_release(&ps);
				first = false;
			} else if (tag == DW_TAG_unspecified_parameters) {
				sb_adds(decl, first ? "..." : ", ...");
				first = false;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (first && prototyped)
		sb_adds(decl, "void");
	sb_addc(decl, ')');
}

char *ll_c_declaration(Dwarf_Die *type, const char *declarator)
{
	struct strbuf decl = STRBUF_INIT, out = STRBUF_INIT;

	sb_adds(&decl, declarator ? declarator : "");
	spell(type, &decl, &out, 0);
	sb_release(&decl);
	return sb_detach(&out);
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
