// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applying one rules block to one struct's model: pattern matching, tag
 * precedence, pins, and stale patterns. Works on the model alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "util/pathglob.h"
#include "model/units.h"
#include "rules/rules.h"
#include "util/edit_distance.h"
#include "util/strbuf.h"

struct matches {
	struct ll_member **v;
	size_t n;
};

/*
 * One pattern's walk reaches each member by one path only, so a member
 * is never pushed twice: no search for it (which was quadratic, and a
 * `*` over 100,000 members took seconds).
 */
static void push_match(struct matches *m, struct ll_member *x)
{
	m->v = xgrow(m->v, m->n, sizeof(*m->v));
	m->v[m->n++] = x;
}

static bool type_is_array(const char *type)
{
	return strchr(type, '[') && !strstr(type, "(*");
}

static int pattern_error(const struct ll_pattern *p, struct ll_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int pattern_error(const struct ll_pattern *p, struct ll_error *err, const char *fmt, ...)
{
	char msg[LL_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ll_fail(err, "%s:%u:%u: error: %s", p->file, p->line, p->column, msg);
	err->located = true;
	return -1;
}

/* Match components [ci..] of P against one level of members (anonymous ones and bases flattened). */
static int match_level(struct ll_member *members, size_t n, const struct ll_pattern *p,
		       size_t ci, struct matches *out, struct ll_error *err)
{
	const char *comp = p->components[ci];
	bool last = ci + 1 == p->nr_components;

	for (size_t i = 0; i < n; i++) {
		struct ll_member *m = &members[i];

		/* A C++ base's members are the derived class's own, as in d.x. */
		if (!m->name || m->is_base) {
			if (m->is_aggregate &&
			    match_level(m->children, m->nr_children, p, ci, out, err))
				return -1;
			continue;
		}
		if (!ll_glob_component(comp, m->name, strlen(m->name)))
			continue;
		if (last) {
			push_match(out, m);
			continue;
		}
		if (m->is_aggregate) {
			if (match_level(m->children, m->nr_children, p, ci + 1, out, err))
				return -1;
			continue;
		}
		/* Globs skip members they cannot enter; a written name is a mistake. */
		if (ll_has_glob_chars(comp))
			continue;
		if (type_is_array(m->type))
			return pattern_error(p, err, "pattern '%s' goes through the array %s (%s); "
					     "patterns stop at arrays", p->text, m->path, m->type);
		if (strchr(m->type, '*'))
			return pattern_error(p, err, "pattern '%s' follows the pointer %s (%s); "
					     "patterns never go through pointers: tag %s itself",
					     p->text, m->path, m->type, m->path);
		return pattern_error(p, err, "pattern '%s' goes into %s, of type %s, which is not "
				     "a struct or union", p->text, m->path, m->type);
	}
	return 0;
}

/*
 * A tag on an aggregate covers all its bytes: show it on the children the
 * rules did not tag themselves. tag_rule_line stays 0 on them, so the
 * checks still see where each tag came from.
 */
static void inherit_tags(struct ll_member *m, const struct ll_member *tagged_parent)
{
	if (m->tag_rule_line)
		tagged_parent = m;
	else if (tagged_parent) {
		m->tag = tagged_parent->tag;
		free(m->domain);
		m->domain = tagged_parent->domain ? xstrdup(tagged_parent->domain) : NULL;
	}
	for (size_t i = 0; i < m->nr_children; i++)
		inherit_tags(&m->children[i], tagged_parent);
}

static void set_pinned(struct ll_member *m)
{
	m->pinned = true;
	for (size_t i = 0; i < m->nr_children; i++)
		set_pinned(&m->children[i]);
}

static void push_allow(struct ll_allows *a, const char *rule, const char *path)
{
	a->v = xgrow(a->v, a->n, sizeof(*a->v));
	a->v[a->n++] = (struct ll_allow){ rule, path };
}

static int tag_member(struct ll_member *m, const struct ll_stmt *st, const struct ll_pattern *p,
		      struct ll_error *err)
{
	unsigned spec = (unsigned)p->exact_components;

	if (m->tag_rule_line) {
		if (spec < m->tag_specificity)
			return 0;
		if (spec == m->tag_specificity &&
		    (m->tag != st->tag || !ll_same_domain(m->domain, st->domain))) {
			return pattern_error(p, err, "%s is tagged %s%s%s here but %s%s%s at %s:%d by "
					     "an equally specific pattern; make one more specific",
					     m->path, ll_tag_name(st->tag), st->domain ? ":" : "",
					     st->domain ? st->domain : "", ll_tag_name(m->tag),
					     m->domain ? ":" : "", m->domain ? m->domain : "",
					     m->tag_rule_file, m->tag_rule_line);
		}
	}
	m->tag = st->tag;
	free(m->domain);
	m->domain = st->domain ? xstrdup(st->domain) : NULL;
	m->tag_rule_line = (int)p->line;
	m->tag_rule_file = p->file;
	m->tag_specificity = spec;
	return 0;
}

/* Closest member path to a stale pattern, for "did you mean". */
struct closest {
	const char *text;
	const char *best;
	size_t dist;
};

static int closest_visit(struct ll_member *m, int depth, void *arg)
{
	struct closest *c = arg;
	size_t d;

	(void)depth;
	if (!m->path)
		return 0;
	/* Only a distance below the best so far can matter. */
	d = ll_edit_distance(c->text, m->path, c->dist - 1);
	if (d < c->dist) {
		c->dist = d;
		c->best = m->path;
	}
	return 0;
}

static void stale_finding(const struct ll_block *b, struct ll_struct *s,
			  const struct ll_pattern *p, struct ll_findings *out)
{
	struct closest c = { .text = p->text, .dist = strlen(p->text) / 3 + 2 };
	struct ll_finding *f = ll_check_finding_add(out, LL_CHECK_STALE_RULE, -1);
	struct strbuf msg = STRBUF_INIT;

	ll_visit(s->members, s->nr_members, closest_visit, &c);
	sb_addf(&msg, "pattern '%s' matches no member of %s %s", p->text,
		ll_kind_name(b->kind), b->name);
	if (c.best && !ll_has_glob_chars(p->text))
		sb_addf(&msg, "; did you mean %s?", c.best);
	else
		sb_adds(&msg, " (prefix it with '?' if it is config-dependent)");
	f->message = sb_detach(&msg);
	/* Rules files have real paths and columns; point at the pattern. */
	f->location.file = (char *)p->file;
	f->location.line = p->line;
	f->location.column = p->column;
	ll_finding_member(f, p->text);
	ll_finding_pair(f, p->text, NULL);
	ll_finding_seal(f, s);
}

static struct ll_hot_set *hot_set_of(struct ll_hot_sets *sets, const struct ll_stmt *st)
{
	for (size_t i = 0; i < sets->n; i++)
		if (strcmp(sets->v[i].name, st->group) == 0)
			return &sets->v[i];
	sets->v = xgrow(sets->v, sets->n, sizeof(*sets->v));
	sets->v[sets->n] = (struct ll_hot_set){ .name = st->group, .file = st->file,
						.line = st->line, .column = st->column };
	return &sets->v[sets->n++];
}

/* Each member once: two patterns may name it, or a member and its parent. */
static void hot_set_add(struct ll_hot_set *set, const struct ll_member *m)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->members[i] == m)
			return;
	set->members = xgrow(set->members, set->n, sizeof(*set->members));
	set->members[set->n++] = m;
}

