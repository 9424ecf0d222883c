// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF + DWARF -> layout model.
 *
 * Which inputs take which path to a Dwarf handle:
 *  - ET_EXEC / ET_DYN with .debug_info in the file: dwarf_begin_elf on the
 *    file itself (no relocations to apply, cheapest). When that section is
 *    stored uncompressed, on a sparse image of the file (sparse_image.h):
 *    the raw scan (finder.c, raw/scan.c) pread()s the units and libdw
 *    later sees only the units chosen definitions live in;
 *  - ET_REL (objects, kernel modules) with .debug_info in the file, on
 *    x86-64, arm64, mipsel and mips64el: the .rel(a).debug_* relocations applied here
 *    (elf_reloc.h; without them every string offset in a .o is wrong) to
 *    a private image of the file, then read as an executable's;
 *  - other ET_REL: libdwfl's offline reporting, which applies them;
 *  - no .debug_info (stripped): libdwfl's standard debuginfo search, which
 *    follows the build-id (/usr/lib/debug/.build-id/) and .gnu_debuglink
 *    as gdb does.
 * zlib-compressed sections (SHF_COMPRESSED and .zdebug) are decompressed by
 * libdw; zstd ones need elfutils 0.189, so they are refused up front.
 *
 * Types may also live outside that .debug_info (see struct dwarf_part):
 * in .debug_types, in a dwz supplementary file, in split DWARF .dwo files.
 */
#include "input/dwarf/readerP.h"
#include "input/elf/elf_section.h"

#define ELFCOMPRESS_ZSTD 2

static char *debuginfo_path = NULL;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static char *hex_build_id(Elf *elf)
{
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);

	if (len <= 0)
		return NULL;
	struct strbuf hex = STRBUF_INIT;

	sb_add_hex(&hex, id, (size_t)len);
	return sb_detach(&hex);
}

/* Which DWARF sections a file holds, for choosing how to read it. */
struct sections_seen {
	bool debug_info;	/* .debug_info with bytes in the file */
	bool dwo_info;		/* .debug_info.dwo: a split DWARF .dwo or a .dwp */
	bool dwp_index;		/* .debug_cu_index or .debug_tu_index: a .dwp package */
};

/* Refuse zstd before libdw turns it into a vague "no DWARF". */
static int scan_sections(struct ll_dwarf_input *in, uint64_t file_size, struct sections_seen *seen,
			 struct ll_error *err)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;

	memset(seen, 0, sizeof(*seen));
	/*
	 * libelf reads a section table past the end of the file as no
	 * sections at all, which would come out as "no DWARF": say what it is.
	 */
	if (gelf_getehdr(in->elf, &ehdr) && ehdr.e_shoff &&
	    (ehdr.e_shoff > file_size ||
	     (uint64_t)(ehdr.e_shnum ? ehdr.e_shnum : 1) * ehdr.e_shentsize >
	     file_size - ehdr.e_shoff))
		return ll_fail(err, "%s: truncated or malformed ELF: the section header table at "
			       "offset 0x%llx runs past the end of the file (%llu bytes)", in->path,
			       (unsigned long long)ehdr.e_shoff, (unsigned long long)file_size);
	if (elf_getshdrstrndx(in->elf, &shstrndx) != 0)
		return ll_fail(err, "%s: malformed ELF section header table: %s",
			       in->path, elf_errmsg(-1));
	while ((scn = elf_nextscn(in->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			return ll_fail(err, "%s: malformed ELF section header: %s",
				       in->path, elf_errmsg(-1));
		name = elf_strptr(in->elf, shstrndx, shdr.sh_name);
		if (!name)
			continue;
		if (shdr.sh_type != SHT_NOBITS &&
		    (shdr.sh_offset > file_size || shdr.sh_size > file_size - shdr.sh_offset))
			return ll_fail(err, "%s: truncated or malformed ELF: section %s at offset "
				       "0x%llx (0x%llx bytes) runs past the end of the file (%llu bytes)",
				       in->path, name, (unsigned long long)shdr.sh_offset,
				       (unsigned long long)shdr.sh_size, (unsigned long long)file_size);
		if (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0)
			seen->debug_info = shdr.sh_type != SHT_NOBITS;
		if (strcmp(name, ".debug_info.dwo") == 0)
			seen->dwo_info = shdr.sh_type != SHT_NOBITS;
		if (strcmp(name, ".debug_cu_index") == 0 || strcmp(name, ".debug_tu_index") == 0)
			seen->dwp_index = true;
		if ((shdr.sh_flags & SHF_COMPRESSED) && strncmp(name, ".debug_", 7) == 0) {
			GElf_Chdr chdr;

			if (gelf_getchdr(scn, &chdr) && chdr.ch_type == ELFCOMPRESS_ZSTD)
				return ll_fail(err,
					       "%s: section %s is zstd-compressed; this layoutlint is built "
					       "with elfutils %s, which reads zstd only from 0.189 on "
					       "(decompress with 'objcopy --decompress-debug-sections')",
					       in->path, name, LIBDW_BUILD_VERSION);
		}
	}
	return 0;
}

static void find_line_sections(struct ll_dwarf_input *in, Elf *elf);

/*
 * libdw decompresses debug sections when it opens them and, when zlib
 * fails, carries on as if the section were absent: a damaged -gz
 * .debug_info would read as "struct not found". A section still marked
 * compressed afterwards is one it could not decompress.
 */
static int check_decompressed(struct ll_dwarf_input *in, Elf *elf, struct ll_error *err)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!name || strncmp(name, ".debug_", 7) != 0)
			continue;
		if (elf_compress(scn, 0, 0) < 0)
			return ll_fail(err, "%s: section %s at offset 0x%llx: cannot decompress: %s",
				       in->path, name, (unsigned long long)shdr.sh_offset,
				       elf_errmsg(-1));
	}
	return 0;
}

