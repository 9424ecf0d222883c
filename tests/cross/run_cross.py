#!/usr/bin/env python3
"""Layouts on targets that cannot run here, checked by the compiler itself.

usage: run_cross.py --layoutlint PATH [--workdir DIR] [--target NAME]...

tests/cross/structs.c is compiled for each target below (clang --target=T,
gcc -m32, native gcc; DWARF 4 and 5; BTF from clang's BPF targets) and
layoutlint --format=json reads every aggregate it defines at the start of a
line.  The JSON is then turned back into C and handed to the same compiler
with the same target:

  - _Static_assert lines for every struct's sizeof and _Alignof and every
    named member's offsetof and sizeof, and its alignment: the compiler's
    _Alignof of the member's type, placed as C places it (1 when its offset
    does not allow it, at most its enclosing aggregate's), or a larger
    explicit alignment that the offset and the enclosing aggregate bear
    out.  BTF records no alignment attributes, so an inferred alignment
    (struct or member) need only divide the compiler's;
  - for bitfields, which C cannot take the offset of: a static initializer
    that sets one bitfield to all ones, per bitfield, in a section of its
    own.  The compiler lays the bytes out; the runner reads them from the
    object and checks that exactly bits [bit_offset, bit_offset+bit_size)
    are set, counted in the target's allocation order (from the least
    significant bit of byte 0 on a little-endian target, from the most
    significant on a big-endian one, as DW_AT_data_bit_offset counts).

  - --suggest's proposal: every top-level member it places goes to an
    offset its type's _Alignof allows, unless it was packed where it was
    (DWARF only: BTF's alignments are inferred).

One TAP point per (target, debug format, aggregate).  A target the
installed compiler cannot build for is skipped, with the reason.
"""

import concurrent.futures
import json
import os
import re
import struct as binstruct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, have, parse_args, run  # noqa: E402

SOURCE = os.path.join(HERE, "structs.c")
TIMEOUT = 120
BASE = ["-std=gnu11", "-w", "-O0"]

CLANG_TARGETS = ["s390x-linux-gnu", "powerpc64-linux-gnu", "powerpc64le-linux-gnu",
                 "i386-linux-gnu", "armv7a-linux-gnueabihf", "aarch64-linux-gnu",
                 "riscv64-linux-gnu",
                 # MIPS: libdw 0.188 has no MIPS backend, the objects are relocated here
                 # (ELF32 REL; MIPS64 r_info) and their debug sections are SHT_MIPS_DWARF.
                 "mipsel-linux-gnu", "mips64el-linux-gnuabi64"]


class Variant:
    """One compiler, target and debug format: what to build and how to read it."""

    def __init__(self, name, cc, target_flags, debug_flag, lint_args=()):
        self.name = name
        self.cc = cc
        self.target_flags = list(target_flags)
        self.debug_flag = debug_flag
        self.lint_args = list(lint_args)

    def flags(self, debug=True, extra=()):
        return BASE + self.target_flags + ([self.debug_flag, "-c"] if debug else []) + list(extra)


def variants():
    out = []
    for t in CLANG_TARGETS:
        for dw in ("4", "5"):
            out.append(Variant("clang %s dwarf%s" % (t, dw), "clang", ["--target=" + t],
                               "-gdwarf-" + dw))
    for dw in ("4", "5"):
        out.append(Variant("gcc -m32 dwarf%s" % dw, "gcc", ["-m32"], "-gdwarf-" + dw))
        out.append(Variant("gcc native dwarf%s" % dw, "gcc", [], "-gdwarf-" + dw))
    # clang's own BTF, in both byte orders.
    for t in ("bpfeb", "bpfel"):
        out.append(Variant("clang %s btf" % t, "clang", ["--target=" + t], "-g",
                           lint_args=["--btf"]))
    return out


