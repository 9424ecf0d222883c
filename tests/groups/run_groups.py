#!/usr/bin/env python3
"""Kernel cacheline groups and the net_cachelines importer, end to end.

usage: run_groups.py --layoutlint PATH --workdir DIR

tests/groups/groups.c copies the marker macros of include/linux/cache.h;
it is compiled with gcc and clang, DWARF 4 and 5, and layoutlint must
  - recognise its groups (offsets, lines, minimum, tag, domain, alignment,
    members) in the JSON and show them in the text listing;
  - tag the members of read/write groups and raise group-span for the
    unaligned and the aligned group that touch more lines than they need
    (these need --groups in layoutlint; skipped until main.c has it);
  - with tests/groups/members.rules, report the members the rules tag hot
    that lie outside (or inside the wrong) group markers (group-member).
The importer part runs `layoutlint --import-net-cachelines` on the
hand-written tables of tests/groups/import/ (older whitespace-aligned and
RST simple-table formats, each with an empty cell and malformed rows) and
compares stdout and stderr with the .expected files byte for byte, then
loads the rules it wrote against the compiled fixture (skipped until
main.c has the option).

Output is TAP. Exit status 1 if anything failed.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "groups.c")
IMPORT_DIR = os.path.join(HERE, "import")
MEMBERS_RULES = os.path.join(HERE, "members.rules")
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, parse_args, run  # noqa: E402

# name -> (begin, end, [first, last] or None, nr_lines, min_lines, tag, domain,
#          aligned, alignment or None (not checked), pad, members)
EXPECTED_GROUPS = {
    "grp_basic": [
        ("grp_basic_read_tx", 40, 68, [0, 1], 2, 1, "read-mostly", "tx", False, None, None,
         ["r1", "r2", "r3", "r4"]),
        ("grp_basic_write_rx", 68, 80, [1, 1], 1, 1, "write-hot", "rx", False, None, None,
         ["w1", "w2"]),
        ("grp_basic_write_txrx", 88, 96, [1, 1], 1, 1, "write-hot", "txrx", False, None, None,
         ["t1"]),
        ("grp_basic_hot", 120, 220, [1, 3], 3, 2, None, None, False, None, None, ["buf"]),
    ],
    "grp_aligned": [
        ("grp_aligned_write_tx", 64, 80, [1, 1], 1, 1, "write-hot", "tx", True, 64,
         "__cacheline_group_pad__grp_aligned_write_tx", ["x", "y"]),
        ("grp_aligned_read_rx", 160, 208, [2, 3], 2, 1, "read-mostly", "rx", True, 32,
         "__cacheline_group_pad__grp_aligned_read_rx", ["r"]),
    ],
    "grp_nested": [
        ("grp_nested_read_rx", 8, 24, [0, 0], 1, 1, "read-mostly", "rx", False, None, None,
         ["n1", "n2", "n3"]),
        ("grp_nested_write_rx", 40, 48, [0, 0], 1, 1, "write-hot", "rx", False, None, None,
         ["n4"]),
    ],
}

# (struct, first cacheline) of every group-span finding, no rules.
EXPECTED_SPANS = [("grp_basic", 0, "grp_basic_read_tx"), ("grp_basic", 1, "grp_basic_hot"),
                  ("grp_aligned", 2, "grp_aligned_read_rx")]

# member path -> (tag, domain) from the groups alone.
EXPECTED_TAGS = {
    "grp_basic": {"head": ("untagged", None), "r1": ("read-mostly", "tx"),
                  "r4": ("read-mostly", "tx"), "w1": ("write-hot", "rx"),
                  "w2": ("write-hot", "rx"), "cold1": ("untagged", None),
                  "t1": ("write-hot", "txrx"), "buf": ("untagged", None),
                  "tail": ("untagged", None)},
    "grp_aligned": {"x": ("write-hot", "tx"), "r": ("read-mostly", "rx"),
                    "b": ("untagged", None)},
    "grp_nested": {"n1": ("read-mostly", "rx"), "n2": ("read-mostly", "rx"),
                   "n3": ("read-mostly", "rx"), "inner": ("untagged", None),
                   "inner.i1": ("untagged", None), "n4": ("write-hot", "rx")},
}

# The imported rules against the fixture's struct tcp_sock: path -> (tag, domain).
EXPECTED_IMPORTED_TAGS = {
    "old_format": {"inet_conn": ("cold", None), "tcp_header_len": ("read-mostly", None),
                   "pred_flags": ("write-hot", "tx"), "bytes_received": ("write-hot", "rx"),
                   "rtt_seq": ("write-hot", "tx"), "tcp_mstamp": ("write-hot", "txrx"),
                   "keepalive_timer": ("cold", None), "snd_cwnd": ("untagged", None),
                   "repair": ("read-mostly", None), "chrono_stat": ("write-hot", "tx"),
                   "delivered": ("write-hot", "rx"), "icsk_ack.pending": ("write-hot", "txrx"),
                   "icsk_ack.quick": ("write-hot", "tx"), "gso_segs": ("read-mostly", None)},
    "new_format": {"inet_conn": ("cold", None), "gso_segs": ("read-mostly", None),
                   "bytes_received": ("write-hot", "rx"), "rtt_seq": ("write-hot", "tx"),
                   "tsq_node": ("cold", None), "snd_cwnd": ("untagged", None),
                   "delivered": ("write-hot", "rx"), "chrono_stat": ("write-hot", "tx")},
}


def flatten(members, out):
    for m in members or []:
        if m.get("path") is not None:
            out[m["path"]] = m
        flatten(m.get("members"), out)
    return out


def decl_lines():
    """member name -> line of its declaration in groups.c (first one)."""
    lines = {}
    with open(FIXTURE) as f:
        for no, text in enumerate(f, 1):
            m = re.match(r"\s*(?:long|int|char|u8|u16|u32|u64)\s+(\w+)", text)
            if m and m.group(1) not in lines:
                lines[m.group(1)] = no
    return lines


def check_groups(tap, label, doc):
    structs = {s["name"]: s for s in doc["structs"]}
    for name, expected in EXPECTED_GROUPS.items():
        s = structs.get(name)
        if not tap.ok(s is not None and "groups" in s, f"{label}: struct {name} has groups",
                      json.dumps(list(structs))):
            continue
        got = s["groups"]
        tap.ok([g["name"] for g in got] == [e[0] for e in expected],
               f"{label}: {name}: groups recognised, in declaration order",
               f"got {[g['name'] for g in got]}")
        for e in expected:
            g = next((g for g in got if g["name"] == e[0]), None)
            if g is None:
                continue
            want = {"begin": e[1], "end": e[2], "lines": e[3], "nr_lines": e[4],
                    "min_lines": e[5], "tag": e[6], "domain": e[7], "aligned": e[8],
                    "pad": e[10], "members": e[11],
                    "begin_marker": "__cacheline_group_begin__" + e[0],
                    "end_marker": "__cacheline_group_end__" + e[0]}
            if e[9] is not None:
                want["alignment"] = e[9]
            have = {k: g.get(k) for k in want}
            tap.ok(have == want, f"{label}: {name}: group {e[0]}",
                   f"got  {json.dumps(have, sort_keys=True)}\nwant {json.dumps(want, sort_keys=True)}")


def check_findings(tap, label, doc):
    spans = sorted((s["name"], f["cacheline"], f["members"][0])
                   for s in doc["structs"] for f in s["findings"] if f["rule"] == "group-span")
    want = sorted((s, c, "__cacheline_group_begin__" + g) for s, c, g in EXPECTED_SPANS)
    tap.ok(spans == want, f"{label}: group-span for the unaligned and aligned groups only",
           f"got {spans}\nwant {want}")
    levels = {f["level"] for s in doc["structs"] for f in s["findings"]
              if f["rule"] == "group-span"}
    tap.ok(levels == {"warning"}, f"{label}: group-span is a warning", levels)
    for s in doc["structs"]:
        members = flatten(s["members"], {})
        want = EXPECTED_TAGS.get(s["name"], {})
        have = {p: (members[p]["tag"], members[p]["domain"]) if p in members else None
                for p in want}
        tap.ok(have == want, f"{label}: {s['name']}: group tags", f"got {have}\nwant {want}")
    basic = next(s for s in doc["structs"] if s["name"] == "grp_basic")
    mixed = [f for f in basic["findings"] if f["rule"] == "mixed-cacheline"]
    pairs = sorted(tuple(p) for f in mixed for p in f["pairs"])
    # r4 is read on tx: beside write_rx that is false sharing, beside
    # write_txrx (t1) it is not, tx writes that line anyway.
    tap.ok([f["cacheline"] for f in mixed] == [1] and
           pairs == [("r4", "w1"), ("r4", "w2")],
           f"{label}: read_tx beside write_rx on line 1 makes a mixed-cacheline finding, "
           "beside write_txrx none",
           json.dumps([(f["cacheline"], f["pairs"]) for f in mixed]))
    domains = [f for f in basic["findings"] if f["rule"] == "write-domains"]
    tap.ok(domains == [],
           f"{label}: write_rx and write_txrx on line 1 are one writer set (no write-domains)",
           json.dumps([(f["cacheline"], f["pairs"]) for f in domains]))


def check_paths(tap, label, layoutlint, obj):
    """The kernel's fast-path conventions, each pair firing or silent."""
    rc, out, err = run([layoutlint, "--format=json", obj, "struct", "grp_paths",
                        "struct", "grp_clash", "struct", "grp_cross", "struct", "grp_split"])
    if not tap.ok(rc == 1 and out, f"{label}: the fast-path structs lint", f"rc={rc} {err}"):
        return
    got = {s["name"]: sorted((f["rule"], f["level"], f["cacheline"],
                              tuple(tuple(p) for p in f["pairs"]))
                             for f in s["findings"] if f["rule"] != "group-span")
           for s in json.loads(out)["structs"]}
    want = {"grp_paths": [],
            "grp_clash": [("write-domains", "error", 0, (("ct", "cr"),))],
            "grp_cross": [("mixed-cacheline", "error", 0, (("xr", "xw"),))],
            "grp_split": [("split-hot", "error", 0, (("cnt",),)),
                          ("split-hot", "warning", 1, (("pair",),))]}
    for name in want:
        tap.ok(got.get(name) == want[name],
               f"{label}: {name}: " + {"grp_paths": "read_rx beside write_rx, write_txrx "
                                       "beside write_tx: silent",
                                       "grp_clash": "write_tx beside write_rx: write-domains",
                                       "grp_cross": "read_txrx beside write_rx: mixed-cacheline",
                                       "grp_split": "a straddling scalar is an error, a "
                                       "two-field struct a warning"}[name],
               f"got {got.get(name)}\nwant {want[name]}")


