// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/dwarf/scopes.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "input/dwarf/raw/byte_cursor.h"
#include "util/strbuf.h"

/* Namespaces and types nested deeper than this come only from damage. */
#define MAX_SCOPE_DEPTH 64

bool ll_scoped_name(const char *name)
{
	int angle = 0;

	for (const char *p = name; *p; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle > 0)
			angle--;
		else if (p[0] == ':' && p[1] == ':' && angle == 0)
			return true;
	}
	return false;
}

static bool is_type_scope(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

static bool is_named_type(int tag)
{
	return is_type_scope(tag) || tag == DW_TAG_typedef;
}

static void truncate_to(struct strbuf *sb, size_t len)
{
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = '\0';
}

static void add_scope_name(struct strbuf *sb, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);

	if (sb->len)
		sb_adds(sb, "::");
	sb_adds(sb, name ? name : dwarf_tag(die) == DW_TAG_namespace ? "(anonymous namespace)" :
		"(anonymous)");
}

char *ll_scoped_die_name(Dwarf_Die *die)
{
	Dwarf_Die *scopes = NULL;
	struct strbuf sb = STRBUF_INIT;
	int n;

	if (!dwarf_diename(die))
		return NULL;
	/* scopes[0] is DIE itself (when it is a scope), the unit is last. */
	n = dwarf_getscopes_die(die, &scopes);
	for (int i = n - 1; i >= 1; i--) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_namespace || is_type_scope(tag))
			add_scope_name(&sb, &scopes[i]);
	}
	free(scopes);
	add_scope_name(&sb, die);
	return sb_detach(&sb);
}

int ll_die_language(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return -1;
	return dwarf_srclang(&cu);
}

bool ll_static_member(Dwarf_Die *member)
{
	Dwarf_Attribute attr;

	return dwarf_tag(member) == DW_TAG_member &&
	       (dwarf_attr(member, DW_AT_declaration, &attr) ||
		dwarf_attr(member, DW_AT_external, &attr));
}

static bool peel_to_shape(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die cur = *type;
	Dwarf_Attribute attr;

	for (int i = 0; i < MAX_SCOPE_DEPTH; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type) {
			*out = cur;
			return true;
		}
		if (!dwarf_attr_integrate(&cur, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &cur))
			return false;
	}
	return false;
}

/*
 * Whether TYPE may be an empty class in the Itanium ABI's sense: size 1,
 * and every base and data member is itself of such a type. DWARF does not
 * say whether a member is [[no_unique_address]] (std::tuple's
 * _Head_base<…, true>, unique_ptr's deleter), which makes a class of one
 * such member empty and a class of one plain member not: both read the
 * same here. That is safe because the caller (shrink_empty()) gives the
 * byte up only where the compiler put another member on it or past the
 * end, which it does for an empty class only. A union of such members
 * (std::set's node handle keeps its allocator so) counts the same way.
 */
