// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line: argp's table of options, their checks, and which
 * command the whole line asks for (struct options.command). The only
 * global state of the program is here, the two variables argp reads.
 */
#include <argp.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "config.h"
#include "util/diag.h"
#include "util/cache_dir.h"
#include "util/strbuf.h"
#include "util/tuning.h"

enum {
	OPT_FORMAT = 0x100,
	OPT_CACHELINE,
	OPT_DECL_FILE,
	OPT_SRCDIR,
	OPT_PREFIX_MAP,
	OPT_COLOR,
	OPT_FAIL_LEVEL,
	OPT_LAYOUT_CHANGE,
	OPT_GROUPS,
	OPT_IMPORT_NET,
	OPT_LIST,
	OPT_SUGGEST,
	OPT_ASSERTS,
	OPT_GROUP_MARKERS,
	OPT_RELAYOUT,
	OPT_CONTAINS,
	OPT_AUDIT,
	OPT_REQUIRE_ALL,
	OPT_BASELINE,
	OPT_WRITE_BASELINE,
	OPT_STRICT_BASELINE,
	OPT_AGAINST,
	OPT_DIFF,
	OPT_REFERENCE_NAME,
	OPT_BASE_REVISION,
	OPT_REPOSITORY,
	OPT_BTF,
	OPT_BTF_BASE,
	OPT_LIST_CHECKS,
	OPT_HTML,
	OPT_SOURCE_URL,
	OPT_LINE_PAIRS,
	OPT_BINARY,
	OPT_ADJACENT_LINES,
	OPT_IN,
	OPT_PROFILE,
	OPT_MEASURED_HOT,
	OPT_MEASURED_WRITES,
	OPT_WRITE_RULES,
	OPT_NO_CACHE,
	OPT_CU,
	OPT_SIZE,
	OPT_DIE,
	OPT_ACCESS,
	OPT_STATIC_READERS,
	OPT_STATIC_WRITERS,
	OPT_NET_CACHELINES,
	OPT_WRITE_NET_CACHELINES,
	OPT_CONFIG,
	OPT_PROVE,
	OPT_PROVE_BUDGET,
	OPT_PROVE_SOURCE,
	OPT_PROVE_SMT,
};

