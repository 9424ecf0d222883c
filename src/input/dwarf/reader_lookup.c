// SPDX-License-Identifier: GPL-2.0-or-later
/* Lookup: the DIEs of the names asked for, as candidates, and the one picked for each name. */
#include "input/dwarf/readerP.h"

static uint64_t interned_hash(const void *ctx, size_t i)
{
	const struct interned *t = ctx;

	return ll_fnv1a_str(LL_FNV_INIT, t->strings[i]);
}

static const char *intern(struct interned *t, const char *s)
{
	size_t at;

	if (!s)
		return NULL;
	ll_slots_reserve(&t->at, t->n + 1, interned_hash, t);
	for (at = ll_slots_first(&t->at, ll_fnv1a_str(LL_FNV_INIT, s)); ll_slots_get(&t->at, at);
	     at = ll_slots_next(&t->at, at))
		if (strcmp(t->strings[ll_slots_get(&t->at, at) - 1], s) == 0)
			return t->strings[ll_slots_get(&t->at, at) - 1];
	t->strings = xgrow(t->strings, t->n, sizeof(*t->strings));
	t->strings[t->n] = xstrdup(s);
	ll_slots_put(&t->at, at, t->n);
	return t->strings[t->n++];
}

void reader_interned_release(struct interned *t)
{
	ll_strv_free(t->strings, t->n);
	ll_slots_release(&t->at);
	memset(t, 0, sizeof(*t));
}

static void mark_declared(struct query_state *qs, int tag)
{
	qs->declared = true;
	qs->declared_flags |= tag == DW_TAG_union_type ? LL_INDEX_DECLARED_UNION :
							 LL_INDEX_DECLARED_STRUCT;
}

static void capture_def(struct query_state *qs, Dwarf_Off die, const struct ll_finder_sig *sig,
			const char *raw_file, const char *comp_dir, uint32_t filtered)
{
	uint64_t h = LL_FNV_INIT;

	if (raw_file)
		h = ll_fnv1a(h, raw_file, strlen(raw_file) + 1);
	h = ll_fnv1a(h, "\1", 1);
	if (comp_dir)
		h = ll_fnv1a(h, comp_dir, strlen(comp_dir) + 1);
	for (size_t i = 0; i < qs->nr_raw_defs; i++) {
		const struct raw_def *r = &qs->raw_defs[i];

		/* A typedef's anonymous copy is not a struct of the name ("did you mean"). */
		if (r->file_hash == h && r->def.d.tag == (uint32_t)sig->tag &&
		    r->def.d.flags == (sig->nameless ? LL_INDEX_DEF_NAMELESS : 0u) &&
		    r->def.d.size == sig->size && r->def.d.line == sig->line &&
		    r->def.d.members_hash == sig->members_hash &&
		    r->def.d.nr_members == sig->nr_members)
			return;
	}
	qs->raw_defs = xgrow(qs->raw_defs, qs->nr_raw_defs, sizeof(*qs->raw_defs));
	qs->raw_defs[qs->nr_raw_defs++] = (struct raw_def){
		.def = { .d = { .die = die, .size = sig->size, .members_hash = sig->members_hash,
				.tag = (uint32_t)sig->tag, .line = sig->line,
				.nr_members = sig->nr_members, .holes = LL_INDEX_NO_HOLES,
				.flags = sig->nameless ? LL_INDEX_DEF_NAMELESS : 0 },
			 .file = intern(qs->capture, raw_file),
			 .comp_dir = intern(qs->capture, comp_dir) },
		.file_hash = h,
		.filtered = filtered,
	};
}

/*
 * Count one more definition; FILE is taken over. SELECTED: this copy is
 * the one --die names, or in a unit --cu matches. A copy --die names is
 * the one kept, so that the layout read is the DIE asked for. RAW_FILE
 * and COMP_DIR (borrowed) are what FILE was made of, for the name index.
 * NOTHING_NEEDED: the digest takes this copy unbuilt (the scan's
 * nothing_needed). FILTERED: what the input's member filter (--audit)
 * said of it, for the name index: LL_INDEX_DEF_FILTERED, with
 * LL_INDEX_DEF_NEEDED unless no member is one the audit's digest reads;
 * 0 when no filter read it.
 */
