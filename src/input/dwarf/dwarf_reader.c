// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF + DWARF -> layout model.
 *
 * Which inputs take which path to a Dwarf handle:
 *  - ET_EXEC / ET_DYN with .debug_info in the file: dwarf_begin_elf on the
 *    file itself (no relocations to apply, cheapest). When that section is
 *    stored uncompressed, on a sparse image of the file (sparse_image.h):
 *    the raw scan (finder.c, dwarf_scan.c) pread()s the units and libdw
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
#include "input/reader_impl.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "config.h"
#include "input/access/access.h"
#include "input/access/access_cache.h"
#include "input/dwarf/altlink.h"
#include "input/dwarf/byte_cursor.h"
#include "input/dwarf/ctype_name.h"
#include "input/dwarf/dwp.h"
#include "input/elf/elf_reloc.h"
#include "input/elf/elf_section.h"
#include "input/dwarf/finder.h"
#include "input/dwarf/line_table.h"
#include "input/dwarf/scopes.h"
#include "util/edit_distance.h"
#include "util/pathglob.h"
#include "input/dwarf/sparse_image.h"
#include "input/dwarf/variables.h"
#include "model/builder.h"
#include "util/hash.h"
#include "util/read_file.h"
#include "util/strbuf.h"
#include "util/threads.h"

/* Bounds that keep hostile DWARF from costing unbounded work. */
#define MAX_NESTING 64
#define MAX_MEMBERS 1000000
/*
 * What all lookups of one input build together: a named struct's members
 * are built again in every struct that embeds it, so structs embedding
 * each other twice per level turn 5 KB of valid DWARF into millions of
 * members (4.7 GB for --list). One member per .debug_info byte (a member
 * DIE takes several), or MEMBERS_FLOOR for small inputs: a vmlinux's
 * --list builds under 0.1 per byte.
 */
#define MEMBERS_PER_INFO_BYTE 1
#define MEMBERS_FLOOR 100000

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/*
 * One body of DWARF a lookup searches, in this order: the file's
 * .debug_info; its .debug_types (DWARF 4 type units,
 * -fdebug-types-section); the dwz supplementary file its
 * .gnu_debugaltlink or .debug_sup names (partial units holding the types
 * dwz -m moved there, shared between binaries); the .dwo of each
 * skeleton unit (-gsplit-dwarf). A DIE offset means something only
 * together with its part.
 */
struct dwarf_part {
	struct ll_finder_source src;
	struct ll_line_sections lines;	/* raw line tables of its file; line NULL: libdw's */
	char *own_path;			/* src.path, when the part owns it */
	/*
	 * A split unit from a .dwp, which libdw does not link to its
	 * skeleton: the skeleton's line table and compilation directory.
	 */
	bool has_skeleton;
	uint64_t skeleton_stmt_list;
	char *skeleton_comp_dir;	/* owned; NULL: none */
	/* What the last listing read for the lookup after it (dwarf_list()). */
	struct ll_finder_prescan prescan;
	/*
	 * VARIABLES_KNOWN: a listing's scan read every unit, and these are all
	 * its top-level variables with a location, for dwarf_variables().
	 */
	bool variables_known;
	struct ll_scan_variable *variables;
	size_t nr_variables;
};

struct ll_dwarf_input {
	char *path;
	int fd;
	Elf *elf;
	Dwfl *dwfl;		/* offline session, when libdwfl found the DWARF */
	Dwarf *dwarf;		/* owned by dwfl when dwfl is set */
	bool own_dwarf;
	char *build_id;
	unsigned arch_cacheline;
	bool big_endian;	/* EI_DATA: which end DW_AT_bit_offset counts from */
	struct ll_target target;	/* whose ABI aligns base types */
	struct ll_sparse_image *image;	/* what elf reads, when .debug_info is read sparsely */
	/* What elf reads for an ET_REL relocated here: every byte real. */
	struct ll_sparse_image *relocated;
	/* Definitions by qualified name, for types only declared where used (struct decl_defs). */
	struct decl_defs *decl_defs;
	/* That image with its COMDAT .debug_info/.debug_types joined (elf_reloc.h), or NULL. */
	unsigned char *joined;
	size_t joined_size;
	struct ll_line_sections lines;	/* raw line tables, when held plainly in memory */
	char *srcdir;			/* --srcdir, absolute and normalised */
	struct ll_input_options opts;
	size_t member_budget;		/* 0 until the first lookup sets it */
	size_t members_built;
	/* What one lookup's serial builds keep between structs; NULL between lookups. */
	struct build_memo *build_memo;
	/* The name index (name_index.h): loaded on first use. */
	struct ll_name_index index;
	int index_state;		/* 0: not tried yet; 1: loaded; -1: none */
	/*
	 * An entity the index named was not what it said (a forged or stale
	 * record its checksums cannot see): the lookup is done again without
	 * the index, with one note. Set from the build threads.
	 */
	atomic_bool index_forged;
	/* What a listing leaves for the index the lookup after it writes. */
	struct ll_finder_seed seed;
	char *debug_path;		/* the file libdwfl found the DWARF in, if another */
	struct ll_alt_file alt;		/* fd -1: none */
	char *build_root;		/* the first compile unit's comp_dir, when dwz'd */
	struct dwarf_part *parts;	/* [0]: the file's .debug_info */
	size_t nr_parts;
	/* The DWARF package: BINARY itself, or BINARY.dwp beside it. */
	struct ll_dwp dwp;
	int dwp_fd;
	Elf *dwp_elf;
	bool dwp_tried;
};

struct decl_defs {
	bool tried;
	Elf *elf;		/* owned, with DWARF, when a handle of its own */
	Dwarf *dwarf;
	struct decl_def {
		char *name;
		int tag;
		uint64_t size;
		Dwarf_Off die;
		bool ambiguous;	/* another definition of the name has another size */
	} *v;
	size_t n;
};

static void decl_defs_free(struct decl_defs *d);

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
	char *hex = xmalloc((size_t)len * 2 + 1);

	for (ssize_t i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", ((const unsigned char *)id)[i]);
	return hex;
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
static void line_sections(Elf *elf, struct ll_line_sections *lines)
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
	line_sections(elf, &in->lines);
}

/* ---- where else the types are: struct dwarf_part ------------------------ */

static const char *cu_comp_dir(Dwarf_Die *cu);

static struct dwarf_part *add_part(struct ll_dwarf_input *in, Dwarf *dwarf, const char *path)
{
	struct dwarf_part *p;

	in->parts = xgrow(in->parts, in->nr_parts, sizeof(*in->parts));
	p = &in->parts[in->nr_parts++];
	memset(p, 0, sizeof(*p));
	p->src = (struct ll_finder_source){ .dwarf = dwarf, .path = path, .fd = -1, .str_fd = -1 };
	line_sections(dwarf_getelf(dwarf), &p->lines);
	return p;
}

/* Whether ELF has relocation sections (an object: the raw scan cannot read it). */
static bool has_relocations(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &shdr) && (shdr.sh_type == SHT_RELA || shdr.sh_type == SHT_REL))
			return true;
	return false;
}

/* Whether the ULEB128 at P (before END) reads VALUE. */
static bool uleb_at_is(const unsigned char *p, const unsigned char *end, uint64_t value)
{
	struct ll_cursor c = { p, end, false };
	uint64_t v = ll_uleb(&c);

	return !c.bad && v == value;
}

/* The first byte of DW_AT_GNU_dwo_name's ULEB128 (0x2130: 0xb0 0x42). */
#define DWO_NAME_BYTE ((DW_AT_GNU_dwo_name & 0x7f) | 0x80)

/*
 * Whether the candidate byte P, in bytes [W0, WEND) of .debug_abbrev,
 * begins DW_AT_GNU_dwo_name, or DW_TAG_skeleton_unit as a tag: right
 * after a nonzero abbreviation code (its last byte below 0x80, the ones
 * before it 0x80 and up), which itself follows the start of the section
 * or a ULEB128 zero (ending in 0x00: the end of the entry or the table
 * before). Every real tag passes; without the nonzero code, every
 * abbreviation code 0x4a passed, the zero before it read as a code.
 * STARTS, ENDS: W0 and WEND are the section's own start and end. When
 * they are not (a window of it read from the file), bytes needed past
 * them make the answer true (look closer): a tag's ULEB128 and the code
 * before it fit the windows' margins unless padded absurdly.
 */
static bool may_be_skeleton(const unsigned char *w0, const unsigned char *p,
			    const unsigned char *wend, bool starts, bool ends)
{
	struct ll_cursor c = { p, wend, false };
	uint64_t v = ll_uleb(&c);

	if (c.bad)
		return !ends;
	if (*p == DWO_NAME_BYTE)
		return v == DW_AT_GNU_dwo_name;
	if (v != DW_TAG_skeleton_unit)
		return false;
	if (p == w0)
		return !starts;
	if (p[-1] >= 0x80)
		return false;
	p--;
	while (p > w0 && p[-1] >= 0x80)
		p--;
	if (p == w0 && !starts)
		return true;
	return !uleb_at_is(p, wend, 0) && (p == w0 || p[-1] == 0);
}

/*
 * The first byte from P (before END) that may begin the ULEB128 of
 * DW_TAG_skeleton_unit as a tag (0x4a, or 0xca when padded), or that of
 * DW_AT_GNU_dwo_name (0xb0); END when none. Sixteen bytes at a time: the
 * three compares of one pass cost less than a memchr() pass for each.
 */
static const unsigned char *skeleton_candidate(const unsigned char *p, const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i tag = _mm_set1_epi8((char)DW_TAG_skeleton_unit);
	const __m128i padded = _mm_set1_epi8((char)(DW_TAG_skeleton_unit | 0x80));
	const __m128i attr = _mm_set1_epi8((char)DWO_NAME_BYTE);

	for (; end - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i any = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, tag),
							_mm_cmpeq_epi8(v, padded)),
					   _mm_cmpeq_epi8(v, attr));
		unsigned mask = (unsigned)_mm_movemask_epi8(any);

		if (mask)
			return p + __builtin_ctz(mask);
	}
#endif
	for (; p < end; p++)
		if (*p == DW_TAG_skeleton_unit || *p == (DW_TAG_skeleton_unit | 0x80) ||
		    *p == DWO_NAME_BYTE)
			return p;
	return end;
}

/*
 * Whether the candidates in [FROM, TO) of bytes [W0, WEND) (see
 * may_be_skeleton()) all surely begin no skeleton unit.
 */
static bool no_skeleton_in(const unsigned char *w0, const unsigned char *from,
			   const unsigned char *to, const unsigned char *wend, bool starts, bool ends)
{
	for (const unsigned char *p = from; (p = skeleton_candidate(p, to)) < to; p++)
		if (may_be_skeleton(w0, p, wend, starts, ends))
			return false;
	return true;
}

/* Bytes of context on each side of a window of .debug_abbrev. */
#define ABBREV_MARGIN 32
#define ABBREV_CHUNK ((size_t)64 << 10)

enum skeleton_verdict { SURELY_NONE, MAYBE_SKELETON, UNREAD };

/*
 * Whether the SIZE bytes of .debug_abbrev at file offset OFF of FD surely
 * define no skeleton unit, read in 64 KiB windows into one buffer: the
 * first touch of each page of its mapping cost ~3.4 us here, and the
 * search over the 6 MB of the 6.12 image took ~10 ms of a cold run's
 * serial start that way. Parsing it whole was a quarter of a cold
 * lookup's main thread. UNREAD when a read fails.
 */
static enum skeleton_verdict skeleton_in_file(int fd, uint64_t off, size_t size)
{
	unsigned char *buf = xmalloc(ABBREV_CHUNK + 2 * ABBREV_MARGIN);
	enum skeleton_verdict v = SURELY_NONE;

	for (size_t at = 0; at < size && v == SURELY_NONE; at += ABBREV_CHUNK) {
		size_t lo = at < ABBREV_MARGIN ? at : ABBREV_MARGIN;
		size_t n = size - at < ABBREV_CHUNK ? size - at : ABBREV_CHUNK;
		size_t hi = size - at - n < ABBREV_MARGIN ? size - at - n : ABBREV_MARGIN;
		size_t len = lo + n + hi;

		if (ll_pread_all(fd, buf, len, off + at - lo) != len)
			v = UNREAD;
		else if (!no_skeleton_in(buf, buf + lo, buf + lo + n, buf + len, at == 0,
					 at + n + hi == size))
			v = MAYBE_SKELETON;
	}
	free(buf);
	return v;
}

/*
 * Whether .debug_abbrev defines a skeleton unit: DW_TAG_skeleton_unit
 * (DWARF 5) or a compile unit with DW_AT_GNU_dwo_name (gcc's DWARF 4
 * split DWARF). Asked before libdw walks every unit header for split
 * units, which a sparse image would have to read whole. The byte search
 * rules most images out; only then is the section parsed.
 */
static bool abbrev_has_skeleton(Elf *elf, int fd)
{
	const unsigned char *d;
	size_t size;
	GElf_Shdr shdr;
	enum skeleton_verdict v = UNREAD;

	if (!elf)
		return false;
	/* FD holds the section as it is (not compressed, nothing relocates it): read it there. */
	if (fd >= 0 && ll_elf_section(elf, ".debug_abbrev", NULL, &shdr) &&
	    ll_elf_progbits(shdr.sh_type) && !(shdr.sh_flags & SHF_COMPRESSED) &&
	    !ll_elf_section_relocated(elf, ".debug_abbrev"))
		v = skeleton_in_file(fd, shdr.sh_offset, (size_t)shdr.sh_size);
	if (v == SURELY_NONE ||
	    !ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &d, &size) ||
	    (v == UNREAD && no_skeleton_in(d, d, d + size, d + size, true, true)))
		return false;
	struct ll_cursor c = { d, d + size, false };

	while (c.p < c.end && !c.bad) {
		uint64_t code = ll_uleb(&c), tag, at, form;

		if (code == 0)
			continue;	/* the end of one unit's table */
		tag = ll_uleb(&c);
		ll_fixed(&c, 1);
		if (tag == DW_TAG_skeleton_unit)
			return true;
		do {
			at = ll_uleb(&c);
			form = ll_uleb(&c);
			if (form == DW_FORM_implicit_const)
				ll_sleb(&c);
			if (tag == DW_TAG_compile_unit && at == DW_AT_GNU_dwo_name)
				return true;
		} while ((at || form) && !c.bad);
	}
	return false;
}

/* The .dwo a skeleton unit names, as comp_dir/dwo_name, for messages. */
static char *dwo_path(Dwarf_Die *skeleton)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr(skeleton, DW_AT_dwo_name, &attr));
	const char *dir = dwarf_formstring(dwarf_attr(skeleton, DW_AT_comp_dir, &attr));
	struct strbuf sb = STRBUF_INIT;

	if (!name)
		name = dwarf_formstring(dwarf_attr(skeleton, DW_AT_GNU_dwo_name, &attr));
	if (dir && name && name[0] != '/')
		sb_addf(&sb, "%s/", dir);
	sb_adds(&sb, name ? name : "<unnamed .dwo>");
	return sb_detach(&sb);
}

/*
 * BINARY.dwp, the package gdb looks for beside a binary, loaded once;
 * NULL when there is none. A malformed one is an error.
 */
static int package_beside(struct ll_dwarf_input *in, const struct ll_dwp **dwp,
			  struct ll_error *err)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	*dwp = NULL;
	if (!in->dwp_tried) {
		in->dwp_tried = true;
		sb_addf(&path, "%s.dwp", in->path);
		in->dwp_fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (in->dwp_fd >= 0 && fstat(in->dwp_fd, &st) == 0 && S_ISREG(st.st_mode))
			in->dwp_elf = elf_begin(in->dwp_fd, ELF_C_READ_MMAP, NULL);
		if (in->dwp_elf && elf_kind(in->dwp_elf) == ELF_K_ELF &&
		    ll_dwp_load(in->dwp_elf, path.buf, &in->dwp, err)) {
			sb_release(&path);
			return -1;
		}
		sb_release(&path);
	}
	if (in->dwp.n)
		*dwp = &in->dwp;
	return 0;
}

/* A part for the unit of the package DWP that SKELETON names, if there is one. */
static bool add_packed_unit(struct ll_dwarf_input *in, const struct ll_dwp *dwp, Dwarf_CU *cu,
			    Dwarf_Die *skeleton)
{
	uint64_t dwo_id = 0;
	Dwarf *dwarf;
	Dwarf_Attribute attr;
	Dwarf_Word stmt_list;
	const char *comp_dir = cu_comp_dir(skeleton);
	struct dwarf_part *p;

	if (!dwp || dwarf_cu_info(cu, NULL, NULL, NULL, NULL, &dwo_id, NULL, NULL) != 0 ||
	    !(dwarf = ll_dwp_find(dwp, dwo_id)))
		return false;
	p = add_part(in, dwarf, in->path);
	if (dwarf_attr(skeleton, DW_AT_stmt_list, &attr) && dwarf_formudata(&attr, &stmt_list) == 0) {
		p->has_skeleton = true;
		p->skeleton_stmt_list = stmt_list;
		p->skeleton_comp_dir = comp_dir ? xstrdup(comp_dir) : NULL;
	}
	return true;
}

/*
 * A part for the .dwo of each skeleton unit, which libdw opens by
 * DW_AT_dwo_name and DW_AT_comp_dir, or for its unit in BINARY.dwp. One
 * found in neither is an error: its types would vanish from the answer.
 */
static bool index_sound(const struct ll_dwarf_input *in);
static struct ll_name_index *dwarf_index(struct ll_dwarf_input *in);

static int find_split_units(struct ll_dwarf_input *in, struct ll_error *err)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie, subdie;
	int rc;

	/*
	 * A name index of this very file (build-id, size, mtime) was written
	 * by a run that found no skeleton unit: one is never written for
	 * split DWARF (index_sound()). It answers without reading all of
	 * .debug_abbrev, 14 of a warm lookup's 40 ms on the 6.12 vmlinux.
	 */
	if (index_sound(in) && dwarf_index(in))
		return 0;
	/* The file holds what DWARF's ELF does where the two are one (no libdwfl in between). */
	if (!abbrev_has_skeleton(dwarf_getelf(in->dwarf),
				 dwarf_getelf(in->dwarf) == in->elf ? in->fd : -1))
		return 0;
	if (in->image && ll_sparse_fill_all(in->image, err))
		return -1;
	while ((rc = dwarf_get_units(in->dwarf, cu, &cu, &version, &unit_type, &cudie, NULL)) == 0) {
		Dwarf *dwo;
		bool seen = false;

		if (unit_type != DW_UT_skeleton)
			continue;
		char *path = dwo_path(&cudie);
		struct stat st;

		/* libdw opens the name the input gives: refuse a FIFO or a device first. */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			rc = ll_fail(err, "%s: the skeleton unit at .debug_info offset 0x%llx names "
				     "%s as its .dwo, which is not a regular file", in->path,
				     (unsigned long long)dwarf_dieoffset(&cudie), path);
			free(path);
			return rc;
		}
		if (dwarf_cu_info(cu, NULL, NULL, NULL, &subdie, NULL, NULL, NULL) != 0 ||
		    !subdie.cu) {
			const struct ll_dwp *dwp;

			if (package_beside(in, &dwp, err)) {
				free(path);
				return -1;
			}
			if (add_packed_unit(in, dwp, cu, &cudie)) {
				free(path);
				continue;
			}
			rc = ll_fail(err, "%s: the skeleton unit at .debug_info offset 0x%llx "
				     "(-gsplit-dwarf) has its types in %s, which cannot be read, nor "
				     "are they in %s.dwp: keep the .dwo files where the build wrote "
				     "them, or package them beside the binary (dwp -e, llvm-dwp -e)",
				     in->path, (unsigned long long)dwarf_dieoffset(&cudie), path,
				     in->path);
			free(path);
			return rc;
		}
		dwo = dwarf_cu_getdwarf(subdie.cu);
		/*
		 * gcc -gsplit-dwarf -fdebug-types-section -gdwarf-4 moves the
		 * structs into type units of the .dwo, which are not read: say so,
		 * rather than "not found" for each of them.
		 */
		GElf_Shdr types_shdr;

		if (dwo && ll_elf_section(dwarf_getelf(dwo), ".debug_types.dwo", NULL, &types_shdr)) {
			rc = ll_fail(err, "%s: %s holds DWARF 4 type units (.debug_types.dwo: "
				     "-gsplit-dwarf with -fdebug-types-section), which layoutlint does "
				     "not read: build without -fdebug-types-section", in->path, path);
			free(path);
			return rc;
		}
		for (size_t i = 0; i < in->nr_parts && !seen; i++)
			seen = in->parts[i].src.dwarf == dwo;
		if (seen) {
			free(path);
			continue;
		}
		add_part(in, dwo, path)->own_path = path;
	}
	if (rc < 0)
		return ll_fail(err, "%s: malformed .debug_info unit header: %s", in->path,
			       dwarf_errmsg(-1));
	return 0;
}

