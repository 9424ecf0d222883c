// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the raw line-table file list (src/input/dwarf/raw/line_table.c) on real
 * compiler output: tests/unit/dwarf/fixture.c (and fixture2.c, a second
 * unit of the executables) built with gcc and clang,
 * DWARF 4 and 5 (tests/meson.build passes the source directory, then the
 * builds). Each file entry must read as libdw reads it, each type's
 * DW_AT_decl_file must name the file that really declares it (the same
 * file on disk as the fixture's source), and every damaged or cut header
 * must be refused without reading past its bytes (run under ASan in CI).
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/input/dwarf/raw/line_table.h"
#include "../../src/util/strbuf.h"
#include "dwarf_fixture.h"

/* Set once by main from the command line: Check's tests take no arguments. */
static const char *source_dir;
static char **fixture_paths;
static int nr_fixtures;

struct opened {
	struct fixture fx;
	struct ll_line_sections s;
};

static void open_fixture(int i, struct opened *o)
{
	memset(o, 0, sizeof(*o));
	ck_assert_msg(fixture_open(fixture_paths[i], &o->fx), "cannot open %s", fixture_paths[i]);
	ck_assert_msg(fixture_section(&o->fx, ".debug_line", &o->s.line, &o->s.line_size),
		      "%s: no .debug_line", o->fx.path);
	if (!fixture_section(&o->fx, ".debug_line_str", &o->s.line_str, &o->s.line_str_size))
		o->s.line_str = NULL;
	if (!fixture_section(&o->fx, ".debug_str", &o->s.str, &o->s.str_size))
		o->s.str = NULL;
}

static uint64_t cu_stmt_list(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	ck_assert(dwarf_attr(cu, DW_AT_stmt_list, &attr) && dwarf_formudata(&attr, &v) == 0);
	return v;
}

static const char *cu_comp_dir(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;

	return dwarf_attr(cu, DW_AT_comp_dir, &attr) ? dwarf_formstring(&attr) : NULL;
}

/* The first unit's DIE. */
static void first_cu(const struct fixture *fx, Dwarf_Die *cu)
{
	Dwarf_Off next;
	size_t hsize;

	ck_assert(dwarf_nextcu(fx->dwarf, 0, &next, &hsize, NULL, NULL, NULL) == 0);
	ck_assert(dwarf_offdie(fx->dwarf, hsize, cu));
}

/* Every entry of every unit's table, against libdw's dwarf_filesrc(). */
START_TEST(test_entries_match_libdw)
{
	struct opened o;
	Dwarf_Off off = 0, next;
	size_t hsize, units = 0;

	open_fixture(_i, &o);
	while (dwarf_nextcu(o.fx.dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Files *files;
		size_t nfiles;
		struct ll_line_table t;

		ck_assert(dwarf_offdie(o.fx.dwarf, off + hsize, &cu));
		ck_assert_int_eq(dwarf_getsrcfiles(&cu, &files, &nfiles), 0);
		ck_assert_msg(ll_line_table_load(&o.s, cu_stmt_list(&cu), cu_comp_dir(&cu), &t),
			      "%s: the table at 0x%llx is refused", o.fx.path,
			      (unsigned long long)cu_stmt_list(&cu));
		ck_assert_uint_eq(t.n, nfiles);
		/* fixture.c, fixture.h, sub/fixture_sub.h; fixture2.c, fixture.h */
		ck_assert_uint_ge(t.n, units == 0 ? 3 : 2);
		for (size_t i = 1; i < nfiles; i++) {
			struct strbuf sb = STRBUF_INIT;
			const char *want = dwarf_filesrc(files, i, NULL, NULL);

			ck_assert_ptr_nonnull(want);
			ck_assert_msg(ll_line_table_path(&t, i, &sb), "%s: file %zu unread",
				      o.fx.path, i);
			ck_assert_str_eq(sb.buf, want);
			sb_release(&sb);
		}
		{
			/* Entry 0: no file before DWARF 5, the primary source file in 5. */
			struct strbuf sb = STRBUF_INIT;
			bool has0 = ll_line_table_path(&t, 0, &sb);

			ck_assert_int_eq(has0, o.fx.version >= 5);
			if (has0) {
				const char *base = strrchr(sb.buf, '/');
				const char *cu_base = strrchr(dwarf_diename(&cu), '/');

				ck_assert_ptr_nonnull(base);
				ck_assert_ptr_nonnull(cu_base);
				ck_assert_msg(strcmp(base, cu_base) == 0, "%s: file 0 is %s in unit %s",
					      o.fx.path, sb.buf, dwarf_diename(&cu));
			}
			sb_release(&sb);
		}
		ck_assert(!ll_line_table_path(&t, t.n, &(struct strbuf)STRBUF_INIT));
		ck_assert(!ll_line_table_path(&t, UINT64_MAX, &(struct strbuf)STRBUF_INIT));
		ll_line_table_release(&t);
		ck_assert_uint_eq(t.n, 0);
		units++;
		off = next;
	}
	/* An object is one unit; an executable two or (ut-mixed-dwarf5.exe) three. */
	if (o.fx.is_object)
		ck_assert_uint_eq(units, 1);
	else
		ck_assert_uint_ge(units, 2);
	fixture_close(&o.fx);
}
END_TEST

/* PATH, relative to the unit's directory DIR when it is relative, resolved. */
static char *resolved(const char *dir, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *r;

	if (path[0] != '/' && dir) {
		sb_adds(&sb, dir);
		sb_addc(&sb, '/');
	}
	sb_adds(&sb, path);
	r = realpath(sb.buf, NULL);
	sb_release(&sb);
	return r;
}

/* Each type's DW_AT_decl_file names the file on disk that declares it. */
START_TEST(test_decl_file_is_the_declaring_file)
{
	static const struct { int tag; const char *name, *file; } types[] = {
		{ DW_TAG_structure_type, "ut_main", "fixture.c" },
		{ DW_TAG_union_type, "ut_union", "fixture.c" },
		{ DW_TAG_typedef, "ut_anon_t", "fixture.c" },
		{ DW_TAG_structure_type, "ut_header", "fixture.h" },
		{ DW_TAG_structure_type, "ut_sub", "sub/fixture_sub.h" },
	};
	struct opened o;

	open_fixture(_i, &o);
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		Dwarf_Die die, cu;
		Dwarf_Attribute attr;
		Dwarf_Word index;
		struct strbuf got = STRBUF_INIT, src = STRBUF_INIT;
		const char *libdw;
		char *got_real, *want_real;

		ck_assert_msg(fixture_find(&o.fx, types[k].tag, types[k].name, &die, &cu),
			      "%s: no %s", o.fx.path, types[k].name);
		ck_assert(dwarf_attr(&die, DW_AT_decl_file, &attr) &&
			  dwarf_formudata(&attr, &index) == 0);
		ck_assert_msg(ll_line_file(&o.s, cu_stmt_list(&cu), index, cu_comp_dir(&cu), &got),
			      "%s: %s: file %llu unread", o.fx.path, types[k].name,
			      (unsigned long long)index);
		/* libdw 0.188 calls DWARF 5's file 0 no file; otherwise the same text. */
		libdw = dwarf_decl_file(&die);
		if (libdw)
			ck_assert_str_eq(got.buf, libdw);
		else
			ck_assert_msg(o.fx.version >= 5 && index == 0, "%s: libdw has no file for %s",
				      o.fx.path, types[k].name);
		sb_adds(&src, source_dir);
		sb_addc(&src, '/');
		sb_adds(&src, types[k].file);
		got_real = resolved(cu_comp_dir(&cu), got.buf);
		want_real = realpath(src.buf, NULL);
		ck_assert_ptr_nonnull(want_real);
		ck_assert_msg(got_real && strcmp(got_real, want_real) == 0,
			      "%s: %s declared in %s, the table says %s", o.fx.path, types[k].name,
			      want_real, got.buf);
		free(got_real);
		free(want_real);
		sb_release(&got);
		sb_release(&src);
	}
	fixture_close(&o.fx);
}
END_TEST

/* A private copy of the first unit's table, exactly LEN bytes long. */
static unsigned char *table_copy(const struct opened *o, size_t len, uint64_t *total)
{
	Dwarf_Die cu;
	uint64_t at;
	unsigned char *buf;
	uint32_t unit_length;

	first_cu(&o->fx, &cu);
	at = cu_stmt_list(&cu);
	ck_assert_uint_lt(at + 4, o->s.line_size);
	memcpy(&unit_length, o->s.line + at, 4);	/* little endian, 32-bit DWARF */
	ck_assert_uint_lt(unit_length, 0xfffffff0u);
	*total = 4 + (uint64_t)unit_length;
	ck_assert_uint_le(at + *total, o->s.line_size);
	if (len > *total)
		len = *total;
	buf = malloc(len ? len : 1);
	memcpy(buf, o->s.line + at, len);
	return buf;
}

static bool load_copy(const struct opened *o, const unsigned char *buf, size_t len,
		      uint64_t stmt_list, const char *comp_dir)
{
	struct ll_line_sections s = o->s;
	struct ll_line_table t;
	bool ok;

	s.line = buf;
	s.line_size = len;
	ok = ll_line_table_load(&s, stmt_list, comp_dir, &t);
	/* One entry is read exactly when the whole table loads (ll_line_file's promise). */
	for (uint64_t index = 0; index < 3; index++) {
		struct strbuf one = STRBUF_INIT, all = STRBUF_INIT;
		bool in_table = ok && ll_line_table_path(&t, index, &all);

		ck_assert_int_eq(ll_line_file(&s, stmt_list, index, comp_dir, &one), in_table);
		ck_assert_str_eq(one.buf ? one.buf : "", all.buf ? all.buf : "");
		sb_release(&one);
		sb_release(&all);
	}
	ll_line_table_release(&t);
	return ok;
}

/* Cut anywhere inside the unit, the table is refused; whole, it loads. */
START_TEST(test_truncated_tables_refused)
{
	struct opened o;
	uint64_t total;
	Dwarf_Die cu;

	open_fixture(_i, &o);
	first_cu(&o.fx, &cu);
	free(table_copy(&o, 0, &total));
	for (size_t cut = 0; cut < total; cut++) {
		unsigned char *buf = table_copy(&o, cut, &total);

		ck_assert_msg(!load_copy(&o, buf, cut, 0, cu_comp_dir(&cu)),
			      "%s: loaded from %zu of %llu bytes", o.fx.path, cut,
			      (unsigned long long)total);
		free(buf);
	}
	unsigned char *whole = table_copy(&o, total, &total);

	ck_assert(load_copy(&o, whole, total, 0, cu_comp_dir(&cu)));
	/* A stmt_list at or past the end of the section. */
	ck_assert(!load_copy(&o, whole, total, total, cu_comp_dir(&cu)));
	ck_assert(!load_copy(&o, whole, total, UINT64_MAX, cu_comp_dir(&cu)));
	free(whole);
	fixture_close(&o.fx);
}
END_TEST

START_TEST(test_damaged_headers_refused)
{
	struct opened o;
	uint64_t total;
	Dwarf_Die cu;
	unsigned char *buf;

	open_fixture(_i, &o);
	first_cu(&o.fx, &cu);
	free(table_copy(&o, 0, &total));
	buf = table_copy(&o, total, &total);
	ck_assert_uint_eq(buf[4] | buf[5] << 8, o.fx.version);
	for (unsigned v = 0; v < 8; v++) {
		bool readable = v >= 2 && v <= 5;

		if (v == o.fx.version)
			continue;
		buf[4] = (unsigned char)v;
		/* Another version moves the fields: at most readable, never past the end. */
		if (!readable)
			ck_assert_msg(!load_copy(&o, buf, total, 0, cu_comp_dir(&cu)),
				      "%s: version %u accepted", o.fx.path, v);
		else
			load_copy(&o, buf, total, 0, cu_comp_dir(&cu));
	}
	buf[4] = (unsigned char)o.fx.version;
	ck_assert(load_copy(&o, buf, total, 0, cu_comp_dir(&cu)));

	/* unit_length one past the section; header_length past the unit. */
	{
		uint32_t len = (uint32_t)(total - 4 + 1);

		memcpy(buf, &len, 4);
		ck_assert(!load_copy(&o, buf, total, 0, cu_comp_dir(&cu)));
		len = (uint32_t)(total - 4);
		memcpy(buf, &len, 4);
	}
	{
		size_t at = o.fx.version >= 5 ? 8 : 6;
		uint32_t hl;

		memcpy(&hl, buf + at, 4);
		ck_assert_uint_lt(hl, total);
		uint32_t bad = (uint32_t)total;

		memcpy(buf + at, &bad, 4);
		ck_assert(!load_copy(&o, buf, total, 0, cu_comp_dir(&cu)));
		memcpy(buf + at, &hl, 4);
	}
	ck_assert(load_copy(&o, buf, total, 0, cu_comp_dir(&cu)));
	free(buf);
	fixture_close(&o.fx);
}
END_TEST

/*
 * DWARF 5 names files by offsets into .debug_line_str: without that
 * section the table is refused, not read as garbage. DWARF 4 spells the
 * names inline and needs no other section.
 */
START_TEST(test_string_sections)
{
	struct opened o;
	Dwarf_Die cu;
	struct ll_line_sections s;
	struct ll_line_table t;
	bool ok;

	open_fixture(_i, &o);
	first_cu(&o.fx, &cu);
	s = o.s;
	s.line_str = NULL;
	s.line_str_size = 0;
	s.str = NULL;
	s.str_size = 0;
	ok = ll_line_table_load(&s, cu_stmt_list(&cu), cu_comp_dir(&cu), &t);
	ck_assert_int_eq(ok, o.fx.version < 5);
	ll_line_table_release(&t);
	if (o.fx.version >= 5) {
		/*
		 * .debug_line_str cut to its first byte: every name is then out
		 * of range or unterminated, and the table refused as well.
		 */
		unsigned char *cut;

		ck_assert_ptr_nonnull(o.s.line_str);
		cut = malloc(1);
		memcpy(cut, o.s.line_str, 1);
		s = o.s;
		s.line_str = cut;
		s.line_str_size = 1;
		ok = ll_line_table_load(&s, cu_stmt_list(&cu), cu_comp_dir(&cu), &t);
		ll_line_table_release(&t);
		free(cut);
		ck_assert(!ok);
	}
	fixture_close(&o.fx);
}
END_TEST

static Suite *line_table_suite(void)
{
	Suite *s = suite_create("line_table");
	TCase *t = tcase_create("fixtures");

	tcase_add_loop_test(t, test_entries_match_libdw, 0, nr_fixtures);
	tcase_add_loop_test(t, test_decl_file_is_the_declaring_file, 0, nr_fixtures);
	tcase_add_loop_test(t, test_truncated_tables_refused, 0, nr_fixtures);
	tcase_add_loop_test(t, test_damaged_headers_refused, 0, nr_fixtures);
	tcase_add_loop_test(t, test_string_sections, 0, nr_fixtures);
	suite_add_tcase(s, t);
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (argc < 3) {
		fprintf(stderr, "usage: %s FIXTURE-SOURCE-DIR FIXTURE...\n", argv[0]);
		return 2;
	}
	source_dir = argv[1];
	fixture_paths = argv + 2;
	nr_fixtures = argc - 2;
	sr = srunner_create(line_table_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
