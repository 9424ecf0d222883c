/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Units and the cacheline map: the geometry findings are made of. */
#ifndef LAYOUTLINT_UNITS_H
#define LAYOUTLINT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "model/layout.h"

/*
 * A unit is what findings name: a leaf member, or a named nested aggregate
 * whose bytes carry one tag (no child tagged more specifically). Anonymous
 * aggregates are always looked into.
 */
struct ll_unit {
	const struct ll_member *m;
	enum ll_tag tag;		/* effective tag, inherited from the closest tagged parent */
	const char *domain;
};

struct ll_units {
	struct ll_unit *v;
	size_t n;
};

void ll_collect_units(const struct ll_struct *s, struct ll_units *out);
void ll_units_release(struct ll_units *u);

enum ll_verdict { LL_VERDICT_CLEAN, LL_VERDICT_MIXED, LL_VERDICT_WRITE_DOMAINS,
		  LL_VERDICT_UNTAGGED_ONLY };

/*
 * One entry of the map: COUNT consecutive lines from INDEX, each touched
 * by the same units with the same verdict. COUNT is 1 for a line a member
 * starts or ends inside; it is more only for a run of lines every unit of
 * the entry fills from end to end (a 2 GiB array member is one entry, not
 * 33 million), or that no unit touches (a hole or tail padding).
 */
struct ll_line {
	uint64_t index;			/* its first line */
	uint64_t count;			/* lines it stands for, at least 1 */
	const struct ll_unit **units;	/* units touching these lines, in offset order */
	size_t nr_units;
	enum ll_verdict verdict;
};

/* Entries in line order, covering every line of the struct once. */
struct ll_lines {
	struct ll_line *v;
	size_t n;		/* entries */
	uint64_t nr_lines;	/* lines of the struct: the sum of the entries' counts */
};

/* Runs of at least this many lines are drawn and listed compactly (text, JSON, HTML). */
#define LL_LINE_RUN_MIN 4

/* The last line entry L stands for. */
static inline uint64_t ll_line_last(const struct ll_line *l)
{
	return l->index + l->count - 1;
}

struct strbuf;
/* "cacheline N", or "cachelines N-M" for an entry standing for several lines. */
void ll_line_words(struct strbuf *out, const struct ll_line *line);

/* The entry of LINES holding line LINE, or NULL past the end: a binary search. */
const struct ll_line *ll_lines_find(const struct ll_lines *lines, uint64_t line);

/*
 * Map units to the cachelines of S at its line-aligned placement. The map
 * costs per unit: it holds at most four entries per unit, plus one.
 */
void ll_map_lines(const struct ll_struct *s, const struct ll_units *units, struct ll_lines *out);
void ll_lines_release(struct ll_lines *l);
const char *ll_verdict_name(enum ll_verdict v);
/* Write domains compare by name; NULL (the default domain) only equals NULL. */
bool ll_same_domain(const char *a, const char *b);

/*
 * Fast paths. A domain spelled only with the words "tx" and "rx" (the
 * kernel's cacheline group suffixes: tx, rx, txrx, rxtx, tx_rx) names the
 * set of paths that touch its members; ll_domain_paths() returns that set
 * as LL_PATH_* bits, 0 for any other domain.
 */
enum { LL_PATH_TX = 1, LL_PATH_RX = 2 };
unsigned ll_domain_paths(const char *domain);
/*
 * Two write-hot domains on one line make it bounce between their writers,
 * unless one's writers are among the other's: txrx is written on both
 * paths, so a tx member beside it adds no writer the line did not have.
 */
bool ll_write_domains_clash(const char *a, const char *b);
/*
 * A read-mostly member of domain R beside a write-hot member of domain W
 * is false sharing unless every reader is also a writer of the line: the
 * same domain, or R's paths within W's (read_rx beside write_rx, one CPU).
 * A read-mostly member without a domain may be read anywhere.
 */
bool ll_read_beside_write_shares(const char *r, const char *w);

#endif