/*
 * gcc -flto's ltrans units carry copies of a struct without
 * DW_AT_decl_file: such a copy is the definition of the same kind, size
 * and members that has one.
 */
static bool same_shape_no_file(const struct ll_finder_sig *a, const struct ll_finder_sig *b)
{
	return (!a->file_hash) != (!b->file_hash) && a->tag == b->tag && a->size == b->size &&
	       a->members_hash == b->members_hash && a->nr_members == b->nr_members;
}

void reader_add_candidate(struct query_state *qs, Dwarf_Off die, size_t part, const char *name,
			  const struct ll_finder_sig *sig, char *file, bool selected, bool by_die,
			  const char *raw_file, const char *comp_dir, bool nothing_needed,
			  uint32_t filtered)
{
	if (qs->capture)
		capture_def(qs, die, sig, raw_file, comp_dir, filtered);
	for (size_t i = 0; i < qs->nr_cands; i++) {
		struct candidate *c = &qs->cands[i];

		if (!ll_finder_sig_equal(&c->sig, sig) && same_shape_no_file(&c->sig, sig)) {
			/*
			 * The copy with a declaring file stands for both, unless
			 * --die named the copy without one. (selected alone is
			 * true of every copy when no selector is given: testing
			 * it kept the copy without a file, whose "<unknown
			 * file>:0" then stood beside a real second definition,
			 * as redis-server's dictEntry beside hiredis's.)
			 */
			if (!c->sig.file_hash && !(c->selected && by_die)) {
				free(c->file);
				c->sig = *sig;
				c->file = file;
				c->line = sig->line;
				c->die = die;
				c->part = part;
				c->nothing_needed = nothing_needed;
				file = NULL;
			} else if (selected && by_die) {
				c->die = die;
				c->nothing_needed = nothing_needed;
			}
			c->hits++;
			c->selected |= selected;
			free(file);
			return;
		}
		if (ll_finder_sig_equal(&c->sig, sig)) {
			c->hits++;
			if (selected && by_die) {
				c->die = die;
				c->nothing_needed = nothing_needed;
			}
			c->selected |= selected;
			free(file);
			return;
		}
	}
	qs->cands = xgrow(qs->cands, qs->nr_cands, sizeof(*qs->cands));
	qs->cands[qs->nr_cands++] = (struct candidate){
		.die = die, .part = part, .name = name, .sig = *sig, .file = file, .line = sig->line,
		.hits = 1, .selected = selected, .holes = LL_INDEX_NO_HOLES,
		.nothing_needed = nothing_needed,
	};
}

/*
 * reader_add_candidate()'s FILTERED of scan hit RAW: only what the member
 * filter said (a --contains scan's nothing_needed says that the hit
 * cannot hold its TYPE, which the index does not record).
 */
static uint32_t hit_filtered(const struct ll_scan_hit *raw)
{
	if (!raw->needs_read)
		return 0;
	return LL_INDEX_DEF_FILTERED | (raw->nothing_needed ? 0 : LL_INDEX_DEF_NEEDED);
}

/* The display path of the file of the unit DIE is in (its DW_AT_name). */
static char *unit_file_name(const struct ll_dwarf_input *in, Dwarf_Die *die)
{
	Dwarf_Die cu;
	const char *name;

	if (!dwarf_diecu(die, &cu, NULL, NULL) || !(name = dwarf_diename(&cu)))
		return NULL;
	return reader_display_path(in, name, reader_cu_comp_dir(&cu));
}

/* Whether the definition at DIE is one Q's --die or --cu picks. */
static bool die_selected(const struct ll_dwarf_input *in, const struct ll_query *q,
			 Dwarf_Die *die)
{
	const struct ll_selector *sel = q->select;
	bool ok = true;

	if (!sel)
		return true;
	if (sel->by_die)
		ok = dwarf_dieoffset(die) == sel->die;
	if (ok && sel->cu_glob) {
		char *file = unit_file_name(in, die);

		ok = file && ll_path_glob_match(sel->cu_glob, file);
		free(file);
	}
	return ok;
}

