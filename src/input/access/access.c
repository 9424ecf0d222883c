// SPDX-License-Identifier: GPL-2.0-or-later
/* The access analyzer: x86-64 machine code typed from DWARF (access.h). */
#include "input/access/access_private.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/elf/capstone_api.h"
#include "input/elf/elf_section.h"
#include "util/sort.h"
#include "util/strbuf.h"

#ifndef HAVE_CAPSTONE
int ll_access_analyze_all(Dwarf *dw, const char *code_path, struct ll_access_image *out,
			  struct ll_error *err)
{
	(void)dw;
	(void)out;
	return ll_fail(err, "%s: --access needs capstone, and this layoutlint was built without it",
		       code_path);
}

int ll_access_analyze(Dwarf *dw, const char *code_path, const struct ll_access_target *targets,
		      size_t n, struct ll_access_evidence **out, struct ll_error *err)
{
	(void)dw;
	(void)targets;
	(void)n;
	(void)out;
	return ll_fail(err, "%s: --access needs capstone, and this layoutlint was built without it",
		       code_path);
}
#else

/* ---- code ---- */

static void code_close(struct code *c)
{
	free(c->sections);
	free(c->lock_calls);
	if (c->own_dwarf)
		dwarf_end(c->own_dwarf);
	if (c->dwfl)
		dwfl_end(c->dwfl);
	ll_elf_close(c->elf, c->fd);
}

/* The executable sections of ELF, at the addresses its headers give. */
static void read_code_sections(struct code *c, Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	c->nr_sections = 0;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !(data = elf_getdata(scn, NULL)) ||
		    !data->d_buf || data->d_size < sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		c->sections = xgrow(c->sections, c->nr_sections, sizeof(*c->sections));
		c->sections[c->nr_sections++] = (struct code_section){
			.addr = sh.sh_addr, .size = sh.sh_size, .bytes = data->d_buf,
			.init = name && (strncmp(name, ".init.", 6) == 0 ||
					 strcmp(name, ".ref.text") == 0),
		};
	}
}

static bool has_debug_info(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) && strcmp(name, ".debug_info") == 0)
			return true;
	}
	return false;
}

/*
 * A function that takes or drops a lock by the pointer it is passed first:
 * a '_'-separated word of its name is lock, unlock or trylock
 * (_raw_spin_lock_irqsave, mutex_unlock, folio_lock), or it is one of the
 * rw_semaphore's down_read/down_write/up_read/up_write family.
 */
static bool locks_by_name(const char *name)
{
	static const char *const rwsem[] = { "down_read", "down_write", "up_read", "up_write" };

	for (size_t i = 0; i < sizeof(rwsem) / sizeof(*rwsem); i++)
		if (strncmp(name, rwsem[i], strlen(rwsem[i])) == 0)
			return true;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "_");

		if ((n == 4 && strncmp(p, "lock", 4) == 0) || (n == 6 && strncmp(p, "unlock", 6) == 0) ||
		    (n == 7 && strncmp(p, "trylock", 7) == 0))
			return true;
		p += n;
		p += *p == '_';
	}
	return false;
}

static int cmp_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The lock functions of a linked image's symbol table (an object's calls are unrelocated). */
static void read_lock_calls(struct code *c)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value || !(name = elf_strptr(c->elf, sh.sh_link, s.st_name)) ||
			    !locks_by_name(name))
				continue;
			c->lock_calls = xgrow(c->lock_calls, c->nr_lock_calls, sizeof(*c->lock_calls));
			c->lock_calls[c->nr_lock_calls++] = s.st_value;
		}
	}
	ll_qsort(c->lock_calls, c->nr_lock_calls, sizeof(*c->lock_calls), cmp_addr);
}

static int code_open(struct code *c, const char *path, struct ll_error *err)
{
	GElf_Ehdr eh;

	memset(c, 0, sizeof(*c));
	c->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0)
		return ll_fail(err, "%s: %m", path);
	elf_version(EV_CURRENT);
	c->elf = elf_begin(c->fd, ELF_C_READ_MMAP, NULL);
	if (!c->elf || !gelf_getehdr(c->elf, &eh))
		return ll_fail(err, "%s: not an ELF file: no machine code to analyze", path);
	if (eh.e_machine != EM_X86_64)
		return ll_fail(err, "%s: --access reads x86-64 machine code only; this is %s (ELF "
			       "machine %u)", path, ll_elf_machine_name(eh.e_machine) ?
			       ll_elf_machine_name(eh.e_machine) : "another machine",
			       (unsigned)eh.e_machine);
	c->relocatable = eh.e_type == ET_REL;
	read_code_sections(c, c->elf);
	if (!c->relocatable)
		read_lock_calls(c);
	if (!c->nr_sections)
		return ll_fail(err, "%s: no machine code (a debug file alone?): --access reads the "
			       "binary itself", path);
	return 0;
}

