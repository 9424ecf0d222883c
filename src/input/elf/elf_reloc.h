/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ET_REL file's (an object's, a kernel module's) debug sections with
 * their relocations applied, by a loop over the raw records.
 *
 * Why not libdwfl, which does the same: it goes through libelf one record
 * at a time (gelf_getrela, gelf_update_rela) and writes into a private
 * mapping of the whole file. On the Debian 6.12 xfs.ko (812,000 records in
 * .rela.debug_info) that was most of a lookup (bench/RESULTS.md).
 *
 * Only what a struct layout can depend on is promised to equal libdwfl's:
 * offsets into the other debug sections (strings, abbreviations, line
 * tables), whose symbols are those sections' own at address 0. Call
 * frames, location and range lists hold nothing else and are left as they
 * are (nothing here reads them). A symbol
 * in an allocated section keeps its st_value, where libdwfl would add an
 * address it lays the sections out at: such values are code and data
 * addresses, which a relocatable file's global variables are never matched
 * by (globals.h matches them by name).
 */
#ifndef LAYOUTLINT_ELF_RELOC_H
#define LAYOUTLINT_ELF_RELOC_H

#include <gelf.h>
#include <stddef.h>

/*
 * Apply the SHT_RELA (MIPS: also SHT_REL) sections of the .debug_* sections of ELF (an ET_REL
 * file, SIZE bytes, opened read-only from FD) to IMAGE, a private writable copy of
 * the same SIZE bytes. 0: all applied. 1: not for this file (another
 * machine or byte order, SHT_REL, a compressed or out-of-range section, a
 * relocation type or value it does not handle): IMAGE may then hold some
 * of them and must be thrown away, and libdwfl used instead, which also
 * words whatever is wrong with the file.
 */
int ll_elf_relocate_debug(Elf *elf, int fd, unsigned char *image, size_t size);

/*
 * An object's COMDAT copies of .debug_info (DWARF 5 type units of gcc
 * -fdebug-types-section) or .debug_types (DWARF 4), each in a group of its
 * own: libdw reads the first section of a name only. When ELF (little-
 * endian, its SIZE bytes at IMAGE, relocated) has more than one of either,
 * *OUT is a new image (malloc'd, *OUT_SIZE bytes) whose first section of
 * that name holds them all end to end and whose others are SHT_NOBITS.
 * 0: done, *OUT NULL when nothing needed joining. 1: not for this file.
 */
int ll_elf_join_comdat_debug(Elf *elf, const unsigned char *image, size_t size,
			     unsigned char **out, size_t *out_size);

#endif
