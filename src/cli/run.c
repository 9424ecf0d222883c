// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lint command: load the rules (and a baseline), pair each struct asked
 * for with its rules block, read every binary (and, with --against, its
 * reference), lint each struct with ll_lint_struct(), merge the binaries
 * into one run, gate it, render it with the chosen reporter and turn the
 * findings into the exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/contracts.h"
#include "cli/cli.h"
#include "gating/baseline.h"
#include "gating/change.h"
#include "input/elf/ikconfig.h"
#include "input/reader.h"
#include "lint/lint.h"
#include "model/access.h"
#include "report/report.h"
#include "rules/rules.h"
#include "source/asserts.h"
#include "source/net_cachelines.h"
#include "source/randstruct.h"
#include "util/diag.h"
#include "util/replace_file.h"
#include "util/strbuf.h"

static const char *query_kind_name(const struct ll_query *q)
{
	return q->kind == LL_QUERY_UNION ? "union" : q->kind == LL_QUERY_GLOBALS ? "global" : "struct";
}

static bool selects(const struct ll_query *q)
{
	return q->select && (q->select->cu_glob || q->select->by_size || q->select->by_die);
}

/* "--decl-file 'G', --size N" as given. */
static void describe_selection(const struct ll_query *q, struct strbuf *out)
{
	const struct ll_selector *s = q->select;

	if (q->decl_glob)
		sb_addf(out, "--decl-file '%s'", q->decl_glob);
	if (s && s->cu_glob)
		sb_addf(out, "%s--cu '%s'", out->len ? ", " : "", s->cu_glob);
	if (s && s->by_size)
		sb_addf(out, "%s--size %llu", out->len ? ", " : "", (unsigned long long)s->size);
	if (s && s->by_die)
		sb_addf(out, "%s--die 0x%llx", out->len ? ", " : "", (unsigned long long)s->die);
}

/*
 * What to add to "not found": for "a,b", that names are separate words
 * (pahole's -C takes a comma list; no C name holds a comma, a C++
 * template's arguments aside), before any closest name; else the closest
 * names, if any.
 */
static const char *missing_hint(const struct ll_query *q, const struct ll_lookup_result *r)
{
	static const char *const keywords[] = { "struct", "union", "class", "enum" };

	/* 'struct stats' quoted as one word: no C name holds a blank. */
	for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++) {
		size_t n = strlen(keywords[i]);

		if (strncmp(q->name, keywords[i], n) == 0 && (q->name[n] == ' ' || q->name[n] == '\t'))
			return "keyword and name are separate words (struct NAME), not one quoted word";
	}
	if (strchr(q->name, ',') && !strchr(q->name, '<'))
		return "names are separate words (BINARY file inode), not a comma list as pahole -C "
		       "takes";
	return r->detail;
}

/* Turn a failed lookup into the one-line error for exit status 2. */
static void lookup_error(const char *binary, const struct ll_query *q,
			 const struct ll_lookup_result *r, struct ll_error *err)
{
	const char *kind = query_kind_name(q);
	const char *hint;

	switch (r->status) {
	case LL_DECLARED_ONLY:
		ll_fail(err, "%s: %s %s is only declared, never defined, in this binary's debug info "
			"(look in the object or module that defines it)", binary, kind, q->name);
		break;
	case LL_AMBIGUOUS:
		ll_fail(err, "%s: %s %s has distinct definitions: %s; pick one with --decl-file GLOB, "
			"--cu GLOB, --size N or --die OFFSET", binary, kind, q->name,
			r->detail ? r->detail : "");
		break;
	case LL_MISSING:
		hint = missing_hint(q, r);
		if (r->detail && (q->decl_glob || selects(q))) {
			struct strbuf by = STRBUF_INIT;

			describe_selection(q, &by);
			ll_fail(err, "%s: no definition of %s %s matches %s (definitions: %s)",
				binary, kind, q->name, by.buf, r->detail);
			sb_release(&by);
		}
		else
			ll_fail(err, "%s: %s %s not found%s%s", binary, kind, q->name,
				hint ? "; " : "", hint ? hint : "");
		break;
	case LL_UNSUPPORTED:
		ll_fail(err, "%s: %s %s: %s", binary, kind, q->name, r->detail ? r->detail : "");
		break;
	case LL_FOUND:
		break;
	}
}

/* The rules block for a command-line query, matching kind when one was given. */
static struct ll_block *block_for(struct ll_rules *rules, const struct ll_query *q)
{
	if (q->kind == LL_QUERY_UNION)
		return ll_rules_find(rules, LL_UNION, q->name);
	if (q->kind == LL_QUERY_STRUCT)
		return ll_rules_find(rules, LL_STRUCT, q->name);
	if (q->kind == LL_QUERY_GLOBALS)
		return ll_rules_find(rules, LL_GLOBALS, q->name);
	struct ll_block *b = ll_rules_find(rules, LL_STRUCT, q->name);

	return b ? b : ll_rules_find(rules, LL_UNION, q->name);
}

/*
 * What to look up: the names given, each with its rules block; or, with
 * rules and no names, every aggregate the rules name.
 */