static char *no_debuginfo_path = NULL;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

/*
 * An object or module: its sections all start at 0, so DWARF's addresses
 * (and the reader's own relocation, which leaves location and range lists
 * alone) say nothing about which code they mean. libdwfl lays the sections
 * out apart and relocates every debug section to match; the code is read
 * at those addresses.
 */
static int open_laid_out(struct code *c, const char *path, Dwarf **dw, struct ll_error *err)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Elf *elf;

	c->dwfl = dwfl_begin(&offline_callbacks);
	if (!c->dwfl || !(mod = dwfl_report_offline(c->dwfl, path, path, -1)) ||
	    dwfl_report_end(c->dwfl, NULL, NULL) != 0 || !(*dw = dwfl_module_getdwarf(mod, &bias)) ||
	    !(elf = dwfl_module_getelf(mod, &bias)))
		return ll_fail(err, "%s: cannot lay the object's sections out for --access: %s", path,
			       dwfl_errmsg(-1));
	read_code_sections(c, elf);
	for (size_t i = 0; i < c->nr_sections; i++)
		c->sections[i].addr += bias;
	c->relocatable = false;
	return 0;
}

/* The code of [LO, HI): the executable section holding it, or NULL. */
static const struct code_section *code_of(const struct code *c, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return NULL;
	for (size_t i = 0; i < c->nr_sections; i++) {
		const struct code_section *s = &c->sections[i];

		if (lo >= s->addr && hi <= s->addr + s->size)
			return s;
	}
	return NULL;
}

/* ---- one function's instructions, decoded once ---- */

/* What the walk needs of an operand. */
struct operand {
	uint8_t type;		/* X86_OP_REG, X86_OP_MEM, X86_OP_IMM */
	uint8_t access;		/* CS_AC_READ | CS_AC_WRITE */
	uint8_t size;
	uint16_t reg;		/* X86_OP_REG */
	uint16_t base, index, segment;	/* X86_OP_MEM */
	int64_t disp;
};

/* What the walk needs of an instruction (a cs_insn with details is 1.7 kB). */
struct insn {
	uint64_t addr;
	uint64_t target;	/* a direct jump's */
	int64_t imm;		/* the second operand's, when it is an immediate */
	uint64_t imm_target;	/* a direct call's or jmp's */
	uint16_t id;
	uint8_t size;
	uint8_t nr_ops;
	bool lock, jump, direct, call, stops;	/* stops: nothing falls through (ret, jmp) */
	uint8_t nr_writes;
	uint16_t writes[8];	/* implicitly written registers */
	struct operand ops[4];
};

/* Where paths join: the meet of what every jump to PC left in the registers. */
struct join {
	uint64_t pc;
	bool seen;
	struct reg_type regs[NR_GPR];
};

struct walk {
	struct reg_type prop[NR_GPR];	/* what moves and loads put there */
	bool record;			/* the last pass: accesses are recorded */
	bool changed;			/* a join lost a register in this pass */
};

static bool in_group(const cs_insn *insn, uint8_t group)
{
	for (uint8_t i = 0; i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == group)
			return true;
	return false;
}

