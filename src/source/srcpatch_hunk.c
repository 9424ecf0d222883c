// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=patch, the second half: the new lines of the struct's body
 * from the solver's order and the source's pieces (source_private.h), as
 * a unified diff hunk.
 */
#include "source/source_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "solver/suggest.h"
#include "source/randstruct.h"

/* ---- writing the hunk ------------------------------------------------------ */

struct span {
	const char *s;
	size_t n;
	char *own;			/* a line the patch rewrote */
};

struct lines {
	struct span *v;
	size_t n;
};

static void lines_push(struct lines *l, const char *s, size_t n, char *own)
{
	l->v = xgrow(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct span){ s, n, own };
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].own);
	free(l->v);
}

static void push_file_line(struct lines *l, const struct ll_source *src, unsigned line)
{
	lines_push(l, src->text + src->line_off[line], sp_line_len(src, line), NULL);
}

static size_t col_of(const struct ll_source *src, size_t tok)
{
	return src->toks[tok].off - src->line_off[src->toks[tok].line];
}

/* Line LINE of the file with TEXT inserted at column COL. */
static void push_edited(struct lines *l, const struct ll_source *src, unsigned line, size_t col,
			const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *b = src->text + src->line_off[line];

	sb_add(&sb, b, col);
	sb_adds(&sb, text);
	sb_add(&sb, b + col, sp_line_len(src, line) - col);
	size_t n = sb.len;
	char *own = sb_detach(&sb);

	lines_push(l, own, n, own);
}

struct edit {
	unsigned line;
	size_t col;
	const char *text;
};

/* The member that must start a line: where the tree's idiom goes. */
static int line_start_edit(const struct ll_source *src, const struct ll_member *m, size_t idx,
			   uint64_t cl, struct edit *e, char *buf, size_t bufsz, struct strbuf *why)
{
	const struct decl *d = &src->decls[src->decl_of[idx]];

	if (m->is_bitfield)
		return sp_refuse(why, "%s:%u: bitfield %s would have to start a cacheline, and C "
				 "cannot align a bitfield", src->path, m->decl.line, sp_member_label(m));
	if (d->nmembers > 1)
		return sp_refuse(why, "%s:%u: %s must start a cacheline but shares its declaration "
				 "with other members; split it first", src->path, m->decl.line,
				 sp_member_label(m));
	if (src->idiom == IDIOM_KERNEL) {
		*e = (struct edit){ d->semi_line, col_of(src, d->t1), " ____cacheline_aligned_in_smp" };
		return 0;
	}
	if (!m->name)
		return sp_refuse(why, "%s:%u: the %s must start a cacheline, and C allows no "
				 "alignment specifier on an unnamed member", src->path, m->decl.line,
				 sp_member_label(m));
	snprintf(buf, bufsz, "%s(%" PRIu64 ") ", src->idiom == IDIOM_ALIGNAS ? "alignas" :
		 "_Alignas", cl);
	*e = (struct edit){ d->first_line, col_of(src, d->t0), buf };
	return 0;
}

/*
 * A pahole-style "--- cacheline N boundary (B bytes) ---" comment line, as
 * struct file has: it describes the old layout, so it does not move with
 * the member below it; the new boundaries get comments of their own.
 */
static bool boundary_line(const struct ll_source *src, unsigned line)
{
	const char *b = src->text + src->line_off[line], *e = b + sp_line_len(src, line);
	static const char open[] = "/* --- cacheline ", close[] = " --- */";

	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return (size_t)(e - b) > sizeof(open) + sizeof(close) &&
	       memcmp(b, open, sizeof(open) - 1) == 0 &&
	       memcmp(e - (sizeof(close) - 1), close, sizeof(close) - 1) == 0;
}

/* Append the lines of piece P, applying the one edit that falls in it, if any. */
static void push_piece(struct lines *l, const struct ll_source *src, const struct piece *p,
		       const struct edit *edits, size_t nedits)
{
	for (unsigned line = p->first; line <= p->last; line++) {
		const struct edit *e = NULL;

		if (boundary_line(src, line))
			continue;

		for (size_t k = 0; k < nedits; k++)
			if (edits[k].line == line)
				e = &edits[k];
		if (e)
			push_edited(l, src, line, e->col, e->text);
		else
			push_file_line(l, src, line);
	}
}