/*
 * The partial units of a supplementary file have no DW_AT_comp_dir, and
 * their line table's directory 0 is "<dwz>": their files are shown
 * relative to the binary's build directory, the DW_AT_comp_dir of its
 * first compile unit (one for the whole build in a package). Reads the
 * sparse image whole: dwz'd files are distribution debug files, not the
 * multi-gigabyte kernel images the sparse reading is for.
 */
static int find_build_root(struct ll_dwarf_input *in, struct ll_error *err)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie;

	if (in->image && ll_sparse_fill_all(in->image, err))
		return -1;
	while (!in->build_root &&
	       dwarf_get_units(in->dwarf, cu, &cu, &version, &unit_type, &cudie, NULL) == 0) {
		const char *dir = unit_type == DW_UT_compile || unit_type == DW_UT_skeleton ?
				  cu_comp_dir(&cudie) : NULL;

		if (dir)
			in->build_root = xstrdup(dir);
	}
	return 0;
}

/*
 * A .dwp given as BINARY: a part for each unit. Their declaring files
 * are in the binary's skeleton units, which say nothing here.
 */
static int open_package(struct ll_dwarf_input *in, struct ll_error *err)
{
	if (ll_dwp_load(in->elf, in->path, &in->dwp, err))
		return -1;
	if (!in->dwp.n)
		return ll_fail(err, "%s: a DWARF package (.dwp) with no compilation unit", in->path);
	ll_notef("%s: a DWARF package (.dwp): declaring files live in the binary's skeleton "
		 "units; give the binary (with the package beside it) to see them", in->path);
	in->dwarf = in->dwp.units[0].dwarf;
	for (size_t i = 0; i < in->dwp.n; i++)
		add_part(in, in->dwp.units[i].dwarf, in->path);
	return 0;
}

/*
 * Whether a relocated image has its own copy of .debug_str for the scan
 * to read: relocated, or read into its anonymous memory with .debug_info
 * (relocated_range()). Otherwise the scan reads the file.
 */
static bool relocated_reads_str(const struct ll_dwarf_input *in, Elf *elf)
{
	GElf_Shdr sh;

	return ll_elf_section_relocated(elf, ".debug_str") ||
	       (ll_elf_section(elf, ".debug_str", NULL, &sh) &&
		ll_sparse_holds(in->relocated, sh.sh_offset, sh.sh_size));
}

/* The parts after the file's own .debug_info (struct dwarf_part). */
static int find_parts(struct ll_dwarf_input *in, struct ll_error *err)
{
	Elf *elf = dwarf_getelf(in->dwarf);
	const unsigned char *d;
	size_t size;
	struct dwarf_part *p;

	p = add_part(in, in->dwarf, in->path);
	p->src.image = in->image;
	/* The file holds a relocated image's .debug_info before relocation. */
	p->src.fd = in->relocated ? -1 : in->fd;
	if (in->own_dwarf && (!in->relocated || !relocated_reads_str(in, elf)))
		p->src.str_fd = in->fd;
	p->src.raw_ok = in->own_dwarf;
	p->lines = in->lines;
	if (elf && ll_elf_section_bytes(elf, ".debug_types", ".zdebug_types", &d, &size)) {
		p = add_part(in, in->dwarf, in->path);
		p->src.types = true;
		p->lines = in->lines;
	}
	/* libdwfl looks for the supplementary file itself; where it found none, so do we. */
	Dwarf *dwfl_alt = in->dwfl ? dwarf_getalt(in->dwarf) : NULL;

	if (dwfl_alt) {
		add_part(in, dwfl_alt, in->path);
	} else if (elf && ll_alt_open(elf, in->path, in->debug_path ? in->debug_path : in->path,
				      &in->alt, err)) {
		return -1;
	} else if (in->alt.dwarf) {
		dwarf_setalt(in->dwarf, in->alt.dwarf);
		p = add_part(in, in->alt.dwarf, in->alt.path);
		p->src.fd = in->alt.fd;
		p->src.raw_ok = !has_relocations(in->alt.elf);
		p->src.str_fd = p->src.raw_ok ? in->alt.fd : -1;
	}
	if ((dwfl_alt || in->alt.dwarf) && find_build_root(in, err))
		return -1;
	/* Split units are libdw's (0.188 reads .dwo files, not .dwp). */
	return find_split_units(in, err);
}

/*
 * Reopen the ELF on a sparse image (sparse_image.h) when its .debug_info
 * is stored plainly in the file: the raw scan reads the section with
 * pread, and libdw then sees only the units a lookup materialises.
 * Anything else keeps the plain mapping.
 */
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

static int open_sparse(struct ll_dwarf_input *in, size_t file_size, struct ll_error *err)
{
	GElf_Shdr shdr;
	Elf *image_elf;

	if (!plain_section(in->elf, ".debug_info", file_size, &shdr))
		return 0;
	if (ll_sparse_open(in->fd, in->path, file_size, shdr.sh_offset, shdr.sh_size, &in->image,
			   err))
		return -1;
	image_elf = elf_memory((char *)ll_sparse_base(in->image), file_size);
	if (!image_elf || elf_kind(image_elf) != ELF_K_ELF) {
		if (image_elf)
			elf_end(image_elf);
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
				     &in->joined_size)) {
		ll_sparse_close(img);
		free(in->joined);
		in->joined = NULL;
		return 1;
	}
	/* gcc -fdebug-types-section: the COMDAT copies joined, in an image of their own. */
	image_elf = in->joined ? elf_memory((char *)in->joined, in->joined_size) :
				 elf_memory((char *)ll_sparse_base(img), file_size);
	if (!image_elf || elf_kind(image_elf) != ELF_K_ELF) {
		if (image_elf)
			elf_end(image_elf);
		ll_sparse_close(img);
		free(in->joined);
		in->joined = NULL;
		return 1;
	}
	elf_end(in->elf);
	in->elf = image_elf;
	in->relocated = img;
	return 0;
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

static int ll_dwarf_input_open(const char *path, const struct ll_input_options *opts,
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
		return open_package(in, err);

	if (!seen.debug_info && seen.dwo_info) {
		/* A .dwo alone: its sections need no relocation, whatever e_type says. */
		ll_notef("%s: a split DWARF .dwo: declaring files live in the binary's skeleton "
			 "unit; give the binary to see them", path);
	} else if (ehdr.e_type == ET_REL || !seen.debug_info) {
		int rc = seen.debug_info && ehdr.e_type == ET_REL ?
			 open_relocated(in, (size_t)st.st_size, err) : 1;

		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (open_with_dwfl(in, err))
				return -1;
			return find_parts(in, err);
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
	return find_parts(in, err);
}

static void dwarf_close(void *state)
{
	struct ll_dwarf_input *in = state;

	if (!in)
		return;
	decl_defs_free(in->decl_defs);
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
	if (in->dwp_elf)
		elf_end(in->dwp_elf);
	if (in->dwp_fd >= 0)
		close(in->dwp_fd);
	/* The main Dwarf referred to the supplementary one: ended first, above. */
	ll_alt_close(&in->alt);
	free(in->debug_path);
	free(in->build_root);
	free(in->build_id);
	free(in->srcdir);
	free(in->path);
	free(in);
}

static const char *dwarf_build_id(const void *state)
{
	const struct ll_dwarf_input *in = state;

	return in->build_id;
}

static unsigned dwarf_arch_cacheline(const void *state)
{
	const struct ll_dwarf_input *in = state;

	return in->arch_cacheline;
}

/* ---- declaring files ---------------------------------------------------- */

/* Strip ROOT/ from an absolute NORM; returns NORM itself when outside ROOT. */
static char *relative_to(char *norm, const char *root)
{
	size_t rlen = strlen(root);

	if (norm[0] != '/' || !rlen || strncmp(norm, root, rlen) != 0 ||
	    (norm[rlen] != '/' && strcmp(root, "/") != 0))
		return norm;
	const char *rest = norm + rlen + (norm[rlen] == '/');
	char *rel = xstrdup(*rest ? rest : ".");

	free(norm);
	return rel;
}

/*
 * Declaring file as rules and diagnostics see it (rules.md, Paths):
 * normalised, --prefix-map applied, then relative to --srcdir, or by
 * default to the unit's compilation directory, when inside it.
 */
static char *mapped_path(const struct ll_dwarf_input *in, char *norm);

static char *display_path(const struct ll_dwarf_input *in, const char *raw, const char *comp_dir)
{
	char *norm = mapped_path(in, ll_normalize_path(raw));

	if (!norm)
		return NULL;
	if (in->srcdir)
		return relative_to(norm, in->srcdir);
	if (comp_dir && comp_dir[0] == '/') {
		char *root = ll_normalize_path(comp_dir);

		if (root)
			norm = relative_to(norm, root);
		free(root);
	}
	return norm;
}

/*
 * The file one definition was declared in, for telling definitions apart:
 * RAW resolved against its unit's COMP_DIR, normalised, then --prefix-map
 * applied. One header reached by two relative paths ("h.h" from lib/,
 * "../lib/h.h" from src/) is one file here, though each display path is
 * relative to its own unit's directory.
 */
static char *canonical_path(const struct ll_dwarf_input *in, const char *raw,
			    const char *comp_dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *norm, *root = comp_dir ? ll_normalize_path(comp_dir) : NULL;
	const char *base = strrchr(raw, '/');
	bool join = raw[0] != '/' && root;

	/* Not a path: gcc's "<built-in>" (__va_list_tag) is one file in every unit's dir. */
	if ((base ? base[1] : raw[0]) == '<') {
		free(root);
		return mapped_path(in, xstrdup(base ? base + 1 : raw));
	}

	/*
	 * A relative comp_dir (-fdebug-prefix-map=DIR=., as Debian builds
	 * glibc) is also DWARF 5's directory 0, which a path from it already
	 * starts with: "./libio/libioP.h" beside "../libio/libioP.h" from
	 * ./stdio-common.
	 */
	if (join && root[0] != '/') {
		char *r = ll_normalize_path(raw);
		size_t n = strlen(root);

		join = !r || !(strncmp(r, root, n) == 0 && (r[n] == '/' || r[n] == '\0'));
		free(r);
	}
	if (join) {
		sb_adds(&sb, root);
		sb_addc(&sb, '/');
	}
	sb_adds(&sb, raw);
	norm = mapped_path(in, ll_normalize_path(sb.buf));
	sb_release(&sb);
	free(root);
	return norm;
}

/* A signature's file hash: of RAW's canonical path (0: no declaring file). */
static uint64_t canonical_file_hash(const struct ll_dwarf_input *in, const char *raw,
				    const char *comp_dir)
{
	char *path = raw ? canonical_path(in, raw, comp_dir) : NULL;
	uint64_t h = path ? ll_fnv1a(LL_FNV_INIT, path, strlen(path)) : 0;

	free(path);
	return h;
}

/* NORM (normalised, owned) with the first --prefix-map that matches applied. */
static char *mapped_path(const struct ll_dwarf_input *in, char *norm)
{
	const struct ll_input_options *opts = &in->opts;

	if (!norm)
		return NULL;
	for (size_t i = 0; i < opts->nr_prefix_maps; i++) {
		const char *map = opts->prefix_maps[i];
		const char *eq = strchr(map, '=');
		size_t olen;

		if (!eq)
			continue;
		olen = (size_t)(eq - map);
		if (olen && strncmp(norm, map, olen) == 0 &&
		    (norm[olen] == '/' || norm[olen] == '\0' || map[olen - 1] == '/')) {
			struct strbuf sb = STRBUF_INIT;

			sb_adds(&sb, eq + 1);
			sb_adds(&sb, norm + olen);
			free(norm);
			norm = ll_normalize_path(sb.buf);
			sb_release(&sb);
			if (!norm)
				return NULL;
			break;
		}
	}
	return norm;
}

/* A split unit's comes from its skeleton, which libdw integrates. */
static const char *cu_comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(cu, DW_AT_comp_dir, &attr));
}

/*
 * The part DIE lies in: its Dwarf, and for a DWARF 4 type unit
 * .debug_types (a DWARF 5 one lives in .debug_info).
 */
static size_t part_of(const struct ll_dwarf_input *in, Dwarf_Die *die)
{
	Dwarf *dwarf = dwarf_cu_getdwarf(die->cu);
	Dwarf_Half version = 0;
	uint8_t unit_type = 0;
	bool types = dwarf_cu_info(die->cu, &version, &unit_type, NULL, NULL, NULL, NULL,
				   NULL) == 0 && version < 5 && unit_type == DW_UT_type;

	for (size_t i = 0; i < in->nr_parts; i++)
		if (in->parts[i].src.dwarf == dwarf && in->parts[i].src.types == types)
			return i;
	return 0;
}

static const struct ll_line_sections *die_lines(const struct ll_dwarf_input *in, Dwarf_Die *die)
{
	return in->nr_parts ? &in->parts[part_of(in, die)].lines : &in->lines;
}

/*
 * The attributes a build asks of one child of an aggregate, read in one
 * pass. libdw's dwarf_attr() walks the abbreviation's attribute list from
 * its start on every call, and each member was asked ~15 times, most of
 * them for attributes it lacks: 27% of the instructions of a warm
 * 20-struct lookup. The first of a repeated attribute is kept, as
 * dwarf_attr() answers. A DIE that inherits attributes (abstract origin,
 * specification) or that libdw cannot walk is asked the old way.
 */
enum {
	MA_NAME, MA_TYPE, MA_LOCATION, MA_DECL_FILE, MA_DECL_LINE, MA_DECL_COLUMN, MA_BIT_SIZE,
	MA_BYTE_SIZE, MA_DATA_BIT_OFFSET, MA_BIT_OFFSET, MA_ALIGNMENT, MA_DECLARATION,
	MA_EXTERNAL, MA_NR
};

struct member_attrs {
	Dwarf_Die *die;
	bool walked;		/* false: ask libdw for each (dwarf_attr_integrate) */
	unsigned have;		/* bit 1 << MA_x */
	Dwarf_Attribute a[MA_NR];
};

static int member_attr_slot(unsigned at)
{
	switch (at) {
	case DW_AT_name: return MA_NAME;
	case DW_AT_type: return MA_TYPE;
	case DW_AT_data_member_location: return MA_LOCATION;
	case DW_AT_decl_file: return MA_DECL_FILE;
	case DW_AT_decl_line: return MA_DECL_LINE;
	case DW_AT_decl_column: return MA_DECL_COLUMN;
	case DW_AT_bit_size: return MA_BIT_SIZE;
	case DW_AT_byte_size: return MA_BYTE_SIZE;
	case DW_AT_data_bit_offset: return MA_DATA_BIT_OFFSET;
	case DW_AT_bit_offset: return MA_BIT_OFFSET;
	case DW_AT_alignment: return MA_ALIGNMENT;
	case DW_AT_declaration: return MA_DECLARATION;
	case DW_AT_external: return MA_EXTERNAL;
	default: return -1;
	}
}

static int collect_member_attr(Dwarf_Attribute *attr, void *arg)
{
	struct member_attrs *ma = arg;
	unsigned at = dwarf_whatattr(attr);
	int slot = member_attr_slot(at);

	if (at == DW_AT_abstract_origin || at == DW_AT_specification) {
		ma->walked = false;
		return DWARF_CB_ABORT;
	}
	if (slot >= 0 && !(ma->have & (1u << slot))) {
		ma->have |= 1u << slot;
		ma->a[slot] = *attr;
	}
	return DWARF_CB_OK;
}

static void read_member_attrs(Dwarf_Die *die, struct member_attrs *ma)
{
	ma->die = die;
	ma->have = 0;
	ma->walked = true;
	if (dwarf_getattrs(die, collect_member_attr, ma, 0) != 1)
		ma->walked = false;
}

/* dwarf_attr() (INTEGRATE: dwarf_attr_integrate()) of the member, from MA. */
static Dwarf_Attribute *member_attr(struct member_attrs *ma, unsigned at, bool integrate,
				    Dwarf_Attribute *out)
{
	int slot = member_attr_slot(at);

	if (!ma->walked || slot < 0)
		return integrate ? dwarf_attr_integrate(ma->die, at, out) :
				   dwarf_attr(ma->die, at, out);
	if (!(ma->have & (1u << slot)))
		return NULL;
	*out = ma->a[slot];
	return out;
}

static bool member_udata(struct member_attrs *ma, unsigned at, Dwarf_Word *out)
{
	Dwarf_Attribute attr;

	return member_attr(ma, at, false, &attr) && dwarf_formudata(&attr, out) == 0;
}

static bool member_type(struct member_attrs *ma, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return member_attr(ma, DW_AT_type, true, &attr) && dwarf_formref_die(&attr, out) != NULL;
}

