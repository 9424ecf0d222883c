#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""group-assert and the per-binary table on Debian's 6.12 images (TAP).

usage: contracts_kernel.py --layoutlint PATH [--workdir DIR]

Debian's 6.12 debug images for amd64 (cloud), arm64 and armhf (armmp;
scripts/fetch-kernel foreign, as foreign_kernels.py fetches its images; an
image that cannot be fetched is skipped with the reason, amd64 is
required) and the 6.12 source tree (scripts/fetch-kernel source 6.12):

  * one `layoutlint --srcdir TREE --binary ... --format=json tcp_sock sock
    netns_ipv4` run must evaluate every CACHELINE_ASSERT_GROUP_SIZE and
    _MEMBER of net/ipv4/tcp.c, net/core/sock.c and net/core/net_namespace.c
    (found here with a regex, line by line) on every image, with verdicts
    and group sizes that match those recomputed from the members of a
    separate one-image JSON run per image (marker offsets, member extents
    as offsetof() sees them);
  * the text run prints the per-binary table with a row per struct and
    group and every assert;
  * for each SIZE assert, a hidden copy of the three files with that
    constant lowered by 8 must fail on exactly the images where the group
    no longer fits (an error located at the assert's line), and change no
    other verdict.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, parse_args, run  # noqa: E402
import kernel_common as kc  # noqa: E402

SERIES = "6.12"
FILES = ["net/ipv4/tcp.c", "net/core/sock.c", "net/core/net_namespace.c"]
STRUCTS = ["tcp_sock", "sock", "netns_ipv4"]
ASSERT_RE = re.compile(
    r"\b(CACHELINE_ASSERT_GROUP_(SIZE|MEMBER))\(struct (\w+), (\w+), ([^;]*)\);")


def fetch_foreign(arch):
    p = subprocess.run([kc.fetch_tool(), "foreign", arch, SERIES], capture_output=True,
                       text=True)
    paths = p.stdout.split()
    if p.returncode != 0 or len(paths) != 1:
        return None, (p.stderr.strip().splitlines() or ["no path"])[-1]
    return paths[0], None


def source_asserts(root, rel):
    """(file, line, macro, struct, group, argument) of each assert in ROOT/REL."""
    out = []
    with open(os.path.join(root, rel)) as f:
        for no, text in enumerate(f, 1):
            m = ASSERT_RE.search(text)
            if m and not text.lstrip().startswith(("#", "/*", "*", "//")):
                out.append((rel, no, m.group(1), m.group(3), m.group(4),
                            " ".join(m.group(5).split())))
    return out


def offsetof_members(members, into):
    """NAME -> member as offsetof() names them: anonymous aggregates searched through."""
    for m in members:
        if m.get("name") is None:
            offsetof_members(m.get("members") or [], into)
        elif m["name"] not in into:
            into[m["name"]] = m
    return into


def resolve(struct_json, designator):
    members = struct_json["members"]
    m = None
    for part in designator.split("."):
        m = offsetof_members(members, {}).get(part)
        if m is None:
            return None
        members = m.get("members") or []
    return m


def eval_const(text):
    if not re.fullmatch(r"[0-9+\-*/() ]+", text):
        return None
    return eval(text.replace("/", "//"))  # digits and operators only


def expected(struct_json, macro, group, arg):
    """(verdict, group size or None) recomputed from one image's JSON members."""
    names = offsetof_members(struct_json["members"], {})
    begin = names.get("__cacheline_group_begin__" + group)
    end = names.get("__cacheline_group_end__" + group)
    if not begin or not end:
        return "no-group", None
    size = end["offset"] - begin["offset"]
    if macro.endswith("SIZE"):
        n = eval_const(arg)
        if n is None:
            return "unknown", size
        return ("holds" if size <= n else "fails"), size
    m = resolve(struct_json, arg.replace(" ", ""))
    if m is None:
        return "no-group", size
    ok = m["offset"] >= begin["offset"] and m["offset"] + m["size"] <= end["offset"]
    return ("holds" if ok else "fails"), size


def main():
    args = parse_args("layoutlint", workdir=dict(required=False), doc=__doc__)
    tap = Tap()
    amd64 = kc.fetch(SERIES)
    tree = kc.fetch_source(SERIES)
    if not amd64 or not tree:
        tap.skip_all("cannot fetch Debian's %s amd64 image and source" % SERIES)
        return
    images = [("amd64", amd64[0])]
    for arch in ("arm64", "armhf"):
        path, why = fetch_foreign(arch)
        if path:
            images.append((arch, path))
        else:
            tap.skip("%s: Debian's %s image" % (arch, SERIES), "cannot fetch: %s" % why)
    for arch, path in images:
        tap.comment("%s: %s" % (arch, path))
    binary_args = [a for _, p in images for a in ("--binary", p)]
    want = [a for rel in FILES for a in source_asserts(tree, rel)]
    tap.comment("%d asserts in %s (%d SIZE)" % (len(want), ", ".join(FILES),
                sum(1 for w in want if w[2].endswith("SIZE"))))

    # Each image alone: the members the verdicts are recomputed from.
    per_image = []
    for arch, path in images:
        p = run([args.layoutlint, path, "--format=json", *STRUCTS], timeout=600)
        doc = json.loads(p.out) if p.rc in (0, 1) else {"structs": []}
        per_image.append({s["name"]: s for s in doc["structs"]})
        tap.ok(p.rc in (0, 1) and all(n in per_image[-1] for n in STRUCTS),
               "%s: the three structs, one image" % arch, p.err)

    def lint(srcdir, fmt="json"):
        p = run([args.layoutlint, "--srcdir", srcdir, *binary_args, "--format=" + fmt,
                 *STRUCTS], timeout=900)
        return p, (json.loads(p.out) if fmt == "json" and p.rc in (0, 1) else None)

    p, doc = lint(tree)
    c = doc.get("contracts") if doc else None
    tap.ok(c is not None and c["binaries"] == [i[1] for i in images],
           "one run over %d images has the contracts table" % len(images), p.err)
    if not c:
        tap.finish()
        return
    by_place = {(a["file"], a["line"]): a for a in c["asserts"]}
    missing = [w for w in want if (w[0], w[1]) not in by_place]
    tap.ok(not missing, "every assert of the three files is evaluated (%d)" % len(want),
           "missing: %s" % missing)
    bad = []
    for w in want:
        a = by_place.get((w[0], w[1]))
        if not a:
            continue
        arg = a["size_text"] if a["macro"].endswith("SIZE") else a["member"]
        if (a["macro"], a["struct"], a["group"], " ".join(arg.split())) != \
           (w[2], w[3], w[4], w[5].replace(" ", "") if w[2].endswith("MEMBER") else w[5]):
            bad.append("%s:%d read as %s" % (w[0], w[1], a))
        for k, (arch, _) in enumerate(images):
            verdict, size = expected(per_image[k][w[3]], w[2], w[4], w[5])
            got = a["per_binary"][k]
            if got["verdict"] != verdict or (w[2].endswith("SIZE") and
                                             got.get("group_size") != size):
                bad.append("%s:%d on %s: %s %s, recomputed %s %s" % (
                    w[0], w[1], arch, got["verdict"], got.get("group_size"), verdict, size))
    tap.ok(not bad, "verdicts and group sizes match the members of each image", "\n".join(bad))
    for w in want:
        if w[2].endswith("SIZE"):
            a = by_place[(w[0], w[1])]
            tap.comment("%s:%d %s <= %s: %s" % (w[0], w[1], w[4], w[5], ", ".join(
                "%s %s %s" % (arch, a["per_binary"][k]["verdict"],
                              a["per_binary"][k].get("group_size"))
                for k, (arch, _) in enumerate(images))))
    errors = [f for s in doc["structs"] for f in s["findings"] if f["rule"] == "group-assert"]
    failing = [a for a in c["asserts"] if any(v["verdict"] == "fails" for v in a["per_binary"])]
    tap.ok(len([f for f in errors if f["level"] == "error"]) >= (1 if failing else 0)
           and (failing or not [f for f in errors if f["level"] == "error"]),
           "group-assert errors exactly when an assert fails (%d failing)" % len(failing),
           json.dumps(errors, indent=1)[:2000])

    # The text table.
    p, _ = lint(tree, "text")
    head = "layout on %d binar%s" % (len(images), "y" if len(images) == 1 else "ies")
    table = p.out[p.out.find(head):] if head in p.out else ""
    rows_ok = all(re.search(r"^[* ] struct %s +\d+B \d+L \d+F" % s, table, re.M)
                  for s in STRUCTS)
    groups_ok = all(re.search(r"^[* ]   group %s +\d+B" % g, table, re.M)
                    for g in {w[4] for w in want})
    asserts_ok = all(("%s:%d " % (w[0], w[1])) in table for w in want)
    tap.ok(p.rc in (0, 1) and rows_ok and groups_ok and asserts_ok,
           "text: the table has every struct, group and assert", table[:3000] or p.out[-2000:])

    # One constant lowered by 8, in a hidden copy of the three files.
    work = args.workdir or tempfile.mkdtemp(prefix="contracts-kernel-")
    for w in want:
        if not w[2].endswith("SIZE") or eval_const(w[5]) is None:
            continue
        n = eval_const(w[5])
        if n < 8:
            tap.skip("%s:%d %s lowered %s -> %d" % (w[0], w[1], w[4], w[5], n - 8),
                     "a negative SIZE compares as a huge size_t in C: the assert cannot fail")
            continue
        copy = os.path.join(work, "tree")
        shutil.rmtree(copy, ignore_errors=True)
        for rel in FILES:
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copy(os.path.join(tree, rel), os.path.join(copy, rel))
        path = os.path.join(copy, w[0])
        with open(path) as f:
            lines = f.read().split("\n")
        old = lines[w[1] - 1]
        lines[w[1] - 1] = old.replace(", %s);" % w[5], ", %d);" % (n - 8))
        if lines[w[1] - 1] == old:
            tap.ok(False, "%s:%d: cannot lower %s" % (w[0], w[1], w[5]))
            continue
        with open(path, "w") as f:
            f.write("\n".join(lines))
        p, d = lint(copy)
        cc = d.get("contracts") if d else None
        if not cc:
            tap.ok(False, "%s:%d lowered to %d: layoutlint runs" % (w[0], w[1], n - 8), p.err)
            continue
        after = {(a["file"], a["line"]): a for a in cc["asserts"]}
        a = after.get((w[0], w[1]))
        sizes = [v.get("group_size") for v in by_place[(w[0], w[1])]["per_binary"]]
        want_fail = [images[k][0] for k, s in enumerate(sizes) if s is not None and s > n - 8]
        got_fail = [images[k][0] for k, v in enumerate(a["per_binary"]) if v["verdict"] == "fails"]
        others = [key for key, x in after.items() if key != (w[0], w[1]) and
                  [v["verdict"] for v in x["per_binary"]] !=
                  [v["verdict"] for v in by_place[key]["per_binary"]]]
        errs = [f for s in d["structs"] for f in s["findings"]
                if f["rule"] == "group-assert" and f["level"] == "error" and
                f["location"]["file"] == w[0] and f["location"]["line"] == w[1]]
        named = all(any(dict(images)[arch] in f["message"] for f in errs) for arch in got_fail)
        tap.ok(got_fail == want_fail and not others and bool(errs) == bool(want_fail) and named
               and (p.rc == 1 or not want_fail),
               "%s:%d %s lowered %s -> %d: fails on exactly %s" % (
                   w[0], w[1], w[4], w[5], n - 8, ", ".join(want_fail) or "none"),
               "fails on %s; other verdicts changed: %s; errors %s" % (got_fail, others, errs))
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    tap.finish()


if __name__ == "__main__":
    main()
