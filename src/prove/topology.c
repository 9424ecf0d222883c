// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: which CPUs the benchmark's threads run on. The CPUs are the
 * ones this process may use (sched_getaffinity: `taskset -c 0` leaves
 * one, whatever the machine has); where they sit comes from sysfs:
 * cpu/cpuN/topology/{physical_package_id,core_id,thread_siblings_list}
 * and the cpuN/nodeM link of each NUMA node.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prove/prove.h"

/* CPUs considered: sched_getaffinity's fixed set. */
#define MAX_CPUS CPU_SETSIZE

/* Up to SIZE-1 bytes of a small sysfs file, NUL-terminated; false when unreadable. */
static bool read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

static int read_int(const char *sysfs, unsigned cpu, const char *name)
{
	char path[512], buf[64], *end;
	long v;

	snprintf(path, sizeof(path), "%s/cpu/cpu%u/topology/%s", sysfs, cpu, name);
	if (!read_small(path, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || v < 0 || v > 1 << 20)
		return -1;
	return (int)v;
}

bool ll_parse_cpu_list(const char *s, size_t len, bool *set, unsigned limit)
{
	size_t i = 0;

	/* sysfs ends the list with a newline. */
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if (!len)
		return false;
	while (i < len) {
		unsigned long lo = 0, hi;
		size_t digits = 0;

		for (; i < len && isdigit((unsigned char)s[i]) && digits < 7; i++, digits++)
			lo = lo * 10 + (unsigned long)(s[i] - '0');
		if (!digits || (i < len && isdigit((unsigned char)s[i])))
			return false;
		hi = lo;
		if (i < len && s[i] == '-') {
			i++;
			hi = 0;
			digits = 0;
			for (; i < len && isdigit((unsigned char)s[i]) && digits < 7; i++, digits++)
				hi = hi * 10 + (unsigned long)(s[i] - '0');
			if (!digits || hi < lo || (i < len && isdigit((unsigned char)s[i])))
				return false;
		}
		for (unsigned long c = lo; c <= hi && c < limit; c++)
			set[c] = true;
		if (i < len && s[i++] != ',')
			return false;
		if (i == len && s[len - 1] == ',')
			return false;
	}
	return true;
}

static int read_node(const char *sysfs, unsigned cpu)
{
	char path[512];
	DIR *d;
	struct dirent *e;
	int node = -1;

	snprintf(path, sizeof(path), "%s/cpu/cpu%u", sysfs, cpu);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long v;

		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		v = strtol(e->d_name + 4, &end, 10);
		if (!*end && v >= 0 && v < 1 << 20) {
			node = (int)v;
			break;
		}
	}
	closedir(d);
	return node;
}

static unsigned distinct(const struct ll_topology *t, int (*key)(const struct ll_cpu *))
{
	unsigned n = 0;

	for (size_t i = 0; i < t->nr_cpus; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = key(&t->cpus[j]) == key(&t->cpus[i]);
		n += !seen;
	}
	return n;
}

static int key_package(const struct ll_cpu *c)
{
	return c->package;
}

static int key_node(const struct ll_cpu *c)
{
	return c->node;
}

static int key_core(const struct ll_cpu *c)
{
	return (int)c->sibling_group;
}

int ll_topology_read(const char *sysfs, struct ll_topology *out, struct ll_error *err)
{
	cpu_set_t allowed;
	static bool siblings[MAX_CPUS];

	memset(out, 0, sizeof(*out));
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return ll_fail(err, "--prove: sched_getaffinity: cannot tell which CPUs to use");
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct ll_cpu c = { .id = cpu, .sibling_group = cpu, .siblings = 1 };
		char path[512], buf[4096];

		if (!CPU_ISSET(cpu, &allowed))
			continue;
		c.package = read_int(sysfs, cpu, "physical_package_id");
		c.core = read_int(sysfs, cpu, "core_id");
		c.node = read_node(sysfs, cpu);
		snprintf(path, sizeof(path), "%s/cpu/cpu%u/topology/thread_siblings_list", sysfs,
			 cpu);
		memset(siblings, 0, sizeof(siblings));
		if (read_small(path, buf, sizeof(buf)) &&
		    ll_parse_cpu_list(buf, strlen(buf), siblings, MAX_CPUS)) {
			c.siblings = 0;
			c.sibling_group = cpu;
			for (unsigned s = 0; s < MAX_CPUS; s++)
				if (siblings[s]) {
					if (!c.siblings)
						c.sibling_group = s;
					c.siblings++;
				}
		}
		out->cpus = xgrow(out->cpus, out->nr_cpus, sizeof(*out->cpus));
		out->cpus[out->nr_cpus++] = c;
	}
	if (!out->nr_cpus)
		return ll_fail(err, "--prove: no CPU is allowed to this process");
	out->packages = distinct(out, key_package);
	out->nodes = distinct(out, key_node);
	out->cores = distinct(out, key_core);
	return 0;
}

void ll_topology_release(struct ll_topology *t)
{
	free(t->cpus);
	memset(t, 0, sizeof(*t));
}

/*
 * The CPUs threads may take, in order: one per core (the lowest CPU of its
 * sibling group) unless SMT, then the siblings too.
 */