static void add_die_candidate(struct query_state *qs, const struct ll_dwarf_input *in,
			      Dwarf_Die *agg, const struct ll_query *q)
{
	struct ll_finder_sig sig;
	char *raw, *comp_dir;
	char *file = reader_decl_file_raw(in, agg, &raw, &comp_dir);

	ll_finder_signature(agg, file, &sig);
	if (raw)
		sig.file_hash = reader_canonical_file_hash(in, raw, comp_dir);
	reader_add_candidate(qs, dwarf_dieoffset(agg), reader_part_of(in, agg), q->name, &sig, file,
		      die_selected(in, q, agg), q->select && q->select->by_die, raw, comp_dir,
		      false, in->opts.member_filter ? LL_INDEX_DEF_FILTERED | LL_INDEX_DEF_NEEDED : 0);
	free(raw);
	free(comp_dir);
}

void reader_query_state_release(struct query_state *qs)
{
	for (size_t c = 0; c < qs->nr_cands; c++) {
		free(qs->cands[c].file);
		free(qs->cands[c].words.blob);
	}
	free(qs->cands);
	free(qs->raw_defs);
}

void reader_unit_files_release(struct unit_files *uf)
{
	ll_strv_free(uf->display, uf->n);
	ll_strv_free(uf->raw, uf->n);
	free(uf->hashes);
	ll_line_table_release(&uf->table);
	memset(uf, 0, sizeof(*uf));
}

/* What a raw hit's paths are relative to: as unit_root() says for a DIE. */
static const char *unit_file_root(const struct ll_dwarf_input *in, const char *dir0,
				  const struct ll_scan_hit *raw)
{
	return raw->comp_dir ? raw->comp_dir : in->build_root ? in->build_root : dir0;
}

/*
 * The raw path of RAW's declaring file into OUT and the table's directory
 * 0 into *DIR0: from the scan when it read them, else from the unit's
 * line table, read once. False: no such file.
 */
static bool unit_file_entry(const struct ll_dwarf_input *in, size_t part, struct unit_files *uf,
			    const struct ll_scan_hit *raw, struct strbuf *out, const char **dir0)
{
	if (raw->has_file) {
		ll_line_join(out, raw->file_dir, raw->file_name);
		*dir0 = raw->file_dir0;
		return true;
	}
	if (!uf->table_tried) {
		uf->table_tried = true;
		uf->table_ok = ll_line_table_load(&in->parts[part].lines, raw->stmt_list,
						  raw->comp_dir, &uf->table);
	}
	*dir0 = uf->table.dir0;
	return uf->table_ok && ll_line_table_path(&uf->table, raw->decl_file, out);
}

/*
 * A copy of the display path of file INDEX of the unit RAW is in (NULL:
 * unknown), the raw path it was made of and the directory it is relative
 * to (both borrowed).
 */
static bool unit_file(const struct ll_dwarf_input *in, size_t part, struct unit_files *uf,
		      const struct ll_scan_hit *raw, char **out, const char **raw_path,
		      const char **root)
{
	uint64_t index = raw->decl_file;

	if (!uf->active || uf->part != part || uf->stmt_list != raw->stmt_list) {
		reader_unit_files_release(uf);
		uf->active = true;
		uf->part = part;
		uf->stmt_list = raw->stmt_list;
	}
	if (index >= uf->n || !uf->raw[index]) {
		struct strbuf path = STRBUF_INIT;
		const char *dir0;

		/* A damaged index must not size the cache: only a file that exists grows it. */
		if (!unit_file_entry(in, part, uf, raw, &path, &dir0)) {
			sb_release(&path);
			return false;
		}
		if (index >= uf->n) {
			size_t n = (size_t)index + 1;

			uf->display = reader_grow_zeroed(uf->display, uf->n, n, sizeof(*uf->display));
			uf->raw = reader_grow_zeroed(uf->raw, uf->n, n, sizeof(*uf->raw));
			uf->hashes = reader_grow_zeroed(uf->hashes, uf->n, n, sizeof(*uf->hashes));
			uf->n = n;
		}
		uf->dir0 = dir0;
		uf->display[index] = reader_display_path(in, path.buf, unit_file_root(in, dir0, raw));
		uf->raw[index] = sb_detach(&path);
	}
	*raw_path = uf->raw[index];
	*root = unit_file_root(in, uf->dir0, raw);
	*out = uf->display[index] ? xstrdup(uf->display[index]) : NULL;
	return true;
}

