// SPDX-License-Identifier: GPL-2.0-or-later
/* layoutlint: command line and orchestration. */
#include <argp.h>
#include <inttypes.h>
#include <time.h>
#include <sys/stat.h>
#include <errno.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gating/baseline.h"
#include "config.h"
#include "util/diag.h"
#include "util/pathglob.h"
#include "input/reader.h"
#include "lint/lint.h"
#include "report/report.h"
#include "checks/catalog.h"
#include "checks/discover.h"
#include "checks/groups.h"
#include "rules/import_rst.h"
#include "rules/rules.h"
#include "solver/suggest.h"
#include "source/srcpatch.h"
#include "util/strbuf.h"

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_SARIF, FORMAT_HTML, FORMAT_PATCH };
enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	enum format format;
	unsigned cacheline;		/* 0: by the binary's architecture */
	const char *decl_glob;
	const char *srcdir;
	const char **prefix_maps;
	size_t nr_prefix_maps;
	enum color_mode color;
	const char *binary;		/* the first of binaries */
	const char **binaries;		/* --binary FILE..., or the positional BINARY */
	size_t nr_binaries;
	bool binary_option;		/* --binary given: every positional argument is a NAME */
	const char **args;		/* positional arguments, sorted out at the end */
	size_t nr_args;
	struct ll_query *queries;
	size_t nr_queries;
	const char *pending_kind;	/* "struct"/"union" waiting for its NAME */
	const char **rules_paths;
	size_t nr_rules_paths;
	enum ll_level fail_level;
	bool require_all;
	bool quiet;
	bool suggest;			/* --suggest */
	bool asserts;			/* --asserts */
	bool groups_off;		/* --groups=off */
	const char *import_net;		/* --import-net-cachelines FILE */
	const char *list_glob;		/* --list[=GLOB] */
	const char *contains;		/* --contains TYPE */
	const char *audit_glob;		/* --audit GLOB */
	const char *baseline;		/* --baseline FILE */
	const char *write_baseline;	/* --write-baseline FILE */
	bool strict_baseline;
	const char *against;		/* --against OLD-BINARY */
	bool list_checks;		/* --list-checks */
	bool btf;			/* --btf */
	const char *btf_base;		/* --btf-base FILE */
	const char *html;		/* --html FILE */
	const char *source_url;		/* --source-url TEMPLATE */
	bool line_pairs;		/* --line-pairs */
};

enum {
	OPT_FORMAT = 0x100,
	OPT_CACHELINE,
	OPT_DECL_FILE,
	OPT_SRCDIR,
	OPT_PREFIX_MAP,
	OPT_COLOR,
	OPT_FAIL_LEVEL,
	OPT_GROUPS,
	OPT_IMPORT_NET,
	OPT_LIST,
	OPT_SUGGEST,
	OPT_ASSERTS,
	OPT_CONTAINS,
	OPT_AUDIT,
	OPT_REQUIRE_ALL,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_STRICT_BASELINE,
	OPT_AGAINST,
	OPT_BTF,
	OPT_BTF_BASE,
	OPT_LIST_CHECKS,
	OPT_HTML,
	OPT_SOURCE_URL,
	OPT_LINE_PAIRS,
	OPT_BINARY,
};