/* dwarf_decl_line() and dwarf_decl_column(), from MA. */
static int member_decl_int(struct member_attrs *ma, unsigned at, int *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!member_attr(ma, at, true, &attr) || dwarf_formudata(&attr, &v) != 0 || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* V, an array of OLD elements of ELEM bytes, grown to N (> OLD) with the new ones zeroed. */
static void *grow_zeroed(void *v, size_t old, size_t n, size_t elem)
{
	unsigned char *p = xrealloc(v, n * elem);

	memset(p + old * elem, 0, (n - old) * elem);
	return p;
}

/* Display paths of one unit's file entries, resolved once each. */
struct file_cache {
	uintptr_t cu;		/* the unit DIE's address: offsets repeat between parts */
	char **paths;		/* by DW_AT_decl_file index; NULL: not resolved yet */
	bool *resolved;
	size_t n;
	/*
	 * The unit's line table, loaded at its first file: a kernel unit's
	 * lists ~1,000 files, and reading it again for each file a struct's
	 * members name was most of a warm lookup of task_struct.
	 */
	struct ll_line_table table;
	const struct ll_line_sections *table_lines;
	bool table_tried, table_ok;
};

static void file_cache_reset(struct file_cache *fc)
{
	for (size_t i = 0; i < fc->n; i++)
		free(fc->paths[i]);
	free(fc->paths);
	free(fc->resolved);
	ll_line_table_release(&fc->table);
	memset(fc, 0, sizeof(*fc));
}

/* File INDEX of the line table at STMT_LIST in LINES, through FC's copy of the table when given. */
static bool table_file(const struct ll_line_sections *lines, uint64_t stmt_list, uint64_t index,
		       const char *comp_dir, struct file_cache *fc, struct strbuf *out)
{
	if (!fc)
		return ll_line_file(lines, stmt_list, index, comp_dir, out);
	if (!fc->table_tried || fc->table_lines != lines || fc->table.stmt_list != stmt_list) {
		ll_line_table_release(&fc->table);
		fc->table_ok = ll_line_table_load(lines, stmt_list, comp_dir, &fc->table);
		fc->table.stmt_list = stmt_list;
		fc->table_lines = lines;
		fc->table_tried = true;
	}
	return fc->table_ok && ll_line_table_path(&fc->table, index, out);
}

/*
 * The raw declaring file of DIE. The line table header is read directly
 * when possible: libdw 0.188 decodes the unit's whole line program for
 * dwarf_decl_file(), and treats DWARF 5's file 0 (clang's primary source
 * file) as no file at all.
 */
static bool raw_decl_file(const struct ll_dwarf_input *in, Dwarf_Die *die, Dwarf_Die *cu,
			  struct file_cache *fc, struct strbuf *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word stmt_list, index;
	const char *libdw_file;

	if (!dwarf_attr(die, DW_AT_decl_file, &attr) || dwarf_formudata(&attr, &index) != 0)
		return false;
	const struct ll_line_sections *lines = die_lines(in, die);
	const struct dwarf_part *part = in->nr_parts ? &in->parts[part_of(in, die)] : NULL;
	uint8_t unit_type = 0;
	bool split = dwarf_cu_info(cu->cu, NULL, &unit_type, NULL, NULL, NULL, NULL, NULL) == 0 &&
		     (unit_type == DW_UT_split_compile || unit_type == DW_UT_split_type);

	/*
	 * A split unit's file numbers are those of its skeleton's line table,
	 * in the binary (libdw integrates the skeleton's DW_AT_stmt_list);
	 * libdw 0.188's dwarf_decl_file() asserts on them.
	 */
	if (part && part->has_skeleton)
		return ll_line_file(&in->parts[0].lines, part->skeleton_stmt_list, index,
				    part->skeleton_comp_dir, out);
	if (split)
		lines = &in->parts[0].lines;
	if (lines->line && dwarf_attr_integrate(cu, DW_AT_stmt_list, &attr) &&
	    dwarf_formudata(&attr, &stmt_list) == 0 &&
	    table_file(lines, stmt_list, index, cu_comp_dir(cu), fc, out))
		return true;
	if (split)
		return false;
	libdw_file = dwarf_decl_file(die);
	if (!libdw_file)
		return false;
	sb_adds(out, libdw_file);
	return true;
}

/*
 * What a unit's paths are shown relative to: its DW_AT_comp_dir, or for a
 * dwz partial unit (which has none) its DWARF 5 line table's directory 0.
 */
static const char *unit_root(const struct ll_dwarf_input *in, Dwarf_Die *die, Dwarf_Die *cu)
{
	const char *comp_dir = cu_comp_dir(cu);
	const struct ll_line_sections *lines = die_lines(in, die);
	const struct dwarf_part *part = in->nr_parts ? &in->parts[part_of(in, die)] : NULL;
	Dwarf_Attribute attr;
	Dwarf_Word stmt_list;

	if (part && part->has_skeleton)
		return part->skeleton_comp_dir;
	if (comp_dir)
		return comp_dir;
	if (in->build_root)
		return in->build_root;
	if (!lines->line || !dwarf_attr(cu, DW_AT_stmt_list, &attr) ||
	    dwarf_formudata(&attr, &stmt_list) != 0)
		return NULL;
	return ll_line_dir0(lines, stmt_list, NULL);
}

/*
 * The DIE holding DIE's DW_AT_decl_file, into *HOLDER: DIE, or the one its
 * DW_AT_abstract_origin or DW_AT_specification chain leads to, followed as
 * dwarf_attr_integrate() follows it for the line and column (17 DIEs at
 * most). A variable defined after its extern declaration ("extern long x;"
 * then "long x = 1;") is, from gcc, a DIE with only DW_AT_specification,
 * its location and (when it differs) its line: the file is the
 * declaration's, an index into the declaration's unit's line table.
 * Without this, 4,557 of the 6.12 image's 32,112 declared variables had a
 * line and no file.
 */
static bool decl_holder(Dwarf_Die *die, Dwarf_Die *holder)
{
	*holder = *die;
	for (int chain = 0; chain <= 16; chain++) {
		Dwarf_Attribute attr;

		if (dwarf_hasattr(holder, DW_AT_decl_file))
			return true;
		if (!dwarf_attr(holder, DW_AT_abstract_origin, &attr) &&
		    !dwarf_attr(holder, DW_AT_specification, &attr))
			return false;
		if (!dwarf_formref_die(&attr, holder))
			return false;
	}
	return false;
}

/* DIE's declaring DIE (decl_holder()), its DW_AT_decl_file index and unit; false when none. */
static bool decl_index(Dwarf_Die *die, Dwarf_Die *holder, Dwarf_Word *index, Dwarf_Die *cu)
{
	Dwarf_Attribute attr;

	return decl_holder(die, holder) && dwarf_attr(holder, DW_AT_decl_file, &attr) &&
	       dwarf_formudata(&attr, index) == 0 && dwarf_diecu(holder, cu, NULL, NULL);
}

/*
 * The display path of DIE's declaring file in unit CU; with RAW and
 * COMP_DIR also what it was made of (copies, or NULL): the raw path and
 * the unit's root, which the name index keeps so that the options shaping
 * display paths apply on reading.
 */
static char *resolve_decl_file(const struct ll_dwarf_input *in, Dwarf_Die *die, Dwarf_Die *cu,
			       struct file_cache *fc, char **raw, char **comp_dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = NULL;

	if (raw_decl_file(in, die, cu, fc, &sb)) {
		const char *cd = unit_root(in, die, cu);

		path = display_path(in, sb.buf, cd);
		if (comp_dir)
			*comp_dir = cd ? xstrdup(cd) : NULL;
		if (raw)
			*raw = sb_detach(&sb);
	}
	sb_release(&sb);
	return path;
}

/* DIE's declaring file; MA: its attributes, read already (read_member_attrs()), or NULL. */
static char *decl_file(const struct ll_dwarf_input *in, Dwarf_Die *die, struct member_attrs *ma,
		       struct file_cache *fc)
{
	Dwarf_Die cu, holder;
	Dwarf_Word index;
	char *path;

	if (ma ? !(member_udata(ma, DW_AT_decl_file, &index) && dwarf_diecu(die, &cu, NULL, NULL)) :
		 !decl_index(die, &holder, &index, &cu))
		return NULL;
	if (!ma)
		die = &holder;
	if (fc && index < 65536) {
		if (fc->cu != (uintptr_t)cu.addr || !fc->paths) {
			file_cache_reset(fc);
			fc->cu = (uintptr_t)cu.addr;
		}
		if (index < fc->n && fc->resolved[index])
			return fc->paths[index] ? xstrdup(fc->paths[index]) : NULL;
	}
	path = resolve_decl_file(in, die, &cu, fc && index < 65536 ? fc : NULL, NULL, NULL);
	if (fc && index < 65536) {
		if (index >= fc->n) {
			size_t n = (size_t)index + 1;

			fc->paths = grow_zeroed(fc->paths, fc->n, n, sizeof(*fc->paths));
			fc->resolved = grow_zeroed(fc->resolved, fc->n, n, sizeof(*fc->resolved));
			fc->n = n;
		}
		fc->paths[index] = path ? xstrdup(path) : NULL;
		fc->resolved[index] = true;
	}
	return path;
}

/* decl_file() without a cache, also giving what it was made of (resolve_decl_file). */
static char *decl_file_raw(const struct ll_dwarf_input *in, Dwarf_Die *die, char **raw,
			   char **comp_dir)
{
	Dwarf_Die cu, holder;
	Dwarf_Word index;

	*raw = *comp_dir = NULL;
	if (!decl_index(die, &holder, &index, &cu))
		return NULL;
	return resolve_decl_file(in, &holder, &cu, NULL, raw, comp_dir);
}

/* DIE's declaring line and column into D (its file is another matter). */
static void die_decl_position(Dwarf_Die *die, struct ll_decl *d)
{
	int v;

	d->line = dwarf_decl_line(die, &v) == 0 && v > 0 ? (unsigned)v : 0;
	d->column = dwarf_decl_column(die, &v) == 0 && v > 0 ? (unsigned)v : 0;
}

static void die_decl(const struct ll_dwarf_input *in, Dwarf_Die *die, struct file_cache *fc,
		     struct ll_decl *d)
{
	d->file = decl_file(in, die, NULL, fc);
	die_decl_position(die, d);
}

/* die_decl() of a member whose attributes MA holds. */
static void member_decl(const struct ll_dwarf_input *in, struct member_attrs *ma,
			struct file_cache *fc, struct ll_decl *d)
{
	int v;

	d->file = decl_file(in, ma->die, ma, fc);
	d->line = member_decl_int(ma, DW_AT_decl_line, &v) == 0 && v > 0 ? (unsigned)v : 0;
	d->column = member_decl_int(ma, DW_AT_decl_column, &v) == 0 && v > 0 ? (unsigned)v : 0;
}

/* ---- types ------------------------------------------------------------- */

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	       dwarf_formref_die(&attr, out) != NULL;
}

static bool die_udata(Dwarf_Die *die, unsigned at, Dwarf_Word *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, at, &attr) && dwarf_formudata(&attr, out) == 0;
}

static bool is_aggregate_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/*
 * A child that takes room in its aggregate: a data member or (C++) a base
 * class; not a static data member (ll_static_member()), which DWARF 4
 * writes as a member too.
 */
static bool is_data_member(struct member_attrs *ma)
{
	int tag = dwarf_tag(ma->die);
	Dwarf_Attribute attr;

	return (tag == DW_TAG_member && !member_attr(ma, DW_AT_declaration, false, &attr) &&
		!member_attr(ma, DW_AT_external, false, &attr)) ||
	       tag == DW_TAG_inheritance;
}

/* Follow typedefs and qualifiers down to the type that has a shape. */
static bool peel(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die cur = *type;

	for (int i = 0; i < MAX_NESTING; i++) {
		switch (dwarf_tag(&cur)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type: {
			Dwarf_Die next;

			if (!die_type(&cur, &next))
				return false;	/* const void */
			cur = next;
			break;
		}
		default:
			*out = cur;
			return true;
		}
	}
	return false;
}

static unsigned address_size(Dwarf_Die *die)
{
	Dwarf_Die cu;
	uint8_t asize = 8, osize;

	if (dwarf_diecu(die, &cu, &asize, &osize) == NULL)
		return 8;
	return asize;
}

/* ---- types only declared, resolved to their definitions ------------------ */

/*
 * A C++ class is defined (DWARF: with its members and size) only in the
 * unit that defines its key function, its first non-inline virtual one;
 * elsewhere it is a DW_AT_declaration (libstdc++'s future_error_category,
 * ninja's State). Such a type is looked up by qualified name among every
 * unit's definitions, read once per input through a handle of its own (the
 * lookup's handle sees only the units it makes real), and used when one
 * size answers the name.
 */

static void decl_defs_free(struct decl_defs *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	if (d->elf) {
		dwarf_end(d->dwarf);
		elf_end(d->elf);
	}
	free(d);
}

static int cmp_decl_def(const void *a, const void *b)
{
	const struct decl_def *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->tag - y->tag;
}

#define DECL_DEFS_DEPTH 32

static void collect_defs(struct decl_defs *d, Dwarf_Die *parent, struct strbuf *name, int depth)
{
	Dwarf_Die child;

	if (depth > DECL_DEFS_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);
		size_t keep = name->len;
		Dwarf_Attribute attr;
		Dwarf_Word size;

		if (tag != DW_TAG_namespace && !is_aggregate_tag(tag))
			continue;
		if (!n)
			continue;	/* anonymous: reached by no declaration's name */
		if (name->len)
			sb_adds(name, "::");
		sb_adds(name, n);
		if (is_aggregate_tag(tag) && !dwarf_attr(&child, DW_AT_declaration, &attr) &&
		    dwarf_attr(&child, DW_AT_byte_size, &attr) && dwarf_formudata(&attr, &size) == 0) {
			d->v = xgrow(d->v, d->n, sizeof(*d->v));
			d->v[d->n++] = (struct decl_def){ xstrdup(name->buf),
				tag == DW_TAG_union_type ? DW_TAG_union_type : DW_TAG_structure_type,
				size, dwarf_dieoffset(&child), false };
		}
		collect_defs(d, &child, name, depth + 1);
		name->len = keep;
		if (name->buf)
			name->buf[keep] = '\0';
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The definitions of IN's .debug_info by qualified name, read on first use. */
static struct decl_defs *decl_defs_of(const struct ll_dwarf_input *in)
{
	struct decl_defs *d = in->decl_defs;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t unit_type;
	Dwarf_Half version;
	struct strbuf name = STRBUF_INIT;

	if (!d || d->tried)
		return d;
	d->tried = true;
	if (in->image) {
		/* The lookup's handle is on a sparse image: the file itself, mapped. */
		d->elf = elf_begin(in->fd, ELF_C_READ_MMAP, NULL);
		d->dwarf = d->elf ? dwarf_begin_elf(d->elf, DWARF_C_READ, NULL) : NULL;
		if (!d->dwarf) {
			if (d->elf)
				elf_end(d->elf);
			d->elf = NULL;
			return d;
		}
	} else {
		d->dwarf = in->dwarf;
	}
	while (d->dwarf && dwarf_get_units(d->dwarf, cu, &cu, &version, &unit_type, &cudie,
					   NULL) == 0) {
		if (unit_type == DW_UT_compile || unit_type == DW_UT_partial)
			collect_defs(d, &cudie, &name, 0);
	}
	sb_release(&name);
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), cmp_decl_def);
	/* One size a name: the first stands for it; two sizes: none does. */
	for (size_t i = 0, j; i < d->n; i = j) {
		bool mixed = false;

		for (j = i + 1; j < d->n && cmp_decl_def(&d->v[i], &d->v[j]) == 0; j++)
			mixed |= d->v[j].size != d->v[i].size;
		d->v[i].ambiguous = mixed;
	}
	return d;
}

struct type_memo;
static bool resolve_decl(const struct type_memo *memo, Dwarf_Die *decl, Dwarf_Die *def);

static int type_size(Dwarf_Die *type, uint64_t *size, struct ll_error *err, int depth,
		     const struct type_memo *memo);

/*
 * The size the target's C++ ABI gives a pointer-like type that DWARF
 * leaves unsized. Itanium (and its ARM, MIPS variants): a pointer to data
 * member is one ptrdiff_t, a pointer to member function two words
 * (function or vtable offset, and this-adjustment); std::nullptr_t
 * (DW_TAG_unspecified_type "decltype(nullptr)") is a pointer.
 */
static uint64_t word_sized_size(Dwarf_Die *type)
{
	Dwarf_Die pointee, shaped;

	if (dwarf_tag(type) == DW_TAG_ptr_to_member_type && die_type(type, &pointee) &&
	    peel(&pointee, &shaped) && dwarf_tag(&shaped) == DW_TAG_subroutine_type)
		return 2 * address_size(type);
	return address_size(type);
}

/*
 * Element size times every dimension. A dimension without a count or
 * bound is a flexible array member: zero bytes, where dwarf_aggregate_size
 * gives up.
 */
static int array_size(Dwarf_Die *array, uint64_t *size, struct ll_error *err, int depth,
		      const struct type_memo *memo)
{
	Dwarf_Die elem, sub;
	uint64_t total;

	if (!die_type(array, &elem))
		return ll_fail(err, "array at DIE 0x%llx has no element type",
			       (unsigned long long)dwarf_dieoffset(array));
	int rc = type_size(&elem, &total, err, depth + 1, memo);

	if (rc)
		return rc;
	if (dwarf_child(array, &sub) != 0) {
		*size = 0;
		return 0;
	}
	do {
		uint64_t count;

		if (dwarf_tag(&sub) != DW_TAG_subrange_type && dwarf_tag(&sub) != DW_TAG_enumeration_type)
			continue;
		if (!ll_subrange_count(&sub, &count))
			count = 0;	/* flexible */
		if (count && total > UINT64_MAX / count)
			return ll_fail(err, "array at DIE 0x%llx: byte size overflows 64 bits",
				       (unsigned long long)dwarf_dieoffset(array));
		total *= count;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	*size = total;
	return 0;
}

static int type_size(Dwarf_Die *type, uint64_t *size, struct ll_error *err, int depth,
		     const struct type_memo *memo)
{
	Dwarf_Word sz;
	Dwarf_Die shaped;

	if (depth > MAX_NESTING)
		return ll_fail(err, "type chain deeper than %d at DIE 0x%llx", MAX_NESTING,
			       (unsigned long long)dwarf_dieoffset(type));
	if (!peel(type, &shaped))
		return ll_fail(err, "type at DIE 0x%llx has no size (a cycle or void)",
			       (unsigned long long)dwarf_dieoffset(type));
	switch (dwarf_tag(&shaped)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_unspecified_type:
		if (die_udata(&shaped, DW_AT_byte_size, &sz))
			*size = sz;
		else
			*size = word_sized_size(&shaped);
		return 0;
	case DW_TAG_subroutine_type:
		*size = 0;
		return 0;
	case DW_TAG_array_type:
		return array_size(&shaped, size, err, depth, memo);
	default:
		break;
	}
	Dwarf_Attribute decl;
	Dwarf_Die def;

	if (resolve_decl(memo, &shaped, &def))
		shaped = def;
	/* -2: a shape not laid out (the caller's ctx->unsupported), not damage. */
	if (is_aggregate_tag(dwarf_tag(&shaped)) && dwarf_attr(&shaped, DW_AT_declaration, &decl)) {
		ll_fail(err, "type %s at DIE 0x%llx is only declared in its unit (a C++ class is "
			"defined only where its key function is, and no unit of this file "
			"defines it): cannot size it",
			dwarf_diename(&shaped) ? dwarf_diename(&shaped) : "<anonymous>",
			(unsigned long long)dwarf_dieoffset(&shaped));
		return -2;
	}
	if (dwarf_aggregate_size(&shaped, &sz) != 0)
		return ll_fail(err, "cannot size the type at DIE 0x%llx (tag 0x%x)",
			       (unsigned long long)dwarf_dieoffset(&shaped), dwarf_tag(&shaped));
	*size = sz;
	return 0;
}

/*
 * What one struct's build learns of each type it meets, by the DIE's
 * address (an offset repeats between .debug_info, .debug_types and a
 * supplementary file): its alignment, its C spelling and its size.
 *
 * Alignments: without the memo a hostile (or very deep) type graph is
 * walked once per path to each node: a fuzzed DAG of self-referring
 * members made that exponential. One in progress stands for a cycle and
 * counts as 1. Every type's is kept, not only an aggregate's: the same
 * typedef chains (u64, spinlock_t, atomic_t) come member after member,
 * and asking each link for DW_AT_alignment, DW_AT_type and
 * DW_AT_byte_size again was a quarter of the instructions of a warm
 * 20-struct lookup; spelling them again, an eighth.
 *
 * The memo travels with the target, whose ABI aligns the base types.
 */
enum align_state { ALIGN_UNKNOWN, ALIGN_IN_PROGRESS, ALIGN_KNOWN };

struct type_memo {
	struct type_facts {
		uint64_t die;		/* address + 1; 0: empty slot */
		uint64_t align;
		enum align_state align_state;
		bool explicit_align;
		bool sized;
		char *spelled;		/* NULL: not yet */
		uint64_t size;
	} *v;
	size_t mask, used;
	struct ll_target target;
	/*
	 * Where a type only declared is looked up by name (resolve_decl());
	 * NULL: not in this build (one on the second thread: it fails, and
	 * is built again serially).
	 */
	const struct ll_dwarf_input *resolve_in;
	/*
	 * An alignment met a cycle or the nesting limit: what was remembered
	 * since depends on the path the build took, so the memo must not
	 * outlive the build (struct build_memo).
	 */
	bool path_dependent;
};

/*
 * DECL (an aggregate only declared) resolved to its definition in *DEF,
 * through MEMO's input; false when it is none, or cannot be.
 */
static bool resolve_decl(const struct type_memo *memo, Dwarf_Die *decl, Dwarf_Die *def)
{
	Dwarf_Attribute attr;
	struct decl_defs *d;
	struct decl_def key, *hit;
	int tag = dwarf_tag(decl);

	if (!memo || !memo->resolve_in || !is_aggregate_tag(tag) ||
	    !dwarf_attr(decl, DW_AT_declaration, &attr) || !dwarf_diename(decl) ||
	    !(d = decl_defs_of(memo->resolve_in)) || !d->n)
		return false;
	key.name = ll_scoped_die_name(decl);
	key.tag = tag == DW_TAG_union_type ? DW_TAG_union_type : DW_TAG_structure_type;
	hit = key.name ? bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_decl_def) : NULL;
	free(key.name);
	/* bsearch may land on any copy: the group's first says whether it is ambiguous. */
	while (hit && hit > d->v && cmp_decl_def(hit - 1, hit) == 0)
		hit--;
	return hit && !hit->ambiguous && dwarf_offdie(d->dwarf, hit->die, def) != NULL;
}

static struct type_facts *memo_slot(struct type_memo *memo, uint64_t die)
{
	size_t at;

	if (memo->used * 2 >= memo->mask) {
		struct type_memo bigger = { .mask = memo->mask ? memo->mask * 2 + 1 : 63 };

		bigger.v = xcalloc(bigger.mask + 1, sizeof(*bigger.v));
		for (size_t i = 0; memo->v && i <= memo->mask; i++) {
			if (!memo->v[i].die)
				continue;
			at = (size_t)(memo->v[i].die * 0x9e3779b97f4a7c15ULL >> 20) & bigger.mask;
			while (bigger.v[at].die)
				at = (at + 1) & bigger.mask;
			bigger.v[at] = memo->v[i];
		}
		bigger.used = memo->used;
		bigger.target = memo->target;
		bigger.resolve_in = memo->resolve_in;
		bigger.path_dependent = memo->path_dependent;
		free(memo->v);
		*memo = bigger;
	}
	at = (size_t)((die + 1) * 0x9e3779b97f4a7c15ULL >> 20) & memo->mask;
	while (memo->v[at].die && memo->v[at].die != die + 1)
		at = (at + 1) & memo->mask;
	if (!memo->v[at].die) {
		memo->v[at].die = die + 1;
		memo->used++;
	}
	return &memo->v[at];
}

