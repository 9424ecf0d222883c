// SPDX-License-Identifier: GPL-2.0-or-later
/* layoutlint: command line and orchestration. */
#include <argp.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "reader.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"

enum format { FORMAT_TEXT, FORMAT_JSON };
enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	enum format format;
	unsigned cacheline;		/* 0: by the binary's architecture */
	const char *decl_glob;
	const char *srcdir;
	const char **prefix_maps;
	size_t nr_prefix_maps;
	enum color_mode color;
	const char *binary;
	struct ll_query *queries;
	size_t nr_queries;
	const char *pending_kind;	/* "struct"/"union" waiting for its NAME */
	const char **rules_paths;
	size_t nr_rules_paths;
	enum ll_level fail_level;
	bool require_all;
	bool quiet;
};

enum {
	OPT_FORMAT = 0x100,
	OPT_CACHELINE,
	OPT_DECL_FILE,
	OPT_SRCDIR,
	OPT_PREFIX_MAP,
	OPT_COLOR,
	OPT_FAIL_LEVEL,
	OPT_REQUIRE_ALL,
};

static const struct argp_option argp_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "decl-file", OPT_DECL_FILE, "GLOB", 0,
	  "Among same-named distinct definitions, pick the one declared in a file matching GLOB", 1 },
	{ "cacheline", OPT_CACHELINE, "N", 0,
	  "Cacheline size in bytes (default: by the binary's architecture)", 1 },
	{ NULL, 0, NULL, 0, "Rules:", 2 },
	{ "rules", 'r', "PATH", 0,
	  "A rules file, or a directory of *.rules files (repeatable)", 2 },
	{ "require-all", OPT_REQUIRE_ALL, NULL, 0,
	  "A struct the rules name but BINARY does not define is an error, not a note", 2 },
	{ "fail-level", OPT_FAIL_LEVEL, "LEVEL", 0,
	  "Exit 1 for findings at or above LEVEL: note, warning or error (default)", 2 },
	{ NULL, 0, NULL, 0, "Paths:", 2 },
	{ "srcdir", OPT_SRCDIR, "DIR", 0,
	  "Show declaring files relative to DIR (default: the compilation directory)", 2 },
	{ "prefix-map", OPT_PREFIX_MAP, "OLD=NEW", 0,
	  "Rewrite declaring files starting with OLD to start with NEW (repeatable)", 2 },
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "format", OPT_FORMAT, "FMT", 0, "text (default) or json", 3 },
	{ "color", OPT_COLOR, "WHEN", 0, "auto (default), always or never", 3 },
	{ "quiet", 'q', NULL, 0, "Text: print only the diagnostics, no listings", 3 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static const char doc[] =
	"Map every member of a C struct to the cacheline it lands on, from DWARF."
	"\vExamples:\n"
	"  layoutlint vmlinux struct file\n"
	"  layoutlint --format=json fs/xfs/xfs.ko struct xfs_inode\n"
	"  layoutlint obj.o union foo seqlock_t\n";

static int parse_uint(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v > 1u << 20)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static void add_query(struct options *o, const char *name, const char *kind)
{
	o->queries = xrealloc(o->queries, (o->nr_queries + 1) * sizeof(*o->queries));
	o->queries[o->nr_queries++] = (struct ll_query){
		.name = name,
		.kind = !kind ? LL_QUERY_ANY :
			strcmp(kind, "union") == 0 ? LL_QUERY_UNION : LL_QUERY_STRUCT,
		.decl_glob = o->decl_glob,
	};
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else
			argp_error(state, "unknown --format '%s' (expected text or json)", arg);
		break;
	case OPT_CACHELINE:
		if (parse_uint(arg, &o->cacheline) || o->cacheline < 16 || o->cacheline > 4096 ||
		    (o->cacheline & (o->cacheline - 1)))
			argp_error(state, "--cacheline '%s': expected a power of two from 16 to 4096",
				   arg);
		break;
	case OPT_DECL_FILE:
		o->decl_glob = arg;
		break;
	case OPT_SRCDIR:
		o->srcdir = arg;
		break;
	case OPT_PREFIX_MAP:
		if (!strchr(arg, '=') || arg[0] == '=')
			argp_error(state, "--prefix-map '%s': expected OLD=NEW", arg);
		o->prefix_maps = xrealloc(o->prefix_maps,
					  (o->nr_prefix_maps + 1) * sizeof(*o->prefix_maps));
		o->prefix_maps[o->nr_prefix_maps++] = arg;
		break;
	case OPT_COLOR:
		if (strcmp(arg, "auto") == 0)
			o->color = COLOR_AUTO;
		else if (strcmp(arg, "always") == 0)
			o->color = COLOR_ALWAYS;
		else if (strcmp(arg, "never") == 0)
			o->color = COLOR_NEVER;
		else
			argp_error(state, "unknown --color '%s' (expected auto, always or never)", arg);
		break;
	case 'r':
		o->rules_paths = xrealloc(o->rules_paths,
					  (o->nr_rules_paths + 1) * sizeof(*o->rules_paths));
		o->rules_paths[o->nr_rules_paths++] = arg;
		break;
	case OPT_REQUIRE_ALL:
		o->require_all = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case OPT_FAIL_LEVEL:
		if (strcmp(arg, "note") == 0)
			o->fail_level = LL_LEVEL_NOTE;
		else if (strcmp(arg, "warning") == 0)
			o->fail_level = LL_LEVEL_WARNING;
		else if (strcmp(arg, "error") == 0)
			o->fail_level = LL_LEVEL_ERROR;
		else
			argp_error(state, "unknown --fail-level '%s' (expected note, warning or error)",
				   arg);
		break;
	case ARGP_KEY_ARG:
		if (!o->binary) {
			o->binary = arg;
		} else if (!o->pending_kind &&
			   (strcmp(arg, "struct") == 0 || strcmp(arg, "union") == 0)) {
			o->pending_kind = arg;
		} else {
			add_query(o, arg, o->pending_kind);
			o->pending_kind = NULL;
		}
		break;
	case ARGP_KEY_END:
		if (!o->binary)
			argp_error(state, "no BINARY given");
		if (o->pending_kind)
			argp_error(state, "'%s' must be followed by a NAME", o->pending_kind);
		if (!o->nr_queries && !o->nr_rules_paths)
			argp_error(state, "no struct NAME and no --rules given");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void print_version(FILE *stream, struct argp_state *state)
{
	(void)state;
	fprintf(stream, "layoutlint %s (built with libdw %s, running libdw %s)\n",
		LAYOUTLINT_VERSION, LIBDW_BUILD_VERSION, dwfl_version(NULL));
}

void (*argp_program_version_hook)(FILE *, struct argp_state *) = print_version;
const char *argp_program_bug_address = NULL;

static const char *query_kind_name(const struct ll_query *q)
{
	return q->kind == LL_QUERY_UNION ? "union" : "struct";
}

/* Turn a failed lookup into the one-line error for exit status 2. */
static void lookup_error(const char *binary, const struct ll_query *q,
			 const struct ll_lookup_result *r, struct ll_error *err)
{
	const char *kind = query_kind_name(q);

	switch (r->status) {
	case LL_DECLARED_ONLY:
		ll_fail(err, "%s: %s %s is only declared, never defined, in this binary's DWARF "
			"(look in the object or module that defines it)", binary, kind, q->name);
		break;
	case LL_AMBIGUOUS:
		ll_fail(err, "%s: %s %s has distinct definitions: %s; pick one with --decl-file GLOB",
			binary, kind, q->name, r->detail ? r->detail : "");
		break;
	case LL_MISSING:
		if (q->decl_glob && r->detail)
			ll_fail(err, "%s: no definition of %s %s is declared in a file matching '%s' "
				"(definitions: %s)", binary, kind, q->name, q->decl_glob, r->detail);
		else
			ll_fail(err, "%s: %s %s not found%s%s", binary, kind, q->name,
				r->detail ? "; " : "", r->detail ? r->detail : "");
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

			o->queries = xrealloc(o->queries, (o->nr_queries + 1) * sizeof(*o->queries));
			o->queries[o->nr_queries++] = (struct ll_query){
				.name = b->name,
				.kind = b->kind == LL_UNION ? LL_QUERY_UNION : LL_QUERY_STRUCT,
				.decl_glob = o->decl_glob ? o->decl_glob : b->in_glob,
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

static int lint_one(const struct options *o, struct ll_input *in, struct ll_block *block,
		    struct ll_linted *l, struct ll_error *err)
{
	struct ll_struct *s = l->layout;
	struct ll_allows allows = { 0 };
	uint64_t align = 0;

	s->cacheline = o->cacheline ? o->cacheline :
		       block && block->cacheline ? block->cacheline : ll_input_arch_cacheline(in);
	if (block) {
		l->has_rules = true;
		if (ll_rules_apply(block, s, &l->findings, &allows, err))
			return -1;
		align = block->align == LL_ALIGN_TYPE ? s->alignment : block->align;
	}
	struct ll_check_input ci = { .s = s, .align = align, .allows = allows.v,
				     .nr_allows = allows.n };

	ll_check(&ci, &l->findings);
	free(allows.v);
	return 0;
}

static int run(struct options *o)
{
	struct ll_input_options io = {
		.srcdir = o->srcdir,
		.prefix_maps = o->prefix_maps,
		.nr_prefix_maps = o->nr_prefix_maps,
	};
	struct ll_input *in = NULL;
	struct ll_error err;
	struct ll_rules rules = { 0 };
	struct ll_block **blocks = NULL;
	struct ll_lookup_result *results = NULL;
	struct ll_run report = { .binary_path = o->binary };
	struct strbuf out = STRBUF_INIT;
	bool from_rules;
	int status = 0;

	/* Rules errors stop the run before any binary is read. */
	for (size_t i = 0; i < o->nr_rules_paths; i++) {
		if (ll_rules_load(&rules, o->rules_paths[i], &err)) {
			ll_report_error(&err);
			status = 2;
			goto done;
		}
	}
	plan_queries(o, &rules, &blocks, &from_rules);
	results = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*results));
	if (ll_input_open(o->binary, &io, &in, &err) ||
	    ll_input_lookup(in, o->queries, o->nr_queries, results, &err)) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	report.build_id = ll_input_build_id(in);
	report.structs = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*report.structs));
	for (size_t i = 0; i < o->nr_queries; i++) {
		if (results[i].status == LL_FOUND) {
			struct ll_linted *l = &report.structs[report.nr_structs++];

			l->layout = results[i].layout;
			results[i].layout = NULL;
			if (lint_one(o, in, blocks[i], l, &err)) {
				ll_report_error(&err);
				status = 2;
				goto done;
			}
			continue;
		}
		lookup_error(o->binary, &o->queries[i], &results[i], &err);
		/* A kernel tree's rules cover vmlinux and modules: absence is news, not failure. */
		if (from_rules && !o->require_all && results[i].status != LL_AMBIGUOUS) {
			fprintf(stderr, "%s:%u: note: %s; skipped\n", blocks[i]->file, blocks[i]->line,
				err.msg);
			continue;
		}
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	report.color = o->color == COLOR_ALWAYS ||
		       (o->color == COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	report.quiet = o->quiet;
	if (o->format == FORMAT_JSON)
		ll_report_json(&report, &out);
	else
		ll_report_text(&report, &out);
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		ll_fail(&err, "cannot write output: %m");
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	for (size_t i = 0; i < report.nr_structs; i++) {
		bool any;
		enum ll_level max = ll_findings_max_level(&report.structs[i].findings, &any);

		if (any && max >= o->fail_level)
			status = 1;
	}
done:
	for (size_t i = 0; i < report.nr_structs; i++) {
		ll_findings_release(&report.structs[i].findings);
		ll_struct_free(report.structs[i].layout);
	}
	free(report.structs);
	for (size_t i = 0; results && i < o->nr_queries; i++)
		ll_lookup_result_release(&results[i]);
	free(results);
	free(blocks);
	sb_release(&out);
	ll_input_close(in);
	ll_rules_release(&rules);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { .fail_level = LL_LEVEL_ERROR };
	struct argp argp = { argp_options, parse_opt, "BINARY [[struct|union] NAME]...", doc,
			     NULL, NULL, NULL };
	int status;

	argp_err_exit_status = 2;
	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return 2;
	status = run(&o);
	free(o.queries);
	free(o.prefix_maps);
	free(o.rules_paths);
	return status;
}
