// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader boundary as a dispatch: look at the input once, then forward
 * every call to the DWARF reader (dwarf_reader.c) or the BTF reader
 * (btf_reader.c). The rules for which format wins are in reader.h.
 */
#include "input/reader_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/elf/globals.h"
#include "input/elf/thin_archive.h"
#include "util/read_file.h"
#include "util/threads.h"
#include "util/strbuf.h"

struct ll_input {
	const struct ll_input_ops *ops;
	void *state;
	char *path;
	/*
	 * The debug format's variables, read once for both globals queries
	 * (global variables, global percpu): on a vmlinux the walk reads all
	 * of .debug_info.
	 */
	struct ll_variables debug_vars;
	bool have_debug_vars;
	/* Both globals aggregates, read at the first globals query; each taken once. */
	struct ll_globals globals;
	bool have_globals, globals_taken[2];
	/*
	 * ll_input_globals_ahead(): GLOBALS read on a thread of its own, the
	 * symbol table first. The debug variables next, by that thread too
	 * where the format says they share nothing with a lookup (VARS_HERE);
	 * else this thread reads them and says so (VARS_READY under LOCK).
	 */
	struct {
		pthread_t thread;
		bool running;
		bool vars_here;
		bool vars_failed;	/* the debug variables' error is VARS_ERR, to report */
		struct ll_error vars_err;
		unsigned cacheline;
		pthread_mutex_t lock;
		pthread_cond_t ready;
		bool vars_ready;
		/* the thread's: its result, and whether it built GLOBALS */
		int rc;
		bool built;
		struct ll_error err;
	} ahead;
};

/* Which of .BTF and .debug_info an ELF file carries (with bytes in it). */
static void elf_sections(int fd, bool *has_btf, bool *has_dwarf)
{
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	*has_btf = *has_dwarf = false;
	elf_version(EV_CURRENT);
	/*
	 * Read, not mapped: only the headers and the section names are
	 * needed, and mapping a 340 MB vmlinux to unmap it again slowed a
	 * warm lookup (bench/RESULTS.md).
	 */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return;
	if (elf_kind(elf) == ELF_K_ELF && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr shdr;
			const char *name;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS || !shdr.sh_size)
				continue;
			name = elf_strptr(elf, shstrndx, shdr.sh_name);
			if (!name)
				continue;
			if (strcmp(name, ".BTF") == 0)
				*has_btf = true;
			else if (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0)
				*has_dwarf = true;
		}
	}
	elf_end(elf);
}

/*
 * Decide the format from the first bytes and the section table. Files that
 * cannot be read at all go to the DWARF reader, which words those errors
 * (missing file, directory, not ELF) as it always has.
 */
static int detect(const char *path, const struct ll_input_options *opts,
		  const struct ll_input_ops **format, bool *raw, struct ll_error *err)
{
	bool want_btf = opts && (opts->prefer_btf || opts->btf_base);
	unsigned char magic[8];
	bool has_btf, has_dwarf;
	ssize_t got;
	int fd, why;

	*format = &ll_dwarf_input_ops;
	*raw = false;
	fd = ll_open_regular(path, &why);
	if (fd < 0 && why == LL_READ_NOT_REGULAR)
		return ll_fail(err, "%s: %s", path, ll_read_error_text(why, 0));
	if (fd < 0)
		return 0;	/* the reader says why, as it opens it */
	got = read(fd, magic, sizeof(magic));
	/* kbuild's built-in.a is a thin archive: it names objects, holds none. */
	if (got == 8 && (memcmp(magic, "!<thin>\n", 8) == 0 || memcmp(magic, "!<arch>\n", 8) == 0)) {
		bool thin = magic[2] == 't';

		close(fd);
		if (thin)
			return ll_fail(err, "%s: a thin archive, which only names its objects: "
				       "lint it (layoutlint reads each member) or name one of its "
				       "objects here (ar t %s lists them)", path, path);
		return ll_fail(err, "%s: an ar archive, not an object: name one of its objects "
			       "instead (ar t %s lists them; ar x extracts them)", path, path);
	}
	if (got >= 2 && ll_btf_magic(magic)) {
		*format = &ll_btf_input_ops;
		*raw = true;
	} else if (got >= 4 && memcmp(magic, ELFMAG, SELFMAG) == 0) {
		elf_sections(fd, &has_btf, &has_dwarf);
		if (want_btf && !has_btf) {
			close(fd);
			return ll_fail(err, "%s: %s: no .BTF section in this ELF file (a kernel "
				       "built with CONFIG_DEBUG_INFO_BTF=y has one; pahole -J adds "
				       "one)", path, opts->btf_base ? "--btf-base" : "--btf");
		}
		if (has_btf && (want_btf || !has_dwarf))
			*format = &ll_btf_input_ops;
	} else if (want_btf && got >= 0) {
		close(fd);
		return ll_fail(err, "%s: %s: neither raw BTF (magic 0xeB9F) nor an ELF file", path,
			       opts->btf_base ? "--btf-base" : "--btf");
	}
	close(fd);
	return 0;
}

