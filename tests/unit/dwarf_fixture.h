/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening a compiled fixture (tests/unit/dwarf/fixture.c, built by
 * tests/meson.build with gcc and clang, DWARF 4 and 5, object and
 * executable) for the raw readers' unit tests, the way layoutlint opens
 * an object: libdwfl's offline reporting, which applies an object's
 * relocations to the debug sections in memory. libdw is the truth the
 * raw readers are compared with.
 */
#ifndef LAYOUTLINT_TEST_DWARF_FIXTURE_H
#define LAYOUTLINT_TEST_DWARF_FIXTURE_H

#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../src/input/elf/elf_section.h"

struct fixture {
	const char *path;
	Dwfl *dwfl;
	Dwarf *dwarf;
	Elf *elf;
	unsigned version;	/* of the first unit */
	bool is_object;
};

static const Dwfl_Callbacks fixture_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool fixture_open(const char *path, struct fixture *fx)
{
	Dwarf_Addr bias;
	Dwfl_Module *mod;
	Dwarf_Off next;
	size_t hsize;
	uint8_t addr_size, offset_size;
	Dwarf_Half version;

	memset(fx, 0, sizeof(*fx));
	fx->path = path;
	fx->is_object = strlen(path) > 2 && strcmp(path + strlen(path) - 2, ".o") == 0;
	fx->dwfl = dwfl_begin(&fixture_callbacks);
	if (!fx->dwfl)
		return false;
	mod = dwfl_report_offline(fx->dwfl, "fixture", path, -1);
	dwfl_report_end(fx->dwfl, NULL, NULL);
	fx->dwarf = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	fx->elf = fx->dwarf ? dwarf_getelf(fx->dwarf) : NULL;
	if (!fx->elf) {
		fprintf(stderr, "%s: %s\n", path, dwfl_errmsg(-1));
		return false;
	}
	if (dwarf_next_unit(fx->dwarf, 0, &next, &hsize, &version, NULL, &addr_size,
			    &offset_size, NULL, NULL) != 0)
		return false;
	fx->version = version;
	return true;
}

static void fixture_close(struct fixture *fx)
{
	dwfl_end(fx->dwfl);
	memset(fx, 0, sizeof(*fx));
}

/* The plain bytes of section NAME, as libdwfl holds them (relocated). */
static bool fixture_section(const struct fixture *fx, const char *name,
			    const unsigned char **data, size_t *size)
{
	return ll_elf_section_bytes(fx->elf, name, NULL, data, size);
}

/* The first top-level DIE of some unit tagged TAG and named NAME. */
static bool fixture_find(const struct fixture *fx, int tag, const char *name, Dwarf_Die *out,
			 Dwarf_Die *cu_out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(fx->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(fx->dwarf, off + hsize, &cu) && dwarf_child(&cu, &die) == 0) {
			do {
				const char *n = dwarf_diename(&die);

				if (dwarf_tag(&die) == tag && n && strcmp(n, name) == 0) {
					*out = die;
					if (cu_out)
						*cu_out = cu;
					return true;
				}
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	return false;
}

#endif
