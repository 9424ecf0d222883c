/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doc-drift: a Documentation/networking/net_cachelines table (read by
 * source/net_cachelines.c) against a struct of an image. Members of the
 * struct the table does not list, and rows that name nothing, as warnings;
 * and the table updated for the image (--write-net-cachelines), which the
 * reporter prints from the plan made here.
 */
#ifndef LAYOUTLINT_DOCDRIFT_H
#define LAYOUTLINT_DOCDRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include "checks/run.h"

/* One row of a table: "u32   snd_una   read_mostly   read_write   tcp_ack". */
struct ll_doc_row {
	unsigned line;		/* in the file, from 1 */
	char *type;		/* as written ("struct_sock*") */
	char *name;		/* as written, "[N]" and ":N" dropped */
	char *macro_path;	/* "#define NAME a.b" in the struct's header: "a.b"; else NULL */
};

struct ll_doc_table {
	char *file;		/* as shown in findings (relative to --srcdir when under it) */
	char *path;		/* as opened */
	char *struct_name;	/* from the "..struct ..NAME" row; NULL: no struct table */
	char *text;		/* the whole file */
	size_t len;
	unsigned header_line;	/* the "Type  Name ..." line */
	unsigned struct_line;	/* the "..struct" line */
	unsigned name_column;	/* where Name starts in the header (0-based) */
	unsigned access_column;	/* where the first access column starts; 0: none */
	struct ll_doc_row *rows;
	size_t nr_rows;
};

struct ll_doc_tables {
	struct ll_doc_table *v;
	size_t n;
};

void ll_doc_tables_release(struct ll_doc_tables *t);

/* What --write-net-cachelines does to a table for one struct. */
struct ll_doc_plan_row {
	size_t after_row;	/* insert after rows[after_row - 1]; 0: after the struct line */
	const struct ll_member *m;	/* borrowed from the layout */
};

struct ll_doc_plan {
	const struct ll_doc_table *table;
	const struct ll_linted *linted;
	bool *drop;			/* per row: it names nothing in this struct */
	struct ll_doc_plan_row *add;	/* members no row lists, in declaration order */
	size_t nr_add;
};

/*
 * doc-drift on L against T (a table of L's struct): findings into
 * L->findings, one per member the table does not list (at its
 * declaration) and one per row that names nothing (at the row). With
 * PLAN, also what --write-net-cachelines changes (release with
 * ll_doc_plan_release).
 */
void ll_check_doc_drift(const struct ll_doc_table *t, struct ll_linted *l,
			struct ll_doc_plan *plan);
void ll_doc_plan_release(struct ll_doc_plan *p);

#endif
