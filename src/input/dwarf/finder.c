// SPDX-License-Identifier: GPL-2.0-or-later
/* Which DIEs are the names asked for: the raw scan, the name index or libdw's walk. */
#include "input/dwarf/finderP.h"

void ll_finder_use_index(struct ll_finder *finder, struct ll_name_index *index)
{
	if (finder)
		finder->index = index;
}


static bool wanted_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_typedef;
}

static uint64_t name_hash(const char *s)
{
	return ll_fnv1a(LL_FNV_INIT, s, strlen(s));
}

static uint64_t set_hash(const void *ctx, size_t i)
{
	return name_hash(((const char *const *)ctx)[i]);
}

/* Where NAME is in SET, or the empty slot where it would go. */
static size_t set_slot(const struct name_set *set, const char *name)
{
	size_t at = ll_slots_first(&set->at, name_hash(name));

	while (ll_slots_get(&set->at, at) &&
	       strcmp(set->names[ll_slots_get(&set->at, at) - 1], name) != 0)
		at = ll_slots_next(&set->at, at);
	return at;
}

static void set_init(struct name_set *set, const char *const *names, size_t n)
{
	*set = (struct name_set){ .names = names, .at = LL_SLOTS_INIT };
	ll_slots_reserve(&set->at, 2 * n, set_hash, names);
	for (size_t i = 0; i < n; i++) {
		size_t at = set_slot(set, names[i]);

		if (ll_slots_get(&set->at, at))
			ll_slots_replace(&set->at, at, i);
		else
			ll_slots_put(&set->at, at, i);
	}
}

/* The index of a name asked for that equals NAME, or -1. */
static long set_index(const struct name_set *set, const char *name)
{
	return (long)ll_slots_get(&set->at, set_slot(set, name)) - 1;
}

/* The name asked for that equals NAME, or NULL. */
static const char *set_get(const struct name_set *set, const char *name)
{
	long k = set_index(set, name);

	return k < 0 ? NULL : set->names[k];
}

static bool set_has(const struct name_set *set, const char *name)
{
	return set_get(set, name) != NULL;
}

static struct ll_finder *new_finder(const struct ll_finder_source *src)
{
	struct ll_finder *f = xcalloc(1, sizeof(*f));

	f->dwarf = src->dwarf;
	f->types = src->types;
	f->image = src->image;
	f->notes = src->notes;
	return f;
}

static const char *section_name(bool types)
{
	return types ? ".debug_types" : ".debug_info";
}

/*
 * One DWARF 5 unit header (32-bit, DW_UT_compile) at the first unit
 * without its header yet, spanning up to unit LO: libdw registers it as
 * one unit and goes on to LO, and nothing will read a DIE inside it.
 */
static bool put_fake_header(struct ll_finder *f, size_t lo)
{
	const struct ll_scan_unit *u = &f->units[f->headers_filled];
	uint64_t len = f->units[lo].offset - u->offset;
	unsigned char h[12];

	/* A file mapping holds the real headers, and takes no made-up one. */
	if (len < sizeof(h) || len - 4 >= 0xfffffff0u || u->addr_size > 255 ||
	    u->abbrev_offset > UINT32_MAX || ll_sparse_whole(f->image))
		return false;
	for (int i = 0; i < 4; i++) {
		h[i] = (unsigned char)((len - 4) >> (8 * i));
		h[8 + i] = (unsigned char)(u->abbrev_offset >> (8 * i));
	}
	h[4] = 5;
	h[5] = 0;
	h[6] = DW_UT_compile;
	h[7] = (unsigned char)u->addr_size;
	ll_sparse_put(f->image, u->offset, h, sizeof(h));
	if (!f->faked)
		f->faked = xcalloc(f->nr_units, sizeof(*f->faked));
	for (size_t i = f->headers_filled; i < lo; i++)
		f->faked[i] = true;
	return true;
}

static size_t unit_index(const struct ll_finder *f, uint64_t off)
{
	return ll_scan_unit_index(f->units, f->nr_units, off);
}

/*
 * Whether unit U may point into other units, asked once: the answer
 * loads the unit's whole abbreviation table, and a warm lookup asks twice
 * per unit (here, then in ll_finder_prepare()).
 */
static bool unit_refs_outside(struct ll_finder *f, size_t u)
{
	if (!f->refs_outside[u])
		f->refs_outside[u] = ll_scan_unit_refs_outside(&f->in, &f->units[u]) ? 2 : 1;
	return f->refs_outside[u] == 2;
}

void ll_finder_skip_headers(struct ll_finder *f, const uint64_t *dies, size_t n)
{
	if (!f || !f->image || !f->units || f->headers_filled)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t u = unit_index(f, dies[i]);

		if (u == SIZE_MAX || f->units[u].version < 5 || unit_refs_outside(f, u))
			return;
	}
	f->skip_headers = true;
}

bool ll_finder_faked(const struct ll_finder *f)
{
	return f && (f->faked || f->skip_headers);
}

bool ll_finder_unit_span(const struct ll_finder *f, uint64_t off, uint64_t *begin, uint64_t *end)
{
	size_t u;

	if (!f || !f->units || (u = unit_index(f, off)) == SIZE_MAX)
		return false;
	*begin = f->units[u].offset;
	*end = f->units[u].end;
	return true;
}

void ll_finder_release(struct ll_finder *f, uint64_t off)
{
	size_t u;

	if (!f || !f->image || !f->units || (u = unit_index(f, off)) == SIZE_MAX ||
	    !f->unit_filled[u])
		return;
	ll_sparse_release(f->image, f->units[u].first_die, f->units[u].end - f->units[u].first_die);
	f->unit_filled[u] = false;
}

