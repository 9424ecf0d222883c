#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The BTF reader against the DWARF reader, on the same compiled fixtures.

usage: run_btf.py --layoutlint PATH [--workdir DIR] [--quick]

tests/fixtures/layouts.c is compiled as run_fixtures.py compiles it (gcc and
clang x DWARF 4/5 x -O0/-O2 x object/executable); pahole -J adds a .BTF
section to a copy (dwarves 1.24 encodes BTF from the DWARF, so both describe
one layout).  layoutlint --format=json then reads every struct the fixture
names from the DWARF and from the BTF, in three containers:
  - the ELF file holding both, with --btf;
  - the raw BTF (objcopy --dump-section .BTF=FILE), detected by its magic;
  - the ELF file stripped of its DWARF (objcopy --strip-debug), detected by
    having .BTF and no .debug_info;
and the documents must agree member by member: kind, name, size, cacheline,
holes, padding, every member's path, offset, size, bit offset and width,
cachelines, tag and type.  Known differences, each checked to be exactly
that, not just skipped:
  - BTF records no declaring files: every "decl" is null under BTF;
  - BTF records no alignment attributes: "alignment_inferred" is true and,
    in the structs that use _Alignas / aligned(N) (EXPLICIT below), the
    inferred alignment may be lower than DWARF's, never higher;
  - pahole flattens multi-dimensional arrays (int[3][5] -> int[15]) and
    cannot tell char[0] from char[] (both BTF nelems 0, spelt "[]");
  - pahole 1.24 cannot encode _Atomic (DW_TAG_atomic_type, DWARF 5 only): the
    member has no type in the BTF, so it is void, 0 bytes.
Then, once: the three containers give identical JSON; big-endian raw BTF
(written with libbpf by btf_swap.c) reads as the little-endian one; split
BTF (tests/btf/module.c encoded with --btf_base, floats as BTF_KIND_FLOAT)
with --btf-base against the module's own DWARF, and without it a one-line
error naming --btf-base; lookups (only declared, did you mean, wrong kind)
fail the same way from both readers; a rules file with an `in` glob lints
BTF with one note that the glob is ignored, diagnostics located at the
binary and a note on how to get source locations; SARIF results point at the
binary and carry logical locations; and malformed input is one line, exit 2.

Output is TAP.  Exit status 1 when anything failed.
"""

import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, parse_args, run  # noqa: E402
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
LAYOUTS = os.path.join(TOP, "tests", "fixtures", "layouts.c")
MODULE = os.path.join(HERE, "module.c")
SWAP = os.path.join(HERE, "btf_swap.c")
SCHEMA = os.path.join(TOP, "tests", "sarif", "sarif-schema-2.1.0.json")

COMPILERS = ["gcc", "clang"]
DWARF_VERSIONS = ["4", "5"]
OPT_LEVELS = ["-O0", "-O2"]
KINDS = {"obj": ["-c"], "exe": []}
BASE_CFLAGS = ["-std=gnu11", "-w", "-fno-omit-frame-pointer"]
# Structs of layouts.c whose alignment comes from _Alignas / aligned(N),
# which BTF does not record (checked: BTF's may only be lower).
EXPLICIT = {"alignas_member", "aligned_struct", "uses_aligned", "packed_aligned"}
MAX_NOTES = 40


def queries(truth_exe):
    """The names the fixture defines, as layoutlint arguments."""
    doc = json.loads(run([truth_exe], check=True).stdout)
    out = []
    for s in doc["structs"]:
        out += s["query"].split()
    return out


def lint(layoutlint, args, qs):
    p = run([layoutlint, "--format=json"] + args + qs)
    if p.returncode not in (0, 1):
        raise Failure("layoutlint %s exited %d: %s" % (" ".join(args), p.returncode,
                                                      p.stderr.strip()))
    return json.loads(p.stdout)


def pahole_btf(src, dst, extra=()):
    """Copy SRC to DST and add BTF to DST (pahole exits 0 even when it fails)."""
    shutil.copy(src, dst)
    run(["pahole", "-J"] + list(extra) + [dst], check=True)
    if not re.search(r"\s\.BTF\s", run(["readelf", "-W", "-S", dst], check=True).stdout):
        raise Failure("pahole -J added no .BTF to %s" % dst)


def containers(binary, d):
    """The three ways the same BTF reaches layoutlint: args per container."""
    both = os.path.join(d, "both")
    pahole_btf(binary, both)
    raw = os.path.join(d, "raw.btf")
    run(["objcopy", "--dump-section", ".BTF=" + raw, both, os.path.join(d, "scratch")], check=True)
    stripped = os.path.join(d, "stripped")
    run(["objcopy", "--strip-debug", both, stripped], check=True)
    return {"elf+dwarf --btf": ["--btf", both], "raw": [raw], "stripped ELF": [stripped]}


# ---- normalising what BTF cannot say ---------------------------------------

def flat_dims(t):
    """int[3][5] -> int[15]; char[0] -> char[]: BTF's spelling of the same array."""
    def one(m):
        dims = re.findall(r"\[(\d*)\]", m.group(0))
        if any(x == "" for x in dims):
            return "[]"
        n = 1
        for x in dims:
            n *= int(x)
        return "[%d]" % n if n else "[]"
    return re.sub(r"(\[\d*\])+", one, t) if t else t


