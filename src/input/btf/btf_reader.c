// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BTF -> layout model, through libbpf (no BTF is parsed by hand here).
 *
 * Inputs: a raw BTF blob (/sys/kernel/btf/vmlinux, objcopy --dump-section
 * .BTF=FILE), or an ELF file's .BTF section (vmlinux, a .ko, an object
 * after pahole -J). A kernel module's BTF is split BTF: its type ids
 * continue the vmlinux's, so it needs that base (--btf-base; for
 * /sys/kernel/btf/MODULE the base is /sys/kernel/btf/vmlinux).
 *
 * The model is filled exactly as the DWARF reader fills it (offsets, sizes,
 * bitfields, every nested aggregate expanded, types spelled as C does), so
 * that everything after the reader works unchanged. What BTF lacks:
 *  - declaring files and lines: every decl stays empty (file NULL);
 *  - alignment attributes: alignment is inferred from member types and
 *    offsets (by the same rules the DWARF reader applies when DWARF has no
 *    DW_AT_alignment), and ll_struct.alignment_inferred says so;
 *  - the machine: the cacheline comes from the ELF container's e_machine,
 *    or is 64 for raw BTF (see input_cacheline()).
 */
#include "input/reader_impl.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/elf/elf_section.h"
#include "model/builder.h"
#include "util/read_file.h"
#include "util/strbuf.h"

/* Bounds that keep hostile BTF from costing unbounded work (as for DWARF). */
#define MAX_NESTING 64
#define MAX_MEMBERS 1000000
#define MAX_TYPE_DEPTH 64
#define MAX_SIZE LL_MAX_STRUCT_SIZE

struct ll_btf_input {
	char *path;
	struct ll_notes *notes;	/* the caller's (ll_input_options) */
	struct btf *btf;
	struct btf *base;	/* split BTF: the base it extends */
	char *build_id;
	unsigned arch_cacheline;
	uint64_t ptr_size;
	struct ll_target target;	/* whose ABI aligns base types; EM_NONE: natural */
	/*
	 * Per type id, filled as structs are built (types never change):
	 * whether the type holds itself by value (enum containment), and the
	 * alignment of each aggregate (0: not known yet). Without the first a
	 * struct B { struct B a, b; } (libbpf accepts it) is expanded without
	 * end; without the second, alignment is recomputed once per path to
	 * each type, k^64 calls for k members.
	 */
	unsigned char *containment;
	unsigned char *align;
	__u32 nr_types;
	/*
	 * Members all lookups of this input may build together: a DAG of
	 * structs that each hold several of the next is legal and expands
	 * exponentially, so the model of a 1 KB input could take 1,000,000
	 * members (hundreds of MB). Real structs expand each member record
	 * of the input a few times at most: MEMBERS_PER_RECORD per record,
	 * or MEMBERS_FLOOR for small inputs.
	 */
	size_t member_budget, members_built;
};

#define MEMBERS_PER_RECORD 16
#define MEMBERS_FLOOR 100000

enum containment {
	UNSEEN,		/* not visited yet */
	ON_PATH,	/* on the walk's current path */
	FINITE,		/* holds nothing that holds itself */
	RECURSIVE,	/* holds itself, directly or through what it holds */
};

/* ---- opening ----------------------------------------------------------- */

/*
 * libbpf says why it failed through its print callback, at debug level for
 * malformed BTF: keep the last message (printed only if the open fails).
 */
static char libbpf_msg[256];

static int capture_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t len;

	(void)level;
	vsnprintf(libbpf_msg, sizeof(libbpf_msg), fmt, ap);
	if (strncmp(libbpf_msg, "libbpf: ", 8) == 0)
		memmove(libbpf_msg, libbpf_msg + 8, strlen(libbpf_msg + 8) + 1);
	len = strlen(libbpf_msg);
	while (len && (libbpf_msg[len - 1] == '\n' || libbpf_msg[len - 1] == ' '))
		libbpf_msg[--len] = '\0';
	return 0;
}

/* errno as libbpf sets it: its own codes start at 4000. */
static const char *errno_text(int e)
{
	static char buf[128];

	if (libbpf_strerror(e, buf, sizeof(buf)) != 0)
		snprintf(buf, sizeof(buf), "%s", strerror(e));
	return buf;
}

/* ": why" from libbpf, or "" when it said nothing. */
static const char *libbpf_detail(void)
{
	static char buf[sizeof(libbpf_msg) + 2];

	if (!libbpf_msg[0])
		return "";
	snprintf(buf, sizeof(buf), ": %s", libbpf_msg);
	return buf;
}

static char *hex(const unsigned char *id, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	sb_add_hex(&sb, id, len);
	return sb_detach(&sb);
}

/* The GNU build-id note in a buffer of ELF notes (4-byte aligned, as Linux writes them). */
static char *build_id_from_notes(const unsigned char *p, size_t size)
{
	size_t off = 0;

	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;
		size_t name_at = off + 12, desc_at, next;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		desc_at = name_at + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_at + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_at > size || next > size || next <= off)
			return NULL;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(p + name_at, "GNU", 4) == 0 &&
		    descsz > 0 && descsz <= 64)
			return hex(p + desc_at, descsz);
		off = next;
	}
	return NULL;
}

/*
 * /sys/kernel/btf/vmlinux is the running kernel's: its build-id is in
 * /sys/kernel/notes, a module's in /sys/module/NAME/notes/.
 */
static char *sysfs_build_id(const char *name)
{
	struct strbuf path = STRBUF_INIT;
	unsigned char buf[4096];
	ssize_t got;
	char *id = NULL;
	int fd;

	if (strcmp(name, "vmlinux") == 0)
		sb_adds(&path, "/sys/kernel/notes");
	else
		sb_addf(&path, "/sys/module/%s/notes/.note.gnu.build-id", name);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	sb_release(&path);
	if (fd < 0)
		return NULL;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got > 0)
		id = build_id_from_notes(buf, (size_t)got);
	return id;
}

