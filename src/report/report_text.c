// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The human listing: pahole-like, with each member's cacheline, tag and
 * each line's verdict, then findings as gcc-style diagnostics.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "checks/groups.h"
#include "report/describe.h"
#include "model/profile.h"
#include "report/report.h"

#include "report/listing.h"

#include "checks/catalog.h"
#include "solver/suggest.h"

#define DECL_COLUMN 48

struct text_ctx {
	struct strbuf *out;
	const struct ll_struct *s;
	uint64_t next_boundary;	/* offset of the next cacheline marker to print */
	bool color;
	const struct ll_groups *groups;	/* kernel cacheline groups of s */
	const struct ll_access_view *access;	/* --access: the code's evidence; e NULL: none */
};

static const char *color(const struct text_ctx *c, const char *code)
{
	return c->color ? code : "";
}

/* The binary L was read from; the run's path is escaped already (ll_report_text). */
static void binary_of(struct strbuf *out, const struct ll_run *run, const struct ll_linted *l)
{
	if (l->binary)
		sb_add_escaped(out, l->binary);
	else
		sb_adds(out, run->binary_path);
}

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_DIM "\033[2m"

static void markers_before(struct text_ctx *c, uint64_t begin, int depth)
{
	ll_listing_boundaries(c->out, &c->next_boundary, c->s->size, c->s->cacheline, begin, depth,
			      color(c, C_CYAN), color(c, C_RESET));
}

/* --profile: the member's samples, its share of the struct's and, when known, its writes. */
static void measure_column(struct text_ctx *c, const struct ll_member *m)
{
	const struct ll_struct *s = c->s;
	struct ll_measure ms = { 0 };

	if (!s->measured)
		return;
	ll_member_measure(m, &ms);
	sb_addf(c->out, " measured %.0f", ms.samples);
	if (ms.samples > 0 && s->measured_samples > 0) {
		sb_adds(c->out, " (");
		sb_add_percent(c->out, 100.0 * ms.samples / s->measured_samples);
		sb_adds(c->out, ")");
	}
	if (s->measured_access && ms.samples > 0) {
		sb_adds(c->out, " writes ");
		sb_add_percent(c->out, 100.0 * ms.writes / ms.samples);
	}
}

/*
 * --access: how many functions load, store (and, apart, how many
 * constructors store) and atomically update the member.
 */
static void access_column(struct text_ctx *c, const struct ll_member *m)
{
	struct ll_access_summary sum;
	struct ll_access_sites sites;
	size_t init = 0;

	if (!c->access || !c->access->e)
		return;
	ll_access_member_summary(c->access, m, &sum);
	ll_access_member_sites(c->access, m, LL_ACCESS_KIND_STORE, &sites);
	for (size_t i = 0; i < sites.n; i++)
		init += sites.v[i].init && (i == 0 || sites.v[i - 1].function != sites.v[i].function);
	ll_access_sites_release(&sites);
	sb_addf(c->out, " code: %u load %u write", sum.load_functions, sum.writer_functions);
	if (init)
		sb_addf(c->out, " %zu init", init);
}

static void position(struct text_ctx *c, const struct ll_member *m)
{
	unsigned cl = c->s->cacheline;
	struct ll_extent e = ll_member_extent(m);

	/* printf's "%5u:%-2u line %u +%-3u %4u:%-2u", without a format to parse */
	sb_adds(c->out, "/* ");
	sb_add_u64(c->out, m->is_bitfield ? m->bit_offset / 8 : m->offset, 5);
	if (m->is_bitfield) {
		sb_addc(c->out, ':');
		sb_add_u64(c->out, m->bit_offset % 8, -2);
	} else {
		sb_adds(c->out, "   ");
	}
	sb_adds(c->out, " line ");
	sb_add_u64(c->out, e.begin / cl, 0);
	sb_adds(c->out, " +");
	sb_add_u64(c->out, e.begin % cl, -3);
	sb_addc(c->out, ' ');
	sb_add_u64(c->out, m->size, 4);
	if (m->is_bitfield) {
		sb_addc(c->out, ':');
		sb_add_u64(c->out, m->bit_size, -2);
	} else {
		sb_adds(c->out, "   ");
	}
	uint64_t first, last;

	if (ll_member_lines(m, cl, &first, &last) && last != first)
		sb_addf(c->out, " spans lines %" PRIu64 "-%" PRIu64, first, last);
	if (m->tag != LL_UNTAGGED) {
		const char *col = m->tag == LL_WRITE_HOT ? C_RED :
				  m->tag == LL_READ_MOSTLY ? C_MAGENTA : C_DIM;

		sb_addf(c->out, " %s%s%s%s%s", color(c, col), ll_tag_name(m->tag),
			m->domain ? ":" : "", m->domain ? m->domain : "", color(c, C_RESET));
	}
	ll_groups_marker_note(c->groups, m, c->out);
	measure_column(c, m);
	access_column(c, m);
	sb_adds(c->out, " */\n");
}