def walk(members, out, prefix=""):
    for i, m in enumerate(members or []):
        key = m.get("path") or "%s<anon#%d>" % (prefix, i)
        out[key] = m
        walk(m.get("members"), out, key + ".")
    return out


MEMBER_KEYS = ("name", "offset", "size", "bit_offset", "bit_size", "lines",
               "line_offset", "tag", "domain")
STRUCT_KEYS = ("kind", "name", "size", "cacheline", "cachelines", "holes",
               "hole_bytes", "padding")


def compare_docs(dw, bt, stats):
    """DWARF document DW against BTF document BT: list of differences."""
    bad = []
    if len(dw["structs"]) != len(bt["structs"]):
        return ["%d structs from DWARF, %d from BTF" % (len(dw["structs"]), len(bt["structs"]))]
    for sd, sb in zip(dw["structs"], bt["structs"]):
        where = "%s %s" % (sd.get("kind"), sd.get("name"))
        stats["structs"] += 1
        atomic = any("_Atomic" in (m.get("type") or "")
                     for m in walk(sd.get("members"), {}).values())
        for k in STRUCT_KEYS:
            if atomic and k in ("holes", "hole_bytes"):
                continue        # the void member leaves a hole behind
            if sd.get(k) != sb.get(k):
                bad.append("%s: %s: DWARF %r, BTF %r" % (where, k, sd.get(k), sb.get(k)))
        if sb.get("decl") is not None:
            bad.append("%s: decl %r under BTF, expected null" % (where, sb.get("decl")))
        if sb.get("alignment_inferred") is not True or sd.get("alignment_inferred") is not False:
            bad.append("%s: alignment_inferred: DWARF %r, BTF %r (want false, true)"
                       % (where, sd.get("alignment_inferred"), sb.get("alignment_inferred")))
        explicit = sd.get("name") in EXPLICIT
        if explicit:
            stats["explicit"] += 1
            if sb.get("alignment", 0) > sd.get("alignment", 0):
                bad.append("%s: alignment: BTF %r above DWARF's %r" % (
                    where, sb.get("alignment"), sd.get("alignment")))
        elif sd.get("alignment") != sb.get("alignment"):
            bad.append("%s: alignment: DWARF %r, BTF %r" % (where, sd.get("alignment"),
                                                            sb.get("alignment")))
        md, mb = walk(sd.get("members"), {}), walk(sb.get("members"), {})
        if list(md) != list(mb):
            bad.append("%s: member paths differ: DWARF %s, BTF %s" % (where, list(md), list(mb)))
        for path, a in md.items():
            b = mb.get(path)
            if b is None:
                continue
            stats["members"] += 1
            if b.get("decl") is not None:
                bad.append("%s.%s: decl under BTF" % (where, path))
            if "_Atomic" in (a.get("type") or ""):
                stats["atomic"] += 1
                if b.get("type") != "void" or b.get("size") != 0:
                    bad.append("%s.%s: _Atomic member: BTF %r %r, expected void, 0 bytes "
                               "(pahole 1.24 drops DW_TAG_atomic_type)" % (
                                   where, path, b.get("type"), b.get("size")))
                continue
            for k in MEMBER_KEYS:
                if a.get(k) != b.get(k):
                    bad.append("%s.%s: %s: DWARF %r, BTF %r" % (where, path, k, a.get(k),
                                                              b.get(k)))
            ta, tb = a.get("type"), b.get("type")
            if ta != tb:
                stats["types_normalised"] += 1
                if flat_dims(ta) != tb:
                    bad.append("%s.%s: type: DWARF %r, BTF %r" % (where, path, ta, tb))
            if explicit:
                if b.get("alignment", 0) > a.get("alignment", 0):
                    bad.append("%s.%s: alignment: BTF %r above DWARF's %r" % (
                        where, path, b.get("alignment"), a.get("alignment")))
            elif a.get("alignment") != b.get("alignment"):
                bad.append("%s.%s: alignment: DWARF %r, BTF %r" % (
                    where, path, a.get("alignment"), b.get("alignment")))
    return bad


