// SPDX-License-Identifier: GPL-2.0-or-later
/* The layout model: geometry, holes and summaries over ll_struct. */
#include "model/layout.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

struct ll_extent ll_member_extent(const struct ll_member *m)
{
	struct ll_extent e;

	if (m->is_bitfield) {
		e.begin = m->bit_offset / 8;
		e.end = m->bit_size ? (m->bit_offset + m->bit_size + 7) / 8 : e.begin;
	} else {
		e.begin = m->offset;
		e.end = m->offset + m->size;
	}
	return e;
}

/* Whether M lies within [begin, end), without overflowing on hostile values. */
static bool fits(const struct ll_member *m, uint64_t begin, uint64_t end)
{
	if (m->is_bitfield) {
		uint64_t bits = m->bit_offset;

		return bits / 8 >= begin && bits / 8 <= end &&
		       m->bit_size <= (end - bits / 8) * 8 - bits % 8;
	}
	return m->offset >= begin && m->offset <= end && m->size <= end - m->offset;
}

static const struct ll_member *misfit_in(const struct ll_member *v, size_t n, uint64_t begin,
					 uint64_t end)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &v[i], *bad;

		if (!fits(m, begin, end))
			return m;
		if (m->nr_children &&
		    (bad = misfit_in(m->children, m->nr_children, m->offset, m->offset + m->size)))
			return bad;
	}
	return NULL;
}

static bool alignment_ok(uint64_t a)
{
	return a && !(a & (a - 1)) && a <= LL_MAX_ALIGNMENT;
}

static const struct ll_member *bad_alignment_in(const struct ll_member *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *bad;

		if (!alignment_ok(v[i].alignment))
			return &v[i];
		if ((bad = bad_alignment_in(v[i].children, v[i].nr_children)))
			return bad;
	}
	return NULL;
}

bool ll_struct_alignments_ok(const struct ll_struct *s, const struct ll_member **bad)
{
	*bad = NULL;
	if (!alignment_ok(s->alignment))
		return false;
	*bad = bad_alignment_in(s->members, s->nr_members);
	return *bad == NULL;
}

const struct ll_member *ll_struct_misfit(const struct ll_struct *s)
{
	return misfit_in(s->members, s->nr_members, 0, s->size);
}

static const struct ll_member *overlap_in(const struct ll_member *v, size_t n, bool is_union,
					  const struct ll_member **prev)
{
	const struct ll_member *last = NULL, *bad;
	uint64_t end = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &v[i];
		uint64_t begin = m->is_bitfield ? m->bit_offset : m->offset * 8;
		uint64_t bits = m->is_bitfield ? m->bit_size : m->size * 8;

		if (m->is_aggregate &&
		    (bad = overlap_in(m->children, m->nr_children, m->agg_kind == LL_UNION, prev)))
			return bad;
		if (is_union || !bits)
			continue;
		if (last && begin < end) {
			*prev = last;
			return m;
		}
		if (begin + bits > end) {
			end = begin + bits;
			last = m;
		}
	}
	return NULL;
}

const struct ll_member *ll_struct_overlap(const struct ll_struct *s, const struct ll_member **prev)
{
	*prev = NULL;
	return overlap_in(s->members, s->nr_members, s->kind == LL_UNION, prev);
}

bool ll_member_is_empty(const struct ll_member *m)
{
	return m->is_bitfield ? m->bit_size == 0 : m->size == 0;
}

bool ll_member_lines(const struct ll_member *m, unsigned cacheline,
		     uint64_t *first, uint64_t *last)
{
	struct ll_extent e = ll_member_extent(m);

	if (e.end <= e.begin)
		return false;
	*first = e.begin / cacheline;
	*last = (e.end - 1) / cacheline;
	return true;
}