int ll_finder_prepare(struct ll_finder *f, uint64_t off, struct ll_error *err)
{
	size_t lo;

	/* All of it real already: nothing to read, nor any unit's abbreviations to parse. */
	if (!f || !f->image || ll_sparse_whole(f->image))
		return 0;
	if (!f->units || (lo = unit_index(f, off)) == SIZE_MAX)
		return fill_all(f, err);
	/*
	 * libdw registers units one after another up to the one asked for,
	 * reading their headers (and, below DWARF 5, their unit DIEs too:
	 * those images get the whole section).
	 */
	/*
	 * A unit whose header was real is read again (a build retried after
	 * its round gave it back); one a made-up header spans never can be.
	 */
	if (f->faked && f->faked[lo])
		return ll_fail(err, "internal error: .debug_info offset 0x%llx read after the unit "
			       "headers before it were skipped", (unsigned long long)off);
	while (f->headers_filled <= lo) {
		const struct ll_scan_unit *u = &f->units[f->headers_filled];

		if (u->version < 5)
			return fill_all(f, err);
		if (f->skip_headers && f->headers_filled < lo && put_fake_header(f, lo)) {
			f->headers_filled = lo;
			continue;
		}
		/* The scan kept each header's bytes: no second read. */
		ll_sparse_put(f->image, u->offset, u->head, u->first_die - u->offset);
		f->headers_filled++;
	}
	if (f->unit_filled[lo])
		return 0;
	const struct ll_scan_unit *u = &f->units[lo];

	/* A DIE that may point into other units needs them all. */
	if (unit_refs_outside(f, lo))
		return fill_all(f, err);
	if (ll_sparse_map(f->image, u->offset, u->end - u->offset, err))
		return -1;
	f->unit_filled[lo] = true;
	return 0;
}

struct offsets {
	struct hit *v;
	size_t n;
};

static void push_offset(struct offsets *o, uint64_t off, const struct ll_scan_hit *raw)
{
	o->v = xgrow(o->v, o->n, sizeof(*o->v));
	o->v[o->n++] = (struct hit){ off, raw, NULL };
}

/*
 * The plain libdw walk of one unit's top-level DIEs. A DIE libdw cannot
 * read, or a name it cannot read, is an error: skipping it could turn a
 * damaged definition into "not found" or into the wrong one of two.
 */
static int walk_unit(Dwarf_Die *cu, const char *path, const struct name_set *set,
		     struct offsets *hits, struct ll_error *err)
{
	Dwarf_Die child;
	int rc = dwarf_child(cu, &child);

	while (rc == 0) {
		uint64_t off = dwarf_dieoffset(&child);
		int tag = dwarf_tag(&child);
		Dwarf_Attribute attr;
		const char *name;

		if (tag == DW_TAG_invalid)
			return ll_fail(err, "%s: unreadable DIE at .debug_info offset 0x%llx: %s", path,
				       (unsigned long long)off, dwarf_errmsg(-1));
		if (wanted_tag(tag)) {
			name = dwarf_diename(&child);
			if (!name && dwarf_attr_integrate(&child, DW_AT_name, &attr))
				return ll_fail(err, "%s: DIE at .debug_info offset 0x%llx: unreadable "
					       "DW_AT_name: %s", path, (unsigned long long)off,
					       dwarf_errmsg(-1));
			if (name && set_has(set, name))
				push_offset(hits, off, NULL);
		}
		rc = dwarf_siblingof(&child, &child);
		if (rc < 0)
			return ll_fail(err, "%s: unreadable DIE after .debug_info offset 0x%llx: %s",
				       path, (unsigned long long)off, dwarf_errmsg(-1));
	}
	if (rc < 0)
		return ll_fail(err, "%s: unreadable DIE in the unit at .debug_info offset 0x%llx: %s",
			       path, (unsigned long long)dwarf_dieoffset(cu), dwarf_errmsg(-1));
	return 0;
}

/* Size of .debug_info (or .debug_types) as libdw reads it (decompressed, relocated). */
static uint64_t info_size(Dwarf *dwarf, bool types)
{
	const unsigned char *data;
	size_t size;
	Elf *elf = dwarf_getelf(dwarf);

	return elf && ll_elf_section_bytes(elf, section_name(types),
					   types ? ".zdebug_types" : ".zdebug_info", &data, &size) ?
	       size : UINT64_MAX;
}

/*
 * What every libdw walk checks of the unit [OFF, NEXT) before reading its
 * DIEs. It must end within the section. Its abbreviations must say yes (1)
 * or no (0) for children: libdw takes anything else for no, and the
 * unit's DIEs (or a struct's members) would vanish from the answer in
 * silence, while the raw scan (which refuses such a table too) read them.
 */
/*
 * A DWARF 5 unit_type libdw does not refuse: 0 (a one-byte corruption of
 * the 6.12 image) it reads as an empty unit, and its structs vanished from
 * --list and lookups. The raw scan refuses the header and falls back here,
 * so this one check covers both scan paths.
 */
static int unit_type_bad(Dwarf *dwarf, bool types, const char *path, Dwarf_Off off,
			 struct ll_error *err)
{
	const unsigned char *info;
	size_t size;
	Elf *elf = dwarf_getelf(dwarf);
	uint64_t at = off + 4;
	unsigned type;

	if (!elf || !ll_elf_section_bytes(elf, types ? ".debug_types" : ".debug_info",
					  types ? ".zdebug_types" : ".zdebug_info", &info, &size) ||
	    off + 4 > size)
		return 0;	/* libdw's to report */
	if (info[off] == 0xff && info[off + 1] == 0xff && info[off + 2] == 0xff &&
	    info[off + 3] == 0xff)
		at += 8;
	if (at + 3 > size || (info[at] | info[at + 1] << 8) != 5)
		return 0;
	type = info[at + 2];
	if (type >= DW_UT_compile && type <= DW_UT_split_type)
		return 0;
	return ll_fail(err, "%s: the unit at %s offset 0x%llx has unit_type 0x%02x, which is no "
		       "DWARF 5 unit type (at offset 0x%llx)", path, section_name(types),
		       (unsigned long long)off, type, (unsigned long long)(at + 2));
}