static void compact(const cs_insn *c, struct insn *i)
{
	const cs_x86 *x = &c->detail->x86;

	memset(i, 0, sizeof(*i));
	i->addr = c->address;
	i->id = (uint16_t)c->id;
	i->size = (uint8_t)c->size;
	i->lock = x->prefix[0] == X86_PREFIX_LOCK;
	i->jump = in_group(c, X86_GRP_JUMP);
	i->call = in_group(c, X86_GRP_CALL);
	i->stops = in_group(c, X86_GRP_RET) || c->id == X86_INS_JMP || c->id == X86_INS_LJMP ||
		   c->id == X86_INS_UD2;
	i->nr_ops = x->op_count < 4 ? x->op_count : 4;
	for (uint8_t k = 0; k < i->nr_ops; k++) {
		const cs_x86_op *o = &x->operands[k];

		i->ops[k] = (struct operand){
			.type = (uint8_t)o->type, .access = o->access, .size = o->size,
			.reg = o->type == X86_OP_REG ? (uint16_t)o->reg : 0,
			.base = o->type == X86_OP_MEM ? (uint16_t)o->mem.base : 0,
			.index = o->type == X86_OP_MEM ? (uint16_t)o->mem.index : 0,
			.segment = o->type == X86_OP_MEM ? (uint16_t)o->mem.segment : 0,
			.disp = o->type == X86_OP_MEM ? o->mem.disp : 0,
		};
	}
	if (i->nr_ops == 2 && x->operands[1].type == X86_OP_IMM)
		i->imm = x->operands[1].imm;
	/* A call, or a tail call (jmp _raw_spin_unlock). */
	if ((i->call || c->id == X86_INS_JMP) && i->nr_ops == 1 &&
	    x->operands[0].type == X86_OP_IMM)
		i->imm_target = (uint64_t)x->operands[0].imm;
	if (i->jump && i->nr_ops == 1 && i->ops[0].type == X86_OP_IMM) {
		i->direct = true;
		i->target = (uint64_t)x->operands[0].imm;
	}
	for (uint8_t k = 0; k < c->detail->regs_write_count && i->nr_writes < 8; k++)
		i->writes[i->nr_writes++] = c->detail->regs_write[k];
}

static int cmp_join(const void *a, const void *b)
{
	uint64_t x = ((const struct join *)a)->pc, y = ((const struct join *)b)->pc;

	return (x > y) - (x < y);
}

static struct join *join_at(const struct analyzer *a, uint64_t pc)
{
	struct join key = { .pc = pc };

	return ll_bsearch(&key, a->joins, a->nr_joins, sizeof(key), cmp_join);
}

/* The types DWARF gives register R at PC: up to MAX of them, into OUT. */
static size_t dwarf_types(const struct analyzer *a, int r, uint64_t pc,
			  const struct reg_type **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nr_vars && n < max; i++) {
		const struct var_loc *v = &a->vars[i];

		if (v->reg == r && pc >= v->lo && pc < v->hi)
			out[n++] = &v->type;
	}
	return n;
}

/* The frame slot at rbp + DISP, when a pointer variable lives there. */
static const struct reg_type *slot_type(const struct analyzer *a, int64_t disp)
{
	if (!a->frame_known)
		return NULL;
	for (size_t i = 0; i < a->nr_vars; i++) {
		const struct var_loc *v = &a->vars[i];

		if (v->reg < 0 && v->slot + a->frame_adjust == disp)
			return &v->type;
	}
	return NULL;
}

static bool in_bounds(const struct reg_type *t, int64_t disp)
{
	int64_t off = disp + t->bias;

	return off >= 0 && (uint64_t)off < ac_byte_size((Dwarf_Die *)&t->agg);
}

/*
 * The type of register R at PC for an access at DISP: of the variables
 * DWARF puts there (a pointer and the container_of() of it may share a
 * register), the one DISP falls inside; else what moves and loads left.
 */
static const struct reg_type *reg_type_at(const struct analyzer *a, const struct walk *w, int r,
					  uint64_t pc, int64_t disp)
{
	const struct reg_type *c[8];
	size_t n = dwarf_types(a, r, pc, c, 8);

	for (size_t i = 0; i < n; i++)
		if (in_bounds(c[i], disp))
			return c[i];
	if (n)
		return c[0];
	return w->prop[r].valid ? &w->prop[r] : NULL;
}

static bool is_atomic(const struct insn *insn)
{
	if (insn->lock)
		return true;
	switch (insn->id) {
	case X86_INS_XCHG:	/* with memory, locked whether or not it says so */
	case X86_INS_CMPXCHG:
	case X86_INS_CMPXCHG8B:
	case X86_INS_CMPXCHG16B:
		return true;
	default:
		return false;
	}
}

/* No memory is touched by these, whatever their operand says. */
static bool touches_no_memory(unsigned id)
{
	switch (id) {
	case X86_INS_LEA:
	case X86_INS_NOP:
	case X86_INS_PREFETCH:
	case X86_INS_PREFETCHNTA:
	case X86_INS_PREFETCHT0:
	case X86_INS_PREFETCHT1:
	case X86_INS_PREFETCHT2:
	case X86_INS_PREFETCHW:
	case X86_INS_CLFLUSH:
		return true;
	default:
		return false;
	}
}

