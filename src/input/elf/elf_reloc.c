// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/elf/elf_reloc.h"
#include "input/elf/elf_section.h"

#include <stdbool.h>
#include <stdlib.h>
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
#define MIPS_NONE 0
#define MIPS_32 2
#define MIPS_64 18

/*
 * How one relocation type writes S + A: its width, and which values fit.
 * WORD32_WRAP: a 32-bit target's word, S + A modulo 2^32.
 */
enum width { SKIP, WORD64, WORD32_ZERO, WORD32_SIGN, WORD32_EITHER, WORD32_WRAP, UNKNOWN };

/*
 * The layout of one file's relocation records: ELF32 or ELF64, REL (the
 * addend is what the section holds at the place) or RELA, and whether
 * r_info is MIPS64's (little-endian: r_sym in the low 32 bits, then
 * r_ssym, r_type3, r_type2 and r_type in the top byte) rather than
 * (sym << 32 | type).
 */
struct record_format {
	size_t size;		/* of one record */
	bool elf64;
	bool rela;
	bool mips64_info;
};

static enum width type_width(unsigned machine, bool elf64, uint32_t type)
{
	if (machine == EM_MIPS) {
		switch (type) {
		case MIPS_NONE: return SKIP;
		case MIPS_32: return elf64 ? WORD32_EITHER : WORD32_WRAP;
		case MIPS_64: return elf64 ? WORD64 : UNKNOWN;
		}
		return UNKNOWN;
	}
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

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
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
	const unsigned char *bytes;	/* Elf64_Sym or Elf32_Sym records, raw */
	size_t n;
	bool elf64;
};

static bool load_symbols(Elf *elf, size_t index, bool elf64, const unsigned char *file,
			 size_t size, struct symbols *out)
{
	Elf_Scn *scn = elf_getscn(elf, index);
	size_t entsize = elf64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
	    sh.sh_entsize != entsize || !in_file(&sh, size))
		return false;
	out->bytes = file + sh.sh_offset;
	out->n = sh.sh_size / entsize;
	out->elf64 = elf64;
	return true;
}

/* Symbol SYM's value; false when it is not defined here (SHN_UNDEF). */
static bool symbol_value(const struct symbols *syms, uint32_t sym, uint64_t *value)
{
	if (syms->elf64) {
		Elf64_Sym s;

		memcpy(&s, syms->bytes + (size_t)sym * sizeof(s), sizeof(s));
		*value = s.st_value;
		return s.st_shndx != SHN_UNDEF;
	}
	Elf32_Sym s;

	memcpy(&s, syms->bytes + (size_t)sym * sizeof(s), sizeof(s));
	*value = s.st_value;
	return s.st_shndx != SHN_UNDEF;
}

/* Records read at a time: 64 KiB, so the buffer stays in cache and no page of the file is mapped. */
#define CHUNK 2730

/* One raw record's place, symbol, type and (RELA) addend. */
static bool read_record(const struct record_format *f, const unsigned char *r, uint64_t *where,
			uint32_t *sym, uint32_t *type, uint64_t *addend)
{
	*addend = 0;
	if (!f->elf64) {
		uint32_t info = get32(r + 4);

		*where = get32(r);
		*sym = info >> 8;
		*type = info & 0xff;
		if (f->rela)
			*addend = (uint64_t)(int64_t)(int32_t)get32(r + 8);
		return true;
	}
	uint64_t info = get64(r + 8);

	*where = get64(r);
	if (f->rela)
		*addend = get64(r + 16);
	if (!f->mips64_info) {
		*sym = (uint32_t)(info >> 32);
		*type = (uint32_t)info;
		return true;
	}
	/* MIPS64: r_sym, r_ssym, r_type3, r_type2, r_type; only a lone r_type is read. */
	*sym = (uint32_t)info;
	*type = (uint32_t)(info >> 56);
	return ((info >> 32) & 0xffffff) == 0;
}