/* e_machine and the build-id note of the ELF file that holds the .BTF. */
static void elf_facts(struct ll_btf_input *in)
{
	int fd = open(in->path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && gelf_getehdr(elf, &ehdr)) {
		in->arch_cacheline = ll_elf_arch_cacheline(ehdr.e_machine, ehdr.e_ident[EI_CLASS]);
		in->target = ll_elf_target(&ehdr);
		while (!in->build_id && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr shdr;
			Elf_Data *d;
			GElf_Nhdr nhdr;
			size_t off = 0, name_off, desc_off;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE ||
			    !(d = elf_getdata(scn, NULL)))
				continue;
			while ((off = gelf_getnote(d, off, &nhdr, &name_off, &desc_off)) > 0) {
				if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
				    memcmp((char *)d->d_buf + name_off, "GNU", 4) == 0 &&
				    nhdr.n_descsz > 0 && nhdr.n_descsz <= 64) {
					in->build_id = hex((unsigned char *)d->d_buf + desc_off,
							   nhdr.n_descsz);
					break;
				}
			}
		}
	}
	ll_elf_close(elf, fd);
}

/* "vmlinux" or "xfs" for /sys/kernel/btf/..., else NULL. */
static const char *sysfs_btf_name(const char *path)
{
	static const char prefix[] = "/sys/kernel/btf/";

	if (strncmp(path, prefix, sizeof(prefix) - 1) != 0)
		return NULL;
	path += sizeof(prefix) - 1;
	return *path && !strchr(path, '/') ? path : NULL;
}

/*
 * The cacheline of raw BTF. BTF records no machine, so a raw blob is taken
 * to be x86-64's or arm64's 64 bytes (--cacheline overrides). The one
 * exception is the running kernel's own BTF in /sys/kernel/btf: its
 * machine is the one this layoutlint was built for.
 */
static unsigned raw_cacheline(const char *path)
{
	if (!sysfs_btf_name(path))
		return 64;
#if defined(__powerpc64__)
	return 128;
#elif defined(__s390x__)
	return 256;
#else
	return 64;
#endif
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* A raw BTF file (a --btf-base may be either that or an ELF vmlinux)? */
static bool raw_btf_file(const char *path)
{
	unsigned char magic[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool raw = fd >= 0 && read(fd, magic, 2) == 2 && ll_btf_magic(magic);

	if (fd >= 0)
		close(fd);
	return raw;
}

/*
 * libbpf copies a BTF blob into fresh malloc'd memory and indexes every
 * type in another growing array: for the 5 MB of /sys/kernel/btf/vmlinux,
 * page faults and TLB misses on 4 KiB pages cost more than the parsing
 * (twice the whole run's time under a virtual machine's shadow paging). So before parsing BYTES of BTF, grow the heap once by what
 * libbpf will need, backed by huge pages where the system allows them
 * (THP "madvise" or "always"), fault it in with one call, and keep it
 * (no trimming) for libbpf's allocations. Best effort: any step may fail.
 */
static void prepare_heap(uint64_t bytes)
{
	size_t need, len;
	uintptr_t begin, end;
	char *p;

	if (!bytes || bytes > 64u << 20)
		return;
	need = (size_t)bytes + (4u << 20);
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, (int)need * 2))
		return;
	p = malloc(need);
	if (!p)
		return;
	begin = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	end = ((uintptr_t)p + need) & ~(uintptr_t)4095;
	len = end - begin;
	madvise((void *)begin, len, MADV_HUGEPAGE);
	if (madvise((void *)begin, len, MADV_POPULATE_WRITE) != 0)
		memset(p, 0, need);
	free(p);
}

/*
 * Raw BTF straight from a mapping of the file: libbpf's own reader
 * (btf__parse_raw) reads it into a buffer first, then copies that again.
 * /sys/kernel/btf files can be mapped on recent kernels; elsewhere, or
 * when mapping fails, libbpf reads the file itself. (Split BTF, small, is
 * left to btf__parse_split: libbpf 1.1 does not export btf__new_split.)
 */
static struct btf *parse_raw_mapped(const char *path, bool *tried)
{
	struct btf *btf = NULL;
	struct stat st;
	void *map;
	int fd, saved = 0;

	*tried = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= UINT32_MAX) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (map != MAP_FAILED) {
			*tried = true;
			btf = btf__new(map, (__u32)st.st_size);
			saved = errno;
			munmap(map, (size_t)st.st_size);
		}
	}
	close(fd);
	errno = saved;
	return btf;
}

/*
 * Whether string offset OFF, taken from the base's string section (whose
 * first LEN bytes are BASE_STRS), starts a string there, as every name a
 * module's BTF takes from its own kernel's base does.
 */
static bool starts_base_string(const char *base_strs, __u32 len, __u32 off)
{
	return off == 0 || (off < len && base_strs[off - 1] == '\0');
}

/* The offsets of the names of type T: its own, its members', values', parameters'. */
static __u32 name_offsets(const struct btf_type *t, __u32 i)
{
	if (i == 0)
		return t->name_off;
	i--;
	if (btf_is_composite(t))
		return btf_members(t)[i].name_off;
	if (btf_is_enum(t))
		return btf_enum(t)[i].name_off;
	if (btf_is_enum64(t))
		return btf_enum64(t)[i].name_off;
	return btf_params(t)[i].name_off;	/* a function prototype */
}

static __u32 nr_name_offsets(const struct btf_type *t)
{
	if (btf_is_composite(t) || btf_is_enum(t) || btf_is_enum64(t) || btf_is_func_proto(t))
		return 1 + btf_vlen(t);
	return 1;
}

/*
 * A module's split BTF continues its own kernel's BTF: its type ids start
 * after the base's, and its names are offsets into the base's strings
 * where the base already has them. libbpf stacks it on any base without a
 * check, and a base from another build gives a plausible, wrong layout. So
 * every name the split BTF takes from the base must start a string there:
 * with a foreign base, many land inside strings (measured: thousands for
 * xfs.ko of 6.12 on a 6.18 base; none on its own).
 */