static void plan_queries(struct options *o, struct ll_rules *rules, struct ll_block ***blocks,
			 bool *from_rules)
{
	*from_rules = o->nr_queries == 0;
	if (*from_rules) {
		for (size_t i = 0; i < rules->nr_blocks; i++) {
			struct ll_block *b = &rules->blocks[i];

			o->queries = xgrow(o->queries, o->nr_queries, sizeof(*o->queries));
			o->queries[o->nr_queries++] = (struct ll_query){
				.name = b->name,
				.kind = (enum ll_query_kind)b->kind,
				.decl_glob = o->decl_glob ? o->decl_glob : b->in_glob,
				.select = &o->select,
			};
		}
		*blocks = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(**blocks));
		for (size_t i = 0; i < o->nr_queries; i++)
			(*blocks)[i] = &rules->blocks[i];
		return;
	}
	*blocks = xcalloc(o->nr_queries, sizeof(**blocks));
	for (size_t i = 0; i < o->nr_queries; i++) {
		(*blocks)[i] = block_for(rules, &o->queries[i]);
		if ((*blocks)[i] && !o->queries[i].decl_glob)
			o->queries[i].decl_glob = (*blocks)[i]->in_glob;
	}
}

/* One binary, linted: what cli_lint() reports, and what --against compares with. */
struct linted_binary {
	const char *path;
	struct ll_input *in;
	struct ll_run run;		/* run.structs: the structs found, in query order */
	long *struct_of_query;		/* index into run.structs, -1 when not found */
	/* --access: each found struct's evidence, which its layouts borrow. */
	struct ll_access_evidence **evidence;
	size_t nr_evidence;
};

/*
 * Which binary is being read, and what the binaries before it found: a
 * struct is missing only when no binary of the run defines it.
 */
struct lint_pass {
	bool reference;		/* --against OLD-BINARY: a missing struct is just absent */
	bool from_profile;	/* the queries are the profiles' types: many are not BINARY's */
	bool last;		/* the last binary under test: missing ones are decided here */
	const bool *found;	/* per query: some earlier binary defines it */
	struct refusals *refused;	/* NULL: a struct that cannot be linted fails the run */
	struct ll_notes *notes;		/* the format's (notes_in_report); NULL: printed at once */
};

/*
 * Several names asked for and one of them cannot be linted (not found,
 * only declared, ambiguous, of a shape layoutlint does not lay out): the
 * others are still reported, as pahole -C a,b and a compiler's errors do,
 * and each refusal is its own error line after the report; exit 2.
 */
struct refusals {
	char **lines;
	size_t n;
};

static void refusals_release(struct refusals *r)
{
	ll_strv_free(r->lines, r->n);
}

/* Each refusal as ll_report_error prints an error: one line. */
static void refusals_print(const struct refusals *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct ll_error e = { .located = false };

		snprintf(e.msg, sizeof(e.msg), "%s", r->lines[i]);
		ll_report_error(&e);
	}
}

/* A lookup that failed: kept for after the report when PASS allows, else the run's error. */
static int refuse(const struct lint_pass *pass, struct ll_error *err)
{
	struct refusals *r = pass->refused;

	if (!r)
		return -1;
	r->lines = xgrow(r->lines, r->n, sizeof(*r->lines));
	r->lines[r->n++] = xstrdup(err->msg);
	return 0;
}

/*
 * A struct no binary under test defines: an error, or a note for
 * rules-named structs (located at its rules block, as gcc locates one;
 * into NOTES when the format carries them). With several binaries the one
 * line says so.
 */
static int missing_struct(const struct options *o, const char *path, size_t i,
			  const struct ll_lookup_result *r, struct ll_block **blocks,
			  bool from_rules, struct ll_notes *notes, struct ll_error *err)
{
	lookup_error(path, &o->queries[i], r, err);
	if (o->nr_binaries > 1) {
		struct ll_error one = *err;

		ll_fail(err, "%s %s is defined by none of the %zu binaries (%s)",
			query_kind_name(&o->queries[i]), o->queries[i].name, o->nr_binaries, one.msg);
	}
	/* A kernel tree's rules cover vmlinux and modules: absence is news, not failure. */
	if (from_rules && !o->require_all && r->status != LL_AMBIGUOUS) {
		if (notes)
			ll_notes_addf(notes, "%s:%u: %s; skipped", blocks[i]->file,
				      blocks[i]->line, err->msg);
		else
			ll_linef("%s:%u: note: %s; skipped", blocks[i]->file, blocks[i]->line,
				 err->msg);
		return 0;
	}
	return -1;
}

/*
 * With several --cacheline sizes, every finding says under which: the same
 * line number means other bytes at another size.
 */
static void say_line_size(struct ll_linted *l)
{
	for (size_t f = 0; f < l->findings.n; f++) {
		struct ll_finding *x = &l->findings.v[f];
		struct strbuf sb = STRBUF_INIT;

		sb_addf(&sb, "%s (%u-byte lines)", x->message, l->layout->cacheline);
		free(x->message);
		x->message = sb_detach(&sb);
	}
}

/*
 * A struct the lookup found (R->layout, taken), linted with BLOCK once per
 * line size into LB's next structs: copies are made before any lint, which
 * tags the model it is given.
 */
static int lint_found(const struct options *o, struct ll_block *block,
		      struct ll_lookup_result *r, const struct cli_profiles *mine,
		      struct linted_binary *lb, struct ll_error *err)
{
	size_t sizes = 1 + o->nr_more_cachelines;
	struct ll_linted *first = &lb->run.structs[lb->run.nr_structs];