/* Apply N raw records R to TARGET's bytes in IMAGE at DST. */
static int apply_records(unsigned machine, const struct record_format *f, const unsigned char *r,
			 size_t n, const GElf_Shdr *target, const struct symbols *syms,
			 unsigned char *dst)
{
	for (size_t i = 0; i < n; i++, r += f->size) {
		uint64_t where, addend, value = 0;
		uint32_t sym, type;
		enum width w;

		if (!read_record(f, r, &where, &sym, &type, &addend))
			return 1;
		w = type_width(machine, f->elf64, type);
		if (w == SKIP)
			continue;
		if (w == UNKNOWN || sym >= syms->n)
			return 1;
		if (where > target->sh_size || (w == WORD64 ? 8 : 4) > target->sh_size - where)
			return 1;
		if (!f->rela)	/* REL: the addend is what the place holds */
			addend = w == WORD64 ? get64(dst + where) : get32(dst + where);
		if (sym && !symbol_value(syms, sym, &value))
			continue;
		value += addend;
		if (w == WORD32_WRAP)
			value &= UINT32_MAX;
		if (!fits(w, value))
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
static int apply_section(unsigned machine, const struct record_format *f, int fd,
			 const GElf_Shdr *rela, const GElf_Shdr *target, const struct symbols *syms,
			 unsigned char *image)
{
	const size_t chunk = CHUNK * f->size;
	unsigned char buf[CHUNK * sizeof(Elf64_Rela)];
	uint64_t total = rela->sh_size / f->size * f->size;

	for (uint64_t done = 0; done < total;) {
		size_t want = total - done < chunk ? (size_t)(total - done) : chunk;
		ssize_t got = pread(fd, buf, want, (off_t)(rela->sh_offset + done));

		if (got < (ssize_t)f->size)
			return 1;
		want = (size_t)got / f->size;
		if (apply_records(machine, f, buf, want, target, syms, image + target->sh_offset))
			return 1;
		done += want * f->size;
	}
	return 0;
}

/*
 * The records of relocation section SH in a file of ELF class ELF64 for
 * MACHINE, or false where they are not ones read here: ELF64 RELA for
 * x86-64 and arm64; for MIPS (libdw 0.188 has no MIPS backend), ELF32
 * REL or RELA (mipsel, o32) and ELF64 REL or RELA with MIPS64's r_info
 * (mips64el, n64).
 */
static bool record_format(unsigned machine, bool elf64, const GElf_Shdr *sh,
			  struct record_format *f)
{
	bool rela = sh->sh_type == SHT_RELA;

	if (machine != EM_MIPS && (!elf64 || !rela))
		return false;
	*f = (struct record_format){ .elf64 = elf64, .rela = rela,
				     .mips64_info = elf64 && machine == EM_MIPS };
	f->size = elf64 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel)) :
			  (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));
	return sh->sh_entsize == f->size;
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
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh.e_ident[EI_CLASS] != ELFCLASS64 && eh.e_ident[EI_CLASS] != ELFCLASS32) ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64 &&
	     eh.e_machine != EM_MIPS) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 1;
	bool elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr rela, target;
		Elf_Scn *tscn;
		const char *name;
		struct symbols syms;
		struct record_format format;

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
		if (!record_format(eh.e_machine, elf64, &rela, &format) ||
		    (target.sh_flags & SHF_COMPRESSED) || !ll_elf_progbits(target.sh_type) ||
		    !in_file(&rela, size) || !in_file(&target, size) ||
		    !load_symbols(elf, rela.sh_link, elf64, file, size, &syms) ||
		    apply_section(eh.e_machine, &format, fd, &rela, &target, &syms, image))
			return 1;
	}
	return 0;
}

/* ---- COMDAT debug sections joined ---------------------------------------- */

/*
 * Sections whose units stand alone (every reference inside a unit is
 * unit-relative, and others find a type unit by its signature): copies of
 * them in COMDAT groups may be joined end to end. Not .debug_line or
 * .debug_str_offsets, which units address by offset.
 */
/*
 * Section I's header, when it is one of the names joined, and which (0
 * .debug_info, 1 .debug_types) in *K.
 */
static bool joinable_section(Elf *elf, size_t shstrndx, size_t i, GElf_Shdr *sh, size_t *k)
{
	Elf_Scn *scn = elf_getscn(elf, i);
	const char *name;

	if (!scn || !gelf_getshdr(scn, sh) || !(name = elf_strptr(elf, shstrndx, sh->sh_name)))
		return false;
	if (strcmp(name, ".debug_info") == 0)
		*k = 0;
	else if (strcmp(name, ".debug_types") == 0)
		*k = 1;
	else
		return false;
	return true;
}

