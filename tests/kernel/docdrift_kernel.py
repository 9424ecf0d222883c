#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""doc-drift and --write-net-cachelines on Debian's 6.12 image and tree (TAP).

usage: docdrift_kernel.py --layoutlint PATH --workdir DIR

Every struct table of the 6.12 tree's Documentation/networking/net_cachelines
against the 6.12 cloud-amd64 image, with --srcdir on the tree:
  * the doc-drift findings must be exactly the members the table lacks and
    the rows that name nothing, as computed here from the JSON members, the
    table and the struct header's "#define NAME a.b" lines (and a name only
    one nested member has), each located at the member's declaration or at
    the row;
  * --write-net-cachelines re-imported with --import-net-cachelines gives
    rules that lint with no stale-rule but for the macro rows (the written
    table lies outside the tree, from whose headers the importer resolves
    them), and doc-drift on the written table is silent.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, parse_args, run  # noqa: E402
import kernel_common as kc  # noqa: E402

SERIES = "6.12"
TABLES = "Documentation/networking/net_cachelines"


def table_rows(path):
    """(struct name, {row name: line}) of a table, as doc-drift reads it."""
    struct, rows, in_table = None, {}, False
    with open(path) as f:
        for no, line in enumerate(f, 1):
            w = line.split()
            if not w or re.fullmatch(r"[=\-\s]+", line.strip()):
                continue
            if not in_table:
                in_table = len(w) >= 2 and w[0] == "Type" and w[1] == "Name"
                continue
            if w[0].startswith(".."):
                if w[0] == "..struct" and len(w) > 1 and struct is None:
                    struct = w[1][2:]
                continue
            if len(w) >= 2:
                rows.setdefault(re.split(r"[\[:]", w[1])[0], no)
    return struct, rows


def offsetof_top(members, out):
    for m in members:
        if m.get("name") is None:
            offsetof_top(m.get("members") or [], out)
        else:
            out.append(m)
    return out


def resolve(members, path):
    top = None
    for part in path.split("."):
        found = [m for m in offsetof_top(members, []) if m["name"] == part]
        if not found:
            return None
        top = top or found[0]
        members = found[0].get("members") or []
    return top


def deep(members, name, ancestor=None):
    """[(member, its top-level ancestor)] named NAME below the top level."""
    out = []
    for m in members:
        a = ancestor or (m if m.get("name") else None)
        if m.get("name") == name and ancestor:
            out.append((m, ancestor))
        out += deep(m.get("members") or [], name, a)
    return out


def main():
    args = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    image = kc.fetch(SERIES)
    tree = kc.fetch_source(SERIES)
    if not image or not tree:
        tap.skip_all("cannot fetch Debian's %s image and source" % SERIES)
        return
    os.makedirs(args.workdir, exist_ok=True)
    tables = {}
    for name in sorted(os.listdir(os.path.join(tree, TABLES))):
        if name.endswith(".rst"):
            struct, rows = table_rows(os.path.join(tree, TABLES, name))
            if struct:
                tables[struct] = ("%s/%s" % (TABLES, name), rows)
    tap.comment("tables: %s" % ", ".join("%s (%s)" % (s, t[0]) for s, t in tables.items()))
    p = run([args.layoutlint, "--srcdir", tree, image[0], "--format=json", *tables],
            timeout=600)
    doc = json.loads(p.out) if p.rc in (0, 1) else None
    tap.ok(doc is not None and len(doc["structs"]) == len(tables),
           "one run over the %d structs the tables are of" % len(tables), p.err)
    if not doc:
        tap.finish()
        return
    for s in doc["structs"]:
        rel, rows = tables[s["name"]]
        header = os.path.join(tree, s["decl"]["file"])
        with open(header, errors="replace") as f:
            macros = dict(re.findall(r"^\s*#define[ \t]+(\w+)[ \t]+(\w+(?:\.\w+)+)[ \t]*$",
                                     f.read(), re.M))
        top = [m for m in offsetof_top(s["members"], [])
               if not m["name"].startswith("__cacheline_group")]
        listed, extra = set(), []
        for r, line in rows.items():
            m = resolve(s["members"], r)
            if m is None and r in macros:
                m = resolve(s["members"], macros[r])
            if m is None and len(deep(s["members"], r)) == 1:
                m = deep(s["members"], r)[0][1]  # a nested struct's member, by its name
            if m is None:
                extra.append(line)
            else:
                listed.add(id(m))
        missing = [m["name"] for m in top if id(m) not in listed]
        found = [f for f in s["findings"] if f["rule"] == "doc-drift"]
        got_extra = sorted(f["location"]["line"] for f in found if f["location"]["file"] == rel)
        got_missing = [f["members"][0] for f in found if f["location"]["file"] != rel]
        located = all(f["location"]["line"] == {m["name"]: m for m in top}[f["members"][0]]
                      ["decl"]["line"] for f in found if f["location"]["file"] != rel)
        tap.ok(got_missing == missing and got_extra == sorted(extra) and located,
               "%s: %d members the table lacks, %d rows naming nothing (%d rows by macro)"
               % (s["name"], len(missing), len(extra), sum(1 for r in rows if r in macros)),
               "missing want %s got %s\nextra want %s got %s" % (missing, got_missing,
                                                                 sorted(extra), got_extra))
        tap.comment("%s lacks: %s; names nothing: %s" % (
            s["name"], ", ".join(missing) or "-",
            ", ".join(r for r, line in rows.items() if line in extra) or "-"))

        # The table written for the image, re-imported and re-checked.
        w = run([args.layoutlint, "--srcdir", tree, image[0], "--write-net-cachelines",
                 "struct", s["name"]], timeout=600)
        written = os.path.join(args.workdir, os.path.basename(rel))
        with open(written, "w") as f:
            f.write(w.out)
        imp = run([args.layoutlint, "--import-net-cachelines", written])
        rules = written + ".rules"
        with open(rules, "w") as f:
            f.write(imp.out)
        lint = run([args.layoutlint, "-r", rules, image[0], "struct", s["name"]], timeout=600)
        stale = sorted(re.findall(r"pattern '([^']+)' matches no member", lint.out + lint.err))
        # A macro row becomes a pattern that is the macro's name (and, for a bitfield
        # row, its container's): those are the importer's to resolve.
        macro_rows = sorted(r for r in rows if r in macros and
                            resolve(s["members"], r) is None)
        again = run([args.layoutlint, "--srcdir", tree, image[0], "--net-cachelines", written,
                     "--format=json", "struct", s["name"]], timeout=600)
        drift = [f for f in json.loads(again.out)["structs"][0]["findings"]
                 if f["rule"] == "doc-drift"] if again.rc in (0, 1) else ["no run"]
        tap.ok(w.rc in (0, 1) and imp.rc == 0 and lint.rc in (0, 1) and
               set(stale) <= set(macro_rows) and not drift,
               "%s: the written table re-imports with no stale-rule but macro rows (%s) and "
               "has no doc-drift" % (s["name"], ", ".join(stale) or "none"),
               "stale %s\nmacro rows %s\ndrift %s\n%s" % (stale, macro_rows,
                                                       json.dumps(drift)[:1000], imp.err))
    tap.finish()


if __name__ == "__main__":
    main()
