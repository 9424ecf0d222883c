// SPDX-License-Identifier: GPL-2.0-or-later
/* Builds on two threads: the candidates picked, built in rounds, by unit. */
#include "input/dwarf/readerP.h"

/*
 * One build of a whole-image lookup (--list, --audit, --contains: ~9,000
 * structs of a vmlinux, the longest step). Its DIE is read again in the
 * handle of the thread that builds it.
 */
struct build_job {
	size_t query;
	struct candidate *pick;
	/*
	 * reader_pick_die() or the build failed: why, owned (an ll_error is 1 KiB,
	 * and a --list has ~10^4 jobs).
	 */
	struct ll_error *err;
	int prepare_rc;
	int rc;
	bool unsupported;
	struct ll_struct *layout;
	size_t members;
	size_t holes;			/* reader_settle_layout()'s, when the build succeeded */
	/* The build's, for the pick, when WANT_WORDS (its query records definitions). */
	bool want_words;
	struct member_words words;
};

/* Keep ERR in JOB when RC says it failed. */
static void job_error(struct build_job *job, int rc, const struct ll_error *err)
{
	if (rc && !job->err) {
		job->err = xmalloc(sizeof(*job->err));
		*job->err = *err;
	}
}

struct build_pool {
	const struct ll_dwarf_input *in;
	const struct ll_query *queries;
	struct build_job *jobs;		/* in query order */
	size_t nr_jobs;
	size_t budget;			/* what was left before the first job */
	const size_t *round;		/* the jobs the threads build now, by index */
	size_t nr_round;
	atomic_size_t next;		/* into round */
};

struct build_worker {
	struct build_pool *pool;
	Dwarf *dwarf;			/* this thread's own handle */
	struct build_memo memo;		/* and its own memo */
};

static void *build_worker_main(void *arg)
{
	struct build_worker *w = arg;
	struct build_pool *pool = w->pool;

	for (;;) {
		size_t r = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
		struct build_job *job;
		Dwarf_Die die;

		if (r >= pool->nr_round)
			break;
		job = &pool->jobs[pool->round[r]];
		if (job->prepare_rc)
			continue;
		if (!dwarf_offdie(w->dwarf, job->pick->die, &die)) {
			job->rc = -1;	/* finish_jobs() builds it again, and says why */
			continue;
		}
		const struct ll_query *q = &pool->queries[job->query];
		struct build_how how = reader_build_how_for(q, job->pick);
		struct ll_error err;

		how.budget = pool->budget;
		job->rc = reader_build_struct_budget(pool->in, &die, q->name, &how, &w->memo, &job->layout,
					      &job->unsupported, &job->members,
					      job->want_words ? &job->words : NULL, &err);
		job_error(job, job->rc, &err);
		if (!job->rc) {
			bool digested;

			job->holes = reader_settle_layout(&pool->queries[job->query], job->layout,
						   &digested);
		}
	}
	return NULL;
}

/*
 * Whether IN's builds may run on two threads: its DWARF is the file's own
 * .debug_info alone, so a second libdw handle on the same ELF sees all
 * of it, and enough structs are built to be worth a thread, or the lookup
 * is a whole-image one that builds any. Then its few builds (a cold
 * --contains address_space builds 11 of the 6.12 image's 8,757 definitions) go
 * in .debug_info order behind made-up unit headers (skip_for_few_builds()),
 * not in name order with every unit header before each written first.
 */
#define PARALLEL_MIN_BUILDS 64

bool reader_builds_in_parallel(const struct ll_dwarf_input *in, size_t nr_queries,
			       size_t nr_jobs)
{
	return (nr_jobs >= PARALLEL_MIN_BUILDS || (nr_jobs && nr_queries >= PARALLEL_MIN_BUILDS)) &&
	       ll_threads() > 1 && in->own_dwarf &&
	       in->nr_parts == 1 && !in->parts[0].src.types && !in->alt.dwarf &&
	       in->dwp.n == 0 && !in->build_root;
}

/*
 * The jobs in query order, as the serial loop would have finished them:
 * each counts against the members built before it. A job whose members
 * would not have fit what was left then, or that failed, is built again
 * here with exactly that budget, so that the answer (and the error) is
 * the serial one whatever the threads did.
 */
static int finish_jobs(struct ll_dwarf_input *in, const struct ll_query *queries,
		       struct ll_finder **finders, struct build_pool *pool,
		       struct ll_lookup_result *results, struct ll_error *err)
{
	int rc = 0;