int ll_elf_join_comdat_debug(Elf *elf, const unsigned char *image, size_t size,
			     unsigned char **out, size_t *out_size)
{
	GElf_Ehdr eh;
	size_t shnum, shstrndx, shentsize;
	bool elf64;

	*out = NULL;
	if (!gelf_getehdr(elf, &eh) || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    elf_getshdrnum(elf, &shnum) != 0 || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    shnum < 2 || shnum > 65535)
		return 1;
	elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	shentsize = elf64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (eh.e_shentsize != shentsize || eh.e_shoff > size ||
	    (uint64_t)shnum * shentsize > size - eh.e_shoff)
		return 1;

	/* For each joinable name: its first section, and the bytes of all of them. */
	size_t first[2] = { 0, 0 }, count[2] = { 0, 0 };
	uint64_t total[2] = { 0, 0 };

	for (size_t i = 1; i < shnum; i++) {
		GElf_Shdr sh;
		size_t k;

		if (!joinable_section(elf, shstrndx, i, &sh, &k))
			continue;

		if ((sh.sh_flags & SHF_COMPRESSED) || !in_file(&sh, size))
			return 1;
		if (!count[k]++)
			first[k] = i;
		total[k] += sh.sh_size;
	}
	if (count[0] < 2 && count[1] < 2)
		return 0;

	/* The image, then each joined section, then the new section headers. */
	uint64_t joined_at[2], end = size, shoff;

	for (size_t k = 0; k < 2; k++) {
		joined_at[k] = end;
		if (count[k] >= 2)
			end += total[k];
	}
	shoff = (end + 7) & ~(uint64_t)7;
	if (shoff + (uint64_t)shnum * shentsize > SIZE_MAX / 2)
		return 1;
	*out_size = (size_t)(shoff + (uint64_t)shnum * shentsize);
	unsigned char *buf = calloc(1, *out_size);

	if (!buf)
		return 1;
	memcpy(buf, image, size);
	memcpy(buf + shoff, image + eh.e_shoff, (size_t)shnum * shentsize);
	uint64_t fill[2] = { joined_at[0], joined_at[1] };

	for (size_t i = 1; i < shnum; i++) {
		GElf_Shdr sh;
		size_t k;

		if (!joinable_section(elf, shstrndx, i, &sh, &k))
			continue;

		if (count[k] < 2)
			continue;
		memcpy(buf + fill[k], image + sh.sh_offset, sh.sh_size);
		fill[k] += sh.sh_size;
		/*
		 * The first section now spans them all, out of its group
		 * (libdw skips an SHF_GROUP section); the others are no
		 * longer ones libdw (which reads the first of a name) or
		 * anything here looks at: SHT_NOBITS.
		 */
		unsigned char *rec = buf + shoff + i * shentsize;

		if (elf64) {
			Elf64_Shdr s;

			memcpy(&s, rec, sizeof(s));
			if (i == first[k]) {
				s.sh_offset = joined_at[k];
				s.sh_size = total[k];
				s.sh_flags &= ~(uint64_t)SHF_GROUP;
			} else {
				s.sh_type = SHT_NOBITS;
			}
			memcpy(rec, &s, sizeof(s));
		} else {
			Elf32_Shdr s;

			memcpy(&s, rec, sizeof(s));
			if (joined_at[k] + total[k] > UINT32_MAX) {
				free(buf);
				return 1;
			}
			if (i == first[k]) {
				s.sh_offset = (Elf32_Off)joined_at[k];
				s.sh_size = (Elf32_Word)total[k];
				s.sh_flags &= ~(Elf32_Word)SHF_GROUP;
			} else {
				s.sh_type = SHT_NOBITS;
			}
			memcpy(rec, &s, sizeof(s));
		}
	}
	/* The header points at the new table. */
	if (elf64) {
		Elf64_Ehdr h;

		memcpy(&h, buf, sizeof(h));
		h.e_shoff = shoff;
		memcpy(buf, &h, sizeof(h));
	} else {
		Elf32_Ehdr h;

		if (shoff > UINT32_MAX) {
			free(buf);
			return 1;
		}
		memcpy(&h, buf, sizeof(h));
		h.e_shoff = (Elf32_Off)shoff;
		memcpy(buf, &h, sizeof(h));
	}
	*out = buf;
	return 0;
}
