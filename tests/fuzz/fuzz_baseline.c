// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the baseline parser (--baseline FILE): any input
 * either fails with one message or loads; a loaded baseline, written back
 * (ll_baseline_render) and loaded again, gives the same document, so what
 * --write-baseline writes is always what --baseline reads.
 *
 * The same input is also read as --diff's unified diff (gating/change.c):
 * it fails with one message or loads, and every line it says the change
 * added lies in a hunk of its file, which ll_change_hunk_at finds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/gating/baseline.h"
#include "../../src/gating/change.h"
#include "fuzz_memfd.h"

static struct fuzz_file input, again;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init(&input, "fuzz_baseline");
	fuzz_file_init(&again, "fuzz_baseline_again");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ll_pairset set = { 0 }, set2 = { 0 };
	struct strbuf doc = STRBUF_INIT, doc2 = STRBUF_INIT;
	struct ll_error err;

	fuzz_file_write(&input, data, size);
	if (ll_baseline_load(input.path, &set, &err) == 0) {
		ll_baseline_render(&set, &doc);
		fuzz_file_write(&again, (const uint8_t *)doc.buf, doc.len);
		if (ll_baseline_load(again.path, &set2, &err) != 0) {
			fprintf(stderr, "a rendered baseline does not load: %s\n%s\n", err.msg, doc.buf);
			abort();
		}
		ll_baseline_render(&set2, &doc2);
		if (doc.len != doc2.len || memcmp(doc.buf, doc2.buf, doc.len) != 0) {
			fprintf(stderr, "baseline round trip differs:\n%s\n---\n%s\n", doc.buf, doc2.buf);
			abort();
		}
	}
	struct ll_change change;

	if (ll_change_load(input.path, &change, &err) == 0) {
		for (size_t i = 0; i < change.nr_files; i++) {
			const struct ll_change_file *f = &change.files[i];

			for (size_t k = 0; k < f->nr_added; k++) {
				if ((k && f->added[k] <= f->added[k - 1]) ||
				    !ll_change_touches(&change, f->path, f->added[k]) ||
				    !ll_change_hunk_at(&change, f->path, f->added[k])) {
					fprintf(stderr, "%s: added line %u is in no hunk\n", f->path,
						f->added[k]);
					abort();
				}
			}
		}
		ll_change_release(&change);
	}
	ll_pairset_release(&set);
	ll_pairset_release(&set2);
	sb_release(&doc);
	sb_release(&doc2);
	return 0;
}