uint64_t ll_struct_lines(const struct ll_struct *s)
{
	return (s->size + s->cacheline - 1) / s->cacheline;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_members(const struct ll_member *a, const struct ll_member *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *x = &a[i], *y = &b[i];

		if (!same_str(x->path, y->path) || x->offset != y->offset || x->size != y->size ||
		    x->is_bitfield != y->is_bitfield || x->bit_offset != y->bit_offset ||
		    x->bit_size != y->bit_size || x->nr_children != y->nr_children ||
		    !same_members(x->children, y->children, x->nr_children))
			return false;
	}
	return true;
}

bool ll_struct_same_layout(const struct ll_struct *a, const struct ll_struct *b)
{
	return a->kind == b->kind && same_str(a->name, b->name) && a->size == b->size &&
	       a->cacheline == b->cacheline && a->nr_members == b->nr_members &&
	       same_members(a->members, b->members, a->nr_members);
}

static int push_hole(struct ll_holes *out, struct ll_hole h)
{
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	out->v[out->n++] = h;
	return 0;
}

/* End of a member in bits, so that bitfield gaps can be measured. */
static uint64_t end_bit(const struct ll_member *m)
{
	if (m->is_bitfield)
		return m->bit_offset + m->bit_size;
	return (m->offset + m->size) * 8;
}

static uint64_t begin_bit(const struct ll_member *m)
{
	return m->is_bitfield ? m->bit_offset : m->offset * 8;
}

/* The bytes after the last member (END_BIT) up to the level's end. */
static int push_padding(struct ll_holes *out, const struct ll_member *last, uint64_t end_bit,
			uint64_t level_end)
{
	uint64_t end_byte = (end_bit + 7) / 8;

	if (end_byte >= level_end)
		return 0;
	return push_hole(out, (struct ll_hole){ .offset = end_byte, .size = level_end - end_byte,
						.after = last, .is_padding = true });
}

/*
 * pahole's model of one struct level (what the README promises the listing
 * and the summary follow). A run of bitfields owns a storage unit: that of
 * the first bitfield, widened when a later one has a wider type or ends
 * past it. Before each member, the unused bits of the run's unit up to it
 * are a bit hole. Before a bitfield, the bytes up to its own unit (its
 * type's size, aligned) are a byte hole and the bits from there to it a
 * bit hole; before any other member, the whole bytes between the byte the
 * previous one ended in and its first byte are a byte hole.
 */
struct bit_run {
	bool open;
	uint64_t unit_bits;	/* widest unit of the run so far */
	uint64_t end;		/* bit where the run's unit ends */
};

static uint64_t unit_start(const struct ll_member *m, uint64_t level_bit)
{
	uint64_t unit = m->size * 8;

	if (!unit)
		return m->bit_offset;	/* a bitfield of no size: hostile */
	return level_bit + (m->bit_offset - level_bit) / unit * unit;
}

static void extend_run(struct bit_run *run, const struct ll_member *m, uint64_t level_bit)
{
	uint64_t e = end_bit(m);

	if (!m->is_bitfield) {
		*run = (struct bit_run){ .open = false, .end = e };
		return;
	}
	run->open = true;
	if (e > run->end || m->size * 8 > run->unit_bits) {
		run->unit_bits = m->size * 8;
		run->end = unit_start(m, level_bit) + run->unit_bits;
		if (e > run->end)	/* it took the rest of the unit before */
			run->end += run->unit_bits;
	}
}