def cannot_build(v, workdir):
    """Why V cannot build here (None: it can): a missing compiler or target."""
    if not have(v.cc):
        return "%s not installed" % v.cc
    probe = os.path.join(workdir, "probe-%s.c" % slug(v.name))
    with open(probe, "w") as f:
        f.write("struct probe { long long x; } probe_v;\n")
    try:
        compile_c(v.cc, probe, "probe-%s.o" % slug(v.name), workdir=workdir,
                  flags=v.flags(), timeout=TIMEOUT)
    except Failure as e:
        return "%s cannot build for it: %s" % (v.cc, str(e).splitlines()[-1][:200])
    return None


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")


def aggregates():
    """(kind, name) of every aggregate structs.c defines at the start of a line."""
    with open(SOURCE) as f:
        return re.findall(r"^(struct|union) (\w+) \{", f.read(), re.M)


# ---- layoutlint's JSON -------------------------------------------------------

def lint(layoutlint, v, obj, aggs):
    """{name: struct JSON or error text}: all at once, then one by one if that fails."""
    def once(which):
        args = [layoutlint, "--format=json", "--suggest", *v.lint_args, obj]
        for kind, name in which:
            args += [kind, name]
        p = run(args, timeout=TIMEOUT)
        if p.rc != 0:
            return None, p.err.strip() or "exit %d" % p.rc
        try:
            return {s["name"]: s for s in json.loads(p.out)["structs"]}, None
        except (ValueError, KeyError) as e:
            return None, "bad JSON: %s" % e
    got, err = once(aggs)
    if got is not None:
        return got
    out = {}
    for agg in aggs:
        one, err = once([agg])
        out[agg[1]] = one[agg[1]] if one else "layoutlint: " + err
    return out


# ---- the C that checks it ---------------------------------------------------

def member_asserts(ctype, m, parent_off, parent_align, inferred, out, probes):
    """(expression, what it claims) about M and below into OUT; bitfields into PROBES."""
    path, off, align = m["path"], m["offset"], m["alignment"]
    if m["bit_size"] is not None:
        if path:
            probes.append((path, m["bit_offset"], m["bit_size"]))
        return
    if path is None:
        # An anonymous aggregate: its members are named from the enclosing one.
        for c in m["members"]:
            member_asserts(ctype, c, off, str(align), inferred, out, probes)
        return
    lval = "((%s *)0)->%s" % (ctype, path)
    out.append(("__builtin_offsetof(%s, %s) == %d" % (ctype, path, off),
                "%s at offset %d" % (path, off)))
    if m["size"] or "[]" not in m["type"]:
        out.append(("sizeof(%s) == %d" % (lval, m["size"]), "%s of %d bytes" % (path, m["size"])))
    nat = "_Alignof(__typeof__(%s))" % lval
    placed = "((%d - %d) %% %s ? 1 : %s < %s ? %s : %s)" % (
        off, parent_off, nat, parent_align, nat, parent_align, nat)
    if inferred:
        out.append(("%s %% %d == 0" % (placed, align),
                    "%s aligned to %d (inferred) divides the real one" % (path, align)))
    else:
        out.append(("%d == %s || (%d > %s && %d %% %d == 0 && %d <= %s)" % (
            align, placed, align, placed, off, align, align, parent_align),
            "%s aligned to %d" % (path, align)))
    for c in m["members"]:
        member_asserts(ctype, c, off, nat, inferred, out, probes)


def struct_asserts(kind, s):
    """([(assert expression, what it claims)], bitfield probes) for the aggregate S."""
    ctype = "%s %s" % (kind, s["name"])
    out = [("sizeof(%s) == %d" % (ctype, s["size"]), "size %d" % s["size"])]
    if s.get("alignment_inferred"):
        out.append(("_Alignof(%s) %% %d == 0" % (ctype, s["alignment"]),
                    "alignment %d (inferred) divides the real one" % s["alignment"]))
    else:
        out.append(("_Alignof(%s) == %d" % (ctype, s["alignment"]),
                    "alignment %d" % s["alignment"]))
    probes = []
    for m in s["members"]:
        member_asserts(ctype, m, 0, "_Alignof(%s)" % ctype, bool(s.get("alignment_inferred")),
                       out, probes)
    suggestion_asserts(ctype, s, out)
    return out, probes


