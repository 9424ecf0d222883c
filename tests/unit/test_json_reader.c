// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the JSON reader (src/util/json_reader.c): decoding through
 * json_parse() itself, errors through ll_baseline_load(), the reader's one
 * caller, so the FILE:LINE:COL messages are checked as users see them. What RFC 8259 accepts must read as the values it means
 * (escapes, surrogate pairs, numbers spelt several ways, whitespace, a
 * byte order mark, duplicate keys, nesting to the limit); everything else
 * fails with one message naming FILE:LINE:COLUMN of the offending byte.

 */
#include <check.h>	/* the Check framework */
#ifndef CHECK_MAJOR_VERSION
#error "the Check framework's check.h was not found"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/gating/baseline.h"
#include "../../src/util/json_reader.h"
#include "../../src/util/strbuf.h"

/* TEXT (LEN bytes: it may hold a NUL) in a new temporary file; its path, malloc'd. */
static char *write_temp(const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct strbuf path = STRBUF_INIT;
	int fd;

	sb_addf(&path, "%s/layoutlint-json-XXXXXX", dir);
	fd = mkstemp(path.buf);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	return sb_detach(&path);
}

struct loaded {
	int rc;
	struct ll_pairset set;
	struct ll_error err;
	char *path;
};

static struct loaded load_n(const char *text, size_t len)
{
	struct loaded l;

	memset(&l, 0, sizeof(l));
	l.path = write_temp(text, len);
	l.rc = ll_baseline_load(l.path, &l.set, &l.err);
	return l;
}

static struct loaded load(const char *text)
{
	return load_n(text, strlen(text));
}

static void done(struct loaded *l)
{
	unlink(l->path);
	free(l->path);
	ll_pairset_release(&l->set);
}

/* TEXT fails with exactly "PATH:LINE:COL: malformed baseline: WHAT". */
static void fails_at_n(const char *text, size_t len, unsigned line, unsigned col,
		       const char *what)
{
	struct loaded l = load_n(text, len);
	char want[4096];

	snprintf(want, sizeof(want), "%s:%u:%u: malformed baseline: %s", l.path, line, col, what);
	ck_assert_msg(l.rc == -1, "accepted: %s", text);
	ck_assert_str_eq(l.err.msg, want);
	ck_assert_uint_eq(l.set.n, 0);
	done(&l);
}

static void fails_at(const char *text, unsigned line, unsigned col, const char *what)
{
	fails_at_n(text, strlen(text), line, col, what);
}

#define DOC(pairs) "{\"layoutlint-baseline\": 1, \"pairs\": [" pairs "]}"
#define ENTRY(a) "{\"rule\": \"mixed-cacheline\", \"struct\": \"struct s\", \"pair\": [" a "]}"

/*
 * The one entry of a document whose pair is ["x", A]: A as the JSON reader
 * decodes it (json_parse itself: the baseline loader escapes control
 * characters afterwards, as it does for every name from an input).
 */
static char *second_path(const char *doc)
{
	struct json_value v;
	struct ll_error err;
	const struct json_value *pairs, *pair;
	char *r;

	ck_assert_msg(json_parse("doc", "malformed baseline", doc, strlen(doc), &v, &err) == 0,
		      "%s: %s", doc, err.msg);
	pairs = json_member(&v, "pairs");
	ck_assert_ptr_nonnull(pairs);
	ck_assert_uint_eq(pairs->n, 1);
	pair = json_member(&pairs->items[0], "pair");
	ck_assert_ptr_nonnull(pair);
	ck_assert_uint_eq(pair->n, 2);
	ck_assert_str_eq(pair->items[0].str, "x");
	ck_assert_int_eq(pair->items[1].type, JSON_STRING);
	r = strdup(pair->items[1].str);
	json_value_release(&v);
	return r;
}

/* ---- what must read ---------------------------------------------------------- */

