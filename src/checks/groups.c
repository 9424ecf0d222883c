// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel cacheline groups: finding them among a struct's members, tagging
 * their members from their names, and the group-span and group-member
 * checks. What the reporters print about them is report/describe.c's. See
 * groups.h.
 *
 * The markers come from include/linux/cache.h:
 *
 *	__cacheline_group_begin(NAME)	__u8 __cacheline_group_begin__NAME[0]
 *	__cacheline_group_end(NAME)	__u8 __cacheline_group_end__NAME[0]
 *	__cacheline_group_begin_aligned(NAME, ...)
 *		the begin marker with __aligned(... ?: SMP_CACHE_BYTES)
 *	__cacheline_group_end_aligned(NAME, ...)
 *		the end marker with __aligned(sizeof(long)), then
 *		struct { } __cacheline_group_pad__NAME __aligned(... ?: SMP_CACHE_BYTES)
 *
 * The group's bytes are [offset of the begin marker, offset of the end
 * marker), as CACHELINE_ASSERT_GROUP_SIZE measures them.
 */
#include "checks/groups.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/catalog.h"

static bool has_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0 || !s[n])
		return false;
	*rest = s + n;
	return true;
}

enum ll_marker_kind ll_group_marker(const struct ll_member *m, const char **name)
{
	const char *rest;

	if (!m->name || m->is_bitfield || !ll_member_is_empty(m))
		return LL_MARKER_NONE;
	if (has_prefix(m->name, LL_GROUP_BEGIN_PREFIX, &rest)) {
		*name = rest;
		return LL_MARKER_BEGIN;
	}
	if (has_prefix(m->name, LL_GROUP_END_PREFIX, &rest)) {
		*name = rest;
		return LL_MARKER_END;
	}
	if (has_prefix(m->name, LL_GROUP_PAD_PREFIX, &rest)) {
		*name = rest;
		return LL_MARKER_PAD;
	}
	return LL_MARKER_NONE;
}

enum ll_tag ll_group_name_tag(const char *name, char **domain)
{
	const char *p = name, *after = NULL;
	enum ll_tag tag = LL_UNTAGGED;

	*domain = NULL;
	/* Walk the "_"-separated tokens; the last "read" or "write" decides. */
	while (*p) {
		const char *end = strchr(p, '_');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 4 && strncmp(p, "read", 4) == 0) {
			tag = LL_READ_MOSTLY;
			after = p + len;
		} else if (len == 5 && strncmp(p, "write", 5) == 0) {
			tag = LL_WRITE_HOT;
			after = p + len;
		}
		p += len;
		while (*p == '_')
			p++;
	}
	if (tag != LL_UNTAGGED) {
		while (*after == '_')
			after++;
		if (*after) {
			*domain = xstrdup(after);
			/* "tx_" or "tx__rx": trailing separators carry nothing. */
			for (size_t n = strlen(*domain); n && (*domain)[n - 1] == '_'; n--)
				(*domain)[n - 1] = '\0';
		}
		/*
		 * A read group's suffix is a domain only when it names fast paths
		 * (read_rx: read on the rx path); "read_mostly" says nothing of
		 * who reads.
		 */
		if (tag == LL_READ_MOSTLY && *domain && !ll_domain_paths(*domain)) {
			free(*domain);
			*domain = NULL;
		}
	}
	return tag;
}

/*
 * The struct's own members in declaration order, anonymous aggregates
 * expanded (they are the struct's members in C), named aggregates kept
 * whole (their markers belong to their own type), unnamed bitfields left
 * out (nothing can be tagged through them).
 */
static enum ll_pick own_member(const struct ll_member *m)
{
	if (m->name)
		return LL_PICK_TAKE;
	return m->is_aggregate ? LL_PICK_DESCEND : LL_PICK_SKIP;
}

