// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pairs, baseline files and gating (cli.md, "Gating only on what is new").
 *
 * A baseline file is JSON, one pair per line so that it diffs well:
 *
 *   {
 *     "layoutlint-baseline": 1,
 *     "pairs": [
 *       {"rule":"mixed-cacheline","struct":"struct file","pair":["f_op","f_lock"]},
 *       {"rule":"split-hot","struct":"struct foo","pair":["lock"]}
 *     ],
 *     "layouts": [ ... ]
 *   }
 *
 * Entries are sorted by struct, rule and pair, and unique. A mixed-cacheline
 * pair is written read-mostly member first; other pairs in name order.
 * "layouts" (optional; layout_record.c) records each struct's layout for
 * layout-change.
 */
#include "gating/baseline.h"
#include "gating/change.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/catalog.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/read_file.h"
#include "rules/rules.h"
#include "util/strbuf.h"

#define BASELINE_FORMAT 1

/* ---- pairs ---------------------------------------------------------------- */

size_t ll_finding_gate_pairs(const struct ll_finding *f, size_t i, const char **a,
			     const char **b)
{
	if (f->nr_pairs) {
		if (i < f->nr_pairs) {
			*a = f->pairs[i].a;
			*b = f->pairs[i].b;
		}
		return f->nr_pairs;
	}
	if (f->nr_members) {
		if (i < f->nr_members) {
			*a = f->members[i];
			*b = NULL;
		}
		return f->nr_members;
	}
	/* Nothing to name: the finding itself is its one key. */
	if (i == 0) {
		*a = f->fingerprint ? f->fingerprint : "";
		*b = NULL;
	}
	return 1;
}

static int strcmp_null_first(const char *x, const char *y)
{
	if (!x || !y)
		return x ? 1 : y ? -1 : 0;
	return strcmp(x, y);
}

/* Unordered pairs compare by their smaller, then larger name. */
static void canonical(const char *a, const char *b, const char **lo, const char **hi)
{
	if (b && strcmp(b, a) < 0) {
		*lo = b;
		*hi = a;
	} else {
		*lo = a;
		*hi = b;
	}
}

static int key_cmp_parts(enum ll_kind k1, const char *n1, const char *r1, const char *a1,
			 const char *b1, enum ll_kind k2, const char *n2, const char *r2,
			 const char *a2, const char *b2)
{
	const char *lo1, *hi1, *lo2, *hi2;
	int c;

	if (k1 != k2)
		return k1 < k2 ? -1 : 1;
	if ((c = strcmp(n1, n2)) || (c = strcmp(r1, r2)))
		return c;
	canonical(a1, b1, &lo1, &hi1);
	canonical(a2, b2, &lo2, &hi2);
	if ((c = strcmp(lo1, lo2)))
		return c;
	return strcmp_null_first(hi1, hi2);
}

static int key_cmp(const void *x, const void *y)
{
	const struct ll_pairkey *p = x, *q = y;

	return key_cmp_parts(p->kind, p->name, p->rule, p->a, p->b, q->kind, q->name, q->rule,
			     q->a, q->b);
}

static void push_key(struct ll_pairset *set, const char *rule, enum ll_kind kind,
		     const char *name, const char *a, const char *b, unsigned line)
{
	struct ll_pairkey *k;

	set->v = xgrow(set->v, set->n, sizeof(*set->v));
	k = &set->v[set->n++];
	*k = (struct ll_pairkey){
		.rule = xstrdup(rule), .kind = kind, .name = xstrdup(name), .a = xstrdup(a),
		.b = b ? xstrdup(b) : NULL, .line = line,
	};
	/* As the readers escape the model's names (reader.c), so that both compare. */
	ll_escape_in_place(&k->name);
	ll_escape_in_place(&k->a);
	ll_escape_in_place(&k->b);
}

static void key_release(struct ll_pairkey *k)
{
	ll_free_all(k->rule, k->name, k->a, k->b);
}

