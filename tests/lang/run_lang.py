#!/usr/bin/env python3
"""C++ and Rust layouts, and the selector for same-named definitions,
checked against the compilers' own view.

usage: run_lang.py --layoutlint PATH [--workdir DIR]

C++ (tests/lang/classes.cc, g++ and clang++, DWARF 2, 4 and 5): layoutlint
--format=json reads every class the fixture defines by its qualified name
(templates as the compiler spells them, which --list shows).  The JSON is
turned back into C++ and handed to the same compiler:

  - static_assert lines for sizeof(T), and for every data member (a base's
    members too, through T) offsetof(T, m) and sizeof(T::m), where an empty
    class member may be size 0 only if the compiler calls it empty;
  - a program, run here, that checks every base's offset
    (static_cast<Base *>(p) - p);
  - --suggest's proposal rebuilt as a class with the same bases and the
    members in the proposed order (decltype(T::m) m), whose offsets and
    size must be the proposal's: no base dropped or moved.

Static members must be absent, every byte must be a member, a hole or
padding, a class with a virtual base must be refused with a line saying
why, the raw scan (an executable) must find the same as the libdw walk
(LAYOUTLINT_SCAN=libdw), and a rules file must name a qualified and a
quoted template class.

Rust (tests/lang/shapes.rs, rustc): the program prints offset_of! and
size_of for each field; layoutlint's JSON must say the same, --suggest
must say rustc orders the fields itself, an enum must be refused.

Selector (tests/lang/select/): one .c file included by two others with a
#define that changes the struct's size; the ambiguity error names --cu,
--size and --die and the DIEs, and each selector picks the definition the
program says has that size.

gcc -flto (tests/lang/ltrans/): a VLA of a file-scope struct (or of
pointers to one) makes the ltrans unit ("<artificial>") write its own copy
of the struct without DW_AT_decl_file, as redis-server's robj argv[argc]
and dictEntry *des[n] do.  readelf must show that copy (gcc 12; another
gcc that writes none is a skip with its version), and on both scan paths
layoutlint must join it to its definition: laid out as main.c's
offsetof says, declared in shared.h, and beside a second struct of the
same name and size (other.h) the ambiguity names both files, never
"<unknown file>", and --decl-file picks each.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Lint, Tap, have, parse_args, run  # noqa: E402

CLASSES = os.path.join(HERE, "classes.cc")
SHAPES = os.path.join(HERE, "shapes.rs")
SELECT = os.path.join(HERE, "select")
STDLIB = os.path.join(HERE, "stdlib.cc")
KEYFN = os.path.join(HERE, "keyfn.cc")
KEYFN_KEY = os.path.join(HERE, "keyfn_key.cc")
KEYFN_H = os.path.join(HERE, "keyfn.h")
TWOPATHS = os.path.join(HERE, "twopaths")
LTRANS = os.path.join(HERE, "ltrans")
LTRANS = os.path.join(HERE, "ltrans")
STDLIB_NAMES = ["Holder", "Owner", "TupleHolder", "NodeHolder", "Nested", "Deep", "WithUnion",
                "KeepsByte", "MemberPointers"]

# Every class of classes.cc laid out; Pair<geo::Base, short> is spelled by each
# compiler its own way and found with --list.
CXX_NAMES = ["geo::Base", "geo::Derived", "geo::Counted", "geo::Outer", "geo::Outer::Inner",
             "geo::Pair<int, char>", "geo::deep::Leaf", "geo::Level1", "geo::Level2",
             "Shape", "Square", "Tail"]
CXX_FLAGS = ["-std=c++20", "-O0"]
TIMEOUT = 120


def members_of(s):
    return s["members"]


def leaves_through_bases(s):
    """(name, member) of every data member reachable as T::name: the
    top-level ones and, through bases, theirs."""
    out = []

    def walk(ms):
        for m in ms:
            if m.get("base"):
                walk(m["members"])
            elif m["name"] and not m["name"].startswith("_vptr"):
                out.append((m["name"], m))
    walk(members_of(s))
    return out


def bases_of(s):
    """(base type, offset) of every base, at any depth of bases."""
    out = []

    def walk(ms):
        for m in ms:
            if m.get("base"):
                out.append((m["name"][len("<base "):-1], m["offset"]))
                walk(m["members"])
    walk(members_of(s))
    return out


def oracle_source(structs, header=CLASSES):
    """C++ that the compiler accepts only if every figure is its own."""
    lines = ['#include "%s"' % header, "#include <cstddef>", "#include <cstdio>",
             "#include <type_traits>", ""]
    runtime = []
    for i, s in enumerate(structs):
        # An alias: offsetof is a macro, and "Pair<int, char>" holds a comma.
        t = "T%d" % i
        lines.append("using %s = %s;" % (t, s["name"]))
        lines.append("static_assert(sizeof(%s) == %d, \"sizeof %s\");" % (t, s["size"], t))
        for name, m in leaves_through_bases(s):
            if m["bit_size"] is not None:
                continue
            lines.append("static_assert(offsetof(%s, %s) == %d, \"offsetof %s.%s\");"
                         % (t, name, m["offset"], t, name))
            # A union of one empty [[no_unique_address]] member takes no room
            # either, though is_empty is never true of a union.
            lines.append("static_assert(sizeof(%s::%s) == %d || (%d == 0 && "
                         "(std::is_empty_v<decltype(%s::%s)> || "
                         "(std::is_union_v<decltype(%s::%s)> && sizeof(%s::%s) == 1))), "
                         "\"sizeof %s.%s\");"
                         % (t, name, m["size"], m["size"], t, name, t, name, t, name, t, name))
        for base, off in bases_of(s):
            runtime.append('\tbad |= check("%s", "%s", (char *)static_cast<%s *>((%s *)buf) - buf, %d);'
                           % (t, base, base, t, off))
        sg = s.get("suggestion")
        if sg and not sg.get("impossible"):
            lines += proposal_class(s, sg, i)
    lines += ["", "static int check(const char *t, const char *b, long got, long want)", "{",
              "\tif (got == want)", "\t\treturn 0;",
              '\tprintf("%s: base %s at %ld, layoutlint says %ld\\n", t, b, got, want);',
              "\treturn 1;", "}", "", "alignas(64) static char buf[4096];", "",
              "int main()", "{", "\tint bad = 0;", ""] + runtime + ["\treturn bad;", "}"]
    return "\n".join(lines) + "\n"


def proposal_class(s, sg, i):
    """The proposal as a class: the same bases, members in the new order."""
    t = "T%d" % i
    by_path = {}

    def walk(ms):
        for m in ms:
            if m["path"]:
                by_path[m["path"]] = m
            if not m["name"] or m.get("base"):
                walk(m["members"])
    walk(members_of(s))
    bases, fields = [], []
    for p in sg["members"]:
        m = by_path.get(p["path"])
        if m is None or p["container"] is not None:
            return []       # nested proposals are not rebuilt here
        if m.get("base"):
            bases.append((m["name"][len("<base "):-1], p))
        elif m["bit_size"] is not None or m["name"].startswith("_vptr"):
            return []
        else:
            fields.append((m, p))
    name = "Proposed%d" % i
    out = ["struct %s%s {" % (name, (" : " + ", ".join(b for b, _ in bases)) if bases else "")]
    for m, p in fields:
        nua = "[[no_unique_address]] " if m["size"] == 0 else ""
        out.append("\t%sdecltype(%s::%s) %s;" % (nua, t, m["name"], m["name"]))
    out.append("};")
    for m, p in fields:
        if m["size"]:
            out.append("static_assert(offsetof(%s, %s) == %d, \"proposed %s.%s\");"
                       % (name, m["name"], p["offset"], t, m["name"]))
    out.append("static_assert(sizeof(%s) == %d, \"proposed sizeof %s\");" % (name, sg["size"], t))
    return out


def build(cmd, tap, what):
    p = run(cmd, timeout=TIMEOUT)
    if p.rc != 0:
        tap.ok(False, what, "%s\n%s" % (" ".join(cmd), p.err))
        return False
    return True


def cxx_names(lint, binary):
    """CXX_NAMES and the compiler's spelling of Pair<geo::Base, short>."""
    rc, out, err = lint("--list", "geo::Pair<geo::Base*", binary)
    rows = [line.split(None, 1)[1].rsplit(None, 4)[0] for line in out.splitlines()[1:]
            if line.startswith("struct ")]
    return CXX_NAMES + rows


