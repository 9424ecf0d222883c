// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Layouts in a baseline. A baseline's pairs say which findings are old; they
 * cannot say that struct file grew from 184 to 192 bytes, which is what
 * layout-change reports under --against. So --write-baseline also records
 * each linted struct's size, cachelines and the cachelines of each of its
 * units (the members findings name), one struct a line:
 *
 *   "layouts": [
 *     {"struct":"struct file","cacheline":64,"size":184,"cachelines":3,
 *      "members":[["f_u",0,0],["f_path",0,0],...,["f_security",1,1]]}
 *   ]
 *
 * and --baseline compares each linted struct with its record (same line
 * size). A member with no bytes is ["NAME"]. Optional: a baseline without
 * "layouts" (older ones) gates pairs only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "util/json_writer.h"
#include "util/strbuf.h"

static int record_cmp(const void *x, const void *y)
{
	const struct ll_layout_record *p = x, *q = y;
	int c;

	if (p->kind != q->kind)
		return p->kind < q->kind ? -1 : 1;
	if ((c = strcmp(p->name, q->name)))
		return c;
	return p->cacheline < q->cacheline ? -1 : p->cacheline > q->cacheline;
}

static void record_release(struct ll_layout_record *r)
{
	for (size_t i = 0; i < r->nr_members; i++)
		free(r->members[i].path);
	free(r->members);
	free(r->name);
}

static const struct ll_layout_record *find_record(const struct ll_pairset *set,
						  const struct ll_layout_record *want)
{
	for (size_t i = 0; i < set->nr_layouts; i++)
		if (record_cmp(&set->layouts[i], want) == 0)
			return &set->layouts[i];
	return NULL;
}

static void sort_records(struct ll_pairset *set)
{
	if (set->nr_layouts)
		qsort(set->layouts, set->nr_layouts, sizeof(*set->layouts), record_cmp);
}

void ll_layouts_add_run(const struct ll_run *run, struct ll_pairset *set)
{
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];
		const struct ll_struct *s = l->layout;
		struct ll_layout_record r = { .kind = s->kind, .name = (char *)s->name,
					      .cacheline = s->cacheline };

		/* The same struct from several binaries: the first one's layout. */
		if (find_record(set, &r))
			continue;
		r.name = xstrdup(s->name);
		ll_escape_in_place(&r.name);	/* as the pairs' names */
		r.size = s->size;
		r.cachelines = ll_struct_lines(s);
		for (size_t u = 0; u < l->units.n; u++) {
			const struct ll_member *m = l->units.v[u].m;
			struct ll_layout_member_rec mr = { 0 };

			if (!m->path)
				continue;
			mr.path = xstrdup(m->path);
			ll_escape_in_place(&mr.path);
			mr.lines = ll_member_lines(m, s->cacheline, &mr.first, &mr.last);
			r.members = xgrow(r.members, r.nr_members, sizeof(*r.members));
			r.members[r.nr_members++] = mr;
		}
		set->layouts = xgrow(set->layouts, set->nr_layouts, sizeof(*set->layouts));
		set->layouts[set->nr_layouts++] = r;
	}
	sort_records(set);
}

void ll_layouts_release(struct ll_pairset *set)
{
	for (size_t i = 0; i < set->nr_layouts; i++)
		record_release(&set->layouts[i]);
	ll_array_free(set->layouts, set->nr_layouts);
}

void ll_layouts_render(const struct ll_pairset *set, struct strbuf *out)
{
	if (!set->nr_layouts)
		return;
	sb_adds(out, ",\n  \"layouts\": [");
	for (size_t i = 0; i < set->nr_layouts; i++) {
		const struct ll_layout_record *r = &set->layouts[i];
		struct json_writer w;
		struct strbuf kind_name = STRBUF_INIT;

		sb_addf(&kind_name, "%s %s", ll_kind_name(r->kind), r->name);
		jw_init(&w, false);
		jw_begin_object(&w);
		jw_kstring(&w, "struct", kind_name.buf);
		jw_kuint(&w, "cacheline", r->cacheline);
		jw_kuint(&w, "size", r->size);
		jw_kuint(&w, "cachelines", r->cachelines);
		jw_kbegin_array(&w, "members");
		for (size_t k = 0; k < r->nr_members; k++) {
			jw_begin_array(&w);
			jw_string(&w, r->members[k].path);
			if (r->members[k].lines) {
				jw_uint(&w, r->members[k].first);
				jw_uint(&w, r->members[k].last);
			}
			jw_end_array(&w);
		}
		jw_end_array(&w);
		jw_end_object(&w);
		sb_addf(out, "%s\n    %s", i ? "," : "", w.out.buf);
		jw_release(&w);
		sb_release(&kind_name);
	}
	sb_adds(out, "\n  ]");
}

