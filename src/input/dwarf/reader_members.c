// SPDX-License-Identifier: GPL-2.0-or-later
/* Building a struct's layout from its DIE: members, bitfields, bases, empty members. */
#include "input/dwarf/readerP.h"

#include "util/c_ident.h"

struct build_ctx {
	const struct ll_dwarf_input *in;
	struct ll_error *err;
	size_t members;
	size_t budget;		/* what is left of the input's member_budget */
	struct file_cache *files;	/* both in the caller's struct build_memo */
	struct type_memo *types;
	bool rust;		/* a Rust unit: fields are in rustc's order, not declared */
	bool cxx;		/* a C++ unit: tail padding may hold the next member */
	bool unsupported;	/* the error is a shape layoutlint does not lay out */
	/*
	 * The members are dropped once counted or digested (a --list row, a
	 * --contains or --audit line): no member's declaring file is
	 * resolved, a seventh of the builds of a cold --list='*'.
	 */
	bool shape_only;
	bool lean;		/* build_how's: no member types, no paths */
	const char *type_word;	/* build_how's */
	bool word_met;		/* a member's type may be spelled TYPE_WORD (ll_c_array_base_name()) */
	/*
	 * Collecting struct member_words (for the name index): each member's
	 * type_facts base, as met, borrowed from the memo.
	 */
	bool collect_words;
	const char **words;
	size_t nr_words;
	/* Qualified names of the aggregate types met, by DIE: each costs a unit walk. */
	struct qualified_name {
		uint64_t die;
		char *name;	/* NULL: unnamed */
	} *qnames;
	size_t nr_qnames;
};

/* M's type as C and its size, from the memo (struct type_memo) when met before. */
static int member_type_facts(struct build_ctx *ctx, Dwarf_Die *type, struct ll_member *m)
{
	uint64_t key = (uint64_t)(uintptr_t)type->addr;
	struct type_facts *e = reader_memo_slot(ctx->types, key);

	if (!e->sized) {
		uint64_t size;

		int rc = reader_type_size(type, &size, ctx->err, 0, ctx->types);

		if (rc == -2)
			ctx->unsupported = true;
		if (rc)
			return -1;	/* not remembered: the next member fails the same way */
		e = reader_memo_slot(ctx->types, key);
		e->size = size;
		e->sized = true;
	}
	m->size = e->size;
	if (!e->based && (ctx->collect_words || ctx->type_word)) {
		const char *base = ll_c_array_base_name(type);

		e->base = base && ll_c_identifier(base) ? xstrdup(base) : NULL;
		e->based = true;
	}
	if (ctx->collect_words && e->base) {
		ctx->words = xgrow(ctx->words, ctx->nr_words, sizeof(*ctx->words));
		ctx->words[ctx->nr_words++] = e->base;
	}
	if (ctx->lean) {
		/* A type spelled TYPE_WORD, struct or union TYPE_WORD, maybe with [N]. */
		ctx->word_met |= ctx->type_word && e->base && strcmp(e->base, ctx->type_word) == 0;
		return 0;
	}
	if (!e->spelled)
		e->spelled = ll_c_declaration(type, "");
	m->type = xstrdup(e->spelled);
	return 0;
}

static int member_location(struct member_attrs *ma, uint64_t *out, struct ll_error *err)
{
	Dwarf_Die *member = ma->die;
	Dwarf_Attribute attr;
	Dwarf_Word value;

	*out = 0;
	if (!member_attr(ma, DW_AT_data_member_location, false, &attr))
		return 0;	/* union members, and DWARF 4+ bitfields */
	if (dwarf_formudata(&attr, &value) == 0) {
		*out = value;
		return 0;
	}
	/* DWARF 2 style: a location expression, normally DW_OP_plus_uconst N. */
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
	    (ops[0].atom == DW_OP_plus_uconst || ops[0].atom == DW_OP_constu)) {
		*out = ops[0].number;
		return 0;
	}
	return ll_fail(err, "member at DIE 0x%llx: unsupported DW_AT_data_member_location "
		       "expression", (unsigned long long)dwarf_dieoffset(member));
}

static int build_members(struct build_ctx *ctx, Dwarf_Die *agg, uint64_t base,
			 const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out);

