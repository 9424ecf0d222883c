// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * group-assert and the per-image table: see contracts.h.
 *
 * The kernel's two asserts, as include/linux/cache.h defines them:
 *
 *	CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE)
 *		offsetof(end marker) - offsetofend(begin marker) <= SIZE
 *	CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER)
 *		offsetof(MEMBER) >= offsetofend(begin marker) &&
 *		offsetofend(MEMBER) <= offsetof(end marker)
 *
 * The markers are zero-size, so a group's bytes are those of struct
 * ll_group: [begin_offset, end_offset). A SIZE constant is stale when it
 * exceeds the largest size of its group over every image of the run by at
 * least one alignment unit: the largest alignment of the group's members,
 * the step in which the group's size moves when a member comes or goes.
 */
#include "checks/contracts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "util/hash.h"
#include "util/strbuf.h"

const char *ll_assert_verdict_name(enum ll_assert_verdict v)
{
	switch (v) {
	case LL_ASSERT_ABSENT: return "absent";
	case LL_ASSERT_NO_GROUP: return "no-group";
	case LL_ASSERT_HOLDS: return "holds";
	case LL_ASSERT_FAILS: return "fails";
	case LL_ASSERT_UNKNOWN: return "unknown";
	}
	return "?";
}

void ll_group_asserts_release(struct ll_group_asserts *a)
{
	for (size_t i = 0; i < a->n; i++) {
		ll_free_all(a->v[i].decl.file, a->v[i].struct_name, a->v[i].group, a->v[i].member,
			    a->v[i].size_text);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* The image's linted struct KIND NAME (the first, with several line sizes), or NULL. */
static struct ll_linted *find_struct(const struct ll_contract_image *img, enum ll_kind kind,
				     const char *name)
{
	for (size_t i = 0; i < img->nr_structs; i++) {
		const struct ll_struct *s = img->structs[i].layout;

		if (s && s->kind == kind && s->name && strcmp(s->name, name) == 0)
			return &img->structs[i];
	}
	return NULL;
}

static const struct ll_group *find_group(const struct ll_groups *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->v[i].name, name) == 0)
			return &g->v[i];
	return NULL;
}

/*
 * The member a designator ("a", "a.b") names, as offsetof() resolves it:
 * named members by name, anonymous aggregates searched through. NULL for
 * what it cannot name (an array index among them).
 */
static const struct ll_member *find_in(const struct ll_member *v, size_t n, const char *name,
				       size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &v[i];

		if (!m->name) {
			const struct ll_member *in = m->is_aggregate ?
				find_in(m->children, m->nr_children, name, len) : NULL;

			if (in)
				return in;
			continue;
		}
		if (strlen(m->name) == len && strncmp(m->name, name, len) == 0)
			return m;
	}
	return NULL;
}

static const struct ll_member *find_member(const struct ll_struct *s, const char *designator)
{
	const struct ll_member *v = s->members, *m = NULL;
	size_t n = s->nr_members;
	const char *p = designator;

	if (strchr(designator, '[') || strstr(designator, "->"))
		return NULL;
	for (;;) {
		size_t len = strcspn(p, ".");

		m = find_in(v, n, p, len);
		if (!m || !p[len])
			return m;
		v = m->children;
		n = m->nr_children;
		p += len + 1;
	}
}

static uint64_t max_alignment(const struct ll_group *g)
{
	uint64_t unit = 1;

	for (size_t i = 0; i < g->nr_members; i++)
		if (g->members[i]->alignment > unit && g->members[i]->alignment <= 4096)
			unit = g->members[i]->alignment;
	return unit;
}

/* Gating and the merge of binaries tell findings apart by fingerprint: this one is per image. */
static void seal_for_image(struct ll_finding *f, const struct ll_struct *s, const char *image)
{
	uint64_t h = LL_FNV_INIT;
	char hex[17];

	ll_finding_seal(f, s);
	h = ll_fnv1a_str(h, f->fingerprint);
	h = ll_fnv1a_str(h, image ? image : "");
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	free(f->fingerprint);
	f->fingerprint = xstrdup(hex);
}