	for (size_t k = 0; k < sizes; k++)
		first[k].layout = k ? ll_struct_clone(r->layout) : r->layout;
	r->layout = NULL;
	lb->run.nr_structs += sizes;
	for (size_t k = 0; k < sizes; k++) {
		struct ll_linted *l = &first[k];
		struct ll_lint_opts lo = {
			.cacheline = k ? o->more_cachelines[k - 1] : o->cacheline,
			.arch_cacheline = ll_input_arch_cacheline(lb->in),
			.groups_off = o->groups_off,
			.adjacent_lines = o->adjacent_lines,
			.embed_path = o->in_path,
			.embed_type = o->in_type,
			.embed_block = o->in_block,
			.suggest = o->suggest,
			.patch = o->format->patch,
			.srcdir = o->srcdir,
			.profiles = (const struct ll_profile *const *)mine->v,
			.nr_profiles = mine->n,
			.thresholds = o->thresholds,
			.static_thresholds = o->static_thresholds,
			.static_tags = o->access,
		};

		if (ll_lint_struct(&lo, block, l, err))
			return -1;
		cli_print_notes(&l->profile_notes);
		if (sizes > 1)
			say_line_size(l);
	}
	return 0;
}

/*
 * Read PATH and lint every query with its rules block. A struct PATH does
 * not define is decided by missing_struct() once every binary under test
 * has been read; for the reference it is just absent.
 */
/*
 * --access: the evidence of every struct the lookup found, from one pass
 * over the machine code, borrowed by the layouts (lb owns it). Without
 * --access (CACHED_ONLY), what the access cache already holds: the code's
 * word is checked whenever it is at hand.
 */
static int read_access(struct linted_binary *lb, struct ll_lookup_result *results, size_t n,
		       bool cached_only, struct ll_error *err)
{
	const struct ll_struct **found = xcalloc(n ? n : 1, sizeof(*found));
	size_t k = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (results[i].status == LL_FOUND && results[i].layout->kind != LL_GLOBALS)
			found[k++] = results[i].layout;
	lb->evidence = xcalloc(k ? k : 1, sizeof(*lb->evidence));
	rc = k ? ll_input_access(lb->in, found, k, cached_only, lb->evidence, err) : 0;
	lb->nr_evidence = k;
	for (size_t i = 0; rc == 0 && i < k; i++)
		((struct ll_struct *)found[i])->access = lb->evidence[i];
	free(found);
	return rc;
}

static int lint_binary(const struct options *o, const char *path, struct ll_block **blocks,
		       bool from_rules, const struct lint_pass *pass, struct cli_profiles *profiles,
		       struct linted_binary *lb, struct ll_error *err)
{
	struct cli_profiles mine = { 0 };
	struct progress_line line = { 0 };
	struct ll_input_options io = {
		.srcdir = o->srcdir,
		.prefix_maps = o->prefix_maps,
		.nr_prefix_maps = o->nr_prefix_maps,
		.prefer_btf = o->btf,
		.btf_base = o->btf_base,
		.progress = cli_progress_for(&line),
		.cache_dir = o->cache_dir,
		.notes = pass->notes,
	};
	struct ll_lookup_result *results;
	int rc = -1;

	lb->path = path;
	lb->run.binary_path = path;
	lb->struct_of_query = xcalloc(o->nr_queries ? o->nr_queries : 1,
				      sizeof(*lb->struct_of_query));
	results = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*results));
	if (ll_input_open(path, &io, &lb->in, err) ||
	    ll_input_lookup(lb->in, o->queries, o->nr_queries, results, err))
		goto done;
	lb->run.build_id = ll_input_build_id(lb->in);
	if (!pass->reference && (o->access || o->cache_dir) &&
	    read_access(lb, results, o->nr_queries, !o->access, err))
		goto done;
	/* The reference of --against is another build: the profiles are not of it. */
	if (!pass->reference &&
	    cli_profiles_for_binary(profiles, path, lb->run.build_id, &mine, err))
		goto done;
	lb->run.structs = xcalloc((o->nr_queries ? o->nr_queries : 1) * (1 + o->nr_more_cachelines),
				  sizeof(*lb->run.structs));
	for (size_t i = 0; i < o->nr_queries; i++) {
		lb->struct_of_query[i] = -1;
		if (results[i].status == LL_FOUND) {
			lb->struct_of_query[i] = (long)lb->run.nr_structs;
			if (lint_found(o, blocks[i], &results[i], &mine, lb, err))
				goto done;
			continue;
		}
		if (results[i].status == LL_AMBIGUOUS && pass->from_profile) {
			lookup_error(path, &o->queries[i], &results[i], err);
			ll_notes_addf(pass->notes, "%s; skipped", err->msg);
			continue;
		}
		if (results[i].status == LL_AMBIGUOUS) {
			lookup_error(path, &o->queries[i], &results[i], err);
			if (refuse(pass, err))
				goto done;
			continue;
		}
		/* A profile's types include libc's and other binaries': absent is normal. */
		if (pass->reference || pass->from_profile)
			continue;	/* the diff says "not defined there" */
		if (!pass->last || pass->found[i])
			continue;	/* another binary of the run may define it, or does */
		if (missing_struct(o, path, i, &results[i], blocks, from_rules, pass->notes, err) &&
		    refuse(pass, err))
			goto done;
	}
	rc = 0;
done:
	free(mine.v);	/* borrowed the profiles */
	cli_progress_done(&line);
	for (size_t i = 0; i < o->nr_queries; i++)
		ll_lookup_result_release(&results[i]);
	free(results);
	return rc;
}

