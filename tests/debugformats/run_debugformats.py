#!/usr/bin/env python3
"""Debug formats beyond one .debug_info, against a plain build and the compiler.

usage: run_debugformats.py --layoutlint PATH --workdir DIR

a.c, b.c and c.c (with shared.h, whose types every unit defines) are built
with gcc and clang, DWARF 4 and 5, once plainly (the reference) and once
in each of these forms:

  - dwz: two copies of the binary through `dwz -m` (and `dwz -5 -m`, DWARF
    5's .debug_sup), which moves the types they share into a supplementary
    file named by a relative path;
  - split: -gsplit-dwarf, the types in one .dwo per unit;
  - dwp, llvm-dwp: the binary with those .dwo files gone and packaged
    beside it as BINARY.dwp;
  - types: -fdebug-types-section (DWARF 4: .debug_types; 5: type units);
  - types-object: the same as objects joined by ld -r, each type unit in a
    COMDAT section of its own (libdw reads only the first of a name);
  - a .dwo or .dwp given alone: exact layouts, and a note that the
    declaring files are in the binary.

For each: `--list='*'` prints the very listing of the plain build (every
struct, its size, holes and declaring file:line), the declaring file and
line of every struct are those its source shows, the JSON layouts turn
into _Static_assert(offsetof/sizeof/_Alignof) lines the same compiler
accepts (tests/cross's assertions), and the raw scan and the libdw walk
(LAYOUTLINT_SCAN=libdw) answer the same bytes.  Then the clear errors: a
missing supplementary file, a .dwo gone with no package, each one line,
exit 2.
"""

import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "cross"))
from lib import Failure, Tap, have, parse_args, run  # noqa: E402
from run_cross import struct_asserts  # noqa: E402

SOURCES = ["a.c", "b.c", "c.c"]
FLAGS = ["-std=gnu11", "-O0", "-g"]
TIMEOUT = 120


def truth():
    """{name: (file, line)} of every aggregate the fixture defines, from its source."""
    out = {}
    for f in ["shared.h"] + SOURCES:
        with open(os.path.join(HERE, f)) as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r"(?:struct|union) (\w+) \{", line)
                if m:
                    out[m.group(1)] = (f, n)
                m = re.match(r"typedef (?:struct|union) \{.*\} (\w+);", line)
                if m:
                    out[m.group(1)] = (f, n)
    return out


def cc_build(cc, dwarf, out, work, extra=()):
    cmd = [cc, *FLAGS, "-gdwarf-%d" % dwarf, *extra, *SOURCES, "-o", out]
    p = run(cmd, cwd=work, timeout=TIMEOUT)
    if p.rc != 0:
        raise Failure("%s: %s" % (" ".join(cmd), p.err.strip()))
    return os.path.join(work, out)


def types_object(cc, dwarf, work):
    """The sources' -fdebug-types-section objects, joined by ld -r (as a
    module is): each type unit in a COMDAT .debug_types (DWARF 4) or
    .debug_info (5) section of its own, beside the units' .debug_info."""
    objs = []
    for src in SOURCES:
        obj = "%s-%d-types-%s.o" % (cc, dwarf, src[:-2])
        cmd = [cc, *FLAGS, "-gdwarf-%d" % dwarf, "-fdebug-types-section", "-c", src, "-o", obj]
        p = run(cmd, cwd=work, timeout=TIMEOUT)
        if p.rc != 0:
            raise Failure("%s: %s" % (" ".join(cmd), p.err.strip()))
        objs.append(obj)
    out = "%s-%d-types.o" % (cc, dwarf)
    p = run(["ld", "-r", "-o", out, *objs], cwd=work, timeout=TIMEOUT)
    if p.rc != 0:
        raise Failure("ld -r: %s" % p.err.strip())
    return os.path.join(work, out)


def lint(layoutlint, args, env=None):
    return run([layoutlint, "--no-cache", *args], timeout=TIMEOUT, extra_env=env)