static uint64_t file_key_hash(const char *dir, const char *name, const char *dir0,
			      const char *root)
{
	const uintptr_t p[] = { (uintptr_t)dir, (uintptr_t)name, (uintptr_t)dir0, (uintptr_t)root };

	return ll_fnv1a(LL_FNV_INIT, p, sizeof(p));
}

static uint64_t file_memo_hash_of(const void *ctx, size_t i)
{
	const struct file_memo_entry *e = &((const struct file_memo *)ctx)->v[i];

	return file_key_hash(e->dir, e->name, e->dir0, e->root);
}

void reader_file_memo_release(struct file_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		ll_free_all(m->v[i].display, m->v[i].raw);
	free(m->v);
	ll_slots_release(&m->at);
	memset(m, 0, sizeof(*m));
}

/* RAW's declaring file (it has_file) as unit_file() makes it, from M or into it. */
static const struct file_memo_entry *seen_file(const struct ll_dwarf_input *in,
					       struct file_memo *m, const struct ll_scan_hit *raw)
{
	const char *root = unit_file_root(in, raw->file_dir0, raw);
	uint64_t h = file_key_hash(raw->file_dir, raw->file_name, raw->file_dir0, root);
	struct strbuf path = STRBUF_INIT;
	size_t at;

	ll_slots_reserve(&m->at, m->n + 1, file_memo_hash_of, m);
	for (at = ll_slots_first(&m->at, h); ll_slots_get(&m->at, at); at = ll_slots_next(&m->at, at)) {
		const struct file_memo_entry *e = &m->v[ll_slots_get(&m->at, at) - 1];

		if (e->dir == raw->file_dir && e->name == raw->file_name &&
		    e->dir0 == raw->file_dir0 && e->root == root)
			return e;
	}
	ll_line_join(&path, raw->file_dir, raw->file_name);
	m->v = xgrow(m->v, m->n, sizeof(*m->v));
	m->v[m->n] = (struct file_memo_entry){
		raw->file_dir, raw->file_name, raw->file_dir0, root,
		reader_display_path(in, path.buf, root), sb_detach(&path), 0,
	};
	m->v[m->n].hash = reader_canonical_file_hash(in, m->v[m->n].raw, root);
	ll_slots_put(&m->at, at, m->n);
	return &m->v[m->n++];
}

/*
 * The same from what the raw scan read; false when libdw must look (also
 * for --cu, which needs the unit's name).
 */
static bool add_raw_candidate(struct query_state *qs, const struct ll_dwarf_input *in,
			      size_t part, struct unit_files *uf, struct file_memo *seen,
			      const struct ll_scan_hit *raw, const struct ll_query *q)
{
	struct ll_finder_sig sig;
	const char *raw_path, *root;
	char *file;
	bool by_die = q->select && q->select->by_die;

	if (q->select && q->select->cu_glob)
		return false;
	if (raw->has_file) {
		const struct file_memo_entry *e = seen_file(in, seen, raw);

		file = e->display ? xstrdup(e->display) : NULL;
		ll_finder_sig_from_scan(raw, file, &sig);
		sig.file_hash = e->hash;
		raw_path = e->raw;
		root = e->root;
	} else if (!unit_file(in, part, uf, raw, &file, &raw_path, &root)) {
		return false;
	} else {
		ll_finder_sig_from_scan(raw, file, &sig);
		if (raw_path) {
			/* unit_file() made it */
			struct file_hash_memo *h = &uf->hashes[raw->decl_file];

			if (!h->known || h->root != root)
				*h = (struct file_hash_memo){
					true, root, reader_canonical_file_hash(in, raw_path, root) };
			sig.file_hash = h->hash;
		}
	}
	reader_add_candidate(qs, ll_scan_hit_aggregate(raw), part, q->name, &sig, file,
		      !by_die || ll_scan_hit_aggregate(raw) == q->select->die, by_die, raw_path,
		      root, raw->nothing_needed, hit_filtered(raw));
	return true;
}

/*
 * The name index's key: the build-id, size, times, device and inode of
 * the file the raw scan reads; dir NULL (no index) without a cache
 * directory or a build-id.
 */
