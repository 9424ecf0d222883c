// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/floor — the pread floor bench/run reports beside each lookup: read
 * all of an image's .debug_info from the page cache on N threads (2 by
 * default), each thread copying its contiguous share in 1 MiB preads into
 * one reused buffer, as the raw scan copies each unit into its reused
 * buffer. No parsing: a lookup that reads every unit cannot be faster than
 * this, so it is the floor a cold late lookup is measured against.
 *
 * Usage: floor [-j N] FILE
 * Prints "BYTES bytes of .debug_info read on N threads" (the test checks
 * BYTES against readelf); exit 2 with one line on bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (1u << 20)
#define MAX_THREADS 64

struct share {
	int fd;
	uint64_t off, size;	/* file offset and length of this share */
	uint64_t done;		/* bytes read */
	int err;		/* errno, or -1 for an early end of file */
};

static void *read_share(void *arg)
{
	struct share *s = arg;
	unsigned char *buf = malloc(CHUNK);

	if (!buf) {
		s->err = ENOMEM;
		return NULL;
	}
	while (s->done < s->size) {
		size_t want = s->size - s->done < CHUNK ? (size_t)(s->size - s->done) : CHUNK;
		ssize_t r = pread(s->fd, buf, want, (off_t)(s->off + s->done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			s->err = r < 0 ? errno : -1;
			break;
		}
		s->done += (uint64_t)r;
	}
	free(buf);
	return NULL;
}

/* The file offset and size of .debug_info; -1 when there is none. */
static int find_debug_info(int fd, uint64_t *off, uint64_t *size)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int ret = -1;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			break;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && strcmp(name, ".debug_info") == 0 && sh.sh_type != SHT_NOBITS) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			ret = 0;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	return ret;
}

static int run(const char *path, int nthreads)
{
	struct share shares[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	uint64_t off, size, total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (find_debug_info(fd, &off, &size) != 0) {
		fprintf(stderr, "floor: %s: no .debug_info section in an ELF file\n", path);
		close(fd);
		return 2;
	}
	for (int i = 0; i < nthreads; i++) {
		uint64_t from = size / (uint64_t)nthreads * (uint64_t)i;
		uint64_t to = i == nthreads - 1 ? size : size / (uint64_t)nthreads * (uint64_t)(i + 1);

		shares[i] = (struct share){ .fd = fd, .off = off + from, .size = to - from };
		if (pthread_create(&tids[i], NULL, read_share, &shares[i]) != 0) {
			fprintf(stderr, "floor: cannot start a thread\n");
			return 2;	/* the process ends: no join needed */
		}
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	close(fd);
	for (int i = 0; i < nthreads; i++) {
		if (shares[i].err) {
			fprintf(stderr, "floor: %s: %s\n", path,
				shares[i].err < 0 ? ".debug_info runs past the end of the file"
						  : strerror(shares[i].err));
			return 2;
		}
		total += shares[i].done;
	}
	printf("%llu bytes of .debug_info read on %d threads\n", (unsigned long long)total, nthreads);
	return 0;
}

int main(int argc, char **argv)
{
	int nthreads = 2;
	int argi = 1;

	if (argc == 4 && strcmp(argv[1], "-j") == 0) {
		char *end;
		long n = strtol(argv[2], &end, 10);

		if (*end || n < 1 || n > MAX_THREADS) {
			fprintf(stderr, "floor: -j wants a thread count from 1 to %d, not '%s'\n",
				MAX_THREADS, argv[2]);
			return 2;
		}
		nthreads = (int)n;
		argi = 3;
	} else if (argc != 2) {
		fprintf(stderr, "usage: floor [-j N] FILE\n");
		return 2;
	}
	return run(argv[argi], nthreads);
}
