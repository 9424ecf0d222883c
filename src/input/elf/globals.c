// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Global and static variables as one aggregate, so that every check, the
 * rules and the reporters work on them as on a struct's members (see
 * globals.h). The ELF symbol table gives what matters for cachelines:
 * each variable's address, size and section.
 */
#include "input/elf/globals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/elf/elf_section.h"
#include "util/strbuf.h"

/*
 * Offsets count from the page of the first variable: a page boundary is a
 * line and a line-pair boundary on every machine, so --adjacent-lines pairs
 * the lines the prefetcher pairs.
 */
#define PAGE 4096u

struct var {
	const char *name;	/* in the string table */
	const char *section;	/* in the section header string table */
	uint64_t addr, size;
	uint64_t value;		/* st_value: the address as the debug info records it */
	bool global;		/* STB_GLOBAL: preferred over a local alias */
};

struct vars {
	struct var *v;
	size_t n;
	bool relocatable;
};

/*
 * Writable, allocated data: .data (with .data..read_mostly and
 * .data..cacheline_aligned inside it in a vmlinux), .bss and the rest.
 * .data..percpu is a space of its own (its addresses are offsets into
 * every CPU's copy), read only when PERCPU asks for it alone.
 */
static bool data_section(const GElf_Shdr *sh, const char *name, bool percpu)
{
	bool is_percpu = name && strncmp(name, ".data..percpu", 13) == 0;

	if (!(sh->sh_flags & SHF_ALLOC) || !(sh->sh_flags & SHF_WRITE) ||
	    (sh->sh_flags & SHF_EXECINSTR))
		return false;
	if (sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_NOBITS)
		return false;
	return is_percpu == percpu;
}

static int var_cmp(const void *a, const void *b)
{
	const struct var *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Where each section starts in the aggregate. An executable or a vmlinux
 * has addresses; a relocatable object (a module, a .o) has none, so each
 * WANTED section starts on a fresh page after the previous one (the
 * others take no room: a module's debug sections lie between its data
 * sections), and only variables of one section can meet on a line.
 */
static uint64_t *section_bases(Elf *elf, bool relocatable, const bool *wanted, size_t nsec)
{
	uint64_t *base = xcalloc(nsec ? nsec : 1, sizeof(*base));
	uint64_t next = 0;

	for (size_t i = 0; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh) || !wanted[i])
			continue;
		if (!relocatable) {
			base[i] = sh.sh_addr;
			continue;
		}
		base[i] = next;
		next += (sh.sh_size + PAGE - 1) / PAGE * PAGE;
	}
	return base;
}

static size_t section_name_offset(Elf *elf, size_t index)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, index);

	return scn && gelf_getshdr(scn, &sh) ? sh.sh_name : 0;
}

static int collect(Elf *elf, const char *path, bool percpu, struct vars *out,
		   struct ll_error *err)
{
	GElf_Ehdr eh;
	size_t nsec = 0, shstrndx;
	Elf_Scn *scn = NULL;
	bool relocatable;
	uint64_t *base;
	bool *wanted;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &nsec) || elf_getshdrstrndx(elf, &shstrndx))
		return ll_fail(err, "%s: not a readable ELF file (%s)", path, elf_errmsg(-1));
	relocatable = eh.e_type == ET_REL;
	out->relocatable = relocatable;
	wanted = xcalloc(nsec ? nsec : 1, sizeof(*wanted));
	for (size_t i = 0; i < nsec; i++) {
		GElf_Shdr sh;
		Elf_Scn *s = elf_getscn(elf, i);

		if (s && gelf_getshdr(s, &sh))
			wanted[i] = data_section(&sh, elf_strptr(elf, shstrndx, sh.sh_name), percpu);
	}
	base = section_bases(elf, relocatable, wanted, nsec);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		/* The bytes libelf has, not what a damaged header claims. */
		for (size_t k = 0; data && k < data->d_size / sh.sh_entsize; k++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
			    !sym.st_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= nsec ||
			    !wanted[sym.st_shndx])
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			out->v = xgrow(out->v, out->n, sizeof(*out->v));
			out->v[out->n++] = (struct var){
				.name = name, .size = sym.st_size, .value = sym.st_value,
				.section = elf_strptr(elf, shstrndx, (size_t)sym.st_shndx < nsec ?
						      section_name_offset(elf, sym.st_shndx) : 0),
				.addr = relocatable ? base[sym.st_shndx] + sym.st_value : sym.st_value,
				.global = GELF_ST_BIND(sym.st_info) != STB_LOCAL,
			};
		}
	}
	free(base);
	free(wanted);
	return 0;
}

