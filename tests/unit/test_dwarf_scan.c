// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the raw .debug_info pre-filter (src/input/dwarf/raw/scan*.c) on real
 * compiler output: tests/unit/dwarf/fixture.c built with gcc and clang,
 * DWARF 4 and 5, as an object and (with fixture2.c, a second unit) as an
 * executable. libdw is the truth: every top-level type libdw sees under a
 * queried name is a hit at its DIE offset, with its tag, size, line, file,
 * member count and member hash, or its unit is handed back to the libdw
 * walk; nothing else is a hit; names that are no type (a member, a
 * variable, nothing at all) find nothing. The same answers from one
 * thread, two threads and pread; damaged sections are refused or handed
 * back, never read past (ASan in CI).
 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/input/dwarf/ctype_name.h"
#include "../../src/input/dwarf/raw/name_index.h"
#include "../../src/input/dwarf/raw/scan.h"
#include "dwarf_fixture.h"

/* Set once by main from the command line: Check's tests take no arguments. */
static char **fixture_paths;
static int nr_fixtures;

static const char *const names[] = {
	"ut_main", "ut_union", "ut_anon_t", "ut_main_t", "ut_declared", "ut_header",
	"ut_sub", "ut_second", "ut_twin_long", "ut_twin_long2", "ut_twin_short", "ut_twin_short2",
	"ut_ops_user",
	/* no type has these names: a member, a variable, nothing */
	"port", "ut_main_var", "ut_no_such_name",
};
#define NR_NAMES (sizeof(names) / sizeof(names[0]))
#define FIRST_NON_TYPE 13

struct opened {
	struct fixture fx;
	struct ll_scan_input in;
};

static void open_fixture(int i, struct opened *o)
{
	memset(o, 0, sizeof(*o));
	ck_assert_msg(fixture_open(fixture_paths[i], &o->fx), "cannot open %s", fixture_paths[i]);
	ck_assert(fixture_section(&o->fx, ".debug_info", &o->in.info, &o->in.info_size));
	ck_assert(fixture_section(&o->fx, ".debug_abbrev", &o->in.abbrev, &o->in.abbrev_size));
	ck_assert(fixture_section(&o->fx, ".debug_str", &o->in.str, &o->in.str_size));
	if (!fixture_section(&o->fx, ".debug_line_str", &o->in.line_str, &o->in.line_str_size))
		o->in.line_str = NULL;
	if (!fixture_section(&o->fx, ".debug_aranges", &o->in.aranges, &o->in.aranges_size))
		o->in.aranges = NULL;
}

/*
 * O's file opened afresh, and where its section NAME is stored in it
 * (*OFF); the caller closes the descriptor.
 */