static void geometry(struct ll_group *g, unsigned cl)
{
	uint64_t bytes = g->end_offset - g->begin_offset;

	g->cacheline = cl;
	g->first_line = g->begin_offset / cl;
	g->last_line = bytes ? (g->end_offset - 1) / cl : g->first_line;
	g->nr_lines = bytes ? g->last_line - g->first_line + 1 : 0;
	g->min_lines = (bytes + cl - 1) / cl;
}

size_t ll_find_groups(const struct ll_struct *s, struct ll_groups *out)
{
	struct ll_member_list f = { 0 };
	bool *used;
	unsigned cl = s->cacheline ? s->cacheline : 64;

	memset(out, 0, sizeof(*out));
	ll_members_pick(s->members, s->nr_members, own_member, &f);
	used = xcalloc(f.n ? f.n : 1, sizeof(*used));
	for (size_t i = 0; i < f.n; i++) {
		const char *name, *other;
		size_t j;

		if (ll_group_marker(f.v[i], &name) != LL_MARKER_BEGIN)
			continue;
		/* Its end: the first unused end marker of the same name after it. */
		for (j = i + 1; j < f.n; j++)
			if (!used[j] && ll_group_marker(f.v[j], &other) == LL_MARKER_END &&
			    strcmp(name, other) == 0)
				break;
		if (j == f.n || f.v[j]->offset < f.v[i]->offset)
			continue;
		used[j] = true;

		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		struct ll_group *g = &out->v[out->n++];
		struct strbuf origin = STRBUF_INIT;

		memset(g, 0, sizeof(*g));
		g->name = xstrdup(name);
		g->begin = f.v[i];
		g->end = f.v[j];
		g->begin_offset = g->begin->offset;
		g->end_offset = g->end->offset;
		g->aligned = g->begin->explicit_align;
		g->alignment = g->begin->alignment;
		g->tag = ll_group_name_tag(name, &g->domain);
		sb_addf(&origin, "group %s", name);
		g->tag_origin = sb_detach(&origin);
		for (size_t k = i + 1; k < j; k++) {
			const char *ignored;

			if (ll_group_marker(f.v[k], &ignored) != LL_MARKER_NONE)
				continue;
			g->members = xgrow(g->members, g->nr_members, sizeof(*g->members));
			g->members[g->nr_members++] = f.v[k];
		}
		/* The aligned variant's pad follows its end marker. */
		for (size_t k = j + 1; k < f.n; k++) {
			enum ll_marker_kind kind = ll_group_marker(f.v[k], &other);

			if (kind == LL_MARKER_PAD && strcmp(other, name) == 0) {
				g->pad = f.v[k];
				break;
			}
			if (!ll_member_is_empty(f.v[k]))
				break;
		}
		geometry(g, cl);
	}
	free(used);
	free(f.v);
	return out->n;
}

void ll_groups_release(struct ll_groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		ll_free_all(g->v[i].name, g->v[i].domain, g->v[i].tag_origin, g->v[i].members);
	ll_array_free(g->v, g->n);
}

/* ---- tags ---------------------------------------------------------------- */

static int by_size_desc(const void *a, const void *b)
{
	const struct ll_group *x = *(const struct ll_group *const *)a;
	const struct ll_group *y = *(const struct ll_group *const *)b;
	uint64_t bx = x->end_offset - x->begin_offset, by = y->end_offset - y->begin_offset;

	return bx < by ? 1 : bx > by ? -1 : 0;
}

