/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Behind the reader boundary (reader.h): one table of operations per debug
 * format. reader.c looks at the input, picks one, and forwards every call
 * of the public API to it. Nothing outside the readers includes this.
 *
 * Each table mirrors reader.h exactly: same arguments, same ownership, same
 * lookup semantics (LL_MISSING with a suggestion, LL_DECLARED_ONLY,
 * LL_AMBIGUOUS), so that checks, rules and reporters cannot tell them apart
 * except by what the model leaves empty (BTF: no declaring files).
 */
#ifndef LAYOUTLINT_READER_IMPL_H
#define LAYOUTLINT_READER_IMPL_H

#include "input/elf/globals.h"
#include "input/reader.h"
#include "model/access.h"

/*
 * One debug format's reader, as git's ref_storage_be or pahole's
 * debug_fmt_ops: reader.c picks a table and calls through it. STATE is the
 * reader's own (opaque here); open may set *STATE even when it fails, and
 * close takes NULL.
 *
 * RAW (BTF only): PATH is a raw BTF blob (magic 0xeB9F), otherwise an ELF
 * file with a .BTF section. opts->btf_base, when set, is the base BTF of
 * PATH's split BTF (a kernel module's).
 */
struct ll_input_ops {
	const char *name;
	int (*open)(const char *path, bool raw, const struct ll_input_options *opts,
		    void **state, struct ll_error *err);
	void (*close)(void *state);
	const char *(*build_id)(const void *state);
	unsigned (*arch_cacheline)(const void *state);
	int (*lookup)(void *state, const struct ll_query *queries, size_t n,
		      struct ll_lookup_result *results, struct ll_error *err);
	int (*list)(void *state, const char *lookup_glob, char ***names, size_t *n,
		    struct ll_error *err);
	/*
	 * Optional (NULL: the format records none): the variables at fixed
	 * addresses, with types and declarations, for the global variables
	 * aggregate (input/elf/globals.h).
	 */
	int (*variables)(void *state, struct ll_variables *out, struct ll_error *err);
	/*
	 * Optional (NULL: never): whether variables() may run now on another
	 * thread, beside lookup(): it would read and write nothing a lookup
	 * does (the listing read every variable, and left libdw none).
	 */
	bool (*variables_alone)(void *state);
	/*
	 * Optional (NULL: the format has no code to read): the static access
	 * evidence of each of STRUCTS (N of them) from the image's machine
	 * code, into OUT[i] (input/access/access.h).
	 */
	int (*access)(void *state, const struct ll_struct *const *structs, size_t n,
		      bool cached_only, struct ll_access_evidence **out, struct ll_error *err);
	/* Optional: the evidence of every struct of the image at once. */
	int (*access_all)(void *state, struct ll_access_image *out, struct ll_error *err);
};

/* DWARF, through libdw/libdwfl (dwarf/dwarf_reader.c). */
extern const struct ll_input_ops ll_dwarf_input_ops;
/* BTF, through libbpf (btf/btf_reader.c). */
extern const struct ll_input_ops ll_btf_input_ops;

/* Do the first two bytes of a file hold BTF_MAGIC (0xeB9F), in either byte order? */
static inline bool ll_btf_magic(const unsigned char *b)
{
	return (b[0] == 0x9f && b[1] == 0xeb) || (b[0] == 0xeb && b[1] == 0x9f);
}

#endif
