// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tags against the machine code (--access): a read-mostly member the
 * code stores outside its constructors (written-read-mostly), a write-hot
 * member nothing writes (unwritten-write-hot), and members on one line
 * written by disjoint sets of functions (static-write-domains, a note).
 * They read the evidence model/access.c mapped onto the members, and say
 * where each store is, so a reviewer can check the claim in the source.
 */
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "checks/checks.h"
#include "util/strbuf.h"

/* Sites shown as notes under one finding; the rest are counted. */
#define MAX_SITE_NOTES 8

static double coverage_pct(const struct ll_access_evidence *e)
{
	return e->operands ? 100.0 * (double)e->typed / (double)e->operands : 0;
}

/* "tcp_ack (inlined into tcp_rcv_established)". */
static void describe_function(struct strbuf *sb, const struct ll_access_site *x)
{
	sb_addf(sb, "%s", x->function ? x->function : "?");
	if (x->inlined_into)
		sb_addf(sb, " (inlined into %s)", x->inlined_into);
}

/* One note per runtime store or atomic site of U's member, at the site's source line. */
static size_t add_site_notes(struct ll_finding *f, const struct ll_access_view *v,
			     const struct ll_member *m)
{
	size_t shown = 0, total = 0;

	for (int k = LL_ACCESS_KIND_STORE; k <= LL_ACCESS_KIND_ATOMIC; k++) {
		struct ll_access_sites sites;

		ll_access_member_sites(v, m, (enum ll_access_kind)k, &sites);
		for (size_t i = 0; i < sites.n; i++) {
			const struct ll_access_site *x = &sites.v[i];
			struct ll_decl at = { .file = (char *)x->file, .line = x->line };
			struct strbuf sb = STRBUF_INIT;

			if (x->init)
				continue;
			total++;
			if (shown >= MAX_SITE_NOTES)
				continue;
			sb_addf(&sb, "%s %s by ", m->path,
				k == LL_ACCESS_KIND_ATOMIC ? "atomically updated" : "stored");
			describe_function(&sb, x);
			if (x->count > 1)
				sb_addf(&sb, " (%u instructions)", x->count);
			ll_finding_note(f, &at, "%s", sb.buf);
			sb_release(&sb);
			shown++;
		}
		ll_access_sites_release(&sites);
	}
	if (total > shown)
		ll_finding_note(f, &m->decl, "and %zu more site%s (--format=json lists every one)",
				total - shown, total - shown == 1 ? "" : "s");
	return total;
}

static struct ll_finding *new_finding(const struct ll_check_input *in, const struct ll_unit *u,
				      enum ll_check id, struct ll_findings *out)
{
	uint64_t first, last;
	struct ll_finding *f = ll_check_finding_add(out, id,
		ll_member_lines(u->m, in->s->cacheline, &first, &last) ? (int64_t)first : -1);

	f->tier = LL_TIER_STATIC;
	f->location = u->m->decl;
	ll_finding_member(f, u->m->path);
	ll_finding_pair(f, u->m->path, NULL);
	return f;
}

static void check_written_read_mostly(const struct ll_check_input *in, const struct ll_unit *u,
				      struct ll_findings *out)
{
	const struct ll_access_view *v = in->access;
	struct ll_access_summary sum;
	const char **writers = NULL;
	size_t nw;
	struct strbuf msg = STRBUF_INIT;
	struct ll_finding *f;

	ll_access_member_summary(v, u->m, &sum);
	if (!sum.runtime_writes)
		return;
	nw = ll_access_writers(v, u->m, &writers);
	f = new_finding(in, u, LL_CHECK_WRITTEN_READ_MOSTLY, out);
	unsigned stores = sum.runtime_writes - sum.runtime_atomics;

	/* "1 store", "20 atomic updates", "20 atomic updates and 2 stores". */
	sb_addf(&msg, "read-mostly %s is written outside constructors: ", u->m->path);
	if (sum.runtime_atomics)
		sb_addf(&msg, "%u atomic update%s%s", sum.runtime_atomics,
			sum.runtime_atomics == 1 ? "" : "s", stores ? " and " : "");
	if (stores)
		sb_addf(&msg, "%u store%s", stores, stores == 1 ? "" : "s");
	sb_addf(&msg, " in %zu function%s (", nw, nw == 1 ? "" : "s");
	for (size_t i = 0; i < nw && i < 3; i++)
		sb_addf(&msg, "%s%s", i ? ", " : "", writers[i]);
	sb_addf(&msg, "%s)", nw > 3 ? ", ..." : "");
	f->message = sb_detach(&msg);
	add_site_notes(f, v, u->m);
	ll_finding_seal(f, in->s);
	free(writers);
}