static void hole_line(struct text_ctx *c, const struct ll_hole *h, int depth)
{
	ll_listing_indent(c->out, depth);
	if (h->bits)
		sb_addf(c->out, "/* XXX %" PRIu64 " bit%s hole */\n", h->bits, h->bits == 1 ? "" : "s");
	else if (h->is_padding)
		sb_addf(c->out, "/* XXX %" PRIu64 " byte%s padding */\n", h->size,
			h->size == 1 ? "" : "s");
	else
		sb_addf(c->out, "/* XXX %" PRIu64 " byte%s hole */\n", h->size,
			h->size == 1 ? "" : "s");
}

static void list_level(struct text_ctx *c, const struct ll_member *members, size_t n,
		       enum ll_kind kind, uint64_t begin, uint64_t size, int depth,
		       bool outermost)
{
	struct ll_holes holes = { 0 };
	size_t cursor = 0;

	ll_find_holes(members, n, kind, begin, size, &holes);
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i];
		struct ll_extent e = ll_member_extent(m);
		const struct ll_hole *after;
		size_t line_start, nr_after;

		markers_before(c, e.begin, depth);
		line_start = c->out->len;
		ll_listing_indent(c->out, depth);
		if (m->is_aggregate && !m->name) {
			sb_addf(c->out, "%s {\n", ll_kind_name(m->agg_kind));
			list_level(c, m->children, m->nr_children, m->agg_kind, m->offset,
				   m->size, depth + 1, false);
			line_start = c->out->len;
			ll_listing_indent(c->out, depth);
			sb_addf(c->out, "}%s%s;", m->name ? " " : "", m->name ? m->name : "");
		} else if (m->is_base) {
			sb_addf(c->out, "%s;", m->name);	/* "<base NAME>" says it all */
		} else {
			ll_listing_member_decl(c->out, m);
		}
		ll_listing_pad_to(c->out, line_start, DECL_COLUMN);
		position(c, m);
		after = ll_holes_after(&holes, m, &cursor, &nr_after);
		for (size_t h = 0; h < nr_after; h++)
			if (!(outermost && after[h].is_padding))
				hole_line(c, &after[h], depth);
	}
	ll_holes_free(&holes);
}

static void tag_summary(struct text_ctx *c, const struct ll_linted *l);

