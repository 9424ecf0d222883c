/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the text files layoutlint is given (rules, baselines, kernel
 * documentation) with a bound: only regular files (a FIFO would block, a
 * device such as /dev/zero never ends), no larger than the caller's limit.
 */
#ifndef LAYOUTLINT_READ_FILE_H
#define LAYOUTLINT_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* Beyond errno values: why ll_read_regular() failed. */
#define LL_READ_NOT_REGULAR (-1)
#define LL_READ_TOO_LARGE (-2)

/*
 * Append the file at PATH, at most MAX bytes, to OUT. 0, or -1 with *WHY
 * an errno value or one of LL_READ_*. A FIFO is opened without blocking.
 */
int ll_read_regular(const char *path, size_t max, struct strbuf *out, int *why);
/* Open PATH for reading if it is a regular file: a descriptor, or -1 with *WHY. */
int ll_open_regular(const char *path, int *why);
/* *WHY in words ("not a regular file ...", "larger than 64 MiB", strerror). */
const char *ll_read_error_text(int why, size_t max);
/*
 * LEN bytes of FD at offset OFF into BUF, in as many preads as it takes:
 * the bytes read, LEN unless a pread failed (errno says why) or met the
 * end of the file (errno 0).
 */
size_t ll_pread_all(int fd, void *buf, size_t len, uint64_t off);

#endif
