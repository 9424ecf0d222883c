#!/usr/bin/env python3
"""Check layoutlint's verdicts against docs/rules.md and docs/cli.md.

usage: run_checks.py --layoutlint PATH --workdir DIR [--compiler CC]...

Every tests/checks/cases/*.c is compiled with gcc and with clang (-g -c, in
DIR/<compiler>/, from a copy of the source so that declaring files are simply
"NAME.c" relative to --srcdir DIR/<compiler>).  Each case below runs
layoutlint on one of those objects with a rules file (or directory) from
tests/checks/cases/ and asserts, exactly:

  * the exit status (0, 1 or 2);
  * from --format=json: the findings of every struct (rule, level, cacheline,
    members, pairs; message patterns where the spec fixes the wording), and
    where a case says so, member geometry, tags and line verdicts;
  * stdout/stderr discipline: exit-2 runs write nothing on stdout, successful
    runs write nothing on stderr unless a note is expected there;
  * for cases marked text: `layoutlint -q` prints only gcc-style diagnostics,
    one `FILE:LINE[:COL]: error|warning: MSG [rule]` per finding at the
    declaration docs/rules.md names, followed by `note:` lines at the other
    members; columns are present with gcc and absent with clang (clang emits
    no DW_AT_decl_column).

Members and pairs are compared as unordered sets (docs/cli.md fixes what they
hold, not their order); a pair is compared as an unordered couple.

Output is TAP.  Exit status 1 if any test point failed.
"""

import concurrent.futures
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, parse_args, run  # noqa: E402
# layoutlint on a case, and each compile, must end within this many seconds
TIMEOUT = 60
COMPILERS = ["gcc", "clang"]
# rules whose message names the one cacheline the finding is about
LINE_RULES = ("mixed-cacheline", "write-domains")
CFLAGS = ["-g", "-c", "-std=gnu11"]

DIAG_RE = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+)(?::(?P<col>\d+))?: "
                     r"(?P<sev>error|warning|note): (?P<msg>.*)$")


# --------------------------------------------------------------------------
# Expectations

class F:
    """One expected finding.

    at:    where the diagnostic sits: a member path (looked up in the case's
           decl table), ("rules", LINE, COL) for a place in the rules file,
           or None when the spec does not fix it.
    notes: member paths that get a note; default: every member but `at`.
    msg:   regexes the message must match (re.search).
    """

    def __init__(self, rule, level, cacheline, members, pairs, at=None,
                 notes=None, msg=()):
        self.rule = rule
        self.level = level
        self.cacheline = cacheline
        self.members = list(members)
        self.pairs = [tuple(p) for p in pairs]
        self.at = at
        if notes is None and isinstance(at, str):
            notes = [m for m in self.members if m != at]
        self.notes = notes
        self.msg = list(msg)


class Case:
    def __init__(self, desc, src, rules, names=None, exit=0, findings=None,
                 args=(), text=False, decls=None, members=None, verdicts=None,
                 structs=None, stderr=(), stderr_not=(), stderr_lines=None,
                 per_compiler=True, binary=None):
        self.desc = desc
        self.src = src                  # basename of the .c file, no suffix
        self.rules = rules if isinstance(rules, list) else [rules]
        self.names = names or []        # struct names on the command line
        self.exit = exit
        self.findings = findings or {}  # struct name -> [F]
        self.args = list(args)
        self.text = text
        # struct -> {member path -> (block start, identifier)}; a flat
        # {path: ...} applies to the one struct named on the command line
        decls = decls or {}
        if decls and all(isinstance(v, tuple) for v in decls.values()):
            decls = {n: decls for n in (self.names or structs or [])}
        self.decls = decls
        self.members = members or {}    # struct -> {path: {field: value}}
        self.verdicts = verdicts or {}  # struct -> {line index: verdict}
        self.structs = structs          # expected set of linted structs
        self.stderr = list(stderr)      # regexes stderr must match
        self.stderr_not = list(stderr_not)
        self.stderr_lines = stderr_lines
        self.per_compiler = per_compiler
        self.binary = binary            # override of the object path


def D(block, ident=None):
    return (block, ident)


MIXED_DECLS = {
    "ops": D("struct mixed_fire {", "ops"),
    "flags": D("struct mixed_fire {", "flags"),
    "count": D("struct mixed_fire {", "count"),
    "lock": D("struct mixed_fire {", "lock"),
}
BIG_DECLS = {
    "seq": D("struct big_table {", "seq"),
    "table": D("struct big_table {", "table"),
    "hits": D("struct big_table {", "hits"),
}
QP_DECLS = {m: D("struct queue_pair {", m)
            for m in ("rx_head", "tx_head", "rx_packets", "tx_packets")}
SOCK_DECLS = {m: D("struct sock_lite {", m)
              for m in ("ops", "flags", "lock", "refs", "drops")}
COUNTERS_DECLS = {m: D("struct counters {", m)
                  for m in ("ops", "counter", "ptr", "hits")}

