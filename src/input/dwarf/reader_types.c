// SPDX-License-Identifier: GPL-2.0-or-later
/* Types: sizes, alignments, declarations resolved to definitions, remembered per build. */
#include "input/dwarf/readerP.h"

/* Follow typedefs and qualifiers down to the type that has a shape. */
bool reader_peel(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die cur = *type;

	for (int i = 0; i < MAX_NESTING; i++) {
		switch (dwarf_tag(&cur)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type: {
			Dwarf_Die next;

			if (!die_type(&cur, &next))
				return false;	/* const void */
			cur = next;
			break;
		}
		default:
			*out = cur;
			return true;
		}
	}
	return false;
}

static unsigned address_size(Dwarf_Die *die)
{
	Dwarf_Die cu;
	uint8_t asize = 8, osize;

	if (dwarf_diecu(die, &cu, &asize, &osize) == NULL)
		return 8;
	return asize;
}

/* ---- types only declared, resolved to their definitions ------------------ */

/*
 * A C++ class is defined (DWARF: with its members and size) only in the
 * unit that defines its key function, its first non-inline virtual one;
 * elsewhere it is a DW_AT_declaration (libstdc++'s future_error_category,
 * ninja's State). Such a type is looked up by qualified name among every
 * unit's definitions, read once per input through a handle of its own (the
 * lookup's handle sees only the units it makes real), and used when one
 * size answers the name.
 */

void reader_decl_defs_free(struct decl_defs *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	if (d->elf) {
		dwarf_end(d->dwarf);
		elf_end(d->elf);
	}
	free(d);
}

static int cmp_decl_def(const void *a, const void *b)
{
	const struct decl_def *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->tag - y->tag;
}

#define DECL_DEFS_DEPTH 32

static void collect_defs(struct decl_defs *d, Dwarf_Die *parent, struct strbuf *name, int depth)
{
	Dwarf_Die child;

	if (depth > DECL_DEFS_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);
		size_t keep = name->len;
		Dwarf_Attribute attr;
		Dwarf_Word size;

		if (tag != DW_TAG_namespace && !is_aggregate_tag(tag))
			continue;
		if (!n)
			continue;	/* anonymous: reached by no declaration's name */
		if (name->len)
			sb_adds(name, "::");
		sb_adds(name, n);
		if (is_aggregate_tag(tag) && !dwarf_attr(&child, DW_AT_declaration, &attr) &&
		    dwarf_attr(&child, DW_AT_byte_size, &attr) && dwarf_formudata(&attr, &size) == 0) {
			d->v = xgrow(d->v, d->n, sizeof(*d->v));
			d->v[d->n++] = (struct decl_def){ xstrdup(name->buf),
				tag == DW_TAG_union_type ? DW_TAG_union_type : DW_TAG_structure_type,
				size, dwarf_dieoffset(&child), false };
		}
		collect_defs(d, &child, name, depth + 1);
		name->len = keep;
		if (name->buf)
			name->buf[keep] = '\0';
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The definitions of IN's .debug_info by qualified name, read on first use. */
static struct decl_defs *decl_defs_of(const struct ll_dwarf_input *in)
{
	struct decl_defs *d = in->decl_defs;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t unit_type;
	Dwarf_Half version;
	struct strbuf name = STRBUF_INIT;

	if (!d || d->tried)
		return d;
	d->tried = true;
	if (in->image) {
		/* The lookup's handle is on a sparse image: the file itself, mapped. */
		d->elf = elf_begin(in->fd, ELF_C_READ_MMAP, NULL);
		d->dwarf = d->elf ? dwarf_begin_elf(d->elf, DWARF_C_READ, NULL) : NULL;
		if (!d->dwarf) {
			if (d->elf)
				elf_end(d->elf);
			d->elf = NULL;
			return d;
		}
	} else {
		d->dwarf = in->dwarf;
	}
	while (d->dwarf && dwarf_get_units(d->dwarf, cu, &cu, &version, &unit_type, &cudie,
					   NULL) == 0) {
		if (unit_type == DW_UT_compile || unit_type == DW_UT_partial)
			collect_defs(d, &cudie, &name, 0);
	}
	sb_release(&name);
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), cmp_decl_def);
	/* One size a name: the first stands for it; two sizes: none does. */
	for (size_t i = 0, j; i < d->n; i = j) {
		bool mixed = false;

		for (j = i + 1; j < d->n && cmp_decl_def(&d->v[i], &d->v[j]) == 0; j++)
			mixed |= d->v[j].size != d->v[i].size;
		d->v[i].ambiguous = mixed;
	}
	return d;
}

