/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the program: what the files of cli/ share. options.c parses argv
 * and the environment into struct options and picks the command to run,
 * once its validator passed; main.c's cmds[] runs it; format.c is the
 * table of output formats; run.c (lint, gate) and discover.c (--list,
 * --contains, --audit) are the commands that read binaries; tty.c is the
 * terminal and stdout they write to.
 */
#ifndef LAYOUTLINT_CLI_H
#define LAYOUTLINT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "input/reader.h"	/* struct ll_query */
#include "model/access.h"
#include "model/finding.h"	/* enum ll_level */
#include "model/profile.h"
#include "util/progress.h"
#include "util/strbuf.h"

struct ll_run;
struct ll_doc_plan;
struct ll_prove_result;

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* The commands main.c's cmds[] runs, one per command line; options.c picks it. */
enum cli_command {
	CMD_LINT,			/* BINARY NAME..., --rules, gating */
	CMD_DISCOVER,			/* --list, --contains, --audit */
	CMD_LIST_CHECKS,		/* --list-checks */
	CMD_IMPORT_NET_CACHELINES,	/* --import-net-cachelines */
	CMD_COUNT
};

/*
 * The environment cli itself uses, read once with the layers' (options.c,
 * read_env(); util/tuning.h) and handed down as values: nothing below
 * cli calls getenv(). The man page's ENVIRONMENT says what each means.
 */
struct cli_env {
	const char *xdg_cache_home, *home;	/* where the name indexes go */
	bool cache_off;				/* LAYOUTLINT_CACHE=off */
	bool no_color;				/* NO_COLOR set */
	const char *path, *tmpdir, *cc;		/* --prove: PATH, TMPDIR, CC */
};

struct cli_format;

struct options {
	const struct cli_format *format;	/* --format: a row of cli_formats[] (format.c) */
	unsigned cacheline;		/* 0: by the binary's architecture */
	/*
	 * --cacheline N,M...: more line sizes, each struct linted again at
	 * each (the first is CACHELINE); 0 extra for one size.
	 */
	unsigned more_cachelines[3];
	size_t nr_more_cachelines;
	const char *decl_glob;
	struct ll_selector select;	/* --cu, --size, --die */
	const char *srcdir;
	const char **prefix_maps;
	size_t nr_prefix_maps;
	enum color_mode color;
	const char *binary;		/* the first of binaries */
	const char **binaries;		/* --binary FILE..., or the positional BINARY */
	size_t nr_binaries;
	bool binary_option;		/* --binary given: every positional argument is a NAME */
	char **archive_members;		/* the binaries thin archives were replaced by (owned) */
	size_t nr_archive_members;
	const char **args;		/* positional arguments, sorted out at the end */
	size_t nr_args;
	struct ll_query *queries;
	size_t nr_queries;
	const char *pending_kind;	/* "struct"/"union" waiting for its NAME */
	const char **rules_paths;
	size_t nr_rules_paths;
	enum ll_level fail_level;
	enum ll_level layout_change_level;	/* --layout-change (default: the catalog's) */
	bool layout_change_off;			/* --layout-change=off */
	bool require_all;
	bool quiet;
	bool suggest;			/* --suggest */
	bool asserts;			/* --asserts */
	bool group_markers;		/* --group-markers */
	bool relayout;			/* --relayout: no smallest fix under gating */
	bool groups_off;		/* --groups=off */
	const char *import_net;		/* --import-net-cachelines FILE */
	const char **net_cachelines;	/* --net-cachelines FILE... (doc-drift) */
	size_t nr_net_cachelines;
	bool write_net_cachelines;	/* --write-net-cachelines */
	const char *config;		/* --config .config (randstruct) */
	const char *list_glob;		/* --list[=GLOB] */
	const char *list_word;		/* the word after a bare --list, maybe its GLOB */
	const char *contains;		/* --contains TYPE */
	const char *audit_glob;		/* --audit GLOB */
	const char *baseline;		/* --baseline FILE */
	const char *write_baseline;	/* --write-baseline FILE */
	bool strict_baseline;
	const char *against;		/* --against OLD-BINARY */
	const char *diff;		/* --diff FILE */
	const char *reference_name;	/* --reference-name NAME */
	const char *base_revision;	/* --base-revision REV */
	const char *repository;		/* --repository URI */
	bool list_checks;		/* --list-checks */
	bool btf;			/* --btf */
	const char *btf_base;		/* --btf-base FILE */
	const char *html;		/* --html FILE */
	const char *source_url;		/* --source-url TEMPLATE */
	bool line_pairs;		/* --line-pairs */
	bool adjacent_lines;		/* --adjacent-lines */
	char *in_outer;			/* --in OUTER.PATH: OUTER (owned) */
	const char *in_path;		/* ... and PATH */
	const char *in_type;		/* the NAME --in lints (the query now names OUTER) */
	struct ll_block *in_block;	/* NAME's rules block, or NULL */
	bool access;			/* --access: static evidence from the machine code */
	struct ll_static_thresholds static_thresholds;	/* --static-readers, --static-writers */
	bool static_given;
	const char **profiles;		/* --profile FILE... */
	size_t nr_profiles;
	struct ll_measure_thresholds thresholds;	/* --measured-hot, --measured-writes */
	bool thresholds_given;
	const char *write_rules;	/* --write-rules FILE */
	bool no_cache;			/* --no-cache */
	char *cache_dir;		/* the name indexes' directory, owned; NULL: none */
	bool prove;			/* --prove */
	const char *prove_source;	/* --prove-source FILE */
	double prove_budget;		/* --prove-budget SECS */
	bool prove_smt;			/* --prove-smt */
	struct cli_env env;
	enum cli_command command;	/* the cmds[] entry to run (main.c), set once parsing is done */
};

