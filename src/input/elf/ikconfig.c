// SPDX-License-Identifier: GPL-2.0-or-later
#include "input/elf/ikconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input/elf/elf_section.h"

static const char start_marker[] = "IKCFG_ST", end_marker[] = "IKCFG_ED";

/* gunzip IN[0..LEN) into OUT, bounded by LL_IKCONFIG_MAX. */
static int gunzip(const unsigned char *in, size_t len, struct strbuf *out, const char *path,
		  struct ll_error *err)
{
	z_stream z = { 0 };
	unsigned char buf[65536];
	int rc;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return ll_fail(err, "%s: embedded config: zlib: cannot start", path);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)(len < UINT32_MAX ? len : UINT32_MAX);
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END)
			break;
		sb_add(out, (const char *)buf, sizeof(buf) - z.avail_out);
		if (out->len > LL_IKCONFIG_MAX) {
			inflateEnd(&z);
			return ll_fail(err, "%s: embedded config: more than %zu MiB decompressed",
				       path, LL_IKCONFIG_MAX >> 20);
		}
	} while (rc != Z_STREAM_END && (z.avail_in || !z.avail_out));
	inflateEnd(&z);
	if (rc != Z_STREAM_END)
		return ll_fail(err, "%s: embedded config: not a whole gzip stream between %s and %s",
			       path, start_marker, end_marker);
	return 0;
}

/* The markers in one section's bytes: the gzip stream between them, if any. */
static int from_section(const unsigned char *d, size_t n, struct strbuf *config, bool *found,
			const char *path, struct ll_error *err)
{
	const unsigned char *st = memmem(d, n, start_marker, sizeof(start_marker) - 1), *ed;

	if (!st)
		return 0;
	st += sizeof(start_marker) - 1;
	ed = memmem(st, n - (size_t)(st - d), end_marker, sizeof(end_marker) - 1);
	if (!ed)
		return ll_fail(err, "%s: embedded config: %s without %s", path, start_marker,
			       end_marker);
	*found = true;
	return gunzip(st, (size_t)(ed - st), config, path, err);
}

int ll_elf_ikconfig(const char *path, struct strbuf *config, bool *found, struct ll_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	*found = false;
	if (fd < 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	/*
	 * Only a linked image embeds one: an object or a module (ET_REL), raw
	 * BTF or an archive has none to read.
	 */
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || eh.e_type == ET_REL)
		goto done;
	/* kernel/configs.c puts it in .rodata (".pushsection .rodata"). */
	if ((scn = ll_elf_section(elf, ".rodata", NULL, &sh)) && (sh.sh_flags & SHF_ALLOC) &&
	    !(sh.sh_flags & SHF_COMPRESSED)) {
		Elf_Data *data = elf_rawdata(scn, NULL);

		if (data && data->d_buf && data->d_size)
			rc = from_section(data->d_buf, data->d_size, config, found, path, err);
	}
done:
	ll_elf_close(elf, fd);
	return rc;
}
