// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lint one struct: the order of the steps is policy, and it lives here so
 * that the CLI and the tests call the same thing. Rules first (their tags
 * always win), then the kernel's cacheline groups tag what the rules left
 * untagged, then the checks, then the solver for what an order can fix,
 * then the cacheline maps every reporter draws (the proposal's too).
 */
#include "lint/lint.h"

#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "checks/checks.h"
#include "model/profile.h"
#include "solver/suggest.h"
#include "source/srcpatch.h"
#include "util/diag.h"
#include "util/strbuf.h"

static bool any_tagged(const struct ll_member *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tag != LL_UNTAGGED || any_tagged(v[i].children, v[i].nr_children))
			return true;
	return false;
}

/*
 * --suggest, per cli.md: every struct with such findings; a struct with
 * no tags at all gets the tightest packing when it has holes. Rules that
 * only pin ("pin last thread") tag nothing, so they still get it.
 */
static int suggest_one(const struct ll_lint_opts *o, struct ll_linted *l,
		       const struct ll_allows *allows, struct ll_error *err)
{
	struct ll_suggest_opts opts = { .allows = allows->v, .nr_allows = allows->n };
	struct ll_summary sum;
	bool wanted = false;

	for (size_t i = 0; i < l->findings.n && !wanted; i++)
		wanted = ll_check_fixable_by_reorder(l->findings.v[i].rule);
	if (!wanted && !any_tagged(l->layout->members, l->layout->nr_members) &&
	    !ll_groups_tagged(l->layout)) {
		ll_summarize(l->layout, &sum);
		wanted = sum.holes > 0 || sum.padding >= l->layout->alignment;
	}
	if (!wanted)
		return 0;
	if (l->layout->compiler_orders_members) {
		ll_notef("%s %s: rustc already orders the fields of a Rust struct itself (and DWARF "
			 "does not say whether #[repr(C)] keeps the declared order): no order "
			 "suggested", ll_kind_name(l->layout->kind), l->layout->name);
		return 0;
	}
	/* A patch moves whole declarations: the solver keeps their members together. */
	if (o->patch && l->layout->nr_members > LL_SUGGEST_MAX_UNITS) {
		/*
		 * Each member is one unit at least until the source glues them:
		 * more than the solver takes is refused before the source is
		 * mapped (100,000 members: a long mapping, then the refusal).
		 */
		struct strbuf why = STRBUF_INIT;

		sb_addf(&why, "%s %s: %zu members, more than the %d --format=patch maps",
			ll_kind_name(l->layout->kind), l->layout->name, l->layout->nr_members,
			LL_SUGGEST_MAX_UNITS);
		l->no_patch = sb_detach(&why);
	} else if (o->patch) {
		struct strbuf why = STRBUF_INIT;

		l->source = ll_source_read(l->layout, o->srcdir, &why);
		if (l->source) {
			opts.glued = ll_source_glued;
			opts.weight = ll_source_weight;	/* fewest moved lines, not units */
			opts.glue_arg = l->source;
		} else {
			l->no_patch = sb_detach(&why);
		}
		sb_release(&why);
	}
	return ll_suggest_opts(l->layout, &opts, &l->suggestion, err);
}

/*
 * The suggestion applied to a copy of the model, with its units, lines
 * and groups: what the HTML map draws beside the current layout.
 */
static void map_proposal(struct ll_linted *l)
{
	struct ll_proposal *p = &l->proposal;

	p->layout = ll_suggestion_layout(l->layout, l->suggestion);
	ll_collect_units(p->layout, &p->units);
	ll_map_lines(p->layout, &p->units, &p->lines);
	ll_find_groups(p->layout, &p->groups);
}

static void proposal_release(struct ll_proposal *p)
{
	ll_lines_release(&p->lines);
	ll_units_release(&p->units);
	ll_groups_release(&p->groups);
	ll_struct_free(p->layout);
	p->layout = NULL;
}

/* Does the C spelling TYPE name the aggregate NAME ("struct NAME", "NAME")? */
static bool type_names(const char *type, const char *name)
{
	if (strncmp(type, "struct ", 7) == 0)
		type += 7;
	else if (strncmp(type, "union ", 6) == 0)
		type += 6;
	return strcmp(type, name) == 0;
}

/*
 * --in: NAME's rules on the members of OUTER's member at o->embed_path,
 * matched from that member down, as if it were NAME itself: the tags land
 * on OUTER's members, so every check sees NAME at its offset in OUTER.
 */
static int apply_embedded(const struct ll_lint_opts *o, struct ll_struct *s,
			  struct ll_findings *findings, struct ll_allows *allows,
			  struct ll_hot_sets *sets, struct ll_error *err)
{
	/* S is ours to tag (ll_lint_struct's contract), so the member may change. */
	struct ll_member *found = (struct ll_member *)ll_member_at_path(s, o->embed_path);

	if (!found || !found->is_aggregate || !type_names(found->type, o->embed_type)) {
		ll_fail(err, "--in %s.%s: %s %s has no member %s of type %s%s%s", s->name,
			o->embed_path, ll_kind_name(s->kind), s->name, o->embed_path, o->embed_type,
			found ? "; it is " : "", found ? found->type : "");
		return -1;
	}
	if (!o->embed_block)
		return 0;

	struct ll_struct view = {
		.kind = found->agg_kind, .name = s->name, .size = s->size,
		.members = found->children, .nr_members = found->nr_children,
		.cacheline = s->cacheline,
	};

	return ll_rules_apply(o->embed_block, &view, findings, allows, sets, err);
}