int ll_rules_apply(struct ll_block *block, struct ll_struct *s, struct ll_findings *out,
		   struct ll_allows *allows, struct ll_hot_sets *sets, struct ll_error *err)
{
	for (size_t si = 0; si < block->nr_stmts; si++) {
		struct ll_stmt *st = &block->stmts[si];

		for (size_t pi = 0; pi < st->nr_patterns; pi++) {
			struct ll_pattern *p = &st->patterns[pi];
			struct matches m = { 0 };

			if (match_level(s->members, s->nr_members, p, 0, &m, err)) {
				free(m.v);
				return -1;
			}
			p->matches = m.n;
			for (size_t k = 0; k < m.n; k++) {
				int rc = 0;

				if (st->kind == LL_STMT_TAG)
					rc = tag_member(m.v[k], st, p, err);
				else if (st->kind == LL_STMT_PIN && st->pin_last)
					m.v[k]->pin_last = true;
				else if (st->kind == LL_STMT_PIN)
					set_pinned(m.v[k]);
				else if (st->kind == LL_STMT_GROUP)
					hot_set_add(hot_set_of(sets, st), m.v[k]);
				else
					push_allow(allows, st->allow_rule, m.v[k]->path);
				if (rc) {
					free(m.v);
					return -1;
				}
			}
			free(m.v);
			if (!m.n && !p->optional)
				stale_finding(block, s, p, out);
		}
	}
	for (size_t i = 0; i < s->nr_members; i++)
		inherit_tags(&s->members[i], NULL);
	return 0;
}
