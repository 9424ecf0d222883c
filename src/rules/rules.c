// SPDX-License-Identifier: GPL-2.0-or-later
/* The rules language parser (rules.md). Errors are FILE:LINE:COL. */
#include "rules/rules.h"
#include "util/read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checks/catalog.h"
#include "util/c_ident.h"
#include "util/dir_names.h"
#include "util/hash.h"
#include "util/pathglob.h"
#include "util/strbuf.h"

#define MAX_RULES_FILE (64u << 20)
#define MAX_DIR_DEPTH 32

const char *ll_rule_id_static(const char *id)
{
	const struct ll_check_def *d = ll_check_find(id);

	return d ? d->id : NULL;
}

/* "a, b, c or d": every check id, for the message on an unknown one. */
static void check_ids(struct strbuf *out)
{
	size_t n;
	const struct ll_check_def *checks = ll_catalog(&n);

	for (size_t i = 0; i < n; i++)
		sb_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", checks[i].id);
}

bool ll_rule_id_known(const char *id)
{
	return ll_rule_id_static(id) != NULL;
}

/* ---- lexing ------------------------------------------------------------ */

struct word {
	const char *s;
	size_t n;
	unsigned column;	/* 1-based, in bytes as gcc counts them */
};

struct parser {
	struct ll_rules *rules;
	const char *file;
	unsigned line;
	unsigned file_cacheline;	/* "cacheline" before the first block */
	unsigned file_cacheline_line;
	struct ll_block *block;		/* the block statements go to */
	unsigned instance;		/* counts struct/union lines, across files */
	struct ll_error *err;
};

static int fail_at(struct parser *p, unsigned column, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct parser *p, unsigned column, const char *fmt, ...)
{
	char msg[LL_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ll_fail(p->err, "%s:%u:%u: error: %s", p->file, p->line, column, msg);
	p->err->located = true;
	return -1;
}

/* Check one line's bytes and cut it into words, dropping the comment. */
static int split_words(struct parser *p, const char *line, size_t len,
		       struct word **words, size_t *nr)
{
	size_t i = 0, cap = 0;

	*words = NULL;
	*nr = 0;
	for (size_t k = 0; k < len;) {
		size_t u = ll_utf8_len((const unsigned char *)line + k, len - k);

		if (line[k] == '\0')
			return fail_at(p, (unsigned)k + 1, "NUL byte in rules text");
		if (!u)
			return fail_at(p, (unsigned)k + 1, "invalid UTF-8 byte 0x%02x",
				       (unsigned char)line[k]);
		k += u;
	}
	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i >= len || line[i] == '#')
			break;
		size_t start = i, end;

		/* 'ns::Pair<int, char>': a C++ or Rust name may hold blanks. */
		if (line[i] == '\'') {
			const char *close = memchr(line + i + 1, '\'', len - i - 1);

			if (!close)
				return fail_at(p, (unsigned)i + 1, "unterminated quote (a quoted name "
					       "ends with ')");
			start = i + 1;
			end = (size_t)(close - line);
			i = end + 1;
		} else {
			while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
			       line[i] != '#')
				i++;
			end = i;
		}
		if (*nr == cap) {
			cap = cap ? cap * 2 : 8;
			*words = xrealloc(*words, cap * sizeof(**words));
		}
		(*words)[(*nr)++] = (struct word){ line + start, end - start, (unsigned)start + 1 };
	}
	return 0;
}

static bool word_is(const struct word *w, const char *s)
{
	return strlen(s) == w->n && memcmp(w->s, s, w->n) == 0;
}

static char *word_dup(const struct word *w)
{
	char *s = xmalloc(w->n + 1);

	memcpy(s, w->s, w->n);
	s[w->n] = '\0';
	return s;
}