static const struct argp_option argp_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "binary", OPT_BINARY, "FILE", 0,
	  "Lint FILE too, reported with the others as one run (repeatable); then every "
	  "argument is a NAME and there is no positional BINARY", 1 },
	{ "decl-file", OPT_DECL_FILE, "GLOB", 0,
	  "Among same-named distinct definitions, pick the one declared in a file matching GLOB", 1 },
	{ "cu", OPT_CU, "GLOB", 0,
	  "Among same-named distinct definitions, pick those in a compilation unit whose file "
	  "(DW_AT_name) matches GLOB", 1 },
	{ "size", OPT_SIZE, "N", 0,
	  "Among same-named distinct definitions, pick the one of N bytes", 1 },
	{ "die", OPT_DIE, "OFFSET", 0,
	  "Pick the definition at this .debug_info offset (as the ambiguity error prints it)", 1 },
	{ "cacheline", OPT_CACHELINE, "N[,M...]", 0,
	  "Cacheline size in bytes (default: by the binary's architecture); several sizes "
	  "(64,128) lint each struct at each, every finding saying under which", 1 },
	{ "btf", OPT_BTF, NULL, 0,
	  "Read the .BTF section even when the binary has DWARF (BTF alone is read anyway: "
	  "raw BTF such as /sys/kernel/btf/vmlinux, or ELF with .BTF and no DWARF)", 1 },
	{ "no-cache", OPT_NO_CACHE, NULL, 0,
	  "Neither read nor write the name index under $XDG_CACHE_HOME/layoutlint "
	  "(also LAYOUTLINT_CACHE=off)", 1 },
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
	{ "in", OPT_IN, "OUTER.PATH", 0,
	  "Lint the one NAME where struct OUTER embeds it at member PATH: NAME's rules on "
	  "those members, on OUTER's cachelines", 2 },
	{ "adjacent-lines", OPT_ADJACENT_LINES, NULL, 0,
	  "Also check each aligned pair of cachelines, which the adjacent-line prefetcher "
	  "moves as one (adjacent-lines)", 2 },
	{ "groups", OPT_GROUPS, "WHEN", 0,
	  "auto (default): kernel __cacheline_group markers tag the members no rules tag, "
	  "and group-span is checked; off: ignore them", 2 },
	{ "list", OPT_LIST, "GLOB", OPTION_ARG_OPTIONAL,
	  "List the structs and unions whose names match GLOB (default *): kind, name, size, "
	  "cachelines, holes, declaring file; --list GLOB BINARY works too", 1 },
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
	{ "net-cachelines", OPT_NET_CACHELINES, "FILE.rst", 0,
	  "A Documentation/networking/net_cachelines table to check against its struct "
	  "(doc-drift; repeatable; default: every table under --srcdir)", 2 },
	{ "write-net-cachelines", OPT_WRITE_NET_CACHELINES, NULL, 0,
	  "Print each net_cachelines table of a struct linted, updated for the first binary "
	  "(rows added and dropped), instead of the report", 2 },
	{ "config", OPT_CONFIG, ".config", 0,
	  "The kernel configuration the binaries were built with: its CONFIG_RANDSTRUCT_* "
	  "says whether marked structs are randomized (randstruct)", 2 },
	{ "fail-level", OPT_FAIL_LEVEL, "LEVEL", 0,
	  "Exit 1 for findings at or above LEVEL: note, warning or error (default)", 2 },
	{ NULL, 0, NULL, 0, "Measurement (perf data-type profiles):", 3 },
	{ "profile", OPT_PROFILE, "FILE", 0,
	  "A perf data-type profile of BINARY (repeatable): the text of perf report "
	  "-s type,typeoff[,symoff] or of perf annotate's data-type view, after the lines of "
	  "perf buildid-list; adds each member's samples, reads and writes, and the checks "
	  "rule-drift and measured-mixed", 3 },
	{ "measured-hot", OPT_MEASURED_HOT, "PCT", 0,
	  "A member with at least PCT percent of its struct's samples is hot (default 0.05)", 3 },
	{ "measured-writes", OPT_MEASURED_WRITES, "PCT", 0,
	  "A hot member with at least PCT percent of its samples writes is written (default 10)",
	  3 },
	{ "access", OPT_ACCESS, NULL, 0,
	  "Read who loads, stores and atomically updates each member from BINARY's own machine "
	  "code (x86-64), check the rules against it, and tag from it where no rules do", 3 },
	{ "static-readers", OPT_STATIC_READERS, "N", 0,
	  "--access without rules: read-mostly when loaded in at least N functions and stored only by "
	  "constructors (default 3)", 3 },
	{ "static-writers", OPT_STATIC_WRITERS, "N", 0,
	  "--access without rules: write-hot when stored by at least N functions (and a quarter "
	  "as many as load it), or updated atomically, outside constructors (default 2)", 3 },
	{ "write-rules", OPT_WRITE_RULES, "FILE", 0,
	  "Write a rules file of the tags the profiles imply (write-hot, read-mostly, cold) "
	  "to FILE", 3 },
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
	{ "diff", OPT_DIFF, "FILE", 0,
	  "With --against or --baseline: the change under review (git diff, git format-patch "
	  "mail): a new finding is located at the member whose line it changed, the members "
	  "it shifted as notes; --format=mail quotes its hunk", 3 },
	{ "reference-name", OPT_REFERENCE_NAME, "NAME", 0,
	  "Name the reference NAME in every output (e.g. 'HEAD (1a2b3c4)') instead of its path", 3 },
	{ "base-revision", OPT_BASE_REVISION, "REV", 0,
	  "The commit the reference was built from: SARIF's versionControlProvenance, JSON's "
	  "gating.revision", 3 },
	{ "repository", OPT_REPOSITORY, "URI", 0,
	  "With --base-revision: the repository's URI (default: file:// of the source root)", 3 },
	{ "layout-change", OPT_LAYOUT_CHANGE, "LEVEL", 0,
	  "With --against or --baseline: the level of layout-change findings (a struct crossing a kmalloc "
	  "size class, taking more cachelines, or a tagged member moving to another line): "
	  "off, note, warning (default) or error", 3 },
	{ NULL, 0, NULL, 0, "Paths:", 4 },
	{ "srcdir", OPT_SRCDIR, "DIR", 0,
	  "Show declaring files relative to DIR (default: the compilation directory); "
	  "the kernel tree whose CACHELINE_ASSERT_GROUP_* asserts group-assert checks", 4 },
	{ "prefix-map", OPT_PREFIX_MAP, "OLD=NEW", 0,
	  "Rewrite declaring files starting with OLD to start with NEW (repeatable)", 4 },
	{ NULL, 0, NULL, 0, "Output:", 5 },
	{ "format", OPT_FORMAT, "FMT", 0, "text (default), json, sarif, html, patch (--suggest "
	  "as a unified diff of the declaring header, under --srcdir, that git apply takes), or "
	  "mail (plain text for a reply on a list: the quoted hunk, the findings, the fix as a "
	  "patch; 72 columns)", 5 },
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
	  "lands on, only those no config-dependent size before it can break (a note for "
	  "each left out)", 5 },
	{ "relayout", OPT_RELAYOUT, NULL, 0,
	  "With --against or --baseline: --suggest and --format=patch propose the whole "
	  "re-layout instead of the smallest fix of the new findings", 5 },
	{ "group-markers", OPT_GROUP_MARKERS, NULL, 0,
	  "With --format=patch and --srcdir: write each rules 'group' into the tree as the "
	  "kernel writes its groups: __cacheline_group_begin/end markers, "
	  "CACHELINE_ASSERT_GROUP_MEMBER/_SIZE lines, net_cachelines rows", 5 },
	{ NULL, 0, NULL, 0, "Proving (one struct, tagged):", 6 },
	{ "prove", OPT_PROVE, NULL, 0,
	  "Measure the layout against the suggestion (or, with --against, the old build's "
	  "against this one's): a generated C11 benchmark, one thread per write domain and "
	  "readers, pinned to separate cores, run ABAB; per-class throughput ratios with "
	  "95% intervals and a verdict", 6 },
	{ "prove-budget", OPT_PROVE_BUDGET, "SECS", 0,
	  "--prove: stop measuring after SECS seconds (default 20) if the intervals are not "
	  "within +-10% before", 6 },
	{ "prove-source", OPT_PROVE_SOURCE, "FILE", 0,
	  "--prove: also write the benchmark's C source to FILE (replaced whole)", 6 },
	{ "prove-smt", OPT_PROVE_SMT, NULL, 0,
	  "--prove: let threads run on SMT siblings of one core", 6 },
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