void reader_index_key(const struct ll_dwarf_input *in, struct ll_index_key *key)
{
	struct stat st;

	memset(key, 0, sizeof(*key));
	if (!in->opts.cache_dir || !in->build_id || fstat(in->fd, &st) != 0)
		return;
	key->dir = in->opts.cache_dir;
	key->build_id = in->build_id;
	key->size = (uint64_t)st.st_size;
	key->dev = (uint64_t)st.st_dev;
	key->ino = (uint64_t)st.st_ino;
	key->mtime_sec = st.st_mtim.tv_sec;
	key->mtime_nsec = st.st_mtim.tv_nsec;
	key->ctime_sec = st.st_ctim.tv_sec;
	key->ctime_nsec = st.st_ctim.tv_nsec;
}

static uint64_t query_name_hash(const void *ctx, size_t i)
{
	const struct lookup_ctx *lc = ctx;

	return ll_fnv1a_str(LL_FNV_INIT, lc->queries[i].name);
}

void reader_index_queries(struct lookup_ctx *lc)
{
	lc->next = xcalloc(lc->n ? lc->n : 1, sizeof(*lc->next));
	lc->named = xcalloc(lc->n ? lc->n : 1, sizeof(*lc->named));
	ll_slots_reserve(&lc->first, 2 * lc->n, query_name_hash, lc);
	for (size_t i = lc->n; i-- > 0;) {
		size_t at = ll_slots_first(&lc->first, query_name_hash(lc, i));

		while (ll_slots_get(&lc->first, at) &&
		       strcmp(lc->queries[ll_slots_get(&lc->first, at) - 1].name,
			      lc->queries[i].name) != 0)
			at = ll_slots_next(&lc->first, at);
		/* The earliest query of a name heads its chain: the walk runs backwards. */
		lc->next[i] = ll_slots_get(&lc->first, at);
		if (lc->next[i])
			ll_slots_replace(&lc->first, at, i);
		else
			ll_slots_put(&lc->first, at, i);
	}
}

/* First query named NAME, as index + 1 (0: none); then follow lc->next. */
size_t reader_queries_named(const struct lookup_ctx *lc, const char *name)
{
	for (size_t at = ll_slots_first(&lc->first, ll_fnv1a_str(LL_FNV_INIT, name));
	     ll_slots_get(&lc->first, at); at = ll_slots_next(&lc->first, at))
		if (strcmp(lc->queries[ll_slots_get(&lc->first, at) - 1].name, name) == 0)
			return ll_slots_get(&lc->first, at);
	return 0;
}

/* reader_queries_named() of RAW's NAME, once per name (lookup_ctx's named). */
static size_t queries_named_hit(struct lookup_ctx *lc, const struct ll_scan_hit *raw,
				const char *name)
{
	if (raw->query >= lc->n)
		return reader_queries_named(lc, name);
	if (!lc->named[raw->query])
		lc->named[raw->query] = reader_queries_named(lc, name) + 1;
	return lc->named[raw->query] - 1;
}

/* Called by the finder for each top-level DIE whose name some query wants. */
void reader_on_named_die(Dwarf_Die *die, const struct ll_scan_hit *raw, const char *name,
			 void *arg)
{
	struct lookup_ctx *lc = arg;
	Dwarf_Die from_raw;
	int tag;

	if (raw && raw->settled) {
		/* A declaration only, or a typedef of a named type. */
		for (size_t q1 = queries_named_hit(lc, raw, name); q1; q1 = lc->next[q1 - 1])
			if (raw->declaration && kind_matches(lc->queries[q1 - 1].kind, raw->tag))
				mark_declared(&lc->state[q1 - 1], raw->tag);
		return;
	}
	if (raw) {
		/* A definition of an aggregate, read whole by the scan. */
		bool need_libdw = false;

		for (size_t q1 = queries_named_hit(lc, raw, name); q1 && !need_libdw;
		     q1 = lc->next[q1 - 1])
			if (kind_matches(lc->queries[q1 - 1].kind, raw->tag))
				need_libdw = !add_raw_candidate(&lc->state[q1 - 1], lc->in,
								lc->part, &lc->files,
								&lc->seen_files, raw,
								&lc->queries[q1 - 1]);
		if (!need_libdw)
			return;
		if (ll_finder_prepare(*lc->finder, raw->die, &lc->prepare_err)) {
			lc->prepare_rc = -1;
			return;
		}
		/* The raw scan reads .debug_info only: never a .debug_types part. */
		if (!dwarf_offdie(lc->in->parts[lc->part].src.dwarf, raw->die, &from_raw))
			return;
		die = &from_raw;
	}
	tag = dwarf_tag(die);
	for (size_t q1 = reader_queries_named(lc, name); q1; q1 = lc->next[q1 - 1]) {
		size_t q = q1 - 1;
		const struct ll_query *query = &lc->queries[q];
		Dwarf_Die target;
		Dwarf_Attribute attr;

		if (is_aggregate_tag(tag)) {
			if (!kind_matches(query->kind, tag))
				continue;
			if (dwarf_attr(die, DW_AT_declaration, &attr)) {
				mark_declared(&lc->state[q], tag);
				continue;
			}
			add_die_candidate(&lc->state[q], lc->in, die, query);
		} else if (tag == DW_TAG_typedef && die_type(die, &target) &&
			   is_aggregate_tag(dwarf_tag(&target)) &&
			   dwarf_diename(&target) == NULL &&
			   kind_matches(query->kind, dwarf_tag(&target))) {
			if (dwarf_attr(&target, DW_AT_declaration, &attr)) {
				mark_declared(&lc->state[q], dwarf_tag(&target));
				continue;
			}
			add_die_candidate(&lc->state[q], lc->in, &target, query);
		}
	}
}