static int check_split_base(const char *path, const char *base_path, const struct btf *btf,
			    const struct btf *base, struct ll_error *err)
{
	__u32 raw_size, strs_len, first = btf__type_cnt(base), cnt = btf__type_cnt(btf);
	const struct btf_header *hdr = btf__raw_data(base, &raw_size);
	const char *strs;
	size_t from_base = 0, inside = 0;

	if (!hdr || raw_size < sizeof(*hdr) || hdr->hdr_len > raw_size ||
	    hdr->str_off > raw_size - hdr->hdr_len || hdr->str_len > raw_size - hdr->hdr_len - hdr->str_off)
		return 0;	/* libbpf validated it; nothing to compare against */
	strs = (const char *)hdr + hdr->hdr_len + hdr->str_off;
	strs_len = hdr->str_len;
	for (__u32 id = first; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		for (__u32 i = 0; t && i < nr_name_offsets(t); i++) {
			__u32 off = name_offsets(t, i);

			if (!off || off >= strs_len)
				continue;
			from_base++;
			inside += !starts_base_string(strs, strs_len, off);
		}
	}
	if (inside)
		return ll_fail(err, "%s: its split BTF does not belong to the base BTF %s: %zu of "
			       "the %zu names it takes from the base start inside a base string "
			       "(a base from another kernel build?)", path, base_path, inside,
			       from_base);
	return 0;
}

/* A module's .BTF.base: its BTF is relative to that distilled base, not to the kernel's. */
static bool has_distilled_base(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr shdr;
			const char *name;

			found = gelf_getshdr(scn, &shdr) &&
				(name = elf_strptr(elf, shstrndx, shdr.sh_name)) &&
				strcmp(name, ".BTF.base") == 0;
		}
	}
	ll_elf_close(elf, fd);
	return found;
}

static size_t member_budget(const struct ll_btf_input *in)
{
	size_t records = 0;

	for (__u32 id = 1; id < in->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(in->btf, id);

		if (t && btf_is_composite(t))
			records += btf_vlen(t);
	}
	return records > MEMBERS_FLOOR / MEMBERS_PER_RECORD ? records * MEMBERS_PER_RECORD :
								MEMBERS_FLOOR;
}

static int ll_btf_input_open(const char *path, bool raw, const struct ll_input_options *opts,
		      struct ll_btf_input **out, struct ll_error *err)
{
	struct ll_btf_input *in = xcalloc(1, sizeof(*in));
	const char *base_path = opts ? opts->btf_base : NULL;
	const char *sysname = sysfs_btf_name(path);
	bool tried = false, base_raw;
	size_t ptr;
	int fd = -1, why;

	in->path = xstrdup(path);
	in->notes = opts ? opts->notes : NULL;
	*out = in;
	libbpf_set_print(capture_libbpf);
	libbpf_msg[0] = '\0';
	if (!base_path && sysname && strcmp(sysname, "vmlinux") != 0)
		base_path = "/sys/kernel/btf/vmlinux";
	if (base_path && (fd = ll_open_regular(base_path, &why)) < 0 && why == LL_READ_NOT_REGULAR)
		return ll_fail(err, "%s: cannot read base BTF: %s", base_path,
			       ll_read_error_text(why, 0));
	if (fd >= 0)
		close(fd);
	base_raw = base_path && raw_btf_file(base_path);
	/* Raw BTF only: an ELF file's size says little about its .BTF's. */
	prepare_heap((raw ? file_size(path) : 0) + (base_raw ? file_size(base_path) : 0));
	if (base_path) {
		in->base = base_raw ? parse_raw_mapped(base_path, &tried) : NULL;
		if (!in->base && !(base_raw && tried))
			in->base = btf__parse(base_path, NULL);
		if (!in->base)
			return ll_fail(err, "%s: cannot read base BTF: %s%s", base_path,
				       errno_text(errno), libbpf_detail());
		libbpf_msg[0] = '\0';
	}
	tried = false;
	if (raw && !in->base)
		in->btf = parse_raw_mapped(path, &tried);
	if (!in->btf && !tried)
		in->btf = in->base ? btf__parse_split(path, in->base) : btf__parse(path, NULL);
	if (!in->btf)
		return ll_fail(err, "%s: cannot read BTF: %s%s%s", path, errno_text(errno),
			       libbpf_detail(), base_path ? "" : " (if this is a kernel module's "
			       "split BTF, give the vmlinux BTF with --btf-base)");
	/*
	 * A distilled base (pahole --btf_features=distilled_base) needs
	 * libbpf's btf__relocate() (1.5) to be laid onto the kernel's BTF;
	 * read as split BTF of the kernel's, its ids would be wrong.
	 */
	if (in->base && !raw && has_distilled_base(path))
		return ll_fail(err, "%s: its BTF is relative to the distilled base in its .BTF.base "
			       "section, which this layoutlint cannot relocate onto %s; read its "
			       "DWARF instead (without --btf-base)", path, base_path);
	if (in->base && check_split_base(path, base_path, in->btf, in->base, err))
		return -1;
	if (raw) {
		in->arch_cacheline = raw_cacheline(path);
		in->build_id = sysname ? sysfs_build_id(sysname) : NULL;
		/* Raw BTF records no machine: the running kernel's is ours. */
		if (sysname)
			in->target = ll_host_target();
	} else {
		in->arch_cacheline = 64;
		elf_facts(in);
	}
	ptr = btf__pointer_size(in->btf);
	in->ptr_size = ptr ? ptr : sizeof(void *);
	in->nr_types = btf__type_cnt(in->btf);
	in->containment = xcalloc(in->nr_types, 1);
	in->align = xcalloc(in->nr_types, 1);
	in->member_budget = member_budget(in);
	return 0;
}

static void btf_close(void *state)
{
	struct ll_btf_input *in = state;

	if (!in)
		return;
	btf__free(in->btf);
	btf__free(in->base);
	ll_free_all(in->containment, in->align, in->build_id, in->path, in);
}

