// SPDX-License-Identifier: GPL-2.0-or-later
/* Findings and the builders every producer of findings shares. */
#include "model/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/strbuf.h"

const char *ll_tier_name(enum ll_tier tier)
{
	static const char *const names[] = { "declared", "static", "measured" };

	return tier <= LL_TIER_MEASURED ? names[tier] : "?";
}

const char *ll_level_name(enum ll_level level)
{
	switch (level) {
	case LL_LEVEL_NOTE: return "note";
	case LL_LEVEL_WARNING: return "warning";
	case LL_LEVEL_ERROR: break;
	}
	return "error";
}

void ll_finding_release(struct ll_finding *x)
{
	free(x->message);
	ll_strv_free(x->members, x->nr_members);
	for (size_t j = 0; j < x->nr_pairs; j++) {
		free(x->pairs[j].a);
		free(x->pairs[j].b);
	}
	free(x->pairs);
	for (size_t j = 0; j < x->nr_notes; j++)
		free(x->notes[j].message);
	free(x->notes);
	free(x->located_note);
	free(x->fingerprint);
}

void ll_findings_release(struct ll_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		ll_finding_release(&f->v[i]);
	ll_array_free(f->v, f->n);
}

/* ---- finding builders ---------------------------------------------------- */

struct ll_finding *ll_finding_add(struct ll_findings *out, const char *rule,
				  enum ll_level level, int64_t cacheline)
{
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	struct ll_finding *f = &out->v[out->n++];

	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->level = level;
	f->cacheline = cacheline;
	return f;
}

void ll_finding_member(struct ll_finding *f, const char *path)
{
	for (size_t i = 0; i < f->nr_members; i++)
		if (strcmp(f->members[i], path) == 0)
			return;
	f->members = xgrow(f->members, f->nr_members, sizeof(*f->members));
	f->members[f->nr_members++] = xstrdup(path);
}

void ll_finding_pair(struct ll_finding *f, const char *a, const char *b)
{
	f->pairs = xgrow(f->pairs, f->nr_pairs, sizeof(*f->pairs));
	f->pairs[f->nr_pairs++] = (struct ll_pair){ xstrdup(a), b ? xstrdup(b) : NULL };
}

static void add_note(struct ll_finding *f, const struct ll_decl *decl, const char *path,
		     const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	sb_vaddf(&sb, fmt, ap);
	f->notes = xgrow(f->notes, f->nr_notes, sizeof(*f->notes));
	f->notes[f->nr_notes++] = (struct ll_note){ sb_detach(&sb), *decl, path };
}

void ll_finding_note(struct ll_finding *f, const struct ll_decl *decl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(f, decl, NULL, fmt, ap);
	va_end(ap);
}

void ll_finding_member_note(struct ll_finding *f, const struct ll_decl *decl, const char *path,
			    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(f, decl, path, fmt, ap);
	va_end(ap);
}

bool ll_finding_relocate(struct ll_finding *f, const char *path)
{
	if (!f->located || !f->located_note || strcmp(f->located, path) == 0)
		return false;
	for (size_t i = 0; i < f->nr_notes; i++) {
		struct ll_note *n = &f->notes[i];
		struct ll_note was = { f->located_note, f->location, f->located };

		if (!n->member || strcmp(n->member, path) != 0)
			continue;
		f->location = n->decl;
		f->located = n->member;
		f->located_note = n->message;
		*n = was;
		return true;
	}
	return false;
}

bool ll_finding_locate_at_cause(struct ll_finding *f, const struct ll_decl *decl,
				const char *path, const char *why)
{
	struct ll_note was;

	if (!f->located || !f->located_note || !decl->file || strcmp(f->located, path) == 0)
		return false;
	was = (struct ll_note){ f->located_note, f->location, f->located };
	f->notes = xgrow(f->notes, f->nr_notes, sizeof(*f->notes));
	memmove(f->notes + 1, f->notes, f->nr_notes * sizeof(*f->notes));
	f->notes[0] = was;
	f->nr_notes++;
	f->location = *decl;
	f->located = path;
	f->located_note = xstrdup(why);
	return true;
}

/* One field of a fingerprint: its bytes, then 0xff, which no name holds. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	return ll_fnv1a(ll_fnv1a_str(h, s), "\xff", 1);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ll_finding_seal(struct ll_finding *f, const struct ll_struct *s)
{
	char **sorted = xmalloc((f->nr_members ? f->nr_members : 1) * sizeof(*sorted));
	uint64_t h = LL_FNV_INIT;
	char hex[17];

	if (f->nr_members)
		memcpy(sorted, f->members, f->nr_members * sizeof(*sorted));
	if (f->nr_members)
		qsort(sorted, f->nr_members, sizeof(*sorted), str_cmp);
	h = fnv1a(h, f->rule);
	h = fnv1a(h, ll_kind_name(s->kind));
	h = fnv1a(h, s->name);
	for (size_t i = 0; i < f->nr_members; i++)
		h = fnv1a(h, sorted[i]);
	free(sorted);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	free(f->fingerprint);
	f->fingerprint = xstrdup(hex);
}

enum ll_level ll_findings_max_level(const struct ll_findings *f, bool *any)
{
	enum ll_level max = LL_LEVEL_NOTE;

	*any = f->n > 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].level > max)
			max = f->v[i].level;
	return max;
}

void ll_hot_sets_release(struct ll_hot_sets *sets)
{
	for (size_t i = 0; i < sets->n; i++)
		free(sets->v[i].members);
	ll_array_free(sets->v, sets->n);
}

bool ll_allowed(const struct ll_allow *allows, size_t n, const char *rule, const char *path)
{
	if (!path)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct ll_allow *a = &allows[i];
		size_t len = strlen(a->path);

		if (strcmp(a->rule, rule) == 0 && strncmp(path, a->path, len) == 0 &&
		    (path[len] == '\0' || path[len] == '.'))
			return true;
	}
	return false;
}
