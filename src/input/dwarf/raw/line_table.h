/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LAYOUTLINT_LINE_TABLE_H
#define LAYOUTLINT_LINE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct ll_line_sections {
	const unsigned char *line, *line_str, *str;
	size_t line_size, line_str_size, str_size;
};

/*
 * Every file entry of one line table, by DW_AT_decl_file value. The
 * strings point into the sections (and COMP_DIR): a unit's table has
 * hundreds of entries and a lookup wants one or two, so paths are joined
 * only when asked for. The table borrows COMP_DIR: keep it alive as long.
 */
struct ll_line_table {
	uint64_t stmt_list;
	const char **dirs;	/* NULL: the name stands alone */
	const char **names;	/* NULL: no file */
	size_t n;
	/*
	 * Directory 0: DWARF 5's compilation directory, entry 0 of the
	 * table (what a dwz partial unit, which has no DW_AT_comp_dir,
	 * was compiled in); COMP_DIR before DWARF 5.
	 */
	const char *dir0;
};

bool ll_line_table_load(const struct ll_line_sections *s, uint64_t stmt_list,
			const char *comp_dir, struct ll_line_table *t);
void ll_line_table_release(struct ll_line_table *t);

/* Append NAME joined with its directory DIR (NULL: none) as libdw joins them. */
void ll_line_join(struct strbuf *out, const char *dir, const char *name);

/* Append file INDEX, joined with its directory as libdw does; false: no file. */
bool ll_line_table_path(const struct ll_line_table *t, uint64_t index, struct strbuf *out);

/*
 * Append to OUT the path of file INDEX (DW_AT_decl_file's value) of the
 * line table at STMT_LIST, joined with its directory as libdw does
 * (COMP_DIR is DWARF 4's directory 0). False when the header is not one
 * this reads; the caller then asks libdw.
 */
bool ll_line_file(const struct ll_line_sections *s, uint64_t stmt_list, uint64_t index,
		  const char *comp_dir, struct strbuf *out);

/* The table's directory 0 (see ll_line_table), NULL if none or unreadable. */
const char *ll_line_dir0(const struct ll_line_sections *s, uint64_t stmt_list,
			 const char *comp_dir);

#endif