static void release_structs(struct ll_run *run)
{
	for (size_t i = 0; i < run->nr_structs; i++) {
		ll_layout_diff_free(run->structs[i].diff);
		ll_linted_release(&run->structs[i]);
	}
	ll_array_free(run->structs, run->nr_structs);
}

static void linted_binary_release(struct linted_binary *lb)
{
	release_structs(&lb->run);
	for (size_t i = 0; i < lb->nr_evidence; i++)
		ll_access_evidence_free(lb->evidence[i]);
	free(lb->evidence);
	free(lb->struct_of_query);
	ll_input_close(lb->in);
}

/* --against: each struct of CUR next to its namesake in OLD (at REFERENCE, for a directory). */
static void diff_layouts(const struct options *o, struct linted_binary *cur,
			 const struct linted_binary *old, const char *reference)
{
	for (size_t q = 0; q < o->nr_queries; q++) {
		long c = cur->struct_of_query[q], r = old->struct_of_query[q];

		if (c < 0)
			continue;
		cur->run.structs[c].diff =
			ll_layout_diff(r >= 0 ? old->run.structs[r].layout : NULL,
				       cur->run.structs[c].layout);
		cur->run.structs[c].diff->reference = reference;
		if (!o->layout_change_off)
			ll_layout_change_check(&cur->run.structs[c], o->layout_change_level);
	}
}

/*
 * Under gating, each suggestion becomes the smallest fix of the findings
 * the reference lacks: from OLD's layout of the struct with --against (its
 * namesake in the same binary's reference), from the current order with
 * --baseline.
 */
static int smallest_fixes(const struct options *o, struct linted_binary *cur,
			  const struct linted_binary *old, size_t nb, struct ll_pairset *ref,
			  struct ll_error *err)
{
	for (size_t b = 0; b < nb; b++) {
		for (size_t q = 0; q < o->nr_queries; q++) {
			long c = cur[b].struct_of_query[q];
			long r = o->against && old[b].struct_of_query ? old[b].struct_of_query[q] : -1;
			size_t sizes = 1 + o->nr_more_cachelines;

			for (size_t k = 0; c >= 0 && k < sizes; k++) {
				struct ll_linted *l = &cur[b].run.structs[c + (long)k];
				struct ll_fix_ref fr = {
					.ref = r >= 0 ? old[b].run.structs[r + (long)k].layout : NULL,
					.is_new = ll_pairset_finding_new,
					.arg = ref,
				};

				/* --against a build without the struct: everything in it is new. */
				if (o->against && r < 0)
					continue;
				if (ll_lint_smallest_fix(l, &fr, err))
					return -1;
			}
		}
	}
	return 0;
}

static bool has_dotdot(const char *path)
{
	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/') {
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			return true;
	}
	return false;
}

/*
 * --against REF: the reference of each binary. A directory holds REF/B for
 * each binary B, which must then be a relative path that stays below REF;
 * a file is the reference of the one binary there is. *IN_DIR: a directory.
 */
static int reference_paths(const struct options *o, char **refs, bool *in_dir,
			   struct ll_error *err)
{
	struct stat st;
	size_t len = strlen(o->against);

	*in_dir = stat(o->against, &st) == 0 && S_ISDIR(st.st_mode);
	if (!*in_dir) {
		if (o->nr_binaries > 1)
			return ll_fail(err, "--against %s: not a directory; with several --binary the "
				       "reference of each binary B is REF/B, so REF must be a directory",
				       o->against);
		refs[0] = xstrdup(o->against);
		return 0;
	}
	for (size_t i = 0; i < o->nr_binaries; i++) {
		const char *b = o->binaries[i];
		struct strbuf path = STRBUF_INIT;

		if (b[0] == '/' || has_dotdot(b))
			return ll_fail(err, "%s: --against %s is a directory, where the reference of "
				       "each binary B is REF/B: B must be a relative path without '..'",
				       b, o->against);
		sb_addf(&path, "%s%s%s", o->against, len && o->against[len - 1] == '/' ? "" : "/", b);
		refs[i] = sb_detach(&path);
	}
	return 0;
}

/* Did a struct of ALL already report F? Its fingerprint names rule, struct and members. */
static bool reported_before(const struct ll_run *all, const struct ll_finding *f)
{
	for (size_t i = 0; i < all->nr_structs; i++) {
		const struct ll_findings *v = &all->structs[i].findings;

		for (size_t k = 0; k < v->n; k++)
			if (f->fingerprint && v->v[k].fingerprint &&
			    strcmp(f->fingerprint, v->v[k].fingerprint) == 0)
				return true;
	}
	return false;
}

/* A struct reported again for its other layout repeats none of the findings ALL has. */
static void drop_repeated_findings(const struct ll_run *all, struct ll_linted *l)
{
	size_t kept = 0;

	for (size_t k = 0; k < l->findings.n; k++) {
		if (reported_before(all, &l->findings.v[k]))
			ll_finding_release(&l->findings.v[k]);
		else
			l->findings.v[kept++] = l->findings.v[k];
	}
	l->findings.n = kept;
}

/*
 * One run of the structs of every binary, in order, each knowing its
 * binary. A struct an earlier binary gave with the same layout is the same
 * struct (a header's struct in several objects): it is dropped, with its
 * findings; one with another layout is kept, without the findings already
 * reported (by fingerprint). The structs move from CUR to ALL.
 */