/* Sort and drop duplicates (the first of equal keys stays). */
static void sort_unique(struct ll_pairset *set)
{
	size_t out = 0;

	if (!set->n)
		return;
	/* qsort is not stable: order equal keys by line so the first listed stays. */
	if (set->n)
		qsort(set->v, set->n, sizeof(*set->v), key_cmp);
	for (size_t i = 0; i < set->n; i++) {
		if (out && key_cmp(&set->v[out - 1], &set->v[i]) == 0) {
			if (set->v[i].line && set->v[i].line < set->v[out - 1].line) {
				struct ll_pairkey t = set->v[out - 1];

				set->v[out - 1] = set->v[i];
				set->v[i] = t;
			}
			key_release(&set->v[i]);
			continue;
		}
		set->v[out++] = set->v[i];
	}
	set->n = out;
}

/* The orientation written: an ordered_pair check (mixed-cacheline) keeps
 * read-mostly first. */
static void oriented(const char *rule, const char *a, const char *b, const char **x,
		     const char **y)
{
	const struct ll_check_def *def = ll_check_find(rule);

	if ((def && def->ordered_pair) || !b) {
		*x = a;
		*y = b;
		return;
	}
	canonical(a, b, x, y);
}

void ll_pairset_from_run(const struct ll_run *run, struct ll_pairset *out)
{
	memset(out, 0, sizeof(*out));
	ll_pairset_add_run(run, out);
}

void ll_pairset_add_run(const struct ll_run *run, struct ll_pairset *out)
{
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];

		for (size_t k = 0; k < l->findings.n; k++) {
			const struct ll_finding *f = &l->findings.v[k];
			const char *a = NULL, *b = NULL, *x, *y;
			size_t n;

			/* Gated by the recorded layouts: a moved member's name is no pair. */
			if (ll_check_is(f->rule, LL_CHECK_LAYOUT_CHANGE))
				continue;
			n = ll_finding_gate_pairs(f, 0, &a, &b);
			for (size_t p = 0; p < n; p++) {
				ll_finding_gate_pairs(f, p, &a, &b);
				oriented(f->rule, a, b, &x, &y);
				push_key(out, f->rule, l->layout->kind, l->layout->name, x, y, 0);
			}
		}
	}
	sort_unique(out);
	ll_layouts_add_run(run, out);
}

void ll_pairset_release(struct ll_pairset *set)
{
	ll_layouts_release(set);
	for (size_t i = 0; i < set->n; i++)
		key_release(&set->v[i]);
	ll_array_free(set->v, set->n);
}

/* ---- writing -------------------------------------------------------------- */

/* The file lists pairs as written (read-mostly first), sorted that way. */
static int written_cmp(const void *x, const void *y)
{
	const struct ll_pairkey *p = *(const struct ll_pairkey *const *)x;
	const struct ll_pairkey *q = *(const struct ll_pairkey *const *)y;
	int c;

	if (p->kind != q->kind)
		return p->kind < q->kind ? -1 : 1;
	if ((c = strcmp(p->name, q->name)) || (c = strcmp(p->rule, q->rule)) ||
	    (c = strcmp(p->a, q->a)))
		return c;
	return strcmp_null_first(p->b, q->b);
}

void ll_baseline_render(const struct ll_pairset *set, struct strbuf *out)
{
	const struct ll_pairkey **order = xcalloc(set->n ? set->n : 1, sizeof(*order));

	for (size_t i = 0; i < set->n; i++)
		order[i] = &set->v[i];
	if (set->n)
		qsort(order, set->n, sizeof(*order), written_cmp);
	sb_addf(out, "{\n  \"layoutlint-baseline\": %d,\n  \"pairs\": [", BASELINE_FORMAT);
	for (size_t i = 0; i < set->n; i++) {
		const struct ll_pairkey *k = order[i];
		struct json_writer w;
		char *kind_name;

		jw_init(&w, false);
		jw_begin_object(&w);
		jw_kstring(&w, "rule", k->rule);
		kind_name = xmalloc(strlen(k->name) + 8);
		sprintf(kind_name, "%s %s", ll_kind_name(k->kind), k->name);
		jw_kstring(&w, "struct", kind_name);
		free(kind_name);
		jw_kbegin_array(&w, "pair");
		jw_string(&w, k->a);
		if (k->b)
			jw_string(&w, k->b);
		jw_end_array(&w);
		jw_end_object(&w);
		sb_addf(out, "%s\n    %s", i ? "," : "", w.out.buf);
		jw_release(&w);
	}
	sb_adds(out, set->n ? "\n  ]" : "]");
	ll_layouts_render(set, out);
	sb_adds(out, "\n}\n");
	free(order);
}

