// SPDX-License-Identifier: GPL-2.0-or-later
/* Member signatures: what two definitions of one name must share to be the same type. */
#include "input/dwarf/raw/scanP.h"

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
	struct name_memo *slot = &w->name_memo[(size_t)ll_hash_u64(off) & w->name_memo_mask];

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

/*
 * scan_hash_members()'s reading of a quick_child DIE at C (its code read): the
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

/*
 * A member's name for scan_hash_members() by offsets: a DW_FORM_strp as its
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
 * One member's step of the members_memo key (scan_hash_members() with
 * RAW). The key is compared, never stored or matched against libdw's
 * hash, so any strong 64-bit mix will do: the member's own fields are
 * mixed beside the chain (independent multiplies) and the chain takes
 * one multiply a member, where ll_sig_member_hashed() takes three in a
 * row. ~800,000 definitions, 6.7 million members, go through it in a
 * listing of the 6.12 image, ~99% of them answered by the memo.
 */
static inline uint64_t memo_key_step(uint64_t h, uint64_t name, uint64_t loc, uint64_t bits)
{
	uint64_t m = name * 0x9e3779b97f4a7c15u ^ loc * 0xc2b2ae3d27d4eb4fu ^
		     bits * 0x165667b19e3779f9u;

	h = (h ^ m) * 0xbf58476d1ce4e5b9u;
	return h ^ (h >> 31);
}

/*
 * The members hash of ll_finder_signature(), from the raw children; with
 * RAW, the members_memo key instead (memo_key_step(), each name by
 * member_name_key()), or MEMBERS_NOT_RAW where a member's name is in a
 * form that cannot say.
 */
enum members_read scan_hash_members(struct worker *w, const struct ll_scan_unit *u,
				    struct ll_cursor *c, struct ll_scan_hit *h, bool raw)
{
	const struct abbrev_table *t = &w->abbrevs;

	h->members_hash = LL_SIG_INIT;
	h->nr_members = 0;
	for (;;) {
		uint64_t code;
		const struct abbrev *a = next_abbrev(t, c, &code);

		if (!a)
			return code == 0 && !c->bad ? MEMBERS_READ : MEMBERS_BAD;
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
			h->members_hash = raw ? memo_key_step(h->members_hash, name, loc, bits) :
						ll_sig_member_hashed(h->members_hash, name, loc, bits);
			h->nr_members++;
		}
		if (!a->children)
			continue;
		/* A type defined inside the struct (clang puts anonymous unions here). */
		if (sibling ? !jump_to_sibling(w, u, c, sibling) : !scan_skip_children(w, u, c))
			return MEMBERS_BAD;
	}
}

static uint64_t members_memo_hash_of(const void *ctx, size_t i)
{
	const struct members_memo_entry *e = &((const struct members_memo *)ctx)->v[i];

	return members_memo_hash(e->raw, e->nr);
}

/* After a members_memo_find() that missed: RAW and NR are not in M yet. */
void scan_members_memo_add(struct members_memo *m, uint64_t raw, uint32_t nr,
			   uint64_t members_hash)
{
	/* Start with room for 32, as before: most threads meet a few hundred definitions. */
	ll_slots_reserve(&m->at, m->n < 32 ? 32 : m->n + 1, members_memo_hash_of, m);
	m->v = xgrow(m->v, m->n, sizeof(*m->v));
	m->v[m->n] = (struct members_memo_entry){ raw, members_hash, nr };
	m->last = m->n;
	ll_slots_add(&m->at, members_memo_hash(raw, nr), m->n++);
}