static void merge_binaries(struct linted_binary *cur, size_t nr, struct ll_run *all)
{
	for (size_t b = 0; b < nr; b++) {
		for (size_t i = 0; i < cur[b].run.nr_structs; i++) {
			struct ll_linted *l = &cur[b].run.structs[i];
			bool seen = false;

			for (size_t k = 0; k < all->nr_structs && !seen; k++)
				seen = ll_struct_same_layout(all->structs[k].layout, l->layout);
			if (seen) {
				ll_layout_diff_free(l->diff);
				ll_linted_release(l);
				continue;
			}
			drop_repeated_findings(all, l);
			l->binary = cur[b].path;
			all->structs = xgrow(all->structs, all->nr_structs, sizeof(*all->structs));
			all->structs[all->nr_structs++] = *l;
		}
		cur[b].run.nr_structs = 0;
	}
}

/*
 * SARIF's %SRCROOT%: --srcdir, which relative declaring files are shown
 * against, else the working directory, where relative command-line paths
 * (binaries, rules files, baselines) start. NULL when neither resolves.
 */
static char *source_root(const struct options *o)
{
	char *dir = o->srcdir ? realpath(o->srcdir, NULL) : getcwd(NULL, 0);

	if (!dir && o->srcdir && o->srcdir[0] == '/')
		dir = xstrdup(o->srcdir);
	return dir;
}

static void gating_summary(const struct ll_gating *g)
{
	const char *what = g->against ? "OLD-BINARY" : "the baseline";
	struct strbuf line = STRBUF_INIT;

	sb_addf(&line, "layoutlint: %s %s: %zu finding%s with new pairs (%zu new pair%s); "
		"%zu finding%s (%zu pair%s) already in %s suppressed",
		g->against ? "against" : "baseline", g->reference, g->reported_findings,
		g->reported_findings == 1 ? "" : "s", g->new_pairs, g->new_pairs == 1 ? "" : "s",
		g->suppressed_findings, g->suppressed_findings == 1 ? "" : "s",
		g->suppressed_pairs, g->suppressed_pairs == 1 ? "" : "s", what);
	if (g->nr_vanished)
		sb_addf(&line, "; %zu pair%s of %s no longer occur%s%s", g->nr_vanished,
			g->nr_vanished == 1 ? "" : "s", what, g->nr_vanished == 1 ? "s" : "",
			g->strict || g->against ? "" : " (--strict-baseline would fail)");
	/* The reference is a path: escaped, as every line that quotes one. */
	ll_linef("%s", line.buf);
	sb_release(&line);
}

static bool any_measured(const struct ll_run *run)
{
	for (size_t i = 0; i < run->nr_structs; i++)
		if (run->structs[i].layout->measured)
			return true;
	return false;
}

/*
 * --html FILE: the whole page or nothing, replaced as a baseline is
 * (util/replace_file.h): a fresh temporary file, never through a symbolic
 * link, renamed over a regular file only.
 */
static bool any_groups(const struct linted_binary *cur, size_t nb)
{
	for (size_t b = 0; b < nb; b++)
		for (size_t i = 0; i < cur[b].run.nr_structs; i++)
			if (cur[b].run.structs[i].groups.n)
				return true;
	return false;
}

/*
 * The kernel's contracts across the binaries, before they are merged:
 * group-assert (with --srcdir, when a struct linted has groups) adds its
 * findings to each binary's structs; several --binary get the per-image
 * table.
 */
static int check_contracts(const struct options *o, struct linted_binary *cur, size_t nb,
			   struct ll_group_asserts *asserts, struct ll_contracts *out,
			   struct ll_error *err)
{
	struct ll_contract_image *images = xcalloc(nb ? nb : 1, sizeof(*images));
	bool scan = o->srcdir && !o->groups_off && any_groups(cur, nb);

	if (scan && ll_scan_group_asserts(o->srcdir, asserts, err)) {
		free(images);
		return -1;
	}
	for (size_t b = 0; b < nb; b++)
		images[b] = (struct ll_contract_image){ cur[b].path, cur[b].run.structs,
							cur[b].run.nr_structs };
	ll_check_contracts(scan ? asserts : NULL, images, nb, out);
	ll_contracts_table(images, nb, out);
	free(images);
	return 0;
}

/*
 * doc-drift: the net_cachelines tables (--net-cachelines, else those under
 * --srcdir) against every struct of every binary they are of, before the
 * binaries are merged. With --write-net-cachelines, the first binary's
 * plans into PLANS.
 */
static int check_doc_drift(const struct options *o, struct linted_binary *cur, size_t nb,
			   struct ll_doc_tables *tables, struct ll_doc_plan **plans, size_t *nr_plans,
			   struct ll_error *err)
{
	for (size_t i = 0; i < o->nr_net_cachelines; i++)
		if (ll_doc_table_read(o->net_cachelines[i], o->net_cachelines[i], tables, err))
			return -1;
	if (!o->nr_net_cachelines && o->srcdir && !o->groups_off &&
	    ll_doc_tables_find(o->srcdir, tables, err))
		return -1;
	for (size_t b = 0; b < nb; b++) {
		for (size_t i = 0; i < cur[b].run.nr_structs; i++) {
			struct ll_linted *l = &cur[b].run.structs[i];

			if (l->layout->kind != LL_STRUCT || !l->layout->name)
				continue;
			/* With several line sizes, the first copy speaks for the struct. */
			if (i && cur[b].run.structs[i - 1].layout->name &&
			    strcmp(cur[b].run.structs[i - 1].layout->name, l->layout->name) == 0 &&
			    cur[b].run.structs[i - 1].layout->kind == LL_STRUCT)
				continue;
			for (size_t t = 0; t < tables->n; t++) {
				struct ll_doc_table *table = &tables->v[t];
				bool plan = b == 0 && (o->write_net_cachelines || o->group_markers);

				if (!table->struct_name || strcmp(table->struct_name, l->layout->name))
					continue;
				ll_doc_table_macros(table, o->srcdir, l->layout->decl.file);
				if (plan)
					*plans = xgrow(*plans, *nr_plans, sizeof(**plans));
				ll_check_doc_drift(table, l, plan ? &(*plans)[(*nr_plans)++] : NULL);
			}
		}
	}
	return 0;
}

