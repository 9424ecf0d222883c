/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-built layout models for the unit tests. Every string is allocated
 * with xstrdup(), because ll_struct_free() frees all of them.
 *
 * Pointers returned by mb_add()/mb_child() stay valid until the next member
 * is added to the same array; build an aggregate's children before adding
 * its next sibling, or look members up again with mb_find().
 */
#ifndef LL_TEST_MODEL_BUILDER_H
#define LL_TEST_MODEL_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/layout.h"
#include "../../src/util/strbuf.h"

#define MB_FILE "include/linux/fs.h"

static inline struct ll_struct *mb_struct(enum ll_kind kind, const char *name, uint64_t size,
					  uint64_t alignment, unsigned cacheline)
{
	struct ll_struct *s = xcalloc(1, sizeof(*s));

	s->kind = kind;
	s->name = xstrdup(name);
	s->size = size;
	s->alignment = alignment;
	s->cacheline = cacheline;
	s->decl.file = xstrdup(MB_FILE);
	s->decl.line = 1;
	s->decl.column = 8;
	return s;
}

static inline struct ll_member *mb_push(struct ll_member **v, size_t *n, const char *name,
					const char *path, const char *type, uint64_t offset,
					uint64_t size)
{
	struct ll_member *m;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	m = &(*v)[(*n)++];
	memset(m, 0, sizeof(*m));
	m->name = name ? xstrdup(name) : NULL;
	m->path = path ? xstrdup(path) : NULL;
	m->type = xstrdup(type);
	m->offset = offset;
	m->size = size;
	m->alignment = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
	return m;
}

/* A top-level member; its path is its name. NAME NULL: unnamed. */
static inline struct ll_member *mb_add(struct ll_struct *s, const char *name, const char *type,
				       uint64_t offset, uint64_t size)
{
	return mb_push(&s->members, &s->nr_members, name, name, type, offset, size);
}

/*
 * A child of PARENT. Its path is PARENT's path "." NAME, or NAME alone
 * when PARENT is anonymous (fix deeper cases with mb_set_path()).
 */
static inline struct ll_member *mb_child(struct ll_member *parent, const char *name,
					 const char *type, uint64_t offset, uint64_t size)
{
	char *path = NULL;
	struct ll_member *m;

	if (name && parent->path) {
		size_t n = strlen(parent->path) + strlen(name) + 2;

		path = xmalloc(n);
		strcpy(path, parent->path);
		strcat(path, ".");
		strcat(path, name);
	} else if (name) {
		path = xstrdup(name);
	}
	m = mb_push(&parent->children, &parent->nr_children, name, NULL, type, offset, size);
	m->path = path;
	return m;
}

static inline void mb_set_path(struct ll_member *m, const char *path)
{
	free(m->path);
	m->path = path ? xstrdup(path) : NULL;
}

/* Make M a nested struct/union whose children follow with mb_child(). */
static inline struct ll_member *mb_agg(struct ll_member *m, enum ll_kind kind)
{
	m->is_aggregate = true;
	m->agg_kind = kind;
	return m;
}

/* Make M a bitfield; its offset/size stay those of the storage unit. */
static inline struct ll_member *mb_bits(struct ll_member *m, uint64_t bit_offset,
					uint64_t bit_size)
{
	m->is_bitfield = true;
	m->bit_offset = bit_offset;
	m->bit_size = bit_size;
	return m;
}

static inline struct ll_member *mb_decl(struct ll_member *m, unsigned line, unsigned column)
{
	free(m->decl.file);
	m->decl.file = xstrdup(MB_FILE);
	m->decl.line = line;
	m->decl.column = column;
	return m;
}

/* Tag M as if a rules line (line 1 of "t.rules") had done it. */
static inline struct ll_member *mb_tag(struct ll_member *m, enum ll_tag tag, const char *domain)
{
	m->tag = tag;
	free(m->domain);
	m->domain = domain ? xstrdup(domain) : NULL;
	m->tag_rule_line = 1;
	m->tag_rule_file = "t.rules";
	m->tag_specificity = 1;
	return m;
}

static inline struct ll_member *mb_find_in(struct ll_member *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		struct ll_member *r;

		if (v[i].path && strcmp(v[i].path, path) == 0)
			return &v[i];
		r = mb_find_in(v[i].children, v[i].nr_children, path);
		if (r)
			return r;
	}
	return NULL;
}

/* The member with PATH, depth first; NULL if none. */
static inline struct ll_member *mb_find(struct ll_struct *s, const char *path)
{
	return mb_find_in(s->members, s->nr_members, path);
}

/* The first unnamed member at the top level. */
static inline struct ll_member *mb_unnamed(struct ll_struct *s, size_t nth)
{
	for (size_t i = 0; i < s->nr_members; i++)
		if (!s->members[i].name && nth-- == 0)
			return &s->members[i];
	return NULL;
}

#endif
