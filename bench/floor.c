// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/floor — the pread floor bench/run reports beside each lookup: read
 * all of an image's .debug_info from the page cache on N threads (2 by
 * default), each thread copying its contiguous share in 1 MiB preads into
 * one reused buffer, as the raw scan copies each unit into its reused
 * buffer. No parsing: a lookup that reads every unit cannot be faster than
 * this, so it is the floor a cold late lookup is measured against.
 *
 * With --map, the page floor instead: map .debug_info and touch one byte
 * of each page, on N threads. Nothing can see every byte of the section for
 * less: no copy, no parsing, only the page faults (with the kernel's
 * fault-around). It is what a proof that reads every unit costs at least,
 * whichever way it reads them.
 *
 * Usage: floor [-j N] [--map] FILE
 * Prints "BYTES bytes of .debug_info read on N threads", or with --map
 * "BYTES bytes of .debug_info mapped, PAGES pages touched on N threads"
 * (the test checks BYTES against readelf); exit 2 with one line on bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)
#define MAX_THREADS 64

struct share {
	int fd;
	uint64_t off, size;	/* file offset and length of this share */
	uint64_t done;		/* bytes read, or mapped and touched */
	int err;		/* errno, or -1 for an early end of file */
	/* --map: the share's first byte; volatile, so that each touch is a load. */
	const volatile unsigned char *map;
	uint64_t pages;		/* --map: pages touched */
	int first;		/* --map: the share that holds the section's first byte */
};

static size_t page_size;

/*
 * --map: one byte of each page that begins in the share (the first share
 * also touches the section's first page, wherever it begins), so that the
 * shares' counts add up to the section's pages.
 */
static void *touch_share(void *arg)
{
	struct share *s = arg;
	uint64_t into = (uintptr_t)s->map & (page_size - 1);
	uint64_t at = s->first || !into ? 0 : page_size - into;

	while (at < s->size) {
		(void)s->map[at];
		s->pages++;
		/* The next page's first byte. */
		at += page_size - ((uintptr_t)(s->map + at) & (page_size - 1));
	}
	s->done = s->size;
	return NULL;
}

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

/*
 * --map: .debug_info's bytes [OFF, OFF + SIZE) of FD mapped; *BASE and
 * *LEN the mapping to unmap. NULL with errno set.
 */
static const unsigned char *map_section(int fd, uint64_t off, uint64_t size, void **base,
					size_t *len)
{
	uint64_t from = off / page_size * page_size;

	if (size > SIZE_MAX - page_size) {
		errno = EFBIG;
		return NULL;
	}
	*len = (size_t)(off - from + size);
	*base = mmap(NULL, *len ? *len : 1, PROT_READ, MAP_PRIVATE, fd, (off_t)from);
	if (*base == MAP_FAILED)
		return NULL;
	return (const unsigned char *)*base + (off - from);
}

static int run(const char *path, int nthreads, int map)
{
	struct share shares[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	uint64_t off, size, total = 0, pages = 0;
	const unsigned char *bytes = NULL;
	void *base = NULL;
	size_t len = 0;
	struct stat st;
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
	/* A mapping past the end of the file would fault (SIGBUS), not read short. */
	if (map && (fstat(fd, &st) != 0 || (uint64_t)st.st_size < off ||
		    (uint64_t)st.st_size - off < size)) {
		fprintf(stderr, "floor: %s: .debug_info runs past the end of the file\n", path);
		close(fd);
		return 2;
	}
	if (map && !(bytes = map_section(fd, off, size, &base, &len))) {
		fprintf(stderr, "floor: %s: cannot map .debug_info: %s\n", path, strerror(errno));
		close(fd);
		return 2;
	}
	for (int i = 0; i < nthreads; i++) {
		uint64_t from = size / (uint64_t)nthreads * (uint64_t)i;
		uint64_t to = i == nthreads - 1 ? size : size / (uint64_t)nthreads * (uint64_t)(i + 1);

		shares[i] = (struct share){ .fd = fd, .off = off + from, .size = to - from,
					    .map = bytes ? bytes + from : NULL, .first = i == 0 };
		if (pthread_create(&tids[i], NULL, map ? touch_share : read_share, &shares[i]) != 0) {
			fprintf(stderr, "floor: cannot start a thread\n");
			return 2;	/* the process ends: no join needed */
		}
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	if (base)
		munmap(base, len ? len : 1);
	close(fd);
	for (int i = 0; i < nthreads; i++) {
		if (shares[i].err) {
			fprintf(stderr, "floor: %s: %s\n", path,
				shares[i].err < 0 ? ".debug_info runs past the end of the file"
						  : strerror(shares[i].err));
			return 2;
		}
		total += shares[i].done;
		pages += shares[i].pages;
	}
	if (map)
		printf("%llu bytes of .debug_info mapped, %llu pages touched on %d threads\n",
		       (unsigned long long)total, (unsigned long long)pages, nthreads);
	else
		printf("%llu bytes of .debug_info read on %d threads\n", (unsigned long long)total,
		       nthreads);
	return 0;
}

int main(int argc, char **argv)
{
	int nthreads = 2, map = 0, argi = 1;
	long ps = sysconf(_SC_PAGESIZE);

	page_size = ps > 0 ? (size_t)ps : 4096;
	while (argi < argc - 1) {
		if (strcmp(argv[argi], "--map") == 0) {
			map = 1;
			argi++;
		} else if (strcmp(argv[argi], "-j") == 0 && argi + 2 < argc) {
			char *end;
			long n = strtol(argv[argi + 1], &end, 10);

			if (*end || n < 1 || n > MAX_THREADS) {
				fprintf(stderr, "floor: -j wants a thread count from 1 to %d, not '%s'\n",
					MAX_THREADS, argv[argi + 1]);
				return 2;
			}
			nthreads = (int)n;
			argi += 2;
		} else {
			break;
		}
	}
	if (argi != argc - 1 || argv[argi][0] == '-') {
		fprintf(stderr, "usage: floor [-j N] [--map] FILE\n");
		return 2;
	}
	return run(argv[argi], nthreads, map);
}