def check_members(tap, label, layoutlint, obj, lines):
    rc, out, err = run([layoutlint, "--format=json", "-r", MEMBERS_RULES, obj,
                        "struct", "grp_basic"])
    if not tap.ok(rc in (0, 1) and out, f"{label}: members.rules loads", f"rc={rc} {err}"):
        return
    s = json.loads(out)["structs"][0]
    found = {f["members"][0]: f for f in s["findings"] if f["rule"] == "group-member"}
    tap.ok(sorted(found) == ["cold1", "r2", "w1"],
           f"{label}: members the markers contradict are reported (group-member)",
           json.dumps(sorted(found)))
    for path, f in sorted(found.items()):
        loc = f.get("location") or {}
        tap.ok(f["level"] == "warning" and loc.get("line") == lines.get(path) and
               loc.get("file", "").endswith("groups.c"),
               f"{label}: group-member {path} is a warning at its declaration",
               f"{f['level']} {loc} want line {lines.get(path)}")
    tap.ok("outside its read groups: grp_basic_read_tx (bytes 40-67)" in
           found.get("cold1", {}).get("message", ""),
           f"{label}: cold1 lies outside its markers", found.get("cold1", {}).get("message"))
    members = flatten(s["members"], {})
    tap.ok((members["r2"]["tag"], members["r2"]["domain"]) == ("write-hot", "rx") and
           (members["r1"]["tag"], members["r1"]["domain"]) == ("read-mostly", None),
           f"{label}: a rules tag beats the group's", json.dumps(members["r2"]))