static bool line_size_ok(unsigned v)
{
	return v >= 16 && v <= 4096 && !(v & (v - 1));
}

/*
 * --cacheline N or N,M,...: distinct line sizes, the first in
 * o->cacheline, the rest in o->more_cachelines.
 */
static int parse_cachelines(const char *arg, struct options *o)
{
	char buf[64];
	size_t n = 0;
	unsigned sizes[4];

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (char *tok = buf, *comma; tok; tok = comma ? comma + 1 : NULL) {
		comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		if (n == 4 || parse_uint(tok, &sizes[n]) || !line_size_ok(sizes[n]))
			return -1;
		for (size_t k = 0; k < n; k++)
			if (sizes[k] == sizes[n])
				return -1;
		n++;
	}
	o->cacheline = sizes[0];
	o->nr_more_cachelines = n - 1;
	memcpy(o->more_cachelines, sizes + 1, (n - 1) * sizeof(*sizes));
	return 0;
}

/* A decimal, or with 0x a hex, unsigned 64-bit number (strtoull's base 0 would take 010 as 8). */
static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;

	if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ')
		return false;
	errno = 0;
	*out = strtoull(digits, &end, hex ? 16 : 10);
	return !*end && errno == 0;
}

/* A percentage: a number from 0 to 100. */
static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v >= 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

static void add_query(struct options *o, const char *name, const char *kind)
{
	o->queries = xgrow(o->queries, o->nr_queries, sizeof(*o->queries));
	o->queries[o->nr_queries++] = (struct ll_query){
		.name = name,
		.kind = !kind ? LL_QUERY_ANY :
			strcmp(kind, "union") == 0 ? LL_QUERY_UNION :
			strcmp(kind, "global") == 0 ? LL_QUERY_GLOBALS : LL_QUERY_STRUCT,
		.decl_glob = o->decl_glob, .select = &o->select,
	};
}

/*
 * "--list 'tcp_*' vmlinux": --list takes a BINARY and no NAME, so when a
 * bare --list is followed by a word and the line holds exactly one other
 * positional word, the word after --list is the GLOB and the other the
 * BINARY. With a single positional word ("--list vmlinux") that word is
 * the BINARY, listed whole, as before. No file is looked at to decide.
 */
static void take_list_word(struct options *o)
{
	if (!o->list_word || o->nr_args != 2 || o->binary_option)
		return;
	for (size_t i = 0; i < 2; i++) {
		if (o->args[i] != o->list_word)	/* the same argv slot, not equal text */
			continue;
		o->list_glob = o->args[i];
		o->args[0] = o->args[1 - i];
		o->nr_args = 1;
		return;
	}
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

		if (!o->pending_kind && (strcmp(arg, "struct") == 0 || strcmp(arg, "union") == 0 ||
					 strcmp(arg, "global") == 0)) {
			o->pending_kind = arg;
		} else {
			add_query(o, arg, o->pending_kind);
			o->pending_kind = NULL;
		}
	}
}