static const struct global *global_at(const struct analyzer *a, uint64_t addr)
{
	for (size_t i = 0; i < a->nr_globals; i++)
		if (addr >= a->globals[i].addr && addr < a->globals[i].addr + a->globals[i].size)
			return &a->globals[i];
	return NULL;
}

static void access_operand(struct analyzer *a, const struct walk *w, const struct insn *insn,
			   const struct operand *op)
{
	int base = ac_gpr_index(op->base);
	uint64_t pc = insn->addr;
	uint32_t width = op->size ? op->size : 1;
	const struct reg_type *t;
	const struct global *g;
	Dwarf_Die agg;
	int64_t off;

	if (touches_no_memory(insn->id))
		return;
	if (op->base == X86_REG_RIP ||
	    (op->segment == X86_REG_GS && op->base == X86_REG_INVALID &&
	     op->index == X86_REG_INVALID)) {
		/*
		 * A global by its address; %gs:ADDR is the kernel's per-CPU
		 * variable at ADDR of .data..percpu (this_cpu_inc(v.member)).
		 */
		uint64_t addr = op->base == X86_REG_RIP ? insn->addr + insn->size + (uint64_t)op->disp :
			(uint64_t)op->disp;

		if (!w->record || !(g = global_at(a, addr)))
			return;
		agg = g->agg;
		off = (int64_t)(addr - g->addr);
	} else {
		/*
		 * The stack and absolute addresses aside; a segment with a base
		 * register (%gs:0x50(%rax), a per-CPU pointer) is typed by the
		 * register like any other.
		 */
		if (base < 0 || base == REG_RSP || (base == REG_RBP && a->frame_known))
			return;
		a->operands += w->record;
		if (!(t = reg_type_at(a, w, base, pc, op->disp)))
			return;
		a->typed += w->record;
		if (!w->record)
			return;
		agg = t->agg;
		off = op->disp + t->bias;
	}
	if (is_atomic(insn)) {
		ac_resolve_access(a, &agg, off, width, LL_ACCESS_KIND_ATOMIC, pc, 0);
		return;
	}
	if ((op->access & CS_AC_READ) || ll_capstone_reads_only(insn->id))
		ac_resolve_access(a, &agg, off, width, LL_ACCESS_KIND_LOAD, pc, 0);
	if ((op->access & CS_AC_WRITE) && !ll_capstone_reads_only(insn->id))
		ac_resolve_access(a, &agg, off, width, LL_ACCESS_KIND_STORE, pc, 0);
}

/* What a 64-bit move, load or lea from SRC leaves in its destination. */
static struct reg_type moved(struct analyzer *a, const struct walk *w, const struct insn *insn,
			     const struct operand *src)
{
	struct reg_type next = { 0 };
	const struct reg_type *t;
	int b = src->type == X86_OP_MEM ? ac_gpr_index(src->base) : -1;
	bool plain = src->type == X86_OP_MEM && src->segment == X86_REG_INVALID &&
		     src->index == X86_REG_INVALID && b >= 0;

	if (insn->id == X86_INS_MOV && src->type == X86_OP_REG && ac_gpr_index(src->reg) >= 0 &&
	    ac_is_reg64(src->reg) && (t = reg_type_at(a, w, ac_gpr_index(src->reg), insn->addr, 0))) {
		next = *t;
	} else if (insn->id == X86_INS_MOV && plain) {
		if (b == REG_RBP && a->frame_known) {
			if ((t = slot_type(a, src->disp)))
				next = *t;
		} else if (b != REG_RSP && (t = reg_type_at(a, w, b, insn->addr, src->disp))) {
			ac_member_pointee(a, (Dwarf_Die *)&t->agg, src->disp + t->bias, 8, &next);
		}
	} else if ((insn->id == X86_INS_ADD || insn->id == X86_INS_SUB) &&
		   src->type == X86_OP_IMM && insn->ops[0].type == X86_OP_REG &&
		   (t = reg_type_at(a, w, ac_gpr_index(insn->ops[0].reg), insn->addr, 0))) {
		/* Pointer arithmetic: gcc -O0 reaches a member by adding its offset. */
		next = *t;
		next.bias += insn->id == X86_INS_ADD ? insn->imm : -insn->imm;
	} else if (insn->id == X86_INS_LEA && plain && b != REG_RSP &&
		   (t = reg_type_at(a, w, b, insn->addr, src->disp))) {
		next = *t;
		next.bias += src->disp;
	}
	return next;
}