def check_off(tap, label, layoutlint, obj):
    rc, out, err = run([layoutlint, "--format=json", "--groups=off", obj, "struct", "grp_basic"])
    if not tap.ok(rc == 0 and out, f"{label}: --groups=off runs clean", f"rc={rc} {err}"):
        return
    s = json.loads(out)["structs"][0]
    members = flatten(s["members"], {})
    tap.ok(not s["findings"] and all(m["tag"] == "untagged" for m in members.values()),
           f"{label}: --groups=off: no group tags, no group findings",
           json.dumps([f["rule"] for f in s["findings"]]))


def check_text(tap, label, layoutlint, obj):
    rc, out, err = run([layoutlint, "--color=never", obj, "struct", "grp_basic"])
    tap.ok(rc in (0, 1) and
           "begin of group grp_basic_read_tx: read-mostly:tx, bytes 40-67 (28), lines 0-1, "
           "2 of min 1 [group-span]" in out and
           "end of group grp_basic_read_tx */" in out and
           "/* groups: 4, 2 touching more cachelines than their bytes need */" in out and
           "/*   grp_basic_hot: span only, bytes 120-219 (100), lines 1-3, 3 of min 2 "
           "[group-span] */" in out,
           f"{label}: the listing shows the markers and the groups summary", out + err)


