/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replacing a file the user named (--write-baseline, --write-rules) in two
 * steps: the new contents go to a fresh temporary file beside it before
 * any output (a run that cannot write fails whole), and replace it only
 * once the output is out (a failing run leaves the old one). Only a
 * regular file or nothing is replaced: renaming over a symbolic link, a
 * device (as root, /dev/null) or a FIFO would replace it, so those are
 * refused. An existing file's mode and owner carry over.
 */
#ifndef LAYOUTLINT_REPLACE_FILE_H
#define LAYOUTLINT_REPLACE_FILE_H

#include <stddef.h>

#include "util/diag.h"

struct ll_pending_file {
	char *path;
	char *tmp;		/* NULL: nothing pending */
	const char *option;	/* "--write-baseline", for messages */
	const char *what;	/* "the baseline", for messages */
};

/* Write DATA (LEN bytes) to a temporary file beside PATH: 0, or -1 with ERR. */
int ll_file_prepare(const char *path, const char *option, const char *what, const char *data,
		    size_t len, struct ll_pending_file *pending, struct ll_error *err);
/* Rename it over PATH, checked again; nothing pending is success. */
int ll_file_commit(struct ll_pending_file *pending, struct ll_error *err);
/* Remove the temporary file, if any. */
void ll_file_abandon(struct ll_pending_file *pending);

#endif