static int open_with_dwfl(struct ll_dwarf_input *in, struct ll_error *err)
{
	Dwarf_Addr bias;
	Dwfl_Module *mod;

	in->dwfl = dwfl_begin(&offline_callbacks);
	if (!in->dwfl)
		return ll_fail(err, "%s: cannot start libdwfl: %s", in->path, dwfl_errmsg(-1));
	mod = dwfl_report_offline(in->dwfl, in->path, in->path, -1);
	if (!mod)
		return ll_fail(err, "%s: cannot read ELF: %s", in->path, dwfl_errmsg(-1));
	dwfl_report_end(in->dwfl, NULL, NULL);
	in->dwarf = dwfl_module_getdwarf(mod, &bias);
	if (!in->dwarf)
		return ll_fail(err, "%s: no DWARF debug info found (in the file, by build-id or by "
			       ".gnu_debuglink): build with -g / CONFIG_DEBUG_INFO=y", in->path);
	const char *debugfile = NULL;

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (debugfile)
		in->debug_path = xstrdup(debugfile);
	if (check_decompressed(in, dwarf_getelf(in->dwarf), err))
		return -1;
	/* libdwfl applied the relocations to these section buffers. */
	find_line_sections(in, dwarf_getelf(in->dwarf));
	return 0;
}

/* After libdw opened ELF, which decompressed what needed it in place. */
void reader_line_sections(Elf *elf, struct ll_line_sections *lines)
{
	memset(lines, 0, sizeof(*lines));
	if (!elf)
		return;
	if (!ll_elf_section_bytes(elf, ".debug_line", NULL, &lines->line, &lines->line_size))
		lines->line = NULL;
	if (!ll_elf_section_bytes(elf, ".debug_line_str", NULL, &lines->line_str,
				  &lines->line_str_size))
		lines->line_str = NULL;
	if (!ll_elf_section_bytes(elf, ".debug_str", NULL, &lines->str, &lines->str_size))
		lines->str = NULL;
}

static void find_line_sections(struct ll_dwarf_input *in, Elf *elf)
{
	reader_line_sections(elf, &in->lines);
}

/*
 * Whether ELF's section NAME is stored plainly within the FILE_SIZE bytes
 * of the file; its header in *SHDR.
 */
static bool plain_section(Elf *elf, const char *name, size_t file_size, GElf_Shdr *shdr)
{
	return ll_elf_section(elf, name, NULL, shdr) &&
	       ll_elf_progbits(shdr->sh_type) && !(shdr->sh_flags & SHF_COMPRESSED) &&
	       shdr->sh_offset <= file_size && shdr->sh_size <= file_size - shdr->sh_offset;
}

/* The ELF file in memory at IMAGE, SIZE bytes; NULL if it is not one. */
static Elf *elf_in_memory(void *image, size_t size)
{
	Elf *elf = elf_memory(image, size);

	if (elf && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		elf = NULL;
	}
	return elf;
}

/*
 * Reopen the ELF on a sparse image (sparse_image.h) when its .debug_info
 * is stored plainly in the file: the raw scan reads the section with
 * pread, and libdw then sees only the units a lookup materialises.
 * Anything else keeps the plain mapping.
 */
static int open_sparse(struct ll_dwarf_input *in, size_t file_size, struct ll_error *err)
{
	GElf_Shdr shdr;
	Elf *image_elf;

	if (!plain_section(in->elf, ".debug_info", file_size, &shdr))
		return 0;
	if (ll_sparse_open(in->fd, in->path, file_size, shdr.sh_offset, shdr.sh_size, &in->image,
			   err))
		return -1;
	image_elf = elf_in_memory(ll_sparse_base(in->image), file_size);
	if (!image_elf) {
		ll_sparse_close(in->image);
		in->image = NULL;
		return 0;
	}
	elf_end(in->elf);
	in->elf = image_elf;
	return 0;
}