int ll_baseline_prepare(const char *path, const struct ll_pairset *set,
			struct ll_baseline_pending *pending, struct ll_error *err)
{
	struct strbuf doc = STRBUF_INIT;
	int rc;

	ll_baseline_render(set, &doc);
	rc = ll_file_prepare(path, "--write-baseline", "the baseline", doc.buf ? doc.buf : "",
			     doc.len, &pending->file, err);
	sb_release(&doc);
	return rc;
}

int ll_baseline_commit(struct ll_baseline_pending *pending, struct ll_error *err)
{
	return ll_file_commit(&pending->file, err);
}

void ll_baseline_abandon(struct ll_baseline_pending *pending)
{
	ll_file_abandon(&pending->file);
}

static int vfail(const char *file, const struct json_value *v, struct ll_error *err, const char *what)
{
	return ll_fail(err, "%s:%u:%u: malformed baseline: %s", file, v->line, v->column, what);
}

static int read_entry(const char *file, const struct json_value *e, struct ll_pairset *out,
		      struct ll_error *err)
{
	const struct json_value *rule, *st, *pair;
	const char *name;
	enum ll_kind kind;

	if (e->type != JSON_OBJECT)
		return vfail(file, e, err, "expected an object with \"rule\", \"struct\" and \"pair\"");
	rule = json_member(e, "rule");
	st = json_member(e, "struct");
	pair = json_member(e, "pair");
	if (!rule || !st || !pair)
		return vfail(file, e, err, !rule ? "entry has no \"rule\"" :
				    !st ? "entry has no \"struct\"" : "entry has no \"pair\"");
	if (rule->type != JSON_STRING)
		return vfail(file, rule, err, "\"rule\" must be a string");
	if (!ll_rule_id_known(rule->str)) {
		struct ll_error e2;

		ll_fail(&e2, "unknown rule '%s'", rule->str);
		return vfail(file, rule, err, e2.msg);
	}
	if (st->type != JSON_STRING)
		return vfail(file, st, err, "\"struct\" must be a string");
	if (strncmp(st->str, "struct ", 7) == 0) {
		kind = LL_STRUCT;
		name = st->str + 7;
	} else if (strncmp(st->str, "union ", 6) == 0) {
		kind = LL_UNION;
		name = st->str + 6;
	} else if (strcmp(st->str, "global " LL_GLOBALS_NAME) == 0 ||
		   strcmp(st->str, "global " LL_PERCPU_NAME) == 0) {
		/* What --write-baseline writes for the global variables aggregates. */
		kind = LL_GLOBALS;
		name = st->str + 7;
	} else {
		return vfail(file, st, err, "\"struct\" must be \"struct NAME\", \"union NAME\", "
			     "\"global variables\" or \"global percpu\"");
	}
	if (!*name)
		return vfail(file, st, err, "\"struct\" has no name");
	if (pair->type != JSON_ARRAY || pair->n < 1 || pair->n > 2)
		return vfail(file, pair, err, "\"pair\" must be an array of one or two member paths");
	for (size_t i = 0; i < pair->n; i++)
		if (pair->items[i].type != JSON_STRING || !pair->items[i].str[0])
			return vfail(file, &pair->items[i], err, "a member path must be a non-empty string");
	push_key(out, rule->str, kind, name, pair->items[0].str,
		 pair->n == 2 ? pair->items[1].str : NULL, e->line);
	return 0;
}

static int read_document(const char *file, const struct json_value *doc, struct ll_pairset *out,
			 struct ll_error *err)
{
	const struct json_value *fmt, *pairs;

	if (doc->type != JSON_OBJECT)
		return vfail(file, doc, err, "expected an object (a layoutlint baseline)");
	fmt = json_member(doc, "layoutlint-baseline");
	if (!fmt)
		return vfail(file, doc, err, "no \"layoutlint-baseline\" key: not a layoutlint "
			     "baseline (write one with --write-baseline)");
	if (fmt->type != JSON_NUMBER || fmt->number != BASELINE_FORMAT) {
		if (fmt->type == JSON_NUMBER && fmt->number > BASELINE_FORMAT)
			return vfail(file, fmt, err, "baseline format is newer than this layoutlint "
				     "understands (1)");
		return vfail(file, fmt, err, "\"layoutlint-baseline\" must be 1");
	}
	pairs = json_member(doc, "pairs");
	if (!pairs)
		return vfail(file, doc, err, "no \"pairs\" array");
	if (pairs->type != JSON_ARRAY)
		return vfail(file, pairs, err, "\"pairs\" must be an array");
	for (size_t i = 0; i < pairs->n; i++)
		if (read_entry(file, &pairs->items[i], out, err))
			return -1;
	/* Optional: what layout-change compares with (layout_record.c). */
	if (json_member(doc, "layouts"))
		return ll_layouts_read(file, json_member(doc, "layouts"), out, err);
	return 0;
}

