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
};

enum {
	OPT_FORMAT = 0x100,
	OPT_CACHELINE,
	OPT_DECL_FILE,
	OPT_SRCDIR,
	OPT_PREFIX_MAP,
	OPT_COLOR,
};

static const struct argp_option argp_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "decl-file", OPT_DECL_FILE, "GLOB", 0,
	  "Among same-named distinct definitions, pick the one declared in a file matching GLOB", 1 },
	{ "cacheline", OPT_CACHELINE, "N", 0,
	  "Cacheline size in bytes (default: by the binary's architecture)", 1 },
	{ NULL, 0, NULL, 0, "Paths:", 2 },
	{ "srcdir", OPT_SRCDIR, "DIR", 0,
	  "Show declaring files relative to DIR (default: the compilation directory)", 2 },
	{ "prefix-map", OPT_PREFIX_MAP, "OLD=NEW", 0,
	  "Rewrite declaring files starting with OLD to start with NEW (repeatable)", 2 },
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "format", OPT_FORMAT, "FMT", 0, "text (default) or json", 3 },
	{ "color", OPT_COLOR, "WHEN", 0, "auto (default), always or never", 3 },
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
		if (!o->nr_queries)
			argp_error(state, "no struct NAME given");
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

static int run(struct options *o)
{
	struct ll_input_options io = {
		.srcdir = o->srcdir,
		.prefix_maps = o->prefix_maps,
		.nr_prefix_maps = o->nr_prefix_maps,
	};
	struct ll_input *in = NULL;
	struct ll_error err;
	struct ll_lookup_result *results = xcalloc(o->nr_queries, sizeof(*results));
	struct ll_run report = { .binary_path = o->binary };
	struct strbuf out = STRBUF_INIT;
	int status = 0;

	if (ll_input_open(o->binary, &io, &in, &err) ||
	    ll_input_lookup(in, o->queries, o->nr_queries, results, &err)) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	for (size_t i = 0; i < o->nr_queries; i++) {
		if (results[i].status != LL_FOUND) {
			lookup_error(o->binary, &o->queries[i], &results[i], &err);
			ll_report_error(&err);
			status = 2;
			goto done;
		}
	}
	report.build_id = ll_input_build_id(in);
	report.structs = xcalloc(o->nr_queries, sizeof(*report.structs));
	report.nr_structs = o->nr_queries;
	for (size_t i = 0; i < o->nr_queries; i++) {
		struct ll_struct *s = results[i].layout;

		s->cacheline = o->cacheline ? o->cacheline : ll_input_arch_cacheline(in);
		report.structs[i].layout = s;
	}
	report.color = o->color == COLOR_ALWAYS ||
		       (o->color == COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	if (o->format == FORMAT_JSON)
		ll_report_json(&report, &out);
	else
		ll_report_text(&report, &out);
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		ll_fail(&err, "cannot write output: %m");
		ll_report_error(&err);
		status = 2;
	}
done:
	for (size_t i = 0; i < report.nr_structs; i++)
		ll_findings_release(&report.structs[i].findings);
	free(report.structs);
	for (size_t i = 0; i < o->nr_queries; i++)
		ll_lookup_result_release(&results[i]);
	free(results);
	sb_release(&out);
	ll_input_close(in);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct argp argp = { argp_options, parse_opt, "BINARY [[struct|union] NAME]...", doc,
			     NULL, NULL, NULL };
	int status;

	argp_err_exit_status = 2;
	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return 2;
	status = run(&o);
	free(o.queries);
	free(o.prefix_maps);
	return status;
}