/*
 * LAYOUTLINT_RELOC=libdwfl leaves every ET_REL to libdwfl: the tests
 * compare the two, and it is the way out should ours ever be wrong.
 * LAYOUTLINT_RELOC=own refuses the fallback instead, so that the tests
 * know which of the two answered.
 */
enum relocation_mode { RELOC_OWN_ELSE_LIBDWFL, RELOC_LIBDWFL, RELOC_OWN };

static enum relocation_mode relocation_mode(void)
{
	enum ll_reloc_mode m = ll_tuning()->reloc;	/* read by cli, util/tuning.h */

	return m == LL_RELOC_LIBDWFL ? RELOC_LIBDWFL : m == LL_RELOC_OWN ? RELOC_OWN
									   : RELOC_OWN_ELSE_LIBDWFL;
}

/*
 * The file range a relocated image reads into anonymous memory: INFO's
 * (.debug_info) and, when they lie beside it with little else between
 * (at most an eighth more), the sections a lookup reads all over. Each
 * page of .debug_line the relocation writes (its file names' offsets)
 * was then a copy on write: ~70 of a cold xfs_mount lookup's 316 faults.
 * The scan and libdw read abbreviations and names there in huge pages.
 * `ld -r` (a kernel module), gcc and clang put the debug sections
 * together and their .rela sections after them; where something big
 * lies between (a .rela section beside its section, say), the range is
 * .debug_info alone.
 */
static void relocated_range(Elf *elf, const GElf_Shdr *info, size_t file_size, uint64_t *off,
			    uint64_t *size)
{
	static const char *const beside[] = { ".debug_abbrev", ".debug_line", ".debug_str",
					      ".debug_line_str" };
	uint64_t lo = info->sh_offset, hi = info->sh_offset + info->sh_size, wanted = info->sh_size;

	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		GElf_Shdr sh;

		if (!plain_section(elf, beside[i], file_size, &sh))
			continue;
		lo = sh.sh_offset < lo ? sh.sh_offset : lo;
		hi = sh.sh_offset + sh.sh_size > hi ? sh.sh_offset + sh.sh_size : hi;
		wanted += sh.sh_size;
	}
	if (hi - lo <= wanted + wanted / 8) {
		*off = lo;
		*size = hi - lo;
	} else {
		*off = info->sh_offset;
		*size = info->sh_size;
	}
}

/*
 * An ET_REL whose .debug_info is in the file, plainly: its debug sections
 * relocated here (elf_reloc.h) into a private image of the file, whose
 * .debug_info (relocated_range()) is read whole into anonymous memory
 * (the relocations write most of their records there, and no page of it
 * is copied on write). 1: not this way, libdwfl's instead.
 */
static int try_relocated(struct ll_dwarf_input *in, size_t file_size, struct ll_error *err)
{
	GElf_Shdr shdr;
	struct ll_sparse_image *img;
	Elf *image_elf;
	uint64_t off, size;

	if (!plain_section(in->elf, ".debug_info", file_size, &shdr))
		return 1;
	relocated_range(in->elf, &shdr, file_size, &off, &size);
	if (ll_sparse_open(in->fd, in->path, file_size, off, size, &img, err))
		return -1;
	if (ll_sparse_read_hole(img, err)) {
		ll_sparse_close(img);
		return -1;
	}
	if (ll_elf_relocate_debug(in->elf, in->fd, ll_sparse_base(img), file_size) ||
	    ll_elf_join_comdat_debug(in->elf, ll_sparse_base(img), file_size, &in->joined,
				     &in->joined_size))
		goto libdwfl;
	/* gcc -fdebug-types-section: the COMDAT copies joined, in an image of their own. */
	image_elf = in->joined ? elf_in_memory(in->joined, in->joined_size) :
				 elf_in_memory(ll_sparse_base(img), file_size);
	if (!image_elf)
		goto libdwfl;
	elf_end(in->elf);
	in->elf = image_elf;
	in->relocated = img;
	return 0;
libdwfl:
	ll_sparse_close(img);
	free(in->joined);
	in->joined = NULL;
	return 1;
}

static int open_relocated(struct ll_dwarf_input *in, size_t file_size, struct ll_error *err)
{
	enum relocation_mode mode = relocation_mode();
	int rc = mode == RELOC_LIBDWFL ? 1 : try_relocated(in, file_size, err);

	if (rc > 0 && mode == RELOC_OWN)
		return ll_fail(err, "%s: LAYOUTLINT_RELOC=own: its debug sections are not ones "
			       "layoutlint relocates (little-endian: x86-64 or arm64 ELF64 RELA, "
			       "mipsel REL, mips64el RELA; .debug_info stored plainly)", in->path);
	return rc;
}

