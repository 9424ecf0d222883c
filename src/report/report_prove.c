// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: the measurement in words (text, with a commit-message
 * paragraph and the perf c2c command line) and as JSON.
 */
#include <math.h>
#include <string.h>

#include "prove/prove.h"
#include "report/report.h"
#include "util/json_writer.h"

static const char *const outcome_name[] = { "inconclusive", "unchanged", "faster", "slower" };
static const char *const op_word[] = { "loads", "plain stores", "atomic RMW" };

static void class_phrase(const struct ll_prove_class *k, struct strbuf *sb)
{
	switch (k->outcome) {
	case LL_PROVE_FASTER:
	case LL_PROVE_SLOWER:
		sb_addf(sb, "%s throughput x%.2f (%.2f-%.2f)", k->name, k->ratio, k->low, k->high);
		break;
	case LL_PROVE_UNCHANGED:
		sb_addf(sb, "%s unchanged", k->name);
		break;
	default:
		if (k->ratio > 0)
			sb_addf(sb, "%s inconclusive (x%.2f, %.2f-%.2f)", k->name, k->ratio, k->low,
				k->high);
		else
			sb_addf(sb, "%s not measured", k->name);
	}
}

/* "reader throughput x2.31 (2.12-2.50) with the fix; writer unchanged" */
void ll_prove_verdict(const struct ll_prove_result *r, struct strbuf *sb)
{
	const struct ll_prove_plan *p = &r->plan;
	bool any = false, all_same = p->nr_classes > 0;
	bool first = true;

	for (size_t c = 0; c < p->nr_classes; c++) {
		any = any || p->classes[c].outcome == LL_PROVE_FASTER ||
		      p->classes[c].outcome == LL_PROVE_SLOWER;
		all_same = all_same && p->classes[c].outcome == LL_PROVE_UNCHANGED;
	}
	if (any) {
		for (size_t c = 0; c < p->nr_classes; c++) {
			const struct ll_prove_class *k = &p->classes[c];

			if (k->outcome != LL_PROVE_FASTER && k->outcome != LL_PROVE_SLOWER)
				continue;
			if (!first)
				sb_adds(sb, ", ");
			class_phrase(k, sb);
			first = false;
		}
		sb_adds(sb, p->against ? " in the new build" : " with the fix");
		for (size_t c = 0; c < p->nr_classes; c++) {
			const struct ll_prove_class *k = &p->classes[c];

			if (k->outcome == LL_PROVE_FASTER || k->outcome == LL_PROVE_SLOWER)
				continue;
			sb_adds(sb, "; ");
			class_phrase(k, sb);
		}
	} else if (all_same)
		sb_adds(sb, "no measurable difference");
	else {
		sb_adds(sb, "inconclusive: noise (");
		for (size_t c = 0; c < p->nr_classes; c++) {
			if (c)
				sb_adds(sb, "; ");
			class_phrase(&p->classes[c], sb);
		}
		sb_adds(sb, ")");
	}
}

static void members_of(const struct ll_prove_plan *p, size_t c, struct strbuf *sb)
{
	bool first = true;

	for (enum ll_prove_op op = LL_PROVE_LOAD; op <= LL_PROVE_RMW; op++) {
		bool any = false;

		for (size_t i = 0; i < p->nr_members; i++) {
			const struct ll_prove_member *m = &p->members[i];

			if (m->cls != c || m->op != op)
				continue;
			if (!any)
				sb_addf(sb, "%s%s to ", first ? "" : ", ", op_word[op]);
			else
				sb_adds(sb, " ");
			sb_adds(sb, m->path);
			any = true;
			first = false;
		}
	}
}

static void cpus_of(const struct ll_prove_class *k, struct strbuf *sb)
{
	for (unsigned t = 0; t < k->threads; t++)
		sb_addf(sb, "%s%u", t ? "," : "", k->cpus ? k->cpus[t] : 0);
}

static void topology_line(const struct ll_prove_result *r, struct strbuf *sb)
{
	const struct ll_topology *t = &r->topology;

	sb_addf(sb, "%zu CPU%s allowed, %u socket%s, %u NUMA node%s, %u core%s: %s", t->nr_cpus,
		t->nr_cpus == 1 ? "" : "s", t->packages, t->packages == 1 ? "" : "s", t->nodes,
		t->nodes == 1 ? "" : "s", t->cores, t->cores == 1 ? "" : "s",
		r->placement.how ? r->placement.how : "");
}

static void load_text(const double l[3], struct strbuf *sb)
{
	if (l[0] < 0)
		sb_adds(sb, "unknown");
	else
		sb_addf(sb, "%.2f %.2f %.2f", l[0], l[1], l[2]);
}

