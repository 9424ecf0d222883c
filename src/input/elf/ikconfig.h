/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel built with CONFIG_IKCONFIG carries its .config, gzipped,
 * between the markers "IKCFG_ST" and "IKCFG_ED" in .rodata
 * (kernel/configs.c): read it back, so a note about randstruct can say
 * which build this image is without --config.
 */
#ifndef LAYOUTLINT_IKCONFIG_H
#define LAYOUTLINT_IKCONFIG_H

#include <stdbool.h>

#include "util/diag.h"
#include "util/strbuf.h"

/* The most a decompressed .config may take (a 6.12 allyesconfig is ~300 KB). */
#define LL_IKCONFIG_MAX ((size_t)16 << 20)

/*
 * The .config embedded in the ELF file PATH into CONFIG (*FOUND true), or
 * *FOUND false when it holds none (not a linked ELF image, or no allocated
 * .rodata with the markers). -1 with ERR when PATH cannot be opened or the
 * data between the markers is not a gzip stream within LL_IKCONFIG_MAX bytes.
 */
int ll_elf_ikconfig(const char *path, struct strbuf *config, bool *found, struct ll_error *err);

#endif
