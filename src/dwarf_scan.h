/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A raw pre-filter over .debug_info: walk only the top-level DIEs of every
 * unit, jumping over children by DW_AT_sibling, and report those whose
 * DW_AT_name is one of the names asked for. No libdw and no allocation per
 * DIE, so it runs on several threads at once.
 *
 * It understands just enough DWARF (2-5) to skip attributes. Anything it
 * does not expect in a unit (a strx name, an unknown form, a bound it
 * would cross) marks that unit for the plain libdw walk instead, so a
 * surprise costs speed, never an answer.
 */
#ifndef LAYOUTLINT_DWARF_SCAN_H
#define LAYOUTLINT_DWARF_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ll_scan_input {
	const unsigned char *info;	/* NULL when use_pread */
	size_t info_size;
	/*
	 * Read units with pread into a reused buffer instead of touching the
	 * mapping: first-touch page faults cost more than the copy, and the
	 * mapped pages would count against peak RSS for the whole image.
	 */
	bool use_pread;
	int fd;
	uint64_t info_file_offset;
	const unsigned char *abbrev;
	size_t abbrev_size;
	const unsigned char *str;
	size_t str_size;
};

struct ll_scan_hit {
	uint64_t die;		/* .debug_info offset of a DIE, or of a unit (fallback) */
	uint32_t query;		/* index into the names; unused for fallback units */
};

struct ll_scan_result {
	struct ll_scan_hit *hits;	/* named DIEs, in .debug_info order */
	size_t nr_hits;
	uint64_t *fallback_units;	/* unit offsets to walk with libdw, in order */
	size_t nr_fallback;
	size_t nr_units;
};

/*
 * Scan for top-level struct/union/class/typedef DIEs named NAMES[i].
 * THREADS <= 1 scans in the caller's thread. Returns -1 only when the
 * unit headers themselves cannot be walked (then use libdw for all).
 */
int ll_scan(const struct ll_scan_input *in, const char *const *names, size_t n,
	    unsigned threads, struct ll_scan_result *out);
void ll_scan_result_release(struct ll_scan_result *r);

#endif