	for (size_t j = 0; j < pool->nr_jobs && !rc; j++) {
		struct build_job *job = &pool->jobs[j];
		const struct ll_query *q = &queries[job->query];
		size_t left = in->member_budget - in->members_built;
		Dwarf_Die die;
		bool rebuilt = job->rc || job->members > left;

		struct ll_error berr;

		if (job->prepare_rc) {
			*err = *job->err;
			rc = -1;
			break;
		}
		if (rebuilt) {
			ll_struct_free(job->layout);
			job->layout = NULL;
			free(job->words.blob);
			job->words = (struct member_words){ 0 };
			if (reader_pick_die(in, finders, job->pick, &die, err)) {
				rc = -1;
				break;
			}
			struct build_how how = reader_build_how_for(q, job->pick);

			job->rc = reader_build_struct(in, &die, q->name, &how, &job->layout,
					       &job->unsupported,
					       job->want_words ? &job->words : NULL, &berr);
		} else {
			in->members_built += job->members;
			if (job->rc)
				berr = *job->err;
		}
		rc = reader_finish_build(in, q, job->pick, &results[job->query], job->rc, job->layout,
				  rebuilt ? NULL : &job->holes, job->unsupported, &job->words,
				  &berr, err);
		job->layout = NULL;
	}
	for (size_t j = 0; j < pool->nr_jobs; j++) {
		ll_struct_free(pool->jobs[j].layout);
		free(pool->jobs[j].err);
		free(pool->jobs[j].words.blob);
	}
	return rc;
}

/* The units a round of builds makes real at once: the peak of the image. */
#define ROUND_BYTES ((uint64_t)32 << 20)

