/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dwz supplementary files: the file .gnu_debugaltlink (or DWARF 5's
 * .debug_sup) names, which holds the types dwz -m moved out of several
 * binaries. libdw looks for it only from a file descriptor, which a
 * sparse image does not have, so it is found here, as gdb finds it.
 */
#ifndef LAYOUTLINT_ALTLINK_H
#define LAYOUTLINT_ALTLINK_H

#include <elfutils/libdw.h>

#include "util/diag.h"

struct ll_alt_file {
	int fd;			/* -1: none */
	Elf *elf;
	Dwarf *dwarf;
	char *path;
};

/*
 * Open the supplementary file ELF (the file PATH, for messages) names:
 * by that name (a relative one from the directory of NAMED_BY, the file
 * that holds the link), then by build-id under /usr/lib/debug/.build-id/;
 * its build-id (or .debug_sup checksum) must match. 0 with ALT->dwarf
 * NULL: ELF names none. Not found is an error: without it every type dwz
 * moved there would vanish from the answer. ALT starts with fd -1.
 */
int ll_alt_open(Elf *elf, const char *path, const char *named_by, struct ll_alt_file *alt,
		struct ll_error *err);
void ll_alt_close(struct ll_alt_file *alt);

#endif