static int struct_holes(const struct ll_member *members, size_t n, uint64_t begin,
			uint64_t size, struct ll_holes *out)
{
	uint64_t level_bit = begin * 8, cursor = level_bit, last_end = level_bit;
	struct bit_run run = { .end = (begin + size) * 8 };
	const struct ll_member *prev = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		uint64_t b = begin_bit(m);
		struct ll_hole bits = { .after = prev, .offset = cursor / 8 };
		struct ll_hole bytes = { .after = prev };

		if (run.open) {
			uint64_t stop = b < run.end ? b : run.end;

			if (stop > cursor) {
				bits.bits = stop - cursor;
				cursor = stop;
			}
		}
		if (m->is_bitfield) {
			uint64_t unit = unit_start(m, level_bit);

			if (cursor < unit && unit <= b) {
				bytes.offset = cursor / 8;
				bytes.size = unit / 8 - cursor / 8;
				cursor = unit;
			}
			if (b > cursor) {
				if (!bits.bits)
					bits.offset = cursor / 8;
				bits.bits += b - cursor;
			}
		} else if (b / 8 > cursor / 8) {
			bytes.offset = cursor / 8;
			bytes.size = b / 8 - cursor / 8;
		}
		if (bits.bits && push_hole(out, bits))
			return -1;
		if (bytes.size && push_hole(out, bytes))
			return -1;
		/*
		 * Never back: a C++ empty member ([[no_unique_address]]) may sit at
		 * an earlier member's offset, and takes no bytes of its own.
		 */
		if (end_bit(m) > cursor)
			cursor = end_bit(m);
		if (cursor > last_end)
			last_end = cursor;
		extend_run(&run, m, level_bit);
		prev = m;
	}
	return push_padding(out, prev, last_end, begin + size);
}

int ll_find_holes(const struct ll_member *members, size_t n, enum ll_kind kind,
		  uint64_t begin, uint64_t size, struct ll_holes *out)
{
	uint64_t cursor = begin * 8;	/* in bits */
	const struct ll_member *prev = NULL;

	if (kind != LL_UNION)
		return struct_holes(members, n, begin, size, out);
	/* Union levels: no holes between alternatives, only tail padding. */
	for (size_t i = 0; i < n; i++) {
		uint64_t e = end_bit(&members[i]);

		if (e > cursor)
			cursor = e;
		prev = &members[i];
	}
	return push_padding(out, prev, cursor, begin + size);
}

void ll_holes_free(struct ll_holes *h)
{
	ll_array_free(h->v, h->n);
}

const struct ll_hole *ll_holes_after(const struct ll_holes *h, const struct ll_member *m,
				     size_t *cursor, size_t *nr)
{
	size_t first;

	/* Past those that open the level (after no member) or follow an earlier member. */
	while (*cursor < h->n && h->v[*cursor].after != m &&
	       (!h->v[*cursor].after || h->v[*cursor].after < m))
		(*cursor)++;
	first = *cursor;
	while (*cursor < h->n && h->v[*cursor].after == m)
		(*cursor)++;
	*nr = *cursor - first;
	return h->v ? h->v + first : NULL;	/* a level without holes has no array */
}

static void summarize_level(const struct ll_member *members, size_t n,
			    enum ll_kind kind, uint64_t begin, uint64_t size,
			    bool outermost, struct ll_summary *sum)
{
	struct ll_holes holes = { 0 };

	/*
	 * As pahole's summary: the holes between the struct's own members.
	 * The listing still shows those inside anonymous aggregates, and their
	 * tail padding, where they are; pahole prints them there too and leaves
	 * them out of "sum holes" (sk_buff: 1 hole of 4 bytes, not 3 of 7).
	 */
	if (outermost && ll_find_holes(members, n, kind, begin, size, &holes) == 0) {
		for (size_t i = 0; i < holes.n; i++) {
			const struct ll_hole *h = &holes.v[i];

			if (h->is_padding) {
				sum->padding += h->size;
			} else if (h->bits) {
				sum->bit_holes += h->bits;
			} else {
				sum->holes++;
				sum->hole_bytes += h->size;
			}
		}
	}
	ll_holes_free(&holes);

	/*
	 * Like pahole, count what the listing shows: this level and the
	 * anonymous aggregates expanded into it, not named nested structs.
	 */
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];

		if (m->name)
			sum->members++;
		if (m->is_aggregate && !m->name)
			summarize_level(m->children, m->nr_children, m->agg_kind,
					m->offset, m->size, false, sum);
	}
}

void ll_summarize(const struct ll_struct *s, struct ll_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->top_members = s->nr_members;
	summarize_level(s->members, s->nr_members, s->kind, 0, s->size, true, out);
}