static const char *assert_macro(const struct ll_group_assert *a)
{
	return a->kind == LL_ASSERT_SIZE ? "CACHELINE_ASSERT_GROUP_SIZE" :
					   "CACHELINE_ASSERT_GROUP_MEMBER";
}

static void other_images(struct strbuf *sb, const struct ll_assert_result *r,
			 const struct ll_contract_image *images, size_t n)
{
	bool first = true;

	for (size_t k = 0; k < n; k++) {
		if (r->verdict[k] != LL_ASSERT_HOLDS && r->verdict[k] != LL_ASSERT_FAILS)
			continue;
		sb_addf(sb, "%s%s %" PRIu64, first ? "" : ", ", images[k].path, r->group_size[k]);
		first = false;
	}
}

/*
 * The binaries after K whose struct has the very layout of K's: the run
 * reports such a struct once (at its first binary), so the finding there
 * names them all, and they get none of their own (first_of_layout()).
 */
static void same_layout_images(struct strbuf *sb, const struct ll_assert_result *r,
			       const struct ll_contract_image *images, size_t n, size_t k,
			       const struct ll_struct *s)
{
	for (size_t j = k + 1; j < n; j++) {
		const struct ll_linted *o = find_struct(&images[j], r->a->struct_kind,
							 r->a->struct_name);

		if (o && ll_struct_same_layout(o->layout, s))
			sb_addf(sb, " and %s", images[j].path);
	}
}

/* Whether no binary before K has S's very layout (else the finding is there). */
static bool first_of_layout(const struct ll_group_assert *a, const struct ll_contract_image *images,
			    size_t k, const struct ll_struct *s)
{
	for (size_t j = 0; j < k; j++) {
		const struct ll_linted *o = find_struct(&images[j], a->struct_kind, a->struct_name);

		if (o && ll_struct_same_layout(o->layout, s))
			return false;
	}
	return true;
}

static void size_failure(const struct ll_assert_result *r, const struct ll_group *g,
			 struct ll_linted *l, const struct ll_contract_image *images, size_t n,
			 size_t k)
{
	const struct ll_group_assert *a = r->a;
	const struct ll_struct *s = l->layout;
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_GROUP_ASSERT,
						    (int64_t)g->first_line);
	struct strbuf msg = STRBUF_INIT, sizes = STRBUF_INIT;
	uint64_t bytes = g->end_offset - g->begin_offset;

	sb_addf(&msg, "%s(%s %s, %s, %s) fails on %s", assert_macro(a),
		ll_kind_name(a->struct_kind), a->struct_name, a->group, a->size_text, images[k].path);
	same_layout_images(&msg, r, images, n, k, s);
	sb_addf(&msg, ": group %s is %" PRIu64 " bytes (%" PRIu64 "-%" PRIu64 "), %" PRIu64
		" over", a->group, bytes, g->begin_offset, g->end_offset ? g->end_offset - 1 : 0,
		bytes - a->size);
	f->message = sb_detach(&msg);
	f->location = a->decl;
	ll_finding_member(f, g->begin->path);
	ll_finding_member(f, g->end->path);
	ll_finding_pair(f, g->begin->path, NULL);
	ll_finding_note(f, &g->begin->decl, "group %s begins here", a->group);
	other_images(&sizes, r, images, n);
	ll_finding_note(f, &a->decl, "group %s's size on each image: %s; a constant valid on all of "
			"them is %" PRIu64, a->group, sizes.buf, r->max_size);
	sb_release(&sizes);
	seal_for_image(f, s, images[k].path);
}

