/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One reporter per output format, each rendering a whole run (checks/run.h).
 */
#ifndef LAYOUTLINT_REPORT_H
#define LAYOUTLINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "checks/run.h"
#include "util/strbuf.h"

/* Each reporter renders the whole run into OUT; main writes it. */
void ll_report_text(const struct ll_run *run, struct strbuf *out);
void ll_report_json(const struct ll_run *run, struct strbuf *out);
void ll_report_sarif(const struct ll_run *run, struct strbuf *out);
/*
 * --write-rules: a rules file of the tags the measures imply, naming
 * PROFILES (N), the binary and its build-id, and the thresholds.
 */
void ll_report_rules(const struct ll_run *run, const char *const *profiles, size_t n,
		     struct strbuf *out);
/* A self-contained page: inline CSS and SVG, no script, nothing fetched. */
void ll_report_html(const struct ll_run *run, struct strbuf *out);
/* Suggestions as a patch of the real headers (ASSERTS: --asserts). */
void ll_report_patch(const struct ll_run *run, bool asserts, struct strbuf *out);
/*
 * --format=mail: plain text for a reply on a list, 72 columns: per new
 * finding the hunk of --diff it sits in (quoted), the finding and its
 * notes; then the fix, ll_report_patch's, unwrapped.
 */
void ll_report_mail(const struct ll_run *run, bool asserts, struct strbuf *out);
/*
 * One suggestion as a C listing of PROPOSED (ll_linted.proposal.layout,
 * which ll_lint_struct() built) with cacheline markers and pads, then
 * notes, the before/after line (size, cachelines, holes, findings) and the
 * lower bound. S is the struct SG was computed from.
 */
struct ll_suggestion;
void ll_report_suggestion(const struct ll_struct *s, const struct ll_suggestion *sg,
			  const struct ll_struct *proposed, struct strbuf *out);
/* --binary: the "binaries" array of JSON and of SARIF's run properties (path, build_id). */
struct json_writer;
void ll_report_binaries_json(struct json_writer *w, const struct ll_run *run);
/* report_images.c: run->contracts, the per-binary table and the group asserts' verdicts. */
struct ll_contracts;
void ll_report_contracts_text(const struct ll_contracts *c, struct strbuf *out);
void ll_report_contracts_json(struct json_writer *w, const struct ll_contracts *c);
void ll_report_contracts_html(const struct ll_contracts *c, struct strbuf *out);
/* report_netcache.c: --write-net-cachelines, one table updated by doc-drift's plan. */
struct ll_doc_plan;
void ll_report_net_cachelines(const struct ll_doc_plan *p, struct strbuf *out);
/*
 * Gating (--baseline, --against): the "gating" object of JSON and of
 * SARIF's run properties, from what ll_gate() counted.
 */
struct ll_gating;
void ll_report_gating_json(struct json_writer *w, const struct ll_gating *g);
/*
 * --profile: one member's measurement, the object JSON puts under
 * "measured" and SARIF under the member's path (samples, share, reads and
 * writes; reads and writes null when the profile cannot tell them apart).
 */
void ll_report_measured_json(struct json_writer *w, const struct ll_struct *s,
			     const struct ll_member *m);
/*
 * report_discover.c, the discovery commands' text (checks/discover.h's
 * answers): --list's header and rows (HOLES: ll_struct_holes() or a
 * reader's summary), a row for a name not laid out (AMBIGUOUS: distinct
 * definitions; WHY: the lookup's detail); --contains' lines for the
 * members ll_contains() FOUND in S; --audit's header (BY_CODE: --access),
 * one row per struct or global variables aggregate with mixed lines, and
 * a row for a name not laid out.
 */
struct ll_audit;
void ll_report_list_header(struct strbuf *out);
void ll_report_list_row(const struct ll_struct *s, size_t holes, struct strbuf *out);
void ll_report_list_unlaid(const char *name, bool ambiguous, const char *why, struct strbuf *out);
void ll_report_contains(const struct ll_struct *s, const struct ll_member *const *found, size_t n,
			struct strbuf *out);
void ll_report_audit_header(bool by_code, struct strbuf *out);
void ll_report_audit_row(const char *kind, const char *name, const struct ll_audit *a,
			 struct strbuf *out);
void ll_report_audit_unlaid(const char *name, const char *why, struct strbuf *out);
/* --list-checks: one line per check of the catalog, in its order. */
void ll_report_checks(struct strbuf *out);
/*
 * report_prove.c, --prove: the measurement as text (table, verdict, perf
 * stat and perf c2c lines, a commit-message paragraph) or JSON; the
 * verdict in words alone ("reader throughput x2.31 (2.12-2.50) with the
 * fix; writer unchanged", "no measurable difference", "inconclusive: noise").
 */
struct ll_prove_result;
void ll_report_prove_text(const struct ll_prove_result *r, struct strbuf *out);
void ll_report_prove_json(const struct ll_prove_result *r, struct strbuf *out);
void ll_prove_verdict(const struct ll_prove_result *r, struct strbuf *out);

#endif
