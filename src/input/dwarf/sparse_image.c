// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/dwarf/sparse_image.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/huge_page.h"
#include "util/read_file.h"
#include "util/strbuf.h"

struct ll_sparse_image {
	unsigned char *base;
	size_t size;
	int fd;			/* borrowed */
	const char *path;	/* borrowed */
	uint64_t hole_off, hole_size;
	bool whole;		/* the hole is a file mapping again */
	unsigned char *reserve;	/* the address range base lies in */
	size_t reserve_size;
};

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/*
 * The whole pages of the file range [OFF, OFF + SIZE): [*FIRST, *LAST);
 * empty when it holds none. Of the hole, only those are anonymous.
 */
static void whole_pages(uint64_t off, uint64_t size, uint64_t *first, uint64_t *last)
{
	size_t page = page_size();

	*first = (off + page - 1) / page * page;
	*last = (off + size) / page * page;
}

int ll_sparse_open(int fd, const char *path, size_t size, uint64_t hole_off, uint64_t hole_size,
		   struct ll_sparse_image **out, struct ll_error *err)
{
	struct ll_sparse_image *img;
	uint64_t first, last;
	unsigned char *reserve;

	*out = NULL;
	if (hole_off > size || hole_size > size - hole_off || size > SIZE_MAX - LL_HUGE_PAGE)
		return ll_fail(err, "%s: section at file offset 0x%llx runs past the end of the file",
			       path, (unsigned long long)hole_off);
	img = xcalloc(1, sizeof(*img));
	img->size = size;
	img->fd = fd;
	img->path = path;
	img->hole_off = hole_off;
	img->hole_size = hole_size;
	whole_pages(hole_off, hole_size, &first, &last);
	/*
	 * Reserve a huge page more than the file, and place the file so
	 * that the hole's first whole page starts a huge page: a hole read
	 * whole (ll_sparse_read_hole) can then take huge pages.
	 */
	img->reserve_size = size + LL_HUGE_PAGE;
	reserve = mmap(NULL, img->reserve_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (reserve == MAP_FAILED) {
		free(img);
		return ll_fail(err, "%s: cannot map: %s", path, strerror(errno));
	}
	img->reserve = reserve;
	img->base = reserve + (LL_HUGE_PAGE - ((uintptr_t)reserve + first) % LL_HUGE_PAGE) % LL_HUGE_PAGE;
	if (mmap(img->base, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
		 0) == MAP_FAILED) {
		int e = errno;

		ll_sparse_close(img);
		return ll_fail(err, "%s: cannot map: %s", path, strerror(e));
	}
	/*
	 * Only whole pages inside the hole become anonymous; the pages it
	 * shares with its neighbours stay mapped from the file, so they hold
	 * the right bytes already.
	 */
	if (last > first &&
	    mmap(img->base + first, (size_t)(last - first), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
		int e = errno;

		ll_sparse_close(img);
		return ll_fail(err, "%s: cannot map: %s", path, strerror(e));
	}
	*out = img;
	return 0;
}

/*
 * Not by default: a cold lookup of one late struct has libdw read every
 * unit header before it, and each would then fault in a whole zeroed
 * huge page: 216 MB resident for struct printf_spec instead of ~25.
 */
void ll_sparse_prefer_huge(struct ll_sparse_image *img)
{
	uint64_t first, last;

	whole_pages(img->hole_off, img->hole_size, &first, &last);
	if (img->whole || last <= first)
		return;
	ll_advise_huge(img->base + first, (size_t)(last - first));
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
	size_t done = ll_pread_all(img->fd, img->base + img->hole_off + off, (size_t)len,
				   img->hole_off + off);

	if (done < len)
		return ll_fail(err, "%s: cannot read .debug_info at offset 0x%llx: %s",
			       img->path, (unsigned long long)(off + done),
			       errno ? strerror(errno) : "unexpected end of file");
	return 0;
}

int ll_sparse_map(struct ll_sparse_image *img, uint64_t off, uint64_t len, struct ll_error *err)
{
	uint64_t first, last;

	if (img->whole)
		return 0;
	if (off > img->hole_size || len > img->hole_size - off)
		return ll_fail(err, "%s: .debug_info range 0x%llx+0x%llx is outside the section",
			       img->path, (unsigned long long)off, (unsigned long long)len);
	whole_pages(img->hole_off + off, len, &first, &last);
	if (last <= first)
		return ll_sparse_fill(img, off, len, err);
	if (mmap(img->base + first, (size_t)(last - first), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, img->fd, (off_t)first) == MAP_FAILED)
		return ll_fail(err, "%s: cannot map: %s", img->path, strerror(errno));
	if (ll_sparse_fill(img, off, first - (img->hole_off + off), err))
		return -1;
	return ll_sparse_fill(img, last - img->hole_off, img->hole_off + off + len - last, err);
}

void ll_sparse_release(struct ll_sparse_image *img, uint64_t off, uint64_t len)
{
	uint64_t first, last;

	if (off > img->hole_size || len > img->hole_size - off)
		return;
	whole_pages(img->hole_off + off, len, &first, &last);
	if (last > first)
		(void)madvise(img->base + first, (size_t)(last - first), MADV_DONTNEED);
}

bool ll_sparse_holds(const struct ll_sparse_image *img, uint64_t off, uint64_t size)
{
	return off >= img->hole_off && off - img->hole_off <= img->hole_size &&
	       size <= img->hole_size - (off - img->hole_off);
}

bool ll_sparse_whole(const struct ll_sparse_image *img)
{
	return img->whole;
}

int ll_sparse_fill_all(struct ll_sparse_image *img, struct ll_error *err)
{
	uint64_t first, last;

	if (img->whole)
		return 0;
	whole_pages(img->hole_off, img->hole_size, &first, &last);
	if (last > first &&
	    mmap(img->base + first, (size_t)(last - first), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, img->fd, (off_t)first) == MAP_FAILED)
		return ll_fail(err, "%s: cannot map: %s", img->path, strerror(errno));
	/*
	 * The pages the hole shares with its neighbours were never remapped,
	 * and may hold a made-up unit header ll_sparse_put() wrote (finder.c):
	 * read the file's bytes there again, or a walk of every unit would
	 * take the first units for one.
	 */
	uint64_t end = img->hole_off + img->hole_size;

	if (last <= first) {
		if (ll_sparse_fill(img, 0, img->hole_size, err))
			return -1;
	} else if (ll_sparse_fill(img, 0, first - img->hole_off, err) ||
		   ll_sparse_fill(img, last - img->hole_off, end - last, err)) {
		return -1;
	}
	img->whole = true;
	return 0;
}

/*
 * Huge pages first: the hole's pages are anonymous, and a 4 KiB page
 * fault is costly here, so xfs.ko's 12 MB .debug_info reads faster into
 * huge pages, as many as the kernel finds (bench/RESULTS.md). Best
 * effort: without them it is the plain read.
 */
int ll_sparse_read_hole(struct ll_sparse_image *img, struct ll_error *err)
{
	ll_sparse_prefer_huge(img);
	return ll_sparse_fill(img, 0, img->hole_size, err);
}

void ll_sparse_close(struct ll_sparse_image *img)
{
	if (!img)
		return;
	munmap(img->reserve, img->reserve_size);
	free(img);
}
