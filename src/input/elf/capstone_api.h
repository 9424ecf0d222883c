/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capstone, loaded when something needs to disassemble (a profile's sampled
 * instructions, the access analyzer), never linked: its 77,000 relocations
 * would cost every run's start-up (bench/RESULTS.md). Built against
 * CAPSTONE_SONAME; without capstone at build time, HAVE_CAPSTONE is unset
 * and nothing here exists.
 */
#ifndef LAYOUTLINT_CAPSTONE_API_H
#define LAYOUTLINT_CAPSTONE_API_H

#include "config.h"

#ifdef HAVE_CAPSTONE
#include <stdbool.h>

#include <capstone/capstone.h>

struct ll_capstone {
	void *handle;
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	size_t (*disasm)(csh handle, const uint8_t *code, size_t size, uint64_t address,
			 size_t count, cs_insn **insn);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	cs_insn *(*malloc)(csh handle);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/*
 * x86 instructions that only read their memory operand, whatever capstone
 * says: capstone 4 marks it written too when the second operand is an
 * immediate (test dword [rax+0xc], 0x400000).
 */
bool ll_capstone_reads_only(unsigned id);

/* Load the library into *CS; false (and *CS empty) when it cannot be had. */
bool ll_capstone_load(struct ll_capstone *cs);
void ll_capstone_unload(struct ll_capstone *cs);
#endif

#endif