def suggestion_asserts(ctype, s, out):
    """--suggest may only move a member to an offset its type allows, unless
    the member was packed where it stood.  Not for BTF, which has no
    alignment attributes to keep (an aligned(16) typedef reads as 4)."""
    if s.get("alignment_inferred"):
        return
    now = {m["path"]: m["offset"] for m in s["members"]
           if m["path"] and m["bit_size"] is None}
    for m in (s.get("suggestion") or {}).get("members", []):
        path = m["path"]
        if m["container"] is not None or path not in now:
            continue
        nat = "_Alignof(__typeof__(((%s *)0)->%s))" % (ctype, path)
        out.append(("%d %% %s == 0 || %d %% %s != 0" % (m["offset"], nat, now[path], nat),
                    "--suggest puts %s at offset %d" % (path, m["offset"])))


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_checks(path, layouts):
    """The assertion file; {name: (first line, last line)} of each aggregate's block."""
    lines = ['#include "%s"' % SOURCE]
    spans = {}
    for (kind, name), (exprs, _) in layouts.items():
        first = len(lines) + 1
        for e, claim in exprs:
            lines.append("_Static_assert(%s, %s);" % (e, c_string(claim)))
        spans[name] = (first, len(lines))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return spans


def write_probes(path, layouts):
    lines = ['#include "%s"' % SOURCE]
    for (kind, name), (_, probes) in layouts.items():
        if not probes:
            continue
        inits = ", ".join("{ .s.%s = -1 }" % p[0] for p in probes)
        lines.append('__attribute__((section(".lprobe.%s"), used)) static const union '
                     '{ %s %s s; unsigned char b[sizeof(%s %s)]; } lprobe_%s[] = { %s };'
                     % (name, kind, name, kind, name, name, inits))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def errors_by_aggregate(stderr, src, spans):
    """The compiler's error lines about SRC, by aggregate; None: some outside every block."""
    by = {}
    pat = re.compile(r"^%s:(\d+):(?:\d+:)? (?:fatal )?error: (.*)$" % re.escape(src))
    stray = []
    for line in stderr.splitlines():
        m = pat.match(line)
        if not m:
            if "error:" in line:
                stray.append(line)
            continue
        ln = int(m.group(1))
        owner = [n for n, (a, b) in spans.items() if a <= ln <= b]
        if owner:
            # The claim the assertion's message names, not its whole expression.
            claim = re.search(r'"([^"]*)"\s*$', m.group(2))
            by.setdefault(owner[0], []).append(claim.group(1) if claim else m.group(2))
        else:
            stray.append(line)
    return by, stray


# ---- bytes of a section of an ELF object ---------------------------------------

def elf_sections(path):
    """(big_endian, {section name: bytes}) of the relocatable ELF at PATH."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise Failure("%s: not ELF" % path)
    is64, big = data[4] == 2, data[5] == 2
    e = ">" if big else "<"
    if is64:
        shoff, = binstruct.unpack_from(e + "Q", data, 0x28)
        shentsize, shnum, shstrndx = binstruct.unpack_from(e + "HHH", data, 0x3a)
        shdr = e + "IIQQQQIIQQ"
    else:
        shoff, = binstruct.unpack_from(e + "I", data, 0x20)
        shentsize, shnum, shstrndx = binstruct.unpack_from(e + "HHH", data, 0x2e)
        shdr = e + "IIIIIIIIII"
    heads = [binstruct.unpack_from(shdr, data, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    out = {}
    for h in heads:
        name = names[h[0]:names.index(b"\0", h[0])].decode()
        out[name] = data[h[4]:h[4] + h[5]]
    return big, out


def set_bits(chunk, big):
    """Positions of the set bits of CHUNK in the target's allocation order."""
    bits = []
    for i, byte in enumerate(chunk):
        for b in range(8):
            if byte & (0x80 >> b if big else 1 << b):
                bits.append(i * 8 + b)
    return bits


