// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/access's floor: every executable section of an x86-64 ELF file
 * disassembled once with capstone, details on (what --access needs of each
 * instruction), nothing else. Prints the instructions and bytes decoded.
 * Built by bench/access: gcc -O2 disasm_floor.c -lelf -lcapstone.
 */
#include <capstone/capstone.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	Elf_Scn *scn = NULL;
	unsigned long long insns = 0, bytes = 0;
	cs_insn *insn;
	csh cs;
	Elf *elf;
	int fd;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: disasm_floor ELF\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return 2;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	insn = cs_malloc(cs);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const uint8_t *code;
		size_t size;
		uint64_t addr;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		code = d->d_buf;
		size = d->d_size;
		addr = sh.sh_addr;
		bytes += size;
		while (size) {
			if (cs_disasm_iter(cs, &code, &size, &addr, insn)) {
				insns++;
				continue;
			}
			/* Data or padding: step over a byte, as a walk by function would not meet it. */
			code++;
			size--;
			addr++;
		}
	}
	printf("%llu instructions in %llu bytes\n", insns, bytes);
	cs_free(insn, 1);
	cs_close(&cs);
	elf_end(elf);
	close(fd);
	return 0;
}
