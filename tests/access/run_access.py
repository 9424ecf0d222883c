#!/usr/bin/env python3
"""--access on tests/access/access_fixture.c, compiled here (TAP).

usage: run_access.py --layoutlint PATH --workdir DIR

For gcc and clang, -O0 and -O2, DWARF 4 and 5, as a program and as an
object: each member's loading, storing and atomically updating functions
are exactly the ones the source says (EXPECT), the inlined helper's store
names the function it was inlined into at -O2, and the sites' lines are the
source lines of the statements. Then the checks: written-read-mostly at
exactly the read-mostly member the code writes, constructors by default,
by pattern and by 'constructors'; unwritten-write-hot at the write-hot
member nothing writes; static tags without rules; the tier in JSON and
SARIF. And refusals: another machine, BTF, a debug file without code, and
damaged code (counted, never a crash).
"""
import json
import os
import re
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, compile_c, parse_args, run  # noqa: E402

SRC = os.path.join(HERE, "access_fixture.c")

# member path -> kind -> the functions (as attributed: the inlined one) touching it.
EXPECT = {
    "ops": {"loads": {"stats_read", "stats_read_again"}, "stores": {"stats_alloc"}, "atomics": set()},
    "refs": {"loads": set(), "stores": set(), "atomics": {"stats_get"}},
    "seq": {"loads": {"stats_seq_bump"}, "stores": set(), "atomics": {"stats_seq_bump"}},
    "hits": {"loads": set(), "stores": {"stats_hit"}, "atomics": set()},
    "mode": {"loads": {"stats_set_mode"}, "stores": {"stats_set_mode"}, "atomics": set()},
    "kind": {"loads": {"stats_set_mode"}, "stores": {"stats_set_mode"}, "atomics": set()},
    "in.nested_hits": {"loads": set(), "stores": {"stats_nested"}, "atomics": set()},
    "in.nested_flags": {"loads": set(), "stores": set(), "atomics": set()},
    "map": {"loads": {"stats_chain"}, "stores": {"stats_alloc"}, "atomics": set()},
    "via_helper": {"loads": set(), "stores": {"helper_store"}, "atomics": set()},
    "via_container": {"loads": set(), "stores": {"stats_from_ops"}, "atomics": set()},
    "global_only": {"loads": set(), "stores": {"stats_global", "stats_percpu"}, "atomics": set()},
    "cpu": {"loads": {"stats_cpu_flag"}, "stores": {"stats_alloc"}, "atomics": set()},
    "own_ops.run": {"loads": set(), "stores": set(), "atomics": set()},
    "lock": {"loads": set(), "stores": set(), "atomics": {"stats_locked"}},
}

RULES = """struct stats
  read-mostly ops cpu hits
  write-hot refs seq in.nested_flags
"""


def source_line(pattern):
    with open(SRC) as f:
        for n, line in enumerate(f, 1):
            if pattern in line:
                return n
    raise AssertionError(pattern)


def members(structure):
    out = {}

    def walk(ms):
        for m in ms:
            out[m["path"]] = m
            walk(m["members"])
    walk(structure["members"])
    return out


def lint_json(a, binary, *extra):
    r = run([a.layoutlint, "--access", "--no-cache", "--format=json", *extra, binary, "struct",
             "stats"])
    try:
        return r, json.loads(r.out)
    except ValueError:
        return r, None