/*
 * DWARF 2/3's DW_AT_bit_offset counts from the most significant bit of a
 * storage unit of UNIT bytes; the model counts bits in the order the
 * target allocates them (DW_AT_data_bit_offset's order): from the most
 * significant bit on a big-endian target, from the least on a
 * little-endian one. gcc still writes the old form for bitfields in
 * unions, even with DWARF 5; clang for every bitfield on big-endian
 * targets and on powerpc64le.
 *
 * BO is signed: in a packed struct the field may stick out of the unit's
 * most significant end (clang: a short:7 at bit 13 of a 2-byte unit has
 * -4 on little-endian, 13 on big-endian). *AT: the field's first bit from
 * the unit's start; false when that is before the unit or absurdly far.
 */
static bool old_bit_offset(const struct ll_dwarf_input *in, uint64_t bo, uint64_t bits,
			   uint64_t unit, uint64_t *at)
{
	const int64_t limit = (int64_t)LL_MAX_STRUCT_SIZE * 8;
	int64_t from_msb = (int64_t)bo, pos;

	if (bits > (uint64_t)limit || unit > LL_MAX_STRUCT_SIZE || from_msb < -limit ||
	    from_msb > limit)
		return false;
	pos = in->big_endian ? from_msb : (int64_t)unit * 8 - from_msb - (int64_t)bits;
	if (pos < 0)
		return false;
	*at = (uint64_t)pos;
	return true;
}

/* The qualified name of aggregate type DIE SHAPED, remembered in CTX; borrowed. */
static const char *qualified_type_name(struct build_ctx *ctx, Dwarf_Die *shaped)
{
	uint64_t off = dwarf_dieoffset(shaped);

	for (size_t i = 0; i < ctx->nr_qnames; i++)
		if (ctx->qnames[i].die == off)
			return ctx->qnames[i].name;
	ctx->qnames = xgrow(ctx->qnames, ctx->nr_qnames, sizeof(*ctx->qnames));
	ctx->qnames[ctx->nr_qnames] = (struct qualified_name){ off, ll_scoped_die_name(shaped) };
	return ctx->qnames[ctx->nr_qnames++].name;
}

/*
 * C++ and Rust: a member whose type is a named aggregate in a namespace
 * or a type is spelled with its qualified name ("struct geo::Base", not
 * "struct Base"), so that --contains geo::Base finds it and no Base of
 * another namespace. Typedefs, pointers and arrays keep the C spelling.
 */
static void qualify_type(struct build_ctx *ctx, Dwarf_Die *shaped, struct ll_member *m)
{
	const char *simple = dwarf_diename(shaped), *space = strchr(m->type, ' ');
	const char *qualified;
	struct strbuf sb = STRBUF_INIT;

	if (!simple || !space || strcmp(space + 1, simple) != 0 ||
	    !(qualified = qualified_type_name(ctx, shaped)) || strcmp(qualified, simple) == 0)
		return;
	sb_add(&sb, m->type, (size_t)(space - m->type) + 1);
	sb_adds(&sb, qualified);
	free(m->type);
	m->type = sb_detach(&sb);
}

/*
 * A C++ base class is a member named "<base NAME>" (NAME qualified) whose
 * members lend their names to the derived class's paths, as C++ spells
 * them (d.x for a base's x). A virtual base lies where the most derived
 * class puts it, found at run time through the vtable: DWARF gives an
 * expression, not an offset, so such a class is refused, not guessed.
 */
static int base_member(struct build_ctx *ctx, Dwarf_Die *die, Dwarf_Die *type,
		       struct ll_member *m)
{
	Dwarf_Die shaped;
	Dwarf_Word virtuality = 0;
	const char *base_name = reader_peel(type, &shaped) ? qualified_type_name(ctx, &shaped) : NULL;
	unsigned long long die_off = (unsigned long long)dwarf_dieoffset(die);
	Dwarf_Attribute attr;
	Dwarf_Word loc;

	Dwarf_Op *ops;
	size_t nops;

	m->is_base = true;
	/* DWARF 2 and 3 write even a plain base's offset as DW_OP_plus_uconst N. */
	if ((die_udata(die, DW_AT_virtuality, &virtuality) && virtuality) ||
	    (dwarf_attr(die, DW_AT_data_member_location, &attr) &&
	     dwarf_formudata(&attr, &loc) != 0 &&
	     !(dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
	       ops[0].atom == DW_OP_plus_uconst))) {
		ctx->unsupported = true;
		ll_fail(ctx->err, "virtual base %s at DIE 0x%llx: where it lies depends on the most "
			"derived class and is read from the vtable at run time "
			"(DW_AT_data_member_location is an expression, not an offset); layoutlint "
			"does not lay out classes with virtual bases",
			base_name ? base_name : "<anonymous>", die_off);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "<base %s>", base_name ? base_name : "<anonymous>");
	m->name = sb_detach(&sb);
	return 0;
}