static int vfail(const char *file, const struct json_value *v, struct ll_error *err,
		 const char *what)
{
	return ll_fail(err, "%s:%u:%u: malformed baseline: %s", file, v->line, v->column, what);
}

/* A JSON number that is a whole number of at most MAX. */
static bool whole(const struct json_value *v, double max, uint64_t *out)
{
	if (!v || v->type != JSON_NUMBER || !(v->number >= 0) || v->number > max ||
	    (double)(uint64_t)v->number != v->number)
		return false;
	*out = (uint64_t)v->number;
	return true;
}

static int read_record(const char *file, const struct json_value *e, struct ll_layout_record *r,
		       struct ll_error *err)
{
	const struct json_value *st, *members;
	uint64_t cl;

	if (e->type != JSON_OBJECT)
		return vfail(file, e, err, "a layout must be an object with \"struct\", "
			     "\"cacheline\", \"size\", \"cachelines\" and \"members\"");
	st = json_member(e, "struct");
	if (!st || st->type != JSON_STRING)
		return vfail(file, st ? st : e, err, "a layout needs \"struct\": \"struct NAME\"");
	if (strncmp(st->str, "struct ", 7) == 0 && st->str[7]) {
		r->kind = LL_STRUCT;
		r->name = xstrdup(st->str + 7);
	} else if (strncmp(st->str, "union ", 6) == 0 && st->str[6]) {
		r->kind = LL_UNION;
		r->name = xstrdup(st->str + 6);
	} else if (strcmp(st->str, "global " LL_GLOBALS_NAME) == 0 ||
		   strcmp(st->str, "global " LL_PERCPU_NAME) == 0) {
		r->kind = LL_GLOBALS;
		r->name = xstrdup(st->str + 7);
	} else {
		return vfail(file, st, err, "\"struct\" must be \"struct NAME\", \"union NAME\", "
			     "\"global variables\" or \"global percpu\"");
	}
	ll_escape_in_place(&r->name);
	if (!whole(json_member(e, "cacheline"), 4096, &cl) || cl < 16 || (cl & (cl - 1)))
		return vfail(file, json_member(e, "cacheline") ? json_member(e, "cacheline") : e,
			     err, "\"cacheline\" must be a power of two from 16 to 4096");
	r->cacheline = (unsigned)cl;
	if (!whole(json_member(e, "size"), 9007199254740992.0, &r->size))
		return vfail(file, json_member(e, "size") ? json_member(e, "size") : e, err,
			     "\"size\" must be a whole number of bytes");
	if (!whole(json_member(e, "cachelines"), 9007199254740992.0, &r->cachelines))
		return vfail(file, json_member(e, "cachelines") ? json_member(e, "cachelines") : e,
			     err, "\"cachelines\" must be a whole number");
	members = json_member(e, "members");
	if (!members || members->type != JSON_ARRAY)
		return vfail(file, members ? members : e, err, "\"members\" must be an array");
	for (size_t i = 0; i < members->n; i++) {
		const struct json_value *m = &members->items[i];
		struct ll_layout_member_rec mr = { 0 };

		if (m->type != JSON_ARRAY || (m->n != 1 && m->n != 3) ||
		    m->items[0].type != JSON_STRING || !m->items[0].str[0])
			return vfail(file, m, err, "a member must be [\"PATH\"] or [\"PATH\", "
				     "FIRST-LINE, LAST-LINE]");
		if (m->n == 3) {
			if (!whole(&m->items[1], 9007199254740992.0, &mr.first) ||
			    !whole(&m->items[2], 9007199254740992.0, &mr.last) ||
			    mr.last < mr.first)
				return vfail(file, m, err, "a member's lines must be whole numbers, "
					     "the first not after the last");
			mr.lines = true;
		}
		mr.path = xstrdup(m->items[0].str);
		/* As push_key() escapes the pairs' names: what the readers make of raw bytes. */
		ll_escape_in_place(&mr.path);
		r->members = xgrow(r->members, r->nr_members, sizeof(*r->members));
		r->members[r->nr_members++] = mr;
	}
	return 0;
}

int ll_layouts_read(const char *file, const struct json_value *v, struct ll_pairset *set,
		    struct ll_error *err)
{
	if (v->type != JSON_ARRAY)
		return vfail(file, v, err, "\"layouts\" must be an array");
	for (size_t i = 0; i < v->n; i++) {
		struct ll_layout_record r = { 0 };

		if (read_record(file, &v->items[i], &r, err)) {
			record_release(&r);
			return -1;
		}
		if (find_record(set, &r)) {
			record_release(&r);
			return vfail(file, &v->items[i], err, "a second layout of the same struct "
				     "at the same line size");
		}
		set->layouts = xgrow(set->layouts, set->nr_layouts, sizeof(*set->layouts));
		set->layouts[set->nr_layouts++] = r;
	}
	sort_records(set);
	return 0;
}