size_t ll_groups_apply_tags(struct ll_struct *s, const struct ll_groups *g)
{
	const struct ll_group **order;
	size_t tagged = 0;

	(void)s;	/* the members are S's; the groups point at them */
	if (!g->n)
		return 0;
	/* Larger groups first, so a group nested in another tags its own members. */
	order = xmalloc(g->n * sizeof(*order));
	for (size_t i = 0; i < g->n; i++)
		order[i] = &g->v[i];
	if (g->n)
		qsort(order, g->n, sizeof(*order), by_size_desc);
	for (size_t i = 0; i < g->n; i++) {
		const struct ll_group *grp = order[i];

		if (grp->tag == LL_UNTAGGED)
			continue;
		for (size_t k = 0; k < grp->nr_members; k++) {
			/* The members belong to S, which the caller lets us change. */
			struct ll_member *m = (struct ll_member *)grp->members[k];

			/*
			 * A rules file's tag always wins. The group's members are S's
			 * own (anonymous aggregates have no tag), so no ancestor of
			 * them can carry a rules tag.
			 */
			if (m->tag_rule_line > 0 || ll_member_is_empty(m))
				continue;
			if (m->tag_rule_line == 0)
				tagged++;
			m->tag = grp->tag;
			free(m->domain);
			m->domain = grp->domain ? xstrdup(grp->domain) : NULL;
			m->tag_rule_line = LL_GROUP_TAG_LINE;
			m->tag_rule_file = grp->tag_origin;
			m->tag_specificity = 0;
		}
	}
	free(order);
	return tagged;
}

/* ---- checks -------------------------------------------------------------- */

static bool allowed(const struct ll_check_input *in, enum ll_check rule, const char *path)
{
	return ll_check_allowed(in->allows, in->nr_allows, rule, path);
}

static void tag_words(enum ll_tag tag, const char *domain, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", ll_tag_name(tag), domain ? ":" : "", domain ? domain : "");
}

static void check_span(const struct ll_check_input *in, const struct ll_group *g,
		       struct ll_findings *out)
{
	const struct ll_struct *s = in->s;
	enum ll_check rule = LL_CHECK_GROUP_SPAN;
	uint64_t bytes = g->end_offset - g->begin_offset;
	unsigned cl = g->cacheline;
	struct strbuf msg = STRBUF_INIT;

	if (g->nr_lines <= g->min_lines)
		return;
	if (allowed(in, rule, g->begin->path) || allowed(in, rule, g->end->path))
		return;

	struct ll_finding *f = ll_check_finding_add(out, rule, (int64_t)g->first_line);

	sb_addf(&msg, "group %s of %s %s touches %" PRIu64 " cachelines (%" PRIu64 "-%" PRIu64
		", bytes %" PRIu64 "-%" PRIu64 ") but its %" PRIu64 " byte%s need%s only %" PRIu64,
		g->name, ll_kind_name(s->kind), s->name, g->nr_lines, g->first_line, g->last_line,
		g->begin_offset, g->end_offset - 1, bytes, bytes == 1 ? "" : "s",
		bytes == 1 ? "s" : "", g->min_lines);
	f->message = sb_detach(&msg);
	f->location = g->begin->decl;
	ll_finding_member(f, g->begin->path);
	ll_finding_member(f, g->end->path);
	ll_finding_pair(f, g->begin->path, NULL);
	ll_finding_note(f, &g->end->decl, "group %s ends at byte %" PRIu64 " (cacheline %" PRIu64
			" +%" PRIu64 ")", g->name, g->end_offset, g->end_offset / cl,
			g->end_offset % cl);
	if (g->aligned && g->alignment < cl)
		ll_finding_note(f, &g->begin->decl, "group %s starts %" PRIu64 " bytes into cacheline %"
				PRIu64 "; its explicit alignment, %" PRIu64 ", is below the %u-byte "
				"cacheline", g->name, g->begin_offset % cl, g->first_line,
				g->alignment, cl);
	else
		ll_finding_note(f, &g->begin->decl, "group %s starts %" PRIu64 " bytes into cacheline %"
				PRIu64 "; starting it on a cacheline boundary "
				"(__cacheline_group_begin_aligned) would make it touch %" PRIu64,
				g->name, g->begin_offset % cl, g->first_line, g->min_lines);
	ll_finding_seal(f, s);
}