/*
 * Without --config, the build BINARY says it is when it embeds its .config
 * (CONFIG_IKCONFIG): UNKNOWN when it does not. *LABEL: how the note names it.
 */
static int embedded_randstruct(const char *binary, enum ll_rand_config *config,
			       const char **label, struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	bool found;

	*config = LL_RAND_CONFIG_UNKNOWN;
	if (ll_elf_ikconfig(binary, &text, &found, err)) {
		sb_release(&text);
		return -1;
	}
	if (found) {
		ll_config_text_randstruct(text.buf ? text.buf : "", config);
		*label = "the image's embedded .config (CONFIG_IKCONFIG)";
	}
	sb_release(&text);
	return 0;
}

/*
 * randstruct: once per struct (with several line sizes, on the first),
 * what --srcdir's header and --config (or the image's own) say.
 */
static int note_randstruct(const struct options *o, struct linted_binary *cur, size_t nb,
			   struct ll_error *err)
{
	enum ll_rand_config given = LL_RAND_CONFIG_UNKNOWN;

	if (o->config && ll_config_randstruct(o->config, &given, err))
		return -1;
	for (size_t b = 0; b < nb; b++) {
		enum ll_rand_config config = given;
		const char *label = o->config;
		/* Read once per binary, and only for a struct noted anyway: it costs a scan. */
		bool read = o->config != NULL;

		for (size_t i = 0; i < cur[b].run.nr_structs; i++) {
			struct ll_linted *l = &cur[b].run.structs[i];
			unsigned line = 0;
			enum ll_rand_mark mark;
			struct ll_decl at;

			if (l->layout->kind != LL_STRUCT || !l->layout->name ||
			    (i && cur[b].run.structs[i - 1].layout->name &&
			     strcmp(cur[b].run.structs[i - 1].layout->name, l->layout->name) == 0))
				continue;
			mark = ll_source_randomized(o->srcdir, l->layout, &line);
			if (!read && ll_randstruct_candidate(l->layout, mark)) {
				read = true;
				if (embedded_randstruct(cur[b].path, &config, &label, err))
					return -1;
			}
			at = (struct ll_decl){ l->layout->decl.file, line, 0 };
			ll_note_randstruct(l, mark, o->srcdir != NULL, &at, config, label);
		}
	}
	return 0;
}

static int write_html(const char *path, const struct ll_run *run, struct ll_error *err)
{
	struct strbuf page = STRBUF_INIT;
	struct ll_pending_file pending = { 0 };
	int rc;

	ll_report_html(run, &page);
	rc = ll_file_prepare(path, "--html", "the HTML map", page.buf ? page.buf : "", page.len,
			     &pending, err);
	if (!rc)
		rc = ll_file_commit(&pending, err);
	ll_file_abandon(&pending);
	sb_release(&page);
	return rc;
}

/*
 * --write-rules FILE: the tags the profiles imply, as a rules file, put in
 * place like a baseline: written before any output, renamed over FILE
 * after it, never through a symbolic link.
 */
static int write_rules(const struct options *o, const struct ll_run *run,
		       struct ll_pending_file *pending, struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	ll_report_rules(run, o->profiles, o->nr_profiles, &text);
	rc = ll_file_prepare(o->write_rules, "--write-rules", "the rules", text.buf, text.len,
			     pending, err);
	sb_release(&text);
	return rc;
}

/*
 * A thin archive among the binaries (kbuild's built-in.a) is its member
 * objects, in its order, as if each were given with --binary: one report
 * for all of them, each struct once, and under --against DIR each member
 * M compared with DIR/M.
 */
static int expand_archives(struct options *o, struct ll_error *err)
{
	const char **out = NULL;
	size_t n = 0;
	bool any = false;

	for (size_t b = 0; b < o->nr_binaries; b++) {
		char **members;
		size_t nm;
		int rc = ll_input_archive_members(o->binaries[b], &members, &nm, err);

		if (rc < 0) {
			free(out);
			return -1;
		}
		if (rc == 0) {
			out = xgrow(out, n, sizeof(*out));
			out[n++] = o->binaries[b];
			continue;
		}
		any = true;
		for (size_t m = 0; m < nm; m++) {
			out = xgrow(out, n, sizeof(*out));
			out[n++] = members[m];
			o->archive_members = xgrow(o->archive_members, o->nr_archive_members,
						   sizeof(*o->archive_members));
			o->archive_members[o->nr_archive_members++] = members[m];
		}
		free(members);
	}
	if (!any) {
		free(out);
		return 0;
	}
	free(o->binaries);
	o->binaries = out;
	o->nr_binaries = n;
	o->binary = out[0];
	o->binary_option = true;	/* the report names each object, as with --binary */
	return 0;
}