/* --list, --contains or --audit: the discover command. */
static bool listing(const struct options *o)
{
	return o->list_glob || o->contains || o->audit_glob;
}

/*
 * Which command the whole line asks for: --list-checks and
 * --import-net-cachelines read no binary and win; a listing option makes
 * it discover; else lint.
 */
static enum cli_command pick_command(const struct options *o)
{
	if (o->list_checks)
		return CMD_LIST_CHECKS;
	if (o->import_net)
		return CMD_IMPORT_NET_CACHELINES;
	return listing(o) ? CMD_DISCOVER : CMD_LINT;
}

/*
 * The checks of a whole command line, once argp has read it: each
 * validator below is a list of them, run in order, and the first that
 * fails is the usage error (argp_error() exits 2).
 */
typedef void check_fn(struct argp_state *state, const struct options *o);

static void binary_only_linting(struct argp_state *state, const struct options *o)
{
	if (o->binary_option && o->command != CMD_LINT)
		argp_error(state, "--binary is for linting: --list-checks, "
			   "--import-net-cachelines, --list, --contains and --audit take no "
			   "--binary");
}

static void list_checks_no_binary(struct argp_state *state, const struct options *o)
{
	if (o->binary)
		argp_error(state, "--list-checks takes no BINARY");
}

static void html_draws_linted(struct argp_state *state, const struct options *o)
{
	if ((o->html || o->format->html) && (o->import_net || listing(o)))
		argp_error(state, "the HTML map draws linted structs: --html and --format=html "
			   "do not go with --list, --contains, --audit or "
			   "--import-net-cachelines");
}

static void import_net_no_binary(struct argp_state *state, const struct options *o)
{
	if (o->binary)
		argp_error(state, "--import-net-cachelines takes no BINARY");
}

static void needs_binary(struct argp_state *state, const struct options *o)
{
	if (!o->binary)
		argp_error(state, "no BINARY given");
}

static void one_cacheline_for_patch(struct argp_state *state, const struct options *o)
{
	if (o->nr_more_cachelines && (o->format->patch || o->write_rules))
		argp_error(state, "--cacheline with several sizes lints each struct once per "
			   "size: --format=patch, --format=mail and --write-rules need one");
}

static void group_markers_need_patch(struct argp_state *state, const struct options *o)
{
	if (o->group_markers && (!o->format->group_markers || !o->srcdir ||
				 o->write_net_cachelines))
		argp_error(state, "--group-markers writes the rules' groups into the tree's "
			   "patch: it needs --format=patch and --srcdir DIR, and no "
			   "--write-net-cachelines");
}

static void kind_has_name(struct argp_state *state, const struct options *o)
{
	if (o->pending_kind)
		argp_error(state, "'%s' must be followed by a NAME", o->pending_kind);
}

static void in_one_name(struct argp_state *state, const struct options *o)
{
	if (o->in_outer && (o->nr_queries != 1 || o->queries[0].kind == LL_QUERY_GLOBALS))
		argp_error(state, "--in %s.%s lints one struct where %s embeds it: give "
			   "exactly one NAME", o->in_outer, o->in_path, o->in_outer);
}

static void one_listing(struct argp_state *state, const struct options *o)
{
	if (!!o->list_glob + !!o->contains + !!o->audit_glob > 1)
		argp_error(state, "give one of --list, --contains and --audit");
}

static void listing_binary_only(struct argp_state *state, const struct options *o)
{
	if (o->nr_queries || o->nr_rules_paths)
		argp_error(state, "--list, --contains and --audit take a BINARY only, "
			   "no NAME or --rules");
}

static void something_to_lint(struct argp_state *state, const struct options *o)
{
	if (!o->nr_queries && !o->nr_rules_paths && !o->nr_profiles)
		argp_error(state, "no struct NAME, no --rules and no --profile given");
}

static void one_reference(struct argp_state *state, const struct options *o)
{
	if (o->baseline && o->against)
		argp_error(state, "--baseline and --against each set the reference; give one");
}

static void thresholds_need_profile(struct argp_state *state, const struct options *o)
{
	if (o->thresholds_given && !o->nr_profiles)
		argp_error(state, "--measured-hot and --measured-writes need --profile FILE");
}