/*
 * The size the target's C++ ABI gives a pointer-like type that DWARF
 * leaves unsized. Itanium (and its ARM, MIPS variants): a pointer to data
 * member is one ptrdiff_t, a pointer to member function two words
 * (function or vtable offset, and this-adjustment); std::nullptr_t
 * (DW_TAG_unspecified_type "decltype(nullptr)") is a pointer.
 */
static uint64_t word_sized_size(Dwarf_Die *type)
{
	Dwarf_Die pointee, shaped;

	if (dwarf_tag(type) == DW_TAG_ptr_to_member_type && die_type(type, &pointee) &&
	    reader_peel(&pointee, &shaped) && dwarf_tag(&shaped) == DW_TAG_subroutine_type)
		return 2 * address_size(type);
	return address_size(type);
}

/*
 * Element size times every dimension. A dimension without a count or
 * bound is a flexible array member: zero bytes, where dwarf_aggregate_size
 * gives up.
 */
static int array_size(Dwarf_Die *array, uint64_t *size, struct ll_error *err, int depth,
		      const struct type_memo *memo)
{
	Dwarf_Die elem, sub;
	uint64_t total;

	if (!die_type(array, &elem))
		return ll_fail(err, "array at DIE 0x%llx has no element type",
			       (unsigned long long)dwarf_dieoffset(array));
	int rc = reader_type_size(&elem, &total, err, depth + 1, memo);

	if (rc)
		return rc;
	if (dwarf_child(array, &sub) != 0) {
		*size = 0;
		return 0;
	}
	do {
		uint64_t count;

		if (dwarf_tag(&sub) != DW_TAG_subrange_type && dwarf_tag(&sub) != DW_TAG_enumeration_type)
			continue;
		if (!ll_subrange_count(&sub, &count))
			count = 0;	/* flexible */
		if (count && total > UINT64_MAX / count)
			return ll_fail(err, "array at DIE 0x%llx: byte size overflows 64 bits",
				       (unsigned long long)dwarf_dieoffset(array));
		total *= count;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	*size = total;
	return 0;
}

int reader_type_size(Dwarf_Die *type, uint64_t *size, struct ll_error *err, int depth,
		     const struct type_memo *memo)
{
	Dwarf_Word sz;
	Dwarf_Die shaped;

	if (depth > MAX_NESTING)
		return ll_fail(err, "type chain deeper than %d at DIE 0x%llx", MAX_NESTING,
			       (unsigned long long)dwarf_dieoffset(type));
	if (!reader_peel(type, &shaped))
		return ll_fail(err, "type at DIE 0x%llx has no size (a cycle or void)",
			       (unsigned long long)dwarf_dieoffset(type));
	switch (dwarf_tag(&shaped)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_unspecified_type:
		if (die_udata(&shaped, DW_AT_byte_size, &sz))
			*size = sz;
		else
			*size = word_sized_size(&shaped);
		return 0;
	case DW_TAG_subroutine_type:
		*size = 0;
		return 0;
	case DW_TAG_array_type:
		return array_size(&shaped, size, err, depth, memo);
	default:
		break;
	}
	Dwarf_Attribute decl;
	Dwarf_Die def;

	if (reader_resolve_decl(memo, &shaped, &def))
		shaped = def;
	/* -2: a shape not laid out (the caller's ctx->unsupported), not damage. */
	if (is_aggregate_tag(dwarf_tag(&shaped)) && dwarf_attr(&shaped, DW_AT_declaration, &decl)) {
		ll_fail(err, "type %s at DIE 0x%llx is only declared in its unit (a C++ class is "
			"defined only where its key function is, and no unit of this file "
			"defines it): cannot size it",
			dwarf_diename(&shaped) ? dwarf_diename(&shaped) : "<anonymous>",
			(unsigned long long)dwarf_dieoffset(&shaped));
		return -2;
	}
	if (dwarf_aggregate_size(&shaped, &sz) != 0)
		return ll_fail(err, "cannot size the type at DIE 0x%llx (tag 0x%x)",
			       (unsigned long long)dwarf_dieoffset(&shaped), dwarf_tag(&shaped));
	*size = sz;
	return 0;
}

/*
 * DECL (an aggregate only declared) resolved to its definition in *DEF,
 * through MEMO's input; false when it is none, or cannot be.
 */
bool reader_resolve_decl(const struct type_memo *memo, Dwarf_Die *decl, Dwarf_Die *def)
{
	Dwarf_Attribute attr;
	struct decl_defs *d;
	struct decl_def key, *hit;
	int tag = dwarf_tag(decl);

	if (!memo || !memo->resolve_in || !is_aggregate_tag(tag) ||
	    !dwarf_attr(decl, DW_AT_declaration, &attr) || !dwarf_diename(decl) ||
	    !(d = decl_defs_of(memo->resolve_in)) || !d->n)
		return false;
	key.name = ll_scoped_die_name(decl);
	key.tag = tag == DW_TAG_union_type ? DW_TAG_union_type : DW_TAG_structure_type;
	hit = key.name ? bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_decl_def) : NULL;
	free(key.name);
	/* bsearch may land on any copy: the group's first says whether it is ambiguous. */
	while (hit && hit > d->v && cmp_decl_def(hit - 1, hit) == 0)
		hit--;
	return hit && !hit->ambiguous && dwarf_offdie(d->dwarf, hit->die, def) != NULL;
}

