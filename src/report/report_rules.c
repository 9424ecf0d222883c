// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --write-rules: the tags a profile implies (ll_measured_tag), as a rules
 * file a person then reviews and edits. The header says where the tags
 * came from (profiles, binary, build-id) and by which thresholds, so that
 * a reviewer can tell measurement from judgement.
 */
#include <string.h>

#include "report/report.h"
#include "report/describe.h"

static void header(const struct ll_run *run, const char *const *profiles, size_t n,
		   struct strbuf *out)
{
	const struct ll_measure_thresholds *t = &run->thresholds;

	sb_adds(out, "# Written by layoutlint --write-rules from measurement; review and edit.\n");
	for (size_t i = 0; i < n; i++) {
		sb_adds(out, "# profile: ");
		sb_add_escaped(out, profiles[i]);
		sb_addc(out, '\n');
	}
	sb_adds(out, "# binary: ");
	sb_add_escaped(out, run->binary_path);
	sb_addf(out, ", build-id %s\n", run->build_id ? run->build_id : "none");
	sb_addf(out, "# thresholds: --measured-hot %g (percent of the struct's samples), "
		"--measured-writes %g (percent of a member's samples)\n", t->hot_pct, t->write_pct);
	sb_adds(out, "# write-hot: hot and written at least that often; read-mostly: hot and "
		"written less;\n# cold: never sampled; sampled below the hot threshold: left "
		"untagged.\n");
	sb_adds(out, "rules-version 1\n");
}

static const char *tag_word(enum ll_tag tag)
{
	return tag == LL_WRITE_HOT ? "write-hot" : tag == LL_READ_MOSTLY ? "read-mostly" : "cold";
}

/* One statement per hot member, with its measure; the cold ones on one line. */
static void block(const struct ll_linted *l, const struct ll_measure_thresholds *t,
		  struct strbuf *out)
{
	const struct ll_struct *s = l->layout;
	const struct ll_units *units = &l->units;
	bool cold = false;

	/* A name with blanks (a C++ template) is quoted, as rules files take it. */
	sb_addf(out, strpbrk(s->name, " \t") ? "\n%s '%s'\n" : "\n%s %s\n", ll_kind_name(s->kind),
		s->name);
	if (!s->measured_access)
		sb_adds(out, "\t# the profile does not say loads from stores: hot members are "
			"listed untagged\n");
	for (size_t i = 0; i < units->n; i++) {
		const struct ll_member *m = units->v[i].m;
		enum ll_tag tag = ll_measured_tag(m, s, t);
		struct ll_measure ms = { 0 };

		if (!m->path || tag == LL_COLD)
			continue;
		ll_member_measure(m, &ms);
		if (tag == LL_UNTAGGED) {
			sb_addf(out, "\t# %s: %.0f samples, %s\n", m->path, ms.samples,
				ll_measured_hot(m, s, t) ? "hot" : "below the hot threshold");
			continue;
		}
		sb_addf(out, "\t%-12s %s\t# %.0f samples, ", tag_word(tag), m->path, ms.samples);
		ll_percent_describe(100.0 * ms.samples / s->measured_samples, out);
		sb_adds(out, " of the struct's, ");
		ll_percent_describe(ms.samples > 0 ? 100.0 * ms.writes / ms.samples : 0, out);
		sb_adds(out, " writes\n");
	}
	for (size_t i = 0; i < units->n; i++) {
		const struct ll_member *m = units->v[i].m;

		if (!m->path || ll_measured_tag(m, s, t) != LL_COLD)
			continue;
		sb_addf(out, "%s %s", cold ? "" : "\tcold        ", m->path);
		cold = true;
	}
	if (cold)
		sb_adds(out, "\t# never sampled\n");
}

void ll_report_rules(const struct ll_run *run, const char *const *profiles, size_t n,
		     struct strbuf *out)
{
	header(run, profiles, n, out);
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];
		bool seen = false;

		if (!l->layout->measured)
			continue;
		/* One block per name: rules merge blocks of one name, and would conflict. */
		for (size_t k = 0; k < i && !seen; k++)
			seen = run->structs[k].layout->measured && run->structs[k].layout->kind ==
			       l->layout->kind && strcmp(run->structs[k].layout->name,
							 l->layout->name) == 0;
		if (!seen)
			block(l, &run->thresholds, out);
	}
}