/* What INSN leaves in the registers it writes: moved, loaded or forgotten. */
static void propagate(struct analyzer *a, struct walk *w, const struct insn *insn)
{
	const struct operand *dst = insn->nr_ops ? &insn->ops[0] : NULL;
	struct reg_type next = { 0 };
	int d = dst && dst->type == X86_OP_REG ? ac_gpr_index(dst->reg) : -1;

	if (d >= 0 && ac_is_reg64(dst->reg) && insn->nr_ops == 2)
		next = moved(a, w, insn, &insn->ops[1]);
	for (uint8_t i = 0; i < insn->nr_ops; i++) {
		const struct operand *op = &insn->ops[i];

		if (op->type == X86_OP_REG && (op->access & CS_AC_WRITE) && ac_gpr_index(op->reg) >= 0)
			w->prop[ac_gpr_index(op->reg)].valid = false;
	}
	for (uint8_t i = 0; i < insn->nr_writes; i++)
		if (ac_gpr_index(insn->writes[i]) >= 0)
			w->prop[ac_gpr_index(insn->writes[i])].valid = false;
	if (d >= 0 && next.valid)
		w->prop[d] = next;
	if (insn->call) {
		static const int clobbered[] = { 0, 1, 2, 4, 5, 8, 9, 10, 11 };

		for (size_t i = 0; i < sizeof(clobbered) / sizeof(*clobbered); i++)
			w->prop[clobbered[i]].valid = false;
	}
}

static bool same_type(const struct reg_type *x, const struct reg_type *y)
{
	return x->valid && y->valid && x->bias == y->bias &&
	       dwarf_dieoffset((Dwarf_Die *)&x->agg) == dwarf_dieoffset((Dwarf_Die *)&y->agg);
}

/* A jump to J with REGS: J keeps only what every jump to it agrees on. */
static void meet(struct walk *w, struct join *j, const struct reg_type *regs)
{
	if (!j->seen) {
		memcpy(j->regs, regs, sizeof(j->regs));
		j->seen = true;
		w->changed = true;
		return;
	}
	for (int r = 0; r < NR_GPR; r++) {
		if (j->regs[r].valid && !same_type(&j->regs[r], &regs[r])) {
			j->regs[r].valid = false;
			w->changed = true;
		}
	}
}

/* A type whose name says it is a lock: spinlock_t, struct mutex, struct rw_semaphore... */
static bool lock_type(Dwarf_Die *t)
{
	Dwarf_Die cur = *t;

	for (int depth = 0; depth < 16; depth++) {
		const char *name = dwarf_diename(&cur);
		int tag = dwarf_tag(&cur);

		if (name && (strstr(name, "lock") || strstr(name, "mutex") || strstr(name, "semaphore")))
			return true;
		if ((tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		     tag != DW_TAG_volatile_type) || !ac_type_of(&cur, &cur))
			return false;
	}
	return false;
}

static bool is_lock(struct analyzer *a, Dwarf_Die *type, void *arg)
{
	(void)a;
	(void)arg;
	return lock_type(type);
}

static bool calls_lock(const struct code *c, const struct insn *insn)
{
	return insn->imm_target &&
	       ll_bsearch(&insn->imm_target, c->lock_calls, c->nr_lock_calls, sizeof(uint64_t),
		       cmp_addr);
}

/*
 * A call taking or dropping a lock at the member whose address is the
 * first argument (%rdi: lea 0x8(%rbx),%rdi; call _raw_spin_lock): the
 * lock word is written atomically, by whoever holds the struct.
 */
static void lock_call(struct analyzer *a, const struct walk *w, const struct insn *insn)
{
	const struct reg_type *t = reg_type_at(a, w, 5, insn->addr, 0);

	/*
	 * Only when a lock starts there: vfs_lock_file() takes a struct
	 * file, whose first word is f_count, not a lock.
	 */
	if (t && ac_member_at(a, (Dwarf_Die *)&t->agg, t->bias, is_lock, NULL, 0))
		ac_resolve_access(a, (Dwarf_Die *)&t->agg, t->bias, 1, LL_ACCESS_KIND_ATOMIC,
				  insn->addr, 0);
}

