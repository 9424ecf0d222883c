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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/elf/elf_section.h"
#include "util/strbuf.h"
#include "util/threads.h"

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

/* Which aggregate a section's variables go to; NO_KIND: none. */
enum { KIND_GLOBALS, KIND_PERCPU, NR_KINDS, NO_KIND = NR_KINDS };

/*
 * Writable, allocated data: .data (with .data..read_mostly and
 * .data..cacheline_aligned inside it in a vmlinux), .bss and the rest.
 * .data..percpu is a space of its own (its addresses are offsets into
 * every CPU's copy), an aggregate of its own.
 */
static int data_section_kind(const GElf_Shdr *sh, const char *name)
{
	if (!(sh->sh_flags & SHF_ALLOC) || !(sh->sh_flags & SHF_WRITE) ||
	    (sh->sh_flags & SHF_EXECINSTR))
		return NO_KIND;
	if (sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_NOBITS)
		return NO_KIND;
	return name && strncmp(name, ".data..percpu", 13) == 0 ? KIND_PERCPU : KIND_GLOBALS;
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
/* What collect() needs of each section, read once: a symbol table has ~10^5 symbols. */
struct section_info {
	int kind;		/* NO_KIND: not data */
	const char *name;	/* in the section header string table; NULL: none */
	uint64_t base;
};

static struct section_info *section_infos(Elf *elf, bool relocatable, size_t nsec,
					  size_t shstrndx)
{
	struct section_info *info = xcalloc(nsec ? nsec : 1, sizeof(*info));
	uint64_t next[NR_KINDS] = { 0 };

	for (size_t i = 0; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		info[i].kind = NO_KIND;
		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		info[i].name = elf_strptr(elf, shstrndx, sh.sh_name);
		info[i].kind = data_section_kind(&sh, info[i].name);
		if (info[i].kind == NO_KIND)
			continue;
		if (!relocatable) {
			info[i].base = sh.sh_addr;
			continue;
		}
		info[i].base = next[info[i].kind];
		next[info[i].kind] += (sh.sh_size + PAGE - 1) / PAGE * PAGE;
	}
	return info;
}

/* Which aggregate SYM's variable goes to, by its section; NO_KIND: not a sized, defined object. */
static int symbol_kind(const GElf_Sym *sym, size_t nsec, const struct section_info *info)
{
	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || !sym->st_size ||
	    sym->st_shndx == SHN_UNDEF || sym->st_shndx >= nsec)
		return NO_KIND;
	return info[sym->st_shndx].kind;
}

/* The symbol table's variables of both kinds, in one pass: OUT[KIND_GLOBALS], OUT[KIND_PERCPU]. */
static int collect(Elf *elf, const char *path, struct vars out[NR_KINDS], struct ll_error *err)
{
	GElf_Ehdr eh;
	size_t nsec = 0, shstrndx;
	Elf_Scn *scn = NULL;
	bool relocatable;
	struct section_info *info;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &nsec) || elf_getshdrstrndx(elf, &shstrndx))
		return ll_fail(err, "%s: not a readable ELF file (%s)", path, elf_errmsg(-1));
	relocatable = eh.e_type == ET_REL;
	for (int k = 0; k < NR_KINDS; k++)
		out[k].relocatable = relocatable;
	info = section_infos(elf, relocatable, nsec, shstrndx);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		size_t nsyms = data ? data->d_size / sh.sh_entsize : 0, room[NR_KINDS] = { 0 };
		GElf_Sym sym;
		int kind;

		/*
		 * Room counted first, each kind's exactly: a vmlinux's ~10^5
		 * grown by doubling were copied ~17 times, and room for every
		 * symbol in each kind came from the heap, whose huge pages made
		 * the unwritten part resident too (bench/RESULTS.md). The bytes
		 * libelf has, not what a damaged header claims.
		 */
		for (size_t k = 0; k < nsyms; k++)
			if (gelf_getsym(data, (int)k, &sym) &&
			    (kind = symbol_kind(&sym, nsec, info)) != NO_KIND)
				room[kind]++;
		for (int k = 0; k < NR_KINDS; k++)
			if (room[k])
				out[k].v = xrealloc(out[k].v, (out[k].n + room[k]) * sizeof(*out[k].v));
		for (size_t k = 0; k < nsyms; k++) {
			const char *name;

			if (!gelf_getsym(data, (int)k, &sym) ||
			    symbol_kind(&sym, nsec, info) == NO_KIND)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			const struct section_info *in = &info[sym.st_shndx];
			struct vars *to = &out[in->kind];

			to->v[to->n++] = (struct var){
				.name = name, .size = sym.st_size, .value = sym.st_value,
				.section = in->name,
				.addr = relocatable ? in->base + sym.st_value : sym.st_value,
				.global = GELF_ST_BIND(sym.st_info) != STB_LOCAL,
			};
		}
	}
	free(info);
	return 0;
}