static bool empty_class(Dwarf_Die *type, int depth)
{
	Dwarf_Die shaped, child;
	Dwarf_Attribute attr;
	Dwarf_Word size;

	if (depth > MAX_SCOPE_DEPTH || !peel_to_shape(type, &shaped) ||
	    !is_type_scope(dwarf_tag(&shaped)) ||
	    !dwarf_attr(&shaped, DW_AT_byte_size, &attr) || dwarf_formudata(&attr, &size) != 0 ||
	    size != 1)
		return false;
	if (dwarf_child(&shaped, &child) != 0)
		return true;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Die inner;

		if (tag == DW_TAG_variant_part)
			return false;
		if (tag == DW_TAG_member && ll_static_member(&child))
			continue;
		if (tag == DW_TAG_member && dwarf_attr(&child, DW_AT_bit_size, &attr))
			return false;
		if ((tag == DW_TAG_inheritance || tag == DW_TAG_member) &&
		    (!dwarf_attr_integrate(&child, DW_AT_type, &attr) ||
		     !dwarf_formref_die(&attr, &inner) || !empty_class(&inner, depth + 1)))
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

bool ll_empty_class(Dwarf_Die *type)
{
	return empty_class(type, 0);
}

/* ---- the walk of nested scopes ------------------------------------------ */

struct walk {
	const char *path;
	ll_scoped_fn fn;
	void *arg;
	struct ll_error *err;
	struct strbuf name;
};

static int walk_children(struct walk *w, Dwarf_Die *parent, int depth, bool nested);

static int visit(struct walk *w, Dwarf_Die *die, int depth, bool nested)
{
	int tag = dwarf_tag(die);
	size_t keep = w->name.len;
	int rc = 0;

	if (tag == DW_TAG_invalid)
		return ll_fail(w->err, "%s: unreadable DIE at .debug_info offset 0x%llx: %s", w->path,
			       (unsigned long long)dwarf_dieoffset(die), dwarf_errmsg(-1));
	if (tag != DW_TAG_namespace && !is_named_type(tag))
		return 0;
	if (tag != DW_TAG_namespace && !dwarf_diename(die))
		return 0;	/* anonymous types are reached through their members */
	add_scope_name(&w->name, die);
	/* Top-level types are the finder's own; here only those inside a scope. */
	if (nested && is_named_type(tag))
		rc = w->fn(die, w->name.buf, w->arg);
	if (!rc && tag != DW_TAG_typedef)
		rc = walk_children(w, die, depth + 1, true);
	truncate_to(&w->name, keep);
	return rc;
}

static int walk_children(struct walk *w, Dwarf_Die *parent, int depth, bool nested)
{
	Dwarf_Die child;
	int rc;

	if (depth > MAX_SCOPE_DEPTH)
		return ll_fail(w->err, "%s: namespaces and types nested deeper than %d levels at "
			       ".debug_info offset 0x%llx", w->path, MAX_SCOPE_DEPTH,
			       (unsigned long long)dwarf_dieoffset(parent));
	rc = dwarf_child(parent, &child);
	while (rc == 0) {
		if (visit(w, &child, depth, nested))
			return -1;
		rc = dwarf_siblingof(&child, &child);
	}
	if (rc < 0)
		return ll_fail(w->err, "%s: unreadable DIE below .debug_info offset 0x%llx: %s",
			       w->path, (unsigned long long)dwarf_dieoffset(parent),
			       dwarf_errmsg(-1));
	return 0;
}

int ll_scoped_walk(Dwarf *dwarf, const char *path, ll_scoped_fn fn, void *arg,
		   struct ll_error *err)
{
	struct walk w = { .path = path, .fn = fn, .arg = arg, .err = err, .name = STRBUF_INIT };
	Dwarf_Off off = 0, next;
	size_t hsize;
	int rc;

	while ((rc = dwarf_next_unit(dwarf, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL,
				     NULL)) == 0) {
		Dwarf_Die cu;

		if (!dwarf_offdie(dwarf, off + hsize, &cu)) {
			sb_release(&w.name);
			return ll_fail(err, "%s: unreadable compilation unit at .debug_info offset "
				       "0x%llx: %s", path, (unsigned long long)off, dwarf_errmsg(-1));
		}
		off = next;
		if (ll_language_is_c(dwarf_srclang(&cu)))
			continue;
		truncate_to(&w.name, 0);
		if (walk_children(&w, &cu, 0, false)) {
			sb_release(&w.name);
			return -1;
		}
	}
	sb_release(&w.name);
	if (rc < 0)
		return ll_fail(err, "%s: malformed .debug_info unit header at offset 0x%llx: %s",
			       path, (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}

bool ll_abbrevs_have_scopes(const unsigned char *abbrev, size_t size)
{
	struct ll_cursor c = { abbrev, abbrev + size, false };

	while (c.p < c.end && !c.bad) {
		uint64_t code = ll_uleb(&c), tag;

		if (code == 0)
			continue;	/* the end of one unit's table */
		tag = ll_uleb(&c);
		if (c.bad)
			break;
		if (ll_scope_tag(tag))
			return true;
		ll_skip(&c, 1);	/* DW_CHILDREN */
		for (;;) {
			uint64_t at = ll_uleb(&c), form = ll_uleb(&c);

			if (c.bad || (at == 0 && form == 0))
				break;
			if (form == DW_FORM_implicit_const)
				ll_skip_leb(&c);
		}
	}
	/* A table that cannot be read: look rather than miss a name. */
	return c.bad;
}
