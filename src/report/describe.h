/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The words reporters write about what checks/ and gating/ computed: a
 * kernel group's marker note and summary in the text listing, gating's
 * new pairs and reference pairs (text, JSON, SARIF, HTML), and which lines
 * a member of an --against diff sits on (text, HTML), and a measured share (text,
 * HTML, rules), and the solver's notes about its proposal (text, JSON,
 * HTML, patch). The layers below keep the data (struct ll_groups,
 * ll_gate_mark, ll_pairkey, ll_layout_diff, ll_suggest_note) and write
 * no text a reporter shows, except the findings' own messages.
 */
#ifndef LAYOUTLINT_DESCRIBE_H
#define LAYOUTLINT_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/groups.h"
#include "gating/baseline.h"
#include "solver/suggest.h"
#include "util/json_writer.h"
#include "util/strbuf.h"

/*
 * Text listing: append to OUT, after a marker member's position, what it
 * marks (" begin of group G: read-mostly, 40 bytes, lines 22-23 (min 1)",
 * " end of group G"). Appends nothing for other members.
 */
void ll_groups_marker_note(const struct ll_groups *g, const struct ll_member *m,
			   struct strbuf *out);
/* Text listing: the "groups:" summary, one line per group; nothing without groups. */
void ll_groups_summary(const struct ll_groups *g, struct strbuf *out);

/* "a with b, c" for the new pairs of F. */
void ll_gate_describe_new(const struct ll_finding *f, const struct ll_gate_mark *m,
			  struct strbuf *out);
/* "mixed-cacheline, struct file: f_op with f_lock" */
void ll_pairkey_describe(const struct ll_pairkey *k, struct strbuf *out);

/* "line 3", "lines 1-2" or "no line" (zero-size) into BUF. */
const char *ll_diff_lines(bool has, uint64_t first, uint64_t last, char *buf, size_t n);

/* A note of the solver's (struct ll_suggestion's notes) as one line, without a newline. */
void ll_suggest_note_describe(const struct ll_suggest_note *n, struct strbuf *out);

/*
 * JSON and SARIF: F's gating pairs (ll_finding_gate_pairs) as an array of
 * one- or two-string arrays; with M, only those the reference lacks.
 */
void ll_gate_pairs_json(struct json_writer *w, const struct ll_finding *f,
			const struct ll_gate_mark *m);

#endif
