// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for kernel cacheline groups (groups.h) on hand-built models,
 * and for the net_cachelines importer (import_rst.h) on table texts.
 *
 * Build this without core_dep's include directory: with -I src, <check.h>
 * would find src/check.h instead of the Check framework. Our headers are
 * included by relative path, and they include each other with quotes.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/checks/checks.h"
#include "../../src/checks/groups.h"
#include "../../src/rules/import_rst.h"
#include "../../src/model/layout.h"
#include "../../src/report/describe.h"
#include "../../src/rules/rules.h"
#include "../../src/util/strbuf.h"

/* ---- model builders -------------------------------------------------------- */

static struct ll_struct *gb_struct(const char *name, uint64_t size, unsigned cacheline)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));

	s->kind = LL_STRUCT;
	s->name = xstrdup(name);
	s->size = size;
	s->alignment = 8;
	s->cacheline = cacheline;
	s->decl.file = xstrdup("include/linux/fixture.h");
	s->decl.line = 1;
	return s;
}

static unsigned next_line = 10;

static struct ll_member *gb_push(struct ll_member **v, size_t *n, const char *prefix,
				 const char *name, const char *type, uint64_t offset, uint64_t size)
{
	struct ll_member *m;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	m = &(*v)[(*n)++];
	memset(m, 0, sizeof(*m));
	if (name) {
		struct strbuf path = STRBUF_INIT;

		m->name = xstrdup(name);
		sb_addf(&path, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", name);
		m->path = sb_detach(&path);
	}
	m->type = xstrdup(type);
	m->offset = offset;
	m->size = size;
	m->alignment = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
	m->decl.file = xstrdup("include/linux/fixture.h");
	m->decl.line = next_line++;
	m->decl.column = 2;
	return m;
}

static struct ll_member *add(struct ll_struct *s, const char *name, uint64_t offset,
			     uint64_t size)
{
	return gb_push(&s->members, &s->nr_members, NULL, name, "long", offset, size);
}

static struct ll_member *marker(struct ll_member **v, size_t *n, const char *kind,
				const char *group, uint64_t offset)
{
	char name[256];

	snprintf(name, sizeof(name), "__cacheline_group_%s__%s", kind, group);
	return gb_push(v, n, NULL, name, "__u8[0]", offset, 0);
}

static struct ll_member *smarker(struct ll_struct *s, const char *kind, const char *group,
				 uint64_t offset)
{
	return marker(&s->members, &s->nr_members, kind, group, offset);
}

static struct ll_member *find(struct ll_member *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		struct ll_member *r;

		if (v[i].path && strcmp(v[i].path, path) == 0)
			return &v[i];
		r = find(v[i].children, v[i].nr_children, path);
		if (r)
			return r;
	}
	return NULL;
}

static struct ll_member *member(struct ll_struct *s, const char *path)
{
	struct ll_member *m = find(s->members, s->nr_members, path);

	ck_assert_msg(m, "no member %s", path);
	return m;
}

/*
 * The tcp_sock shape: read_tx unaligned across a line boundary, write_rx
 * next to it, a member outside every group, a span-only group.
 *	0	head[40]
 *	40	begin read_tx; r1 40, r2 48, r3 56, r4 64 (4 bytes); end 68
 *	68	begin write_rx; w1 68 (4), w2 72; end 80
 *	80	cold1
 *	88	begin hot; buf 88 (100 bytes); end 188
 *	188	tail (4)
 */
static struct ll_struct *basic(void)
{
	struct ll_struct *s = gb_struct("grp_basic", 192, 64);

	add(s, "head", 0, 40);
	smarker(s, "begin", "grp_basic_read_tx", 40);
	add(s, "r1", 40, 8);
	add(s, "r2", 48, 8);
	add(s, "r3", 56, 8);
	add(s, "r4", 64, 4);
	smarker(s, "end", "grp_basic_read_tx", 68);
	smarker(s, "begin", "grp_basic_write_rx", 68);
	add(s, "w1", 68, 4);
	add(s, "w2", 72, 8);
	smarker(s, "end", "grp_basic_write_rx", 80);
	add(s, "cold1", 80, 8);
	smarker(s, "begin", "grp_basic_hot", 88);
	add(s, "buf", 88, 100);
	smarker(s, "end", "grp_basic_hot", 188);
	add(s, "tail", 188, 4);
	return s;
}

static const struct ll_group *group(const struct ll_groups *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->v[i].name, name) == 0)
			return &g->v[i];
	ck_abort_msg("no group %s", name);
	return NULL;
}

static size_t count_rule(const struct ll_findings *f, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += strcmp(f->v[i].rule, rule) == 0;
	return n;
}

static const struct ll_finding *finding_of(const struct ll_findings *f, const char *rule,
					   const char *member_path)
{
	for (size_t i = 0; i < f->n; i++) {
		if (strcmp(f->v[i].rule, rule) != 0)
			continue;
		for (size_t k = 0; k < f->v[i].nr_members; k++)
			if (strcmp(f->v[i].members[k], member_path) == 0)
				return &f->v[i];
	}
	return NULL;
}