static void human(double v, struct strbuf *sb)
{
	if (v >= 1e9)
		sb_addf(sb, "%.3gG", v / 1e9);
	else if (v >= 1e6)
		sb_addf(sb, "%.3gM", v / 1e6);
	else if (v >= 1e3)
		sb_addf(sb, "%.3gk", v / 1e3);
	else
		sb_addf(sb, "%.3g", v);
}

/* Wrap TEXT at 72 columns, as a commit message is. */
static void wrapped(const char *text, const char *indent, struct strbuf *sb)
{
	size_t col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > 72) {
			sb_addc(sb, '\n');
			col = 0;
		}
		if (!col) {
			sb_adds(sb, indent);
			col = strlen(indent);
		} else {
			sb_addc(sb, ' ');
			col++;
		}
		sb_add(sb, text, w);
		col += w;
		text += w;
		while (*text == ' ')
			text++;
	}
	sb_addc(sb, '\n');
}

static void commit_paragraph(const struct ll_prove_result *r, struct strbuf *sb)
{
	const struct ll_prove_plan *p = &r->plan;
	struct strbuf v = STRBUF_INIT;

	sb_addf(sb, "Measured with layoutlint --prove, a benchmark generated from the two "
		"layouts of struct %s (%s and %s): ", p->struct_name, p->label[0], p->label[1]);
	for (size_t c = 0; c < p->nr_classes; c++) {
		const struct ll_prove_class *k = &p->classes[c];

		sb_addf(sb, "%s%u %s thread%s (", c ? ", " : "", k->threads, k->name,
			k->threads == 1 ? "" : "s");
		members_of(p, c, sb);
		sb_adds(sb, ")");
	}
	sb_addf(sb, ", pinned to CPU");
	for (size_t c = 0; c < p->nr_classes; c++) {
		sb_adds(sb, c ? "," : " ");
		cpus_of(&p->classes[c], sb);
	}
	sb_addf(sb, " (%s); %zu pairs of alternating %u ms runs (ABAB), load average ",
		r->placement.how ? r->placement.how : "", r->pairs, r->sample_ms);
	load_text(r->load_before, sb);
	ll_prove_verdict(r, &v);
	if (r->cpu_share >= 0 && r->cpu_share < 0.9)
		sb_addf(sb, " (the threads had their CPUs %.0f%% of the time)", r->cpu_share * 100);
	sb_addf(sb, ". Result, 95%% Welch intervals of after/before throughput: %s.", v.buf);
	sb_release(&v);
}

static void c2c_lines(const struct ll_prove_plan *p, struct strbuf *sb)
{
	uint64_t line = p->cacheline;
	uint64_t lines = (p->size[0] + line - 1) / line;

	for (uint64_t ln = 0; ln < lines; ln++) {
		bool writes = false, other = false, any = false;
		size_t first_cls = SIZE_MAX;

		for (size_t i = 0; i < p->nr_members; i++) {
			const struct ll_prove_member *m = &p->members[i];

			if (m->offset[0] / line > ln || (m->offset[0] + m->size - 1) / line < ln)
				continue;
			writes = writes || m->op != LL_PROVE_LOAD;
			if (first_cls == SIZE_MAX)
				first_cls = m->cls;
			other = other || m->cls != first_cls;
		}
		if (!writes || !other)
			continue;
		sb_addf(sb, "  line %llu of struct %s (offsets 0x%llx-0x%llx):",
			(unsigned long long)ln, p->struct_name, (unsigned long long)(ln * line),
			(unsigned long long)(ln * line + line - 1));
		for (size_t i = 0; i < p->nr_members; i++) {
			const struct ll_prove_member *m = &p->members[i];

			if (m->offset[0] / line > ln || (m->offset[0] + m->size - 1) / line < ln)
				continue;
			/* perf c2c's Pareto table gives the offset within the line. */
			sb_addf(sb, "%s %s at 0x%llx (+0x%llx in the line) %s", any ? "," : "",
				m->path, (unsigned long long)m->offset[0],
				(unsigned long long)(m->offset[0] > ln * line ? m->offset[0] - ln * line
									       : 0),
				m->op == LL_PROVE_LOAD ? "read" : "written");
			any = true;
		}
		sb_adds(sb, "\n");
	}
}