TREE_RST = """\
===========================================
demo_sock struct fast path usage breakdown
===========================================

Type          Name            fastpath_tx_access  fastpath_rx_access  Comments
..struct      ..demo_sock
struct_sock   sk              read_mostly         read_mostly         demo_xmit
__be32        demo_daddr      read_mostly         -                   a macro
u8            recverr         -                   -                   a bit of demo_flags
struct        demo_rack       read_write          -                   a nested struct's type
u32           debug_count     -                   read_write          only with CONFIG_DEMO_DEBUG
u32           plain           read_mostly         -
"""

TREE_HEADER = """\
#ifndef _DEMO_SOCK_H
#define _DEMO_SOCK_H
struct demo_common { unsigned int daddr; };
struct sock { struct demo_common __sk_common; };
/* demo_daddr is sk.__sk_common.daddr, as inet_sock's inet_daddr */
struct demo_sock {
	struct sock sk;		/* recverr: see demo_flags */
	unsigned long demo_flags;
	struct demo_rack {
		unsigned long mstamp;
	} rack;
#ifdef CONFIG_DEMO_DEBUG
	unsigned int debug_count;
#endif
	unsigned int plain;
};
#define demo_daddr sk.__sk_common.daddr
#endif
"""


def check_import_tree(tap, layoutlint, work):
    """A table inside a kernel-like tree: names checked against the struct's
    definition in the tree's include/ (macro -> member path, nested type ->
    member, #if-only -> optional, not a member -> optional)."""
    root = os.path.join(work, "tree")
    doc = os.path.join(root, "Documentation", "networking", "net_cachelines")
    inc = os.path.join(root, "include", "net")
    os.makedirs(doc, exist_ok=True)
    os.makedirs(inc, exist_ok=True)
    with open(os.path.join(doc, "demo_sock.rst"), "w") as f:
        f.write(TREE_RST)
    with open(os.path.join(inc, "demo_sock.h"), "w") as f:
        f.write(TREE_HEADER)
    rc, out, err = run([layoutlint, "--import-net-cachelines", os.path.join(doc, "demo_sock.rst")])
    body = [ln for ln in out.splitlines() if ln.startswith("\t")]
    want = ["\tread-mostly  sk                   # demo_xmit",
            "\tread-mostly  sk.__sk_common.daddr  # demo_daddr: a macro for "
            "sk.__sk_common.daddr; a macro",
            "\tcold         ?recverr             # not a member of struct demo_sock in "
            "include/net/demo_sock.h; a bit of demo_flags",
            "\twrite-hot:tx rack                 # demo_rack: the type of member rack; a "
            "nested struct's type",
            "\twrite-hot:rx ?debug_count         # only under #if in include/net/demo_sock.h; "
            "only with CONFIG_DEMO_DEBUG",
            "\tread-mostly  plain"]
    tap.ok(rc == 0 and [re.sub(r"\s+#", "  #", re.sub(r"  +", " ", b)) for b in body[:6]] ==
           [re.sub(r"\s+#", "  #", re.sub(r"  +", " ", w)) for w in want] and
           "# Names checked against the struct's definition in include/net/demo_sock.h:" in out,
           "import inside a tree: names checked against include/net/demo_sock.h",
           f"rc={rc}\n{out}\n{err}")


