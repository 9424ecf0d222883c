// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access analyzer's DWARF side (access_private.h): types and the
 * structs asked about, attributing an access at an offset to a member,
 * register numbers, and where variables live.
 */
#include "input/access/access_private.h"

#ifdef HAVE_CAPSTONE
#include "util/hash.h"
#include "util/sort.h"

/* ---- types ---- */

bool ac_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* Through typedefs and qualifiers; false for void. */
static bool strip(Dwarf_Die *t, Dwarf_Die *out)
{
	Dwarf_Die cur = *t;

	for (int depth = 0; depth < 64; depth++) {
		switch (dwarf_tag(&cur)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!ac_type_of(&cur, &cur))
				return false;
			continue;
		default:
			*out = cur;
			return true;
		}
	}
	return false;
}

int ac_cmp_def(const void *a, const void *b)
{
	return strcmp(((const struct definition *)a)->name, ((const struct definition *)b)->name);
}

/* T (stripped) as a defined struct or union: a declaration resolved in the unit. */
bool ac_aggregate_of(struct analyzer *a, Dwarf_Die *t, Dwarf_Die *out)
{
	Dwarf_Die s;
	int tag;

	if (!strip(t, &s))
		return false;
	tag = dwarf_tag(&s);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
		return false;
	if (dwarf_hasattr(&s, DW_AT_declaration)) {
		struct definition key = { .name = dwarf_diename(&s) }, *d;

		if (!key.name || !(d = ll_bsearch(&key, a->defs, a->nr_defs, sizeof(key), ac_cmp_def)))
			return false;
		s = d->die;
	}
	*out = s;
	return true;
}

/* A pointer type's pointee, when that is an aggregate. */
static bool pointee(struct analyzer *a, Dwarf_Die *t, Dwarf_Die *out)
{
	Dwarf_Die p, q;

	if (!strip(t, &p) || dwarf_tag(&p) != DW_TAG_pointer_type || !ac_type_of(&p, &q))
		return false;
	return ac_aggregate_of(a, &q, out);
}

uint64_t ac_byte_size(Dwarf_Die *d)
{
	Dwarf_Word w;

	return dwarf_aggregate_size(d, &w) == 0 ? w : 0;
}

static bool member_offset(Dwarf_Die *m, uint64_t *off)
{
	Dwarf_Attribute at;
	Dwarf_Word w;

	*off = 0;
	if (!dwarf_attr(m, DW_AT_data_member_location, &at))
		return true;	/* a union's members, at 0 */
	if (dwarf_formudata(&at, &w) == 0) {
		*off = w;
		return true;
	}
	return false;
}

static uint64_t target_hash(const char *name, uint64_t size, bool is_union)
{
	uint64_t h = ll_fnv1a_str(LL_FNV_INIT, name);

	h = ll_fnv1a(h, &size, sizeof(size));
	return h ^ is_union;
}

/* ll_slots_hash_fn over the analyzer's targets. */
static uint64_t target_hash_of(const void *ctx, size_t index)
{
	const struct ll_access_target *t = &((const struct analyzer *)ctx)->targets[index];

	return target_hash(t->name, t->size, t->is_union);
}

/* A new target (its evidence too), the table grown to stay at most half full. */
size_t ac_add_target(struct analyzer *a, const char *name, uint64_t size, bool is_union)
{
	struct ll_access_evidence *e = xcalloc(1, sizeof(*e));
	size_t index = a->nr_targets;

	e->name = xstrdup(name);
	e->size = size;
	e->is_union = is_union;
	a->out = xgrow(a->out, a->nr_targets, sizeof(*a->out));
	a->targets = xgrow(a->targets, a->nr_targets, sizeof(*a->targets));
	a->is_touched = xgrow(a->is_touched, a->nr_targets, sizeof(*a->is_touched));
	a->out[index] = e;
	a->targets[index] = (struct ll_access_target){ e->name, is_union, size };
	a->is_touched[index] = false;
	ll_slots_reserve(&a->target_slots, index + 1, target_hash_of, a);
	ll_slots_add(&a->target_slots, target_hash(name, size, is_union), index);
	a->nr_targets++;
	return index;
}