ALL_MIXED_PAIRS = [(r, w) for r in ("ops", "flags") for w in ("lock", "refs", "drops")]
NESTED = ["with_inner", "with_atomic", "with_anon", "with_union"]
NESTED_FINDINGS = {
    "with_inner": [F("mixed-cacheline", "error", 0, ["ops", "inner.lock"],
                     [("ops", "inner.lock")], at="ops")],
    "with_atomic": [F("mixed-cacheline", "error", 0, ["flags", "ops", "refs.counter"],
                      [("flags", "refs.counter"), ("ops", "refs.counter")], at="flags")],
    "with_anon": [F("mixed-cacheline", "error", 0, ["ops", "tail"],
                    [("ops", "tail")], at="ops")],
    "with_union": [F("mixed-cacheline", "error", 0, ["u.owner", "u.seq"],
                     [("u.owner", "u.seq")], at="u.owner")],
}
NESTED_DECLS = {
    "with_inner": {"ops": D("struct with_inner {", "ops"),
                   "inner.lock": D("struct spin {", "lock")},
    "with_atomic": {"flags": D("struct with_atomic {", "flags"),
                    "ops": D("struct with_atomic {", "ops"),
                    "refs.counter": D("typedef struct {", "counter")},
    "with_anon": {"ops": D("struct with_anon {", "ops"),
                  "tail": D("struct with_anon {", "tail")},
    "with_union": {"u.owner": D("struct with_union {", "owner"),
                   "u.seq": D("struct with_union {", "seq")},
}

