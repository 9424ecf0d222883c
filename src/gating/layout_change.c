// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout-change: under --against, a struct whose layout changed in a way a
 * commit gate must show even when no new pair of tags meets on a line: its
 * size crossed a slab size class, it takes more cachelines, or a member the
 * rules tag moved to another line (struct path grew by 8 bytes, so struct
 * file, which embeds it, went from 184 to 192 bytes and f_security from
 * line 1 to line 2). The tags are those of the current side, whatever set
 * them (rules, kernel groups, or any other producer of member tags), so a
 * struct tagged by another analysis is checked the same way. The rules'
 * 'allow layout-change MEMBER' drops that member's moves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"
#include "gating/baseline.h"
#include "util/strbuf.h"

/*
 * The kmalloc size classes of Linux 6.1-6.12 on x86_64 (mm/slab_common.c,
 * kmalloc_info[] with KMALLOC_MIN_SIZE 8 and KMALLOC_SHIFT_HIGH =
 * PAGE_SHIFT + 1): 8 to 8192 bytes, with the two odd classes 96 and 192.
 * Larger sizes go to the page allocator, whose classes are powers of two
 * of pages. *NAME is "kmalloc-192", or "order-N pages".
 */
static const uint64_t kmalloc_classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024,
					    2048, 4096, 8192 };

static uint64_t size_class(uint64_t size, char *name, size_t cap)
{
	uint64_t pages = 1;
	unsigned order = 0;

	for (size_t i = 0; i < sizeof(kmalloc_classes) / sizeof(kmalloc_classes[0]); i++) {
		if (size <= kmalloc_classes[i]) {
			snprintf(name, cap, "kmalloc-%" PRIu64, kmalloc_classes[i]);
			return kmalloc_classes[i];
		}
	}
	while (pages * 4096 < size && order < 63) {
		pages *= 2;
		order++;
	}
	snprintf(name, cap, "order-%u pages", order);
	return pages * 4096;
}

static const struct ll_unit *find_unit(const struct ll_units *u, const char *path)
{
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].m->path && strcmp(u->v[i].m->path, path) == 0)
			return &u->v[i];
	return NULL;
}

static void add_lines(struct strbuf *sb, uint64_t first, uint64_t last)
{
	if (first == last)
		sb_addf(sb, "%" PRIu64, first);
	else
		sb_addf(sb, "%" PRIu64 "-%" PRIu64, first, last);
}

static void check_diff(struct ll_linted *l, const struct ll_layout_diff *d, enum ll_level level)
{
	const struct ll_struct *s = l->layout;
	struct strbuf msg = STRBUF_INIT;
	char old_class[32], new_class[32];
	const struct ll_diff_member *first = NULL;
	bool reason = false;
	struct ll_finding *f;

	if (!d || !d->in_reference)
		return;
	sb_addf(&msg, "%s %s: ", ll_kind_name(s->kind), s->name);
	if (d->old_size != d->new_size)
		sb_addf(&msg, "%" PRIu64 " -> %" PRIu64 " bytes", d->old_size, d->new_size);
	else
		sb_addf(&msg, "%" PRIu64 " bytes", d->new_size);
	if (d->new_cachelines > d->old_cachelines) {
		sb_addf(&msg, ", cachelines %" PRIu64 " -> %" PRIu64, d->old_cachelines,
			d->new_cachelines);
		reason = true;
	}
	if (size_class(d->old_size, old_class, sizeof(old_class)) !=
	    size_class(d->new_size, new_class, sizeof(new_class))) {
		sb_addf(&msg, ", %s -> %s", old_class, new_class);
		reason = true;
	}
	for (size_t i = 0; i < d->nr_moved; i++) {
		const struct ll_diff_member *m = &d->moved[i];
		const struct ll_unit *u = find_unit(&l->units, m->path);

		if (!u || u->tag == LL_UNTAGGED || !m->old_lines || !m->new_lines ||
		    ll_check_allowed(l->allows, l->nr_allows, LL_CHECK_LAYOUT_CHANGE, m->path))
			continue;
		sb_addf(&msg, "%s %s line ", first ? "," : ";", m->path);
		add_lines(&msg, m->old_first, m->old_last);
		sb_adds(&msg, " -> ");
		add_lines(&msg, m->new_first, m->new_last);
		if (!first)
			first = m;
		reason = true;
	}
	if (!reason) {
		sb_release(&msg);
		return;
	}
	f = ll_check_finding_add(&l->findings, LL_CHECK_LAYOUT_CHANGE,
				 first ? (int64_t)first->new_first : -1);
	f->level = level;
	f->message = sb_detach(&msg);
	f->location = first ? find_unit(&l->units, first->path)->m->decl : s->decl;
	for (size_t i = 0; i < d->nr_moved; i++) {
		const struct ll_unit *u = find_unit(&l->units, d->moved[i].path);

		if (u && u->tag != LL_UNTAGGED && d->moved[i].old_lines && d->moved[i].new_lines &&
		    !ll_check_allowed(l->allows, l->nr_allows, LL_CHECK_LAYOUT_CHANGE, d->moved[i].path))
			ll_finding_member(f, d->moved[i].path);
	}
	ll_finding_seal(f, s);
}

void ll_layout_change_check(struct ll_linted *l, enum ll_level level)
{
	check_diff(l, l->diff, level);
}

/*
 * The diff of L's layout against a recorded one: sizes, cachelines and the
 * units whose lines differ. Lines compare only at one line size: a record
 * made at another gives sizes alone.
 */
bool ll_layout_change_recorded(struct ll_linted *l, const struct ll_pairset *set,
			       const char *reference, enum ll_level level)
{
	const struct ll_struct *s = l->layout;
	const struct ll_layout_record *rec = NULL;
	struct ll_layout_diff d = { .reference = reference, .in_reference = true };

	for (size_t i = 0; i < set->nr_layouts && !rec; i++) {
		const struct ll_layout_record *r = &set->layouts[i];

		if (r->kind == s->kind && r->cacheline == s->cacheline && strcmp(r->name, s->name) == 0)
			rec = r;
	}
	if (!rec)
		return false;
	d.old_size = rec->size;
	d.old_cachelines = rec->cachelines;
	d.old_cacheline = rec->cacheline;
	d.new_size = s->size;
	d.new_cachelines = ll_struct_lines(s);
	d.new_cacheline = s->cacheline;
	for (size_t i = 0; i < l->units.n; i++) {
		const struct ll_member *m = l->units.v[i].m;
		struct ll_diff_member dm = { 0 };

		for (size_t k = 0; k < rec->nr_members && !dm.path; k++) {
			const struct ll_layout_member_rec *o = &rec->members[k];

			if (!m->path || strcmp(o->path, m->path) != 0)
				continue;
			dm.path = o->path;
			dm.old_lines = o->lines;
			dm.old_first = o->first;
			dm.old_last = o->last;
		}
		if (!dm.path)
			continue;
		dm.new_lines = ll_member_lines(m, s->cacheline, &dm.new_first, &dm.new_last);
		if (dm.old_lines == dm.new_lines && dm.old_first == dm.new_first &&
		    dm.old_last == dm.new_last)
			continue;
		d.moved = xgrow(d.moved, d.nr_moved, sizeof(*d.moved));
		d.moved[d.nr_moved++] = dm;	/* path borrowed from the record */
	}
	check_diff(l, &d, level);
	free(d.moved);
	return true;
}
