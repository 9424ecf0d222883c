// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for --import-net-cachelines: the input is a
 * net_cachelines table (reStructuredText). Whatever rules the importer
 * writes, the rules parser must accept: a table it imports becomes a rules
 * file layoutlint then refuses otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../src/rules/import_rst.h"
#include "../../src/rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, warnings = STRBUF_INIT;
	struct ll_rules rules = { 0 };
	struct ll_error err;

	if (ll_import_net_cachelines_text("fuzz.rst", NULL, (const char *)data, size, "6.12",
					  &out, &warnings, NULL, &err) == 0 &&
	    ll_rules_parse(&rules, "imported.rules", out.buf ? out.buf : "", out.len, &err) != 0) {
		fprintf(stderr, "the importer wrote rules the parser rejects: %s\n%s\n", err.msg,
			out.buf);
		abort();
	}
	ll_rules_release(&rules);
	sb_release(&out);
	sb_release(&warnings);
	return 0;
}
