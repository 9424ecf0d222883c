// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=sarif: SARIF 2.1.0 as GitHub code scanning takes it. One run,
 * whatever the number of binaries; the driver lists every rule id; each
 * result is located at the member's declaring file (a relative URI under
 * %SRCROOT%, which originalUriBaseIds resolves, or a file: URI when the
 * path is absolute; its struct's binary when the input has no file, as BTF
 * has none), names the struct and member as logical locations, carries
 * our fingerprint in partialFingerprints and the notes as related locations.
 * Under gating, review tools also get what the text leaves out: the
 * findings the reference already had (unchanged, suppressed) and its pairs
 * that vanished (absent), each result with its baselineState.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gating/baseline.h"
#include "config.h"
#include "util/hash.h"
#include "util/json_writer.h"
#include "report/describe.h"
#include "model/profile.h"
#include "report/report.h"

#include "checks/catalog.h"

#ifndef LAYOUTLINT_URL
#define LAYOUTLINT_URL "https://layoutlint.invalid/"
#endif

#define SARIF_SCHEMA \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define FINGERPRINT_KEY "layoutlint/v1"

static void text_object(struct json_writer *w, const char *key, const char *text)
{
	jw_kbegin_object(w, key);
	jw_kstring(w, "text", text);
	jw_end_object(w);
}