/* ---- group names ------------------------------------------------------------- */

static void name_is(const char *name, enum ll_tag tag, const char *domain)
{
	char *d = NULL;
	enum ll_tag t = ll_group_name_tag(name, &d);

	ck_assert_msg(t == tag, "%s: tag %s, expected %s", name, ll_tag_name(t), ll_tag_name(tag));
	if (domain)
		ck_assert_msg(d && strcmp(d, domain) == 0, "%s: domain %s, expected %s", name,
			      d ? d : "(null)", domain);
	else
		ck_assert_msg(!d, "%s: domain %s, expected none", name, d);
	free(d);
}

START_TEST(test_name_tokens)
{
	/* A read group's domain is its fast paths, when it names some. */
	name_is("tcp_sock_read_tx", LL_READ_MOSTLY, "tx");
	name_is("net_device_read_txrx", LL_READ_MOSTLY, "txrx");
	name_is("netns_ipv4_read_rx", LL_READ_MOSTLY, "rx");
	name_is("foo_read_slow_path", LL_READ_MOSTLY, NULL);
	name_is("tcp_sock_write_rx", LL_WRITE_HOT, "rx");
	name_is("tcp_sock_write_txrx", LL_WRITE_HOT, "txrx");
	name_is("sock_write_rxtx", LL_WRITE_HOT, "rxtx");
	name_is("foo_write_slow_path", LL_WRITE_HOT, "slow_path");
	/* libeth's groups: the last read/write token decides. */
	name_is("read_mostly", LL_READ_MOSTLY, NULL);
	name_is("read_write", LL_WRITE_HOT, NULL);
	name_is("writeback_ctl_read_tx", LL_READ_MOSTLY, "tx");
	/* Span only: no token, or the word only inside a token. */
	name_is("icmp", LL_UNTAGGED, NULL);
	name_is("frag", LL_UNTAGGED, NULL);
	name_is("reader_writer", LL_UNTAGGED, NULL);
	name_is("x_write", LL_WRITE_HOT, NULL);
	name_is("x_write_", LL_WRITE_HOT, NULL);
}
END_TEST

/* ---- finding groups ------------------------------------------------------------ */