uint64_t ll_source_patched_size(const struct ll_source *src, const struct ll_suggestion *sg)
{
	uint64_t cl = src->s->cacheline;

	for (size_t i = 0; i < sg->n; i++)
		if (sg->members[i].line_start)
			return (sg->size + cl - 1) / cl * cl;
	return sg->size;
}

static bool subtree_hot(const struct ll_member *m)
{
	if (m->tag == LL_READ_MOSTLY || m->tag == LL_WRITE_HOT)
		return true;
	for (size_t i = 0; i < m->nr_children; i++)
		if (subtree_hot(&m->children[i]))
			return true;
	return false;
}

/*
 * Kernel types whose size the configuration sets: locks that grow under
 * lock debugging (DEBUG_SPINLOCK, DEBUG_MUTEXES, DEBUG_LOCK_ALLOC, PREEMPT_RT),
 * what embeds a lockdep map (work, timers, wait queues) and what is empty
 * without SMP or LOCKDEP. Matched on the type as C spells it, typedef or tag.
 */
static const char *const config_sized[] = {
	"spinlock_t", "struct spinlock", "raw_spinlock_t", "struct raw_spinlock",
	"arch_spinlock_t", "rwlock_t", "arch_rwlock_t", "struct mutex", "struct rw_semaphore",
	"struct semaphore", "struct rt_mutex", "struct rt_mutex_base", "struct ww_mutex",
	"struct percpu_rw_semaphore", "struct lockdep_map", "struct lock_class_key",
	"local_lock_t", "local_trylock_t", "wait_queue_head_t", "struct wait_queue_head",
	"struct swait_queue_head", "struct completion", "seqlock_t", "seqcount_t",
	"struct seqcount", "struct work_struct", "struct delayed_work", "struct rcu_work",
	"struct timer_list", "struct kthread_work", "struct kthread_delayed_work",
	"struct lockref", "struct optimistic_spin_queue",
};

static bool type_is(const char *type, const char *name)
{
	size_t n = strlen(name);

	while (strncmp(type, "const ", 6) == 0 || strncmp(type, "volatile ", 9) == 0)
		type += type[0] == 'c' ? 6 : 9;
	/* An array of it: "spinlock_t[4]". */
	return strncmp(type, name, n) == 0 && (type[n] == '\0' || type[n] == '[');
}

static const char *own_sized_type(const struct ll_member *m)
{
	/* A pointer's size is the pointer's. */
	if (!m->type || strchr(m->type, '*'))
		return NULL;
	for (size_t i = 0; i < sizeof(config_sized) / sizeof(config_sized[0]); i++)
		if (type_is(m->type, config_sized[i]))
			return config_sized[i];
	/* seqcount_spinlock_t, seqcount_mutex_t, ...: each embeds a lockdep map. */
	return strncmp(m->type, "seqcount_", 9) == 0 ? m->type : NULL;
}

const char *ll_config_sized_type(const struct ll_member *m)
{
	return ll_member_first(m, own_sized_type);
}

void ll_assert_skips_release(struct ll_assert_skips *s)
{
	free(s->v);
	*s = (struct ll_assert_skips){ 0 };
}

static void skip_assert(struct ll_assert_skips *out, struct ll_assert_skip sk)
{
	if (!out)
		return;
	out->v = xgrow(out->v, out->n, sizeof(*out->v));
	out->v[out->n++] = sk;
}

/*
 * static_asserts of the line each hot or line-starting member lands on, in
 * the new order EMIT of pieces, as long as nothing before the member can
 * change size with the configuration: a lock type that lock debugging
 * grows, or a declaration under #if (another configuration drops it). The
 * others are left out, each in OUT with what makes it config-dependent.
 * SM_OF maps a top-level member to its entry in the suggestion.
 */
