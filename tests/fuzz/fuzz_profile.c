// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for --profile: the input is the text of a perf
 * data-type report or annotation. Whatever it parses to is attached to a
 * model of tests/profile/sharing.c's struct stats (with a nested struct
 * and a union, so that offsets land at every depth) and judged with the
 * default thresholds: no input may crash, leak, or give a member a share
 * outside [0, 1].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/input/profile/perf_text.h"
#include "../../src/util/strbuf.h"

static void leaf(struct ll_member *m, const char *name, const char *path, uint64_t off,
		 uint64_t size)
{
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->path = xstrdup(path);
	m->type = xstrdup("unsigned long");
	m->offset = off;
	m->size = size;
	m->alignment = size < 8 ? size : 8;
}

/* struct stats { hits; ops; flags; refcnt; struct { a; b; } in; union { x; y; } u; } */
static struct ll_struct *model(void)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	struct ll_member *in, *u;

	s->kind = LL_STRUCT;
	s->name = xstrdup("stats");
	s->size = 48;
	s->alignment = 8;
	s->cacheline = 64;
	s->nr_members = 6;
	s->members = xcalloc(s->nr_members, sizeof(*s->members));
	leaf(&s->members[0], "hits", "hits", 0, 8);
	leaf(&s->members[1], "ops", "ops", 8, 8);
	leaf(&s->members[2], "flags", "flags", 16, 4);
	leaf(&s->members[3], "refcnt", "refcnt", 20, 4);
	in = &s->members[4];
	leaf(in, "in", "in", 24, 16);
	in->is_aggregate = true;
	in->nr_children = 2;
	in->children = xcalloc(2, sizeof(*in->children));
	leaf(&in->children[0], "a", "in.a", 24, 8);
	leaf(&in->children[1], "b", "in.b", 32, 8);
	u = &s->members[5];
	leaf(u, "u", "u", 40, 8);
	u->is_aggregate = true;
	u->agg_kind = LL_UNION;
	u->nr_children = 2;
	u->children = xcalloc(2, sizeof(*u->children));
	leaf(&u->children[0], "x", "u.x", 40, 8);
	leaf(&u->children[1], "y", "u.y", 40, 8);
	return s;
}

static int judge(struct ll_member *m, int depth, void *arg)
{
	const struct ll_struct *s = arg;
	struct ll_measure_thresholds t = { LL_MEASURED_HOT_DEFAULT, LL_MEASURED_WRITES_DEFAULT };
	struct ll_measure ms = { 0 };

	(void)depth;
	ll_member_measure(m, &ms);
	if (ms.samples < 0 || ms.reads < 0 || ms.writes < 0 ||
	    (s->measured_samples > 0 && ms.samples > s->measured_samples * 1.000001)) {
		fprintf(stderr, "%s: %g samples of %g\n", m->path, ms.samples, s->measured_samples);
		abort();
	}
	(void)ll_measured_tag(m, s, &t);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ll_profile *p = NULL;
	struct ll_profile_notes notes = { 0 };
	struct ll_error err;

	if (ll_profile_parse("fuzz.txt", (const char *)data, size, &p, &notes, &err) == 0) {
		struct ll_struct *s = model();
		const struct ll_profile *one = p;

		ll_profile_apply(&one, 1, s, &notes);
		ll_visit(s->members, s->nr_members, judge, s);
		ll_struct_free(s);
		ll_profile_free(p);
	}
	ll_profile_notes_release(&notes);
	return 0;
}