static void listing(const struct ll_run *run, const struct ll_linted *l, struct strbuf *out)
{
	const struct ll_struct *s = l->layout;
	struct text_ctx c = { .out = out, .s = s, .next_boundary = s->cacheline,
			      .color = run->color };

	c.groups = &l->groups;
	c.access = &l->access;
	/* Several binaries: which one this struct, and any finding without a file, is from. */
	if (run->binaries) {
		sb_adds(out, "/* in ");
		binary_of(out, run, l);
		sb_adds(out, " */\n");
	}
	sb_addf(out, "%s%s %s%s {", color(&c, C_BOLD), ll_kind_name(s->kind), s->name,
		color(&c, C_RESET));
	if (s->decl.file)
		sb_addf(out, "\t/* %s:%u */", s->decl.file, s->decl.line);
	sb_addc(out, '\n');
	list_level(&c, s->members, s->nr_members, s->kind, 0, s->size, 0, true);
	ll_listing_summary(out, s);
	sb_addf(out, "; alignment: %" PRIu64 "%s */\n", s->alignment, s->explicit_align ? " (explicit)" :
		s->alignment_inferred ? " (inferred)" : "");
	ll_groups_summary(&l->groups, out);
	if (l->access.e) {
		const struct ll_access_evidence *e = l->access.e;

		sb_addf(out, "\t/* code: %zu function%s touch it; %" PRIu64 " of their %" PRIu64
			" memory operands typed (", e->functions, e->functions == 1 ? "" : "s",
			e->typed, e->operands);
		sb_add_percent(out, e->operands ? 100.0 * (double)e->typed / (double)e->operands : 0);
		sb_addf(out, "); %zu constructor%s", l->access.nr_init_functions,
			l->access.nr_init_functions == 1 ? "" : "s");
		/* What could not be read is said, never passed over. */
		if (e->skipped_functions || e->undecoded_bytes)
			sb_addf(out, "; the image's %" PRIu64 " function ranges without code and %"
				PRIu64 " bytes that did not decode were skipped", e->skipped_functions,
				e->undecoded_bytes);
		sb_adds(out, " */\n");
	}
	if (l->has_rules || ll_groups_tagged(s) || l->access.e)
		tag_summary(&c, l);
	sb_adds(out, "};\n");
}

static void tag_summary(struct text_ctx *c, const struct ll_linted *l)
{
	const struct ll_units *units = &l->units;
	const struct ll_lines *lines = &l->lines;
	size_t tagged = 0;
	size_t nr_checks;
	const struct ll_check_def *checks = ll_catalog(&nr_checks);

	for (size_t i = 0; i < units->n; i++)
		tagged += units->v[i].tag != LL_UNTAGGED;
	sb_addf(c->out, "\t/* tagged: %zu, untagged: %zu; findings: %zu", tagged,
		units->n - tagged, l->findings.n);
	for (size_t r = 0, first = 1; r < nr_checks; r++) {
		size_t n = 0;

		for (size_t i = 0; i < l->findings.n; i++)
			n += strcmp(l->findings.v[i].rule, checks[r].id) == 0;
		if (n) {
			sb_addf(c->out, "%s%s %zu", first ? " (" : ", ", checks[r].id, n);
			first = 0;
		}
	}
	for (size_t i = 0; i < l->findings.n; i++) {
		sb_addc(c->out, ')');
		break;
	}
	sb_adds(c->out, " */\n\t/* verdicts:");
	for (size_t i = 0; i < lines->n; i++) {
		const struct ll_line *line = &lines->v[i];
		enum ll_verdict v = line->verdict;
		const char *col = v == LL_VERDICT_CLEAN ? C_DIM :
				  v == LL_VERDICT_UNTAGGED_ONLY ? "" : C_RED;

		/* A run of lines alike is one item ("lines 1-14 clean"), as the listing elides it. */
		if (line->count >= LL_LINE_RUN_MIN) {
			sb_addf(c->out, "%s lines %" PRIu64 "-%" PRIu64 " %s%s%s", i ? "," : "",
				line->index, ll_line_last(line), color(c, col), ll_verdict_name(v),
				color(c, C_RESET));
			continue;
		}
		for (uint64_t k = line->index; k <= ll_line_last(line); k++)
			sb_addf(c->out, "%s line %" PRIu64 " %s%s%s", k ? "," : "", k, color(c, col),
				ll_verdict_name(v), color(c, C_RESET));
	}
	sb_adds(c->out, " */\n");
}

/* gcc's form, so editors and review bots parse it: FILE:LINE:COL: level: msg [rule] */
static void location(struct strbuf *out, const struct ll_run *run, const struct ll_linted *l,
		     const struct ll_decl *d)
{
	const struct ll_struct *s = l->layout;

	if (d->file && d->line) {
		sb_addf(out, "%s:%u:", d->file, d->line);
		if (d->column)
			sb_addf(out, "%u:", d->column);
	} else {
		binary_of(out, run, l);
		sb_addf(out, ": %s %s:", ll_kind_name(s->kind), s->name);
	}
}