static void type_memo_release(struct type_memo *memo)
{
	for (size_t i = 0; memo->v && i <= memo->mask; i++)
		free(memo->v[i].spelled);
	free(memo->v);
	memo->v = NULL;
	memo->mask = memo->used = 0;
	memo->path_dependent = false;
}

/*
 * What the builds of one thread keep from struct to struct while they stay
 * in one unit: its declaring files (and line table) and the facts of its
 * types. A kernel unit's structs share both, spinlock_t and list_head and
 * the unit's ~1,000 files; each build had read them all again, the line
 * table once per struct.
 */
struct build_memo {
	const void *unit;	/* the Dwarf_CU the memo is of; NULL: none yet */
	struct file_cache files;
	struct type_memo types;
};

static void build_memo_release(struct build_memo *memo)
{
	file_cache_reset(&memo->files);
	type_memo_release(&memo->types);
	memo->unit = NULL;
}

/* MEMO made ready for a build of AGG in IN: emptied when AGG is of another unit. */
static void build_memo_enter(struct build_memo *memo, const struct ll_dwarf_input *in,
			     Dwarf_Die *agg)
{
	if (memo->unit != agg->cu)
		build_memo_release(memo);
	memo->unit = agg->cu;
	memo->types.target = in->target;
}

/* After a build: a path-dependent alignment is not kept for the next. */
static void build_memo_leave(struct build_memo *memo, int rc)
{
	if (rc || memo->types.path_dependent)
		type_memo_release(&memo->types);
}

static uint64_t type_alignment(Dwarf_Die *type, bool *explicit_align, int depth,
			       struct type_memo *memo);

typedef uint64_t alignment_fn(Dwarf_Die *die, int tag, bool *explicit_align, int depth,
			      struct type_memo *memo);

/* DIE's alignment by COMPUTE, once per build (see struct type_memo). */
static uint64_t remembered_alignment(Dwarf_Die *die, int tag, bool *explicit_align, int depth,
				     struct type_memo *memo, alignment_fn *compute)
{
	uint64_t key = (uint64_t)(uintptr_t)die->addr, align;
	struct type_facts *e = memo_slot(memo, key);
	bool ex = false;

	if (e->align_state != ALIGN_UNKNOWN) {
		if (e->align_state == ALIGN_IN_PROGRESS)
			memo->path_dependent = true;
		if (e->explicit_align)
			*explicit_align = true;
		return e->align_state == ALIGN_KNOWN ? e->align : 1;
	}
	e->align_state = ALIGN_IN_PROGRESS;
	align = compute(die, tag, &ex, depth, memo);
	e = memo_slot(memo, key);	/* the table may have grown */
	e->align = align;
	e->align_state = ALIGN_KNOWN;
	e->explicit_align = ex;
	if (ex)
		*explicit_align = true;
	return align;
}

static alignment_fn aggregate_alignment_uncached;

static uint64_t aggregate_alignment(Dwarf_Die *agg, bool *explicit_align, int depth,
				    struct type_memo *memo)
{
	Dwarf_Die def;

	if (resolve_decl(memo, agg, &def))
		agg = &def;
	return remembered_alignment(agg, 0, explicit_align, depth, memo,
				    aggregate_alignment_uncached);
}

static uint64_t aggregate_alignment_uncached(Dwarf_Die *agg, int tag, bool *explicit_align,
					     int depth, struct type_memo *memo)
{
	Dwarf_Word a;
	Dwarf_Die child;
	uint64_t best = 1;
	Dwarf_Word size = 0;

	uint64_t declared = 0;

	(void)tag;
	/* aligned(N) only ever raises the natural alignment. */
	if (die_udata(agg, DW_AT_alignment, &a) && a) {
		*explicit_align = true;
		declared = a;
	}
	if (depth > MAX_NESTING)
		memo->path_dependent = true;
	if (depth > MAX_NESTING || dwarf_child(agg, &child) != 0)
		return declared ? declared : 1;
	do {
		Dwarf_Die mt;
		Dwarf_Word off = 0, bits;
		uint64_t ma;
		bool ex = false;
		struct member_attrs attrs;

		read_member_attrs(&child, &attrs);
		if (!is_data_member(&attrs) || !member_type(&attrs, &mt))
			continue;
		ma = type_alignment(&mt, &ex, depth + 1, memo);
		if (member_udata(&attrs, DW_AT_alignment, &a) && a > ma) {
			ma = a;
			ex = true;
		}
		if (ex)
			*explicit_align = true;
		/* A member packed on its own sits misaligned and adds nothing. */
		if (!member_udata(&attrs, DW_AT_bit_size, &bits) &&
		    member_udata(&attrs, DW_AT_data_member_location, &off) && ma && off % ma)
			continue;
		if (ma > best)
			best = ma;
	} while (dwarf_siblingof(&child, &child) == 0);
	/*
	 * __attribute__((packed)) leaves no trace in DWARF but its effects: a
	 * size that is not a multiple of the alignment is one of them.
	 */
	if (die_udata(agg, DW_AT_byte_size, &size))
		while (best > 1 && size % best)
			best /= 2;
	return declared > best ? declared : best;
}

static alignment_fn type_alignment_uncached;

static uint64_t type_alignment(Dwarf_Die *type, bool *explicit_align, int depth,
			       struct type_memo *memo)
{
	int tag = dwarf_tag(type);

	if (depth > MAX_NESTING) {
		memo->path_dependent = true;
		return 1;
	}
	if (is_aggregate_tag(tag))
		return aggregate_alignment(type, explicit_align, depth + 1, memo);
	return remembered_alignment(type, tag, explicit_align, depth, memo,
				    type_alignment_uncached);
}

static uint64_t type_alignment_uncached(Dwarf_Die *type, int tag, bool *explicit_align,
					int depth, struct type_memo *memo)
{
	Dwarf_Word a, sz, enc;
	Dwarf_Die next;

	/* On a typedef, aligned(N) may also lower the alignment. */
	if (die_udata(type, DW_AT_alignment, &a) && a) {
		*explicit_align = true;
		return a;
	}
	switch (tag) {
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_array_type:
		return die_type(type, &next) ?
		       type_alignment(&next, explicit_align, depth + 1, memo) : 1;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return aggregate_alignment(type, explicit_align, depth + 1, memo);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return die_udata(type, DW_AT_byte_size, &sz) ? sz : address_size(type);
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_unspecified_type:
		/* As a pointer: a pointer to member function (2 words) is aligned as one. */
		return address_size(type);
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		if (!die_udata(type, DW_AT_byte_size, &sz) || sz == 0)
			return 1;
		if (die_udata(type, DW_AT_encoding, &enc) && enc == DW_ATE_complex_float)
			sz /= 2;
		return ll_base_type_alignment(memo->target, sz);
	default:
		return 1;
	}
}

/* ---- members ----------------------------------------------------------- */

struct build_ctx {
	const struct ll_dwarf_input *in;
	struct ll_error *err;
	size_t members;
	size_t budget;		/* what is left of the input's member_budget */
	struct file_cache *files;	/* both in the caller's struct build_memo */
	struct type_memo *types;
	bool rust;		/* a Rust unit: fields are in rustc's order, not declared */
	bool cxx;		/* a C++ unit: tail padding may hold the next member */
	bool unsupported;	/* the error is a shape layoutlint does not lay out */
	/*
	 * The members are dropped once counted or digested (a --list row, a
	 * --contains or --audit line): no member's declaring file is
	 * resolved, a seventh of the builds of a cold --list='*'.
	 */
	bool shape_only;
	/* Qualified names of the aggregate types met, by DIE: each costs a unit walk. */
	struct qualified_name {
		uint64_t die;
		char *name;	/* NULL: unnamed */
	} *qnames;
	size_t nr_qnames;
};

/* M's type as C and its size, from the memo (struct type_memo) when met before. */
static int member_type_facts(struct build_ctx *ctx, Dwarf_Die *type, struct ll_member *m)
{
	uint64_t key = (uint64_t)(uintptr_t)type->addr;
	struct type_facts *e = memo_slot(ctx->types, key);

	if (!e->sized) {
		uint64_t size;

		int rc = type_size(type, &size, ctx->err, 0, ctx->types);

		if (rc == -2)
			ctx->unsupported = true;
		if (rc)
			return -1;	/* not remembered: the next member fails the same way */
		e = memo_slot(ctx->types, key);
		e->size = size;
		e->sized = true;
	}
	if (!e->spelled)
		e->spelled = ll_c_declaration(type, "");
	m->type = xstrdup(e->spelled);
	m->size = e->size;
	return 0;
}

static int member_location(struct member_attrs *ma, uint64_t *out, struct ll_error *err)
{
	Dwarf_Die *member = ma->die;
	Dwarf_Attribute attr;
	Dwarf_Word value;

	*out = 0;
	if (!member_attr(ma, DW_AT_data_member_location, false, &attr))
		return 0;	/* union members, and DWARF 4+ bitfields */
	if (dwarf_formudata(&attr, &value) == 0) {
		*out = value;
		return 0;
	}
	/* DWARF 2 style: a location expression, normally DW_OP_plus_uconst N. */
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
	    (ops[0].atom == DW_OP_plus_uconst || ops[0].atom == DW_OP_constu)) {
		*out = ops[0].number;
		return 0;
	}
	return ll_fail(err, "member at DIE 0x%llx: unsupported DW_AT_data_member_location "
		       "expression", (unsigned long long)dwarf_dieoffset(member));
}

static int build_members(struct build_ctx *ctx, Dwarf_Die *agg, uint64_t base,
			 const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out);

/*
 * DWARF 2/3's DW_AT_bit_offset counts from the most significant bit of a
 * storage unit of UNIT bytes; the model counts bits in the order the
 * target allocates them (DW_AT_data_bit_offset's order): from the most
 * significant bit on a big-endian target, from the least on a
 * little-endian one. gcc still writes the old form for bitfields in
 * unions, even with DWARF 5; clang for every bitfield on big-endian
 * targets and on powerpc64le.
 *
 * BO is signed: in a packed struct the field may stick out of the unit's
 * most significant end (clang: a short:7 at bit 13 of a 2-byte unit has
 * -4 on little-endian, 13 on big-endian). *AT: the field's first bit from
 * the unit's start; false when that is before the unit or absurdly far.
 */
static bool old_bit_offset(const struct ll_dwarf_input *in, uint64_t bo, uint64_t bits,
			   uint64_t unit, uint64_t *at)
{
	const int64_t limit = (int64_t)LL_MAX_STRUCT_SIZE * 8;
	int64_t from_msb = (int64_t)bo, pos;

	if (bits > (uint64_t)limit || unit > LL_MAX_STRUCT_SIZE || from_msb < -limit ||
	    from_msb > limit)
		return false;
	pos = in->big_endian ? from_msb : (int64_t)unit * 8 - from_msb - (int64_t)bits;
	if (pos < 0)
		return false;
	*at = (uint64_t)pos;
	return true;
}

/* The qualified name of aggregate type DIE SHAPED, remembered in CTX; borrowed. */
static const char *qualified_type_name(struct build_ctx *ctx, Dwarf_Die *shaped)
{
	uint64_t off = dwarf_dieoffset(shaped);

	for (size_t i = 0; i < ctx->nr_qnames; i++)
		if (ctx->qnames[i].die == off)
			return ctx->qnames[i].name;
	ctx->qnames = xgrow(ctx->qnames, ctx->nr_qnames, sizeof(*ctx->qnames));
	ctx->qnames[ctx->nr_qnames] = (struct qualified_name){ off, ll_scoped_die_name(shaped) };
	return ctx->qnames[ctx->nr_qnames++].name;
}

/*
 * C++ and Rust: a member whose type is a named aggregate in a namespace
 * or a type is spelled with its qualified name ("struct geo::Base", not
 * "struct Base"), so that --contains geo::Base finds it and no Base of
 * another namespace. Typedefs, pointers and arrays keep the C spelling.
 */
static void qualify_type(struct build_ctx *ctx, Dwarf_Die *shaped, struct ll_member *m)
{
	const char *simple = dwarf_diename(shaped), *space = strchr(m->type, ' ');
	const char *qualified;
	struct strbuf sb = STRBUF_INIT;

	if (!simple || !space || strcmp(space + 1, simple) != 0 ||
	    !(qualified = qualified_type_name(ctx, shaped)) || strcmp(qualified, simple) == 0)
		return;
	sb_add(&sb, m->type, (size_t)(space - m->type) + 1);
	sb_adds(&sb, qualified);
	free(m->type);
	m->type = sb_detach(&sb);
}

/*
 * A C++ base class is a member named "<base NAME>" (NAME qualified) whose
 * members lend their names to the derived class's paths, as C++ spells
 * them (d.x for a base's x). A virtual base lies where the most derived
 * class puts it, found at run time through the vtable: DWARF gives an
 * expression, not an offset, so such a class is refused, not guessed.
 */
static int base_member(struct build_ctx *ctx, Dwarf_Die *die, Dwarf_Die *type,
		       struct ll_member *m)
{
	Dwarf_Die shaped;
	Dwarf_Word virtuality = 0;
	const char *base_name = peel(type, &shaped) ? qualified_type_name(ctx, &shaped) : NULL;
	unsigned long long die_off = (unsigned long long)dwarf_dieoffset(die);
	Dwarf_Attribute attr;
	Dwarf_Word loc;

	Dwarf_Op *ops;
	size_t nops;

	m->is_base = true;
	/* DWARF 2 and 3 write even a plain base's offset as DW_OP_plus_uconst N. */
	if ((die_udata(die, DW_AT_virtuality, &virtuality) && virtuality) ||
	    (dwarf_attr(die, DW_AT_data_member_location, &attr) &&
	     dwarf_formudata(&attr, &loc) != 0 &&
	     !(dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
	       ops[0].atom == DW_OP_plus_uconst))) {
		ctx->unsupported = true;
		ll_fail(ctx->err, "virtual base %s at DIE 0x%llx: where it lies depends on the most "
			"derived class and is read from the vtable at run time "
			"(DW_AT_data_member_location is an expression, not an offset); layoutlint "
			"does not lay out classes with virtual bases",
			base_name ? base_name : "<anonymous>", die_off);
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "<base %s>", base_name ? base_name : "<anonymous>");
	m->name = sb_detach(&sb);
	return 0;
}

static bool has_variant_part(Dwarf_Die *agg)
{
	Dwarf_Die child;

	if (dwarf_child(agg, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_variant_part)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int build_member(struct build_ctx *ctx, struct member_attrs *ma, uint64_t base,
			const char *path_prefix, uint64_t parent_align, int depth,
			struct ll_member *m)
{
	Dwarf_Die *die = ma->die;
	Dwarf_Attribute attr;
	const char *name = member_attr(ma, DW_AT_name, true, &attr) ? dwarf_formstring(&attr) :
								       NULL;
	Dwarf_Die type, shaped;
	uint64_t loc;
	Dwarf_Word bits, a;
	bool ex = false;
	unsigned long long die_off = (unsigned long long)dwarf_dieoffset(die);
	bool is_base = dwarf_tag(die) == DW_TAG_inheritance;

	/* A name libdw cannot read is damage, not an anonymous member. */
	if (!name && member_attr(ma, DW_AT_name, false, &attr))
		return ll_fail(ctx->err, "member at DIE 0x%llx: unreadable DW_AT_name (form 0x%x): %s",
			       die_off, dwarf_whatform(&attr), dwarf_errmsg(-1));
	if (!member_type(ma, &type))
		return ll_fail(ctx->err, "member %s at DIE 0x%llx has no valid type",
			       name ? name : "<anonymous>", die_off);
	if (is_base && base_member(ctx, die, &type, m))
		return -1;
	if (member_location(ma, &loc, ctx->err))
		return -1;
	if (!is_base)
		m->name = name ? xstrdup(name) : NULL;
	if (member_type_facts(ctx, &type, m))
		return -1;
	if (!ctx->shape_only)
		member_decl(ctx->in, ma, ctx->files, &m->decl);
	if (base + loc < base)
		return ll_fail(ctx->err, "member %s at DIE 0x%llx: offset overflows",
			       name ? name : "<anonymous>", die_off);
	m->offset = base + loc;

	m->alignment = type_alignment(&type, &ex, 0, ctx->types);
	if (!m->alignment)
		m->alignment = 1;
	if (member_udata(ma, DW_AT_alignment, &a) && a) {
		if (a > m->alignment)
			m->alignment = a;
		ex = true;
	}
	/* Even a bitfield's LOC is where its storage unit starts (builder.h). */
	m->alignment = ll_placed_alignment(m->alignment, true, loc, parent_align);
	m->explicit_align = ex;

	if (member_udata(ma, DW_AT_bit_size, &bits)) {
		Dwarf_Word dbo, unit, old_bo;

		m->is_bitfield = true;
		m->bit_size = bits;
		if (member_udata(ma, DW_AT_byte_size, &unit))
			m->size = unit;
		if (member_udata(ma, DW_AT_data_bit_offset, &dbo)) {
			m->bit_offset = base * 8 + dbo;
		} else if (member_udata(ma, DW_AT_bit_offset, &old_bo)) {
			uint64_t in_unit;

			if (!old_bit_offset(ctx->in, old_bo, bits, m->size, &in_unit))
				return ll_fail(ctx->err, "bitfield %s at DIE 0x%llx lies outside its "
					       "storage unit", name ? name : "<unnamed>", die_off);
			m->bit_offset = m->offset * 8 + in_unit;
		} else {
			m->bit_offset = m->offset * 8;
		}
		m->offset = m->bit_offset / 8;
	}

	/* A base's path is its name, which no rules pattern spells: it is tagged by its members. */
	if (m->name)
		m->path = is_base ? xstrdup(m->name) : ll_member_path(path_prefix, m->name);

	/*
	 * A Rust enum held as a field (Option<T>, Result<T, E>, one's own) is
	 * a member of the size and alignment DWARF gives it, not laid out
	 * inside: only the struct asked for is refused for a variant part of
	 * its own.
	 */
	if (ctx->rust && peel(&type, &shaped) && is_aggregate_tag(dwarf_tag(&shaped)) &&
	    has_variant_part(&shaped))
		return 0;
	if (peel(&type, &shaped) && is_aggregate_tag(dwarf_tag(&shaped)) && !m->is_bitfield) {
		Dwarf_Die def;

		/* Only declared here (a key function elsewhere): laid out as defined. */
		if (resolve_decl(ctx->types, &shaped, &def))
			shaped = def;
		bool child_ex = false;
		uint64_t child_align = aggregate_alignment(&shaped, &child_ex, 0, ctx->types);

		m->is_aggregate = true;
		m->agg_kind = dwarf_tag(&shaped) == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
		if (ctx->cxx || ctx->rust)
			qualify_type(ctx, &shaped, m);
		if (depth + 1 > MAX_NESTING)
			return ll_fail(ctx->err, "member %s at DIE 0x%llx: aggregates nested deeper "
				       "than %d levels", name ? name : "<anonymous>", die_off,
				       MAX_NESTING);
		/* Anonymous aggregates and bases lend their members to the enclosing path. */
		if (build_members(ctx, &shaped, m->offset,
				  m->name && !is_base ? m->path : path_prefix,
				  child_align, depth + 1, &m->children, &m->nr_children))
			return -1;
	}
	return 0;
}

/*
 * A member or base of an empty class type: sizeof says 1, but as an empty
 * base or a [[no_unique_address]] member it takes no byte, and then the
 * compiler puts it where another member is, or at the very end. There it
 * is size 0, so that it neither overlaps nor grows the class; elsewhere
 * its byte is its own, as sizeof says.
 */
/*
 * An empty member that takes no room: so do its bases and members, which
 * are all empty too (ll_empty_class()), down to any depth.
 */
static void zero_empty(struct ll_member *m)
{
	m->size = 0;
	for (size_t i = 0; i < m->nr_children; i++)
		zero_empty(&m->children[i]);
}

static void shrink_empty(struct ll_member *v, size_t n, const size_t *empty, size_t nr_empty,
			 uint64_t end)
{
	for (size_t e = 0; e < nr_empty; e++) {
		struct ll_member *m = &v[empty[e]];
		bool shared = m->offset + m->size > end;

		for (size_t i = 0; i < n && !shared; i++) {
			struct ll_extent x = ll_member_extent(&v[i]);

			shared = &v[i] != m && v[i].size && x.begin <= m->offset && m->offset < x.end;
		}
		if (shared)
			zero_empty(m);
	}
}

/* The end of the last byte of data at or below M: its tail padding excluded. */
static uint64_t data_end(const struct ll_member *m)
{
	uint64_t end = m->offset;

	if (!m->is_aggregate || !m->nr_children)
		return ll_member_extent(m).end;
	for (size_t i = 0; i < m->nr_children; i++) {
		uint64_t e = data_end(&m->children[i]);

		if (e > end)
			end = e;
	}
	return end;
}

/*
 * C++ reuses the tail padding of a base class (unless it is a POD) and of
 * a [[no_unique_address]] member: the next member may start inside its
 * sizeof. There the aggregate ends where that member starts, as long as
 * its own data ends before; an overlap of data stays, and is refused as
 * damage.
 */
static void shrink_reused_padding(struct ll_member *v, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		struct ll_member *m = &v[i];
		uint64_t next = v[i + 1].is_bitfield ? v[i + 1].bit_offset / 8 : v[i + 1].offset;

		if (!m->is_aggregate || m->is_bitfield || next < m->offset ||
		    next >= m->offset + m->size || data_end(m) > next)
			continue;
		m->size = next - m->offset;
	}
}

/*
 * rustc chooses the order of a struct's fields and DWARF lists them as
 * declared: the model's levels are in offset order, as every reader's
 * are (holes, overlaps, cachelines walk them so). Stable: members at one
 * offset keep their declared order.
 */
static void sort_by_offset(struct ll_member *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct ll_member m = v[i];
		size_t j = i;

		while (j > 0 && (v[j - 1].offset > m.offset ||
				 (v[j - 1].offset == m.offset && v[j - 1].is_bitfield &&
				  m.is_bitfield && v[j - 1].bit_offset > m.bit_offset))) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = m;
	}
}