def structs_only(doc):
    return json.dumps(doc.get("structs"), sort_keys=True)


# ---- test points ---------------------------------------------------------

class Point:
    def __init__(self, desc):
        self.desc = desc
        self.ok = True
        self.skip = None
        self.notes = []

    def fail(self, *lines):
        self.ok = False
        for ln in lines:
            self.notes += str(ln).splitlines()


def check_variant(args, cc, dw, opt, kind):
    pt = Point("%s -gdwarf-%s %s %s: BTF (3 containers) = DWARF" % (cc, dw, opt, kind))
    try:
        d = os.path.join(args.workdir, "%s-dwarf%s%s-%s" % (cc, dw, opt, kind))
        os.makedirs(d, exist_ok=True)
        flags = BASE_CFLAGS + ["-gdwarf-" + dw, opt]
        truth = os.path.join(d, "truth")
        compile_c(cc, LAYOUTS, truth, flags=flags)
        qs = queries(truth)
        binary = os.path.join(d, "layouts" + (".o" if kind == "obj" else ""))
        compile_c(cc, LAYOUTS, binary, flags=flags + KINDS[kind])
        ref = lint(args.layoutlint, [binary], qs)
        docs = {}
        for name, cargs in containers(binary, d).items():
            docs[name] = lint(args.layoutlint, cargs, qs)
        stats = {"structs": 0, "members": 0, "explicit": 0, "atomic": 0,
                 "types_normalised": 0}
        first = None
        for name, doc in docs.items():
            if first is None:
                first = (name, doc)
                diffs = compare_docs(ref, doc, stats)
                if diffs:
                    pt.fail("DWARF vs BTF (%s):" % name, *diffs)
            elif structs_only(doc) != structs_only(first[1]):
                pt.fail("BTF from %s and from %s give different JSON" % (first[0], name))
        # the ELF holding both is read as DWARF unless --btf says otherwise
        plain = lint(args.layoutlint, [os.path.join(d, "both")], qs)
        if structs_only(plain) != structs_only(ref):
            pt.fail("ELF with DWARF and .BTF, no --btf: not read as DWARF")
        pt.desc += " (%d structs, %d members; %d explicit-alignment structs, %d _Atomic, " \
                   "%d types spelt the BTF way)" % (
                       stats["structs"] // 1, stats["members"], stats["explicit"],
                       stats["atomic"], stats["types_normalised"])
    except (Failure, ValueError, KeyError) as e:
        pt.fail(e)
    return pt


def one_line_error(p, must=None):
    """None when P is exit 2 with one line on stderr (containing MUST) and no stdout."""
    err = p.stderr.strip()
    if p.returncode != 2 or len(err.splitlines()) != 1 or p.stdout.strip():
        return "exit %d, %d stderr lines, %d stdout bytes: %s" % (
            p.returncode, len(err.splitlines()), len(p.stdout), err)
    if must and must not in err:
        return "message lacks %r: %s" % (must, err)
    return None