int reader_cmp_by_die(const void *a, const void *b)
{
	const struct by_die *x = a, *y = b;

	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * From BYDIE[*K]: the next round's jobs into POOL's round, each unit's
 * jobs in one round, until their units add up to ROUND_BYTES, or span
 * that much past FROM (what earlier rounds gave back of the file's
 * mapping; UINT64_MAX: no mapping to bound): libdw reads every unit
 * header up to the DIE it finds, each read mapping ~64 KiB of the file,
 * and the ~150 builds of an --audit='*' in one round of the 6.12 image
 * held a large part of it at once.
 */
static void next_round(struct build_pool *pool, struct ll_finder *finder,
		       const struct by_die *bydie, size_t *k, size_t *round, uint64_t from)
{
	uint64_t bytes = 0, unit = UINT64_MAX;
	size_t nr = 0;

	while (*k < pool->nr_jobs) {
		uint64_t begin, end;
		bool known = ll_finder_unit_span(finder, bydie[*k].die, &begin, &end);

		if (known && begin != unit) {
			if (nr && (bytes >= ROUND_BYTES ||
				   (from != UINT64_MAX && end - from > ROUND_BYTES)))
				break;
			bytes += end - begin;
			unit = begin;
		}
		round[nr++] = bydie[(*k)++].at;
	}
	pool->round = round;
	pool->nr_round = nr;
}

/*
 * Give back the units of POOL's round. From the file's mapping, all of
 * .debug_info up to its last unit not given back yet (*RELEASED) goes in
 * one call (a release may cost every CPU a TLB flush; those bytes are
 * read again from the file if need be); copied in, only each unit's own,
 * which the finder then knows to read again.
 */
static void release_round(const struct build_pool *pool, struct ll_finder *finder,
			  struct ll_sparse_image *image, uint64_t *released)
{
	uint64_t begin, end, last = 0;

	if (image && ll_sparse_whole(image)) {
		/*
		 * And all before it: libdw read the headers of the units
		 * between rounds, and each read mapped ~64 KiB around it.
		 */
		for (size_t r = 0; r < pool->nr_round; r++)
			if (ll_finder_unit_span(finder, pool->jobs[pool->round[r]].pick->die, &begin,
						&end) && end > last)
				last = end;
		if (last > *released)
			ll_sparse_release(image, *released, last - *released);
		*released = last > *released ? last : *released;
		return;
	}
	for (size_t r = 0; r < pool->nr_round; r++)
		ll_finder_release(finder, pool->jobs[pool->round[r]].pick->die);
}

/* Build POOL's round on WORKERS: the second on a thread of its own, if it has a handle. */
static void build_round(struct build_pool *pool, struct build_worker workers[2])
{
	pthread_t tid;
	bool two;

	atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
	two = workers[1].dwarf && pthread_create(&tid, NULL, build_worker_main, &workers[1]) == 0;
	build_worker_main(&workers[0]);
	if (two)
		pthread_join(tid, NULL);
}

/*
 * Every query of a whole-image lookup: those that need no build at once,
 * in order; the builds on two threads, the second with its own libdw
 * handle on the same ELF image (libdw handles share nothing). The builds
 * go in rounds, in .debug_info order: this thread makes a round's units
 * real (the threads only read the image), both build them, and the
 * units' memory is given back before the next round. Holding every unit
 * at once, a --list='*' of the 6.12 image peaked far higher.
 * A job no round built (a unit that could not be made real stops them)
 * keeps rc -1: finish_jobs() builds it again in query order, as the
 * serial loop would, and says why it fails.
 */
static int resolve_all(struct ll_dwarf_input *in, const struct ll_query *queries,
		       struct query_state *state, struct ll_finder **finders,
		       struct ll_lookup_result *results, size_t n, const size_t *order,
		       struct ll_error *err)
{
	struct build_pool pool = { .in = in, .queries = queries };
	struct build_worker workers[2];
	struct by_die *bydie;
	size_t *round, k = 0;
	uint64_t released = 0;	/* .debug_info below it is given back */
	bool stopped = false;
	int rc = 0;

	/*
	 * Most units will be read: from the file's own mapping, where the
	 * page cache holds them already. Copied into zeroed anonymous pages
	 * (huge ones) instead, the zeroing and the copy were a large share
	 * of a cold --list='*'. Not where libdw's handle holds a made-up
	 * unit header the file does not have (ll_finder_faked()).
	 */
	bool faked = ll_finder_faked(finders[0]);

	if (in->image && !faked && ll_sparse_fill_all(in->image, err))
		ll_sparse_prefer_huge(in->image);
	pool.jobs = xcalloc(n ? n : 1, sizeof(*pool.jobs));
	for (size_t q = 0; q < n; q++) {
		size_t i = order ? order[q] : q;
		struct candidate *pick;

		if (!reader_resolve_unbuilt(in, &queries[i], &state[i], finders, &results[i], &pick))
			continue;
		pool.jobs[pool.nr_jobs++] = (struct build_job){ .query = i, .pick = pick, .rc = -1,
								.want_words = state[i].capture != NULL ||
										pick->record_words };
	}
	pool.budget = in->member_budget - in->members_built;
	bydie = xcalloc(pool.nr_jobs ? pool.nr_jobs : 1, sizeof(*bydie));
	round = xcalloc(pool.nr_jobs ? pool.nr_jobs : 1, sizeof(*round));
	for (size_t j = 0; j < pool.nr_jobs; j++)
		bydie[j] = (struct by_die){ pool.jobs[j].pick->die, j };
	qsort(bydie, pool.nr_jobs, sizeof(*bydie), reader_cmp_by_die);
	workers[0] = (struct build_worker){ .pool = &pool, .dwarf = in->parts[0].src.dwarf };
	workers[1] = (struct build_worker){ .pool = &pool,
					    .dwarf = dwarf_begin_elf(dwarf_getelf(in->dwarf),
								     DWARF_C_READ, NULL) };
	/*
	 * With the whole file mapped, a DIE needs nothing made real before a
	 * build: each thread finds its own, and libdw's registration of the
	 * units before it (a page fault per header) runs on both threads
	 * instead of in this one between rounds.
	 */
	bool prepared = !in->image || ll_sparse_whole(in->image);

	while (k < pool.nr_jobs && !stopped) {
		next_round(&pool, finders[0], bydie, &k, round,
			   in->image && ll_sparse_whole(in->image) ? released : UINT64_MAX);
		for (size_t r = 0; r < pool.nr_round && !stopped && !prepared; r++) {
			struct build_job *job = &pool.jobs[round[r]];
			struct ll_error perr;
			Dwarf_Die die;

			job->prepare_rc = reader_pick_die(in, finders, job->pick, &die, &perr);
			job_error(job, job->prepare_rc, &perr);
			stopped = job->prepare_rc != 0;
		}
		if (!stopped)
			build_round(&pool, workers);
		release_round(&pool, finders[0], in->image, &released);
		/* The builds are the long part of a cold --list='*'. */
		ll_progress_report(&in->opts.progress, "structs", k, pool.nr_jobs);
	}
	reader_build_memo_release(&workers[0].memo);
	reader_build_memo_release(&workers[1].memo);
	if (workers[1].dwarf)
		dwarf_end(workers[1].dwarf);
	free(bydie);
	free(round);
	rc = finish_jobs(in, queries, finders, &pool, results, err);
	free(pool.jobs);
	return rc;
}

/*
 * Every query: on two threads when reader_builds_in_parallel() says so (counted
 * first: a lookup of a few names stays on this one).
 */
int reader_resolve_queries(struct ll_dwarf_input *in, const struct ll_query *queries,
			   struct query_state *state, struct ll_finder **finders,
			   struct ll_lookup_result *results, size_t n, const size_t *order,
			   struct ll_error *err)
{
	size_t builds = 0;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		builds += reader_pick_to_build(&queries[i], &state[i]) != NULL;
	if (reader_builds_in_parallel(in, n, builds))
		return resolve_all(in, queries, state, finders, results, n, order, err);
	for (size_t k = 0; k < n && rc == 0; k++) {
		size_t i = order ? order[k] : k;

		ll_progress_report(&in->opts.progress, "structs", k + 1, n);
		rc = reader_resolve_query(in, &queries[i], &state[i], finders, &results[i], err);
	}
	return rc;
}