static int build_members(struct build_ctx *ctx, Dwarf_Die *agg, uint64_t base,
			 const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out)
{
	Dwarf_Die child;
	size_t n = 0, cap = 0, nr_empty = 0;
	struct ll_member *v = NULL;
	size_t *empty = NULL;	/* members of an empty class type */
	Dwarf_Word agg_size;

	*out = NULL;
	*nr_out = 0;
	if (dwarf_child(agg, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_variant_part && (ctx->unsupported = true))
			return ll_fail(ctx->err, "DW_TAG_variant_part at DIE 0x%llx: a Rust enum (or "
				       "another tagged union), whose variants share bytes chosen by a "
				       "discriminant; layoutlint lays out structs, unions and classes "
				       "only", (unsigned long long)dwarf_dieoffset(&child));
		struct member_attrs attrs;

		read_member_attrs(&child, &attrs);
		if (!is_data_member(&attrs))
			continue;
		if (++ctx->members > MAX_MEMBERS)
			return ll_fail(ctx->err, "more than %d members below DIE 0x%llx",
				       MAX_MEMBERS, (unsigned long long)dwarf_dieoffset(agg));
		if (ctx->members > ctx->budget)
			return ll_fail(ctx->err, "more than %zu members below DIE 0x%llx, counting "
				       "the structs looked up before it (this input's limit: %d per "
				       ".debug_info byte, at least %d; only structs that nest each "
				       "other exponentially reach it)", ctx->in->member_budget,
				       (unsigned long long)dwarf_dieoffset(agg),
				       MEMBERS_PER_INFO_BYTE, MEMBERS_FLOOR);
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xrealloc(v, cap * sizeof(*v));
		}
		memset(&v[n], 0, sizeof(v[n]));
		int rc = build_member(ctx, &attrs, base, path_prefix, parent_align, depth, &v[n]);
		Dwarf_Die type;

		/* Only C++ has empty classes (a GNU C empty struct is size 0). */
		if (!rc && ctx->cxx && die_type(&child, &type) && ll_empty_class(&type)) {
			empty = xrealloc(empty, cap * sizeof(*empty));
			empty[nr_empty++] = n;
		}
		n++;
		*out = v;
		*nr_out = n;
		if (rc) {
			free(empty);
			return -1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (die_udata(agg, DW_AT_byte_size, &agg_size))
		shrink_empty(v, n, empty, nr_empty, base + agg_size);
	free(empty);
	if (ctx->cxx && dwarf_tag(agg) != DW_TAG_union_type)
		shrink_reused_padding(v, n);
	/*
	 * C++ too: an empty [[no_unique_address]] member may lie inside a
	 * later member's bytes (struct { [[no_unique_address]] E e; long v; }
	 * after an empty base of E puts e at 1, v at 0).
	 */
	if (ctx->rust || ctx->cxx)
		sort_by_offset(v, n);
	*out = v;
	*nr_out = n;
	return 0;
}

/* What one build is asked for. */
struct build_how {
	size_t budget;		/* members it may still count */
	/*
	 * For a --list row or a digest, which read no member's declaring
	 * place: those are left out, and the aggregate's declaring file is
	 * FILE (NULL: none), as the lookup already spelled it for the
	 * candidate (a whole-image run builds a struct or two per unit, and
	 * reading each unit's line table again for that one path was ~6% of
	 * its instructions).
	 */
	bool shape_only;
	const char *file;
	bool list_row;		/* a --list row: only ll_summarize() reads it */
	bool resolve_decls;	/* types only declared may be resolved (resolve_decl()) */
};

/* Materialise the model of one aggregate DIE. NAME overrides for typedefs. */
/* *UNSUPPORTED: the failure is a shape layoutlint does not lay out, not damage. */
static int build_with_memo(const struct ll_dwarf_input *in, Dwarf_Die *agg, const char *name,
			   const struct build_how *how, struct build_memo *memo,
			   struct ll_struct **out, bool *unsupported, size_t *members,
			   struct ll_error *err)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	struct build_ctx ctx = { .in = in, .err = err, .budget = how->budget,
				 .files = &memo->files, .types = &memo->types,
				 .shape_only = how->shape_only };
	Dwarf_Word size;
	bool ex = false;

	memo->types.resolve_in = how->resolve_decls ? in : NULL;
	*out = s;
	s->kind = dwarf_tag(agg) == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
	s->name = xstrdup(name);
	if (!die_udata(agg, DW_AT_byte_size, &size))
		return ll_fail(err, "%s %s at DIE 0x%llx has no DW_AT_byte_size",
			       ll_kind_name(s->kind), name,
			       (unsigned long long)dwarf_dieoffset(agg));
	/*
	 * A --list row costs its members, not its bytes: glibc's 2 GiB dtv
	 * (one array member) is listed. A layout is drawn line by line, and
	 * so is still refused beyond the limit.
	 */
	if (size > LL_MAX_STRUCT_SIZE && !how->list_row && (*unsupported = true))
		return ll_fail(err, "%s %s at DIE 0x%llx claims %llu bytes, beyond the %u MiB "
			       "layoutlint lays out (--list shows it)", ll_kind_name(s->kind), name,
			       (unsigned long long)dwarf_dieoffset(agg), (unsigned long long)size,
			       LL_MAX_STRUCT_SIZE >> 20);
	s->size = size;
	s->alignment = aggregate_alignment(agg, &ex, 0, ctx.types);
	s->explicit_align = ex;
	s->cacheline = in->arch_cacheline;
	s->origin = dwarf_dieoffset(agg);
	int lang = ll_die_language(agg);

	ctx.rust = ll_language_is_rust(lang);
	ctx.cxx = ll_language_is_cxx(lang);
	s->compiler_orders_members = ctx.rust;
	if (how->shape_only) {
		s->decl.file = how->file ? xstrdup(how->file) : NULL;
		die_decl_position(agg, &s->decl);
	} else {
		die_decl(in, agg, ctx.files, &s->decl);
	}
	int rc = build_members(&ctx, agg, 0, "", s->alignment, 0, &s->members, &s->nr_members);
	*members = ctx.members;
	*unsupported = ctx.unsupported;
	for (size_t i = 0; i < ctx.nr_qnames; i++)
		free(ctx.qnames[i].name);
	free(ctx.qnames);
	if (!rc) {
		char where[40], declarer[64];

		snprintf(where, sizeof(where), "at DIE 0x%llx", (unsigned long long)s->origin);
		snprintf(declarer, sizeof(declarer), "the struct %s", where);
		rc = ll_struct_validate(s, where, declarer, err);
	}
	return rc;
}

/*
 * Build the aggregate at AGG with BUDGET members left; *MEMBERS: how many
 * it counted, failed or not. Reads IN only, so that two threads, each
 * with a libdw handle and a MEMO of its own, may build at once
 * (build_in_parallel()).
 */
static int build_struct_budget(const struct ll_dwarf_input *in, Dwarf_Die *agg,
			       const char *name, const struct build_how *how,
			       struct build_memo *memo, struct ll_struct **out, bool *unsupported,
			       size_t *members, struct ll_error *err)
{
	int rc;

	build_memo_enter(memo, in, agg);
	rc = build_with_memo(in, agg, name, how, memo, out, unsupported, members, err);
	build_memo_leave(memo, rc);
	return rc;
}

/* The same, counting against what the input's lookups have built so far (ASKED's budget aside). */
static int build_struct(struct ll_dwarf_input *in, Dwarf_Die *agg, const char *name,
			const struct build_how *asked, struct ll_struct **out, bool *unsupported,
			struct ll_error *err)
{
	struct build_how how = *asked;
	size_t members;
	int rc;

	how.budget = in->member_budget - in->members_built;
	/* Serial builds only: the definitions' handle is not the threads' to share. */
	how.resolve_decls = true;
	if (!in->build_memo)
		in->build_memo = xcalloc(1, sizeof(*in->build_memo));
	rc = build_struct_budget(in, agg, name, &how, in->build_memo, out, unsupported, &members,
				 err);

	in->members_built += members;
	return rc;
}

/* ---- lookup ------------------------------------------------------------ */

struct candidate {
	Dwarf_Off die;		/* the aggregate DIE, in part PART */
	size_t part;
	const char *name;	/* query name it answers */
	struct ll_finder_sig sig;
	char *file;		/* display path, for listing ambiguities */
	unsigned line;
	size_t hits;		/* CUs carrying this same definition */
	uint32_t holes;		/* of the built struct, or LL_INDEX_NO_HOLES */
	bool selected;		/* one of its copies is the query's --die or in its --cu */
	/* The scan's nothing_needed, of the copy DIE: a digest needs no build. */
	bool nothing_needed;
	bool from_index;	/* named by the name index alone: checked when built */
};

/*
 * A definition as the name index keeps it: distinct by its raw declaring
 * file and compilation directory, not by the display path they make (two
 * raw paths one --prefix-map joins are two here, one candidate there).
 */
struct raw_def {
	struct ll_index_def_src def;	/* die, size, tag, line, members; strings owned */
	uint64_t file_hash;		/* of the raw file and comp_dir */
};

/* Strings kept once each: the raw files of --list's thousands of definitions repeat. */
struct interned {
	char **slots;
	size_t mask, n;
};

static const char *intern(struct interned *t, const char *s)
{
	size_t at;

	if (!s)
		return NULL;
	if ((t->n + 1) * 2 > t->mask + 1) {
		size_t cap = t->mask ? (t->mask + 1) * 2 : 64;
		char **old = t->slots;
		size_t old_cap = t->mask ? t->mask + 1 : 0;

		t->slots = xcalloc(cap, sizeof(*t->slots));
		t->mask = cap - 1;
		for (size_t i = 0; i < old_cap; i++) {
			if (!old[i])
				continue;
			at = ll_fnv1a_str(LL_FNV_INIT, old[i]) & t->mask;
			while (t->slots[at])
				at = (at + 1) & t->mask;
			t->slots[at] = old[i];
		}
		free(old);
	}
	at = ll_fnv1a_str(LL_FNV_INIT, s) & t->mask;
	while (t->slots[at]) {
		if (strcmp(t->slots[at], s) == 0)
			return t->slots[at];
		at = (at + 1) & t->mask;
	}
	t->n++;
	return t->slots[at] = xstrdup(s);
}

