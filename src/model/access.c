// SPDX-License-Identifier: GPL-2.0-or-later
/* Static access evidence on the model (access.h). */
#include "model/access.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/slot_table.h"
#include "util/sort.h"
#include "util/strbuf.h"

/*
 * The interned strings' table: indexes into e->strings (index + 1, 0
 * empty), a power of two at least twice the strings, rebuilt as they grow.
 */
struct ll_intern_table {
	struct ll_slots at;	/* over the evidence's strings[] */
};

void ll_access_evidence_free(struct ll_access_evidence *e)
{
	if (!e)
		return;
	if (e->intern)
		ll_slots_release(&e->intern->at);
	free(e->intern);
	ll_strv_free(e->strings, e->nr_strings);
	free(e->v);
	free(e->name);
	free(e);
}

void ll_access_image_release(struct ll_access_image *img)
{
	for (size_t i = 0; i < img->n; i++)
		ll_access_evidence_free(img->v[i]);
	free(img->v);
	memset(img, 0, sizeof(*img));
}

static int cmp_key(const char *name, uint64_t size, bool is_union,
		   const struct ll_access_evidence *e)
{
	int c = strcmp(name, e->name);

	if (c)
		return c;
	if (size != e->size)
		return size < e->size ? -1 : 1;
	return (int)is_union - (int)e->is_union;
}

static int cmp_evidence(const void *a, const void *b)
{
	const struct ll_access_evidence *x = *(const struct ll_access_evidence *const *)a;
	const struct ll_access_evidence *y = *(const struct ll_access_evidence *const *)b;

	return cmp_key(x->name, x->size, x->is_union, y);
}

void ll_access_image_sort(struct ll_access_image *img)
{
	ll_qsort(img->v, img->n, sizeof(*img->v), cmp_evidence);
}