int ll_dwarf_input_open(const char *path, const struct ll_input_options *opts,
		 struct ll_dwarf_input **out, struct ll_error *err)
{
	struct ll_dwarf_input *in = xcalloc(1, sizeof(*in));
	GElf_Ehdr ehdr;
	struct sections_seen seen;
	struct stat st;

	in->path = xstrdup(path);
	in->decl_defs = xcalloc(1, sizeof(*in->decl_defs));
	in->fd = -1;
	in->alt.fd = -1;
	in->dwp_fd = -1;
	if (opts)
		in->opts = *opts;
	*out = in;
	if (in->opts.srcdir) {
		char *abs = realpath(in->opts.srcdir, NULL);

		if (!abs)
			return ll_fail(err, "--srcdir %s: %s", in->opts.srcdir, strerror(errno));
		in->srcdir = ll_normalize_path(abs);
		free(abs);
	}

	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	if (fstat(in->fd, &st) != 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return ll_fail(err, "%s: is a directory, expected an ELF binary", path);
	elf_version(EV_CURRENT);
	in->elf = elf_begin(in->fd, ELF_C_READ_MMAP, NULL);
	if (!in->elf || elf_kind(in->elf) != ELF_K_ELF)
		return ll_fail(err, "%s: not an ELF file%s", path,
			       st.st_size < 64 ? " (too short for an ELF header)" : "");
	if (!gelf_getehdr(in->elf, &ehdr))
		return ll_fail(err, "%s: malformed ELF header: %s", path, elf_errmsg(-1));
	in->arch_cacheline = ll_elf_arch_cacheline(ehdr.e_machine, ehdr.e_ident[EI_CLASS]);
	in->big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	in->target = ll_elf_target(&ehdr);
	in->build_id = hex_build_id(in->elf);
	if (scan_sections(in, (uint64_t)st.st_size, &seen, err))
		return -1;
	if (seen.dwp_index && !seen.debug_info)
		return reader_open_package(in, err);

	if (!seen.debug_info && seen.dwo_info) {
		/* A .dwo alone: its sections need no relocation, whatever e_type says. */
		ll_notes_addf(in->opts.notes, "%s: a split DWARF .dwo: declaring files live in the "
			      "binary's skeleton unit; give the binary to see them", path);
	} else if (ehdr.e_type == ET_REL || !seen.debug_info) {
		int rc = seen.debug_info && ehdr.e_type == ET_REL ?
			 open_relocated(in, (size_t)st.st_size, err) : 1;

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (open_with_dwfl(in, err))
				return -1;
			return reader_find_parts(in, err);
		}
	} else if (open_sparse(in, (size_t)st.st_size, err)) {
		return -1;
	}

	in->dwarf = dwarf_begin_elf(in->elf, DWARF_C_READ, NULL);
	if (!in->dwarf)
		return ll_fail(err, "%s: cannot read DWARF: %s", path, dwarf_errmsg(-1));
	in->own_dwarf = true;
	if (check_decompressed(in, in->elf, err))
		return -1;
	find_line_sections(in, in->elf);
	return reader_find_parts(in, err);
}

void reader_close(void *state)
{
	struct ll_dwarf_input *in = state;

	if (!in)
		return;
	reader_decl_defs_free(in->decl_defs);
	if (in->own_dwarf && in->dwarf)
		dwarf_end(in->dwarf);
	if (in->dwfl)
		dwfl_end(in->dwfl);
	if (in->elf)
		elf_end(in->elf);
	if (in->index_state == 1)
		ll_name_index_release(&in->index);
	ll_finder_seed_release(&in->seed);
	ll_sparse_close(in->image);
	ll_sparse_close(in->relocated);
	free(in->joined);
	if (in->fd >= 0)
		close(in->fd);
	for (size_t i = 0; i < in->nr_parts; i++) {
		free(in->parts[i].own_path);
		free(in->parts[i].skeleton_comp_dir);
		ll_finder_prescan_release(&in->parts[i].prescan);
		ll_scan_variables_free(in->parts[i].variables, in->parts[i].nr_variables);
	}
	free(in->parts);
	ll_dwp_release(&in->dwp);
	ll_elf_close(in->dwp_elf, in->dwp_fd);
	/* The main Dwarf referred to the supplementary one: ended first, above. */
	ll_alt_close(&in->alt);
	ll_free_all(in->debug_path, in->build_root, in->build_id, in->srcdir, in->path, in);
}

const char *reader_build_id(const void *state)
{
	const struct ll_dwarf_input *in = state;

	return in->build_id;
}

unsigned reader_arch_cacheline(const void *state)
{
	const struct ll_dwarf_input *in = state;

	return in->arch_cacheline;
}
