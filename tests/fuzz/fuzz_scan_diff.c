// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Differential harness: the raw .debug_info scan (raw/scan*.c) against
 * the plain libdw walk (LAYOUTLINT_SCAN=libdw) on the same ELF image. When
 * both look the queries up without an error, they must give the same
 * answer for each: the same status, and for a struct found the same
 * rendering. A damaged input may make either fail; it must never make
 * them silently disagree. The raw scan runs twice: once for the names,
 * once after a listing whose one pass read their definitions and the
 * global variables' names, types and declarations (what --list, --audit
 * and --contains do), each definition's member words (--contains inner)
 * and whether --audit's filter wants any of its members: the queries
 * have no digest, so neither may change an answer, and both readers of
 * member DIEs meet the damage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/input/reader.h"
#include "../../src/util/tuning.h"
#include "fuzz_common.h"
#include "fuzz_memfd.h"

static struct fuzz_file input;

static const struct ll_query queries[] = {
	{ .name = "bits", .kind = LL_QUERY_ANY },
	{ .name = "nested_anon", .kind = LL_QUERY_STRUCT },
	{ .name = "outer", .kind = LL_QUERY_ANY },
	{ .name = "victim", .kind = LL_QUERY_ANY },
	{ .name = "inner", .kind = LL_QUERY_ANY },
	{ .name = "u", .kind = LL_QUERY_UNION },
	{ .name = "anon_typedef_t", .kind = LL_QUERY_ANY },
	/* Their types and files: read by the listing's scan, or by libdw's walk. */
	{ .name = LL_GLOBALS_NAME, .kind = LL_QUERY_GLOBALS },
};
#define NR_QUERIES (sizeof(queries) / sizeof(queries[0]))

struct answer {
	int rc;
	enum ll_lookup_status status[NR_QUERIES];
	struct strbuf shown[NR_QUERIES];
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_file_init(&input, "fuzz_scan_diff");
	/* What cli would set from the environment (util/tuning.h): two scan threads. */
	struct ll_tuning t = *ll_tuning();

	t.threads = getenv("LAYOUTLINT_THREADS") ? (unsigned)atoi(getenv("LAYOUTLINT_THREADS")) : 2;
	ll_tuning_set(&t);
	return 0;
}

/* A listing of every name before the lookup, as the whole-image questions do. */
static int list_first(struct ll_input *in, struct ll_error *err)
{
	char **names = NULL;
	size_t n = 0;
	int rc = ll_input_list(in, "*", &names, &n, err);

	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* --audit's filter, spelled types alike: a pointer to const struct *_ops. */
static bool ops_pointer(const char *type, const void *arg)
{
	size_t n = strlen(type);

	(void)arg;
	return n > 17 && strncmp(type, "const struct ", 13) == 0 &&
	       strcmp(type + n - 6, "_ops *") == 0;
}

static const struct ll_member_filter audit_like = { ops_pointer, NULL, true };

static void look_up(bool raw_scan, bool listed, struct answer *a)
{
	struct ll_lookup_result results[NR_QUERIES];
	struct ll_input *in = NULL;
	struct ll_error err;
	struct ll_input_options opts = { .globals_next = listed,
					 .member_filter = listed ? &audit_like : NULL,
					 .contains_word = listed ? "inner" : NULL };
	struct ll_tuning t = *ll_tuning();

	t.scan_libdw = !raw_scan;	/* LAYOUTLINT_SCAN=libdw, as cli sets it */
	ll_tuning_set(&t);
	memset(a, 0, sizeof(*a));
	a->rc = ll_input_open(input.path, &opts, &in, &err) ||
		(listed && list_first(in, &err)) ||
		ll_input_lookup(in, queries, NR_QUERIES, results, &err);
	for (size_t i = 0; a->rc == 0 && i < NR_QUERIES; i++) {
		a->status[i] = results[i].status;
		if (results[i].status == LL_FOUND) {
			struct ll_linted l = { .layout = results[i].layout };
			struct ll_run run = { .binary_path = "fuzz.elf", .structs = &l,
					      .nr_structs = 1 };

			ll_report_json(&run, &a->shown[i]);
		}
		ll_lookup_result_release(&results[i]);
	}
	ll_input_close(in);
}

static void compare(const char *what, const struct answer *scan, const struct answer *walk)
{
	for (size_t i = 0; scan->rc == 0 && walk->rc == 0 && i < NR_QUERIES; i++) {
		const char *s = scan->shown[i].buf ? scan->shown[i].buf : "";
		const char *w = walk->shown[i].buf ? walk->shown[i].buf : "";

		if (scan->status[i] != walk->status[i] || strcmp(s, w) != 0) {
			fprintf(stderr, "%s and libdw walk disagree on %s: status %d vs %d\n"
				"%s\n---\n%s\n", what, queries[i].name, scan->status[i],
				walk->status[i], s, w);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct answer scan, listed, walk;

	fuzz_file_write(&input, data, size);
	look_up(true, false, &scan);
	look_up(true, true, &listed);
	look_up(false, false, &walk);
	compare("raw scan", &scan, &walk);
	compare("raw scan after a listing", &listed, &walk);
	for (size_t i = 0; i < NR_QUERIES; i++) {
		sb_release(&scan.shown[i]);
		sb_release(&listed.shown[i]);
		sb_release(&walk.shown[i]);
	}
	return 0;
}