void ll_report_prove_text(const struct ll_prove_result *r, struct strbuf *out)
{
	const struct ll_prove_plan *p = &r->plan;
	struct strbuf v = STRBUF_INIT, para = STRBUF_INIT;

	sb_addf(out, "prove: struct %s, before: %s (%llu bytes), after: %s (%llu bytes), "
		"%u-byte lines%s\n", p->struct_name, p->label[0], (unsigned long long)p->size[0],
		p->label[1], (unsigned long long)p->size[1], p->cacheline,
		p->same_layout ? " (the same offsets: a control run)" : "");
	for (size_t c = 0; c < p->nr_classes; c++) {
		sb_addf(out, "  %-14s %u thread%s on CPU ", p->classes[c].name,
			p->classes[c].threads, p->classes[c].threads == 1 ? " " : "s");
		cpus_of(&p->classes[c], out);
		sb_adds(out, ": ");
		members_of(p, c, out);
		sb_adds(out, "\n");
	}
	for (size_t i = 0; i < p->nr_notes; i++)
		sb_addf(out, "  note: %s\n", p->notes[i]);
	sb_adds(out, "topology: ");
	topology_line(r, out);
	sb_adds(out, "\nload average: ");
	load_text(r->load_before, out);
	sb_adds(out, " before, ");
	load_text(r->load_after, out);
	sb_addf(out, " after\nruns: %zu pairs of %u ms, ABAB, %.1f s%s; compiler: %s\n",
		r->pairs, r->sample_ms, r->seconds,
		r->converged ? ", every interval within the target" : ", the budget ended first",
		r->compiler ? r->compiler : "?");
	if (r->cpu_share >= 0) {
		sb_addf(out, "CPU share: the threads had their CPUs %.0f%% of the time", r->cpu_share * 100);
		if (r->cpu_share < 0.9)
			sb_adds(out, " (other load): they contended less than on an idle machine, so "
				"the ratios understate the effect and vary with the load");
		sb_adds(out, "\n");
	}
	sb_addf(out, "%-16s %14s %14s %8s  %s\n", "class", "before (ops/s)", "after (ops/s)",
		"ratio", "95% interval");
	for (size_t c = 0; c < p->nr_classes; c++) {
		const struct ll_prove_class *k = &p->classes[c];
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

		human(k->mean[0], &a);
		human(k->mean[1], &b);
		sb_addf(out, "%-16s %14s %14s %7.3fx  %.3f-%.3f  %s\n", k->name, a.buf, b.buf,
			k->ratio, k->low, k->high, outcome_name[k->outcome]);
		sb_release(&a);
		sb_release(&b);
	}
	ll_prove_verdict(r, &v);
	sb_addf(out, "verdict: %s\n", v.buf);
	if (r->have_misses)
		sb_addf(out, "perf stat: cache-misses %.0f before, %.0f after (x%.2f); "
			"cache-references %.0f before, %.0f after\n", r->cache_misses[0],
			r->cache_misses[1],
			r->cache_misses[0] > 0 ? r->cache_misses[1] / r->cache_misses[0] : 0.0,
			r->cache_refs[0], r->cache_refs[1]);
	else
		sb_addf(out, "perf stat: %s\n", r->pmu_note ? r->pmu_note : "not run");
	sb_adds(out, "perf c2c, to confirm on the real workload (x86 HITM, arm64 SPE peer "
		"events):\n  perf c2c record -a -- WORKLOAD\n"
		"  perf c2c report --stdio --display tot --full-symbols\n");
	{
		size_t before = out->len;

		c2c_lines(p, out);
		if (out->len == before)
			sb_adds(out, "  no line mixes a written member with another class's: expect "
				"no HITM on struct ");
		else
			sb_insert(out, before, "  expect contended lines (Shared Data Cache Line Table):\n");
		if (out->len > before && out->buf[out->len - 1] == ' ')
			sb_addf(out, "%s\n", p->struct_name);
	}
	commit_paragraph(r, &para);
	sb_adds(out, "commit message:\n");
	wrapped(para.buf, "  ", out);
	sb_release(&v);
	sb_release(&para);
}

static void jw_kratio(struct json_writer *w, const char *key, double v)
{
	if (v > 0 && isfinite(v))
		jw_kdouble(w, key, v);
	else
		jw_knull(w, key);
}

