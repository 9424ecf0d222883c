// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/elf/elf_section.h"

#include <string.h>

Elf_Scn *ll_elf_section(Elf *elf, const char *name, const char *alt, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *s;

		if (!gelf_getshdr(scn, shdr) || shdr->sh_type == SHT_NOBITS)
			continue;
		s = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (s && (strcmp(s, name) == 0 || (alt && strcmp(s, alt) == 0)))
			return scn;
	}
	return NULL;
}

bool ll_elf_section_bytes(Elf *elf, const char *name, const char *alt,
			  const unsigned char **data, size_t *size)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = ll_elf_section(elf, name, alt, &shdr);
	Elf_Data *d;

	if (!scn || (shdr.sh_flags & SHF_COMPRESSED))
		return false;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return false;
	*data = d->d_buf;
	*size = d->d_size;
	return true;
}

unsigned ll_elf_arch_cacheline(unsigned machine, unsigned char elfclass)
{
	switch (machine) {
	case EM_PPC64:
		return 128;
	case EM_S390:
		return elfclass == ELFCLASS64 ? 256 : 64;
	default:
		return 64;
	}
}