/* Index of the target AGG is, or -1; with every_struct, a named definition becomes one. */
long ac_target_of(struct analyzer *a, Dwarf_Die *agg)
{
	const char *name = dwarf_diename(agg);
	bool is_union = dwarf_tag(agg) == DW_TAG_union_type;
	uint64_t size;

	if (!name)
		return -1;
	size = ac_byte_size(agg);
	for (size_t at = ll_slots_first(&a->target_slots, target_hash(name, size, is_union));
	     ll_slots_get(&a->target_slots, at); at = ll_slots_next(&a->target_slots, at)) {
		size_t i = ll_slots_get(&a->target_slots, at) - 1;
		const struct ll_access_target *t = &a->targets[i];

		if (t->size == size && t->is_union == is_union && strcmp(t->name, name) == 0)
			return (long)i;
	}
	if (!a->every_struct || !size || dwarf_hasattr(agg, DW_AT_declaration))
		return -1;
	return (long)ac_add_target(a, name, size, is_union);
}

/* Calls F(member's aggregate type, its offset) for each aggregate-typed member of AGG. */
#define FOR_EACH_AGGREGATE_MEMBER(a, agg, mt, moff, body)                                     \
	do {                                                                                  \
		Dwarf_Die m_;                                                                 \
		if (dwarf_child(agg, &m_) != 0)                                               \
			break;                                                                \
		do {                                                                          \
			Dwarf_Die t_;                                                         \
			int tag_ = dwarf_tag(&m_);                                            \
			if ((tag_ != DW_TAG_member && tag_ != DW_TAG_inheritance) ||          \
			    !member_offset(&m_, &moff) || !ac_type_of(&m_, &t_) ||               \
			    !ac_aggregate_of(a, &t_, &mt))                                       \
				continue;                                                     \
			body;                                                                 \
		} while (dwarf_siblingof(&m_, &m_) == 0);                                     \
	} while (0)

/* Does AGG (or an aggregate it holds by value, at any depth) answer a target? */
bool ac_contains_target(struct analyzer *a, Dwarf_Die *agg, int depth)
{
	Dwarf_Off off = dwarf_dieoffset(agg);
	bool found = false;
	Dwarf_Die mt;
	uint64_t moff;
	size_t i = (size_t)ll_fnv1a(LL_FNV_INIT, &off, sizeof(off)) & (MEMO_SIZE - 1);

	/* A cache, not a table: a collision just computes again. */
	if (a->memo[i].generation == a->generation && a->memo[i].off == off)
		return a->memo[i].contains;
	if (ac_target_of(a, agg) >= 0)
		found = true;
	else if (depth < 16)
		FOR_EACH_AGGREGATE_MEMBER(a, agg, mt, moff, {
			if (ac_contains_target(a, &mt, depth + 1)) {
				found = true;
				break;
			}
		});
	a->memo[i] = (struct contains_memo){ off, a->generation, found };
	return found;
}

/* ---- attribution ---- */

const char *ac_die_name(Dwarf_Die *d)
{
	Dwarf_Attribute at;

	if (dwarf_attr_integrate(d, DW_AT_name, &at))
		return dwarf_formstring(&at);
	return NULL;
}