static int parse_number(struct parser *p, const struct word *w, uint64_t *out)
{
	uint64_t v = 0;

	if (w->n == 0 || w->n > 19)
		return fail_at(p, w->column, "expected a number, got '%.*s'", (int)w->n, w->s);
	for (size_t i = 0; i < w->n; i++) {
		if (w->s[i] < '0' || w->s[i] > '9')
			return fail_at(p, w->column, "expected a number, got '%.*s'",
				       (int)w->n, w->s);
		v = v * 10 + (uint64_t)(w->s[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * A C name, or a C++ or Rust one: identifiers joined by "::", each maybe
 * with template arguments in balanced <> (any text but control bytes:
 * "ns::Box<int>", "Pair<int, char>", "Wrapper<&str>").
 */
static bool is_name(const struct word *w)
{
	size_t i = 0;

	for (;;) {
		size_t start = i;
		int depth = 0;

		if (i >= w->n || (w->s[i] >= '0' && w->s[i] <= '9'))
			return false;
		while (i < w->n && ll_c_ident_byte(w->s[i]))
			i++;
		if (i == start)
			return false;
		if (i < w->n && w->s[i] == '<') {
			for (; i < w->n; i++) {
				unsigned char c = (unsigned char)w->s[i];

				if (c < 0x20 || c == 0x7f)
					return false;
				depth += c == '<' ? 1 : c == '>' ? -1 : 0;
				if (depth == 0) {
					i++;
					break;
				}
			}
			if (depth)
				return false;
		}
		if (i == w->n)
			return true;
		if (i + 2 >= w->n || w->s[i] != ':' || w->s[i + 1] != ':')
			return false;
		i += 2;
	}
}

/* ---- statements -------------------------------------------------------- */

static int parse_pattern(struct parser *p, const struct word *w, struct ll_pattern *pat)
{
	const char *s = w->s;
	size_t n = w->n;
	unsigned col = w->column;

	memset(pat, 0, sizeof(*pat));
	pat->file = p->file;
	pat->line = p->line;
	pat->column = col;
	if (n && s[0] == '?') {
		pat->optional = true;
		s++;
		n--;
		col++;
	}
	if (!n)
		return fail_at(p, col, "expected a member pattern after '?'");
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!ll_c_ident_byte(c) && c != '.' && c != '*' && c != '?' && c != '[' &&
		    c != ']' && c != '!' && c != '-' && c != '^')
		{
			size_t clen = ll_utf8_len((const unsigned char *)s + i, n - i);

			return fail_at(p, col + (unsigned)i,
				       "unexpected '%.*s' in member pattern (expected a C member name, "
				       "'.', or glob characters * ? [ ])", (int)(clen ? clen : 1), s + i);
		}
	}
	pat->text = xmalloc(n + 1);
	memcpy(pat->text, s, n);
	pat->text[n] = '\0';
	for (size_t i = 0, start = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		if (i == start)
			return fail_at(p, col + (unsigned)i, "empty component in member pattern '%.*s'",
				       (int)n, s);
		char *comp = xmalloc(i - start + 1);

		memcpy(comp, s + start, i - start);
		comp[i - start] = '\0';
		pat->components = xrealloc(pat->components,
					   (pat->nr_components + 1) * sizeof(*pat->components));
		pat->components[pat->nr_components++] = comp;
		if (!ll_has_glob_chars(comp))
			pat->exact_components++;
		start = i + 1;
	}
	return 0;
}

static void pattern_release(struct ll_pattern *pat)
{
	ll_strv_free(pat->components, pat->nr_components);
	free(pat->text);
}

static void stmt_release(struct ll_stmt *st)
{
	for (size_t i = 0; i < st->nr_patterns; i++)
		pattern_release(&st->patterns[i]);
	free(st->patterns);
	free(st->domain);
	free(st->group);
}

static int add_patterns(struct parser *p, struct ll_stmt *st, const struct word *words,
			size_t nr, const struct word *keyword)
{
	if (nr == 0)
		return fail_at(p, keyword->column + (unsigned)keyword->n,
			       "expected at least one member pattern after '%.*s'",
			       (int)keyword->n, keyword->s);
	st->patterns = xcalloc(nr, sizeof(*st->patterns));
	for (size_t i = 0; i < nr; i++) {
		/* Counted first, so a half-parsed pattern is released with the rest. */
		st->nr_patterns++;
		if (parse_pattern(p, &words[i], &st->patterns[i]))
			return -1;
	}
	return 0;
}

static size_t block_hash(enum ll_kind kind, const char *name)
{
	return (size_t)ll_fnv1a_str(LL_FNV_INIT ^ (uint64_t)kind, name);
}

static uint64_t block_hash_at(const void *ctx, size_t i)
{
	const struct ll_rules *rules = ctx;

	return block_hash(rules->blocks[i].kind, rules->blocks[i].name);
}

/*
 * Index the newest block. Blocks of one kind and name stay in the order
 * they were opened along their probe (util/slot_table.h keeps it).
 */
static void index_add(struct ll_rules *rules)
{
	size_t i = rules->nr_blocks - 1;

	ll_slots_reserve(&rules->by_name, rules->nr_blocks, block_hash_at, rules);
	ll_slots_add(&rules->by_name, block_hash_at(rules, i), i);
}

/* The first block opened of KIND NAME (and IN_GLOB, unless ANY_GLOB), or NULL. */
static struct ll_block *first_block(struct ll_rules *rules, enum ll_kind kind, const char *name,
				    const char *in_glob, bool any_glob)
{
	for (size_t at = ll_slots_first(&rules->by_name, block_hash(kind, name));
	     ll_slots_get(&rules->by_name, at); at = ll_slots_next(&rules->by_name, at)) {
		struct ll_block *b = &rules->blocks[ll_slots_get(&rules->by_name, at) - 1];

		if (b->kind == kind && strcmp(b->name, name) == 0 &&
		    (any_glob || (!b->in_glob && !in_glob) ||
		     (b->in_glob && in_glob && strcmp(b->in_glob, in_glob) == 0)))
			return b;
	}
	return NULL;
}

static struct ll_block *find_block(struct ll_rules *rules, enum ll_kind kind, const char *name,
				   const char *in_glob)
{
	return first_block(rules, kind, name, in_glob, false);
}

static int open_named(struct parser *p, unsigned column, enum ll_kind kind, char *name,
		      char *in_glob);

/*
 * "globals" and "percpu": the binary's variables (.data..percpu's for
 * percpu), one block as a struct's members are.
 */
static int open_globals(struct parser *p, const struct word *w, size_t nr)
{
	bool percpu = word_is(&w[0], "percpu");

	if (nr > 1)
		return fail_at(p, w[1].column, "unexpected '%.*s' after '%s'",
			       (int)w[1].n, w[1].s, percpu ? "percpu" : "globals");
	return open_named(p, w[0].column, LL_GLOBALS,
			  xstrdup(percpu ? LL_PERCPU_NAME : LL_GLOBALS_NAME), NULL);
}

static int open_block(struct parser *p, const struct word *w, size_t nr)
{
	enum ll_kind kind = word_is(&w[0], "union") ? LL_UNION : LL_STRUCT;
	char *name, *in_glob = NULL;

	if (nr < 2)
		return fail_at(p, w[0].column + (unsigned)w[0].n, "expected a %s name",
			       ll_kind_name(kind));
	if (!is_name(&w[1]))
		return fail_at(p, w[1].column, "expected a %s name, got '%.*s'",
			       ll_kind_name(kind), (int)w[1].n, w[1].s);
	if (nr >= 3 && !word_is(&w[2], "in"))
		return fail_at(p, w[2].column, "expected 'in PATH-GLOB' or the end of the line, "
			       "got '%.*s'", (int)w[2].n, w[2].s);
	if (nr == 3)
		return fail_at(p, w[2].column + 2, "expected a path glob after 'in'");
	if (nr > 4)
		return fail_at(p, w[4].column, "unexpected '%.*s' after the path glob",
			       (int)w[4].n, w[4].s);
	name = word_dup(&w[1]);
	if (nr == 4)
		in_glob = word_dup(&w[3]);
	return open_named(p, w[0].column, kind, name, in_glob);
}

/* Open (or reopen, to merge) the block of KIND NAME; takes NAME and IN_GLOB. */
static int open_named(struct parser *p, unsigned column, enum ll_kind kind, char *name,
		      char *in_glob)
{
	struct ll_block *b = find_block(p->rules, kind, name, in_glob);

	if (b) {
		/* Same aggregate again: merge, but the geometry must agree. */
		unsigned cl = p->file_cacheline;

		if (cl && b->cacheline && cl != b->cacheline) {
			free(name);
			free(in_glob);
			return fail_at(p, column, "%s %s: cacheline %u here, but %u at %s:%u",
				       ll_kind_name(kind), b->name, cl, b->cacheline,
				       b->cacheline_file, b->cacheline_line);
		}
		if (cl && !b->cacheline) {
			b->cacheline = cl;
			b->cacheline_in_block = false;
			b->cacheline_file = p->file;
			b->cacheline_line = p->file_cacheline_line;
		}
		free(name);
		free(in_glob);
		p->block = b;
		b->instance = ++p->rules->instances;
		b->cacheline_from_instance = cl ? b->instance : b->cacheline_from_instance;
		return 0;
	}
	p->rules->blocks = xgrow(p->rules->blocks, p->rules->nr_blocks,
				 sizeof(*p->rules->blocks));
	b = &p->rules->blocks[p->rules->nr_blocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->name = name;
	index_add(p->rules);
	b->in_glob = in_glob;
	b->cacheline = p->file_cacheline;
	b->cacheline_file = p->file;
	b->cacheline_line = p->file_cacheline_line;
	b->instance = ++p->rules->instances;
	b->cacheline_from_instance = b->instance;
	b->file = p->file;
	b->line = p->line;
	b->column = column;
	p->block = b;
	return 0;
}

/*
 * A statement of one word and one argument had NR words: MISSING at the
 * end of the first, or EXTRA at the third.
 */
static int one_argument(struct parser *p, const struct word *w, size_t nr, const char *missing,
			const char *extra)
{
	if (nr < 2)
		return fail_at(p, w[0].column + (unsigned)w[0].n, "%s", missing);
	return fail_at(p, w[2].column, "%s", extra);
}

static int parse_cacheline(struct parser *p, const struct word *w, size_t nr)
{
	uint64_t v;

	if (nr != 2)
		return one_argument(p, w, nr, "expected a cacheline size after 'cacheline'",
				    "unexpected word after the cacheline size");
	if (parse_number(p, &w[1], &v))
		return -1;
	if (v < 16 || v > 4096 || (v & (v - 1)))
		return fail_at(p, w[1].column, "cacheline %llu: expected a power of two from 16 "
			       "to 4096", (unsigned long long)v);
	if (!p->block) {
		p->file_cacheline = (unsigned)v;
		p->file_cacheline_line = p->line;
		return 0;
	}
	struct ll_block *b = p->block;

	/*
	 * Inside a block, cacheline overrides the file-level value for that
	 * block only; any other value for the same aggregate (another block
	 * it merges with, or this block's own earlier statement) conflicts.
	 */
	bool inherited_here = !b->cacheline_in_block && b->cacheline_from_instance == b->instance;

	if (b->cacheline && b->cacheline != v && !inherited_here)
		return fail_at(p, w[0].column, "%s %s: cacheline %llu conflicts with cacheline %u "
			       "set for it at %s:%u", ll_kind_name(b->kind), b->name,
			       (unsigned long long)v, b->cacheline, b->cacheline_file,
			       b->cacheline_line);
	b->cacheline = (unsigned)v;
	b->cacheline_in_block = true;
	b->cacheline_from_instance = b->instance;
	b->cacheline_file = p->file;
	b->cacheline_line = p->line;
	return 0;
}

static int parse_align(struct parser *p, const struct word *w, size_t nr)
{
	uint64_t v;

	if (nr != 2)
		return one_argument(p, w, nr, "expected 'align N' or 'align type'",
				    "unexpected word after the alignment");
	if (word_is(&w[1], "type")) {
		v = LL_ALIGN_TYPE;
	} else {
		if (parse_number(p, &w[1], &v))
			return -1;
		if (v == 0 || (v & (v - 1)))
			return fail_at(p, w[1].column, "align %llu: expected a power of two or 'type'",
				       (unsigned long long)v);
	}
	if (p->block->align && p->block->align != v)
		return fail_at(p, w[0].column, "%s %s: conflicting 'align' (already set at %s:%u)",
			       ll_kind_name(p->block->kind), p->block->name, p->block->align_file,
			       p->block->align_line);
	p->block->align = v;
	p->block->align_file = p->file;
	p->block->align_line = p->line;
	return 0;
}

static struct ll_stmt *new_stmt(struct parser *p, enum ll_stmt_kind kind)
{
	struct ll_block *b = p->block;

	b->stmts = xgrow(b->stmts, b->nr_stmts, sizeof(*b->stmts));
	struct ll_stmt *st = &b->stmts[b->nr_stmts++];

	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->line = p->line;
	st->file = p->file;
	return st;
}

static int parse_tag(struct parser *p, const struct word *w, size_t nr)
{
	struct ll_stmt *st;
	enum ll_tag tag;
	const char *colon = memchr(w[0].s, ':', w[0].n);
	size_t kw_len = colon ? (size_t)(colon - w[0].s) : w[0].n;
	struct word kw = { w[0].s, kw_len, w[0].column };

	if (word_is(&kw, "read-mostly"))
		tag = LL_READ_MOSTLY;
	else if (word_is(&kw, "write-hot"))
		tag = LL_WRITE_HOT;
	else
		tag = LL_COLD;
	if (colon && tag == LL_COLD)
		return fail_at(p, w[0].column + (unsigned)kw_len,
			       "only write-hot and read-mostly take a :DOMAIN");
	st = new_stmt(p, LL_STMT_TAG);
	st->tag = tag;
	if (colon) {
		struct word dom = { colon + 1, w[0].n - kw_len - 1,
				    w[0].column + (unsigned)kw_len + 1 };
		bool ok = dom.n > 0;

		for (size_t i = 0; i < dom.n; i++)
			if (!ll_c_ident_byte(dom.s[i]) && dom.s[i] != '-')
				ok = false;
		if (!ok)
			return fail_at(p, dom.column, "expected a domain word after '%.*s:' "
				       "(letters, digits, '_' or '-')", (int)kw.n, kw.s);
		st->domain = word_dup(&dom);
	}
	return add_patterns(p, st, w + 1, nr - 1, &w[0]);
}

static int parse_allow(struct parser *p, const struct word *w, size_t nr)
{
	struct ll_stmt *st;
	char *id;

	if (nr < 2)
		return fail_at(p, w[0].column + 5, "expected a rule id after 'allow'");
	id = word_dup(&w[1]);
	if (!ll_rule_id_known(id)) {
		struct strbuf ids = STRBUF_INIT;

		check_ids(&ids);
		fail_at(p, w[1].column, "unknown rule id '%s' (expected %s)", id, ids.buf);
		sb_release(&ids);
		free(id);
		return -1;
	}
	st = new_stmt(p, LL_STMT_ALLOW);
	st->allow_rule = ll_rule_id_static(id);
	free(id);
	return add_patterns(p, st, w + 2, nr - 2, &w[1]);
}

static int parse_group(struct parser *p, const struct word *w, size_t nr)
{
	struct ll_stmt *st;
	bool ok = nr >= 2;

	for (size_t i = 0; ok && i < w[1].n; i++)
		if (!ll_c_ident_byte(w[1].s[i]) && w[1].s[i] != '-')
			ok = false;
	if (!ok)
		return fail_at(p, nr >= 2 ? w[1].column : w[0].column + 5,
			       "expected a group name after 'group' (letters, digits, '_' or '-')");
	st = new_stmt(p, LL_STMT_GROUP);
	st->group = word_dup(&w[1]);
	st->column = w[0].column;
	return add_patterns(p, st, w + 2, nr - 2, &w[1]);
}

/* "constructors GLOB...": function names whose stores initialise the struct (--access). */
static int parse_constructors(struct parser *p, const struct word *w, size_t nr)
{
	struct ll_block *b = p->block;

	if (nr < 2)
		return fail_at(p, w[0].column + 12, "expected function name patterns after "
			       "'constructors'");
	for (size_t i = 1; i < nr; i++) {
		for (size_t k = 0; k < w[i].n; k++)
			if (!ll_c_ident_byte(w[i].s[k]) && !strchr("*?[]!", w[i].s[k]))
				return fail_at(p, w[i].column + (unsigned)k, "expected a function "
					       "name or a shell pattern of one, not '%.*s'",
					       (int)w[i].n, w[i].s);
		b->constructors = xgrow(b->constructors, b->nr_constructors,
					sizeof(*b->constructors));
		b->constructors[b->nr_constructors++] = word_dup(&w[i]);
	}
	return 0;
}

static int parse_statement(struct parser *p, const struct word *w, size_t nr)
{
	if (word_is(&w[0], "struct") || word_is(&w[0], "union"))
		return open_block(p, w, nr);
	if (word_is(&w[0], "globals") || word_is(&w[0], "percpu"))
		return open_globals(p, w, nr);
	if (word_is(&w[0], "cacheline"))
		return parse_cacheline(p, w, nr);
	if (word_is(&w[0], "rules-version")) {
		uint64_t v;

		if (nr != 2)
			return fail_at(p, w[0].column, "expected 'rules-version N'");
		if (parse_number(p, &w[1], &v))
			return -1;
		if (v != 1)
			return fail_at(p, w[1].column, "rules-version %llu is not supported by this "
				       "layoutlint (it reads version 1)", (unsigned long long)v);
		return 0;
	}

	bool is_tag = word_is(&w[0], "read-mostly") || word_is(&w[0], "cold") ||
		      (w[0].n >= 9 && memcmp(w[0].s, "write-hot", 9) == 0 &&
		       (w[0].n == 9 || w[0].s[9] == ':')) ||
		      (w[0].n > 11 && memcmp(w[0].s, "read-mostly:", 12) == 0) ||
		      (w[0].n > 4 && memcmp(w[0].s, "cold:", 5) == 0);
	bool known = is_tag || word_is(&w[0], "align") || word_is(&w[0], "pin") ||
		     word_is(&w[0], "allow") || word_is(&w[0], "group") ||
		     word_is(&w[0], "constructors");

	if (!known)
		return fail_at(p, w[0].column, "unknown statement '%.*s' (expected struct, union, "
			       "globals, percpu, cacheline, read-mostly, write-hot, cold, align, pin, allow, group or constructors)",
			       (int)w[0].n, w[0].s);
	if (!p->block)
		return fail_at(p, w[0].column, "'%.*s' outside a block: open one with "
			       "'struct NAME' or 'union NAME' first", (int)w[0].n, w[0].s);
	if (is_tag)
		return parse_tag(p, w, nr);
	if (word_is(&w[0], "align"))
		return parse_align(p, w, nr);
	if (word_is(&w[0], "pin")) {
		struct ll_stmt *st = new_stmt(p, LL_STMT_PIN);
		/* "pin last" alone still pins a member named "last". */
		bool last = nr > 2 && word_is(&w[1], "last");

		st->pin_last = last;
		return add_patterns(p, st, w + 1 + last, nr - 1 - last, &w[0]);
	}
	if (word_is(&w[0], "group"))
		return parse_group(p, w, nr);
	if (word_is(&w[0], "constructors"))
		return parse_constructors(p, w, nr);
	return parse_allow(p, w, nr);
}

int ll_rules_parse(struct ll_rules *rules, const char *file, const char *text, size_t len,
		   struct ll_error *err)
{
	struct parser p = { .rules = rules, .err = err };

	rules->files = xgrow(rules->files, rules->nr_files, sizeof(*rules->files));
	rules->files[rules->nr_files++] = xstrdup(file);
	p.file = rules->files[rules->nr_files - 1];
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		struct word *words;
		size_t nr;
		int rc;

		p.line++;
		rc = split_words(&p, text + pos, end - pos, &words, &nr);
		if (!rc && nr)
			rc = parse_statement(&p, words, nr);
		free(words);
		if (rc)
			return -1;
		pos = end + 1;
	}
	return 0;
}

/* ---- files and directories -------------------------------------------- */

static int load_file(struct ll_rules *rules, const char *path, struct ll_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc, why;

	if (ll_read_regular(path, MAX_RULES_FILE, &sb, &why)) {
		sb_release(&sb);
		if (why == LL_READ_TOO_LARGE)
			return ll_fail(err, "%s: rules file larger than %u MB", path,
				       MAX_RULES_FILE >> 20);
		return ll_fail(err, "%s: %s", path, ll_read_error_text(why, MAX_RULES_FILE));
	}
	rc = ll_rules_parse(rules, path, sb.buf ? sb.buf : "", sb.len, err);
	sb_release(&sb);
	return rc;
}

static int load_dir(struct ll_rules *rules, const char *dir, int depth, struct ll_error *err)
{
	char **names;
	size_t n;
	int rc = 0;

	if (depth > MAX_DIR_DEPTH)
		return ll_fail(err, "%s: rules directories nested deeper than %d", dir,
			       MAX_DIR_DEPTH);
	if (ll_dir_names(dir, &names, &n))
		return ll_fail(err, "%s: %s", dir, strerror(errno));
	for (size_t i = 0; i < n && !rc; i++) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;
		size_t len = strlen(names[i]);

		sb_addf(&path, "%s/%s", dir, names[i]);
		if (stat(path.buf, &st) != 0)
			rc = ll_fail(err, "%s: %s", path.buf, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			rc = load_dir(rules, path.buf, depth + 1, err);
		else if (len > 6 && strcmp(names[i] + len - 6, ".rules") == 0)
			rc = load_file(rules, path.buf, err);
		sb_release(&path);
	}
	ll_strv_free(names, n);
	return rc;
}

int ll_rules_load(struct ll_rules *rules, const char *path, struct ll_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return ll_fail(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return load_dir(rules, path, 0, err);
	return load_file(rules, path, err);
}

void ll_rules_release(struct ll_rules *rules)
{
	for (size_t i = 0; i < rules->nr_blocks; i++) {
		struct ll_block *b = &rules->blocks[i];

		for (size_t j = 0; j < b->nr_stmts; j++)
			stmt_release(&b->stmts[j]);
		free(b->stmts);
		ll_strv_free(b->constructors, b->nr_constructors);
		free(b->name);
		free(b->in_glob);
	}
	free(rules->blocks);
	ll_slots_release(&rules->by_name);
	ll_strv_free(rules->files, rules->nr_files);
	memset(rules, 0, sizeof(*rules));
}

struct ll_block *ll_rules_find(struct ll_rules *rules, enum ll_kind kind, const char *name)
{
	return first_block(rules, kind, name, NULL, true);
}