static const struct argp_option argp_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "binary", OPT_BINARY, "FILE", 0,
	  "Lint FILE too, reported with the others as one run (repeatable); then every "
	  "argument is a NAME and there is no positional BINARY", 1 },
	{ "decl-file", OPT_DECL_FILE, "GLOB", 0,
	  "Among same-named distinct definitions, pick the one declared in a file matching GLOB", 1 },
	{ "cacheline", OPT_CACHELINE, "N", 0,
	  "Cacheline size in bytes (default: by the binary's architecture)", 1 },
	{ "btf", OPT_BTF, NULL, 0,
	  "Read the .BTF section even when the binary has DWARF (BTF alone is read anyway: "
	  "raw BTF such as /sys/kernel/btf/vmlinux, or ELF with .BTF and no DWARF)", 1 },
	{ "btf-base", OPT_BTF_BASE, "FILE", 0,
	  "Base BTF (a vmlinux, or /sys/kernel/btf/vmlinux) of a module's split BTF; "
	  "implies --btf", 1 },
	{ NULL, 0, NULL, 0, "Rules:", 2 },
	{ "rules", 'r', "PATH", 0,
	  "A rules file, or a directory of *.rules files (repeatable)", 2 },
	{ "list-checks", OPT_LIST_CHECKS, NULL, 0,
	  "List every check (id, default level, whether --suggest can fix it, summary), then exit", 2 },
	{ "require-all", OPT_REQUIRE_ALL, NULL, 0,
	  "A struct the rules name but BINARY does not define is an error, not a note", 2 },
	{ "groups", OPT_GROUPS, "WHEN", 0,
	  "auto (default): kernel __cacheline_group markers tag the members no rules tag, "
	  "and group-span is checked; off: ignore them", 2 },
	{ "list", OPT_LIST, "GLOB", OPTION_ARG_OPTIONAL,
	  "List the structs and unions whose names match GLOB (default *): kind, name, size, "
	  "cachelines, holes, declaring file", 1 },
	{ "contains", OPT_CONTAINS, "TYPE", 0,
	  "List the structs that embed TYPE by value, and where (its cacheline map depends "
	  "on its host)", 1 },
	{ "audit", OPT_AUDIT, "GLOB", 0,
	  "Heuristic, no rules needed: rank the structs matching GLOB by how many cachelines "
	  "mix lock-like members (spinlock_t, atomic_t, refcount_t, struct mutex...) with "
	  "pointers to const ops tables", 1 },
	{ "import-net-cachelines", OPT_IMPORT_NET, "FILE.rst", 0,
	  "Write a rules file, to stdout, from one Documentation/networking/net_cachelines "
	  "table; no BINARY", 2 },
	{ "fail-level", OPT_FAIL_LEVEL, "LEVEL", 0,
	  "Exit 1 for findings at or above LEVEL: note, warning or error (default)", 2 },
	{ NULL, 0, NULL, 0, "Gating (report and fail only on new member pairs):", 3 },
	{ "baseline", OPT_BASELINE, "FILE", 0,
	  "Report only findings with a pair FILE does not list; count the others", 3 },
	{ "write-baseline", OPT_WRITE_BASELINE, "FILE", 0,
	  "Write the pairs of this run's findings to FILE (JSON, sorted)", 3 },
	{ "strict-baseline", OPT_STRICT_BASELINE, NULL, 0,
	  "With --baseline: baseline pairs that no longer occur fail the run too", 3 },
	{ "against", OPT_AGAINST, "OLD-BINARY", 0,
	  "Lint OLD-BINARY with the same rules as the reference; report new findings and "
	  "each struct's layout changes. A directory REF: each binary B is compared with REF/B", 3 },
	{ NULL, 0, NULL, 0, "Paths:", 4 },
	{ "srcdir", OPT_SRCDIR, "DIR", 0,
	  "Show declaring files relative to DIR (default: the compilation directory)", 4 },
	{ "prefix-map", OPT_PREFIX_MAP, "OLD=NEW", 0,
	  "Rewrite declaring files starting with OLD to start with NEW (repeatable)", 4 },
	{ NULL, 0, NULL, 0, "Output:", 5 },
	{ "format", OPT_FORMAT, "FMT", 0, "text (default), json, sarif, html, or patch: --suggest "
	  "as a unified diff of the declaring header (under --srcdir) that git apply takes", 5 },
	{ "html", OPT_HTML, "FILE", 0,
	  "Also write the HTML cacheline map to FILE (replaced whole), whatever --format says", 5 },
	{ "source-url", OPT_SOURCE_URL, "TEMPLATE", 0,
	  "HTML: link declarations and findings to TEMPLATE with {file} and {line} filled in "
	  "(e.g. https://elixir.bootlin.com/linux/v6.12/source/{file}#L{line})", 5 },
	{ "line-pairs", OPT_LINE_PAIRS, NULL, 0,
	  "HTML: bracket each 128-byte pair of 64-byte lines (what the adjacent-line "
	  "prefetcher fetches together)", 5 },
	{ "color", OPT_COLOR, "WHEN", 0, "auto (default), always or never", 5 },
	{ "quiet", 'q', NULL, 0, "Text: print only the diagnostics, no listings", 5 },
	{ "suggest", OPT_SUGGEST, NULL, 0,
	  "Propose a member order without mixed-cacheline, write-domains and split-hot "
	  "findings (without rules: the tightest packing C allows)", 5 },
	{ "asserts", OPT_ASSERTS, NULL, 0,
	  "With --format=patch: also add static_asserts of the cacheline each hot member "
	  "lands on", 5 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static const char doc[] =
	"Map every member of a C struct to the cacheline it lands on, from DWARF or BTF."
	"\vExamples:\n"
	"  layoutlint vmlinux struct file\n"
	"  layoutlint --format=json fs/xfs/xfs.ko struct xfs_inode\n"
	"  layoutlint obj.o union foo seqlock_t\n"
	"  layoutlint -r rules/file.rules /sys/kernel/btf/vmlinux struct file\n"
	"  layoutlint -r rules --baseline layoutlint.baseline vmlinux\n"
	"  layoutlint -r rules/file.rules --against old/vmlinux vmlinux struct file\n"
	"  layoutlint -r rules --against base --binary fs/file_table.o --binary kernel/fork.o\n";

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
	o->queries = xgrow(o->queries, o->nr_queries, sizeof(*o->queries));
	o->queries[o->nr_queries++] = (struct ll_query){
		.name = name,
		.kind = !kind ? LL_QUERY_ANY :
			strcmp(kind, "union") == 0 ? LL_QUERY_UNION : LL_QUERY_STRUCT,
		.decl_glob = o->decl_glob,
	};
}