static void interned_release(struct interned *t)
{
	for (size_t i = 0; t->slots && i <= t->mask; i++)
		free(t->slots[i]);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

struct query_state {
	struct candidate *cands;
	size_t nr_cands;
	bool declared;
	/* Missing, and the name index holds no name close enough to propose. */
	bool nothing_near;
	uint32_t declared_flags;	/* LL_INDEX_DECLARED_*, by the declarations' kinds */
	struct interned *capture;	/* set: collect raw_defs for the name index */
	struct raw_def *raw_defs;	/* strings in *capture */
	size_t nr_raw_defs;
};

static void mark_declared(struct query_state *qs, int tag)
{
	qs->declared = true;
	qs->declared_flags |= tag == DW_TAG_union_type ? LL_INDEX_DECLARED_UNION :
							 LL_INDEX_DECLARED_STRUCT;
}

static void capture_def(struct query_state *qs, Dwarf_Off die, const struct ll_finder_sig *sig,
			const char *raw_file, const char *comp_dir)
{
	uint64_t h = LL_FNV_INIT;

	if (raw_file)
		h = ll_fnv1a(h, raw_file, strlen(raw_file) + 1);
	h = ll_fnv1a(h, "\1", 1);
	if (comp_dir)
		h = ll_fnv1a(h, comp_dir, strlen(comp_dir) + 1);
	for (size_t i = 0; i < qs->nr_raw_defs; i++) {
		const struct raw_def *r = &qs->raw_defs[i];

		if (r->file_hash == h && r->def.d.tag == (uint32_t)sig->tag &&
		    r->def.d.size == sig->size && r->def.d.line == sig->line &&
		    r->def.d.members_hash == sig->members_hash &&
		    r->def.d.nr_members == sig->nr_members)
			return;
	}
	qs->raw_defs = xgrow(qs->raw_defs, qs->nr_raw_defs, sizeof(*qs->raw_defs));
	qs->raw_defs[qs->nr_raw_defs++] = (struct raw_def){
		.def = { .d = { .die = die, .size = sig->size, .members_hash = sig->members_hash,
				.tag = (uint32_t)sig->tag, .line = sig->line,
				.nr_members = sig->nr_members, .holes = LL_INDEX_NO_HOLES },
			 .file = intern(qs->capture, raw_file),
			 .comp_dir = intern(qs->capture, comp_dir) },
		.file_hash = h,
	};
}

/*
 * Count one more definition; FILE is taken over. SELECTED: this copy is
 * the one --die names, or in a unit --cu matches. A copy --die names is
 * the one kept, so that the layout read is the DIE asked for. RAW_FILE
 * and COMP_DIR (borrowed) are what FILE was made of, for the name index.
 */
/*
 * gcc -flto's ltrans units carry copies of a struct without
 * DW_AT_decl_file: such a copy is the definition of the same kind, size
 * and members that has one.
 */
static bool same_shape_no_file(const struct ll_finder_sig *a, const struct ll_finder_sig *b)
{
	return (!a->file_hash) != (!b->file_hash) && a->tag == b->tag && a->size == b->size &&
	       a->members_hash == b->members_hash && a->nr_members == b->nr_members;
}

static void add_candidate(struct query_state *qs, Dwarf_Off die, size_t part, const char *name,
			  const struct ll_finder_sig *sig, char *file, bool selected, bool by_die,
			  const char *raw_file, const char *comp_dir, bool nothing_needed)
{
	if (qs->capture)
		capture_def(qs, die, sig, raw_file, comp_dir);
	for (size_t i = 0; i < qs->nr_cands; i++) {
		struct candidate *c = &qs->cands[i];

		if (!ll_finder_sig_equal(&c->sig, sig) && same_shape_no_file(&c->sig, sig)) {
			/* The copy with a declaring file stands for both. */
			if (!c->sig.file_hash && !c->selected) {
				free(c->file);
				c->sig = *sig;
				c->file = file;
				c->line = sig->line;
				c->die = die;
				c->part = part;
				c->nothing_needed = nothing_needed;
				file = NULL;
			} else if (selected && by_die) {
				c->die = die;
				c->nothing_needed = nothing_needed;
			}
			c->hits++;
			c->selected |= selected;
			free(file);
			return;
		}
		if (ll_finder_sig_equal(&c->sig, sig)) {
			c->hits++;
			if (selected && by_die) {
				c->die = die;
				c->nothing_needed = nothing_needed;
			}
			c->selected |= selected;
			free(file);
			return;
		}
	}
	qs->cands = xgrow(qs->cands, qs->nr_cands, sizeof(*qs->cands));
	qs->cands[qs->nr_cands++] = (struct candidate){
		.die = die, .part = part, .name = name, .sig = *sig, .file = file, .line = sig->line,
		.hits = 1, .selected = selected, .holes = LL_INDEX_NO_HOLES,
		.nothing_needed = nothing_needed,
	};
}

/* The display path of the file of the unit DIE is in (its DW_AT_name). */
static char *unit_file_name(const struct ll_dwarf_input *in, Dwarf_Die *die)
{
	Dwarf_Die cu;
	const char *name;

	if (!dwarf_diecu(die, &cu, NULL, NULL) || !(name = dwarf_diename(&cu)))
		return NULL;
	return display_path(in, name, cu_comp_dir(&cu));
}

/* Whether the definition at DIE is one Q's --die or --cu picks. */
static bool die_selected(const struct ll_dwarf_input *in, const struct ll_query *q,
			 Dwarf_Die *die)
{
	const struct ll_selector *sel = q->select;
	bool ok = true;

	if (!sel)
		return true;
	if (sel->by_die)
		ok = dwarf_dieoffset(die) == sel->die;
	if (ok && sel->cu_glob) {
		char *file = unit_file_name(in, die);

		ok = file && ll_path_glob_match(sel->cu_glob, file);
		free(file);
	}
	return ok;
}

static void add_die_candidate(struct query_state *qs, const struct ll_dwarf_input *in,
			      Dwarf_Die *agg, const struct ll_query *q)
{
	struct ll_finder_sig sig;
	char *raw, *comp_dir;
	char *file = decl_file_raw(in, agg, &raw, &comp_dir);

	ll_finder_signature(agg, file, &sig);
	if (raw)
		sig.file_hash = canonical_file_hash(in, raw, comp_dir);
	add_candidate(qs, dwarf_dieoffset(agg), part_of(in, agg), q->name, &sig, file,
		      die_selected(in, q, agg), q->select && q->select->by_die, raw, comp_dir,
		      false);
	free(raw);
	free(comp_dir);
}

static void query_state_release(struct query_state *qs)
{
	for (size_t c = 0; c < qs->nr_cands; c++)
		free(qs->cands[c].file);
	free(qs->cands);
	free(qs->raw_defs);
}

/*
 * The display paths of one unit's files, by DW_AT_decl_file index. Hits
 * arrive unit by unit in .debug_info order, so one entry suffices; --list
 * asks about every definition of every struct, where resolving the path
 * per hit was quadratic in the number of files. The scan hands each hit's
 * entry over (has_file); the unit's line table is read here only for a
 * hit without one.
 */
struct unit_files {
	bool active;
	size_t part;
	uint64_t stmt_list;
	char **display;		/* by file index, resolved on first use */
	char **raw;		/* by file index: what display[] was made of */
	size_t n;
	const char *dir0;	/* the table's directory 0, once known */
	struct ll_line_table table;
	bool table_tried, table_ok;
};

static void unit_files_release(struct unit_files *uf)
{
	for (size_t i = 0; i < uf->n; i++) {
		free(uf->display[i]);
		free(uf->raw[i]);
	}
	free(uf->display);
	free(uf->raw);
	ll_line_table_release(&uf->table);
	memset(uf, 0, sizeof(*uf));
}

/* What a raw hit's paths are relative to: as unit_root() says for a DIE. */
static const char *unit_file_root(const struct ll_dwarf_input *in, const char *dir0,
				  const struct ll_scan_hit *raw)
{
	return raw->comp_dir ? raw->comp_dir : in->build_root ? in->build_root : dir0;
}

/*
 * The raw path of RAW's declaring file into OUT and the table's directory
 * 0 into *DIR0: from the scan when it read them, else from the unit's
 * line table, read once. False: no such file.
 */
static bool unit_file_entry(const struct ll_dwarf_input *in, size_t part, struct unit_files *uf,
			    const struct ll_scan_hit *raw, struct strbuf *out, const char **dir0)
{
	if (raw->has_file) {
		ll_line_join(out, raw->file_dir, raw->file_name);
		*dir0 = raw->file_dir0;
		return true;
	}
	if (!uf->table_tried) {
		uf->table_tried = true;
		uf->table_ok = ll_line_table_load(&in->parts[part].lines, raw->stmt_list,
						  raw->comp_dir, &uf->table);
	}
	*dir0 = uf->table.dir0;
	return uf->table_ok && ll_line_table_path(&uf->table, raw->decl_file, out);
}

/*
 * A copy of the display path of file INDEX of the unit RAW is in (NULL:
 * unknown), the raw path it was made of and the directory it is relative
 * to (both borrowed).
 */
static bool unit_file(const struct ll_dwarf_input *in, size_t part, struct unit_files *uf,
		      const struct ll_scan_hit *raw, char **out, const char **raw_path,
		      const char **root)
{
	uint64_t index = raw->decl_file;

	if (!uf->active || uf->part != part || uf->stmt_list != raw->stmt_list) {
		unit_files_release(uf);
		uf->active = true;
		uf->part = part;
		uf->stmt_list = raw->stmt_list;
	}
	if (index >= uf->n || !uf->raw[index]) {
		struct strbuf path = STRBUF_INIT;
		const char *dir0;

		/* A damaged index must not size the cache: only a file that exists grows it. */
		if (!unit_file_entry(in, part, uf, raw, &path, &dir0)) {
			sb_release(&path);
			return false;
		}
		if (index >= uf->n) {
			size_t n = (size_t)index + 1;

			uf->display = grow_zeroed(uf->display, uf->n, n, sizeof(*uf->display));
			uf->raw = grow_zeroed(uf->raw, uf->n, n, sizeof(*uf->raw));
			uf->n = n;
		}
		uf->dir0 = dir0;
		uf->display[index] = display_path(in, path.buf, unit_file_root(in, dir0, raw));
		uf->raw[index] = sb_detach(&path);
	}
	*raw_path = uf->raw[index];
	*root = unit_file_root(in, uf->dir0, raw);
	*out = uf->display[index] ? xstrdup(uf->display[index]) : NULL;
	return true;
}

/*
 * The same from what the raw scan read; false when libdw must look (also
 * for --cu, which needs the unit's name).
 */
static bool add_raw_candidate(struct query_state *qs, const struct ll_dwarf_input *in,
			      size_t part, struct unit_files *uf, const struct ll_scan_hit *raw,
			      const struct ll_query *q)
{
	struct ll_finder_sig sig;
	const char *raw_path, *root;
	char *file;
	bool by_die = q->select && q->select->by_die;

	if ((q->select && q->select->cu_glob) ||
	    !unit_file(in, part, uf, raw, &file, &raw_path, &root))
		return false;
	ll_finder_sig_from_scan(raw, file, &sig);
	if (raw_path)
		sig.file_hash = canonical_file_hash(in, raw_path, root);
	add_candidate(qs, ll_scan_hit_aggregate(raw), part, q->name, &sig, file,
		      !by_die || ll_scan_hit_aggregate(raw) == q->select->die, by_die, raw_path,
		      root, raw->nothing_needed);
	return true;
}

static bool kind_matches(enum ll_query_kind want, int tag)
{
	return ll_query_kind_matches(want, tag == DW_TAG_union_type);
}

struct lookup_ctx {
	struct ll_dwarf_input *in;
	const struct ll_query *queries;
	size_t n;
	struct query_state *state;
	/* Queries by name: --list asks for thousands at once. */
	size_t *first;		/* open addressing: query index + 1 */
	size_t mask;
	size_t *next;		/* next query with the same name, index + 1 */
	struct unit_files files;	/* of the unit the last raw hit was in */
	size_t part;			/* the part being scanned */
	struct ll_finder **finder;	/* its finder, set before the first callback */
	int prepare_rc;			/* a sparse image read failed */
	struct ll_error prepare_err;
};

/*
 * The name index's key: the build-id, size, times, device and inode of
 * the file the raw scan reads; dir NULL (no index) without a cache
 * directory or a build-id.
 */
static void index_key(const struct ll_dwarf_input *in, struct ll_index_key *key)
{
	struct stat st;

	memset(key, 0, sizeof(*key));
	if (!in->opts.cache_dir || !in->build_id || fstat(in->fd, &st) != 0)
		return;
	key->dir = in->opts.cache_dir;
	key->build_id = in->build_id;
	key->size = (uint64_t)st.st_size;
	key->dev = (uint64_t)st.st_dev;
	key->ino = (uint64_t)st.st_ino;
	key->mtime_sec = st.st_mtim.tv_sec;
	key->mtime_nsec = st.st_mtim.tv_nsec;
	key->ctime_sec = st.st_ctim.tv_sec;
	key->ctime_nsec = st.st_ctim.tv_nsec;
}

static size_t str_hash(const char *s)
{
	return (size_t)ll_fnv1a_str(LL_FNV_INIT, s);
}

static void index_queries(struct lookup_ctx *lc)
{
	size_t slots = 16;

	while (slots < lc->n * 4)
		slots *= 2;
	lc->first = xcalloc(slots, sizeof(*lc->first));
	lc->next = xcalloc(lc->n ? lc->n : 1, sizeof(*lc->next));
	lc->mask = slots - 1;
	for (size_t i = lc->n; i-- > 0;) {
		size_t at = str_hash(lc->queries[i].name) & lc->mask;

		while (lc->first[at] && strcmp(lc->queries[lc->first[at] - 1].name,
					       lc->queries[i].name) != 0)
			at = (at + 1) & lc->mask;
		lc->next[i] = lc->first[at];
		lc->first[at] = i + 1;
	}
}

/* First query named NAME, as index + 1 (0: none); then follow lc->next. */
static size_t queries_named(const struct lookup_ctx *lc, const char *name)
{
	size_t at = str_hash(name) & lc->mask;

	while (lc->first[at]) {
		if (strcmp(lc->queries[lc->first[at] - 1].name, name) == 0)
			return lc->first[at];
		at = (at + 1) & lc->mask;
	}
	return 0;
}

/* Called by the finder for each top-level DIE whose name some query wants. */
static void on_named_die(Dwarf_Die *die, const struct ll_scan_hit *raw, const char *name,
			 void *arg)
{
	struct lookup_ctx *lc = arg;
	Dwarf_Die from_raw;
	int tag;

	if (raw && raw->settled) {
		/* A declaration only, or a typedef of a named type. */
		for (size_t q1 = queries_named(lc, name); q1; q1 = lc->next[q1 - 1])
			if (raw->declaration && kind_matches(lc->queries[q1 - 1].kind, raw->tag))
				mark_declared(&lc->state[q1 - 1], raw->tag);
		return;
	}
	if (raw) {
		/* A definition of an aggregate, read whole by the scan. */
		bool need_libdw = false;

		for (size_t q1 = queries_named(lc, name); q1 && !need_libdw; q1 = lc->next[q1 - 1])
			if (kind_matches(lc->queries[q1 - 1].kind, raw->tag))
				need_libdw = !add_raw_candidate(&lc->state[q1 - 1], lc->in,
								lc->part, &lc->files, raw,
								&lc->queries[q1 - 1]);
		if (!need_libdw)
			return;
		if (ll_finder_prepare(*lc->finder, raw->die, &lc->prepare_err)) {
			lc->prepare_rc = -1;
			return;
		}
		/* The raw scan reads .debug_info only: never a .debug_types part. */
		if (!dwarf_offdie(lc->in->parts[lc->part].src.dwarf, raw->die, &from_raw))
			return;
		die = &from_raw;
	}
	tag = dwarf_tag(die);
	for (size_t q1 = queries_named(lc, name); q1; q1 = lc->next[q1 - 1]) {
		size_t q = q1 - 1;
		const struct ll_query *query = &lc->queries[q];
		Dwarf_Die target;
		Dwarf_Attribute attr;

		if (is_aggregate_tag(tag)) {
			if (!kind_matches(query->kind, tag))
				continue;
			if (dwarf_attr(die, DW_AT_declaration, &attr)) {
				mark_declared(&lc->state[q], tag);
				continue;
			}
			add_die_candidate(&lc->state[q], lc->in, die, query);
		} else if (tag == DW_TAG_typedef && die_type(die, &target) &&
			   is_aggregate_tag(dwarf_tag(&target)) &&
			   dwarf_diename(&target) == NULL &&
			   kind_matches(query->kind, dwarf_tag(&target))) {
			if (dwarf_attr(&target, DW_AT_declaration, &attr)) {
				mark_declared(&lc->state[q], dwarf_tag(&target));
				continue;
			}
			add_die_candidate(&lc->state[q], lc->in, &target, query);
		}
	}
}

static char *describe_candidates(const struct query_state *qs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < qs->nr_cands; i++) {
		const struct candidate *c = &qs->cands[i];

		sb_addf(&sb, "%s%s:%u (size %llu, DIE 0x%llx)", i ? ", " : "",
			c->file ? c->file : "<unknown file>", c->line,
			(unsigned long long)c->sig.size, (unsigned long long)c->die);
	}
	return sb_detach(&sb);
}

/* The first part's "did you mean" that has one. */
static char *suggest(struct ll_dwarf_input *in, struct ll_finder **finders, const char *name)
{
	char *s = NULL;

	for (size_t p = 0; p < in->nr_parts && !s; p++) {
		/* The index covers the one part of an input it is written for. */
		if (p == 0 && in->nr_parts == 1 && in->index_state == 1)
			ll_finder_use_index(finders[p], &in->index);
		s = ll_finder_suggest(finders[p], name);
	}
	return s;
}

/*
 * A --list row's worth of PICK, from what the name index recorded when
 * it was built: the same kind, name, size, file and line build_struct()
 * gives, and its hole count.
 */
static void summary_result(const struct ll_dwarf_input *in, const struct ll_query *q,
			   const struct candidate *pick, struct ll_lookup_result *r)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));

	s->kind = pick->sig.tag == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
	s->name = xstrdup(q->name);
	s->size = pick->sig.size;
	s->cacheline = in->arch_cacheline;
	s->origin = pick->die;
	s->decl.file = pick->file ? xstrdup(pick->file) : NULL;
	s->decl.line = pick->line;
	r->layout = s;
	r->summary = true;
	r->holes = pick->holes;
	r->status = LL_FOUND;
}

static size_t settle_layout(const struct ll_query *q, struct ll_struct *layout, bool *digested);

/*
 * R for PICK when the input's member_filter says the digest needs
 * none of its members (the scan's nothing_needed): its layout without
 * members, digested as a built one would be, and no build.
 */
static void unneeded_result(const struct ll_dwarf_input *in, const struct ll_query *q,
			    const struct candidate *pick, struct ll_lookup_result *r)
{
	summary_result(in, q, pick, r);
	r->summary = false;
	r->holes = 0;
	settle_layout(q, r->layout, &r->digested);
}

/* The candidate Q picks (the first its glob allows), and how many the glob allows. */
static struct candidate *pick_of(const struct ll_query *q, struct query_state *qs,
				 size_t *matching)
{
	struct candidate *pick = NULL;

	*matching = 0;
	for (size_t i = 0; i < qs->nr_cands; i++) {
		struct candidate *c = &qs->cands[i];

		if (q->decl_glob && !(c->file && ll_path_glob_match(q->decl_glob, c->file)))
			continue;
		if (!c->selected || (q->select && q->select->by_size && c->sig.size != q->select->size))
			continue;
		++*matching;
		if (!pick)
			pick = c;
	}
	return pick;
}

/*
 * Q's pick when resolving Q builds it (one definition matches, and no
 * index summary answers a --list row), else NULL: resolve_unbuilt()
 * says what Q gets instead.
 */
/*
 * Whether Q's digest takes PICK unbuilt (the scan's nothing_needed). Never
 * past the size build_struct() accepts: a digest maps every claimed
 * cacheline (--audit on a struct claiming 64 GiB was "out of memory"), so
 * such a pick is built, and refused there with the line --list gives.
 */
static bool digest_unbuilt(const struct ll_query *q, const struct candidate *pick)
{
	return q->digest && pick->nothing_needed && pick->sig.size <= LL_MAX_STRUCT_SIZE;
}

static const struct candidate *pick_to_build(const struct ll_query *q, struct query_state *qs)
{
	size_t matching;
	const struct candidate *pick = pick_of(q, qs, &matching);

	return pick && matching == 1 && !(q->summary_only && pick->holes != LL_INDEX_NO_HOLES) &&
	       !digest_unbuilt(q, pick) ? pick : NULL;
}

/*
 * Q's answer when it needs no build (missing, ambiguous, a row from the
 * index): 0 with R filled in. 1: *PICK is to be built.
 */
static int resolve_unbuilt(struct ll_dwarf_input *in, const struct ll_query *q,
			   struct query_state *qs, struct ll_finder **finders,
			   struct ll_lookup_result *r, struct candidate **pick)
{
	size_t matching;

	*pick = pick_of(q, qs, &matching);
	if (matching == 0) {
		if (qs->nr_cands) {
			r->status = LL_MISSING;
			r->detail = describe_candidates(qs);
			return 0;
		}
		r->status = qs->declared ? LL_DECLARED_ONLY : LL_MISSING;
		r->detail = qs->declared || q->no_suggestion || qs->nothing_near ? NULL :
			    suggest(in, finders, q->name);
		return 0;
	}
	if (matching > 1) {
		r->status = LL_AMBIGUOUS;
		r->detail = describe_candidates(qs);
		return 0;
	}
	if (q->summary_only && (*pick)->holes != LL_INDEX_NO_HOLES) {
		summary_result(in, q, *pick, r);
		return 0;
	}
	if (digest_unbuilt(q, *pick)) {
		unneeded_result(in, q, *pick, r);
		return 0;
	}
	return 1;
}

static int index_entity_wrong(struct ll_dwarf_input *in, const struct candidate *pick,
			      const char *what, struct ll_error *err)
{
	atomic_store(&in->index_forged, true);
	return ll_fail(err, "%s: the name index %s names DIE 0x%llx for %s, but it is %s",
		       in->parts[pick->part].src.path,
		       in->index.path ? in->index.path : "", (unsigned long long)pick->die,
		       pick->name, what);
}

/*
 * A DIE the name index alone named is what it says (its checksums catch
 * damage, not a stale or forged record): a definition of the tag recorded,
 * of the name asked for, or nameless (a typedef's) of the size recorded.
 */
static int check_index_entity(struct ll_dwarf_input *in, const struct candidate *pick,
			      Dwarf_Die *die, struct ll_error *err)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(die);
	Dwarf_Word size;

	if (dwarf_tag(die) != pick->sig.tag)
		return index_entity_wrong(in, pick, "a DIE of another tag", err);
	if (dwarf_attr(die, DW_AT_declaration, &attr))
		return index_entity_wrong(in, pick, "a declaration", err);
	if (name ? strcmp(name, pick->name) != 0 :
		   dwarf_formudata(dwarf_attr(die, DW_AT_byte_size, &attr), &size) != 0 ||
		   size != pick->sig.size)
		return index_entity_wrong(in, pick, name ? "another name's" :
					  "a nameless one of another size", err);
	return 0;
}

/* Make PICK's unit real and find its DIE in the part's own handle. */
static int pick_die(struct ll_dwarf_input *in, struct ll_finder **finders,
		    const struct candidate *pick, Dwarf_Die *die, struct ll_error *err)
{
	const struct ll_finder_source *src = &in->parts[pick->part].src;

	if (ll_finder_prepare(finders[pick->part], pick->die, err))
		return -1;
	if (!(src->types ? dwarf_offdie_types(src->dwarf, pick->die, die) :
			   dwarf_offdie(src->dwarf, pick->die, die)))
		return pick->from_index ? index_entity_wrong(in, pick, "no DIE", err) :
		       ll_fail(err, "%s: cannot reread DIE 0x%llx: %s", src->path,
			       (unsigned long long)pick->die, dwarf_errmsg(-1));
	return pick->from_index ? check_index_entity(in, pick, die, err) : 0;
}

/*
 * LAYOUT's hole count; then Q's digest, if any, and for a --list row (Q
 * summary_only) or a digested layout, LAYOUT without its members: ~8,600
 * member trees of a --list='*' held until every build was done were
 * ~120 MB of its peak. Builds on two threads do it as soon as each is
 * built, on the thread that built it. *DIGESTED: the digest ran.
 */
static size_t settle_layout(const struct ll_query *q, struct ll_struct *layout, bool *digested)
{
	struct ll_summary sum;

	ll_summarize(layout, &sum);
	*digested = q->digest != NULL;
	if (q->digest)
		q->digest(layout, q->digest_arg);
	if (q->summary_only || q->digest)
		ll_struct_drop_members(layout);
	return sum.holes;
}

/*
 * R from the build of PICK for Q: BUILD_RC, LAYOUT and BERR as
 * build_struct() left them; *HOLES when settle_layout() ran already.
 */
static int finish_build(struct ll_dwarf_input *in, const struct ll_query *q,
			struct candidate *pick, struct ll_lookup_result *r, int build_rc,
			struct ll_struct *layout, const size_t *holes, bool unsupported,
			const struct ll_error *berr, struct ll_error *err)
{
	size_t nr_holes;
	bool digested = holes && q->digest;	/* with HOLES, settle_layout() ran */

	if (build_rc) {
		ll_struct_free(layout);
		if (unsupported) {
			r->status = LL_UNSUPPORTED;
			r->detail = xstrdup(berr->msg);
			return 0;
		}
		return ll_fail(err, "%s: %s %s: %s", in->path,
			       q->kind == LL_QUERY_UNION ? "union" : "struct", q->name, berr->msg);
	}
	r->layout = layout;
	if (holes)
		nr_holes = *holes;
	else
		nr_holes = settle_layout(q, layout, &digested);
	r->digested = digested;
	pick->holes = nr_holes < LL_INDEX_NO_HOLES ? (uint32_t)nr_holes : LL_INDEX_NO_HOLES;
	if (q->summary_only) {
		r->summary = true;
		r->holes = nr_holes;
	}
	r->status = LL_FOUND;
	return 0;
}

/*
 * How to build PICK for Q: a --list row or a digest needs the shape alone,
 * and takes the declaring file the candidate has.
 */
static struct build_how build_how_for(const struct ll_query *q, const struct candidate *pick)
{
	bool shape_only = q->summary_only || q->digest;

	return (struct build_how){ .shape_only = shape_only, .file = pick->file,
				   .list_row = q->summary_only };
}

static int resolve_query(struct ll_dwarf_input *in, const struct ll_query *q,
			 struct query_state *qs, struct ll_finder **finders,
			 struct ll_lookup_result *r, struct ll_error *err)
{
	struct candidate *pick;
	struct ll_struct *layout = NULL;
	struct ll_error berr;
	bool unsupported = false;
	Dwarf_Die die;
	int rc;

	if (!resolve_unbuilt(in, q, qs, finders, r, &pick))
		return 0;
	if (pick_die(in, finders, pick, &die, err))
		return -1;
	struct build_how how = build_how_for(q, pick);

	rc = build_struct(in, &die, q->name, &how, &layout, &unsupported, &berr);
	return finish_build(in, q, pick, r, rc, layout, NULL, unsupported, &berr, err);
}

/* ---- builds on two threads ---------------------------------------------- */

/*
 * One build of a whole-image lookup (--list, --audit, --contains: ~9,000
 * structs of a vmlinux, the longest step). Its DIE is read again in the
 * handle of the thread that builds it.
 */
struct build_job {
	size_t query;
	struct candidate *pick;
	/*
	 * pick_die() or the build failed: why, owned (an ll_error is 1 KiB,
	 * and a --list has ~10^4 jobs).
	 */
	struct ll_error *err;
	int prepare_rc;
	int rc;
	bool unsupported;
	struct ll_struct *layout;
	size_t members;
	size_t holes;			/* settle_layout()'s, when the build succeeded */
};

/* Keep ERR in JOB when RC says it failed. */
static void job_error(struct build_job *job, int rc, const struct ll_error *err)
{
	if (rc && !job->err) {
		job->err = xmalloc(sizeof(*job->err));
		*job->err = *err;
	}
}

struct build_pool {
	const struct ll_dwarf_input *in;
	const struct ll_query *queries;
	struct build_job *jobs;		/* in query order */
	size_t nr_jobs;
	size_t budget;			/* what was left before the first job */
	const size_t *round;		/* the jobs the threads build now, by index */
	size_t nr_round;
	atomic_size_t next;		/* into round */
};