static const char *btf_build_id(const void *state)
{
	const struct ll_btf_input *in = state;

	return in->build_id;
}

static unsigned btf_arch_cacheline(const void *state)
{
	const struct ll_btf_input *in = state;

	return in->arch_cacheline;
}

/* ---- types ------------------------------------------------------------- */

static const struct btf_type *type_of(const struct ll_btf_input *in, __u32 id)
{
	return btf__type_by_id(in->btf, id);
}

static const char *name_of(const struct ll_btf_input *in, const struct btf_type *t)
{
	const char *name = t ? btf__name_by_offset(in->btf, t->name_off) : NULL;

	return name && *name ? name : NULL;
}

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* Follow typedefs, qualifiers and type tags down to the type that has a shape. */
static const struct btf_type *peel(const struct ll_btf_input *in, __u32 id, __u32 *out_id)
{
	for (int i = 0; i < MAX_TYPE_DEPTH && id; i++) {
		const struct btf_type *t = type_of(in, id);

		if (!t)
			return NULL;
		if (!is_modifier(t)) {
			if (out_id)
				*out_id = id;
			return t;
		}
		id = t->type;
	}
	return NULL;	/* void, or a chain too long to be real */
}

/* Type tags (__rcu, __user with clang) are not part of the C spelling. */
static __u32 skip_type_tags(const struct ll_btf_input *in, __u32 id)
{
	for (int i = 0; i < MAX_TYPE_DEPTH && id; i++) {
		const struct btf_type *t = type_of(in, id);

		if (!t || !btf_is_type_tag(t))
			return id;
		id = t->type;
	}
	return id;
}

/* ---- C spelling (the counterpart of ctype_name.c) ----------------------- */

static void finish_base(struct strbuf *out, const char *base, const struct strbuf *decl)
{
	sb_adds(out, base);
	if (decl->len && decl->buf[0] != '[')
		sb_addc(out, ' ');
	sb_add(out, decl->buf ? decl->buf : "", decl->len);
}

static void add_named(struct strbuf *out, const char *kw, const char *name)
{
	if (kw) {
		sb_adds(out, kw);
		sb_addc(out, ' ');
	}
	sb_adds(out, name ? name : (kw ? "{...}" : "<anonymous>"));
}

static void spell(const struct ll_btf_input *in, __u32 id, struct strbuf *decl,
		  struct strbuf *out, int depth);

static void add_params(const struct ll_btf_input *in, const struct btf_type *fn,
		       struct strbuf *decl, int depth)
{
	const struct btf_param *p = btf_params(fn);
	__u16 n = btf_vlen(fn);

	sb_addc(decl, '(');
	for (__u16 i = 0; i < n; i++) {
		struct strbuf pd = STRBUF_INIT, ps = STRBUF_INIT;

		if (i)
			sb_adds(decl, ", ");
		if (i == n - 1 && p[i].type == 0 && p[i].name_off == 0) {
			sb_adds(decl, "...");	/* variadic */
			break;
		}
		spell(in, p[i].type, &pd, &ps, depth + 1);
		sb_add(decl, ps.buf ? ps.buf : "", ps.len);
		sb_release(&pd);
		sb_release(&ps);
	}
	/*
	 * BTF cannot tell "void (*)(void)" from the unprototyped "void (*)()":
	 * C11 code means the first.
	 */
	if (n == 0)
		sb_adds(decl, "void");
	sb_addc(decl, ')');
}

static void spell(const struct ll_btf_input *in, __u32 id, struct strbuf *decl,
		  struct strbuf *out, int depth)
{
	const struct btf_type *t, *next;
	struct strbuf base = STRBUF_INIT;
	__u32 next_id;

	if (depth > MAX_TYPE_DEPTH) {
		finish_base(out, "<type chain too deep>", decl);
		return;
	}
	id = skip_type_tags(in, id);
	if (id == 0) {
		finish_base(out, "void", decl);
		return;
	}
	t = type_of(in, id);
	if (!t) {
		finish_base(out, "<bad type id>", decl);
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		sb_insert(decl, 0, "*");
		next_id = skip_type_tags(in, t->type);
		next = next_id ? type_of(in, next_id) : NULL;
		if (next && (btf_is_array(next) || btf_is_func_proto(next))) {
			sb_insert(decl, 0, "(");
			sb_addc(decl, ')');
		}
		spell(in, next_id, decl, out, depth + 1);
		return;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: {
		const char *q = btf_is_const(t) ? "const" : btf_is_volatile(t) ? "volatile" :
										 "restrict";

		next_id = skip_type_tags(in, t->type);
		next = next_id ? type_of(in, next_id) : NULL;
		if (next && btf_is_ptr(next)) {
			/* Qualifies the pointer itself: "char *const p". */
			if (decl->len)
				sb_insert(decl, 0, " ");
			sb_insert(decl, 0, q);
			spell(in, next_id, decl, out, depth + 1);
			return;
		}
		ll_c_qualify(out, q);
		spell(in, next_id, decl, out, depth + 1);
		return;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		/* BTF spells "[0]" and the flexible "[]" alike; "[]" is what C means now. */
		if (a->nelems)
			sb_addf(decl, "[%u]", a->nelems);
		else
			sb_adds(decl, "[]");
		spell(in, a->type, decl, out, depth + 1);
		return;
	}
	case BTF_KIND_FUNC_PROTO:
		add_params(in, t, decl, depth);
		spell(in, t->type, decl, out, depth + 1);
		return;
	case BTF_KIND_STRUCT:
		add_named(&base, "struct", name_of(in, t));
		break;
	case BTF_KIND_UNION:
		add_named(&base, "union", name_of(in, t));
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		add_named(&base, "enum", name_of(in, t));
		break;
	case BTF_KIND_FWD:
		add_named(&base, btf_kflag(t) ? "union" : "struct", name_of(in, t));
		break;
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		add_named(&base, NULL, ll_c_base_name(name_of(in, t)));
		break;
	default:	/* typedef */
		add_named(&base, NULL, name_of(in, t));
		break;
	}
	finish_base(out, base.buf, decl);
	sb_release(&base);
}