static char *describe_candidates(const struct query_state *qs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < qs->nr_cands; i++) {
		const struct candidate *c = &qs->cands[i];

		sb_addf(&sb, "%s%s:%u (size %llu, DIE 0x%llx)", i ? ", " : "",
			c->file ? c->file : "<unknown file>", c->line,
			(unsigned long long)c->sig.size, (unsigned long long)c->die);
	}
	return sb_detach(&sb);
}

/* The first part's "did you mean" that has one. */
static char *suggest(struct ll_dwarf_input *in, struct ll_finder **finders, const char *name)
{
	char *s = NULL;

	for (size_t p = 0; p < in->nr_parts && !s; p++) {
		/* The index covers the one part of an input it is written for. */
		if (p == 0 && in->nr_parts == 1 && in->index_state == 1)
			ll_finder_use_index(finders[p], &in->index);
		s = ll_finder_suggest(finders[p], name);
	}
	return s;
}

/*
 * A --list row's worth of PICK, from what the name index recorded when
 * it was built: the same kind, name, size, file and line reader_build_struct()
 * gives, and its hole count.
 */
static void summary_result(const struct ll_dwarf_input *in, const struct ll_query *q,
			   const struct candidate *pick, struct ll_lookup_result *r)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));

	s->kind = pick->sig.tag == DW_TAG_union_type ? LL_UNION : LL_STRUCT;
	s->name = xstrdup(q->name);
	s->size = pick->sig.size;
	s->cacheline = in->arch_cacheline;
	s->origin = pick->die;
	s->decl.file = pick->file ? xstrdup(pick->file) : NULL;
	s->decl.line = pick->line;
	r->layout = s;
	r->summary = true;
	r->holes = pick->holes;
	r->status = LL_FOUND;
}

/*
 * R for PICK when the input's member_filter says the digest needs
 * none of its members (the scan's nothing_needed): its layout without
 * members, digested as a built one would be, and no build.
 */
static void unneeded_result(const struct ll_dwarf_input *in, const struct ll_query *q,
			    const struct candidate *pick, struct ll_lookup_result *r)
{
	summary_result(in, q, pick, r);
	r->summary = false;
	r->holes = 0;
	reader_settle_layout(q, r->layout, &r->digested);
}

/* The candidate Q picks (the first its glob allows), and how many the glob allows. */
static struct candidate *pick_of(const struct ll_query *q, struct query_state *qs,
				 size_t *matching)
{
	struct candidate *pick = NULL;

	*matching = 0;
	for (size_t i = 0; i < qs->nr_cands; i++) {
		struct candidate *c = &qs->cands[i];

		if (q->decl_glob && !(c->file && ll_path_glob_match(q->decl_glob, c->file)))
			continue;
		if (!c->selected || (q->select && q->select->by_size && c->sig.size != q->select->size))
			continue;
		++*matching;
		if (!pick)
			pick = c;
	}
	return pick;
}