struct build_worker {
	struct build_pool *pool;
	Dwarf *dwarf;			/* this thread's own handle */
	struct build_memo memo;		/* and its own memo */
};

static void *build_worker_main(void *arg)
{
	struct build_worker *w = arg;
	struct build_pool *pool = w->pool;

	for (;;) {
		size_t r = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
		struct build_job *job;
		Dwarf_Die die;

		if (r >= pool->nr_round)
			break;
		job = &pool->jobs[pool->round[r]];
		if (job->prepare_rc)
			continue;
		if (!dwarf_offdie(w->dwarf, job->pick->die, &die)) {
			job->rc = -1;	/* finish_jobs() builds it again, and says why */
			continue;
		}
		const struct ll_query *q = &pool->queries[job->query];
		struct build_how how = build_how_for(q, job->pick);
		struct ll_error err;

		how.budget = pool->budget;
		job->rc = build_struct_budget(pool->in, &die, q->name, &how, &w->memo, &job->layout,
					      &job->unsupported, &job->members, &err);
		job_error(job, job->rc, &err);
		if (!job->rc) {
			bool digested;

			job->holes = settle_layout(&pool->queries[job->query], job->layout,
						   &digested);
		}
	}
	return NULL;
}

/*
 * Whether IN's builds may run on two threads: its DWARF is the file's own
 * .debug_info alone, so a second libdw handle on the same ELF sees all
 * of it, and enough structs are asked for to be worth a thread.
 */
#define PARALLEL_MIN_BUILDS 64

static bool builds_in_parallel(const struct ll_dwarf_input *in, size_t nr_jobs)
{
	return nr_jobs >= PARALLEL_MIN_BUILDS && ll_threads() > 1 && in->own_dwarf &&
	       in->nr_parts == 1 && !in->parts[0].src.types && !in->alt.dwarf &&
	       in->dwp.n == 0 && !in->build_root;
}

/*
 * The jobs in query order, as the serial loop would have finished them:
 * each counts against the members built before it. A job whose members
 * would not have fit what was left then, or that failed, is built again
 * here with exactly that budget, so that the answer (and the error) is
 * the serial one whatever the threads did.
 */
static int finish_jobs(struct ll_dwarf_input *in, const struct ll_query *queries,
		       struct ll_finder **finders, struct build_pool *pool,
		       struct ll_lookup_result *results, struct ll_error *err)
{
	int rc = 0;

	for (size_t j = 0; j < pool->nr_jobs && !rc; j++) {
		struct build_job *job = &pool->jobs[j];
		const struct ll_query *q = &queries[job->query];
		size_t left = in->member_budget - in->members_built;
		Dwarf_Die die;
		bool rebuilt = job->rc || job->members > left;

		struct ll_error berr;

		if (job->prepare_rc) {
			*err = *job->err;
			rc = -1;
			break;
		}
		if (rebuilt) {
			ll_struct_free(job->layout);
			job->layout = NULL;
			if (pick_die(in, finders, job->pick, &die, err)) {
				rc = -1;
				break;
			}
			struct build_how how = build_how_for(q, job->pick);

			job->rc = build_struct(in, &die, q->name, &how, &job->layout,
					       &job->unsupported, &berr);
		} else {
			in->members_built += job->members;
			if (job->rc)
				berr = *job->err;
		}
		rc = finish_build(in, q, job->pick, &results[job->query], job->rc, job->layout,
				  rebuilt ? NULL : &job->holes, job->unsupported, &berr, err);
		job->layout = NULL;
	}
	for (size_t j = 0; j < pool->nr_jobs; j++) {
		ll_struct_free(pool->jobs[j].layout);
		free(pool->jobs[j].err);
	}
	return rc;
}

/* Builds above this many read most units: no unit header to skip (skip_for_few_builds()). */
#define FEW_BUILDS_MAX 512

/* The units a round of builds makes real at once: the peak of the image. */
#define ROUND_BYTES ((uint64_t)32 << 20)

/* A query or a build job (AT), by the DIE it builds: what goes in .debug_info order. */
struct by_die {
	uint64_t die;
	size_t at;
};

static int cmp_by_die(const void *a, const void *b)
{
	const struct by_die *x = a, *y = b;

	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * From BYDIE[*K]: the next round's jobs into POOL's round, each unit's
 * jobs in one round, until their units add up to ROUND_BYTES, or span
 * that much past FROM (what earlier rounds gave back of the file's
 * mapping; UINT64_MAX: no mapping to bound): libdw reads every unit
 * header up to the DIE it finds, each read mapping ~64 KiB of the file,
 * and the ~150 builds of an --audit='*' in one round of the 6.12 image
 * held 190 MB of it at once.
 */
static void next_round(struct build_pool *pool, struct ll_finder *finder,
		       const struct by_die *bydie, size_t *k, size_t *round, uint64_t from)
{
	uint64_t bytes = 0, unit = UINT64_MAX;
	size_t nr = 0;

	while (*k < pool->nr_jobs) {
		uint64_t begin, end;
		bool known = ll_finder_unit_span(finder, bydie[*k].die, &begin, &end);

		if (known && begin != unit) {
			if (nr && (bytes >= ROUND_BYTES ||
				   (from != UINT64_MAX && end - from > ROUND_BYTES)))
				break;
			bytes += end - begin;
			unit = begin;
		}
		round[nr++] = bydie[(*k)++].at;
	}
	pool->round = round;
	pool->nr_round = nr;
}

/*
 * Give back the units of POOL's round. From the file's mapping, all of
 * .debug_info up to its last unit not given back yet (*RELEASED) goes in
 * one call (a release may cost every CPU a TLB flush; those bytes are
 * read again from the file if need be); copied in, only each unit's own,
 * which the finder then knows to read again.
 */
static void release_round(const struct build_pool *pool, struct ll_finder *finder,
			  struct ll_sparse_image *image, uint64_t *released)
{
	uint64_t begin, end, last = 0;

	if (image && ll_sparse_whole(image)) {
		/*
		 * And all before it: libdw read the headers of the units
		 * between rounds, and each read mapped ~64 KiB around it.
		 */
		for (size_t r = 0; r < pool->nr_round; r++)
			if (ll_finder_unit_span(finder, pool->jobs[pool->round[r]].pick->die, &begin,
						&end) && end > last)
				last = end;
		if (last > *released)
			ll_sparse_release(image, *released, last - *released);
		*released = last > *released ? last : *released;
		return;
	}
	for (size_t r = 0; r < pool->nr_round; r++)
		ll_finder_release(finder, pool->jobs[pool->round[r]].pick->die);
}

/* Build POOL's round on WORKERS: the second on a thread of its own, if it has a handle. */
static void build_round(struct build_pool *pool, struct build_worker workers[2])
{
	pthread_t tid;
	bool two;

	atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
	two = workers[1].dwarf && pthread_create(&tid, NULL, build_worker_main, &workers[1]) == 0;
	build_worker_main(&workers[0]);
	if (two)
		pthread_join(tid, NULL);
}

/*
 * Every query of a whole-image lookup: those that need no build at once,
 * in order; the builds on two threads, the second with its own libdw
 * handle on the same ELF image (libdw handles share nothing). The builds
 * go in rounds, in .debug_info order: this thread makes a round's units
 * real (the threads only read the image), both build them, and the
 * units' memory is given back before the next round. Holding every unit
 * at once, a --list='*' of the 6.12 image peaked at 148 MB of units.
 * A job no round built (a unit that could not be made real stops them)
 * keeps rc -1: finish_jobs() builds it again in query order, as the
 * serial loop would, and says why it fails.
 */
static int resolve_all(struct ll_dwarf_input *in, const struct ll_query *queries,
		       struct query_state *state, struct ll_finder **finders,
		       struct ll_lookup_result *results, size_t n, const size_t *order,
		       struct ll_error *err)
{
	struct build_pool pool = { .in = in, .queries = queries };
	struct build_worker workers[2];
	struct by_die *bydie;
	size_t *round, k = 0;
	uint64_t released = 0;	/* .debug_info below it is given back */
	bool stopped = false;
	int rc = 0;

	/*
	 * Most units will be read: from the file's own mapping, where the
	 * page cache holds them already. Copied into zeroed anonymous pages
	 * (huge ones) instead, the zeroing and the copy were 30% of a cold
	 * --list='*'. Not where libdw's handle holds a made-up unit header
	 * the file does not have (ll_finder_faked()).
	 */
	bool faked = ll_finder_faked(finders[0]);

	if (in->image && !faked && ll_sparse_fill_all(in->image, err))
		ll_sparse_prefer_huge(in->image);
	pool.jobs = xcalloc(n ? n : 1, sizeof(*pool.jobs));
	for (size_t q = 0; q < n; q++) {
		size_t i = order ? order[q] : q;
		struct candidate *pick;

		if (!resolve_unbuilt(in, &queries[i], &state[i], finders, &results[i], &pick))
			continue;
		pool.jobs[pool.nr_jobs++] = (struct build_job){ .query = i, .pick = pick, .rc = -1 };
	}
	pool.budget = in->member_budget - in->members_built;
	bydie = xcalloc(pool.nr_jobs ? pool.nr_jobs : 1, sizeof(*bydie));
	round = xcalloc(pool.nr_jobs ? pool.nr_jobs : 1, sizeof(*round));
	for (size_t j = 0; j < pool.nr_jobs; j++)
		bydie[j] = (struct by_die){ pool.jobs[j].pick->die, j };
	qsort(bydie, pool.nr_jobs, sizeof(*bydie), cmp_by_die);
	workers[0] = (struct build_worker){ .pool = &pool, .dwarf = in->parts[0].src.dwarf };
	workers[1] = (struct build_worker){ .pool = &pool,
					    .dwarf = dwarf_begin_elf(dwarf_getelf(in->dwarf),
								     DWARF_C_READ, NULL) };
	/*
	 * With the whole file mapped, a DIE needs nothing made real before a
	 * build: each thread finds its own, and libdw's registration of the
	 * units before it (a page fault per header: ~35 ms of the 6.12 image)
	 * runs on both threads instead of in this one between rounds.
	 */
	bool prepared = !in->image || ll_sparse_whole(in->image);

	while (k < pool.nr_jobs && !stopped) {
		next_round(&pool, finders[0], bydie, &k, round,
			   in->image && ll_sparse_whole(in->image) ? released : UINT64_MAX);
		for (size_t r = 0; r < pool.nr_round && !stopped && !prepared; r++) {
			struct build_job *job = &pool.jobs[round[r]];
			struct ll_error perr;
			Dwarf_Die die;

			job->prepare_rc = pick_die(in, finders, job->pick, &die, &perr);
			job_error(job, job->prepare_rc, &perr);
			stopped = job->prepare_rc != 0;
		}
		if (!stopped)
			build_round(&pool, workers);
		release_round(&pool, finders[0], in->image, &released);
		/* The builds are the long part of a cold --list='*' (~0.4 s of ~1 s). */
		ll_progress_report(&in->opts.progress, "structs", k, pool.nr_jobs);
	}
	build_memo_release(&workers[0].memo);
	build_memo_release(&workers[1].memo);
	if (workers[1].dwarf)
		dwarf_end(workers[1].dwarf);
	free(bydie);
	free(round);
	rc = finish_jobs(in, queries, finders, &pool, results, err);
	free(pool.jobs);
	return rc;
}

/*
 * Every query: on two threads when builds_in_parallel() says so (counted
 * first: a lookup of a few names stays on this one).
 */
static int resolve_queries(struct ll_dwarf_input *in, const struct ll_query *queries,
			   struct query_state *state, struct ll_finder **finders,
			   struct ll_lookup_result *results, size_t n, const size_t *order,
			   struct ll_error *err)
{
	size_t builds = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		builds += pick_to_build(&queries[i], &state[i]) != NULL;
	if (builds_in_parallel(in, builds))
		return resolve_all(in, queries, state, finders, results, n, order, err);
	for (size_t k = 0; k < n && rc == 0; k++) {
		size_t i = order ? order[k] : k;

		ll_progress_report(&in->opts.progress, "structs", k + 1, n);
		rc = resolve_query(in, &queries[i], &state[i], finders, &results[i], err);
	}
	return rc;
}

/* MEMBERS_PER_INFO_BYTE per byte of .debug_info as libdw reads it, or MEMBERS_FLOOR. */
static size_t member_budget(struct ll_dwarf_input *in)
{
	const unsigned char *data;
	size_t size = 0;
	Elf *elf = dwarf_getelf(in->dwarf);

	if (elf && !ll_elf_section_bytes(elf, ".debug_info", ".zdebug_info", &data, &size))
		size = 0;
	return size > MEMBERS_FLOOR / MEMBERS_PER_INFO_BYTE ? size * MEMBERS_PER_INFO_BYTE :
							      MEMBERS_FLOOR;
}

/*
 * Whether a name index can stand for IN: its DWARF is the file's own
 * .debug_info alone. Types in .debug_types, a dwz supplementary file or
 * split units (a DIE offset meaningful only with its part) are beyond
 * what the index records, so such inputs neither read nor write one.
 */
static bool index_sound(const struct ll_dwarf_input *in)
{
	return in->own_dwarf && in->nr_parts == 1 && in->parts[0].src.dwarf == in->dwarf &&
	       !in->parts[0].src.types && in->parts[0].src.raw_ok && !in->alt.dwarf &&
	       !in->build_root && in->dwp.n == 0;
}

/*
 * Whether the index may answer (and record) QUERIES: not with a selector
 * (--cu, --size, --die pick among copies the index joins) nor a qualified
 * name (C++, Rust: inside namespaces and types, which it does not record).
 */
static bool index_answers(const struct ll_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((queries[i].select && (queries[i].select->cu_glob || queries[i].select->by_size ||
					   queries[i].select->by_die)) ||
		    ll_scoped_name(queries[i].name))
			return false;
	return true;
}

/* The name index of IN, loaded on first use (a refused one is a note); NULL: none. */
static struct ll_name_index *dwarf_index(struct ll_dwarf_input *in)
{
	struct ll_index_key key;
	char *note = NULL;
	const unsigned char *data;
	size_t size;
	Elf *elf;

	if (in->index_state)
		return in->index_state == 1 ? &in->index : NULL;
	in->index_state = -1;
	if (!index_sound(in))
		return NULL;
	index_key(in, &key);
	elf = dwarf_getelf(in->dwarf);
	if (!key.dir || !in->own_dwarf || !elf ||
	    !ll_elf_section_bytes(elf, ".debug_info", ".zdebug_info", &data, &size))
		return NULL;
	key.info_size = size;
	if (!ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &data, &size))
		return NULL;
	key.abbrev_size = size;
	if (ll_name_index_load(&key, &in->index, &note) == 0)
		in->index_state = 1;
	else if (note)
		ll_notef("%s", note);
	free(note);
	return in->index_state == 1 ? &in->index : NULL;
}

static bool index_flags_declare(uint32_t flags, enum ll_query_kind kind)
{
	return (kind != LL_QUERY_UNION && (flags & LL_INDEX_DECLARED_STRUCT)) ||
	       (kind != LL_QUERY_STRUCT && (flags & LL_INDEX_DECLARED_UNION));
}

/*
 * Q's candidates from the name index, as the scan would have found them:
 * false when the index cannot answer Q alone (its definitions were never
 * recorded, or a miss needs a "did you mean" scan).
 */
static bool warm_state(const struct ll_dwarf_input *in, const struct ll_name_index *ix,
		       const struct ll_query *q, struct query_state *qs)
{
	long k;
	size_t nd;
	const struct ll_index_def *defs;

	if (q->kind != LL_QUERY_ANY && q->kind != LL_QUERY_STRUCT && q->kind != LL_QUERY_UNION)
		return false;
	k = ll_name_index_find(ix, q->name);
	if (k < 0) {	/* no struct, union or typedef of that name anywhere */
		if (q->no_suggestion)
			return true;
		/*
		 * Missing, known without a scan (whose postings alone are most
		 * of the index file). Nothing to propose either when no name
		 * of the index is near: then not even .debug_str is read (~20
		 * ms of the 6.12 image, against ~2 ms for a warm found name);
		 * otherwise ll_finder_suggest() proposes, with the index.
		 */
		qs->nothing_near = !ll_name_index_has_near(ix, q->name,
							   ll_suggest_limit(strlen(q->name)));
		return true;
	}
	if (!(ix->flags[k] & LL_INDEX_DEFS_KNOWN))
		return false;
	defs = ll_name_index_defs(ix, k, &nd);
	/* The index's distinct definitions, joined as their canonical paths join. */
	for (size_t i = 0; i < nd; i++) {
		const struct ll_index_def *d = &defs[i];
		const char *raw = ll_name_index_string(ix, d->file);
		const char *comp_dir = ll_name_index_string(ix, d->comp_dir);
		char *file = raw ? display_path(in, raw, comp_dir) : NULL;
		struct ll_finder_sig sig = {
			.tag = (int)d->tag, .size = d->size, .line = d->line,
			.file_hash = file ? canonical_file_hash(in, raw, comp_dir) : 0,
			.members_hash = d->members_hash, .nr_members = d->nr_members,
		};
		size_t before = qs->nr_cands;

		if (!kind_matches(q->kind, (int)d->tag)) {
			free(file);
			continue;
		}
		add_candidate(qs, d->die, 0, q->name, &sig, file, true, false, NULL, NULL, false);
		if (qs->nr_cands > before) {
			qs->cands[before].holes = d->holes;
			qs->cands[before].from_index = true;
		}
	}
	qs->declared = index_flags_declare(ix->flags[k], q->kind);
	return qs->nr_cands || qs->declared || q->no_suggestion;
}

/* The definitions QS captured, as an index entry's; false if a DIE is in no unit. */
static bool entry_defs(const struct query_state *qs, const struct ll_scan_unit *units,
		       size_t nr_units, struct ll_index_entry *e)
{
	struct ll_index_def_src *defs = xcalloc(qs->nr_raw_defs ? qs->nr_raw_defs : 1,
						sizeof(*defs));

	for (size_t i = 0; i < qs->nr_raw_defs; i++) {
		defs[i] = qs->raw_defs[i].def;
		size_t u = ll_scan_unit_index(units, nr_units, defs[i].d.die);

		if (u >= UINT32_MAX) {
			free(defs);
			return false;
		}
		defs[i].d.unit = (uint32_t)u;
		/* The pick's hole count, when this definition was built. */
		for (size_t c = 0; c < qs->nr_cands; c++)
			if (qs->cands[c].die == defs[i].d.die)
				defs[i].d.holes = qs->cands[c].holes;
	}
	free(e->defs);
	e->defs = defs;
	e->nr_defs = qs->nr_raw_defs;
	e->flags = LL_INDEX_DEFS_KNOWN | qs->declared_flags;
	return true;
}

/*
 * After a lookup that captured definitions: write the index again with
 * them, onto the listing's seed or the loaded index. Only names asked for
 * as any kind are recorded (a struct query sees no unions of its name).
 */
static void update_index(struct ll_dwarf_input *in, const struct lookup_ctx *lc)
{
	struct ll_index_entry *e = NULL;
	size_t n = 0, nr_units;
	const struct ll_scan_unit *units;
	struct ll_index_key key;
	char *note = NULL;
	bool own = false, changed = false;

	if (in->seed.entries) {
		e = in->seed.entries;
		n = in->seed.nr_entries;
		units = in->seed.units;
		nr_units = in->seed.nr_units;
	} else if (in->index_state == 1) {
		if (ll_name_index_entries_from_index(&in->index, &e, &n, &note)) {
			if (note)
				ll_notef("%s", note);
			free(note);
			return;
		}
		own = true;
		units = in->index.units;
		nr_units = in->index.nr_units;
	} else {
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (e[i].flags & LL_INDEX_DEFS_KNOWN)
			continue;
		for (size_t q1 = queries_named(lc, e[i].name); q1; q1 = lc->next[q1 - 1]) {
			if (!lc->state[q1 - 1].capture)
				continue;
			changed |= entry_defs(&lc->state[q1 - 1], units, nr_units, &e[i]);
			break;
		}
	}
	index_key(in, &key);
	key.info_size = in->seed.entries ? in->seed.info_size : in->index.info_size;
	if (changed || in->seed.entries)
		ll_name_index_write(&key, units, nr_units, e, n);
	if (own)
		ll_name_index_entries_free(e, n);
	else
		ll_finder_seed_release(&in->seed);
}

