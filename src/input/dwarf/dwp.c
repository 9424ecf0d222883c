// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/dwarf/dwp.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input/dwarf/raw/byte_cursor.h"
#include "input/elf/elf_section.h"
#include "util/strbuf.h"

/*
 * Section ids of the index's columns: the DWARF 5 ones, and the version 2
 * (GNU, DWARF 4) ones where they differ.
 */
enum { SECT_INFO = 1, SECT_ABBREV = 3, SECT_LINE = 4, SECT_STR_OFFSETS = 6 };

/* The sections of one rebuilt .dwo, in the order they are written. */
enum { OUT_INFO, OUT_ABBREV, OUT_STR_OFFSETS, OUT_LINE, OUT_STR, NR_OUT };
static const char *const out_names[NR_OUT] = {
	".debug_info.dwo", ".debug_abbrev.dwo", ".debug_str_offsets.dwo", ".debug_line.dwo",
	".debug_str.dwo",
};

struct span {
	const unsigned char *p;
	size_t size;
};

/* The .dwp's sections, whole. */
struct package {
	struct span whole[NR_OUT];
	unsigned char ident[EI_NIDENT];
	unsigned machine;
};

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

/*
 * An ELF64 little-endian relocatable file holding SECS, NULL-free spans
 * only: the header, the sections' bytes, .shstrtab, then the section
 * headers. Little-endian only (the caller refuses the other order).
 */
static unsigned char *build_image(const struct package *pkg, const struct span secs[NR_OUT],
				  size_t *size)
{
	struct strbuf names = STRBUF_INIT;
	uint32_t name_at[NR_OUT], shstr_at;
	size_t off = 64, data_at[NR_OUT], shstr_off, sh_off;
	unsigned nsec = 2;	/* the null section and .shstrtab */
	unsigned char *img;

	sb_add(&names, "", 1);
	for (int i = 0; i < NR_OUT; i++) {
		name_at[i] = (uint32_t)names.len;
		sb_add(&names, out_names[i], strlen(out_names[i]) + 1);
		data_at[i] = off;
		off += secs[i].size;
		nsec += secs[i].p != NULL;
	}
	shstr_at = (uint32_t)names.len;
	sb_add(&names, ".shstrtab", sizeof(".shstrtab"));
	shstr_off = off;
	off += names.len;
	sh_off = (off + 7) & ~(size_t)7;
	*size = sh_off + (size_t)nsec * 64;
	img = xcalloc(1, *size);

	memcpy(img, pkg->ident, EI_NIDENT);
	img[EI_CLASS] = ELFCLASS64;
	put16(img + 16, ET_REL);
	put16(img + 18, (uint16_t)pkg->machine);
	put32(img + 20, EV_CURRENT);
	put64(img + 40, sh_off);
	put16(img + 52, 64);		/* e_ehsize */
	put16(img + 58, 64);		/* e_shentsize */
	put16(img + 60, (uint16_t)nsec);
	put16(img + 62, (uint16_t)(nsec - 1));	/* .shstrtab is last */

	unsigned char *sh = img + sh_off + 64;	/* past the null section */

	for (int i = 0; i < NR_OUT; i++) {
		if (!secs[i].p)
			continue;
		memcpy(img + data_at[i], secs[i].p, secs[i].size);
		put32(sh, name_at[i]);
		put32(sh + 4, SHT_PROGBITS);
		put64(sh + 24, data_at[i]);
		put64(sh + 32, secs[i].size);
		put64(sh + 48, 1);
		sh += 64;
	}
	memcpy(img + shstr_off, names.buf, names.len);
	put32(sh, shstr_at);
	put32(sh + 4, SHT_STRTAB);
	put64(sh + 24, shstr_off);
	put64(sh + 32, names.len);
	put64(sh + 48, 1);
	sb_release(&names);
	return img;
}

/* Row ROW's share of column COL, or false if it runs outside the section. */
static bool share(const struct package *pkg, int out, uint64_t at, uint64_t size,
		  struct span *s)
{
	const struct span *w = &pkg->whole[out];

	if (!w->p || at > w->size || size > w->size - at)
		return false;
	s->p = w->p + at;
	s->size = (size_t)size;
	return true;
}

static int open_unit(const char *path, const struct package *pkg, const struct span secs[NR_OUT],
		     struct ll_dwp_unit *u, size_t row, struct ll_error *err)
{
	size_t size;

	u->image = build_image(pkg, secs, &size);
	u->elf = elf_memory((char *)u->image, size);
	if (!u->elf)
		return ll_fail(err, "%s: unit %zu of .debug_cu_index: %s", path, row, elf_errmsg(-1));
	u->dwarf = dwarf_begin_elf(u->elf, DWARF_C_READ, NULL);
	if (!u->dwarf)
		return ll_fail(err, "%s: unit %zu of .debug_cu_index: cannot read DWARF: %s", path,
			       row, dwarf_errmsg(-1));
	return 0;
}