static bool has_variant_part(Dwarf_Die *agg)
{
	Dwarf_Die child;

	if (dwarf_child(agg, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_variant_part)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int build_member(struct build_ctx *ctx, struct member_attrs *ma, uint64_t base,
			const char *path_prefix, uint64_t parent_align, int depth,
			struct ll_member *m)
{
	Dwarf_Die *die = ma->die;
	Dwarf_Attribute attr;
	const char *name = member_attr(ma, DW_AT_name, true, &attr) ? dwarf_formstring(&attr) :
								       NULL;
	Dwarf_Die type, shaped;
	uint64_t loc;
	Dwarf_Word bits, a;
	bool ex = false;
	unsigned long long die_off = (unsigned long long)dwarf_dieoffset(die);
	bool is_base = dwarf_tag(die) == DW_TAG_inheritance;

	/* A name libdw cannot read is damage, not an anonymous member. */
	if (!name && member_attr(ma, DW_AT_name, false, &attr))
		return ll_fail(ctx->err, "member at DIE 0x%llx: unreadable DW_AT_name (form 0x%x): %s",
			       die_off, dwarf_whatform(&attr), dwarf_errmsg(-1));
	if (!member_type(ma, &type))
		return ll_fail(ctx->err, "member %s at DIE 0x%llx has no valid type",
			       name ? name : "<anonymous>", die_off);
	if (is_base && base_member(ctx, die, &type, m))
		return -1;
	if (member_location(ma, &loc, ctx->err))
		return -1;
	if (!is_base)
		m->name = name ? xstrdup(name) : NULL;
	if (member_type_facts(ctx, &type, m))
		return -1;
	if (ctx->word_met)
		return -1;	/* built again whole: the error is never seen */
	if (!ctx->shape_only)
		member_decl(ctx->in, ma, ctx->files, &m->decl);
	if (base + loc < base)
		return ll_fail(ctx->err, "member %s at DIE 0x%llx: offset overflows",
			       name ? name : "<anonymous>", die_off);
	m->offset = base + loc;

	m->alignment = reader_type_alignment(&type, &ex, 0, ctx->types);
	if (!m->alignment)
		m->alignment = 1;
	if (member_udata(ma, DW_AT_alignment, &a) && a) {
		if (a > m->alignment)
			m->alignment = a;
		ex = true;
	}
	/* Even a bitfield's LOC is where its storage unit starts (builder.h). */
	m->alignment = ll_placed_alignment(m->alignment, true, loc, parent_align);
	m->explicit_align = ex;

	if (member_udata(ma, DW_AT_bit_size, &bits)) {
		Dwarf_Word dbo, unit, old_bo;

		m->is_bitfield = true;
		m->bit_size = bits;
		if (member_udata(ma, DW_AT_byte_size, &unit))
			m->size = unit;
		if (member_udata(ma, DW_AT_data_bit_offset, &dbo)) {
			m->bit_offset = base * 8 + dbo;
		} else if (member_udata(ma, DW_AT_bit_offset, &old_bo)) {
			uint64_t in_unit;

			if (!old_bit_offset(ctx->in, old_bo, bits, m->size, &in_unit))
				return ll_fail(ctx->err, "bitfield %s at DIE 0x%llx lies outside its "
					       "storage unit", name ? name : "<unnamed>", die_off);
			m->bit_offset = m->offset * 8 + in_unit;
		} else {
			m->bit_offset = m->offset * 8;
		}
		m->offset = m->bit_offset / 8;
	}

	/* A base's path is its name, which no rules pattern spells: it is tagged by its members. */
	if (m->name && !ctx->lean)
		m->path = is_base ? xstrdup(m->name) : ll_member_path(path_prefix, m->name);

	/*
	 * A Rust enum held as a field (Option<T>, Result<T, E>, one's own) is
	 * a member of the size and alignment DWARF gives it, not laid out
	 * inside: only the struct asked for is refused for a variant part of
	 * its own.
	 */
	if (ctx->rust && reader_peel(&type, &shaped) && is_aggregate_tag(dwarf_tag(&shaped)) &&
	    has_variant_part(&shaped))
		return 0;
	if (reader_peel(&type, &shaped) && is_aggregate_tag(dwarf_tag(&shaped)) && !m->is_bitfield) {
		Dwarf_Die def;

		/* Only declared here (a key function elsewhere): laid out as defined. */
		if (reader_resolve_decl(ctx->types, &shaped, &def))
			shaped = def;
		bool child_ex = false;
		uint64_t child_align = reader_aggregate_alignment(&shaped, &child_ex, 0, ctx->types);

		m->is_aggregate = true;
		m->agg_kind = dwarf_tag(&shaped) == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
		if ((ctx->cxx || ctx->rust) && !ctx->lean)
			qualify_type(ctx, &shaped, m);
		if (depth + 1 > MAX_NESTING)
			return ll_fail(ctx->err, "member %s at DIE 0x%llx: aggregates nested deeper "
				       "than %d levels", name ? name : "<anonymous>", die_off,
				       MAX_NESTING);
		/* Anonymous aggregates and bases lend their members to the enclosing path. */
		if (build_members(ctx, &shaped, m->offset,
				  m->name && !is_base ? m->path : path_prefix,
				  child_align, depth + 1, &m->children, &m->nr_children))
			return -1;
	}
	return 0;
}

/*
 * A member or base of an empty class type: sizeof says 1, but as an empty
 * base or a [[no_unique_address]] member it takes no byte, and then the
 * compiler puts it where another member is, or at the very end. There it
 * is size 0, so that it neither overlaps nor grows the class; elsewhere
 * its byte is its own, as sizeof says.
 */
/*
 * An empty member that takes no room: so do its bases and members, which
 * are all empty too (ll_empty_class()), down to any depth.
 */
static void zero_empty(struct ll_member *m)
{
	m->size = 0;
	for (size_t i = 0; i < m->nr_children; i++)
		zero_empty(&m->children[i]);
}

static void shrink_empty(struct ll_member *v, size_t n, const size_t *empty, size_t nr_empty,
			 uint64_t end)
{
	for (size_t e = 0; e < nr_empty; e++) {
		struct ll_member *m = &v[empty[e]];
		bool shared = m->offset + m->size > end;

		for (size_t i = 0; i < n && !shared; i++) {
			struct ll_extent x = ll_member_extent(&v[i]);

			shared = &v[i] != m && v[i].size && x.begin <= m->offset && m->offset < x.end;
		}
		if (shared)
			zero_empty(m);
	}
}

/* The end of the last byte of data at or below M: its tail padding excluded. */
static uint64_t data_end(const struct ll_member *m)
{
	uint64_t end = m->offset;

	if (!m->is_aggregate || !m->nr_children)
		return ll_member_extent(m).end;
	for (size_t i = 0; i < m->nr_children; i++) {
		uint64_t e = data_end(&m->children[i]);

		if (e > end)
			end = e;
	}
	return end;
}

/*
 * C++ reuses the tail padding of a base class (unless it is a POD) and of
 * a [[no_unique_address]] member: the next member may start inside its
 * sizeof. There the aggregate ends where that member starts, as long as
 * its own data ends before; an overlap of data stays, and is refused as
 * damage.
 */
static void shrink_reused_padding(struct ll_member *v, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		struct ll_member *m = &v[i];
		uint64_t next = v[i + 1].is_bitfield ? v[i + 1].bit_offset / 8 : v[i + 1].offset;

		if (!m->is_aggregate || m->is_bitfield || next < m->offset ||
		    next >= m->offset + m->size || data_end(m) > next)
			continue;
		m->size = next - m->offset;
	}
}

/*
 * rustc chooses the order of a struct's fields and DWARF lists them as
 * declared: the model's levels are in offset order, as every reader's
 * are (holes, overlaps, cachelines walk them so). Stable: members at one
 * offset keep their declared order.
 */
static void sort_by_offset(struct ll_member *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct ll_member m = v[i];
		size_t j = i;

		while (j > 0 && (v[j - 1].offset > m.offset ||
				 (v[j - 1].offset == m.offset && v[j - 1].is_bitfield &&
				  m.is_bitfield && v[j - 1].bit_offset > m.bit_offset))) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = m;
	}
}