/* Gating: a finding that also has old pairs says which ones are new. */
static void new_pairs_note(const struct ll_run *run, const struct ll_linted *l, size_t i,
			   struct strbuf *out)
{
	const struct ll_finding *f = &l->findings.v[i];
	const struct ll_gate_mark *m = &l->marks[i];

	if (m->nr_new == m->nr_pairs)
		return;
	location(out, run, l, &f->location);
	sb_addf(out, " note: new since %s: ", run->gating->reference);
	ll_gate_describe_new(f, m, out);
	sb_addf(out, " (%zu of %zu pairs were already there)\n", m->nr_pairs - m->nr_new,
		m->nr_pairs);
}

/* --against: what moved, per struct. */
static void layout_diff(const struct ll_run *run, const struct ll_linted *l, struct strbuf *out)
{
	const struct ll_layout_diff *d = l->diff;
	const struct ll_struct *s = l->layout;
	char a[64], b[64];

	sb_addf(out, "\n%s %s against ", ll_kind_name(s->kind), s->name);
	if (d->reference)
		sb_add_escaped(out, d->reference);
	else
		sb_adds(out, run->gating->reference);
	sb_addc(out, ':');
	if (!d->in_reference) {
		sb_adds(out, " not defined there; all its findings are new\n");
		return;
	}
	sb_addc(out, '\n');
	if (d->old_size != d->new_size || d->old_cachelines != d->new_cachelines)
		sb_addf(out, "\tsize: %llu -> %llu bytes, cachelines: %llu -> %llu\n",
			(unsigned long long)d->old_size, (unsigned long long)d->new_size,
			(unsigned long long)d->old_cachelines, (unsigned long long)d->new_cachelines);
	else
		sb_addf(out, "\tsize: %llu bytes, cachelines: %llu (unchanged)\n",
			(unsigned long long)d->new_size, (unsigned long long)d->new_cachelines);
	for (size_t i = 0; i < d->nr_moved; i++) {
		const struct ll_diff_member *m = &d->moved[i];

		sb_addf(out, "\tmoved:   %s: %s -> %s\n", m->path,
			ll_diff_lines(m->old_lines, m->old_first, m->old_last, a, sizeof(a)),
			ll_diff_lines(m->new_lines, m->new_first, m->new_last, b, sizeof(b)));
	}
	for (size_t i = 0; i < d->nr_added; i++)
		sb_addf(out, "\tadded:   %s: %s\n", d->added[i].path,
			ll_diff_lines(d->added[i].new_lines, d->added[i].new_first,
				      d->added[i].new_last, a, sizeof(a)));
	for (size_t i = 0; i < d->nr_removed; i++)
		sb_addf(out, "\tremoved: %s: was %s\n", d->removed[i].path,
			ll_diff_lines(d->removed[i].old_lines, d->removed[i].old_first,
				      d->removed[i].old_last, a, sizeof(a)));
	if (!d->nr_moved && !d->nr_added && !d->nr_removed)
		sb_adds(out, "\tno member added, removed or moved to another cacheline\n");
}

/* --strict-baseline: reference pairs that no longer occur fail the run. */
static void vanished(const struct ll_gating *g, struct strbuf *out)
{
	for (size_t i = 0; i < g->nr_vanished; i++) {
		const struct ll_pairkey *k = &g->vanished[i];

		if (k->line)
			sb_addf(out, "%s:%u: error: baseline pair no longer occurs: ", g->reference,
				k->line);
		else
			sb_addf(out, "%s: error: reference pair no longer occurs: ", g->reference);
		ll_pairkey_describe(k, out);
		sb_adds(out, "; shrink the baseline with --write-baseline [strict-baseline]\n");
	}
}