static void member_failure(const struct ll_assert_result *r, const struct ll_group *g,
			   const struct ll_member *m, struct ll_linted *l,
			   const struct ll_contract_image *images, size_t n, size_t k)
{
	const struct ll_group_assert *a = r->a;
	struct ll_extent e = ll_member_extent(m);
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_GROUP_ASSERT, -1);
	struct strbuf msg = STRBUF_INIT;

	sb_addf(&msg, "%s(%s %s, %s, %s) fails on %s", assert_macro(a),
		ll_kind_name(a->struct_kind), a->struct_name, a->group, a->member, images[k].path);
	same_layout_images(&msg, r, images, n, k, l->layout);
	sb_addf(&msg, ": %s (bytes %" PRIu64 "-%" PRIu64 ") lies outside group %s (bytes %"
		PRIu64 "-%" PRIu64 ")", m->path ? m->path : a->member, e.begin,
		e.end ? e.end - 1 : 0, a->group, g->begin_offset,
		g->end_offset ? g->end_offset - 1 : 0);
	f->message = sb_detach(&msg);
	f->location = a->decl;
	if (m->path) {
		ll_finding_member(f, m->path);
		ll_finding_pair(f, m->path, NULL);
		ll_finding_member_note(f, &m->decl, m->path, "%s is declared here", m->path);
	}
	ll_finding_note(f, &g->begin->decl, "group %s begins here", a->group);
	seal_for_image(f, l->layout, images[k].path);
}

/* The struct is there, the group or member is not: a build error where the assert compiles. */
static void missing_name(const struct ll_assert_result *r, struct ll_linted *l,
			 const struct ll_contract_image *img, const char *what)
{
	const struct ll_group_assert *a = r->a;
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_GROUP_ASSERT, -1);
	struct strbuf msg = STRBUF_INIT;

	f->level = LL_LEVEL_WARNING;
	sb_addf(&msg, "%s(%s %s, %s, %s) names %s, which %s %s has not on %s: the assert "
		"does not build there unless the preprocessor leaves it out", assert_macro(a),
		ll_kind_name(a->struct_kind), a->struct_name, a->group,
		a->kind == LL_ASSERT_SIZE ? a->size_text : a->member, what,
		ll_kind_name(a->struct_kind), a->struct_name, img->path);
	f->message = sb_detach(&msg);
	f->location = a->decl;
	seal_for_image(f, l->layout, img->path);
}

static void stale(const struct ll_assert_result *r, struct ll_linted *l,
		  const struct ll_group *g, const struct ll_contract_image *images, size_t n)
{
	const struct ll_group_assert *a = r->a;
	struct ll_finding *f = ll_check_finding_add(&l->findings, LL_CHECK_GROUP_ASSERT,
						    (int64_t)g->first_line);
	struct strbuf msg = STRBUF_INIT, sizes = STRBUF_INIT;

	f->level = LL_LEVEL_WARNING;
	sb_addf(&msg, "%s(%s %s, %s, %s) is stale: the group is at most %" PRIu64 " bytes on "
		"the %zu image%s given, %" PRIu64 " below the constant (alignment unit %" PRIu64
		"); write %" PRIu64, assert_macro(a), ll_kind_name(a->struct_kind), a->struct_name,
		a->group, a->size_text, r->max_size, n, n == 1 ? "" : "s", a->size - r->max_size,
		r->unit, r->max_size);
	f->message = sb_detach(&msg);
	f->location = a->decl;
	ll_finding_member(f, g->begin->path);
	ll_finding_member(f, g->end->path);
	ll_finding_pair(f, g->begin->path, NULL);
	other_images(&sizes, r, images, n);
	ll_finding_note(f, &a->decl, "group %s's size on each image: %s", a->group, sizes.buf);
	sb_release(&sizes);
	ll_finding_seal(f, l->layout);
}

/*
 * 'allow group-assert PATTERN' matches members, as every allow does: the group's begin marker
 * (__cacheline_group_begin__GROUP) accepts all of the group's asserts, the asserted member its
 * _MEMBER assert. The verdicts stay in the table; only the findings go.
 */
static bool assert_allowed(const struct ll_linted *l, const struct ll_group *g,
			   const struct ll_member *m)
{
	return ll_check_allowed(l->allows, l->nr_allows, LL_CHECK_GROUP_ASSERT, g->begin->path) ||
	       (m && ll_check_allowed(l->allows, l->nr_allows, LL_CHECK_GROUP_ASSERT, m->path));
}