static int build_members(struct build_ctx *ctx, Dwarf_Die *agg, uint64_t base,
			 const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out)
{
	Dwarf_Die child;
	size_t n = 0, cap = 0, nr_empty = 0;
	struct ll_member *v = NULL;
	size_t *empty = NULL;	/* members of an empty class type */
	Dwarf_Word agg_size;

	*out = NULL;
	*nr_out = 0;
	if (dwarf_child(agg, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_variant_part && (ctx->unsupported = true))
			return ll_fail(ctx->err, "DW_TAG_variant_part at DIE 0x%llx: a Rust enum (or "
				       "another tagged union), whose variants share bytes chosen by a "
				       "discriminant; layoutlint lays out structs, unions and classes "
				       "only", (unsigned long long)dwarf_dieoffset(&child));
		struct member_attrs attrs;

		read_member_attrs(&child, &attrs);
		if (!is_data_member(&attrs))
			continue;
		if (++ctx->members > MAX_MEMBERS)
			return ll_fail(ctx->err, "more than %d members below DIE 0x%llx",
				       MAX_MEMBERS, (unsigned long long)dwarf_dieoffset(agg));
		if (ctx->members > ctx->budget)
			return ll_fail(ctx->err, "more than %zu members below DIE 0x%llx, counting "
				       "the structs looked up before it (this input's limit: %d per "
				       ".debug_info byte, at least %d; only structs that nest each "
				       "other exponentially reach it)", ctx->in->member_budget,
				       (unsigned long long)dwarf_dieoffset(agg),
				       MEMBERS_PER_INFO_BYTE, MEMBERS_FLOOR);
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xrealloc(v, cap * sizeof(*v));
		}
		memset(&v[n], 0, sizeof(v[n]));
		int rc = build_member(ctx, &attrs, base, path_prefix, parent_align, depth, &v[n]);
		Dwarf_Die type;

		/* Only C++ has empty classes (a GNU C empty struct is size 0). */
		if (!rc && ctx->cxx && die_type(&child, &type) && ll_empty_class(&type)) {
			empty = xrealloc(empty, cap * sizeof(*empty));
			empty[nr_empty++] = n;
		}
		n++;
		*out = v;
		*nr_out = n;
		if (rc) {
			free(empty);
			return -1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (die_udata(agg, DW_AT_byte_size, &agg_size))
		shrink_empty(v, n, empty, nr_empty, base + agg_size);
	free(empty);
	if (ctx->cxx && dwarf_tag(agg) != DW_TAG_union_type)
		shrink_reused_padding(v, n);
	/*
	 * C++ too: an empty [[no_unique_address]] member may lie inside a
	 * later member's bytes (struct { [[no_unique_address]] E e; long v; }
	 * after an empty base of E puts e at 1, v at 0).
	 */
	if (ctx->rust || ctx->cxx)
		sort_by_offset(v, n);
	*out = v;
	*nr_out = n;
	return 0;
}

static int cmp_word(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* CTX's words, each once, into OUT (struct member_words). */
static void pack_words(struct build_ctx *ctx, struct member_words *out)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr = 0;

	if (ctx->nr_words)
		qsort(ctx->words, ctx->nr_words, sizeof(*ctx->words), cmp_word);
	for (size_t i = 0; i < ctx->nr_words; i++) {
		if (i && strcmp(ctx->words[i - 1], ctx->words[i]) == 0)
			continue;
		sb_add(&sb, ctx->words[i], strlen(ctx->words[i]) + 1);
		nr++;
	}
	*out = (struct member_words){ .blob = sb_detach(&sb), .nr = nr };
}

/* Materialise the model of one aggregate DIE. NAME overrides for typedefs. */
/* *UNSUPPORTED: the failure is a shape layoutlint does not lay out, not damage. */
static int build_with_memo(const struct ll_dwarf_input *in, Dwarf_Die *agg, const char *name,
			   const struct build_how *how, struct build_memo *memo,
			   struct ll_struct **out, bool *unsupported, size_t *members,
			   bool *word_met, struct member_words *words, struct ll_error *err)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	struct build_ctx ctx = { .in = in, .err = err, .budget = how->budget,
				 .files = &memo->files, .types = &memo->types,
				 .shape_only = how->shape_only, .lean = how->lean,
				 .type_word = how->type_word, .collect_words = words != NULL };
	Dwarf_Word size;
	bool ex = false;

	memo->types.resolve_in = how->resolve_decls ? in : NULL;
	*out = s;
	s->kind = dwarf_tag(agg) == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
	s->name = xstrdup(name);
	if (!die_udata(agg, DW_AT_byte_size, &size))
		return ll_fail(err, "%s %s at DIE 0x%llx has no DW_AT_byte_size",
			       ll_kind_name(s->kind), name,
			       (unsigned long long)dwarf_dieoffset(agg));
	/*
	 * A --list row costs its members, not its bytes: glibc's 2 GiB dtv
	 * (one array member) is listed. A layout is drawn line by line, and
	 * so is still refused beyond the limit.
	 */
	if (size > LL_MAX_STRUCT_SIZE && !how->list_row && (*unsupported = true))
		return ll_fail(err, "%s %s at DIE 0x%llx claims %llu bytes, beyond the %u MiB "
			       "layoutlint lays out (--list shows it)", ll_kind_name(s->kind), name,
			       (unsigned long long)dwarf_dieoffset(agg), (unsigned long long)size,
			       LL_MAX_STRUCT_SIZE >> 20);
	s->size = size;
	s->alignment = reader_aggregate_alignment(agg, &ex, 0, ctx.types);
	s->explicit_align = ex;
	s->cacheline = in->arch_cacheline;
	s->origin = dwarf_dieoffset(agg);
	int lang = ll_die_language(agg);

	ctx.rust = ll_language_is_rust(lang);
	ctx.cxx = ll_language_is_cxx(lang);
	s->compiler_orders_members = ctx.rust;
	if (how->shape_only) {
		s->decl.file = how->file ? xstrdup(how->file) : NULL;
		reader_die_decl_position(agg, &s->decl);
	} else {
		reader_die_decl(in, agg, ctx.files, &s->decl);
	}
	int rc = build_members(&ctx, agg, 0, "", s->alignment, 0, &s->members, &s->nr_members);
	*members = ctx.members;
	*word_met = ctx.word_met;
	*unsupported = ctx.unsupported;
	for (size_t i = 0; i < ctx.nr_qnames; i++)
		free(ctx.qnames[i].name);
	free(ctx.qnames);
	if (!rc) {
		char where[40], declarer[64];

		snprintf(where, sizeof(where), "at DIE 0x%llx", (unsigned long long)s->origin);
		snprintf(declarer, sizeof(declarer), "the struct %s", where);
		rc = ll_struct_validate(s, where, declarer, err);
	}
	/* Before the memo that owns the words may be emptied (reader_build_memo_leave()). */
	if (!rc && !ctx.word_met && words)
		pack_words(&ctx, words);
	free(ctx.words);
	return rc;
}

