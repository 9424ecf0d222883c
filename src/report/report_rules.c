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
#include "util/c_ident.h"

/* "# binary: PATH, build-id ID": which build the tags were read from. */
static void binary_line(const struct ll_run *run, struct strbuf *out)
{
	sb_adds(out, "# binary: ");
	sb_add_escaped(out, run->binary_path);
	sb_addf(out, ", build-id %s\n", run->build_id ? run->build_id : "none");
}

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
	binary_line(run, out);
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
		if (!(start ? ll_c_ident_start(*c) : ll_c_ident_byte(*c)))
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

/* The block's first line; false (and a comment why) when a rules file cannot spell S's name. */
static bool open_block(const struct ll_struct *s, struct strbuf *out)
{
	if (!name_writable(s->name)) {
		sb_adds(out, "\n# not written: ");
		sb_adds(out, ll_kind_name(s->kind));
		sb_addc(out, ' ');
		sb_add_escaped(out, s->name);
		sb_adds(out, ": a rules file cannot spell its name\n");
		return false;
	}
	/* A name with blanks (a C++ template) is quoted, as rules files take it. */
	sb_addf(out, strpbrk(s->name, " \t") ? "\n%s '%s'\n" : "\n%s %s\n", ll_kind_name(s->kind),
		s->name);
	return true;
}

/* One statement per hot member, with its measure; the cold ones on one line. */
static void block(const struct ll_linted *l, const struct ll_measure_thresholds *t,
		  struct strbuf *out)
{
	const struct ll_struct *s = l->layout;
	const struct ll_units *units = &l->units;
	bool cold = false;

	if (!open_block(s, out))
		return;
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
		sb_add_percent(out, 100.0 * ms.samples / s->measured_samples);
		sb_adds(out, " of the struct's, ");
		sb_add_percent(out, ms.samples > 0 ? 100.0 * ms.writes / ms.samples : 0);
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

/* --access: "loaded in 166 functions, written in 10, atomic in 0; 2 constructors store it". */
static void describe_evidence(const struct ll_access_view *v, const struct ll_member *m,
			      struct strbuf *out)
{
	struct ll_access_summary sum;

	ll_access_member_summary(v, m, &sum);
	sb_addf(out, "loaded in %u function%s, written in %u", sum.load_functions,
		sum.load_functions == 1 ? "" : "s", sum.writer_functions);
	if (sum.count[LL_ACCESS_KIND_ATOMIC])
		sb_addf(out, " (%u atomic instruction%s)", sum.count[LL_ACCESS_KIND_ATOMIC],
			sum.count[LL_ACCESS_KIND_ATOMIC] == 1 ? "" : "s");
}

/* One statement per member the code tags, with its evidence; the rest as comments. */
static void static_block(const struct ll_linted *l, const struct ll_static_thresholds *t,
			 struct strbuf *out)
{
	const struct ll_struct *s = l->layout;
	const struct ll_units *units = &l->units;

	if (!open_block(s, out))
		return;
	sb_addf(out, "\t# %zu functions touch it; %.0f%% of their memory operands typed\n",
		l->access.e->functions, l->access.e->operands ?
		100.0 * (double)l->access.e->typed / (double)l->access.e->operands : 0.0);
	for (size_t i = 0; i < units->n; i++) {
		const struct ll_member *m = units->v[i].m;
		enum ll_tag tag = ll_static_tag(&l->access, m, t);

		if (!m->path)
			continue;
		if (!member_writable(s, m)) {
			not_written("member", m->path, out);
			continue;
		}
		if (tag == LL_UNTAGGED)
			sb_addf(out, "\t# %s: ", m->path);
		else
			sb_addf(out, "\t%-12s %s\t# ", tag_word(tag), m->path);
		describe_evidence(&l->access, m, out);
		sb_addc(out, '\n');
	}
}

static void static_header(const struct ll_run *run, struct strbuf *out)
{
	const struct ll_static_thresholds *t = &run->static_thresholds;

	sb_adds(out, "# Written by layoutlint --write-rules from the binary's code (--access); "
		"review and edit.\n");
	binary_line(run, out);
	sb_addf(out, "# thresholds: --static-readers %u, --static-writers %u (functions, "
		"constructors aside)\n", t->readers, t->writers);
	sb_adds(out, "# write-hot: updated atomically (or a lock taken there), or stored by that "
		"many functions\n# and a quarter as many as load it; read-mostly: loaded by that "
		"many and stored\n# only by constructors; the rest are comments with their "
		"evidence. Static: it says\n# who writes, not how often; a profile says that.\n");
	sb_adds(out, "rules-version 1\n");
}

static bool by_code(const struct ll_linted *l)
{
	return l->access.e != NULL;
}

static bool by_profile(const struct ll_linted *l)
{
	return l->layout->measured;
}

/*
 * One block per name: rules merge blocks of one name, and would conflict.
 * Whether a struct before I of the same kind and name had one (WRITES says
 * which structs get one).
 */
static bool written_before(const struct ll_run *run, size_t i,
			   bool (*writes)(const struct ll_linted *l))
{
	const struct ll_struct *s = run->structs[i].layout;

	for (size_t k = 0; k < i; k++)
		if (writes(&run->structs[k]) && run->structs[k].layout->kind == s->kind &&
		    strcmp(run->structs[k].layout->name, s->name) == 0)
			return true;
	return false;
}

void ll_report_rules(const struct ll_run *run, const char *const *profiles, size_t n,
		     struct strbuf *out)
{
	if (!n) {
		static_header(run, out);
		for (size_t i = 0; i < run->nr_structs; i++)
			if (run->structs[i].access.e && !written_before(run, i, by_code))
				static_block(&run->structs[i], &run->static_thresholds, out);
		return;
	}
	header(run, profiles, n, out);
	for (size_t i = 0; i < run->nr_structs; i++)
		if (run->structs[i].layout->measured && !written_before(run, i, by_profile))
			block(&run->structs[i], &run->thresholds, out);
}
