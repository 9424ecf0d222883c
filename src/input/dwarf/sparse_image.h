/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A private image of an ELF file in which one byte range (.debug_info) is
 * left unread: zero-filled anonymous pages until the caller fills parts of
 * it from the file.
 *
 * Why: libdw registers every unit before the one holding a DIE it is asked
 * for, reading each unit header. On a file mapping each of those reads
 * faults in ~64 KiB around it (the kernel's fault-around), so one struct
 * from a late unit of a 200 MB .debug_info cost a lot of resident pages.
 * Here a header costs one anonymous page, and only the units a lookup
 * materialises are read whole. Knows nothing of DWARF: the caller says
 * which ranges libdw is about to read.
 */
#ifndef LAYOUTLINT_SPARSE_IMAGE_H
#define LAYOUTLINT_SPARSE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct ll_sparse_image;

/*
 * Map the SIZE bytes of FD (PATH names it in errors) with the file range
 * [HOLE_OFF, HOLE_OFF + HOLE_SIZE) unread. The image is writable and
 * private: hand it to elf_memory().
 */
int ll_sparse_open(int fd, const char *path, size_t size, uint64_t hole_off, uint64_t hole_size,
		   struct ll_sparse_image **out, struct ll_error *err);

unsigned char *ll_sparse_base(const struct ll_sparse_image *img);

/*
 * Put LEN bytes the caller already read from the hole at OFF into it (they
 * must be the file's bytes; OFF + LEN within the hole).
 */
void ll_sparse_put(struct ll_sparse_image *img, uint64_t off, const void *bytes, size_t len);

/* Read [OFF, OFF + LEN) of the hole (offsets from its start) from the file. */
int ll_sparse_fill(struct ll_sparse_image *img, uint64_t off, uint64_t len, struct ll_error *err);

/*
 * ll_sparse_fill() by mapping the file over the range's whole pages (its
 * edges read): nothing copied, and only the pages libdw then touches are
 * faulted in, ~64 KiB at a time.
 */
int ll_sparse_map(struct ll_sparse_image *img, uint64_t off, uint64_t len, struct ll_error *err);

/*
 * Give back the memory of [OFF, OFF + LEN) of the hole (whole pages only;
 * those it shares with the bytes around it stay). Anonymous, they read
 * zero again until filled anew; mapped from the file (ll_sparse_map(),
 * ll_sparse_fill_all()), the file's bytes, read again when touched.
 */
void ll_sparse_release(struct ll_sparse_image *img, uint64_t off, uint64_t len);

/* Whether the hole is the file's mapping (ll_sparse_fill_all()): writes go nowhere. */
bool ll_sparse_whole(const struct ll_sparse_image *img);

/*
 * Ask for transparent huge pages in the hole from now on (best effort):
 * where most of it will be filled (a whole-image run) or only a few
 * units and no header between them are touched (a lookup the name index
 * answers). A 4 KiB fault is costly on the VMs this runs on.
 */
void ll_sparse_prefer_huge(struct ll_sparse_image *img);

/*
 * Read the whole hole from the file into its own anonymous memory (huge
 * pages where the kernel gives them), to be written to after.
 */
int ll_sparse_read_hole(struct ll_sparse_image *img, struct ll_error *err);

/* Whether the file range [OFF, OFF + SIZE) lies inside the hole. */
bool ll_sparse_holds(const struct ll_sparse_image *img, uint64_t off, uint64_t size);

/* Make the whole hole the file's bytes again (a plain file mapping). */
int ll_sparse_fill_all(struct ll_sparse_image *img, struct ll_error *err);

void ll_sparse_close(struct ll_sparse_image *img);

#endif