CASES = [
    # ---- mixed-cacheline
    Case("mixed-cacheline: read-mostly and write-hot on line 0 fire",
         "mixed", "mixed.rules", ["mixed_fire"], exit=1, text=True,
         decls=MIXED_DECLS, verdicts={"mixed_fire": {0: "mixed"}},
         findings={"mixed_fire": [F(
             "mixed-cacheline", "error", 0, ["ops", "flags", "count", "lock"],
             [("ops", "count"), ("ops", "lock"), ("flags", "count"), ("flags", "lock")],
             at="ops", msg=[r"\bcacheline 0\b", r"\bmixed_fire\b"])]}),
    Case("mixed-cacheline: write-hot members of one domain only are silent",
         "mixed", "mixed.rules", ["one_domain"], exit=0,
         verdicts={"one_domain": {0: "clean"}},
         members={"one_domain": {"head": {"tag": "write-hot", "domain": "rx"}}}),
    Case("mixed-cacheline: read-mostly member exactly at offset 64 is silent",
         "mixed", "mixed.rules", ["at_boundary"], exit=0,
         verdicts={"at_boundary": {0: "clean", 1: "clean"}},
         members={"at_boundary": {"ops": {"offset": 64, "lines": [1, 1], "line_offset": 0},
                                  "pad": {"lines": [0, 0]}}}),
    Case("mixed-cacheline: a large member counts on every line it touches",
         "mixed", "mixed.rules", ["big_table"], exit=1, text=True, decls=BIG_DECLS,
         verdicts={"big_table": {0: "mixed", 1: "clean", 2: "mixed"}},
         members={"big_table": {"table": {"lines": [0, 2]}}},
         findings={"big_table": [
             F("mixed-cacheline", "error", 0, ["table", "seq"], [("table", "seq")],
               at="table", msg=[r"\bcacheline 0\b"]),
             F("mixed-cacheline", "error", 2, ["table", "hits"], [("table", "hits")],
               at="table", msg=[r"\bcacheline 2\b"])]}),

    # ---- fast-path domains (rules.md, Domains)
    Case("domains: write-hot:txrx beside write-hot:tx, read-mostly:tx beside them: silent",
         "paths", "paths-covered.rules", ["path_line"], exit=0,
         verdicts={"path_line": {0: "clean"}},
         members={"path_line": {"ops": {"tag": "read-mostly", "domain": "tx"}}}),
    Case("domains: read-mostly:txrx beside write-hot:rx is mixed-cacheline",
         "paths", "paths-cross.rules", ["path_line"], exit=1,
         verdicts={"path_line": {0: "mixed"}},
         findings={"path_line": [F("mixed-cacheline", "error", 0, ["ops", "rx_head"],
                                   [("ops", "rx_head")])]}),
    Case("domains: tx beside rx clashes even with txrx on the line; txrx pairs with neither",
         "paths", "paths-clash.rules", ["path_line"], exit=1,
         verdicts={"path_line": {0: "write-domains"}},
         findings={"path_line": [F("write-domains", "error", 0, ["rx_head", "tx_head"],
                                   [("rx_head", "tx_head")], msg=[r"^(?!.*txrx)"])]}),

    # ---- adjacent-lines
    Case("adjacent-lines: off by default, one member per line is clean",
         "paths", "pairs.rules", ["pair_lines"], exit=0,
         verdicts={"pair_lines": {0: "clean", 1: "clean", 2: "clean", 3: "clean"}}),
    Case("adjacent-lines: read-mostly and write-hot on the two lines of a pair warn",
         "paths", "pairs.rules", ["pair_lines"], exit=1, args=["--adjacent-lines",
                                                             "--fail-level=warning"],
         text=True, decls={m: D("struct pair_lines {", m) for m in ("ops", "hits", "lock",
                                                                     "cfg")},
         findings={"pair_lines": [
             F("adjacent-lines", "warning", 0, ["ops", "hits"], [("ops", "hits")], at="ops",
               msg=[r"cachelines 0 and 1 of struct pair_lines, one 128-byte pair",
                    r"read-mostly ops on line 0 and write-hot hits on line 1"]),
             F("adjacent-lines", "warning", 2, ["lock", "cfg"], [("lock", "cfg")],
               at="lock")]}),

    # ---- --in OUTER.PATH: a struct where another embeds it
    Case("--in: inner alone keeps ops and count on lines 0 and 1",
         "paths", "inner.rules", ["inner"], exit=0,
         verdicts={"inner": {0: "clean", 1: "clean"}}),
    Case("--in: embedded at +16 in outer, ops and count meet on outer's line 1",
         "paths", "inner.rules", ["inner"], exit=1, args=["--in", "outer.in"],
         structs=["outer"],
         findings={"outer": [F("mixed-cacheline", "error", 1, ["in.ops", "in.count"],
                               [("in.ops", "in.count")], msg=[r"of struct outer"])]}),
    Case("--in: a member that is not of NAME's type is exit 2",
         "paths", "inner.rules", ["inner"], exit=2, args=["--in", "outer.ptr"],
         stderr=[r"--in outer.ptr: struct outer has no member ptr of type inner; "
                 r"it is struct inner \*"]),

    # ---- array-neighbours
    Case("array-neighbours: a write-hot array of 16-byte elements warns; 64-byte "
         "elements and a byte buffer do not",
         "paths", "slots.rules", ["slots"], exit=1, args=["--fail-level=warning"],
         findings={"slots": [F("array-neighbours", "warning", 0, ["packed"], [("packed",)],
                               at="packed", notes=[],
                               msg=[r"write-hot packed \(struct slot\[4\]\) puts 4 of its "
                                    r"16-byte elements on each 64-byte cacheline"])]}),

    # ---- hot sets (rules 'group' statements)
    Case("group-span: a rules group spread over more lines than its bytes need warns",
         "paths", "hot-sets.rules", ["pair_lines", "hot_pair"], exit=1,
         args=["--fail-level=warning"],
         findings={"pair_lines": [
             F("group-span", "warning", 0, ["ops", "hits", "lock"], [("ops",)],
               msg=[r"group fast of struct pair_lines \(.*hot-sets.rules:3\) touches 3 "
                    r"cachelines \(0-2\) but its 24 bytes need only 1"]),
             F("group-span", "warning", 4, ["table", "map"], [("table",)],
               msg=[r"group tables .* touches 2 cachelines \(4-5\) but its 16 bytes "
                    r"need only 1"])],
                   "hot_pair": []}),

    # ---- write-domains
    Case("write-domains: write-hot:rx and write-hot:tx on one line fire",
         "domains", "domains.rules", ["queue_pair"], exit=1, text=True,
         decls=QP_DECLS, verdicts={"queue_pair": {0: "write-domains"}},
         findings={"queue_pair": [F(
             "write-domains", "error", 0,
             ["rx_head", "tx_head", "rx_packets", "tx_packets"],
             [("rx_head", "tx_head"), ("rx_head", "tx_packets"),
              ("rx_packets", "tx_head"), ("rx_packets", "tx_packets")],
             at="rx_head", msg=[r"\brx\b", r"\btx\b"])]}),
    Case("write-domains: one domain on a line is silent",
         "domains", "domains-same.rules", ["queue_pair"], exit=0,
         verdicts={"queue_pair": {0: "clean"}}),
    Case("write-domains: the default domain and write-hot:rx are two domains",
         "domains", "domains-default.rules", ["queue_pair"], exit=1,
         findings={"queue_pair": [F("write-domains", "error", 0, ["rx_head", "tx_head"],
                                    [("rx_head", "tx_head")])]}),

    # ---- split-hot
    Case("split-hot: 8-byte write-hot member straddling offset 64 is an error",
         "split", "split.rules", ["split_counter"], exit=1, text=True,
         decls={"counter": D("struct __attribute__((packed)) split_counter {", "counter")},
         members={"split_counter": {"counter": {"offset": 60, "size": 8, "lines": [0, 1]}}},
         findings={"split_counter": [F("split-hot", "error", 0, ["counter"], [("counter",)],
                                       at="counter", msg=[r"\bcounter\b"])]}),
    Case("split-hot: 24-byte read-mostly straddler is a warning, exit 0 by default",
         "split", "split.rules", ["split_ops"], exit=0, text=True,
         decls={"ops": D("struct split_ops {", "ops")},
         members={"split_ops": {"ops": {"offset": 48, "size": 24, "lines": [0, 1]}}},
         findings={"split_ops": [F("split-hot", "warning", 0, ["ops"], [("ops",)], at="ops")]}),
    Case("--fail-level=warning: warnings-only run exits 1",
         "split", "split.rules", ["split_ops"], exit=1, args=["--fail-level=warning"],
         findings={"split_ops": [F("split-hot", "warning", 0, ["ops"], [("ops",)])]}),
    Case("split-hot: bitfield whose unit crosses a line but whose bits do not is silent",
         "split", "split.rules", ["split_bits_inside"], exit=0,
         members={"split_bits_inside": {
             "state": {"bit_offset": 496, "bit_size": 4, "lines": [0, 0]},
             "seq": {"offset": 62, "bit_offset": 500, "bit_size": 12, "lines": [0, 0]},
             "tail": {"offset": 64, "bit_offset": 512, "bit_size": 16, "lines": [1, 1]}}}),
    Case("split-hot: bitfield whose bits straddle offset 64 fires",
         "split", "split.rules", ["split_bits_across"], exit=1, text=True,
         decls={"seq": D("struct __attribute__((packed)) split_bits_across {", "seq")},
         members={"split_bits_across": {
             "seq": {"offset": 62, "bit_offset": 500, "bit_size": 16, "lines": [0, 1]}}},
         findings={"split_bits_across": [F("split-hot", "error", 0, ["seq"], [("seq",)],
                                           at="seq")]}),

    # ---- placement
    Case("placement: align type, 72-byte 8-aligned struct, mixed in 4 of 8 offsets",
         "placement", "placement-type.rules", ["stat72"], exit=0, text=True,
         verdicts={"stat72": {0: "clean", 1: "clean"}},
         findings={"stat72": [F("placement", "warning", None, ["ops", "hits"],
                                [("ops", "hits")], msg=[r"\b4 of 8\b"])]}),
    Case("placement: align type warnings-only run exits 1 with --fail-level=warning",
         "placement", "placement-type.rules", ["stat72"], exit=1,
         args=["--fail-level=warning"],
         findings={"stat72": [F("placement", "warning", None, ["ops", "hits"],
                                [("ops", "hits")], msg=[r"\b4 of 8\b"])]}),
    Case("placement: align 64 has no placement finding",
         "placement", "placement-64.rules", ["stat72"], exit=0),
    Case("placement: no align statement has no placement finding",
         "placement", "placement-none.rules", ["stat72"], exit=0),
    Case("placement: align 32 analyses 2 start offsets",
         "placement", "placement-32.rules", ["stat72"], exit=0,
         findings={"stat72": [F("placement", "warning", None, ["ops", "hits"],
                                [("ops", "hits")], msg=[r"\b1 of 2\b"])]}),
    Case("placement: align type, 16-byte write-hot member split in 1 of 8 offsets",
         "placement", "placement-type.rules", ["wide72"], exit=0,
         findings={"wide72": [F("placement", "warning", None, ["seq"], [("seq",)],
                                msg=[r"\b1 of 8\b", r"split-hot"])]}),
    Case("placement: align type, mixed at offset 0 and in 7 of 8 offsets",
         "placement", "placement-type.rules", ["adj72"], exit=1,
         findings={"adj72": [
             F("mixed-cacheline", "error", 0, ["ops", "hits"], [("ops", "hits")]),
             F("placement", "warning", None, ["ops", "hits"], [("ops", "hits")],
               msg=[r"\b7 of 8\b"])]}),

    # ---- stale-rule
    Case("stale-rule: misspelled member is an error with 'did you mean'",
         "patterns", "stale.rules", ["counters"], exit=1, text=True,
         decls=COUNTERS_DECLS,
         findings={"counters": [
             F("stale-rule", "error", None, ["coutner"], [("coutner",)],
               at=("rules", 3, 17), notes=[], msg=[r"did you mean\b.*\bcounter\b"]),
             F("mixed-cacheline", "error", 0, ["ops", "hits"], [("ops", "hits")],
               at="ops")]}),
    Case("stale-rule: misspelled ?optional pattern is no finding",
         "patterns", "stale-optional.rules", ["counters"], exit=0),
    Case("stale-rule: a glob matching nothing is stale, an optional one is not",
         "patterns", "stale-glob.rules", ["counters"], exit=1,
         findings={"counters": [F("stale-rule", "error", None, ["nope_*"], [("nope_*",)])]}),

    # ---- pattern errors and specificity
    Case("pattern through a pointer is an error naming the pointer",
         "patterns", "pointer.rules", ["counters"], exit=2,
         stderr=[r"pointer\.rules:3:17: error:", r"pointer"], stderr_lines=1),
    Case("two equally specific patterns with different tags: exit 2 naming both lines",
         "patterns", "conflict.rules", ["counters"], exit=2,
         stderr=[r"conflict\.rules:3\b|\bline 3\b", r"conflict\.rules:5\b|\bline 5\b"],
         stderr_lines=1),
    Case("the same tag twice for one member is fine",
         "patterns", "same-tag-twice.rules", ["counters"], exit=1,
         findings={"counters": [F("mixed-cacheline", "error", 0, ["ops", "counter", "hits"],
                                  [("ops", "counter"), ("ops", "hits")])]}),
    Case("an exact name beats a glob",
         "patterns", "specific.rules", ["counters"], exit=1,
         members={"counters": {"ops": {"tag": "read-mostly"}, "counter": {"tag": "write-hot"},
                               "ptr": {"tag": "read-mostly"}, "hits": {"tag": "read-mostly"}}},
         findings={"counters": [F("mixed-cacheline", "error", 0,
                                  ["ops", "ptr", "hits", "counter"],
                                  [("ops", "counter"), ("ptr", "counter"),
                                   ("hits", "counter")])]}),

    # ---- nested aggregates
    Case("dotted path into a named nested struct (inner.lock)",
         "nested", "nested.rules", ["with_inner"], exit=1, text=True,
         decls=NESTED_DECLS["with_inner"],
         members={"with_inner": {"inner.lock": {"tag": "write-hot", "offset": 8, "size": 4}}},
         findings={"with_inner": NESTED_FINDINGS["with_inner"]}),
    Case("dotted path through a typedef'd struct (refs.counter of atomic_t)",
         "nested", "nested.rules", ["with_atomic"], exit=1, text=True,
         decls=NESTED_DECLS["with_atomic"],
         members={"with_atomic": {"refs.counter": {"tag": "write-hot", "offset": 0}}},
         findings={"with_atomic": NESTED_FINDINGS["with_atomic"]}),
    Case("members of an anonymous union/struct are named directly",
         "nested", "nested.rules", ["with_anon"], exit=1, text=True,
         decls=NESTED_DECLS["with_anon"],
         members={"with_anon": {"tail": {"tag": "write-hot", "offset": 12, "size": 4}}},
         findings={"with_anon": NESTED_FINDINGS["with_anon"]}),
    Case("union alternatives tagged differently are a mixed finding",
         "nested", "nested.rules", ["with_union"], exit=1, text=True,
         decls=NESTED_DECLS["with_union"],
         findings={"with_union": NESTED_FINDINGS["with_union"]}),
    Case("a more specific tag on a child applies to that child's bytes",
         "nested", "nested-override.rules", ["with_inner"], exit=1,
         findings={"with_inner": [F("mixed-cacheline", "error", 0,
                                    ["inner.owner", "inner.lock"],
                                    [("inner.owner", "inner.lock")])]}),

    # ---- zero-size members
    Case("zero-size members (marker[0], empty struct, flexible array) join no finding",
         "zerosize", "zerosize.rules", ["zero_size"], exit=0,
         members={"zero_size": {"marker": {"size": 0, "lines": None},
                                "nothing": {"size": 0, "lines": None},
                                "data": {"size": 0, "lines": None}}}),
    Case("zero-size members at a cacheline boundary join no finding",
         "zerosize", "zerosize.rules", ["zero_boundary"], exit=0,
         members={"zero_boundary": {"begin": {"offset": 64, "size": 0, "lines": None},
                                    "end": {"offset": 72, "size": 0, "lines": None}}}),

    # ---- allow
    Case("allow mixed-cacheline MEMBER removes that member's pairs",
         "allow", "allow.rules", ["sock_lite"], exit=1, text=True, decls=SOCK_DECLS,
         findings={"sock_lite": [F("mixed-cacheline", "error", 0,
                                   ["ops", "flags", "refs", "drops"],
                                   [p for p in ALL_MIXED_PAIRS if "lock" not in p],
                                   at="ops")]}),
    Case("allow for every write-hot member leaves no finding",
         "allow", "allow-all.rules", ["sock_lite"], exit=0),
    Case("allow of another rule id removes nothing",
         "allow", "allow-other-rule.rules", ["sock_lite"], exit=1,
         findings={"sock_lite": [F("mixed-cacheline", "error", 0,
                                   ["ops", "flags", "lock", "refs", "drops"],
                                   ALL_MIXED_PAIRS)]}),

    # ---- no NAME on the command line
    Case("no NAME: every struct the rules name is linted",
         "nested", "nested.rules", [], exit=1, structs=NESTED, text=True,
         decls=NESTED_DECLS, findings=NESTED_FINDINGS),
    Case("no NAME: rules for structs the object lacks are a one-line note each",
         "nested", ["nested.rules", "missing.rules"], [], exit=1, structs=NESTED,
         decls=NESTED_DECLS, findings=NESTED_FINDINGS, stderr_lines=2,
         stderr=[r"(?m)^.*\bnote\b.*\bwith_inne\b.*did you mean\b.*\bwith_inner\b.*$",
                 r"(?m)^.*\bnote\b.*\bqqq_zzz_vvv\b.*$"],
         stderr_not=[r"(?m)^.*qqq_zzz_vvv.*did you mean.*$"]),
    Case("--require-all: a struct the object lacks is exit 2",
         "nested", ["nested.rules", "missing.rules"], [], exit=2,
         args=["--require-all"], stderr_lines=1,
         stderr=[r"\bwith_inne\b.*did you mean\b.*\bwith_inner\b"]),

    # ---- rules directories
    Case("-r DIR loads every *.rules recursively and merges the blocks",
         "allow", "rulesdir", [], exit=1, text=True, structs=["sock_lite"],
         decls=SOCK_DECLS,
         findings={"sock_lite": [F("mixed-cacheline", "error", 0, ["ops", "lock"],
                                   [("ops", "lock")], at="ops")]},
         members={"sock_lite": {"flags": {"tag": "cold"}, "drops": {"tag": "cold"}}}),
    Case("-r DIR: merged blocks with different align values are an error",
         "allow", "rulesdir-conflict", [], exit=2, stderr=[r"\balign\b"]),

    # ---- syntax errors (no binary needed; checked once)
    Case("syntax error: unknown statement",
         "patterns", "syntax-statement.rules", ["counters"], exit=2, per_compiler=False,
         stderr=[r"syntax-statement\.rules:3:5: error: .*expected"], stderr_lines=1),
    Case("syntax error: cacheline not a power of two",
         "patterns", "syntax-cacheline.rules", ["counters"], exit=2, per_compiler=False,
         stderr=[r"syntax-cacheline\.rules:1:11: error: .*expected"], stderr_lines=1),
    Case("syntax error: allow with an unknown rule id",
         "patterns", "syntax-allow.rules", ["counters"], exit=2, per_compiler=False,
         stderr=[r"syntax-allow\.rules:2:11: error: .*expected"], stderr_lines=1),
    Case("syntax error: tag statement outside a block",
         "patterns", "syntax-outside.rules", ["counters"], exit=2, per_compiler=False,
         stderr=[r"syntax-outside\.rules:1:1: error:"], stderr_lines=1),
    Case("syntax error is reported before any binary is read",
         "patterns", "syntax-statement.rules", ["counters"], exit=2, per_compiler=False,
         binary="/nonexistent/layoutlint-checks.o",
         stderr=[r"syntax-statement\.rules:3:5: error:"],
         stderr_not=[r"nonexistent"], stderr_lines=1),
]