static void write_rules_needs_tags(struct argp_state *state, const struct options *o)
{
	if (o->write_rules && !o->nr_profiles && !o->access)
		argp_error(state, "--write-rules needs --profile FILE (measured tags) or "
			   "--access (tags from the code)");
}

static void static_needs_access(struct argp_state *state, const struct options *o)
{
	if (o->static_given && !o->access)
		argp_error(state, "--static-readers and --static-writers need --access");
}

static void access_not_listing(struct argp_state *state, const struct options *o)
{
	if (o->access && (o->list_glob || o->contains))
		argp_error(state, "--access is for linting and --audit: --list and --contains "
			   "take none");
}

static void profile_not_listing(struct argp_state *state, const struct options *o)
{
	if (o->nr_profiles)
		argp_error(state, "--profile is for linting: --list, --contains and --audit "
			   "take none");
}

static void strict_needs_baseline(struct argp_state *state, const struct options *o)
{
	if (o->strict_baseline && !o->baseline)
		argp_error(state, "--strict-baseline needs --baseline FILE");
}

static void prove_options_need_prove(struct argp_state *state, const struct options *o)
{
	if ((o->prove_source || o->prove_budget > 0 || o->prove_smt) && !o->prove)
		argp_error(state, "--prove-source, --prove-budget and --prove-smt need --prove");
}

static void prove_one_struct(struct argp_state *state, const struct options *o)
{
	if (o->prove && (o->nr_queries != 1 || o->queries[0].kind == LL_QUERY_GLOBALS ||
			 o->nr_binaries != 1 || o->in_outer))
		argp_error(state, "--prove measures one struct of one BINARY: give exactly one "
			   "NAME");
}

static void prove_prints_alone(struct argp_state *state, const struct options *o)
{
	if (o->prove && (o->baseline || o->write_baseline || o->html || o->write_rules ||
			 o->nr_more_cachelines || o->write_net_cachelines || !o->format->prove))
		argp_error(state, "--prove prints its measurement as text or JSON: no "
			   "--baseline, --write-baseline, --html, --write-rules, "
			   "--write-net-cachelines, several --cacheline sizes or other --format");
}

static void relayout_needs_reference(struct argp_state *state, const struct options *o)
{
	if (o->relayout && !o->baseline && !o->against)
		argp_error(state, "--relayout needs --against or --baseline (without them "
			   "--suggest is the whole re-layout already)");
}

static void reference_options_need_reference(struct argp_state *state, const struct options *o)
{
	if ((o->diff || o->reference_name || o->base_revision) && !o->baseline && !o->against)
		argp_error(state, "--diff, --reference-name and --base-revision describe the "
			   "reference: they need --against or --baseline");
}

static void repository_needs_revision(struct argp_state *state, const struct options *o)
{
	if (o->repository && !o->base_revision)
		argp_error(state, "--repository needs --base-revision REV");
}

static check_fn refuse_output_onto_input;

/*
 * Each command's validator. lint and discover share most checks, in one
 * order (the first failing one is the message); discover's lint options
 * are refused where a check names them.
 */
static check_fn *const list_checks_validator[] = {
	binary_only_linting, list_checks_no_binary, NULL,
};

static check_fn *const import_net_validator[] = {
	binary_only_linting, html_draws_linted, import_net_no_binary, NULL,
};

static check_fn *const discover_validator[] = {
	binary_only_linting, html_draws_linted, needs_binary, one_cacheline_for_patch,
	group_markers_need_patch, kind_has_name, in_one_name, one_listing, listing_binary_only,
	one_reference, thresholds_need_profile, write_rules_needs_tags, static_needs_access,
	access_not_listing, profile_not_listing, strict_needs_baseline, prove_options_need_prove,
	prove_one_struct, relayout_needs_reference, reference_options_need_reference,
	repository_needs_revision, refuse_output_onto_input, NULL,
};

static check_fn *const lint_validator[] = {
	needs_binary, one_cacheline_for_patch, group_markers_need_patch, kind_has_name,
	in_one_name, something_to_lint, one_reference, thresholds_need_profile,
	write_rules_needs_tags, static_needs_access, strict_needs_baseline,
	prove_options_need_prove, prove_one_struct, prove_prints_alone, relayout_needs_reference,
	reference_options_need_reference, repository_needs_revision, refuse_output_onto_input,
	NULL,
};