static int lint_binaries(struct options *o)
{
	struct ll_error err;
	struct ll_rules rules = { 0 };
	struct ll_block **blocks = NULL;
	size_t nb = o->nr_binaries;
	struct linted_binary *cur = xcalloc(nb, sizeof(*cur)), *old = xcalloc(nb, sizeof(*old));
	struct ll_binary *binaries = xcalloc(nb, sizeof(*binaries));
	char **refs = xcalloc(nb, sizeof(*refs));
	bool *found = NULL, in_dir = false;
	struct ll_run all = { 0 };
	struct ll_pairset ref = { 0 }, mine = { 0 };
	struct ll_gating gating = { .strict = o->strict_baseline };
	struct ll_baseline_pending pending = { 0 };
	struct cli_profiles profiles = { 0 };
	struct ll_pending_file rules_pending = { 0 };
	struct ll_group_asserts asserts = { 0 };
	struct ll_contracts contracts = { 0 };
	struct ll_doc_tables doc_tables = { 0 };
	struct ll_doc_plan *plans = NULL;
	size_t nr_plans = 0;
	bool gate = o->baseline || o->against;
	struct ll_change change = { 0 };
	char **ref_names = xcalloc(nb, sizeof(*ref_names));
	struct strbuf out = STRBUF_INIT;
	char *srcroot = NULL;
	bool from_rules, from_profile;
	struct refusals refused = { 0 };
	struct ll_notes collected = { 0 };
	struct ll_notes *notes = o->format->notes_in_report ? &collected : NULL;
	/* What a partial run would write (a baseline, rules, a page) it must not: all or nothing. */
	bool partial = o->nr_queries > 1 && !o->write_baseline && !o->write_rules && !o->html &&
		       !o->write_net_cachelines;
	int status = 0;

	/* Rules and baseline errors stop the run before any binary is read. */
	for (size_t i = 0; i < o->nr_rules_paths; i++) {
		if (ll_rules_load(&rules, o->rules_paths[i], &err))
			goto fail;
	}
	if (o->baseline && ll_baseline_load(o->baseline, &ref, &err))
		goto fail;
	if (o->diff && ll_change_load(o->diff, &change, &err))
		goto fail;
	if (cli_profiles_load(o, &profiles, &err))
		goto fail;
	from_profile = !o->nr_queries && !o->nr_rules_paths && profiles.n;
	if (from_profile)
		cli_profiles_queries(&profiles, o);
	plan_queries(o, &rules, &blocks, &from_rules);
	if (o->in_outer) {
		/* --in: look OUTER up instead, and keep NAME's rules for its member. */
		o->in_type = o->queries[0].name;
		o->in_block = blocks[0];
		o->queries[0] = (struct ll_query){ .name = o->in_outer, .kind = LL_QUERY_STRUCT,
						   .decl_glob = o->decl_glob,
						   .select = &o->select };
		blocks[0] = ll_rules_find(&rules, LL_STRUCT, o->in_outer);
	}
	if (o->against && reference_paths(o, refs, &in_dir, &err))
		goto fail;
	found = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*found));
	for (size_t b = 0; b < nb; b++) {
		struct lint_pass pass = { .last = b + 1 == nb, .found = found,
					  .from_profile = from_profile,
					  .refused = partial ? &refused : NULL, .notes = notes };

		if (lint_binary(o, o->binaries[b], blocks, from_rules, &pass, &profiles, &cur[b],
				&err))
			goto fail;
		for (size_t q = 0; q < o->nr_queries; q++)
			found[q] |= cur[b].struct_of_query[q] >= 0;
		binaries[b] = (struct ll_binary){ cur[b].path, cur[b].run.build_id };
	}
	if (refused.n && refused.n == o->nr_queries) {
		/* Nothing to report: the refusals are the whole answer. */
		refusals_print(&refused);
		status = 2;
		goto done;
	}
	if (cli_profiles_all_used(&profiles, o->binaries, nb, &err))
		goto fail;
	if (check_doc_drift(o, cur, nb, &doc_tables, &plans, &nr_plans, &err))
		goto fail;
	if (note_randstruct(o, cur, nb, &err))
		goto fail;
	if (check_contracts(o, cur, nb, &asserts, &contracts, &err))
		goto fail;
	for (size_t b = 0; o->against && b < nb; b++) {
		struct lint_pass pass = { .reference = true, .from_profile = from_profile,
					  .notes = notes };

		if (lint_binary(o, refs[b], blocks, from_rules, &pass, &profiles, &old[b], &err))
			goto fail;
		/* Several references gate as one: the union of their pairs. */
		ll_pairset_add_run(&old[b].run, &ref);
		/* --reference-name: REF/B is NAME:B, as the hook's text says. */
		if (in_dir && o->reference_name) {
			struct strbuf name = STRBUF_INIT;

			sb_addf(&name, "%s:%s", o->reference_name, o->binaries[b]);
			ref_names[b] = sb_detach(&name);
		}
		diff_layouts(o, &cur[b], &old[b],
			     !in_dir ? NULL : ref_names[b] ? ref_names[b] : refs[b]);
	}
	if (gate && !o->relayout && smallest_fixes(o, cur, old, nb, &ref, &err))
		goto fail;
	all.binary_path = cur[0].path;
	all.build_id = cur[0].run.build_id;
	if (o->binary_option) {
		all.binaries = binaries;
		all.nr_binaries = nb;
	}
	if (nb > 1 || contracts.nr_results)
		all.contracts = &contracts;
	merge_binaries(cur, nb, &all);
	if (o->prove) {
		/* --prove: the measurement is the output, not the lint. */
		status = cli_prove(o, &all, o->against ? &old[0].run : NULL);
		goto done;
	}
	/*
	 * Before any output: a baseline that cannot be written fails the run
	 * whole. It replaces the old one only once the output is out, too.
	 */
	/*
	 * --baseline: layout-change against the layouts the baseline recorded
	 * (--write-baseline writes them), as --against does against a binary.
	 */
	if (o->baseline && !o->layout_change_off) {
		for (size_t i = 0; i < all.nr_structs; i++)
			ll_layout_change_recorded(&all.structs[i], &ref, o->baseline,
						  o->layout_change_level);
		if (!ref.nr_layouts && all.nr_structs)
			ll_notes_addf(notes, "%s records no layouts (written before layoutlint "
				      "recorded them): no layout-change findings; --write-baseline "
				      "writes them", o->baseline);
	}
	if (o->write_baseline) {
		ll_pairset_from_run(&all, &mine);
		if (ll_baseline_prepare(o->write_baseline, &mine, &pending, &err))
			goto fail;
	}
	if (gate) {
		gating.against = o->against != NULL;
		gating.reference = o->reference_name ? o->reference_name :
				   o->against ? o->against : o->baseline;
		gating.change = o->diff ? &change : NULL;
		gating.revision = o->base_revision;
		gating.repository = o->repository;
		gating.reference_build_id = o->against ? old[0].run.build_id : NULL;
		ll_gate(&all, &ref, &gating);
		all.gating = &gating;
	}
	all.color = o->color == COLOR_ALWAYS ||
		    (o->color == COLOR_AUTO && isatty(STDOUT_FILENO) && !o->env.no_color);
	all.quiet = o->quiet;
	all.source_url = o->source_url;
	all.line_pairs = o->line_pairs;
	all.measured = o->nr_profiles > 0;
	if (all.measured && !any_measured(&all))
		ll_notes_addf(notes, "no struct linted appears in the profiles (types are matched "
			      "by name and, where the profile gives it, size)");
	all.thresholds = o->thresholds;
	all.static_thresholds = o->static_thresholds;
	all.srcroot = srcroot = source_root(o);
	all.change = o->diff ? &change : NULL;
	/* Like the baseline: a page that cannot be written fails before any output. */
	if (o->html && write_html(o->html, &all, &err))
		goto fail;
	if (o->write_rules && write_rules(o, &all, &rules_pending, &err))
		goto fail;
	if (o->write_net_cachelines) {
		for (size_t i = 0; i < nr_plans; i++)
			ll_report_net_cachelines(&plans[i], &out);
		if (!nr_plans)
			ll_notef("--write-net-cachelines: no net_cachelines table is of a struct "
				 "linted");
	} else {
		struct cli_lint_output lo = { o, &all, plans, nr_plans };

		all.notes = notes;
		if (cli_format_lint(&lo, &out, &err))
			goto fail;
		/* In the document now; whatever comes after goes on stderr. */
		ll_notes_release(&collected);
	}
	if (cli_write_stdout(&out)) {
		status = 2;
		goto done;
	}
	if (ll_baseline_commit(&pending, &err) || ll_file_commit(&rules_pending, &err))
		goto fail;
	if (gate && o->format->gating_summary)
		gating_summary(&gating);
	for (size_t i = 0; i < all.nr_structs; i++) {
		bool any;
		enum ll_level max = ll_findings_max_level(&all.structs[i].findings, &any);

		if (any && max >= o->fail_level)
			status = 1;
	}
	if (gating.strict && gating.nr_vanished)
		status = 1;
	if (refused.n) {
		refusals_print(&refused);
		status = 2;
	}
	goto done;
