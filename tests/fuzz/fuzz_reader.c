// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the reader: the input is an ELF image. It is
 * written to a memfd and opened through /proc/self/fd/N with the same
 * ll_input_open() the command line uses, so every path a real file takes
 * is fuzzed: libdwfl for ET_REL (which needs a file descriptor to apply
 * relocations), dwarf_begin_elf for the rest, and the raw threaded scan,
 * which pread()s .debug_info from the descriptor. An elf_memory() entry
 * point would have skipped the last two, or needed a second code path.
 *
 * Then a fixed set of queries (names from the fixtures and the corpus, a
 * typo that asks for a "did you mean", a union, a --decl-file glob) is
 * looked up, the access analyzer (--access) reads the image's code for the
 * structs found, and each is linted and rendered as main.c does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/checks/discover.h"
#include "../../src/input/elf/ikconfig.h"
#include "../../src/input/reader.h"
#include "../../src/model/access.h"
#include "../../src/util/tuning.h"
#include "fuzz_common.h"

static int memfd = -1;
static char fd_path[64];

/* --contains's digest: what it finds is thrown away, the reading is what is fuzzed. */
static void contains_digest(struct ll_struct *s, void *arg)
{
	const struct ll_member **found;

	(void)arg;
	ll_contains(s, "inner", &found);
	free(found);
}

static const struct ll_query queries[] = {
	{ .name = "bits", .kind = LL_QUERY_ANY, .decl_glob = NULL },
	{ .name = "nested_anon", .kind = LL_QUERY_STRUCT, .decl_glob = NULL },
	{ .name = "outer", .kind = LL_QUERY_ANY, .decl_glob = NULL },
	{ .name = "victim", .kind = LL_QUERY_ANY, .decl_glob = NULL },
	{ .name = "wide", .kind = LL_QUERY_STRUCT, .decl_glob = NULL },
	{ .name = "u", .kind = LL_QUERY_UNION, .decl_glob = NULL },
	{ .name = "anon_typedef_t", .kind = LL_QUERY_ANY, .decl_glob = NULL },
	{ .name = "file", .kind = LL_QUERY_ANY, .decl_glob = "*.h" },
	/* The symbol table's variables (input/elf/globals.c). */
	{ .name = "variables", .kind = LL_QUERY_GLOBALS, .decl_glob = NULL },
	/* Missing: exercises the suggestion. */
	{ .name = "bitz", .kind = LL_QUERY_ANY, .decl_glob = NULL },
	/* As --list and --contains ask: builds without member types, redone whole on failure. */
	{ .name = "outer", .kind = LL_QUERY_ANY, .summary_only = true },
	{ .name = "nested_anon", .kind = LL_QUERY_ANY, .digest = contains_digest,
	  .digest_type_word = "inner" },
};
#define NR_QUERIES (sizeof(queries) / sizeof(queries[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_reader.elf", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", memfd);
	/* Two scan threads: the split of units between workers is fuzzed too. */
	struct ll_tuning t = *ll_tuning();

	t.threads = getenv("LAYOUTLINT_THREADS") ? (unsigned)atoi(getenv("LAYOUTLINT_THREADS")) : 2;
	ll_tuning_set(&t);
	return 0;
}

static bool write_image(const uint8_t *data, size_t size)
{
	if (ftruncate(memfd, 0) != 0)
		return false;
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(memfd, data + done, size - done, (off_t)done);

		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ll_input *in = NULL;
	struct ll_error err;
	struct ll_lookup_result results[NR_QUERIES];
	struct ll_linted linted[NR_QUERIES];
	/* Notes collected, as --format=json does, and rendered with the run: not printed. */
	struct ll_notes notes = { 0 };
	struct ll_input_options opts = { .notes = &notes };
	struct ll_run run = { .binary_path = "fuzz.elf", .structs = linted, .notes = &notes };

	if (!write_image(data, size))
		abort();
	if (ll_input_open(fd_path, &opts, &in, &err) == 0 &&
	    ll_input_lookup(in, queries, NR_QUERIES, results, &err) == 0) {
		const struct ll_struct *found[NR_QUERIES];
		struct ll_access_evidence *ev[NR_QUERIES] = { 0 };
		size_t nf = 0;

		run.build_id = ll_input_build_id(in);
		for (size_t i = 0; i < NR_QUERIES; i++)
			if (results[i].status == LL_FOUND && results[i].layout->kind != LL_GLOBALS)
				found[nf++] = results[i].layout;
		if (nf && ll_input_access(in, found, nf, false, ev, &err) == 0)
			for (size_t i = 0; i < nf; i++)
				((struct ll_struct *)found[i])->access = ev[i];
		for (size_t i = 0; i < NR_QUERIES; i++) {
			if (results[i].status == LL_FOUND) {
				fuzz_lint(&linted[run.nr_structs++], results[i].layout, NULL);
				results[i].layout = NULL;
			}
			ll_lookup_result_release(&results[i]);
		}
		fuzz_report(&run);
		for (size_t i = 0; i < run.nr_structs; i++)
			fuzz_linted_release(&linted[i]);
		for (size_t i = 0; i < nf; i++)
			ll_access_evidence_free(ev[i]);
	}
	ll_input_close(in);
	ll_notes_release(&notes);
	/* The .config a CONFIG_IKCONFIG image embeds: markers and gzip from the input. */
	struct strbuf config = STRBUF_INIT;
	bool found;

	(void)ll_elf_ikconfig(fd_path, &config, &found, &err);
	sb_release(&config);
	return 0;
}
