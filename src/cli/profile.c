// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --profile: read every profile before any binary (a bad one stops the
 * run with one line), then, per binary, keep the profiles taken of it:
 * a profile whose build-ids name the binary's file with another build-id
 * was taken of another build and is refused, as pahole's importer does;
 * one that names no binary of the run at all is refused once all are read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "input/profile/classify.h"
#include "input/profile/perf_text.h"
#include "util/diag.h"
#include "util/hash.h"
#include "util/slot_table.h"
#include "util/strbuf.h"

/* More notes than this per profile are counted, not printed. */
#define MAX_NOTES 10

void cli_print_notes(const struct ll_profile_notes *notes)
{
	for (size_t i = 0; i < notes->n && i < MAX_NOTES; i++)
		ll_notef("%s", notes->v[i].message);
	if (notes->n > MAX_NOTES)
		ll_notef("%zu more notes like these", notes->n - MAX_NOTES);
}

int cli_profiles_load(const struct options *o, struct cli_profiles *out, struct ll_error *err)
{
	out->v = xcalloc(o->nr_profiles ? o->nr_profiles : 1, sizeof(*out->v));
	for (size_t i = 0; i < o->nr_profiles; i++) {
		struct ll_profile_notes notes = { 0 };
		int rc = ll_profile_load(o->profiles[i], &out->v[i], &notes, err);

		/* A profile refused whole is its one error line, without the notes. */
		if (!rc)
			cli_print_notes(&notes);
		ll_profile_notes_release(&notes);
		if (rc)
			return -1;
		out->n++;
	}
	return 0;
}

void cli_profiles_release(struct cli_profiles *p)
{
	for (size_t i = 0; i < p->n; i++)
		ll_profile_free(p->v[i]);
	free(p->v);
	free(p->used);
	p->v = NULL;
	p->used = NULL;
	p->n = 0;
}

/*
 * The queries by kind and name: a slot table over o->queries. A scan of
 * every query per profile row made 80,000 rows of distinct types slow.
 */
static uint64_t query_hash(enum ll_query_kind kind, const char *name)
{
	return ll_fnv1a_str(LL_FNV_INIT ^ (uint64_t)kind, name);
}

static uint64_t query_hash_at(const void *ctx, size_t i)
{
	const struct options *o = ctx;

	return query_hash(o->queries[i].kind, o->queries[i].name);
}

/* Whether O has a query KIND NAME; else, with ADD, record query index ADD - 1 as it. */
static bool queried(struct ll_slots *set, const struct options *o, enum ll_query_kind kind,
		    const char *name, size_t add)
{
	size_t at = ll_slots_first(set, query_hash(kind, name));

	for (; ll_slots_get(set, at); at = ll_slots_next(set, at)) {
		const struct ll_query *q = &o->queries[ll_slots_get(set, at) - 1];

		if (q->kind == kind && strcmp(q->name, name) == 0)
			return true;
	}
	if (add)
		ll_slots_put(set, at, add - 1);
	return false;
}