/*
 * The positional arguments: BINARY then NAMEs, or, once --binary is
 * given, NAMEs only (after every option, wherever they were typed).
 */
static void sort_arguments(struct options *o)
{
	size_t i = 0;

	if (!o->binary_option && o->nr_args) {
		o->binaries = xgrow(o->binaries, 0, sizeof(*o->binaries));
		o->binaries[o->nr_binaries++] = o->args[i++];
	}
	o->binary = o->nr_binaries ? o->binaries[0] : NULL;
	for (; i < o->nr_args; i++) {
		const char *arg = o->args[i];

		if (!o->pending_kind && (strcmp(arg, "struct") == 0 || strcmp(arg, "union") == 0)) {
			o->pending_kind = arg;
		} else {
			add_query(o, arg, o->pending_kind);
			o->pending_kind = NULL;
		}
	}
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
		else if (strcmp(arg, "sarif") == 0)
			o->format = FORMAT_SARIF;
		else if (strcmp(arg, "html") == 0)
			o->format = FORMAT_HTML;
		else if (strcmp(arg, "patch") == 0) {
			o->format = FORMAT_PATCH;
			o->suggest = true;	/* a patch is a suggestion, written as a diff */
		} else
			argp_error(state, "unknown --format '%s' (expected text, json, sarif, html or "
				   "patch)", arg);
		break;
	case OPT_HTML:
		if (!*arg)
			argp_error(state, "--html needs a FILE");
		o->html = arg;
		break;
	case OPT_SOURCE_URL:
		if (!strstr(arg, "{file}"))
			argp_error(state, "--source-url '%s': the template needs {file} (and "
				   "usually {line})", arg);
		o->source_url = arg;
		break;
	case OPT_LINE_PAIRS:
		o->line_pairs = true;
		break;
	case OPT_CACHELINE:
		if (parse_uint(arg, &o->cacheline) || o->cacheline < 16 || o->cacheline > 4096 ||
		    (o->cacheline & (o->cacheline - 1)))
			argp_error(state, "--cacheline '%s': expected a power of two from 16 to 4096",
				   arg);
		break;
	case OPT_BTF:
		o->btf = true;
		break;
	case OPT_BTF_BASE:
		o->btf_base = arg;
		break;
	case OPT_DECL_FILE:
		o->decl_glob = arg;
		break;
	case OPT_BINARY:
		if (!*arg)
			argp_error(state, "--binary needs a FILE");
		o->binaries = xgrow(o->binaries, o->nr_binaries, sizeof(*o->binaries));
		o->binaries[o->nr_binaries++] = arg;
		o->binary_option = true;
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
	case OPT_SUGGEST:
		o->suggest = true;
		break;
	case OPT_ASSERTS:
		o->asserts = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case OPT_BASELINE:
		o->baseline = arg;
		break;
	case OPT_WRITE_BASELINE:
		o->write_baseline = arg;
		break;
	case OPT_STRICT_BASELINE:
		o->strict_baseline = true;
		break;
	case OPT_AGAINST:
		o->against = arg;
		break;
	case OPT_GROUPS:
		if (strcmp(arg, "auto") == 0)
			o->groups_off = false;
		else if (strcmp(arg, "off") == 0)
			o->groups_off = true;
		else
			argp_error(state, "unknown --groups '%s' (expected auto or off)", arg);
		break;
	case OPT_IMPORT_NET:
		o->import_net = arg;
		break;
	case OPT_LIST_CHECKS:
		o->list_checks = true;
		break;
	case OPT_LIST:
		o->list_glob = arg ? arg : "*";
		break;
	case OPT_CONTAINS:
		o->contains = arg;
		break;
	case OPT_AUDIT:
		o->audit_glob = arg;
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
		o->args = xgrow(o->args, o->nr_args, sizeof(*o->args));
		o->args[o->nr_args++] = arg;
		break;
	case ARGP_KEY_END:
		sort_arguments(o);
		if (o->binary_option &&
		    (o->list_checks || o->import_net || o->list_glob || o->contains || o->audit_glob))
			argp_error(state, "--binary is for linting: --list-checks, "
				   "--import-net-cachelines, --list, --contains and --audit take no "
				   "--binary");
		if (o->list_checks) {
			if (o->binary)
				argp_error(state, "--list-checks takes no BINARY");
			break;
		}
		if ((o->html || o->format == FORMAT_HTML) &&
		    (o->import_net || o->list_glob || o->contains || o->audit_glob))
			argp_error(state, "the HTML map draws linted structs: --html and --format=html "
				   "do not go with --list, --contains, --audit or "
				   "--import-net-cachelines");
		if (o->import_net) {
			if (o->binary)
				argp_error(state, "--import-net-cachelines takes no BINARY");
			break;
		}
		if (!o->binary)
			argp_error(state, "no BINARY given");
		if (o->pending_kind)
			argp_error(state, "'%s' must be followed by a NAME", o->pending_kind);
		if (!!o->list_glob + !!o->contains + !!o->audit_glob > 1)
			argp_error(state, "give one of --list, --contains and --audit");
		if ((o->list_glob || o->contains || o->audit_glob) && (o->nr_queries || o->nr_rules_paths))
			argp_error(state, "--list, --contains and --audit take a BINARY only, "
				   "no NAME or --rules");
		if (!o->nr_queries && !o->nr_rules_paths && !o->list_glob && !o->contains &&
		    !o->audit_glob)
			argp_error(state, "no struct NAME and no --rules given");
		if (o->baseline && o->against)
			argp_error(state, "--baseline and --against each set the reference; give one");
		if (o->strict_baseline && !o->baseline)
			argp_error(state, "--strict-baseline needs --baseline FILE");
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
		ll_fail(err, "%s: %s %s is only declared, never defined, in this binary's debug info "
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

			o->queries = xgrow(o->queries, o->nr_queries, sizeof(*o->queries));
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

/* One binary, linted: what run() reports, and what --against compares with. */
struct linted_binary {
	const char *path;
	struct ll_input *in;
	struct ll_run run;		/* run.structs: the structs found, in query order */
	long *struct_of_query;		/* index into run.structs, -1 when not found */
};

/*
 * One updating line on stderr during long scans: only on a terminal, and
 * only once the work has taken half a second, so quick runs and pipes
 * never see it.
 */
struct progress_line {
	struct timespec start, last;
	bool shown;
};

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void progress_update(const char *what, size_t done, size_t total, void *arg)
{
	struct progress_line *p = arg;

	if (seconds_since(&p->start) < 0.5 || (p->shown && done != total &&
						 seconds_since(&p->last) < 0.1))
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	fprintf(stderr, "\rlayoutlint: %s %zu/%zu (%zu%%)\033[K", what, done, total,
		total ? done * 100 / total : 100);
	p->shown = true;
}

static struct ll_progress progress_for(struct progress_line *p)
{
	struct ll_progress none = { 0 };

	if (!isatty(STDERR_FILENO))
		return none;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	return (struct ll_progress){ .fn = progress_update, .arg = p };
}

/* Erase the line before anything else is printed. */
static void progress_done(struct progress_line *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

/*
 * Which binary is being read, and what the binaries before it found: a
 * struct is missing only when no binary of the run defines it.
 */
struct lint_pass {
	bool reference;		/* --against OLD-BINARY: a missing struct is just absent */
	bool last;		/* the last binary under test: missing ones are decided here */
	const bool *found;	/* per query: some earlier binary defines it */
};

/*
 * A struct no binary under test defines: an error, or a note for
 * rules-named structs. With several binaries the one line says so.
 */
static int missing_struct(const struct options *o, const char *path, size_t i,
			  const struct ll_lookup_result *r, struct ll_block **blocks,
			  bool from_rules, struct ll_error *err)
{
	lookup_error(path, &o->queries[i], r, err);
	if (o->nr_binaries > 1) {
		struct ll_error one = *err;

		ll_fail(err, "%s %s is defined by none of the %zu binaries (%s)",
			query_kind_name(&o->queries[i]), o->queries[i].name, o->nr_binaries, one.msg);
	}
	/* A kernel tree's rules cover vmlinux and modules: absence is news, not failure. */
	if (from_rules && !o->require_all && r->status != LL_AMBIGUOUS) {
		fprintf(stderr, "%s:%u: note: %s; skipped\n", blocks[i]->file, blocks[i]->line,
			err->msg);
		return 0;
	}
	return -1;
}

/*
 * Read PATH and lint every query with its rules block. A struct PATH does
 * not define is decided by missing_struct() once every binary under test
 * has been read; for the reference it is just absent.
 */
static int lint_binary(const struct options *o, const char *path, struct ll_block **blocks,
		       bool from_rules, const struct lint_pass *pass, struct linted_binary *lb,
		       struct ll_error *err)
{
	struct progress_line line = { 0 };
	struct ll_input_options io = {
		.srcdir = o->srcdir,
		.prefix_maps = o->prefix_maps,
		.nr_prefix_maps = o->nr_prefix_maps,
		.prefer_btf = o->btf,
		.btf_base = o->btf_base,
		.progress = progress_for(&line),
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
	lb->run.structs = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*lb->run.structs));
	for (size_t i = 0; i < o->nr_queries; i++) {
		lb->struct_of_query[i] = -1;
		if (results[i].status == LL_FOUND) {
			struct ll_linted *l = &lb->run.structs[lb->run.nr_structs];

			lb->struct_of_query[i] = (long)lb->run.nr_structs++;
			l->layout = results[i].layout;
			results[i].layout = NULL;
			struct ll_lint_opts lo = {
				.cacheline = o->cacheline,
				.arch_cacheline = ll_input_arch_cacheline(lb->in),
				.groups_off = o->groups_off,
				.suggest = o->suggest,
				.patch = o->format == FORMAT_PATCH,
				.srcdir = o->srcdir,
			};

			if (ll_lint_struct(&lo, blocks[i], l, err))
				goto done;
			continue;
		}
		if (results[i].status == LL_AMBIGUOUS) {
			lookup_error(path, &o->queries[i], &results[i], err);
			goto done;
		}
		if (pass->reference)
			continue;	/* the diff says "not defined there" */
		if (!pass->last || pass->found[i])
			continue;	/* another binary of the run may define it, or does */
		if (missing_struct(o, path, i, &results[i], blocks, from_rules, err))
			goto done;
	}
	rc = 0;
done:
	progress_done(&line);
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
	free(run->structs);
	run->structs = NULL;
	run->nr_structs = 0;
}

static void linted_binary_release(struct linted_binary *lb)
{
	release_structs(&lb->run);
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
	}
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

	fprintf(stderr, "layoutlint: %s %s: %zu finding%s with new pairs (%zu new pair%s); "
		"%zu finding%s (%zu pair%s) already in %s suppressed",
		g->against ? "against" : "baseline", g->reference, g->reported_findings,
		g->reported_findings == 1 ? "" : "s", g->new_pairs, g->new_pairs == 1 ? "" : "s",
		g->suppressed_findings, g->suppressed_findings == 1 ? "" : "s",
		g->suppressed_pairs, g->suppressed_pairs == 1 ? "" : "s", what);
	if (g->nr_vanished)
		fprintf(stderr, "; %zu pair%s of %s no longer occur%s%s", g->nr_vanished,
			g->nr_vanished == 1 ? "" : "s", what, g->nr_vanished == 1 ? "s" : "",
			g->strict || g->against ? "" : " (--strict-baseline would fail)");
	fputc('\n', stderr);
}

/* Write OUT to stdout whole, or say why not. */
static int write_stdout(const struct strbuf *out)
{
	struct ll_error err;

	/* No fwrite of a NULL buffer: an empty report has none. */
	if ((!out->len || fwrite(out->buf, 1, out->len, stdout) == out->len) && fflush(stdout) == 0)
		return 0;
	ll_fail(&err, "cannot write output: %m");
	ll_report_error(&err);
	return 2;
}

/* --html FILE: the whole page or nothing, through a temporary file and rename. */
static int write_html(const char *path, const struct ll_run *run, struct ll_error *err)
{
	struct strbuf page = STRBUF_INIT, tmp = STRBUF_INIT;
	FILE *f;
	int rc = 0;

	ll_report_html(run, &page);
	sb_addf(&tmp, "%s.%ld.tmp", path, (long)getpid());
	f = fopen(tmp.buf, "w");
	if (!f) {
		ll_fail(err, "--html %s: cannot create %s: %m", path, tmp.buf);
		rc = -1;
	} else {
		bool ok = fwrite(page.buf, 1, page.len, f) == page.len;

		if (fclose(f) != 0 || !ok) {
			ll_fail(err, "--html %s: cannot write: %m", path);
			rc = -1;
		} else if (rename(tmp.buf, path) != 0) {
			ll_fail(err, "--html %s: cannot replace it: %m", path);
			rc = -1;
		}
		if (rc)
			unlink(tmp.buf);
	}
	sb_release(&page);
	sb_release(&tmp);
	return rc;
}

static int run(struct options *o)
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
	bool gate = o->baseline || o->against;
	struct strbuf out = STRBUF_INIT;
	char *srcroot = NULL;
	bool from_rules;
	int status = 0;

	/* Rules and baseline errors stop the run before any binary is read. */
	for (size_t i = 0; i < o->nr_rules_paths; i++) {
		if (ll_rules_load(&rules, o->rules_paths[i], &err))
			goto fail;
	}
	if (o->baseline && ll_baseline_load(o->baseline, &ref, &err))
		goto fail;
	plan_queries(o, &rules, &blocks, &from_rules);
	if (o->against && reference_paths(o, refs, &in_dir, &err))
		goto fail;
	found = xcalloc(o->nr_queries ? o->nr_queries : 1, sizeof(*found));
	for (size_t b = 0; b < nb; b++) {
		struct lint_pass pass = { .last = b + 1 == nb, .found = found };

		if (lint_binary(o, o->binaries[b], blocks, from_rules, &pass, &cur[b], &err))
			goto fail;
		for (size_t q = 0; q < o->nr_queries; q++)
			found[q] |= cur[b].struct_of_query[q] >= 0;
		binaries[b] = (struct ll_binary){ cur[b].path, cur[b].run.build_id };
	}
	for (size_t b = 0; o->against && b < nb; b++) {
		struct lint_pass pass = { .reference = true };

		if (lint_binary(o, refs[b], blocks, from_rules, &pass, &old[b], &err))
			goto fail;
		/* Several references gate as one: the union of their pairs. */
		ll_pairset_add_run(&old[b].run, &ref);
		diff_layouts(o, &cur[b], &old[b], in_dir ? refs[b] : NULL);
	}
	all.binary_path = cur[0].path;
	all.build_id = cur[0].run.build_id;
	if (o->binary_option) {
		all.binaries = binaries;
		all.nr_binaries = nb;
	}
	merge_binaries(cur, nb, &all);
	/*
	 * Before any output: a baseline that cannot be written fails the run
	 * whole. It replaces the old one only once the output is out, too.
	 */
	if (o->write_baseline) {
		ll_pairset_from_run(&all, &mine);
		if (ll_baseline_prepare(o->write_baseline, &mine, &pending, &err))
			goto fail;
	}
	if (gate) {
		gating.against = o->against != NULL;
		gating.reference = o->against ? o->against : o->baseline;
		gating.reference_build_id = o->against ? old[0].run.build_id : NULL;
		ll_gate(&all, &ref, &gating);
		all.gating = &gating;
	}
	all.color = o->color == COLOR_ALWAYS ||
		    (o->color == COLOR_AUTO && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	all.quiet = o->quiet;
	all.source_url = o->source_url;
	all.line_pairs = o->line_pairs;
	all.srcroot = srcroot = source_root(o);
	/* Like the baseline: a page that cannot be written fails before any output. */
	if (o->html && write_html(o->html, &all, &err))
		goto fail;
	if (o->format == FORMAT_HTML)
		ll_report_html(&all, &out);
	else if (o->format == FORMAT_JSON)
		ll_report_json(&all, &out);
	else if (o->format == FORMAT_SARIF)
		ll_report_sarif(&all, &out);
	else if (o->format == FORMAT_PATCH)
		ll_report_patch(&all, o->asserts, &out);
	else
		ll_report_text(&all, &out);
	if (write_stdout(&out)) {
		status = 2;
		goto done;
	}
	if (ll_baseline_commit(&pending, &err))
		goto fail;
	if (gate && o->format == FORMAT_TEXT)
		gating_summary(&gating);
	for (size_t i = 0; i < all.nr_structs; i++) {
		bool any;
		enum ll_level max = ll_findings_max_level(&all.structs[i].findings, &any);

		if (any && max >= o->fail_level)
			status = 1;
	}
	if (gating.strict && gating.nr_vanished)
		status = 1;
	goto done;
fail:
	ll_report_error(&err);
	status = 2;
done:
	ll_baseline_abandon(&pending);
	ll_gate_release(&all, &gating);
	release_structs(&all);
	for (size_t b = 0; b < nb; b++) {
		linted_binary_release(&cur[b]);
		linted_binary_release(&old[b]);
		free(refs[b]);
	}
	free(cur);
	free(old);
	free(refs);
	free(binaries);
	free(found);
	free(srcroot);
	ll_pairset_release(&ref);
	ll_pairset_release(&mine);
	free(blocks);
	sb_release(&out);
	ll_rules_release(&rules);
	return status;
}

struct audited {
	struct ll_audit a;
	const char *name;
	const char *kind;
};

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
static int mkdir_p(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, dir, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void write_name_index(const char *build_id, char *const *names, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct strbuf dir = STRBUF_INIT, tmp = STRBUF_INIT, path = STRBUF_INIT;
	FILE *f = NULL;
	int fd;

	if (!build_id || (!xdg && !home))
		return;
	if (xdg && *xdg)
		sb_addf(&dir, "%s/layoutlint", xdg);
	else
		sb_addf(&dir, "%s/.cache/layoutlint", home);
	sb_addf(&path, "%s/%s.names", dir.buf, build_id);
	/*
	 * mkstemp, not a predictable name: O_EXCL never follows a symbolic
	 * link planted there, and the rename replaces a link at PATH itself.
	 */
	sb_addf(&tmp, "%s.XXXXXX", path.buf);
	if (mkdir_p(dir.buf) == 0 && (fd = mkstemp(tmp.buf)) >= 0) {
		bool ok = (f = fdopen(fd, "w")) != NULL;

		if (!f)
			close(fd);
		for (size_t i = 0; i < n && ok; i++)
			ok = fprintf(f, "%s\n", names[i]) > 0;
		if ((f && fclose(f) != 0) || !ok || rename(tmp.buf, path.buf) != 0)
			unlink(tmp.buf);
	}
	sb_release(&dir);
	sb_release(&tmp);
	sb_release(&path);
}

/*
 * --list, --contains, --audit: every matching name looked up in one pass,
 * then a question asked of each model.
 */
static int discover(struct options *o)
{
	struct progress_line line = { 0 };
	struct ll_input_options io = { .srcdir = o->srcdir, .prefix_maps = o->prefix_maps,
				       .nr_prefix_maps = o->nr_prefix_maps, .prefer_btf = o->btf,
				       .btf_base = o->btf_base, .progress = progress_for(&line) };
	const char *glob = o->list_glob ? o->list_glob : o->audit_glob ? o->audit_glob : "*";
	struct ll_input *in = NULL;
	struct ll_error err;
	char **names = NULL;
	size_t n = 0, nq = 0, hits = 0;
	struct ll_query *queries = NULL;
	struct ll_lookup_result *results = NULL;
	struct audited *audits = NULL;
	size_t nr_audits = 0;
	struct strbuf out = STRBUF_INIT;
	int status = 0;

	if (ll_input_open(o->binary, &io, &in, &err) || ll_input_list(in, &names, &n, &err)) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	queries = xcalloc(n ? n : 1, sizeof(*queries));
	for (size_t i = 0; i < n; i++)
		if (ll_glob_component(glob, names[i], strlen(names[i])))
			queries[nq++] = (struct ll_query){ .name = names[i], .kind = LL_QUERY_ANY,
							   .decl_glob = o->decl_glob,
							   .no_suggestion = true };
	results = xcalloc(nq ? nq : 1, sizeof(*results));
	if (ll_input_lookup(in, queries, nq, results, &err)) {
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	if (o->list_glob) {
		write_name_index(ll_input_build_id(in), names, n);
		sb_addf(&out, "%-6s %-40s %7s %4s %5s  %s\n", "kind", "name", "size", "lines", "holes",
			"declared at");
	}
	for (size_t i = 0; i < nq; i++) {
		struct ll_struct *s = results[i].layout;

		/* Not "structs": the lookup's own line just counted those to 100%. */
		ll_progress_report(&io.progress, o->audit_glob ? "audits" : "rows", i + 1, nq);
		if (results[i].status == LL_AMBIGUOUS && o->list_glob) {
			struct strbuf name = STRBUF_INIT;

			sb_add_escaped(&name, queries[i].name);
			sb_addf(&out, "%-6s %-40s  (distinct definitions: %s)\n", "?", name.buf,
				results[i].detail);
			sb_release(&name);
			continue;
		}
		if (results[i].status != LL_FOUND)
			continue;	/* typedefs of non-aggregates, declarations */
		s->cacheline = o->cacheline ? o->cacheline : ll_input_arch_cacheline(in);
		hits++;
		if (o->list_glob) {
			ll_list_row(s, &out);
		} else if (o->contains) {
			ll_contains(s, o->contains, &out);
		} else {
			struct audited *a;

			audits = xgrow(audits, nr_audits, sizeof(*audits));
			a = &audits[nr_audits++];
			ll_audit(s, &a->a);
			a->name = s->name;	/* escaped, as the query's is not */
			a->kind = ll_kind_name(s->kind);
		}
	}
	progress_done(&line);
	if (o->audit_glob) {
		size_t shown = 0;

		if (nr_audits)
			qsort(audits, nr_audits, sizeof(*audits), cmp_audited);
		sb_adds(&out, "# heuristic, no rules: lines mixing lock-like members (spinlock_t, "
			"atomic_t, refcount_t, struct mutex...)\n# with pointers to const ops tables; "
			"write rules for the structs that matter\n");
		for (size_t i = 0; i < nr_audits; i++) {
			if (!audits[i].a.mixed_lines)
				continue;
			sb_addf(&out, "%4zu  %s %s: %s\n", audits[i].a.mixed_lines, audits[i].kind,
				audits[i].name, audits[i].a.detail);
			shown++;
		}
		if (!shown)
			sb_adds(&out, "# no struct matching the glob mixes them\n");
	}
	if (!hits) {
		ll_fail(&err, "%s: no struct or union matches '%s'%s%s", o->binary,
			o->contains ? "*" : glob, o->contains ? " that contains " : "",
			o->contains ? o->contains : "");
		ll_report_error(&err);
		status = 2;
		goto done;
	}
	if (write_stdout(&out))
		status = 2;
done:
	for (size_t i = 0; i < nr_audits; i++)
		free(audits[i].a.detail);
	free(audits);
	for (size_t i = 0; results && i < nq; i++)
		ll_lookup_result_release(&results[i]);
	free(results);
	free(queries);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	sb_release(&out);
	ll_input_close(in);
	return status;
}

/* --list-checks: the catalog, for people and for scripts. */
static int list_checks(void)
{
	struct strbuf out = STRBUF_INIT;
	int status;

	ll_report_checks(&out);
	status = write_stdout(&out);
	sb_release(&out);
	return status;
}

/* --import-net-cachelines: a rules file from a kernel table, no binary. */
static int import_net_cachelines(const char *path)
{
	struct strbuf out = STRBUF_INIT;
	struct ll_error err;
	int status;

	if (ll_import_net_cachelines(path, &out, &err)) {
		ll_report_error(&err);
		status = 2;
	} else {
		status = write_stdout(&out);
	}
	sb_release(&out);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { .fail_level = LL_LEVEL_ERROR };
	struct argp argp = { argp_options, parse_opt,
			     "BINARY [[struct|union] NAME]...\n"
			     "--binary FILE... [[struct|union] NAME]...\n"
			     "--import-net-cachelines FILE.rst", doc,
			     NULL, NULL, NULL };
	int status;

	argp_err_exit_status = 2;
	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return 2;
	if (o.list_checks)
		status = list_checks();
	else if (o.import_net)
		status = import_net_cachelines(o.import_net);
	else if (o.list_glob || o.contains || o.audit_glob)
		status = discover(&o);
	else
		status = run(&o);
	free(o.queries);
	free(o.binaries);
	free(o.args);
	free(o.prefix_maps);
	free(o.rules_paths);
	return status;
}