/*
 * One pass over the function: at a join, the registers the fall-through
 * path and every jump seen so far agree on (a jump not walked yet is
 * assumed to agree: passes repeat until no join changes).
 */
static void walk_pass(struct analyzer *a, struct walk *w)
{
	bool falls = true;

	memset(w->prop, 0, sizeof(w->prop));
	for (size_t i = 0; i < a->nr_insns; i++) {
		const struct insn *insn = &a->insns[i];
		struct join *j = join_at(a, insn->addr);

		if (j) {
			if (!falls && j->seen)
				memcpy(w->prop, j->regs, sizeof(w->prop));
			else if (!falls)
				memset(w->prop, 0, sizeof(w->prop));
			else if (j->seen)
				for (int r = 0; r < NR_GPR; r++)
					if (!same_type(&w->prop[r], &j->regs[r]))
						w->prop[r].valid = false;
		} else if (!falls) {
			memset(w->prop, 0, sizeof(w->prop));
		}
		for (uint8_t k = 0; k < insn->nr_ops; k++)
			if (insn->ops[k].type == X86_OP_MEM)
				access_operand(a, w, insn, &insn->ops[k]);
		if (w->record && calls_lock(&a->code, insn))
			lock_call(a, w, insn);
		propagate(a, w, insn);
		if (insn->direct && (j = join_at(a, insn->target)))
			meet(w, j, w->prop);
		falls = !insn->stops;
	}
}

/* Decode [LO, HI) of SEC into a->insns; the bytes left undecoded. */
static uint64_t decode(struct analyzer *a, const struct code_section *sec, uint64_t lo,
		       uint64_t hi)
{
	const uint8_t *code = sec->bytes + (lo - sec->addr);
	size_t size = hi - lo;
	uint64_t addr = lo;

	a->nr_insns = a->nr_joins = 0;
	while (size && a->api.disasm_iter(a->cs, &code, &size, &addr, a->insn)) {
		a->insns = xgrow(a->insns, a->nr_insns, sizeof(*a->insns));
		compact(a->insn, &a->insns[a->nr_insns++]);
	}
	for (size_t i = 0; i < a->nr_insns; i++) {
		if (!a->insns[i].direct || a->insns[i].target < lo || a->insns[i].target >= hi)
			continue;
		a->joins = xgrow(a->joins, a->nr_joins, sizeof(*a->joins));
		a->joins[a->nr_joins++] = (struct join){ .pc = a->insns[i].target };
	}
	ll_qsort(a->joins, a->nr_joins, sizeof(*a->joins), cmp_join);
	size_t n = 0;

	for (size_t i = 0; i < a->nr_joins; i++)
		if (!n || a->joins[n - 1].pc != a->joins[i].pc)
			a->joins[n++] = a->joins[i];
	a->nr_joins = n;
	return size;
}

/* Passes until the joins settle (at most MAX_PASSES), then one that records. */
#define MAX_PASSES 8

static void walk_range(struct analyzer *a)
{
	struct walk w = { 0 };
	int pass = 0;

	do {
		w.changed = false;
		walk_pass(a, &w);
	} while (w.changed && ++pass < MAX_PASSES);
	if (w.changed) {
		/* Unsettled: forget everything at every join rather than guess. */
		for (size_t i = 0; i < a->nr_joins; i++)
			memset(a->joins[i].regs, 0, sizeof(a->joins[i].regs));
	}
	w.record = true;
	walk_pass(a, &w);
}

/* gcc -O0 and clang: frame base and rbp, when the function sets rbp up as its frame. */
static void find_frame(struct analyzer *a, Dwarf_Die *fn)
{
	Dwarf_Attribute at;
	Dwarf_Op *e;
	size_t n;
	bool push_rbp = false;

	a->frame_known = false;
	if (!dwarf_attr(fn, DW_AT_frame_base, &at) || dwarf_getlocation(&at, &e, &n) != 0 || n != 1)
		return;
	/* [endbr64;] push %rbp; mov %rsp,%rbp */
	for (size_t k = 0; k < 3 && k < a->nr_insns; k++) {
		const struct insn *i = &a->insns[k];

		if (i->id == X86_INS_PUSH && i->nr_ops == 1 && i->ops[0].reg == X86_REG_RBP) {
			push_rbp = true;
		} else if (push_rbp && i->id == X86_INS_MOV && i->nr_ops == 2 &&
			   i->ops[0].type == X86_OP_REG && i->ops[0].reg == X86_REG_RBP &&
			   i->ops[1].type == X86_OP_REG && i->ops[1].reg == X86_REG_RSP) {
			if (e[0].atom == DW_OP_call_frame_cfa) {
				a->frame_adjust = 16;	/* CFA = return address + 8 = rbp + 16 */
				a->frame_known = true;
			} else if (e[0].atom == DW_OP_reg6) {
				a->frame_adjust = 0;
				a->frame_known = true;
			}
			return;
		}
	}
}