def cxx_variant(tap, lint, work, cxx, dwarf):
    tag = "%s dwarf%s" % (cxx, dwarf)
    obj = os.path.join(work, "classes-%s-%s.o" % (cxx, dwarf))
    exe = os.path.join(work, "classes-%s-%s" % (cxx, dwarf))
    flags = CXX_FLAGS + ["-gdwarf-" + dwarf]
    if not build([cxx, *flags, "-c", CLASSES, "-o", obj], tap, tag + ": compiles") or \
       not build([cxx, *flags, "-DWITH_MAIN", CLASSES, "-o", exe], tap, tag + ": links"):
        return
    names = cxx_names(lint, obj)
    tap.ok(len(names) == len(CXX_NAMES) + 1, "%s: --list finds geo::Pair<geo::Base, ...>" % tag,
           "names: %s" % names)
    rc, doc, err = lint.json("--format=json", "--suggest", obj, *names)
    if not tap.ok(rc == 0 and "structs" in doc, "%s: every class laid out" % tag,
                  "exit %d: %s %s" % (rc, err, doc.get("error", ""))):
        return
    structs = doc["structs"]
    found = {s["name"] for s in structs}
    tap.ok(found == set(names), "%s: found under their qualified names" % tag,
           "asked %s, got %s" % (names, sorted(found)))
    by_name = {s["name"]: s for s in structs}
    statics = [(t, m) for t, m in (("geo::Derived", "instances"), ("geo::Outer", "limit"))
               if any(x["name"] == m for x in members_of(by_name.get(t, {"members": []})))]
    tap.ok(not statics, "%s: static data members are not members" % tag, "kept: %s" % statics)
    bad = []
    for s in structs:
        total = sum(m["size"] for m in members_of(s)) + s["hole_bytes"] + s["padding"]
        if total != s["size"]:
            bad.append("%s: members %d + holes + padding = %d, size %d"
                       % (s["name"], total - s["hole_bytes"] - s["padding"], total, s["size"]))
    tap.ok(not bad, "%s: every byte is a member (bases too), a hole or padding" % tag,
           "\n".join(bad))
    base_count = sum(len(bases_of(s)) for s in structs)
    tap.ok(base_count >= 7, "%s: bases listed (%d)" % (tag, base_count))
    src = os.path.join(work, "oracle-%s-%s.cc" % (cxx, dwarf))
    with open(src, "w") as f:
        f.write(oracle_source(structs))
    prog = src[:-3]
    if build([cxx, *CXX_FLAGS, "-Wno-invalid-offsetof", src, "-o", prog], tap,
             "%s: the compiler agrees with every offset, size and proposal" % tag):
        p = run([prog], timeout=TIMEOUT)
        tap.ok(p.rc == 0, "%s: every base at the compiler's offset" % tag, p.out + p.err)
        tap.ok(True, "%s: the compiler agrees with every offset, size and proposal" % tag)
    rc, out, err = lint("--contains", "geo::Base", obj)
    holders = sorted(line.split(": ")[0] for line in out.splitlines())
    want = sorted(["struct geo::Derived", "struct " + names[-1]])
    tap.ok(rc == 0 and holders == want and "struct geo::Base first" in out,
           "%s: --contains geo::Base finds the base and the member, by qualified type" % tag,
           "exit %d, %s (want %s): %s %s" % (rc, holders, want, out, err))
    rc, out, err = lint(obj, "Inner")
    tap.ok(rc == 2 and "did you mean struct geo::Outer::Inner?" in err,
           "%s: an unqualified name of a nested type suggests the qualified one" % tag, err)
    rc, out, err = lint("--format=json", obj, "Virtual")
    tap.ok(rc == 2 and "virtual base geo::Base" in err and "run time" in err,
           "%s: a virtual base is refused with a line saying why" % tag, "exit %d: %s" % (rc, err))
    rc, out, err = lint("--list", "*", obj)
    tap.ok(rc == 0 and re.search(r"^\?\s+Virtual\s+\(not laid out: virtual base", out, re.M),
           "%s: --list shows the class it does not lay out, and why" % tag, out + err)
    # The raw scan reads executables; LAYOUTLINT_SCAN=libdw is the libdw walk.
    raw = lint("--format=json", exe, *names)
    libdw = lint("--format=json", exe, *names, extra_env={"LAYOUTLINT_SCAN": "libdw"})
    tap.ok(raw.rc == 0 and raw.out == libdw.out,
           "%s: the raw scan finds qualified names as the libdw walk does" % tag,
           "exit %d/%d: %s %s" % (raw.rc, libdw.rc, raw.err, libdw.err))
    raw = lint("--list", "*", exe)
    libdw = lint("--list", "*", exe, extra_env={"LAYOUTLINT_SCAN": "libdw"})
    tap.ok(raw.rc == 0 and raw.out == libdw.out and "geo::Outer::Inner" in raw.out,
           "%s: --list is the same on both paths" % tag, raw.err + libdw.err)
    rules = os.path.join(work, "classes-%s-%s.rules" % (cxx, dwarf))
    with open(rules, "w") as f:
        f.write("struct geo::Derived\n\tread-mostly id flags\n\twrite-hot count\n"
                "struct 'geo::Pair<int, char>'\n\twrite-hot second\n")
    rc, doc, err = lint.json("--format=json", "-r", rules, obj)
    tags = {}
    for s in doc.get("structs", []):
        def walk(ms):
            for m in ms:
                tags[(s["name"], m["path"])] = m["tag"]
                walk(m["members"])
        walk(members_of(s))
    tap.ok(rc == 1 and tags.get(("geo::Derived", "id")) == "read-mostly" and
           tags.get(("geo::Derived", "count")) == "write-hot" and
           tags.get(("geo::Pair<int, char>", "second")) == "write-hot",
           "%s: rules name qualified and quoted template classes, and a base's members" % tag,
           "exit %d: %s %s" % (rc, err, {k: v for k, v in tags.items() if v != "untagged"}))