def check_build(tap, a, binary, label, optimized, linked):
    r, doc = lint_json(a, binary)
    if not tap.ok(r.rc == 0 and doc, "%s: --access answers" % label, r.err):
        return
    s = doc["structs"][0]
    ms = members(s)
    wrong = []
    for path, kinds in EXPECT.items():
        for kind, want in kinds.items():
            if path in ("global_only", "lock") and not linked:
                # An object's code is unrelocated: no globals, no call targets; but
                # at -O0 the per-CPU pointer is a variable, typed as any other.
                want = ({"stats_percpu"} if path == "global_only" and kind == "stores" and
                        not optimized else set())
            got = {x["function"] for x in ms[path]["access"][kind]}
            if got != want:
                wrong.append("%s %s: got %s, want %s" % (path, kind, sorted(got), sorted(want)))
    tap.ok(not wrong, "%s: every member's loads, stores and atomics are the source's" % label,
           wrong)
    helper = ms["via_helper"]["access"]["stores"]
    into = {x["inlined_into"] for x in helper}
    tap.ok(into == ({"stats_through_helper"} if optimized else {None}),
           "%s: the inlined helper's store names the function it was inlined into" % label,
           helper)
    want_lines = {
        ("refs", "atomics"): source_line("__atomic_fetch_add(&s->refs"),
        ("hits", "stores"): source_line("s->hits = n;"),
        ("via_helper", "stores"): source_line("s->via_helper = v;"),
        ("via_container", "stores"): source_line("s->via_container = v;"),
    }
    bad = []
    for (path, kind), line in want_lines.items():
        sites = ms[path]["access"][kind]
        if not sites or any(x["line"] != line or not x["file"].endswith("access_fixture.c")
                            for x in sites):
            bad.append((path, kind, sites, line))
    tap.ok(not bad, "%s: each site is the statement's file and line" % label, bad)
    init = {x["function"]: x["init"] for x in ms["cpu"]["access"]["stores"]}
    cov = s["access"]["coverage"]
    tap.ok(init == {"stats_alloc": True} and s["access"]["constructors"] == ["stats_alloc"] and
           cov["functions"] >= 10 and cov["typed"] <= cov["operands"] and cov["share"] >= 0.8,
           "%s: stats_alloc is the constructor; coverage %s/%s" % (label, cov["typed"],
                                                                  cov["operands"]),
           json.dumps(s["access"]))


def findings(doc):
    return [(f["rule"], tuple(f["members"]), f["tier"]) for f in doc["structs"][0]["findings"]]


def check_rules(tap, a, binary, work):
    rules = os.path.join(work, "stats.rules")
    with open(rules, "w") as f:
        f.write(RULES)
    r, doc = lint_json(a, binary, "-r", rules)
    got = findings(doc) if doc else []
    wrm = [f for f in got if f[0] == "written-read-mostly"]
    uwh = [f for f in got if f[0] == "unwritten-write-hot"]
    tap.ok(wrm == [("written-read-mostly", ("hits",), "static")],
           "written-read-mostly at hits alone (ops and cpu are stored by the constructor)", got)
    tap.ok(uwh == [("unwritten-write-hot", ("in.nested_flags",), "static")],
           "unwritten-write-hot at in.nested_flags alone", got)
    tap.ok(all(t == "declared" for rule, _, t in got if rule == "mixed-cacheline") and
           any(rule == "mixed-cacheline" for rule, _, _ in got),
           "mixed-cacheline from the rules is declared", got)
    r = run([a.layoutlint, "--access", "--no-cache", "-q", "-r", rules, binary, "struct", "stats"])
    line = source_line("s->hits = n;")
    tap.ok(r.rc == 1 and re.search(r"access_fixture\.c:\d+(:\d+)?: error: read-mostly hits is "
                                   r"written outside constructors: 1 store in 1 function "
                                   r"\(stats_hit\) \[written-read-mostly\]", r.out) and
           re.search(r"access_fixture\.c:%d: note: hits stored by stats_hit" % line, r.out),
           "the text names the store's function at its source line", r.out + r.err)
    r = run([a.layoutlint, "--access", "--no-cache", "-r", rules, binary, "struct", "stats"])
    tap.ok(re.search(r"const struct ops \*ops; .* read-mostly code: 2 load 0 write 1 init \*/",
                     r.out) and
           re.search(r"long refs; .* write-hot code: 0 load 1 write \*/", r.out) and
           re.search(r"/\* code: 1[0-9] functions touch it; (\d+) of their \1 memory operands "
                     r"typed \(100%\); 1 constructor \*/", r.out),
           "the listing gives each member's loading, writing and constructing functions",
           r.out)
    # 'constructors' replaces the defaults: stats_alloc writes ops and cpu at run time then.
    with open(rules, "w") as f:
        f.write(RULES + "  constructors stats_hit\n")
    r, doc = lint_json(a, binary, "-r", rules)
    got = sorted(f[1] for f in findings(doc) if f[0] == "written-read-mostly") if doc else None
    tap.ok(got == [("cpu",), ("ops",)],
           "'constructors stats_hit' replaces the defaults: ops and cpu are written", got)
    with open(rules, "w") as f:
        f.write(RULES + "  constructors stats_*\n")
    r, doc = lint_json(a, binary, "-r", rules)
    got = [f for f in findings(doc) if f[0] == "written-read-mostly"] if doc else None
    tap.ok(got == [], "'constructors stats_*' makes every store initialisation", got)
    with open(rules, "w") as f:
        f.write(RULES + "  constructors stats-hit\n")
    r = run([a.layoutlint, "--access", "--no-cache", "-r", rules, binary, "struct", "stats"])
    tap.ok(r.rc == 2 and "stats.rules:4:" in r.err and r.err.count("\n") == 1,
           "a constructors word that is no function name is one located error", r.err)