static int section_in_file(const struct opened *o, const char *name, uint64_t *off)
{
	GElf_Shdr shdr;
	int fd;

	ck_assert_ptr_nonnull(ll_elf_section(o->fx.elf, name, NULL, &shdr));
	fd = open(o->fx.path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	*off = shdr.sh_offset;
	return fd;
}

/*
 * O's input, reading an executable's .debug_info as stored, with pread,
 * not through the mapping; the file descriptor it opened, for the caller
 * to close.
 */
static int pread_input(const struct opened *o, struct ll_scan_input *in)
{
	*in = o->in;
	in->fd = section_in_file(o, ".debug_info", &in->info_file_offset);
	in->use_pread = true;
	in->info = NULL;
	return in->fd;
}

/* open_fixture() and the line tables, which the scan's declaring files (and distinct) read. */
static void open_fixture_with_lines(int i, struct opened *o)
{
	open_fixture(i, o);
	ck_assert(fixture_section(&o->fx, ".debug_line", &o->in.lines.line, &o->in.lines.line_size));
	if (!fixture_section(&o->fx, ".debug_line_str", &o->in.lines.line_str,
			     &o->in.lines.line_str_size))
		o->in.lines.line_str = NULL;
	o->in.lines.str = o->in.str;
	o->in.lines.str_size = o->in.str_size;
}

/* What libdw says about one top-level type DIE under a queried name. */
struct truth {
	Dwarf_Off die, unit;
	int tag;
	uint32_t query;
	bool declaration;
	unsigned name_form;
	Dwarf_Word byte_size, decl_line, decl_file, stmt_list;
	const char *comp_dir;
	uint32_t nr_members;
	uint64_t members_hash;
	bool has_children;
	/* A typedef of an anonymous aggregate: the fields above are the aggregate's. */
	bool via_typedef;
	Dwarf_Off aggregate;
};

static Dwarf_Word attr_udata(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;

	if (dwarf_attr(die, name, &attr))
		ck_assert(dwarf_formudata(&attr, &v) == 0);
	return v;
}

/* The members hash as the scan computes it, from libdw's reading. */
static void members_of(Dwarf_Die *die, struct truth *t)
{
	Dwarf_Die child;

	t->members_hash = LL_SIG_INIT;
	t->nr_members = 0;
	if (dwarf_child(die, &child) != 0)
		return;
	t->has_children = true;
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		t->members_hash = ll_sig_member(t->members_hash, dwarf_diename(&child),
						attr_udata(&child, DW_AT_data_member_location),
						attr_udata(&child, DW_AT_data_bit_offset));
		t->nr_members++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static size_t libdw_truth(const struct fixture *fx, struct truth *out, size_t cap,
			  size_t *nr_units)
{
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0;

	*nr_units = 0;
	while (dwarf_nextcu(fx->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;
		Dwarf_Attribute attr;

		(*nr_units)++;
		ck_assert(dwarf_offdie(fx->dwarf, off + hsize, &cu));
		if (dwarf_child(&cu, &die) == 0) {
			do {
				int tag = dwarf_tag(&die);
				const char *nm = dwarf_diename(&die);

				if (!nm || (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
					    tag != DW_TAG_class_type && tag != DW_TAG_typedef))
					continue;
				for (uint32_t q = 0; q < NR_NAMES; q++) {
					if (strcmp(nm, names[q]) != 0)
						continue;
					ck_assert_uint_lt(n, cap);
					struct truth *t = &out[n++];

					memset(t, 0, sizeof(*t));
					t->die = dwarf_dieoffset(&die);
					t->unit = off;
					t->tag = tag;
					t->query = q;
					t->declaration = dwarf_hasattr(&die, DW_AT_declaration);
					ck_assert(dwarf_attr(&die, DW_AT_name, &attr));
					t->name_form = dwarf_whatform(&attr);
					t->stmt_list = attr_udata(&cu, DW_AT_stmt_list);
					t->comp_dir = dwarf_attr(&cu, DW_AT_comp_dir, &attr) ?
						      dwarf_formstring(&attr) : NULL;
					Dwarf_Die agg = die, target;

					/* What a lookup of the typedef's name builds: its anonymous target. */
					if (tag == DW_TAG_typedef && dwarf_attr(&die, DW_AT_type, &attr) &&
					    dwarf_formref_die(&attr, &target) &&
					    (dwarf_tag(&target) == DW_TAG_structure_type ||
					     dwarf_tag(&target) == DW_TAG_union_type) &&
					    !dwarf_diename(&target)) {
						agg = target;
						t->via_typedef = true;
						t->aggregate = dwarf_dieoffset(&target);
						t->tag = dwarf_tag(&target);
						t->declaration = dwarf_hasattr(&target,
									       DW_AT_declaration);
					}
					t->byte_size = attr_udata(&agg, DW_AT_byte_size);
					t->decl_line = attr_udata(&agg, DW_AT_decl_line);
					t->decl_file = attr_udata(&agg, DW_AT_decl_file);
					members_of(&agg, t);
				}
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return n;
}

static bool in_fallback(const struct ll_scan_result *r, uint64_t unit)
{
	for (size_t i = 0; i < r->nr_fallback; i++)
		if (r->fallback_units[i] == unit)
			return true;
	return false;
}

static const struct ll_scan_hit *hit_at(const struct ll_scan_result *r, uint64_t die)
{
	for (size_t i = 0; i < r->nr_hits; i++)
		if (r->hits[i].die == die)
			return &r->hits[i];
	return NULL;
}

/* R against libdw's truth T (N entries); WHAT names the run in messages. */
static void check_result(const struct opened *o, const struct ll_scan_result *r,
			 const struct truth *t, size_t n, size_t nr_units, const char *what)
{
	const char *path = o->fx.path;

	ck_assert_msg(r->nr_units == nr_units, "%s %s: %zu units, libdw %zu", path, what,
		      r->nr_units, nr_units);
	for (size_t i = 0; i + 1 < r->nr_hits; i++)
		ck_assert_msg(r->hits[i].die < r->hits[i + 1].die, "%s %s: hits out of order",
			      path, what);
	for (size_t i = 0; i < r->nr_hits; i++) {
		const struct ll_scan_hit *h = &r->hits[i];
		bool known = false;

		for (size_t k = 0; k < n; k++)
			known |= t[k].die == h->die;
		ck_assert_msg(known, "%s %s: a hit at DIE 0x%llx (%s) libdw does not see", path,
			      what, (unsigned long long)h->die, names[h->query]);
		ck_assert_uint_lt(h->query, FIRST_NON_TYPE);
	}
	for (size_t k = 0; k < n; k++) {
		const struct truth *w = &t[k];
		const struct ll_scan_hit *h = hit_at(r, w->die);
		bool raw_name = w->name_form == DW_FORM_strp || w->name_form == DW_FORM_string;

		if (!h) {
			/* Only a name the scan cannot read sends its unit to libdw. */
			ck_assert_msg(!raw_name && in_fallback(r, w->unit),
				      "%s %s: %s at DIE 0x%llx (name form 0x%x) neither found nor "
				      "handed back", path, what, names[w->query],
				      (unsigned long long)w->die, w->name_form);
			continue;
		}
		ck_assert_msg(raw_name, "%s %s: %s found by a name form (0x%x) it cannot read",
			      path, what, names[w->query], w->name_form);
		ck_assert_uint_eq(h->query, w->query);
		ck_assert_int_eq(h->tag, w->tag);
		ck_assert_int_eq(h->declaration, w->declaration);
		/* Only a typedef of an anonymous struct names something to look up. */
		ck_assert_int_eq(h->via_typedef, strcmp(names[w->query], "ut_anon_t") == 0);
		ck_assert_int_eq(h->via_typedef, w->via_typedef);
		if (w->via_typedef)
			ck_assert_uint_eq(h->aggregate, w->aggregate);
		if (w->tag == DW_TAG_typedef) {
			ck_assert(h->settled);
			continue;
		}
		if (w->declaration) {
			ck_assert(h->settled);
			continue;
		}
		ck_assert_msg(h->has_sig, "%s %s: no signature read for %s", path, what,
			      names[w->query]);
		ck_assert_uint_eq(h->byte_size, w->byte_size);
		ck_assert_uint_eq(h->decl_line, w->decl_line);
		ck_assert_uint_eq(h->decl_file, w->decl_file);
		ck_assert_uint_eq(h->nr_members, w->nr_members);
		ck_assert_msg(h->members_hash == w->members_hash, "%s %s: %s members hash differs",
			      path, what, names[w->query]);
		ck_assert_uint_eq(h->stmt_list, w->stmt_list);
		ck_assert_ptr_nonnull(w->comp_dir);
		ck_assert_ptr_nonnull(h->comp_dir);
		ck_assert_str_eq(h->comp_dir, w->comp_dir);
	}
}

/* Every queried name, every libdw answer; one thread, two, and pread. */
START_TEST(test_scan_matches_libdw)
{
	struct opened o;
	struct truth t[64];
	size_t nr_units, n;
	struct ll_scan_result r;
	int fd = -1;

	open_fixture(_i, &o);
	n = libdw_truth(&o.fx, t, 64, &nr_units);
	ck_assert_uint_ge(n, o.fx.is_object ? 7 : 9);	/* the executable has ut_header twice */

	ck_assert_int_eq(ll_scan(&o.in, names, NR_NAMES, 1, &r), 0);
	check_result(&o, &r, t, n, nr_units, "1 thread");
	ll_scan_result_release(&r);

	ck_assert_int_eq(ll_scan(&o.in, names, NR_NAMES, 2, &r), 0);
	check_result(&o, &r, t, n, nr_units, "2 threads");
	ll_scan_result_release(&r);

	if (!o.fx.is_object) {
		struct ll_scan_input in;

		fd = pread_input(&o, &in);
		ck_assert_int_eq(ll_scan(&in, names, NR_NAMES, 2, &r), 0);
		check_result(&o, &r, t, n, nr_units, "pread");
		ll_scan_result_release(&r);
		/* Units guessed from .debug_aranges with no header probed first. */
		in.unprobed_guess = true;
		ck_assert_int_eq(ll_scan(&in, names, NR_NAMES, 2, &r), 0);
		check_result(&o, &r, t, n, nr_units, "pread, unprobed guess");
		ll_scan_result_release(&r);
		close(fd);
	}
	fixture_close(&o.fx);
}
END_TEST

/*
 * The verdict a unit's DW_AT_producer gives (LL_VERDICT_*), as libdw reads
 * it; 0 for a producer in a form the scan does not read (clang's strx).
 */
static uint8_t producer_verdict(const struct fixture *fx, uint64_t unit)
{
	Dwarf_Off next;
	size_t hsize;
	Dwarf_Die cu;
	Dwarf_Attribute attr;
	const char *producer;

	ck_assert(dwarf_nextcu(fx->dwarf, unit, &next, &hsize, NULL, NULL, NULL) == 0);
	ck_assert(dwarf_offdie(fx->dwarf, unit + hsize, &cu));
	producer = dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &attr));
	ck_assert_ptr_nonnull(producer);
	if (dwarf_whatform(&attr) != DW_FORM_strp && dwarf_whatform(&attr) != DW_FORM_string)
		return 0;
	if (strncmp(producer, "GNU C", 5) == 0 && !strstr(producer, "-fno-merge-debug-strings") &&
	    !strstr(producer, "-gsplit-dwarf"))
		return LL_VERDICT_KNOWN | LL_VERDICT_GCC;
	return strstr(producer, "clang version") ? LL_VERDICT_KNOWN : 0;
}

/*
 * Each unit's producer verdict, which decides whether the byte filter
 * may skip it, is the one its DW_AT_producer gives: the unit DIE's
 * abbreviation, found by its bytes in a DWARF 5 table or by walking a
 * DWARF 4 one, is the right one.
 */
START_TEST(test_verdicts_match_producers)
{
	struct opened o;
	struct ll_scan_result r;

	open_fixture(_i, &o);
	for (unsigned threads = 1; threads <= 2; threads++) {
		ck_assert_int_eq(ll_scan(&o.in, names, NR_NAMES, threads, &r), 0);
		ck_assert_ptr_nonnull(r.verdicts);
		for (size_t i = 0; i < r.nr_units; i++) {
			uint8_t want = producer_verdict(&o.fx, r.units[i].offset);

			ck_assert_msg(r.verdicts[i] == want,
				      "%s: unit 0x%llx: verdict %u, its producer says %u", o.fx.path,
				      (unsigned long long)r.units[i].offset, r.verdicts[i], want);
		}
		ll_scan_result_release(&r);
	}
	fixture_close(&o.fx);
}
END_TEST

/* A DWARF 5 unit's bytes, built up by hand, with its abbreviations and strings. */
struct handmade {
	unsigned char info[64], abbrev[128], str[64];
	size_t info_size, abbrev_size, str_size;
};

static void put_bytes(unsigned char *to, size_t cap, size_t *n, const void *bytes, size_t len)
{
	ck_assert_uint_le(*n + len, cap);
	memcpy(to + *n, bytes, len);
	*n += len;
}

/*
 * Abbreviations 1 .. 10, base types, the first holding the bytes of the
 * unit DIE's entry's start (11, DW_TAG_compile_unit, DW_CHILDREN_yes) in
 * its specs (DW_AT_encoding as DW_FORM_data1, then DW_AT_low_pc as
 * DW_FORM_addr); the unit DIE's own entry 11 (DW_AT_producer as
 * DW_FORM_strp); then entry AFTER (none when 0). The unit: that DIE,
 * naming gcc as its producer, with no children.
 */
static void handmade_unit(struct handmade *h, unsigned after)
{
	static const unsigned char first[] = { 1, DW_TAG_base_type, DW_CHILDREN_no,
					       DW_AT_encoding, DW_FORM_data1,
					       DW_AT_low_pc, DW_FORM_addr, 0, 0 };
	static const unsigned char unit_entry[] = { 11, DW_TAG_compile_unit, DW_CHILDREN_yes,
						    DW_AT_producer, DW_FORM_strp, 0, 0 };
	static const char strings[] = "\0GNU C17 12.2.0 -g\0ut_main";
	const unsigned char head[] = { 0, 0, 0, 0, 5, 0, DW_UT_compile, 8, 0, 0, 0, 0,
				       11, 1, 0, 0, 0, 0 };

	memset(h, 0, sizeof(*h));
	ck_assert_uint_eq(first[4], 11);	/* DW_FORM_data1: the unit entry's code */
	put_bytes(h->abbrev, sizeof(h->abbrev), &h->abbrev_size, first, sizeof(first));
	for (unsigned char code = 2; code <= 10; code++) {
		const unsigned char entry[] = { code, DW_TAG_base_type, DW_CHILDREN_no,
						DW_AT_name, DW_FORM_string, 0, 0 };

		put_bytes(h->abbrev, sizeof(h->abbrev), &h->abbrev_size, entry, sizeof(entry));
	}
	put_bytes(h->abbrev, sizeof(h->abbrev), &h->abbrev_size, unit_entry, sizeof(unit_entry));
	if (after) {
		const unsigned char entry[] = { (unsigned char)after, DW_TAG_base_type,
						DW_CHILDREN_no, 0, 0 };

		put_bytes(h->abbrev, sizeof(h->abbrev), &h->abbrev_size, entry, sizeof(entry));
	}
	put_bytes(h->abbrev, sizeof(h->abbrev), &h->abbrev_size, "", 1);
	put_bytes(h->str, sizeof(h->str), &h->str_size, strings, sizeof(strings));
	/* The unit: header (DW_AT_producer at .debug_str offset 1), the unit DIE, its end. */
	put_bytes(h->info, sizeof(h->info), &h->info_size, head, sizeof(head));
	h->info[0] = (unsigned char)(h->info_size - 4);
}

/*
 * The unit DIE's abbreviation found by its bytes takes the entry whose
 * followers are numbered after it, not an earlier copy of its first
 * bytes inside another entry (read as the unit DIE's, that has no
 * DW_AT_producer); where no entry's followers are numbered so, the walk
 * finds it. Either way gcc's verdict.
 */
START_TEST(test_unit_abbrev_by_bytes)
{
	static const unsigned afters[] = { 0, 12, 20 };
	const char *const wanted[] = { "ut_main" };

	for (size_t k = 0; k < sizeof(afters) / sizeof(afters[0]); k++) {
		struct handmade h;
		struct ll_scan_input in = { 0 };
		struct ll_scan_result r;

		handmade_unit(&h, afters[k]);
		in.info = h.info;
		in.info_size = h.info_size;
		in.abbrev = h.abbrev;
		in.abbrev_size = h.abbrev_size;
		in.str = h.str;
		in.str_size = h.str_size;
		ck_assert_int_eq(ll_scan(&in, wanted, 1, 1, &r), 0);
		ck_assert_uint_eq(r.nr_units, 1);
		ck_assert_uint_eq(r.nr_hits, 0);
		ck_assert_msg(r.verdicts[0] == (LL_VERDICT_KNOWN | LL_VERDICT_GCC),
			      "entry after the unit's: %u: verdict %u", afters[k], r.verdicts[0]);
		ll_scan_result_release(&r);
	}
}
END_TEST

/* Names that are no type find nothing, and cost no unit its raw scan. */
/* Whether a top-level DIE of the unit at OFF has a name in a form the scan cannot read. */
static bool unit_has_unreadable_name(const struct fixture *fx, uint64_t off)
{
	Dwarf_Off next;
	size_t hsize;
	Dwarf_Die cu, die;

	if (dwarf_nextcu(fx->dwarf, off, &next, &hsize, NULL, NULL, NULL) != 0 ||
	    !dwarf_offdie(fx->dwarf, off + hsize, &cu) || dwarf_child(&cu, &die) != 0)
		return false;
	do {
		Dwarf_Attribute attr;

		if (dwarf_attr(&die, DW_AT_name, &attr) && dwarf_whatform(&attr) != DW_FORM_strp &&
		    dwarf_whatform(&attr) != DW_FORM_string)
			return true;
	} while (dwarf_siblingof(&die, &die) == 0);
	return false;
}

START_TEST(test_missing_names)
{
	struct opened o;
	struct ll_scan_result r;

	open_fixture(_i, &o);
	ck_assert_int_eq(ll_scan(&o.in, names + FIRST_NON_TYPE, NR_NAMES - FIRST_NON_TYPE, 1, &r), 0);
	ck_assert_uint_eq(r.nr_hits, 0);
	/* Only a unit whose names the scan cannot read may need libdw. */
	for (size_t i = 0; i < r.nr_fallback; i++)
		ck_assert_msg(unit_has_unreadable_name(&o.fx, r.fallback_units[i]),
			      "%s: unit 0x%llx went to libdw with every name readable", o.fx.path,
			      (unsigned long long)r.fallback_units[i]);
	ll_scan_result_release(&r);
	fixture_close(&o.fx);
}
END_TEST

/* NAMES NULL: every type name of every unit read raw, for did-you-mean. */
START_TEST(test_collect_all_names)
{
	struct opened o;
	struct ll_scan_result r;
	struct truth t[64];
	size_t nr_units, n;

	open_fixture(_i, &o);
	n = libdw_truth(&o.fx, t, 64, &nr_units);
	/*
	 * Mapped, then (an executable) with pread, where the units may be
	 * guessed from .debug_aranges and, guessed wrong, scanned again:
	 * the names of the first try are dropped (ASan says whether freed).
	 */
	for (int pass = 0; pass < (o.fx.is_object ? 1 : 3); pass++) {
		struct ll_scan_input in = o.in;
		int fd = -1;

		if (pass) {
			fd = pread_input(&o, &in);
			/* The scan's own recovery, not the probe's. */
			in.unprobed_guess = pass == 2;
		}
		/* Pass 2 on one thread: the guess fails after a unit was read. */
		ck_assert_int_eq(ll_scan(&in, NULL, 0, pass == 2 ? 1 : 2, &r), 0);
		ck_assert_uint_eq(r.nr_hits, 0);
		ck_assert_uint_eq(r.nr_units, nr_units);
		for (size_t k = 0; k < n; k++) {
			bool seen = false;

			for (size_t i = 0; i < r.nr_names; i++)
				seen |= strcmp(r.names[i], names[t[k].query]) == 0;
			ck_assert_msg(seen || in_fallback(&r, t[k].unit), "%s: %s not collected",
				      o.fx.path, names[t[k].query]);
		}
		for (size_t i = 0; i < r.nr_names; i++)
			for (size_t q = FIRST_NON_TYPE; q < NR_NAMES; q++)
				ck_assert_str_ne(r.names[i], names[q]);
		ll_scan_result_release(&r);
		if (fd >= 0)
			close(fd);
	}
	fixture_close(&o.fx);
}
END_TEST

/*
 * NAMES NULL with a capture glob (a listing that reads the definitions
 * for the lookup after it): the same hits as a scan for the names the
 * glob matches, each naming its name through the result's names; every
 * top-level variable with a location listed.
 */
START_TEST(test_capture_matches_named)
{
	struct opened o;
	struct ll_scan_result want, got;
	Dwarf_Die var;
	Dwarf_Attribute loc;

	open_fixture(_i, &o);
	ck_assert_int_eq(ll_scan(&o.in, names, FIRST_NON_TYPE, 2, &want), 0);
	o.in.capture_glob = "ut_*";
	o.in.variables = true;
	ck_assert_int_eq(ll_scan(&o.in, NULL, 0, 2, &got), 0);
	ck_assert_uint_eq(got.nr_fallback, want.nr_fallback);
	ck_assert_uint_eq(got.nr_hits, want.nr_hits);
	/* Names in forms the scan cannot read (clang's strx) leave every unit to libdw. */
	ck_assert(got.nr_hits > 0 || got.nr_fallback > 0);
	for (size_t i = 0; i < got.nr_hits; i++) {
		const struct ll_scan_hit *g = &got.hits[i], *w = &want.hits[i];

		ck_assert_uint_lt(g->query, got.nr_names);
		ck_assert_uint_eq(g->die, w->die);
		ck_assert_str_eq(got.names[g->query], names[w->query]);
		ck_assert_uint_eq(g->tag, w->tag);
		ck_assert_int_eq(g->has_sig, w->has_sig);
		ck_assert_int_eq(g->settled, w->settled);
		ck_assert_int_eq(g->declaration, w->declaration);
		ck_assert_uint_eq(g->byte_size, w->byte_size);
		ck_assert_uint_eq(g->members_hash, w->members_hash);
		ck_assert_uint_eq(g->nr_members, w->nr_members);
	}
	if (fixture_find(&o.fx, DW_TAG_variable, "ut_main_var", &var, NULL) &&
	    dwarf_attr(&var, DW_AT_location, &loc)) {
		bool listed = false;

		for (size_t i = 0; i < got.nr_variables; i++)
			listed |= got.variables[i].die == dwarf_dieoffset(&var) &&
				  got.variables[i].unit < got.variables[i].die &&
				  got.variables[i].die < got.variables[i].unit_end;
		ck_assert_msg(listed || got.nr_fallback, "%s: ut_main_var not listed", o.fx.path);
	}
	ll_scan_result_release(&want);
	ll_scan_result_release(&got);
	fixture_close(&o.fx);
}
END_TEST

/* libdw's reading of a location that is one address (as variables.c's walk reads it). */
static bool libdw_fixed_address(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) != 0 || nops != 1 || ops[0].atom != DW_OP_addr)
		return false;
	*addr = ops[0].number;
	return true;
}

/*
 * A listing that reads the variables: each one it read whole (raw) is
 * what libdw reads at its DIE: whether its location is one address and
 * which, its name, its type as ll_c_declaration() spells it, its
 * declaring file as libdw joins it, its line and column. ut_main_var and
 * ut_sub_var are read whole wherever the scan reads the unit's names;
 * ut_defined_var, defined after its extern declaration, has its file
 * (gcc: only through DW_AT_specification).
 */
START_TEST(test_variables_read_as_libdw)
{
	struct opened o;
	struct ll_scan_result got;
	size_t whole = 0;

	open_fixture_with_lines(_i, &o);
	o.in.capture_glob = "ut_*";
	o.in.variables = true;
	ck_assert_int_eq(ll_scan(&o.in, NULL, 0, 2, &got), 0);
	for (size_t i = 0; i < got.nr_variables; i++) {
		const struct ll_scan_variable *v = &got.variables[i];
		Dwarf_Die die, type;
		Dwarf_Attribute attr;
		Dwarf_Addr addr;
		Dwarf_Word file;
		int line = 0, column = 0;

		if (!v->raw)
			continue;
		ck_assert(dwarf_offdie(o.fx.dwarf, v->die, &die));
		ck_assert_int_eq(v->fixed, libdw_fixed_address(&die, &addr) &&
					   dwarf_diename(&die) && *dwarf_diename(&die));
		if (!v->fixed)
			continue;
		whole++;
		ck_assert_uint_eq(v->addr, addr);
		ck_assert_str_eq(v->name, dwarf_diename(&die));
		char *spelled = dwarf_attr_integrate(&die, DW_AT_type, &attr) &&
				dwarf_formref_die(&attr, &type) ? ll_c_declaration(&type, "") :
				strdup("");

		ck_assert_str_eq(v->type, spelled);
		free(spelled);
		ck_assert_int_eq(v->has_file, dwarf_attr_integrate(&die, DW_AT_decl_file, &attr) &&
					      dwarf_formudata(&attr, &file) == 0);
		if (v->has_file) {
			ck_assert_uint_eq(v->file, file);
			ck_assert_str_eq(v->file_path, dwarf_decl_file(&die));
		}
		if (dwarf_decl_line(&die, &line) != 0 || line < 0)
			line = 0;
		if (dwarf_decl_column(&die, &column) != 0 || column < 0)
			column = 0;
		ck_assert_uint_eq(v->line, (unsigned)line);
		ck_assert_uint_eq(v->column, (unsigned)column);
		if (strcmp(v->name, "ut_defined_var") == 0)
			ck_assert_msg(v->has_file && strstr(v->file_path, "fixture.c"),
				      "%s: ut_defined_var has no declaring file", o.fx.path);
	}
	ck_assert_msg(whole >= 2 || got.nr_fallback, "%s: %zu variables read whole", o.fx.path, whole);
	ll_scan_result_release(&got);
	fixture_close(&o.fx);
}
END_TEST

/*
 * No names at all, with variables (a warm --audit's variables, whose
 * names come from the name index): the same variables, read the same,
 * as the listing's scan that reads every name, and no hit.
 */
START_TEST(test_variables_alone)
{
	static const char *const no_names[1] = { NULL };
	struct opened o;
	struct ll_scan_result want, got;

	open_fixture_with_lines(_i, &o);
	o.in.variables = true;
	ck_assert_int_eq(ll_scan(&o.in, NULL, 0, 2, &want), 0);
	ck_assert_int_eq(ll_scan(&o.in, no_names, 0, 2, &got), 0);
	ck_assert_uint_eq(got.nr_hits, 0);
	ck_assert_uint_eq(got.nr_fallback, want.nr_fallback);
	ck_assert_uint_eq(got.nr_variables, want.nr_variables);
	ck_assert_msg(got.nr_variables >= 2 || got.nr_fallback, "%s: %zu variables",
		      o.fx.path, got.nr_variables);
	for (size_t i = 0; i < got.nr_variables; i++) {
		const struct ll_scan_variable *g = &got.variables[i], *w = &want.variables[i];

		ck_assert_uint_eq(g->die, w->die);
		ck_assert_uint_eq(g->unit, w->unit);
		ck_assert_int_eq(g->raw, w->raw);
		ck_assert_int_eq(g->fixed, w->fixed);
		ck_assert_uint_eq(g->addr, w->addr);
		ck_assert_uint_eq(g->line, w->line);
		ck_assert_str_eq(g->name ? g->name : "", w->name ? w->name : "");
		ck_assert_str_eq(g->type ? g->type : "", w->type ? w->type : "");
		ck_assert_str_eq(g->file_path ? g->file_path : "", w->file_path ? w->file_path : "");
	}
	ll_scan_result_release(&want);
	ll_scan_result_release(&got);
	fixture_close(&o.fx);
}
END_TEST

/* Whether TYPE is one of ARG's spellings (NULL-terminated; gcc's, then clang's). */
static bool is_one_of(const char *type, const void *arg)
{
	for (const char *const *p = arg; *p; p++)
		if (strcmp(type, *p) == 0)
			return true;
	return false;
}

/*
 * libdw's reading of what the scan's nothing_needed decides: whether a
 * member of AGG (at its top level, or inside an anonymous member's
 * aggregate) has a type ll_c_declaration() spells as F wants.
 */
static bool libdw_has(Dwarf_Die *agg, const struct ll_member_filter *f)
{
	Dwarf_Die child, type;
	Dwarf_Attribute attr;

	if (dwarf_child(agg, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) != DW_TAG_member || !dwarf_attr(&child, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, &type))
			continue;
		if (dwarf_diename(&child)) {
			char *spelled = ll_c_declaration(&type, "");
			bool yes = f->needed(spelled, f->arg);

			free(spelled);
			if (yes)
				return true;
			continue;
		}
		if (dwarf_attr(&child, DW_AT_bit_size, &attr))
			continue;
		while ((dwarf_tag(&type) == DW_TAG_typedef || dwarf_tag(&type) == DW_TAG_const_type ||
			dwarf_tag(&type) == DW_TAG_volatile_type) &&
		       dwarf_attr(&type, DW_AT_type, &attr) && dwarf_formref_die(&attr, &type))
			;
		if ((dwarf_tag(&type) == DW_TAG_structure_type ||
		     dwarf_tag(&type) == DW_TAG_union_type) && libdw_has(&type, f))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static const char *const longs[] = { "long int", "long", NULL };
static const char *const shorts[] = { "short unsigned int", "unsigned short", NULL };
static const char *const void_ptrs[] = { "void *", NULL };
static const char *const const_ptrs[] = { "const struct ut_header *", NULL };

/*
 * The input's member_filter (--audit): a definition the scan marks
 * nothing_needed has no member libdw's reading says yes to, and both
 * kinds occur. A long is in struct ut_main itself, not in union ut_union;
 * an unsigned short in struct ut_header, and in ut_main only inside its
 * named member h, which is not ut_main's own; a void * (a filter that
 * spells only pointers) in struct ut_header too; a const struct ut_header *
 * (a filter that spells only pointers to qualified types) in struct
 * ut_ops_user only, beside a bare struct ut_header * and a const char *.
 */
START_TEST(test_nothing_needed)
{
	const struct ll_member_filter filters[] = {
		{ is_one_of, longs, false, false }, { is_one_of, shorts, false, false },
		{ is_one_of, void_ptrs, true, false }, { is_one_of, const_ptrs, true, true },
	};

	for (size_t k = 0; k < sizeof(filters) / sizeof(filters[0]); k++) {
		struct opened o;
		struct ll_scan_result got;
		size_t marked = 0, kept = 0;

		open_fixture_with_lines(_i, &o);
		o.in.capture_glob = "ut_*";
		o.in.distinct = true;
		o.in.member_filter = &filters[k];
		ck_assert_int_eq(ll_scan(&o.in, NULL, 0, 2, &got), 0);
		for (size_t i = 0; i < got.nr_hits; i++) {
			const struct ll_scan_hit *h = &got.hits[i];
			Dwarf_Die agg;

			if (h->settled || h->declaration)
				continue;
			ck_assert(dwarf_offdie(o.fx.dwarf, ll_scan_hit_aggregate(h), &agg));
			bool has = libdw_has(&agg, &filters[k]);

			ck_assert_msg(!(h->nothing_needed && has),
				      "%s: filter %zu: %s at DIE 0x%llx has a member wanted",
				      o.fx.path, k, got.names[h->query], (unsigned long long)h->die);
			marked += h->nothing_needed;
			kept += has;
		}
		ck_assert_msg((marked >= 2 && kept >= 1) || got.nr_fallback,
			      "%s: filter %zu: %zu marked, %zu with a member wanted", o.fx.path, k,
			      marked, kept);
		ll_scan_result_release(&got);
		fixture_close(&o.fx);
	}
}
END_TEST

/* A private copy of LEN bytes of DATA (exactly that long: ASan sees overreads). */
static unsigned char *copy_of(const unsigned char *data, size_t len)
{
	unsigned char *p = malloc(len ? len : 1);

	memcpy(p, data, len);
	return p;
}

/*
 * .debug_info or .debug_abbrev cut anywhere: the scan refuses the whole
 * input (-1) or hands the damaged units to libdw; a hit it still reports
 * is one libdw sees in the intact file.
 */
START_TEST(test_cut_sections)
{
	struct opened o;
	struct truth t[64];
	size_t nr_units, n;

	open_fixture(_i, &o);
	n = libdw_truth(&o.fx, t, 64, &nr_units);
	for (int which = 0; which < 2; which++) {
		size_t size = which ? o.in.abbrev_size : o.in.info_size;

		for (size_t cut = 0; cut < size; cut += 1 + size / 97) {
			struct ll_scan_input in = o.in;
			unsigned char *buf = copy_of(which ? o.in.abbrev : o.in.info, cut);
			struct ll_scan_result r;
			int rc;

			if (which) {
				in.abbrev = buf;
				in.abbrev_size = cut;
			} else {
				in.info = buf;
				in.info_size = cut;
				in.aranges = NULL;
			}
			rc = ll_scan(&in, names, NR_NAMES, 1, &r);
			if (rc == 0) {
				for (size_t i = 0; i < r.nr_hits; i++) {
					bool known = false;

					for (size_t k = 0; k < n; k++)
						known |= t[k].die == r.hits[i].die &&
							 t[k].query == r.hits[i].query;
					ck_assert_msg(known, "%s: %s cut at %zu: a hit at 0x%llx",
						      o.fx.path, which ? "abbrev" : "info", cut,
						      (unsigned long long)r.hits[i].die);
				}
				/* A unit cut short is not scanned as if whole. */
				ck_assert_msg(which || r.nr_hits < n || cut >= o.in.info_size,
					      "%s: info cut at %zu: every hit still found", o.fx.path,
					      cut);
			} else {
				ck_assert_int_eq(rc, -1);
			}
			ll_scan_result_release(&r);
			free(buf);
		}
	}
	fixture_close(&o.fx);
}
END_TEST

/*
 * O's input, with its .debug_str read from the file as stored
 * (str_in_file); the file descriptor it opened, for the caller to close.
 */
static int str_file_input(const struct opened *o, struct ll_scan_input *in)
{
	*in = o->in;
	in->str_fd = section_in_file(o, ".debug_str", &in->str_file_offset);
	in->str_in_file = true;
	return in->str_fd;
}

/*
 * Names searched for in .debug_str as the file stores it, a chunk at a
 * time (in.str_in_file), one at a time and three at once (each chunk read
 * once for all), find what the search of the mapping finds: with chunks
 * so small that names cross the cuts, and smaller than a name (the
 * mapping is searched then).
 */
START_TEST(test_str_from_file)
{
	static const size_t chunks[] = { 0, 3, 7, 16, 61 };
	struct opened o;
	struct ll_scan_input from_file;
	size_t total = 0;
	int fd;

	open_fixture(_i, &o);
	fd = str_file_input(&o, &from_file);
	for (size_t width = 1; width <= 3; width += 2)
		for (size_t k = 0; k + width <= NR_NAMES; k++) {
			struct ll_scan_result want;

			ck_assert_int_eq(ll_scan(&o.in, &names[k], width, 1, &want), 0);
			total += want.nr_hits + want.nr_fallback;	/* clang's strx: libdw's */
			for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
				struct ll_scan_input in = from_file;
				struct ll_scan_result got;

				in.str_chunk = chunks[c];
				ck_assert_int_eq(ll_scan(&in, &names[k], width, 1, &got), 0);
				ck_assert_msg(got.nr_hits == want.nr_hits &&
					      got.nr_fallback == want.nr_fallback,
					      "%s: %s and %zu more, chunk %zu: %zu hits, not %zu",
					      o.fx.path, names[k], width - 1, chunks[c], got.nr_hits,
					      want.nr_hits);
				for (size_t h = 0; h < got.nr_hits; h++)
					ck_assert_msg(got.hits[h].die == want.hits[h].die &&
						      got.hits[h].query == want.hits[h].query,
						      "%s: %s and %zu more, chunk %zu: hit %zu differs",
						      o.fx.path, names[k], width - 1, chunks[c], h);
				ll_scan_result_release(&got);
			}
			ll_scan_result_release(&want);
		}
	ck_assert_uint_gt(total, 0);
	close(fd);
	fixture_close(&o.fx);
}
END_TEST

/*
 * in.str_read_whole: the scan reads .debug_str from the file into a block
 * of its own and reads names there. With the mapping's copy zeroed, the
 * hits (and their members' hashes, which read every member's name) must
 * still be those of the mapping; with a descriptor that cannot be read,
 * the scan reads the mapping instead, and finds no strp name in zeros.
 */
START_TEST(test_str_read_whole)
{
	struct opened o;
	struct ll_scan_input from_file;
	unsigned char *zeros;
	size_t total = 0;
	int fd;

	open_fixture_with_lines(_i, &o);
	fd = str_file_input(&o, &from_file);
	zeros = xcalloc(1, o.in.str_size);
	from_file.str = zeros;
	from_file.str_read_whole = true;
	for (size_t k = 0; k < NR_NAMES; k++) {
		struct ll_scan_input in = from_file;
		struct ll_scan_result want, got, unread;

		ck_assert_int_eq(ll_scan(&o.in, &names[k], 1, 1, &want), 0);
		ck_assert_int_eq(ll_scan(&in, &names[k], 1, 2, &got), 0);
		ck_assert_msg(got.nr_hits == want.nr_hits && got.nr_fallback == want.nr_fallback,
			      "%s: %s: %zu hits read whole, not %zu", o.fx.path, names[k],
			      got.nr_hits, want.nr_hits);
		for (size_t h = 0; h < got.nr_hits; h++) {
			ck_assert_msg(got.hits[h].die == want.hits[h].die &&
				      got.hits[h].has_sig == want.hits[h].has_sig &&
				      got.hits[h].members_hash == want.hits[h].members_hash,
				      "%s: %s: hit %zu differs read whole", o.fx.path, names[k], h);
		}
		total += want.nr_hits + want.nr_fallback;	/* clang's strx: libdw's */
		in.str_fd = -1;
		ck_assert_int_eq(ll_scan(&in, &names[k], 1, 1, &unread), 0);
		ck_assert_uint_eq(unread.nr_hits, 0);	/* every name here is longer than inline */
		ll_scan_result_release(&unread);
		ll_scan_result_release(&got);
		ll_scan_result_release(&want);
	}
	ck_assert_uint_gt(total, 0);
	free(zeros);
	close(fd);
	fixture_close(&o.fx);
}
END_TEST

/* An empty name (`struct ""`) is searched for like any other: nothing found, nothing read past it. */
START_TEST(test_empty_name)
{
	static const char *const empty[] = { "" };
	struct opened o;
	struct ll_scan_result r;

	open_fixture(_i, &o);
	ck_assert_int_eq(ll_scan(&o.in, empty, 1, 1, &r), 0);
	ck_assert_uint_eq(r.nr_hits, 0);
	ll_scan_result_release(&r);
	fixture_close(&o.fx);
}
END_TEST

/*
 * ll_scan_words_reach() on a result made by hand: which definitions can
 * hold cw_t, over names, and which a word none has (long). Each hit is a
 * definition unless said; its words: "=NAME" a struct's or union's name
 * (its own words go deeper), "NAME" any other (a typedef's, the member
 * type's), "?" words unknown.
 */
START_TEST(test_words_reach)
{
	static const struct {
		const char *name;
		const char *words[3];
		bool declaration, marked, marked_long;
	} defs[] = {
		{ "direct", { "cw_t" }, false, false, true },	/* a typedef spelled cw_t */
		{ "as_struct", { "=cw_t" }, false, false, false },	/* no definition of it */
		{ "one_up", { "=direct" }, false, false, true },
		{ "two_up", { "td", "=one_up" }, false, false, true },	/* through a typedef */
		{ "unknown", { "?" }, false, false, false },	/* not C, or unreadable */
		{ "holds_unknown", { "=unknown" }, false, false, false },
		{ "holds_nameless", { "=no_definition" }, false, false, false },
		{ "plain", { "int_t" }, false, true, true },
		{ "holds_plain", { "=plain", "long_t" }, false, true, true },
		{ "nothing", { NULL }, false, true, true },
		{ "direct", { NULL }, true, false, false },	/* a declaration: untouched */
		/* Two definitions of one name: when one may hold cw_t, both count. */
		{ "twice", { "=direct" }, false, false, true },
		{ "twice", { "int_t" }, false, false, true },
		{ "holds_twice", { "=twice" }, false, false, true },
	};
	const size_t n = sizeof(defs) / sizeof(defs[0]);
	const char *names[sizeof(defs) / sizeof(defs[0])];
	struct ll_scan_hit hits[sizeof(defs) / sizeof(defs[0])];
	uint64_t words[3 * sizeof(defs) / sizeof(defs[0])];
	size_t nr_words = 0;

	for (size_t i = 0; i < n; i++) {
		names[i] = defs[i].name;
		hits[i] = (struct ll_scan_hit){ .query = (uint32_t)i, .tag = DW_TAG_structure_type,
						.declaration = defs[i].declaration,
						.settled = defs[i].declaration, .has_sig = true,
						.words_known = true, .words_at = (uint32_t)nr_words };
		for (size_t k = 0; k < 3 && defs[i].words[k]; k++) {
			const char *w = defs[i].words[k];

			if (strcmp(w, "?") == 0) {
				hits[i].words_known = false;
				continue;
			}
			words[nr_words++] = ll_scan_word(w + (w[0] == '='), w[0] == '=');
			hits[i].nr_words++;
		}
	}
	struct ll_scan_result r = { .hits = hits, .nr_hits = n, .words = words,
				    .nr_words = nr_words };

	for (int pass = 0; pass < 2; pass++) {
		size_t expected = 0;

		for (size_t i = 0; i < n; i++)
			hits[i].nothing_needed = false;
		size_t marked = ll_scan_words_reach(&r, names, pass ? "long" : "cw_t");

		for (size_t i = 0; i < n; i++) {
			bool want = pass ? defs[i].marked_long : defs[i].marked;

			ck_assert_msg(hits[i].nothing_needed == want, "%s: %s (hit %zu): %s",
				      pass ? "long" : "cw_t", defs[i].name, i,
				      hits[i].nothing_needed ? "marked" : "not marked");
			expected += want;
		}
		ck_assert_uint_eq(marked, expected);
	}
}
END_TEST

/*
 * The index's entries from a whole-image scan's postings: names equal in
 * content (two threads', an inline copy) are one entry, whatever their
 * ids; its units are every copy's, in order, each once; IN_STR when any
 * copy was read by .debug_str offset; names no posting uses are no entry.
 */
START_TEST(test_entries_from_postings)
{
	char a1[] = "task", b1[] = "file", a2[] = "task", c1[] = "zz", b2[] = "file", d1[] = "unused";
	char *const names[] = { a1, b1, a2, c1, b2, d1 };
	const bool strp[] = { false, false, true, false, false, true };
	const struct ll_scan_posting postings[] = {
		{ 0, 1 }, { 1, 1 }, { 3, 2 }, { 2, 4 }, { 4, 4 }, { 1, 5 }, { 2, 7 }, { 4, 9 },
	};
	struct ll_index_entry *e;
	size_t n;

	ll_name_index_entries_from_postings(postings, sizeof(postings) / sizeof(postings[0]), names,
					    strp, 6, &e, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(e[0].name, "file");
	ck_assert_str_eq(e[1].name, "task");
	ck_assert_str_eq(e[2].name, "zz");
	ck_assert_uint_eq(e[0].flags & LL_INDEX_IN_STR, 0);
	ck_assert_uint_eq(e[1].flags & LL_INDEX_IN_STR, LL_INDEX_IN_STR);	/* a2's */
	ck_assert_uint_eq(e[2].flags & LL_INDEX_IN_STR, 0);
	const uint32_t file_units[] = { 1, 4, 5, 9 }, task_units[] = { 1, 4, 7 };

	ck_assert_uint_eq(e[0].nr_units, 4);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(e[0].units[i], file_units[i]);
	ck_assert_uint_eq(e[1].nr_units, 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert_uint_eq(e[1].units[i], task_units[i]);
	ck_assert_uint_eq(e[2].nr_units, 1);
	ck_assert_uint_eq(e[2].units[0], 2);
	ll_name_index_entries_free(e, n);
}
END_TEST

/* What ll_name_index_mark_str_tails() must say of NAME: memmem() over STR, name and NUL. */
static bool tail_by_memmem(const char *str, size_t size, const char *name)
{
	return size && memmem(str, size, name, strlen(name) + 1) != NULL;
}

/*
 * ENTRIES' flags after the marking, against memmem() on each name; an
 * entry marked before stays marked. Returns how many were marked.
 */
static size_t check_tails(struct ll_index_entry *entries, size_t n, const char *str, size_t size,
			  const bool *before)
{
	size_t marked = 0;

	ll_name_index_mark_str_tails(entries, n, str, size);
	for (size_t i = 0; i < n; i++) {
		bool want = before[i] || tail_by_memmem(str, size, entries[i].name);
		bool got = (entries[i].flags & LL_INDEX_IN_STR) != 0;

		ck_assert_msg(got == want, "'%s': marked %d, memmem says %d", entries[i].name, got,
			      want);
		marked += got;
	}
	return marked;
}

/*
 * Names .debug_str holds as a string or its tail, as ld merges them:
 * whole, as a tail, not followed by the NUL (no tail), at the very start,
 * the empty name; then random sections and names, with names of few
 * lengths (the one pass) and of more than LL_STR_TAIL_LENGTHS (one search each).
 */
START_TEST(test_str_tails)
{
	static const char str[] = "abc\0xyzfoo\0bar\0zfo!";
	const char *const names[] = { "abc", "foo", "zfo", "ar", "q", "xyzfoo", "bar", "zfo!",
				      "", "bc", "c", "yzfoo!" };
	enum { N = sizeof(names) / sizeof(names[0]) };
	struct ll_index_entry e[N];
	bool before[N] = { false };

	memset(e, 0, sizeof(e));
	for (size_t i = 0; i < N; i++)
		e[i].name = names[i];
	e[4].flags = LL_INDEX_IN_STR;	/* "q": marked by the scan, stays */
	before[4] = true;
	/* abc foo ar q xyzfoo bar "" bc c: "zfo!" has no NUL after it (the section ends). */
	ck_assert_uint_eq(check_tails(e, N, str, sizeof(str) - 1, before), 9);

	/* The same with no section: nothing more is marked. */
	memset(e, 0, sizeof(e));
	for (size_t i = 0; i < N; i++)
		e[i].name = names[i];
	ck_assert_uint_eq(check_tails(e, N, str, 0, (bool[N]){ false }), 0);

	unsigned seed = 12345;
	char buf[4096], name_bytes[64][32];
	struct ll_index_entry r[64];
	bool none[64] = { false };

	for (int round = 0; round < 200; round++) {
		size_t size = 1 + (size_t)(rand_r(&seed) % sizeof(buf));
		/* Few lengths (up to 5) in most rounds, up to 31 in every fourth. */
		unsigned longest = round % 4 == 3 ? 31 : 5;

		for (size_t i = 0; i < size; i++)
			buf[i] = "ab\0"[rand_r(&seed) % 3];
		memset(r, 0, sizeof(r));
		for (size_t i = 0; i < 64; i++) {
			size_t len = (size_t)(rand_r(&seed) % (longest + 1));

			for (size_t k = 0; k < len; k++)
				name_bytes[i][k] = "ab"[rand_r(&seed) % 2];
			name_bytes[i][len] = 0;
			r[i].name = name_bytes[i];
		}
		check_tails(r, 64, buf, size, none);
	}
}
END_TEST

static Suite *scan_suite(void)
{
	Suite *s = suite_create("dwarf_scan");
	TCase *t = tcase_create("fixtures");

	tcase_add_loop_test(t, test_scan_matches_libdw, 0, nr_fixtures);
	tcase_add_loop_test(t, test_verdicts_match_producers, 0, nr_fixtures);
	tcase_add_test(t, test_unit_abbrev_by_bytes);
	tcase_add_test(t, test_words_reach);
	tcase_add_test(t, test_str_tails);
	tcase_add_test(t, test_entries_from_postings);
	tcase_add_loop_test(t, test_missing_names, 0, nr_fixtures);
	tcase_add_loop_test(t, test_collect_all_names, 0, nr_fixtures);
	tcase_add_loop_test(t, test_capture_matches_named, 0, nr_fixtures);
	tcase_add_loop_test(t, test_variables_read_as_libdw, 0, nr_fixtures);
	tcase_add_loop_test(t, test_variables_alone, 0, nr_fixtures);
	tcase_add_loop_test(t, test_nothing_needed, 0, nr_fixtures);
	tcase_add_loop_test(t, test_cut_sections, 0, nr_fixtures);
	tcase_add_loop_test(t, test_str_from_file, 0, nr_fixtures);
	tcase_add_loop_test(t, test_str_read_whole, 0, nr_fixtures);
	tcase_add_loop_test(t, test_empty_name, 0, nr_fixtures);
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
	/* argv[1], the fixtures' source directory, is for test_line_table. */
	fixture_paths = argv + 2;
	nr_fixtures = argc - 2;
	sr = srunner_create(scan_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
