#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""group-assert and the per-binary table on compiled fixtures, the compiler as reference.

usage: run_contracts.py --layoutlint PATH --workdir DIR

tests/contracts/tree/net/grp_contract.c holds a struct with kernel
cacheline group markers and its CACHELINE_ASSERT_GROUP_SIZE / _MEMBER
lines (BUILD_BUG_ON as _Static_assert). The struct is compiled (asserts
off) for three targets whose groups differ: x86-64 (gcc), 32-bit ARM and
i386 (clang --target=). For the tree as it is and for edited copies
(a constant lowered so that it fits on 32-bit only, lowered below every
target, raised until stale, a member assert naming a member outside the
group), one `layoutlint --srcdir COPY --binary ... --format=json` run must:
  - list every assert of the copy (file, line, macro, group, constant) in
    contracts.asserts, in the file's order;
  - give each group's size per binary as the JSON members' marker offsets
    say (recomputed here), and each SIZE verdict as that size against the
    constant;
  - say "fails" on exactly the targets where the compiler, building the
    copy with the asserts on, rejects it, with one group-assert error
    located at the assert's line naming them; exit 1 then;
  - for the stale constant: a warning with "write N", N the largest size;
and the text output must show the table with differing rows marked.
Output is TAP.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.join(HERE, "tree")
FIXTURE_REL = os.path.join("net", "grp_contract.c")
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, have, parse_args, run  # noqa: E402

STRUCT = "grp_contract"
TARGETS = [  # name, compiler, flags
    ("x86_64", "gcc", []),
    ("armhf", "clang", ["--target=arm-linux-gnueabihf"]),
    ("i386", "clang", ["--target=i686-linux-gnu"]),
]
ASSERT_RE = re.compile(r"\b(CACHELINE_ASSERT_GROUP_(SIZE|MEMBER))\(struct (\w+), (\w+), ([^)]*)\);")

# Each variant: name, [(line marker, old, new)], what it is about.
VARIANTS = [
    ("as-is", [], "every assert holds everywhere"),
    ("tx-fits-32-only", [("EDIT tx", "read_tx, 16)", "read_tx, 12)")],
     "read_tx lowered to 12: fails on x86_64 only"),
    ("tx-fits-nowhere", [("EDIT tx", "read_tx, 16)", "read_tx, 8)")],
     "read_tx lowered to 8: fails everywhere"),
    ("rx-stale", [("EDIT rx", "20 + 4)", "20 + 12)")],
     "write_rx raised to 32: stale, write 24"),
    ("member-outside", [("EDIT member", "read_rx, rcvbuf)", "read_rx, outside)")],
     "a member assert naming a member outside its group: fails everywhere"),
]


def source_asserts(path):
    """(line, macro, group, argument) of each assert line of PATH outside comments."""
    out = []
    with open(path) as f:
        for no, text in enumerate(f, 1):
            code = text.split("/*")[0].split("//")[0]
            m = ASSERT_RE.search(code)
            if m and m.group(3) == STRUCT:
                out.append((no, m.group(1), m.group(4), m.group(5).strip()))
    return out