/*
 * format.c: the output formats, one row each: --format's NAME, what the
 * format implies for the options, and its reporter. Adding a format is a
 * row here and its ll_report_* function in report/.
 */
struct cli_lint_output {
	const struct options *o;
	const struct ll_run *all;
	const struct ll_doc_plan *plans;	/* --group-markers' net_cachelines tables */
	size_t nr_plans;
};

struct cli_format {
	const char *name;
	/*
	 * A fix written as a patch (patch, mail): implies --suggest, and
	 * needs one --cacheline size.
	 */
	bool patch;
	bool group_markers;	/* --group-markers writes into this format's patch */
	bool html;		/* the cacheline map: linted structs only, no listing */
	bool gating_summary;	/* gating's one-line summary on stderr after the report */
	/*
	 * The run's notes (the readers', and lint's own about the run) go into
	 * the document (ll_run's notes) instead of on stderr as they come.
	 */
	bool notes_in_report;
	/* lint's report: one of the two (REPORT_FIX takes --asserts) */
	void (*report)(const struct ll_run *run, struct strbuf *out);
	void (*report_fix)(const struct ll_run *run, bool asserts, struct strbuf *out);
	/* --prove's measurement, or NULL: --prove does not print in this format. */
	void (*prove)(const struct ll_prove_result *r, struct strbuf *out);
};

/* lint's report of LO in O->format into OUT: 0, or -1 with ERR. */
int cli_format_lint(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err);

extern const struct cli_format cli_formats[];	/* ends with a NULL name; the first is the default */
const struct cli_format *cli_format_by_name(const char *name);
/* "text, json, ... or mail", the names for a usage error. */
void cli_format_names(struct strbuf *out);

/*
 * options.c: parse ARGV into O (zeroed but for fail_level and thresholds) and set
 * O->command once its command's validator passed; a usage error exits 2
 * (argp prints it), --help and --version exit 0. Returns 0, or 2 when argp
 * failed without exiting. O->env is read from the environment first.
 */
int cli_parse_options(int argc, char **argv, struct options *o);
void cli_options_release(struct options *o);

/*
 * profile.c: --profile. Every profile is parsed before any binary is read
 * (notes printed, an unreadable one is ERR); then each binary gets the
 * ones taken of it (build-ids checked, loads and stores classified from
 * its code). OUT borrows from ALL.
 */
struct cli_profiles {
	struct ll_profile **v;
	size_t n;
	bool *used;		/* per profile: some binary of the run took it */
};

int cli_profiles_load(const struct options *o, struct cli_profiles *out, struct ll_error *err);
int cli_profiles_for_binary(struct cli_profiles *all, const char *binary, const char *build_id,
			    struct cli_profiles *out, struct ll_error *err);
/*
 * --profile with neither NAME nor --rules: a query for every struct and
 * union the profiles name (typedef'd and base types are not looked up).
 * The queries borrow the names from ALL.
 */
void cli_profiles_queries(const struct cli_profiles *all, struct options *o);
/* After every binary: a profile no binary took is ERR. */
int cli_profiles_all_used(const struct cli_profiles *all, const char *const *binaries, size_t n,
			  struct ll_error *err);
void cli_profiles_release(struct cli_profiles *p);
void cli_print_notes(const struct ll_profile_notes *notes);

/* The commands of cmds[] that read binaries; each returns the exit status. */
int cli_lint(struct options *o);	/* run.c: lint, and gate with --baseline/--against */
int cli_discover(struct options *o);	/* discover.c: --list, --contains, --audit */
/*
 * prove.c, --prove: ALL's one struct measured against its suggestion, or
 * with --against against REFERENCE's struct of that name; the exit status.
 */
int cli_prove(const struct options *o, const struct ll_run *all, const struct ll_run *reference);

/*
 * tty.c: one updating line on stderr during long scans: only on a
 * terminal, and only once the work has taken half a second, so quick runs
 * and pipes never see it. cli_progress_for() starts it (a no-op progress
 * off a terminal), cli_progress_done() erases it before anything else is
 * printed.
 */
struct progress_line {
	struct timespec start, last;
	bool shown;
};

struct ll_progress cli_progress_for(struct progress_line *p);
void cli_progress_done(struct progress_line *p);
/* Write OUT to stdout whole, or say why not: 0, or exit status 2. */
int cli_write_stdout(const struct strbuf *out);
/*
 * End the process with STATUS, its output written, without freeing what
 * the run built; returns only in a build for the sanitizers
 * (LL_FREE_AT_EXIT), which frees it all, so that LeakSanitizer still
 * checks that every owner releases what it holds.
 */
void cli_exit_unfreed(int status);

#endif
