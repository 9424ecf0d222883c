/* btf_swap IN OUT: rewrite the BTF of IN (raw or ELF) as raw BTF of the
 * other byte order, with libbpf, so that run_btf.py can check that
 * layoutlint reads big-endian BTF (magic 0xeB9F stored as EB 9F) too. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct btf *btf;
	const void *data;
	__u32 size;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: btf_swap IN OUT\n");
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf) {
		fprintf(stderr, "btf_swap: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (btf__set_endianness(btf, btf__endianness(btf) == BTF_LITTLE_ENDIAN ?
				     BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN)) {
		fprintf(stderr, "btf_swap: cannot set the byte order\n");
		return 1;
	}
	data = btf__raw_data(btf, &size);
	out = fopen(argv[2], "wb");
	if (!data || !out || fwrite(data, 1, size, out) != size || fclose(out) != 0) {
		fprintf(stderr, "btf_swap: %s: cannot write\n", argv[2]);
		return 1;
	}
	btf__free(btf);
	return 0;
}
