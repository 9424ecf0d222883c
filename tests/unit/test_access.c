// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the static access evidence on the model (model/access.h),
 * without a binary: records built by hand are mapped onto a hand-built
 * struct, constructors decided (patterns, init text, a function filling
 * most members), sites merged, static tags judged, and the checks of
 * checks/access.c run on the result.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/checks/checks.h"
#include "../../src/model/access.h"
#include "../../src/model/units.h"
#include "../../src/util/strbuf.h"

static void leaf(struct ll_member *m, const char *path, uint64_t off, uint64_t size)
{
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(path);
	m->path = xstrdup(path);
	m->type = xstrdup("long");
	m->offset = off;
	m->size = size;
	m->alignment = size;
}

/* struct node { void *next; void *prev; int locked; int cpu; long pad[4]; } */
static struct ll_struct *node(void)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	static const char *const names[] = { "next", "prev", "locked", "cpu", "pad" };
	static const uint64_t off[] = { 0, 8, 16, 20, 24 }, size[] = { 8, 8, 4, 4, 32 };

	s->kind = LL_STRUCT;
	s->name = xstrdup("node");
	s->size = 56;
	s->alignment = 8;
	s->cacheline = 64;
	s->nr_members = 5;
	s->members = xcalloc(5, sizeof(*s->members));
	for (int i = 0; i < 5; i++)
		leaf(&s->members[i], names[i], off[i], size[i]);
	return s;
}

static void add(struct ll_access_evidence *e, uint64_t off, uint32_t width,
		enum ll_access_kind kind, const char *fn, const char *into, unsigned line)
{
	e->v = xgrow(e->v, e->n, sizeof(*e->v));
	e->v[e->n++] = (struct ll_access_record){
		.offset = off, .width = width, .kind = kind,
		.function = ll_access_intern(e, fn), .inlined_into = ll_access_intern(e, into),
		.file = ll_access_intern(e, "kernel/locking/osq_lock.c"), .line = line,
	};
}

/* The osq_lock shape: next/prev/locked written by the lock paths, cpu only at init. */
static struct ll_access_evidence *evidence(void)
{
	struct ll_access_evidence *e = xcalloc(1, sizeof(*e));

	e->name = xstrdup("node");
	e->size = 56;
	e->functions = 4;
	e->operands = 100;
	e->typed = 80;
	add(e, 0, 8, LL_ACCESS_KIND_ATOMIC, "osq_lock", NULL, 10);
	add(e, 8, 8, LL_ACCESS_KIND_STORE, "osq_lock", NULL, 11);
	add(e, 8, 8, LL_ACCESS_KIND_STORE, "osq_lock", NULL, 11);
	add(e, 16, 4, LL_ACCESS_KIND_STORE, "osq_unlock", NULL, 20);
	add(e, 16, 4, LL_ACCESS_KIND_LOAD, "osq_lock", NULL, 12);
	add(e, 20, 4, LL_ACCESS_KIND_STORE, "node_init", "osq_lock", 9);
	add(e, 20, 4, LL_ACCESS_KIND_LOAD, "node_cpu", "osq_lock", 30);
	add(e, 20, 4, LL_ACCESS_KIND_LOAD, "node_cpu", "osq_unlock", 31);
	add(e, 20, 4, LL_ACCESS_KIND_LOAD, "vcpu_is_preempted_node", NULL, 32);
	return e;
}

START_TEST(test_intern)
{
	struct ll_access_evidence *e = xcalloc(1, sizeof(*e));
	const char *first = ll_access_intern(e, "f0");
	char name[16];

	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		ck_assert_str_eq(ll_access_intern(e, name), name);
	}
	ck_assert_ptr_eq(ll_access_intern(e, "f0"), first);
	ck_assert_uint_eq(e->nr_strings, 1000);
	ck_assert_ptr_null(ll_access_intern(e, NULL));
	ll_access_evidence_free(e);
}
END_TEST

