/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What finder.c and finder_suggest.c share, as libdw's libdwP.h is to
 * libdw. Not for use outside src/input/dwarf/.
 */
#ifndef LAYOUTLINT_FINDERP_H
#define LAYOUTLINT_FINDERP_H

#include "input/dwarf/finder.h"

#include <dwarf.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/dwarf/raw/scan.h"
#include "input/dwarf/scopes.h"
#include "util/slot_table.h"
#include "input/elf/elf_section.h"
#include "model/builder.h"
#include "util/edit_distance.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/threads.h"

struct ll_finder {
	Dwarf *dwarf;
	bool types;			/* it searches DWARF 4 .debug_types */
	bool raw;			/* the raw scan can run on this input */
	struct ll_scan_input in;	/* its sections, valid while the Dwarf is */
	/* What libdw may read of a sparse image; see ll_finder_prepare(). */
	struct ll_sparse_image *image;	/* borrowed; NULL: all of it */
	const struct ll_scan_unit *units;	/* from the scan; NULL: unknown */
	struct ll_scan_unit *own_units;		/* units, when not the index's */
	size_t nr_units;
	uint8_t *verdicts;		/* the scan's producer verdicts, by unit */
	bool *unit_filled;
	/* ll_scan_unit_refs_outside(), by unit: 0 not asked yet, 1 no, 2 yes. */
	uint8_t *refs_outside;
	size_t headers_filled;		/* units [0, headers_filled) have theirs */
	/* ll_finder_skip_headers(): one made-up header may span many units. */
	bool skip_headers;
	bool *faked;			/* by unit: inside a made-up one; NULL: none yet */
	/* ll_finder_use_index(): the name index of this input, borrowed; NULL: none. */
	struct ll_name_index *index;
	struct ll_notes *notes;		/* ll_finder_source's */
};

/* The names asked for, as a set: a slot table over them. */
struct name_set {
	const char *const *names;
	struct ll_slots at;	/* over names; of a name given twice, the later */
};

/*
 * A DIE to report: from the raw scan (RAW set) or from the libdw walk;
 * QNAME: the qualified name asked for, when the scoped walk found it.
 */
struct hit {
	uint64_t die;
	const struct ll_scan_hit *raw;
	const char *qname;
};

/*
 * The header of the unit at OFF of .debug_info, or of .debug_types when
 * TYPES (libdw reads that section only when asked for a signature).
 */
static inline int next_unit(Dwarf *dwarf, bool types, Dwarf_Off off, Dwarf_Off *next, size_t *hsize,
			    Dwarf_Off *abbrev_off)
{
	uint64_t sig;
	Dwarf_Off type_off;

	return dwarf_next_unit(dwarf, off, next, hsize, NULL, abbrev_off, NULL, NULL,
			       types ? &sig : NULL, types ? &type_off : NULL);
}

static inline Dwarf_Die *unit_die(Dwarf *dwarf, bool types, Dwarf_Off off, Dwarf_Die *die)
{
	return types ? dwarf_offdie_types(dwarf, off, die) : dwarf_offdie(dwarf, off, die);
}

static inline int fill_all(struct ll_finder *f, struct ll_error *err)
{
	return f->image ? ll_sparse_fill_all(f->image, err) : 0;
}

#endif
