// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C declarator syntax is inside out: the type is read from the name
 * outwards, so the declarator string is grown around the name while
 * walking the type chain, and the base type goes in front at the end.
 */
#include "input/dwarf/raw/type_spelling.h"

#include <dwarf.h>
#include <stdbool.h>
#include <string.h>

#include "model/layout.h"
#include "util/strbuf.h"

/* Long chains only come from corrupt DWARF; cut them instead of looping. */
#define MAX_TYPE_DEPTH 64

/* ---- spelling --------------------------------------------------------- */

struct speller {
	const struct ll_type_reader *r;
};

static int tag_of(const struct speller *sp, const struct ll_type_die *d)
{
	return sp->r->tag(sp->r->ctx, d);
}

static bool type_of(const struct speller *sp, const struct ll_type_die *d,
		    struct ll_type_die *out)
{
	return sp->r->type(sp->r->ctx, d, out);
}

/* The C keyword before a tagged type's name. */
static const char *tag_keyword(int tag)
{
	switch (tag) {
	case DW_TAG_union_type: return "union";
	case DW_TAG_enumeration_type: return "enum";
	case DW_TAG_class_type: return "class";
	default: return "struct";
	}
}

static void add_named(const struct speller *sp, struct strbuf *out, const char *kw,
		      const struct ll_type_die *die)
{
	const char *name = sp->r->name(sp->r->ctx, die);

	if (kw) {
		sb_adds(out, kw);
		sb_addc(out, ' ');
	}
	sb_adds(out, name ? name : (kw ? "{...}" : "<anonymous>"));
}

static void add_params(const struct speller *sp, struct strbuf *decl,
		       const struct ll_type_die *fn, int depth);

static void spell(const struct speller *sp, const struct ll_type_die *type, struct strbuf *decl,
		  struct strbuf *out, int depth);

static void finish_base(struct strbuf *out, const char *base, struct strbuf *decl)
{
	sb_adds(out, base);
	if (decl->len && decl->buf[0] != '[' && decl->buf[0] != '(')
		sb_addc(out, ' ');
	else if (decl->len && decl->buf[0] == '(')
		sb_addc(out, ' ');
	sb_add(out, decl->buf ? decl->buf : "", decl->len);
}

static void add_dimensions(const struct speller *sp, struct strbuf *decl,
			   const struct ll_type_die *array)
{
	struct ll_type_die sub;

	if (!sp->r->first_child(sp->r->ctx, array, &sub)) {
		sb_adds(decl, "[]");
		return;
	}
	do {
		uint64_t count;

		if (tag_of(sp, &sub) != DW_TAG_subrange_type)
			continue;
		if (sp->r->subrange_count(sp->r->ctx, &sub, &count))
			sb_addf(decl, "[%llu]", (unsigned long long)count);
		else
			sb_adds(decl, "[]");
	} while (sp->r->next_sibling(sp->r->ctx, &sub));
}

static void spell(const struct speller *sp, const struct ll_type_die *type, struct strbuf *decl,
		  struct strbuf *out, int depth);

/*
 * What a pointer, reference or pointer to member at TYPE points to; DECL
 * already holds the declarator's "*" (or "&", "A::*"), parenthesised when
 * the pointee is an array or a function, as C wants: "int (*a)[4]".
 */
static void spell_pointee(const struct speller *sp, const struct ll_type_die *type,
			  struct strbuf *decl, struct strbuf *out, int depth)
{
	struct ll_type_die next;

	if (!type_of(sp, type, &next)) {
		spell(sp, NULL, decl, out, depth + 1);
		return;
	}
	if (tag_of(sp, &next) == DW_TAG_array_type ||
	    tag_of(sp, &next) == DW_TAG_subroutine_type) {
		sb_insert(decl, 0, "(");
		sb_addc(decl, ')');
	}
	spell(sp, &next, decl, out, depth + 1);
}

static void spell(const struct speller *sp, const struct ll_type_die *type, struct strbuf *decl,
		  struct strbuf *out, int depth)
{
	struct ll_type_die next;
	struct strbuf base = STRBUF_INIT;
	int tag;

