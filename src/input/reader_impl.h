/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Behind the reader boundary (reader.h): one set of functions per debug
 * format. reader.c looks at the input, picks one, and forwards every call
 * of the public API to it. Nothing outside the readers includes this.
 *
 * Each set mirrors reader.h exactly: same arguments, same ownership, same
 * lookup semantics (LL_MISSING with a suggestion, LL_DECLARED_ONLY,
 * LL_AMBIGUOUS), so that checks, rules and reporters cannot tell them apart
 * except by what the model leaves empty (BTF: no declaring files).
 */
#ifndef LAYOUTLINT_READER_IMPL_H
#define LAYOUTLINT_READER_IMPL_H

#include "input/reader.h"

/* DWARF, through libdw/libdwfl (dwarf_reader.c). */
struct ll_dwarf_input;

int ll_dwarf_input_open(const char *path, const struct ll_input_options *opts,
			struct ll_dwarf_input **out, struct ll_error *err);
void ll_dwarf_input_close(struct ll_dwarf_input *in);
const char *ll_dwarf_input_build_id(const struct ll_dwarf_input *in);
unsigned ll_dwarf_input_arch_cacheline(const struct ll_dwarf_input *in);
int ll_dwarf_input_lookup(struct ll_dwarf_input *in, const struct ll_query *queries, size_t n,
			  struct ll_lookup_result *results, struct ll_error *err);
int ll_dwarf_input_list(struct ll_dwarf_input *in, char ***names, size_t *n,
			struct ll_error *err);

/*
 * BTF, through libbpf (btf_reader.c). RAW: PATH is a raw BTF blob (magic
 * 0xeB9F), otherwise an ELF file with a .BTF section. opts->btf_base, when
 * set, is the base BTF of PATH's split BTF (a kernel module's).
 */
struct ll_btf_input;

int ll_btf_input_open(const char *path, bool raw, const struct ll_input_options *opts,
		      struct ll_btf_input **out, struct ll_error *err);
void ll_btf_input_close(struct ll_btf_input *in);
const char *ll_btf_input_build_id(const struct ll_btf_input *in);
unsigned ll_btf_input_arch_cacheline(const struct ll_btf_input *in);
int ll_btf_input_lookup(struct ll_btf_input *in, const struct ll_query *queries, size_t n,
			struct ll_lookup_result *results, struct ll_error *err);
int ll_btf_input_list(struct ll_btf_input *in, char ***names, size_t *n, struct ll_error *err);

/* Shared: the cacheline size of an ELF machine (64; 128 ppc64; 256 s390x). */
unsigned ll_elf_arch_cacheline(unsigned machine, unsigned char elfclass);

/* Do the first two bytes of a file hold BTF_MAGIC (0xeB9F), in either byte order? */
static inline bool ll_btf_magic(const unsigned char *b)
{
	return (b[0] == 0x9f && b[1] == 0xeb) || (b[0] == 0xeb && b[1] == 0x9f);
}

#endif
