// SPDX-License-Identifier: GPL-2.0-or-later
/* Variables at fixed addresses, from DWARF (see variables.h). */
#include "input/dwarf/variables.h"

#include <dwarf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "input/dwarf/ctype_name.h"
#include "util/strbuf.h"

/* The one address a location expression names, if that is all it does. */
static bool fixed_address(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute attr, target;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) != 0 || nops != 1)
		return false;
	switch (ops[0].atom) {
	case DW_OP_addr:
		*addr = ops[0].number;
		return true;
	case DW_OP_addrx:
	case DW_OP_GNU_addr_index:
		return dwarf_getlocation_attr(&attr, &ops[0], &target) == 0 &&
		       dwarf_formaddr(&target, addr) == 0;
	default:
		return false;
	}
}

static char *type_spelling(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;

	/* DW_AT_specification: a definition's type is its declaration's. */
	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type))
		return xstrdup("");
	return ll_c_declaration(&type, "");
}

static void add_variable(Dwarf_Die *die, ll_die_decl_fn decl, void *ctx,
			 struct ll_variables *out)
{
	Dwarf_Attribute attr;
	Dwarf_Addr addr;
	const char *name;
	struct ll_variable *v;

	if (!fixed_address(die, &addr))
		return;
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	if (!name || !*name)
		return;
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	v = &out->v[out->n++];
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	v->addr = addr;
	v->order = dwarf_dieoffset(die);
	v->type = type_spelling(die);
	decl(ctx, die, &v->decl);
}

/* One walker's share: the units starting in [BEGIN, END) of .debug_info. */
struct share {
	Dwarf *dw;
	void *ctx;
	ll_die_decl_fn decl;
	const struct ll_variables_walk *walk;
	const char *path;
	Dwarf_Off begin, end;
	size_t lo, hi;			/* walk->use_only: walk->only[lo, hi) */
	struct ll_variables vars;
	struct ll_error err;
	int rc;
};

/* What the walk has read before it calls unit_done (variables.h). */
#define UNIT_DONE_BATCH ((Dwarf_Off)2 << 20)

