// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format: one row per output format, as bpftool's cmds[] is one row per
 * command. options.c looks a name up here and its checks read the row's
 * flags; run.c and prove.c call the row's reporters. A new format is a
 * row here, its ll_report_* function in report/, and a line in --help's
 * --format text, docs/cli.md and the man page.
 */
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/report_groups.h"

static int lint_text(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	(void)err;
	ll_report_text(lo->all, out);
	return 0;
}

static int lint_json(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	(void)err;
	ll_report_json(lo->all, out);
	return 0;
}

static int lint_sarif(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	(void)err;
	ll_report_sarif(lo->all, out);
	return 0;
}

static int lint_html(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	(void)err;
	ll_report_html(lo->all, out);
	return 0;
}

/* The fix as a diff; --group-markers adds the tree's group markers to it. */
static int lint_patch(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	ll_report_patch(lo->all, lo->o->asserts, out);
	if (lo->o->group_markers)
		return ll_report_group_patch(lo->all, lo->o->srcdir, lo->plans, lo->nr_plans, out,
					     err);
	return 0;
}

static int lint_mail(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	(void)err;
	ll_report_mail(lo->all, lo->o->asserts, out);
	return 0;
}

const struct cli_format cli_formats[] = {
	{ .name = "text", .gating_summary = true, .lint = lint_text,
	  .prove = ll_report_prove_text },
	{ .name = "json", .lint = lint_json, .prove = ll_report_prove_json },
	{ .name = "sarif", .lint = lint_sarif },
	{ .name = "html", .html = true, .lint = lint_html },
	{ .name = "patch", .patch = true, .group_markers = true, .lint = lint_patch },
	{ .name = "mail", .patch = true, .lint = lint_mail },
	{ .name = NULL },
};

const struct cli_format *cli_format_by_name(const char *name)
{
	for (const struct cli_format *f = cli_formats; f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

void cli_format_names(struct strbuf *out)
{
	for (const struct cli_format *f = cli_formats; f->name; f++)
		sb_addf(out, "%s%s", f == cli_formats ? "" : f[1].name ? ", " : " or ", f->name);
}
