/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The input as a file: a memfd opened through /proc/self/fd/N, so that
 * every harness takes the path a real file takes (open, fstat, read).
 */
#ifndef LL_FUZZ_MEMFD_H
#define LL_FUZZ_MEMFD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_file {
	int fd;
	char path[64];
};

static inline void fuzz_file_init(struct fuzz_file *f, const char *name)
{
	f->fd = memfd_create(name, MFD_CLOEXEC);
	if (f->fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

static inline void fuzz_file_write(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	if (ftruncate(f->fd, 0) != 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(f->fd, data + done, size - done, (off_t)done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

#endif