/*
 * One debug variable in the index, with the address it is sorted and
 * matched by beside it: following each entry's pointer to its variable
 * (scattered in .debug_info order) cost a cache miss per comparison, in
 * the sort and in a binary search per symbol (bench/RESULTS.md, "Figures
 * behind the code").
 */
struct debug_entry {
	uint64_t addr;
	const struct ll_variable *v;
};

/*
 * One member per variable, in address order. Aliases (two symbols of one
 * object, jiffies and jiffies_64) and symbols that overlap an earlier one
 * are dropped: a struct has no overlapping members, and the first (a
 * global before a local) names the bytes.
 */
static int debug_addr_cmp(const void *a, const void *b)
{
	const struct debug_entry *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->v->name, y->v->name);
}

static int debug_name_cmp(const void *a, const void *b)
{
	const struct debug_entry *x = a, *y = b;

	return strcmp(x->v->name, y->v->name);
}

/* The debug info's variables, sorted for matching to symbols. */
struct debug_index {
	struct debug_entry *v;
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
			ix->v[ix->n++] = (struct debug_entry){ debug->v[i].addr, &debug->v[i] };
	qsort(ix->v, ix->n, sizeof(*ix->v), by_name ? debug_name_cmp : debug_addr_cmp);
}

/* The first index entry not below KEY, in the index's order. */
static size_t debug_lower_bound(const struct debug_index *ix, const struct var *key)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		bool below = ix->by_name ? strcmp(ix->v[mid].v->name, key->name) < 0 :
					   ix->v[mid].addr < key->value;

		if (below)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * debug_lower_bound() by address, from *CURSOR, where the previous
 * symbol's search ended: symbols asked in address order move it forward
 * only, so matching them all reads the index once. A symbol below the
 * cursor is searched for.
 */
static size_t debug_lower_bound_from(const struct debug_index *ix, const struct var *key,
				     size_t *cursor)
{
	if (*cursor > 0 && ix->v[*cursor - 1].addr >= key->value)
		*cursor = debug_lower_bound(ix, key);
	while (*cursor < ix->n && ix->v[*cursor].addr < key->value)
		(*cursor)++;
	return *cursor;
}

/*
 * The debug info's variable for symbol V, or NULL. By address: the one of
 * V's name there, else the only one there (an alias's definition). By
 * name (relocatable objects): only a name both sides hold once, since two
 * files' statics of one name cannot be told apart; the symbols' side is
 * checked by the caller. CURSOR: debug_lower_bound_from()'s.
 */
