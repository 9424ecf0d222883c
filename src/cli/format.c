// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format: one row per output format, as bpftool's cmds[] is one row per
 * command. options.c looks a name up here and its checks read the row's
 * flags; run.c (through cli_format_lint()) and prove.c call the row's
 * reporters. A new format is a row here, its ll_report_* function in
 * report/, and its words in --help's --format text, docs/cli.md and the
 * man page (docs/contributing.md).
 */
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/report_groups.h"

const struct cli_format cli_formats[] = {
	{ .name = "text", .gating_summary = true, .report = ll_report_text,
	  .prove = ll_report_prove_text },
	{ .name = "json", .notes_in_report = true, .report = ll_report_json,
	  .prove = ll_report_prove_json },
	{ .name = "sarif", .notes_in_report = true, .report = ll_report_sarif },
	{ .name = "html", .html = true, .report = ll_report_html },
	{ .name = "patch", .patch = true, .group_markers = true, .report_fix = ll_report_patch },
	{ .name = "mail", .patch = true, .report_fix = ll_report_mail },
	{ .name = NULL },
};

int cli_format_lint(const struct cli_lint_output *lo, struct strbuf *out, struct ll_error *err)
{
	const struct options *o = lo->o;
	const struct cli_format *f = o->format;

	if (f->report_fix)
		f->report_fix(lo->all, o->asserts, out);
	else
		f->report(lo->all, out);
	/* The fix as a diff; --group-markers adds the tree's group markers to it. */
	if (f->group_markers && o->group_markers)
		return ll_report_group_patch(lo->all, o->srcdir, lo->plans, lo->nr_plans, out, err);
	return 0;
}

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