static void evaluate(struct ll_assert_result *r, struct ll_contract_image *images, size_t n)
{
	const struct ll_group_assert *a = r->a;
	bool failed = false, any = false;
	size_t first = n;
	const struct ll_group *first_group = NULL;

	r->verdict = xcalloc(n ? n : 1, sizeof(*r->verdict));
	r->group_size = xcalloc(n ? n : 1, sizeof(*r->group_size));
	r->unit = 1;
	/* Sizes first: a failure's notes give every image's. */
	for (size_t k = 0; k < n; k++) {
		struct ll_linted *l = find_struct(&images[k], a->struct_kind, a->struct_name);
		const struct ll_group *g = l ? find_group(&l->groups, a->group) : NULL;
		uint64_t unit;

		if (!l) {
			r->verdict[k] = LL_ASSERT_ABSENT;
			continue;
		}
		if (!g) {
			r->verdict[k] = LL_ASSERT_NO_GROUP;
			continue;
		}
		r->group_size[k] = g->end_offset - g->begin_offset;
		if (!any || r->group_size[k] > r->max_size)
			r->max_size = r->group_size[k];
		unit = max_alignment(g);
		if (unit > r->unit)
			r->unit = unit;
		if (!any) {
			first = k;
			first_group = g;
		}
		any = true;
		r->verdict[k] = LL_ASSERT_HOLDS;
	}
	for (size_t k = 0; k < n; k++) {
		struct ll_linted *l = find_struct(&images[k], a->struct_kind, a->struct_name);
		const struct ll_group *g;
		const struct ll_member *m;

		if (r->verdict[k] == LL_ASSERT_ABSENT)
			continue;
		if (r->verdict[k] == LL_ASSERT_NO_GROUP) {
			if (first_of_layout(a, images, k, l->layout))
				missing_name(r, l, &images[k], "no such group");
			continue;
		}
		g = find_group(&l->groups, a->group);
		if (a->kind == LL_ASSERT_SIZE) {
			if (!a->size_known) {
				r->verdict[k] = LL_ASSERT_UNKNOWN;
				continue;
			}
			if (r->group_size[k] > a->size) {
				r->verdict[k] = LL_ASSERT_FAILS;
				failed = true;
				if (first_of_layout(a, images, k, l->layout) &&
				    !assert_allowed(l, g, NULL))
					size_failure(r, g, l, images, n, k);
			}
			continue;
		}
		m = find_member(l->layout, a->member);
		if (!m) {
			r->verdict[k] = LL_ASSERT_NO_GROUP;
			if (first_of_layout(a, images, k, l->layout))
				missing_name(r, l, &images[k], "no such member");
			continue;
		}
		struct ll_extent e = ll_member_extent(m);

		if (e.begin < g->begin_offset || e.end > g->end_offset) {
			r->verdict[k] = LL_ASSERT_FAILS;
			failed = true;
			if (first_of_layout(a, images, k, l->layout) && !assert_allowed(l, g, m))
				member_failure(r, g, m, l, images, n, k);
		}
	}
	if (a->kind == LL_ASSERT_SIZE && a->size_known && any && !failed &&
	    a->size >= r->max_size + r->unit) {
		struct ll_linted *l = find_struct(&images[first], a->struct_kind, a->struct_name);

		r->stale = true;
		if (!assert_allowed(l, first_group, NULL))
			stale(r, l, first_group, images, n);
	}
}

void ll_check_contracts(const struct ll_group_asserts *a, struct ll_contract_image *images,
			size_t n, struct ll_contracts *out)
{
	memset(out, 0, sizeof(*out));
	out->nr_images = n;
	out->images = xcalloc(n ? n : 1, sizeof(*out->images));
	for (size_t k = 0; k < n; k++)
		out->images[k] = images[k].path;
	out->asserts = a;
	if (!a)
		return;
	out->results = xcalloc(a->n ? a->n : 1, sizeof(*out->results));
	for (size_t i = 0; i < a->n; i++) {
		bool linted = false;

		/* Only the structs this run linted: the others' asserts are not ours to judge. */
		for (size_t k = 0; k < n && !linted; k++)
			linted = find_struct(&images[k], a->v[i].struct_kind, a->v[i].struct_name);
		if (!linted)
			continue;
		out->results[out->nr_results].a = &a->v[i];
		evaluate(&out->results[out->nr_results++], images, n);
	}
}

