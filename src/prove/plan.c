// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --prove: which members the benchmark touches, how, and from which
 * thread class, in both layouts.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "prove/prove.h"

static void note(struct ll_prove_plan *p, const char *fmt, const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, fmt, a, b ? b : "");
	p->notes = xgrow(p->notes, p->nr_notes, sizeof(*p->notes));
	p->notes[p->nr_notes++] = sb_detach(&sb);
}

/*
 * The outermost tagged members, depth first: a tag on an aggregate
 * (f_path, atomic_long_t f_count) covers its bytes whole.
 */
static enum ll_pick tagged_member(const struct ll_member *m)
{
	if ((m->tag == LL_READ_MOSTLY || m->tag == LL_WRITE_HOT) && m->path &&
	    !ll_member_is_empty(m))
		return LL_PICK_TAKE;
	return m->is_aggregate ? LL_PICK_DESCEND : LL_PICK_SKIP;
}

static const struct ll_member *find_path(const struct ll_member *members, size_t n,
					 const char *path)
{
	for (size_t i = 0; i < n; i++) {
		const struct ll_member *m = &members[i], *r;

		if (m->path && strcmp(m->path, path) == 0)
			return m;
		if (m->is_aggregate && (r = find_path(m->children, m->nr_children, path)))
			return r;
	}
	return NULL;
}

/*
 * Without --access evidence, the type says whether the kernel updates a
 * member with locked instructions: its atomics, reference counts and lock
 * words, and C11's _Atomic.
 */
static bool atomic_type(const char *type)
{
	static const char *const words[] = { "atomic", "refcount", "spinlock", "rwlock",
					     "seqcount", "seqlock", "mutex", "rw_semaphore",
					     "_Atomic", "lockref", "qspinlock", NULL };

	for (size_t i = 0; type && words[i]; i++)
		if (strstr(type, words[i]))
			return true;
	return false;
}

static bool updated_atomically(const struct ll_access_view *v, const struct ll_member *m)
{
	if (v && v->e) {
		struct ll_access_summary s;

		ll_access_member_summary(v, m, &s);
		if (s.runtime_writes)
			return s.runtime_atomics > 0;
	}
	return atomic_type(m->type);
}

static char *c_ident(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isalpha((unsigned char)*s) && *s != '_')
		sb_addc(&sb, 'm');
	for (; *s; s++)
		sb_addc(&sb, isalnum((unsigned char)*s) ? *s : '_');
	return sb_detach(&sb);
}

static size_t class_index(struct ll_prove_plan *p, const char *name, bool writes)
{
	for (size_t i = 0; i < p->nr_classes; i++)
		if (strcmp(p->classes[i].name, name) == 0)
			return i;
	p->classes = xgrow(p->classes, p->nr_classes, sizeof(*p->classes));
	p->classes[p->nr_classes] = (struct ll_prove_class){ .name = xstrdup(name),
							       .writes = writes, .threads = 1 };
	return p->nr_classes++;
}

/* An _Atomic integer of its size lands where the member is, and grows no alignment. */
static bool scalar_fits(uint64_t size, const uint64_t offset[2], const uint64_t align[2])
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	for (int l = 0; l < 2; l++)
		if (offset[l] % size || size > align[l])
			return false;
	return true;
}

static int by_offset_before(const void *a, const void *b)
{
	const struct ll_prove_member *x = a, *y = b;

	return x->offset[0] < y->offset[0] ? -1 : x->offset[0] > y->offset[0];
}

int ll_prove_plan_build(const struct ll_struct *before, const char *before_label,
			const struct ll_struct *after, const char *after_label, bool against,
			const struct ll_access_view *access, struct ll_prove_plan *out,
			struct ll_error *err)
{
	struct ll_member_list c = { 0 };
	struct ll_prove_plan *p = out;
	const struct ll_struct *lay[2] = { before, after };
	size_t readers = 0, writers = 0;

