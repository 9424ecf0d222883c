// SPDX-License-Identifier: GPL-2.0-or-later
/* Declaring files: DW_AT_decl_file as the path a user knows, canonical for comparison. */
#include "input/dwarf/readerP.h"

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

char *reader_display_path(const struct ll_dwarf_input *in, const char *raw, const char *comp_dir)
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
uint64_t reader_canonical_file_hash(const struct ll_dwarf_input *in, const char *raw,
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
const char *reader_cu_comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(cu, DW_AT_comp_dir, &attr));
}

/*
 * The part DIE lies in: its Dwarf, and for a DWARF 4 type unit
 * .debug_types (a DWARF 5 one lives in .debug_info).
 */
size_t reader_part_of(const struct ll_dwarf_input *in, Dwarf_Die *die)
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
	return in->nr_parts ? &in->parts[reader_part_of(in, die)].lines : &in->lines;
}

/* V, an array of OLD elements of ELEM bytes, grown to N (> OLD) with the new ones zeroed. */
void *reader_grow_zeroed(void *v, size_t old, size_t n, size_t elem)
{
	unsigned char *p = xrealloc(v, n * elem);

	memset(p + old * elem, 0, (n - old) * elem);
	return p;
}

void reader_file_cache_reset(struct file_cache *fc)
{
	ll_strv_free(fc->paths, fc->n);
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
	const struct dwarf_part *part = in->nr_parts ? &in->parts[reader_part_of(in, die)] : NULL;
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
	    table_file(lines, stmt_list, index, reader_cu_comp_dir(cu), fc, out))
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
	const char *comp_dir = reader_cu_comp_dir(cu);
	const struct ll_line_sections *lines = die_lines(in, die);
	const struct dwarf_part *part = in->nr_parts ? &in->parts[reader_part_of(in, die)] : NULL;
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

		path = reader_display_path(in, sb.buf, cd);
		if (comp_dir)
			*comp_dir = cd ? xstrdup(cd) : NULL;
		if (raw)
			*raw = sb_detach(&sb);
	}
	sb_release(&sb);
	return path;
}

/* DIE's declaring file; MA: its attributes, read already (read_member_attrs()), or NULL. */
char *reader_decl_file(const struct ll_dwarf_input *in, Dwarf_Die *die, struct member_attrs *ma,
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
			reader_file_cache_reset(fc);
			fc->cu = (uintptr_t)cu.addr;
		}
		if (index < fc->n && fc->resolved[index])
			return fc->paths[index] ? xstrdup(fc->paths[index]) : NULL;
	}
	path = resolve_decl_file(in, die, &cu, fc && index < 65536 ? fc : NULL, NULL, NULL);
	if (fc && index < 65536) {
		if (index >= fc->n) {
			size_t n = (size_t)index + 1;

			fc->paths = reader_grow_zeroed(fc->paths, fc->n, n, sizeof(*fc->paths));
			fc->resolved = reader_grow_zeroed(fc->resolved, fc->n, n, sizeof(*fc->resolved));
			fc->n = n;
		}
		fc->paths[index] = path ? xstrdup(path) : NULL;
		fc->resolved[index] = true;
	}
	return path;
}

/* reader_decl_file() without a cache, also giving what it was made of (resolve_decl_file). */
char *reader_decl_file_raw(const struct ll_dwarf_input *in, Dwarf_Die *die, char **raw,
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
void reader_die_decl_position(Dwarf_Die *die, struct ll_decl *d)
{
	int v;

	d->line = dwarf_decl_line(die, &v) == 0 && v > 0 ? (unsigned)v : 0;
	d->column = dwarf_decl_column(die, &v) == 0 && v > 0 ? (unsigned)v : 0;
}

void reader_die_decl(const struct ll_dwarf_input *in, Dwarf_Die *die, struct file_cache *fc,
		     struct ll_decl *d)
{
	d->file = reader_decl_file(in, die, NULL, fc);
	reader_die_decl_position(die, d);
}
