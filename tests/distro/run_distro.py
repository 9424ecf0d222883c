#!/usr/bin/env python3
"""Debian's own debug files, which nobody here tuned on, against pahole and
the compiler.
usage: run_distro.py --layoutlint PATH [--workdir DIR]

libc6-dbg's debug file of /lib/x86_64-linux-gnu/libc.so.6 (found by its
build id): `--list='*'` exits 0 and lays out _IO_FILE_plus and _IO_jump_t
(one header reached from lib/ and from ../lib/ once made them "distinct");
every struct pahole 1.24's --sizes lists once has pahole's size and number
of holes.

libstdc++6-12-dbg's libstdc++.so.6.0.30: `--list='*'` lists the whole file
(one refusal never aborts it); each `?` row is a class with a virtual base
or a name with definitions that differ in declaring file, line or size (two
copies of one definition, e.g. `class` in one unit and `struct` in another,
are one); every laid-out class a translation unit can name is the size
g++ gives it (static_assert(sizeof(T) == N), with -std=c++20 and with the
old string ABI, -D_GLIBCXX_USE_CXX11_ABI=0, for the classes of that ABI).
Classes declared in the library's own .cc files (compatibility copies,
internals such as std::filesystem::_Dir) are not nameable from the headers
and are left out of that check.
"""
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Lint, build_id, have, run, tap_main  # noqa: E402

LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
LIBSTDCXX = "/usr/lib/x86_64-linux-gnu/debug/libstdc++.so.6.0.30"
ROW = re.compile(r"^(struct|union|class)\s+(.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)$")


def list_rows(out):
    """(laid-out rows {name: (size, holes, declared)}, ? rows [(name, why)])"""
    rows, refused = {}, []
    for line in out.splitlines()[1:]:
        m = ROW.match(line)
        if m:
            rows[m.group(2)] = (int(m.group(3)), int(m.group(5)), m.group(6))
            continue
        m = re.match(r"^\?\s+(.+?)\s+\((.*)\)$", line)
        if m:
            refused.append((m.group(1), m.group(2)))
    return rows, refused


def debug_file(binary):
    bid = build_id(binary)
    if not bid:
        return None
    path = "/usr/lib/debug/.build-id/%s/%s.debug" % (bid[:2], bid[2:])
    return path if os.path.exists(path) else None


def libc(tap, lint):
    dbg = debug_file(LIBC) if os.path.exists(LIBC) else None
    if not dbg:
        tap.skip("libc6-dbg", "no debug file for %s (libc6-dbg not installed?)" % LIBC)
        return
    r = lint("--list", "*", dbg)
    rows, refused = list_rows(r.out)
    tap.ok(r.rc == 0 and len(rows) > 400, "libc.so.6: --list='*' exits 0, %d rows" % len(rows),
           "exit %d: %s" % (r.rc, r.err[-2000:]))
    tap.ok("_IO_FILE_plus" in rows and "_IO_jump_t" in rows,
           "libc.so.6: _IO_FILE_plus and _IO_jump_t are laid out, not \"distinct\"",
           "\n".join("%s: %s" % x for x in refused if x[0].startswith("_IO_")))
    if not have("pahole"):
        tap.skip("libc.so.6 against pahole", "pahole not installed")
        return
    p = run(["pahole", "--sizes", dbg], timeout=300)
    seen = collections.defaultdict(list)
    for line in p.out.splitlines():
        f = line.split("\t")
        if len(f) == 3:
            seen[f[0]].append((int(f[1]), int(f[2])))
    same, differ = 0, []
    for name, (size, holes, _) in rows.items():
        if len(seen.get(name, ())) != 1:
            continue
        if seen[name][0] == (size, holes):
            same += 1
        else:
            differ.append("%s: ours %d bytes %d holes, pahole %s" % (name, size, holes, seen[name]))
    tap.ok(same > 400 and not differ,
           "libc.so.6: %d structs with pahole's size and holes, %d differ" % (same, len(differ)),
           "\n".join(differ[:20]))


def distinct_differ(why):
    """A "distinct definitions" reason whose definitions differ somewhere."""
    defs = re.findall(r"(\S+:\d+) \(size (\d+), DIE", why)
    return len(defs) >= 2 and len(set(defs)) == len(defs)


def sizeof_oracle(rows, work, flags):
    """(names g++ agrees on, names it does not) among ROWS, under FLAGS.
    A name the translation unit cannot spell (an error other than the
    assertion, at its line or in what its line instantiates) is dropped and
    the rest compiled again."""
    alive = list(rows)
    src_path = os.path.join(work, "sizes.cc")
    for _ in range(8):
        lines, src = {}, ["#include <bits/stdc++.h>"]
        for name in alive:
            src.append("static_assert(sizeof(%s) == %d);" % (name, rows[name]))
            lines[len(src)] = name
        with open(src_path, "w") as f:
            f.write("\n".join(src) + "\n")
        p = run(["g++", *flags, "-fsyntax-only", "-fmax-errors=0", src_path], timeout=600)
        bad, failed, block = set(), set(), []
        for line in p.err.splitlines():
            m = re.match(re.escape(src_path) + r":(\d+):\d+:\s+(error|required from here)(.*)",
                         line)
            at = lines.get(int(m.group(1))) if m else None
            if at and m.group(2) == "error" and "static assertion failed" in m.group(3):
                failed.add(at)
            elif at:
                bad.add(at)	# its own error, or one in what it instantiates
        if not bad:
            return set(alive) - failed, failed
        alive = [n for n in alive if n not in bad]
    raise Failure("g++ %s: names still fail after 8 rounds" % " ".join(flags))


def libstdcxx(tap, lint, work):
    if not os.path.exists(LIBSTDCXX):
        tap.skip("libstdc++6-12-dbg", "%s is not installed" % LIBSTDCXX)
        return
    r = lint("--list", "*", LIBSTDCXX)
    rows, refused = list_rows(r.out)
    tap.ok(r.rc == 0 and len(rows) > 1400,
           "libstdc++: --list='*' exits 0 and lists the file whole, %d rows, %d refused"
           % (len(rows), len(refused)), "exit %d: %s" % (r.rc, r.err[-2000:]))
    odd = [(n, w) for n, w in refused
           if not w.startswith("not laid out: virtual base") and
           not (w.startswith("distinct definitions:") and distinct_differ(w))]
    tap.ok(not odd, "libstdc++: every ? row is a virtual base or definitions that differ",
           "\n".join("%s: %s" % x for x in odd[:20]))
    if not have("g++"):
        tap.skip("libstdc++ against g++", "g++ not installed")
        return
    nameable = {n: v[0] for n, v in rows.items()
                if "(anonymous" not in n and "{" not in n and not v[2].split(":")[0].endswith(".cc")}
    agree, disagree = set(), set()
    for flags in (["-std=c++20"], ["-std=c++20", "-D_GLIBCXX_USE_CXX11_ABI=0"]):
        a, d = sizeof_oracle(nameable, work, flags)
        agree |= a
        disagree |= d
    disagree -= agree
    tap.ok(len(agree) > 800 and not disagree,
           "libstdc++: g++ gives %d classes the size we do, %d another" % (len(agree), len(disagree)),
           "\n".join("%s: ours %d" % (n, nameable[n]) for n in sorted(disagree)[:20]))


def test(tap, a):
    lint = Lint(a.layoutlint)
    libc(tap, lint)
    libstdcxx(tap, lint, a.workdir)


if __name__ == "__main__":
    tap_main(test, "layoutlint", "workdir", doc=__doc__)
