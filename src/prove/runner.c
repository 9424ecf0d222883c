// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: compile the generated benchmark and run it, before and after
 * alternately (ABAB: drift in the machine's load hits both layouts alike),
 * in short batches, until every class's interval is tight or the budget
 * ends. A warm-up pair first is thrown away (page faults, frequency).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prove/prove.h"

/* Output of one child kept at most: a batch prints a few lines per run. */
#define MAX_OUTPUT (1u << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * PROG found on PATH ($PATH's value, from cli; NULL: /usr/bin:/bin), or
 * PROG itself when it names a path; NULL when neither; caller frees.
 */
static char *on_path(const char *path, const char *prog)
{
	struct strbuf sb = STRBUF_INIT;

	if (!prog || !*prog)
		return NULL;
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);

		sb_reset(&sb);
		sb_add(&sb, p, len);
		sb_addf(&sb, "/%s", prog);
		if (len && access(sb.buf, X_OK) == 0)
			return sb_detach(&sb);
		p += len + (colon != NULL);
	}
	sb_release(&sb);
	return NULL;
}

/*
 * Run ARGV, its stdout into OUT and stderr into ERRS (bounded), killed after
 * TIMEOUT seconds. Returns its exit status, 128+signal, or -1 when it
 * could not start or ran out of time.
 */
