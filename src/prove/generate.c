// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: the benchmark's C source. C11 and pthreads only (pinning with
 * sched_setaffinity() where __linux__ has it), so a reviewer can read it
 * and rerun it anywhere: `cc -std=c11 -O2 -pthread x.c && ./a.out`.
 *
 * Each layout is a real struct: the tagged members at their offsets, with
 * their widths, and padding arrays between, so that the compiler's
 * _Static_asserts and its DWARF (-g) both show the layout is the one
 * measured. A member that is a naturally aligned word is an _Atomic
 * integer (relaxed loads and stores compile to plain moves; fetch_add is
 * the locked RMW the kernel's atomics are); anything else is bytes touched
 * through volatile at both ends.
 */
#include <stdlib.h>
#include <string.h>

#include "prove/prove.h"

static const char *const op_name[] = { "load", "plain store", "atomic RMW" };

/* Text for a comment of the generated source: no end of comment inside. */
static void add_comment_text(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		sb_addc(out, (s[0] == '*' && s[1] == '/') || (unsigned char)*s < ' ' ? '?' : *s);
}

static const char *layout_tag(int l)
{
	return l == LL_PROVE_BEFORE ? "before" : "after";
}

static void emit_struct(const struct ll_prove_plan *p, int l, struct strbuf *out)
{
	size_t n = p->nr_members, *order = xcalloc(n ? n : 1, sizeof(*order));
	uint64_t at = 0;
	bool first = true;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Insertion sort by this layout's offsets: a few dozen members at most. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && p->members[order[j]].offset[l] <
					     p->members[order[j - 1]].offset[l]; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	sb_adds(out, "/* ");
	add_comment_text(out, p->struct_name);
	sb_addf(out, " %s: ", layout_tag(l));
	add_comment_text(out, p->label[l]);
	sb_addf(out, ", %llu bytes, aligned to %llu */\n", (unsigned long long)p->size[l],
		(unsigned long long)p->alignment[l]);
	sb_addf(out, "struct %s_%s {\n", p->ident, layout_tag(l));
#define ALIGNAS()                                                                        \
	do {                                                                             \
		if (first && p->alignment[l] > 1)                                        \
			sb_addf(out, "_Alignas(%llu) ", (unsigned long long)p->alignment[l]); \
		first = false;                                                           \
	} while (0)
	for (size_t k = 0; k < n; k++) {
		const struct ll_prove_member *m = &p->members[order[k]];

		if (m->offset[l] > at) {
			sb_adds(out, "\t");
			ALIGNAS();
			sb_addf(out, "unsigned char ll_pad_%llu[%llu];\n", (unsigned long long)at,
				(unsigned long long)(m->offset[l] - at));
		}
		sb_adds(out, "\t");
		ALIGNAS();
		if (m->scalar)
			sb_addf(out, "_Atomic uint%llu_t %s;", (unsigned long long)m->size * 8,
				m->ident);
		else
			sb_addf(out, "unsigned char %s[%llu];", m->ident, (unsigned long long)m->size);
		sb_adds(out, "\t/* ");
		add_comment_text(out, m->path);
		sb_addf(out, ": offset %llu, %s, class %s */\n", (unsigned long long)m->offset[l],
			op_name[m->op], p->classes[m->cls].name);
		at = m->offset[l] + m->size;
	}
	if (at < p->size[l] || first) {
		sb_adds(out, "\t");
		ALIGNAS();
		sb_addf(out, "unsigned char ll_tail_%llu[%llu];\n", (unsigned long long)at,
			(unsigned long long)(p->size[l] > at ? p->size[l] - at : 1));
	}
#undef ALIGNAS
	sb_adds(out, "};\n");
	sb_addf(out, "_Static_assert(sizeof(struct %s_%s) == %llu, \"size of %s\");\n", p->ident,
		layout_tag(l), (unsigned long long)p->size[l], p->ident);
	sb_addf(out, "_Static_assert(_Alignof(struct %s_%s) == %llu, \"alignment of %s\");\n",
		p->ident, layout_tag(l), (unsigned long long)p->alignment[l], p->ident);
	for (size_t k = 0; k < n; k++) {
		const struct ll_prove_member *m = &p->members[k];

		sb_addf(out, "_Static_assert(offsetof(struct %s_%s, %s) == %llu, \"%s\");\n",
			p->ident, layout_tag(l), m->ident, (unsigned long long)m->offset[l], m->ident);
	}
	sb_adds(out, "\n");
	free(order);
}

static void emit_worker(const struct ll_prove_plan *p, int l, size_t c, struct strbuf *out)
{
	sb_addf(out, "static void *%s_class%zu(void *arg)\t/* %s */\n{\n", layout_tag(l), c,
		p->classes[c].name);
	sb_adds(out, "\tstruct worker *w = arg;\n");
	sb_addf(out, "\tstruct %s_%s *s = (void *)obj_%s;\n", p->ident, layout_tag(l),
		layout_tag(l));
	sb_adds(out, "\tunsigned long long n = 0, sum = 0;\n\n\tready(w);\n");
	sb_adds(out, "\twhile (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {\n");
	for (size_t i = 0; i < p->nr_members; i++) {
		const struct ll_prove_member *m = &p->members[i];

		if (m->cls != c)
			continue;
		if (m->op == LL_PROVE_LOAD && m->scalar)
			sb_addf(out, "\t\tsum += atomic_load_explicit(&s->%s, memory_order_relaxed);\n",
				m->ident);
		else if (m->op == LL_PROVE_LOAD)
			sb_addf(out, "\t\tsum += load_bytes(s->%s, sizeof(s->%s));\n", m->ident,
				m->ident);
		else if (m->op == LL_PROVE_RMW)
			sb_addf(out, "\t\tatomic_fetch_add_explicit(&s->%s, 1, memory_order_relaxed);\n",
				m->ident);
		else if (m->scalar)
			sb_addf(out, "\t\tatomic_store_explicit(&s->%s, (uint%llu_t)n, "
				"memory_order_relaxed);\n", m->ident, (unsigned long long)m->size * 8);
		else
			sb_addf(out, "\t\tstore_bytes(s->%s, sizeof(s->%s), n);\n", m->ident,
				m->ident);
	}
	sb_adds(out, "\t\tn++;\n\t}\n\tw->cpu_ns = cpu_ns() - w->cpu_ns;\n\tw->ops = n;\n"
		"\tw->sum = sum;\n\treturn NULL;\n}\n\n");
}

static const char prologue[] =
	"#define _GNU_SOURCE\n"
	"#include <pthread.h>\n"
	"#include <sched.h>\n"
	"#include <stdatomic.h>\n"
	"#include <stddef.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <time.h>\n\n";

/* Emitted only when used: clang's -Wall flags an unused static function. */
static const char load_bytes_fn[] =
	"static unsigned load_bytes(unsigned char *p, size_t n)\n{\n"
	"\treturn ((volatile unsigned char *)p)[0] + ((volatile unsigned char *)p)[n - 1];\n"
	"}\n\n";
static const char store_bytes_fn[] =
	"static void store_bytes(unsigned char *p, size_t n, unsigned long long v)\n{\n"
	"\t((volatile unsigned char *)p)[0] = (unsigned char)v;\n"
	"\t((volatile unsigned char *)p)[n - 1] = (unsigned char)v;\n"
	"}\n\n";

static const char runtime[] =
	"struct worker {\n"
	"\t_Alignas(128) pthread_t tid;\t/* a line pair of its own: no sharing here */\n"
	"\tint cpu;\n"
	"\tunsigned long long ops, sum;\n"
	"\tdouble cpu_ns;\t/* the thread's own CPU time while it ran */\n"
	"};\n\n"
	"static _Alignas(128) atomic_int stop_flag;\n"
	"static _Alignas(128) atomic_int go_flag;\n"
	"static _Alignas(128) atomic_int nr_ready;\n\n"
	"static void pin(int cpu)\n{\n"
	"#ifdef __linux__\n"
	"\tcpu_set_t set;\n\n"
	"\tCPU_ZERO(&set);\n"
	"\tCPU_SET(cpu, &set);\n"
	"\tif (sched_setaffinity(0, sizeof(set), &set) != 0) {\n"
	"\t\tfprintf(stderr, \"cannot run on CPU %d\\n\", cpu);\n"
	"\t\texit(3);\n"
	"\t}\n"
	"#else\n"
	"\t(void)cpu;\n"
	"#endif\n"
	"}\n\n"
	"static double cpu_ns(void)\n{\n"
	"\tstruct timespec ts;\n\n"
	"\tclock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);\n"
	"\treturn ts.tv_sec * 1e9 + ts.tv_nsec;\n"
	"}\n\n"
	"static void ready(struct worker *w)\n{\n"
	"\tpin(w->cpu);\n"
	"\tatomic_fetch_add(&nr_ready, 1);\n"
	"\twhile (!atomic_load(&go_flag))\n"
	"\t\t;\n"
	"\tw->cpu_ns = cpu_ns();\n"
	"}\n\n"
	"static double now_ns(void)\n{\n"
	"\tstruct timespec ts;\n\n"
	"\tclock_gettime(CLOCK_MONOTONIC, &ts);\n"
	"\treturn ts.tv_sec * 1e9 + ts.tv_nsec;\n"
	"}\n\n"
	"/*\n"
	" * One run of one layout: every thread on its CPU for MS milliseconds. OPS:\n"
	" * per class, the sum of its threads' operations per second of their own\n"
	" * CPU time, so that time other processes take from them is not counted.\n"
	" */\n"
	"static void run(int layout, unsigned ms, const int *cpus, double *ops, double *ns,\n"
	"\t\tdouble *share)\n{\n"
	"\tstatic struct worker w[NR_THREADS];\n"
	"\tstruct timespec d = { ms / 1000, (long)(ms % 1000) * 1000000 };\n"
	"\tdouble t0, t1;\n\n"
	"\tmemset(layout ? (void *)obj_after : (void *)obj_before, 0, OBJ_BYTES);\n"
	"\tatomic_store(&stop_flag, 0);\n"
	"\tatomic_store(&go_flag, 0);\n"
	"\tatomic_store(&nr_ready, 0);\n"
	"\tfor (int i = 0; i < NR_THREADS; i++) {\n"
	"\t\tw[i].cpu = cpus[i];\n"
	"\t\tw[i].ops = 0;\n"
	"\t\tif (pthread_create(&w[i].tid, NULL, workers[layout][thread_class[i]], &w[i])) {\n"
	"\t\t\tfprintf(stderr, \"cannot start a thread\\n\");\n"
	"\t\t\texit(3);\n"
	"\t\t}\n"
	"\t}\n"
	"\twhile (atomic_load(&nr_ready) < NR_THREADS) {\n"
	"\t\tstruct timespec pause = { 0, 100000 };\n\n"
	"\t\tnanosleep(&pause, NULL);\n"
	"\t}\n"
	"\tt0 = now_ns();\n"
	"\tatomic_store(&go_flag, 1);\n"
	"\tnanosleep(&d, NULL);\n"
	"\tatomic_store(&stop_flag, 1);\n"
	"\tt1 = now_ns();\n"
	"\tfor (int c = 0; c < NR_CLASSES; c++)\n"
	"\t\tops[c] = 0;\n"
	"\tfor (int i = 0; i < NR_THREADS; i++) {\n"
	"\t\tpthread_join(w[i].tid, NULL);\n"
	"\t\tif (w[i].cpu_ns > 0)\n"
	"\t\t\tops[thread_class[i]] += w[i].ops * 1e9 / w[i].cpu_ns;\n"
	"\t}\n"
	"\t*ns = t1 - t0;\n"
	"\t/* The least CPU time a thread got: below 1, other load cut into the contention. */\n"
	"\t*share = 1;\n"
	"\tfor (int i = 0; i < NR_THREADS; i++)\n"
	"\t\tif (w[i].cpu_ns / *ns < *share)\n"
	"\t\t\t*share = w[i].cpu_ns / *ns;\n"
	"}\n\n"
	"/*\n"
	" * ./prove [PAIRS [MS [CPU,CPU... [ORDER]]]]: PAIRS times, each layout of ORDER\n"
	" * (\"AB\": before then after) for MS ms; one line per run and class:\n"
	" * \"S LAYOUT PAIR CLASS OPS_PER_CPU_SECOND WALL_NS CPU_SHARE\" (the least share of\n"
	" * the run's wall time a thread had its CPU), then the mean of each class.\n"
	" */\n"
	"int main(int argc, char **argv)\n{\n"
	"\tunsigned pairs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10;\n"
	"\tunsigned ms = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 100;\n"
	"\tconst char *list = argc > 3 ? argv[3] : DEFAULT_CPUS, *order = argc > 4 ? argv[4] : \"AB\";\n"
	"\tint cpus[NR_THREADS];\n"
	"\tdouble sum[2][NR_CLASSES] = { { 0 } };\n"
	"\tunsigned runs[2] = { 0, 0 };\n"
	"\tchar *end;\n\n"
	"\tfor (int i = 0; i < NR_THREADS; i++) {\n"
	"\t\tcpus[i] = (int)strtol(list, &end, 10);\n"
	"\t\tif (end == list || (*end != ',' && *end) || (i + 1 < NR_THREADS && !*end)) {\n"
	"\t\t\tfprintf(stderr, \"CPU list: %d CPUs, comma-separated\\n\", NR_THREADS);\n"
	"\t\t\treturn 2;\n"
	"\t\t}\n"
	"\t\tlist = *end ? end + 1 : end;\n"
	"\t}\n"
	"\tif (!ms || !*order || strspn(order, \"AB\") != strlen(order)) {\n"
	"\t\tfprintf(stderr, \"usage: %s [PAIRS [MS [CPU,... [ORDER of A and B]]]]\\n\", argv[0]);\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tfor (unsigned p = 0; p < pairs; p++)\n"
	"\t\tfor (const char *o = order; *o; o++) {\n"
	"\t\t\tint l = *o == 'B';\n"
	"\t\t\tdouble ops[NR_CLASSES], ns, share;\n\n"
	"\t\t\trun(l, ms, cpus, ops, &ns, &share);\n"
	"\t\t\truns[l]++;\n"
	"\t\t\tfor (int c = 0; c < NR_CLASSES; c++) {\n"
	"\t\t\t\tprintf(\"S %c %u %d %.0f %.0f %.3f\\n\", *o, p, c, ops[c], ns, share);\n"
	"\t\t\t\tsum[l][c] += ops[c];\n"
	"\t\t\t}\n"
	"\t\t\tfflush(stdout);\n"
	"\t\t}\n"
	"\tfor (int c = 0; c < NR_CLASSES; c++)\n"
	"\t\tif (runs[0] && runs[1])\n"
	"\t\t\tprintf(\"# %-12s before %.4g/s after %.4g/s after/before %.3f\\n\", class_name[c],\n"
	"\t\t\t       sum[0][c] / runs[0], sum[1][c] / runs[1],\n"
	"\t\t\t       (sum[1][c] / runs[1]) / (sum[0][c] / runs[0]));\n"
	"\treturn 0;\n"
	"}\n";

void ll_prove_generate(const struct ll_prove_plan *p, struct strbuf *out)
{
	uint64_t bytes = p->size[0] > p->size[1] ? p->size[0] : p->size[1];
	uint64_t align = p->alignment[0] > p->alignment[1] ? p->alignment[0] : p->alignment[1];
	unsigned threads = 0;

	if (align < 4096)
		align = 4096;
	bytes = (bytes + align - 1) / align * align;
	for (size_t c = 0; c < p->nr_classes; c++)
		threads += p->classes[c].threads;
	sb_adds(out, "/*\n * Generated by layoutlint --prove: struct ");
	add_comment_text(out, p->struct_name);
	sb_adds(out, ", ");
	add_comment_text(out, p->label[0]);
	sb_adds(out, " (before) and ");
	add_comment_text(out, p->label[1]);
	sb_addf(out, " (after),\n * %u-byte cachelines. Objects start on a page, so on a line.\n"
		" * cc -std=c11 -O2 -pthread THIS.c -o prove && ./prove 10 100\n *\n",
		p->cacheline);
	for (size_t c = 0; c < p->nr_classes; c++) {
		sb_addf(out, " * class %zu, %s: %u thread%s on CPU", c, p->classes[c].name,
			p->classes[c].threads, p->classes[c].threads == 1 ? "" : "s");
		for (unsigned t = 0; t < p->classes[c].threads; t++)
			sb_addf(out, "%s%u", t ? "," : " ", p->classes[c].cpus ? p->classes[c].cpus[t] : t);
		sb_adds(out, "\n");
	}
	sb_adds(out, " */\n");
	sb_adds(out, prologue);
	emit_struct(p, LL_PROVE_BEFORE, out);
	emit_struct(p, LL_PROVE_AFTER, out);
	sb_addf(out, "#define NR_CLASSES %zu\n#define NR_THREADS %u\n#define OBJ_BYTES %llu\n",
		p->nr_classes, threads, (unsigned long long)bytes);
	sb_adds(out, "#define DEFAULT_CPUS \"");
	{
		unsigned k = 0;

		for (size_t c = 0; c < p->nr_classes; c++)
			for (unsigned t = 0; t < p->classes[c].threads; t++, k++)
				sb_addf(out, "%s%u", k ? "," : "",
					p->classes[c].cpus ? p->classes[c].cpus[t] : k);
	}
	sb_adds(out, "\"\n\n");
	sb_addf(out, "static _Alignas(%llu) unsigned char obj_before[OBJ_BYTES];\n",
		(unsigned long long)align);
	sb_addf(out, "static _Alignas(%llu) unsigned char obj_after[OBJ_BYTES];\n\n",
		(unsigned long long)align);
	sb_adds(out, "static const char *const class_name[NR_CLASSES] = {");
	for (size_t c = 0; c < p->nr_classes; c++)
		sb_addf(out, "%s\"%s\"", c ? ", " : " ", p->classes[c].name);
	sb_adds(out, " };\nstatic const int thread_class[NR_THREADS] = {");
	{
		unsigned k = 0;

		for (size_t c = 0; c < p->nr_classes; c++)
			for (unsigned t = 0; t < p->classes[c].threads; t++, k++)
				sb_addf(out, "%s%zu", k ? ", " : " ", c);
	}
	sb_adds(out, " };\n\n");
	/* The runtime's declarations the workers use come first. */
	{
		const char *split = strstr(runtime, "static double now_ns");

		bool loads = false, stores = false;

		sb_add(out, runtime, (size_t)(split - runtime));
		for (size_t i = 0; i < p->nr_members; i++) {
			loads = loads || (!p->members[i].scalar && p->members[i].op == LL_PROVE_LOAD);
			stores = stores || (!p->members[i].scalar && p->members[i].op != LL_PROVE_LOAD);
		}
		if (loads)
			sb_adds(out, load_bytes_fn);
		if (stores)
			sb_adds(out, store_bytes_fn);
		for (int l = 0; l < 2; l++)
			for (size_t c = 0; c < p->nr_classes; c++)
				emit_worker(p, l, c, out);
		sb_adds(out, "static void *(*const workers[2][NR_CLASSES])(void *) = {\n");
		for (int l = 0; l < 2; l++) {
			sb_adds(out, "\t{");
			for (size_t c = 0; c < p->nr_classes; c++)
				sb_addf(out, "%s%s_class%zu", c ? ", " : " ", layout_tag(l), c);
			sb_adds(out, " },\n");
		}
		sb_adds(out, "};\n\n");
		sb_adds(out, split);
	}
}
