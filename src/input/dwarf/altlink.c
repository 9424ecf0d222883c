// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/dwarf/altlink.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/dwarf/raw/byte_cursor.h"
#include "input/elf/elf_section.h"
#include "util/strbuf.h"

/*
 * The supplementary file a dwz'd file names: .gnu_debugaltlink (file name,
 * NUL, build-id) or DWARF 5's .debug_sup (version 5, is_supplementary,
 * file name, checksum: dwz writes the build-id there). 0: none; -1: a
 * malformed section.
 */
struct alt_link {
	const char *name;
	const unsigned char *id;
	size_t id_len;
	const char *section;
};

static int read_alt_link(const char *path, Elf *elf, struct alt_link *link, struct ll_error *err)
{
	const unsigned char *d, *nul;
	size_t size;

	memset(link, 0, sizeof(*link));
	if (ll_elf_section_bytes(elf, ".gnu_debugaltlink", NULL, &d, &size)) {
		link->section = ".gnu_debugaltlink";
		nul = size ? memchr(d, 0, size) : NULL;
		if (!nul || nul == d)
			return ll_fail(err, "%s: malformed .gnu_debugaltlink: no file name", path);
		link->name = (const char *)d;
		link->id = nul + 1;
		link->id_len = size - (size_t)(nul + 1 - d);
		return 1;
	}
	if (!ll_elf_section_bytes(elf, ".debug_sup", NULL, &d, &size))
		return 0;
	link->section = ".debug_sup";
	struct ll_cursor c = { d, d + size, false };
	uint64_t version = ll_fixed(&c, 2), is_sup = ll_fixed(&c, 1), len;

	nul = c.bad ? NULL : memchr(c.p, 0, (size_t)(c.end - c.p));
	if (!nul || version != 5)
		return ll_fail(err, "%s: malformed .debug_sup (version %llu)", path,
			       (unsigned long long)version);
	if (is_sup)
		return 0;	/* this is the supplementary file itself */
	link->name = (const char *)c.p;
	c.p = nul + 1;
	len = ll_uleb(&c);
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return ll_fail(err, "%s: malformed .debug_sup checksum", path);
	link->id = c.p;
	link->id_len = (size_t)len;
	return 1;
}

/*
 * Whether the ELF file at PATH is the one LINK names: the same build-id
 * (.gnu_debugaltlink) or the same checksum in its own .debug_sup (DWARF 5,
 * as gdb checks); any, when the link gives none. Opens it into ALT.
 */
static bool try_alt(const char *path, const struct alt_link *link, struct ll_alt_file *alt)
{
	const void *id = NULL;
	ssize_t len;
	/* The name comes from the input: a FIFO there must not hang the run. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	Elf *elf = NULL;
	struct stat st;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto no;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto no;
	if (strcmp(link->section, ".debug_sup") == 0) {
		const unsigned char *d;
		size_t size;
		struct ll_cursor c;

		if (!ll_elf_section_bytes(elf, ".debug_sup", NULL, &d, &size))
			goto no;
		c = (struct ll_cursor){ d, d + size, false };
		ll_fixed(&c, 3);	/* version, is_supplementary */
		while (c.p < c.end && *c.p)
			c.p++;
		c.p++;
		len = (ssize_t)ll_uleb(&c);
		id = c.p;
		if (c.bad || len > c.end - c.p)
			goto no;
	} else {
		len = dwelf_elf_gnu_build_id(elf, &id);
	}
	if (link->id_len && (len != (ssize_t)link->id_len || memcmp(id, link->id, link->id_len) != 0))
		goto no;
	alt->fd = fd;
	alt->elf = elf;
	alt->path = xstrdup(path);
	return true;
no:
	ll_elf_close(elf, fd);
	return false;
}

/* The order of the search is gdb's (dwarf2/dwz.c): the name, then the build-id. */
int ll_alt_open(Elf *elf, const char *path, const char *named_by, struct ll_alt_file *alt,
		struct ll_error *err)
{
	struct alt_link link;
	struct strbuf by_id = STRBUF_INIT, by_name = STRBUF_INIT, id = STRBUF_INIT;
	int rc = read_alt_link(path, elf, &link, err);
	bool found = false;

	if (rc <= 0)
		return rc;
	sb_add_hex(&id, link.id, link.id_len);
	if (link.name[0] == '/') {
		sb_adds(&by_name, link.name);
	} else {
		char *real = realpath(named_by, NULL);
		const char *slash = real ? strrchr(real, '/') : NULL;

		if (slash)
			sb_add(&by_name, real, (size_t)(slash - real) + 1);
		sb_adds(&by_name, link.name);
		free(real);
	}
	found = try_alt(by_name.buf, &link, alt);
	if (!found && link.id_len >= 2) {
		sb_adds(&by_id, "/usr/lib/debug/.build-id/");
		sb_add_hex(&by_id, link.id, 1);
		sb_adds(&by_id, "/");
		sb_add_hex(&by_id, link.id + 1, link.id_len - 1);
		sb_adds(&by_id, ".debug");
		found = try_alt(by_id.buf, &link, alt);
	}
	if (!found) {
		rc = ll_fail(err, "%s: its %s names the dwz supplementary file %s (build-id %s), "
			     "which holds the types shared with other binaries: not found at %s%s%s; "
			     "install it (the distribution's debug package ships it) or put it there",
			     path, link.section, link.name, link.id_len ? id.buf : "none",
			     by_name.buf, by_id.len ? " nor at " : "", by_id.len ? by_id.buf : "");
	} else if (!(alt->dwarf = dwarf_begin_elf(alt->elf, DWARF_C_READ, NULL))) {
		rc = ll_fail(err, "%s: cannot read DWARF: %s", alt->path, dwarf_errmsg(-1));
	} else {
		rc = 0;
	}
	sb_release(&by_id);
	sb_release(&by_name);
	sb_release(&id);
	return rc;
}

void ll_alt_close(struct ll_alt_file *alt)
{
	if (alt->dwarf)
		dwarf_end(alt->dwarf);
	ll_elf_close(alt->elf, alt->fd);
	free(alt->path);
	memset(alt, 0, sizeof(*alt));
	alt->fd = -1;
}