static int visit(struct ll_member *members, size_t n, int depth,
		 ll_visit_fn fn, void *arg)
{
	for (size_t i = 0; i < n; i++) {
		int rc = fn(&members[i], depth, arg);

		if (!rc && members[i].nr_children)
			rc = visit(members[i].children, members[i].nr_children,
				   depth + 1, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}

int ll_visit(struct ll_member *members, size_t n, ll_visit_fn fn, void *arg)
{
	return visit(members, n, 0, fn, arg);
}

void ll_members_pick(const struct ll_member *members, size_t n,
		     enum ll_pick (*pick)(const struct ll_member *m), struct ll_member_list *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];

		switch (pick(m)) {
		case LL_PICK_TAKE:
			out->v = xgrow(out->v, out->n, sizeof(*out->v));
			out->v[out->n++] = m;
			break;
		case LL_PICK_DESCEND:
			ll_members_pick(m->children, m->nr_children, pick, out);
			break;
		case LL_PICK_SKIP:
			break;
		}
	}
}

bool ll_member_any(const struct ll_member *m, bool (*pred)(const struct ll_member *m))
{
	if (pred(m))
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (ll_member_any(&m->children[i], pred))
			return true;
	return false;
}

const char *ll_member_first(const struct ll_member *m,
			    const char *(*fn)(const struct ll_member *m))
{
	const char *s = fn(m);

	for (size_t i = 0; !s && i < m->nr_children; i++)
		s = ll_member_first(&m->children[i], fn);
	return s;
}

void ll_member_release(struct ll_member *m)
{
	for (size_t i = 0; i < m->nr_children; i++)
		ll_member_release(&m->children[i]);
	ll_free_all(m->children, m->name, m->path, m->type, m->domain, m->decl.file, m->section);
}

void ll_struct_drop_members(struct ll_struct *s)
{
	for (size_t i = 0; i < s->nr_members; i++)
		ll_member_release(&s->members[i]);
	ll_array_free(s->members, s->nr_members);
}

void ll_struct_free(struct ll_struct *s)
{
	if (!s)
		return;
	ll_struct_drop_members(s);
	free(s->name);
	free(s->decl.file);
	free(s);
}

const char *ll_tag_name(enum ll_tag tag)
{
	switch (tag) {
	case LL_COLD: return "cold";
	case LL_READ_MOSTLY: return "read-mostly";
	case LL_WRITE_HOT: return "write-hot";
	case LL_UNTAGGED: break;
	}
	return "untagged";
}

const char *ll_kind_name(enum ll_kind kind)
{
	return kind == LL_UNION ? "union" : kind == LL_GLOBALS ? "global" : "struct";
}

char *ll_normalize_path(const char *path)
{
	size_t len = strlen(path);
	char *out = malloc(len + 2);	/* "" becomes "." */
	size_t *starts = malloc((len / 2 + 2) * sizeof(*starts));
	size_t depth = 0, o = 0;
	bool absolute = path[0] == '/';

	if (!out || !starts) {
		free(out);
		free(starts);
		return NULL;
	}
	if (absolute)
		out[o++] = '/';
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		const char *q = p;

		while (*q && *q != '/')
			q++;
		size_t n = (size_t)(q - p);

		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* "." adds nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.' && depth > 0 &&
			   !(o - starts[depth - 1] == 2 &&
			     out[starts[depth - 1]] == '.' && out[starts[depth - 1] + 1] == '.')) {
			o = starts[--depth];
		} else if (n == 2 && p[0] == '.' && p[1] == '.' && absolute && depth == 0) {
			/* "/.." is "/" */
		} else {
			if (o > 0 && out[o - 1] != '/')
				out[o++] = '/';
			starts[depth++] = o;
			memcpy(out + o, p, n);
			o += n;
		}
		p = q;
	}
	/* Trim the separator a popped component may leave behind. */
	while (o > 1 && out[o - 1] == '/')
		o--;
	if (o == 0)
		out[o++] = '.';
	out[o] = '\0';
	free(starts);
	return out;
}