def cxx_stdlib(tap, lint, work, cxx, dwarf):
    """Everyday C++ (stdlib.cc): what holds std::string, std::vector,
    std::map, std::unique_ptr, a tuple with an empty deleter, a node handle,
    empty bases nested in empty bases, [[no_unique_address]] members at any
    depth, pointers to members and std::nullptr_t, at -O2 -std=c++17, each
    laid out as the compiler says; and a whole-file listing with no row
    refused."""
    tag = "stdlib %s dwarf%s" % (cxx, dwarf)
    obj = os.path.join(work, "stdlib-%s-%s.o" % (cxx, dwarf))
    exe = os.path.join(work, "stdlib-%s-%s" % (cxx, dwarf))
    flags = ["-std=c++17", "-O2", "-gdwarf-" + dwarf]
    if not build([cxx, *flags, "-c", STDLIB, "-o", obj], tap, tag + ": compiles") or \
       not build([cxx, *flags, "-DWITH_MAIN", STDLIB, "-o", exe], tap, tag + ": links"):
        return
    rc, out, err = lint("--list", "*", obj)
    refused = [line for line in out.splitlines() if line.startswith("?")]
    rows = [line.split()[1] for line in out.splitlines()[1:] if not line.startswith("?")]
    tap.ok(rc == 0 and not refused and set(STDLIB_NAMES) <= set(rows) and
           any(r.startswith("std::") for r in rows),
           "%s: --list='*' lists every class, the library's too, none refused" % tag,
           "exit %d: %s\n%s" % (rc, "\n".join(refused), err))
    rc, doc, err = lint.json("--format=json", obj, *STDLIB_NAMES)
    if not tap.ok(rc == 0 and len(doc.get("structs", [])) == len(STDLIB_NAMES),
                  "%s: every class laid out" % tag, "exit %d: %s" % (rc, err)):
        return
    structs = doc["structs"]
    bad = []
    for s in structs:
        total = sum(m["size"] for m in members_of(s)) + s["hole_bytes"] + s["padding"]
        if total != s["size"]:
            bad.append("%s: members + holes + padding = %d, size %d" % (s["name"], total, s["size"]))
    tap.ok(not bad, "%s: every byte is a member, a hole or padding" % tag, "\n".join(bad))
    by_name = {s["name"]: s for s in structs}
    fm = [m for m in members_of(by_name["MemberPointers"]) if m["name"] == "fm"]
    tap.ok(fm and fm[0]["type"].startswith("int (Target::*)"),
           "%s: a pointer to member function is spelled as C++ does" % tag, str(fm))
    src = os.path.join(work, "stdlib-oracle-%s-%s.cc" % (cxx, dwarf))
    with open(src, "w") as f:
        f.write(oracle_source(structs, STDLIB))
    prog = src[:-3]
    if build([cxx, "-std=c++17", "-Wno-invalid-offsetof", src, "-o", prog], tap,
             "%s: the compiler agrees with every offset and size" % tag):
        p = run([prog], timeout=TIMEOUT)
        tap.ok(p.rc == 0, "%s: every base at the compiler's offset" % tag, p.out + p.err)
        tap.ok(True, "%s: the compiler agrees with every offset and size" % tag)
    raw = lint("--list", "*", exe)
    libdw = lint("--list", "*", exe, extra_env={"LAYOUTLINT_SCAN": "libdw"})
    tap.ok(raw.rc == 0 and raw.out == libdw.out and "\nstruct Holder " in raw.out,
           "%s: --list of the executable is the same on both paths" % tag,
           "exit %d/%d: %s %s" % (raw.rc, libdw.rc, raw.err, libdw.err))