def probe_errors(big, sections, name, probes):
    blob = sections.get(".lprobe." + name)
    if blob is None:
        return ["no section .lprobe.%s in the probe object" % name]
    if len(blob) % len(probes):
        return [".lprobe.%s: %d bytes for %d probes" % (name, len(blob), len(probes))]
    size = len(blob) // len(probes)
    errs = []
    for i, (path, bo, bs) in enumerate(probes):
        got = set_bits(blob[i * size:(i + 1) * size], big)
        want = list(range(bo, bo + bs))
        if got != want:
            where = "%d..%d" % (got[0], got[-1]) if got else "none"
            if got and got != list(range(got[0], got[-1] + 1)):
                where = str(got)
            errs.append("bitfield %s: layoutlint says bits %d..%d (%d:%d, %d bits), "
                        "the compiler set bits %s" % (path, bo, bo + bs - 1, bo // 8, bo % 8,
                                                      bs, where))
    return errs


# ---- one variant ---------------------------------------------------------------

def check_variant(layoutlint, v, workdir, aggs):
    """{aggregate name: list of errors (empty: right)}, or a Failure for all of them."""
    wd = os.path.join(workdir, slug(v.name))
    os.makedirs(wd, exist_ok=True)
    obj = compile_c(v.cc, SOURCE, "structs.o", workdir=wd, flags=v.flags(), timeout=TIMEOUT)
    got = lint(layoutlint, v, obj, aggs)
    results = {}
    layouts = {}
    for kind, name in aggs:
        s = got.get(name)
        if isinstance(s, dict):
            layouts[(kind, name)] = struct_asserts(kind, s)
            results[name] = []
        else:
            results[name] = [s or "layoutlint did not list it"]
    checks = os.path.join(wd, "checks.c")
    spans = write_checks(checks, layouts)
    extra = ["-fsyntax-only"] + (["-ferror-limit=0"] if v.cc == "clang" else [])
    p = run([v.cc, *v.flags(debug=False, extra=extra), checks], timeout=TIMEOUT)
    by, stray = errors_by_aggregate(p.err, checks, spans)
    if p.rc != 0 and (stray or not by):
        raise Failure("%s rejected %s outside any aggregate's block:\n%s" % (
            v.cc, checks, "\n".join(stray or p.err.splitlines())))
    for name, errs in by.items():
        results[name] += ["%s disagrees: %s" % (v.cc, e) for e in errs]
    probes_c = os.path.join(wd, "probes.c")
    write_probes(probes_c, layouts)
    pobj = compile_c(v.cc, probes_c, "probes.o", workdir=wd, flags=v.flags(debug=False, extra=["-c"]), timeout=TIMEOUT)
    big, sections = elf_sections(pobj)
    for (kind, name), (_, probes) in layouts.items():
        if probes:
            results[name] += probe_errors(big, sections, name, probes)
    return results


def main():
    args = parse_args("layoutlint",
                      workdir=dict(default="cross-work", required=False),
                      target=dict(action="append",
                                  help="only variants whose name contains this (repeatable)"),
                      doc=__doc__)
    tap = Tap()
    os.makedirs(args.workdir, exist_ok=True)
    aggs = aggregates()
    todo = [v for v in variants()
            if not args.target or any(t in v.name for t in args.target)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        why_not = list(pool.map(lambda v: cannot_build(v, args.workdir), todo))
        runnable = [v for v, w in zip(todo, why_not) if not w]
        futures = {v.name: pool.submit(check_variant, os.path.abspath(args.layoutlint), v,
                                       os.path.abspath(args.workdir), aggs)
                   for v in runnable}
        for v, why in zip(todo, why_not):
            if why:
                for kind, name in aggs:
                    tap.skip("%s: %s %s" % (v.name, kind, name), why)
                continue
            try:
                results = futures[v.name].result()
            except Failure as e:
                for kind, name in aggs:
                    tap.ok(False, "%s: %s %s" % (v.name, kind, name), str(e))
                continue
            for kind, name in aggs:
                errs = results.get(name, ["not checked"])
                tap.ok(not errs, "%s: %s %s" % (v.name, kind, name), errs)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
