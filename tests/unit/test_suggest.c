// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reorder solver (src/suggest.c): fixed cases, property tests over
 * random structs with a fixed seed, and, for structs of up to 8 units, an
 * exhaustive search of its own as the oracle.
 *
 * Everything here checks the solver from the outside: offsets are replayed
 * with C's layout rules, findings come from the real checks (ll_check) on a
 * model this file builds itself, and the oracle is a separate search.
 */
/* Check's header: with -I src, <check.h> would be ours. */
#include <check.h>	/* the Check framework; ours is src/checks/checks.h */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/checks/checks.h"
#include "../../src/model/layout.h"
#include "../../src/util/strbuf.h"
#include "../../src/solver/suggest.h"
#include "../../src/report/describe.h"
#include "../../src/report/report.h"

#define SEED 0x1a7011a7c0ffee5ULL
#define RANDOM_STRUCTS random_structs()

static size_t random_structs(void)
{
	const char *e = getenv("LL_TEST_RANDOM_STRUCTS");	/* local experiments only */

	return e ? (size_t)strtoul(e, NULL, 10) : 10000;
}

/* ---- building models ----------------------------------------------------- */

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static uint64_t div_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	return xstrdup(buf);
}

static struct ll_member leaf(const char *name, const char *type, uint64_t size, uint64_t align)
{
	struct ll_member m;

	memset(&m, 0, sizeof(m));
	m.name = name ? xstrdup(name) : NULL;
	m.path = name ? xstrdup(name) : NULL;
	m.type = xstrdup(type);
	m.size = size;
	m.alignment = align;
	return m;
}

static struct ll_member bits(const char *name, const char *type, uint64_t unit, uint64_t width)
{
	struct ll_member m = leaf(name, type, unit, unit);

	m.is_bitfield = true;
	m.bit_size = width;
	return m;
}

static void shift(struct ll_member *m, int64_t delta)
{
	m->offset = (uint64_t)((int64_t)m->offset + delta);
	m->bit_offset = (uint64_t)((int64_t)m->bit_offset + delta * 8);
	for (size_t i = 0; i < m->nr_children; i++)
		shift(&m->children[i], delta);
}

/*
 * Lay members out as C does, from byte BASE: every member at the next
 * offset its alignment allows, bitfields packed into their type's aligned
 * storage units. Aggregates' children must be laid out at offset 0 already.
 */
static uint64_t c_layout(struct ll_member *v, size_t n, enum ll_kind kind, uint64_t base,
			 uint64_t *max_align)
{
	uint64_t cur = base * 8, end = base;
	bool inbits = false;

	for (size_t i = 0; i < n; i++) {
		struct ll_member *m = &v[i];
		uint64_t a = m->alignment ? m->alignment : 1;

		if (a > *max_align)
			*max_align = a;
		if (kind == LL_UNION) {
			shift(m, (int64_t)base - (int64_t)m->offset);
			end = base + m->size > end ? base + m->size : end;
			continue;
		}
		if (m->is_bitfield) {
			uint64_t pos = inbits ? cur : round_up(cur, 8), u = a * 8;

			if (pos / u != (pos + m->bit_size - 1) / u)
				pos = round_up(pos, u);
			m->bit_offset = pos;
			m->offset = pos / 8;
			cur = pos + m->bit_size;
			inbits = true;
		} else {
			uint64_t off = round_up(div_up(cur, 8), a);

			shift(m, (int64_t)off - (int64_t)m->offset);
			cur = (off + m->size) * 8;
			inbits = false;
		}
		end = div_up(cur, 8);
	}
	return end;
}

static struct ll_member aggregate(const char *name, enum ll_kind kind, struct ll_member *children,
				  size_t n)
{
	struct ll_member m;
	uint64_t a = 1, end;

	memset(&m, 0, sizeof(m));
	m.name = name ? xstrdup(name) : NULL;
	m.path = name ? xstrdup(name) : NULL;
	m.type = xstrdup(name ? (kind == LL_UNION ? "union u" : "struct s") :
			 (kind == LL_UNION ? "union {...}" : "struct {...}"));
	m.is_aggregate = true;
	m.agg_kind = kind;
	m.children = xcalloc(n, sizeof(*children));
	memcpy(m.children, children, n * sizeof(*children));
	m.nr_children = n;
	end = c_layout(m.children, n, kind, 0, &a);
	m.alignment = a;
	m.size = round_up(end, a);
	return m;
}

static void tag(struct ll_member *m, enum ll_tag t, const char *domain)
{
	m->tag = t;
	free(m->domain);
	m->domain = domain ? xstrdup(domain) : NULL;
	m->tag_rule_line = t == LL_UNTAGGED ? 0 : 1;
}

static struct ll_struct *new_struct(const char *name, unsigned cl, struct ll_member *v, size_t n)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	uint64_t a = 1, end;

	s->kind = LL_STRUCT;
	s->name = xstrdup(name);
	s->cacheline = cl;
	s->members = xcalloc(n ? n : 1, sizeof(*v));
	memcpy(s->members, v, n * sizeof(*v));
	s->nr_members = n;
	end = c_layout(s->members, n, LL_STRUCT, 0, &a);
	s->alignment = a;
	s->size = round_up(end, a);
	return s;
}

static struct ll_member *find(struct ll_member *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].path && strcmp(v[i].path, path) == 0)
			return &v[i];
		struct ll_member *c = find(v[i].children, v[i].nr_children, path);

		if (c)
			return c;
	}
	return NULL;
}

static struct ll_member *M(struct ll_struct *s, const char *path)
{
	struct ll_member *m = find(s->members, s->nr_members, path);

	ck_assert_msg(m, "no member %s", path);
	return m;
}

static const struct ll_suggested_member *E(const struct ll_suggestion *sg, const char *path)
{
	for (size_t i = 0; i < sg->n; i++)
		if (sg->members[i].m->path && strcmp(sg->members[i].m->path, path) == 0)
			return &sg->members[i];
	ck_abort_msg("no suggested member %s", path);
	return NULL;
}

static bool is_counted(const char *rule)
{
	return !strcmp(rule, "mixed-cacheline") || !strcmp(rule, "write-domains") ||
	       !strcmp(rule, "split-hot");
}

static size_t findings_of(const struct ll_struct *s)
{
	struct ll_check_input in = { .s = s };
	struct ll_findings f = { 0 };
	size_t n = 0;

	ll_check(&in, &f);
	for (size_t i = 0; i < f.n; i++)
		n += is_counted(f.v[i].rule);
	ll_findings_release(&f);
	return n;
}

/* Whether some note, as report/ says it, contains NEEDLE. */
static bool has_note(const struct ll_suggestion *sg, const char *needle)
{
	bool found = false;

	for (size_t i = 0; i < sg->nr_notes && !found; i++) {
		struct strbuf text = STRBUF_INIT;

		ll_suggest_note_describe(&sg->notes[i], &text);
		found = strstr(text.buf, needle) != NULL;
		sb_release(&text);
	}
	return found;
}

static struct ll_suggestion *suggest_with(const struct ll_struct *s,
					  const struct ll_suggest_opts *o)
{
	struct ll_suggestion *sg = NULL;
	struct ll_error err;

	memset(&err, 0, sizeof(err));
	if (o)
		ck_assert_msg(ll_suggest_opts(s, o, &sg, &err) == 0, "ll_suggest: %s", err.msg);
	else
		ck_assert_msg(ll_suggest(s, &sg, &err) == 0, "ll_suggest: %s", err.msg);
	return sg;
}

static struct ll_suggestion *suggest(const struct ll_struct *s)
{
	return suggest_with(s, NULL);
}

/* ---- checks every suggestion must pass ----------------------------------- */

/* Deep copy of M with its subtree moved so that it starts at NEW (bits: NEWBIT). */
static void copy_member(struct ll_member *d, const struct ll_member *m)
{
	*d = *m;
	d->name = m->name ? xstrdup(m->name) : NULL;
	d->path = m->path ? xstrdup(m->path) : NULL;
	d->type = m->type ? xstrdup(m->type) : NULL;
	d->domain = m->domain ? xstrdup(m->domain) : NULL;
	d->decl.file = NULL;
	d->children = m->nr_children ? xcalloc(m->nr_children, sizeof(*d->children)) : NULL;
	for (size_t i = 0; i < m->nr_children; i++)
		copy_member(&d->children[i], &m->children[i]);
}

struct level_ref {
	const struct ll_member *members;	/* the level in the input */
	size_t n;
	const struct ll_member *container;	/* NULL: top level */
};

/*
 * Rebuild the proposal as a model of our own from SG's offsets, replaying
 * every level with C's rules (plus the pads SG declares) and failing on any
 * disagreement. Returns the model; *LEVELS gets every level SG lists.
 */