def check_once(args):
    """Everything that needs one build only; a list of Points."""
    pts = []
    d = os.path.join(args.workdir, "once")
    os.makedirs(d, exist_ok=True)
    L = args.layoutlint
    flags = BASE_CFLAGS + ["-gdwarf-5", "-O2"]
    base = os.path.join(d, "layouts.o")
    compile_c("gcc", LAYOUTS, base, flags=flags + ["-c"])
    truth = os.path.join(d, "truth")
    compile_c("gcc", LAYOUTS, truth, flags=flags)
    qs = queries(truth)
    c = containers(base, d)
    raw = c["raw"][0]
    both = c["elf+dwarf --btf"][1]

    # big-endian raw BTF
    pt = Point("big-endian raw BTF (libbpf-swapped) reads as the little-endian BTF")
    try:
        swap = os.path.join(d, "btf_swap")
        run(["gcc", "-O2", SWAP, "-o", swap, "-lbpf"], check=True)
        be = os.path.join(d, "be.btf")
        run([swap, raw, be], check=True)
        with open(be, "rb") as f:
            if f.read(2) != b"\xeb\x9f":
                raise Failure("btf_swap did not write big-endian BTF")
        if structs_only(lint(L, [be], qs)) != structs_only(lint(L, [raw], qs)):
            pt.fail("JSON differs between big- and little-endian BTF")
    except Failure as e:
        pt.fail(e)
    pts.append(pt)

    # split BTF, as for a kernel module
    pt = Point("split BTF with --btf-base = the module's DWARF (floats, variadic, base types)")
    try:
        mod = os.path.join(d, "module.o")
        compile_c("gcc", MODULE, mod, flags=flags + ["-c"])
        modbtf = os.path.join(d, "module-btf.o")
        pahole_btf(mod, modbtf, ["--btf_base=" + both, "--btf_gen_floats"])
        mq = ["struct", "mod_state", "struct", "inner"]
        dw = lint(L, [mod], mq)
        for base_arg in (both, raw):
            bt = lint(L, ["--btf-base", base_arg, modbtf], mq)
            stats = {"structs": 0, "members": 0, "explicit": 0, "atomic": 0,
                     "types_normalised": 0}
            diffs = compare_docs(dw, bt, stats)
            if diffs:
                pt.fail("base %s:" % base_arg, *diffs)
        p = run([L, "--btf", modbtf] + mq)
        why = one_line_error(p, "--btf-base")
        if why:
            pt.fail("split BTF without --btf-base: " + why)
    except (Failure, ValueError) as e:
        pt.fail(e)
    pts.append(pt)

    # lookups fail the same way from both readers
    pt = Point("lookups: only declared, did you mean, wrong kind, typedef: same answers")
    try:
        for q in (["struct", "undeclared_elsewhere"], ["struct", "inne"], ["union", "inner"],
                  ["struct", "no_such_thing_at_all"]):
            pd = run([L, base] + q)
            pb = run([L, "--btf", both] + q)
            ed = pd.stderr.replace(base, "BINARY").strip()
            eb = pb.stderr.replace(both, "BINARY").strip()
            if one_line_error(pd) or one_line_error(pb) or ed != eb:
                pt.fail("%s: DWARF exit %d %r; BTF exit %d %r" % (
                    " ".join(q), pd.returncode, ed, pb.returncode, eb))
    except Failure as e:
        pt.fail(e)
    pts.append(pt)

    # rules with an `in` glob, text diagnostics, SARIF
    pt = Point("rules on BTF: 'in' glob ignored with one note; diagnostics at the binary; "
               "SARIF logical locations")
    try:
        rules = os.path.join(d, "outer.rules")
        with open(rules, "w") as f:
            f.write("cacheline 64\n\nstruct outer in layouts.c\n"
                    "\tread-mostly kind inner\n\twrite-hot   pair\n")
        pd = run([L, "-q", "-r", rules, base])
        pb = run([L, "-q", "-r", rules, raw])
        if pd.returncode != 1 or pb.returncode != 1:
            pt.fail("exit DWARF %d, BTF %d; want 1 (a mixed-cacheline error)"
                    % (pd.returncode, pb.returncode))
        notes = [ln for ln in pb.stderr.splitlines() if ln.strip()]
        if len(notes) != 1 or "ignored" not in notes[0] or "struct outer" not in notes[0]:
            pt.fail("BTF stderr: want one note about the ignored glob, got %r" % notes)
        if pd.stderr.strip():
            pt.fail("DWARF stderr: %r" % pd.stderr)
        out = pb.stdout.splitlines()
        diag = [ln for ln in out if "[mixed-cacheline]" in ln]
        if not diag or not diag[0].startswith(raw + ": struct outer: error: "):
            pt.fail("BTF diagnostic not located at the binary: %r" % out[:3])
        if not out or "no source locations" not in out[-1] or not out[-1].startswith(raw + ": note:"):
            pt.fail("no closing note on how to get source locations: %r" % out[-1:])
        ddiag = [re.sub(r"^\S+: ", "", ln) for ln in pd.stdout.splitlines()
                 if "error:" in ln]
        bdiag = [re.sub(r"^\S+: struct outer: ", "", ln) for ln in out if "error:" in ln]
        if ddiag != bdiag:
            pt.fail("findings differ: DWARF %r, BTF %r" % (ddiag, bdiag))
        ps = run([L, "--format=sarif", "-r", rules, raw])
        sarif = json.loads(ps.stdout)
        results = sarif["runs"][0]["results"]
        if not results:
            pt.fail("SARIF: no results")
        for r in results:
            for loc in r["locations"]:
                uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                if not uri.endswith(os.path.basename(raw)):
                    pt.fail("SARIF result located at %r, not the binary" % uri)
                kinds = [x.get("kind") for x in loc.get("logicalLocations", [])]
                fq = [x.get("fullyQualifiedName") for x in loc.get("logicalLocations", [])]
                if "type" not in kinds or "struct outer" not in fq or \
                        (r["ruleId"] != "stale-rule" and "member" not in kinds):
                    pt.fail("SARIF result without struct and member logical locations: %r"
                            % loc.get("logicalLocations"))
        err = validate_sarif(sarif)
        if err:
            pt.fail("SARIF schema: " + err)
    except (Failure, ValueError, KeyError, IndexError) as e:
        pt.fail(e)
    pts.append(pt)

    # malformed input and wrong options: one line, exit 2
    pt = Point("malformed BTF, --btf without .BTF, bad --btf-base: one line, exit 2")
    try:
        bad = os.path.join(d, "bad.btf")
        with open(bad, "wb") as f:
            f.write(b"\x9f\xeb\x01\x00" + b"\xff" * 60)
        trunc = os.path.join(d, "trunc.btf")
        with open(raw, "rb") as f, open(trunc, "wb") as g:
            g.write(f.read(100))
        cases = [([bad, "struct", "inner"], "cannot read BTF"),
                 ([trunc, "struct", "inner"], "cannot read BTF"),
                 (["--btf", truth, "struct", "inner"], "no .BTF section"),
                 (["--btf-base", os.path.join(d, "missing"), raw, "struct", "inner"],
                  "base BTF"),
                 (["--btf", LAYOUTS, "struct", "inner"], "neither raw BTF")]
        for argv, must in cases:
            why = one_line_error(run([L] + argv), must)
            if why:
                pt.fail("%s: %s" % (" ".join(argv), why))
    except Failure as e:
        pt.fail(e)
    pts.append(pt)
    pts.append(check_self_holding(d, L))
    pts.append(check_damaged_members(d, L))
    pts.append(check_foreign_base(d, L, flags, both, raw))
    return pts