/* A baseline lists each pair once in ~150 bytes: 256 MiB is far beyond any kernel's. */
#define MAX_BASELINE_FILE ((size_t)256 << 20)

static int slurp(const char *path, struct strbuf *out, struct ll_error *err)
{
	int why;

	if (ll_read_regular(path, MAX_BASELINE_FILE, out, &why))
		return ll_fail(err, "%s: cannot read the baseline: %s", path,
			       ll_read_error_text(why, MAX_BASELINE_FILE));
	return 0;
}

int ll_baseline_load(const char *path, struct ll_pairset *out, struct ll_error *err)
{
	struct strbuf text = STRBUF_INIT;
	struct json_value doc = { 0 };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (slurp(path, &text, err))
		goto done;
	if (json_parse(path, "malformed baseline", text.buf ? text.buf : "", text.len, &doc, err))
		goto done;
	if (read_document(path, &doc, out, err))
		goto done;
	sort_unique(out);
	rc = 0;
done:
	if (rc)
		ll_pairset_release(out);
	json_value_release(&doc);
	sb_release(&text);
	return rc;
}

/* ---- gating --------------------------------------------------------------- */

static struct ll_pairkey *lookup(struct ll_pairset *ref, const char *rule, enum ll_kind kind,
				 const char *name, const char *a, const char *b)
{
	size_t lo = 0, hi = ref->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ll_pairkey *k = &ref->v[mid];
		int c = key_cmp_parts(kind, name, rule, a, b, k->kind, k->name, k->rule, k->a, k->b);

		if (c == 0)
			return &ref->v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool ll_pairset_finding_new(const struct ll_struct *s, const struct ll_finding *f, void *set)
{
	const char *a = NULL, *b = NULL;
	size_t n = ll_finding_gate_pairs(f, 0, &a, &b);

	for (size_t p = 0; p < n; p++) {
		ll_finding_gate_pairs(f, p, &a, &b);
		if (!lookup(set, f->rule, s->kind, s->name, a, b))
			return true;
	}
	return false;
}

static bool struct_linted(const struct ll_run *run, enum ll_kind kind, const char *name)
{
	for (size_t i = 0; i < run->nr_structs; i++)
		if (run->structs[i].layout->kind == kind &&
		    strcmp(run->structs[i].layout->name, name) == 0)
			return true;
	return false;
}

/* The first pair of REF about struct KIND NAME, or REF->n (sorted by kind and name first). */
static size_t first_of_struct(const struct ll_pairset *ref, enum ll_kind kind, const char *name)
{
	size_t lo = 0, hi = ref->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ll_pairkey *k = &ref->v[mid];
		int c = k->kind != kind ? (k->kind < kind ? -1 : 1) : strcmp(k->name, name);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool named_by_reference(const struct ll_pairset *ref, const struct ll_struct *s,
			       const char *path)
{
	for (size_t i = first_of_struct(ref, s->kind, s->name); i < ref->n; i++) {
		const struct ll_pairkey *k = &ref->v[i];

		if (k->kind != s->kind || strcmp(k->name, s->name) != 0)
			break;
		if (strcmp(k->a, path) == 0 || (k->b && strcmp(k->b, path) == 0))
			return true;
	}
	return false;
}

static bool diff_lists(const struct ll_diff_member *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].path, path) == 0)
			return true;
	return false;
}

/* Did PATH's change make a new pair: --against, added or moved; a baseline, named by none. */
static bool member_changed(const struct ll_linted *l, const struct ll_pairset *ref, bool against,
			   const char *path)
{
	if (!against)
		return !named_by_reference(ref, l->layout, path);
	return l->diff && (diff_lists(l->diff->added, l->diff->nr_added, path) ||
			   diff_lists(l->diff->moved, l->diff->nr_moved, path));
}