static uint64_t type_facts_hash(const void *ctx, size_t i)
{
	return ll_hash_u64(((const struct type_memo *)ctx)->v[i].die);
}

struct type_facts *reader_memo_slot(struct type_memo *memo, uint64_t die)
{
	uint64_t hash = ll_hash_u64(die);
	size_t i;

	for (size_t at = ll_slots_first(&memo->at, hash); (i = ll_slots_get(&memo->at, at));
	     at = ll_slots_next(&memo->at, at))
		if (memo->v[i - 1].die == die)
			return &memo->v[i - 1];
	/* Room for 32 at first, as a unit's structs share most of their types. */
	ll_slots_reserve(&memo->at, memo->n < 32 ? 32 : memo->n + 1, type_facts_hash, memo);
	memo->v = xgrow(memo->v, memo->n, sizeof(*memo->v));
	memo->v[memo->n] = (struct type_facts){ .die = die };
	ll_slots_add(&memo->at, hash, memo->n);
	return &memo->v[memo->n++];
}

static void type_memo_release(struct type_memo *memo)
{
	for (size_t i = 0; i < memo->n; i++) {
		free(memo->v[i].spelled);
		free(memo->v[i].base);
	}
	ll_array_free(memo->v, memo->n);
	ll_slots_release(&memo->at);
	memo->path_dependent = false;
}

void reader_build_memo_release(struct build_memo *memo)
{
	reader_file_cache_reset(&memo->files);
	type_memo_release(&memo->types);
	memo->unit = NULL;
}

/* MEMO made ready for a build of AGG in IN: emptied when AGG is of another unit. */
void reader_build_memo_enter(struct build_memo *memo, const struct ll_dwarf_input *in,
			     Dwarf_Die *agg)
{
	if (memo->unit != agg->cu)
		reader_build_memo_release(memo);
	memo->unit = agg->cu;
	memo->types.target = in->target;
}

/* After a build: a path-dependent alignment is not kept for the next. */
void reader_build_memo_leave(struct build_memo *memo, int rc)
{
	if (rc || memo->types.path_dependent)
		type_memo_release(&memo->types);
}

typedef uint64_t alignment_fn(Dwarf_Die *die, int tag, bool *explicit_align, int depth,
			      struct type_memo *memo);

/* DIE's alignment by COMPUTE, once per build (see struct type_memo). */
static uint64_t remembered_alignment(Dwarf_Die *die, int tag, bool *explicit_align, int depth,
				     struct type_memo *memo, alignment_fn *compute)
{
	uint64_t key = (uint64_t)(uintptr_t)die->addr, align;
	struct type_facts *e = reader_memo_slot(memo, key);
	bool ex = false;

	if (e->align_state != ALIGN_UNKNOWN) {
		if (e->align_state == ALIGN_IN_PROGRESS)
			memo->path_dependent = true;
		if (e->explicit_align)
			*explicit_align = true;
		return e->align_state == ALIGN_KNOWN ? e->align : 1;
	}
	e->align_state = ALIGN_IN_PROGRESS;
	align = compute(die, tag, &ex, depth, memo);
	e = reader_memo_slot(memo, key);	/* the table may have grown */
	e->align = align;
	e->align_state = ALIGN_KNOWN;
	e->explicit_align = ex;
	if (ex)
		*explicit_align = true;
	return align;
}