static int check_unit(Dwarf *dwarf, bool types, const char *path, Dwarf_Off off,
		      Dwarf_Off next, Dwarf_Off abbrev_off, struct ll_error *err)
{
	const unsigned char *abbrev;
	size_t abbrev_size;
	uint64_t size = info_size(dwarf, types), bad, dup;
	Elf *elf = dwarf_getelf(dwarf);

	if (next > size)
		return ll_fail(err, "%s: the unit at %s offset 0x%llx runs past the "
			       "end of the section (0x%llx bytes)", path, section_name(types),
			       (unsigned long long)off, (unsigned long long)size);
	if (unit_type_bad(dwarf, types, path, off, err))
		return -1;
	if (!elf || !ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &abbrev,
					  &abbrev_size) ||
	    ll_abbrev_children_valid(abbrev, abbrev_size, abbrev_off, &bad, &dup))
		return 0;	/* a missing table is libdw's to report */
	if (dup)
		return ll_fail(err, "%s: abbreviation code %llu defined twice, again at "
			       ".debug_abbrev offset 0x%llx, in the abbreviations of the unit at "
			       ".debug_info offset 0x%llx", path, (unsigned long long)dup,
			       (unsigned long long)bad, (unsigned long long)off);
	return ll_fail(err, "%s: invalid DW_CHILDREN value 0x%x at .debug_abbrev offset 0x%llx, "
		       "in the abbreviations of the unit at .debug_info offset 0x%llx", path,
		       abbrev[bad], (unsigned long long)bad, (unsigned long long)off);
}