START_TEST(test_minimal_and_entries)
{
	struct loaded l = load(DOC(""));

	ck_assert_int_eq(l.rc, 0);
	ck_assert_uint_eq(l.set.n, 0);
	done(&l);

	l = load("{\n  \"layoutlint-baseline\": 1,\n  \"pairs\": [\n"
		 "    {\"rule\": \"mixed-cacheline\", \"struct\": \"struct conn\", "
		 "\"pair\": [\"ops\", \"count\"]},\n"
		 "    {\"rule\": \"split-hot\", \"struct\": \"union u\", \"pair\": [\"c\"]}\n  ]\n}\n");
	ck_assert_msg(l.rc == 0, "%s", l.err.msg);
	ck_assert_uint_eq(l.set.n, 2);
	/* Sorted: structs before unions. */
	ck_assert_str_eq(l.set.v[0].rule, "mixed-cacheline");
	ck_assert_int_eq(l.set.v[0].kind, LL_STRUCT);
	ck_assert_str_eq(l.set.v[0].name, "conn");
	ck_assert(strcmp(l.set.v[0].a, "ops") == 0 || strcmp(l.set.v[0].b, "ops") == 0);
	ck_assert(strcmp(l.set.v[0].a, "count") == 0 || strcmp(l.set.v[0].b, "count") == 0);
	ck_assert_uint_eq(l.set.v[0].line, 4);	/* where the entry's object opens */
	ck_assert_str_eq(l.set.v[1].rule, "split-hot");
	ck_assert_int_eq(l.set.v[1].kind, LL_UNION);
	ck_assert_str_eq(l.set.v[1].name, "u");
	ck_assert_str_eq(l.set.v[1].a, "c");
	ck_assert_ptr_null(l.set.v[1].b);
	ck_assert_uint_eq(l.set.v[1].line, 5);
	done(&l);
}
END_TEST