# --------------------------------------------------------------------------
# Helpers

def decl_pos(src_text, block, ident):
    """1-based (line, column) of IDENT's declaration inside the block that
    starts on the line containing BLOCK."""
    lines = src_text.split("\n")
    start = None
    for i, l in enumerate(lines):
        if l.startswith(block) or l.strip().startswith(block):
            start = i
            break
    if start is None:
        raise Failure("fixture: no line starts with %r" % block)
    pat = re.compile(r"[\s*]%s\s*(\[[^\]]*\]\s*)?[;:]" % re.escape(ident))
    for i in range(start + 1, len(lines)):
        m = pat.search(lines[i])
        if m:
            return i + 1, m.start() + 2
        if lines[i].startswith("}"):
            break
    raise Failure("fixture: no declaration of %s after %r" % (ident, block))


def norm_pairs(pairs):
    return sorted(tuple(sorted(p)) for p in pairs)


def compile_all(compilers, workdir):
    """Compile every case source with every compiler; returns {cc: error}."""
    sources = sorted(f[:-2] for f in os.listdir(CASES_DIR) if f.endswith(".c"))
    jobs = []
    errors = {}
    for cc in compilers:
        d = os.path.join(workdir, cc)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        for s in sources:
            shutil.copy(os.path.join(CASES_DIR, s + ".c"), d)
            jobs.append((cc, d, s))

    def one(job):
        cc, d, s = job
        try:
            compile_c(cc, s + ".c", s + ".o", cwd=d, flags=CFLAGS, timeout=TIMEOUT)
        except Failure as e:
            return cc, str(e)
        return cc, None

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as ex:
        for cc, err in ex.map(one, jobs):
            if err and cc not in errors:
                errors[cc] = err
    return errors