static void finish_function(struct analyzer *a)
{
	for (size_t i = 0; i < a->nr_touched; i++) {
		size_t t = a->touched[i];

		a->out[t]->operands += a->operands;
		a->out[t]->typed += a->typed;
		a->out[t]->functions++;
		a->is_touched[t] = false;
	}
	a->nr_touched = 0;
	a->operands = a->typed = 0;
	a->nr_vars = a->nr_inlines = 0;
}

static void count_skipped(struct analyzer *a, uint64_t bytes)
{
	a->skipped_functions += !bytes;
	a->undecoded_bytes += bytes;
}

static void analyze_function(struct analyzer *a, Dwarf_Die *fn)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	bool first = true;

	/* A function DWARF gives no name (damaged input): still one, never NULL. */
	a->func_name = ac_die_name(fn) ? ac_die_name(fn) : "(unnamed function)";
	ac_collect_scope(a, fn, 0);
	if (!a->nr_vars && !a->nr_globals) {
		finish_function(a);
		return;	/* nothing in it can be typed */
	}
	while ((off = dwarf_ranges(fn, off, &base, &lo, &hi)) > 0) {
		const struct code_section *sec = code_of(&a->code, lo, hi);
		uint64_t left;

		if (!sec) {
			count_skipped(a, 0);
			continue;
		}
		a->func_init = sec->init;
		left = decode(a, sec, lo, hi);
		if (first)
			find_frame(a, fn);
		first = false;
		walk_range(a);
		if (left)
			count_skipped(a, left);
	}
	finish_function(a);
}

/* ---- units ---- */

static void add_global(struct analyzer *a, Dwarf_Die *var)
{
	Dwarf_Attribute at;
	Dwarf_Op *e;
	size_t n;
	Dwarf_Die t, agg;

	Dwarf_Attribute addr_attr;
	Dwarf_Addr addr;

	if (!dwarf_attr(var, DW_AT_location, &at) || dwarf_getlocation(&at, &e, &n) != 0 || n != 1 ||
	    !ac_type_of(var, &t) || !ac_aggregate_of(a, &t, &agg) || !ac_contains_target(a, &agg, 0))
		return;
	if (e[0].atom == DW_OP_addr)
		addr = e[0].number;
	else if ((e[0].atom == DW_OP_addrx || e[0].atom == DW_OP_GNU_addr_index) &&
		 dwarf_getlocation_attr(&at, &e[0], &addr_attr) == 0 &&
		 dwarf_formaddr(&addr_attr, &addr) == 0)
		;	/* DWARF 5 (clang): the address is in .debug_addr */
	else
		return;
	a->globals = xgrow(a->globals, a->nr_globals, sizeof(*a->globals));
	a->globals[a->nr_globals++] = (struct global){ addr, ac_byte_size(&agg), agg };
}

/* The unit's named aggregate definitions; true when one answers a target. */
static bool read_definitions(struct analyzer *a)
{
	Dwarf_Die c;
	bool any = false;

	a->nr_defs = a->nr_globals = 0;
	a->generation++;
	if (dwarf_child(&a->cu, &c) != 0)
		return false;
	do {
		int tag = dwarf_tag(&c);
		const char *name;

		if ((tag != DW_TAG_structure_type && tag != DW_TAG_union_type) ||
		    dwarf_hasattr(&c, DW_AT_declaration) || !(name = dwarf_diename(&c)))
			continue;
		a->defs = xgrow(a->defs, a->nr_defs, sizeof(*a->defs));
		a->defs[a->nr_defs++] = (struct definition){ name, c };
		any |= ac_target_of(a, &c) >= 0;
	} while (dwarf_siblingof(&c, &c) == 0);
	ll_qsort(a->defs, a->nr_defs, sizeof(*a->defs), ac_cmp_def);
	return any;
}