	if (depth > MAX_TYPE_DEPTH) {
		finish_base(out, "<type chain too deep>", decl);
		return;
	}
	if (!type) {
		finish_base(out, "void", decl);
		return;
	}
	switch ((tag = tag_of(sp, type))) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		sb_insert(decl, 0, tag == DW_TAG_pointer_type ? "*" : "&");
		spell_pointee(sp, type, decl, out, depth);
		return;
	case DW_TAG_ptr_to_member_type: {
		/* C++: "int A::*dm", "int (A::*fm)()". */
		const char *cls = sp->r->containing_name ?
				  sp->r->containing_name(sp->r->ctx, type) : NULL;

		sb_insert(decl, 0, "::*");
		sb_insert(decl, 0, cls ? cls : "<class>");
		spell_pointee(sp, type, decl, out, depth);
		return;
	}
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type: {
		const char *q = tag == DW_TAG_const_type ? "const" :
				tag == DW_TAG_volatile_type ? "volatile" :
				tag == DW_TAG_restrict_type ? "restrict" : "_Atomic";
		bool has_next = type_of(sp, type, &next);

		if (has_next && tag_of(sp, &next) == DW_TAG_pointer_type) {
			/* Qualifies the pointer itself: "char *const p". */
			if (decl->len)
				sb_insert(decl, 0, " ");
			sb_insert(decl, 0, q);
			spell(sp, &next, decl, out, depth + 1);
			return;
		}
		/*
		 * Qualifiers collect in OUT ahead of the base type. gcc repeats
		 * them on an array and on its elements ("const char name[16]"
		 * is const array of const char): say each once.
		 */
		ll_c_qualify(out, q);
		spell(sp, has_next ? &next : NULL, decl, out, depth + 1);
		return;
	}
	case DW_TAG_array_type:
		add_dimensions(sp, decl, type);
		spell(sp, type_of(sp, type, &next) ? &next : NULL, decl, out, depth + 1);
		return;
	case DW_TAG_subroutine_type:
		add_params(sp, decl, type, depth);
		spell(sp, type_of(sp, type, &next) ? &next : NULL, decl, out, depth + 1);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_class_type:
		add_named(sp, &base, tag_keyword(tag), type);
		break;
	case DW_TAG_base_type: {
		const char *name = ll_c_base_name(sp->r->name(sp->r->ctx, type));

		sb_adds(&base, name ? name : "<anonymous>");
		break;
	}
	case DW_TAG_unspecified_type:
	case DW_TAG_typedef:
	default:
		add_named(sp, &base, NULL, type);
		break;
	}
	finish_base(out, base.buf, decl);
	sb_release(&base);
}

static void add_params(const struct speller *sp, struct strbuf *decl,
		       const struct ll_type_die *fn, int depth)
{
	struct ll_type_die child;
	bool first = true;
	bool prototyped = sp->r->prototyped(sp->r->ctx, fn);

	sb_addc(decl, '(');
	if (sp->r->first_child(sp->r->ctx, fn, &child)) {
		do {
			int tag = tag_of(sp, &child);

			if (tag == DW_TAG_formal_parameter) {
				struct ll_type_die pt;
				struct strbuf pd = STRBUF_INIT, ps = STRBUF_INIT;

				spell(sp, type_of(sp, &child, &pt) ? &pt : NULL, &pd, &ps, depth + 1);
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
		} while (sp->r->next_sibling(sp->r->ctx, &child));
	}
	if (first && prototyped)
		sb_adds(decl, "void");
	sb_addc(decl, ')');
}

const char *ll_c_array_base_name_by(const struct ll_type_reader *reader,
				    const struct ll_type_die *type)
{
	struct speller sp = { reader };
	struct ll_type_die at;
	const char *name;

	/* spell()'s walk, its depth counted alike: arrays only, to the base. */
	for (int depth = 0; depth <= MAX_TYPE_DEPTH; depth++) {
		if (!type)
			return "void";
		switch (tag_of(&sp, type)) {
		case DW_TAG_array_type:
			type = type_of(&sp, type, &at) ? &at : NULL;
			continue;
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
		case DW_TAG_ptr_to_member_type:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
		case DW_TAG_subroutine_type:
			return NULL;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_enumeration_type:
		case DW_TAG_class_type:
			name = reader->name(reader->ctx, type);
			return name ? name : "{...}";
		case DW_TAG_base_type:
			name = ll_c_base_name(reader->name(reader->ctx, type));
			return name ? name : "<anonymous>";
		default:
			name = reader->name(reader->ctx, type);
			return name ? name : "<anonymous>";
		}
	}
	return NULL;
}

char *ll_c_declaration_by(const struct ll_type_reader *reader, const struct ll_type_die *type,
			  const char *declarator)
{
	struct strbuf decl = STRBUF_INIT, out = STRBUF_INIT;
	struct speller sp = { reader };

	sb_adds(&decl, declarator ? declarator : "");
	spell(&sp, type, &decl, &out, 0);
	sb_release(&decl);
	return sb_detach(&out);
}