# --------------------------------------------------------------------------
# Checks

class Ctx:
    def __init__(self, layoutlint, workdir, cc):
        self.layoutlint = layoutlint
        self.workdir = workdir
        self.cc = cc
        self.ccdir = os.path.join(workdir, cc) if cc else None


def command(ctx, case, json_format):
    cmd = [ctx.layoutlint]
    if json_format:
        cmd.append("--format=json")
    else:
        cmd += ["-q", "--color=never"]
    cmd += ["--srcdir=" + ctx.ccdir] + case.args
    for r in case.rules:
        cmd += ["-r", os.path.join(CASES_DIR, r)]
    cmd.append(case.binary or (case.src + ".o"))
    for n in case.names:
        cmd += ["struct", n]
    return cmd


def check_status_and_streams(case, rc, out, err, errs):
    if rc != case.exit:
        errs.append("exit status %d, expected %d" % (rc, case.exit))
    if case.exit == 2 and out.strip():
        errs.append("exit 2 but stdout is not empty: %r" % out[:300])
    for rx in case.stderr:
        if not re.search(rx, err):
            errs.append("stderr does not match /%s/: %r" % (rx, err[:600]))
    for rx in case.stderr_not:
        if re.search(rx, err):
            errs.append("stderr matches /%s/ but must not: %r" % (rx, err[:600]))
    lines = [l for l in err.split("\n") if l.strip()]
    if case.stderr_lines is not None:
        if len(lines) != case.stderr_lines:
            errs.append("stderr has %d lines, expected %d: %r"
                        % (len(lines), case.stderr_lines, err[:600]))
    elif case.exit != 2 and not case.stderr and lines:
        errs.append("unexpected stderr: %r" % err[:600])