int ll_input_open(const char *path, const struct ll_input_options *opts,
		  struct ll_input **out, struct ll_error *err)
{
	struct ll_input *in = xcalloc(1, sizeof(*in));
	bool raw;

	*out = in;
	in->path = xstrdup(path);
	if (detect(path, opts, &in->ops, &raw, err))
		return -1;
	return in->ops->open(path, raw, opts, &in->state, err);
}

/* The debug format's variables, once: both globals aggregates read them. */
static int read_debug_vars(struct ll_input *in, struct ll_error *err)
{
	if (in->have_debug_vars || !in->ops->variables)
		return 0;
	if (in->ops->variables(in->state, &in->debug_vars, err)) {
		ll_variables_release(&in->debug_vars);
		return -1;
	}
	in->have_debug_vars = true;
	return 0;
}

/* Wait until the main thread has read the debug variables (or failed to). */
static void wait_for_debug_vars(struct ll_input *in)
{
	pthread_mutex_lock(&in->ahead.lock);
	while (!in->ahead.vars_ready)
		pthread_cond_wait(&in->ahead.ready, &in->ahead.lock);
	pthread_mutex_unlock(&in->ahead.lock);
}

static void *read_globals_ahead(void *arg)
{
	struct ll_input *in = arg;
	struct ll_globals_symbols *syms;

	in->ahead.rc = ll_globals_symbols_read(in->path, &syms, &in->ahead.err);
	if (in->ahead.vars_here)
		in->ahead.vars_failed = read_debug_vars(in, &in->ahead.vars_err) != 0;
	else
		wait_for_debug_vars(in);
	if (!in->ahead.rc && !in->ahead.vars_failed) {
		ll_globals_symbols_build(syms, in->ahead.cacheline, &in->debug_vars, &in->globals);
		in->ahead.built = true;
	}
	ll_globals_symbols_release(syms);
	return NULL;
}

void ll_input_globals_ahead(struct ll_input *in)
{
	if (in->ahead.running || in->ahead.vars_failed || in->have_globals || ll_threads() < 2)
		return;
	in->ahead.cacheline = ll_input_arch_cacheline(in);
	in->ahead.vars_ready = in->ahead.built = false;
	/* Converting the listing's ~48,000 variables held this lookup back (bench/RESULTS.md). */
	in->ahead.vars_here = !in->have_debug_vars && in->ops->variables_alone &&
			      in->ops->variables_alone(in->state);
	pthread_mutex_init(&in->ahead.lock, NULL);
	pthread_cond_init(&in->ahead.ready, NULL);
	/* The symbol table needs nothing of the debug format: read while it is. */
	in->ahead.running = pthread_create(&in->ahead.thread, NULL, read_globals_ahead, in) == 0;
	if (!in->ahead.running) {
		pthread_mutex_destroy(&in->ahead.lock);
		pthread_cond_destroy(&in->ahead.ready);
		return;	/* the globals query reads them all */
	}
	if (in->ahead.vars_here)
		return;
	/*
	 * A failure is the globals query's to report, after the lookup's
	 * own: kept, since the reader gave up the listing's variables in
	 * reading them.
	 */
	in->ahead.vars_failed = read_debug_vars(in, &in->ahead.vars_err) != 0;
	pthread_mutex_lock(&in->ahead.lock);
	in->ahead.vars_ready = true;
	pthread_cond_signal(&in->ahead.ready);
	pthread_mutex_unlock(&in->ahead.lock);
}