/*
 * Q's pick when resolving Q builds it (one definition matches, and no
 * index summary answers a --list row), else NULL: reader_resolve_unbuilt()
 * says what Q gets instead.
 */
/*
 * Whether Q's digest takes PICK unbuilt (the scan's nothing_needed). Never
 * past the size reader_build_struct() accepts: a digest maps every claimed
 * cacheline (--audit on a struct claiming 64 GiB was "out of memory"), so
 * such a pick is built, and refused there with the line --list gives.
 */
static bool digest_unbuilt(const struct ll_query *q, const struct candidate *pick)
{
	return q->digest && (pick->nothing_needed || pick->lacks_word) &&
	       pick->sig.size <= LL_MAX_STRUCT_SIZE;
}

const struct candidate *reader_pick_to_build(const struct ll_query *q, struct query_state *qs)
{
	size_t matching;
	const struct candidate *pick = pick_of(q, qs, &matching);

	return pick && matching == 1 && !(q->summary_only && pick->holes != LL_INDEX_NO_HOLES) &&
	       !digest_unbuilt(q, pick) ? pick : NULL;
}

/*
 * Q's answer when it needs no build (missing, ambiguous, a row from the
 * index): 0 with R filled in. 1: *PICK is to be built.
 */
int reader_resolve_unbuilt(struct ll_dwarf_input *in, const struct ll_query *q,
			   struct query_state *qs, struct ll_finder **finders,
			   struct ll_lookup_result *r, struct candidate **pick)
{
	size_t matching;

	*pick = pick_of(q, qs, &matching);
	if (matching == 0) {
		if (qs->nr_cands) {
			r->status = LL_MISSING;
			r->detail = describe_candidates(qs);
			return 0;
		}
		r->status = qs->declared ? LL_DECLARED_ONLY : LL_MISSING;
		r->detail = qs->declared || q->no_suggestion || qs->nothing_near ? NULL :
			    suggest(in, finders, q->name);
		return 0;
	}
	if (matching > 1) {
		r->status = LL_AMBIGUOUS;
		r->detail = describe_candidates(qs);
		return 0;
	}
	if (q->summary_only && (*pick)->holes != LL_INDEX_NO_HOLES) {
		summary_result(in, q, *pick, r);
		return 0;
	}
	if (digest_unbuilt(q, *pick)) {
		unneeded_result(in, q, *pick, r);
		return 0;
	}
	return 1;
}

static int index_entity_wrong(struct ll_dwarf_input *in, const struct candidate *pick,
			      const char *what, struct ll_error *err)
{
	atomic_store(&in->index_forged, true);
	return ll_fail(err, "%s: the name index %s names DIE 0x%llx for %s, but it is %s",
		       in->parts[pick->part].src.path,
		       in->index.path ? in->index.path : "", (unsigned long long)pick->die,
		       pick->name, what);
}

/*
 * A DIE the name index alone named is what it says (its checksums catch
 * damage, not a stale or forged record): a definition of the tag recorded,
 * of the name asked for, or nameless (a typedef's) of the size recorded.
 */
static int check_index_entity(struct ll_dwarf_input *in, const struct candidate *pick,
			      Dwarf_Die *die, struct ll_error *err)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(die);
	Dwarf_Word size;

	if (dwarf_tag(die) != pick->sig.tag)
		return index_entity_wrong(in, pick, "a DIE of another tag", err);
	if (dwarf_attr(die, DW_AT_declaration, &attr))
		return index_entity_wrong(in, pick, "a declaration", err);
	if (name ? strcmp(name, pick->name) != 0 :
		   dwarf_formudata(dwarf_attr(die, DW_AT_byte_size, &attr), &size) != 0 ||
		   size != pick->sig.size)
		return index_entity_wrong(in, pick, name ? "another name's" :
					  "a nameless one of another size", err);
	return 0;
}

/* Make PICK's unit real and find its DIE in the part's own handle. */
int reader_pick_die(struct ll_dwarf_input *in, struct ll_finder **finders,
		    const struct candidate *pick, Dwarf_Die *die, struct ll_error *err)
{
	const struct ll_finder_source *src = &in->parts[pick->part].src;

	if (ll_finder_prepare(finders[pick->part], pick->die, err))
		return -1;
	if (!(src->types ? dwarf_offdie_types(src->dwarf, pick->die, die) :
			   dwarf_offdie(src->dwarf, pick->die, die)))
		return pick->from_index ? index_entity_wrong(in, pick, "no DIE", err) :
		       ll_fail(err, "%s: cannot reread DIE 0x%llx: %s", src->path,
			       (unsigned long long)pick->die, dwarf_errmsg(-1));
	return pick->from_index ? check_index_entity(in, pick, die, err) : 0;
}