static int run_capture(char *const argv[], struct strbuf *out, struct strbuf *errs, double timeout)
{
	int po[2], pe[2], status;
	pid_t pid;
	double deadline = now_s() + timeout;
	bool open_o = true, open_e = true, late = false;

	if (pipe2(po, O_CLOEXEC))
		return -1;
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	while (open_o || open_e) {
		struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
		double left = deadline - now_s();
		char buf[8192];

		if (left <= 0) {
			late = true;
			kill(pid, SIGKILL);
			break;
		}
		if (!open_o)
			fds[0].fd = -1;
		if (!open_e)
			fds[1].fd = -1;
		if (poll(fds, 2, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2; k++) {
			struct strbuf *sb = k ? errs : out;
			ssize_t n;

			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[k].fd, buf, sizeof(buf));
			if (n <= 0) {
				if (k)
					open_e = false;
				else
					open_o = false;
			} else if (sb->len + (size_t)n <= MAX_OUTPUT)
				sb_add(sb, buf, (size_t)n);
		}
	}
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (late)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static void first_line(const struct strbuf *sb, struct strbuf *out)
{
	const char *s = sb->buf ? sb->buf : "";
	size_t n = strcspn(s, "\n");

	for (size_t i = 0; i < n && i < 300; i++)
		sb_addc(out, (unsigned char)s[i] < ' ' ? '?' : s[i]);
}

static void load_average(double load[3])
{
	char buf[256];
	FILE *f = fopen("/proc/loadavg", "r");

	load[0] = load[1] = load[2] = -1;
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
		load[0] = load[1] = load[2] = -1;
	fclose(f);
}

struct samples {
	double *v[2];
	size_t n[2];
};

/* The runs' CPU shares, summed, for the mean the report shows. */
struct shares {
	double sum;
	size_t n;
};

/*
 * Lines "S LAYOUT PAIR CLASS OPS_PER_CPU_SECOND WALL_NS CPU_SHARE" into S (one
 * array per class) and SH.
 */
static size_t parse_samples(const struct strbuf *out, struct samples *s, size_t nr_classes,
			    struct shares *sh)
{
	const char *p = out->buf ? out->buf : "";
	size_t runs = 0;

	while (*p) {
		char layout;
		unsigned pair;
		int cls;
		double ops, ns, share = -1;

		if (sscanf(p, "S %c %u %d %lf %lf %lf", &layout, &pair, &cls, &ops, &ns, &share) >= 5 &&
		    (layout == 'A' || layout == 'B') && cls >= 0 && (size_t)cls < nr_classes &&
		    ns > 0) {
			int l = layout == 'B';
			struct samples *c = &s[cls];

			c->v[l] = xgrow(c->v[l], c->n[l], sizeof(double));
			c->v[l][c->n[l]++] = ops;	/* per second of the threads' CPU time */
			runs += cls == 0;
			if (cls == 0 && share >= 0 && share <= 1.5) {
				sh->sum += share;
				sh->n++;
			}
		}
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return runs;
}

static void cpu_list(const struct ll_prove_plan *p, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < p->nr_classes; c++)
		for (unsigned t = 0; t < p->classes[c].threads && at + 12 < size; t++)
			at += (size_t)snprintf(buf + at, size - at, "%s%u", at ? "," : "",
					       p->classes[c].cpus[t]);
}

/* Whether the kernel lists a hardware PMU with the cache-miss events. */
static bool hardware_pmu(char **why)
{
	static const char *const pmus[] = { "/sys/bus/event_source/devices/cpu",
					    "/sys/bus/event_source/devices/cpu_core",
					    "/sys/bus/event_source/devices/armv8_pmuv3_0", NULL };
	struct stat st;

	for (size_t i = 0; pmus[i]; i++)
		if (stat(pmus[i], &st) == 0)
			return true;
	*why = xstrdup("no hardware PMU (no cpu device under /sys/bus/event_source/devices): "
		       "no cache-miss counters on this machine");
	return false;
}

/* "VALUE,UNIT,EVENT,..." lines of perf stat -x, for EVENT. */
static bool perf_value(const struct strbuf *errs, const char *event, double *v)
{
	const char *p = errs->buf ? errs->buf : "";

	while (*p) {
		const char *nl = p + strcspn(p, "\n");
		char *end;
		double x = strtod(p, &end);

		if (end != p && *end == ',') {
			const char *f = strchr(end + 1, ',');

			if (f && strncmp(f + 1, event, strlen(event)) == 0 &&
			    (f[1 + strlen(event)] == ',' || f[1 + strlen(event)] == ':')) {
				*v = x;
				return true;
			}
		}
		p = *nl ? nl + 1 : nl;
	}
	return false;
}

static void perf_stat(const char *path, const char *prog, const char *cpus, unsigned ms,
		      struct ll_prove_result *r)
{
	char *perf = on_path(path, "perf");
	char pairs[] = "3", msbuf[16];

	if (!hardware_pmu(&r->pmu_note)) {
		free(perf);
		return;
	}
	r->pmu = true;
	if (!perf) {
		r->pmu_note = xstrdup("the PMU has counters but perf is not on PATH");
		return;
	}
	snprintf(msbuf, sizeof(msbuf), "%u", ms);
	r->have_misses = true;
	for (int l = 0; l < 2; l++) {
		struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
		char *argv[] = { perf, "stat", "-x", ",", "-e", "cache-misses,cache-references",
				 "--", (char *)prog, pairs, msbuf, (char *)cpus, l ? "B" : "A", NULL };
		int st = run_capture(argv, &out, &errs, 60);

		if (st != 0 || !perf_value(&errs, "cache-misses", &r->cache_misses[l]) ||
		    !perf_value(&errs, "cache-references", &r->cache_refs[l])) {
			struct strbuf why = STRBUF_INIT;

			sb_adds(&why, "perf stat gave no cache-miss counts: ");
			first_line(&errs, &why);
			r->pmu_note = sb_detach(&why);
			r->have_misses = false;
		}
		sb_release(&out);
		sb_release(&errs);
		if (!r->have_misses)
			break;
	}
	free(perf);
}

/* PAIRS pairs of runs (ABAB) of PROG into OUT; -1 with ERR when it fails or overruns. */
static int run_pairs(char *prog, unsigned pairs, char *ms, char *cpus, double timeout,
		     struct strbuf *out, struct ll_error *err)
{
	char count[16];
	char *argv[] = { prog, count, ms, cpus, "AB", NULL };
	struct strbuf errs = STRBUF_INIT, why = STRBUF_INIT;
	int st;

	snprintf(count, sizeof(count), "%u", pairs);
	sb_reset(out);
	st = run_capture(argv, out, &errs, timeout);
	if (st != 0) {
		first_line(&errs, &why);
		if (st < 0)
			ll_fail(err, "--prove: the benchmark could not run, or ran past %.0f s", timeout);
		else
			ll_fail(err, "--prove: the benchmark failed (exit %d): %s", st,
				why.len ? why.buf : "no message");
	}
	sb_release(&errs);
	sb_release(&why);
	return st != 0 ? -1 : 0;
}

static bool all_tight(const struct ll_prove_plan *p, double tight)
{
	for (size_t c = 0; c < p->nr_classes; c++) {
		const struct ll_prove_class *k = &p->classes[c];

		if (k->samples[0] < 2 || k->samples[1] < 2 || !(k->ratio > 0))
			return false;
		if (k->high / k->ratio - 1 > tight || 1 - k->low / k->ratio > tight)
			return false;
	}
	return true;
}

static void conclude(struct ll_prove_plan *p, const struct samples *s)
{
	for (size_t c = 0; c < p->nr_classes; c++) {
		struct ll_prove_class *k = &p->classes[c];
		bool ok;

		for (int l = 0; l < 2; l++) {
			double sum = 0;

			for (size_t i = 0; i < s[c].n[l]; i++)
				sum += s[c].v[l][i];
			k->samples[l] = s[c].n[l];
			k->mean[l] = s[c].n[l] ? sum / (double)s[c].n[l] : 0;
		}
		ok = ll_welch_ratio(s[c].v[0], s[c].n[0], s[c].v[1], s[c].n[1], &k->ratio, &k->low,
				    &k->high, &k->df);
		if (!ok)
			k->ratio = k->low = k->high = 0;
		k->outcome = ll_prove_outcome_of(k->low, k->high, ok);
	}
}

int ll_prove_run(const struct ll_prove_opts *o, const char *source, struct ll_prove_result *r,
		 struct ll_error *err)
{
	struct ll_prove_plan *p = &r->plan;
	const char *tmp = o->tmpdir;
	char dir[4096], src[4200], prog[4200], cpus[4096], msbuf[16];
	char *cc = NULL;
	struct samples *s = xcalloc(p->nr_classes, sizeof(*s));
	struct shares sh = { 0 };
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	double start, per_pair;
	int status = -1, st;
	FILE *f;

	r->sample_ms = o->sample_ms;
	if (o->cc && *o->cc)
		cc = on_path(o->path, o->cc);
	else if (!(cc = on_path(o->path, "cc")) && !(cc = on_path(o->path, "gcc")))
		cc = on_path(o->path, "clang");
	if (!cc) {
		ll_fail(err, "--prove: no C compiler ('%s'): set CC or install gcc or clang",
			o->cc && *o->cc ? o->cc : "cc, gcc, clang");
		free(s);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/layoutlint-prove-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ll_fail(err, "--prove: cannot make a directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			strerror(errno));
		free(cc);
		free(s);
		return -1;
	}
	snprintf(src, sizeof(src), "%s/prove.c", dir);
	snprintf(prog, sizeof(prog), "%s/prove", dir);
	if (!(f = fopen(src, "w")) || fputs(source, f) < 0 || fclose(f)) {
		ll_fail(err, "--prove: cannot write %s", src);
		goto out;
	}
	{
		char *argv[] = { cc, "--version", NULL };
		struct strbuf line = STRBUF_INIT;

		sb_adds(&line, cc);
		if (run_capture(argv, &out, &errs, 30) == 0) {
			sb_adds(&line, " (");
			first_line(&out, &line);
			sb_adds(&line, ")");
		}
		r->compiler = sb_detach(&line);
		sb_reset(&out);
		sb_reset(&errs);
	}
	{
		char *argv[] = { cc, "-std=c11", "-O2", "-pthread", "-o", prog, src, NULL };

		st = run_capture(argv, &out, &errs, 120);
		if (st != 0) {
			struct strbuf why = STRBUF_INIT;

			first_line(&errs, &why);
			ll_fail(err, "--prove: %s could not compile the benchmark (exit %d): %s", cc, st,
				why.len ? why.buf : "no message");
			sb_release(&why);
			goto out;
		}
	}
	cpu_list(p, cpus, sizeof(cpus));
	snprintf(msbuf, sizeof(msbuf), "%u", o->sample_ms);
	load_average(r->load_before);
	start = now_s();
	/* The warm-up pair, thrown away; it also times a pair. */
	if (run_pairs(prog, 1, msbuf, cpus, 30 + 4.0 * o->sample_ms / 1000, &out, err))
		goto out;
	per_pair = now_s() - start;
	for (;;) {
		/* Batches of about half a second, whole pairs, ABAB. */
		unsigned pairs = (unsigned)(0.5 / per_pair);
		double t0;

		if (pairs < 1)
			pairs = 1;
		if (now_s() - start + pairs * per_pair > o->budget)
			pairs = (unsigned)((o->budget - (now_s() - start)) / per_pair);
		if (!pairs)
			break;
		t0 = now_s();
		if (run_pairs(prog, pairs, msbuf, cpus, 30 + 4.0 * pairs * per_pair, &out, err))
			goto out;
		r->pairs += parse_samples(&out, s, p->nr_classes, &sh) / 2;
		per_pair = (now_s() - t0) / pairs;
		conclude(p, s);
		if (r->pairs >= 5 && all_tight(p, o->tight)) {
			r->converged = true;
			break;
		}
	}
	r->seconds = now_s() - start;
	r->cpu_share = sh.n ? sh.sum / (double)sh.n : -1;
	load_average(r->load_after);
	conclude(p, s);
	perf_stat(o->path, prog, cpus, o->sample_ms, r);
	status = 0;
out:
	unlink(prog);
	unlink(src);
	rmdir(dir);
	for (size_t c = 0; c < p->nr_classes; c++) {
		free(s[c].v[0]);
		free(s[c].v[1]);
	}
	free(s);
	free(cc);
	sb_release(&out);
	sb_release(&errs);
	return status;
}

void ll_prove_result_release(struct ll_prove_result *r)
{
	ll_prove_plan_release(&r->plan);
	ll_placement_release(&r->placement);
	ll_topology_release(&r->topology);
	free(r->compiler);
	free(r->pmu_note);
	memset(r, 0, sizeof(*r));
}