def raw_btf(types, strings):
    """A raw little-endian BTF blob: TYPES (bytes) and STRINGS (bytes, from b'\\0')."""
    hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(strings))
    return hdr + types + strings


def btf_type(name_off, kind, vlen, size):
    return struct.pack("<III", name_off, (kind << 24) | vlen, size)


def btf_member(name_off, type_id, bit_offset):
    return struct.pack("<III", name_off, type_id, bit_offset)


BTF_INT, BTF_PTR, BTF_ARRAY, BTF_STRUCT, BTF_UNION, BTF_TYPEDEF = 1, 2, 3, 4, 5, 8


def check_self_holding(d, L):
    """BTF that no C compiler writes but libbpf accepts: a struct holding itself."""
    pt = Point("BTF structs that hold themselves are refused; a deep DAG of unions is bounded")
    strs = b"\0B\0a\0b\0c\0int\0T\0"
    try:
        for k in (1, 2, 3, 8):
            # struct B { struct B a, b, c, ...; } (k members): k^64 without memo
            types = btf_type(1, BTF_STRUCT, k, 8 * k) + b"".join(
                btf_member(3 + 2 * (i % 3), 1, 64 * i) for i in range(k))
            path = os.path.join(d, "self%d.btf" % k)
            with open(path, "wb") as f:
                f.write(raw_btf(types, strs))
            for argv in (["struct", "B"], ["--list=*"], ["--audit=*"]):
                why = one_line_error(run([L, path] + argv, check=False, timeout=20),
                                     "BTF type [1] holds itself by value")
                if why:
                    pt.fail("k=%d %s: %s" % (k, " ".join(argv), why))
        # Through a typedef and an array: struct B { T a[2]; } with typedef struct B T.
        types = (btf_type(1, BTF_STRUCT, 1, 16) + btf_member(3, 2, 0) +
                 btf_type(0, BTF_ARRAY, 0, 0) + struct.pack("<III", 3, 4, 2) +  # T[2]
                 btf_type(13, BTF_TYPEDEF, 0, 1) +
                 btf_type(9, BTF_INT, 0, 4) + struct.pack("<I", 32))
        path = os.path.join(d, "self-typedef.btf")
        with open(path, "wb") as f:
            f.write(raw_btf(types, strs))
        why = one_line_error(run([L, path, "struct", "B"], check=False, timeout=20),
                             "holds itself by value")
        if why:
            pt.fail("through typedef and array: " + why)
        # 60 unions, each with 3 members of the next: 3^60 paths, a DAG (legal).
        n, k = 60, 3
        types = b""
        for i in range(1, n):
            types += btf_type(1 if i == 1 else 0, BTF_UNION, k, 4) + b"".join(
                btf_member(3, i + 1, 0) for _ in range(k))
        types += btf_type(9, BTF_INT, 0, 4) + struct.pack("<I", 32)
        path = os.path.join(d, "dag.btf")
        with open(path, "wb") as f:
            f.write(raw_btf(types, strs))
        why = one_line_error(run([L, path, "union", "B"], check=False, timeout=30),
                             "more than 100000 members below BTF type")
        if why:
            pt.fail("3^60 DAG: " + why)
    except Failure as e:
        pt.fail(e)
    return pt