def refused_row(tap, lint, work, cxx):
    """A class whose base or member is only declared in this object (its key
    function is in another): its --list row says why and every other row is
    listed; asked for by name, it is one line. Linked with the
    unit that defines it, every class is laid out as the compiler says, on
    both scan paths."""
    tag = "keyfn %s" % cxx
    obj = os.path.join(work, "keyfn-%s.o" % cxx)
    exe = os.path.join(work, "keyfn-%s" % cxx)
    if not build([cxx, "-std=c++17", "-O2", "-g", "-c", KEYFN, "-o", obj], tap,
                 tag + ": compiles") or \
       not build([cxx, "-std=c++17", "-O2", "-g", KEYFN, KEYFN_KEY, "-o", exe], tap,
                 tag + ": links"):
        return
    rc, out, err = lint("--list", "*", obj)
    tap.ok(rc == 0 and re.search(r"^\?\s+UsesKey\s+\(not laid out: type Key .* only declared",
                                 out, re.M) and
           re.search(r"^\?\s+HasKey\s+\(not laid out: ", out, re.M) and
           re.search(r"^struct\s+Plain\s+16\s", out, re.M),
           "%s: a class only declared in the file is a row saying why; the others are listed"
           % tag, "exit %d: %s %s" % (rc, out, err))
    rc, out, err = lint(obj, "HasKey")
    tap.ok(rc == 2 and out == "" and err.count("\n") == 1 and "only declared" in err,
           "%s: asked for, such a class is one line saying why, exit 2" % tag, out + err)
    names = ["UsesKey", "HasKey", "Plain", "Key"]
    for env in ({}, {"LAYOUTLINT_SCAN": "libdw"}):
        path = " (libdw walk)" if env else ""
        rc, out, err = lint("--list", "*", exe, extra_env=env)
        tap.ok(rc == 0 and not re.search(r"^\?", out, re.M) and
               all(re.search(r"^struct\s+%s\s" % n, out, re.M) for n in names),
               "%s%s: in the program, a class only declared in its unit is listed as defined "
               "in the other" % (tag, path), "exit %d: %s %s" % (rc, out, err))
        rc, doc, err = lint.json("--format=json", exe, *names, extra_env=env)
        if not tap.ok(rc == 0 and len(doc.get("structs", [])) == len(names),
                      "%s%s: every class laid out" % (tag, path), "exit %d: %s" % (rc, err)):
            continue
        src = os.path.join(work, "keyfn-oracle-%s%s.cc" % (cxx, "-libdw" if env else ""))
        with open(src, "w") as f:
            f.write(oracle_source(doc["structs"], KEYFN_H))
        prog = src[:-3]
        if build([cxx, "-std=c++17", "-Wno-invalid-offsetof", src, "-o", prog], tap,
                 "%s%s: the compiler agrees with every offset and size" % (tag, path)):
            p = run([prog], timeout=TIMEOUT)
            tap.ok(p.rc == 0, "%s%s: every base at the compiler's offset" % (tag, path),
                   p.out + p.err)
            tap.ok(True, "%s%s: the compiler agrees with every offset and size" % (tag, path))


