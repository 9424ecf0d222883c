/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --prove: measure what a layout change is worth. From a laid-out, tagged
 * struct (two layouts of it: as built, and the suggestion or a second
 * build's), a self-contained C11 + pthreads benchmark is generated that
 * recreates each layout's size, alignment and every tagged member's
 * offset and width, and drives it as the tags say: one writer thread per
 * write domain (atomic read-modify-writes on members updated atomically,
 * plain stores otherwise), reader threads loading the read-mostly members,
 * each pinned to its own CPU. It is compiled with the system's compiler and
 * run alternately on both layouts until the 95% interval of each thread
 * class's throughput ratio is tight, or the time budget ends.
 *
 * This layer produces data only (struct ll_prove_result); report/ words it.
 *
 * Ownership: a plan owns its strings and arrays; ll_prove_plan_release()
 * frees them. A result owns its plan.
 */
#ifndef LAYOUTLINT_PROVE_H
#define LAYOUTLINT_PROVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/access.h"
#include "model/layout.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* What a thread does to a member. */
enum ll_prove_op { LL_PROVE_LOAD, LL_PROVE_STORE, LL_PROVE_RMW };

/* The two layouts measured: [0] before (as built), [1] after. */
#define LL_PROVE_BEFORE 0
#define LL_PROVE_AFTER 1

struct ll_prove_member {
	char *path;		/* the member's path in the struct */
	char *ident;		/* its field name in the generated C */
	uint64_t offset[2];	/* bytes, in each layout */
	uint64_t size;		/* bytes touched (a bitfield widened to whole bytes) */
	bool scalar;		/* generated as an _Atomic integer of SIZE bytes, else bytes */
	enum ll_prove_op op;
	size_t cls;		/* index of the thread class that touches it */
};

/* The classes' throughput and what the interval says about it. */
enum ll_prove_outcome {
	LL_PROVE_NOISE,		/* interval too wide to tell */
	LL_PROVE_UNCHANGED,	/* interval contains 1 and lies within +-10% */
	LL_PROVE_FASTER,	/* interval above 1 */
	LL_PROVE_SLOWER,	/* interval below 1 */
};

struct ll_prove_class {
	char *name;		/* "reader", "writer", "writer:rx" */
	bool writes;
	unsigned threads;
	unsigned *cpus;		/* THREADS CPUs, once placed */
	/* Measured: mean ops/s of the class (all its threads), per layout. */
	double mean[2];
	size_t samples[2];
	double ratio, low, high;	/* after / before, and its 95% interval */
	double df;			/* Welch-Satterthwaite degrees of freedom */
	enum ll_prove_outcome outcome;
};

struct ll_prove_plan {
	char *struct_name;
	char *ident;		/* the struct's name as a C identifier */
	enum ll_kind kind;
	unsigned cacheline;
	uint64_t size[2], alignment[2];
	char *label[2];		/* "as built", "as suggested", "OLD-BINARY" ... */
	bool same_layout;	/* both layouts put every tagged member at the same offset */
	bool against;		/* the layouts are two builds', not a suggestion */
	struct ll_prove_member *members;
	size_t nr_members;
	struct ll_prove_class *classes;
	size_t nr_classes;
	char **notes;		/* what the benchmark simplified, for the report */
	size_t nr_notes;
};

/*
 * Build the plan from BEFORE and AFTER (the same struct, tagged; AFTER may
 * be BEFORE itself, for a layout the solver leaves as it is). ACCESS: the
 * --access evidence of BEFORE (NULL: none), which says which members are
 * updated atomically; without it the member's type does (atomic_t,
 * refcount_t, _Atomic, locks). -1 with ERR when nothing can be measured.
 */
int ll_prove_plan_build(const struct ll_struct *before, const char *before_label,
			const struct ll_struct *after, const char *after_label, bool against,
			const struct ll_access_view *access, struct ll_prove_plan *out,
			struct ll_error *err);
void ll_prove_plan_release(struct ll_prove_plan *p);

/* The C source of the benchmark of P (threads placed, ll_prove_place()). */
void ll_prove_generate(const struct ll_prove_plan *p, struct strbuf *out);

/* --- topology (topology.c) --- */

struct ll_cpu {
	unsigned id;
	int package;		/* physical_package_id; -1 unknown */
	int core;		/* core_id; -1 unknown */
	int node;		/* NUMA node; -1 unknown */
	unsigned siblings;	/* CPUs in its thread_siblings_list, itself included */
	unsigned sibling_group;	/* lowest CPU of its thread_siblings_list */
};

struct ll_topology {
	struct ll_cpu *cpus;	/* the CPUs this process may run on (sched_getaffinity) */
	size_t nr_cpus;
	unsigned packages, nodes, cores;	/* distinct, among those CPUs */
};

/* Read from SYSFS (normally "/sys/devices/system"): -1 with ERR if no CPU is allowed. */
int ll_topology_read(const char *sysfs, struct ll_topology *out, struct ll_error *err);
void ll_topology_release(struct ll_topology *t);

/*
 * A CPU list as sysfs writes it ("0-3,8,10-11"): the CPUs below LIMIT, each
 * marked in SET (LIMIT entries); false on anything else. Bounded by LEN.
 */
bool ll_parse_cpu_list(const char *s, size_t len, bool *set, unsigned limit);

struct ll_placement {
	char *how;		/* "different sockets", "different cores", "SMT siblings" */
	unsigned threads;
};

/*
 * Give every thread of P's classes its own CPU of T: writer classes
 * first, the readers on another socket or NUMA node when there is one,
 * never two on SMT siblings unless SMT. -1 with ERR when T has too few.
 */
int ll_prove_place(struct ll_prove_plan *p, const struct ll_topology *t, bool smt,
		   struct ll_placement *out, struct ll_error *err);
void ll_placement_release(struct ll_placement *pl);

/* --- statistics (stats.c) --- */

/*
 * The ratio mean(B)/mean(A) of two independent samples and its 95%
 * interval: Welch's t on the logarithm (delta method), see stats.c.
 * False when either sample has fewer than two values or a mean <= 0.
 */
bool ll_welch_ratio(const double *a, size_t na, const double *b, size_t nb, double *ratio,
		    double *low, double *high, double *df);
/* Student's t quantile for 0.975 at DF degrees of freedom (DF >= 1). */
double ll_t975(double df);
/* The outcome of an interval: see enum ll_prove_outcome. */
enum ll_prove_outcome ll_prove_outcome_of(double low, double high, bool measured);

/* --- running (runner.c) --- */

struct ll_prove_opts {
	double budget;		/* seconds for the whole measurement */
	unsigned sample_ms;	/* one run of one layout */
	double tight;		/* stop once every half-interval is within this share of the ratio */
	/* The environment's values, read by cli (NULL: unset): */
	const char *cc;		/* $CC, the compiler; NULL or empty: cc, gcc, clang on PATH */
	const char *path;	/* $PATH; NULL: /usr/bin:/bin */
	const char *tmpdir;	/* $TMPDIR, where the benchmark is built; NULL or empty: /tmp */
};

struct ll_prove_result {
	struct ll_prove_plan plan;
	struct ll_placement placement;
	struct ll_topology topology;
	char *compiler;		/* the command used, and its version's first line */
	size_t pairs;		/* AB pairs measured (not counting the warm-up) */
	unsigned sample_ms;
	double seconds;		/* wall time of the measurement */
	double load_before[3], load_after[3];	/* /proc/loadavg; negative when unknown */
	bool converged;		/* every interval got tight before the budget ended */
	/*
	 * The mean over runs of the least share of a run's wall time that a
	 * thread had its CPU; -1 unknown. Well below 1, other processes ran in
	 * between, the threads contended less, and the ratios understate what
	 * an idle machine would show.
	 */
	double cpu_share;
	/* perf stat: cache misses per layout when the PMU has the event. */
	bool pmu;
	char *pmu_note;		/* why there are no counters, or NULL */
	double cache_misses[2], cache_refs[2];
	bool have_misses;
};

/*
 * Compile SOURCE, run it alternately on both layouts and fill R's
 * classes' numbers (R->plan placed). -1 with ERR when it cannot compile or run.
 */
int ll_prove_run(const struct ll_prove_opts *o, const char *source, struct ll_prove_result *r,
		 struct ll_error *err);
void ll_prove_result_release(struct ll_prove_result *r);

#endif