def check_damaged_members(d, L):
    """Members no compiler writes: overlapping in a struct, or of a type that does not exist."""
    pt = Point("BTF struct members that overlap, or point at no type: refused, one line")
    strs = b"\0B\0a\0b\0c\0int\0T\0"
    cases = [
        # struct B { int a; int b at bit 16; }: b overlaps a
        ("overlap", btf_type(1, BTF_STRUCT, 2, 8) + btf_member(3, 2, 0) + btf_member(5, 2, 16) +
         btf_type(9, BTF_INT, 0, 4) + struct.pack("<I", 32), "overlaps member a"),
        # the same in a union is fine
        ("union", btf_type(1, BTF_UNION, 2, 4) + btf_member(3, 2, 0) + btf_member(5, 2, 0) +
         btf_type(9, BTF_INT, 0, 4) + struct.pack("<I", 32), None),
        # struct B { T *a; } with the pointer's target id 99 (there are 2 types)
        ("bad type id", btf_type(1, BTF_STRUCT, 1, 8) + btf_member(3, 2, 0) +
         btf_type(0, BTF_PTR, 0, 99), "refers to a type id that does not exist"),
    ]
    try:
        for desc, types, must in cases:
            path = os.path.join(d, "members-%s.btf" % desc.replace(" ", "-"))
            with open(path, "wb") as f:
                f.write(raw_btf(types, strs))
            kind = "union" if desc == "union" else "struct"
            p = run([L, path, kind, "B"], check=False, timeout=20)
            if must is None:
                if p.returncode != 0:
                    pt.fail("%s: exit %d: %s" % (desc, p.returncode, p.stderr.strip()))
                continue
            err = p.stderr
            if "cannot read BTF" in err:
                continue    # libbpf refused it already: as good
            why = one_line_error(p, must)
            if why:
                pt.fail("%s: %s" % (desc, why))
    except Failure as e:
        pt.fail(e)
    return pt