def rust(tap, lint, work):
    if not have("rustc"):
        tap.skip("rust", "rustc not installed")
        return
    v = re.match(r"rustc (\d+)\.(\d+)", run(["rustc", "--version"]).out)
    if not v or (int(v.group(1)), int(v.group(2))) < (1, 77):
        tap.skip("rust", "rustc 1.77 or later needed for offset_of! (%s)"
                 % run(["rustc", "--version"]).out.strip())
        return
    exe = os.path.join(work, "shapes")
    if not build(["rustc", "-g", "--edition", "2021", "--crate-name", "shapes", SHAPES,
                  "-o", exe], tap, "rust: compiles"):
        return
    p = run([exe], timeout=TIMEOUT)
    truth = {}
    for line in p.out.splitlines():
        w = line.split()
        if w[1] == "SIZE":
            truth.setdefault(w[0], {})["SIZE"] = int(w[2])
        else:
            truth.setdefault(w[0], {})[w[1]] = (int(w[2]), int(w[3]))
    tap.ok(p.rc == 0 and len(truth) == 5, "rust: the program says where rustc put each field",
           p.out + p.err)
    for env in ({}, {"LAYOUTLINT_SCAN": "libdw"}):
        rc, doc, err = lint.json("--format=json", exe, *truth, extra_env=env)
        got = {}
        for s in doc.get("structs", []):
            got[s["name"]] = {"SIZE": s["size"]}
            offsets = [m["offset"] for m in s["members"]]
            got[s["name"]]["sorted"] = offsets == sorted(offsets)
            for m in s["members"]:
                got[s["name"]][m["name"]] = (m["offset"], m["size"])
        bad = ["%s: %s" % (t, {k: (v, got.get(t, {}).get(k)) for k, v in f.items()
                               if got.get(t, {}).get(k) != v})
               for t, f in truth.items()
               if any(got.get(t, {}).get(k) != v for k, v in f.items())
               or not got.get(t, {}).get("sorted")]
        tap.ok(rc == 0 and not bad, "rust%s: every field where offset_of! says, in offset order"
               % (" (libdw walk)" if env else ""), "exit %d: %s\n%s" % (rc, err, "\n".join(bad)))
    rc, out, err = lint("--suggest", exe, "shapes::geo::CPoint")
    tap.ok(rc == 0 and "rustc already orders the fields" in err and "suggested layout" not in out,
           "rust: --suggest says rustc orders fields itself, proposes no C order", out + err)
    raw = lint("--list", "shapes::*", exe)
    libdw = lint("--list", "shapes::*", exe, extra_env={"LAYOUTLINT_SCAN": "libdw"})
    tap.ok(raw.rc == 0 and raw.out == libdw.out and
           re.search(r"^struct\s+shapes::geo::deep::Leaf\s+16\s", raw.out, re.M) and
           re.search(r"^\?\s+shapes::geo::Shape\s+\(not laid out: .*Rust enum", raw.out, re.M),
           "rust: --list shows structs by path and the enum as not laid out, on both paths",
           raw.out + raw.err + libdw.err)
    rc, out, err = lint(exe, "shapes::geo::Shape")
    tap.ok(rc == 2 and "Rust enum" in err, "rust: an enum is refused with a line saying why",
           "exit %d: %s" % (rc, err))