static void push_asserts(struct lines *l, const struct ll_source *src,
			 const struct ll_suggestion *sg, const size_t *emit, size_t nemit,
			 const size_t *sm_of, struct ll_assert_skips *out)
{
	const struct ll_struct *s = src->s;
	const char *kw = ll_kind_name(s->kind);
	unsigned cl = s->cacheline;
	bool any = false, smp = false;
	struct strbuf sb = STRBUF_INIT;
	/* The first thing so far whose size or presence the configuration sets. */
	struct ll_assert_skip cause = { .cause = NULL };
	bool have_cause = false;

	/* ____cacheline_aligned_in_smp aligns nothing without CONFIG_SMP. */
	for (size_t i = 0; i < sg->n && src->idiom == IDIOM_KERNEL; i++)
		smp |= sg->members[i].line_start;
	if (out)
		out->randomized_line = src->randomized_line;
	for (size_t k = 0; k < nemit; k++) {
		const struct piece *p = &src->pieces[emit[k]];
		const struct ll_member *first_in_piece = NULL;

		for (size_t idx = 0; idx < src->n; idx++) {
			const struct ll_suggested_member *sm;

			if (src->piece_of[idx] != emit[k] || sm_of[idx] == SIZE_MAX)
				continue;
			sm = &sg->members[sm_of[idx]];
			if (!first_in_piece)
				first_in_piece = sm->m;
			bool wanted = sm->m->name && !sm->m->is_bitfield &&
				      (subtree_hot(sm->m) || sm->line_start);

			if (wanted && have_cause) {
				struct ll_assert_skip sk = cause;

				sk.member = sm->m;
				skip_assert(out, sk);
			} else if (wanted && p->conditional) {
				skip_assert(out, (struct ll_assert_skip){ .member = sm->m, .cause = sm->m,
					    .line = p->first, .why = LL_ASSERT_UNDER_IF });
			} else if (wanted) {
				if (!any && src->randomized_line && src->idiom == IDIOM_KERNEL)
					lines_push(l, "#ifndef CONFIG_RANDSTRUCT", 25, NULL);
				if (!any && smp)
					lines_push(l, "#ifdef CONFIG_SMP", 17, NULL);
				any = true;
				if (out)
					out->emitted++;
				sb_reset(&sb);
				if (src->idiom == IDIOM_KERNEL)
					sb_addf(&sb, "static_assert(offsetof(%s %s, %s) / %u == %" PRIu64
						");", kw, s->name, sm->m->name, cl, sm->offset / cl);
				else
					sb_addf(&sb, "_Static_assert(%s(%s %s, %s) / %u == %" PRIu64
						", \"%s %s: %s on cacheline %" PRIu64 "\");",
						src->has_offsetof ? "offsetof" : "__builtin_offsetof", kw,
						s->name, sm->m->name, cl, sm->offset / cl, kw, s->name,
						sm->m->name, sm->offset / cl);
				size_t n = sb.len;
				char *own = sb_detach(&sb);

				lines_push(l, own, n, own);
			}
			/* What follows this member moves when its size does. */
			const char *t = have_cause || p->conditional ? NULL :
					ll_config_sized_type(sm->m);

			if (t) {
				cause = (struct ll_assert_skip){ .cause = sm->m, .cause_type = t,
								 .why = LL_ASSERT_SIZE_VARIES };
				have_cause = true;
			}
		}
		/* Compiled out here, maybe not elsewhere: CAUSE NULL then, the #if line says. */
		if (!have_cause && p->conditional) {
			cause = (struct ll_assert_skip){ .cause = first_in_piece, .line = p->first,
							 .why = LL_ASSERT_AFTER_IF };
			have_cause = true;
		}
	}
	if (any && smp)
		lines_push(l, "#endif", 6, NULL);
	if (any && src->randomized_line && src->idiom == IDIOM_KERNEL)
		lines_push(l, "#endif", 6, NULL);
	sb_release(&sb);
}

