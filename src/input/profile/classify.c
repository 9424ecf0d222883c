// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads and stores of sampled instructions, with capstone (classify.h). */
#include "input/profile/classify.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "util/strbuf.h"

#ifdef HAVE_CAPSTONE
#include "input/elf/capstone_api.h"
#include "input/elf/elf_section.h"

/* "writer+0x10" -> ("writer", 0x10); false when it is not SYMBOL+HEX. */
static bool split_symoff(const char *symoff, char **sym, uint64_t *off)
{
	const char *plus = strrchr(symoff, '+');
	char *end;

	if (!plus || plus == symoff || strncmp(plus + 1, "0x", 2) != 0)
		return false;
	*off = strtoull(plus + 3, &end, 16);
	if (*end || end == plus + 3)
		return false;
	*sym = strndup(symoff, (size_t)(plus - symoff));
	return *sym != NULL;
}

/* Function SYM in ELF's symbol tables: its address and size; false if absent. */
static bool symbol_range(Elf *elf, const char *sym, uint64_t *addr, uint64_t *size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && strcmp(name, sym) == 0) {
				*addr = s.st_value;
				*size = s.st_size;
				return true;
			}
		}
	}
	return false;
}

/*
 * The bytes [ADDR, ADDR + N) of an executable section, borrowed from
 * libelf; NULL when no one section holds them all.
 */
static const unsigned char *code_at(Elf *elf, uint64_t addr, uint64_t n)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size || !(data = elf_getdata(scn, NULL)) ||
		    !data->d_buf)
			continue;
		uint64_t at = addr - sh.sh_addr;

		if (at >= data->d_size || n > data->d_size - at)
			return NULL;
		return (const unsigned char *)data->d_buf + at;
	}
	return NULL;
}

/* How INSN's memory operand is accessed; unknown when it has none (lea has none). */
static enum ll_access access_of(const cs_insn *insn)
{
	const cs_x86 *x = &insn->detail->x86;
	bool lock = x->prefix[0] == X86_PREFIX_LOCK;

	if (insn->id == X86_INS_LEA || insn->id == X86_INS_NOP)
		return LL_ACCESS_UNKNOWN;
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		bool rd = op->access & CS_AC_READ, wr = op->access & CS_AC_WRITE;

		if (op->type != X86_OP_MEM)
			continue;
		if (ll_capstone_reads_only(insn->id) && !lock)
			return LL_ACCESS_LOAD;
		return lock || (rd && wr) ? LL_ACCESS_RMW : wr ? LL_ACCESS_STORE :
		       rd ? LL_ACCESS_LOAD : LL_ACCESS_UNKNOWN;
	}
	return LL_ACCESS_UNKNOWN;
}

/* A function's code decoded from its start to the instruction at OFF, at most this far. */
#define MAX_DECODE (1u << 20)

/*
 * How far back a sample's memory access may be: perf 6.12 takes the data
 * type from an earlier instruction when the sampled one touches no memory
 * and the two fuse (add or cmp with a jump), and goes on from there; in
 * clang's unrolled loop a sample at `jne` is typed by the locked add two
 * instructions before it.
 */
#define MAX_BACK 3

/*
 * The access of the instruction at BASE + OFF, or, when it touches no
 * memory, of the nearest of the MAX_BACK before it that does: the one
 * perf typed the sample from, as near as its choice can be told without
 * its instruction-fusion table.
 */
static enum ll_access decode(const struct ll_capstone *api, csh cs, Elf *elf, uint64_t base,
			     uint64_t size, uint64_t off)
{
	uint64_t n = size && size < off + 16 ? size : off + 16;
	const unsigned char *code;
	cs_insn *insn;
	size_t count;
	enum ll_access a = LL_ACCESS_UNKNOWN;

	if (off >= MAX_DECODE || (size && off >= size))
		return a;
	/* The function may end the section: settle for the bytes there are. */
	while (n > off && !(code = code_at(elf, base, n)))
		n--;
	if (n <= off)
		return a;
	count = api->disasm(cs, code, n, base, 0, &insn);
	for (size_t i = 0; i < count; i++) {
		if (insn[i].address != base + off)
			continue;
		for (size_t back = 0; back <= MAX_BACK && back <= i && a == LL_ACCESS_UNKNOWN; back++)
			a = access_of(&insn[i - back]);
		break;
	}
	if (count)
		api->free(insn, count);
	return a;
}

static void classify_rows(struct ll_profile *p, Elf *elf, const struct ll_capstone *api, csh cs)
{
	for (size_t i = 0; i < p->nr_rows; i++) {
		struct ll_profile_row *r = &p->rows[i];
		char *sym = NULL;
		uint64_t off = 0, base, size;

		if (r->access != LL_ACCESS_UNKNOWN)
			continue;	/* the event said */
		if (r->symoff && split_symoff(r->symoff, &sym, &off) &&
		    symbol_range(elf, sym, &base, &size))
			r->access = decode(api, cs, elf, base, size, off);
		free(sym);
	}
}
#endif

int ll_profile_classify(struct ll_profile *p, const char *binary, const char **why_not,
			struct ll_error *err)
{
	bool any_symoff = false, all_said = true;

	*why_not = NULL;
	for (size_t i = 0; i < p->nr_rows; i++) {
		any_symoff |= p->rows[i].symoff != NULL;
		all_said &= p->rows[i].access != LL_ACCESS_UNKNOWN;
	}
	if (all_said)
		return 0;	/* the events said, for every row */
	if (!any_symoff) {
		*why_not = "the report has no symoff column (perf report -s type,typeoff,symoff) "
			   "and no load/store events: samples only, no reads or writes";
		return 0;
	}
#ifndef HAVE_CAPSTONE
	(void)binary;
	(void)err;
	*why_not = "this layoutlint was built without capstone: samples only, no reads or writes";
	return 0;
#else
	int fd = open(binary, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	GElf_Ehdr eh;
	struct ll_capstone api = { 0 };
	csh cs;

	if (fd < 0)
		return ll_fail(err, "%s: %m", binary);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		ll_elf_close(elf, fd);
		return ll_fail(err, "%s: not an ELF file: cannot read the sampled instructions "
			       "of profile %s", binary, p->file);
	}
	if (eh.e_machine != EM_X86_64) {
		*why_not = "the sampled instructions are decoded for x86-64 only: samples only, "
			   "no reads or writes";
	} else if (!ll_capstone_load(&api)) {
		*why_not = "capstone (" CAPSTONE_SONAME ") could not be loaded: samples only, "
			   "no reads or writes";
	} else if (api.open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		*why_not = "capstone could not be opened: samples only, no reads or writes";
	} else {
		api.option(cs, CS_OPT_DETAIL, CS_OPT_ON);
		classify_rows(p, elf, &api, cs);
		api.close(&cs);
	}
	ll_capstone_unload(&api);
	ll_elf_close(elf, fd);
	return 0;
#endif
}
