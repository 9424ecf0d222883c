// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layoutlint: the commands, and the one place that picks one. options.c
 * turns argv into struct options and names the command; cmds[] maps that
 * name to its handler, as bpftool's cmds[] does.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "rules/import_rst.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* --list-checks: the catalog, for people and for scripts. */
static int list_checks(struct options *o)
{
	struct strbuf out = STRBUF_INIT;
	int status;

	(void)o;
	ll_report_checks(&out);
	status = cli_write_stdout(&out);
	sb_release(&out);
	return status;
}

/* --import-net-cachelines: a rules file from a kernel table, no binary. */
static int import_net_cachelines(struct options *o)
{
	struct strbuf out = STRBUF_INIT;
	struct ll_error err;
	int status;

	if (ll_import_net_cachelines(o->import_net, &out, &err)) {
		ll_report_error(&err);
		status = 2;
	} else {
		status = cli_write_stdout(&out);
	}
	sb_release(&out);
	return status;
}

struct cmd {
	const char *name;
	int (*fn)(struct options *o);
};

static const struct cmd cmds[] = {
	{ "lint", cli_lint },				/* BINARY NAME..., --rules, gating */
	{ "discover", cli_discover },			/* --list, --contains, --audit */
	{ "list-checks", list_checks },			/* --list-checks */
	{ "import-net-cachelines", import_net_cachelines },	/* --import-net-cachelines */
	{ NULL, NULL },
};

static const struct cmd *cmd_select(const char *name)
{
	for (const struct cmd *c = cmds; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/*
 * glibc's malloc, tuned for a short process that builds a few hundred
 * thousand small objects on two threads: one arena (a second thread's own
 * arena grows a page at a time, one mprotect() each: 189 of them in a
 * 20-struct lookup, most of its system time) and a heap that grows and
 * shrinks in 32 MiB steps rather than by what each call needs.
 */
static void tune_malloc(void)
{
#if defined(M_ARENA_MAX) && defined(M_TOP_PAD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_TOP_PAD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
	struct options o = {
		.fail_level = LL_LEVEL_ERROR,
		.thresholds = { LL_MEASURED_HOT_DEFAULT, LL_MEASURED_WRITES_DEFAULT },
	};
	const struct cmd *cmd;
	int status = 2;

	tune_malloc();
	if (cli_parse_options(argc, argv, &o) != 0)
		return 2;
	/* Parsing named one of cmds[]; no entry would be a bug here, not a usage error. */
	cmd = cmd_select(o.command);
	if (cmd)
		status = cmd->fn(&o);
	else
		fprintf(stderr, "layoutlint: no command '%s'\n", o.command ? o.command : "(none)");
	cli_options_release(&o);
	return status;
}
