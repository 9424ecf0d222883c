// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the two plain-text readers of issue 42: the scan of
 * C for CACHELINE_ASSERT_GROUP_SIZE/_MEMBER (source/asserts.c, run on every
 * file of a --srcdir tree) and the net_cachelines table reader of doc-drift
 * (source/net_cachelines.c). The input is both a C file and a table. What
 * they find must be well formed: an assert's names non-empty, its line
 * within the input, a row's line after the table's header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/source/asserts.h"
#include "../../src/source/net_cachelines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ll_group_asserts a = { 0 };
	struct ll_doc_tables t = { 0 };
	char *text = malloc(size + 1);
	unsigned lines = 1;

	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	ll_group_asserts_parse("fuzz.c", text, size, &a);
	for (size_t i = 0; i < a.n; i++) {
		const struct ll_group_assert *x = &a.v[i];

		if (!x->struct_name[0] || !x->group[0] || x->decl.line < 1 || x->decl.line > lines ||
		    (x->kind == LL_ASSERT_SIZE ? !x->size_text : !x->member))
			abort();
	}
	ll_group_asserts_release(&a);
	/* The table owns its text from here. */
	ll_doc_table_parse("fuzz.rst", text, size, &t);
	for (size_t i = 0; i < t.v[0].nr_rows; i++)
		if (t.v[0].rows[i].line <= t.v[0].header_line || t.v[0].rows[i].line > lines ||
		    !t.v[0].rows[i].name)
			abort();
	ll_doc_tables_release(&t);
	return 0;
}
