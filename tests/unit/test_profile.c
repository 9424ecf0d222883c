// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for --profile: perf's text (input/profile/perf_text.h) parsed
 * into rows, rows attached to a hand-built model (model/profile.h) and
 * judged by the measured tag, and the two measured checks on the result.
 *
 * Built without core_dep's include directory for the reason test_groups.c
 * gives: our headers are included by relative path.
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdlib.h>
#include <string.h>

#include "../../src/checks/checks.h"
#include "../../src/input/profile/perf_text.h"
#include "../../src/model/profile.h"
#include "../../src/report/describe.h"
#include "../../src/util/strbuf.h"

static void leaf(struct ll_member *m, const char *name, const char *path, uint64_t off,
		 uint64_t size)
{
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->path = xstrdup(path);
	m->type = xstrdup("long");
	m->offset = off;
	m->size = size;
	m->alignment = size < 8 ? size : 8;
}

/* struct stats { long hits; void *ops; int flags; int refcnt; union { long x; long y; } u; } */
static struct ll_struct *stats(void)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	struct ll_member *u;

	s->kind = LL_STRUCT;
	s->name = xstrdup("stats");
	s->size = 32;
	s->alignment = 8;
	s->cacheline = 64;
	s->nr_members = 5;
	s->members = xcalloc(5, sizeof(*s->members));
	leaf(&s->members[0], "hits", "hits", 0, 8);
	leaf(&s->members[1], "ops", "ops", 8, 8);
	leaf(&s->members[2], "flags", "flags", 16, 4);
	leaf(&s->members[3], "refcnt", "refcnt", 20, 4);
	u = &s->members[4];
	leaf(u, "u", "u", 24, 8);
	u->is_aggregate = true;
	u->agg_kind = LL_UNION;
	u->nr_children = 2;
	u->children = xcalloc(2, sizeof(*u->children));
	leaf(&u->children[0], "x", "u.x", 24, 8);
	leaf(&u->children[1], "y", "u.y", 24, 8);
	return s;
}

static struct ll_profile *parse(const char *text, struct ll_profile_notes *notes)
{
	struct ll_profile *p = NULL;
	struct ll_error err;

	ck_assert_msg(ll_profile_parse("p.txt", text, strlen(text), &p, notes, &err) == 0, "%s",
		      err.msg);
	return p;
}

static const struct ll_member *at(const struct ll_struct *s, const char *path)
{
	const struct ll_member *m = ll_member_at_path(s, path);

	ck_assert_ptr_nonnull(m);
	return m;
}

static const struct ll_measure_thresholds defaults = { LL_MEASURED_HOT_DEFAULT,
						       LL_MEASURED_WRITES_DEFAULT };

/* Two event sections, as perf mem record gives: loads and stores from the names. */
static const char events[] =
	"0123456789abcdef0123456789abcdef01234567 /tmp/prog\n"
	"# Samples: 1K of event 'cpu/mem-loads,ldlat=30/P'\n"
	"# Overhead  Data Type  Data Type Offset\n"
	"# ........  .........  ................\n"
	"#\n"
	"    60.00%  struct stats  struct stats +0x8 (ops)\n"
	"    30.00%  struct stats  struct stats +0x18 (u.y)\n"
	"    10.00%  (unknown)  (unknown) +0 (no field)\n"
	"# Samples: 2K of event 'cpu/mem-stores/P'\n"
	"# Overhead  Data Type  Data Type Offset\n"
	"#\n"
	"   100.00%  struct stats  struct stats +0 (hits)\n";