static check_fn *const *const validators[CMD_COUNT] = {
	[CMD_LINT] = lint_validator,
	[CMD_DISCOVER] = discover_validator,
	[CMD_LIST_CHECKS] = list_checks_validator,
	[CMD_IMPORT_NET_CACHELINES] = import_net_validator,
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case OPT_FORMAT:
		if (!(o->format = cli_format_by_name(arg))) {
			struct strbuf names = STRBUF_INIT;

			cli_format_names(&names);
			argp_error(state, "unknown --format '%s' (expected %s)", arg, names.buf);
		}
		if (o->format->patch)
			o->suggest = true;	/* a patch is a suggestion, written as a diff */
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
	case OPT_ADJACENT_LINES:
		o->adjacent_lines = true;
		break;
	case OPT_IN: {
		const char *dot = strchr(arg, '.');

		if (!dot || dot == arg || !dot[1])
			argp_error(state, "--in '%s': expected OUTER.PATH (inode.i_data)", arg);
		struct strbuf outer = STRBUF_INIT;

		sb_add(&outer, arg, (size_t)(dot - arg));
		free(o->in_outer);
		o->in_outer = sb_detach(&outer);
		o->in_path = dot + 1;
		break;
	}
	case OPT_NO_CACHE:
		o->no_cache = true;
		break;
	case OPT_CACHELINE:
		if (parse_cachelines(arg, o))
			argp_error(state, "--cacheline '%s': expected a power of two from 16 to 4096, "
				   "or up to 4 distinct ones apart by commas (64,128)", arg);
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
	case OPT_CU:
		if (!*arg)
			argp_error(state, "--cu needs a GLOB");
		o->select.cu_glob = arg;
		break;
	case OPT_SIZE:
		if (!parse_u64(arg, &o->select.size))
			argp_error(state, "--size '%s': expected a number of bytes", arg);
		o->select.by_size = true;
		break;
	case OPT_DIE:
		if (!parse_u64(arg, &o->select.die))
			argp_error(state, "--die '%s': expected a .debug_info offset (0x1234 or 4660)",
				   arg);
		o->select.by_die = true;
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
	case OPT_ACCESS:
		o->access = true;
		break;
	case OPT_STATIC_READERS:
	case OPT_STATIC_WRITERS:
		if (parse_uint(arg, key == OPT_STATIC_READERS ? &o->static_thresholds.readers :
							       &o->static_thresholds.writers) ||
		    !(key == OPT_STATIC_READERS ? o->static_thresholds.readers :
						  o->static_thresholds.writers))
			argp_error(state, "--%s '%s': expected a number of functions, 1 or more",
				   key == OPT_STATIC_READERS ? "static-readers" : "static-writers", arg);
		o->static_given = true;
		break;
	case OPT_PROFILE:
		if (!*arg)
			argp_error(state, "--profile needs a FILE");
		o->profiles = xgrow(o->profiles, o->nr_profiles, sizeof(*o->profiles));
		o->profiles[o->nr_profiles++] = arg;
		break;
	case OPT_MEASURED_HOT:
		if (parse_pct(arg, &o->thresholds.hot_pct))
			argp_error(state, "--measured-hot '%s': expected a percentage from 0 to 100", arg);
		o->thresholds_given = true;
		break;
	case OPT_MEASURED_WRITES:
		if (parse_pct(arg, &o->thresholds.write_pct))
			argp_error(state, "--measured-writes '%s': expected a percentage from 0 to 100",
				   arg);
		o->thresholds_given = true;
		break;
	case OPT_WRITE_RULES:
		if (!*arg)
			argp_error(state, "--write-rules needs a FILE");
		o->write_rules = arg;
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
	case OPT_GROUP_MARKERS:
		o->group_markers = true;
		break;
	case OPT_RELAYOUT:
		o->relayout = true;
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
	case OPT_PROVE:
		o->prove = true;
		break;
	case OPT_PROVE_SOURCE:
		o->prove_source = arg;
		break;
	case OPT_PROVE_SMT:
		o->prove_smt = true;
		break;
	case OPT_PROVE_BUDGET: {
		char *end;
		double v = strtod(arg, &end);

		if (end == arg || *end || !(v >= 1 && v <= 3600))
			argp_error(state, "--prove-budget '%s': expected seconds, 1 to 3600", arg);
		o->prove_budget = v;
		break;
	}
	case OPT_DIFF:
		if (!*arg)
			argp_error(state, "--diff needs a FILE");
		o->diff = arg;
		break;
	case OPT_REFERENCE_NAME:
		if (!*arg)
			argp_error(state, "--reference-name needs a NAME");
		o->reference_name = arg;
		break;
	case OPT_BASE_REVISION:
		if (!*arg)
			argp_error(state, "--base-revision needs a REV");
		o->base_revision = arg;
		break;
	case OPT_REPOSITORY:
		if (!*arg)
			argp_error(state, "--repository needs a URI");
		o->repository = arg;
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
	case OPT_NET_CACHELINES:
		o->net_cachelines = xrealloc(o->net_cachelines, (o->nr_net_cachelines + 1) *
					     sizeof(*o->net_cachelines));
		o->net_cachelines[o->nr_net_cachelines++] = arg;
		break;
	case OPT_WRITE_NET_CACHELINES:
		o->write_net_cachelines = true;
		break;
	case OPT_CONFIG:
		o->config = arg;
		break;
	case OPT_LIST_CHECKS:
		o->list_checks = true;
		break;
	case OPT_LIST:
		o->list_glob = arg ? arg : "*";
		/*
		 * argp gives an optional argument only as --list=GLOB; remember
		 * the next word, which take_list_word() may make the GLOB.
		 */
		o->list_word = !arg && state->next < state->argc &&
			       state->argv[state->next][0] != '-' ? state->argv[state->next] : NULL;
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
	case OPT_LAYOUT_CHANGE:
		o->layout_change_off = strcmp(arg, "off") == 0;
		if (strcmp(arg, "note") == 0)
			o->layout_change_level = LL_LEVEL_NOTE;
		else if (strcmp(arg, "warning") == 0)
			o->layout_change_level = LL_LEVEL_WARNING;
		else if (strcmp(arg, "error") == 0)
			o->layout_change_level = LL_LEVEL_ERROR;
		else if (!o->layout_change_off)
			argp_error(state, "unknown --layout-change '%s' (expected off, note, warning "
				   "or error)", arg);
		break;
	case ARGP_KEY_ARG:
		o->args = xgrow(o->args, o->nr_args, sizeof(*o->args));
		o->args[o->nr_args++] = arg;
		break;
	case ARGP_KEY_END:
		take_list_word(o);
		sort_arguments(o);
		o->command = pick_command(o);
		for (check_fn *const *check = validators[o->command]; *check; check++)
			(*check)(state, o);
		if (o->prove) {
			if (!o->against)
				o->suggest = true;
			if (!(o->prove_budget > 0))
				o->prove_budget = 20;
		}
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Whether paths A and B name one existing file (a link, another spelling). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * An output replaces its file whole: one that is also this run's input
 * (--write-baseline onto the rules file, --html onto the binary) would
 * destroy it, exit 0. Only --write-baseline onto --baseline's file is
 * meant (it refreshes it).
 */
static void refuse_output_onto_input(struct argp_state *state, const struct options *o)
{
	const struct named_path { const char *opt, *path; } outs[] = {
		{ "--write-baseline", o->write_baseline }, { "--html", o->html },
		{ "--write-rules", o->write_rules }, { "--prove-source", o->prove_source },
	}, ins[] = {
		{ "--baseline", o->baseline }, { "--against", o->against },
		{ "--btf-base", o->btf_base },
	};
	const size_t n = sizeof(ins) / sizeof(*ins);
	for (size_t k = 0; k < sizeof(outs) / sizeof(*outs); k++) {
		if (!outs[k].path)
			continue;
		for (size_t j = 0; j < k; j++)
			if (same_file(outs[j].path, outs[k].path) ||
			    (outs[j].path && strcmp(outs[j].path, outs[k].path) == 0))
				argp_error(state, "%s and %s name one file, '%s'", outs[j].opt,
					   outs[k].opt, outs[k].path);
		for (size_t i = 0; i < n; i++)
			if (same_file(ins[i].path, outs[k].path) && !(k == 0 && i == 0))
				argp_error(state, "%s '%s' would replace the %s file, an input of this "
					   "run", outs[k].opt, outs[k].path, ins[i].opt);
		for (size_t i = 0; i < o->nr_binaries; i++)
			if (same_file(o->binaries[i], outs[k].path))
				argp_error(state, "%s '%s' would replace the binary, an input of this run",
					   outs[k].opt, outs[k].path);
		for (size_t i = 0; i < o->nr_rules_paths; i++)
			if (same_file(o->rules_paths[i], outs[k].path))
				argp_error(state, "%s '%s' would replace the rules file, an input of this "
					   "run", outs[k].opt, outs[k].path);
		for (size_t i = 0; i < o->nr_profiles; i++)
			if (same_file(o->profiles[i], outs[k].path))
				argp_error(state, "%s '%s' would replace the profile, an input of this run",
					   outs[k].opt, outs[k].path);
	}
}

static void print_version(FILE *stream, struct argp_state *state)
{
	(void)state;
	fprintf(stream, "layoutlint %s (built with libdw %s, running libdw %s)\n",
		LAYOUTLINT_VERSION, LIBDW_BUILD_VERSION, dwfl_version(NULL));
}

void (*argp_program_version_hook)(FILE *, struct argp_state *) = print_version;
const char *argp_program_bug_address = NULL;

/*
 * $XDG_CACHE_HOME/layoutlint (else ~/.cache/layoutlint): the name indexes
 * and completion's name lists; none with --no-cache or LAYOUTLINT_CACHE=off.
 */
static char *cache_dir(const struct options *o)
{
	const char *xdg = o->env.xdg_cache_home, *home = o->env.home;
	struct strbuf dir = STRBUF_INIT;

	if (o->no_cache || o->env.cache_off || ((!xdg || !*xdg) && !home))
		return NULL;
	if (xdg && *xdg)
		sb_addf(&dir, "%s/layoutlint", xdg);
	else
		sb_addf(&dir, "%s/.cache/layoutlint", home);
	return sb_detach(&dir);
}

/* LAYOUTLINT_CACHE_MAX_MB: not a number is the default, as a typo must not empty the cache. */
static uint64_t cache_max_bytes(const char *env)
{
	char *end;
	double mb;

	if (!env || !*env)
		return (uint64_t)LL_CACHE_DEFAULT_MAX_MB << 20;
	errno = 0;
	mb = strtod(env, &end);
	if (errno || *end || !(mb >= 0) || mb > 1e12)
		return (uint64_t)LL_CACHE_DEFAULT_MAX_MB << 20;
	return (uint64_t)(mb * (1 << 20));
}

/*
 * Every environment variable layoutlint reads, read here once: cli's own
 * into ENV, the layers' into util/tuning.h (set before any work).
 */
static void read_env(struct cli_env *env)
{
	const char *threads = getenv("LAYOUTLINT_THREADS"), *cache = getenv("LAYOUTLINT_CACHE");
	const char *scan = getenv("LAYOUTLINT_SCAN"), *reloc = getenv("LAYOUTLINT_RELOC");
	const char *cc = getenv("CC");
	long n = threads ? strtol(threads, NULL, 10) : 0;
	struct ll_tuning t = {
		.threads = !threads ? 0 : n < 1 ? 1 : n > 8 ? 8 : (unsigned)n,
		.cache_max_bytes = cache_max_bytes(getenv("LAYOUTLINT_CACHE_MAX_MB")),
		.scan_libdw = scan && strcmp(scan, "libdw") == 0,
		.reloc = !reloc ? LL_RELOC_OWN_ELSE_LIBDWFL :
			 strcmp(reloc, "libdwfl") == 0 ? LL_RELOC_LIBDWFL :
			 strcmp(reloc, "own") == 0 ? LL_RELOC_OWN : LL_RELOC_OWN_ELSE_LIBDWFL,
	};

	*env = (struct cli_env){
		.xdg_cache_home = getenv("XDG_CACHE_HOME"),
		.home = getenv("HOME"),
		.cache_off = cache && strcmp(cache, "off") == 0,
		.no_color = getenv("NO_COLOR") != NULL,
		.path = getenv("PATH"),
		.tmpdir = getenv("TMPDIR"),
		.cc = cc && *cc ? cc : NULL,
	};
	ll_tuning_set(&t);
}

int cli_parse_options(int argc, char **argv, struct options *o)
{
	struct argp argp = { argp_options, parse_opt,
			     "BINARY [[struct|union] NAME]...\n"
			     "--binary FILE... [[struct|union] NAME]...\n"
			     "--import-net-cachelines FILE.rst", doc,
			     NULL, NULL, NULL };

	read_env(&o->env);
	o->format = &cli_formats[0];
	argp_err_exit_status = 2;
	if (argp_parse(&argp, argc, argv, 0, NULL, o) != 0)
		return 2;
	o->cache_dir = cache_dir(o);
	return 0;
}

void cli_options_release(struct options *o)
{
	ll_free_all(o->cache_dir, o->queries, o->in_outer, o->binaries);
	ll_strv_free(o->archive_members, o->nr_archive_members);
	ll_free_all(o->args, o->prefix_maps, o->rules_paths, o->profiles, o->net_cachelines);
}