static void check_unwritten_write_hot(const struct ll_check_input *in, const struct ll_unit *u,
				      struct ll_findings *out)
{
	const struct ll_access_view *v = in->access;
	struct ll_access_summary sum;
	struct ll_finding *f;
	struct strbuf msg = STRBUF_INIT;

	/* Code that never handles the struct says nothing about its members. */
	if (!v->e->functions)
		return;
	ll_access_member_summary(v, u->m, &sum);
	if (sum.runtime_writes)
		return;
	f = new_finding(in, u, LL_CHECK_UNWRITTEN_WRITE_HOT, out);
	sb_addf(&msg, "write-hot %s is never written outside constructors by this image's code "
		"(%u load%s in %u function%s; %.0f%% of the memory operands of the %zu functions "
		"handling %s %s typed)", u->m->path, sum.count[LL_ACCESS_KIND_LOAD],
		sum.count[LL_ACCESS_KIND_LOAD] == 1 ? "" : "s", sum.load_functions,
		sum.load_functions == 1 ? "" : "s", coverage_pct(v->e), v->e->functions,
		ll_kind_name(in->s->kind), in->s->name);
	f->message = sb_detach(&msg);
	ll_finding_seal(f, in->s);
}

/* Do two sorted name lists share no name? */
static bool disjoint(const char **a, size_t na, const char **b, size_t nb)
{
	size_t i = 0, k = 0;

	while (i < na && k < nb) {
		int c = strcmp(a[i], b[k]);

		if (!c)
			return false;
		if (c < 0)
			i++;
		else
			k++;
	}
	return true;
}

/*
 * The first two members of LINE written at run time by disjoint sets of
 * functions: a note that they may be write domains of their own.
 */
static void check_line_domains(const struct ll_check_input *in, const struct ll_line *line,
			       struct ll_findings *out)
{
	const struct ll_access_view *v = in->access;
	const char **w[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };

	for (size_t i = 0; i < line->nr_units; i++) {
		const struct ll_unit *a = line->units[i];

		if (!a->m->path || ll_check_allowed(in->allows, in->nr_allows, LL_CHECK_STATIC_WRITE_DOMAINS,
					      a->m->path))
			continue;
		n[0] = ll_access_writers(v, a->m, &w[0]);
		for (size_t k = i + 1; n[0] && k < line->nr_units; k++) {
			const struct ll_unit *b = line->units[k];
			struct ll_finding *f;

			if (!b->m->path || b->m == a->m)
				continue;
			n[1] = ll_access_writers(v, b->m, &w[1]);
			if (n[1] && disjoint(w[0], n[0], w[1], n[1])) {
				f = ll_check_finding_add(out, LL_CHECK_STATIC_WRITE_DOMAINS, (int64_t)line->index);
				f->tier = LL_TIER_STATIC;
				f->location = a->m->decl;
				f->message = NULL;
				{
					struct strbuf msg = STRBUF_INIT;

					ll_line_words(&msg, line);
					sb_addf(&msg, ": %s (written by %s%s) and %s "
						"(written by %s%s) have no writer in common: "
						"candidate write domains",
						a->m->path, w[0][0],
						n[0] > 1 ? ", ..." : "", b->m->path, w[1][0],
						n[1] > 1 ? ", ..." : "");
					f->message = sb_detach(&msg);
				}
				ll_finding_member(f, a->m->path);
				ll_finding_member(f, b->m->path);
				ll_finding_pair(f, a->m->path, b->m->path);
				ll_finding_seal(f, in->s);
				free(w[1]);
				free(w[0]);
				return;
			}
			free(w[1]);
		}
		free(w[0]);
	}
}

void ll_check_access(const struct ll_check_input *in, const struct ll_units *units,
		     const struct ll_lines *lines, struct ll_findings *out)
{
	for (size_t i = 0; i < units->n; i++) {
		const struct ll_unit *u = &units->v[i];

		if (!u->m->path)
			continue;
		if (u->tag == LL_READ_MOSTLY &&
		    !ll_check_allowed(in->allows, in->nr_allows, LL_CHECK_WRITTEN_READ_MOSTLY, u->m->path))
			check_written_read_mostly(in, u, out);
		else if (u->tag == LL_WRITE_HOT &&
			 !ll_check_allowed(in->allows, in->nr_allows, LL_CHECK_UNWRITTEN_WRITE_HOT, u->m->path))
			check_unwritten_write_hot(in, u, out);
	}
	for (size_t i = 0; i < lines->n; i++)
		check_line_domains(in, &lines->v[i], out);
}