def edit_copy(workdir, name, edits):
    root = os.path.join(workdir, "tree-" + name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(TREE, root)
    path = os.path.join(root, FIXTURE_REL)
    with open(path) as f:
        lines = f.read().split("\n")
    for marker, old, new in edits:
        hit = [i for i, line in enumerate(lines) if marker in line and old in line]
        if len(hit) != 1:
            raise Failure("%s: no single line with %r and %r" % (path, marker, old))
        lines[hit[0]] = lines[hit[0]].replace(old, new)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return root, path


def group_sizes(struct_json):
    """{group: end marker offset - begin marker offset} from the members array."""
    offsets = {}

    def walk(members):
        for m in members:
            if m.get("name"):
                offsets[m["name"]] = m["offset"]
            walk(m.get("members") or [])
    walk(struct_json["members"])
    sizes = {}
    for name, off in offsets.items():
        if name.startswith("__cacheline_group_begin__"):
            g = name[len("__cacheline_group_begin__"):]
            end = offsets.get("__cacheline_group_end__" + g)
            if end is not None:
                sizes[g] = end - off
    return sizes


def member_extent(struct_json, name):
    for m in struct_json["members"]:
        if m.get("name") == name:
            return m["offset"], m["offset"] + m["size"]
    return None


def eval_const(text):
    if not re.fullmatch(r"[0-9+\-*/() ]+", text):
        return None
    return eval(text.replace("/", "//"))  # digits and operators only


RST_REL = "Documentation/networking/net_cachelines/grp_contract.rst"


def doc_drift(tap, args, obj):
    """doc-drift and --write-net-cachelines against the fixture's table."""
    rst = os.path.join(TREE, RST_REL)
    with open(rst) as f:
        text = f.read()
    lines = text.split("\n")
    header = [i for i, l in enumerate(lines) if l.startswith("Type ")][0]
    name_col = lines[header].index("Name")
    rows = {}  # name -> line number
    for i, l in enumerate(lines[header + 1:], header + 2):
        w = l.split()
        if len(w) >= 2 and not w[0].startswith(".."):
            rows[w[1]] = i
    with open(os.path.join(TREE, FIXTURE_REL)) as f:
        macros = dict(re.findall(r"^#define (\w+) (\w+(?:\.\w+)+)$", f.read(), re.M))
    p = run([args.layoutlint, "--srcdir", TREE, obj, "--format=json", "struct", STRUCT])
    doc = json.loads(p.out) if p.rc in (0, 1) else None
    if not doc:
        tap.ok(False, "doc-drift: layoutlint runs", p.err)
        return
    s = doc["structs"][0]
    top = [m for m in s["members"] if m["name"] and not m["name"].startswith("__cacheline_group")]
    named = set(rows) | {macros[r].split(".")[0] for r in rows if r in macros}
    want_missing = [m["name"] for m in top if m["name"] not in named]
    want_extra = sorted(rows[r] for r in rows
                        if r not in {m["name"] for m in top} and
                        (r not in macros or macros[r].split(".")[0] not in
                         {m["name"] for m in top}))
    found = [f for f in s["findings"] if f["rule"] == "doc-drift"]
    got_missing = [f["members"][0] for f in found if f["location"]["file"] != RST_REL]
    got_extra = sorted(f["location"]["line"] for f in found if f["location"]["file"] == RST_REL)
    by_name = {m["name"]: m for m in top}
    at_decl = all(f["location"]["line"] == by_name[f["members"][0]]["decl"]["line"]
                  for f in found if f["location"]["file"] != RST_REL)
    tap.ok(got_missing == want_missing and got_extra == want_extra and at_decl and
           all(f["level"] == "warning" for f in found),
           "doc-drift: members the table lacks (%s) at their declarations, rows naming "
           "nothing (lines %s) at the row" % (", ".join(want_missing), want_extra),
           "got missing %s extra %s\n%s" % (got_missing, got_extra, json.dumps(found, indent=1)))

    # --write-net-cachelines: the file minus those rows, plus a row per missing member
    # after the row of the member declared before it.
    want_lines = []
    extra_lines = set(want_extra)
    order = [m["name"] for m in top]
    for i, l in enumerate(lines, 1):
        if i in extra_lines:
            continue
        want_lines.append(l)
        w = l.split()
        listed = w[1] if len(w) >= 2 and i in rows.values() else None
        if listed is None and not l.startswith("..struct"):
            continue
        for name in want_missing:
            k = order.index(name)
            before = [n for n in order[:k] if n in named]
            prev = before[-1] if before else None
            prev_row = None
            if prev:
                prev_row = [r for r in rows if r == prev or macros.get(r, "").split(".")[0] == prev]
            if (prev is None and l.startswith("..struct")) or \
               (prev_row and listed in prev_row):
                t = by_name[name]["type"].replace(" *", "*").replace(" ", "_")
                want_lines.append(t.ljust(name_col) + name)
    p = run([args.layoutlint, "--srcdir", TREE, obj, "--write-net-cachelines", "struct", STRUCT])
    tap.ok(p.rc in (0, 1) and p.out == "\n".join(want_lines),
           "--write-net-cachelines: same rows in the same order, rows added and dropped",
           "got:\n%s\nwant:\n%s" % (p.out, "\n".join(want_lines)))
    # Re-imported, the table gives rules whose patterns all match (the macro rows aside:
    # the table is written outside a kernel tree, where the importer cannot resolve them).
    written = os.path.join(args.workdir, "grp_contract.rst")
    with open(written, "w") as f:
        f.write(p.out)
    imp = run([args.layoutlint, "--import-net-cachelines", written])
    rules = os.path.join(args.workdir, "grp_contract.rules")
    with open(rules, "w") as f:
        f.write(imp.out)
    lint = run([args.layoutlint, "-r", rules, obj, "struct", STRUCT])
    stale = re.findall(r"pattern '([^']+)' matches no member", lint.out + lint.err)
    tap.ok(imp.rc == 0 and lint.rc in (0, 1) and sorted(stale) == sorted(
        r for r in rows if r in macros),
        "--write-net-cachelines re-imported: no stale-rule but the macro rows (%s)"
        % ", ".join(r for r in rows if r in macros), imp.err + lint.out[-2000:] + lint.err)
    # --net-cachelines FILE without --srcdir: the same rows, shown as given.
    p = run([args.layoutlint, obj, "--net-cachelines", rst, "--format=json", "struct", STRUCT])
    found = [f for f in json.loads(p.out)["structs"][0]["findings"]
             if f["rule"] == "doc-drift"] if p.rc in (0, 1) else []
    rows_given = [f for f in found if f["location"]["file"] == rst]
    # Without the header, inner_a is no name: one row more names nothing.
    tap.ok(len(rows_given) == len(want_extra) + len([r for r in rows if r in macros]),
           "--net-cachelines FILE: rows located in FILE as given", json.dumps(found)[:1500])


def allows(tap, args, objs, binary_args):
    """'allow group-assert' at the group's begin marker or the member drops the findings and
    keeps the verdicts; 'allow doc-drift MEMBER' drops that member's finding and its new row."""
    cases = [("tx-fits-nowhere", "__cacheline_group_begin__grp_contract_read_tx", "SIZE"),
             ("rx-stale", "__cacheline_group_begin__grp_contract_write_rx", "SIZE"),
             ("member-outside", "outside", "MEMBER")]
    for variant, member, macro in cases:
        edits = [v[1] for v in VARIANTS if v[0] == variant][0]
        root, _ = edit_copy(args.workdir, variant + "-allowed", edits)
        rules = os.path.join(args.workdir, variant + ".rules")
        with open(rules, "w") as f:
            f.write("struct %s\n\tallow group-assert %s\t# accepted\n" % (STRUCT, member))
        base = [args.layoutlint, "--srcdir", root, *binary_args, "--format=json"]
        before = run([*base, "struct", STRUCT])
        after = run([*base, "-r", rules, "struct", STRUCT])
        if before.rc not in (0, 1) or after.rc not in (0, 1):
            tap.ok(False, "allow group-assert %s: layoutlint runs" % member,
                   before.err + after.err)
            continue
        b, a = json.loads(before.out), json.loads(after.out)

        def found(doc):
            return [f for s in doc["structs"] for f in s["findings"]
                    if f["rule"] == "group-assert"]

        def verdicts(doc):
            return [[v["verdict"] for v in x["per_binary"]] for x in doc["contracts"]["asserts"]]
        others = [f for s in a["structs"] for f in s["findings"] if f["level"] == "error"]
        tap.ok(found(b) and not found(a) and verdicts(a) == verdicts(b) and
               after.rc == (1 if others else 0),
               "allow group-assert %s (%s, %s): %d finding(s) dropped, verdicts kept, "
               "exit by the other findings"
               % (member, macro, variant, len(found(b))),
               "exit %d; %s\n%s" % (after.rc, json.dumps(found(a))[:1500], after.err[-1500:] +
                                     json.dumps([f for s in a["structs"] for f in s["findings"]
                                                 if f["level"] == "error"])[:1500]))
    # doc-drift: the fixture's table lacks some members; allow the first of them.
    obj = objs[0][1]
    p = run([args.layoutlint, "--srcdir", TREE, obj, "--format=json", "struct", STRUCT])
    missing = [f["members"][0] for f in json.loads(p.out)["structs"][0]["findings"]
               if f["rule"] == "doc-drift" and f["location"]["file"] != RST_REL]
    if not missing:
        tap.ok(False, "allow doc-drift: the fixture's table lacks a member", p.out[-1500:])
        return
    rules = os.path.join(args.workdir, "docdrift.rules")
    with open(rules, "w") as f:
        f.write("struct %s\n\tallow doc-drift %s\n" % (STRUCT, missing[0]))
    p = run([args.layoutlint, "--srcdir", TREE, obj, "-r", rules, "--format=json",
             "struct", STRUCT])
    left = [f["members"][0] for f in json.loads(p.out)["structs"][0]["findings"]
            if f["rule"] == "doc-drift" and f["location"]["file"] != RST_REL] \
        if p.rc in (0, 1) else None
    w = run([args.layoutlint, "--srcdir", TREE, obj, "-r", rules, "--write-net-cachelines",
             "struct", STRUCT])
    tap.ok(left == missing[1:] and w.rc in (0, 1) and
           not re.search(r"\s%s$" % re.escape(missing[0]), w.out, re.M),
           "allow doc-drift %s: its finding and its new row go, the others stay" % missing[0],
           "left %s\n%s" % (left, w.out[-1500:] + p.err))


def embedded_config(tap, args):
    """A program that embeds its .config as CONFIG_IKCONFIG kernels do (IKCFG_ST, gzip,
    IKCFG_ED in .rodata): without --config the randstruct note says what it builds with;
    a broken stream between the markers is one line, exit 2."""
    import gzip
    cases = [("CONFIG_RANDSTRUCT_FULL=y\nCONFIG_RANDSTRUCT=y\n",
              "embedded .config (CONFIG_IKCONFIG) builds with RANDSTRUCT_FULL"),
             ("CONFIG_RANDSTRUCT_NONE=y\n",
              "embedded .config (CONFIG_IKCONFIG) builds without randstruct"),
             (None, "--config .config says which")]
    for config, words in cases:
        work = os.path.join(args.workdir, "ikconfig")
        os.makedirs(work, exist_ok=True)
        gz = os.path.join(work, "config.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(("# generated\n" + config).encode()) if config
                    else b"not gzip at all")
        main_c = os.path.join(work, "prog.c")
        with open(main_c, "w") as f:
            f.write('#include "%s"\n' % os.path.join(TREE, FIXTURE_REL) +
                    '__asm__(".pushsection .rodata, \\"a\\"\\n.ascii \\"IKCFG_ST\\"\\n'
                    '.incbin \\"%s\\"\\n.ascii \\"IKCFG_ED\\"\\n.popsection");\n' % gz +
                    "int main(void) { return rand_instance.flags; }\n")
        prog = os.path.join(work, "prog")
        compile_c("gcc", main_c, prog, flags=["-g", "-O0", "-DCACHELINE_ASSERT_GROUP_SIZE(a,b,c)=",
                                              "-DCACHELINE_ASSERT_GROUP_MEMBER(a,b,c)="])
        p = run([args.layoutlint, "--srcdir", TREE, prog, "--format=json", "struct", "grp_rand"])
        if config is None:
            tap.ok(p.rc == 2 and p.out == "" and p.err.count("\n") == 1 and prog in p.err and
                   "not a whole gzip stream" in p.err,
                   "embedded config: a broken stream is one line naming the image, exit 2",
                   "exit %d\n%s%s" % (p.rc, p.out[:500], p.err))
            continue
        doc = json.loads(p.out) if p.rc in (0, 1) else {"structs": []}
        notes = [f for st in doc["structs"] for f in st["findings"] if f["rule"] == "randstruct"]
        tap.ok(len(notes) == 1 and words in notes[0]["message"],
               "embedded config: without --config the note reads the image's (%s)"
               % words.split()[-1], json.dumps(notes) + p.err)
        if "FULL" in config:
            off = os.path.join(work, "off.config")
            with open(off, "w") as f:
                f.write("CONFIG_RANDSTRUCT_NONE=y\n")
            g = run([args.layoutlint, "--srcdir", TREE, prog, "--config", off, "struct",
                     "grp_rand"])
            tap.ok(g.rc in (0, 1) and ("%s builds without randstruct" % off) in g.out and
                   "IKCONFIG" not in g.out,
                   "embedded config: --config FILE wins over the image's", g.out[-800:] + g.err)


def one_patch(tap, args, binary_args):
    """--format=patch over several binaries: one source, so one hunk per declaration, whichever
    binaries' copies of the struct the run holds; the patch applies."""
    rules = os.path.join(args.workdir, "one-patch.rules")
    with open(rules, "w") as f:
        f.write("struct %s\n\tread-mostly ops mss\n\twrite-hot drops bytes seq\n" % STRUCT)
    p = run([args.layoutlint, "--srcdir", TREE, *binary_args, "-r", rules, "--format=patch",
             "struct", STRUCT])
    hunks = re.findall(r"^@@ ", p.out, re.M)
    copy = os.path.join(args.workdir, "one-patch-tree")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(TREE, copy)
    patch = os.path.join(args.workdir, "one-patch.diff")
    with open(patch, "w") as f:
        f.write(p.out)
    applied = run(["git", "apply", "--check", "--directory=", patch], cwd=copy) \
        if hunks else None
    tap.ok(p.rc in (0, 1) and len(hunks) == 1 and p.out.count("diff --git") == 1 and
           applied is not None and applied.rc == 0,
           "--format=patch over %d binaries: one hunk for the one declaration, and it applies"
           % (len(binary_args) // 2), p.out[-2000:] + p.err + (applied.err if applied else ""))


def randstruct(tap, args, obj):
    """One randstruct note per marked struct, at the mark, saying what --config says."""
    with open(os.path.join(TREE, FIXTURE_REL)) as f:
        mark = [i for i, l in enumerate(f, 1) if l.startswith("} __randomize_layout;")][0]
    cases = [(None, "--config .config says which"),
             ("CONFIG_RANDSTRUCT_NONE=y\n", "builds without randstruct"),
             ("CONFIG_RANDSTRUCT_FULL=y\nCONFIG_RANDSTRUCT=y\n", "RANDSTRUCT_FULL"),
             ("CONFIG_RANDSTRUCT_PERFORMANCE=y\nCONFIG_RANDSTRUCT=y\n", "RANDSTRUCT_PERFORMANCE")]
    for config, words in cases:
        extra = []
        if config:
            path = os.path.join(args.workdir, "randstruct.config")
            with open(path, "w") as f:
                f.write(config)
            extra = ["--config", path]
        p = run([args.layoutlint, "--srcdir", TREE, obj, *extra, "--format=json",
                 "struct", "grp_rand", "struct", STRUCT])
        doc = json.loads(p.out) if p.rc in (0, 1) else {"structs": []}
        notes = {s["name"]: [f for f in s["findings"] if f["rule"] == "randstruct"]
                 for s in doc["structs"]}
        mine = notes.get("grp_rand", [])
        ok = (len(mine) == 1 and mine[0]["level"] == "note" and words in mine[0]["message"] and
              mine[0]["location"]["line"] == mark and not notes.get(STRUCT))
        if ok and "PERFORMANCE" in words:
            # ops, refs, flags fit in one line: one group of three.
            ok = p.rc in (0, 1) and "the plugin may reorder ops, refs, flags" in run(
                [args.layoutlint, "--srcdir", TREE, obj, *extra, "struct", "grp_rand"]).out
        tap.ok(ok, "randstruct: one note at the mark (%s), none for an unmarked struct" % words,
               json.dumps(notes, indent=1)[:1500] + p.err)


def main():
    args = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    os.makedirs(args.workdir, exist_ok=True)
    targets = [t for t in TARGETS if have(t[1])]
    if len(targets) < 2:
        tap.skip_all("needs gcc and clang")
        return
    objs = []
    for name, cc, flags in targets:
        out = os.path.join(args.workdir, "grp_contract-%s.o" % name)
        compile_c(cc, os.path.join(TREE, FIXTURE_REL), out,
                  flags=["-g", "-c", "-DCACHELINE_ASSERT_GROUP_SIZE(a,b,c)=",
                         "-DCACHELINE_ASSERT_GROUP_MEMBER(a,b,c)=", *flags])
        objs.append((name, out))
    binary_args = [a for _, o in objs for a in ("--binary", o)]

    for variant, edits, about in VARIANTS:
        root, path = edit_copy(args.workdir, variant, edits)
        # The reference: does each target build the copy with its asserts on?
        builds = {}
        for name, cc, flags in targets:
            p = run([cc, "-c", "-o", os.devnull, *flags, path])
            builds[name] = p.rc == 0
        p = run([args.layoutlint, "--srcdir", root, *binary_args, "--format=json",
                 "struct", STRUCT])
        if p.rc not in (0, 1):
            tap.ok(False, "%s: layoutlint runs" % variant, p.err)
            continue
        doc = json.loads(p.out)
        by_binary = {s["binary"]: s for s in doc["structs"]}
        c = doc.get("contracts")
        tap.ok(c is not None and c["binaries"] == [o for _, o in objs],
               "%s: the run has the per-binary table of the %d binaries" % (variant, len(objs)),
               json.dumps(c)[:300] if c else "no contracts")
        if not c:
            continue
        want = source_asserts(path)
        got = [(a["line"], a["macro"], a["group"],
                a["size_text"] if a["macro"].endswith("SIZE") else a["member"])
               for a in c["asserts"]]
        tap.ok(got == want and all(a["file"] == FIXTURE_REL for a in c["asserts"]),
               "%s: every assert of the file, in order, not the commented one (%d)"
               % (variant, len(want)), "want %s\ngot  %s" % (want, got))
        # Sizes and verdicts recomputed from each binary's JSON members.
        bad = []
        for k, (name, obj) in enumerate(objs):
            s = by_binary.get(obj)
            if s is None:
                # The run reports a layout once: a binary whose struct is the same as an
                # earlier one's has none of its own (not the case for these targets).
                bad.append("%s: no struct in the JSON" % name)
                continue
            sizes = group_sizes(s)
            rows = [r for r in c["rows"] if r["group"] and r["struct"] == STRUCT]
            for r in rows:
                if r["per_binary"][k]["size"] != sizes.get(r["group"]):
                    bad.append("%s %s: table %s, members %s" % (name, r["group"],
                               r["per_binary"][k]["size"], sizes.get(r["group"])))
            for a in c["asserts"]:
                v = a["per_binary"][k]
                if a["macro"].endswith("SIZE"):
                    size = sizes[a["group"]]
                    expect = "holds" if size <= eval_const(a["size_text"]) else "fails"
                    if v.get("group_size") != size:
                        bad.append("%s line %d: group_size %s, members %d" % (name, a["line"],
                                   v.get("group_size"), size))
                else:
                    ext = member_extent(s, a["member"])
                    g = [x for x in s["groups"] if x["name"] == a["group"]][0]
                    expect = "holds" if ext[0] >= g["begin"] and ext[1] <= g["end"] else "fails"
                if v["verdict"] != expect:
                    bad.append("%s line %d: %s, recomputed %s" % (name, a["line"], v["verdict"],
                                                                  expect))
        tap.ok(not bad, "%s: group sizes and verdicts match the JSON members on every binary"
               % variant, "\n".join(bad))
        # The compiler's verdict per target against ours.
        fails = {name: any(a["per_binary"][k]["verdict"] == "fails" for a in c["asserts"])
                 for k, (name, _) in enumerate(objs)}
        tap.ok(all(fails[n] == (not builds[n]) for n in fails),
               "%s: fails exactly where the compiler rejects the asserts (%s)" % (variant, about),
               "layoutlint fails %s; compiler builds %s" % (fails, builds))
        errors = [f for s in doc["structs"] for f in s["findings"]
                  if f["rule"] == "group-assert" and f["level"] == "error"]
        failing = [n for n in fails if fails[n]]
        named = all(any(obj in f["message"] for f in errors)
                    for n, obj in objs if n in failing)
        located = all(f["location"]["file"] == FIXTURE_REL and
                      f["location"]["line"] in [w[0] for w in want] for f in errors)
        tap.ok(bool(errors) == bool(failing) and named and located and
               (p.rc == 1 or not errors),
               "%s: an error located at the assert names each failing binary; exit %d"
               % (variant, p.rc), json.dumps(errors, indent=1)[:1500])
        stale = [f for s in doc["structs"] for f in s["findings"]
                 if f["rule"] == "group-assert" and f["level"] == "warning"]
        if variant == "rx-stale":
            sizes = [group_sizes(by_binary[o])["grp_contract_write_rx"] for _, o in objs]
            ok = (len(stale) == 1 and ("write %d" % max(sizes)) in stale[0]["message"] and
                  stale[0]["location"]["line"] == [w[0] for w in want
                                                   if w[2] == "grp_contract_write_rx"
                                                   and w[1].endswith("SIZE")][0])
            tap.ok(ok, "rx-stale: one stale warning, at the assert, writing %d" % max(sizes),
                   json.dumps(stale, indent=1))
        else:
            tap.ok(not stale, "%s: no stale warning" % variant, json.dumps(stale, indent=1))

    # The text table: rows that differ between the targets carry '*'.
    p = run([args.layoutlint, "--srcdir", TREE, *binary_args, "struct", STRUCT])
    table = p.out.split("layout on %d binaries" % len(objs))[-1]
    marked = re.search(r"^\* +group grp_contract_read_tx ", table, re.M)
    same = re.search(r"^  +group grp_contract_read_rx ", table, re.M)
    tap.ok(p.rc in (0, 1) and marked and same and "SIZE grp_contract_read_tx <= 16" in table,
           "text: the per-binary table marks read_tx (12 vs 16 bytes), not read_rx", p.out[-3000:])
    p = run([args.layoutlint, "--srcdir", TREE, *binary_args, "--format=html", "struct", STRUCT])
    section = p.out[p.out.find('<section class="contracts">'):]
    tap.ok(p.rc in (0, 1) and '<section class="contracts">' in p.out and
           re.search(r'<tr class="differs"><th scope="row">\* +group grp_contract_read_tx</th>',
                     section) and
           re.search(r'<tr><th scope="row"> +group grp_contract_read_rx</th>', section) and
           "SIZE grp_contract_read_tx &lt;= 16" in section,
           "html: the per-binary table, rows that differ marked", section[:2000])
    # One binary: a count and the asserts that do not hold, no table.
    root, path = edit_copy(args.workdir, "one-binary", VARIANTS[1][1])
    want = source_asserts(path)
    line = [w[0] for w in want if w[2] == "grp_contract_read_tx" and w[1].endswith("SIZE")][0]
    p = run([args.layoutlint, "--srcdir", root, objs[0][1], "struct", STRUCT])
    tap.ok(p.rc == 1 and "layout on" not in p.out and
           ("group asserts: %d evaluated (from a scan of 1 file under --srcdir): %d hold, 1 fail, "
            "0 stale, 0 unknown, 0 name no group or member\n"
            "  net/grp_contract.c:%d SIZE grp_contract_read_tx <= 12: fails 16\n"
            % (len(want), len(want) - 1, line)) in p.out,
           "one binary: the verdicts counted, the failing assert listed, no table", p.out[-1500:])
    allows(tap, args, objs, binary_args)
    embedded_config(tap, args)
    one_patch(tap, args, binary_args)
    doc_drift(tap, args, objs[0][1])
    randstruct(tap, args, objs[0][1])
    # Without --srcdir: no scan, no assert, but still the table.
    p = run([args.layoutlint, *binary_args, "--format=json", "struct", STRUCT])
    c = json.loads(p.out).get("contracts") if p.rc in (0, 1) else None
    tap.ok(c is not None and c["asserts"] == [] and c["rows"],
           "without --srcdir: the table, no asserts", p.err)
    tap.finish()


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print("Bail out! %s" % str(e).splitlines()[0])
        print("\n".join("# " + line for line in str(e).splitlines()))
        sys.exit(1)