START_TEST(test_find_basic)
{
	struct ll_struct *s = basic();
	struct ll_groups g;
	const struct ll_group *x;

	ck_assert_uint_eq(ll_find_groups(s, &g), 3);
	ck_assert_str_eq(g.v[0].name, "grp_basic_read_tx");
	ck_assert_str_eq(g.v[1].name, "grp_basic_write_rx");
	ck_assert_str_eq(g.v[2].name, "grp_basic_hot");

	x = group(&g, "grp_basic_read_tx");
	ck_assert_uint_eq(x->begin_offset, 40);
	ck_assert_uint_eq(x->end_offset, 68);
	ck_assert_uint_eq(x->first_line, 0);
	ck_assert_uint_eq(x->last_line, 1);
	ck_assert_uint_eq(x->nr_lines, 2);
	ck_assert_uint_eq(x->min_lines, 1);
	ck_assert_int_eq(x->tag, LL_READ_MOSTLY);
	ck_assert_str_eq(x->domain, "tx");
	ck_assert(!x->aligned);
	ck_assert_ptr_null(x->pad);
	ck_assert_uint_eq(x->nr_members, 4);
	ck_assert_str_eq(x->members[0]->path, "r1");
	ck_assert_str_eq(x->members[3]->path, "r4");
	ck_assert_str_eq(x->tag_origin, "group grp_basic_read_tx");
	ck_assert_str_eq(x->begin->path, "__cacheline_group_begin__grp_basic_read_tx");
	ck_assert_str_eq(x->end->path, "__cacheline_group_end__grp_basic_read_tx");

	x = group(&g, "grp_basic_write_rx");
	ck_assert_int_eq(x->tag, LL_WRITE_HOT);
	ck_assert_str_eq(x->domain, "rx");
	ck_assert_uint_eq(x->nr_lines, 1);
	ck_assert_uint_eq(x->min_lines, 1);
	ck_assert_uint_eq(x->nr_members, 2);

	x = group(&g, "grp_basic_hot");
	ck_assert_int_eq(x->tag, LL_UNTAGGED);
	ck_assert_uint_eq(x->first_line, 1);
	ck_assert_uint_eq(x->last_line, 2);
	ck_assert_uint_eq(x->nr_lines, 2);
	ck_assert_uint_eq(x->min_lines, 2);
	ll_groups_release(&g);
	ck_assert_uint_eq(g.n, 0);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_find_aligned)
{
	struct ll_struct *s = gb_struct("grp_aligned", 256, 64);
	struct ll_groups g;
	struct ll_member *m;

	add(s, "a", 0, 4);
	m = smarker(s, "begin", "grp_aligned_write_tx", 64);
	m->explicit_align = true;
	m->alignment = 64;
	add(s, "x", 64, 8);
	add(s, "y", 72, 8);
	m = smarker(s, "end", "grp_aligned_write_tx", 80);
	m->explicit_align = true;
	m->alignment = 8;
	m = gb_push(&s->members, &s->nr_members, NULL, "__cacheline_group_pad__grp_aligned_write_tx",
		    "struct {...}", 128, 0);
	m->is_aggregate = true;
	add(s, "b", 128, 8);
	m = smarker(s, "begin", "grp_aligned_read_rx", 160);
	m->explicit_align = true;
	m->alignment = 32;
	add(s, "r", 160, 48);
	smarker(s, "end", "grp_aligned_read_rx", 208);
	gb_push(&s->members, &s->nr_members, NULL, "__cacheline_group_pad__grp_aligned_read_rx",
		"struct {...}", 224, 0)->is_aggregate = true;
	add(s, "c", 224, 4);

	ck_assert_uint_eq(ll_find_groups(s, &g), 2);
	ck_assert(g.v[0].aligned);
	ck_assert_uint_eq(g.v[0].alignment, 64);
	ck_assert_ptr_nonnull(g.v[0].pad);
	ck_assert_str_eq(g.v[0].pad->name, "__cacheline_group_pad__grp_aligned_write_tx");
	ck_assert_uint_eq(g.v[0].nr_members, 2);	/* the pad is no member */
	ck_assert_uint_eq(g.v[0].nr_lines, 1);
	ck_assert_uint_eq(g.v[0].min_lines, 1);
	ck_assert(g.v[1].aligned);
	ck_assert_uint_eq(g.v[1].alignment, 32);
	ck_assert_uint_eq(g.v[1].first_line, 2);
	ck_assert_uint_eq(g.v[1].last_line, 3);
	ck_assert_uint_eq(g.v[1].nr_lines, 2);
	ck_assert_uint_eq(g.v[1].min_lines, 1);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_find_nesting)
{
	struct ll_struct *s = gb_struct("grp_nested", 64, 64);
	struct ll_member *anon, *named;
	struct ll_groups g;

	add(s, "n0", 0, 8);
	/* struct { begin; n1; union { n2; n3; }; end; }; -- anonymous: S's own */
	anon = add(s, NULL, 8, 16);
	anon->type = (free(anon->type), xstrdup("struct {...}"));
	anon->is_aggregate = true;
	marker(&anon->children, &anon->nr_children, "begin", "grp_nested_read_rx", 8);
	gb_push(&anon->children, &anon->nr_children, NULL, "n1", "long", 8, 8);
	struct ll_member *u = gb_push(&anon->children, &anon->nr_children, NULL, NULL,
				      "union {...}", 16, 8);

	u->is_aggregate = true;
	u->agg_kind = LL_UNION;
	gb_push(&u->children, &u->nr_children, NULL, "n2", "long", 16, 8);
	gb_push(&u->children, &u->nr_children, NULL, "n3", "int", 16, 4);
	marker(&anon->children, &anon->nr_children, "end", "grp_nested_read_rx", 24);
	/* struct grp_inner inner; -- named: its markers belong to its type */
	named = add(s, "inner", 24, 16);
	named->is_aggregate = true;
	gb_push(&named->children, &named->nr_children, "inner", "i0", "long", 24, 8);
	marker(&named->children, &named->nr_children, "begin", "grp_inner_write_tx", 32);
	gb_push(&named->children, &named->nr_children, "inner", "i1", "long", 32, 8);
	marker(&named->children, &named->nr_children, "end", "grp_inner_write_tx", 40);
	/* A begin marker without end, and an end marker without begin. */
	smarker(s, "begin", "lonely_read_tx", 40);
	add(s, "n4", 40, 8);
	smarker(s, "end", "other_write_rx", 48);

	ck_assert_uint_eq(ll_find_groups(s, &g), 1);
	ck_assert_str_eq(g.v[0].name, "grp_nested_read_rx");
	ck_assert_uint_eq(g.v[0].begin_offset, 8);
	ck_assert_uint_eq(g.v[0].end_offset, 24);
	/* Anonymous aggregates are expanded: n1, n2, n3. */
	ck_assert_uint_eq(g.v[0].nr_members, 3);
	ck_assert_str_eq(g.v[0].members[0]->path, "n1");
	ck_assert_str_eq(g.v[0].members[1]->path, "n2");
	ck_assert_str_eq(g.v[0].members[2]->path, "n3");

	/* The listing names markers, paired or not. */
	struct strbuf sb = STRBUF_INIT;

	ll_groups_marker_note(&g, member(s, "__cacheline_group_begin__lonely_read_tx"), &sb);
	ck_assert_str_eq(sb.buf, " begin of group lonely_read_tx, which has no end marker");
	sb_reset(&sb);
	ll_groups_marker_note(&g, member(s, "__cacheline_group_end__other_write_rx"), &sb);
	ck_assert_str_eq(sb.buf, " end of group other_write_rx, which has no begin marker");
	sb_reset(&sb);
	ll_groups_marker_note(&g, member(s, "n4"), &sb);
	ck_assert_uint_eq(sb.len, 0);
	sb_release(&sb);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_find_same_name_twice)
{
	/* Two groups of one name pair up in order; an empty group has no lines. */
	struct ll_struct *s = gb_struct("twice", 64, 64);
	struct ll_groups g;

	smarker(s, "begin", "g_read_tx", 0);
	add(s, "a", 0, 8);
	smarker(s, "end", "g_read_tx", 8);
	smarker(s, "begin", "g_read_tx", 8);
	smarker(s, "end", "g_read_tx", 8);
	ck_assert_uint_eq(ll_find_groups(s, &g), 2);
	ck_assert_uint_eq(g.v[0].end_offset, 8);
	ck_assert_uint_eq(g.v[0].nr_members, 1);
	ck_assert_uint_eq(g.v[1].begin_offset, 8);
	ck_assert_uint_eq(g.v[1].nr_lines, 0);
	ck_assert_uint_eq(g.v[1].min_lines, 0);
	ck_assert_uint_eq(g.v[1].nr_members, 0);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_geometry_128)
{
	struct ll_struct *s = basic();
	struct ll_groups g;

	s->cacheline = 128;
	ll_find_groups(s, &g);
	ck_assert_uint_eq(group(&g, "grp_basic_read_tx")->nr_lines, 1);
	ck_assert_uint_eq(group(&g, "grp_basic_hot")->first_line, 0);
	ck_assert_uint_eq(group(&g, "grp_basic_hot")->last_line, 1);
	ck_assert_uint_eq(group(&g, "grp_basic_hot")->nr_lines, 2);
	ck_assert_uint_eq(group(&g, "grp_basic_hot")->min_lines, 1);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

/* ---- tags -------------------------------------------------------------------------- */

START_TEST(test_apply_tags)
{
	struct ll_struct *s = basic();
	struct ll_groups g;
	struct ll_member *r2 = member(s, "r2");
	struct ll_units u;

	/* The rules tagged r2 (line 7 of some file): they win. */
	r2->tag = LL_COLD;
	r2->tag_rule_line = 7;
	r2->tag_rule_file = "net.rules";
	ll_find_groups(s, &g);
	ck_assert_uint_eq(ll_groups_apply_tags(s, &g), 5);	/* r1 r3 r4 w1 w2 */
	ck_assert(ll_groups_tagged(s));

	ck_assert_int_eq(member(s, "r1")->tag, LL_READ_MOSTLY);
	ck_assert_int_eq(member(s, "r1")->tag_rule_line, LL_GROUP_TAG_LINE);
	ck_assert_str_eq(member(s, "r1")->tag_rule_file, "group grp_basic_read_tx");
	ck_assert_str_eq(member(s, "r1")->domain, "tx");
	ck_assert_int_eq(r2->tag, LL_COLD);
	ck_assert_int_eq(r2->tag_rule_line, 7);
	ck_assert_int_eq(member(s, "w1")->tag, LL_WRITE_HOT);
	ck_assert_str_eq(member(s, "w1")->domain, "rx");
	/* Outside groups, in span-only groups, and the markers: untouched. */
	ck_assert_int_eq(member(s, "cold1")->tag, LL_UNTAGGED);
	ck_assert_int_eq(member(s, "buf")->tag, LL_UNTAGGED);
	ck_assert_int_eq(member(s, "__cacheline_group_begin__grp_basic_read_tx")->tag_rule_line, 0);

	/* The checks see group tags as tags. */
	ll_collect_units(s, &u);
	for (size_t i = 0; i < u.n; i++)
		if (strcmp(u.v[i].m->path, "r4") == 0)
			ck_assert_int_eq(u.v[i].tag, LL_READ_MOSTLY);
		else if (strcmp(u.v[i].m->path, "w2") == 0)
			ck_assert_str_eq(u.v[i].domain, "rx");
	ll_units_release(&u);

	/* Applying twice changes nothing and counts nothing new. */
	ck_assert_uint_eq(ll_groups_apply_tags(s, &g), 0);
	ll_struct_free(s);
	ll_groups_release(&g);
}
END_TEST

START_TEST(test_apply_tags_mixed_line)
{
	/* With group tags alone, ll_check finds r4 and w1/w2 on line 1. */
	struct ll_struct *s = basic();
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };

	ll_find_groups(s, &g);
	ll_groups_apply_tags(s, &g);
	ll_check(&in, &f);
	ck_assert_uint_eq(count_rule(&f, "mixed-cacheline"), 1);
	ck_assert_int_eq(f.v[0].cacheline, 1);
	ck_assert_uint_eq(f.v[0].nr_pairs, 2);
	ck_assert_str_eq(f.v[0].pairs[0].a, "r4");
	ck_assert_str_eq(f.v[0].pairs[0].b, "w1");
	ll_findings_release(&f);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

/* ---- group-span ------------------------------------------------------------------ */

START_TEST(test_span)
{
	struct ll_struct *s = basic();
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };
	const struct ll_finding *x;

	ll_find_groups(s, &g);
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(f.n, 1);
	x = &f.v[0];
	ck_assert_str_eq(x->rule, "group-span");
	ck_assert_int_eq(x->level, LL_LEVEL_WARNING);
	ck_assert_int_eq(x->cacheline, 0);
	ck_assert_str_eq(x->message, "group grp_basic_read_tx of struct grp_basic touches 2 "
			 "cachelines (0-1, bytes 40-67) but its 28 bytes need only 1");
	ck_assert_uint_eq(x->nr_members, 2);
	ck_assert_str_eq(x->members[0], "__cacheline_group_begin__grp_basic_read_tx");
	ck_assert_str_eq(x->members[1], "__cacheline_group_end__grp_basic_read_tx");
	ck_assert_uint_eq(x->nr_pairs, 1);
	ck_assert_ptr_null(x->pairs[0].b);
	ck_assert_ptr_nonnull(x->fingerprint);
	ck_assert_uint_eq(x->location.line, member(s, "__cacheline_group_begin__grp_basic_read_tx")->decl.line);
	ck_assert_uint_eq(x->nr_notes, 2);
	ck_assert_str_eq(x->notes[0].message,
			 "group grp_basic_read_tx ends at byte 68 (cacheline 1 +4)");
	ck_assert_str_eq(x->notes[1].message,
			 "group grp_basic_read_tx starts 40 bytes into cacheline 0; starting it on a "
			 "cacheline boundary (__cacheline_group_begin_aligned) would make it touch 1");
	ll_findings_release(&f);

	/* "allow group-span" on either marker silences it. */
	struct ll_allow allow = { "group-span", "__cacheline_group_end__grp_basic_read_tx" };

	in.allows = &allow;
	in.nr_allows = 1;
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(f.n, 0);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_span_aligned_below_line)
{
	struct ll_struct *s = gb_struct("a32", 128, 64);
	struct ll_member *m;
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };

	add(s, "a", 0, 32);
	m = smarker(s, "begin", "a32_read_rx", 32);
	m->explicit_align = true;
	m->alignment = 32;
	add(s, "r", 32, 48);
	smarker(s, "end", "a32_read_rx", 80);
	ll_find_groups(s, &g);
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(f.n, 1);
	ck_assert_str_eq(f.v[0].notes[1].message, "group a32_read_rx starts 32 bytes into "
			 "cacheline 0; its explicit alignment, 32, is below the 64-byte cacheline");
	ll_findings_release(&f);
	/* On 128-byte lines the same group fits. */
	s->cacheline = 128;
	ll_groups_release(&g);
	ll_find_groups(s, &g);
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(f.n, 0);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

