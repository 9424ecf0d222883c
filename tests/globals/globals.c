/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixture for global variables (issue 22): variables placed on shared and
 * separate lines with section and aligned attributes, as the kernel does
 * with __read_mostly and ____cacheline_aligned. tests/globals/run_globals.py
 * reads their addresses back with nm and asserts the findings.
 */
#define LINE __attribute__((aligned(64)))
#define HOT_SECTION __attribute__((section(".data.hotspot")))

/* Shared: a read-mostly config word beside a write-hot counter. */
HOT_SECTION LINE int shared_config = 1;		/* read-mostly */
HOT_SECTION long shared_counter = 2;		/* write-hot, same line */

/* Apart: each on its own line. */
HOT_SECTION LINE int apart_config = 3;		/* read-mostly */
HOT_SECTION LINE long apart_counter = 4;	/* write-hot */

/* Two writers of two domains, one line. */
HOT_SECTION LINE long rx_packets = 5;		/* write-hot:rx */
HOT_SECTION long tx_packets = 6;		/* write-hot:tx */

/* A 128-byte pair: read-mostly on its first line, write-hot on its second. */
HOT_SECTION __attribute__((aligned(128))) const void *pair_ops = 0;
HOT_SECTION LINE long pair_hits = 7;

/* An array of structs whose elements share lines with each other. */
struct slot { long hits; long misses; };
HOT_SECTION LINE struct slot slots[4] = { { 1, 2 } };

/*
 * For --audit (no rules): a lock-like variable, by its type's name, whose
 * line another file's variable shares (neighbour.h declares it), and one
 * in a read-mostly section, which is for data written rarely.
 */
typedef struct { int counter; } atomic_t;
HOT_SECTION LINE atomic_t audit_refs;
#include "neighbour.h"
__attribute__((section(".data..read_mostly"))) atomic_t mostly_refs = { 1 };

/*
 * Defined after its extern declaration, as a header's extern and its .c's
 * definition are: gcc's definition names its file only through
 * DW_AT_specification.
 */
extern long declared_counter;
long declared_counter = 9;

/* Per-CPU data, as DEFINE_PER_CPU leaves it: a space of its own. */
#define PERCPU __attribute__((section(".data..percpu")))
PERCPU LINE long pcpu_count = 8;		/* write-hot */
PERCPU const void *pcpu_ops = 0;		/* read-mostly, same line */

int main(void)
{
	return (int)(shared_config + shared_counter + apart_config + apart_counter +
		     rx_packets + tx_packets + pair_hits + slots[0].hits + pcpu_count +
		     audit_refs.counter + neighbour_flag + mostly_refs.counter +
		     declared_counter) +
	       !!pair_ops + !!pcpu_ops;
}