/*
 * Review tools keep only comments on changed lines: a finding with new
 * pairs goes to the first member of those pairs (in pair order) whose
 * change made one, when it can move (ll_finding_relocate); otherwise it
 * stays where the check put it.
 */
/* Did the change (--diff) rewrite the line PATH of L is declared on? */
static bool line_changed(const struct ll_linted *l, const struct ll_change *c, const char *path)
{
	const struct ll_member *mb = path ? ll_member_at_path(l->layout, path) : NULL;

	return mb && ll_change_touches(c, mb->decl.file, mb->decl.line);
}

/* The first member of MEMBERS (depth first) whose line the change rewrote and that moved. */
static const struct ll_member *changed_cause(const struct ll_member *members, size_t n,
					     const struct ll_linted *l, const struct ll_change *c,
					     const struct ll_pairset *ref, bool against)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *mb = &members[i];
		const struct ll_member *in;

		if (mb->path && ll_change_touches(c, mb->decl.file, mb->decl.line) &&
		    member_changed(l, ref, against, mb->path))
			return mb;
		in = changed_cause(mb->children, mb->nr_children, l, c, ref, against);
		if (in)
			return in;
	}
	return NULL;
}

/*
 * What counts as changed: with a change (C set), a member whose line C
 * rewrote; without, a member the reference places differently.
 */
struct what_changed {
	const struct ll_linted *l;
	const struct ll_pairset *ref;
	bool against;
	const struct ll_change *c;
};

static bool is_changed(const struct what_changed *w, const char *path)
{
	return w->c ? line_changed(w->l, w->c, path) : member_changed(w->l, w->ref, w->against, path);
}

/* Locate F at the first member of its new pairs that changed; true when one did. */
static bool relocate_to_new_pair(struct ll_finding *f, const struct ll_gate_mark *m,
				 const struct what_changed *w)
{
	for (size_t p = 0; p < m->nr_pairs; p++) {
		const char *ab[2] = { NULL, NULL };

		if (!m->pair_new[p])
			continue;
		ll_finding_gate_pairs(f, p, &ab[0], &ab[1]);
		for (size_t k = 0; k < 2; k++) {
			if (ab[k] && is_changed(w, ab[k])) {
				ll_finding_relocate(f, ab[k]);
				return true;
			}
		}
	}
	return false;
}

/*
 * With the change at hand (--diff): the finding goes to the first member
 * of its new pairs whose line the change rewrote; else, when none of its
 * members' lines changed (they shifted), to the member of the struct the
 * change inserted or moved, its own location kept as a note. True when
 * the change decided it.
 */
static bool locate_in_diff(struct ll_finding *f, struct ll_gate_mark *m,
			   const struct ll_linted *l, const struct ll_pairset *ref, bool against,
			   const struct ll_change *c)
{
	const struct ll_member *cause;
	struct strbuf why = STRBUF_INIT;
	const struct what_changed rewritten = { l, ref, against, c };

	if (relocate_to_new_pair(f, m, &rewritten))
		return true;
	for (size_t i = 0; i < f->nr_members; i++) {
		if (line_changed(l, c, f->members[i])) {
			ll_finding_relocate(f, f->members[i]);
			return true;
		}
	}
	cause = changed_cause(l->layout->members, l->layout->nr_members, l, c, ref, against);
	if (!cause)
		return false;
	sb_addf(&why, "%s, which the change %s, shifted the members of this line", cause->path,
		against && l->diff && diff_lists(l->diff->added, l->diff->nr_added, cause->path) ?
		"added" : "moved");
	bool moved = ll_finding_locate_at_cause(f, &cause->decl, cause->path, why.buf);

	sb_release(&why);
	if (moved)
		m->cause = cause->path;
	return moved;
}

static void locate_at_change(struct ll_finding *f, struct ll_gate_mark *m,
			     const struct ll_linted *l, const struct ll_pairset *ref, bool against,
			     const struct ll_change *c)
{
	const struct what_changed against_reference = { l, ref, against, NULL };

	if (c && locate_in_diff(f, m, l, ref, against, c))
		return;
	relocate_to_new_pair(f, m, &against_reference);
}