const struct ll_access_evidence *ll_access_image_find(const struct ll_access_image *img,
						      const char *name, uint64_t size,
						      bool is_union)
{
	size_t lo = 0, hi = img->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(name, size, is_union, img->v[mid]);

		if (!c)
			return img->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static uint64_t string_hash(const void *ctx, size_t i)
{
	const struct ll_access_evidence *e = ctx;

	return ll_fnv1a_str(LL_FNV_INIT, e->strings[i]);
}

const char *ll_access_intern(struct ll_access_evidence *e, const char *s)
{
	struct ll_slots *t;
	size_t at;

	if (!s)
		return NULL;
	if (!e->intern)
		e->intern = xcalloc(1, sizeof(*e->intern));
	t = &e->intern->at;
	ll_slots_reserve(t, e->nr_strings + 1, string_hash, e);
	for (at = ll_slots_first(t, ll_fnv1a_str(LL_FNV_INIT, s)); ll_slots_get(t, at);
	     at = ll_slots_next(t, at))
		if (strcmp(e->strings[ll_slots_get(t, at) - 1], s) == 0)
			return e->strings[ll_slots_get(t, at) - 1];
	e->strings = xgrow(e->strings, e->nr_strings, sizeof(*e->strings));
	e->strings[e->nr_strings] = xstrdup(s);
	ll_slots_put(t, at, e->nr_strings);
	return e->strings[e->nr_strings++];
}

void ll_access_sites_release(struct ll_access_sites *s)
{
	ll_array_free(s->v, s->n);
}

static const char *outermost(const struct ll_access_record *r)
{
	return r->inlined_into ? r->inlined_into : r->function;
}

static bool matches_any(const struct ll_constructors *c, const char *name)
{
	static const char *const defaults[] = { LL_DEFAULT_CONSTRUCTORS };
	const char *const *g = c && c->globs ? c->globs : defaults;
	size_t n = c && c->globs ? c->nr_globs : sizeof(defaults) / sizeof(*defaults);

	for (size_t i = 0; name && i < n; i++)
		if (fnmatch(g[i], name, 0) == 0)
			return true;
	return false;
}

static int cmp_ptr(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return (x > y) - (x < y);
}

static bool is_init_function(const struct ll_access_view *v, const char *f)
{
	return f && ll_bsearch(&f, v->init_functions, v->nr_init_functions,
			    sizeof(*v->init_functions), cmp_ptr) != NULL;
}

/* The top-level member of S holding byte OFF, or -1. */
static long top_member_at(const struct ll_struct *s, uint64_t off)
{
	for (size_t i = 0; i < s->nr_members; i++) {
		struct ll_extent x = ll_member_extent(&s->members[i]);

		if (off >= x.begin && off < x.end)
			return (long)i;
	}
	return -1;
}

static void add_init(struct ll_access_view *v, const char *f)
{
	for (size_t i = 0; i < v->nr_init_functions; i++)
		if (v->init_functions[i] == f)
			return;
	v->init_functions = xgrow(v->init_functions, v->nr_init_functions,
				  sizeof(*v->init_functions));
	v->init_functions[v->nr_init_functions++] = f;
}

/*
 * A function storing at least half of S's top-level members fills it:
 * count, per outermost function, the distinct members its stores touch.
 */
static void find_fillers(struct ll_access_view *v)
{
	const struct ll_access_evidence *e = v->e;
	const struct ll_struct *s = v->s;
	size_t need = (s->nr_members + 1) / 2;
	unsigned char *seen;
	const char **funcs = NULL;
	size_t nf = 0;

	if (need < LL_CONSTRUCTOR_MIN_MEMBERS)
		need = LL_CONSTRUCTOR_MIN_MEMBERS;
	if (s->nr_members < need)
		return;
	for (size_t i = 0; i < e->n; i++) {
		if (e->v[i].kind == LL_ACCESS_KIND_LOAD)
			continue;
		funcs = xgrow(funcs, nf, sizeof(*funcs));
		funcs[nf++] = outermost(&e->v[i]);
	}
	ll_qsort(funcs, nf, sizeof(*funcs), cmp_ptr);
	seen = xcalloc(s->nr_members, 1);
	for (size_t i = 0; i < nf; i++) {
		size_t count = 0;

		bool atomic = false;

		if (i && funcs[i] == funcs[i - 1])
			continue;
		memset(seen, 0, s->nr_members);
		for (size_t k = 0; k < e->n; k++) {
			const struct ll_access_record *r = &e->v[k];

			if (r->kind == LL_ACCESS_KIND_LOAD || outermost(r) != funcs[i])
				continue;
			atomic |= r->kind == LL_ACCESS_KIND_ATOMIC;
			for (uint64_t b = r->offset; b < r->offset + r->width; b++) {
				long m = top_member_at(s, b);

				if (m >= 0 && !seen[m]) {
					seen[m] = 1;
					count++;
				}
			}
		}
		/* Nothing is contended before it is published: an atomic is run time. */
		if (count >= need && !atomic)
			add_init(v, funcs[i]);
	}
	free(seen);
	free(funcs);
}

void ll_access_view_init(struct ll_access_view *v, const struct ll_access_evidence *e,
			 const struct ll_struct *s, const struct ll_constructors *c)
{
	memset(v, 0, sizeof(*v));
	v->e = e;
	v->s = s;
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		const struct ll_access_record *r = &e->v[i];

		if (matches_any(c, r->function))
			add_init(v, r->function);
		if (matches_any(c, r->inlined_into))
			add_init(v, r->inlined_into);
	}
	find_fillers(v);
	ll_qsort(v->init_functions, v->nr_init_functions, sizeof(*v->init_functions), cmp_ptr);
}

void ll_access_view_release(struct ll_access_view *v)
{
	free(v->init_functions);
	memset(v, 0, sizeof(*v));
}

bool ll_access_record_is_init(const struct ll_access_view *v, const struct ll_access_record *r)
{
	return r->init_text || is_init_function(v, r->function) ||
	       is_init_function(v, r->inlined_into);
}