/*
 * LAYOUT's hole count; then Q's digest, if any, and for a --list row (Q
 * summary_only) or a digested layout, LAYOUT without its members: ~8,600
 * member trees of a --list='*' held until every build was done were
 * much of its peak. Builds on two threads do it as soon as each is
 * built, on the thread that built it. *DIGESTED: the digest ran.
 */
size_t reader_settle_layout(const struct ll_query *q, struct ll_struct *layout, bool *digested)
{
	struct ll_summary sum;

	ll_summarize(layout, &sum);
	*digested = q->digest != NULL;
	if (q->digest)
		q->digest(layout, q->digest_arg);
	if (q->summary_only || q->digest)
		ll_struct_drop_members(layout);
	return sum.holes;
}

/*
 * R from the build of PICK for Q: BUILD_RC, LAYOUT and BERR as
 * reader_build_struct() left them; *HOLES when reader_settle_layout() ran already.
 */
int reader_finish_build(struct ll_dwarf_input *in, const struct ll_query *q,
			struct candidate *pick, struct ll_lookup_result *r, int build_rc,
			struct ll_struct *layout, const size_t *holes, bool unsupported,
			struct member_words *words, const struct ll_error *berr,
			struct ll_error *err)
{
	size_t nr_holes;
	bool digested = holes && q->digest;	/* with HOLES, reader_settle_layout() ran */

	if (build_rc) {
		ll_struct_free(layout);
		if (unsupported) {
			r->status = LL_UNSUPPORTED;
			r->detail = xstrdup(berr->msg);
			return 0;
		}
		return ll_fail(err, "%s: %s %s: %s", in->path,
			       q->kind == LL_QUERY_UNION ? "union" : "struct", q->name, berr->msg);
	}
	r->layout = layout;
	if (holes)
		nr_holes = *holes;
	else
		nr_holes = reader_settle_layout(q, layout, &digested);
	r->digested = digested;
	pick->holes = nr_holes < LL_INDEX_NO_HOLES ? (uint32_t)nr_holes : LL_INDEX_NO_HOLES;
	/* Moved: the words go with the hole count into the index. */
	free(pick->words.blob);
	pick->words = *words;
	*words = (struct member_words){ 0 };
	if (q->summary_only) {
		r->summary = true;
		r->holes = nr_holes;
	}
	r->status = LL_FOUND;
	return 0;
}

/*
 * How to build PICK for Q: a --list row or a digest needs the shape alone,
 * and takes the declaring file the candidate has.
 */
struct build_how reader_build_how_for(const struct ll_query *q, const struct candidate *pick)
{
	bool shape_only = q->summary_only || q->digest;
	const char *word = q->digest ? q->digest_type_word : NULL;

	return (struct build_how){ .shape_only = shape_only, .file = pick->file,
				   .list_row = q->summary_only, .lean = q->summary_only || word,
				   .type_word = word };
}

int reader_resolve_query(struct ll_dwarf_input *in, const struct ll_query *q,
			 struct query_state *qs, struct ll_finder **finders,
			 struct ll_lookup_result *r, struct ll_error *err)
{
	struct candidate *pick;
	struct ll_struct *layout = NULL;
	struct ll_error berr;
	bool unsupported = false;
	Dwarf_Die die;
	int rc;

	if (!reader_resolve_unbuilt(in, q, qs, finders, r, &pick))
		return 0;
	if (reader_pick_die(in, finders, pick, &die, err))
		return -1;
	struct build_how how = reader_build_how_for(q, pick);

	struct member_words words = { 0 };

	rc = reader_build_struct(in, &die, q->name, &how, &layout, &unsupported,
				 qs->capture || pick->record_words ? &words : NULL, &berr);
	rc = reader_finish_build(in, q, pick, r, rc, layout, NULL, unsupported, &words, &berr, err);
	free(words.blob);
	return rc;
}