/* What the findings from FROM on rest on: the rules, the code, or a profile. */
static void set_tiers(struct ll_findings *f, size_t from, bool static_tags)
{
	for (size_t i = from; i < f->n; i++) {
		struct ll_finding *x = &f->v[i];

		if (ll_check_is(x->rule, LL_CHECK_RULE_DRIFT) || ll_check_is(x->rule, LL_CHECK_MEASURED_MIXED))
			x->tier = LL_TIER_MEASURED;
		else if (static_tags)
			x->tier = LL_TIER_STATIC;
	}
}

int ll_lint_struct(const struct ll_lint_opts *o, struct ll_block *block, struct ll_linted *l,
		   struct ll_error *err)
{
	struct ll_struct *s = l->layout;
	struct ll_allows allows = { 0 };
	struct ll_hot_sets sets = { 0 };
	uint64_t align = 0;

	s->cacheline = o->cacheline ? o->cacheline :
		       block && block->cacheline ? block->cacheline : o->arch_cacheline;
	if (o->nr_profiles)
		ll_profile_apply(o->profiles, o->nr_profiles, s, &l->profile_notes);
	if (s->access) {
		struct ll_constructors c = { 0 };

		if (block && block->nr_constructors)
			c = (struct ll_constructors){ (const char *const *)block->constructors,
						      block->nr_constructors };
		ll_access_view_init(&l->access, s->access, s, &c);
	}
	if (block) {
		l->has_rules = true;
		if (ll_rules_apply(block, s, &l->findings, &allows, &sets, err))
			goto fail;
		align = block->align == LL_ALIGN_TYPE ? s->alignment : block->align;
		/* rules.md: align N is at least the type's own alignment. */
		if (block->align && block->align != LL_ALIGN_TYPE && block->align < s->alignment) {
			ll_fail(err, "%s:%u: error: align %llu is below the %llu-byte alignment %s %s "
				"already has; use 'align type' or a multiple of %llu", block->align_file,
				block->align_line, (unsigned long long)block->align,
				(unsigned long long)s->alignment, ll_kind_name(s->kind), s->name,
				(unsigned long long)s->alignment);
			err->located = true;
			goto fail;
		}
	}
	if (o->embed_path && apply_embedded(o, s, &l->findings, &allows, &sets, err))
		goto fail;
	struct ll_check_input ci = { .s = s, .align = align, .allows = allows.v,
				     .nr_allows = allows.n, .adjacent_lines = o->adjacent_lines,
				     .hot_sets = &sets, .thresholds = o->thresholds,
				     .has_rules = block != NULL || o->embed_block != NULL,
				     .access = l->access.e ? &l->access : NULL };

	/*
	 * The groups are always found, since the listing and the JSON show the
	 * markers either way; --groups=off only keeps them from tagging and
	 * from being checked. After the rules: a rules tag always beats a group's.
	 */
	ll_find_groups(s, &l->groups);
	if (!o->groups_off)
		ll_groups_apply_tags(s, &l->groups);
	/* No rules: the code's own evidence tags what nothing else did. */
	bool static_tags = o->static_tags && l->access.e && !ci.has_rules &&
			   s->kind != LL_GLOBALS &&
			   ll_access_static_tags(&l->access, s->members, s->nr_members,
						 &o->static_thresholds);
	size_t before = l->findings.n;

	ll_check(&ci, &l->findings);
	set_tiers(&l->findings, before, static_tags);
	if (!o->groups_off)
		ll_check_groups(&ci, &l->groups, &l->findings);
	/* The linker places variables: no member order to propose for them. */
	int rc = o->suggest && s->kind != LL_GLOBALS ? suggest_one(o, l, &allows, err) : 0;

	/* Kept: --against's layout-change runs after the lint and honours them. */
	free(l->allows);
	l->allows = allows.v;
	l->nr_allows = allows.n;
	ll_hot_sets_release(&l->hot_sets);
	l->hot_sets = sets;
	if (rc == 0) {
		/* The final tags are known: the map every reporter draws from. */
		ll_collect_units(s, &l->units);
		ll_map_lines(s, &l->units, &l->lines);
		if (l->suggestion)
			map_proposal(l);
	}
	return rc;
fail:
	free(allows.v);
	ll_hot_sets_release(&sets);
	return -1;
}

int ll_lint_smallest_fix(struct ll_linted *l, const struct ll_fix_ref *ref, struct ll_error *err)
{
	struct ll_suggest_opts opts = { .allows = l->allows, .nr_allows = l->nr_allows };
	struct ll_suggestion *fix;

	if (!l->suggestion)
		return 0;
	/* The same pieces as the re-layout: whole declarations, weighed by their lines. */
	if (l->source) {
		opts.glued = ll_source_glued;
		opts.weight = ll_source_weight;
		opts.glue_arg = l->source;
	}
	if (ll_suggest_fix(l->layout, &opts, ref, &fix, err))
		return -1;
	proposal_release(&l->proposal);
	ll_suggestion_free(l->suggestion);
	l->suggestion = fix;
	map_proposal(l);
	return 0;
}

void ll_linted_release(struct ll_linted *l)
{
	/* l->diff belongs to gating, which frees it (ll_layout_diff_free). */
	ll_findings_release(&l->findings);
	ll_array_free(l->allows, l->nr_allows);
	ll_hot_sets_release(&l->hot_sets);
	ll_profile_notes_release(&l->profile_notes);
	ll_access_view_release(&l->access);
	ll_lines_release(&l->lines);
	ll_units_release(&l->units);
	/* Before the groups: its members' group tags borrow their strings. */
	proposal_release(&l->proposal);
	/* The suggestion borrows the members of the layout. */
	ll_suggestion_free(l->suggestion);
	ll_source_free(l->source);
	free(l->no_patch);
	ll_struct_free(l->layout);
	/* Last: the members' group tags borrowed its strings. */
	ll_groups_release(&l->groups);
}