/* The thread of ll_input_globals_ahead() done: GLOBALS are read, or RC and ERR say why not. */
static void join_globals_ahead(struct ll_input *in)
{
	pthread_join(in->ahead.thread, NULL);
	in->ahead.running = false;
	pthread_mutex_destroy(&in->ahead.lock);
	pthread_cond_destroy(&in->ahead.ready);
	if (!in->ahead.built)
		return;
	in->have_globals = true;
	in->globals_taken[0] = in->globals_taken[1] = false;
}

void ll_input_close(struct ll_input *in)
{
	if (!in)
		return;
	if (in->ahead.running)
		join_globals_ahead(in);
	if (in->ops)
		in->ops->close(in->state);
	ll_variables_release(&in->debug_vars);
	ll_globals_release(&in->globals);
	free(in->path);
	free(in);
}

const char *ll_input_build_id(const struct ll_input *in)
{
	return in->ops->build_id(in->state);
}

unsigned ll_input_arch_cacheline(const struct ll_input *in)
{
	return in->ops->arch_cacheline(in->state);
}

static int escape_member(struct ll_member *m, int depth, void *arg)
{
	(void)depth;
	(void)arg;
	ll_escape_in_place(&m->name);
	ll_escape_in_place(&m->path);
	ll_escape_in_place(&m->type);
	ll_escape_in_place(&m->decl.file);
	return 0;
}

/*
 * No C name holds a control character, but a binary's names and file
 * names are whatever its producer wrote: escaped once here, they reach
 * every report, baseline and message the same way (see sb_add_escaped).
 */
static void escape_model(struct ll_struct *s)
{
	ll_escape_in_place(&s->name);
	ll_escape_in_place(&s->decl.file);
	ll_visit(s->members, s->nr_members, escape_member, NULL);
}

/* A globals query: the symbol table answers it, whatever the debug format. */
static int lookup_globals(struct ll_input *in, const struct ll_query *q,
			  struct ll_lookup_result *r, struct ll_error *err)
{
	memset(r, 0, sizeof(*r));
	if (strcmp(q->name, LL_GLOBALS_NAME) != 0 && strcmp(q->name, LL_PERCPU_NAME) != 0) {
		r->status = LL_MISSING;
		r->detail = xstrdup("there are global " LL_GLOBALS_NAME " and global " LL_PERCPU_NAME);
		return 0;
	}
	if (in->ahead.running)
		join_globals_ahead(in);
	/* The variables' error first, as when they were read before the symbol table. */
	if (in->ahead.vars_failed) {
		in->ahead.vars_failed = false;
		*err = in->ahead.vars_err;
		return -1;
	}
	if (in->ahead.rc) {
		in->ahead.rc = 0;
		*err = in->ahead.err;
		return -1;
	}
	if (read_debug_vars(in, err))
		return -1;
	/*
	 * Both aggregates are read at the first globals query: the symbol
	 * table once, not once each. A query of a kind taken already (asked
	 * twice) reads them again.
	 */
	int kind = strcmp(q->name, LL_PERCPU_NAME) == 0;	/* ll_globals' index */

	if (!in->have_globals || in->globals_taken[kind]) {
		ll_globals_release(&in->globals);
		in->have_globals = false;
		if (ll_globals_read(in->path, ll_input_arch_cacheline(in), &in->debug_vars,
				    &in->globals, err))
			return -1;
		in->have_globals = true;
		in->globals_taken[0] = in->globals_taken[1] = false;
	}
	in->globals_taken[kind] = true;
	if (ll_globals_take(&in->globals, q->name, &r->layout, err))
		return -1;
	r->status = r->layout ? LL_FOUND : LL_MISSING;
	r->escaped = true;	/* ll_globals_read() escapes as it copies */
	if (!r->layout)
		r->detail = xstrdup(strcmp(q->name, LL_PERCPU_NAME) == 0 ?
				    "no .data..percpu variables" :
				    "no variables in writable data sections");
	return 0;
}

/*
 * The debug format's reader answers the other queries, in one pass. Every
 * result is set (zeroed at worst) before anything can fail, so that the
 * caller's release on failure frees exactly what was made.
 */