/*
 * group-member: "a member outside its markers". DWARF does not keep the
 * kernel's CACHELINE_ASSERT_GROUP_MEMBER() lists, so what a member should be
 * in can only come from a rules file (typically one imported from
 * Documentation/networking/net_cachelines). A member that a rules file tags
 * read-mostly or write-hot, with bytes, is reported when
 *   - it lies inside a read/write group whose name says otherwise: a
 *     read-mostly member in a write group, a write-hot member in a read
 *     group, or a write-hot member whose domain the group's does not cover;
 *     or
 *   - it lies outside every group of its kind although S has such groups:
 *     outside all read groups for read-mostly; outside every write group
 *     covering its domain (or every write group, when none covers it) for
 *     write-hot.
 * A group's domain covers a member's when they are equal, or when every
 * fast path ("tx", "rx") the member's names is in the group's: upstream
 * puts members written on one path and read on the other in the *_txrx
 * groups, so write_txrx (and sock's write_rxtx) cover write-hot:tx and
 * write-hot:rx members, while write_rx does not cover write-hot:tx.
 * Members that contain a group (a tagged aggregate around the markers) or
 * overlap one only in part (union alternatives) are left alone, and so are
 * structs without read or write groups.
 */
static const struct ll_group *containing_group(const struct ll_groups *g, struct ll_extent e,
					       bool *partial)
{
	const struct ll_group *best = NULL;

	*partial = false;
	for (size_t i = 0; i < g->n; i++) {
		const struct ll_group *grp = &g->v[i];

		if (grp->end_offset <= grp->begin_offset)
			continue;
		if (e.begin >= grp->begin_offset && e.end <= grp->end_offset) {
			if (!best || grp->end_offset - grp->begin_offset <
				     best->end_offset - best->begin_offset)
				best = grp;
		} else if (e.begin < grp->end_offset && grp->begin_offset < e.end) {
			*partial = true;
		}
	}
	return best;
}

static bool covers(const char *group, const char *member)
{
	static const char *const paths[] = { "tx", "rx" };
	bool any = false;

	if (ll_same_domain(group, member))
		return true;
	if (!group || !member)
		return false;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (!strstr(member, paths[i]))
			continue;
		any = true;
		if (!strstr(group, paths[i]))
			return false;
	}
	return any;
}

static void list_groups(struct strbuf *sb, const struct ll_groups *g, enum ll_tag tag,
			const char *domain, bool match_domain)
{
	bool first = true;

	for (size_t i = 0; i < g->n; i++) {
		const struct ll_group *grp = &g->v[i];

		if (grp->tag != tag || (match_domain && !covers(grp->domain, domain)))
			continue;
		sb_addf(sb, "%s%s (bytes %" PRIu64 "-%" PRIu64 ")", first ? "" : ", ", grp->name,
			grp->begin_offset, grp->end_offset ? grp->end_offset - 1 : 0);
		first = false;
	}
}

struct member_ctx {
	const struct ll_check_input *in;
	const struct ll_groups *g;
	struct ll_findings *out;
	bool have_read, have_write;
};

static bool has_write_group(const struct ll_groups *g, const char *domain)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].tag == LL_WRITE_HOT && covers(g->v[i].domain, domain))
			return true;
	return false;
}

static void member_finding(struct member_ctx *c, const struct ll_member *m,
			   const struct ll_group *in_group, const char *what)
{
	const struct ll_struct *s = c->in->s;
	struct ll_finding *f = ll_check_finding_add(c->out, LL_CHECK_GROUP_MEMBER, -1);
	struct ll_decl rules_at = { .file = (char *)m->tag_rule_file,
				    .line = (unsigned)m->tag_rule_line };
	char tag[128];

	tag_words(m->tag, m->domain, tag, sizeof(tag));
	f->message = xstrdup(what);
	f->location = m->decl;
	ll_finding_member(f, m->path);
	ll_finding_pair(f, m->path, NULL);
	ll_finding_note(f, &rules_at, "%s is tagged %s here", m->path, tag);
	if (in_group)
		ll_finding_note(f, &in_group->begin->decl, "group %s begins here", in_group->name);
	ll_finding_seal(f, s);
}