START_TEST(test_string_escapes)
{
	char *s;

	s = second_path(DOC(ENTRY("\"x\", \"y\\\"\\\\\\/\\b\\f\\n\\r\\t\"")));
	ck_assert_str_eq(s, "y\"\\/\b\f\n\r\t");
	free(s);
	/* \u: one, two and three UTF-8 bytes, and a surrogate pair to four. */
	s = second_path(DOC(ENTRY("\"x\", \"y\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"")));
	ck_assert_str_eq(s, "yA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	free(s);
	/* The edges of each UTF-8 length: U+007F, U+0080, U+07FF, U+0800, U+FFFF, U+10000, U+10FFFF. */
	s = second_path(DOC(ENTRY("\"x\", \"y\\u007f\\u0080\\u07ff\\u0800\\uffff"
				  "\\ud800\\udc00\\udbff\\udfff\"")));
	ck_assert_str_eq(s, "y\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf"
			 "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
	free(s);
	/* Raw UTF-8 passes through as it is. */
	s = second_path(DOC(ENTRY("\"x\", \"y\xc3\xa9\"")));
	ck_assert_str_eq(s, "y\xc3\xa9");
	free(s);
	/* Unknown keys may hold any value. */
	s = second_path("{\"pairs\": [" ENTRY("\"x\", \"y\"") "], \"layoutlint-baseline\": 1, "
			"\"more\": {\"t\": true, \"f\": false, \"n\": null, \"a\": [1, -2.5e+3, \"s\"],"
			" \"o\": {}}}");
	ck_assert_str_eq(s, "y");
	free(s);
}
END_TEST

START_TEST(test_numbers)
{
	/* The format number 1 however JSON spells it. */
	static const char *const one[] = { "1", "1.0", "1e0", "10e-1", "0.1E1", "1.000e+0" };

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		char doc[128];
		struct loaded l;

		snprintf(doc, sizeof(doc), "{\"layoutlint-baseline\": %s, \"pairs\": []}", one[i]);
		l = load(doc);
		ck_assert_msg(l.rc == 0, "%s: %s", one[i], l.err.msg);
		done(&l);
	}
	fails_at("{\"layoutlint-baseline\": 2, \"pairs\": []}", 1, 25,
		 "baseline format is newer than this layoutlint understands (1)");
	fails_at("{\"layoutlint-baseline\": 0.5, \"pairs\": []}", 1, 25,
		 "\"layoutlint-baseline\" must be 1");
	fails_at("{\"layoutlint-baseline\": -1, \"pairs\": []}", 1, 25,
		 "\"layoutlint-baseline\" must be 1");
	fails_at("{\"layoutlint-baseline\": \"1\", \"pairs\": []}", 1, 25,
		 "\"layoutlint-baseline\" must be 1");
}
END_TEST

START_TEST(test_whitespace_bom_duplicates)
{
	struct loaded l;

	l = load("\xef\xbb\xbf" DOC(""));
	ck_assert_msg(l.rc == 0, "%s", l.err.msg);
	done(&l);
	l = load("\r\n\t {\t\"layoutlint-baseline\"\r\n:\n1 ,\"pairs\"\t:\r\n[\n]\n}\r\n\r\n");
	ck_assert_msg(l.rc == 0, "%s", l.err.msg);
	done(&l);
	/* The last of a repeated key wins, as in most readers. */
	l = load("{\"layoutlint-baseline\": 7, \"pairs\": 3, \"layoutlint-baseline\": 1, "
		 "\"pairs\": []}");
	ck_assert_msg(l.rc == 0, "%s", l.err.msg);
	done(&l);
}
END_TEST

/* The reader stops at 64 levels: 63 arrays inside the document's object read. */
START_TEST(test_nesting_limit)
{
	struct strbuf doc = STRBUF_INIT;
	struct loaded l;

	for (int depth = 63; depth <= 64; depth++) {
		sb_release(&doc);
		sb_adds(&doc, "{\"layoutlint-baseline\": 1, \"pairs\": [], \"deep\": ");
		for (int i = 0; i < depth; i++)
			sb_addc(&doc, '[');
		for (int i = 0; i < depth; i++)
			sb_addc(&doc, ']');
		sb_addc(&doc, '}');
		if (depth == 63) {
			l = load(doc.buf);
			ck_assert_msg(l.rc == 0, "%s", l.err.msg);
			done(&l);
		} else {
			/* The 64th '[' (after 48 bytes of prefix) is one level too many. */
			fails_at(doc.buf, 1, 48 + 64, "nested too deeply");
		}
	}
	sb_release(&doc);
}
END_TEST

/* ---- what must fail, and where ---------------------------------------------- */

START_TEST(test_syntax_errors_located)
{
	fails_at("", 1, 1, "unexpected end of file, expected a value");
	fails_at("  \n  ", 2, 3, "unexpected end of file, expected a value");
	fails_at("{\"a\" 1}", 1, 6, "expected ':'");
	fails_at("{\"a\": 1,}", 1, 9, "expected a string key");
	fails_at("{1: 2}", 1, 2, "expected a string key");
	fails_at("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'");
	fails_at("[1 2]", 1, 4, "expected ',' or ']'");
	fails_at("[1,\n  2,\n  ]", 3, 3, "expected a value");
	fails_at("[1", 1, 3, "expected ',' or ']'");
	fails_at(DOC("") " x", 1, 41, "text after the end of the document");
	fails_at(DOC("") "{}", 1, 40, "text after the end of the document");
	fails_at("01", 1, 2, "text after the end of the document");
	fails_at("tru", 1, 1, "expected a value");
	fails_at("nul", 1, 1, "expected a value");
	fails_at("+1", 1, 1, "expected a value");
	fails_at("-", 1, 1, "expected a value");	/* the number, from its sign */
	fails_at("[1.]", 1, 4, "expected a digit after '.'");
	fails_at("[1e]", 1, 4, "expected a digit in the exponent");
	fails_at("[1e+]", 1, 5, "expected a digit in the exponent");
	fails_at("[.5]", 1, 2, "expected a value");
	fails_at("[1111111111111111111111111111111111111111111111111111111111111111]", 1, 2,
		 "number too long");
	/* The byte order mark is no column. */
	fails_at("\xef\xbb\xbf ]", 1, 2, "expected a value");
}
END_TEST

START_TEST(test_string_errors_located)
{
	fails_at("[\"abc", 1, 2, "string not closed");
	fails_at("[\"abc\\", 1, 6, "string not closed");	/* a backslash, nothing after it */
	fails_at("[\"a\x01\"]", 1, 4, "control character in a string");
	fails_at("[\"a\tb\"]", 1, 4, "control character in a string");
	fails_at("[\"a\nb\"]", 1, 4, "control character in a string");
	fails_at("[\"ab\\x\"]", 1, 5, "invalid escape in a string");
	fails_at("[\"\\u12G4\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\u12g4\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\u12\"]", 1, 3, "invalid escape in a string");
	/* Surrogates: a high one needs a low one after it, a low one never stands alone. */
	fails_at("[\"\\ud83d\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\ud83dx\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\ud83d\\u0041\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\ude00\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\udc00\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"\\udfff\"]", 1, 3, "invalid escape in a string");
	fails_at("[\"ok\", \"\\u0000\"]", 1, 9, "NUL character in a string");
}
END_TEST

START_TEST(test_nul_byte_located)
{
	static const char text[] = "{\n  \"layoutlint-baseline\": 1,\n  \"pa\0rs\": []}";

	fails_at_n(text, sizeof(text) - 1, 3, 6, "NUL byte");
}
END_TEST

/* Well-formed JSON that is no baseline: the value's own position. */
START_TEST(test_document_errors_located)
{
	fails_at("[]", 1, 1, "expected an object (a layoutlint baseline)");
	fails_at("{\"pairs\": []}", 1, 1, "no \"layoutlint-baseline\" key: not a layoutlint "
		 "baseline (write one with --write-baseline)");
	fails_at("{\"layoutlint-baseline\": 1}", 1, 1, "no \"pairs\" array");
	fails_at("{\"layoutlint-baseline\": 1,\n \"pairs\": {}}", 2, 11, "\"pairs\" must be an array");
	fails_at(DOC("\n  7"), 2, 3, "expected an object with \"rule\", \"struct\" and \"pair\"");
	fails_at(DOC("{\"rule\": \"no-such-rule\", \"struct\": \"struct s\", \"pair\": [\"a\"]}"), 1, 47,
		 "unknown rule 'no-such-rule'");
	fails_at(DOC("{\"rule\": \"split-hot\", \"struct\": \"s\", \"pair\": [\"a\"]}"), 1, 70,
		 "\"struct\" must be \"struct NAME\", \"union NAME\", \"global variables\" or "
		 "\"global percpu\"");
	fails_at(DOC("{\"rule\": \"split-hot\", \"struct\": \"global stuff\", \"pair\": [\"a\"]}"),
		 1, 70, "\"struct\" must be \"struct NAME\", \"union NAME\", \"global variables\" or "
		 "\"global percpu\"");
	fails_at(DOC("{\"rule\": \"split-hot\", \"struct\": \"struct s\", "
		     "\"pair\": [\"a\", \"b\", \"c\"]}"), 1, 90,
		 "\"pair\" must be an array of one or two member paths");
	fails_at(DOC("{\"rule\": \"split-hot\", \"struct\": \"struct s\", \"pair\": [\"\"]}"), 1, 91,
		 "a member path must be a non-empty string");
}
END_TEST

START_TEST(test_missing_file)
{
	struct ll_pairset set;
	struct ll_error err;

	ck_assert_int_eq(ll_baseline_load("/nonexistent/dir/baseline.json", &set, &err), -1);
	ck_assert_str_eq(err.msg, "/nonexistent/dir/baseline.json: cannot read the baseline: "
			 "No such file or directory");
}
END_TEST

/* What --write-baseline writes reads back to the same set. */
START_TEST(test_round_trip)
{
	struct loaded l = load(DOC(ENTRY("\"x\", \"y\\u00e9\\n\"") ", "
				   "{\"rule\": \"stale-rule\", \"struct\": \"union u\", "
				   "\"pair\": [\"p*\"]}"));
	struct strbuf text = STRBUF_INIT;
	struct loaded again;

	ck_assert_msg(l.rc == 0, "%s", l.err.msg);
	ll_baseline_render(&l.set, &text);
	again = load(text.buf);
	ck_assert_msg(again.rc == 0, "%s\n%s", again.err.msg, text.buf);
	ck_assert_uint_eq(again.set.n, l.set.n);
	for (size_t i = 0; i < l.set.n; i++) {
		ck_assert_str_eq(again.set.v[i].rule, l.set.v[i].rule);
		ck_assert_str_eq(again.set.v[i].name, l.set.v[i].name);
		ck_assert_int_eq(again.set.v[i].kind, l.set.v[i].kind);
		ck_assert_str_eq(again.set.v[i].a, l.set.v[i].a);
		if (l.set.v[i].b)
			ck_assert_str_eq(again.set.v[i].b, l.set.v[i].b);
		else
			ck_assert_ptr_null(again.set.v[i].b);
	}
	sb_release(&text);
	done(&again);
	done(&l);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json_reader");
	TCase *t = tcase_create("accepted");

	tcase_add_test(t, test_minimal_and_entries);
	tcase_add_test(t, test_string_escapes);
	tcase_add_test(t, test_numbers);
	tcase_add_test(t, test_whitespace_bom_duplicates);
	tcase_add_test(t, test_nesting_limit);
	tcase_add_test(t, test_round_trip);
	suite_add_tcase(s, t);

	t = tcase_create("refused");
	tcase_add_test(t, test_syntax_errors_located);
	tcase_add_test(t, test_string_errors_located);
	tcase_add_test(t, test_nul_byte_located);
	tcase_add_test(t, test_document_errors_located);
	tcase_add_test(t, test_missing_file);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