/* The unit at OFF (NEXT its end) checked, and its root DIE in *CU; -1 when it cannot be read. */
static int open_unit(Dwarf *dwarf, bool types, const char *path, Dwarf_Off off, Dwarf_Off next,
		     size_t hsize, Dwarf_Off abbrev_off, Dwarf_Die *cu, struct ll_error *err)
{
	if (check_unit(dwarf, types, path, off, next, abbrev_off, err))
		return -1;
	if (!unit_die(dwarf, types, off + hsize, cu))
		return ll_fail(err, "%s: unreadable compilation unit at %s offset 0x%llx: %s", path,
			       section_name(types), (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}

static int walk_all(Dwarf *dwarf, bool types, const char *path, const struct name_set *set,
		    struct offsets *hits, struct ll_error *err)
{
	Dwarf_Off off = 0, next, abbrev_off;
	size_t hsize;
	int rc;

	while ((rc = next_unit(dwarf, types, off, &next, &hsize, &abbrev_off)) == 0) {
		Dwarf_Die cu;

		if (open_unit(dwarf, types, path, off, next, hsize, abbrev_off, &cu, err))
			return -1;
		if (walk_unit(&cu, path, set, hits, err))
			return -1;
		off = next;
	}
	if (rc < 0)
		return ll_fail(err, "%s: malformed %s unit header at offset 0x%llx: %s",
			       path, section_name(types), (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}


/*
 * LAYOUTLINT_SCAN=libdw turns the raw scan off: the tests compare its
 * answers with the plain libdw walk's, and it is the way out should the
 * scan ever be wrong on some producer's output.
 */
static bool raw_scan_allowed(void)
{
	return !ll_tuning()->scan_libdw;
}

/*
 * Which inputs take which path:
 *  - the raw scan (raw/scan.c), pread()ing .debug_info: ET_EXEC / ET_DYN
 *    whose DWARF libdw read directly from this file, little endian, with
 *    .debug_info stored uncompressed (a compressed one is scanned in
 *    libdw's decompressed copy). Units it is unsure of (clang's strx
 *    names, dwz's alternate strings, an unknown form) go to the libdw walk
 *    one by one; a name missing from .debug_str skips units whose producer
 *    (gcc, LLVM) rules out an inline copy of it;
 *  - the plain libdw walk (walk_all): everything else: ET_REL objects and
 *    modules (string offsets live in relocation addends), separate debug
 *    files found by libdwfl, big-endian images, LAYOUTLINT_SCAN=libdw.
 */
/* File offset of section NAME when its bytes are stored there as is. */
static bool plain_file_offset(Elf *elf, const char *name, uint64_t *off)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = ll_elf_section(elf, name, NULL, &shdr);
	Elf_Data *raw, *d;

	if (!scn)
		return false;
	/* libdw decompressed a compressed section into memory: not in the file. */
	raw = elf_rawdata(scn, NULL);
	d = elf_getdata(scn, NULL);
	if (!ll_elf_progbits(shdr.sh_type) || !raw || !d || raw->d_buf != d->d_buf ||
	    raw->d_size != d->d_size)
		return false;
	*off = shdr.sh_offset;
	return true;
}

/* The sections the raw scan reads, when the file holds them plainly. */
static bool scan_input(Dwarf *dwarf, int fd, int str_fd, const struct ll_progress *progress,
		       struct ll_scan_input *in)
{
	Elf *elf = dwarf_getelf(dwarf);

	memset(in, 0, sizeof(*in));
	in->progress = progress;
	if (!elf || !ll_elf_section_bytes(elf, ".debug_info", ".zdebug_info", &in->info, &in->info_size) ||
	    !ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &in->abbrev, &in->abbrev_size))
		return false;
	/* Sections stored plainly in the file can be read without the mapping. */
	if (fd >= 0 && plain_file_offset(elf, ".debug_info", &in->info_file_offset)) {
		in->use_pread = true;
		in->fd = fd;
		in->info = NULL;
	}
	if (!ll_elf_section_bytes(elf, ".debug_str", ".zdebug_str", &in->str, &in->str_size)) {
		in->str = (const unsigned char *)"";
		in->str_size = 0;
	} else if (str_fd >= 0 && plain_file_offset(elf, ".debug_str", &in->str_file_offset)) {
		GElf_Ehdr eh;

		in->str_in_file = true;
		in->str_fd = str_fd;
		in->str_read_whole = gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
	}
	if (!ll_elf_section_bytes(elf, ".debug_line_str", ".zdebug_line_str", &in->line_str,
			  &in->line_str_size))
		in->line_str = NULL;
	if (!ll_elf_section_bytes(elf, ".debug_aranges", ".zdebug_aranges", &in->aranges,
				  &in->aranges_size))
		in->aranges = NULL;
	const unsigned char *sup;
	size_t sup_size;

	in->supplementary = ll_elf_section_bytes(elf, ".gnu_debugaltlink", ".gnu_debugaltlink", &sup,
					 &sup_size) ||
			    ll_elf_section_bytes(elf, ".debug_sup", ".debug_sup", &sup, &sup_size);
	return true;
}

/*
 * The units INDEX says hold NAMES, into IN's only list (owned by the
 * caller, NULL without a usable index): damaged postings are a note, then
 * the scan reads every unit as without an index.
 */
static uint32_t *index_units(struct ll_name_index *index, const char *const *names, size_t n,
			     struct ll_scan_input *in, struct ll_notes *notes)
{
	char *note = NULL;
	uint32_t *units;

	if (!index)
		return NULL;
	units = ll_name_index_units(index, names, n, &in->nr_only, &note);
	if (units) {
		in->only = units;
		in->only_nr_units = index->nr_units;
	} else if (note) {
		ll_notes_addf(notes, "%s", note);
	}
	free(note);
	return units;
}

static int raw_scan(const struct ll_finder_source *src, struct ll_finder *finder, int fd,
		    Dwarf *dwarf, const char *path, struct ll_name_index *index, const char *const *names, size_t n,
		    const struct name_set *set, const struct ll_progress *progress,
		    struct ll_scan_result *r, struct offsets *hits, bool *done, struct ll_error *err)
{
	struct ll_scan_input in;
	uint32_t *only;
	int rc;

	*done = false;
	/*
	 * Without .debug_str bytes the scan could match no DW_FORM_strp name
	 * and would skip every unit; the libdw walk reads (and checks) them.
	 */
	if (!scan_input(dwarf, fd, src->str_fd, progress, &in) || in.str_size == 0)
		return 0;
	only = index_units(index, names, n, &in, src->notes);
	in.distinct = src->distinct;
	in.lines = src->lines;
	/*
	 * A cold --contains after a warm listing (a warm one unsure of its
	 * answer); a cold --audit after one (whose index lacked what the
	 * member filter says of each definition).
	 */
	in.contains_word = src->distinct ? src->contains_word : NULL;
	in.member_filter = src->distinct ? src->member_filter : NULL;
	rc = ll_scan(&in, names, n, ll_threads(), r);
	in.contains_word = NULL;
	in.member_filter = NULL;
	free(only);
	in.only = NULL;
	in.nr_only = 0;
	in.distinct = false;	/* the later scans (did you mean) want every hit */
	if (rc != 0)
		return 0;
	finder->raw = true;
	finder->in = in;
	finder->units = finder->own_units = r->units;
	finder->nr_units = r->nr_units;
	finder->verdicts = r->verdicts;
	r->verdicts = NULL;
	finder->unit_filled = xcalloc(r->nr_units ? r->nr_units : 1, sizeof(bool));
	finder->refs_outside = xcalloc(r->nr_units ? r->nr_units : 1, 1);
	r->units = NULL;
	for (size_t i = 0; i < r->nr_hits; i++)
		push_offset(hits, r->hits[i].die, &r->hits[i]);
	for (size_t i = 0; i < r->nr_fallback; i++) {
		Dwarf_Off next, abbrev_off;
		size_t hsize;
		Dwarf_Die cu;

		if (ll_finder_prepare(finder, r->fallback_units[i], err))
			return -1;
		if (dwarf_next_unit(dwarf, r->fallback_units[i], &next, &hsize, NULL, &abbrev_off,
				    NULL, NULL, NULL, NULL) != 0)
			return ll_fail(err, "%s: unreadable compilation unit at .debug_info offset "
				       "0x%llx: %s", path, (unsigned long long)r->fallback_units[i],
				       dwarf_errmsg(-1));
		if (check_unit(dwarf, false, path, r->fallback_units[i], next, abbrev_off, err))
			return -1;
		if (!dwarf_offdie(dwarf, r->fallback_units[i] + hsize, &cu))
			return ll_fail(err, "%s: unreadable compilation unit at .debug_info offset "
				       "0x%llx: %s", path, (unsigned long long)r->fallback_units[i],
				       dwarf_errmsg(-1));
		if (walk_unit(&cu, path, set, hits, err))
			return -1;
	}
	*done = true;
	return 0;
}

/*
 * Whether SRC's prescan read what raw_scan() would read for this lookup:
 * the same hits but maybe more names, since the listing read every name
 * its glob matched.
 */
static bool prescan_fits(const struct ll_finder_source *src)
{
	const struct ll_finder_prescan *pre = src->prescan;

	return pre && pre->ready && pre->distinct == src->distinct;
}

/*
 * raw_scan() without the scan: SRC's prescan's hits of NAMES into HITS,
 * as copies in *MAPPED (queries renumbered into NAMES, owned by the
 * caller, alive while HITS is read), its units and verdicts into FINDER,
 * and the compilation directories the hits point to into *DIRS.
 */
static void take_prescan(const struct ll_finder_source *src, struct ll_finder *finder,
			 const struct name_set *set, struct offsets *hits,
			 struct ll_scan_hit **mapped, struct ll_finder_prescan *dirs)
{
	struct ll_finder_prescan *pre = src->prescan;
	size_t n = 0;

	/* Each name's index once, not once a hit: ~25,000 hits of ~8,600 names (--audit='*'). */
	long *index = xmalloc((pre->nr_hit_names ? pre->nr_hit_names : 1) * sizeof(*index));

	for (size_t i = 0; i < pre->nr_hit_names; i++)
		index[i] = LONG_MIN;
	*mapped = xmalloc((pre->nr_hits ? pre->nr_hits : 1) * sizeof(**mapped));
	for (size_t i = 0; i < pre->nr_hits; i++) {
		uint32_t q = pre->hits[i].query;
		long k = q < pre->nr_hit_names && index[q] != LONG_MIN ? index[q] :
			 set_index(set, pre->hit_names[q]);

		if (q < pre->nr_hit_names)
			index[q] = k;
		if (k < 0)
			continue;
		(*mapped)[n] = pre->hits[i];
		(*mapped)[n].query = (uint32_t)k;
		push_offset(hits, (*mapped)[n].die, &(*mapped)[n]);
		n++;
	}
	free(index);
	finder->raw = true;
	finder->in = pre->in;
	finder->units = finder->own_units = pre->units;
	finder->nr_units = pre->nr_units;
	finder->verdicts = pre->verdicts;
	finder->unit_filled = xcalloc(pre->nr_units ? pre->nr_units : 1, sizeof(bool));
	finder->refs_outside = xcalloc(pre->nr_units ? pre->nr_units : 1, 1);
	pre->units = NULL;
	pre->verdicts = NULL;
	*dirs = *pre;
	memset(pre, 0, sizeof(*pre));
}

struct scoped_find {
	const struct name_set *set;
	struct offsets *hits;
};

static int on_scoped(Dwarf_Die *die, const char *name, void *arg)
{
	struct scoped_find *sf = arg;
	const char *asked = set_get(sf->set, name);

	if (asked) {
		push_offset(sf->hits, dwarf_dieoffset(die), NULL);
		sf->hits->v[sf->hits->n - 1].qname = asked;
	}
	return 0;
}

/*
 * Qualified names (ns::Name, crate::module::Name) name DIEs inside
 * namespaces and types, which neither the raw scan nor walk_unit()
 * enters: the scoped walk finds them, the same whichever path found the
 * top-level names.
 */
static int find_scoped(struct ll_finder *finder, Dwarf *dwarf, const char *path,
		       const char *const *names, size_t n, const struct name_set *set,
		       struct offsets *hits, struct ll_error *err)
{
	struct scoped_find sf = { set, hits };
	bool any = false;

	for (size_t i = 0; i < n && !any; i++)
		any = ll_scoped_name(names[i]);
	if (!any)
		return 0;
	if (fill_all(finder, err))
		return -1;
	return ll_scoped_walk(dwarf, path, on_scoped, &sf, err);
}

static int cmp_hit(const void *a, const void *b)
{
	uint64_t x = ((const struct hit *)a)->die, y = ((const struct hit *)b)->die;

	return x < y ? -1 : x > y;
}

int ll_finder_scan(const struct ll_finder_source *src, struct ll_name_index *index,
		   const char *const *names, size_t n, ll_finder_fn fn, void *arg,
		   const struct ll_progress *progress, struct ll_finder **finder,
		   struct ll_error *err)
{
	Dwarf *dwarf = src->dwarf;
	const char *path = src->path;
	struct name_set set;
	struct offsets hits = { 0 };
	struct ll_scan_result scan = { 0 };
	struct ll_scan_hit *mapped = NULL;	/* the prescan's hits, renumbered */
	struct ll_finder_prescan taken = { 0 };	/* what they point to */
	bool done = false;
	int rc = 0;

	*finder = new_finder(src);
	set_init(&set, names, n);
	/* An index covers .debug_info only: never a type unit's offsets. */
	if (src->raw_ok && !src->types && raw_scan_allowed() && prescan_fits(src)) {
		take_prescan(src, *finder, &set, &hits, &mapped, &taken);
		done = true;
	} else if (src->raw_ok && !src->types && raw_scan_allowed()) {
		rc = raw_scan(src, *finder, src->fd, dwarf, path, index, names, n, &set, progress, &scan,
			      &hits, &done, err);
	}
	if (!rc && !done && !(rc = fill_all(*finder, err)))
		rc = walk_all(dwarf, src->types, path, &set, &hits, err);
	if (!rc && !src->types)
		rc = find_scoped(*finder, dwarf, path, names, n, &set, &hits, err);
	/* Callbacks in .debug_info order, however many threads found them. */
	if (hits.n)
		qsort(hits.v, hits.n, sizeof(*hits.v), cmp_hit);
	for (size_t i = 0; i < hits.n && !rc; i++) {
		const struct ll_scan_hit *raw = hits.v[i].raw;
		Dwarf_Die die;
		const char *name;

		/* Many names (--list, --audit) give ~10^6 definitions: a long step. */
		if (i % 1024 == 0 || i + 1 == hits.n)
			ll_progress_report(progress, "definitions", i + 1, hits.n);
		/*
		 * A hit the scan read whole needs no libdw until it is chosen:
		 * calling dwarf_offdie() on a late unit makes libdw register
		 * every unit before it, touching pages all over the image.
		 */
		if (raw && (raw->has_sig || raw->settled)) {
			fn(NULL, raw, names[raw->query], arg);
			continue;
		}
		if ((rc = ll_finder_prepare(*finder, hits.v[i].die, err)))
			break;
		if (!unit_die(dwarf, src->types, hits.v[i].die, &die)) {
			rc = ll_fail(err, "%s: unreadable DIE at %s offset 0x%llx: %s", path,
				     section_name(src->types), (unsigned long long)hits.v[i].die,
				     dwarf_errmsg(-1));
			break;
		}
		if (hits.v[i].qname) {
			fn(&die, NULL, hits.v[i].qname, arg);
			continue;
		}
		name = dwarf_diename(&die);
		/* Otherwise the raw scan only proposes; libdw confirms. */
		if (name && wanted_tag(dwarf_tag(&die)) && set_has(&set, name))
			fn(&die, NULL, name, arg);
	}
	free(hits.v);
	ll_slots_release(&set.at);
	free(mapped);
	ll_finder_prescan_release(&taken);
	ll_scan_result_release(&scan);
	return rc;
}

void ll_finder_free(struct ll_finder *finder)
{
	if (!finder)
		return;
	ll_free_all(finder->own_units, finder->verdicts, finder->unit_filled, finder->faked,
		    finder->refs_outside, finder);
}

struct ll_finder *ll_finder_from_index(const struct ll_finder_source *src,
				       const struct ll_name_index *index)
{
	struct ll_finder *f;
	size_t n = index->nr_units;

	if (!src->raw_ok || src->types || !raw_scan_allowed())
		return NULL;
	f = new_finder(src);
	if (!scan_input(src->dwarf, src->fd, src->str_fd, NULL, &f->in) ||
	    f->in.info_size != index->info_size) {
		ll_finder_free(f);
		return NULL;
	}
	f->raw = true;
	/*
	 * Borrowed: the index outlives every lookup's finder. Copying the 6.12
	 * image's 240 KB of units cost ~50 page faults, a fifth of a warm
	 * lookup's.
	 */
	f->units = index->units;
	f->nr_units = n;
	f->unit_filled = xcalloc(n ? n : 1, sizeof(bool));
	f->refs_outside = xcalloc(n ? n : 1, 1);
	return f;
}

void ll_finder_signature(Dwarf_Die *agg, const char *display_file, struct ll_finder_sig *sig)
{
	Dwarf_Attribute attr;
	Dwarf_Word size = 0;
	Dwarf_Die child;
	int line = 0;

	memset(sig, 0, sizeof(*sig));
	sig->tag = dwarf_tag(agg);
	sig->nameless = dwarf_diename(agg) == NULL;
	if (dwarf_attr(agg, DW_AT_byte_size, &attr))
		dwarf_formudata(&attr, &size);
	sig->size = size;
	dwarf_decl_line(agg, &line);
	sig->line = line > 0 ? (unsigned)line : 0;
	sig->file_hash = display_file ? name_hash(display_file) : 0;
	sig->members_hash = LL_SIG_INIT;
	if (dwarf_child(agg, &child) != 0)
		return;
	/* Keep in step with scan_hash_members() in raw/scan_members.c: both feed one table. */
	do {
		const char *name;
		uint64_t loc = 0, bits = 0;
		Dwarf_Word v;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		name = dwarf_diename(&child);
		if (dwarf_attr(&child, DW_AT_data_member_location, &attr) &&
		    dwarf_formudata(&attr, &v) == 0)
			loc = v;
		if (dwarf_attr(&child, DW_AT_data_bit_offset, &attr) && dwarf_formudata(&attr, &v) == 0)
			bits = v;
		sig->members_hash = ll_sig_member(sig->members_hash, name, loc, bits);
		sig->nr_members++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

void ll_finder_sig_from_scan(const struct ll_scan_hit *h, const char *display_file,
			     struct ll_finder_sig *sig)
{
	memset(sig, 0, sizeof(*sig));
	sig->tag = h->tag;
	sig->size = h->byte_size;
	sig->line = h->decl_line <= UINT32_MAX ? (unsigned)h->decl_line : 0;
	sig->file_hash = display_file ? name_hash(display_file) : 0;
	sig->members_hash = h->members_hash;
	sig->nr_members = h->nr_members;
	sig->nameless = h->via_typedef;
}

/*
 * C++ `class` and `struct` declare the same kind of type: g++ writes
 * DW_TAG_class_type for std::_Setfill<char> in one unit of libstdc++ and
 * DW_TAG_structure_type in another, from one line of <iomanip>.
 */
static int aggregate_kind(int tag)
{
	return tag == DW_TAG_class_type ? DW_TAG_structure_type : tag;
}

bool ll_finder_sig_equal(const struct ll_finder_sig *a, const struct ll_finder_sig *b)
{
	return aggregate_kind(a->tag) == aggregate_kind(b->tag) && a->size == b->size &&
	       a->line == b->line &&
	       a->file_hash == b->file_hash && a->members_hash == b->members_hash &&
	       a->nr_members == b->nr_members;
}

/* Names from the libdw walk, for inputs the raw scan cannot read. */
static int list_with_libdw(Dwarf *dwarf, bool types, const char *path, char ***names,
			   size_t *n, struct ll_error *err)
{
	Dwarf_Off off = 0, next, abbrev_off;
	size_t hsize;
	int rc;

	while ((rc = next_unit(dwarf, types, off, &next, &hsize, &abbrev_off)) == 0) {
		Dwarf_Die cu, child;

		if (open_unit(dwarf, types, path, off, next, hsize, abbrev_off, &cu, err))
			return -1;
		/* As walk_unit(): a DIE libdw cannot read fails the run, never drops a unit. */
		rc = dwarf_child(&cu, &child);
		while (rc == 0) {
			const char *name;
			int tag = dwarf_tag(&child);

			if (tag == DW_TAG_invalid)
				return ll_fail(err, "%s: unreadable DIE at .debug_info offset 0x%llx: "
					       "%s", path, (unsigned long long)dwarf_dieoffset(&child),
					       dwarf_errmsg(-1));
			if (wanted_tag(tag) && (name = dwarf_diename(&child))) {
				*names = xgrow(*names, *n, sizeof(**names));
				(*names)[(*n)++] = xstrdup(name);
			}
			rc = dwarf_siblingof(&child, &child);
		}
		if (rc < 0)
			return ll_fail(err, "%s: unreadable DIE in the unit at %s offset "
				       "0x%llx: %s", path, section_name(types), (unsigned long long)off,
				       dwarf_errmsg(-1));
		off = next;
	}
	if (rc < 0)
		return ll_fail(err, "%s: malformed %s unit header at offset 0x%llx: %s",
			       path, section_name(types), (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}

struct name_list {
	char **v;	/* grown by xgrow() only */
	size_t n;
};

static int add_scoped_name(Dwarf_Die *die, const char *name, void *arg)
{
	struct name_list *l = arg;

	(void)die;
	l->v = xgrow(l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
	return 0;
}

/*
 * The qualified names of types in namespaces and types (C++, Rust), when
 * the abbreviations say such DIEs may exist: a C image pays nothing. The
 * same on the raw and the libdw path.
 */
static int list_scoped(Dwarf *dwarf, struct ll_sparse_image *image, const char *path,
		       char ***names, size_t *n, struct ll_error *err)
{
	const unsigned char *abbrev;
	size_t abbrev_size;
	Elf *elf = dwarf_getelf(dwarf);
	struct name_list l = { NULL, 0 };
	int rc;

	if (!elf || !ll_elf_section_bytes(elf, ".debug_abbrev", ".zdebug_abbrev", &abbrev,
					  &abbrev_size) ||
	    !ll_abbrevs_have_scopes(abbrev, abbrev_size))
		return 0;
	if (image && ll_sparse_fill_all(image, err))
		return -1;
	rc = ll_scoped_walk(dwarf, path, add_scoped_name, &l, err);
	/* NAMES was grown by whoever collected it: appended to in one step. */
	if (!rc && l.n) {
		*names = xrealloc(*names, (*n + l.n) * sizeof(**names));
		memcpy(*names + *n, l.v, l.n * sizeof(*l.v));
		*n += l.n;
		l.n = 0;
	}
	ll_strv_free(l.v, l.n);
	return rc;
}

/*
 * Free the names of V that repeat an earlier one, keeping the first of
 * each in order: each scan thread lists the names it met, so most names
 * come twice, and sorting them all cost twice the string compares (the
 * 6.12 image's ~80,000, in one thread; bench/RESULTS.md).
 */
static void drop_repeats(char **v, size_t *n)
{
	struct name_set kept = { .names = (const char *const *)v, .at = LL_SLOTS_INIT };
	size_t nr_kept = 0;

	ll_slots_reserve(&kept.at, *n, set_hash, v);
	for (size_t i = 0; i < *n; i++) {
		size_t at = set_slot(&kept, v[i]);

		if (ll_slots_get(&kept.at, at)) {
			free(v[i]);
			continue;
		}
		v[nr_kept] = v[i];
		ll_slots_put(&kept.at, at, nr_kept++);
	}
	*n = nr_kept;
	ll_slots_release(&kept.at);
}

void ll_finder_seed_release(struct ll_finder_seed *seed)
{
	for (size_t i = 0; i < seed->nr_entries; i++)
		free((char *)seed->entries[i].name);
	ll_name_index_entries_free(seed->entries, seed->nr_entries);
	free(seed->units);
	memset(seed, 0, sizeof(*seed));
}

void ll_finder_prescan_release(struct ll_finder_prescan *pre)
{
	ll_strv_free(pre->hit_names, pre->nr_hit_names);
	ll_strv_free(pre->comp_dirs, pre->nr_comp_dirs);
	free(pre->hits);
	free(pre->units);
	free(pre->verdicts);
	ll_scan_variables_free(pre->variables, pre->nr_variables);
	memset(pre, 0, sizeof(*pre));
}

/*
 * PRE from a capturing scan R of IN: R's hits, verdicts and compilation
 * directories taken, its units and the names its hits use copied (the
 * seed and the listing take theirs).
 */
static void keep_prescan(struct ll_finder_prescan *pre, const struct ll_scan_input *in,
			 struct ll_scan_result *r)
{
	pre->ready = true;
	pre->distinct = in->distinct;
	pre->in = *in;
	/* What raw_scan() leaves in its finder's input: the later scans want every hit. */
	pre->in.capture_glob = NULL;
	pre->in.variables = false;
	pre->in.member_filter = NULL;
	pre->in.contains_word = NULL;
	pre->in.by_unit = false;
	pre->in.distinct = false;
	pre->hits = r->hits;
	pre->nr_hits = r->nr_hits;
	r->hits = NULL;
	r->nr_hits = 0;
	pre->hit_names = xcalloc(r->nr_names ? r->nr_names : 1, sizeof(*pre->hit_names));
	pre->nr_hit_names = r->nr_names;
	for (size_t i = 0; i < pre->nr_hits; i++) {
		uint32_t q = pre->hits[i].query;

		if (!pre->hit_names[q])
			pre->hit_names[q] = xstrdup(r->names[q]);
	}
	pre->units = xmalloc((r->nr_units ? r->nr_units : 1) * sizeof(*pre->units));
	if (r->nr_units)
		memcpy(pre->units, r->units, r->nr_units * sizeof(*pre->units));
	pre->nr_units = r->nr_units;
	pre->verdicts = r->verdicts;
	r->verdicts = NULL;
	pre->comp_dirs = r->comp_dirs;
	pre->nr_comp_dirs = r->nr_comp_dirs;
	r->comp_dirs = NULL;
	r->nr_comp_dirs = 0;
	pre->variables = r->variables;
	pre->nr_variables = r->nr_variables;
	r->variables = NULL;
	r->nr_variables = 0;
}

/*
 * SEED from a by_unit scan R of IN: names copied, R's units taken. A name
 * only ever written inline (gcc's up to 3 characters) is LL_INDEX_IN_STR
 * when .debug_str holds it anyway; such names are few.
 */
static void make_seed(struct ll_finder_seed *seed, const struct ll_scan_input *in,
		      struct ll_scan_result *r)
{
	ll_name_index_entries_from_postings(r->postings, r->nr_postings, r->names, r->name_strp,
					    r->nr_names, &seed->entries, &seed->nr_entries);
	/* ld merges string tails, and the scan's "did you mean" meets names there. */
	ll_name_index_mark_str_tails(seed->entries, seed->nr_entries, (const char *)in->str,
				     in->str_size);
	for (size_t i = 0; i < seed->nr_entries; i++)
		seed->entries[i].name = xstrdup(seed->entries[i].name);
	seed->units = r->units;
	seed->nr_units = r->nr_units;
	seed->info_size = in->info_size;
	r->units = NULL;
}

bool ll_finder_variables(const struct ll_finder_source *src, const struct ll_scan_unit *units,
			 size_t nr_units, const struct ll_progress *progress,
			 struct ll_scan_variable **vars, size_t *nr_vars)
{
	/* No names: no unit is skipped for lack of one, no definition captured. */
	static const char *const no_names[1] = { NULL };
	struct ll_scan_input in;
	struct ll_scan_result r = { 0 };
	bool read;

	*vars = NULL;
	*nr_vars = 0;
	if (!src->raw_ok || src->types || !raw_scan_allowed() ||
	    !scan_input(src->dwarf, src->fd, src->str_fd, progress, &in))
		return false;
	in.variables = true;
	in.lines = src->lines;
	in.units = units;
	in.nr_units = units ? nr_units : 0;
	read = ll_scan(&in, no_names, 0, ll_threads(), &r) == 0 && r.nr_fallback == 0;
	if (read) {
		*vars = r.variables;
		*nr_vars = r.nr_variables;
		r.variables = NULL;
		r.nr_variables = 0;
	}
	ll_scan_result_release(&r);
	return read;
}

int ll_finder_list(const struct ll_finder_source *src, struct ll_finder_seed *seed,
		   const char *lookup_glob, struct ll_finder_prescan *prescan, char ***names,
		   size_t *n, const struct ll_progress *progress, struct ll_error *err)
{
	struct ll_scan_input in;
	struct ll_scan_result r = { 0 };
	bool scanned = src->raw_ok && !src->types && raw_scan_allowed() &&
		       scan_input(src->dwarf, src->fd, src->str_fd, progress, &in);

	if (prescan)
		ll_finder_prescan_release(prescan);
	/*
	 * Every unit's names; each name's units too when the caller wants a
	 * name index (recording them costs more than the listing); and the
	 * definitions the lookup after will want, as raw_scan() reads them.
	 * Without .debug_str bytes raw_scan() would not scan: neither does
	 * the prescan.
	 */
	if (scanned) {
		in.by_unit = seed != NULL;
		if (prescan && lookup_glob && in.str_size) {
			in.capture_glob = lookup_glob;
			in.variables = src->variables;
			in.distinct = src->distinct;
			in.member_filter = src->distinct ? src->member_filter : NULL;
			in.contains_word = src->distinct ? src->contains_word : NULL;
			in.lines = src->lines;
		}
		scanned = ll_scan(&in, NULL, 0, ll_threads(), &r) == 0;
	}
	*names = NULL;
	*n = 0;
	/*
	 * The scan read every unit's abbreviations and met no scope tag: no
	 * qualified names, known without parsing .debug_abbrev again (6 MB
	 * of the 6.12 image, in the listing's one thread).
	 */
	bool no_scopes = scanned && r.nr_fallback == 0 && r.every_table_read && !r.scopes;

	/* A unit the scan was unsure of: its names need the libdw walk, so all do. */
	if (scanned && r.nr_fallback == 0) {
		if (in.capture_glob)
			keep_prescan(prescan, &in, &r);
		if (in.by_unit && in.str_size)
			make_seed(seed, &in, &r);
		*names = r.names;
		*n = r.nr_names;
		r.names = NULL;
		r.nr_names = 0;
	}
	ll_scan_result_release(&r);
	if ((!scanned || !*names) &&
	    ((src->image && ll_sparse_fill_all(src->image, err)) ||
	     list_with_libdw(src->dwarf, src->types, src->path, names, n, err)))
		return -1;
	/* Type units hold no namespaces of their own to walk: .debug_info's source does. */
	size_t top_level = *n;

	if (!src->types && !no_scopes &&
	    list_scoped(src->dwarf, src->image, src->path, names, n, err))
		return -1;
	/*
	 * The index records top-level names only: with qualified names (C++,
	 * Rust) a warm --list from it would drop them, so none is seeded.
	 */
	if (seed && *n != top_level)
		ll_finder_seed_release(seed);
	drop_repeats(*names, n);
	ll_names_sort_unique(*names, n);
	return 0;
}