/* ---- group-member ------------------------------------------------------------------- */

static void rules_tag(struct ll_member *m, enum ll_tag tag, const char *domain, int line)
{
	m->tag = tag;
	free(m->domain);
	m->domain = domain ? xstrdup(domain) : NULL;
	m->tag_rule_line = line;
	m->tag_rule_file = "net.rules";
	m->tag_specificity = 1;
}

START_TEST(test_member_outside)
{
	struct ll_struct *s = basic();
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };
	const struct ll_finding *x;

	rules_tag(member(s, "cold1"), LL_READ_MOSTLY, NULL, 3);	/* outside read groups */
	rules_tag(member(s, "w1"), LL_WRITE_HOT, "tx", 4);	/* write_rx does not cover tx */
	rules_tag(member(s, "r2"), LL_WRITE_HOT, "rx", 5);	/* inside a read group */
	rules_tag(member(s, "r1"), LL_READ_MOSTLY, NULL, 6);	/* agrees */
	rules_tag(member(s, "w2"), LL_WRITE_HOT, "rx", 7);	/* agrees */
	rules_tag(member(s, "buf"), LL_COLD, NULL, 8);		/* cold: never */
	ll_find_groups(s, &g);
	ll_groups_apply_tags(s, &g);
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(count_rule(&f, "group-member"), 3);

	x = finding_of(&f, "group-member", "cold1");
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->level, LL_LEVEL_WARNING);
	ck_assert_int_eq(x->cacheline, -1);
	ck_assert_str_eq(x->message, "cold1 of struct grp_basic is tagged read-mostly by the rules "
			 "but lies outside its read groups: grp_basic_read_tx (bytes 40-67)");
	ck_assert_str_eq(x->notes[0].message, "cold1 is tagged read-mostly here");
	ck_assert_str_eq(x->notes[0].decl.file, "net.rules");
	ck_assert_uint_eq(x->notes[0].decl.line, 3);

	x = finding_of(&f, "group-member", "w1");
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(x->message, "w1 of struct grp_basic is tagged write-hot:tx by the rules "
			 "but lies inside group grp_basic_write_rx, whose domain, rx, does not "
			 "cover tx");
	ck_assert_uint_eq(x->nr_notes, 2);
	ck_assert_str_eq(x->notes[1].message, "group grp_basic_write_rx begins here");

	x = finding_of(&f, "group-member", "r2");
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(x->message, "r2 of struct grp_basic is tagged write-hot:rx by the rules "
			 "but lies inside group grp_basic_read_tx, whose name makes its members "
			 "read-mostly:tx");
	ll_findings_release(&f);

	/* allow group-member (for when the rules language knows the id). */
	struct ll_allow allows[] = { { "group-member", "cold1" }, { "group-member", "w1" },
				     { "group-member", "r2" } };

	in.allows = allows;
	in.nr_allows = 3;
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(count_rule(&f, "group-member"), 0);
	ll_findings_release(&f);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_member_domains)
{
	/* write_txrx covers tx and rx; a write-hot:tx member outside write_tx is reported. */
	struct ll_struct *s = gb_struct("dom", 128, 64);
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };

	smarker(s, "begin", "dom_write_txrx", 0);
	add(s, "a", 0, 8);
	add(s, "b", 8, 8);
	smarker(s, "end", "dom_write_txrx", 16);
	smarker(s, "begin", "dom_write_tx", 64);
	add(s, "c", 64, 8);
	smarker(s, "end", "dom_write_tx", 72);
	add(s, "d", 72, 8);
	add(s, "e", 80, 8);
	rules_tag(member(s, "a"), LL_WRITE_HOT, "tx", 1);
	rules_tag(member(s, "b"), LL_WRITE_HOT, "rx", 2);
	rules_tag(member(s, "d"), LL_WRITE_HOT, "tx", 3);	/* outside dom_write_tx */
	rules_tag(member(s, "e"), LL_WRITE_HOT, "owner", 4);	/* no group covers owner */
	ll_find_groups(s, &g);
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(count_rule(&f, "group-member"), 2);
	ck_assert_str_eq(finding_of(&f, "group-member", "d")->message,
			 "d of struct dom is tagged write-hot:tx by the rules but lies outside the "
			 "write groups covering its domain: dom_write_txrx (bytes 0-15), "
			 "dom_write_tx (bytes 64-71)");
	ck_assert_str_eq(finding_of(&f, "group-member", "e")->message,
			 "e of struct dom is tagged write-hot:owner by the rules but lies outside "
			 "its write groups (none covers its domain): dom_write_txrx (bytes 0-15), "
			 "dom_write_tx (bytes 64-71)");
	ll_findings_release(&f);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_member_no_tagged_groups)
{
	/* Span-only groups: nothing to compare the rules with. */
	struct ll_struct *s = gb_struct("plain", 64, 64);
	struct ll_groups g;
	struct ll_findings f = { 0 };
	struct ll_check_input in = { .s = s };

	smarker(s, "begin", "icmp", 0);
	add(s, "a", 0, 8);
	smarker(s, "end", "icmp", 8);
	add(s, "b", 8, 8);
	rules_tag(member(s, "b"), LL_READ_MOSTLY, NULL, 1);
	ll_find_groups(s, &g);
	ck_assert_uint_eq(ll_groups_apply_tags(s, &g), 0);
	ck_assert(!ll_groups_tagged(s));
	ll_check_groups(&in, &g, &f);
	ck_assert_uint_eq(f.n, 0);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

/* ---- reporting ------------------------------------------------------------------------- */

START_TEST(test_listing_text)
{
	struct ll_struct *s = basic();
	struct ll_groups g;
	struct strbuf sb = STRBUF_INIT;

	ll_find_groups(s, &g);
	ll_groups_marker_note(&g, member(s, "__cacheline_group_begin__grp_basic_read_tx"), &sb);
	ck_assert_str_eq(sb.buf, " begin of group grp_basic_read_tx: read-mostly:tx, bytes 40-67 (28), "
			 "lines 0-1, 2 of min 1 [group-span]");
	sb_reset(&sb);
	ll_groups_marker_note(&g, member(s, "__cacheline_group_end__grp_basic_write_rx"), &sb);
	ck_assert_str_eq(sb.buf, " end of group grp_basic_write_rx");
	sb_reset(&sb);
	ll_groups_summary(&g, &sb);
	ck_assert_str_eq(sb.buf,
		"\t/* groups: 3, 1 touching more cachelines than their bytes need */\n"
		"\t/*   grp_basic_read_tx: read-mostly:tx, bytes 40-67 (28), lines 0-1, 2 of min 1 "
		"[group-span] */\n"
		"\t/*   grp_basic_write_rx: write-hot:rx, bytes 68-79 (12), line 1, 1 of min 1 */\n"
		"\t/*   grp_basic_hot: span only, bytes 88-187 (100), lines 1-2, 2 of min 2 */\n");
	sb_release(&sb);
	ll_groups_release(&g);
	ll_struct_free(s);
}
END_TEST

/* ---- the importer ------------------------------------------------------------------------ */

static const char header[] =
	"# Rules generated by layoutlint --import-net-cachelines\n"
	"# from Documentation/networking/net_cachelines/t.rst, Linux 6.12.0.\n"
	"# Tags from fastpath_tx_access / fastpath_rx_access: read_mostly ->\n"
	"# read-mostly; read_write or write_mostly -> write-hot:tx or write-hot:rx,\n"
	"# write-hot:txrx when both paths write; no access on either path -> cold.\n"
	"# Trailing comments are the table's Comments column.\n"
	"# group fastpath_tx / fastpath_rx: every member the path reads or writes.\n";

static int import(const char *text, struct strbuf *out, struct strbuf *warnings,
		  size_t *nr_warnings, struct ll_error *err)
{
	return ll_import_net_cachelines_text("t.rst", "Documentation/networking/net_cachelines/t.rst",
					     text, strlen(text), "6.12.0", out, warnings,
					     nr_warnings, err);
}

START_TEST(test_import_old)
{
	static const char text[] =
		"=====================================\n"
		"foo struct fast path usage breakdown\n"
		"=====================================\n"
		"\n"
		"Type        Name        fastpath_tx_access  fastpath_rx_access  Comments\n"
		"..struct    ..foo                                               \n"
		"u32         a           read_mostly         -                   f(tx)\n"
		"u32         b                               read_write          g(rx), h (rx)\n"
		"u32         c           write_mostly        read_write          \n"
		"u32         d          -                   -\n"
		"u32         e           read_write          read_mostly         i\n"
		"u32                     read_mostly                             no name\n"
		"u32         f[4]        rw                  -                   bad access\n";
	struct strbuf out = STRBUF_INIT, warnings = STRBUF_INIT;
	struct ll_error err;
	size_t nw = 99;

	ck_assert_int_eq(import(text, &out, &warnings, &nw, &err), 0);
	ck_assert_uint_eq(nw, 2);
	ck_assert_str_eq(warnings.buf,
		"t.rst:12: warning: malformed row: no member name in the Name column\n"
		"t.rst:13: warning: f: unknown access 'rw' in fastpath_tx_access (expected "
		"read_mostly, read_write, write_mostly, - or an empty cell)\n");
	struct strbuf want = STRBUF_INIT;

	sb_adds(&want, header);
	sb_adds(&want, "\nstruct foo\n"
		"\tread-mostly    a  # f(tx)\n"
		"\twrite-hot:rx   b  # g(rx), h (rx)\n"
		"\twrite-hot:txrx c\n"
		"\tcold           d\n"
		"\twrite-hot:tx   e  # i\n"
		"\t# skipped line 12: malformed row: no member name in the Name column\n"
		"\t# skipped line 13: f: unknown access 'rw' in fastpath_tx_access (expected "
		"read_mostly, read_write, write_mostly, - or an empty cell)\n"
		"\tgroup fastpath_tx ?a ?c ?e\n"
		"\tgroup fastpath_rx ?b ?c ?e\n");
	ck_assert_str_eq(out.buf, want.buf);
	sb_release(&want);
	sb_release(&out);
	sb_release(&warnings);
}
END_TEST

START_TEST(test_import_rst)
{
	static const char text[] =
		"=====================================\n"
		"foo struct fast path usage breakdown\n"
		"=====================================\n"
		"\n"
		"========== ======= ================== ================== ========\n"
		"Type       Name    fastpath_tx_access fastpath_rx_access Comments\n"
		"========== ======= ================== ================== ========\n"
		"struct x   a                          read_mostly        f(rx) g\n"
		"u8:1       b       read_write\n"
		"u32        c      read_mostly\n"
		"u64        a_long_name\n"
		"u16[2]     d[2]    read_mostly        read_mostly\n"
		"========== ======= ================== ================== ========\n";
	struct strbuf out = STRBUF_INIT, warnings = STRBUF_INIT, want = STRBUF_INIT;
	struct ll_error err;
	size_t nw = 0;

	ck_assert_int_eq(import(text, &out, &warnings, &nw, &err), 0);
	ck_assert_uint_eq(nw, 2);
	ck_assert_str_eq(warnings.buf,
		"t.rst:10: warning: malformed row: 'read_mostly' at column 19 lies in the margin "
		"between two columns of the ruler\n"
		"t.rst:11: warning: malformed row: 'a_long_name' at column 12 runs past the end of "
		"its column (18)\n");
	sb_adds(&want, header);
	sb_adds(&want, "\nstruct foo\n"
		"\tread-mostly  a  # f(rx) g\n"
		"\twrite-hot:tx b\n"
		"\t# skipped line 10: malformed row: 'read_mostly' at column 19 lies in the margin "
		"between two columns of the ruler\n"
		"\t# skipped line 11: malformed row: 'a_long_name' at column 12 runs past the end of "
		"its column (18)\n"
		"\tread-mostly  d\n"
		"\tgroup fastpath_tx ?b ?d\n"
		"\tgroup fastpath_rx ?a ?d\n");
	ck_assert_str_eq(out.buf, want.buf);
	sb_release(&want);
	sb_release(&out);
	sb_release(&warnings);
}
END_TEST

START_TEST(test_import_errors)
{
	struct strbuf out = STRBUF_INIT, warnings = STRBUF_INIT;
	struct ll_error err;

	ck_assert_int_eq(import("just text\n", &out, &warnings, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "t.rst: no net_cachelines table (no header line with Name, "
			 "fastpath_tx_access and fastpath_rx_access)");
	ck_assert_int_eq(import("Type  Name  fastpath_tx_access  fastpath_rx_access  comment\n"
				"..enum\n"
				"long  X     write_mostly        -                   y\n",
				&out, &warnings, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "t.rst: the table describes enum, not a struct: there are no "
			 "members to tag");
	ck_assert_int_eq(import("Type  Name  fastpath_tx_access  fastpath_rx_access\n"
				"long  x     -                   -\n",
				&out, &warnings, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "t.rst: cannot tell which struct the table describes (no "
			 "\"..struct ..NAME\" row and no \"NAME struct ...\" title)");
	ck_assert_int_eq(import("== == == ==\n"
				"Type Name fastpath_tx_access fastpath_rx_access\n",
				&out, &warnings, NULL, &err), -1);
	ck_assert_str_eq(err.msg, "t.rst:2: the table's header has no closing ruler");
	ck_assert_uint_eq(out.len, 0);
	sb_release(&out);
	sb_release(&warnings);
}
END_TEST

START_TEST(test_import_output_parses)
{
	/* What the importer writes is a rules file the parser accepts. */
	static const char text[] =
		"Type           Name      fastpath_tx_access  fastpath_rx_access  Comments\n"
		"..struct       ..foo                                             \n"
		"struct_x_u8    a         read_write          read_write          # hash, fine\n"
		"u32            b         read_mostly         -\n";
	struct strbuf out = STRBUF_INIT;
	struct ll_error err;
	struct ll_rules rules = { 0 };

	ck_assert_int_eq(import(text, &out, NULL, NULL, &err), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "\twrite-hot:txrx x.a  # # hash, fine\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "# Type struct_X_T (a T member of the nested "
				     "struct X) -> pattern X.NAME.\n"));
	ck_assert_msg(ll_rules_parse(&rules, "t.rules", out.buf, out.len, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(rules.nr_blocks, 1);
	ck_assert_str_eq(rules.blocks[0].name, "foo");
	ck_assert_uint_eq(rules.blocks[0].nr_stmts, 4);
	ck_assert_int_eq(rules.blocks[0].stmts[2].kind, LL_STMT_GROUP);
	ck_assert_str_eq(rules.blocks[0].stmts[2].group, "fastpath_tx");
	ck_assert(rules.blocks[0].stmts[2].patterns[1].optional);
	ck_assert_int_eq(rules.blocks[0].stmts[0].tag, LL_WRITE_HOT);
	ck_assert_str_eq(rules.blocks[0].stmts[0].domain, "txrx");
	ck_assert_str_eq(rules.blocks[0].stmts[0].patterns[0].text, "x.a");
	ck_assert_int_eq(rules.blocks[0].stmts[1].tag, LL_READ_MOSTLY);
	ll_rules_release(&rules);
	sb_release(&out);
}
END_TEST

static Suite *groups_suite(void)
{
	Suite *s = suite_create("groups");
	TCase *t = tcase_create("groups");

	tcase_add_test(t, test_name_tokens);
	tcase_add_test(t, test_find_basic);
	tcase_add_test(t, test_find_aligned);
	tcase_add_test(t, test_find_nesting);
	tcase_add_test(t, test_find_same_name_twice);
	tcase_add_test(t, test_geometry_128);
	tcase_add_test(t, test_apply_tags);
	tcase_add_test(t, test_apply_tags_mixed_line);
	tcase_add_test(t, test_span);
	tcase_add_test(t, test_span_aligned_below_line);
	tcase_add_test(t, test_member_outside);
	tcase_add_test(t, test_member_domains);
	tcase_add_test(t, test_member_no_tagged_groups);
	tcase_add_test(t, test_listing_text);
	suite_add_tcase(s, t);

	t = tcase_create("import");
	tcase_add_test(t, test_import_old);
	tcase_add_test(t, test_import_rst);
	tcase_add_test(t, test_import_errors);
	tcase_add_test(t, test_import_output_parses);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(groups_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