static alignment_fn aggregate_alignment_uncached;

uint64_t reader_aggregate_alignment(Dwarf_Die *agg, bool *explicit_align, int depth,
				    struct type_memo *memo)
{
	Dwarf_Die def;

	if (reader_resolve_decl(memo, agg, &def))
		agg = &def;
	return remembered_alignment(agg, 0, explicit_align, depth, memo,
				    aggregate_alignment_uncached);
}

static uint64_t aggregate_alignment_uncached(Dwarf_Die *agg, int tag, bool *explicit_align,
					     int depth, struct type_memo *memo)
{
	Dwarf_Word a;
	Dwarf_Die child;
	uint64_t best = 1;
	Dwarf_Word size = 0;

	uint64_t declared = 0;

	(void)tag;
	/* aligned(N) only ever raises the natural alignment. */
	if (die_udata(agg, DW_AT_alignment, &a) && a) {
		*explicit_align = true;
		declared = a;
	}
	if (depth > MAX_NESTING)
		memo->path_dependent = true;
	if (depth > MAX_NESTING || dwarf_child(agg, &child) != 0)
		return declared ? declared : 1;
	do {
		Dwarf_Die mt;
		Dwarf_Word off = 0, bits;
		uint64_t ma;
		bool ex = false;
		struct member_attrs attrs;

		read_member_attrs(&child, &attrs);
		if (!is_data_member(&attrs) || !member_type(&attrs, &mt))
			continue;
		ma = reader_type_alignment(&mt, &ex, depth + 1, memo);
		if (member_udata(&attrs, DW_AT_alignment, &a) && a > ma) {
			ma = a;
			ex = true;
		}
		if (ex)
			*explicit_align = true;
		/* A member packed on its own sits misaligned and adds nothing. */
		if (!member_udata(&attrs, DW_AT_bit_size, &bits) &&
		    member_udata(&attrs, DW_AT_data_member_location, &off) && ma && off % ma)
			continue;
		if (ma > best)
			best = ma;
	} while (dwarf_siblingof(&child, &child) == 0);
	/*
	 * __attribute__((packed)) leaves no trace in DWARF but its effects: a
	 * size that is not a multiple of the alignment is one of them.
	 */
	if (die_udata(agg, DW_AT_byte_size, &size))
		while (best > 1 && size % best)
			best /= 2;
	return declared > best ? declared : best;
}

static alignment_fn type_alignment_uncached;

uint64_t reader_type_alignment(Dwarf_Die *type, bool *explicit_align, int depth,
			       struct type_memo *memo)
{
	int tag = dwarf_tag(type);

	if (depth > MAX_NESTING) {
		memo->path_dependent = true;
		return 1;
	}
	if (is_aggregate_tag(tag))
		return reader_aggregate_alignment(type, explicit_align, depth + 1, memo);
	return remembered_alignment(type, tag, explicit_align, depth, memo,
				    type_alignment_uncached);
}

static uint64_t type_alignment_uncached(Dwarf_Die *type, int tag, bool *explicit_align,
					int depth, struct type_memo *memo)
{
	Dwarf_Word a, sz, enc;
	Dwarf_Die next;

	/* On a typedef, aligned(N) may also lower the alignment. */
	if (die_udata(type, DW_AT_alignment, &a) && a) {
		*explicit_align = true;
		return a;
	}
	switch (tag) {
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_array_type:
		return die_type(type, &next) ?
		       reader_type_alignment(&next, explicit_align, depth + 1, memo) : 1;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return reader_aggregate_alignment(type, explicit_align, depth + 1, memo);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return die_udata(type, DW_AT_byte_size, &sz) ? sz : address_size(type);
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_unspecified_type:
		/* As a pointer: a pointer to member function (2 words) is aligned as one. */
		return address_size(type);
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		if (!die_udata(type, DW_AT_byte_size, &sz) || sz == 0)
			return 1;
		if (die_udata(type, DW_AT_encoding, &enc) && enc == DW_ATE_complex_float)
			sz /= 2;
		return ll_base_type_alignment(memo->target, sz);
	default:
		return 1;
	}
}