void cli_profiles_queries(const struct cli_profiles *all, struct options *o)
{
	size_t rows = o->nr_queries;
	struct ll_slots set = LL_SLOTS_INIT;

	for (size_t i = 0; i < all->n; i++)
		rows += all->v[i]->nr_rows;
	/* Room for every row up front: no rehash while o->queries grows. */
	ll_slots_reserve(&set, rows, query_hash_at, o);
	for (size_t i = 0; i < o->nr_queries; i++)
		queried(&set, o, o->queries[i].kind, o->queries[i].name, i + 1);
	for (size_t i = 0; i < all->n; i++) {
		const struct ll_profile *p = all->v[i];

		for (size_t k = 0; k < p->nr_rows; k++) {
			const char *type = p->rows[k].type;
			bool is_union = strncmp(type, "union ", 6) == 0;
			enum ll_query_kind kind = is_union ? LL_QUERY_UNION : LL_QUERY_STRUCT;
			/* The rows own the names, and outlive the queries. */
			const char *name = is_union ? type + 6 :
					   strncmp(type, "struct ", 7) == 0 ? type + 7 : NULL;

			if (!name || !*name || queried(&set, o, kind, name, 0))
				continue;
			o->queries = xgrow(o->queries, o->nr_queries, sizeof(*o->queries));
			o->queries[o->nr_queries++] = (struct ll_query){
				.name = name, .kind = kind, .decl_glob = o->decl_glob,
				.select = &o->select,
				/* Absent is skipped without a word: no "did you mean" scan each. */
				.no_suggestion = true,
			};
			queried(&set, o, kind, name, o->nr_queries);
		}
	}
	ll_slots_release(&set);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* perf names the running kernel [kernel.kallsyms]; layoutlint reads it as vmlinux. */
static bool names_binary(const char *recorded, const char *binary)
{
	if (strcmp(recorded, "[kernel.kallsyms]") == 0)
		return strncmp(base_name(binary), "vmlinux", 7) == 0;
	return strcmp(base_name(recorded), base_name(binary)) == 0;
}

/*
 * Whether P was taken of BINARY (BUILD_ID, NULL when it has none): 1 when
 * a build-id line names the binary's file with its build-id, or when P
 * records no build-ids at all (said with a warning); 0 when none names the
 * file (a profile of another binary of the run); -1 and ERR when one names
 * it with another build-id.
 */
static int taken_of(const struct ll_profile *p, const char *binary, const char *build_id,
		    struct ll_error *err)
{
	const struct ll_profile_build_id *named = NULL;

	if (!p->nr_build_ids) {
		ll_warnf("%s records no build-ids (put perf buildid-list -i perf.data before the "
			 "report): not checked that it was taken of %s", p->file, binary);
		return 1;
	}
	for (size_t i = 0; i < p->nr_build_ids; i++) {
		const struct ll_profile_build_id *b = &p->build_ids[i];

		if (!names_binary(b->path, binary))
			continue;
		if (build_id && strcmp(b->id, build_id) == 0)
			return 1;
		named = b;
	}
	if (named)
		return ll_fail(err, "%s: taken of another build of %s (build-id %s, this one %s); "
			       "record the profile again with this binary", p->file, binary,
			       named->id, build_id ? build_id : "none");
	return 0;
}

int cli_profiles_for_binary(struct cli_profiles *all, const char *binary, const char *build_id,
			    struct cli_profiles *out, struct ll_error *err)
{
	out->v = xcalloc(all->n ? all->n : 1, sizeof(*out->v));
	out->n = 0;
	if (!all->used)
		all->used = xcalloc(all->n ? all->n : 1, sizeof(*all->used));
	for (size_t i = 0; i < all->n; i++) {
		const char *why_not = NULL;
		int taken = taken_of(all->v[i], binary, build_id, err);

		if (taken < 0)
			return -1;
		if (!taken)
			continue;
		if (ll_profile_classify(all->v[i], binary, &why_not, err))
			return -1;
		if (why_not)
			ll_notef("%s: %s", all->v[i]->file, why_not);
		all->used[i] = true;
		out->v[out->n++] = all->v[i];
	}
	return 0;
}

int cli_profiles_all_used(const struct cli_profiles *all, const char *const *binaries, size_t n,
			  struct ll_error *err)
{
	for (size_t i = 0; i < all->n; i++) {
		const struct ll_profile *p = all->v[i];

		if (all->used && all->used[i])
			continue;
		return ll_fail(err, "%s: taken of none of the binaries given (%s%s); its build-ids "
			       "name %s%s", p->file, base_name(binaries[0]), n > 1 ? " and others" : "",
			       p->nr_build_ids ? p->build_ids[0].path : "nothing",
			       p->nr_build_ids > 1 ? " and others" : "");
	}
	return 0;
}