/*
 * --diff: a finding the change made only by shifting members (located at
 * the cause, which is none of its members) becomes notes of the new
 * finding located at that same member, if there is one: one result per
 * changed line, the shifted members as its related locations.
 */
static void fold_shifted(struct ll_linted *l, struct ll_gating *g)
{
	size_t kept = 0;

	for (size_t k = 0; k < l->findings.n; k++) {
		struct ll_finding *f = &l->findings.v[k];
		struct ll_gate_mark *m = &l->marks[k];
		struct ll_finding *into = NULL;

		for (size_t j = 0; m->cause && j < l->findings.n && !into; j++) {
			struct ll_finding *o = &l->findings.v[j];

			if (j != k && !l->marks[j].cause && o->located &&
			    strcmp(o->located, m->cause) == 0)
				into = o;
		}
		if (!into) {
			l->marks[kept] = *m;
			l->findings.v[kept++] = *f;
			continue;
		}
		/* Its first note is where it was: the shifted member. */
		for (size_t n = 0; n < f->nr_notes; n++) {
			const struct ll_note *note = &f->notes[n];

			if (n == 0)
				ll_finding_member_note(into, &note->decl, note->member,
						       "shifted: %s [%s]; %s", f->message, f->rule,
						       note->message);
			else
				ll_finding_member_note(into, &note->decl, note->member, "%s",
						       note->message);
		}
		ll_finding_release(f);
		free(m->pair_new);
		g->reported_findings--;
		g->folded_findings++;
	}
	l->findings.n = kept;
}

static void keep_unchanged(struct ll_linted *l, const struct ll_finding *f)
{
	l->unchanged.v = xgrow(l->unchanged.v, l->unchanged.n, sizeof(*l->unchanged.v));
	l->unchanged.v[l->unchanged.n++] = *f;
}

void ll_gate(struct ll_run *run, struct ll_pairset *ref, struct ll_gating *g)
{
	for (size_t i = 0; i < ref->n; i++)
		ref->v[i].seen = false;
	for (size_t i = 0; i < run->nr_structs; i++) {
		struct ll_linted *l = &run->structs[i];
		const struct ll_struct *s = l->layout;
		size_t kept = 0;

		l->marks = xcalloc(l->findings.n ? l->findings.n : 1, sizeof(*l->marks));
		for (size_t k = 0; k < l->findings.n; k++) {
			struct ll_finding *f = &l->findings.v[k];
			const char *a = NULL, *b = NULL;
			size_t n = ll_finding_gate_pairs(f, 0, &a, &b);
			struct ll_gate_mark m = { .pair_new = xcalloc(n, sizeof(bool)), .nr_pairs = n };

			for (size_t p = 0; p < n; p++) {
				struct ll_pairkey *hit;

				ll_finding_gate_pairs(f, p, &a, &b);
				hit = lookup(ref, f->rule, s->kind, s->name, a, b);
				if (hit)
					hit->seen = true;
				else
					m.nr_new++;
				m.pair_new[p] = !hit;
			}
			if (!m.nr_new) {
				g->suppressed_findings++;
				g->suppressed_pairs += n;
				free(m.pair_new);
				keep_unchanged(l, f);
				continue;
			}
			g->reported_findings++;
			g->new_pairs += m.nr_new;
			locate_at_change(f, &m, l, ref, g->against, g->change);
			l->marks[kept] = m;
			l->findings.v[kept++] = *f;
		}
		l->findings.n = kept;
		if (g->change)
			fold_shifted(l, g);
	}
	for (size_t i = 0; i < ref->n; i++) {
		struct ll_pairkey *k = &ref->v[i];

		if (k->seen || !struct_linted(run, k->kind, k->name))
			continue;
		g->vanished = xgrow(g->vanished, g->nr_vanished, sizeof(*g->vanished));
		g->vanished[g->nr_vanished++] = *k;	/* borrowed strings */
	}
}

void ll_gate_release(struct ll_run *run, struct ll_gating *g)
{
	for (size_t i = 0; run && i < run->nr_structs; i++) {
		struct ll_linted *l = &run->structs[i];

		for (size_t k = 0; l->marks && k < l->findings.n; k++)
			free(l->marks[k].pair_new);
		free(l->marks);
		l->marks = NULL;
		ll_findings_release(&l->unchanged);
	}
	ll_array_free(g->vanished, g->nr_vanished);
}