START_TEST(test_events)
{
	struct ll_profile_notes notes = { 0 };
	struct ll_profile *p = parse(events, &notes);
	struct ll_struct *s = stats();
	const struct ll_profile *one = p;
	struct ll_measure m = { 0 };

	ck_assert_uint_eq(p->nr_rows, 3);	/* (unknown) skipped, silently */
	ck_assert_uint_eq(notes.n, 0);
	ck_assert_uint_eq(p->nr_build_ids, 1);
	ck_assert_str_eq(p->build_ids[0].path, "/tmp/prog");
	ll_profile_apply(&one, 1, s, &notes);
	ck_assert(s->measured && s->measured_access);
	/* Percent of each section's total: 60% of 1K, 100% of 2K. */
	ll_member_measure(at(s, "ops"), &m);
	ck_assert_double_eq_tol(m.samples, 600, 0.5);
	ck_assert_double_eq_tol(m.reads, 600, 0.5);
	ck_assert_double_eq(m.writes, 0);
	ck_assert_int_eq(ll_measured_tag(at(s, "hits"), s, &defaults), LL_WRITE_HOT);
	ck_assert_int_eq(ll_measured_tag(at(s, "ops"), s, &defaults), LL_READ_MOSTLY);
	ck_assert_int_eq(ll_measured_tag(at(s, "flags"), s, &defaults), LL_COLD);
	/* A union's byte goes to the alternative perf named. */
	ck_assert_double_eq(at(s, "u.x")->measure.samples, 0);
	ck_assert_double_eq_tol(at(s, "u.y")->measure.samples, 300, 0.5);
	ll_struct_free(s);
	ll_profile_free(p);
	ll_profile_notes_release(&notes);
}
END_TEST

/* perf report --group: one value column per event of the group, in each value column. */
static const char group[] =
	"# Samples: 2K of events 'anon group { cpu/mem-loads,ldlat=30/P, cpu/mem-stores/P }'\n"
	"#         Overhead                   Samples  Data Type  Data Type Offset\n"
	"# ................  ........................  .........  ................\n"
	"#\n"
	"     0.00%  90.00%             0         900  struct stats  struct stats +0 (hits)\n"
	"    60.00%   0.00%           600           0  struct stats  struct stats +0x8 (ops)\n"
	"    60.00%\n";

START_TEST(test_group)
{
	struct ll_profile_notes notes = { 0 };
	struct ll_profile *p = parse(group, &notes);
	struct ll_struct *s = stats();
	const struct ll_profile *one = p;

	ck_assert_uint_eq(p->nr_rows, 2);	/* the zero columns add nothing */
	ck_assert_uint_eq(notes.n, 1);		/* the cut row */
	ck_assert_ptr_nonnull(strstr(notes.v[0].message, "p.txt:7: a row of 1 fields where the "
				     "header has 6"));
	ll_profile_apply(&one, 1, s, &notes);
	ck_assert(s->measured_access);
	ck_assert_double_eq(at(s, "hits")->measure.writes, 900);
	ck_assert_double_eq(at(s, "ops")->measure.reads, 600);
	ck_assert_int_eq(ll_measured_tag(at(s, "hits"), s, &defaults), LL_WRITE_HOT);
	ck_assert_int_eq(ll_measured_tag(at(s, "ops"), s, &defaults), LL_READ_MOSTLY);
	ll_struct_free(s);
	ll_profile_free(p);
	ll_profile_notes_release(&notes);
}
END_TEST

static const char annotate[] =
	"Annotate type: 'struct stats' in /tmp/prog (1000 samples):\n"
	"============================================================================\n"
	" Percent     offset       size  field\n"
	"  100.00          0       0x20  struct stats\t {\n"
	"   90.00          0        0x8      long\thits;\n"
	"    9.00        0x8        0x8      void*\tops;\n"
	"    1.00       0x18        0x8      union {\n"
	"    1.00       0x18        0x8          long\tx;\n"
	"    0.00       0x18        0x8          long\ty;\n"
	"                                    };\n"
	"                                };\n"
	"\n";

START_TEST(test_annotate)
{
	struct ll_profile_notes notes = { 0 };
	struct ll_profile *p = parse(annotate, &notes);
	struct ll_struct *s = stats();
	const struct ll_profile *one = p;

	ck_assert_uint_eq(p->nr_rows, 3);	/* leaves with samples only */
	ck_assert_uint_eq(p->rows[0].type_size, 32);
	ll_profile_apply(&one, 1, s, &notes);
	ck_assert(s->measured && !s->measured_access);	/* one event that says neither */
	ck_assert_double_eq_tol(at(s, "hits")->measure.samples, 900, 0.5);
	ck_assert_double_eq_tol(at(s, "u.x")->measure.samples, 10, 0.5);
	/* Hot but neither read nor written known: no tag from it. */
	ck_assert_int_eq(ll_measured_tag(at(s, "hits"), s, &defaults), LL_UNTAGGED);
	ck_assert_int_eq(ll_measured_tag(at(s, "refcnt"), s, &defaults), LL_COLD);
	ll_struct_free(s);
	ll_profile_free(p);
	ll_profile_notes_release(&notes);
}
END_TEST

