/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF facts both readers need: sections by name, the machine's cacheline
 * and the in-struct alignment of its base types.
 */
#ifndef LAYOUTLINT_ELF_SECTION_H
#define LAYOUTLINT_ELF_SECTION_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The first section with bytes in the file (not SHT_NOBITS) named NAME,
 * or ALT when ALT is not NULL (".zdebug_info" beside ".debug_info"); its
 * header in *SHDR. NULL when there is none or the table is unreadable.
 * A DWARF section (.debug_*, .zdebug_*) in a section group (SHF_GROUP) is
 * passed over, as libdw passes it over: what the raw scan reads is what
 * libdw reads (elf_reloc.c joins a COMDAT group's sections and takes the
 * first out of its group).
 */
Elf_Scn *ll_elf_section(Elf *elf, const char *name, const char *alt, GElf_Shdr *shdr);

/*
 * The bytes of that section as libelf holds them now, when they are
 * plain: false for a section still SHF_COMPRESSED (libdw decompresses the
 * debug sections it opens, in place, and clears the flag).
 */
bool ll_elf_section_bytes(Elf *elf, const char *name, const char *alt,
			  const unsigned char **data, size_t *size);

/*
 * Whether a relocation section (SHT_RELA or SHT_REL) applies to section
 * NAME: then the file's bytes of it are not what a relocated image holds.
 * True also when ELF or its section table cannot be read.
 */
bool ll_elf_section_relocated(Elf *elf, const char *name);

/*
 * Whether a section of type SH_TYPE holds plain bytes as SHT_PROGBITS
 * does: MIPS types its debug sections SHT_MIPS_DWARF.
 */
static inline bool ll_elf_progbits(uint32_t sh_type)
{
	return sh_type == SHT_PROGBITS || sh_type == SHT_MIPS_DWARF;
}

/* The name of an ELF machine as the kernel's ARCH= spells it ("arm64"), or NULL. */
const char *ll_elf_machine_name(unsigned machine);

/* The cacheline size of an ELF machine (64; 128 ppc64; 256 s390x). */
unsigned ll_elf_arch_cacheline(unsigned machine, unsigned char elfclass);

/* The target an input was built for, from its ELF header. */
struct ll_target {
	unsigned machine;		/* e_machine; EM_NONE: unknown (raw BTF) */
	unsigned char elfclass;		/* ELFCLASS32 or ELFCLASS64 */
};

/* The target of the ELF header EHDR. */
struct ll_target ll_elf_target(const GElf_Ehdr *ehdr);

/* The target this layoutlint runs on (the running kernel's BTF). */
struct ll_target ll_host_target(void);

/*
 * The alignment inside a struct of a base type (integer, floating-point,
 * enumeration; a complex type passes the size of one part) of SIZE bytes
 * on TARGET, where the debug info gives none: SIZE rounded down to a power
 * of two, at most 16, unless the target's ABI aligns it less (the table
 * in elf_section.c, documented in docs/cli.md, "Alignment").
 */
uint64_t ll_base_type_alignment(struct ll_target target, uint64_t size);

/* Ends ELF (NULL is fine) and closes FD unless it is -1: an ELF opened from a file. */
void ll_elf_close(Elf *elf, int fd);

#endif