def check_foreign_base(d, L, flags, base_elf, base_raw):
    """A module's split BTF read on top of another build's base: refused, one line."""
    pt = Point("split BTF on a base it was not built against, or with .BTF.base: refused")
    try:
        mod = os.path.join(d, "module.o")
        run(["gcc"] + flags + ["-c", MODULE, "-o", mod])
        modbtf = os.path.join(d, "module-btf-base.o")
        pahole_btf(mod, modbtf, ["--btf_base=" + base_elf])
        # Another "kernel": the same fixture built with one more struct first,
        # so its types and strings are all shifted.
        other_src = os.path.join(d, "other-base.c")
        with open(other_src, "w") as f:
            f.write("struct shifted_first { long a_long_member_name; };\n"
                    "struct shifted_first shifted_var;\n#include \"%s\"\n" % LAYOUTS)
        other = os.path.join(d, "other-base.o")
        run(["gcc"] + flags + ["-c", other_src, "-o", other])
        other_btf = os.path.join(d, "other-base-btf.o")
        pahole_btf(other, other_btf)
        p = run([L, "--btf-base", base_elf, modbtf, "struct", "mod_state"], check=False)
        if p.returncode != 0:
            pt.fail("own base: exit %d: %s" % (p.returncode, p.stderr.strip()))
        other_raw = os.path.join(d, "other-base.btf")
        run(["objcopy", "--dump-section", ".BTF=" + other_raw, other_btf,
             os.path.join(d, "scratch-other")])
        for base in (other_btf, other_raw):
            p = run([L, "--btf-base", base, modbtf, "struct", "mod_state"], check=False)
            why = one_line_error(p, "its split BTF does not belong to the base BTF " + base)
            if why:
                pt.fail("foreign base %s: %s" % (base, why))
        distilled = os.path.join(d, "module-distilled.o")
        run(["objcopy", "--add-section", ".BTF.base=" + base_raw, modbtf, distilled])
        p = run([L, "--btf-base", base_elf, distilled, "struct", "mod_state"], check=False)
        why = one_line_error(p, ".BTF.base")
        if why:
            pt.fail("module with .BTF.base: " + why)
    except Failure as e:
        pt.fail(e)
    return pt


def validate_sarif(doc):
    try:
        import jsonschema
    except ImportError:
        return None
    with open(SCHEMA) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    errs = list(cls(schema).iter_errors(doc))
    return "; ".join(e.message for e in errs[:3]) if errs else None


def main():
    args = parse_args("layoutlint",
                      workdir=dict(required=False),
                      quick=dict(action="store_true", help="-O2 only"),
                      jobs=dict(type=int, default=os.cpu_count() or 2, aliases=("-j",)),
                      doc=__doc__)
    args.layoutlint = os.path.abspath(args.layoutlint)
    if not os.access(args.layoutlint, os.X_OK):
        return Tap().bail("layoutlint not found at %s" % args.layoutlint)
    for tool in ("pahole", "objcopy", "readelf"):
        if not shutil.which(tool):
            return Tap().skip_all("%s not installed (scripts/deps test)" % tool)
    keep = args.workdir is not None
    args.workdir = os.path.abspath(args.workdir) if keep else \
        tempfile.mkdtemp(prefix="layoutlint-btf-")
    os.makedirs(args.workdir, exist_ok=True)

    compilers = [c for c in COMPILERS if shutil.which(c)]
    opts = ["-O2"] if args.quick else OPT_LEVELS
    jobs = [(cc, dw, o, k) for cc in compilers for dw in DWARF_VERSIONS for o in opts
            for k in KINDS]
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        futs = [ex.submit(check_variant, args, *j) for j in jobs]
        once = ex.submit(check_once, args)
        results = [f.result() for f in futs]
        try:
            results += once.result()
        except (Failure, ValueError) as e:
            pt = Point("single-build checks")
            pt.fail(e)
            results.append(pt)
    for c in COMPILERS:
        if c not in compilers:
            pt = Point("%s variants" % c)
            pt.skip = "%s not installed" % c
            results.append(pt)

    tap = Tap(diag_lines=MAX_NOTES, diag_width=None)
    for pt in results:
        if pt.skip:
            tap.skip(pt.desc, pt.skip)
        else:
            tap.ok(pt.ok, pt.desc, pt.notes)
    tap.comment("%s: %d test points, %d failed" % ("FAIL" if tap.failed else "PASS",
                                                   len(results), tap.failed))
    if tap.failed:
        tap.comment("build products kept in %s" % args.workdir)
    elif not keep:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