char *ll_c_decl_with_name(const char *type, const char *name)
{
	size_t tlen = strlen(type), nlen = strlen(name);
	char *out = malloc(tlen + nlen + 2);
	const char *at;
	size_t pos = 0;
	bool found = false;

	if (!out)
		return NULL;
	/*
	 * The name goes in the innermost pointer group: the "(*" whose '*'s
	 * and qualifiers are followed directly by ')'.
	 */
	for (const char *p = type; (p = strstr(p, "(*")) != NULL; p++) {
		size_t q = (size_t)(p - type) + 2;

		while (type[q] == '*' || type[q] == ' ' || strncmp(type + q, "const", 5) == 0 ||
		       strncmp(type + q, "volatile", 8) == 0 || strncmp(type + q, "restrict", 8) == 0)
			q += type[q] == '*' || type[q] == ' ' ? 1 : type[q] == 'c' ? 5 : 8;
		if (type[q] == ')') {
			pos = q;
			found = true;
			break;
		}
	}
	if (found) {
		/* pos is set */
	} else if ((at = strchr(type, '['))) {
		pos = (size_t)(at - type);
	} else {
		pos = tlen;
	}
	bool space = pos > 0 && type[pos - 1] != '*' && type[pos - 1] != '(' &&
		     type[pos - 1] != ' ' && nlen;

	memcpy(out, type, pos);
	size_t o = pos;

	if (space)
		out[o++] = ' ';
	memcpy(out + o, name, nlen);
	o += nlen;
	memcpy(out + o, type + pos, tlen - pos);
	o += tlen - pos;
	out[o] = '\0';
	return out;
}

void ll_c_qualify(struct strbuf *prefix, const char *q)
{
	size_t n = strlen(q);

	for (const char *p = prefix->buf; p && *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, q, n) == 0)
			return;
		p = e ? e + 1 : p + len;
	}
	sb_adds(prefix, q);
	sb_addc(prefix, ' ');
}

const char *ll_c_base_name(const char *debug_name)
{
	static const char *const table[][2] = {
		{ "long unsigned int", "unsigned long" },
		{ "long int", "long" },
		{ "long long unsigned int", "unsigned long long" },
		{ "long long int", "long long" },
		{ "short unsigned int", "unsigned short" },
		{ "short int", "short" },
		{ "__int128 unsigned", "unsigned __int128" },
		{ "complex float", "_Complex float" },
		{ "complex double", "_Complex double" },
		{ "complex long double", "_Complex long double" },
	};

	if (!debug_name)
		return NULL;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(debug_name, table[i][0]) == 0)
			return table[i][1];
	return debug_name;
}

const char *ll_member_label(const struct ll_member *m)
{
	if (m->path)
		return m->path;
	if (m->name)
		return m->name;
	if (m->is_aggregate)
		return m->agg_kind == LL_UNION ? "<anonymous union>" : "<anonymous struct>";
	return "<unnamed>";
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void clone_member(struct ll_member *to, const struct ll_member *from)
{
	*to = *from;
	to->name = dup_or_null(from->name);
	to->path = dup_or_null(from->path);
	to->type = dup_or_null(from->type);
	to->domain = dup_or_null(from->domain);
	to->decl.file = dup_or_null(from->decl.file);
	to->section = dup_or_null(from->section);
	to->children = from->nr_children ? xcalloc(from->nr_children, sizeof(*to->children)) : NULL;
	for (size_t i = 0; i < from->nr_children; i++)
		clone_member(&to->children[i], &from->children[i]);
}

struct ll_struct *ll_struct_clone(const struct ll_struct *s)
{
	struct ll_struct *c = xcalloc(1, sizeof(*c));

	*c = *s;
	c->name = dup_or_null(s->name);
	c->decl.file = dup_or_null(s->decl.file);
	c->members = s->nr_members ? xcalloc(s->nr_members, sizeof(*c->members)) : NULL;
	for (size_t i = 0; i < s->nr_members; i++)
		clone_member(&c->members[i], &s->members[i]);
	return c;
}
