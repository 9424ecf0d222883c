// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The discovery commands, --list, --contains and --audit: every matching
 * name of a binary looked up in one pass, a question asked of each model
 * (checks/discover.c), and for --list the name index shell completion
 * reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/discover.h"
#include "cli/cli.h"
#include "input/reader.h"
#include "report/report.h"
#include "util/cache_dir.h"
#include "util/diag.h"
#include "util/edit_distance.h"
#include "util/pathglob.h"
#include "util/strbuf.h"

struct audited {
	struct ll_audit a;
	const char *name;
	const char *kind;
};

/*
 * What --contains and --audit keep of one struct: its lines, taken from
 * the layout as soon as it is built (struct ll_query's digest), so that
 * the members can go.
 */
struct digest {
	const char *contains;	/* the type --contains asks for; NULL: --audit */
	unsigned cacheline;	/* --cacheline; 0: the binary's */
	struct strbuf lines;	/* --contains: one per match */
	size_t found;
	struct ll_audit audit;	/* --audit */
	/* --audit --access: every struct's evidence, and the thresholds of static tags */
	const struct ll_access_image *access;
	struct ll_static_thresholds thresholds;
};

static void digest_release(struct digest *d)
{
	sb_release(&d->lines);
	ll_audit_release(&d->audit);
	d->found = 0;
}

static void digest_layout(struct ll_struct *s, void *arg)
{
	struct digest *d = arg;

	digest_release(d);	/* a build replayed after a failure digests again */
	if (d->cacheline)
		s->cacheline = d->cacheline;
	if (d->contains) {
		const struct ll_member **found;

		d->found = ll_contains(s, d->contains, &found);
		ll_report_contains(s, found, d->found, &d->lines);
		free(found);
	} else if (s->kind == LL_GLOBALS)
		ll_audit_globals(s, &d->audit);
	else if (d->access)
		ll_audit_static(s, ll_access_image_find(d->access, s->name, s->size,
							s->kind == LL_UNION),
				&d->thresholds, &d->audit);
	else
		ll_audit(s, &d->audit);
}

static int cmp_audited(const void *x, const void *y)
{
	const struct audited *a = x, *b = y;

	if (a->a.mixed_lines != b->a.mixed_lines)
		return a->a.mixed_lines < b->a.mixed_lines ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * Shell completion of struct names reads $XDG_CACHE_HOME/layoutlint/
 * BUILD-ID.names, which every --list refreshes. Best effort: a cache that
 * cannot be written costs completion, not the listing.
 */
static void write_name_index(const char *cache_dir, const char *build_id, char *const *names,
			     size_t n)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;

	if (!build_id || !cache_dir)
		return;
	for (size_t i = 0; i < n; i++) {
		sb_adds(&text, names[i]);
		sb_addc(&text, '\n');
	}
	sb_addf(&path, "%s/%s.names", cache_dir, build_id);
	/* mkstemp and rename, never into a directory completion would not trust. */
	const struct ll_cache_part part = { text.buf, text.len };

	ll_cache_replace(cache_dir, path.buf, &part, 1);
	sb_release(&text);
	sb_release(&path);
}

/* "unsigned int", "long long int", "_Bool": a base type, which has no name in the list. */
static bool is_base_type(const char *type)
{
	static const char *const words[] = { "char", "short", "int", "long", "signed", "unsigned",
					      "float", "double", "_Bool", "bool", "void", "_Complex",
					      "complex", "__int128" };
	const char *p = type;

	while (*p) {
		size_t len = strcspn(p, " "), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i]) == len && strncmp(p, words[i], len) == 0)
				break;
		if (!len || i == sizeof(words) / sizeof(words[0]))
			return false;
		p += len;
		p += *p == ' ';
	}
	return p != type;
}

/*
 * --contains TYPE must name something the binary has: a struct, union or
 * typedef (NAMES), or a base type; otherwise one line with the closest
 * name instead of printing nothing. Asked only once no struct contained
 * TYPE, after every struct was built: a list that could not read a name
 * (a damaged .debug_str) must not turn a damaged binary's error into
 * "no such type", and the lookups are what report the damage.
 */