static bool span_eq(const struct span *a, const struct span *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* The new text of lines [body_first, end_line], or -1 with WHY. */
static int new_region(const struct ll_source *src, const struct ll_suggestion *sg,
		      const struct ll_patch_opts *opts, struct lines *out, struct strbuf *why)
{
	const struct ll_struct *s = src->s;
	size_t n = src->n, np = src->npieces, nseq = 0, nemit = 0, nedits = 0;
	size_t *seq = xmalloc((np ? np : 1) * sizeof(*seq));
	size_t *emit = xmalloc((np ? np : 1) * sizeof(*emit));
	size_t *sm_of = xmalloc((n ? n : 1) * sizeof(*sm_of));
	bool *done = xcalloc(np ? np : 1, sizeof(*done));
	struct edit *edits = xcalloc(sg->n ? sg->n : 1, sizeof(*edits));
	char (*bufs)[32] = xcalloc(sg->n ? sg->n : 1, sizeof(*bufs));
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		sm_of[i] = SIZE_MAX;
	for (size_t i = 0; i < sg->n; i++) {
		const struct ll_suggested_member *sm = &sg->members[i];
		size_t idx = (size_t)(sm->m - src->members);

		/* Members outside the level that moves keep their lines. */
		if (sm->m < src->members || idx >= n)
			continue;
		sm_of[idx] = i;
		if (sm->pad_before && !sm->line_start) {
			sp_refuse(why, "%s:%u: %s needs %" PRIu64 " bytes of explicit padding before it "
				  "(a pinned offset or a bitfield's storage unit), which moving lines "
				  "cannot give", src->path, sm->m->decl.line, sp_member_label(sm->m),
				  sm->pad_before);
			goto out;
		}
		if (sm->line_start) {
			if (line_start_edit(src, sm->m, idx, s->cacheline, &edits[nedits],
					    bufs[nedits], sizeof(bufs[nedits]), why))
				goto out;
			nedits++;
		}
		size_t p = src->piece_of[idx];

		if (nseq && seq[nseq - 1] == p)
			continue;
		if (done[p]) {
			sp_refuse(why, "%s:%u: the proposal splits the piece of source that starts here "
				  "(one declaration or #if run)", src->path, src->pieces[p].first);
			goto out;
		}
		done[p] = true;
		seq[nseq++] = p;
	}
	/* Each piece with members, with the member-less pieces it hosts in source order. */
	for (size_t k = 0; k < nseq; k++)
		for (size_t q = 0; q < np; q++)
			if (q == seq[k] || (!src->pieces[q].nmembers && src->pieces[q].host == seq[k]))
				emit[nemit++] = q;
	if (nemit != np) {
		sp_refuse(why, "%s:%u: %s %s: the proposal does not place every declaration",
			  src->path, s->decl.line, ll_kind_name(s->kind), s->name);
		goto out;
	}
	bool boundaries = false;
	uint64_t shown = 0, prev_end = 0, cl = s->cacheline;

	for (unsigned line = src->body_first; line <= src->body_last && !boundaries; line++)
		boundaries = boundary_line(src, line);
	for (size_t k = 0; k < nemit; k++) {
		const struct piece *p = &src->pieces[emit[k]];
		uint64_t first = UINT64_MAX, end = 0;

		for (size_t i = 0; i < n; i++) {
			const struct ll_suggested_member *sm;

			if (src->piece_of[i] != emit[k] || sm_of[i] == SIZE_MAX)
				continue;
			sm = &sg->members[sm_of[i]];
			first = sm->offset < first ? sm->offset : first;
			end = sm->offset + sm->size > end ? sm->offset + sm->size : end;
		}
		/* The tree marks boundaries: mark the new ones that fall between pieces. */
		if (boundaries && first != UINT64_MAX && first / cl > shown &&
		    prev_end <= first / cl * cl) {
			struct strbuf sb = STRBUF_INIT;

			shown = first / cl;
			sb_addf(&sb, "\t/* --- cacheline %" PRIu64 " boundary (%" PRIu64 " bytes) --- */",
				shown, shown * cl);
			size_t len = sb.len;
			char *own = sb_detach(&sb);

			lines_push(out, own, len, own);
		}
		if (first != UINT64_MAX)
			prev_end = end > prev_end ? end : prev_end;
		push_piece(out, src, p, edits, nedits);
	}
	unsigned tail = np ? src->pieces[np - 1].last + 1 : src->body_first;

	for (unsigned line = tail; line <= src->end_line; line++)
		push_file_line(out, src, line);
	if (opts->asserts)
		push_asserts(out, src, sg, emit, nemit, sm_of, opts->skipped);
	rc = 0;
out:
	ll_free_all(seq, emit, sm_of, done, edits, bufs);
	return rc;
}

#define LCS_CELLS (4u << 20)	/* beyond it, the changed block is replaced whole */

static void emit_line(struct strbuf *out, char mark, const struct span *l)
{
	sb_addc(out, mark);
	sb_add(out, l->s, l->n);
	sb_addc(out, '\n');
}

/*
 * Old lines O[0, NO) become N[0, NN): as context, removals and additions
 * along a longest common subsequence, so that a reviewer sees the lines
 * that move, not the whole body removed and added again.
 */
#define NO_NEWLINE "\\ No newline at end of file\n"

/*
 * The changed lines, old O[0..NO) against new N[0..NN). UNTERMINATED: the
 * last old line is the file's last and has no newline: it is removed
 * (with the marker git apply needs) and never kept as context, so that
 * the new lines, each with its newline, follow it.
 */
static void emit_changed(struct strbuf *out, const struct span *o, size_t no, const struct span *n,
			 size_t nn, bool unterminated)
{
	if ((no + 1) * (nn + 1) > LCS_CELLS || unterminated) {
		for (size_t i = 0; i < no; i++)
			emit_line(out, '-', &o[i]);
		if (unterminated && no)
			sb_adds(out, NO_NEWLINE);
		for (size_t j = 0; j < nn; j++)
			emit_line(out, '+', &n[j]);
		return;
	}
	uint32_t *dp = xcalloc((no + 1) * (nn + 1), sizeof(*dp));
#define DP(i, j) dp[(i) * (nn + 1) + (j)]

	for (size_t i = no; i-- > 0;)
		for (size_t j = nn; j-- > 0;)
			DP(i, j) = span_eq(&o[i], &n[j]) ? DP(i + 1, j + 1) + 1 :
				   DP(i + 1, j) > DP(i, j + 1) ? DP(i + 1, j) : DP(i, j + 1);
	size_t i = 0, j = 0;

	while (i < no || j < nn) {
		if (i < no && j < nn && span_eq(&o[i], &n[j]) && DP(i, j) == DP(i + 1, j + 1) + 1) {
			emit_line(out, ' ', &o[i]);
			i++;
			j++;
		} else if (i < no && (j == nn || DP(i + 1, j) >= DP(i, j + 1))) {
			emit_line(out, '-', &o[i++]);
		} else {
			emit_line(out, '+', &n[j++]);
		}
	}
#undef DP
	free(dp);
}

int ll_source_hunk(const struct ll_source *src, const struct ll_suggestion *sg,
		   const struct ll_patch_opts *opts, long line_delta, struct strbuf *out,
		   unsigned *old_start, long *new_delta, struct strbuf *why)
{
	struct lines now = { 0 }, old = { 0 };
	unsigned first = src->body_first;
	int rc = 1;

	if (new_region(src, sg, opts, &now, why)) {
		lines_release(&now);
		return -1;
	}
	for (unsigned line = first; line <= src->end_line; line++)
		push_file_line(&old, src, line);
	size_t pre = 0, post = 0;

	while (pre < old.n && pre < now.n && span_eq(&old.v[pre], &now.v[pre]))
		pre++;
	while (post < old.n - pre && post < now.n - pre &&
	       span_eq(&old.v[old.n - 1 - post], &now.v[now.n - 1 - post]))
		post++;
	if (pre == old.n && pre == now.n)
		goto done;
	/* Changed: old lines [a, b) of the file, replaced by now.v[pre .. now.n - post). */
	unsigned a = first + (unsigned)pre, b = first + (unsigned)(old.n - post);
	unsigned ca = a > CONTEXT ? a - CONTEXT : 1, cb = b + CONTEXT;
	bool unterminated = !src->final_newline && b == src->nlines + 1;

	if (ca < 1)
		ca = 1;
	if (cb > src->nlines + 1)
		cb = src->nlines + 1;
	size_t added = now.n - pre - post, removed = b - a;
	unsigned old_len = (b - a) + (a - ca) + (cb - b);
	unsigned new_len = (unsigned)added + (a - ca) + (cb - b);

	*old_start = ca;
	sb_addf(out, "@@ -%u,%u +%ld,%u @@\n", ca, old_len, (long)ca + line_delta, new_len);
	for (unsigned line = ca; line < a; line++) {
		sb_addc(out, ' ');
		sb_add(out, src->text + src->line_off[line], sp_line_len(src, line));
		sb_addc(out, '\n');
	}
	emit_changed(out, &old.v[pre], b - a, &now.v[pre], added, unterminated);
	for (unsigned line = b; line < cb; line++) {
		sb_addc(out, ' ');
		sb_add(out, src->text + src->line_off[line], sp_line_len(src, line));
		sb_addc(out, '\n');
		/* The file's last line, both sides: git apply needs to be told it has no newline. */
		if (line == src->nlines && !src->final_newline)
			sb_adds(out, NO_NEWLINE);
	}
	*new_delta = line_delta + (long)added - (long)removed;
	rc = 0;
done:
	lines_release(&now);
	lines_release(&old);
	return rc;
}
