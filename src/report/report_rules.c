// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --write-rules: the tags a profile implies (ll_measured_tag), as a rules
 * file a person then reviews and edits. The header says where the tags
 * came from (profiles, binary, build-id) and by which thresholds, so that
 * a reviewer can tell measurement from judgement.
 */
#include <stdbool.h>
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

/*
 * Whether PATH reads back as the member it names: a rules pattern is
 * C identifiers joined by '.', where '*', '?' and '[' are globs and a
 * blank ends the word. A member DWARF names '*', '?flags' or "a b" would
 * come back as other patterns (every member, an optional one, two).
 */
static bool path_writable(const char *path)
{
	bool start = true;

	for (const char *c = path; *c; c++) {
		if (*c == '.' && !start) {
			start = true;
			continue;
		}
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' ||
		      (!start && *c >= '0' && *c <= '9')))
			return false;
		start = false;
	}
	return !start;
}

/*
 * Whether each named member on the way from V[0..N) down to M is a C
 * identifier (path_writable()): 1, 0 when one is not, -1 when M is not
 * among them.
 */
static int names_writable(const struct ll_member *v, size_t n, const struct ll_member *m)
{
	for (size_t i = 0; i < n; i++) {
		bool own = !v[i].name || v[i].is_base ||
			   (!strchr(v[i].name, '.') && path_writable(v[i].name));
		int below;

		if (&v[i] == m)
			return own;
		if (v[i].nr_children &&
		    (below = names_writable(v[i].children, v[i].nr_children, m)) >= 0)
			return below && own;
	}
	return -1;
}

/* M's path reads back as M: each name on it a C identifier ("x.y" is no member's name). */
static bool member_writable(const struct ll_struct *s, const struct ll_member *m)
{
	return path_writable(m->path) && names_writable(s->members, s->nr_members, m) != 0;
}

/* A struct name a rules file spells: one word, or quoted when it has blanks. */
static bool name_writable(const char *name)
{
	if (!*name)
		return false;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c == 0x7f || *c == '\'' || *c == '#' || *c >= 0x80)
			return false;
	return true;
}

static void not_written(const char *what, const char *name, struct strbuf *out)
{
	sb_addf(out, "\t# not written: %s ", what);
	sb_add_escaped(out, name);
	sb_adds(out, " is no C identifier a rules pattern can name\n");
}

/* One statement per hot member, with its measure; the cold ones on one line. */
static void block(const struct ll_linted *l, const struct ll_measure_thresholds *t,
		  struct strbuf *out)
{
	const struct ll_struct *s = l->layout;
	const struct ll_units *units = &l->units;
	bool cold = false;

	if (!name_writable(s->name)) {
		sb_adds(out, "\n# not written: ");
		sb_adds(out, ll_kind_name(s->kind));
		sb_addc(out, ' ');
		sb_add_escaped(out, s->name);
		sb_adds(out, ": a rules file cannot spell its name\n");
		return;
	}
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
		if (!member_writable(s, m)) {
			not_written("member", m->path, out);
			continue;
		}
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

		if (!m->path || ll_measured_tag(m, s, t) != LL_COLD || !member_writable(s, m))
			continue;
		sb_addf(out, "%s %s", cold ? "" : "\tcold        ", m->path);
		cold = true;
	}
	if (cold)
		sb_adds(out, "\t# never sampled\n");
	for (size_t i = 0; i < units->n; i++) {
		const struct ll_member *m = units->v[i].m;

		if (m->path && ll_measured_tag(m, s, t) == LL_COLD && !member_writable(s, m))
			not_written("cold member", m->path, out);
	}
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