static int check_contained_type(const char *binary, const char *type, char *const *names,
				size_t n, struct ll_error *err)
{
	const char *bare = type;
	const char *best = NULL;
	size_t limit, best_d;
	struct strbuf msg = STRBUF_INIT;

	if (strncmp(bare, "struct ", 7) == 0)
		bare += 7;
	else if (strncmp(bare, "union ", 6) == 0)
		bare += 6;
	if (is_base_type(bare))
		return 0;
	limit = ll_suggest_limit(strlen(bare));
	best_d = limit + 1;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (strcmp(names[i], bare) == 0)
			return 0;
		d = ll_edit_distance(bare, names[i], limit);
		if (d < best_d) {	/* NAMES is sorted: the first of the closest wins */
			best_d = d;
			best = names[i];
		}
	}
	/* Escaped: a name with a newline must not make two lines. */
	sb_adds(&msg, "--contains ");
	sb_add_escaped(&msg, type);
	sb_adds(&msg, ": no struct, union, typedef or base type of that name");
	if (best) {
		sb_adds(&msg, "; did you mean ");
		sb_add_escaped(&msg, best);
		sb_addc(&msg, '?');
	}
	ll_fail(err, "%s: %s", binary, msg.buf);
	sb_release(&msg);
	return -1;
}

/* Whether GLOB takes in either globals aggregate (lookup_globals()). */
static bool globals_wanted(const char *glob)
{
	return ll_glob_component(glob, LL_GLOBALS_NAME, strlen(LL_GLOBALS_NAME)) ||
	       ll_glob_component(glob, LL_PERCPU_NAME, strlen(LL_PERCPU_NAME));
}

/*
 * --audit='*' and --audit=variables take the global variables in too, looked
 * up after the structs (whose lookup reports a damaged image first), into
 * QUERIES and RESULTS after the *NQ used so far.
 */
static int lookup_globals(struct ll_input *in, const char *glob, struct ll_query *queries,
			  struct ll_lookup_result *results, size_t *nq, struct ll_error *err)
{
	size_t first = *nq;

	for (size_t g = 0; g < 2; g++) {
		const char *which = g ? LL_PERCPU_NAME : LL_GLOBALS_NAME;

		if (ll_glob_component(glob, which, strlen(which)))
			queries[(*nq)++] = (struct ll_query){ .name = which, .kind = LL_QUERY_GLOBALS,
							      .no_suggestion = true };
	}
	if (*nq == first)
		return 0;
	if (ll_input_lookup(in, queries + first, *nq - first, results + first, err)) {
		*nq = first;
		return -1;
	}
	return 0;
}

/*
 * --list, --contains, --audit: every matching name looked up in one pass,
 * then a question asked of each model.
 */