static void diagnostics(const struct ll_run *run, const struct ll_linted *l, struct strbuf *out)
{
	const char *levels[] = { C_BOLD "\033[36m", C_MAGENTA, C_RED };

	for (size_t i = 0; i < l->findings.n; i++) {
		const struct ll_finding *f = &l->findings.v[i];

		if (run->color)
			sb_adds(out, C_BOLD);
		location(out, run, l, &f->location);
		sb_addf(out, "%s %s%s:%s %s [%s]\n", run->color ? C_RESET : "",
			run->color ? levels[f->level] : "", ll_level_name(f->level),
			run->color ? C_RESET : "", f->message, f->rule);
		for (size_t n = 0; n < f->nr_notes; n++) {
			location(out, run, l, &f->notes[n].decl);
			sb_addf(out, " note: %s\n", f->notes[n].message);
		}
		if (l->marks)
			new_pairs_note(run, l, i, out);
	}
}

/* BTF (or DWARF without decl_file) locates findings at the binary: say how to do better. */
static void no_location_note(const struct ll_run *run, struct strbuf *out)
{
	for (size_t i = 0; i < run->nr_structs; i++) {
		for (size_t k = 0; k < run->structs[i].findings.n; k++) {
			const struct ll_decl *d = &run->structs[i].findings.v[k].location;

			if (d->file && d->line)
				continue;
			/* The symbol table names variables, it does not place them. */
			if (run->structs[i].layout->kind == LL_GLOBALS)
				continue;
			binary_of(out, run, &run->structs[i]);
			sb_adds(out, ": note: no source locations in this input (BTF records none); "
				"for FILE:LINE, lint the same build's binary with DWARF (a vmlinux "
				"or module from the debug package)\n");
			return;
		}
	}
}

static void report_text(const struct ll_run *run, struct strbuf *out);

/* The binary's and the reference's paths come from the command line: escaped too. */
void ll_report_text(const struct ll_run *run, struct strbuf *out)
{
	struct ll_run safe = *run;
	struct ll_gating gating;
	char *binary = run->binary_path ? xstrdup(run->binary_path) : NULL;
	char *reference = NULL;

	ll_escape_in_place(&binary);
	safe.binary_path = binary;
	if (run->gating) {
		gating = *run->gating;
		reference = gating.reference ? xstrdup(gating.reference) : NULL;
		ll_escape_in_place(&reference);
		gating.reference = reference;
		safe.gating = &gating;
	}
	report_text(&safe, out);
	free(binary);
	free(reference);
}

static void report_text(const struct ll_run *run, struct strbuf *out)
{
	bool any = false;

	for (size_t i = 0; i < run->nr_structs && !run->quiet; i++) {
		if (i)
			sb_addc(out, '\n');
		listing(run, &run->structs[i], out);
		if (run->structs[i].diff)
			layout_diff(run, &run->structs[i], out);
	}
	if (run->contracts && !run->quiet) {
		sb_addc(out, '\n');
		ll_report_contracts_text(run->contracts, out);
	}
	for (size_t i = 0; i < run->nr_structs; i++)
		any |= run->structs[i].findings.n > 0;
	if (any && !run->quiet)
		sb_addc(out, '\n');
	for (size_t i = 0; i < run->nr_structs; i++)
		diagnostics(run, &run->structs[i], out);
	no_location_note(run, out);
	/* --suggest was asked for: shown even with -q. */
	for (size_t i = 0; i < run->nr_structs; i++) {
		if (!run->structs[i].suggestion)
			continue;
		sb_addc(out, '\n');
		ll_report_suggestion(run->structs[i].layout, run->structs[i].suggestion,
				     run->structs[i].proposal.layout, out);
	}
	if (run->gating && run->gating->strict)
		vanished(run->gating, out);
}

void ll_report_checks(struct strbuf *out)
{
	size_t n;
	const struct ll_check_def *checks = ll_catalog(&n);

	for (size_t i = 0; i < n; i++)
		sb_addf(out, "%-16s %-8s %-8s %s\n", checks[i].id, ll_level_name(checks[i].level),
			checks[i].fixable_by_reorder ? "suggest" : "-", checks[i].summary);
}