int ll_dwp_load(Elf *elf, const char *path, struct ll_dwp *dwp, struct ll_error *err)
{
	struct package pkg = { 0 };
	const unsigned char *d;
	size_t size;
	GElf_Ehdr ehdr;

	memset(dwp, 0, sizeof(*dwp));
	if (!gelf_getehdr(elf, &ehdr))
		return ll_fail(err, "%s: malformed ELF header: %s", path, elf_errmsg(-1));
	if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB)
		return ll_fail(err, "%s: a big-endian DWARF package (.dwp) is not read; give the "
			       "binary with its .dwo files", path);
	memcpy(pkg.ident, ehdr.e_ident, EI_NIDENT);
	pkg.machine = ehdr.e_machine;
	for (int i = 0; i < NR_OUT; i++)
		if (!ll_elf_section_bytes(elf, out_names[i], NULL, &pkg.whole[i].p,
					  &pkg.whole[i].size))
			pkg.whole[i].p = NULL;
	if (!ll_elf_section_bytes(elf, ".debug_cu_index", NULL, &d, &size))
		return ll_fail(err, "%s: a DWARF package without .debug_cu_index", path);

	struct ll_cursor c = { d, d + size, false };
	uint64_t version = ll_fixed(&c, 4) & 0xffff;
	uint64_t ncols = ll_fixed(&c, 4), nrows = ll_fixed(&c, 4), nslots = ll_fixed(&c, 4);
	const unsigned char *sigs = c.p, *rows, *cols, *offs, *sizes;

	/* Every table must fit: slots (8 + 4 bytes), columns, two U x N tables. */
	if (c.bad || (version != 2 && version != 5) || ncols == 0 || ncols > 16 ||
	    nslots > size || nrows > size ||
	    (size_t)(c.end - c.p) < nslots * 12 + ncols * 4 + 2 * nrows * ncols * 4)
		return ll_fail(err, "%s: malformed .debug_cu_index (version %llu, %llu columns, "
			       "%llu units, %llu slots in %zu bytes)", path,
			       (unsigned long long)version, (unsigned long long)ncols,
			       (unsigned long long)nrows, (unsigned long long)nslots, size);
	rows = sigs + nslots * 8;
	cols = rows + nslots * 4;
	offs = cols + ncols * 4;
	sizes = offs + nrows * ncols * 4;

	int col_of[NR_OUT];

	for (int i = 0; i < NR_OUT; i++)
		col_of[i] = -1;
	for (uint64_t k = 0; k < ncols; k++) {
		struct ll_cursor cc = { cols + k * 4, cols + k * 4 + 4, false };
		uint64_t id = ll_fixed(&cc, 4);

		if (id == SECT_INFO)
			col_of[OUT_INFO] = (int)k;
		else if (id == SECT_ABBREV)
			col_of[OUT_ABBREV] = (int)k;
		else if (id == SECT_LINE)
			col_of[OUT_LINE] = (int)k;
		else if (id == SECT_STR_OFFSETS)
			col_of[OUT_STR_OFFSETS] = (int)k;
	}
	if (col_of[OUT_INFO] < 0 || col_of[OUT_ABBREV] < 0)
		return ll_fail(err, "%s: .debug_cu_index has no .debug_info.dwo or "
			       ".debug_abbrev.dwo column", path);
	dwp->units = xcalloc(nrows ? nrows : 1, sizeof(*dwp->units));
	for (uint64_t s = 0; s < nslots; s++) {
		struct ll_cursor sc = { sigs + s * 8, sigs + s * 8 + 8, false };
		struct ll_cursor rc = { rows + s * 4, rows + s * 4 + 4, false };
		uint64_t sig = ll_fixed(&sc, 8), row = ll_fixed(&rc, 4);
		struct span secs[NR_OUT] = { 0 };

		if (row == 0)
			continue;	/* an empty slot */
		if (row > nrows)
			return ll_fail(err, "%s: .debug_cu_index slot %llu names unit %llu of %llu",
				       path, (unsigned long long)s, (unsigned long long)row,
				       (unsigned long long)nrows);
		/* Slots naming one unit twice would outnumber the units. */
		if (dwp->n == nrows)
			return ll_fail(err, "%s: .debug_cu_index slot %llu: more slots in use than "
				       "its %llu units", path, (unsigned long long)s,
				       (unsigned long long)nrows);
		for (int i = 0; i < NR_OUT; i++) {
			if (i == OUT_STR) {
				secs[i] = pkg.whole[i];
				continue;
			}
			if (col_of[i] < 0)
				continue;
			size_t cell = ((row - 1) * ncols + (size_t)col_of[i]) * 4;
			struct ll_cursor oc = { offs + cell, offs + cell + 4, false };
			struct ll_cursor zc = { sizes + cell, sizes + cell + 4, false };
			uint64_t at = ll_fixed(&oc, 4), len = ll_fixed(&zc, 4);

			if (!share(&pkg, i, at, len, &secs[i]))
				return ll_fail(err, "%s: unit %llu of .debug_cu_index: its %s share "
					       "(0x%llx bytes at 0x%llx) lies outside the section", path,
					       (unsigned long long)row, out_names[i],
					       (unsigned long long)len, (unsigned long long)at);
		}
		struct ll_dwp_unit *u = &dwp->units[dwp->n++];

		u->dwo_id = sig;
		if (open_unit(path, &pkg, secs, u, (size_t)row, err))
			return -1;
	}
	return 0;
}

void ll_dwp_release(struct ll_dwp *dwp)
{
	for (size_t i = 0; i < dwp->n; i++) {
		struct ll_dwp_unit *u = &dwp->units[i];

		if (u->dwarf)
			dwarf_end(u->dwarf);
		if (u->elf)
			elf_end(u->elf);
		free(u->image);
	}
	free(dwp->units);
	memset(dwp, 0, sizeof(*dwp));
}

Dwarf *ll_dwp_find(const struct ll_dwp *dwp, uint64_t dwo_id)
{
	for (size_t i = 0; i < dwp->n; i++)
		if (dwp->units[i].dwo_id == dwo_id)
			return dwp->units[i].dwarf;
	return NULL;
}
