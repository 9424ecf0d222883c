// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of measured hotness (--profile): rule-drift, where the rules
 * and the profile disagree about a member, and measured-mixed, false
 * sharing the profile shows with no rules at all. Both read the measures
 * model/profile.c attached; loads and stores come from the events or from
 * the sampled instructions, so they are as good as perf's attribution.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checks/catalog.h"
#include "checks/checks.h"
#include "util/strbuf.h"

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* What a unit's samples are: "61705 samples, 97% of struct stats's, 100% writes". */
static void describe_measure(struct strbuf *sb, const struct ll_struct *s,
			     const struct ll_measure *m)
{
	sb_addf(sb, "%.0f sample%s, ", m->samples, m->samples == 1 ? "" : "s");
	sb_add_percent(sb, pct(m->samples, s->measured_samples));
	sb_addf(sb, " of %s %s's", ll_kind_name(s->kind), s->name);
	if (s->measured_access)
		sb_addf(sb, ", %.0f%% writes", pct(m->writes, m->samples));
}

/* One rule-drift finding at U: WHAT the rules say against what was measured. */
static void add_drift(const struct ll_check_input *in, const struct ll_unit *u,
		      const char *what, struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	struct ll_measure m = { 0 };
	struct strbuf msg = STRBUF_INIT;
	uint64_t first, last;
	struct ll_finding *f;

	ll_member_measure(u->m, &m);
	f = ll_check_finding_add(out, LL_CHECK_RULE_DRIFT,
				 ll_member_lines(u->m, s->cacheline, &first, &last) ?
				 (int64_t)first : -1);
	sb_addf(&msg, "%s %s (", what, u->m->path);
	describe_measure(&msg, s, &m);
	sb_addc(&msg, ')');
	f->message = sb_detach(&msg);
	f->location = u->m->decl;
	ll_finding_member(f, u->m->path);
	ll_finding_pair(f, u->m->path, NULL);
	ll_finding_seal(f, s);
}

static void check_drift(const struct ll_check_input *in, const struct ll_units *units,
			struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	const struct ll_measure_thresholds *t = &in->thresholds;
	char what[256];

	for (size_t i = 0; i < units->n; i++) {
		const struct ll_unit *u = &units->v[i];
		bool hot = ll_measured_hot(u->m, s, t);
		bool written = ll_measured_written(u->m, t);
		struct ll_measure m = { 0 };

		/* An unnamed bitfield cannot be tagged, so it cannot drift. */
		if (!u->m->path || ll_check_allowed(in->allows, in->nr_allows, LL_CHECK_RULE_DRIFT, u->m->path))
			continue;
		ll_member_measure(u->m, &m);
		if (u->tag == LL_READ_MOSTLY && s->measured_access && written) {
			snprintf(what, sizeof(what), "read-mostly member is written in at least "
				 "%g%% of its samples:", t->write_pct);
			add_drift(in, u, what, out);
		} else if (u->tag == LL_WRITE_HOT && s->measured_access && m.writes <= 0) {
			add_drift(in, u, "write-hot member is never written in the profile:", out);
		} else if ((u->tag == LL_UNTAGGED || u->tag == LL_COLD) && hot && in->has_rules) {
			/* Without rules every member is untagged: that is not drift. */
			snprintf(what, sizeof(what), "%s member is hot (at least %g%% of the "
				 "struct's samples):", u->tag == LL_COLD ? "cold" : "untagged",
				 t->hot_pct);
			add_drift(in, u, what, out);
		}
	}
}

/* Measured read-mostly: hot, and written less than the threshold (named members only). */
static bool reads_only(const struct ll_check_input *in, const struct ll_unit *u)
{
	return u->m->path && ll_measured_hot(u->m, in->s, &in->thresholds) &&
	       !ll_measured_written(u->m, &in->thresholds);
}

static bool writes(const struct ll_check_input *in, const struct ll_unit *u)
{
	return u->m->path && ll_measured_hot(u->m, in->s, &in->thresholds) &&
	       ll_measured_written(u->m, &in->thresholds);
}

static bool mixed_allowed(const struct ll_check_input *in, const struct ll_unit *u)
{
	return ll_check_allowed(in->allows, in->nr_allows, LL_CHECK_MEASURED_MIXED, u->m->path);
}

/*
 * A note at each member involved but the one F is located at, whose note
 * is kept for gating to use should it move F elsewhere (as mixed-cacheline
 * does).
 */
static void mixed_note(struct ll_finding *f, const struct ll_check_input *in,
		       const struct ll_unit *u, const struct ll_unit *at, const char *role)
{
	struct ll_measure m = { 0 };
	struct strbuf sb = STRBUF_INIT;

	ll_member_measure(u->m, &m);
	sb_addf(&sb, "%s %s: ", role, u->m->path);
	describe_measure(&sb, in->s, &m);
	if (u == at) {
		f->located = u->m->path;
		f->located_note = sb_detach(&sb);
		return;
	}
	ll_finding_member_note(f, &u->m->decl, u->m->path, "%s", sb.buf);
	sb_release(&sb);
}

/*
 * Names on MSG, and adds to F, the line's members measured reading only
 * (or writing, with WRITTEN) that no rule lets mix.
 */
static void name_side(struct ll_finding *f, const struct ll_check_input *in,
		      const struct ll_line *line, const struct ll_unit *at, struct strbuf *msg,
		      bool written)
{
	const char *sep = "";

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *u = line->units[i];

		if ((written ? writes(in, u) : reads_only(in, u)) && !mixed_allowed(in, u)) {
			sb_addf(msg, "%s%s", sep, u->m->path);
			ll_finding_member(f, u->m->path);
			mixed_note(f, in, u, at, written ? "written" : "read");
			sep = ", ";
		}
	}
}

static void check_measured_mixed(const struct ll_check_input *in, const struct ll_line *line,
				 struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	struct ll_finding *f = NULL;
	const struct ll_unit *at = NULL;

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *r = line->units[i];

		if (!reads_only(in, r) || mixed_allowed(in, r))
			continue;
		for (size_t j = 0; j < line->nr_units; j++) {
			const struct ll_unit *w = line->units[j];

			if (w == r || !writes(in, w) || mixed_allowed(in, w))
				continue;
			if (!f) {
				f = ll_check_finding_add(out, LL_CHECK_MEASURED_MIXED, (int64_t)line->index);
				f->location = r->m->decl;
				at = r;
			}
			ll_finding_pair(f, r->m->path, w->m->path);
		}
	}
	if (!f)
		return;
	struct strbuf msg = STRBUF_INIT;

	ll_line_words(&msg, line);
	sb_addf(&msg, " of %s %s: measured reads of ", ll_kind_name(s->kind), s->name);
	name_side(f, in, line, at, &msg, false);
	sb_adds(&msg, " meet measured writes of ");
	name_side(f, in, line, at, &msg, true);
	f->message = sb_detach(&msg);
	ll_finding_seal(f, s);
}

void ll_check_measured(const struct ll_check_input *in, const struct ll_units *units,
		       const struct ll_lines *lines, struct ll_findings *out)
{
	if (!in->s->measured)
		return;
	check_drift(in, units, out);
	if (!in->s->measured_access)
		return;
	for (size_t i = 0; i < lines->n; i++)
		check_measured_mixed(in, &lines->v[i], out);
}