fail:
	ll_notes_flush(&collected);
	ll_report_error(&err);
	status = 2;
done:
	/* Notes no document carried (--prove, --write-net-cachelines) go on stderr. */
	ll_notes_flush(&collected);
	refusals_release(&refused);
	ll_baseline_abandon(&pending);
	ll_file_abandon(&rules_pending);
	ll_gate_release(&all, &gating);
	release_structs(&all);
	for (size_t b = 0; b < nb; b++) {
		linted_binary_release(&cur[b]);
		linted_binary_release(&old[b]);
		free(refs[b]);
		free(ref_names[b]);
	}
	free(ref_names);
	ll_change_release(&change);
	ll_free_all(cur, old, refs, binaries, found, srcroot);
	ll_pairset_release(&ref);
	ll_pairset_release(&mine);
	ll_contracts_release(&contracts);
	ll_group_asserts_release(&asserts);
	for (size_t i = 0; i < nr_plans; i++)
		ll_doc_plan_release(&plans[i]);
	free(plans);
	ll_doc_tables_release(&doc_tables);
	free(blocks);
	sb_release(&out);
	ll_rules_release(&rules);
	cli_profiles_release(&profiles);
	return status;
}

int cli_lint(struct options *o)
{
	struct ll_error err;

	if (expand_archives(o, &err)) {
		ll_report_error(&err);
		return 2;
	}
	return lint_binaries(o);
}