def describe(f):
    return "%s/%s line %s members=%s pairs=%s" % (
        f.get("rule"), f.get("level"), f.get("cacheline"), f.get("members"), f.get("pairs"))


def finding_key(rule, cacheline, members):
    return (rule, -1 if cacheline is None else cacheline, tuple(sorted(members)))


def check_json(ctx, case, src_text, out, errs, lerrs):
    try:
        doc = json.loads(out)
    except ValueError as e:
        errs.append("stdout is not JSON (%s): %r" % (e, out[:300]))
        return
    if doc.get("format") != 1:
        errs.append("format is %r, expected 1" % doc.get("format"))
    structs = doc.get("structs")
    if not isinstance(structs, list):
        errs.append("no structs array")
        return
    by_name = {}
    for s in structs:
        if s.get("name") in by_name:
            errs.append("struct %s listed twice" % s.get("name"))
        by_name[s.get("name")] = s
    want_names = case.structs if case.structs is not None else case.names
    if sorted(by_name) != sorted(want_names):
        errs.append("structs linted: %s, expected %s" % (sorted(by_name), sorted(want_names)))
    for name in want_names:
        s = by_name.get(name)
        if s is None:
            continue
        check_struct(ctx, case, name, s, src_text, errs, lerrs)


def walk_members(members, out):
    for m in members or []:
        if m.get("path") is not None:
            out[m["path"]] = m
        walk_members(m.get("members"), out)