def several_names(tap, lint, work):
    """Several names, some of which cannot be linted (one of a shape layoutlint refuses,
    one missing): the others are reported, each refusal is one error line after the
    report, in the order asked, and the exit status is 2. A run that would write a file
    stays all or nothing."""
    src = os.path.join(work, "several.c")
    with open(src, "w") as f:
        f.write("struct big { char a[1UL << 33]; int x; };\n"
                "struct small { int a; long b; };\n"
                "struct big *pb; struct small *ps;\n")
    obj = os.path.join(work, "several.o")
    if not build(["gcc", "-g", "-c", src, "-o", obj], tap, "several names: compiles"):
        return
    rc, out, err = lint(obj, "struct", "big", "struct", "small", "struct", "nosuch")
    lines = err.splitlines()
    tap.ok(rc == 2 and re.search(r"^struct small \{", out, re.M) and "struct big" not in out and
           len(lines) == 2 and "struct big" in lines[0] and "4095 MiB" in lines[0] and
           "struct nosuch not found" in lines[1],
           "several names: the one laid out is reported, then one line per refusal, exit 2",
           "exit %d\n%s\n%s" % (rc, out, err))
    rc, out, err = lint("--format=json", obj, "struct", "nosuch", "struct", "small")
    doc = json.loads(out) if rc == 2 and out else {}
    tap.ok([s["name"] for s in doc.get("structs", [])] == ["small"] and
           err.count("\n") == 1,
           "several names, JSON: a valid document of the structs laid out, the refusal on "
           "stderr", "exit %d\n%s\n%s" % (rc, out[:500], err))
    baseline = os.path.join(work, "several.baseline")
    rc, out, err = lint("--write-baseline", baseline, obj, "struct", "small", "struct", "nosuch")
    tap.ok(rc == 2 and out == "" and err.count("\n") == 1 and not os.path.exists(baseline),
           "several names with --write-baseline: nothing written, nothing reported, one line",
           "exit %d\n%s\n%s" % (rc, out, err))
    rc, out, err = lint(obj, "struct", "nosuch", "struct", "big")
    tap.ok(rc == 2 and out == "" and err.count("\n") == 2,
           "several names, none laid out: only the two lines", "exit %d\n%s\n%s" % (rc, out, err))


def selector(tap, lint, work):
    srcs = [os.path.join(SELECT, "native.c"), os.path.join(SELECT, "compat.c")]
    for cc in [c for c in ("gcc", "clang") if have(c)]:
        for dwarf in ("4", "5"):
            tag = "select %s dwarf%s" % (cc, dwarf)
            exe = os.path.join(work, "select-%s-%s" % (cc, dwarf))
            if not build([cc, "-g", "-gdwarf-" + dwarf, "-O0", *srcs, "-o", exe], tap, tag):
                continue
            p = run([exe], timeout=TIMEOUT)
            sizes = dict((w[0], int(w[1])) for w in (l.split() for l in p.out.splitlines()))
            if not tap.ok(len(set(sizes.values())) == 2, "%s: two sizes" % tag, p.out):
                continue
            rc, out, err = lint(exe, "core_info")
            dies = re.findall(r"\(size (\d+), DIE (0x[0-9a-f]+)\)", err)
            tap.ok(rc == 2 and len(dies) == 2 and all(o in err for o in
                                                      ("--cu GLOB", "--size N", "--die OFFSET")),
                   "%s: the ambiguity error names the selectors and each DIE" % tag, err)
            for env in ({}, {"LAYOUTLINT_SCAN": "libdw"}):
                path = " (libdw walk)" if env else ""
                for unit, size in sizes.items():
                    rc, doc, err = lint.json("--format=json", "--cu", "*" + unit, exe,
                                             "core_info", extra_env=env)
                    got = [s["size"] for s in doc.get("structs", [])]
                    tap.ok(rc == 0 and got == [size], "%s%s: --cu '*%s' picks size %d"
                           % (tag, path, unit, size), "exit %d, %s: %s" % (rc, got, err))
                    rc, doc, err = lint.json("--format=json", "--size", str(size), exe,
                                             "core_info", extra_env=env)
                    got = [s["size"] for s in doc.get("structs", [])]
                    tap.ok(rc == 0 and got == [size], "%s%s: --size %d" % (tag, path, size),
                           "exit %d, %s: %s" % (rc, got, err))
                for size, die in dies:
                    rc, doc, err = lint.json("--format=json", "--die", die, exe, "core_info",
                                             extra_env=env)
                    got = [(s["size"], s["origin"]) for s in doc.get("structs", [])]
                    tap.ok(rc == 0 and got == [(int(size), int(die, 16))],
                           "%s%s: --die %s" % (tag, path, die), "exit %d, %s: %s" % (rc, got, err))
            rc, out, err = lint("--size", "3", exe, "core_info")
            tap.ok(rc == 2 and "matches --size 3" in err and "DIE 0x" in err,
                   "%s: a selector that picks nothing says so and lists the definitions" % tag, err)