/* ---- the per-image table ------------------------------------------------- */

static struct ll_image_row *row_for(struct ll_contracts *c, enum ll_kind kind, const char *name,
				    const char *group)
{
	size_t n = c->nr_images ? c->nr_images : 1;
	struct ll_image_row *r;

	for (size_t i = 0; i < c->nr_rows; i++) {
		r = &c->rows[i];
		if (r->kind == kind && strcmp(r->struct_name, name) == 0 &&
		    (group ? r->group && strcmp(r->group, group) == 0 : !r->group))
			return r;
	}
	c->rows = xgrow(c->rows, c->nr_rows, sizeof(*c->rows));
	r = &c->rows[c->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->struct_name = xstrdup(name);
	r->group = group ? xstrdup(group) : NULL;
	r->present = xcalloc(n, sizeof(*r->present));
	r->size = xcalloc(n, sizeof(*r->size));
	r->lines = xcalloc(n, sizeof(*r->lines));
	r->findings = xcalloc(n, sizeof(*r->findings));
	r->cacheline = xcalloc(n, sizeof(*r->cacheline));
	return r;
}

static void mark_differences(struct ll_image_row *r, size_t n)
{
	for (size_t k = 1; k < n; k++)
		if (r->present[k] != r->present[0] ||
		    (r->present[k] && (r->size[k] != r->size[0] || r->lines[k] != r->lines[0] ||
				       r->findings[k] != r->findings[0])))
			r->differs = true;
}

/*
 * Findings of L on image K: its own, group-assert's aside, plus every
 * assert that fails there (a failure is reported once for all the images
 * that share a layout; the stale warning belongs to no one image).
 */
static size_t image_findings(const struct ll_contracts *c, const struct ll_linted *l, size_t k)
{
	size_t n = 0;

	for (size_t i = 0; i < l->findings.n; i++)
		n += !ll_check_is(l->findings.v[i].rule, LL_CHECK_GROUP_ASSERT);
	for (size_t i = 0; i < c->nr_results; i++) {
		const struct ll_group_assert *a = c->results[i].a;

		n += a->struct_kind == l->layout->kind && strcmp(a->struct_name, l->layout->name) == 0 &&
		     c->results[i].verdict[k] == LL_ASSERT_FAILS;
	}
	return n;
}

void ll_contracts_table(struct ll_contract_image *images, size_t n, struct ll_contracts *out)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < images[k].nr_structs; i++) {
			const struct ll_linted *l = &images[k].structs[i];
			const struct ll_struct *s = l->layout;
			struct ll_image_row *r;

			if (!s || !s->name || s->kind == LL_GLOBALS)
				continue;
			r = row_for(out, s->kind, s->name, NULL);
			if (r->present[k])
				continue;	/* another line size of the same struct */
			r->present[k] = true;
			r->size[k] = s->size;
			r->lines[k] = ll_struct_lines(s);
			r->findings[k] = image_findings(out, l, k);
			r->cacheline[k] = s->cacheline;
			for (size_t g = 0; g < l->groups.n; g++) {
				const struct ll_group *grp = &l->groups.v[g];
				struct ll_image_row *gr = row_for(out, s->kind, s->name, grp->name);

				/* row_for may have moved the rows: R is not used below. */
				gr->present[k] = true;
				gr->size[k] = grp->end_offset - grp->begin_offset;
				gr->lines[k] = grp->nr_lines;
				gr->cacheline[k] = grp->cacheline;
			}
		}
	}
	for (size_t i = 0; i < out->nr_rows; i++)
		mark_differences(&out->rows[i], n);
}

void ll_contracts_release(struct ll_contracts *c)
{
	for (size_t i = 0; i < c->nr_results; i++) {
		free(c->results[i].verdict);
		free(c->results[i].group_size);
	}
	free(c->results);
	for (size_t i = 0; i < c->nr_rows; i++) {
		struct ll_image_row *r = &c->rows[i];

		ll_free_all(r->struct_name, r->group, r->present, r->size, r->lines, r->findings,
			    r->cacheline);
	}
	free(c->rows);
	free(c->images);
	memset(c, 0, sizeof(*c));
}