/*
 * Build the aggregate at AGG with BUDGET members left; *MEMBERS: how many
 * it counted, failed or not. Reads IN only, so that two threads, each
 * with a libdw handle and a MEMO of its own, may build at once
 * (build_in_parallel()). WORDS (NULL: not wanted, and not collected):
 * the built struct's struct member_words, for the name index; not known
 * when the build failed.
 */
int reader_build_struct_budget(const struct ll_dwarf_input *in, Dwarf_Die *agg,
			       const char *name, const struct build_how *how,
			       struct build_memo *memo, struct ll_struct **out, bool *unsupported,
			       size_t *members, struct member_words *words, struct ll_error *err)
{
	bool unsupported_before = *unsupported, word_met = false;
	int rc;

	if (words)
		*words = (struct member_words){ 0 };
	reader_build_memo_enter(memo, in, agg);
	rc = build_with_memo(in, agg, name, how, memo, out, unsupported, members, &word_met, words,
			     err);
	reader_build_memo_leave(memo, rc);
	if (!how->lean || (!rc && !word_met))
		return rc;
	/* As if the lean build never ran (struct build_how's lean). */
	struct build_how whole = *how;

	whole.lean = false;
	ll_struct_free(*out);
	*unsupported = unsupported_before;
	reader_build_memo_enter(memo, in, agg);
	rc = build_with_memo(in, agg, name, &whole, memo, out, unsupported, members, &word_met, words,
			     err);
	reader_build_memo_leave(memo, rc);
	return rc;
}

/* The same, counting against what the input's lookups have built so far (ASKED's budget aside). */
int reader_build_struct(struct ll_dwarf_input *in, Dwarf_Die *agg, const char *name,
			const struct build_how *asked, struct ll_struct **out, bool *unsupported,
			struct member_words *words, struct ll_error *err)
{
	struct build_how how = *asked;
	size_t members;
	int rc;

	how.budget = in->member_budget - in->members_built;
	/* Serial builds only: the definitions' handle is not the threads' to share. */
	how.resolve_decls = true;
	if (!in->build_memo)
		in->build_memo = xcalloc(1, sizeof(*in->build_memo));
	rc = reader_build_struct_budget(in, agg, name, &how, in->build_memo, out, unsupported, &members,
				 words, err);

	in->members_built += members;
	return rc;
}