static char *c_type(const struct ll_btf_input *in, __u32 id)
{
	struct strbuf decl = STRBUF_INIT, out = STRBUF_INIT;

	spell(in, id, &decl, &out, 0);
	sb_release(&decl);
	return sb_detach(&out);
}

/* ---- bitfields, sizes, alignment --------------------------------------- */

/*
 * Member I of AGG: its bit offset in AGG and its bitfield width (0: not a
 * bitfield). kind_flag set: both are in the member (btf_member_*). Without
 * it, older producers encoded a bitfield as an int type of fewer bits,
 * with a bit offset of its own.
 */
static void member_bits(const struct ll_btf_input *in, const struct btf_type *agg, __u32 i,
			uint64_t *bit_offset, uint64_t *bit_size)
{
	const struct btf_member *m = btf_members(agg) + i;

	*bit_offset = btf_member_bit_offset(agg, i);
	*bit_size = btf_member_bitfield_size(agg, i);
	if (!btf_kflag(agg)) {
		const struct btf_type *t = peel(in, m->type, NULL);

		if (t && btf_is_int(t) &&
		    (btf_int_offset(t) || btf_int_bits(t) != t->size * 8)) {
			*bit_offset += btf_int_offset(t);
			*bit_size = btf_int_bits(t);
		}
	}
}

static uint64_t aggregate_alignment(const struct ll_btf_input *in, __u32 id,
				    const struct btf_type *agg, int depth);

/*
 * Alignment by the rules reader_types.c's reader_type_alignment() applies to
 * DWARF without DW_AT_alignment (the target's ABI, elf_section.h). Not btf__align_of(): that caps scalars
 * at the pointer size (x86-64 aligns long double and __int128 to 16), and
 * follows cycles of hostile BTF without a bound.
 */
static uint64_t type_alignment(const struct ll_btf_input *in, __u32 id, int depth)
{
	const struct btf_type *t;
	uint64_t sz;

	if (depth > MAX_NESTING || id == 0 || !(t = type_of(in, id)))
		return 1;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return aggregate_alignment(in, id, t, depth + 1);
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return type_alignment(in, t->type, depth + 1);
	case BTF_KIND_ARRAY:
		return type_alignment(in, btf_array(t)->type, depth + 1);
	case BTF_KIND_PTR:
		return in->ptr_size;
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT: {
		const char *name = name_of(in, t);

		sz = t->size;
		if (!sz)
			return 1;
		/* A complex type is aligned as its parts (pahole keeps the name only). */
		if (name && strstr(name, "omplex"))
			sz /= 2;
		return ll_base_type_alignment(in->target, sz);
	}
	default:
		return 1;
	}
}

static uint64_t aggregate_alignment_uncached(const struct ll_btf_input *in,
					     const struct btf_type *agg, int depth);

/* Memoised by type id (see ll_btf_input.align); AGG is type ID. */
static uint64_t aggregate_alignment(const struct ll_btf_input *in, __u32 id,
				    const struct btf_type *agg, int depth)
{
	uint64_t align;

	if (id >= in->nr_types)
		return aggregate_alignment_uncached(in, agg, depth);
	if (in->align[id])
		return in->align[id] == UCHAR_MAX ? 1 : in->align[id];	/* UCHAR_MAX: a cycle */
	in->align[id] = UCHAR_MAX;
	align = aggregate_alignment_uncached(in, agg, depth);
	/* Natural alignments are at most 16 (or the pointer size): they fit. */
	in->align[id] = align < UCHAR_MAX ? (unsigned char)align : 1;
	return align;
}

static uint64_t aggregate_alignment_uncached(const struct ll_btf_input *in,
					     const struct btf_type *agg, int depth)
{
	const struct btf_member *m = btf_members(agg);
	uint64_t best = 1;

	if (depth > MAX_NESTING)
		return 1;
	for (__u32 i = 0; i < btf_vlen(agg); i++) {
		uint64_t ma = type_alignment(in, m[i].type, depth + 1), bo, bits;

		member_bits(in, agg, i, &bo, &bits);
		/* A member packed on its own sits misaligned and adds nothing. */
		if (!bits && ma && (bo / 8) % ma)
			continue;
		if (ma > best)
			best = ma;
	}
	/* __attribute__((packed)) shows in a size that is not a multiple of the alignment. */
	while (best > 1 && agg->size % best)
		best /= 2;
	return best;
}

/* ---- types that hold themselves ----------------------------------------- */

/* How many types T holds by value (pointers hold none), and the Ith of them. */
static __u32 held_count(const struct btf_type *t)
{
	if (btf_is_composite(t))
		return btf_vlen(t);
	return is_modifier(t) || btf_is_array(t) ? 1 : 0;
}

static __u32 held_type(const struct btf_type *t, __u32 i)
{
	if (btf_is_composite(t))
		return btf_members(t)[i].type;
	return btf_is_array(t) ? btf_array(t)->type : t->type;
}

/*
 * Does type ID hold itself by value, directly or through what it holds?
 * No C type can, but libbpf accepts such BTF. A depth-first walk with an
 * explicit stack (a hostile chain may be as long as the type count), its
 * verdicts kept per type id so that every type is walked once per input.
 * *CYCLE: a type on the cycle found.
 */
