// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the BTF reader: the input is raw BTF (or an ELF
 * file with .BTF: both reach btf_reader.c through ll_input_open()). Every
 * struct, union and typedef name the input lists is looked up (the first
 * 64), as --list='*' does, and each one found is linted and rendered. A
 * hang here is what a self-holding struct caused (k^64 alignment calls).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../src/input/reader.h"
#include "fuzz_common.h"
#include "fuzz_memfd.h"

#define MAX_QUERIES 64

static struct fuzz_file input;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init(&input, "fuzz_btf");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Notes collected, as --format=json does, and rendered with the run: not printed. */
	struct ll_notes notes = { 0 };
	struct ll_input_options opts = { .prefer_btf = true, .notes = &notes };
	struct ll_input *in = NULL;
	struct ll_error err;
	char **names = NULL;
	size_t n = 0, nq;
	struct ll_query queries[MAX_QUERIES];
	struct ll_lookup_result results[MAX_QUERIES];
	struct ll_linted linted[MAX_QUERIES];
	struct ll_run run = { .binary_path = "fuzz.btf", .structs = linted, .notes = &notes };

	fuzz_file_write(&input, data, size);
	if (ll_input_open(input.path, &opts, &in, &err) == 0 &&
	    ll_input_list(in, NULL, &names, &n, &err) == 0) {
		nq = n < MAX_QUERIES ? n : MAX_QUERIES;
		for (size_t i = 0; i < nq; i++)
			queries[i] = (struct ll_query){ .name = names[i], .kind = LL_QUERY_ANY };
		if (ll_input_lookup(in, queries, nq, results, &err) == 0) {
			run.build_id = ll_input_build_id(in);
			for (size_t i = 0; i < nq; i++) {
				if (results[i].status == LL_FOUND) {
					fuzz_lint(&linted[run.nr_structs++], results[i].layout, NULL);
					results[i].layout = NULL;
				}
				ll_lookup_result_release(&results[i]);
			}
			fuzz_report(&run);
			for (size_t i = 0; i < run.nr_structs; i++)
				fuzz_linted_release(&linted[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ll_input_close(in);
	ll_notes_release(&notes);
	return 0;
}