static int member_visit(struct ll_member *m, int depth, void *arg)
{
	struct member_ctx *c = arg;
	const struct ll_struct *s = c->in->s;
	enum ll_check rule = LL_CHECK_GROUP_MEMBER;
	struct ll_extent e = ll_member_extent(m);
	const struct ll_group *grp;
	struct strbuf msg = STRBUF_INIT;
	bool partial;
	char tag[128];

	(void)depth;
	if (m->tag_rule_line <= 0 || !m->path || e.end <= e.begin)
		return 0;
	if (m->tag != LL_READ_MOSTLY && m->tag != LL_WRITE_HOT)
		return 0;
	if (allowed(c->in, rule, m->path))
		return 0;
	grp = containing_group(c->g, e, &partial);
	if (!grp && partial)
		return 0;
	tag_words(m->tag, m->domain, tag, sizeof(tag));
	if (grp && grp->tag != LL_UNTAGGED) {
		char gtag[128];

		if (grp->tag == m->tag && (m->tag == LL_READ_MOSTLY || covers(grp->domain, m->domain)))
			return 0;
		tag_words(grp->tag, grp->domain, gtag, sizeof(gtag));
		if (grp->tag == m->tag)
			sb_addf(&msg, "%s of %s %s is tagged %s by the rules but lies inside group %s, "
				"whose domain, %s, does not cover %s", m->path, ll_kind_name(s->kind),
				s->name, tag, grp->name, grp->domain ? grp->domain : "the default one",
				m->domain ? m->domain : "the default one");
		else
			sb_addf(&msg, "%s of %s %s is tagged %s by the rules but lies inside group %s, "
				"whose name makes its members %s", m->path, ll_kind_name(s->kind),
				s->name, tag, grp->name, gtag);
		member_finding(c, m, grp, msg.buf);
		sb_release(&msg);
		return 0;
	}
	if (m->tag == LL_READ_MOSTLY) {
		if (!c->have_read)
			return 0;
		sb_addf(&msg, "%s of %s %s is tagged read-mostly by the rules but lies outside "
			"its read groups: ", m->path, ll_kind_name(s->kind), s->name);
		list_groups(&msg, c->g, LL_READ_MOSTLY, NULL, false);
	} else {
		bool exact = has_write_group(c->g, m->domain);

		if (!c->have_write)
			return 0;
		sb_addf(&msg, "%s of %s %s is tagged %s by the rules but lies outside ", m->path,
			ll_kind_name(s->kind), s->name, tag);
		if (exact) {
			sb_adds(&msg, "the write groups covering its domain: ");
			list_groups(&msg, c->g, LL_WRITE_HOT, m->domain, true);
		} else {
			sb_adds(&msg, "its write groups (none covers its domain): ");
			list_groups(&msg, c->g, LL_WRITE_HOT, NULL, false);
		}
	}
	member_finding(c, m, NULL, msg.buf);
	sb_release(&msg);
	return 0;
}

void ll_check_groups(const struct ll_check_input *in, const struct ll_groups *g,
		     struct ll_findings *out)
{
	struct member_ctx c = { .in = in, .g = g, .out = out };

	for (size_t i = 0; i < g->n; i++) {
		check_span(in, &g->v[i], out);
		c.have_read |= g->v[i].tag == LL_READ_MOSTLY;
		c.have_write |= g->v[i].tag == LL_WRITE_HOT;
	}
	if (c.have_read || c.have_write)
		ll_visit(in->s->members, in->s->nr_members, member_visit, &c);
}

static bool any_group_tag(const struct ll_member *members, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (members[i].tag_rule_line == LL_GROUP_TAG_LINE ||
		    any_group_tag(members[i].children, members[i].nr_children))
			return true;
	return false;
}

bool ll_groups_tagged(const struct ll_struct *s)
{
	return any_group_tag(s->members, s->nr_members);
}