def two_paths(tap, lint, work):
    """One header reached by two relative paths, from units compiled in two
    directories (lib/user.c from twopaths/, src/main.c from twopaths/src/):
    one definition, not two, on both scan paths and with --prefix-map."""
    tree = os.path.join(work, "twopaths")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(TWOPATHS, tree)
    # Relative: -fdebug-prefix-map=TREE=. makes every comp_dir relative
    # ("." and "./src"), as Debian builds glibc.
    for cc, dwarf, mapped in [(c, d, m) for c in ("gcc", "clang") if have(c)
                              for d in ("4", "5") for m in (False, True)]:
        if True:
            tag = "two paths %s dwarf%s%s" % (cc, dwarf, " comp_dir relative" if mapped else "")
            v = "%s-%s%s" % (cc, dwarf, "-rel" if mapped else "")
            lib_o = os.path.join(tree, "user-%s.o" % v)
            main_o = os.path.join(tree, "main-%s.o" % v)
            exe = os.path.join(tree, "two-%s" % v)
            flags = ["-g", "-gdwarf-" + dwarf, "-O0", "-c"]
            if mapped:
                flags.append("-fdebug-prefix-map=%s=." % tree)
            p1 = run([cc, *flags, "lib/user.c", "-o", lib_o], cwd=tree, timeout=TIMEOUT)
            p2 = run([cc, *flags, "main.c", "-o", main_o], cwd=os.path.join(tree, "src"),
                     timeout=TIMEOUT)
            if not tap.ok(p1.rc == 0 and p2.rc == 0 and
                          build([cc, lib_o, main_o, "-o", exe], tap, tag + ": links"),
                          tag + ": compiles in two directories", p1.err + p2.err):
                continue
            truth = [int(x) for x in run([exe], timeout=TIMEOUT).out.split()]
            for env in ({}, {"LAYOUTLINT_SCAN": "libdw"}):
                path = " (libdw walk)" if env else ""
                for extra in ([], ["--prefix-map", tree + "=/build"]):
                    rc, doc, err = lint.json("--format=json", *extra, exe, "shared",
                                             extra_env=env)
                    got = [(s["size"], [m["offset"] for m in s["members"]])
                           for s in doc.get("structs", [])]
                    tap.ok(rc == 0 and got == [(truth[0], truth[1:])],
                           "%s%s%s: one definition, as the compiler lays it out" %
                           (tag, path, " --prefix-map" if extra else ""),
                           "exit %d, %s (want %s): %s" % (rc, got, truth, err))
                rc, out, err = lint("--list", "*", exe, extra_env=env)
                tap.ok(rc == 0 and re.search(r"^struct\s+shared\s+%d\s" % truth[0], out, re.M)
                       and not re.search(r"^\?", out, re.M),
                       "%s%s: --list shows it once, not as distinct definitions" % (tag, path),
                       out + err)


def ltrans_copies(exe):
    """{name: DIE offset} of the structs and unions an <artificial> (ltrans)
    unit of EXE defines with members and a byte size but no DW_AT_decl_file."""
    p = run(["readelf", "--debug-dump=info", exe], timeout=TIMEOUT, check=True)
    found, die, in_ltrans, unit = {}, None, False, False

    def close(d):
        if (d and in_ltrans and d.get("name") and d.get("size") and d.get("members")
                and not d.get("file") and not d.get("declaration")):
            found[d["name"]] = d["offset"]

    for line in p.out.splitlines():
        m = re.match(r"\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)", line)
        if m:
            depth, tag = int(m.group(1)), m.group(3)
            if depth == 2 and tag == "DW_TAG_member" and die is not None:
                die["members"] = True
                continue
            if depth <= 1:
                close(die)
                die = None
            unit = tag == "DW_TAG_compile_unit"
            if depth == 1 and tag in ("DW_TAG_structure_type", "DW_TAG_union_type"):
                die = {"offset": int(m.group(2), 16)}
            continue
        a = re.match(r"\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)", line)
        if not a:
            continue
        if unit and a.group(1) == "DW_AT_name":
            in_ltrans = a.group(2).endswith("<artificial>")
        elif die is not None and not die.get("members"):
            key = {"DW_AT_name": "name", "DW_AT_byte_size": "size",
                   "DW_AT_decl_file": "file", "DW_AT_declaration": "declaration"}.get(a.group(1))
            if key:
                die[key] = a.group(2).rsplit(": ", 1)[-1].strip()
    close(die)
    return found


