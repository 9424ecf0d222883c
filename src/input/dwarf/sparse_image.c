// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/dwarf/sparse_image.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/strbuf.h"

struct ll_sparse_image {
	unsigned char *base;
	size_t size;
	int fd;			/* borrowed */
	const char *path;	/* borrowed */
	uint64_t hole_off, hole_size;
	bool whole;		/* the hole is a file mapping again */
};

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

int ll_sparse_open(int fd, const char *path, size_t size, uint64_t hole_off, uint64_t hole_size,
		   struct ll_sparse_image **out, struct ll_error *err)
{
	struct ll_sparse_image *img;
	size_t page = page_size();
	uint64_t first, last;

	*out = NULL;
	if (hole_off > size || hole_size > size - hole_off)
		return ll_fail(err, "%s: section at file offset 0x%llx runs past the end of the file",
			       path, (unsigned long long)hole_off);
	img = xcalloc(1, sizeof(*img));
	img->size = size;
	img->fd = fd;
	img->path = path;
	img->hole_off = hole_off;
	img->hole_size = hole_size;
	img->base = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (img->base == MAP_FAILED) {
		free(img);
		return ll_fail(err, "%s: cannot map: %s", path, strerror(errno));
	}
	/*
	 * Only whole pages inside the hole become anonymous; the pages it
	 * shares with its neighbours stay mapped from the file, so they hold
	 * the right bytes already.
	 */
	first = (hole_off + page - 1) / page * page;
	last = (hole_off + hole_size) / page * page;
	if (last > first &&
	    mmap(img->base + first, (size_t)(last - first), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
		int e = errno;

		munmap(img->base, size ? size : 1);
		free(img);
		return ll_fail(err, "%s: cannot map: %s", path, strerror(e));
	}
	*out = img;
	return 0;
}

unsigned char *ll_sparse_base(const struct ll_sparse_image *img)
{
	return img->base;
}

void ll_sparse_put(struct ll_sparse_image *img, uint64_t off, const void *bytes, size_t len)
{
	if (img->whole || off > img->hole_size || len > img->hole_size - off)
		return;
	memcpy(img->base + img->hole_off + off, bytes, len);
}

int ll_sparse_fill(struct ll_sparse_image *img, uint64_t off, uint64_t len, struct ll_error *err)
{
	if (img->whole)
		return 0;
	if (off > img->hole_size || len > img->hole_size - off)
		return ll_fail(err, "%s: .debug_info range 0x%llx+0x%llx is outside the section",
			       img->path, (unsigned long long)off, (unsigned long long)len);
	for (uint64_t done = 0; done < len;) {
		ssize_t r = pread(img->fd, img->base + img->hole_off + off + done,
				  (size_t)(len - done), (off_t)(img->hole_off + off + done));

		if (r <= 0)
			return ll_fail(err, "%s: cannot read .debug_info at offset 0x%llx: %s",
				       img->path, (unsigned long long)(off + done),
				       r < 0 ? strerror(errno) : "unexpected end of file");
		done += (uint64_t)r;
	}
	return 0;
}

int ll_sparse_fill_all(struct ll_sparse_image *img, struct ll_error *err)
{
	size_t page = page_size();
	uint64_t first, last;

	if (img->whole)
		return 0;
	first = (img->hole_off + page - 1) / page * page;
	last = (img->hole_off + img->hole_size) / page * page;
	if (last > first &&
	    mmap(img->base + first, (size_t)(last - first), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, img->fd, (off_t)first) == MAP_FAILED)
		return ll_fail(err, "%s: cannot map: %s", img->path, strerror(errno));
	img->whole = true;
	return 0;
}

void ll_sparse_close(struct ll_sparse_image *img)
{
	if (!img)
		return;
	munmap(img->base, img->size ? img->size : 1);
	free(img);
}