START_TEST(test_other_size_not_matched)
{
	struct ll_profile_notes notes = { 0 };
	struct ll_profile *p = parse(annotate, &notes);
	struct ll_struct *s = stats();
	const struct ll_profile *one = p;

	s->size = 40;	/* another definition of the name */
	ll_profile_apply(&one, 1, s, &notes);
	ck_assert(!s->measured);
	ck_assert_uint_eq(notes.n, 1);
	ck_assert_ptr_nonnull(strstr(notes.v[0].message, "32 bytes in the profile, 40 in the binary"));
	ll_struct_free(s);
	ll_profile_free(p);
	ll_profile_notes_release(&notes);
}
END_TEST

START_TEST(test_notes)
{
	static const char text[] =
		"# Overhead       Samples  Data Type  Data Type Offset\n"
		"    50.00%        500  struct stats  struct stats +0x1c (pad)\n"
		"    10.00%        100  (odd type)  (odd type) +0 (no field)\n"
		"    10.00%        100  (odd type)  (odd type) +0 (no field)\n"
		"    10.00%        100  struct stats\n"
		"    10.00%        x1  struct stats  struct stats +0 (hits)\n"
		"    10.00%        100  struct stats  struct stats +0x400 (gone)\n"
		"    10.00%        100  struct stats  struct stats +0 (hi";
	struct ll_profile_notes notes = { 0 };
	struct ll_profile *p = parse(text, &notes);
	struct ll_struct *s = stats();
	const struct ll_profile *one = p;

	/* pseudo-type once, short row, bad number, truncated last line */
	ck_assert_uint_eq(notes.n, 4);
	ck_assert_ptr_nonnull(strstr(notes.v[0].message, "p.txt:3: pseudo-type (odd type)"));
	ck_assert_ptr_nonnull(strstr(notes.v[1].message, "p.txt:5: a row of 3 fields"));
	ck_assert_ptr_nonnull(strstr(notes.v[2].message, "p.txt:6: 'x1' is not a number"));
	ck_assert_ptr_nonnull(strstr(notes.v[3].message, "p.txt:8: the last line has no newline"));
	ll_profile_apply(&one, 1, s, &notes);
	/* +0x1c is in the union (24..31); +0x400 is past the end. */
	ck_assert_double_eq(at(s, "u.x")->measure.samples, 500);
	ck_assert_uint_eq(notes.n, 5);
	ck_assert_ptr_nonnull(strstr(notes.v[4].message, "p.txt:7: struct stats +0x400 (gone): "
				     "no member of struct stats holds that byte (past its end"));
	ll_struct_free(s);
	ll_profile_free(p);
	ll_profile_notes_release(&notes);
}
END_TEST

START_TEST(test_not_a_profile)
{
	struct ll_profile *p = NULL;
	struct ll_profile_notes notes = { 0 };
	struct ll_error err;

	ck_assert_int_eq(ll_profile_parse("x.txt", "hello\n", 6, &p, &notes, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "x.txt: not a perf data-type profile"));
	ll_profile_notes_release(&notes);
}
END_TEST

/* The checks on the events profile, with rules-like tags set by hand. */
static size_t count(const struct ll_findings *f, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += strcmp(f->v[i].rule, rule) == 0;
	return n;
}

/* struct stats with the events profile applied, for the checks' tests. */
struct measured {
	struct ll_profile_notes notes;
	struct ll_profile *p;
	struct ll_struct *s;
};

static void measured_stats(struct measured *m)
{
	const struct ll_profile *one;

	*m = (struct measured){ .notes = { 0 } };
	m->p = parse(events, &m->notes);
	m->s = stats();
	one = m->p;
	ll_profile_apply(&one, 1, m->s, &m->notes);
}

static void measured_release(struct measured *m)
{
	ll_struct_free(m->s);
	ll_profile_free(m->p);
	ll_profile_notes_release(&m->notes);
}

