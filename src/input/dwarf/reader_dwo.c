// SPDX-License-Identifier: GPL-2.0-or-later
/* Where else the types are: .debug_types, the dwz file, split DWARF .dwo and .dwp files. */
#include "input/dwarf/readerP.h"

static struct dwarf_part *add_part(struct ll_dwarf_input *in, Dwarf *dwarf, const char *path)
{
	struct dwarf_part *p;

	in->parts = xgrow(in->parts, in->nr_parts, sizeof(*in->parts));
	p = &in->parts[in->nr_parts++];
	memset(p, 0, sizeof(*p));
	p->src = (struct ll_finder_source){ .dwarf = dwarf, .notes = in->opts.notes, .path = path,
					    .fd = -1, .str_fd = -1 };
	reader_line_sections(dwarf_getelf(dwarf), &p->lines);
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
 * first touch of each page of its mapping is costly here, and the
 * search over the 6 MB of the 6.12 image was slow in a cold run's
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
	const char *comp_dir = reader_cu_comp_dir(skeleton);
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
	 * split DWARF (reader_index_sound()). It answers without reading all of
	 * .debug_abbrev: much of a warm lookup (bench/RESULTS.md).
	 */
	if (reader_index_sound(in) && reader_index(in))
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
				  reader_cu_comp_dir(&cudie) : NULL;

		if (dir)
			in->build_root = xstrdup(dir);
	}
	return 0;
}

/*
 * A .dwp given as BINARY: a part for each unit. Their declaring files
 * are in the binary's skeleton units, which say nothing here.
 */
int reader_open_package(struct ll_dwarf_input *in, struct ll_error *err)
{
	if (ll_dwp_load(in->elf, in->path, &in->dwp, err))
		return -1;
	if (!in->dwp.n)
		return ll_fail(err, "%s: a DWARF package (.dwp) with no compilation unit", in->path);
	ll_notes_addf(in->opts.notes, "%s: a DWARF package (.dwp): declaring files live in the "
		      "binary's skeleton units; give the binary (with the package beside it) to "
		      "see them", in->path);
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
int reader_find_parts(struct ll_dwarf_input *in, struct ll_error *err)
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