def check_write_rules(tap, a, binary, work):
    out = os.path.join(work, "static.rules")
    r = run([a.layoutlint, "--access", "--no-cache", "--static-readers", "2", "--write-rules",
             out, binary, "struct", "stats"])
    text = open(out).read() if os.path.exists(out) else ""
    stmts = sorted(re.findall(r"^\t(read-mostly|write-hot)\s+(\S+)", text, re.M))
    tap.ok(r.rc in (0, 1) and stmts == [("read-mostly", "ops"), ("write-hot", "global_only"),
                                         ("write-hot", "lock.word"), ("write-hot", "refs"),
                                         ("write-hot", "seq")] and
           "from the binary's code (--access)" in text and "--static-readers 2" in text,
           "--write-rules with --access writes the static tags with their evidence", text)
    r = run([a.layoutlint, "-r", out, "--format=json", binary, "struct", "stats"])
    try:
        got = [(f["rule"], f["tier"]) for f in json.loads(r.out)["structs"][0]["findings"]]
    except (ValueError, KeyError, IndexError):
        got = None
    tap.ok(got and ("mixed-cacheline", "declared") in got and
           not any(rule == "stale-rule" for rule, _ in got),
           "the written rules read back: line 0 mixes ops with refs and seq, no stale rule", got)
    for args, why in ((["--static-readers", "2"], "--static-readers without --access"),
                      (["--access", "--list"], "--access with --list"),
                      (["--write-rules", out], "--write-rules without --profile or --access")):
        r = run([a.layoutlint, *args, binary, "struct", "stats"])
        tap.ok(r.rc == 2 and r.err.count("\n") <= 2, "%s is a usage error" % why, r.err)


def check_static_tags(tap, a, binary):
    r, doc = lint_json(a, binary, "--static-readers", "2")
    if not tap.ok(doc is not None, "static tags: answers", r.err):
        return
    ms = members(doc["structs"][0])
    tags = {p: ms[p]["tag"] for p in ("ops", "refs", "seq", "hits", "cpu")}
    tap.ok(tags == {"ops": "read-mostly", "refs": "write-hot", "seq": "write-hot",
                    "hits": "untagged", "cpu": "untagged"},
           "without rules: atomics write-hot, loaded in 2 functions and stored by the "
           "constructor read-mostly, one writer untagged", tags)
    mixed = [f for f in findings(doc) if f[0] == "mixed-cacheline"]
    tap.ok(mixed and all(t == "static" for _, _, t in mixed),
           "the mixed-cacheline it gives is of the static tier", findings(doc))
    r = run([a.layoutlint, "--access", "--no-cache",
             "--static-readers", "2", "--format=sarif", binary,
             "struct", "stats"])
    try:
        results = json.loads(r.out)["runs"][0]["results"]
    except (ValueError, KeyError, IndexError):
        results = []
    tap.ok(results and all(x["properties"]["tier"] == "static" for x in results),
           "SARIF results carry the tier", r.out[:2000])
    r = run([a.layoutlint, "--access", "--no-cache", "--static-readers", "2", "--format=html",
             binary, "struct", "stats"])
    tap.ok(re.search(r'data-rule="mixed-cacheline" data-tier="static"><pre><span class="badge '
                     r'tier"[^>]*>static</span>', r.out),
           "the HTML map badges a finding of the static tier", r.out[-2000:])
    r = run([a.layoutlint, "--access", "--no-cache",
             "--static-readers", "0", binary, "struct", "stats"])
    tap.ok(r.rc == 2, "--static-readers 0 is a usage error", r.err)