static const struct ll_variable *debug_match(const struct debug_index *ix, const struct var *v,
					     size_t *cursor)
{
	size_t i = ix->by_name ? debug_lower_bound(ix, v) : debug_lower_bound_from(ix, v, cursor);
	size_t n = 0;
	const struct ll_variable *named = NULL;

	for (size_t k = i; k < ix->n; k++) {
		const struct ll_variable *d = ix->v[k].v;

		if (ix->by_name ? strcmp(d->name, v->name) != 0 : ix->v[k].addr != v->value)
			break;
		n++;
		if (!named && strcmp(d->name, v->name) == 0)
			named = d;
	}
	if (ix->by_name)
		return n == 1 ? named : NULL;
	return named ? named : n == 1 ? ix->v[i].v : NULL;
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

/*
 * Every string is escaped as ll_input_lookup() escapes every model's
 * (ll_escaped_dup()), here on the threads that fill the members, not
 * afterwards on the main thread over ~40,000 members (struct
 * ll_lookup_result's ESCAPED).
 */
static void annotate(struct ll_member *m, const struct ll_variable *d)
{
	m->type = ll_escaped_dup(d->type ? d->type : "");
	m->decl.file = d->decl.file ? ll_escaped_dup(d->decl.file) : NULL;
	m->decl.line = d->decl.line;
	m->decl.column = d->decl.column;
}

/* Members [FROM, TO) of a build: symbol KEEP[i] becomes member i. */
struct fill {
	const struct vars *vars;
	const size_t *keep;
	const struct debug_index *ix;
	const struct symbol_names *names;
	uint64_t first;			/* the struct's origin */
	struct ll_member *members;
	size_t from, to;
};

static void *fill_members(void *arg)
{
	const struct fill *f = arg;
	const struct debug_index *ix = f->ix;
	/* debug_match()'s: the symbols come in address order; the first is searched for. */
	size_t cursor = ix->n && !ix->by_name && f->from < f->to ?
			debug_lower_bound(ix, &f->vars->v[f->keep[f->from]]) : 0;

	for (size_t i = f->from; i < f->to; i++) {
		const struct var *v = &f->vars->v[f->keep[i]];
		struct ll_member *m = &f->members[i];

		memset(m, 0, sizeof(*m));
		m->name = ll_escaped_dup(v->name);
		m->path = xstrdup(m->name);
		m->section = v->section ? ll_escaped_dup(v->section) : NULL;
		m->offset = v->addr - f->first;
		m->size = v->size;
		m->alignment = 1;
		const struct ll_variable *d = ix->n ? debug_match(ix, v, &cursor) : NULL;

		if (d && (!ix->by_name || symbol_name_unique(f->names, v->name)))
			annotate(m, d);
		else
			m->type = xstrdup("");
	}
	return NULL;
}

/* Members from here on are filled on two threads (when there are two). */
#define FILL_SPLIT_FROM 8192

static struct ll_struct *build(const struct vars *vars, unsigned cl, const char *name,
			       const struct debug_index *debug)
{
	struct symbol_names names = { 0 };
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	uint64_t first = vars->n ? vars->v[0].addr / PAGE * PAGE : 0, end = 0;
	size_t *keep = xmalloc((vars->n ? vars->n : 1) * sizeof(*keep)), nr = 0;

	s->kind = LL_GLOBALS;
	s->name = ll_escaped_dup(name);
	s->alignment = PAGE;
	s->cacheline = cl;
	s->origin = first;	/* the address offset 0 stands for */
	if (debug->n && debug->by_name)
		symbol_names_init(&names, vars);
	/* Which symbols are members: a symbol overlapping the one before is none. */
	for (size_t i = 0; i < vars->n; i++) {
		if (vars->v[i].addr - first < end)
			continue;
		keep[nr++] = i;
		end = vars->v[i].addr - first + vars->v[i].size;
	}
	/*
	 * Filling them is copies and a search each, 39,454 of them in the
	 * 6.12 image: the second half on a thread of its own (results do
	 * not depend on the split). A model's members are never grown after
	 * its build.
	 */
	s->members = xmalloc((nr ? nr : 1) * sizeof(*s->members));
	s->nr_members = nr;
	struct fill half[2] = {
		{ vars, keep, debug, &names, first, s->members, 0, nr },
		{ vars, keep, debug, &names, first, s->members, nr, nr },
	};
	pthread_t tid;
	bool threaded = false;

	if (nr >= FILL_SPLIT_FROM && ll_threads() > 1) {
		half[0].to = half[1].from = nr / 2;
		threaded = pthread_create(&tid, NULL, fill_members, &half[1]) == 0;
	}
	fill_members(&half[0]);
	if (threaded)
		pthread_join(tid, NULL);
	else
		fill_members(&half[1]);
	free(keep);
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

/*
 * Both aggregates from the variables collect() found and sorted (the
 * symbol table's strings live on in ELF).
 */
static void build_both(const char *path, struct vars vars[NR_KINDS], unsigned cl,
		       const struct ll_variables *debug, struct ll_globals *out)
{
	static const char *const names[NR_KINDS] = { LL_GLOBALS_NAME, LL_PERCPU_NAME };
	struct debug_index ix;

	/* Both kinds match against one index: sorting ~10^5 variables once, not twice. */
	debug_index_init(&ix, debug, vars[KIND_GLOBALS].relocatable);
	for (int k = 0; k < NR_KINDS; k++) {
		if (!vars[k].n)
			continue;
		out->rc[k] = check_span(path, &vars[k], &out->err[k]);
		if (!out->rc[k])
			out->layout[k] = build(&vars[k], cl, names[k], &ix);
	}
	free(ix.v);
}

struct ll_globals_symbols {
	const char *path;		/* the caller's */
	int fd;
	Elf *elf;			/* holds the symbol names VARS point to */
	struct vars vars[NR_KINDS];	/* each in address order */
};

int ll_globals_symbols_read(const char *path, struct ll_globals_symbols **out,
			    struct ll_error *err)
{
	struct ll_globals_symbols *syms = xcalloc(1, sizeof(*syms));
	int rc;

	*out = syms;
	syms->path = path;
	elf_version(EV_CURRENT);
	syms->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (syms->fd < 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	syms->elf = elf_begin(syms->fd, ELF_C_READ_MMAP, NULL);
	if (!syms->elf || elf_kind(syms->elf) != ELF_K_ELF)
		return ll_fail(err, "%s: global variables need an ELF file with a symbol table",
			       path);
	rc = collect(syms->elf, path, syms->vars, err);
	for (int k = 0; k < NR_KINDS && !rc; k++)
		if (syms->vars[k].n)
			qsort(syms->vars[k].v, syms->vars[k].n, sizeof(*syms->vars[k].v), var_cmp);
	return rc;
}

void ll_globals_symbols_build(struct ll_globals_symbols *syms, unsigned cl,
			      const struct ll_variables *debug, struct ll_globals *out)
{
	memset(out, 0, sizeof(*out));
	build_both(syms->path, syms->vars, cl, debug, out);
}

void ll_globals_symbols_release(struct ll_globals_symbols *syms)
{
	if (!syms)
		return;
	for (int k = 0; k < NR_KINDS; k++)
		free(syms->vars[k].v);
	if (syms->fd >= 0)
		ll_elf_close(syms->elf, syms->fd);
	free(syms);
}

int ll_globals_read(const char *path, unsigned cl, const struct ll_variables *debug,
		    struct ll_globals *out, struct ll_error *err)
{
	struct ll_globals_symbols *syms;
	int rc = ll_globals_symbols_read(path, &syms, err);

	memset(out, 0, sizeof(*out));
	if (!rc)
		ll_globals_symbols_build(syms, cl, debug, out);
	ll_globals_symbols_release(syms);
	return rc;
}

int ll_globals_take(struct ll_globals *g, const char *which, struct ll_struct **out,
		    struct ll_error *err)
{
	int k = strcmp(which, LL_PERCPU_NAME) == 0 ? KIND_PERCPU : KIND_GLOBALS;

	*out = NULL;
	if (g->rc[k]) {
		*err = g->err[k];
		return -1;
	}
	*out = g->layout[k];
	g->layout[k] = NULL;
	return 0;
}

void ll_globals_release(struct ll_globals *g)
{
	for (int k = 0; k < NR_KINDS; k++)
		ll_struct_free(g->layout[k]);
	memset(g, 0, sizeof(*g));
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