static void analyze_unit(struct analyzer *a)
{
	Dwarf_Die c;
	Dwarf_Attribute at;

	if (!read_definitions(a))
		return;
	a->comp_dir = dwarf_attr(&a->cu, DW_AT_comp_dir, &at) ? dwarf_formstring(&at) : NULL;
	if (dwarf_child(&a->cu, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) == DW_TAG_variable)
			add_global(a, &c);
	} while (dwarf_siblingof(&c, &c) == 0);
	dwarf_child(&a->cu, &c);
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_hasattr(&c, DW_AT_low_pc))
			analyze_function(a, &c);
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void analyzer_release(struct analyzer *a)
{
	if (a->insn)
		a->api.free(a->insn, 1);
	if (a->cs)
		a->api.close(&a->cs);
	ll_capstone_unload(&a->api);
	code_close(&a->code);
	free(a->defs);
	free(a->globals);
	free(a->memo);
	ll_slots_release(&a->target_slots);
	ll_free_all(a->targets, a->is_touched, a->vars, a->inlines, a->insns, a->joins, a->touched);
}

/* The walk over every unit of the image, once the targets are set. */
static int analyze(struct analyzer *a, Dwarf *dw, const char *code_path, struct ll_error *err)
{
	Dwarf_Off off = 0, next;
	size_t header;

	a->dw = dw;
	a->memo = xcalloc(MEMO_SIZE, sizeof(*a->memo));
	if (code_open(&a->code, code_path, err) ||
	    (a->code.relocatable && open_laid_out(&a->code, code_path, &a->dw, err)))
		return -1;
	/*
	 * DWARF in the file itself: read with a libdw of our own. The
	 * reader's is tuned for lookups (a sparse image, units entered where
	 * the index says), and a walk over all of it saw different units
	 * depending on what the lookup had read.
	 */
	if (!a->code.dwfl && has_debug_info(a->code.elf) &&
	    (a->code.own_dwarf = dwarf_begin_elf(a->code.elf, DWARF_C_READ, NULL)))
		a->dw = a->code.own_dwarf;
	if (!ll_capstone_load(&a->api))
		return ll_fail(err, "%s: --access needs capstone (" CAPSTONE_SONAME "), which could "
			       "not be loaded", code_path);
	/* Details on before cs_malloc(), which allocates room for them only then. */
	if (a->api.open(CS_ARCH_X86, CS_MODE_64, &a->cs) != CS_ERR_OK ||
	    a->api.option(a->cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK ||
	    !(a->insn = a->api.malloc(a->cs)))
		return ll_fail(err, "%s: capstone could not be opened for x86-64", code_path);
	/*
	 * By headers, not dwarf_get_units(): that walks libdw's tree of units,
	 * which the reader's lookup (starting at units the index names) leaves
	 * with gaps, so a walk from it began hundreds of units in.
	 */
	while (dwarf_next_unit(a->dw, off, &next, &header, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(a->dw, off + header, &a->cu) &&
		    dwarf_tag(&a->cu) == DW_TAG_compile_unit)
			analyze_unit(a);
		off = next;
	}
	for (size_t i = 0; i < a->nr_targets; i++) {
		a->out[i]->skipped_functions = a->skipped_functions;
		a->out[i]->undecoded_bytes = a->undecoded_bytes;
	}
	return 0;
}

int ll_access_analyze(Dwarf *dw, const char *code_path, const struct ll_access_target *targets,
		      size_t n, struct ll_access_evidence **out, struct ll_error *err)
{
	struct analyzer a = { .code.fd = -1 };
	int rc;

	for (size_t i = 0; i < n; i++)
		ac_add_target(&a, targets[i].name, targets[i].size, targets[i].is_union);
	rc = analyze(&a, dw, code_path, err);
	for (size_t i = 0; i < n; i++) {
		out[i] = rc ? NULL : a.out[i];
		if (rc)
			ll_access_evidence_free(a.out[i]);
	}
	free(a.out);
	analyzer_release(&a);
	return rc;
}

int ll_access_analyze_all(Dwarf *dw, const char *code_path, struct ll_access_image *out,
			  struct ll_error *err)
{
	struct analyzer a = { .every_struct = true, .code.fd = -1 };
	int rc;

	/* No target yet: ac_target_of() adds what it meets. */
	rc = analyze(&a, dw, code_path, err);
	out->v = a.out;
	out->n = a.nr_targets;
	if (rc)
		ll_access_image_release(out);
	analyzer_release(&a);
	return rc;
}
#endif