static bool holds_itself(const struct ll_btf_input *in, __u32 id, __u32 *cycle)
{
	struct frame {
		__u32 id, next;
	} *stack = NULL;
	size_t depth = 0;
	bool recursive = false;

	if (id >= in->nr_types || in->containment[id] == FINITE)
		return false;
	if (in->containment[id] == RECURSIVE) {
		*cycle = id;
		return true;
	}
	stack = xgrow(stack, depth, sizeof(*stack));
	stack[depth++] = (struct frame){ id, 0 };
	in->containment[id] = ON_PATH;
	while (depth && !recursive) {
		struct frame *f = &stack[depth - 1];
		const struct btf_type *t = type_of(in, f->id);
		__u32 child;

		if (!t || f->next >= held_count(t)) {
			in->containment[f->id] = FINITE;
			depth--;
			continue;
		}
		child = held_type(t, f->next++);
		if (child == 0 || child >= in->nr_types || in->containment[child] == FINITE)
			continue;
		if (in->containment[child] != UNSEEN) {	/* on the path, or known to recurse */
			*cycle = child;
			recursive = true;
			break;
		}
		in->containment[child] = ON_PATH;
		stack = xgrow(stack, depth, sizeof(*stack));
		stack[depth++] = (struct frame){ child, 0 };
	}
	/* Everything still on the path reaches the cycle. */
	for (size_t i = 0; i < depth; i++)
		in->containment[stack[i].id] = RECURSIVE;
	free(stack);
	return recursive;
}

/* ---- members ----------------------------------------------------------- */

struct build_ctx {
	const struct ll_btf_input *in;
	const struct ll_struct *s;
	struct ll_error *err;
	size_t members;
	size_t budget;		/* what is left of the input's member_budget */
};

static int build_members(struct build_ctx *ctx, const struct btf_type *agg, __u32 agg_id,
			 uint64_t base, const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out);

static int build_member(struct build_ctx *ctx, const struct btf_type *agg, __u32 agg_id,
			__u32 i, uint64_t base, const char *path_prefix, uint64_t parent_align,
			int depth, struct ll_member *m)
{
	const struct ll_btf_input *in = ctx->in;
	const struct btf_member *bm = btf_members(agg) + i;
	const char *name = btf__name_by_offset(in->btf, bm->name_off);
	const char *shown;
	const struct btf_type *shaped;
	uint64_t bo, bits, loc;
	__u32 shaped_id = 0;

	if (name && !*name)
		name = NULL;
	shown = name ? name : "<anonymous>";
	member_bits(in, agg, i, &bo, &bits);
	if (bm->type && !type_of(in, bm->type))
		return ll_fail(ctx->err, "member %s of BTF type [%u] refers to type id %u, which "
			       "does not exist", shown, agg_id, bm->type);
	m->name = name ? xstrdup(name) : NULL;
	m->type = c_type(in, bm->type);
	/* spell() marks what it cannot spell; no C type is spelt with '<'. */
	if (strstr(m->type, "<bad type id>") || strstr(m->type, "<type chain too deep>"))
		return ll_fail(ctx->err, "member %s of BTF type [%u]: its type refers to a type id "
			       "that does not exist, or through a chain deeper than %d", shown,
			       agg_id, MAX_TYPE_DEPTH);
	if (bm->type == 0) {
		/* BTF has no void members: its producer dropped a type it could not encode. */
		ll_notes_addf(in->notes, "%s: %s %s: member %s has no type in the BTF (its producer "
			      "dropped one it cannot encode, such as _Atomic); shown as void, 0 bytes",
			      in->path, ll_kind_name(ctx->s->kind), ctx->s->name, shown);
		m->size = 0;
	} else {
		__s64 sz = btf__resolve_size(in->btf, bm->type);

		if (sz < 0)
			return ll_fail(ctx->err, "member %s of BTF type [%u]: cannot size its type "
				       "[%u]: %s", shown, agg_id, bm->type, strerror((int)-sz));
		if ((uint64_t)sz > MAX_SIZE)
			return ll_fail(ctx->err, "member %s of BTF type [%u]: %lld bytes, more than "
				       "any real struct holds", shown, agg_id, (long long)sz);
		m->size = (uint64_t)sz;
	}
	if (!bits && bo % 8)
		return ll_fail(ctx->err, "member %s of BTF type [%u] starts at bit %llu, inside a "
			       "byte, but is not a bitfield", shown, agg_id, (unsigned long long)bo);
	loc = bo / 8;
	if (base + loc < base)
		return ll_fail(ctx->err, "member %s of BTF type [%u]: offset overflows", shown, agg_id);
	m->offset = base + loc;

	/* A BTF bitfield's byte says nothing of its type's alignment (builder.h). */
	m->alignment = ll_placed_alignment(type_alignment(in, bm->type, 0), !bits, loc, parent_align);
	m->explicit_align = false;

	if (bits) {
		m->is_bitfield = true;
		m->bit_size = bits;
		m->bit_offset = base * 8 + bo;
		if (m->bit_offset / 8 < base)
			return ll_fail(ctx->err, "bitfield %s of BTF type [%u]: offset overflows",
				       shown, agg_id);
		m->offset = m->bit_offset / 8;
	}
	if (m->name)
		m->path = ll_member_path(path_prefix, m->name);

	shaped = peel(in, bm->type, &shaped_id);
	if (shaped && btf_is_composite(shaped) && !m->is_bitfield) {
		m->is_aggregate = true;
		m->agg_kind = btf_is_union(shaped) ? LL_UNION : LL_STRUCT;
		if (depth + 1 > MAX_NESTING)
			return ll_fail(ctx->err, "member %s of BTF type [%u]: aggregates nested deeper "
				       "than %d levels", shown, agg_id, MAX_NESTING);
		/* Anonymous aggregates lend their members to the enclosing path. */
		if (build_members(ctx, shaped, shaped_id, m->offset, m->name ? m->path : path_prefix,
				  aggregate_alignment(in, shaped_id, shaped, 0), depth + 1, &m->children,
				  &m->nr_children))
			return -1;
	}
	return 0;
}

static int build_members(struct build_ctx *ctx, const struct btf_type *agg, __u32 agg_id,
			 uint64_t base, const char *path_prefix, uint64_t parent_align, int depth,
			 struct ll_member **out, size_t *nr_out)
{
	__u16 n = btf_vlen(agg);

