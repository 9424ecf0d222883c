/*
 * Included by native.c and by compat.c, which first defines COMPAT: one
 * struct, two definitions at this same file and line, of two sizes (the
 * kernel's fs/compat_binfmt_elf.c includes fs/binfmt_elf.c the same way).
 */
#ifdef COMPAT
#define WORD unsigned int
#define FN(name) compat_##name
#else
#define WORD unsigned long
#define FN(name) name
#endif

struct core_info {
	struct core_info *next;
	WORD regs[32];
	int nr_notes;
};

struct core_info *FN(first_info);

unsigned long FN(core_info_size)(void)
{
	return sizeof(struct core_info);
}