def listing(layoutlint, binary, env=None):
    return lint(layoutlint, ["--list=*", binary], env)


def json_layouts(layoutlint, binary, names, env=None):
    import json
    args = ["--format=json", binary]
    for n in names:
        args.append(n)
    p = lint(layoutlint, args, env)
    if p.rc != 0:
        return None, p.err.strip()
    return {s["name"]: s for s in json.loads(p.out)["structs"]}, p.out


def compiler_accepts(cc, work, tag, layouts):
    """(ok, errors): the _Static_assert lines of LAYOUTLINT's JSON, compiled by CC."""
    lines = ['#include "%s"' % s for s in SOURCES]
    for name, s in sorted(layouts.items()):
        # A typedef of an anonymous struct is named without a keyword.
        kind = "" if name.endswith("_t") else s["kind"]
        exprs, _ = struct_asserts(kind, s)
        for e, claim in exprs:
            lines.append('_Static_assert(%s, "%s %s");' % (e, name, claim.replace('"', "'")))
    path = os.path.join(work, "checks-%s.c" % tag)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run([cc, "-std=gnu11", "-w", "-fsyntax-only", path], cwd=work, timeout=TIMEOUT)
    return p.rc == 0, p.err.strip()


def check_form(tap, layoutlint, cc, dwarf, form, binary, ref_listing, names, work, want):
    tag = "%s-dwarf%d-%s" % (cc, dwarf, form)
    got = listing(layoutlint, binary)
    tap.ok(got.rc == 0 and got.out == ref_listing,
           "%s: --list='*' is the plain build's listing" % tag,
           "exit %d\n%s\n--- plain build:\n%s" % (got.rc, got.out + got.err, ref_listing))
    layouts, raw_json = json_layouts(layoutlint, binary, names)
    if layouts is None:
        tap.ok(False, "%s: every struct's layout" % tag, raw_json)
        return
    wrong = ["%s at %s:%s, source says %s:%d" % (n, s["decl"]["file"], s["decl"]["line"],
                                                  *want[n])
             for n, s in layouts.items() if (s["decl"]["file"], s["decl"]["line"]) != want[n]]
    tap.ok(sorted(layouts) == sorted(names) and not wrong,
           "%s: every struct found, declared where its source says" % tag,
           "found %s\n%s" % (sorted(layouts), "\n".join(wrong)))
    ok, errors = compiler_accepts(cc, work, tag, layouts)
    tap.ok(ok, "%s: %s accepts the offsets, sizes and alignments" % (tag, cc), errors)
    slow_list = listing(layoutlint, binary, {"LAYOUTLINT_SCAN": "libdw"})
    _, slow_json = json_layouts(layoutlint, binary, names, {"LAYOUTLINT_SCAN": "libdw"})
    tap.ok(slow_list.out == got.out and slow_json == raw_json,
           "%s: the raw scan and the libdw walk agree" % tag,
           "libdw walk listing:\n%s%s" % (slow_list.out, slow_list.err))


def error_point(tap, layoutlint, args, desc, pattern):
    p = lint(layoutlint, args)
    lines = p.err.strip().splitlines()
    tap.ok(p.rc == 2 and len(lines) == 1 and re.search(pattern, lines[0]) and not p.out,
           desc, "exit %d, stdout %r, stderr:\n%s" % (p.rc, p.out, p.err))