	*out = NULL;
	*nr_out = 0;
	if (!n)
		return 0;
	ctx->members += n;
	if (ctx->members > MAX_MEMBERS)
		return ll_fail(ctx->err, "more than %d members below BTF type [%u]", MAX_MEMBERS,
			       agg_id);
	if (ctx->members > ctx->budget)
		return ll_fail(ctx->err, "more than %zu members below BTF type [%u], counting the "
			       "structs looked up before it (this input's limit: %d per member "
			       "record it holds, at least %d; only structs that nest each other "
			       "exponentially reach it)", ctx->in->member_budget, agg_id,
			       MEMBERS_PER_RECORD, MEMBERS_FLOOR);
	*out = xcalloc(n, sizeof(**out));
	for (__u16 i = 0; i < n; i++) {
		*nr_out = (size_t)i + 1;
		if (build_member(ctx, agg, agg_id, i, base, path_prefix, parent_align, depth,
				 &(*out)[i]))
			return -1;
	}
	return 0;
}

/* The model of one struct or union type. NAME: the query (a typedef's, for anonymous ones). */
static int build_struct(struct ll_btf_input *in, __u32 id, const char *name,
			struct ll_struct **out, struct ll_error *err)
{
	const struct btf_type *t = type_of(in, id);
	struct ll_struct *s = xcalloc(1, sizeof(*s));
	struct build_ctx ctx = { .in = in, .err = err,
				 .budget = in->member_budget - in->members_built };
	__u32 cycle = 0;
	int rc;

	*out = s;
	s->kind = btf_is_union(t) ? LL_UNION : LL_STRUCT;
	s->name = xstrdup(name);
	s->size = t->size;
	if (s->size > MAX_SIZE)
		return ll_fail(err, "BTF type [%u] claims %u bytes, more than any real struct", id,
			       t->size);
	if (holds_itself(in, id, &cycle))
		return ll_fail(err, "BTF type [%u] holds itself by value (through type [%u]), "
			       "which no C type can", id, cycle);
	s->alignment = aggregate_alignment(in, id, t, 0);
	s->explicit_align = false;
	s->alignment_inferred = true;
	s->cacheline = in->arch_cacheline;
	s->origin = id;
	ctx.s = s;
	char where[48], declarer[40];

	rc = build_members(&ctx, t, id, 0, "", s->alignment, 0, &s->members, &s->nr_members);
	in->members_built += ctx.members;
	if (rc)
		return -1;
	snprintf(declarer, sizeof(declarer), "BTF type [%u]", id);
	snprintf(where, sizeof(where), "of %s", declarer);
	return ll_struct_validate(s, where, declarer, err) ? -1 : 0;
}

/* ---- lookup ------------------------------------------------------------ */

/*
 * What makes two same-named types one definition: kind, size, and every
 * member's name, bit offset and width. BTF deduplication leaves copies of
 * one definition behind at times; those are not ambiguous.
 */
struct candidate {
	__u32 id;
	size_t hits;
};

struct query_state {
	struct candidate *cands;
	size_t nr_cands;
	bool declared;
};

static bool same_definition(const struct ll_btf_input *in, __u32 a_id, __u32 b_id)
{
	const struct btf_type *a = type_of(in, a_id), *b = type_of(in, b_id);

	if (btf_kind(a) != btf_kind(b) || a->size != b->size || btf_vlen(a) != btf_vlen(b))
		return false;
	for (__u32 i = 0; i < btf_vlen(a); i++) {
		const char *an = btf__name_by_offset(in->btf, btf_members(a)[i].name_off);
		const char *bn = btf__name_by_offset(in->btf, btf_members(b)[i].name_off);
		uint64_t ao, as, bo, bs;

		member_bits(in, a, i, &ao, &as);
		member_bits(in, b, i, &bo, &bs);
		if (ao != bo || as != bs || strcmp(an ? an : "", bn ? bn : "") != 0)
			return false;
	}
	return true;
}

static void add_candidate(const struct ll_btf_input *in, struct query_state *qs, __u32 id)
{
	for (size_t i = 0; i < qs->nr_cands; i++) {
		if (qs->cands[i].id == id || same_definition(in, qs->cands[i].id, id)) {
			qs->cands[i].hits++;
			return;
		}
	}
	qs->cands = xgrow(qs->cands, qs->nr_cands, sizeof(*qs->cands));
	qs->cands[qs->nr_cands++] = (struct candidate){ .id = id, .hits = 1 };
}


/* Queries sorted by name, so each type name costs one binary search. */
struct query_index {
	const struct ll_query *queries;
	size_t *order;
	size_t n;
};

