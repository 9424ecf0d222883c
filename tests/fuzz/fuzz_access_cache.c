// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the access cache's reader (input/access/
 * access_cache.c): the input is the text of DIR/BUILD-ID.access, written
 * into a directory of this process's own (mode 0700, so the trust check
 * passes and the parser runs). Three targets are looked up, and whatever
 * evidence comes back is mapped onto a small model, as a lint would. The
 * checksum guards the parser from damage only: a fuzzer that finds a
 * matching checksum reaches every line of it, and some inputs of the seed
 * corpus carry a valid one for that reason.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/input/access/access_cache.h"
#include "../../src/util/hash.h"

static char dir[64];
static char path[128];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_access_cache.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/00.access", dir);
	return 0;
}

static void write_file(const uint8_t *data, size_t size, bool fix_sum)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		abort();
	if (fix_sum && size >= 19) {
		/* Put a valid checksum on the last line, so the parser sees the rest. */
		char sum[32];

		snprintf(sum, sizeof(sum), "C %016llx\n",
			 (unsigned long long)ll_fnv1a(LL_FNV_INIT, data, size - 19));
		if (write(fd, data, size - 19) < 0 || write(fd, sum, 19) < 0)
			abort();
	} else if (write(fd, data, size) < 0) {
		abort();
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ll_access_target targets[] = {
		{ "stats", false, 112 }, { "mapping", false, 8 }, { "u", true, 8 },
	};
	struct ll_access_evidence *out[3];
	char *note = NULL;

	for (int pass = 0; pass < 2; pass++) {
		write_file(data, size, pass == 1);
		ll_access_cache_load(dir, "00", targets, 3, out, &note);
		free(note);
		note = NULL;
		for (int i = 0; i < 3; i++) {
			/* What a lint reads of it: every member's sites and summary. */
			if (out[i]) {
				struct ll_member m = { .path = "m", .offset = 0, .size = out[i]->size };
				struct ll_struct s = { .name = "s", .size = out[i]->size,
						       .members = &m, .nr_members = 1 };
				struct ll_access_view v;
				struct ll_access_sites sites;
				struct ll_access_summary sum;

				ll_access_view_init(&v, out[i], &s, NULL);
				ll_access_member_sites(&v, &m, LL_ACCESS_KIND_STORE, &sites);
				ll_access_sites_release(&sites);
				ll_access_member_summary(&v, &m, &sum);
				ll_access_view_release(&v);
				/* And written back: the round trip must not lose or crash. */
				ll_access_cache_store(dir, "01", &out[i], 1);
			}
			ll_access_evidence_free(out[i]);
		}
	}
	return 0;
}