static struct ll_member *replay_level(const struct ll_suggestion *sg, const struct ll_member *src,
				      size_t n, const struct ll_member *container, uint64_t base,
				      enum ll_kind kind, uint64_t *end_out, uint64_t *align_out,
				      const char *ctx)
{
	struct ll_member *out = xcalloc(n ? n : 1, sizeof(*out));
	size_t k = 0;
	uint64_t cur = base * 8, a = 1;
	bool inbits = false;
	bool *seen = xcalloc(n ? n : 1, sizeof(*seen));

	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (sm->container != container)
			continue;
		ck_assert_msg(sm->m >= src && sm->m < src + n, "%s: member outside its level", ctx);
		size_t idx = (size_t)(sm->m - src);

		ck_assert_msg(!seen[idx], "%s: %s listed twice", ctx, sm->m->name);
		seen[idx] = true;
		struct ll_member *d = &out[k++];
		const struct ll_member *m = sm->m;
		uint64_t al = m->alignment ? m->alignment : 1;

		copy_member(d, m);
		a = al > a ? al : a;
		if (sm->pad_before) {
			cur = round_up(cur, 8) + sm->pad_before * 8;
			inbits = false;
		}
		if (m->is_bitfield) {
			uint64_t pos = inbits ? cur : round_up(cur, 8), u = al * 8;

			if (pos / u != (pos + m->bit_size - 1) / u)
				pos = round_up(pos, u);
			ck_assert_msg(pos == sm->bit_offset, "%s: C puts bitfield %s at bit %llu, "
				      "the suggestion says %llu", ctx, m->name,
				      (unsigned long long)pos, (unsigned long long)sm->bit_offset);
			d->bit_offset = pos;
			d->offset = pos / 8;
			cur = pos + m->bit_size;
			inbits = true;
			continue;
		}
		uint64_t off = round_up(div_up(cur, 8), al);

		ck_assert_msg(off == sm->offset, "%s: C puts %s at %llu, the suggestion says %llu",
			      ctx, m->path ? m->path : "<anon>", (unsigned long long)off,
			      (unsigned long long)sm->offset);
		ck_assert_msg(sm->offset % al == 0, "%s: %s misaligned", ctx, m->path);
		bool is_container = false;

		for (size_t j = 0; j < sg->n; j++)
			is_container |= sg->members[j].container == m;
		if (is_container) {
			uint64_t iend, ia = 1;

			for (size_t c = 0; c < d->nr_children; c++)
				ll_member_release(&d->children[c]);
			free(d->children);
			d->children = replay_level(sg, m->children, m->nr_children, m, off, m->agg_kind,
						   &iend, &ia, ctx);
			d->offset = off;
			ia = al > ia ? al : ia;
			d->size = round_up(iend - off, ia);
			ck_assert_msg(d->size == sm->size, "%s: container size %llu, suggestion %llu",
				      ctx, (unsigned long long)d->size, (unsigned long long)sm->size);
		} else {
			shift(d, (int64_t)off - (int64_t)m->offset);
		}
		cur = (off + d->size) * 8;
		inbits = false;
	}
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(seen[i], "%s: member %zu (%s) missing from the suggestion", ctx, i,
			      src[i].name ? src[i].name : "<anon>");
	(void)kind;
	free(seen);
	*end_out = div_up(cur, 8);
	*align_out = a;
	return out;
}

static struct ll_struct *replay(const struct ll_struct *s, const struct ll_suggestion *sg,
				const char *ctx)
{
	struct ll_struct *d = xcalloc(1, sizeof(*d));
	uint64_t end, a = 1;

	*d = *s;
	d->name = xstrdup(s->name);
	d->decl.file = NULL;
	d->members = replay_level(sg, s->members, s->nr_members, NULL, 0, s->kind, &end, &a, ctx);
	a = s->alignment > a ? s->alignment : a;
	d->size = round_up(end, a);
	ck_assert_msg(d->size == sg->size, "%s: C size %llu, suggestion %llu", ctx,
		      (unsigned long long)d->size, (unsigned long long)sg->size);
	return d;
}

struct bitsel {
	uint64_t b, e;
	const struct ll_member *m;
};

static int bitsel_cmp(const void *a, const void *b)
{
	const struct bitsel *x = a, *y = b;

	return x->b < y->b ? -1 : x->b > y->b;
}

static void collect_leaves(const struct ll_member *v, size_t n, struct bitsel **out, size_t *nout)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &v[i];

		if (m->is_aggregate && m->nr_children && !m->name && m->agg_kind == LL_STRUCT) {
			collect_leaves(m->children, m->nr_children, out, nout);
			continue;
		}
		uint64_t b = m->is_bitfield ? m->bit_offset : m->offset * 8;
		uint64_t e = m->is_bitfield ? b + m->bit_size : b + m->size * 8;

		if (e == b)
			continue;
		*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
		(*out)[(*nout)++] = (struct bitsel){ b, e, m };
	}
}

/* Pins, overlaps, alignment and the findings count, on the replayed model. */
static void check_common(const struct ll_struct *s, const struct ll_suggestion *sg,
			 const char *ctx)
{
	struct ll_struct *d = replay(s, sg, ctx);
	struct bitsel *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];

		if (sm->m->pinned)
			ck_assert_msg(sm->m->is_bitfield ? sm->bit_offset == sm->m->bit_offset :
				      sm->offset == sm->m->offset, "%s: pinned %s moved", ctx,
				      sm->m->path);
		/* Only what C can lay out: every member on a multiple of its alignment. */
		if (!sm->m->is_bitfield && sm->m->alignment)
			ck_assert_msg(sm->offset % sm->m->alignment == 0, "%s: %s at %llu, not a "
				      "multiple of its alignment %llu", ctx,
				      sm->m->path ? sm->m->path : "<anon>",
				      (unsigned long long)sm->offset,
				      (unsigned long long)sm->m->alignment);
	}
	collect_leaves(d->members, d->nr_members, &v, &n);
	qsort(v, n, sizeof(*v), bitsel_cmp);
	for (size_t i = 1; i < n; i++)
		ck_assert_msg(v[i].b >= v[i - 1].e, "%s: %s overlaps %s", ctx,
			      v[i].m->path ? v[i].m->path : "<anon>",
			      v[i - 1].m->path ? v[i - 1].m->path : "<anon>");
	free(v);
	ck_assert_msg(findings_of(d) == sg->findings, "%s: ll_check finds %zu, suggestion says %zu",
		      ctx, findings_of(d), sg->findings);
	ck_assert_msg(sg->model_findings == sg->findings, "%s: solver predicted %zu findings, "
		      "the checks find %zu", ctx, sg->model_findings, sg->findings);
	ck_assert_uint_eq(sg->cachelines, div_up(sg->size, s->cacheline));
	ck_assert_msg(sg->findings <= sg->before_findings, "%s: more findings than before", ctx);

	/* The solver's own model of its proposal agrees with ours. */
	struct ll_struct *own = ll_suggestion_layout(s, sg);

	ck_assert_uint_eq(own->size, d->size);
	ck_assert_uint_eq(findings_of(own), sg->findings);

	struct strbuf sb = STRBUF_INIT;

	ll_report_suggestion(s, sg, own, &sb);
	ck_assert_msg(strstr(sb.buf, "before:") && strstr(sb.buf, "after:") &&
		      strstr(sb.buf, "lower bound:"), "%s: listing lacks the summary", ctx);
	sb_release(&sb);
	ll_struct_free(own);
	ll_struct_free(d);
}

/* ---- fixed cases ----------------------------------------------------------- */

/* struct file of Debian's 6.1 kernel (examples/file61.c), tagged by rules/file.rules. */
static struct ll_struct *struct_file(void)
{
	struct ll_member u[3] = {
		leaf("f_llist", "struct llist_node", 8, 8),
		leaf("f_rcuhead", "struct callback_head", 16, 8),
		leaf("f_iocb_flags", "unsigned int", 4, 4),
	};
	struct ll_member v[] = {
		aggregate(NULL, LL_UNION, u, 3),
		leaf("f_path", "struct path", 16, 8),
		leaf("f_inode", "struct inode *", 8, 8),
		leaf("f_op", "const struct file_operations *", 8, 8),
		leaf("f_lock", "spinlock_t", 4, 4),
		leaf("f_count", "atomic_long_t", 8, 8),
		leaf("f_flags", "unsigned int", 4, 4),
		leaf("f_mode", "fmode_t", 4, 4),
		leaf("f_pos_lock", "struct mutex", 32, 8),
		leaf("f_pos", "loff_t", 8, 8),
		leaf("f_owner", "struct fown_struct", 32, 8),
		leaf("f_cred", "const struct cred *", 8, 8),
		leaf("f_ra", "struct file_ra_state", 32, 8),
		leaf("f_version", "u64", 8, 8),
		leaf("f_security", "void *", 8, 8),
		leaf("private_data", "void *", 8, 8),
		leaf("f_ep", "struct hlist_head *", 8, 8),
		leaf("f_mapping", "struct address_space *", 8, 8),
		leaf("f_wb_err", "errseq_t", 4, 4),
		leaf("f_sb_err", "errseq_t", 4, 4),
	};
	struct ll_struct *s = new_struct("file", 64, v, sizeof(v) / sizeof(v[0]));
	const char *rm[] = { "f_op", "f_inode", "f_path", "f_mapping", "f_flags", "f_mode", "f_cred" };
	const char *wh[] = { "f_lock", "f_count", "f_pos_lock", "f_pos" };

	for (size_t i = 0; i < 7; i++)
		tag(M(s, rm[i]), LL_READ_MOSTLY, NULL);
	for (size_t i = 0; i < 4; i++)
		tag(M(s, wh[i]), LL_WRITE_HOT, NULL);
	tag(M(s, "f_security"), LL_COLD, NULL);
	tag(M(s, "f_ep"), LL_COLD, NULL);
	return s;
}