def check_struct(ctx, case, name, s, src_text, errs, lerrs):
    if s.get("kind") != "struct":
        errs.append("%s: kind %r" % (name, s.get("kind")))
    members = {}
    walk_members(s.get("members"), members)
    for path, fields in case.members.get(name, {}).items():
        m = members.get(path)
        if m is None:
            errs.append("%s: no member with path %s in JSON" % (name, path))
            continue
        for k, v in fields.items():
            if m.get(k) != v:
                errs.append("%s.%s: %s is %r, expected %r" % (name, path, k, m.get(k), v))
    lines = {l.get("index"): l for l in s.get("lines") or []}
    for idx, verdict in case.verdicts.get(name, {}).items():
        if idx not in lines:
            errs.append("%s: no line %d in JSON lines" % (name, idx))
        elif lines[idx].get("verdict") != verdict:
            errs.append("%s: line %d verdict %r, expected %r"
                        % (name, idx, lines[idx].get("verdict"), verdict))

    got = list(s.get("findings") or [])
    want = list(case.findings.get(name, []))
    unmatched = list(got)
    for w in want:
        key = finding_key(w.rule, w.cacheline, w.members)
        match = None
        for g in unmatched:
            if finding_key(g.get("rule"), g.get("cacheline"), g.get("members") or []) == key:
                match = g
                break
        if match is None:
            errs.append("%s: missing finding %s line %s members=%s"
                        % (name, w.rule, w.cacheline, sorted(w.members)))
            continue
        unmatched.remove(match)
        if match.get("level") != w.level:
            errs.append("%s: %s finding has level %r, expected %r"
                        % (name, w.rule, match.get("level"), w.level))
        if len(match.get("members") or []) != len(set(match.get("members") or [])):
            errs.append("%s: %s finding repeats members: %s" % (name, w.rule, match.get("members")))
        gp = match.get("pairs")
        if not isinstance(gp, list) or norm_pairs(gp) != norm_pairs(w.pairs):
            errs.append("%s: %s finding pairs %s, expected %s"
                        % (name, w.rule, gp, [list(p) for p in w.pairs]))
        for rx in w.msg:
            if not re.search(rx, match.get("message") or ""):
                errs.append("%s: %s message %r does not match /%s/"
                            % (name, w.rule, match.get("message"), rx))
        if w.at is not None and (isinstance(w.at, tuple) or name in case.decls):
            check_json_location(ctx, case, name, w, match.get("location"), src_text, lerrs)
    for g in unmatched:
        errs.append("%s: unexpected finding %s" % (name, describe(g)))


def expected_location(ctx, case, name, w, src_text):
    """(file, line, column or None) where finding W of struct NAME must sit."""
    if isinstance(w.at, tuple) and w.at[0] == "rules":
        return os.path.join(CASES_DIR, case.rules[0]), w.at[1], w.at[2]
    return member_location(ctx, case, name, w.at, src_text)


def member_location(ctx, case, name, path, src_text):
    try:
        block, ident = case.decls[name][path]
    except KeyError:
        raise Failure("test bug: no declaration for %s.%s in case %r" % (name, path, case.desc))
    line, col = decl_pos(src_text, block, ident)
    return case.src + ".c", line, (col if ctx.cc == "gcc" else None)


def check_json_location(ctx, case, name, w, loc, src_text, errs):
    efile, eline, ecol = expected_location(ctx, case, name, w, src_text)
    if not isinstance(loc, dict):
        errs.append("%s: %s finding has no location" % (name, w.rule))
        return
    got = (loc.get("file"), loc.get("line"), loc.get("column"))
    if got != (efile, eline, ecol):
        errs.append("%s: %s finding location %s:%s:%s, expected %s:%s:%s"
                    % ((name, w.rule) + got + (efile, eline, ecol)))