/* ---- randstruct ---------------------------------------------------------- */

/*
 * RANDSTRUCT_PERFORMANCE (the gcc plugin's performance mode) shuffles the
 * members only within groups of consecutive members that fit in a 64-byte
 * line together; a group is closed when the next member would overflow it,
 * and a bitfield is never moved (scripts/gcc-plugins/randomize_layout_plugin.c,
 * partition_struct()). The groups, as this layout has them.
 */
static void performance_groups(struct ll_finding *f, const struct ll_struct *s)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t bytes = 0, start = 0, end = 0;
	size_t in_group = 0;

	for (size_t i = 0; i <= s->nr_members; i++) {
		const struct ll_member *m = i < s->nr_members ? &s->members[i] : NULL;

		if (in_group && (!m || bytes + m->size > 64 || m->is_bitfield)) {
			ll_finding_note(f, &s->decl, "the plugin may reorder %s (bytes %" PRIu64 "-%"
					PRIu64 ")", sb.buf, start, end ? end - 1 : start);
			sb_release(&sb);
			in_group = 0;
			bytes = 0;
		}
		if (!m || m->is_bitfield)
			continue;
		if (!in_group)
			start = m->offset;
		sb_addf(&sb, "%s%s", in_group ? ", " : "", m->name ? m->name : "<anonymous>");
		bytes += m->size;
		end = m->offset + m->size;
		in_group++;
	}
	sb_release(&sb);
}

static bool only_function_pointers(const struct ll_struct *s)
{
	if (!s->nr_members)
		return false;
	for (size_t i = 0; i < s->nr_members; i++)
		if (!s->members[i].type || !strstr(s->members[i].type, "(*)"))
			return false;
	return true;
}

bool ll_randstruct_candidate(const struct ll_struct *s, enum ll_rand_mark mark)
{
	return mark != LL_RAND_NONE || only_function_pointers(s);
}

void ll_note_randstruct(struct ll_linted *l, enum ll_rand_mark mark, bool mark_known,
			const struct ll_decl *mark_at, enum ll_rand_config config,
			const char *config_file)
{
	const struct ll_struct *s = l->layout;
	struct ll_finding *f;
	struct strbuf msg = STRBUF_INIT;
	bool randomized = config == LL_RAND_CONFIG_FULL || config == LL_RAND_CONFIG_PERFORMANCE;
	bool automatic = mark == LL_RAND_NONE && only_function_pointers(s);

	if (mark == LL_RAND_NONE && !automatic && (mark_known || !randomized))
		return;
	f = ll_check_finding_add(&l->findings, LL_CHECK_RANDSTRUCT, -1);
	sb_addf(&msg, "%s %s ", ll_kind_name(s->kind), s->name);
	if (mark == LL_RAND_LAYOUT)
		sb_adds(&msg, "is __randomize_layout");
	else if (mark == LL_RAND_FIELDS)
		sb_adds(&msg, "has members between randomized_struct_fields_start and _end");
	else if (automatic)
		sb_adds(&msg, "holds only function pointers, which randstruct randomizes unmarked");
	else
		sb_adds(&msg, "may be __randomize_layout (give --srcdir to tell)");
	if (config == LL_RAND_CONFIG_OFF)
		sb_addf(&msg, ", but %s builds without randstruct: the layout checked is the "
			"declared one", config_file);
	else if (randomized)
		sb_addf(&msg, " and %s builds with RANDSTRUCT_%s: the layout checked is this "
			"build's; another seed gives another", config_file,
			config == LL_RAND_CONFIG_FULL ? "FULL" : "PERFORMANCE");
	else
		sb_adds(&msg, ": with CONFIG_RANDSTRUCT its layout differs per build (the seed); "
			"the layout checked is this binary's (--config .config says which build)");
	f->message = sb_detach(&msg);
	f->location = mark_at && mark_at->file ? *mark_at : s->decl;
	ll_finding_seal(f, s);
	if (config == LL_RAND_CONFIG_PERFORMANCE && mark != LL_RAND_FIELDS)
		performance_groups(f, s);
}
