/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for tests/hostile/run_hostile.py, compiled at test time (gcc -g).
 * The names spelt Q_..._Q are placeholders: the runner overwrites them in
 * the compiled binary, byte for byte, with names no compiler accepts (shell
 * command substitutions, terminal escapes), which a binary may carry all
 * the same. struct conn has one finding under hostile.rules.
 */

struct conn {
	const void *ops;		/* read-mostly */
	int lock;			/* write-hot */
	int state;
};

struct plain_struct {
	int a;
};

struct Q_PWNED1_Q {			/* becomes $(>PWNED1) */
	int a;
};

struct Q_BACKTICK_PWNED2_Q {		/* becomes `>PWNED2`... (see the runner) */
	int b;
};

struct Q_ESCAPE_NAME_Q {		/* becomes ESC ] 0 ; ... BEL: a terminal title */
	int c;
	int Q_NEWLINE_MEMBER_Q;		/* becomes a name with CR and LF in it */
};

struct utf8_conn {			/* a member name of invalid UTF-8 */
	const void *Q_UTF8_Q_ops;	/* read-mostly (by a glob) */
	int lock;			/* write-hot */
};

struct conn g_conn;
struct utf8_conn g_utf8_conn;
struct plain_struct g_plain;
struct Q_PWNED1_Q g_pwned1;
struct Q_BACKTICK_PWNED2_Q g_pwned2;
struct Q_ESCAPE_NAME_Q g_escape;
/* A symbol named apart from its DWARF name: becomes ESC ] 2 ; ... BEL in the symbol table. */
int g_asm_named __asm__("Q_ESCVAR_NAME_Q");

/* A lock-like variable in a read-mostly section whose name carries ESC ] 0 ; ... BEL. */
typedef struct {
	int counter;
} atomic_t;
atomic_t g_rm_count __attribute__((section(".Q_READ_MOSTLY_SECTION_Q"))) = { 1 };

int main(void)
{
	return 0;
}