static int lookup_split(struct ll_input *in, const struct ll_query *queries, size_t n,
			struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_query *rest = xcalloc(n ? n : 1, sizeof(*rest));
	struct ll_lookup_result *got = xcalloc(n ? n : 1, sizeof(*got));
	size_t nrest = 0;
	int rc = 0;

	memset(results, 0, n * sizeof(*results));
	for (size_t i = 0; i < n; i++)
		if (queries[i].kind != LL_QUERY_GLOBALS)
			rest[nrest++] = queries[i];
	if (nrest)
		rc = in->ops->lookup(in->state, rest, nrest, got, err);
	/* What the reader made before it failed is freed here, as below for the rest. */
	for (size_t k = 0; rc && k < nrest; k++)
		ll_lookup_result_release(&got[k]);
	for (size_t i = 0, k = 0; i < n && !rc; i++)
		if (queries[i].kind != LL_QUERY_GLOBALS)
			results[i] = got[k++];
	for (size_t i = 0; i < n && !rc; i++)
		if (queries[i].kind == LL_QUERY_GLOBALS)
			rc = lookup_globals(in, &queries[i], &results[i], err);
	free(rest);
	free(got);
	return rc;
}

/* A query's own digest, called by escape_then_digest() on an escaped model. */
struct digest_shim {
	void (*fn)(struct ll_struct *s, void *arg);
	void *arg;
};

/* A digest sees the model as every other caller does: escaped (escape_model()). */
static void escape_then_digest(struct ll_struct *s, void *arg)
{
	const struct digest_shim *shim = arg;

	escape_model(s);
	shim->fn(s, shim->arg);
}

int ll_input_lookup(struct ll_input *in, const struct ll_query *queries, size_t n,
		    struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_query *asked = xcalloc(n ? n : 1, sizeof(*asked));
	struct digest_shim *shims = xcalloc(n ? n : 1, sizeof(*shims));
	bool globals = false;
	int rc;

	for (size_t i = 0; i < n; i++) {
		globals |= queries[i].kind == LL_QUERY_GLOBALS;
		asked[i] = queries[i];
		if (!queries[i].digest)
			continue;
		shims[i] = (struct digest_shim){ queries[i].digest, queries[i].digest_arg };
		asked[i].digest = escape_then_digest;
		asked[i].digest_arg = &shims[i];
	}
	rc = globals ? lookup_split(in, asked, n, results, err) :
		       in->ops->lookup(in->state, asked, n, results, err);
	free(asked);
	free(shims);

	/* A failed lookup leaves the caller nothing to release. */
	if (rc)
		for (size_t i = 0; i < n; i++)
			ll_lookup_result_release(&results[i]);
	for (size_t i = 0; i < n && !rc; i++) {
		ll_escape_in_place(&results[i].detail);
		if (results[i].layout && !results[i].digested && !results[i].escaped)
			escape_model(results[i].layout);
	}
	return rc;
}

int ll_input_list(struct ll_input *in, const char *lookup_glob, char ***names, size_t *n,
		  struct ll_error *err)
{
	return in->ops->list(in->state, lookup_glob, names, n, err);
}

int ll_input_access(struct ll_input *in, const struct ll_struct *const *structs, size_t n,
		    bool cached_only, struct ll_access_evidence **out, struct ll_error *err)
{
	if (!in->ops->access && cached_only)
		return 0;
	if (!in->ops->access)
		return ll_fail(err, "%s: --access reads machine code with its DWARF; %s has no code "
			       "to read", in->path, in->ops->name);
	return in->ops->access(in->state, structs, n, cached_only, out, err);
}

int ll_input_access_all(struct ll_input *in, struct ll_access_image *out, struct ll_error *err)
{
	if (!in->ops->access_all)
		return ll_fail(err, "%s: --access reads machine code with its DWARF; %s has no code "
			       "to read", in->path, in->ops->name);
	return in->ops->access_all(in->state, out, err);
}

void ll_lookup_result_release(struct ll_lookup_result *r)
{
	ll_struct_free(r->layout);
	free(r->detail);
	r->layout = NULL;
	r->detail = NULL;
}

int ll_input_archive_members(const char *path, char ***members, size_t *n,
			     struct ll_error *err)
{
	return ll_thin_archive_members(path, members, n, err);
}