/* Queries above this many (--list, --audit) build most units: no header to skip. */
#define COLD_SKIP_MAX 64

/*
 * Whether each query has one definition to build: nothing is then read
 * of .debug_info but the picks' units (no "did you mean", no candidates
 * to describe), as ll_finder_skip_headers() requires.
 */
static bool every_query_builds(const struct ll_query *queries, struct query_state *state,
			       size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!pick_to_build(&queries[i], &state[i]))
			return false;
	return true;
}

/*
 * Many queries and few builds (--audit='*' builds ~150 of the 6.12 image's
 * ~8,000 structs: the scan's nothing_needed): resolve_all() builds them in
 * DIE order, behind made-up unit headers (ll_finder_skip_headers())
 * instead of both threads' handles registering every unit header (~70 ms
 * of CPU), while errors stay in query order. Only where nothing else is
 * read of .debug_info: no query asks "did you mean".
 */
static void skip_for_few_builds(const struct ll_dwarf_input *in, const struct ll_query *queries,
				struct query_state *state, size_t n, struct ll_finder *finder)
{
	uint64_t *dies = xmalloc((n ? n : 1) * sizeof(*dies));
	size_t nr_dies = 0;

	for (size_t i = 0; i < n; i++) {
		const struct candidate *pick = pick_to_build(&queries[i], &state[i]);

		if (!queries[i].no_suggestion) {
			nr_dies = 0;
			break;
		}
		if (pick)
			dies[nr_dies++] = pick->die;
	}
	if (nr_dies <= FEW_BUILDS_MAX && builds_in_parallel(in, nr_dies))
		ll_finder_skip_headers(finder, dies, nr_dies);
	free(dies);
}

/*
 * The order to resolve queries in: by the DIE each will build, so the
 * finder may stand one made-up unit header in for the many before each
 * (ll_finder_skip_headers()) instead of libdw reading them all.
 */
static size_t *warm_order(const struct ll_query *queries, struct query_state *state, size_t n,
			  struct ll_finder *finder)
{
	struct by_die *v = xmalloc((n ? n : 1) * sizeof(*v));
	uint64_t *dies = xmalloc((n ? n : 1) * sizeof(*dies));
	size_t *order = xmalloc((n ? n : 1) * sizeof(*order)), nr_dies = 0;

	for (size_t i = 0; i < n; i++) {
		const struct candidate *pick = pick_to_build(&queries[i], &state[i]);

		v[i] = (struct by_die){ pick ? pick->die : 0, i };
		if (pick)
			dies[nr_dies++] = pick->die;
	}
	qsort(v, n, sizeof(*v), cmp_by_die);
	for (size_t i = 0; i < n; i++)
		order[i] = v[i].at;
	/*
	 * A missing name's "did you mean" may end in libdw's walk of every
	 * unit (ll_finder_suggest()), which made-up headers would mislead.
	 */
	bool suggests = false;

	for (size_t i = 0; i < n; i++)
		suggests |= !state[i].nr_cands && !state[i].declared && !state[i].nothing_near &&
			    !queries[i].no_suggestion;
	if (!suggests)
		ll_finder_skip_headers(finder, dies, nr_dies);
	free(dies);
	free(v);
	return order;
}

/* Whether any query's definitions would be new to the index (or its seed). */
static bool wants_capture(struct ll_dwarf_input *in, const struct ll_name_index *ix,
			  const struct ll_query *q)
{
	long k;

	if (q->kind != LL_QUERY_ANY)
		return false;
	if (in->seed.entries)
		return true;
	if (!ix)
		return false;
	k = ll_name_index_find(ix, q->name);
	return k >= 0 && !(ix->flags[k] & LL_INDEX_DEFS_KNOWN);
}

/* Whether a query picks among copies by their unit or DIE (--cu, --die). */
static bool wants_every_copy(const struct ll_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (queries[i].select && (queries[i].select->cu_glob || queries[i].select->by_die))
			return true;
	return false;
}

static int lookup_once(void *reader, const struct ll_query *queries, size_t n,
		       struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_dwarf_input *in = reader;
	struct query_state *state = xcalloc(n ? n : 1, sizeof(*state));
	struct ll_finder **finders = xcalloc(in->nr_parts, sizeof(*finders));
	struct lookup_ctx lc = { .in = in, .queries = queries, .n = n, .state = state };
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	bool use_index = index_answers(queries, n);
	struct ll_name_index *ix = use_index ? dwarf_index(in) : NULL;
	/*
	 * A member filter (--audit) is the scan's to apply: the index
	 * records no member types, and answered from it every struct was
	 * built (~8,000 of the 6.12 image: 0.73 s warm against 0.37 s cold).
	 * The listing that --audit runs first scanned already: its hits
	 * answer.
	 */
	bool warm = ix != NULL && !in->opts.member_filter, capture = false;
	struct interned strings = { 0 };	/* of the definitions captured */
	size_t *order = NULL;	/* warm: queries by their pick's DIE */
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		names[i] = queries[i].name;
		memset(&results[i], 0, sizeof(results[i]));
	}
	if (!in->member_budget)
		in->member_budget = member_budget(in);
	index_queries(&lc);
	/* Every query answered by the index: no scan, only the picks' units read. */
	for (size_t i = 0; i < n && warm; i++)
		warm = warm_state(in, ix, &queries[i], &state[i]);
	/* An index is read only for an input of one part (index_sound()). */
	if (warm)
		finders[0] = ll_finder_from_index(&in->parts[0].src, ix);
	if (warm && finders[0]) {
		/* Only the built units (mapped from the file) and one made-up header get touched. */
		order = warm_order(queries, state, n, finders[0]);
	} else {
		for (size_t i = 0; i < n; i++) {
			query_state_release(&state[i]);
			memset(&state[i], 0, sizeof(state[i]));
			state[i].capture = use_index && wants_capture(in, ix, &queries[i]) ?
					   &strings : NULL;
			capture |= state[i].capture != NULL;
		}
		/* The name index covers the file's own .debug_info only. */
		for (size_t p = 0; p < in->nr_parts && !rc; p++) {
			lc.part = p;
			lc.finder = &finders[p];
			in->parts[p].src.distinct = !wants_every_copy(queries, n);
			in->parts[p].src.lines = in->parts[p].lines;
			in->parts[p].src.prescan = &in->parts[p].prescan;
			rc = ll_finder_scan(&in->parts[p].src, p ? NULL : ix, names, n, on_named_die,
					    &lc, &in->opts.progress, &finders[p], err);
			in->parts[p].src.prescan = NULL;
			if (!rc && lc.prepare_rc) {
				*err = lc.prepare_err;
				rc = -1;
			}
		}
	}
	/*
	 * Cold, a few structs each found once: built in DIE order behind the
	 * one made-up unit header, as warm. A late struct of the 6.12 image
	 * otherwise had ~3,000 real headers written, a fresh page and a
	 * fault each: over a third of the lookup (100 -> 63 ms).
	 */
	if (rc == 0 && !order && in->nr_parts == 1 && n <= COLD_SKIP_MAX &&
	    every_query_builds(queries, state, n))
		order = warm_order(queries, state, n, finders[0]);
	else if (rc == 0 && !order && in->nr_parts == 1)
		skip_for_few_builds(in, queries, state, n, finders[0]);
	/* With thousands of queries (--list, --audit) this is the long part. */
	if (rc == 0)
		rc = resolve_queries(in, queries, state, finders, results, n, order, err);
	free(order);
	/* Its type facts are by DIE address: good only while this lookup's handles live. */
	if (in->build_memo) {
		build_memo_release(in->build_memo);
		free(in->build_memo);
		in->build_memo = NULL;
	}
	if (!rc && use_index && (capture || in->seed.entries))
		update_index(in, &lc);
	/* A listing's prescan serves the one lookup after it. */
	for (size_t p = 0; p < in->nr_parts; p++)
		ll_finder_prescan_release(&in->parts[p].prescan);
	for (size_t i = 0; i < n; i++)
		query_state_release(&state[i]);
	interned_release(&strings);
	for (size_t p = 0; p < in->nr_parts; p++)
		ll_finder_free(finders[p]);
	free(finders);
	free(state);
	free(names);
	free(lc.first);
	free(lc.next);
	unit_files_release(&lc.files);
	return rc;
}

/*
 * An index whose entity check failed is ignored, not obeyed and not fatal:
 * the lookup runs again as without one, after one note.
 */
static int dwarf_lookup(void *reader, const struct ll_query *queries, size_t n,
			struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_dwarf_input *in = reader;
	int rc = lookup_once(reader, queries, n, results, err);

	if (rc && atomic_load(&in->index_forged) && in->index_state == 1) {
		ll_notef("%s; ignoring the name index (remove it, or run with --no-cache)",
			 err->msg);
		for (size_t i = 0; i < n; i++) {
			ll_struct_free(results[i].layout);
			free(results[i].detail);
		}
		atomic_store(&in->index_forged, false);
		ll_name_index_release(&in->index);
		in->index_state = -1;
		rc = lookup_once(reader, queries, n, results, err);
	}
	return rc;
}

/* The variables PART's listing found, kept past the lookup that takes its prescan. */
static void keep_variables(struct dwarf_part *part)
{
	ll_scan_variables_free(part->variables, part->nr_variables);
	part->variables = part->prescan.variables;
	part->nr_variables = part->prescan.nr_variables;
	part->variables_known = part->prescan.ready;
	part->prescan.variables = NULL;
	part->prescan.nr_variables = 0;
}

static int dwarf_list(void *state, const char *lookup_glob, char ***names, size_t *n,
		      struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct ll_name_index *ix = dwarf_index(in);
	struct ll_index_key key;

	/*
	 * The index holds every name a listing finds, sorted, each once. Not
	 * the global variables the caller asks for next (--audit): the
	 * listing's scan reads them, where libdw's walk of every unit took
	 * longer than the scan (a warm --audit='*' of the 6.12 image was
	 * 0.92 s, a cold one 0.74 s).
	 */
	if (ix && !in->opts.globals_next) {
		*n = ix->nr_names;
		*names = xcalloc(*n ? *n : 1, sizeof(**names));
		for (size_t i = 0; i < *n; i++)
			(*names)[i] = xstrdup(ix->names + ix->name_off[i]);
		return 0;
	}
	index_key(in, &key);
	ll_finder_seed_release(&in->seed);
	*names = NULL;
	*n = 0;
	for (size_t p = 0; p < in->nr_parts; p++) {
		char **more = NULL;
		size_t nr_more = 0;

		/* The index the lookup after writes: seeded by the one part it covers. */
		bool seed = !ix && p == 0 && index_sound(in) && ll_name_index_writable(&key);

		/* Read as the lookup of what is listed will want it (dwarf_lookup()). */
		in->parts[p].src.distinct = true;
		in->parts[p].src.lines = in->parts[p].lines;
		in->parts[p].src.variables = in->opts.globals_next;
		in->parts[p].src.member_filter = in->opts.member_filter;
		if (ll_finder_list(&in->parts[p].src, seed ? &in->seed : NULL, lookup_glob,
				   &in->parts[p].prescan, &more, &nr_more, &in->opts.progress, err)) {
			ll_finder_seed_release(&in->seed);
			/* What it had listed before failing is ours to free, and so is ours. */
			for (size_t i = 0; i < nr_more; i++)
				free(more[i]);
			free(more);
			for (size_t i = 0; i < *n; i++)
				free((*names)[i]);
			free(*names);
			*names = NULL;
			*n = 0;
			return -1;
		}
		keep_variables(&in->parts[p]);
		for (size_t i = 0; i < nr_more; i++) {
			*names = xgrow(*names, *n, sizeof(**names));
			(*names)[(*n)++] = more[i];
		}
		free(more);
	}
	/* Each part's names are sorted, each once: only several need merging. */
	if (in->nr_parts > 1)
		ll_names_sort_unique(*names, n);
	return 0;
}

/* ---- global variables -------------------------------------------------- */

struct variable_decls {
	const struct ll_dwarf_input *in;
	struct file_cache files;
};

static void variable_decl(void *ctx, Dwarf_Die *die, struct ll_decl *out)
{
	struct variable_decls *vd = ctx;

	die_decl(vd->in, die, &vd->files, out);
}

/*
 * Every unit is read. Where the lookups read .debug_info sparsely, the
 * hole becomes the file's own mapping again first (ll_sparse_fill_all(),
 * no copy): the units the lookups had copied in are let go, instead of a
 * second mapping of the file beside them (--audit='*' on the 6.12 image
 * peaked at 603 MB that way). Two walkers each get a libdw handle of
 * their own on that ELF when this reader opened the DWARF itself
 * (libdwfl's, for modules and separate debug files, stays one).
 */
/* A unit the variables walk has read: its pages go back (6.12: a 301 -> 173 MB peak). */
static void variables_unit_done(void *arg, Dwarf_Off begin, Dwarf_Off end)
{
	ll_sparse_release(arg, begin, end - begin);
}

/*
 * The variables a listing's scan read whole (ll_scan_variable's RAW) into
 * OUT, as the libdw walk's add_variable() and die_decl() make them; the
 * others into *REST, for that walk. The scan had each unit in memory
 * already: through libdw, the walk parsed every unit's abbreviations
 * again and registered every unit, ~0.2 s of CPU of a cold --audit='*'.
 * Each name and type moves from V to OUT (~46,000 of each on 6.12,
 * copied and freed at once before).
 */
static void raw_variables(const struct ll_dwarf_input *in, struct ll_scan_variable *v,
			  size_t n, struct ll_variables *out, struct ll_scan_variable **rest,
			  size_t *nr_rest)
{
	/* The last file shown: a unit's variables come together, often from one file. */
	const struct ll_scan_variable *last = NULL;
	char *shown = NULL;

	*rest = xmalloc((n ? n : 1) * sizeof(**rest));
	*nr_rest = 0;
	for (size_t i = 0; i < n; i++) {
		struct ll_variable *o;

		if (!v[i].raw) {
			(*rest)[(*nr_rest)++] = v[i];	/* no strings: the scan kept none */
			continue;
		}
		if (!v[i].fixed)
			continue;
		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		o = &out->v[out->n++];
		*o = (struct ll_variable){ .name = v[i].name, .addr = v[i].addr,
					   .order = v[i].die, .type = v[i].type };
		v[i].name = v[i].type = NULL;	/* moved */
		o->decl.line = v[i].line;
		o->decl.column = v[i].column;
		if (!v[i].has_file)
			continue;
		if (!last || strcmp(last->file_path, v[i].file_path) != 0 ||
		    strcmp(last->comp_dir, v[i].comp_dir) != 0) {
			free(shown);
			shown = display_path(in, v[i].file_path, v[i].comp_dir);
			last = &v[i];
		}
		o->decl.file = shown ? xstrdup(shown) : NULL;
	}
	free(shown);
}

/*
 * PART's listing variables, once raw_variables() took their names and
 * types: the rest goes, and a later reading walks with libdw.
 */
static void drop_listed_variables(struct dwarf_part *part)
{
	ll_scan_variables_free(part->variables, part->nr_variables);
	part->variables = NULL;
	part->nr_variables = 0;
	part->variables_known = false;
}

/* A and B, each in .debug_info order, into one list in that order (A, B emptied). */
static void merge_variables(struct ll_variables *a, struct ll_variables *b,
			    struct ll_variables *out)
{
	size_t i = 0, k = 0;

	memset(out, 0, sizeof(*out));
	out->v = xmalloc((a->n + b->n ? a->n + b->n : 1) * sizeof(*out->v));
	while (i < a->n || k < b->n)
		out->v[out->n++] = k >= b->n || (i < a->n && a->v[i].order < b->v[k].order) ?
				   a->v[i++] : b->v[k++];
	free(a->v);
	free(b->v);
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
}

static int dwarf_variables(void *state, struct ll_variables *out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct variable_decls vd[2] = { { .in = in }, { .in = in } };
	struct ll_variables_walk walk = { .path = in->path, .dw = { in->dwarf },
					  .ctx = { &vd[0], &vd[1] }, .nr = 1,
					  .decl = variable_decl,
					  .unit_done = in->image ? variables_unit_done : NULL,
					  .unit_done_arg = in->image };
	struct ll_variables raw = { 0 }, walked = { 0 };
	struct ll_scan_variable *rest = NULL;
	size_t nr_rest = 0;
	bool own[2] = { false, false };
	int rc;

	memset(out, 0, sizeof(*out));
	/* A listing found the candidates: only those are read, not every DIE. */
	if (in->nr_parts == 1 && in->parts[0].variables_known &&
	    in->parts[0].src.dwarf == in->dwarf) {
		raw_variables(in, in->parts[0].variables, in->parts[0].nr_variables, &raw, &rest,
			      &nr_rest);
		drop_listed_variables(&in->parts[0]);
		if (!nr_rest) {
			free(rest);
			*out = raw;
			return 0;
		}
		walk.only = rest;
		walk.nr_only = nr_rest;
		walk.use_only = true;
	}
	if (in->image && ll_sparse_fill_all(in->image, err)) {
		free(rest);
		ll_variables_release(&raw);
		return -1;
	}
	/* Fresh handles: the lookups' one may hold a made-up unit header (finder.h). */
	for (unsigned i = 0; i < 2 && in->own_dwarf; i++) {
		if (i && ll_threads() < 2)
			break;
		Dwarf *dw = dwarf_begin_elf(in->elf, DWARF_C_READ, NULL);

		if (!dw)
			break;
		walk.dw[i] = dw;
		own[i] = true;
		walk.nr = i + 1;
	}
	rc = ll_dwarf_variables(&walk, &walked, err);
	for (unsigned i = 0; i < 2; i++)
		if (own[i])
			dwarf_end(walk.dw[i]);
	file_cache_reset(&vd[0].files);
	file_cache_reset(&vd[1].files);
	free(rest);
	merge_variables(&raw, &walked, out);
	return rc;
}

/* ---- the reader's operations (reader_impl.h) --------------------------- */

static int dwarf_open(const char *path, bool raw, const struct ll_input_options *opts,
		     void **state, struct ll_error *err)
{
	struct ll_dwarf_input *in = NULL;
	int rc;

	(void)raw;	/* DWARF lives in ELF only */
	rc = ll_dwarf_input_open(path, opts, &in, err);
	*state = in;
	return rc;
}

/*
 * --access: the evidence the cache keeps for this build-id, and the
 * analyzer's for the rest, which the cache then keeps too.
 */
static int dwarf_access(void *state, const struct ll_struct *const *structs, size_t n,
			bool cached_only, struct ll_access_evidence **out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct ll_access_target *t = xcalloc(n ? n : 1, sizeof(*t)), *missing;
	struct ll_access_evidence **fresh;
	size_t hits, nr_missing = 0, k = 0;
	char *note = NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		t[i] = (struct ll_access_target){ structs[i]->name, structs[i]->kind == LL_UNION,
						  structs[i]->size };
	hits = ll_access_cache_load(in->opts.cache_dir, in->build_id, t, n, out, &note);
	if (note)
		ll_notef("%s", note);
	free(note);
	missing = xcalloc(n ? n : 1, sizeof(*missing));
	fresh = xcalloc(n ? n : 1, sizeof(*fresh));
	for (size_t i = 0; i < n; i++)
		if (!out[i])
			missing[nr_missing++] = t[i];
	if (hits < n && !cached_only)
		rc = ll_access_analyze(in->dwarf, in->path, missing, nr_missing, fresh, err);
	for (size_t i = 0; i < n; i++)
		if (!out[i])
			out[i] = fresh[k++];
	if (rc == 0 && nr_missing && !cached_only)
		ll_access_cache_store(in->opts.cache_dir, in->build_id, fresh, nr_missing);
	if (rc) {
		for (size_t i = 0; i < n; i++) {
			ll_access_evidence_free(out[i]);
			out[i] = NULL;
		}
	}
	free(fresh);
	free(missing);
	free(t);
	return rc;
}

static int dwarf_access_all(void *state, struct ll_access_image *out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;

	if (ll_access_analyze_all(in->dwarf, in->path, out, err))
		return -1;
	ll_access_image_sort(out);
	return 0;
}

const struct ll_input_ops ll_dwarf_input_ops = {
	.name = "DWARF",
	.open = dwarf_open,
	.close = dwarf_close,
	.build_id = dwarf_build_id,
	.arch_cacheline = dwarf_arch_cacheline,
	.lookup = dwarf_lookup,
	.list = dwarf_list,
	.variables = dwarf_variables,
	.access = dwarf_access,
	.access_all = dwarf_access_all,
};