static bool touches(const struct ll_access_record *r, const struct ll_member *m)
{
	struct ll_extent x = ll_member_extent(m);

	return r->offset < x.end && r->offset + r->width > x.begin;
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_site(const void *pa, const void *pb)
{
	const struct ll_access_site *a = pa, *b = pb;
	int c;

	if ((c = strcmp_null(a->function, b->function)) ||
	    (c = strcmp_null(a->inlined_into, b->inlined_into)) ||
	    (c = strcmp_null(a->file, b->file)))
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

void ll_access_member_sites(const struct ll_access_view *v, const struct ll_member *m,
			    enum ll_access_kind kind, struct ll_access_sites *out)
{
	const struct ll_access_evidence *e = v->e;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; e && i < e->n; i++) {
		const struct ll_access_record *r = &e->v[i];

		if (r->kind != kind || !touches(r, m))
			continue;
		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		out->v[out->n++] = (struct ll_access_site){
			.function = r->function, .inlined_into = r->inlined_into,
			.file = r->file, .line = r->line, .count = 1,
			.init = kind != LL_ACCESS_KIND_LOAD && ll_access_record_is_init(v, r),
		};
	}
	ll_qsort(out->v, out->n, sizeof(*out->v), cmp_site);
	for (size_t i = 0; i < out->n; i++) {
		if (n && cmp_site(&out->v[n - 1], &out->v[i]) == 0) {
			out->v[n - 1].count++;
			continue;
		}
		out->v[n++] = out->v[i];
	}
	out->n = n;
}

/* Distinct outermost functions among NAMES (N of them; sorted here). */
static unsigned distinct(const char **names, size_t n)
{
	unsigned d = 0;

	ll_qsort(names, n, sizeof(*names), cmp_ptr);
	for (size_t i = 0; i < n; i++)
		d += !i || names[i] != names[i - 1];
	return d;
}

void ll_access_member_summary(const struct ll_access_view *v, const struct ll_member *m,
			      struct ll_access_summary *out)
{
	const struct ll_access_evidence *e = v->e;
	const char **loaders = NULL, **writers = NULL;
	size_t nl = 0, nw = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; e && i < e->n; i++) {
		const struct ll_access_record *r = &e->v[i];

		if (!touches(r, m))
			continue;
		out->count[r->kind]++;
		if (r->kind == LL_ACCESS_KIND_LOAD) {
			loaders = xgrow(loaders, nl, sizeof(*loaders));
			loaders[nl++] = outermost(r);
		} else if (!ll_access_record_is_init(v, r)) {
			out->runtime_writes++;
			out->runtime_atomics += r->kind == LL_ACCESS_KIND_ATOMIC;
			writers = xgrow(writers, nw, sizeof(*writers));
			writers[nw++] = outermost(r);
		}
	}
	out->load_functions = distinct(loaders, nl);
	out->writer_functions = distinct(writers, nw);
	free(loaders);
	free(writers);
}

enum ll_tag ll_static_tag(const struct ll_access_view *v, const struct ll_member *m,
			  const struct ll_static_thresholds *t)
{
	struct ll_access_summary sum;
	bool atomic_at_runtime = false;

	ll_access_member_summary(v, m, &sum);
	for (size_t i = 0; v->e && i < v->e->n && !atomic_at_runtime; i++) {
		const struct ll_access_record *r = &v->e->v[i];

		atomic_at_runtime = r->kind == LL_ACCESS_KIND_ATOMIC && touches(r, m) &&
				    !ll_access_record_is_init(v, r);
	}
	/* Stores in a handful of setup paths beside hundreds of readers are not hot. */
	if (atomic_at_runtime || (sum.writer_functions >= t->writers &&
				  LL_STATIC_WRITER_SHARE * sum.writer_functions >= sum.load_functions))
		return LL_WRITE_HOT;
	if (!sum.runtime_writes && sum.load_functions >= t->readers)
		return LL_READ_MOSTLY;
	return LL_UNTAGGED;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t ll_access_writers(const struct ll_access_view *v, const struct ll_member *m,
			 const char ***out)
{
	const char **w = NULL;
	size_t n = 0, k = 0;

	for (size_t i = 0; v->e && i < v->e->n; i++) {
		const struct ll_access_record *r = &v->e->v[i];

		if (r->kind == LL_ACCESS_KIND_LOAD || !touches(r, m) || ll_access_record_is_init(v, r))
			continue;
		w = xgrow(w, n, sizeof(*w));
		w[n++] = outermost(r);
	}
	if (n)
		ll_qsort(w, n, sizeof(*w), cmp_name);
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(w[k - 1], w[i]) != 0)
			w[k++] = w[i];
	*out = w;
	return k;
}

bool ll_access_static_tags(const struct ll_access_view *v, struct ll_member *m, size_t n,
			   const struct ll_static_thresholds *t)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		if (m[i].tag != LL_UNTAGGED)
			continue;
		if (m[i].nr_children) {
			any |= ll_access_static_tags(v, m[i].children, m[i].nr_children, t);
			continue;
		}
		if (!m[i].path)
			continue;
		m[i].tag = ll_static_tag(v, &m[i], t);
		if (m[i].tag != LL_UNTAGGED)
			m[i].tag_rule_line = LL_STATIC_TAG_LINE;
		any |= m[i].tag != LL_UNTAGGED;
	}
	return any;
}

const char *ll_access_kind_name(enum ll_access_kind k)
{
	static const char *const names[] = { "loads", "stores", "atomics" };

	return k < LL_NR_ACCESS_KINDS ? names[k] : "?";
}