static void *walk_share(void *arg)
{
	struct share *sh = arg;
	Dwarf_Off off = sh->begin, next, done = sh->begin;
	size_t header;
	int rc = 0;

	while (off < sh->end && (rc = dwarf_nextcu(sh->dw, off, &next, &header, NULL, NULL,
						   NULL)) == 0) {
		Dwarf_Die cu, child;

		if (!dwarf_offdie(sh->dw, off + header, &cu)) {
			sh->rc = ll_fail(&sh->err, "%s: .debug_info offset %#llx: unreadable unit: %s",
					 sh->path, (unsigned long long)off, dwarf_errmsg(-1));
			return NULL;
		}
		if (dwarf_child(&cu, &child) == 0) {
			do {
				if (dwarf_tag(&child) == DW_TAG_variable)
					add_variable(&child, sh->decl, sh->ctx, &sh->vars);
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		/* In batches: each call may cost every CPU a TLB flush. */
		if (sh->walk->unit_done && next - done >= UNIT_DONE_BATCH) {
			sh->walk->unit_done(sh->walk->unit_done_arg, done, next);
			done = next;
		}
		off = next;
	}
	if (sh->walk->unit_done && off > done)
		sh->walk->unit_done(sh->walk->unit_done_arg, done, off);
	if (rc < 0)
		sh->rc = ll_fail(&sh->err, "%s: .debug_info offset %#llx: unreadable unit header: %s",
				 sh->path, (unsigned long long)off, dwarf_errmsg(-1));
	return NULL;
}

/*
 * walk_share() over the DIEs a scan listed (walk->use_only): each read
 * where it is, the units before it given back in batches as above.
 */
static void *walk_only_share(void *arg)
{
	struct share *sh = arg;
	const struct ll_scan_variable *v = sh->walk->only;
	Dwarf_Off done = sh->lo < sh->hi ? v[sh->lo].unit : 0;

	for (size_t i = sh->lo; i < sh->hi; i++) {
		Dwarf_Die die;

		if (!dwarf_offdie(sh->dw, v[i].die, &die)) {
			sh->rc = ll_fail(&sh->err, "%s: .debug_info offset %#llx: unreadable DIE: %s",
					 sh->path, (unsigned long long)v[i].die, dwarf_errmsg(-1));
			return NULL;
		}
		if (dwarf_tag(&die) == DW_TAG_variable)
			add_variable(&die, sh->decl, sh->ctx, &sh->vars);
		if (sh->walk->unit_done && v[i].unit - done >= UNIT_DONE_BATCH) {
			sh->walk->unit_done(sh->walk->unit_done_arg, done, v[i].unit);
			done = v[i].unit;
		}
	}
	if (sh->walk->unit_done && sh->lo < sh->hi && v[sh->hi - 1].unit_end > done)
		sh->walk->unit_done(sh->walk->unit_done_arg, done, v[sh->hi - 1].unit_end);
	return NULL;
}

/*
 * Where the second walker of walk->only starts: about half the DIEs, at
 * the first of a unit, so that neither gives back the other's units.
 */
static size_t middle_variable(const struct ll_variables_walk *walk)
{
	size_t k = walk->nr_only / 2;

	while (k && k < walk->nr_only && walk->only[k].unit == walk->only[k - 1].unit)
		k++;
	return k < walk->nr_only ? k : 0;
}

/*
 * The unit after OFF, its header read through WALK's first handle; the
 * units before it given back now and then (*DONE: up to where): each
 * header read maps ~64 KiB of the file around it.
 */
static int header_step(const struct ll_variables_walk *walk, Dwarf_Off off, Dwarf_Off *next,
		       Dwarf_Off *done)
{
	size_t header;
	int rc = dwarf_nextcu(walk->dw[0], off, next, &header, NULL, NULL, NULL);

	if (walk->unit_done && (rc != 0 || *next - *done >= UNIT_DONE_BATCH) && off > *done) {
		walk->unit_done(walk->unit_done_arg, *done, off);
		*done = off;
	}
	return rc;
}

/*
 * Where the second walker starts: the first unit at or after the middle of
 * .debug_info, so that each walks about half of its bytes. 0 when there is
 * no second unit to start at.
 */
static Dwarf_Off middle_unit(const struct ll_variables_walk *walk)
{
	Dwarf_Off off = 0, next, done = 0, split = 0, *ends = NULL;
	size_t n = 0;

	/* One pass, each unit's end kept: a second one mapped every header's pages again. */
	while (header_step(walk, off, &next, &done) == 0) {
		ends = xgrow(ends, n, sizeof(*ends));
		ends[n++] = next;
		off = next;
	}
	/* The last unit boundary at or before the middle (OFF: where the units end). */
	for (size_t i = 0; i < n && ends[i] <= off / 2; i++)
		split = ends[i];
	if (n < 2)
		split = 0;	/* no second unit to start at */
	else if (!split)
		split = ends[n - 2];	/* the last unit's start */
	free(ends);
	return split;
}

static void append(struct ll_variables *to, struct ll_variables *from)
{
	for (size_t i = 0; i < from->n; i++) {
		to->v = xgrow(to->v, to->n, sizeof(*to->v));
		to->v[to->n++] = from->v[i];
	}
	free(from->v);
	memset(from, 0, sizeof(*from));
}

int ll_dwarf_variables(const struct ll_variables_walk *walk, struct ll_variables *out,
		       struct ll_error *err)
{
	struct share sh[2] = { 0 };
	Dwarf_Off split = walk->nr > 1 && !walk->use_only ? middle_unit(walk) : 0;
	size_t mid = walk->nr > 1 && walk->use_only ? middle_variable(walk) : 0;
	size_t n = split || mid ? 2 : 1;
	void *(*run)(void *) = walk->use_only ? walk_only_share : walk_share;
	pthread_t tid;
	bool threaded = false;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		sh[i] = (struct share){ .dw = walk->dw[i], .ctx = walk->ctx[i], .decl = walk->decl,
					.walk = walk,
					.path = walk->path, .begin = i ? split : 0,
					.end = i || !split ? (Dwarf_Off)-1 : split,
					.lo = i ? mid : 0, .hi = i || !mid ? walk->nr_only : mid };
	if (n == 2)
		threaded = pthread_create(&tid, NULL, run, &sh[1]) == 0;
	run(&sh[0]);
	if (threaded)
		pthread_join(tid, NULL);
	else if (n == 2)
		run(&sh[1]);
	for (size_t i = 0; i < n; i++) {
		if (sh[i].rc && !rc) {
			*err = sh[i].err;
			rc = -1;
		}
		append(out, &sh[i].vars);
	}
	return rc;
}