static void driver(struct json_writer *w)
{
	size_t nr_checks;
	const struct ll_check_def *checks = ll_catalog(&nr_checks);

	jw_kbegin_object(w, "tool");
	jw_kbegin_object(w, "driver");
	jw_kstring(w, "name", "layoutlint");
	jw_kstring(w, "version", LAYOUTLINT_VERSION);
	jw_kstring(w, "semanticVersion", LAYOUTLINT_VERSION);
	jw_kstring(w, "informationUri", LAYOUTLINT_URL);
	jw_kbegin_array(w, "rules");
	for (size_t i = 0; i < nr_checks; i++) {
		const struct ll_check_def *r = &checks[i];

		jw_begin_object(w);
		jw_kstring(w, "id", r->id);
		jw_kstring(w, "name", r->sarif_name);
		text_object(w, "shortDescription", r->summary);
		text_object(w, "fullDescription", r->description);
		jw_kbegin_object(w, "help");
		jw_kstring(w, "text", r->help);
		jw_kstring(w, "markdown", r->help);
		jw_end_object(w);
		jw_kbegin_object(w, "defaultConfiguration");
		jw_kstring(w, "level", ll_level_name(r->level));
		jw_end_object(w);
		jw_kbegin_object(w, "properties");
		jw_kbegin_array(w, "tags");
		jw_string(w, "performance");
		jw_string(w, "cacheline");
		jw_end_array(w);
		jw_kstring(w, "precision", "high");
		jw_end_object(w);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
	jw_end_object(w);
}

/* RFC 3986: keep unreserved characters and '/', percent-encode the rest. */
static void add_uri_path(struct strbuf *sb, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			sb_addc(sb, (char)*p);
		else
			sb_addf(sb, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
}

static void artifact(struct json_writer *w, const char *path)
{
	struct strbuf uri = STRBUF_INIT;
	bool absolute = path[0] == '/';

	if (absolute)
		sb_adds(&uri, "file://");
	add_uri_path(&uri, path);
	jw_kbegin_object(w, "artifactLocation");
	jw_kstring(w, "uri", uri.buf);
	if (!absolute)
		jw_kstring(w, "uriBaseId", "%SRCROOT%");
	jw_end_object(w);
	sb_release(&uri);
}

static const char *binary_of(const struct ll_run *run, const struct ll_linted *l)
{
	return l->binary ? l->binary : run->binary_path;
}

/* One logicalLocations entry: a struct ("type") or one of its members ("member"). */
static void logical_location(struct json_writer *w, const char *name, const char *qualified,
			     const char *kind)
{
	jw_begin_object(w);
	jw_kstring(w, "name", name);
	jw_kstring(w, "fullyQualifiedName", qualified);
	jw_kstring(w, "kind", kind);
	jw_end_object(w);
}

static void physical(struct json_writer *w, const char *binary, const struct ll_decl *d)
{
	jw_kbegin_object(w, "physicalLocation");
	if (d->file && d->file[0]) {
		artifact(w, d->file);
		if (d->line) {
			jw_kbegin_object(w, "region");
			jw_kuint(w, "startLine", d->line);
			if (d->column)
				jw_kuint(w, "startColumn", d->column);
			jw_end_object(w);
		}
	} else {
		/* No source location (BTF, or DWARF without a line table): the binary. */
		artifact(w, binary);
	}
	jw_end_object(w);
}

/*
 * Gating: a suppressed result says why, so that code scanning does not
 * raise what the reference already had.
 */
static void suppressed(struct json_writer *w, const struct ll_run *run)
{
	struct strbuf why = STRBUF_INIT;

	sb_addf(&why, "every member pair of this finding is in the reference (%s %s); layoutlint "
		"reports only new pairs", run->gating->against ? "--against" : "--baseline",
		run->gating->reference);
	jw_kbegin_array(w, "suppressions");
	jw_begin_object(w);
	jw_kstring(w, "kind", "external");
	jw_kstring(w, "justification", why.buf);
	jw_end_object(w);
	jw_end_array(w);
	sb_release(&why);
}

/*
 * --profile: what was measured of each member of F, by path: samples,
 * share of the struct's, and reads and writes (null when the profile
 * cannot say loads from stores).
 */
static void measured_members(struct json_writer *w, const struct ll_struct *s,
			     const struct ll_finding *f)
{
	jw_kbegin_object(w, "measured");
	for (size_t i = 0; i < f->nr_members; i++) {
		const struct ll_member *mb = ll_member_at_path(s, f->members[i]);

		if (!mb)
			continue;	/* stale-rule names a pattern */
		jw_key(w, f->members[i]);
		ll_report_measured_json(w, s, mb);
	}
	jw_end_object(w);
}

static size_t located_notes(const struct ll_finding *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr_notes; i++)
		n += f->notes[i].decl.file && f->notes[i].decl.line;
	return n;
}

/*
 * One finding of L: a reported one (M its new pairs under gating, else
 * NULL), or, with UNCHANGED, one gating suppressed.
 */
static void result(struct json_writer *w, const struct ll_run *run, const struct ll_linted *l,
		   const struct ll_finding *f, const struct ll_gate_mark *m, bool unchanged)
{
	const struct ll_struct *s = l->layout;
	const char *binary = binary_of(run, l);
	int idx = ll_check_index(f->rule);
	const struct ll_check_def *def = ll_check_find(f->rule);
	struct strbuf msg = STRBUF_INIT, qname = STRBUF_INIT;

	jw_begin_object(w);
	jw_kstring(w, "ruleId", f->rule);
	if (idx >= 0)
		jw_kuint(w, "ruleIndex", (uint64_t)idx);
	jw_kstring(w, "level", ll_level_name(f->level));
	sb_adds(&msg, f->message ? f->message : f->rule);
	if (m && m->nr_new < m->nr_pairs) {
		sb_adds(&msg, " (new: ");
		ll_gate_describe_new(f, m, &msg);
		sb_adds(&msg, ")");
	}
	text_object(w, "message", msg.buf);
	jw_kbegin_array(w, "locations");
	jw_begin_object(w);
	physical(w, binary, &f->location);
	/*
	 * Every result names the struct, and the member where there is one
	 * (a check that names_pattern, like stale-rule, names a pattern): without source locations (BTF) this
	 * is what says where the finding is.
	 */
	jw_kbegin_array(w, "logicalLocations");
	if (f->nr_members && !(def && def->names_pattern)) {
		/* Where gating located it, when it moved (ll_finding_relocate). */
		const char *member = f->located ? f->located : f->members[0];

		sb_addf(&qname, "%s %s::%s", ll_kind_name(s->kind), s->name, member);
		logical_location(w, member, qname.buf, "member");
		sb_reset(&qname);
	}
	sb_addf(&qname, "%s %s", ll_kind_name(s->kind), s->name);
	logical_location(w, s->name, qname.buf, "type");
	jw_end_array(w);
	jw_end_object(w);
	jw_end_array(w);
	if (located_notes(f)) {
		jw_kbegin_array(w, "relatedLocations");
		for (size_t i = 0; i < f->nr_notes; i++) {
			/*
			 * A note with no source line would point at the whole
			 * binary: review tools show it nowhere useful. The
			 * text output keeps it.
			 */
			if (!f->notes[i].decl.file || !f->notes[i].decl.line)
				continue;
			jw_begin_object(w);
			jw_kuint(w, "id", i + 1);
			physical(w, binary, &f->notes[i].decl);
			text_object(w, "message", f->notes[i].message);
			jw_end_object(w);
		}
		jw_end_array(w);
	}
	jw_kbegin_object(w, "partialFingerprints");
	jw_kstring(w, FINGERPRINT_KEY, f->fingerprint ? f->fingerprint : "");
	jw_end_object(w);
	if (m)
		jw_kstring(w, "baselineState", "new");
	if (unchanged) {
		jw_kstring(w, "baselineState", "unchanged");
		suppressed(w, run);
	}
	jw_kbegin_object(w, "properties");
	sb_reset(&qname);
	sb_addf(&qname, "%s %s", ll_kind_name(s->kind), s->name);
	jw_kstring(w, "struct", qname.buf);
	jw_kstring(w, "tier", ll_tier_name(f->tier));
	jw_kuint_or_null(w, "cacheline", f->cacheline >= 0, (uint64_t)f->cacheline);
	jw_kbegin_array(w, "members");
	for (size_t i = 0; i < f->nr_members; i++)
		jw_string(w, f->members[i]);
	jw_end_array(w);
	jw_key(w, "pairs");
	ll_gate_pairs_json(w, f, NULL);
	if (m) {
		jw_key(w, "newPairs");
		ll_gate_pairs_json(w, f, m);
	}
	if (s->measured)
		measured_members(w, s, f);
	jw_end_object(w);
	jw_end_object(w);
	sb_release(&msg);
	sb_release(&qname);
}

/* A vanished pair's: not a finding's (no finding has exactly one pair's members here). */
static void pair_fingerprint(const struct ll_pairkey *k, char hex[17])
{
	const char *parts[] = { "absent", k->rule, ll_kind_name(k->kind), k->name, k->a,
				k->b ? k->b : "" };
	uint64_t h = LL_FNV_INIT;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		h = ll_fnv1a(ll_fnv1a_str(h, parts[i]), "\xff", 1);
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

/* The struct K is of, as the run linted it (the first: a struct is listed once). */
static const struct ll_linted *linted_of_pair(const struct ll_run *run, const struct ll_pairkey *k)
{
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_struct *s = run->structs[i].layout;

		if (s->kind == k->kind && strcmp(s->name, k->name) == 0)
			return &run->structs[i];
	}
	return NULL;
}

/*
 * Where a vanished pair can be shown: its line of the baseline file, or
 * (--against) the struct's declaration. One with neither (BTF) is left
 * out: a result on the whole binary shows nowhere in a review, and the
 * run's gating properties count it.
 */
static bool absent_located(const struct ll_run *run, const struct ll_pairkey *k)
{
	const struct ll_linted *l;

	if (k->line)
		return true;
	l = linted_of_pair(run, k);
	return l && l->layout->decl.file && l->layout->decl.line;
}

/*
 * A reference pair that no longer occurs: a note, at its line of the
 * baseline file (where --strict-baseline's error is), or, from
 * OLD-BINARY, at the binary, the struct named logically.
 */
static void absent_result(struct json_writer *w, const struct ll_run *run,
			  const struct ll_pairkey *k)
{
	const struct ll_gating *g = run->gating;
	int idx = ll_check_index(k->rule);
	struct strbuf msg = STRBUF_INIT, qname = STRBUF_INIT;
	char fp[17];

	jw_begin_object(w);
	jw_kstring(w, "ruleId", k->rule);
	if (idx >= 0)
		jw_kuint(w, "ruleIndex", (uint64_t)idx);
	jw_kstring(w, "level", "note");
	sb_addf(&msg, "%s pair no longer occurs: ", g->against ? "reference" : "baseline");
	ll_pairkey_describe(k, &msg);
	text_object(w, "message", msg.buf);
	jw_kbegin_array(w, "locations");
	jw_begin_object(w);
	if (k->line) {
		struct ll_decl at = { .file = (char *)g->reference, .line = k->line };

		physical(w, NULL, &at);
	} else {
		/* --against: at the struct's declaration (absent_located() said it has one). */
		physical(w, NULL, &linted_of_pair(run, k)->layout->decl);
	}
	sb_addf(&qname, "%s %s", ll_kind_name(k->kind), k->name);
	jw_kbegin_array(w, "logicalLocations");
	logical_location(w, k->name, qname.buf, "type");
	jw_end_array(w);
	jw_end_object(w);
	jw_end_array(w);
	pair_fingerprint(k, fp);
	jw_kbegin_object(w, "partialFingerprints");
	jw_kstring(w, FINGERPRINT_KEY, fp);
	jw_end_object(w);
	jw_kstring(w, "baselineState", "absent");
	jw_kbegin_object(w, "properties");
	jw_kstring(w, "struct", qname.buf);
	jw_kbegin_array(w, "pair");
	jw_string(w, k->a);
	if (k->b)
		jw_string(w, k->b);
	jw_end_array(w);
	jw_end_object(w);
	jw_end_object(w);
	sb_release(&msg);
	sb_release(&qname);
}

/* %SRCROOT%, which relative artifact URIs are relative to (cli.md). */
static void uri_base_ids(struct json_writer *w, const struct ll_run *run)
{
	struct strbuf uri = STRBUF_INIT;
	size_t len;

	if (!run->srcroot || run->srcroot[0] != '/')
		return;
	sb_adds(&uri, "file://");
	add_uri_path(&uri, run->srcroot);
	len = strlen(run->srcroot);
	if (run->srcroot[len - 1] != '/')
		sb_addc(&uri, '/');
	jw_kbegin_object(w, "originalUriBaseIds");
	jw_kbegin_object(w, "%SRCROOT%");
	jw_kstring(w, "uri", uri.buf);
	jw_end_object(w);
	jw_end_object(w);
	sb_release(&uri);
}

/*
 * --base-revision: the commit the reference was built from, where code
 * scanning looks for it; the files under %SRCROOT% are that commit plus
 * the change under review.
 */
static void provenance(struct json_writer *w, const struct ll_run *run)
{
	const struct ll_gating *g = run->gating;
	struct strbuf uri = STRBUF_INIT;

	if (!g || !g->revision)
		return;
	if (g->repository) {
		sb_adds(&uri, g->repository);
	} else if (run->srcroot && run->srcroot[0] == '/') {
		sb_adds(&uri, "file://");
		add_uri_path(&uri, run->srcroot);
	} else {
		return;	/* repositoryUri is required */
	}
	jw_kbegin_array(w, "versionControlProvenance");
	jw_begin_object(w);
	jw_kstring(w, "repositoryUri", uri.buf);
	jw_kstring(w, "revisionId", g->revision);
	if (run->srcroot && run->srcroot[0] == '/') {
		jw_kbegin_object(w, "mappedTo");
		jw_kstring(w, "uriBaseId", "%SRCROOT%");
		jw_end_object(w);
	}
	jw_kbegin_object(w, "properties");
	jw_kstring(w, "role", "reference");
	jw_kstring(w, "reference", g->reference);
	jw_end_object(w);
	jw_end_object(w);
	jw_end_array(w);
	sb_release(&uri);
}

static void run_properties(struct json_writer *w, const struct ll_run *run)
{
	const struct ll_gating *g = run->gating;

	jw_kbegin_object(w, "properties");
	jw_kbegin_object(w, "binary");
	jw_kstring(w, "path", run->binary_path);
	jw_kstring(w, "build_id", run->build_id);
	jw_end_object(w);
	if (run->binaries) {
		jw_key(w, "binaries");
		ll_report_binaries_json(w, run);
	}
	if (g) {
		jw_key(w, "gating");
		ll_report_gating_json(w, g);
	}
	jw_end_object(w);
}

/*
 * The run's notes (ll_run's), as the invocation's notifications: SARIF's
 * place for what a tool says about its run rather than about the code.
 */
static void notifications(struct json_writer *w, const struct ll_notes *notes)
{
	if (!notes || !notes->n)
		return;
	jw_kbegin_array(w, "toolExecutionNotifications");
	for (size_t i = 0; i < notes->n; i++) {
		jw_begin_object(w);
		jw_kstring(w, "level", "note");
		jw_kbegin_object(w, "message");
		jw_kstring(w, "text", notes->v[i]);
		jw_end_object(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}

void ll_report_sarif(const struct ll_run *run, struct strbuf *out)
{
	struct json_writer w;

	jw_init(&w, true);
	jw_begin_object(&w);
	jw_kstring(&w, "$schema", SARIF_SCHEMA);
	jw_kstring(&w, "version", "2.1.0");
	jw_kbegin_array(&w, "runs");
	jw_begin_object(&w);
	driver(&w);
	uri_base_ids(&w, run);
	provenance(&w, run);
	jw_kbegin_array(&w, "results");
	for (size_t i = 0; i < run->nr_structs; i++) {
		const struct ll_linted *l = &run->structs[i];

		for (size_t k = 0; k < l->findings.n; k++)
			result(&w, run, l, &l->findings.v[k], l->marks ? &l->marks[k] : NULL, false);
		for (size_t k = 0; k < l->unchanged.n; k++)
			result(&w, run, l, &l->unchanged.v[k], NULL, true);
	}
	for (size_t i = 0; run->gating && i < run->gating->nr_vanished; i++)
		if (absent_located(run, &run->gating->vanished[i]))
			absent_result(&w, run, &run->gating->vanished[i]);
	jw_end_array(&w);
	jw_kbegin_array(&w, "invocations");
	jw_begin_object(&w);
	jw_kbool(&w, "executionSuccessful", true);
	notifications(&w, run->notes);
	jw_end_object(&w);
	jw_end_array(&w);
	run_properties(&w, run);
	jw_end_object(&w);
	jw_end_array(&w);
	jw_end_object(&w);
	sb_addc(&w.out, '\n');
	sb_add(out, w.out.buf, w.out.len);
	jw_release(&w);
}