int cli_discover(struct options *o)
{
	struct progress_line line = { 0 };
	struct ll_input_options io = { .srcdir = o->srcdir, .prefix_maps = o->prefix_maps,
				       .nr_prefix_maps = o->nr_prefix_maps, .prefer_btf = o->btf,
				       .btf_base = o->btf_base, .progress = cli_progress_for(&line),
				       .cache_dir = o->cache_dir };
	/* What the audit's digests read of each struct: the rest need not be built. */
	const struct ll_member_filter audit_filter = { ll_audit_needs_member_type, NULL, true, true };
	const char *glob = o->list_glob ? o->list_glob : o->audit_glob ? o->audit_glob : "*";
	struct ll_input *in = NULL;
	struct ll_error err;
	char **names = NULL;
	size_t n = 0, nq = 0, hits = 0, contained = 0;
	struct ll_query *queries = NULL;
	struct ll_lookup_result *results = NULL;
	struct audited *audits = NULL;
	size_t nr_audits = 0;
	struct digest *digests = NULL;
	struct strbuf out = STRBUF_INIT, refused = STRBUF_INIT;
	struct ll_access_image access = { 0 };
	bool by_code = o->audit_glob && o->access;
	int status = 0;

	/* The evidence tags every struct: each must be built whole. */
	io.member_filter = o->audit_glob && !by_code ? &audit_filter : NULL;
	/* --audit='tcp_*' audits no variables: the listing need not read them. */
	io.globals_next = o->audit_glob && globals_wanted(glob);
	io.contains_word = o->contains ? ll_contains_word(o->contains) : NULL;
	if (ll_input_open(o->binary, &io, &in, &err) || ll_input_list(in, glob, &names, &n, &err) ||
	    (by_code && ll_input_access_all(in, &access, &err))) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	queries = xcalloc(n + 2, sizeof(*queries));
	digests = xcalloc(n + 2, sizeof(*digests));
	for (size_t i = 0; i < n + 2; i++)
		digests[i] = (struct digest){ .contains = o->contains, .cacheline = o->cacheline,
					      .access = by_code ? &access : NULL,
					      .thresholds = o->static_thresholds };
	for (size_t i = 0; i < n; i++) {
		if (!ll_glob_component(glob, names[i], strlen(names[i])))
			continue;
		queries[nq] = (struct ll_query){ .name = names[i], .kind = LL_QUERY_ANY,
						 .decl_glob = o->decl_glob, .select = &o->select,
						 .no_suggestion = true,
						 .summary_only = o->list_glob != NULL,
						 .digest = o->list_glob ? NULL : digest_layout,
						 .digest_arg = &digests[nq],
						 .digest_type_word = o->contains ?
							ll_contains_word(o->contains) : NULL };
		nq++;
	}
	results = xcalloc(n + 2, sizeof(*results));
	/* The symbol table is read beside the structs' lookup, which leaves a core idle. */
	if (o->audit_glob && globals_wanted(glob))
		ll_input_globals_ahead(in);
	if (ll_input_lookup(in, queries, nq, results, &err) ||
	    (o->audit_glob && lookup_globals(in, glob, queries, results, &nq, &err))) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	if (o->list_glob) {
		write_name_index(o->cache_dir, ll_input_build_id(in), names, n);
		ll_report_list_header(&out);
	}
	for (size_t i = 0; i < nq; i++) {
		struct ll_struct *s = results[i].layout;

		/* Not "structs": the lookup's own line just counted those to 100%. */
		ll_progress_report(&io.progress, o->audit_glob ? "audits" : "rows", i + 1, nq);
		/*
		 * A row for distinct definitions, or a shape not laid out, with
		 * why: not a silent gap (a row: the glob matched).
		 */
		if ((results[i].status == LL_AMBIGUOUS || results[i].status == LL_UNSUPPORTED) &&
		    o->list_glob) {
			ll_report_list_unlaid(queries[i].name, results[i].status == LL_AMBIGUOUS,
					      results[i].detail, &out);
			hits++;
			continue;
		}
		/* --audit: the same, after the audited rows (refused, below). */
		if (results[i].status == LL_UNSUPPORTED && o->audit_glob) {
			ll_report_audit_unlaid(queries[i].name, results[i].detail, &refused);
			hits++;
			continue;
		}
		if (results[i].status != LL_FOUND)
			continue;	/* typedefs of non-aggregates, declarations */
		s->cacheline = o->cacheline ? o->cacheline : ll_input_arch_cacheline(in);
		hits++;
		if (o->list_glob) {
			ll_report_list_row(s, results[i].summary ? results[i].holes : ll_struct_holes(s),
					   &out);
			continue;
		}
		/* A reader that did not digest (BTF, the globals) left the layout whole. */
		if (!results[i].digested)
			digest_layout(s, &digests[i]);
		if (o->contains) {
			contained += digests[i].found;
			if (digests[i].lines.len)
				sb_add(&out, digests[i].lines.buf, digests[i].lines.len);
		} else {
			struct audited *a;

			audits = xgrow(audits, nr_audits, sizeof(*audits));
			a = &audits[nr_audits++];
			a->a = digests[i].audit;	/* moved */
			digests[i].audit = (struct ll_audit){ 0 };
			a->name = s->name;	/* escaped, as the query's is not */
			a->kind = ll_kind_name(s->kind);
		}
	}
	cli_progress_done(&line);
	if (o->audit_glob) {
		size_t shown = 0;

		if (nr_audits)
			qsort(audits, nr_audits, sizeof(*audits), cmp_audited);
		ll_report_audit_header(by_code, &out);
		for (size_t i = 0; i < nr_audits; i++) {
			if (!audits[i].a.mixed_lines)
				continue;
			ll_report_audit_row(audits[i].kind, audits[i].name, &audits[i].a, &out);
			shown++;
		}
		if (!shown)
			sb_adds(&out, "# no struct matching the glob mixes them\n");
		if (refused.len)
			sb_add(&out, refused.buf, refused.len);
	}
	if (!hits) {
		ll_fail(&err, "%s: no struct or union matches '%s'%s%s", o->binary,
			o->contains ? "*" : glob, o->contains ? " that contains " : "",
			o->contains ? o->contains : "");
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	if (o->contains && !contained &&
	    check_contained_type(o->binary, o->contains, names, n, &err)) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	if (cli_write_stdout(&out))
		status = 2;
	/*
	 * Freeing every name, layout and table of a whole image one by one
	 * touches its whole heap again, a measurable part of the run, for
	 * nothing the user sees: the process ends here.
	 */
	cli_exit_unfreed(status);
done:
	for (size_t i = 0; i < nr_audits; i++)
		ll_audit_release(&audits[i].a);
	free(audits);
	for (size_t i = 0; digests && i < n + 2; i++)
		digest_release(&digests[i]);
	free(digests);
	for (size_t i = 0; results && i < nq; i++)
		ll_lookup_result_release(&results[i]);
	free(results);
	free(queries);
	ll_strv_free(names, n);
	sb_release(&out);
	sb_release(&refused);
	ll_access_image_release(&access);
	ll_input_close(in);
	return status;
}