static int cmp_query(const void *a, const void *b, void *queries)
{
	const struct ll_query *q = queries;
	int c = strcmp(q[*(const size_t *)a].name, q[*(const size_t *)b].name);

	if (c)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* First position in IDX->order whose query is named NAME, or IDX->n. */
static size_t first_query(const struct query_index *idx, const char *name)
{
	size_t lo = 0, hi = idx->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(idx->queries[idx->order[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < idx->n && strcmp(idx->queries[idx->order[lo]].name, name) == 0 ? lo : idx->n;
}

static void visit_type(const struct ll_btf_input *in, const struct query_index *idx,
		       struct query_state *state, __u32 id, const struct btf_type *t)
{
	const char *name;
	const struct btf_type *target = NULL;
	__u32 target_id = 0;
	size_t at;

	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_TYPEDEF:
		/* Only a typedef of an anonymous aggregate names a struct. */
		target_id = t->type;
		target = target_id ? type_of(in, target_id) : NULL;
		if (!target || !btf_is_composite(target) || name_of(in, target))
			return;
		break;
	default:
		return;
	}
	name = name_of(in, t);
	if (!name || (at = first_query(idx, name)) == idx->n)
		return;
	for (; at < idx->n && strcmp(idx->queries[idx->order[at]].name, name) == 0; at++) {
		size_t q = idx->order[at];
		enum ll_query_kind want = idx->queries[q].kind;

		if (target) {
			if (ll_query_kind_matches(want, btf_is_union(target)))
				add_candidate(in, &state[q], target_id);
		} else if (btf_is_fwd(t)) {
			if (ll_query_kind_matches(want, btf_kflag(t)))
				state[q].declared = true;
		} else if (ll_query_kind_matches(want, btf_is_union(t))) {
			add_candidate(in, &state[q], id);
		}
	}
}

/*
 * "did you mean struct X?" among the struct and union definitions, as
 * finder.c words it; a missing NAME only reaches here when no definition of
 * the kind asked for has it.
 */
static char *suggest(const struct ll_btf_input *in, const char *name)
{
	struct ll_nearest near;
	__u32 cnt = btf__type_cnt(in->btf);

	ll_nearest_init(&near, name);
	for (__u32 id = 1; id < cnt; id++) {
		const struct btf_type *t = type_of(in, id);
		const char *cand;

		/* The same name of the other kind is the best answer: "union inner" -> struct. */
		if (!t || !btf_is_composite(t) || !(cand = name_of(in, t)))
			continue;
		ll_nearest_offer(&near, cand, btf_is_union(t) ? LL_UNION : LL_STRUCT);
	}
	return ll_nearest_finish(&near);
}

static char *describe_candidates(const struct ll_btf_input *in, const struct query_state *qs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < qs->nr_cands; i++) {
		const struct btf_type *t = type_of(in, qs->cands[i].id);

		sb_addf(&sb, "%sBTF type [%u] (size %u, %u members)", i ? ", " : "",
			qs->cands[i].id, t->size, (unsigned)btf_vlen(t));
	}
	sb_adds(&sb, " (BTF records no declaring files to choose by: lint the image with DWARF)");
	return sb_detach(&sb);
}

/* `in GLOB` and --decl-file need declaring files: say once that they are ignored. */
static void note_ignored_globs(const struct ll_btf_input *in, const struct ll_query *queries,
			       size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		if (!queries[i].decl_glob)
			continue;
		if (count < 5)
			sb_addf(&sb, "%s%s %s", count ? ", " : "",
				queries[i].kind == LL_QUERY_UNION ? "union" : "struct",
				queries[i].name);
		else if (count == 5)
			sb_adds(&sb, ", ...");
		count++;
	}
	if (count)
		ll_notes_addf(in->notes, "%s: BTF records no declaring files, so file globs ('in "
			      "GLOB' in rules, --decl-file) are ignored for %zu struct%s: %s",
			      in->path, count, count == 1 ? "" : "s", sb.buf);
	sb_release(&sb);
}

static int btf_lookup(void *reader, const struct ll_query *queries, size_t n,
			struct ll_lookup_result *results, struct ll_error *err)
{
	struct ll_btf_input *in = reader;
	struct query_state *state = xcalloc(n ? n : 1, sizeof(*state));
	struct query_index idx = { .queries = queries, .n = n };
	__u32 cnt = btf__type_cnt(in->btf);
	int rc = 0;

	idx.order = xcalloc(n ? n : 1, sizeof(*idx.order));
	for (size_t i = 0; i < n; i++) {
		idx.order[i] = i;
		memset(&results[i], 0, sizeof(results[i]));
	}
	qsort_r(idx.order, n, sizeof(*idx.order), cmp_query, (void *)queries);
	note_ignored_globs(in, queries, n);
	/* One pass over every type, the base's included for split BTF. */
	for (__u32 id = 1; id < cnt; id++) {
		const struct btf_type *t = type_of(in, id);

		if (t)
			visit_type(in, &idx, state, id, t);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct query_state *qs = &state[i];
		struct ll_lookup_result *r = &results[i];
		struct ll_error berr;

		if (qs->nr_cands == 0) {
			r->status = qs->declared ? LL_DECLARED_ONLY : LL_MISSING;
			r->detail = qs->declared || queries[i].no_suggestion ? NULL :
				    suggest(in, queries[i].name);
		} else if (qs->nr_cands > 1) {
			r->status = LL_AMBIGUOUS;
			r->detail = describe_candidates(in, qs);
		} else if (build_struct(in, qs->cands[0].id, queries[i].name, &r->layout, &berr)) {
			ll_struct_free(r->layout);
			r->layout = NULL;
			rc = ll_fail(err, "%s: %s %s: %s", in->path,
				     queries[i].kind == LL_QUERY_UNION ? "union" : "struct",
				     queries[i].name, berr.msg);
		} else {
			r->status = LL_FOUND;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(state[i].cands);
	free(state);
	free(idx.order);
	return rc;
}

static int btf_list(void *state, const char *lookup_glob, char ***names, size_t *n,
		    struct ll_error *err)
{
	struct ll_btf_input *in = state;
	__u32 cnt = btf__type_cnt(in->btf);
	size_t cap = 0;

	(void)err;
	(void)lookup_glob;	/* a BTF lookup reads no more than the listing did */
	*names = NULL;
	*n = 0;
	for (__u32 id = 1; id < cnt; id++) {
		const struct btf_type *t = type_of(in, id);
		const char *name;

		if (!t || !(btf_is_composite(t) || btf_is_fwd(t) || btf_is_typedef(t)) ||
		    !(name = name_of(in, t)))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			*names = xrealloc(*names, cap * sizeof(**names));
		}
		(*names)[(*n)++] = xstrdup(name);
	}
	ll_names_sort_unique(*names, n);
	return 0;
}

/* ---- the reader's operations (reader_impl.h) --------------------------- */

static int btf_open(const char *path, bool raw, const struct ll_input_options *opts,
		     void **state, struct ll_error *err)
{
	struct ll_btf_input *in = NULL;
	int rc;

	rc = ll_btf_input_open(path, raw, opts, &in, err);
	*state = in;
	return rc;
}

const struct ll_input_ops ll_btf_input_ops = {
	.name = "BTF",
	.open = btf_open,
	.close = btf_close,
	.build_id = btf_build_id,
	.arch_cacheline = btf_arch_cacheline,
	.lookup = btf_lookup,
	.list = btf_list,
};