START_TEST(test_sites_and_constructors)
{
	struct ll_struct *s = node();
	struct ll_access_evidence *e = evidence();
	struct ll_access_view v;
	struct ll_access_sites sites;
	struct ll_access_summary sum;

	ll_access_view_init(&v, e, s, NULL);
	/* node_init matches the default "*_init" (the inlined function's own name). */
	ck_assert_uint_eq(v.nr_init_functions, 1);
	ck_assert_str_eq(v.init_functions[0], "node_init");
	ll_access_member_sites(&v, &s->members[1], LL_ACCESS_KIND_STORE, &sites);
	ck_assert_uint_eq(sites.n, 1);	/* two instructions, one site */
	ck_assert_uint_eq(sites.v[0].count, 2);
	ck_assert(!sites.v[0].init);
	ll_access_sites_release(&sites);
	ll_access_member_sites(&v, &s->members[3], LL_ACCESS_KIND_STORE, &sites);
	ck_assert_uint_eq(sites.n, 1);
	ck_assert(sites.v[0].init);
	ck_assert_str_eq(sites.v[0].inlined_into, "osq_lock");
	ll_access_sites_release(&sites);
	ll_access_member_summary(&v, &s->members[3], &sum);
	ck_assert_uint_eq(sum.runtime_writes, 0);
	ck_assert_uint_eq(sum.load_functions, 3);	/* osq_lock, osq_unlock, vcpu_is_... */
	ck_assert_uint_eq(sum.count[LL_ACCESS_KIND_LOAD], 3);
	ll_access_view_release(&v);

	/* Patterns replace the defaults: node_init is no constructor under "osq_*_never". */
	const char *const globs[] = { "osq_*_never" };
	struct ll_constructors c = { globs, 1 };

	ll_access_view_init(&v, e, s, &c);
	ck_assert_uint_eq(v.nr_init_functions, 0);
	ll_access_member_summary(&v, &s->members[3], &sum);
	ck_assert_uint_eq(sum.runtime_writes, 1);
	ll_access_view_release(&v);
	/* Init text is initialisation whatever the patterns say. */
	for (size_t i = 0; i < e->n; i++)
		e->v[i].init_text = e->v[i].offset == 20;
	ll_access_view_init(&v, e, s, &c);
	ll_access_member_summary(&v, &s->members[3], &sum);
	ck_assert_uint_eq(sum.runtime_writes, 0);
	ll_access_view_release(&v);
	ll_access_evidence_free(e);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_filler_is_constructor)
{
	struct ll_struct *s = node();
	struct ll_access_evidence *e = evidence();
	struct ll_access_view v;
	const char *const globs[] = { "nothing" };
	struct ll_constructors c = { globs, 1 };

	/* new_node stores 3 of the 5 top-level members: at least half, at least 3. */
	add(e, 0, 16, LL_ACCESS_KIND_STORE, "new_node", NULL, 40);
	add(e, 20, 4, LL_ACCESS_KIND_STORE, "new_node", NULL, 41);
	ll_access_view_init(&v, e, s, &c);
	ck_assert_uint_eq(v.nr_init_functions, 1);
	ck_assert_str_eq(v.init_functions[0], "new_node");
	ll_access_view_release(&v);
	ll_access_evidence_free(e);
	ll_struct_free(s);
}
END_TEST

START_TEST(test_static_tags)
{
	struct ll_struct *s = node();
	struct ll_access_evidence *e = evidence();
	struct ll_access_view v;
	struct ll_static_thresholds t = { LL_STATIC_READERS_DEFAULT, LL_STATIC_WRITERS_DEFAULT };

	ll_access_view_init(&v, e, s, NULL);
	ck_assert_int_eq(ll_static_tag(&v, &s->members[0], &t), LL_WRITE_HOT);	/* atomic */
	ck_assert_int_eq(ll_static_tag(&v, &s->members[1], &t), LL_UNTAGGED);	/* one writer */
	ck_assert_int_eq(ll_static_tag(&v, &s->members[3], &t), LL_READ_MOSTLY);
	ck_assert_int_eq(ll_static_tag(&v, &s->members[4], &t), LL_UNTAGGED);	/* untouched */
	t.writers = 1;
	ck_assert_int_eq(ll_static_tag(&v, &s->members[1], &t), LL_WRITE_HOT);
	t.readers = 4;
	ck_assert_int_eq(ll_static_tag(&v, &s->members[3], &t), LL_UNTAGGED);
	ll_access_view_release(&v);
	ll_access_evidence_free(e);
	ll_struct_free(s);
}
END_TEST

static size_t count_rule(const struct ll_findings *f, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += strcmp(f->v[i].rule, rule) == 0;
	return n;
}

START_TEST(test_checks)
{
	struct ll_struct *s = node();
	struct ll_access_evidence *e = evidence();
	struct ll_access_view v;
	struct ll_findings out = { 0 };

	/* The rules' claim: next, prev and cpu read-mostly, pad write-hot. */
	s->members[0].tag = s->members[1].tag = s->members[3].tag = LL_READ_MOSTLY;
	s->members[4].tag = LL_WRITE_HOT;
	for (int i = 0; i < 5; i++)
		s->members[i].tag_rule_line = i == 2 ? 0 : 1;
	ll_access_view_init(&v, e, s, NULL);
	struct ll_check_input in = { .s = s, .has_rules = true, .access = &v };

	ll_check(&in, &out);
	/* next (atomic) and prev (stored) are written; cpu only by node_init. */
	ck_assert_uint_eq(count_rule(&out, "written-read-mostly"), 2);
	ck_assert_uint_eq(count_rule(&out, "unwritten-write-hot"), 1);
	for (size_t i = 0; i < out.n; i++) {
		if (strcmp(out.v[i].rule, "written-read-mostly") == 0) {
			ck_assert_int_eq(out.v[i].tier, LL_TIER_STATIC);
			ck_assert_uint_ge(out.v[i].nr_notes, 1);
			ck_assert_str_eq(out.v[i].notes[0].decl.file, "kernel/locking/osq_lock.c");
		}
		if (strcmp(out.v[i].rule, "unwritten-write-hot") == 0)
			ck_assert_str_eq(out.v[i].members[0], "pad");
	}
	ll_findings_release(&out);
	ll_access_view_release(&v);
	ll_access_evidence_free(e);
	ll_struct_free(s);
}
END_TEST

static Suite *access_suite(void)
{
	Suite *s = suite_create("access");
	TCase *t = tcase_create("access");

	tcase_add_test(t, test_intern);
	tcase_add_test(t, test_sites_and_constructors);
	tcase_add_test(t, test_filler_is_constructor);
	tcase_add_test(t, test_static_tags);
	tcase_add_test(t, test_checks);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(access_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