def check_import(tap, layoutlint, objs, work, has_import):
    for fmt in ("old_format", "new_format"):
        label = f"import {fmt}.rst"
        if not has_import:
            tap.skip(f"{label}: exact rules and warnings", "no --import-net-cachelines yet")
            tap.skip(f"{label}: the rules load against the fixture", "no --import-net-cachelines yet")
            continue
        rc, out, err = run([layoutlint, "--import-net-cachelines", f"{fmt}.rst"], cwd=IMPORT_DIR)
        with open(os.path.join(IMPORT_DIR, f"{fmt}.rules.expected")) as f:
            want_out = f.read()
        with open(os.path.join(IMPORT_DIR, f"{fmt}.stderr.expected")) as f:
            want_err = f.read()
        tap.ok(rc == 0 and out == want_out and err == want_err,
               f"{label}: exact rules and warnings",
               f"rc={rc}\n--- stdout\n{out}\n--- want\n{want_out}\n--- stderr\n{err}\n"
               f"--- want\n{want_err}")
        rules = os.path.join(work, f"{fmt}.rules")
        with open(rules, "w") as f:
            f.write(out)
        for obj in objs[:1]:
            rc, js, err = run([layoutlint, "--format=json", "-r", rules, obj, "struct", "tcp_sock"])
            ok = rc in (0, 1) and js
            doc = json.loads(js) if ok else {"structs": [{"findings": [], "members": []}]}
            s = doc["structs"][0]
            stale = [f["message"] for f in s["findings"] if f["rule"] == "stale-rule"]
            members = flatten(s["members"], {})
            want = EXPECTED_IMPORTED_TAGS[fmt]
            have = {p: (members[p]["tag"], members[p]["domain"]) if p in members else None
                    for p in want}
            tap.ok(ok and not stale and have == want,
                   f"{label}: the rules load against the fixture, no stale-rule",
                   f"rc={rc} {err}\nstale {stale}\ngot  {have}\nwant {want}")
    if has_import:
        bad = os.path.join(work, "no_table.rst")
        with open(bad, "w") as f:
            f.write("Title\n=====\n\nNo table here.\n")
        rc, out, err = run([layoutlint, "--import-net-cachelines", bad])
        tap.ok(rc == 2 and not out and len(err.splitlines()) == 1 and "no net_cachelines table" in err,
               "import: a file without a table is an error (exit 2, one line)",
               f"rc={rc} out={out!r} err={err!r}")
    else:
        tap.skip("import: a file without a table is an error", "no --import-net-cachelines yet")


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    # The importer runs from tests/groups/import/: make the paths absolute.
    a.layoutlint = os.path.abspath(a.layoutlint)
    a.workdir = os.path.abspath(a.workdir)
    tap = Tap(diag_lines=None)
    os.makedirs(a.workdir, exist_ok=True)
    rc, help_text, _ = run([a.layoutlint, "--help"])
    has_groups = "--groups" in help_text
    has_import = "--import-net-cachelines" in help_text
    lines = decl_lines()

    objs = []
    for cc in ("gcc", "clang"):
        for dwarf in ("4", "5"):
            label = f"{cc} DWARF {dwarf}"
            if not shutil.which(cc):
                tap.skip(f"{label}: compile", f"no {cc}")
                continue
            obj = os.path.join(a.workdir, f"groups-{cc}-dw{dwarf}.o")
            try:
                compile_c(cc, FIXTURE, obj, std="gnu11", dwarf=dwarf, opt="-O0")
                cerr = ""
            except Failure as e:
                cerr = str(e)
            if not tap.ok(not cerr, f"{label}: compile tests/groups/groups.c", cerr):
                continue
            objs.append(obj)
            rc, out, err = run([a.layoutlint, "--format=json", obj, "struct", "grp_basic",
                                "struct", "grp_aligned", "struct", "grp_nested"])
            if not tap.ok(rc in (0, 1) and out, f"{label}: layoutlint runs", f"rc={rc} {err}"):
                continue
            doc = json.loads(out)
            check_groups(tap, label, doc)
            check_text(tap, label, a.layoutlint, obj)
            if has_groups:
                check_findings(tap, label, doc)
                check_paths(tap, label, a.layoutlint, obj)
                check_members(tap, label, a.layoutlint, obj, lines)
                check_off(tap, label, a.layoutlint, obj)
            else:
                for what in ("group-span and group tags", "group-member", "--groups=off"):
                    tap.skip(f"{label}: {what}", "no --groups in this layoutlint yet")
    check_import(tap, a.layoutlint, objs, a.workdir, has_import)
    if has_import:
        check_import_tree(tap, a.layoutlint, a.workdir)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
