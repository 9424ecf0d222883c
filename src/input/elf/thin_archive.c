// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thin archives: "!<thin>\n", then 60-byte ar headers. The symbol table
 * ("/", "/SYM64/") and the long-name table ("//") carry their bytes, as in
 * any ar archive; a member carries none: its name, short ("NAME/") or an
 * offset into the long-name table ("/OFFSET"), is the path of the object,
 * relative to the archive's directory unless absolute. GNU ar flattens a
 * thin archive added to another (kbuild's built-in.a of built-in.a's), but
 * a member that is one anyway is read the same way.
 */
#include "input/elf/thin_archive.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/read_file.h"
#include "util/strbuf.h"

#define AR_HDR 60
#define THIN_MAGIC "!<thin>\n"
/* Headers only: kbuild's vmlinux.a, ~5,000 members, is 400 KB. */
#define THIN_MAX (64u << 20)
#define THIN_DEPTH 8

struct members {
	char **v;
	size_t n;
};

static bool is_thin(const char *path)
{
	char magic[8];
	int why, fd = ll_open_regular(path, &why);
	bool thin;

	if (fd < 0)
		return false;
	thin = ll_pread_all(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
	       memcmp(magic, THIN_MAGIC, sizeof(magic)) == 0;
	close(fd);
	return thin;
}

/*
 * The decimal in an ar header field of LEN bytes, space-padded; false if
 * none. TAIL is a character allowed after it too (GNU ar ends the
 * "/OFFSET" of a thin archive's flattened member with '/').
 */
static bool field_number(const char *f, size_t len, char tail, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;

	if (!len || f[0] < '0' || f[0] > '9')
		return false;
	for (; i < len && f[i] >= '0' && f[i] <= '9'; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != tail)
			return false;
	*out = v;
	return true;
}

/* DIR/NAME, or NAME when it is absolute or DIR is "." (paths stay as typed). */
static char *resolve(const char *archive, const char *name, size_t len)
{
	const char *slash = strrchr(archive, '/');
	struct strbuf p = STRBUF_INIT;

	if (name[0] != '/' && slash)
		sb_addf(&p, "%.*s/", (int)(slash - archive), archive);
	sb_addf(&p, "%.*s", (int)len, name);
	return sb_detach(&p);
}

static void add_member(struct members *m, char *path)
{
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->v[i], path) == 0) {
			free(path);
			return;
		}
	}
	m->v = xgrow(m->v, m->n, sizeof(*m->v));
	m->v[m->n++] = path;
}

static int read_members(const char *path, struct members *m, unsigned depth,
			struct ll_error *err)
{
	struct strbuf buf = STRBUF_INIT;
	const char *longnames = NULL;
	uint64_t longlen = 0, pos = sizeof(THIN_MAGIC) - 1;
	int why, rc = 0;

	if (ll_read_regular(path, THIN_MAX, &buf, &why)) {
		rc = ll_fail(err, "%s: a thin archive that cannot be read: %s", path,
			     ll_read_error_text(why, THIN_MAX));
		goto out;
	}
	while (pos < buf.len) {
		const char *h = buf.buf + pos, *name;
		uint64_t size, off;
		size_t len;
		char *member;

		if (buf.len - pos < AR_HDR || memcmp(h + 58, "`\n", 2) != 0 ||
		    !field_number(h + 48, 10, ' ', &size)) {
			rc = ll_fail(err, "%s: offset %llu: a truncated or malformed ar member header",
				     path, (unsigned long long)pos);
			goto out;
		}
		pos += AR_HDR;
		if (h[0] == '/' && (h[1] == ' ' || memcmp(h, "/SYM64/ ", 8) == 0 ||
				    (h[1] == '/' && h[2] == ' '))) {
			/* The symbol table or the long-name table: bytes follow, padded to 2. */
			if (size > buf.len - pos) {
				rc = ll_fail(err, "%s: offset %llu: a table of %llu bytes runs past the "
					     "end of the archive", path,
					     (unsigned long long)(pos - AR_HDR),
					     (unsigned long long)size);
				goto out;
			}
			if (h[1] == '/') {
				longnames = buf.buf + pos;
				longlen = size;
			}
			pos += size + (size & 1);
			continue;
		}
		if (h[0] == '/') {
			/* "/OFFSET": the name ends with "/\n" in the long-name table. */
			const char *end;

			if (!field_number(h + 1, 15, '/', &off) || !longnames || off >= longlen) {
				rc = ll_fail(err, "%s: offset %llu: member name '%.16s' points into no "
					     "long-name table", path, (unsigned long long)(pos - AR_HDR),
					     h);
				goto out;
			}
			name = longnames + off;
			end = memchr(name, '\n', longlen - off);
			len = end ? (size_t)(end - name) : (size_t)(longlen - off);
			if (len && name[len - 1] == '/')
				len--;
		} else {
			const char *end = memchr(h, '/', 16);

			name = h;
			len = end ? (size_t)(end - h) : 16;
			while (len && name[len - 1] == ' ')
				len--;
		}
		if (!len || memchr(name, '\0', len)) {
			rc = ll_fail(err, "%s: offset %llu: a member with no name", path,
				     (unsigned long long)(pos - AR_HDR));
			goto out;
		}
		member = resolve(path, name, len);
		if (depth < THIN_DEPTH && is_thin(member)) {
			rc = read_members(member, m, depth + 1, err);
			free(member);
			if (rc)
				goto out;
		} else if (access(member, R_OK) != 0) {
			/* The reader would name only the member: say whose member it is. */
			rc = ll_fail(err, "%s: member %s: %s (a thin archive holds only the paths "
				     "of its objects: rebuild them)", path, member, strerror(errno));
			free(member);
			goto out;
		} else {
			add_member(m, member);
		}
	}
out:
	sb_release(&buf);
	return rc;
}

int ll_thin_archive_members(const char *path, char ***members, size_t *nr, struct ll_error *err)
{
	struct members m = { 0 };

	*members = NULL;
	*nr = 0;
	if (!is_thin(path))
		return 0;
	if (read_members(path, &m, 0, err)) {
		ll_strv_free(m.v, m.n);
		return -1;
	}
	if (!m.n) {
		free(m.v);
		return ll_fail(err, "%s: a thin archive that names no object", path);
	}
	*members = m.v;
	*nr = m.n;
	return 1;
}
