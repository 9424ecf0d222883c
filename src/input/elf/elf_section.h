/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ELF facts both readers need: sections by name, the machine's cacheline. */
#ifndef LAYOUTLINT_ELF_SECTION_H
#define LAYOUTLINT_ELF_SECTION_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The first section with bytes in the file (not SHT_NOBITS) named NAME,
 * or ALT when ALT is not NULL (".zdebug_info" beside ".debug_info"); its
 * header in *SHDR. NULL when there is none or the table is unreadable.
 */
Elf_Scn *ll_elf_section(Elf *elf, const char *name, const char *alt, GElf_Shdr *shdr);

/*
 * The bytes of that section as libelf holds them now, when they are
 * plain: false for a section still SHF_COMPRESSED (libdw decompresses the
 * debug sections it opens, in place, and clears the flag).
 */
bool ll_elf_section_bytes(Elf *elf, const char *name, const char *alt,
			  const unsigned char **data, size_t *size);

/* The cacheline size of an ELF machine (64; 128 ppc64; 256 s390x). */
unsigned ll_elf_arch_cacheline(unsigned machine, unsigned char elfclass);

#endif
