#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/pahole_agree.py — does a pahole agree with layoutlint on these structs?

usage: bench/pahole_agree.py --pahole PATH --layoutlint PATH IMAGE NAME,NAME,...

Asks PAHOLE for the comma list (`pahole -F dwarf --skip_missing -C NAMES
IMAGE`) and layoutlint for the same structs (--format=json), and compares
every member's offset, size and bit position, each struct's size,
cachelines and holes, with the parser and comparison of the kernel suite's
tests/kernel/pahole_compare.py (written against pahole 1.24's output).
bench/run times the newer pahole from scripts/fetch-pahole beside 1.24;
this says whether its answers are the same ones.

Prints one line per struct, "agree" or the differences, and a summary line;
exit 0 when every struct agreed, 1 when any did not, 2 on a usage error or a
tool that could not run.
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "kernel"))
sys.path.insert(0, os.path.join(here, "..", "tests"))
import pahole_compare as pc  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pahole", required=True)
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("image")
    ap.add_argument("names")
    args = ap.parse_args()
    names = [n for n in args.names.split(",") if n]
    p = subprocess.run([args.pahole, "-F", "dwarf", "--skip_missing", "-C", ",".join(names),
                        args.image], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        print("pahole_agree.py: %s exit %d: %s" % (args.pahole, p.returncode,
              p.stderr.decode("utf-8", "replace").strip()[:200]), file=sys.stderr)
        return 2
    structs, problems = pc.parse_dump(p.stdout.decode("utf-8", "replace"))
    for pr in problems:
        print("# pahole parser: " + pr)
    uniq = pc.unique_layouts(structs)
    res, err = pc.run_layoutlint(args.layoutlint, args.image,
                                 [("struct", n) for n in names], 600)
    if res is None:
        print("pahole_agree.py: layoutlint: " + err, file=sys.stderr)
        return 2
    agreed = 0
    for n in names:
        ps, js = uniq.get(n), res.get(("struct", n))
        if ps is None:
            print("struct %s: pahole printed %s" % (
                n, "no layout" if n not in structs else "%d layouts" % len(structs[n])))
            continue
        if js is None:
            print("struct %s: not in layoutlint's JSON" % n)
            continue
        bad, notes = pc.compare_struct(ps, js)
        if bad:
            print("struct %s: %d differences: %s" % (n, len(bad), "; ".join(bad)))
        else:
            agreed += 1
            print("struct %s: agree (size %d, %d members%s)" % (
                n, ps.size, len(ps.members), ", " + "; ".join(notes) if notes else ""))
    # The version, not the path: the path names this machine's cache.
    v = subprocess.run([args.pahole, "--version"], stdout=subprocess.PIPE).stdout
    print("%d/%d structs agree: pahole %s and layoutlint on %s"
          % (agreed, len(names), v.decode().strip(), os.path.basename(args.image)))
    return 0 if agreed == len(names) else 1


if __name__ == "__main__":
    sys.exit(main())