def check_text(ctx, case, src_text, out, errs):
    diags = []
    for l in out.split("\n"):
        if not l.strip():
            continue
        m = DIAG_RE.match(l)
        if not m:
            errs.append("not a gcc-style diagnostic: %r" % l)
            continue
        d = m.groupdict()
        d["line"] = int(d["line"])
        d["col"] = int(d["col"]) if d["col"] is not None else None
        d["raw"] = l
        if d["sev"] == "note":
            if not diags:
                errs.append("note before any error/warning: %r" % l)
                continue
            diags[-1]["notes"].append(d)
        else:
            d["notes"] = []
            diags.append(d)
    want = [(name, w) for name, fs in case.findings.items() for w in fs]
    if len(diags) != len(want):
        errs.append("%d diagnostics, expected %d" % (len(diags), len(want)))
    for d in diags:
        if ctx.cc == "gcc" and d["col"] is None and not d["file"].endswith(".rules"):
            errs.append("gcc object but no column: %r" % d["raw"])
        if ctx.cc == "clang" and d["col"] is not None and not d["file"].endswith(".rules"):
            errs.append("clang object (no DW_AT_decl_column) but a column: %r" % d["raw"])
    unmatched = list(diags)
    for name, w in want:
        cands = [d for d in unmatched
                 if d["msg"].endswith(" [%s]" % w.rule) and d["sev"] == w.level
                 and (w.rule not in LINE_RULES
                      or re.search(r"\bcacheline %d\b" % w.cacheline, d["msg"]))]
        if w.at is not None:
            eloc = expected_location(ctx, case, name, w, src_text)
            exact = [d for d in cands if (d["file"], d["line"], d["col"]) == eloc]
            if not exact:
                errs.append("no %s: %s [%s] diagnostic at %s:%s:%s; got %s"
                            % (w.level, w.rule, w.rule, eloc[0], eloc[1], eloc[2],
                               [c["raw"] for c in cands] or [d["raw"] for d in diags]))
                continue
            cands = exact
        if not cands:
            errs.append("no %s diagnostic for %s" % (w.level, w.rule))
            continue
        d = cands[0]
        unmatched.remove(d)
        if w.notes is not None:
            wn = sorted(member_location(ctx, case, name, p, src_text) for p in w.notes)
            gn = sorted((n["file"], n["line"], n["col"]) for n in d["notes"])
            if gn != wn:
                errs.append("%s at %s:%s: notes at %s, expected at %s"
                            % (w.rule, d["file"], d["line"], gn, wn))


def run_case(ctx, case):
    """Returns (errors about the outcome, errors about the diagnostics):
    the first from --format=json (and, for exit-2 cases, the text run's
    exit status and streams), the second from the finding locations in
    the JSON and from the `-q` text run."""
    src_text = open(os.path.join(CASES_DIR, case.src + ".c")).read()
    errs, derrs = [], []
    rc, out, err = run(command(ctx, case, True), cwd=ctx.ccdir, timeout=TIMEOUT)
    # JSON carries the run's notes in the document: they are checked as
    # the note lines text would print, and none may be on stderr too.
    if re.search(r"(?m)\bnote:", err):
        errs.append("a note on stderr with --format=json: %r" % err[:600])
    try:
        notes = json.loads(out).get("notes", []) if rc in (0, 1) else []
    except (ValueError, AttributeError):
        notes = []
    err += "".join("note: %s\n" % n for n in notes)
    check_status_and_streams(case, rc, out, err, errs)
    if case.exit != 2 and rc in (0, 1):
        check_json(ctx, case, src_text, out, errs, derrs)
    if case.text or case.exit == 2:
        rc, out, err = run(command(ctx, case, False), cwd=ctx.ccdir, timeout=TIMEOUT)
        terrs = []
        check_status_and_streams(case, rc, out, err, terrs)
        if case.text and rc in (0, 1):
            check_text(ctx, case, src_text, out, terrs)
        (derrs if case.text else errs).extend("text: " + e for e in terrs)
    return errs, derrs


# --------------------------------------------------------------------------

def main():
    args = parse_args("layoutlint",
                      "workdir",
                      compiler=dict(action="append",
                                    help="compilers to use (default: gcc and clang)"),
                      doc=__doc__)
    layoutlint = os.path.abspath(args.layoutlint)
    workdir = os.path.abspath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    compilers = args.compiler or COMPILERS

    available = [cc for cc in compilers if shutil.which(cc)]
    compile_errors = compile_all(available, workdir)

    runs = []   # (description, cc, case)
    for case in CASES:
        if case.per_compiler:
            for cc in compilers:
                runs.append(("%s: %s" % (cc, case.desc), cc, case))
        else:
            runs.append((case.desc, available[0] if available else compilers[0], case))

    def verdict(errs):
        return ("fail" if errs else "ok"), errs

    def evaluate(r):
        desc, cc, case = r
        n = 2 if case.text else 1
        if not shutil.which(cc):
            return [("skip", "%s not installed" % cc)] * n
        if cc in compile_errors:
            return [("fail", [compile_errors[cc]])] * n
        try:
            errs, derrs = run_case(Ctx(layoutlint, workdir, cc), case)
        except Failure as e:
            errs, derrs = [str(e)], [str(e)]
        out = [verdict(errs)]
        if case.text:
            out.append(verdict(derrs))
        return out

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as ex:
        results = list(ex.map(evaluate, runs))

    points = []
    for (desc, cc, case), res in zip(runs, results):
        points.append((desc, res[0]))
        if case.text:
            points.append((desc + " [diagnostics]", res[1]))

    tap = Tap(diag_lines=None, diag_width=None)
    for desc, (status, detail) in points:
        if status == "skip":
            tap.skip(desc, detail)
        else:
            tap.ok(status == "ok", desc, [ln for e in detail for ln in str(e).split("\n")])
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