def dwz_forms(tap, layoutlint, cc, dwarf, work, plain, check):
    """dwz -m (and -5 -m) on two copies; the supplementary file by a relative name."""
    if not have("dwz"):
        tap.skip("%s-dwarf%d-dwz" % (cc, dwarf), "dwz is not installed")
        return
    if cc == "clang" and dwarf == 5:
        # dwz 0.15 stops at clang's DWARF 5 .debug_addr ("Unknown debugging section").
        tap.skip("clang-dwarf5-dwz", "dwz 0.15 cannot read clang's DWARF 5")
        return
    for sup in ([False, True] if cc == "gcc" and dwarf == 5 else [False]):
        form = "dwz5" if sup else "dwz"
        x, y = ["%s-%d-%s-%s" % (cc, dwarf, form, c) for c in "xy"]
        common = "%s-%d-%s.common" % (cc, dwarf, form)
        for copy in (x, y):
            shutil.copy(plain, os.path.join(work, copy))
        p = run(["dwz", *(["-5"] if sup else []), "-m", common, "-M", common, x, y],
                cwd=work, timeout=TIMEOUT)
        if p.rc != 0:
            tap.ok(False, "%s-dwarf%d-%s: dwz -m" % (cc, dwarf, form), p.err)
            continue
        check(form, os.path.join(work, x))
        moved = os.path.join(work, common + ".moved")
        os.rename(os.path.join(work, common), moved)
        error_point(tap, layoutlint, ["--list=*", os.path.join(work, x)],
                    "%s-dwarf%d-%s: the supplementary file missing is one line, exit 2"
                    % (cc, dwarf, form),
                    r"dwz supplementary file %s .*not found at .*%s" % (re.escape(common),
                                                                         re.escape(common)))
        os.rename(moved, os.path.join(work, common))


def main():
    args = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    layoutlint = os.path.abspath(args.layoutlint)
    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for f in ["shared.h"] + SOURCES:
        shutil.copy(os.path.join(HERE, f), work)
    want = truth()
    names = sorted(want)
    try:
        for cc in ("gcc", "clang"):
            if not have(cc):
                tap.skip(cc, "%s is not installed" % cc)
                continue
            for dwarf in (4, 5):
                plain = cc_build(cc, dwarf, "%s-%d-plain" % (cc, dwarf), work)
                ref = listing(layoutlint, plain)
                if not tap.ok(ref.rc == 0 and all(re.search(r"\b%s\b" % n, ref.out)
                                                  for n in names),
                              "%s-dwarf%d: the plain build lists every struct" % (cc, dwarf),
                              ref.out + ref.err):
                    continue

                def check(form, binary, cc=cc, dwarf=dwarf, ref=ref):
                    check_form(tap, layoutlint, cc, dwarf, form, binary, ref.out, names,
                               work, want)
                dwz_forms(tap, layoutlint, cc, dwarf, work, plain, check)
                split = "%s-%d-split" % (cc, dwarf)
                check("split", cc_build(cc, dwarf, split, work, ["-gsplit-dwarf"]))
                check("types", cc_build(cc, dwarf, "%s-%d-types" % (cc, dwarf), work,
                                        ["-fdebug-types-section"]))
                # Objects before linking: every COMDAT debug section read.
                check("types-object", types_object(cc, dwarf, work))
                split_forms(tap, layoutlint, cc, dwarf, work, split, want, check)
                if cc == "gcc" and dwarf == 4:
                    # Type units inside the .dwo files are not read: one line says so.
                    both = cc_build(cc, dwarf, "%s-%d-split-types" % (cc, dwarf), work,
                                    ["-gsplit-dwarf", "-fdebug-types-section"])
                    for what in (["--list=*"], [names[0]]):
                        error_point(tap, layoutlint,
                                    [what[0], both] if what[0].startswith("--")
                                    else [both, what[0]],
                                    "%s-dwarf%d: type units in the .dwo (%s): one line "
                                    "naming them, exit 2" % (cc, dwarf, what[0]),
                                    r"holds DWARF 4 type units \(\.debug_types\.dwo.*"
                                    r"build without -fdebug-types-section")
    except Failure as e:
        return tap.bail(str(e))
    return tap.finish()