/*
 * One member per variable, in address order. Aliases (two symbols of one
 * object, jiffies and jiffies_64) and symbols that overlap an earlier one
 * are dropped: a struct has no overlapping members, and the first (a
 * global before a local) names the bytes.
 */
static int debug_addr_cmp(const void *a, const void *b)
{
	const struct ll_variable *x = *(const struct ll_variable *const *)a;
	const struct ll_variable *y = *(const struct ll_variable *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int debug_name_cmp(const void *a, const void *b)
{
	const struct ll_variable *x = *(const struct ll_variable *const *)a;
	const struct ll_variable *y = *(const struct ll_variable *const *)b;

	return strcmp(x->name, y->name);
}

/* The debug info's variables, sorted for matching to symbols. */
struct debug_index {
	const struct ll_variable **v;
	size_t n;
	bool by_name;
};

static void debug_index_init(struct debug_index *ix, const struct ll_variables *debug,
			     bool by_name)
{
	memset(ix, 0, sizeof(*ix));
	ix->by_name = by_name;
	if (!debug || !debug->n)
		return;
	ix->v = xcalloc(debug->n, sizeof(*ix->v));
	for (size_t i = 0; i < debug->n; i++)
		if (debug->v[i].name)
			ix->v[ix->n++] = &debug->v[i];
	qsort(ix->v, ix->n, sizeof(*ix->v), by_name ? debug_name_cmp : debug_addr_cmp);
}

/* The first index entry not below KEY, in the index's order. */
static size_t debug_lower_bound(const struct debug_index *ix, const struct var *key)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ll_variable *d = ix->v[mid];
		bool below = ix->by_name ? strcmp(d->name, key->name) < 0 : d->addr < key->value;

		if (below)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The debug info's variable for symbol V, or NULL. By address: the one of
 * V's name there, else the only one there (an alias's definition). By
 * name (relocatable objects): only a name both sides hold once, since two
 * files' statics of one name cannot be told apart; the symbols' side is
 * checked by the caller.
 */
static const struct ll_variable *debug_match(const struct debug_index *ix, const struct var *v)
{
	size_t i = debug_lower_bound(ix, v), n = 0;
	const struct ll_variable *named = NULL;

	for (size_t k = i; k < ix->n; k++) {
		const struct ll_variable *d = ix->v[k];

		if (ix->by_name ? strcmp(d->name, v->name) != 0 : d->addr != v->value)
			break;
		n++;
		if (!named && strcmp(d->name, v->name) == 0)
			named = d;
	}
	if (ix->by_name)
		return n == 1 ? named : NULL;
	return named ? named : n == 1 ? ix->v[i] : NULL;
}

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The symbols' names, sorted: which of them more than one symbol bears. */
struct symbol_names {
	const char **v;
	size_t n;
};

static void symbol_names_init(struct symbol_names *sn, const struct vars *vars)
{
	sn->n = vars->n;
	sn->v = xcalloc(vars->n ? vars->n : 1, sizeof(*sn->v));
	for (size_t i = 0; i < vars->n; i++)
		sn->v[i] = vars->v[i].name;
	qsort(sn->v, sn->n, sizeof(*sn->v), str_ptr_cmp);
}

static bool symbol_name_unique(const struct symbol_names *sn, const char *name)
{
	size_t lo = 0, hi = sn->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sn->v[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + 1 >= sn->n || strcmp(sn->v[lo + 1], name) != 0;
}

static void annotate(struct ll_member *m, const struct ll_variable *d)
{
	free(m->type);
	m->type = xstrdup(d->type ? d->type : "");
	m->decl.file = d->decl.file ? xstrdup(d->decl.file) : NULL;
	m->decl.line = d->decl.line;
	m->decl.column = d->decl.column;
}

static struct ll_struct *build(const struct vars *vars, unsigned cl, const char *name,
			       const struct ll_variables *debug)
{
	struct debug_index ix;
	struct symbol_names names = { 0 };
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	uint64_t first = vars->n ? vars->v[0].addr / PAGE * PAGE : 0, end = 0;

	s->kind = LL_GLOBALS;
	s->name = xstrdup(name);
	s->alignment = PAGE;
	s->cacheline = cl;
	s->origin = first;	/* the address offset 0 stands for */
	debug_index_init(&ix, debug, vars->relocatable);
	if (ix.n && ix.by_name)
		symbol_names_init(&names, vars);
	for (size_t i = 0; i < vars->n; i++) {
		const struct var *v = &vars->v[i];
		struct ll_member *m;

		if (v->addr - first < end)
			continue;
		s->members = xgrow(s->members, s->nr_members, sizeof(*s->members));
		m = &s->members[s->nr_members++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(v->name);
		m->path = xstrdup(v->name);
		m->type = xstrdup("");
		m->section = v->section ? xstrdup(v->section) : NULL;
		m->offset = v->addr - first;
		m->size = v->size;
		m->alignment = 1;
		end = m->offset + m->size;
		const struct ll_variable *d = ix.n ? debug_match(&ix, v) : NULL;

		if (d && (!ix.by_name || symbol_name_unique(&names, v->name)))
			annotate(m, d);
	}
	free(ix.v);
	free(names.v);
	s->size = end;
	return s;
}

/*
 * A map of more than LL_MAX_STRUCT_SIZE bytes of addresses is refused as a
 * struct that large is: one clear line, not variables quietly dropped.
 */
static int check_span(const char *path, const struct vars *vars, struct ll_error *err)
{
	uint64_t first = vars->v[0].addr / PAGE * PAGE, last = 0;
	const struct var *far = NULL;

	for (size_t i = 0; i < vars->n; i++) {
		const struct var *v = &vars->v[i];

		if (v->size > UINT64_MAX - v->addr)
			return ll_fail(err, "%s: variable %s at %#llx: its size %llu runs past the "
				       "end of the address space", path, v->name,
				       (unsigned long long)v->addr, (unsigned long long)v->size);
		if (v->addr + v->size > last) {
			last = v->addr + v->size;
			far = v;
		}
	}
	if (last - first > LL_MAX_STRUCT_SIZE)
		return ll_fail(err, "%s: its variables span %#llx-%#llx (%s ends there), more than "
			       "the %u MiB layoutlint maps", path, (unsigned long long)first,
			       (unsigned long long)last, far->name, LL_MAX_STRUCT_SIZE >> 20);
	return 0;
}

int ll_globals_read(const char *path, const char *which, unsigned cl,
		    const struct ll_variables *debug, struct ll_struct **out, struct ll_error *err)
{
	bool percpu = strcmp(which, LL_PERCPU_NAME) == 0;
	struct vars vars = { 0 };
	Elf *elf;
	int fd, rc;

	*out = NULL;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		rc = ll_fail(err, "%s: global variables need an ELF file with a symbol table", path);
	} else {
		rc = collect(elf, path, percpu, &vars, err);
		if (!rc && vars.n) {
			qsort(vars.v, vars.n, sizeof(*vars.v), var_cmp);
			rc = check_span(path, &vars, err);
		}
		if (!rc && vars.n)
			*out = build(&vars, cl, which, debug);
	}
	free(vars.v);
	elf_end(elf);
	close(fd);
	return rc;
}

void ll_variables_release(struct ll_variables *vars)
{
	for (size_t i = 0; i < vars->n; i++) {
		free(vars->v[i].name);
		free(vars->v[i].type);
		free(vars->v[i].decl.file);
	}
	free(vars->v);
	memset(vars, 0, sizeof(*vars));
}