START_TEST(test_struct_file)
{
	struct ll_struct *s = struct_file();
	struct ll_suggestion *sg;

	ck_assert_uint_eq(s->size, 232);
	ck_assert_uint_eq(M(s, "f_mapping")->offset, 216);
	sg = suggest(s);
	ck_assert_uint_eq(sg->before_findings, 2);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert(!sg->impossible);
	ck_assert_uint_le(sg->cachelines, sg->before_cachelines + 1);
	ck_assert_uint_eq(sg->cachelines, 4);
	ck_assert_uint_eq(sg->lower_bound_lines, 4);
	ck_assert_uint_le(sg->size, 256);
	ck_assert(sg->changed);
	check_common(s, sg, "struct file");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_no_tags_packs)
{
	/* The pahole --reorganize classic: 40 bytes with holes, 24 packed. */
	struct ll_member v[] = {
		leaf("a", "char", 1, 1), leaf("b", "long", 8, 8), leaf("c", "char", 1, 1),
		leaf("d", "long", 8, 8), leaf("e", "short", 2, 2),
	};
	struct ll_struct *s = new_struct("holes", 64, v, 5);
	struct ll_suggestion *sg;

	ck_assert_uint_eq(s->size, 40);
	sg = suggest(s);
	ck_assert_uint_eq(sg->size, 24);
	ck_assert_uint_eq(sg->holes, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert(sg->optimal);
	/* b and d stay in order; only the small ones move. */
	ck_assert_uint_lt(E(sg, "b")->offset, E(sg, "d")->offset);
	check_common(s, sg, "holes");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_already_good)
{
	struct ll_member v[] = {
		leaf("a", "long", 8, 8), leaf("b", "long", 8, 8), leaf("c", "int", 4, 4),
		leaf("d", "short", 2, 2), leaf("e", "char", 1, 1), leaf("f", "char", 1, 1),
	};
	struct ll_struct *s = new_struct("good", 64, v, 6);
	struct ll_suggestion *sg = suggest(s);

	ck_assert(!sg->changed);
	ck_assert_uint_eq(sg->moved, 0);
	ck_assert_uint_eq(sg->size, 24);
	for (size_t i = 0; i < sg->n; i++)
		ck_assert(!sg->members[i].moved);
	check_common(s, sg, "good");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_keeps_order_when_free)
{
	/* Two classes already apart: nothing needs to move. */
	struct ll_member v[] = {
		leaf("r0", "long", 8, 8), leaf("r1", "long", 8, 8), leaf("pad", "char[48]", 48, 1),
		leaf("w0", "long", 8, 8), leaf("w1", "long", 8, 8),
	};
	struct ll_struct *s = new_struct("apart", 64, v, 5);
	struct ll_suggestion *sg;

	tag(M(s, "r0"), LL_READ_MOSTLY, NULL);
	tag(M(s, "r1"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w0"), LL_WRITE_HOT, NULL);
	tag(M(s, "w1"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert(!sg->changed);
	ck_assert_uint_eq(sg->moved, 0);
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

/* The "big" member stands for a 10-line declaration: --format=patch's weights. */
static size_t ten_for_big(const struct ll_member *first, size_t count, void *arg)
{
	(void)arg;
	return count == 1 && strcmp(first->name, "big") == 0 ? 10 : count;
}

START_TEST(test_fewest_moved_lines)
{
	/*
	 * r, w, big (56 bytes, cold): three orders of one moved unit each fix
	 * it in 2 lines (r big w, w big r, big r w); moving big costs 10 lines
	 * of source, so with weights it stays in place.
	 */
	struct ll_member v[] = {
		leaf("r", "long", 8, 8), leaf("w", "long", 8, 8), leaf("big", "char[56]", 56, 1),
	};
	struct ll_struct *s = new_struct("weighted", 64, v, 3);
	struct ll_suggest_opts o = { .weight = ten_for_big };
	struct ll_suggestion *sg;

	tag(M(s, "r"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	sg = suggest_with(s, &o);
	check_common(s, sg, "weighted");
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->cachelines, 2);
	ck_assert_uint_eq(sg->moved, 1);
	ck_assert_msg(!E(sg, "big")->moved, "the 10-line member was moved");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_pin_last)
{
	/*
	 * w c r pad: unpinned, moving r past pad fixes it (w c pad r); with
	 * "pin last" on the cold c, r must go elsewhere and c stays the last.
	 */
	struct ll_member v[] = {
		leaf("w", "long", 8, 8), leaf("c", "long", 8, 8), leaf("r", "long", 8, 8),
		leaf("pad", "char[48]", 48, 1),
	};
	struct ll_struct *s = new_struct("pinlast", 64, v, 4);
	struct ll_suggestion *sg;

	tag(M(s, "r"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_ptr_ne(sg->members[sg->n - 1].m, M(s, "c"));	/* the test means something */
	ll_suggestion_free(sg);
	M(s, "c")->pin_last = true;
	sg = suggest(s);
	check_common(s, sg, "pinlast");
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_ptr_eq(sg->members[sg->n - 1].m, M(s, "c"));
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_line_start_note)
{
	/* Read-mostly and write-hot of 40 bytes each: one must start line 1. */
	struct ll_member v[] = {
		leaf("r", "char[40]", 40, 1), leaf("w", "char[40]", 40, 1),
	};
	struct ll_struct *s = new_struct("two", 64, v, 2);
	struct ll_suggestion *sg;

	tag(M(s, "r"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(sg->before_findings, 2);	/* mixed line 0, w split */
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->cachelines, 2);
	ck_assert_uint_eq(sg->size, 104);
	ck_assert(E(sg, "w")->line_start);
	ck_assert_uint_eq(E(sg, "w")->offset, 64);
	ck_assert_uint_eq(E(sg, "w")->pad_before, 24);
	ck_assert(has_note(sg, "____cacheline_aligned_in_smp"));
	check_common(s, sg, "two");

	struct strbuf sb = STRBUF_INIT;
	struct ll_struct *own = ll_suggestion_layout(s, sg);

	ll_report_suggestion(s, sg, own, &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "____cacheline_aligned_in_smp on w"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "cacheline 1 boundary"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "before: 80 bytes, 2 cachelines"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "after:  104 bytes, 2 cachelines"));
	sb_release(&sb);
	ll_struct_free(own);
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_bitfield_unit_impossible)
{
	struct ll_member v[] = {
		leaf("p", "void *", 8, 8),
		bits("rb", "unsigned int", 4, 3), bits("wb", "unsigned int", 4, 5),
		leaf("q", "long", 8, 8),
	};
	struct ll_struct *s = new_struct("bf", 64, v, 4);
	struct ll_suggestion *sg;

	tag(M(s, "rb"), LL_READ_MOSTLY, NULL);
	tag(M(s, "wb"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(sg->findings, 1);
	ck_assert(sg->impossible);
	ck_assert(has_note(sg, "bitfields of one storage unit"));
	ck_assert(has_note(sg, "rb") && has_note(sg, "wb"));
	check_common(s, sg, "bf");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_union_alternatives_impossible)
{
	struct ll_member alt[2] = { leaf("ua", "long", 8, 8), leaf("ub", "int", 4, 4) };
	struct ll_member v[] = {
		leaf("x", "long", 8, 8), aggregate("u", LL_UNION, alt, 2), leaf("y", "long", 8, 8),
	};
	struct ll_struct *s = new_struct("un", 64, v, 3);
	struct ll_suggestion *sg;

	free(M(s, "u")->children[0].path);
	M(s, "u")->children[0].path = xstrdup("u.ua");
	free(M(s, "u")->children[1].path);
	M(s, "u")->children[1].path = xstrdup("u.ub");
	tag(M(s, "u.ua"), LL_READ_MOSTLY, NULL);
	tag(M(s, "u.ub"), LL_WRITE_HOT, NULL);
	tag(M(s, "x"), LL_WRITE_HOT, "tx");
	sg = suggest(s);
	ck_assert(sg->impossible);
	ck_assert(has_note(sg, "alternatives of one union"));
	ck_assert_uint_eq(sg->findings, 1);	/* x moved away: only the union is left */
	check_common(s, sg, "union");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_pins_and_alignment)
{
	struct ll_member v[] = {
		leaf("first", "struct list_head", 16, 8),
		leaf("w", "atomic_t", 4, 4),
		leaf("big", "char[100]", 100, 1),
		leaf("al", "int", 4, 64),	/* _Alignas(64) int */
		leaf("r", "long", 8, 8),
		leaf("c", "char", 1, 1),
	};
	struct ll_struct *s;
	struct ll_suggestion *sg;

	v[3].explicit_align = true;
	s = new_struct("pin", 64, v, 6);
	M(s, "first")->pinned = true;
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	tag(M(s, "r"), LL_READ_MOSTLY, NULL);
	tag(M(s, "first"), LL_READ_MOSTLY, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(E(sg, "first")->offset, 0);
	ck_assert_uint_eq(E(sg, "al")->offset % 64, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->size % 64, 0);
	check_common(s, sg, "pin");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_anonymous_struct_level)
{
	/* Like mm_struct: everything in one anonymous struct, then a flexible array. */
	struct ll_member in[24];
	struct ll_member top[2];
	struct ll_struct *s;
	struct ll_suggestion *sg;

	for (int i = 0; i < 24; i++) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", i);
		in[i] = i % 3 == 0 ? leaf(name, "int", 4, 4) : leaf(name, "long", 8, 8);
	}
	top[0] = aggregate(NULL, LL_STRUCT, in, 24);
	top[1] = leaf("cpu_bitmap", "unsigned long[]", 0, 8);
	s = new_struct("mm", 64, top, 2);
	for (int i = 0; i < 24; i += 4) {
		char name[16];

		snprintf(name, sizeof(name), "f%d", i);
		tag(M(s, name), LL_WRITE_HOT, NULL);
		snprintf(name, sizeof(name), "f%d", i + 1);
		tag(M(s, name), LL_READ_MOSTLY, NULL);
	}
	sg = suggest(s);
	ck_assert_uint_gt(sg->before_findings, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_le(sg->cachelines, sg->before_cachelines + 1);
	ck_assert(has_note(sg, "anonymous struct"));
	ck_assert_ptr_eq(E(sg, "f5")->container, &s->members[0]);
	ck_assert_ptr_null(E(sg, "cpu_bitmap")->container);
	ck_assert_uint_eq(E(sg, "cpu_bitmap")->offset, sg->size);
	check_common(s, sg, "mm");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_groups_stay_whole)
{
	struct ll_member v[] = {
		leaf("a", "char", 1, 1),
		leaf("__cacheline_group_begin__x_read", "__u8[0]", 0, 1),
		leaf("r1", "long", 8, 8), leaf("r2", "int", 4, 4),
		leaf("__cacheline_group_end__x_read", "__u8[0]", 0, 1),
		leaf("b", "long", 8, 8),
		leaf("w", "long", 8, 8),
		leaf("c", "char", 1, 1),
	};
	struct ll_struct *s = new_struct("grp", 64, v, 8);
	struct ll_suggestion *sg;

	tag(M(s, "r1"), LL_READ_MOSTLY, NULL);
	tag(M(s, "r2"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(sg->findings, 0);
	uint64_t b = E(sg, "__cacheline_group_begin__x_read")->offset;
	uint64_t e = E(sg, "__cacheline_group_end__x_read")->offset;

	ck_assert_uint_le(b, E(sg, "r1")->offset);
	ck_assert_uint_eq(E(sg, "r2")->offset + 4, e);
	ck_assert_uint_eq(E(sg, "r2")->offset - E(sg, "r1")->offset, 8);
	check_common(s, sg, "groups");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_union_top_level)
{
	struct ll_member v[] = { leaf("a", "long", 8, 8), leaf("b", "int", 4, 4) };
	struct ll_struct *s = new_struct("u", 64, v, 2);
	struct ll_suggestion *sg;

	s->kind = LL_UNION;
	s->members[1].offset = 0;
	s->size = 8;
	tag(M(s, "a"), LL_READ_MOSTLY, NULL);
	tag(M(s, "b"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert(!sg->changed);
	ck_assert(sg->impossible);
	ck_assert_uint_eq(sg->findings, 1);
	ck_assert(has_note(sg, "union"));
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_allow_honoured)
{
	struct ll_member v[] = { leaf("r", "long", 8, 8), leaf("w", "long", 8, 8) };
	struct ll_struct *s = new_struct("al", 64, v, 2);
	struct ll_allow allow = { "mixed-cacheline", "w" };
	struct ll_suggest_opts o = { .allows = &allow, .nr_allows = 1 };
	struct ll_suggestion *sg;
	struct ll_error err;

	tag(M(s, "r"), LL_READ_MOSTLY, NULL);
	tag(M(s, "w"), LL_WRITE_HOT, NULL);
	ck_assert_int_eq(ll_suggest_opts(s, &o, &sg, &err), 0);
	ck_assert_uint_eq(sg->before_findings, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert(!sg->changed);
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_domains_split)
{
	struct ll_member v[] = {
		leaf("rx_head", "long", 8, 8), leaf("tx_head", "long", 8, 8),
		leaf("rx_tail", "long", 8, 8), leaf("tx_tail", "long", 8, 8),
		leaf("cold", "char[40]", 40, 1),
	};
	struct ll_struct *s = new_struct("q", 64, v, 5);
	struct ll_suggestion *sg;

	tag(M(s, "rx_head"), LL_WRITE_HOT, "rx");
	tag(M(s, "rx_tail"), LL_WRITE_HOT, "rx");
	tag(M(s, "tx_head"), LL_WRITE_HOT, "tx");
	tag(M(s, "tx_tail"), LL_WRITE_HOT, "tx");
	sg = suggest(s);
	ck_assert_uint_eq(sg->before_findings, 1);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->cachelines, 2);
	ck_assert_uint_eq(E(sg, "rx_head")->offset / 64, E(sg, "rx_tail")->offset / 64);
	ck_assert_uint_ne(E(sg, "rx_head")->offset / 64, E(sg, "tx_head")->offset / 64);
	check_common(s, sg, "domains");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_split_hot_fixed)
{
	/* A 16-byte lock straddling line 0 and 1 with nothing else hot. */
	struct ll_member v[] = { leaf("a", "char[56]", 56, 1), leaf("lock", "char[16]", 16, 8) };
	struct ll_struct *s = new_struct("sp", 64, v, 2);
	struct ll_suggestion *sg;

	tag(M(s, "lock"), LL_WRITE_HOT, NULL);
	sg = suggest(s);
	ck_assert_uint_eq(sg->before_findings, 1);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->size, 72);
	check_common(s, sg, "split");
	ll_suggestion_free(sg);
	ll_struct_free(s);
}
END_TEST

/* ---- random structs ------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static unsigned rn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static const char *const domains[] = { NULL, NULL, "rx", "tx" };

static void random_tag(struct ll_member *m, bool tagged)
{
	unsigned r = rn(100);

	if (!tagged || r < 45)
		return;
	if (r < 55)
		tag(m, LL_COLD, NULL);
	else if (r < 75)
		tag(m, LL_READ_MOSTLY, NULL);
	else
		tag(m, LL_WRITE_HOT, domains[rn(4)]);
}

static const char *int_type(uint64_t size)
{
	return size == 1 ? "char" : size == 2 ? "short" : size == 4 ? "int" : "long";
}

struct rstruct {
	struct ll_struct *s;
	const struct ll_member *level;	/* solve level, in s */
	size_t nlevel;
	bool wrapped, fam;
	size_t nunits;
	struct { size_t first, count; } unit[40];
};

static void set_child_paths(struct ll_member *m, const char *prefix)
{
	for (size_t i = 0; i < m->nr_children; i++) {
		struct ll_member *c = &m->children[i];

		if (!c->name)
			continue;
		free(c->path);
		c->path = prefix ? fmt("%s.%s", prefix, c->name) : xstrdup(c->name);
	}
}

static void random_struct(struct rstruct *r, size_t nunits)
{
	static const uint64_t sizes[] = { 1, 2, 4, 8 };
	struct ll_member *v = xcalloc(4 * nunits + 2, sizeof(*v));
	size_t n = 0;
	bool tagged = rn(100) >= 20, prev_bits = false;
	unsigned cl = rn(10) < 8 ? 64 : rn(2) ? 32 : 128;

	memset(r, 0, sizeof(*r));
	for (size_t k = 0; k < nunits; k++) {
		unsigned kind = rn(100);
		char name[32];

		snprintf(name, sizeof(name), "m%zu", k);
		if (kind >= 60 && kind < 72 && prev_bits)
			kind = 0;
		r->unit[k].first = n;
		r->unit[k].count = 1;
		prev_bits = false;
		if (kind < 40) {
			uint64_t sz = sizes[rn(4)];

			v[n] = leaf(name, int_type(sz), sz, sz);
		} else if (kind < 50) {
			uint64_t e = sizes[rn(4)], cnt = 2 + rn(20);
			char *t = fmt("%s[%llu]", int_type(e), (unsigned long long)cnt);

			v[n] = leaf(name, t, e * cnt, e);
			free(t);
		} else if (kind < 55) {
			uint64_t a = 16u << rn(3);

			if (rn(2))
				v[n] = leaf(name, "char[]", a * (1 + rn(2)), a);
			else
				v[n] = leaf(name, "int", 4, a);
			v[n].explicit_align = true;
		} else if (kind < 60) {
			uint64_t sz = 8 * (8 + rn(18));

			v[n] = leaf(name, "char[]", sz, 8);
		} else if (kind < 72) {
			unsigned nb = 1 + rn(4);
			uint64_t ts = sizes[rn(3) == 0 ? 0 : rn(2) ? 2 : 3];

			for (unsigned b = 0; b < nb; b++) {
				uint64_t t = rn(3) ? ts : sizes[rn(4)];
				uint64_t w = 1 + rn((unsigned)(t * 8 < 20 ? t * 8 : 20));
				char bn[48];

				snprintf(bn, sizeof(bn), "%s_%u", name, b);
				v[n + b] = bits(bn, int_type(t), t, w);
				random_tag(&v[n + b], tagged);
			}
			r->unit[k].count = nb;
			n += nb;
			prev_bits = true;
			continue;
		} else if (kind < 82) {
			uint64_t s1 = sizes[rn(4)], s2 = sizes[rn(4)];
			struct ll_member c[2] = { leaf("a", int_type(s1), s1, s1),
						  leaf("b", int_type(s2), s2, s2) };

			v[n] = aggregate(name, LL_STRUCT, c, 2);
			set_child_paths(&v[n], name);
			if (rn(2)) {
				random_tag(&v[n], tagged);
			} else {
				random_tag(&v[n].children[0], tagged);
				random_tag(&v[n].children[1], tagged);
			}
		} else if (kind < 92) {
			uint64_t s1 = sizes[rn(4)], e = sizes[rn(4)], s2 = e * (1 + rn(3));
			struct ll_member c[2] = { leaf("a", int_type(s1), s1, s1),
						  leaf("b", "char[]", s2, e) };

			v[n] = aggregate(name, LL_UNION, c, 2);
			set_child_paths(&v[n], name);
			if (rn(2)) {
				random_tag(&v[n], tagged);
			} else {
				random_tag(&v[n].children[0], tagged);
				random_tag(&v[n].children[1], tagged);
			}
		} else {
			uint64_t s1 = sizes[rn(4)], s2 = sizes[rn(4)];
			char n1[48], n2[48];

			snprintf(n1, sizeof(n1), "%s_a", name);
			snprintf(n2, sizeof(n2), "%s_b", name);
			struct ll_member c[2] = { leaf(n1, int_type(s1), s1, s1),
						  leaf(n2, int_type(s2), s2, s2) };

			v[n] = aggregate(NULL, LL_UNION, c, 2);
			random_tag(&v[n].children[0], tagged);
			random_tag(&v[n].children[1], tagged);
		}
		if (!v[n].is_aggregate)
			random_tag(&v[n], tagged);
		n++;
	}
	r->nunits = nunits;
	/* Pins: often the first member (first-member casts), sometimes another. */
	if (rn(10) == 0)
		v[0].pinned = true;
	if (rn(20) == 0)
		v[r->unit[rn((unsigned)nunits)].first].pinned = true;

	r->wrapped = rn(10) == 0;
	r->fam = rn(20) == 0;
	if (r->wrapped) {
		struct ll_member top[2];
		size_t nt = 0;

		top[nt++] = aggregate(NULL, LL_STRUCT, v, n);
		if (r->fam)
			top[nt++] = leaf("fam", "long[]", 0, 8);
		r->s = new_struct("rnd", cl, top, nt);
		r->level = r->s->members[0].children;
		r->nlevel = n;
	} else {
		if (r->fam)
			v[n++] = leaf("fam", "long[]", 0, 8);
		r->s = new_struct("rnd", cl, v, n);
		r->level = r->s->members;
		r->nlevel = n - r->fam;
	}
	free(v);
}

/* ---- the oracle: every order, every choice of line breaks ------------------ */

struct oatom {
	uint64_t b, e;
	int cls;
};

struct ounit {
	const struct ll_member *m;	/* first member */
	size_t count;
	uint64_t orig, size, align;
	bool bitfield, pinned;
	struct oatom atoms[16];
	size_t na;
};

struct oracle {
	struct ounit u[8];
	size_t n;
	unsigned cl;
	uint64_t salign, calign, famalign;
	bool wrapped, fam;
	/* result */
	bool found;
	uint64_t best_lines, best_span, best_size;
	uint64_t best_pos[8];
	size_t best_ord[8];
	/* search */
	uint64_t pos[8];
	size_t ord[8];
	uint64_t *memo;
	uint64_t *memo_span;	/* the least span a state was reached with */
	size_t memo_cap, memo_n;
	uint64_t nodes;
};

static bool pinned_tree(const struct ll_member *m)
{
	if (m->pinned)
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (pinned_tree(&m->children[i]))
			return true;
	return false;
}

static bool o_bits_fit(const struct ounit *u, uint64_t q)
{
	uint64_t pos = q * 8;

	for (size_t i = 0; i < u->count; i++) {
		const struct ll_member *m = &u->m[i];
		uint64_t un = m->alignment * 8;

		if (pos / un != (pos + m->bit_size - 1) / un)
			pos = round_up(pos, un);
		if (pos - q * 8 != m->bit_offset - u->orig * 8)
			return false;
		pos += m->bit_size;
	}
	return true;
}

static bool o_place(const struct oracle *o, const struct ounit *u, uint64_t c, bool brk,
		    uint64_t *q)
{
	if (u->pinned) {
		*q = u->orig;
		return !brk && c <= u->orig;
	}
	uint64_t start = brk ? round_up(c, o->cl) : c;

	if (!u->bitfield) {
		*q = round_up(start, u->align);
		return true;
	}
	for (uint64_t p = start; p < start + 256; p++) {
		if (o_bits_fit(u, p)) {
			*q = p;
			return true;
		}
	}
	return false;
}

static uint64_t o_final(const struct oracle *o, uint64_t c)
{
	if (o->wrapped)
		c = round_up(c, o->calign);
	if (o->fam)
		c = round_up(c, o->famalign);
	return round_up(c, o->salign);
}

/*
 * Place U at Q over a line owned by OWNER; -2 if that makes a finding, else
 * the new owner. *LINES gets the lines it gives a class that had none: with
 * no finding, each line has one class at most, so their sum is the total of
 * lines each hot class touches.
 */
static int o_apply(const struct oracle *o, const struct ounit *u, uint64_t c, int owner, uint64_t q,
		   uint64_t *lines)
{
	uint64_t cl = o->cl, open = c / cl, end = q + u->size;
	int line_cls[64];
	uint64_t l0 = q / cl, l1 = end ? (end - 1) / cl : l0;

	if (l1 - l0 + 1 > 64)
		abort();
	for (uint64_t l = l0; l <= l1; l++)
		line_cls[l - l0] = l == open ? owner : -1;
	for (size_t i = 0; i < u->na; i++) {
		const struct oatom *a = &u->atoms[i];
		uint64_t la = (q + a->b) / cl, lb = (q + a->e - 1) / cl;

		if (la != lb && a->e - a->b <= cl)
			return -2;
		for (uint64_t l = la; l <= lb; l++) {
			int *lc = &line_cls[l - l0];

			if (*lc == -1)
				*lc = a->cls;
			else if (*lc != a->cls)
				return -2;
		}
	}
	*lines = 0;
	for (uint64_t l = l0; l <= l1; l++)
		*lines += line_cls[l - l0] != -1 && !(l == open && owner != -1);
	if (end % cl == 0)
		return -1;
	return line_cls[l1 - l0];
}

/* Whether state KEY was reached before with a span no larger than SPAN. */
static bool memo_seen(struct oracle *o, uint64_t key, uint64_t span)
{
	if ((o->memo_n + 1) * 2 > o->memo_cap) {
		size_t cap = o->memo_cap ? o->memo_cap * 2 : 4096;
		uint64_t *m = xcalloc(cap, sizeof(*m)), *ms = xcalloc(cap, sizeof(*ms));

		for (size_t i = 0; i < o->memo_cap; i++) {
			if (!o->memo[i])
				continue;
			size_t h = (o->memo[i] * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);

			while (m[h])
				h = (h + 1) & (cap - 1);
			m[h] = o->memo[i];
			ms[h] = o->memo_span[i];
		}
		free(o->memo);
		free(o->memo_span);
		o->memo = m;
		o->memo_span = ms;
		o->memo_cap = cap;
	}
	size_t h = (key * 0x9e3779b97f4a7c15ULL) >> 20 & (o->memo_cap - 1);

	while (o->memo[h]) {
		if (o->memo[h] == key) {
			if (o->memo_span[h] <= span)
				return true;
			o->memo_span[h] = span;
			return false;
		}
		h = (h + 1) & (o->memo_cap - 1);
	}
	o->memo[h] = key;
	o->memo_span[h] = span;
	o->memo_n++;
	return false;
}

/* Best is fewest lines, then fewest lines touched by hot classes, then bytes. */
static void o_dfs(struct oracle *o, unsigned mask, size_t depth, uint64_t c, int owner,
		  bool last_bits, uint64_t span)
{
	uint64_t rem = 0;

	o->nodes++;
	if (depth == o->n) {
		uint64_t size = o_final(o, c), lines = div_up(size, o->cl);

		if (!o->found || lines < o->best_lines ||
		    (lines == o->best_lines && span < o->best_span) ||
		    (lines == o->best_lines && span == o->best_span && size < o->best_size)) {
			o->found = true;
			o->best_lines = lines;
			o->best_span = span;
			o->best_size = size;
			memcpy(o->best_pos, o->pos, sizeof(o->pos));
			memcpy(o->best_ord, o->ord, sizeof(o->ord));
		}
		return;
	}
	for (size_t i = 0; i < o->n; i++)
		if (!(mask >> i & 1))
			rem += o->u[i].size;
	if (o->found) {
		uint64_t size = o_final(o, c + rem), lines = div_up(size, o->cl);

		if (lines > o->best_lines ||
		    (lines == o->best_lines && (span > o->best_span ||
						(span == o->best_span && size >= o->best_size))))
			return;
	}
	/* key: mask (8 bits), owner + 2 (3 bits), last_bits, cursor */
	uint64_t key = 1 + (mask | (uint64_t)(owner + 2) << 8 | (uint64_t)last_bits << 11 |
			    c << 12);

	if (memo_seen(o, key, span))
		return;
	for (size_t i = 0; i < o->n; i++) {
		const struct ounit *u = &o->u[i];

		if (mask >> i & 1)
			continue;
		for (int brk = 0; brk < 2; brk++) {
			uint64_t q, q0;

			if (brk && (c % o->cl == 0 || !o_place(o, u, c, false, &q0)))
				continue;
			if (!o_place(o, u, c, brk, &q))
				continue;
			if (brk && q == q0)
				continue;
			if (q < c || (last_bits && u->bitfield && q == c))
				continue;
			uint64_t add;
			int nown = o_apply(o, u, c, owner, q, &add);

			if (nown == -2)
				continue;
			o->pos[i] = q;
			o->ord[depth] = i;
			o_dfs(o, mask | 1u << i, depth + 1, q + u->size, nown, u->bitfield, span + add);
		}
	}
}

static int dom_class(const char *d)
{
	return !d ? 1 : !strcmp(d, "rx") ? 2 : 3;
}

static void oracle_build(struct oracle *o, const struct rstruct *r)
{
	const struct ll_struct *s = r->s;
	struct ll_units lus;

	memset(o, 0, sizeof(*o));
	o->n = r->nunits;
	o->cl = s->cacheline;
	o->salign = s->alignment;
	o->wrapped = r->wrapped;
	o->calign = r->wrapped ? s->members[0].alignment : 1;
	o->fam = r->fam;
	o->famalign = 8;
	for (size_t k = 0; k < r->nunits; k++) {
		struct ounit *u = &o->u[k];
		const struct ll_member *m = &r->level[r->unit[k].first];

		u->m = m;
		u->count = r->unit[k].count;
		u->bitfield = m->is_bitfield;
		u->align = m->alignment;
		for (size_t i = 0; i < u->count; i++)
			u->pinned |= pinned_tree(&m[i]);
		if (u->bitfield) {
			uint64_t end = 0;

			u->orig = m->bit_offset / 8;
			for (size_t i = 0; i < u->count; i++) {
				uint64_t e = div_up(m[i].bit_offset + m[i].bit_size, 8);

				end = e > end ? e : end;
			}
			u->size = end - u->orig;
		} else {
			u->orig = m->offset;
			u->size = m->size;
		}
	}
	ll_collect_units(s, &lus);
	for (size_t i = 0; i < lus.n; i++) {
		const struct ll_unit *lu = &lus.v[i];
		struct ll_extent e = ll_member_extent(lu->m);

		if (e.end <= e.begin || (lu->tag != LL_READ_MOSTLY && lu->tag != LL_WRITE_HOT))
			continue;
		for (size_t k = 0; k < o->n; k++) {
			struct ounit *u = &o->u[k];

			if (e.begin >= u->orig && e.begin < u->orig + u->size) {
				u->atoms[u->na++] = (struct oatom){
					e.begin - u->orig, e.end - u->orig,
					lu->tag == LL_READ_MOSTLY ? 0 : dom_class(lu->domain) };
				break;
			}
		}
	}
	ll_units_release(&lus);
}

/* The oracle's best layout through the real checks: it must have no finding. */
static void oracle_verify(const struct oracle *o, const struct rstruct *r)
{
	struct ll_struct *d = xcalloc(1, sizeof(*d));
	const struct ll_struct *s = r->s;
	struct ll_member *lvl;

	*d = *s;
	d->name = xstrdup(s->name);
	d->members = xcalloc(s->nr_members, sizeof(*d->members));
	for (size_t i = 0; i < s->nr_members; i++)
		copy_member(&d->members[i], &s->members[i]);
	lvl = r->wrapped ? d->members[0].children : d->members;
	for (size_t k = 0; k < o->n; k++) {
		const struct ounit *u = &o->u[k];
		int64_t delta = (int64_t)o->best_pos[k] - (int64_t)u->orig;

		for (size_t i = 0; i < u->count; i++)
			shift(&lvl[r->unit[k].first + i], delta);
	}
	d->size = o->best_size;
	if (r->wrapped)
		d->members[0].size = round_up(o->best_size, o->calign);
	ck_assert_msg(findings_of(d) == 0, "oracle layout has findings (oracle bug)");
	ll_struct_free(d);
}

/* ---- the properties ------------------------------------------------------- */

struct stats {
	size_t structs, oracle_runs, oracle_free, oracle_impossible, impossible, moved_units;
	size_t changed, tagged_free, extra_lines;
	double solver_s;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t hot_classes(const struct ll_struct *s)
{
	struct ll_units lus;
	bool seen[4] = { false };
	size_t n = 0;

	ll_collect_units(s, &lus);
	for (size_t i = 0; i < lus.n; i++) {
		const struct ll_unit *u = &lus.v[i];
		int c;

		if (u->tag == LL_READ_MOSTLY)
			c = 0;
		else if (u->tag == LL_WRITE_HOT)
			c = dom_class(u->domain);
		else
			continue;
		if (ll_member_is_empty(u->m) || seen[c])
			continue;
		seen[c] = true;
		n++;
	}
	ll_units_release(&lus);
	return n;
}

/*
 * Lines each hot class of the proposal touches, summed over the classes,
 * measured on the proposed layout itself (not on the solver's bookkeeping).
 */
static uint64_t hot_span(const struct ll_struct *s, const struct ll_suggestion *sg)
{
	struct ll_struct *d = ll_suggestion_layout(s, sg);
	struct ll_units lus;
	uint64_t lines[4][64] = { { 0 } }, span = 0;

	ll_collect_units(d, &lus);
	for (size_t i = 0; i < lus.n; i++) {
		const struct ll_unit *u = &lus.v[i];
		uint64_t a, b;
		int c;

		if (u->tag == LL_READ_MOSTLY)
			c = 0;
		else if (u->tag == LL_WRITE_HOT)
			c = dom_class(u->domain);
		else
			continue;
		if (!ll_member_lines(u->m, d->cacheline, &a, &b))
			continue;
		for (uint64_t l = a; l <= b && l < 64 * 64; l++)
			lines[c][l / 64] |= 1ULL << (l % 64);
	}
	ll_units_release(&lus);
	for (int c = 0; c < 4; c++)
		for (int w = 0; w < 64; w++)
			span += (uint64_t)__builtin_popcountll(lines[c][w]);
	ll_struct_free(d);
	return span;
}

static void run_random(size_t count, size_t min_units, size_t max_units, bool oracle,
		       const struct ll_suggest_opts *opts, struct stats *st)
{
	for (size_t iter = 0; iter < count; iter++) {
		struct rstruct r;
		size_t nunits = min_units + rn((unsigned)(max_units - min_units + 1));
		char ctx[64];
		double t0;

		random_struct(&r, nunits);
		snprintf(ctx, sizeof(ctx), "random struct %zu (%zu units, seed state %llx)",
			 st->structs, nunits, (unsigned long long)rng_state);
		t0 = now();
		struct ll_suggestion *sg = suggest_with(r.s, opts);

		st->solver_s += now() - t0;
		st->structs++;
		check_common(r.s, sg, ctx);
		ck_assert_uint_eq(sg->units, nunits);

		size_t k = hot_classes(r.s);

		ck_assert_msg(sg->cachelines <= sg->before_cachelines + k,
			      "%s: %llu cachelines, was %llu, %zu classes", ctx,
			      (unsigned long long)sg->cachelines,
			      (unsigned long long)sg->before_cachelines, k);
		if (!k) {
			ck_assert_uint_eq(sg->findings, 0);
			ck_assert_uint_le(sg->size, sg->before_size);
		}
		if (sg->findings == 0)
			ck_assert_uint_ge(sg->cachelines, sg->lower_bound_lines);
		st->impossible += sg->impossible;
		st->moved_units += sg->moved;
		st->changed += sg->changed;
		if (sg->cachelines > sg->before_cachelines)
			st->extra_lines++;

		if (oracle) {
			struct oracle o;

			oracle_build(&o, &r);
			o_dfs(&o, 0, 0, 0, -1, false, 0);
			st->oracle_runs++;
			if (o.found) {
				st->oracle_free++;
				oracle_verify(&o, &r);
				ck_assert_msg(sg->findings == 0, "%s: a finding-free layout exists "
					      "(%llu lines), the solver left %zu findings", ctx,
					      (unsigned long long)o.best_lines, sg->findings);
				ck_assert_msg(sg->cachelines <= o.best_lines,
					      "%s: solver %llu lines, oracle %llu", ctx,
					      (unsigned long long)sg->cachelines,
					      (unsigned long long)o.best_lines);
				uint64_t span = hot_span(r.s, sg);

				ck_assert_msg(sg->cachelines < o.best_lines || span <= o.best_span,
					      "%s: hot classes touch %llu lines in total, the oracle's "
					      "best %llu", ctx, (unsigned long long)span,
					      (unsigned long long)o.best_span);
				ck_assert_msg(sg->cachelines < o.best_lines || span < o.best_span ||
					      sg->size <= o.best_size,
					      "%s: solver %llu bytes, oracle %llu", ctx,
					      (unsigned long long)sg->size,
					      (unsigned long long)o.best_size);
				ck_assert(!sg->impossible);
			} else {
				st->oracle_impossible++;
				ck_assert_msg(sg->findings > 0, "%s: oracle finds no finding-free "
					      "layout, the solver claims one", ctx);
				ck_assert_msg(sg->impossible, "%s: not marked impossible", ctx);
			}
			free(o.memo);
			free(o.memo_span);
		}
		ll_suggestion_free(sg);
		ll_struct_free(r.s);
	}
}

/* The default solver is exhaustive up to 10 units: it must match the oracle. */
START_TEST(test_random_small_oracle)
{
	struct stats st = { 0 };
	double t0 = now();

	rng_state = SEED;
	run_random(RANDOM_STRUCTS * 7 / 10, 1, 8, true, NULL, &st);
	ck_assert_uint_eq(st.oracle_runs, RANDOM_STRUCTS * 7 / 10);
	printf("# oracle: %zu random structs of 1-8 units: %zu with a finding-free layout "
	       "(solver found one, with the oracle's cachelines, hot-class lines and bytes), %zu without "
	       "(solver marked all impossible); %zu changed, %zu units moved; "
	       "solver %.2f s, total %.2f s\n", st.structs, st.oracle_free, st.oracle_impossible,
	       st.changed, st.moved_units, st.solver_s, now() - t0);
}
END_TEST

/* Larger structs, beam search: the invariants, at a narrow beam to stay fast. */
START_TEST(test_random_large)
{
	struct stats st = { 0 };
	struct ll_suggest_opts o = { .beam = 32, .exact_units = 8 };
	double t0 = now();

	rng_state = SEED ^ 0x55aa55aa55aa55aaULL;
	run_random(RANDOM_STRUCTS * 3 / 10, 9, 20, false, &o, &st);
	printf("# properties: %zu random structs of 9-20 units (beam 32): %zu impossible, "
	       "%zu changed, %zu grew a line; solver %.2f s, total %.2f s\n", st.structs,
	       st.impossible, st.changed, st.extra_lines, st.solver_s, now() - t0);
}
END_TEST

/* And some with the default options (exhaustive up to 10 units, wider beam above). */
START_TEST(test_random_large_default)
{
	struct stats st = { 0 };
	double t0 = now();

	rng_state = SEED ^ 0x0123456789abcdefULL;
	run_random(RANDOM_STRUCTS / 100, 9, 24, false, NULL, &st);
	printf("# properties: %zu random structs of 9-24 units (defaults): %zu impossible, "
	       "%zu changed, %zu grew a line; solver %.2f s, total %.2f s\n", st.structs,
	       st.impossible, st.changed, st.extra_lines, st.solver_s, now() - t0);
}
END_TEST

/* ---- compile proof: gcc lays the proposals out exactly as they say ------------ */

static const char *c_int(uint64_t size)
{
	return size == 1 ? "char" : size == 2 ? "short" : size == 4 ? "int" : "long";
}

/* A C declaration of M under NAME with M's size and alignment. */
static void c_member(struct strbuf *out, const struct ll_member *m, const char *name)
{
	if (m->is_bitfield) {
		sb_addf(out, "unsigned %s %s : %llu;", c_int(m->size), name,
			(unsigned long long)m->bit_size);
		return;
	}
	if (m->alignment > 8 || m->explicit_align)
		sb_addf(out, "_Alignas(%llu) ", (unsigned long long)m->alignment);
	if (!m->size) {
		sb_addf(out, "long %s[];", name);
		return;
	}
	uint64_t e = m->alignment > 8 ? 8 : m->alignment;

	while (m->size % e)
		e /= 2;
	if (e == m->size)
		sb_addf(out, "%s %s;", c_int(e), name);
	else
		sb_addf(out, "%s %s[%llu];", c_int(e), name, (unsigned long long)(m->size / e));
}

struct emit_ctx {
	const struct ll_suggestion *sg;
	struct strbuf *out, *asserts, *runtime;
	const char *tag;
	unsigned pads;
};

static void emit_children(struct emit_ctx *c, const struct ll_member *v, size_t n,
			  const char *prefix);

static void emit_aggregate_member(struct emit_ctx *c, const struct ll_member *m, const char *name,
				  const char *prefix)
{
	if (!m->is_aggregate) {
		c_member(c->out, m, name);
		return;
	}
	sb_addf(c->out, "%s { ", m->agg_kind == LL_UNION ? "union" : "struct");
	emit_children(c, m->children, m->nr_children, m->name ? prefix : NULL);
	sb_addf(c->out, "} %s;", m->name ? name : "");
}

/* Children of a nested aggregate as declared in the input (their layout is theirs). */
static void emit_children(struct emit_ctx *c, const struct ll_member *v, size_t n,
			  const char *prefix)
{
	(void)prefix;
	for (size_t i = 0; i < n; i++) {
		emit_aggregate_member(c, &v[i], v[i].name ? v[i].name : "", NULL);
		sb_addc(c->out, ' ');
	}
}

/* A level of the proposal, in its new order, with the pads it declares. */
static void emit_level(struct emit_ctx *c, const struct ll_member *container)
{
	for (size_t i = 0; i < c->sg->n; i++) {
		const struct ll_suggested_member *sm = &c->sg->members[i];
		const struct ll_member *m = sm->m;
		bool is_container = false;

		if (sm->container != container)
			continue;
		if (sm->pad_before)
			sb_addf(c->out, "char __pad%u[%llu]; ", c->pads++,
				(unsigned long long)sm->pad_before);
		for (size_t j = 0; j < c->sg->n; j++)
			is_container |= c->sg->members[j].container == m;
		if (is_container) {
			sb_adds(c->out, "struct { ");
			emit_level(c, m);
			sb_adds(c->out, "}; ");
		} else {
			emit_aggregate_member(c, m, m->name ? m->name : "", m->path);
			sb_addc(c->out, ' ');
		}
		if (m->path && !m->is_bitfield)
			sb_addf(c->asserts, "_Static_assert(offsetof(struct %s, %s) == %llu, \"%s\");\n",
				c->tag, m->path, (unsigned long long)sm->offset, m->path);
		if (m->path && m->is_bitfield)
			sb_addf(c->runtime, "\t{ struct %s t; memset(&t, 0, sizeof(t)); t.%s = -1; "
				"bad += !only_bits(&t, sizeof(t), %llu, %llu, \"%s.%s\"); }\n", c->tag,
				m->path, (unsigned long long)sm->bit_offset,
				(unsigned long long)m->bit_size, c->tag, m->path);
	}
}

static void emit_proof(struct strbuf *out, struct strbuf *runtime, const struct ll_struct *s,
		       const struct ll_suggestion *sg, const char *tag)
{
	struct strbuf asserts = STRBUF_INIT;
	struct emit_ctx c = { sg, out, &asserts, runtime, tag, 0 };

	sb_addf(out, "struct %s { ", tag);
	emit_level(&c, NULL);
	sb_adds(out, "};\n");
	sb_addf(out, "_Static_assert(sizeof(struct %s) == %llu, \"size\");\n", tag,
		(unsigned long long)sg->size);
	(void)s;
	sb_add(out, asserts.buf ? asserts.buf : "", asserts.len);
	sb_release(&asserts);
}

/* The original struct too, so the generator's idea of C is checked as well. */
static void emit_original_proof(struct strbuf *out, struct strbuf *runtime,
				const struct ll_struct *s, const char *tag)
{
	struct ll_suggestion sg;
	struct ll_suggested_member *v = NULL;
	size_t n = 0;

	/* Describe the input as a "suggestion" that changes nothing. */
	memset(&sg, 0, sizeof(sg));
	for (size_t i = 0; i < s->nr_members; i++) {
		const struct ll_member *m = &s->members[i];
		bool wrap = m->is_aggregate && !m->name && m->agg_kind == LL_STRUCT;

		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (struct ll_suggested_member){ .m = m, .offset = m->offset,
						       .bit_offset = m->bit_offset, .size = m->size };
		for (size_t j = 0; wrap && j < m->nr_children; j++) {
			const struct ll_member *c = &m->children[j];

			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = (struct ll_suggested_member){ .m = c, .container = m,
							       .offset = c->offset,
							       .bit_offset = c->bit_offset,
							       .size = c->size };
		}
	}
	sg.members = v;
	sg.n = n;
	sg.size = s->size;
	emit_proof(out, runtime, s, &sg, tag);
	free(v);
}

/*
 * Every proposal (and its input) as C: _Static_assert on every offset and
 * size; bitfields, which offsetof cannot name, are set to all ones at run
 * time and must cover exactly the bits the proposal says.
 */
START_TEST(test_compile_proof)
{
	struct strbuf src = STRBUF_INIT, runtime = STRBUF_INIT;
	const char *cc = getenv("CC") ? getenv("CC") : "cc";
	char path[] = "/tmp/ll_suggest_proofXXXXXX";
	size_t count = 400;
	int fd, rc;

	sb_adds(&src, "#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n"
		"static int only_bits(const void *v, size_t n, size_t b, size_t w, const char *what)\n"
		"{\n\tconst unsigned char *p = v;\n\n\tfor (size_t i = 0; i < n * 8; i++) {\n"
		"\t\tint want = i >= b && i < b + w, got = p[i / 8] >> (i % 8) & 1;\n\n"
		"\t\tif (want != got) {\n\t\t\tprintf(\"%s: bit %zu is %d\\n\", what, i, got);\n"
		"\t\t\treturn 0;\n\t\t}\n\t}\n\treturn 1;\n}\n");
	rng_state = SEED ^ 0xc0ffeeULL;
	for (size_t i = 0; i < count; i++) {
		struct rstruct r;
		char tag[32];

		random_struct(&r, 1 + rn(16));
		struct ll_suggestion *sg = suggest(r.s);

		snprintf(tag, sizeof(tag), "orig%zu", i);
		emit_original_proof(&src, &runtime, r.s, tag);
		snprintf(tag, sizeof(tag), "sugg%zu", i);
		emit_proof(&src, &runtime, r.s, sg, tag);
		ll_suggestion_free(sg);
		ll_struct_free(r.s);
	}
	sb_adds(&src, "int main(void)\n{\n\tint bad = 0;\n\n");
	sb_add(&src, runtime.buf ? runtime.buf : "", runtime.len);
	sb_adds(&src, "\treturn bad != 0;\n}\n");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, src.buf, src.len), (ssize_t)src.len);
	close(fd);

	char *cmd = fmt("%s -std=c11 -w -x c -o %s.bin %s 2>&1 && %s.bin 2>&1; echo \"rc=$?\"", cc,
			path, path, path);
	FILE *p = popen(cmd, "r");
	char buf[4096];
	size_t got = p ? fread(buf, 1, sizeof(buf) - 1, p) : 0;

	buf[got] = '\0';
	rc = p ? pclose(p) : -1;
	free(cmd);
	if (got > 600)
		strcpy(buf + 580, "\n[...]\n");	/* Check caps message sizes */
	if (strstr(buf, "not found")) {
		printf("# compile proof skipped: no C compiler (%s)\n", cc);
	} else {
		ck_assert_msg(rc == 0 && strcmp(buf, "rc=0\n") == 0,
			      "%s disagrees with the proposals (%s):\n%s", cc, path, buf);
		printf("# compile proof: %s lays out %zu proposals and their inputs as they say "
		       "(offsets and sizes _Static_assert-ed, bitfields checked bit by bit)\n",
		       cc, count);
		char *bin = fmt("%s.bin", path);

		unlink(bin);
		free(bin);
		unlink(path);
	}
	sb_release(&runtime);
	sb_release(&src);
}
END_TEST

/* ---- the smallest fix (ll_suggest_fix) ------------------------------------ */

/*
 * Gating's rule, restated for the tests: a finding is new when it has a
 * (rule, pair) none of the reference's findings has. Pairs match unordered.
 */
struct ref_pairs {
	struct ll_findings f;
};

static bool same(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static bool pair_in(const struct ll_findings *ref, const char *rule, const char *a, const char *b)
{
	for (size_t i = 0; i < ref->n; i++) {
		if (strcmp(ref->v[i].rule, rule))
			continue;
		for (size_t p = 0; p < ref->v[i].nr_pairs; p++) {
			const struct ll_pair *q = &ref->v[i].pairs[p];

			if ((same(q->a, a) && same(q->b, b)) || (same(q->a, b) && same(q->b, a)))
				return true;
		}
	}
	return false;
}

static bool new_vs_ref(const struct ll_struct *s, const struct ll_finding *f, void *arg)
{
	const struct ref_pairs *r = arg;

	(void)s;
	if (!f->nr_pairs)
		return true;
	for (size_t p = 0; p < f->nr_pairs; p++)
		if (!pair_in(&r->f, f->rule, f->pairs[p].a, f->pairs[p].b))
			return true;
	return false;
}

static struct ll_suggestion *fix_of(const struct ll_struct *cur, const struct ll_struct *ref,
				    struct ref_pairs *rp)
{
	struct ll_check_input in = { .s = ref };
	struct ll_suggest_opts o = { 0 };
	struct ll_fix_ref fr = { .ref = ref, .is_new = new_vs_ref, .arg = rp };
	struct ll_suggestion *sg = NULL;
	struct ll_error err;

	memset(&err, 0, sizeof(err));
	memset(rp, 0, sizeof(*rp));
	ll_check(&in, &rp->f);
	ck_assert_msg(ll_suggest_fix(cur, &o, &fr, &sg, &err) == 0, "ll_suggest_fix: %s", err.msg);
	ck_assert(sg->smallest_fix);
	return sg;
}

/*
 * Line 0: three read-mostly pointers and five cold longs; line 1: two
 * write-hot counters. MOVE_HITS: hits declared after name instead (the
 * f_pos move). LOCK: a write-hot lock on line 0 in every version, a finding
 * the reference already has. EXTRA: an untagged member added after table.
 */
static struct ll_struct *fixture(bool move_hits, bool lock, bool extra)
{
	struct ll_member v[16];
	size_t n = 0;

	v[n++] = leaf("ops", "const void *", 8, 8);
	v[n++] = leaf("name", "const char *", 8, 8);
	if (move_hits)
		v[n++] = leaf("hits", "long", 8, 8);
	v[n++] = leaf("table", "const void *", 8, 8);
	if (extra)
		v[n++] = leaf("extra", "long", 8, 8);
	v[n++] = leaf(lock ? "lock" : "c0", "long", 8, 8);
	v[n++] = leaf("c1", "long", 8, 8);
	v[n++] = leaf("c2", "long", 8, 8);
	v[n++] = leaf("c3", "long", 8, 8);
	v[n++] = leaf("c4", "long", 8, 8);
	if (!move_hits)
		v[n++] = leaf("hits", "long", 8, 8);
	v[n++] = leaf("refs", "long", 8, 8);
	v[n++] = leaf("c5", "long", 8, 8);

	struct ll_struct *s = new_struct("fx", 64, v, n);

	tag(M(s, "ops"), LL_READ_MOSTLY, NULL);
	tag(M(s, "name"), LL_READ_MOSTLY, NULL);
	tag(M(s, "table"), LL_READ_MOSTLY, NULL);
	tag(M(s, "hits"), LL_WRITE_HOT, NULL);
	tag(M(s, "refs"), LL_WRITE_HOT, NULL);
	if (lock)
		tag(M(s, "lock"), LL_WRITE_HOT, NULL);
	return s;
}

static size_t moved_members(const struct ll_suggestion *sg, const char **which)
{
	size_t n = 0;

	for (size_t i = 0; i < sg->n; i++)
		if (sg->members[i].moved) {
			*which = sg->members[i].m->path;
			n++;
		}
	return n;
}

START_TEST(test_fix_puts_back_one)
{
	struct ll_struct *ref = fixture(false, false, false), *cur = fixture(true, false, false);
	struct ref_pairs rp;
	struct ll_suggestion *sg = fix_of(cur, ref, &rp), *whole = suggest(cur);
	const char *which = NULL;

	ck_assert(sg->fix_found);
	ck_assert_uint_ge(sg->new_before, 1);
	ck_assert_uint_eq(sg->new_after, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(sg->moved, 1);
	ck_assert_uint_eq(moved_members(sg, &which), 1);
	ck_assert_str_eq(which, "hits");
	/* Every member back at its reference offset. */
	for (size_t i = 0; i < ref->nr_members; i++)
		ck_assert_uint_eq(E(sg, ref->members[i].path)->offset, ref->members[i].offset);
	ck_assert_uint_eq(sg->nr_left, 0);
	check_common(cur, sg, "fix: puts back one");
	/* The re-layout is another answer: the smallest fix is not it by accident. */
	ck_assert(whole->changed);
	ll_suggestion_free(whole);
	ll_findings_release(&rp.f);
	ll_suggestion_free(sg);
	ll_struct_free(cur);
	ll_struct_free(ref);
}
END_TEST

START_TEST(test_fix_leaves_reference_finding)
{
	struct ll_struct *ref = fixture(false, true, false), *cur = fixture(true, true, false);
	struct ref_pairs rp;
	struct ll_suggestion *sg = fix_of(cur, ref, &rp);
	const char *which = NULL;

	ck_assert_uint_eq(findings_of(ref), 1);	/* lock with ops, name, table on line 0 */
	ck_assert(sg->fix_found);
	ck_assert_uint_eq(sg->new_after, 0);
	ck_assert_uint_eq(moved_members(sg, &which), 1);
	ck_assert_str_eq(which, "hits");
	/* What the fix leaves: the reference's own finding, named. */
	ck_assert_uint_eq(sg->findings, 1);
	ck_assert_uint_eq(sg->nr_left, 1);
	ck_assert_msg(strstr(sg->left[0], "lock"), "left: %s", sg->left[0]);
	ll_findings_release(&rp.f);
	ll_suggestion_free(sg);
	ll_struct_free(cur);
	ll_struct_free(ref);
}
END_TEST

START_TEST(test_fix_nothing_new)
{
	struct ll_struct *ref = fixture(false, true, false), *cur = fixture(false, true, false);
	struct ref_pairs rp;
	struct ll_suggestion *sg = fix_of(cur, ref, &rp);

	ck_assert(sg->fix_found);
	ck_assert_uint_eq(sg->new_before, 0);
	ck_assert(!sg->changed);
	ck_assert_uint_eq(sg->moved, 0);
	ck_assert_uint_eq(sg->nr_left, 1);
	ll_findings_release(&rp.f);
	ll_suggestion_free(sg);
	ll_struct_free(cur);
	ll_struct_free(ref);
}
END_TEST

START_TEST(test_fix_added_member_stays)
{
	struct ll_struct *ref = fixture(false, false, false), *cur = fixture(true, false, true);
	struct ref_pairs rp;
	struct ll_suggestion *sg = fix_of(cur, ref, &rp);
	const char *which = NULL;

	ck_assert(sg->fix_found);
	ck_assert_uint_eq(sg->new_after, 0);
	ck_assert_uint_eq(moved_members(sg, &which), 1);
	ck_assert_str_eq(which, "hits");
	/* extra stays where the change added it: right after table. */
	ck_assert_uint_eq(E(sg, "extra")->offset, E(sg, "table")->offset + 8);
	ll_findings_release(&rp.f);
	ll_suggestion_free(sg);
	ll_struct_free(cur);
	ll_struct_free(ref);
}
END_TEST

START_TEST(test_fix_moves_added_member)
{
	/*
	 * The new finding comes from a member the change added (hot2 after
	 * name, write-hot): nothing to put back, so one member moves, the
	 * same one every time.
	 */
	struct ll_struct *ref = fixture(false, false, false);
	struct ll_member v[16];
	size_t n = 0;

	v[n++] = leaf("ops", "const void *", 8, 8);
	v[n++] = leaf("name", "const char *", 8, 8);
	v[n++] = leaf("hot2", "long", 8, 8);
	v[n++] = leaf("table", "const void *", 8, 8);
	v[n++] = leaf("c0", "long", 8, 8);
	v[n++] = leaf("c1", "long", 8, 8);
	v[n++] = leaf("c2", "long", 8, 8);
	v[n++] = leaf("c3", "long", 8, 8);
	v[n++] = leaf("c4", "long", 8, 8);
	v[n++] = leaf("hits", "long", 8, 8);
	v[n++] = leaf("refs", "long", 8, 8);
	v[n++] = leaf("c5", "long", 8, 8);
	struct ll_struct *cur = new_struct("fx", 64, v, n);

	tag(M(cur, "ops"), LL_READ_MOSTLY, NULL);
	tag(M(cur, "name"), LL_READ_MOSTLY, NULL);
	tag(M(cur, "table"), LL_READ_MOSTLY, NULL);
	tag(M(cur, "hits"), LL_WRITE_HOT, NULL);
	tag(M(cur, "refs"), LL_WRITE_HOT, NULL);
	tag(M(cur, "hot2"), LL_WRITE_HOT, NULL);

	struct ref_pairs rp, rp2;
	struct ll_suggestion *sg = fix_of(cur, ref, &rp), *again = fix_of(cur, ref, &rp2);
	const char *which = NULL, *which2 = NULL;

	ck_assert(sg->fix_found);
	ck_assert_uint_ge(sg->new_before, 1);
	ck_assert_uint_eq(sg->new_after, 0);
	ck_assert_uint_eq(sg->findings, 0);
	ck_assert_uint_eq(moved_members(sg, &which), 1);
	ck_assert_uint_eq(moved_members(again, &which2), 1);
	ck_assert_str_eq(which, which2);
	ck_assert_uint_eq(E(sg, which)->offset, E(again, which2)->offset);
	check_common(cur, sg, "fix: moves an added member");
	ll_findings_release(&rp.f);
	ll_findings_release(&rp2.f);
	ll_suggestion_free(sg);
	ll_suggestion_free(again);
	ll_struct_free(cur);
	ll_struct_free(ref);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("suggest");
	TCase *fixed = tcase_create("fixed");
	TCase *random = tcase_create("random");

	tcase_add_test(fixed, test_struct_file);
	tcase_add_test(fixed, test_no_tags_packs);
	tcase_add_test(fixed, test_already_good);
	tcase_add_test(fixed, test_keeps_order_when_free);
	tcase_add_test(fixed, test_line_start_note);
	tcase_add_test(fixed, test_fewest_moved_lines);
	tcase_add_test(fixed, test_pin_last);
	tcase_add_test(fixed, test_bitfield_unit_impossible);
	tcase_add_test(fixed, test_union_alternatives_impossible);
	tcase_add_test(fixed, test_pins_and_alignment);
	tcase_add_test(fixed, test_anonymous_struct_level);
	tcase_add_test(fixed, test_groups_stay_whole);
	tcase_add_test(fixed, test_union_top_level);
	tcase_add_test(fixed, test_allow_honoured);
	tcase_add_test(fixed, test_domains_split);
	tcase_add_test(fixed, test_split_hot_fixed);
	tcase_add_test(fixed, test_fix_puts_back_one);
	tcase_add_test(fixed, test_fix_leaves_reference_finding);
	tcase_add_test(fixed, test_fix_nothing_new);
	tcase_add_test(fixed, test_fix_added_member_stays);
	tcase_add_test(fixed, test_fix_moves_added_member);
	tcase_set_timeout(random, 300);
	tcase_add_test(random, test_random_small_oracle);
	tcase_add_test(random, test_random_large);
	tcase_add_test(random, test_random_large_default);
	tcase_add_test(random, test_compile_proof);
	suite_add_tcase(s, fixed);
	suite_add_tcase(s, random);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