def ltrans(tap, lint, work):
    """gcc -flto: the ltrans unit's copy of a struct without a declaring file
    is its definition, not a second one."""
    if not have("gcc"):
        tap.skip("ltrans", "no gcc")
        return
    exe = os.path.join(work, "ltrans")
    srcs = [os.path.join(LTRANS, f) for f in ("main.c", "user.c", "other.c")]
    if not build(["gcc", "-g", "-O2", "-flto", *srcs, "-o", exe], tap, "ltrans: compiles"):
        return
    truth = {}
    for line in run([exe], timeout=TIMEOUT, check=True).out.splitlines():
        w = line.split()
        truth[w[0]] = [int(x) for x in w[1:]]
    copies = ltrans_copies(exe)
    version = run(["gcc", "-dumpversion"], timeout=TIMEOUT).out.strip()
    if not {"obj", "entry"} <= set(copies):
        if version.split(".")[0] != "12":
            tap.skip("ltrans: gcc -flto writes copies without DW_AT_decl_file",
                     "gcc %s writes none (%s); the fixture was made for gcc 12"
                     % (version, sorted(copies)))
            return
        tap.ok(False, "ltrans: gcc -flto writes copies without DW_AT_decl_file",
               "gcc %s: copies %s" % (version, sorted(copies)))
        return
    tap.ok(True, "ltrans: gcc %s writes struct obj and struct entry in an <artificial> unit "
           "without DW_AT_decl_file" % version)
    for env in ({}, {"LAYOUTLINT_SCAN": "libdw"}):
        path = " (libdw walk)" if env else ""
        rc, doc, err = lint.json("--format=json", exe, "obj", extra_env=env)
        got = [(s["size"], [m["offset"] for m in s["members"] if m["bit_size"] is None],
                os.path.basename((s["decl"] or {}).get("file") or ""))
               for s in doc.get("structs", [])]
        want = [(truth["obj"][0], truth["obj"][1:], "shared.h")]
        tap.ok(rc == 0 and got == want,
               "ltrans%s: struct obj laid out as the compiler says, declared in shared.h" % path,
               "exit %d, %s (want %s): %s" % (rc, got, want, err))
        rc, out, err = lint(exe, "entry", extra_env=env)
        tap.ok(rc == 2 and "distinct definitions" in err and "shared.h:" in err and
               "other.h:" in err and "<unknown file>" not in err and err.count("DIE 0x") == 2,
               "ltrans%s: struct entry is two definitions, shared.h's and other.h's, "
               "not the ltrans copy" % path, "exit %d: %s" % (rc, err))
        for header, name in (("shared.h", "entry"), ("other.h", "other")):
            rc, doc, err = lint.json("--format=json", "--decl-file", header, exe, "entry",
                                     extra_env=env)
            got = [[s["size"]] + [m["offset"] for m in s["members"]]
                   for s in doc.get("structs", [])]
            tap.ok(rc == 0 and got == [truth[name]],
                   "ltrans%s: --decl-file %s picks its struct entry" % (path, header),
                   "exit %d, %s (want %s): %s" % (rc, got, truth[name], err))
        rc, out, err = lint("--list", "*", exe, extra_env=env)
        tap.ok(rc == 0 and re.search(r"^struct\s+obj\s+%d\s.*shared\.h:" % truth["obj"][0],
                                     out, re.M)
               and "<unknown file>" not in out,
               "ltrans%s: --list shows struct obj once, declared in shared.h" % path, out + err)
        # --die naming the copy itself lays that copy out.
        rc, doc, err = lint.json("--format=json", "--die", hex(copies["obj"]), exe, "obj",
                                 extra_env=env)
        got = [(s["origin"], s["size"]) for s in doc.get("structs", [])]
        tap.ok(rc == 0 and got == [(copies["obj"], truth["obj"][0])],
               "ltrans%s: --die %#x lays out the ltrans copy itself" % (path, copies["obj"]),
               "exit %d, %s: %s" % (rc, got, err))
        # The name index, written by a cold run and read by a warm one.
        cache = os.path.join(work, "ltrans-cache" + ("-libdw" if env else ""))
        shutil.rmtree(cache, ignore_errors=True)
        cached = Lint(lint.tool, args=["--color=never"], timeout=TIMEOUT,
                      extra_env=dict(env, XDG_CACHE_HOME=cache, LAYOUTLINT_CACHE="on"))
        runs = [cached("--list", "*", exe) for _ in range(2)]
        tap.ok(all(r.rc == 0 and "<unknown file>" not in r.out and
                   re.search(r"^struct\s+obj\s.*shared\.h:", r.out, re.M) for r in runs) and
               os.listdir(os.path.join(cache, "layoutlint")),
               "ltrans%s: the same through the name index, cold and warm" % path,
               "\n".join(r.out + r.err for r in runs))


def main():
    args = parse_args("layoutlint", workdir=dict(default="lang-work", required=False), doc=__doc__)
    tap = Tap()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    work = os.path.abspath(args.workdir)
    lint = Lint(args.layoutlint, args=["--color=never", "--no-cache"], timeout=TIMEOUT)
    try:
        for cxx in [c for c in ("g++", "clang++") if have(c)]:
            # DWARF 2 writes a base's offset as DW_OP_plus_uconst N.
            for dwarf in ("2", "4", "5"):
                cxx_variant(tap, lint, work, cxx, dwarf)
            for dwarf in ("4", "5"):
                cxx_stdlib(tap, lint, work, cxx, dwarf)
            refused_row(tap, lint, work, cxx)
        rust(tap, lint, work)
        selector(tap, lint, work)
        several_names(tap, lint, work)
        two_paths(tap, lint, work)
        ltrans(tap, lint, work)
    except Failure as e:
        tap.ok(False, "runner", str(e))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
