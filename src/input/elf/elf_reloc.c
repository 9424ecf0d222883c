// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/elf/elf_reloc.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* Relocation types (elf.h has them; named here for the loop's table). */
#define X86_64_NONE 0
#define X86_64_64 1
#define X86_64_32 10
#define X86_64_32S 11
#define AARCH64_NONE 0
#define AARCH64_ABS64 257
#define AARCH64_ABS32 258

/* How one relocation type writes S + A: its width, and which values fit. */
enum width { SKIP, WORD64, WORD32_ZERO, WORD32_SIGN, WORD32_EITHER, UNKNOWN };

static enum width type_width(unsigned machine, uint32_t type)
{
	if (machine == EM_X86_64) {
		switch (type) {
		case X86_64_NONE: return SKIP;
		case X86_64_64: return WORD64;
		case X86_64_32: return WORD32_ZERO;
		case X86_64_32S: return WORD32_SIGN;
		}
	} else if (machine == EM_AARCH64) {
		switch (type) {
		case AARCH64_NONE: return SKIP;
		case AARCH64_ABS64: return WORD64;
		case AARCH64_ABS32: return WORD32_EITHER;
		}
	}
	return UNKNOWN;
}

static bool fits(enum width w, uint64_t v)
{
	int64_t s = (int64_t)v;

	switch (w) {
	case WORD32_ZERO: return v <= UINT32_MAX;
	case WORD32_SIGN: return s >= INT32_MIN && s <= INT32_MAX;
	case WORD32_EITHER: return v <= UINT32_MAX || (s >= INT32_MIN && s <= INT32_MAX);
	default: return true;
	}
}

/* Little-endian reads and writes of the raw records (the host is little-endian too). */
static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void put(unsigned char *p, uint64_t v, enum width w)
{
	if (w == WORD64) {
		memcpy(p, &v, 8);
	} else {
		uint32_t x = (uint32_t)v;

		memcpy(p, &x, 4);
	}
}

/* A section's bytes inside the file, when it has SIZE of them there. */
static bool in_file(const GElf_Shdr *sh, size_t size)
{
	return sh->sh_type != SHT_NOBITS && sh->sh_offset <= size &&
	       sh->sh_size <= size - sh->sh_offset;
}

struct symbols {
	const unsigned char *bytes;	/* Elf64_Sym records, raw */
	size_t n;
};

static bool load_symbols(Elf *elf, size_t index, const unsigned char *file, size_t size,
			 struct symbols *out)
{
	Elf_Scn *scn = elf_getscn(elf, index);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
	    sh.sh_entsize != sizeof(Elf64_Sym) || !in_file(&sh, size))
		return false;
	out->bytes = file + sh.sh_offset;
	out->n = sh.sh_size / sizeof(Elf64_Sym);
	return true;
}

/* Records read at a time: 64 KiB, so the buffer stays in cache and no page of the file is mapped. */
#define CHUNK 2730

/* Apply N raw records R to TARGET's bytes in IMAGE at DST. */
static int apply_records(unsigned machine, const unsigned char *r, size_t n,
			 const GElf_Shdr *target, const struct symbols *syms, unsigned char *dst)
{
	for (size_t i = 0; i < n; i++, r += sizeof(Elf64_Rela)) {
		uint64_t where = get64(r), info = get64(r + 8), addend = get64(r + 16);
		uint32_t sym = (uint32_t)(info >> 32);
		enum width w = type_width(machine, (uint32_t)info);
		uint64_t value = 0;

		if (w == SKIP)
			continue;
		if (w == UNKNOWN || sym >= syms->n)
			return 1;
		if (sym) {
			Elf64_Sym s;

			memcpy(&s, syms->bytes + (size_t)sym * sizeof(s), sizeof(s));
			if (s.st_shndx == SHN_UNDEF)
				continue;
			value = s.st_value;
		}
		value += addend;
		if (!fits(w, value) || where > target->sh_size ||
		    (w == WORD64 ? 8 : 4) > target->sh_size - where)
			return 1;
		put(dst + where, value, w);
	}
	return 0;
}

/*
 * One SHT_RELA section RELA of the .debug_* section TARGET, read from FD
 * in chunks (a mapping of xfs.ko's 19 MB of records faulted in 300 times).
 * A symbol that is not defined (SHN_UNDEF, other than symbol 0) is left
 * unapplied, as libdwfl leaves it when no other module resolves it.
 */
static int apply_section(unsigned machine, int fd, const GElf_Shdr *rela,
			 const GElf_Shdr *target, const struct symbols *syms, unsigned char *image)
{
	static const size_t chunk = CHUNK * sizeof(Elf64_Rela);
	unsigned char buf[CHUNK * sizeof(Elf64_Rela)];
	uint64_t total = rela->sh_size / sizeof(Elf64_Rela) * sizeof(Elf64_Rela);

	for (uint64_t done = 0; done < total;) {
		size_t want = total - done < chunk ? (size_t)(total - done) : chunk;
		ssize_t got = pread(fd, buf, want, (off_t)(rela->sh_offset + done));

		if (got < (ssize_t)sizeof(Elf64_Rela))
			return 1;
		want = (size_t)got / sizeof(Elf64_Rela);
		if (apply_records(machine, buf, want, target, syms, image + target->sh_offset))
			return 1;
		done += want * sizeof(Elf64_Rela);
	}
	return 0;
}

/*
 * What nothing here reads (call frames, location and range lists) holds
 * code addresses only: left as in the file, which saves a copy-on-write
 * fault for each of its pages.
 */
static bool never_read(const char *name)
{
	static const char *const skip[] = { ".debug_frame", ".debug_loc", ".debug_loclists",
					    ".debug_ranges", ".debug_rnglists" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(name, skip[i]) == 0)
			return true;
	return false;
}

int ll_elf_relocate_debug(Elf *elf, int fd, unsigned char *image, size_t size)
{
	GElf_Ehdr eh;
	size_t shstrndx, file_size;
	const unsigned char *file = (const unsigned char *)elf_rawfile(elf, &file_size);
	Elf_Scn *scn = NULL;

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	return 1;
#endif
	if (!file || file_size != size || !gelf_getehdr(elf, &eh) || eh.e_type != ET_REL ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr rela, target;
		Elf_Scn *tscn;
		const char *name;
		struct symbols syms;

		if (!gelf_getshdr(scn, &rela))
			return 1;
		if (rela.sh_type != SHT_RELA && rela.sh_type != SHT_REL)
			continue;
		tscn = elf_getscn(elf, rela.sh_info);
		if (!tscn || !gelf_getshdr(tscn, &target) ||
		    !(name = elf_strptr(elf, shstrndx, target.sh_name)))
			return 1;
		if (strncmp(name, ".debug_", 7) != 0 || never_read(name))
			continue;	/* code and data: libdwfl leaves them too */
		if (rela.sh_type == SHT_REL || rela.sh_entsize != sizeof(Elf64_Rela) ||
		    (target.sh_flags & SHF_COMPRESSED) || target.sh_type != SHT_PROGBITS ||
		    !in_file(&rela, size) || !in_file(&target, size) ||
		    !load_symbols(elf, rela.sh_link, file, size, &syms) ||
		    apply_section(eh.e_machine, fd, &rela, &target, &syms, image))
			return 1;
	}
	return 0;
}
