// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the rules language: the input is a rules file.
 * When it parses, every block is applied to a small hand-built model (the
 * shapes the rules engine cares about: a nested anonymous union, a named
 * nested struct, an array, a pointer, bitfields, kernel group markers,
 * members on several cachelines), checked, reported, and released.
 */
#include <stddef.h>
#include <stdint.h>

#include "../../src/rules/rules.h"
#include "../unit/model_builder.h"
#include "fuzz_common.h"

static struct ll_struct *model(void)
{
	struct ll_struct *s = mb_struct(LL_STRUCT, "file", 192, 8, 64);
	struct ll_member *m;

	mb_decl(mb_add(s, "f_count", "atomic_long_t", 0, 8), 2, 16);
	mb_decl(mb_add(s, "f_lock", "spinlock_t", 8, 4), 3, 13);
	m = mb_agg(mb_add(s, NULL, "union {...}", 16, 16), LL_UNION);
	mb_decl(mb_child(m, "f_llist", "struct llist_node", 16, 8), 5, 21);
	mb_decl(mb_child(m, "f_rcuhead", "char[16]", 16, 16), 6, 19);
	m = mb_agg(mb_add(s, "f_path", "struct path", 32, 16), LL_STRUCT);
	mb_child(m, "mnt", "struct vfsmount *", 32, 8);
	mb_child(m, "dentry", "struct dentry *", 40, 8);
	mb_add(s, "f_inode", "struct inode *", 48, 8);
	mb_bits(mb_add(s, "f_mode", "unsigned int", 56, 4), 56 * 8, 3);
	mb_bits(mb_add(s, "f_flags", "unsigned int", 56, 4), 56 * 8 + 3, 20);
	mb_add(s, "__cacheline_group_begin__file_read", "__u8[]", 64, 0);
	mb_add(s, "f_op", "const struct file_operations *", 64, 8);
	mb_add(s, "f_mapping", "struct address_space *", 72, 8);
	mb_add(s, "__cacheline_group_end__file_read", "__u8[]", 80, 0);
	mb_add(s, "__cacheline_group_begin__file_write_pos", "__u8[]", 120, 0);
	mb_add(s, "f_pos", "loff_t", 120, 16);	/* straddles lines 1 and 2 */
	mb_add(s, "__cacheline_group_end__file_write_pos", "__u8[]", 136, 0);
	mb_add(s, "f_ra", "struct file_ra_state[2]", 136, 32);
	mb_add(s, NULL, "int", 168, 4);		/* unnamed bitfield-ish filler */
	mb_add(s, "f_tail", "char[]", 192, 0);	/* flexible array member */
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ll_rules rules = { 0 };
	struct ll_error err;

	if (ll_rules_parse(&rules, "fuzz.rules", (const char *)data, size, &err) == 0) {
		struct ll_linted *linted = xcalloc(rules.nr_blocks + 1, sizeof(*linted));
		struct ll_run run = { .binary_path = "fuzz.o", .structs = linted };

		for (size_t i = 0; i < rules.nr_blocks; i++) {
			struct ll_block *b = &rules.blocks[i];
			struct ll_struct *s = model();

			(void)ll_rules_find(&rules, b->kind, b->name);
			s->kind = b->kind;
			if (fuzz_lint(&linted[run.nr_structs], s, b))
				run.nr_structs++;
			else
				fuzz_linted_release(&linted[run.nr_structs]);
		}
		fuzz_report(&run);
		for (size_t i = 0; i < run.nr_structs; i++)
			fuzz_linted_release(&linted[i]);
		free(linted);
	}
	ll_rules_release(&rules);
	return 0;
}