def split_forms(tap, layoutlint, cc, dwarf, work, split, want, check):
    """A .dwo alone; a .dwp alone and beside the binary; a binary whose .dwo files are gone."""
    tag = "%s-dwarf%d" % (cc, dwarf)
    # gcc names a linked program's .dwo files PROGRAM-a.dwo, clang a.dwo.
    dwos = [os.path.join(work, ("%s-%s" % (split, s) if cc == "gcc" else s)[:-2] + ".dwo")
            for s in SOURCES]
    # a.c's .dwo holds a.c's structs and shared.h's.
    alone_point(tap, layoutlint, cc, work, tag + "-dwo", dwos[0],
                "declaring files live in the binary", ("shared.h", "a.c"))
    # binutils' dwp 2.40 crashes on gcc's DWARF 5 split units and llvm-dwp 14
    # hangs on them: each packages what its own toolchain writes.
    tools = ["llvm-dwp"] if cc == "clang" else ["dwp"] if dwarf == 4 else []
    packages = []
    for tool in tools:
        if not have(tool):
            tap.skip("%s: %s" % (tag, tool), "%s is not installed" % tool)
            continue
        dwp = os.path.join(work, "%s-%s.dwp" % (split, tool))
        r = run([tool, "-e", os.path.join(work, split), "-o", dwp], cwd=work, timeout=TIMEOUT)
        if not tap.ok(r.rc == 0, "%s: %s builds a package" % (tag, tool), r.err):
            continue
        alone_point(tap, layoutlint, cc, work, "%s-%s" % (tag, tool), dwp,
                    r"a DWARF package \(\.dwp\).*give the binary")
        packages.append((tool, dwp))
    gone = [d + ".gone" for d in dwos]
    for d, g in zip(dwos, gone):
        os.rename(d, g)
    try:
        error_point(tap, layoutlint, ["--list=*", os.path.join(work, split)],
                    "%s: a .dwo gone, no package: one line naming it, exit 2" % tag,
                    r"skeleton unit .* has its types in .*%s, which cannot be read, nor .*\.dwp"
                    % re.escape(os.path.basename(dwos[0])))
        # The package beside the binary, as gdb looks for it: BINARY.dwp.
        for tool, dwp in packages:
            os.rename(dwp, os.path.join(work, split + ".dwp"))
            try:
                check(tool, os.path.join(work, split))
            finally:
                os.rename(os.path.join(work, split + ".dwp"), dwp)
    finally:
        for d, g in zip(dwos, gone):
            os.rename(g, d)


def alone_point(tap, layoutlint, cc, work, tag, path, note, files=None):
    """PATH (a .dwo or .dwp) alone: exact layouts of every struct (of FILES), and NOTE.

    JSON carries the note in its "notes" (and stderr stays empty); text
    prints it on stderr.
    """
    import json
    names = sorted(n for n, (f, _) in truth().items() if files is None or f in files)
    p = lint(layoutlint, ["--format=json", path, *names])
    layouts, notes = None, []
    if p.rc == 0:
        doc = json.loads(p.out)
        layouts = {s["name"]: s for s in doc["structs"]}
        notes = doc.get("notes", [])
    ok = layouts is not None and sorted(layouts) == names and \
        compiler_accepts(cc, work, tag, layouts)[0]
    text = lint(layoutlint, [path, *names])
    sarif = lint(layoutlint, ["--format=sarif", path, *names])
    told = []
    if sarif.rc == 0:
        told = [n["message"]["text"] for inv in json.loads(sarif.out)["runs"][0]["invocations"]
                for n in inv.get("toolExecutionNotifications", []) if n["level"] == "note"]
    tap.ok(ok and len(notes) == 1 and re.search(note, notes[0]) and p.err == "" and
           told == notes and sarif.err == "" and
           text.rc == 0 and re.search("note: .*" + note, text.err),
           "%s alone: every struct exact, and a note that its files are in the binary "
           "(in JSON's notes and SARIF's notifications; on stderr with text)" % tag,
           "exit %d, notes %r, SARIF's %r\n%s\ntext: %s" % (p.rc, notes, told, p.err, text.err))


if __name__ == "__main__":
    sys.exit(main())
