// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One entry of a line table's file list, read from the header alone,
 * spelled exactly as libdw's dwarf_decl_file() spells it (directory joined
 * as written, entry 0 / the CU's comp_dir for DWARF 4's directory 0).
 *
 * libdw 0.188 answers dwarf_decl_file() by decoding the unit's whole line
 * program; comparing the declaring file of struct file across the ~1,800
 * units of a vmlinux that define it cost over a second that way. The file
 * list sits in the header, so this reads only that. Bounds-checked; any
 * surprise returns false and the caller asks libdw instead.
 */
#include "input/dwarf/raw/line_table.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "input/dwarf/raw/byte_cursor.h"

#include "util/strbuf.h"


static const char *cstr(struct ll_cursor *c)
{
	const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

static const char *section_str(const struct ll_line_sections *s, bool line_str, uint64_t off)
{
	const unsigned char *base = line_str ? s->line_str : s->str;
	size_t size = line_str ? s->line_str_size : s->str_size;

	if (!base || off >= size || !memchr(base + off, 0, size - off))
		return NULL;
	return (const char *)base + off;
}

struct format {
	uint64_t type, form;
};

/* Read one entry's fields; path and directory index are the ones kept. */
static bool read_entry(struct ll_cursor *c, const struct format *f, size_t nf, unsigned offset_size,
		       const struct ll_line_sections *s, const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = 0;
	for (size_t i = 0; i < nf; i++) {
		uint64_t v = 0;
		const char *str = NULL;

		switch (f[i].form) {
		case DW_FORM_string: str = cstr(c); break;
		case DW_FORM_line_strp: str = section_str(s, true, ll_fixed(c, offset_size)); break;
		case DW_FORM_strp: str = section_str(s, false, ll_fixed(c, offset_size)); break;
		case DW_FORM_data1: v = ll_fixed(c, 1); break;
		case DW_FORM_data2: v = ll_fixed(c, 2); break;
		case DW_FORM_data4: v = ll_fixed(c, 4); break;
		case DW_FORM_data8: v = ll_fixed(c, 8); break;
		case DW_FORM_data16: ll_fixed(c, 8); ll_fixed(c, 8); break;
		case DW_FORM_udata: v = ll_uleb(c); break;
		case DW_FORM_block: {
			uint64_t n = ll_uleb(c);

			if (n > (uint64_t)(c->end - c->p))
				return false;
			c->p += n;
			break;
		}
		default:
			return false;
		}
		if (c->bad)
			return false;
		if (f[i].type == DW_LNCT_path) {
			if (!str)
				return false;
			*path = str;
		} else if (f[i].type == DW_LNCT_directory_index) {
			*dir = v;
		}
	}
	return *path != NULL;
}

static bool read_formats(struct ll_cursor *c, struct format *f, size_t *nf)
{
	size_t n = (size_t)ll_fixed(c, 1);

	if (c->bad || n > 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		f[i].type = ll_uleb(c);
		f[i].form = ll_uleb(c);
	}
	*nf = n;
	return !c->bad;
}

void ll_line_join(struct strbuf *out, const char *dir, const char *name)
{
	if (name[0] == '/' || !dir || !*dir) {
		sb_adds(out, name);
		return;
	}
	sb_adds(out, dir);
	sb_addc(out, '/');
	sb_adds(out, name);
}

/*
 * Where a table's entries go: all into T, or with T NULL only entry ONLY
 * kept (ll_line_file: one path wanted, and a table of a thousand entries
 * would cost as many pointers for it).
 */
struct sink {
	struct ll_line_table *t;
	uint64_t only, seen;
	const char *dir, *name;
	bool found;
};

static void push_path(struct sink *k, const char *dir, const char *name)
{
	struct ll_line_table *t = k->t;

	if (!t) {
		if (k->seen++ == k->only) {
			k->dir = dir;
			k->name = name;
			k->found = true;
		}
		return;
	}
	/* Tables are small; doubling keeps the copies few. */
	if ((t->n & (t->n - 1)) == 0) {
		size_t cap = t->n ? t->n * 2 : 16;

		t->dirs = xrealloc(t->dirs, cap * sizeof(*t->dirs));
		t->names = xrealloc(t->names, cap * sizeof(*t->names));
	}
	t->dirs[t->n] = dir;
	t->names[t->n++] = name;
}

bool ll_line_table_path(const struct ll_line_table *t, uint64_t index, struct strbuf *out)
{
	if (index >= t->n || !t->names[index])
		return false;
	ll_line_join(out, t->dirs[index], t->names[index]);
	return true;
}

/*
 * Read the table at STMT_LIST into K. The whole file list is read either
 * way, so that one entry is found exactly when the whole table loads.
 */
static bool load(const struct ll_line_sections *s, uint64_t stmt_list, const char *comp_dir,
		 struct sink *k, const char **dir0)
{
	struct ll_cursor c;
	uint64_t len;
	unsigned offset_size = 4, version;

	*dir0 = NULL;
	if (!s->line || stmt_list >= s->line_size)
		return false;
	c = (struct ll_cursor){ s->line + stmt_list, s->line + s->line_size, false };
	len = ll_fixed(&c, 4);
	if (len == 0xffffffff) {
		len = ll_fixed(&c, 8);
		offset_size = 8;
	}
	if (c.bad || len > (uint64_t)(c.end - c.p))
		return false;
	c.end = c.p + len;
	version = (unsigned)ll_fixed(&c, 2);
	if (version < 2 || version > 5)
		return false;
	if (version >= 5)
		ll_fixed(&c, 2);			/* address_size, segment_selector_size */
	uint64_t header_length = ll_fixed(&c, offset_size);

	if (c.bad || header_length > (uint64_t)(c.end - c.p))
		return false;
	c.end = c.p + header_length;
	ll_fixed(&c, version >= 4 ? 5 : 4);		/* min_inst .. line_range */
	unsigned opcode_base = (unsigned)ll_fixed(&c, 1);

	if (c.bad || opcode_base == 0 || (size_t)(c.end - c.p) < opcode_base - 1)
		return false;
	c.p += opcode_base - 1;

	if (version >= 5) {
		struct format df[16], ff[16];
		size_t ndf, nff;
		const char **dirs = NULL;
		bool ok = true;

		if (!read_formats(&c, df, &ndf))
			return false;
		uint64_t ndirs = ll_uleb(&c);

		if (c.bad || ndirs > (uint64_t)(c.end - c.p))
			return false;
		dirs = xcalloc(ndirs ? ndirs : 1, sizeof(*dirs));
		for (uint64_t i = 0; i < ndirs && ok; i++) {
			uint64_t unused;

			ok = read_entry(&c, df, ndf, offset_size, s, &dirs[i], &unused);
		}
		*dir0 = ok && ndirs ? dirs[0] : NULL;
		ok = ok && read_formats(&c, ff, &nff);
		uint64_t nfiles = ok ? ll_uleb(&c) : 0;

		ok = ok && !c.bad && nfiles <= (uint64_t)(c.end - c.p);
		for (uint64_t i = 0; i < nfiles && ok; i++) {
			const char *name;
			uint64_t dir;

			ok = read_entry(&c, ff, nff, offset_size, s, &name, &dir) && dir < ndirs;
			if (ok)
				push_path(k, dirs[dir], name);
		}
		free(dirs);
		return ok;
	}

	/* DWARF 2-4: include_directories, then file_names; both 1-based. */
	const char **dirs = NULL;
	size_t ndirs = 0;

	*dir0 = comp_dir;
	for (;;) {
		const char *d = cstr(&c);

		if (c.bad) {
			free(dirs);
			return false;
		}
		if (!*d)
			break;
		dirs = xgrow(dirs, ndirs, sizeof(*dirs));
		dirs[ndirs++] = d;
	}
	push_path(k, NULL, NULL);	/* file 0 means no file before DWARF 5 */
	for (;;) {
		const char *name = cstr(&c);
		uint64_t dir;

		if (c.bad || !*name)
			break;
		dir = ll_uleb(&c);
		ll_uleb(&c);
		ll_uleb(&c);
		if (dir > ndirs)
			c.bad = true;
		if (c.bad)
			break;
		push_path(k, dir == 0 ? comp_dir : dirs[dir - 1], name);
	}
	free(dirs);
	return !c.bad;
}

bool ll_line_table_load(const struct ll_line_sections *s, uint64_t stmt_list,
			const char *comp_dir, struct ll_line_table *t)
{
	struct sink k = { .t = t };

	memset(t, 0, sizeof(*t));
	t->stmt_list = stmt_list;
	if (!load(s, stmt_list, comp_dir, &k, &t->dir0)) {
		ll_line_table_release(t);
		return false;
	}
	return true;
}

void ll_line_table_release(struct ll_line_table *t)
{
	free(t->dirs);
	free(t->names);
	t->dirs = NULL;
	t->names = NULL;
	t->n = 0;
	t->dir0 = NULL;
}

const char *ll_line_dir0(const struct ll_line_sections *s, uint64_t stmt_list,
			 const char *comp_dir)
{
	struct sink k = { .only = UINT64_MAX };
	const char *dir0;

	return load(s, stmt_list, comp_dir, &k, &dir0) ? dir0 : NULL;
}

bool ll_line_file(const struct ll_line_sections *s, uint64_t stmt_list, uint64_t index,
		  const char *comp_dir, struct strbuf *out)
{
	struct sink k = { .only = index };
	const char *dir0;

	if (!load(s, stmt_list, comp_dir, &k, &dir0) || !k.found || !k.name)
		return false;
	ll_line_join(out, k.dir, k.name);
	return true;
}