START_TEST(test_checks)
{
	struct measured m;
	struct ll_findings f = { 0 };

	measured_stats(&m);
	struct ll_struct *s = m.s;
	struct ll_check_input in = { .s = s, .thresholds = defaults };

	/* No rules: measured-mixed for (ops, hits) and (u.y, hits); no drift. */
	ll_check(&in, &f);
	ck_assert_uint_eq(count(&f, "measured-mixed"), 1);
	ck_assert_uint_eq(f.v[0].nr_pairs, 2);
	ck_assert_uint_eq(count(&f, "rule-drift"), 0);
	ll_findings_release(&f);
	/* Wrong tags: each drifts. */
	s->members[0].tag = LL_READ_MOSTLY;	/* hits: written */
	s->members[1].tag = LL_WRITE_HOT;	/* ops: never written */
	s->members[2].tag = LL_COLD;		/* flags: right */
	in.has_rules = true;			/* u: untagged and hot */
	ll_check(&in, &f);
	ck_assert_uint_eq(count(&f, "rule-drift"), 3);
	ll_findings_release(&f);
	/* allow silences one. */
	struct ll_allow allow = { "rule-drift", "ops" };

	in.allows = &allow;
	in.nr_allows = 1;
	ll_check(&in, &f);
	ck_assert_uint_eq(count(&f, "rule-drift"), 2);
	ll_findings_release(&f);
	measured_release(&m);
}
END_TEST

/*
 * A writer with 99.7% of the struct's samples: the notes of its
 * measured-mixed finding say "99.7%", never %.2g's "1e+02%" (a live
 * recording on this machine gave that share, and the HTML showed it).
 */
START_TEST(test_checks_share_words)
{
	struct measured fx;
	struct ll_findings f = { 0 };
	bool said = false;

	measured_stats(&fx);
	struct ll_struct *s = fx.s;
	struct ll_check_input in = { .s = s, .thresholds = defaults };

	s->measured_access = true;
	s->measured_samples = 10000;
	for (size_t i = 0; i < s->nr_members; i++)
		s->members[i].measure = (struct ll_measure){ 0 };
	s->members[0].measure = (struct ll_measure){ .samples = 9970, .writes = 9970 };	/* hits */
	s->members[1].measure = (struct ll_measure){ .samples = 30, .reads = 30 };	/* ops */
	ll_check(&in, &f);
	ck_assert_uint_eq(count(&f, "measured-mixed"), 1);
	for (size_t i = 0; i < f.n; i++)
		for (size_t k = 0; k < f.v[i].nr_notes; k++) {
			const char *m = f.v[i].notes[k].message;

			ck_assert_msg(!strstr(m, "e+"), "exponent in \"%s\"", m);
			said |= strstr(m, "9970 samples, 99.7% of struct stats's") != NULL;
		}
	ck_assert(said);
	ll_findings_release(&f);
	measured_release(&fx);
}
END_TEST

static void percent_is(double percent, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add_percent(&sb, percent);
	ck_assert_str_eq(sb.buf, want);
	sb_release(&sb);
}

/*
 * The share every reporter writes: %.2g printed a writer's 99.7% of a
 * struct's samples as "1e+02%", a share a live recording can give.
 */
START_TEST(test_percent_words)
{
	percent_is(97.2, "97%");
	percent_is(99.5, "99.5%");
	percent_is(99.7, "99.7%");
	percent_is(99.96, ">99.9%");
	percent_is(100, "100%");
	percent_is(9.7, "9.7%");
	percent_is(9.96, "10%");
	percent_is(3, "3%");
	percent_is(0.05, "0.05%");
	percent_is(0.0123, "0.012%");
	percent_is(0.0001, "0.0001%");
	percent_is(0.00004, "<0.0001%");
	percent_is(0, "0%");
	percent_is(0.0 / 0.0, "0%");
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *t = tcase_create("profile");

	tcase_add_test(t, test_events);
	tcase_add_test(t, test_group);
	tcase_add_test(t, test_annotate);
	tcase_add_test(t, test_other_size_not_matched);
	tcase_add_test(t, test_notes);
	tcase_add_test(t, test_not_a_profile);
	tcase_add_test(t, test_checks);
	tcase_add_test(t, test_checks_share_words);
	tcase_add_test(t, test_percent_words);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(profile_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
