// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: after the lint of one struct, measure its layout against the
 * suggestion (or, with --against, the reference build's layout against
 * this one's) with the benchmark prove/ generates, and print the result
 * instead of the lint's report.
 */
#include <string.h>

#include "cli/cli.h"
#include "prove/prove.h"
#include "report/report.h"
#include "solver/suggest.h"
#include "util/replace_file.h"

static const struct ll_linted *find_struct(const struct ll_run *run, const struct ll_struct *s)
{
	for (size_t i = 0; run && i < run->nr_structs; i++) {
		const struct ll_struct *t = run->structs[i].layout;

		if (t && t->kind == s->kind && t->name && s->name && strcmp(t->name, s->name) == 0)
			return &run->structs[i];
	}
	return NULL;
}

int cli_prove(const struct options *o, const struct ll_run *all, const struct ll_run *reference)
{
	struct ll_error err;
	struct ll_prove_result r = { 0 };
	struct ll_prove_opts po = { .budget = o->prove_budget, .sample_ms = 100, .tight = 0.10,
				    .cc = o->env.cc, .path = o->env.path, .tmpdir = o->env.tmpdir };
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT;
	struct ll_pending_file pending = { 0 };
	const struct ll_linted *l, *old;
	const struct ll_struct *before, *after;
	const char *before_label, *after_label;
	int status = 2;

	if (all->nr_structs != 1) {
		ll_fail(&err, "--prove measures one struct; %zu were linted", all->nr_structs);
		goto fail;
	}
	l = &all->structs[0];
	if (o->against) {
		if (!(old = find_struct(reference, l->layout))) {
			ll_fail(&err, "--prove: %s has no %s %s to measure against", o->against,
				ll_kind_name(l->layout->kind), l->layout->name);
			goto fail;
		}
		before = old->layout;
		before_label = o->against;
		after = l->layout;
		after_label = l->binary ? l->binary : all->binary_path;
	} else {
		before = l->layout;
		before_label = "as built";
		after = l->proposal.layout ? l->proposal.layout : l->layout;
		after_label = l->proposal.layout && l->suggestion && l->suggestion->changed
				      ? "as suggested"
				      : "as built (the suggestion keeps it)";
	}
	if (ll_prove_plan_build(before, before_label, after, after_label, o->against != NULL,
				o->against ? NULL : &l->access, &r.plan, &err))
		goto fail;
	if (ll_topology_read("/sys/devices/system", &r.topology, &err) ||
	    ll_prove_place(&r.plan, &r.topology, o->prove_smt, &r.placement, &err))
		goto fail;
	ll_prove_generate(&r.plan, &src);
	if (o->prove_source &&
	    (ll_file_prepare(o->prove_source, "--prove-source", "the benchmark's source", src.buf,
			     src.len, &pending, &err) ||
	     ll_file_commit(&pending, &err)))
		goto fail;
	if (ll_prove_run(&po, src.buf, &r, &err))
		goto fail;
	o->format->prove(&r, &out);
	status = cli_write_stdout(&out);
	goto done;
fail:
	ll_report_error(&err);
	status = 2;
done:
	ll_file_abandon(&pending);
	ll_prove_result_release(&r);
	sb_release(&src);
	sb_release(&out);
	return status;
}