def elf_section(path, name):
    """(file offset, size) of section NAME of a 64-bit little-endian ELF file."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    str_off = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    for i in range(shnum):
        base = shoff + i * shentsize
        nm, = struct.unpack_from("<I", data, base)
        end = data.index(b"\0", str_off + nm)
        if data[str_off + nm:end].decode() == name:
            off, size = struct.unpack_from("<QQ", data, base + 0x18)
            return off, size
    raise AssertionError(name)


def check_refusals(tap, a, work, exe):
    arm = os.path.join(work, "arm64.o")
    src = os.path.join(work, "plain.c")
    with open(src, "w") as f:
        f.write("struct s { long a; long b; };\nvoid set(struct s *p) { p->a = 1; }\n")
    try:
        compile_c("clang", src, arm, opt="-O2", target="aarch64-linux-gnu")
    except Exception as e:  # noqa: BLE001
        tap.skip("another machine is refused", str(e)[:200])
    else:
        r = run([a.layoutlint, "--access", "--no-cache", arm, "struct", "s"])
        tap.ok(r.rc == 2 and "x86-64 machine code only; this is arm64" in r.err and
               r.err.count("\n") == 1,
               "an arm64 object is one line, exit 2", r.err)
    debug = os.path.join(work, "debug-only")
    if shutil.which("objcopy"):
        run(["objcopy", "--only-keep-debug", exe, debug], check=True)
        r = run([a.layoutlint, "--access", "--no-cache", debug, "struct", "stats"])
        tap.ok(r.rc == 2 and "no machine code" in r.err and r.err.count("\n") == 1,
               "a debug file without code is one line, exit 2", r.err)
        btf = os.path.join(work, "stats.btf")
        p = run(["pahole", "--btf_encode_detached", btf, exe])
        if p.rc == 0 and os.path.exists(btf):
            r = run([a.layoutlint, "--access", "--no-cache", btf, "struct", "stats"])
            tap.ok(r.rc == 2 and "no code" in r.err and r.err.count("\n") == 1,
                   "BTF is one line, exit 2", r.err)
        else:
            tap.skip("BTF is refused", "pahole could not encode BTF")
    # Damaged code: .text overwritten with bytes no x86 instruction starts with.
    bad = os.path.join(work, "damaged")
    shutil.copy(exe, bad)
    off, size = elf_section(bad, ".text")
    with open(bad, "r+b") as f:
        f.seek(off)
        f.write(b"\x0f\x0b\xd6" * (size // 3))
    r, doc = lint_json(a, bad)
    cov = doc["structs"][0]["access"]["coverage"] if doc else {}
    tap.ok(r.rc == 0 and doc is not None and cov.get("typed", 1) == 0,
           "code that does not decode: no access claimed, no crash", r.err + json.dumps(cov))


def check_cache(tap, a, work, binary):
    """The evidence is kept by build-id and believed only when it is sound and ours."""
    xdg = os.path.join(work, "xdg")
    shutil.rmtree(xdg, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    cmd = [a.layoutlint, "--access", "--format=json", binary, "struct", "stats"]
    first = run(cmd, env=env)
    files = [f for f in os.listdir(os.path.join(xdg, "layoutlint"))
             if f.endswith(".access")] if os.path.isdir(os.path.join(xdg, "layoutlint")) else []
    tap.ok(first.rc == 0 and len(files) == 1, "the first run leaves BUILD-ID.access", files)
    if not files:
        return
    path = os.path.join(xdg, "layoutlint", files[0])
    second = run(cmd, env=env)
    tap.ok(second.rc == 0 and second.out == first.out and not second.err,
           "the second run answers the same from the cache, silently", second.err)
    # The cache answers without the code: point it at a copy whose .text is garbage.
    with open(path) as f:
        text = f.read()
    tap.ok(text.startswith("layoutlint-access 1 ") and "\nE 0 " in text,
           "the cache is the documented text", text[:200])
    data = bytearray(text.encode())
    data[len(data) // 2] ^= 0x20
    with open(path, "wb") as f:
        f.write(data)
    def answer_and_notes(r):
        """The JSON document without its "notes", and the notes (JSON carries them)."""
        try:
            doc = json.loads(r.out)
        except ValueError:
            return None, []
        return {k: v for k, v in doc.items() if k != "notes"}, doc.get("notes", [])

    plain_answer = answer_and_notes(first)[0]
    damaged = run(cmd, env=env)
    answer, notes = answer_and_notes(damaged)
    tap.ok(damaged.rc == 0 and answer == plain_answer and not damaged.err and
           len(notes) == 1 and "ignoring the access cache" in notes[0] and
           "checksum" in notes[0],
           "a damaged cache is one note (in JSON's notes), and the answer is analyzed afresh",
           "%r %s" % (notes, damaged.err))
    os.chmod(path, 0o666)
    foreign = run(cmd, env=env)
    answer, notes = answer_and_notes(foreign)
    tap.ok(foreign.rc == 0 and answer == plain_answer and not foreign.err and
           len(notes) == 1 and "ignoring the access cache" in notes[0],
           "a cache others may write is not believed", "%r %s" % (notes, foreign.err))
    os.chmod(path, 0o644)
    both = run([a.layoutlint, "--access", "--format=json", binary, "struct", "stats",
                "struct", "mapping"], env=env)
    again = run([a.layoutlint, "--access", "--format=json", binary, "struct", "mapping"],
                env=env)
    try:
        m1 = json.loads(both.out)["structs"][1]
        m2 = json.loads(again.out)["structs"][0]
    except (ValueError, IndexError, KeyError):
        m1, m2 = None, 1
    with open(path) as f:
        kept = f.read()
    tap.ok(m1 == m2 and kept.count("\nE ") == 2 and not again.err,
           "a second struct joins the cache beside the first", again.err)
    rules = os.path.join(work, "cached.rules")
    with open(rules, "w") as f:
        f.write(RULES)
    plain = run([a.layoutlint, "-q", "-r", rules, binary, "struct", "stats"], env=env)
    nocache = run([a.layoutlint, "-q", "--no-cache", "-r", rules, binary, "struct", "stats"],
                  env=env)
    tap.ok("[written-read-mostly]" in plain.out and "[written-read-mostly]" not in nocache.out,
           "without --access, the evidence the cache holds is checked all the same",
           plain.out + nocache.out)


GOLDEN = os.path.join(HERE, "..", "profile", "golden")
ROW = re.compile(r"^\s+[\d.]+%\s+\d+\s+struct stats\s+struct stats \+(?:0x)?[0-9a-f]+ \((\w+)\)"
                 r"\s+\[\.\] (\w+)\+0x([0-9a-f]+)$", re.M)


def disassembly(binary):
    """{function: (start, [(address, text)])} from objdump, AT&T syntax."""
    out = run(["objdump", "-d", "--no-show-raw-insn", binary], check=True).out
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(2), (int(m.group(1), 16), []))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and cur:
            cur[1].append((int(m.group(1), 16), m.group(2).strip()))
    return funcs


def direction(insns, addr):
    """How the instruction perf typed at ADDR (or the memory one up to 3 before it,
    as perf 6.12 takes a fused compare's) touches memory through a register."""
    idx = next((i for i, (a, _) in enumerate(insns) if a == addr), None)
    for back in range(4):
        if idx is None or idx - back < 0:
            return None, None
        a, text = insns[idx - back]
        ops = text.split(None, 1)
        operands = ops[1].split("#")[0] if len(ops) > 1 else ""
        if not re.search(r"\(%r(?!ip)", operands) or text.startswith(("lea", "nop")):
            continue
        if text.startswith("lock") or text.startswith(("xchg", "cmpxchg")):
            return a, "atomics"
        parts = [p.strip() for p in re.split(r",(?![^(]*\))", operands)]
        if "(" in parts[-1] and not text.startswith(("cmp", "test")):
            return a, "stores"
        return a, "loads"
    return None, None


def check_perf(tap, a):
    """Every instruction perf 6.12 typed to a member (the golden symoff profiles of
    tests/profile, recorded with perf record and typed by perf's data-type
    profiling) is among our static sites of that member, in its direction."""
    for name in ("sharing-gcc-shared", "sharing-gcc-clean", "sharing-clang-shared",
                 "sharing-clang-clean"):
        binary = os.path.join(GOLDEN, name)
        profile = os.path.join(GOLDEN, name + ".symoff.txt")
        if not (os.path.exists(binary) and shutil.which("objdump")):
            tap.skip("%s: perf's typed instructions" % name, "golden profile or objdump missing")
            continue
        r, doc = lint_json(a, binary)
        ms = members(doc["structs"][0]) if doc else {}
        funcs = disassembly(binary)
        rows = ROW.findall(open(profile).read())
        bad = []
        for field, func, off in rows:
            start, insns = funcs.get(func, (0, []))
            addr, kind = direction(insns, start + int(off, 16))
            if not kind:
                bad.append("%s+0x%s: no memory access found there" % (func, off))
                continue
            ours = {x["inlined_into"] or x["function"] for k in (kind, "atomics")
                    for x in ms.get(field, {}).get("access", {}).get(k, [])}
            if func not in ours:
                bad.append("%s+0x%s (%#x): perf types it %s, a %s; our sites of %s: %s"
                           % (func, off, addr, field, kind[:-1], field, sorted(ours)))
        tap.ok(rows and not bad, "%s: all %d instructions perf typed to a member are our sites, "
               "same member and direction" % (name, len(rows)), bad)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    os.makedirs(a.workdir, exist_ok=True)
    linked_o2 = None
    for cc in ("gcc", "clang"):
        if not shutil.which(cc):
            tap.skip("%s builds" % cc, "%s not installed" % cc)
            continue
        for opt in ("-O0", "-O2"):
            for dwarf in ("4", "5"):
                for linked in (True, False):
                    out = "%s%s-dwarf%s%s" % (cc, opt, dwarf, "" if linked else ".o")
                    binary = compile_c(cc, SRC, out, dwarf=dwarf, opt=opt, obj=not linked,
                                       workdir=a.workdir)
                    check_build(tap, a, binary, out, opt == "-O2", linked)
                    if linked and opt == "-O2" and dwarf == "5" and cc == "gcc":
                        linked_o2 = binary
    if linked_o2:
        check_rules(tap, a, linked_o2, a.workdir)
        check_static_tags(tap, a, linked_o2)
        check_write_rules(tap, a, linked_o2, a.workdir)
        check_perf(tap, a)
        r = run([a.layoutlint, "--access", "--no-cache", "--audit=*", "--static-readers", "2",
                 linked_o2])
        tap.ok(r.rc == 0 and "# static evidence (--access)" in r.out and
               re.search(r"^ +1  struct stats: line 0: ops with refs, seq$", r.out, re.M),
               "--audit --access tags from the code: stats' line 0 mixes ops with refs, seq",
               r.out)
        check_refusals(tap, a, a.workdir, linked_o2)
        check_cache(tap, a, a.workdir, linked_o2)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