/* The path of the line table's file, relative to the unit's directory when under it. */
static const char *relative(const struct analyzer *a, const char *path)
{
	size_t n = a->comp_dir ? strlen(a->comp_dir) : 0;

	if (path && n && strncmp(path, a->comp_dir, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

void ac_record_access(struct analyzer *a, size_t target, uint64_t off, uint32_t width,
		      enum ll_access_kind kind, uint64_t pc)
{
	struct ll_access_evidence *e = a->out[target];
	const struct inline_range *in = NULL;
	Dwarf_Line *line = dwarf_getsrc_die(&a->cu, pc);
	int lineno = 0;
	struct ll_access_record *r;

	for (size_t i = 0; i < a->nr_inlines; i++) {
		const struct inline_range *c = &a->inlines[i];

		if (pc >= c->lo && pc < c->hi && (!in || c->depth > in->depth))
			in = c;
	}
	if (line)
		dwarf_lineno(line, &lineno);
	e->v = xgrow(e->v, e->n, sizeof(*e->v));
	r = &e->v[e->n++];
	*r = (struct ll_access_record){
		.offset = off,
		.width = width,
		.kind = kind,
		.function = ll_access_intern(e, in && in->name ? in->name : a->func_name),
		.inlined_into = in ? ll_access_intern(e, a->func_name) : NULL,
		.file = line ? ll_access_intern(e, relative(a, dwarf_linesrc(line, NULL, NULL))) : NULL,
		.line = lineno > 0 ? (unsigned)lineno : 0,
		.init_text = a->func_init,
	};
	if (!a->is_touched[target]) {
		a->is_touched[target] = true;
		a->touched = xgrow(a->touched, a->nr_touched, sizeof(*a->touched));
		a->touched[a->nr_touched++] = target;
	}
}

/*
 * An access of WIDTH bytes at offset OFF of AGG: recorded for AGG if it is
 * a target, and for the target members it holds by value that contain it.
 */
void ac_resolve_access(struct analyzer *a, Dwarf_Die *agg, int64_t off, uint32_t width,
		       enum ll_access_kind kind, uint64_t pc, int depth)
{
	long t;
	Dwarf_Die mt;
	uint64_t moff;

	if (off < 0 || !ac_contains_target(a, agg, 0))
		return;
	t = ac_target_of(a, agg);
	if (t >= 0 && (uint64_t)off < a->targets[t].size)
		ac_record_access(a, (size_t)t, (uint64_t)off, width, kind, pc);
	if (depth >= 16)
		return;
	FOR_EACH_AGGREGATE_MEMBER(a, agg, mt, moff, {
		uint64_t size = ac_byte_size(&mt);

		if ((uint64_t)off >= moff && (uint64_t)off < moff + size)
			ac_resolve_access(a, &mt, off - (int64_t)moff, width, kind, pc, depth + 1);
	});
}

/*
 * The member starting at OFF of AGG, at any depth, whose type WANT accepts
 * (ARG is WANT's): true when there is one. The member walk that a load of
 * a pointer member and a lock's address share.
 */
bool ac_member_at(struct analyzer *a, Dwarf_Die *agg, int64_t off,
		  bool (*want)(struct analyzer *a, Dwarf_Die *type, void *arg), void *arg,
		  int depth)
{
	Dwarf_Die m;

	if (off < 0 || depth > 16 || dwarf_child(agg, &m) != 0)
		return false;
	do {
		Dwarf_Die t, inner;
		uint64_t moff;

		if (dwarf_tag(&m) != DW_TAG_member || !member_offset(&m, &moff) || !ac_type_of(&m, &t))
			continue;
		if ((uint64_t)off == moff && want(a, &t, arg))
			return true;
		if (ac_aggregate_of(a, &t, &inner) && (uint64_t)off >= moff &&
		    (uint64_t)off < moff + ac_byte_size(&inner) &&
		    ac_member_at(a, &inner, off - (int64_t)moff, want, arg, depth + 1))
			return true;
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

static bool pointer_to_aggregate(struct analyzer *a, Dwarf_Die *type, void *arg)
{
	struct reg_type *out = arg;

	if (!pointee(a, type, &out->agg))
		return false;
	out->valid = true;
	out->bias = 0;
	return true;
}

/* The member of AGG exactly at OFF, WIDTH bytes wide, as a pointer to an aggregate. */
bool ac_member_pointee(struct analyzer *a, Dwarf_Die *agg, int64_t off, uint32_t width,
		       struct reg_type *out)
{
	return width == 8 && ac_member_at(a, agg, off, pointer_to_aggregate, out, 0);
}

/* ---- registers ---- */

/* Capstone's register to DWARF's number of its 64-bit register, or -1. */
int ac_gpr_index(unsigned reg)
{
	switch (reg) {
	case X86_REG_RAX: case X86_REG_EAX: case X86_REG_AX: case X86_REG_AL: case X86_REG_AH:
		return 0;
	case X86_REG_RDX: case X86_REG_EDX: case X86_REG_DX: case X86_REG_DL: case X86_REG_DH:
		return 1;
	case X86_REG_RCX: case X86_REG_ECX: case X86_REG_CX: case X86_REG_CL: case X86_REG_CH:
		return 2;
	case X86_REG_RBX: case X86_REG_EBX: case X86_REG_BX: case X86_REG_BL: case X86_REG_BH:
		return 3;
	case X86_REG_RSI: case X86_REG_ESI: case X86_REG_SI: case X86_REG_SIL:
		return 4;
	case X86_REG_RDI: case X86_REG_EDI: case X86_REG_DI: case X86_REG_DIL:
		return 5;
	case X86_REG_RBP: case X86_REG_EBP: case X86_REG_BP: case X86_REG_BPL:
		return 6;
	case X86_REG_RSP: case X86_REG_ESP: case X86_REG_SP: case X86_REG_SPL:
		return 7;
	case X86_REG_R8: case X86_REG_R8D: case X86_REG_R8W: case X86_REG_R8B:
		return 8;
	case X86_REG_R9: case X86_REG_R9D: case X86_REG_R9W: case X86_REG_R9B:
		return 9;
	case X86_REG_R10: case X86_REG_R10D: case X86_REG_R10W: case X86_REG_R10B:
		return 10;
	case X86_REG_R11: case X86_REG_R11D: case X86_REG_R11W: case X86_REG_R11B:
		return 11;
	case X86_REG_R12: case X86_REG_R12D: case X86_REG_R12W: case X86_REG_R12B:
		return 12;
	case X86_REG_R13: case X86_REG_R13D: case X86_REG_R13W: case X86_REG_R13B:
		return 13;
	case X86_REG_R14: case X86_REG_R14D: case X86_REG_R14W: case X86_REG_R14B:
		return 14;
	case X86_REG_R15: case X86_REG_R15D: case X86_REG_R15W: case X86_REG_R15B:
		return 15;
	default:
		return -1;
	}
}

bool ac_is_reg64(unsigned reg)
{
	switch (reg) {
	case X86_REG_RAX: case X86_REG_RBX: case X86_REG_RCX: case X86_REG_RDX:
	case X86_REG_RSI: case X86_REG_RDI: case X86_REG_RBP: case X86_REG_RSP:
	case X86_REG_R8: case X86_REG_R9: case X86_REG_R10: case X86_REG_R11:
	case X86_REG_R12: case X86_REG_R13: case X86_REG_R14: case X86_REG_R15:
		return true;
	default:
		return false;
	}
}

/* ---- DWARF locations ---- */

/* A location expression naming a pointer held in a register, or a frame slot. */
static bool decode_location(const Dwarf_Op *e, size_t n, struct var_loc *v)
{
	if (n == 1 && e[0].atom >= DW_OP_reg0 && e[0].atom <= DW_OP_reg15) {
		v->reg = e[0].atom - DW_OP_reg0;
		return true;
	}
	if (n == 1 && e[0].atom == DW_OP_regx && e[0].number < NR_GPR) {
		v->reg = (int)e[0].number;
		return true;
	}
	if (n == 1 && e[0].atom == DW_OP_fbreg) {
		v->reg = -1;
		v->slot = (int64_t)e[0].number;
		return true;
	}
	/* reg + k as the value: the pointer is k bytes past the register (container_of). */
	if (n == 2 && e[0].atom >= DW_OP_breg0 && e[0].atom <= DW_OP_breg15 &&
	    e[1].atom == DW_OP_stack_value) {
		v->reg = e[0].atom - DW_OP_breg0;
		v->type.bias = -(int64_t)e[0].number;
		return true;
	}
	return false;
}

static void add_variable(struct analyzer *a, Dwarf_Die *var)
{
	Dwarf_Attribute loc;
	Dwarf_Die t, agg;
	Dwarf_Addr base, start, end;
	Dwarf_Op *expr;
	size_t len;
	ptrdiff_t off = 0;

	if (!ac_type_of(var, &t) || !pointee(a, &t, &agg) || !dwarf_attr(var, DW_AT_location, &loc))
		return;
	while ((off = dwarf_getlocations(&loc, off, &base, &start, &end, &expr, &len)) > 0) {
		struct var_loc v = { .lo = start, .hi = end, .type = { .valid = true, .agg = agg } };

		if (!decode_location(expr, len, &v))
			continue;
		a->vars = xgrow(a->vars, a->nr_vars, sizeof(*a->vars));
		a->vars[a->nr_vars++] = v;
	}
}

static void add_inline(struct analyzer *a, Dwarf_Die *d, unsigned depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	const char *name = ac_die_name(d);

	while ((off = dwarf_ranges(d, off, &base, &lo, &hi)) > 0) {
		a->inlines = xgrow(a->inlines, a->nr_inlines, sizeof(*a->inlines));
		a->inlines[a->nr_inlines++] = (struct inline_range){ lo, hi, depth, name };
	}
}

/* Variables and inlined ranges below D (not nested functions). */
void ac_collect_scope(struct analyzer *a, Dwarf_Die *d, unsigned depth)
{
	Dwarf_Die c;

	if (depth > 64 || dwarf_child(d, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_formal_parameter:
		case DW_TAG_variable:
			add_variable(a, &c);
			break;
		case DW_TAG_inlined_subroutine:
			add_inline(a, &c, depth + 1);
			ac_collect_scope(a, &c, depth + 1);
			break;
		case DW_TAG_lexical_block:
			ac_collect_scope(a, &c, depth);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}
#endif