	memset(p, 0, sizeof(*p));
	p->struct_name = xstrdup(before->name ? before->name : "(anonymous)");
	p->ident = c_ident(p->struct_name);
	p->kind = before->kind;
	p->cacheline = before->cacheline ? before->cacheline : 64;
	p->against = against;
	p->label[0] = xstrdup(before_label);
	p->label[1] = xstrdup(after_label);
	for (int l = 0; l < 2; l++) {
		p->size[l] = lay[l]->size;
		p->alignment[l] = lay[l]->alignment ? lay[l]->alignment : 1;
	}
	if (before->kind == LL_GLOBALS) {
		ll_prove_plan_release(p);
		return ll_fail(err, "--prove measures one struct or union, not the global "
			       "variables");
	}
	ll_members_pick(before->members, before->nr_members, tagged_member, &c);
	p->same_layout = true;
	for (size_t i = 0; i < c.n; i++) {
		const struct ll_member *m = c.v[i], *m2 = find_path(after->members,
								     after->nr_members, m->path);
		struct ll_extent e = ll_member_extent(m), e2;
		struct ll_prove_member pm = { 0 };
		const char *cls;

		if (!m2) {
			note(p, "%s is not in the other layout: not measured", m->path, NULL);
			continue;
		}
		e2 = ll_member_extent(m2);
		if (e2.end - e2.begin != e.end - e.begin) {
			note(p, "%s has another size in the other layout: not measured", m->path,
			     NULL);
			continue;
		}
		pm.path = xstrdup(m->path);
		pm.offset[0] = e.begin;
		pm.offset[1] = e2.begin;
		pm.size = e.end - e.begin;
		if (pm.offset[0] != pm.offset[1])
			p->same_layout = false;
		if (m->tag == LL_READ_MOSTLY) {
			pm.op = LL_PROVE_LOAD;
			cls = "reader";
			readers++;
		} else {
			pm.op = updated_atomically(access, m) ? LL_PROVE_RMW : LL_PROVE_STORE;
			cls = m->domain ? m->domain : "";
			writers++;
		}
		{
			struct strbuf name = STRBUF_INIT;

			if (pm.op == LL_PROVE_LOAD)
				sb_adds(&name, "reader");
			else if (*cls)
				sb_addf(&name, "writer:%s", cls);
			else
				sb_adds(&name, "writer");
			pm.cls = class_index(p, name.buf, pm.op != LL_PROVE_LOAD);
			sb_release(&name);
		}
		p->members = xgrow(p->members, p->nr_members, sizeof(*p->members));
		p->members[p->nr_members++] = pm;
	}
	free(c.v);
	if (!writers) {
		ll_prove_plan_release(p);
		return ll_fail(err, "--prove: struct %s has no write-hot member to contend on: tag "
			       "it with --rules, --profile or --access", before->name);
	}
	if (!readers && p->nr_classes < 2) {
		ll_prove_plan_release(p);
		return ll_fail(err, "--prove: struct %s has one write domain and no read-mostly "
			       "member: no two threads share a line to measure", before->name);
	}
	/* Overlapping members (a union's) would be touched twice: keep the first. */
	qsort(p->members, p->nr_members, sizeof(*p->members), by_offset_before);
	for (size_t i = 1; i < p->nr_members; i++) {
		struct ll_prove_member *a = &p->members[i - 1], *b = &p->members[i];

		if (b->offset[0] < a->offset[0] + a->size) {
			note(p, "%s overlaps %s (a union): not measured", b->path, a->path);
			free(b->path);
			memmove(b, b + 1, (p->nr_members - i - 1) * sizeof(*b));
			p->nr_members--;
			i--;
		}
	}
	for (size_t i = 0; i < p->nr_members; i++) {
		struct ll_prove_member *pm = &p->members[i];
		char *id = c_ident(pm->path);
		struct strbuf sb = STRBUF_INIT;

		sb_adds(&sb, id);
		for (size_t j = 0; j < i; j++)
			if (strcmp(p->members[j].ident, sb.buf) == 0) {
				sb_addf(&sb, "_%zu", i);
				break;
			}
		free(id);
		pm->ident = sb_detach(&sb);
		pm->scalar = scalar_fits(pm->size, pm->offset, p->alignment);
		if (!pm->scalar && pm->op == LL_PROVE_RMW) {
			note(p, "%s is no naturally aligned 1-, 2-, 4- or 8-byte word: plain stores "
			     "stand for its atomic updates", pm->path, NULL);
			pm->op = LL_PROVE_STORE;
		}
	}
	return 0;
}

void ll_prove_plan_release(struct ll_prove_plan *p)
{
	for (size_t i = 0; i < p->nr_members; i++) {
		free(p->members[i].path);
		free(p->members[i].ident);
	}
	for (size_t i = 0; i < p->nr_classes; i++) {
		free(p->classes[i].name);
		free(p->classes[i].cpus);
	}
	ll_strv_free(p->notes, p->nr_notes);
	ll_free_all(p->members, p->classes, p->struct_name, p->ident, p->label[0], p->label[1]);
	memset(p, 0, sizeof(*p));
}
