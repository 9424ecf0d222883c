// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layoutlint: the commands, and the one place that runs one. options.c
 * turns argv into struct options and picks the command (enum
 * cli_command); cmds[] maps it to its handler, as bpftool's cmds[] does.
 */
#include <malloc.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"
#include "rules/import_rst.h"
#include "util/diag.h"
#include "util/huge_page.h"
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

/* Indexed by enum cli_command: options.c names one, this runs it. */
static int (*const cmds[CMD_COUNT])(struct options *o) = {
	[CMD_LINT] = cli_lint,
	[CMD_DISCOVER] = cli_discover,
	[CMD_LIST_CHECKS] = list_checks,
	[CMD_IMPORT_NET_CACHELINES] = import_net_cachelines,
};

/*
 * glibc's malloc, tuned for a short process that builds a few hundred
 * thousand small objects: a heap that grows and shrinks in 32 MiB steps
 * rather than by what each call needs, and huge pages for that heap. A
 * 4 KiB first-touch fault is costly on the VMs this runs on, and 20
 * structs' members touch ~1,000 pages: huge pages make a warm 20-struct
 * lookup of the 6.12 image faster. Only when the first block lies in the
 * brk heap just below the break (not under a sanitizer's allocator, or
 * glibc's mmap fallback).
 *
 * The heap's first huge page starts at its first 2 MiB boundary, and
 * every block below it was in 4 KiB pages: the first ~1 MB of a run's
 * allocations. The returned block, never touched, fills the heap up to
 * that boundary, so that every later block lies above it; the caller
 * frees it last. NULL when nothing was tuned. Warm and cold runs are
 * faster for it, at a higher peak RSS (bench/RESULTS.md, "Figures behind
 * the code"). (glibc.malloc.hugetlb=1 aligns the heap itself, but only
 * when set before exec.)
 */
static void *tune_malloc(void)
{
	void *below = NULL;

#if defined(M_TOP_PAD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_TOP_PAD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
#ifdef MADV_HUGEPAGE
	void *first = malloc(1);
	uintptr_t at = (uintptr_t)first, brk_end = (uintptr_t)sbrk(0);
	uintptr_t lo = ll_huge_round_up(at);

	if (first && brk_end != (uintptr_t)-1 && at < brk_end && brk_end - at <= (64u << 20) &&
	    brk_end > lo + LL_HUGE_PAGE - 1 /* a whole huge page below the break */) {
		ll_advise_huge(first, brk_end - at);
		/* Up to the boundary, less the two chunk headers glibc puts around it. */
		if (lo - at > 4 * sizeof(size_t) + 64)
			below = malloc(lo - at - 4 * sizeof(size_t) - 64);
	}
	free(first);
#endif
	return below;
}

int main(int argc, char **argv)
{
	struct options o = {
		.fail_level = LL_LEVEL_ERROR,
		.layout_change_level = LL_LEVEL_WARNING,
		.thresholds = { LL_MEASURED_HOT_DEFAULT, LL_MEASURED_WRITES_DEFAULT },
		.static_thresholds = { LL_STATIC_READERS_DEFAULT, LL_STATIC_WRITERS_DEFAULT },
	};
	int status;

	void *below_huge = tune_malloc();

	/*
	 * A reader that went away (| head, a closed pipe) is an output error
	 * like a full disk: EPIPE, one line, exit 2, and a temporary file
	 * (--write-baseline's) removed, never a death by SIGPIPE leaving it.
	 */
	signal(SIGPIPE, SIG_IGN);

	if (cli_parse_options(argc, argv, &o) != 0) {
		free(below_huge);
		return 2;
	}
	status = cmds[o.command](&o);
	cli_options_release(&o);
	free(below_huge);
	return status;
}