static size_t usable(const struct ll_topology *t, bool smt, const struct ll_cpu **v)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nr_cpus; i++) {
		bool taken = false;

		for (size_t j = 0; j < n && !smt; j++)
			taken = taken || v[j]->sibling_group == t->cpus[i].sibling_group;
		if (!taken)
			v[n++] = &t->cpus[i];
	}
	return n;
}

int ll_prove_place(struct ll_prove_plan *p, const struct ll_topology *t, bool smt,
		   struct ll_placement *out, struct ll_error *err)
{
	const struct ll_cpu **v = xcalloc(t->nr_cpus, sizeof(*v));
	size_t n = usable(t, smt, v), writers = 0, reader = SIZE_MAX, next = 0;
	bool *used = xcalloc(n ? n : 1, sizeof(*used));
	int reader_side = -1;

	memset(out, 0, sizeof(*out));
	for (size_t c = 0; c < p->nr_classes; c++) {
		if (p->classes[c].writes)
			writers++;
		else
			reader = c;
	}
	if (t->nr_cpus < 2 || n < 2) {
		free(v);
		free(used);
		if (t->nr_cpus < 2)
			return ll_fail(err, "--prove needs two CPUs and this process may run on "
				       "one (CPU %u): nothing can contend", t->cpus[0].id);
		return ll_fail(err, "--prove: the %zu CPUs allowed are SMT siblings of one core; "
			       "--prove-smt measures on them anyway", t->nr_cpus);
	}
	/* More write domains than CPUs (one kept for the readers): fold the last ones. */
	while (writers + (reader != SIZE_MAX) > n) {
		size_t last = SIZE_MAX;

		for (size_t c = 0; c < p->nr_classes; c++)
			if (p->classes[c].writes)
				last = c;
		for (size_t c = 0; c < last; c++)
			if (p->classes[c].writes) {
				for (size_t i = 0; i < p->nr_members; i++)
					if (p->members[i].cls == last)
						p->members[i].cls = c;
				break;
			}
		for (size_t i = 0; i < p->nr_members; i++)
			if (p->members[i].cls > last)
				p->members[i].cls--;
		{
			struct strbuf sb = STRBUF_INIT;

			sb_addf(&sb, "%s: no CPU of its own left; its members are written by "
				"another writer thread", p->classes[last].name);
			p->notes = xgrow(p->notes, p->nr_notes, sizeof(*p->notes));
			p->notes[p->nr_notes++] = sb_detach(&sb);
		}
		free(p->classes[last].name);
		memmove(&p->classes[last], &p->classes[last + 1],
			(p->nr_classes - last - 1) * sizeof(*p->classes));
		p->nr_classes--;
		if (reader != SIZE_MAX && reader > last)
			reader--;
		writers--;
	}
	/* Writers on the first socket/node; readers on another when there is one. */
	for (size_t c = 0; c < p->nr_classes; c++) {
		if (!p->classes[c].writes)
			continue;
		p->classes[c].threads = 1;
		p->classes[c].cpus = xcalloc(1, sizeof(unsigned));
		while (used[next])
			next++;
		used[next] = true;
		p->classes[c].cpus[0] = v[next]->id;
		if (reader_side < 0)
			reader_side = v[next]->node >= 0 && t->nodes > 1 ? v[next]->node
									  : v[next]->package;
	}
	if (reader != SIZE_MAX) {
		struct ll_prove_class *r = &p->classes[reader];
		size_t free_cpus = 0;
		bool far = false;

		for (size_t i = 0; i < n; i++)
			free_cpus += !used[i];
		/* At most four readers: more measure the machine's fabric, not the line. */
		r->threads = (unsigned)(free_cpus < 4 ? free_cpus : 4);
		r->cpus = xcalloc(r->threads, sizeof(unsigned));
		for (unsigned k = 0; k < r->threads; k++) {
			size_t pick = SIZE_MAX;

			/* Prefer a CPU on another node or socket than the writers'. */
			for (size_t i = 0; i < n && pick == SIZE_MAX; i++) {
				int side = t->nodes > 1 ? v[i]->node : v[i]->package;

				if (!used[i] && side != reader_side)
					pick = i;
			}
			if (pick == SIZE_MAX)
				for (size_t i = 0; i < n && pick == SIZE_MAX; i++)
					if (!used[i])
						pick = i;
			used[pick] = true;
			far = far || (t->nodes > 1 ? v[pick]->node : v[pick]->package) != reader_side;
			r->cpus[k] = v[pick]->id;
		}
		out->how = xstrdup(far ? (t->nodes > 1 ? "readers on another NUMA node than the "
						"writers" : "readers on another socket than the writers")
				       : smt && t->cores < t->nr_cpus ? "SMT siblings allowed (--prove-smt)"
				       : "one thread per core, no SMT siblings");
	} else
		out->how = xstrdup(smt && t->cores < t->nr_cpus ? "SMT siblings allowed (--prove-smt)"
							       : "one thread per core, no SMT siblings");
	for (size_t c = 0; c < p->nr_classes; c++)
		out->threads += p->classes[c].threads;
	free(v);
	free(used);
	return 0;
}

void ll_placement_release(struct ll_placement *pl)
{
	free(pl->how);
	memset(pl, 0, sizeof(*pl));
}