void ll_report_prove_json(const struct ll_prove_result *r, struct strbuf *out)
{
	const struct ll_prove_plan *p = &r->plan;
	struct json_writer w;
	struct strbuf v = STRBUF_INIT, para = STRBUF_INIT, c2c = STRBUF_INIT;

	jw_init(&w, true);
	jw_begin_object(&w);
	jw_kstring(&w, "struct", p->struct_name);
	ll_prove_verdict(r, &v);
	jw_kstring(&w, "verdict", v.buf);
	jw_kbegin_array(&w, "classes");
	for (size_t c = 0; c < p->nr_classes; c++) {
		const struct ll_prove_class *k = &p->classes[c];

		jw_begin_object(&w);
		jw_kstring(&w, "name", k->name);
		jw_kratio(&w, "before", k->mean[0]);
		jw_kratio(&w, "after", k->mean[1]);
		jw_kratio(&w, "ratio", k->ratio);
		jw_kratio(&w, "low", k->low);
		jw_kratio(&w, "high", k->high);
		jw_kstring(&w, "outcome", outcome_name[k->outcome]);
		jw_kuint(&w, "threads", k->threads);
		jw_kbegin_array(&w, "cpus");
		for (unsigned t = 0; t < k->threads; t++)
			jw_uint(&w, k->cpus ? k->cpus[t] : 0);
		jw_end_array(&w);
		jw_kuint(&w, "samples_before", k->samples[0]);
		jw_kuint(&w, "samples_after", k->samples[1]);
		jw_end_object(&w);
	}
	jw_end_array(&w);
	jw_kbegin_array(&w, "layouts");
	for (int l = 0; l < 2; l++) {
		jw_begin_object(&w);
		jw_kstring(&w, "label", p->label[l]);
		jw_kstring(&w, "struct", l ? "after" : "before");
		jw_kuint(&w, "size", p->size[l]);
		jw_kuint(&w, "alignment", p->alignment[l]);
		jw_end_object(&w);
	}
	jw_end_array(&w);
	jw_kbool(&w, "same_layout", p->same_layout);
	jw_kbegin_array(&w, "members");
	for (size_t i = 0; i < p->nr_members; i++) {
		const struct ll_prove_member *m = &p->members[i];

		jw_begin_object(&w);
		jw_kstring(&w, "path", m->path);
		jw_kstring(&w, "field", m->ident);
		jw_kstring(&w, "class", p->classes[m->cls].name);
		jw_kstring(&w, "access", op_word[m->op]);
		jw_kuint(&w, "size", m->size);
		jw_kuint(&w, "offset_before", m->offset[0]);
		jw_kuint(&w, "offset_after", m->offset[1]);
		jw_end_object(&w);
	}
	jw_end_array(&w);
	jw_kbegin_array(&w, "notes");
	for (size_t i = 0; i < p->nr_notes; i++)
		jw_string(&w, p->notes[i]);
	jw_end_array(&w);
	jw_kbegin_object(&w, "topology");
	jw_kuint(&w, "cpus_allowed", r->topology.nr_cpus);
	jw_kuint(&w, "sockets", r->topology.packages);
	jw_kuint(&w, "numa_nodes", r->topology.nodes);
	jw_kuint(&w, "cores", r->topology.cores);
	jw_kstring(&w, "placement", r->placement.how);
	jw_end_object(&w);
	jw_kbegin_array(&w, "load_average");
	for (int i = 0; i < 3; i++)
		jw_double(&w, r->load_before[i]);
	jw_end_array(&w);
	jw_kbegin_array(&w, "load_average_after");
	for (int i = 0; i < 3; i++)
		jw_double(&w, r->load_after[i]);
	jw_end_array(&w);
	jw_kuint(&w, "pairs", r->pairs);
	jw_kuint(&w, "sample_ms", r->sample_ms);
	jw_kdouble(&w, "seconds", r->seconds);
	jw_kbool(&w, "converged", r->converged);
	if (r->cpu_share >= 0)
		jw_kdouble(&w, "cpu_share", r->cpu_share);
	else
		jw_knull(&w, "cpu_share");
	jw_kstring(&w, "compiler", r->compiler);
	jw_kbegin_object(&w, "perf_stat");
	jw_kbool(&w, "pmu", r->pmu);
	if (r->have_misses) {
		jw_kdouble(&w, "cache_misses_before", r->cache_misses[0]);
		jw_kdouble(&w, "cache_misses_after", r->cache_misses[1]);
		jw_kdouble(&w, "cache_references_before", r->cache_refs[0]);
		jw_kdouble(&w, "cache_references_after", r->cache_refs[1]);
	} else
		jw_kstring(&w, "note", r->pmu_note ? r->pmu_note : "not run");
	jw_end_object(&w);
	jw_kbegin_object(&w, "perf_c2c");
	jw_kstring(&w, "record", "perf c2c record -a -- WORKLOAD");
	jw_kstring(&w, "report", "perf c2c report --stdio --display tot --full-symbols");
	c2c_lines(p, &c2c);
	jw_kstring(&w, "expected_lines", c2c.buf ? c2c.buf : "");
	jw_end_object(&w);
	commit_paragraph(r, &para);
	jw_kstring(&w, "commit_message", para.buf);
	jw_end_object(&w);
	sb_add(out, w.out.buf, w.out.len);
	sb_addc(out, '\n');
	jw_release(&w);
	sb_release(&v);
	sb_release(&para);
	sb_release(&c2c);
}
