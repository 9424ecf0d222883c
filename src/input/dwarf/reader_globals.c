// SPDX-License-Identifier: GPL-2.0-or-later
/* Global variables at fixed addresses: their types and declarations, raw where it can. */
#include "input/dwarf/readerP.h"

struct variable_decls {
	const struct ll_dwarf_input *in;
	struct file_cache files;
};

static void variable_decl(void *ctx, Dwarf_Die *die, struct ll_decl *out)
{
	struct variable_decls *vd = ctx;

	reader_die_decl(vd->in, die, &vd->files, out);
}

/*
 * Every unit is read. Where the lookups read .debug_info sparsely, the
 * hole becomes the file's own mapping again first (ll_sparse_fill_all(),
 * no copy): the units the lookups had copied in are let go, instead of a
 * second mapping of the file beside them (--audit='*' on the 6.12 image
 * peaked far higher that way). Two walkers each get a libdw handle of
 * their own on that ELF when this reader opened the DWARF itself
 * (libdwfl's, for modules and separate debug files, stays one).
 */
/* A unit the variables walk has read: its pages go back (a lower peak). */
static void variables_unit_done(void *arg, Dwarf_Off begin, Dwarf_Off end)
{
	ll_sparse_release(arg, begin, end - begin);
}

/*
 * The variables a listing's scan read whole (ll_scan_variable's RAW) into
 * OUT, as the libdw walk's add_variable() and reader_die_decl() make them; the
 * others into *REST, for that walk. The scan had each unit in memory
 * already: through libdw, the walk parsed every unit's abbreviations
 * again and registered every unit, costly in a cold --audit='*'.
 * Each name and type moves from V to OUT (~46,000 of each on 6.12,
 * copied and freed at once before).
 */
static void raw_variables(const struct ll_dwarf_input *in, struct ll_scan_variable *v,
			  size_t n, struct ll_variables *out, struct ll_scan_variable **rest,
			  size_t *nr_rest)
{
	/* The last file shown: a unit's variables come together, often from one file. */
	const struct ll_scan_variable *last = NULL;
	char *shown = NULL;

	*rest = xmalloc((n ? n : 1) * sizeof(**rest));
	*nr_rest = 0;
	for (size_t i = 0; i < n; i++) {
		struct ll_variable *o;

		if (!v[i].raw) {
			(*rest)[(*nr_rest)++] = v[i];	/* no strings: the scan kept none */
			continue;
		}
		if (!v[i].fixed)
			continue;
		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		o = &out->v[out->n++];
		*o = (struct ll_variable){ .name = v[i].name, .addr = v[i].addr,
					   .order = v[i].die, .type = v[i].type };
		v[i].name = v[i].type = NULL;	/* moved */
		o->decl.line = v[i].line;
		o->decl.column = v[i].column;
		if (!v[i].has_file)
			continue;
		if (!last || strcmp(last->file_path, v[i].file_path) != 0 ||
		    strcmp(last->comp_dir, v[i].comp_dir) != 0) {
			free(shown);
			shown = reader_display_path(in, v[i].file_path, v[i].comp_dir);
			last = &v[i];
		}
		o->decl.file = shown ? xstrdup(shown) : NULL;
	}
	free(shown);
}

/*
 * PART's listing variables, once raw_variables() took their names and
 * types: the rest goes, and a later reading walks with libdw.
 */
static void drop_listed_variables(struct dwarf_part *part)
{
	ll_scan_variables_free(part->variables, part->nr_variables);
	part->variables = NULL;
	part->nr_variables = 0;
	part->variables_known = false;
}

/* A and B, each in .debug_info order, into one list in that order (A, B emptied). */
static void merge_variables(struct ll_variables *a, struct ll_variables *b,
			    struct ll_variables *out)
{
	size_t i = 0, k = 0;

	memset(out, 0, sizeof(*out));
	out->v = xmalloc((a->n + b->n ? a->n + b->n : 1) * sizeof(*out->v));
	while (i < a->n || k < b->n)
		out->v[out->n++] = k >= b->n || (i < a->n && a->v[i].order < b->v[k].order) ?
				   a->v[i++] : b->v[k++];
	free(a->v);
	free(b->v);
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
}

/* Whether a listing found the candidates: reader_variables() reads only those. */
static bool variables_listed(const struct ll_dwarf_input *in)
{
	return in->nr_parts == 1 && in->parts[0].variables_known &&
	       in->parts[0].src.dwarf == in->dwarf;
}

/*
 * With every listed variable read whole by the scan, reader_variables()
 * only converts them (the part's, which no lookup reads): no libdw, no
 * sparse image, nothing a lookup shares.
 */
bool reader_variables_alone(void *state)
{
	const struct ll_dwarf_input *in = state;

	if (!variables_listed(in))
		return false;
	for (size_t i = 0; i < in->parts[0].nr_variables; i++)
		if (!in->parts[0].variables[i].raw)
			return false;
	return true;
}

int reader_variables(void *state, struct ll_variables *out, struct ll_error *err)
{
	struct ll_dwarf_input *in = state;
	struct variable_decls vd[2] = { { .in = in }, { .in = in } };
	struct ll_variables_walk walk = { .path = in->path, .dw = { in->dwarf },
					  .ctx = { &vd[0], &vd[1] }, .nr = 1,
					  .decl = variable_decl,
					  .unit_done = in->image ? variables_unit_done : NULL,
					  .unit_done_arg = in->image };
	struct ll_variables raw = { 0 }, walked = { 0 };
	struct ll_scan_variable *rest = NULL;
	size_t nr_rest = 0;
	bool own[2] = { false, false };
	int rc;

	memset(out, 0, sizeof(*out));
	/* A listing found the candidates: only those are read, not every DIE. */
	if (variables_listed(in)) {
		raw_variables(in, in->parts[0].variables, in->parts[0].nr_variables, &raw, &rest,
			      &nr_rest);
		drop_listed_variables(&in->parts[0]);
		if (!nr_rest) {
			free(rest);
			*out = raw;
			return 0;
		}
		walk.only = rest;
		walk.nr_only = nr_rest;
		walk.use_only = true;
	}
	if (in->image && ll_sparse_fill_all(in->image, err)) {
		free(rest);
		ll_variables_release(&raw);
		return -1;
	}
	/* Fresh handles: the lookups' one may hold a made-up unit header (finder.h). */
	for (unsigned i = 0; i < 2 && in->own_dwarf; i++) {
		if (i && ll_threads() < 2)
			break;
		Dwarf *dw = dwarf_begin_elf(in->elf, DWARF_C_READ, NULL);

		if (!dw)
			break;
		walk.dw[i] = dw;
		own[i] = true;
		walk.nr = i + 1;
	}
	rc = ll_dwarf_variables(&walk, &walked, err);
	for (unsigned i = 0; i < 2; i++)
		if (own[i])
			dwarf_end(walk.dw[i]);
	reader_file_cache_reset(&vd[0].files);
	reader_file_cache_reset(&vd[1].files);
	free(rest);
	merge_variables(&raw, &walked, out);
	return rc;
}
