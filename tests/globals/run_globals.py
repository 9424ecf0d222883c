#!/usr/bin/env python3
"""Global variables as one aggregate (issue 22): `global variables` and the
rules' `globals` block.

usage: run_globals.py --layoutlint PATH --workdir DIR

tests/globals/globals.c is built with gcc and clang, as an executable and
as an object (ET_REL, where sections have no addresses yet). For each,
nm -S gives every variable's address and size independently of
layoutlint; the test then asserts, from --format=json:

  * each fixture variable is a member at nm's address minus the
    aggregate's origin (a page boundary), with nm's size;
  * the rules' findings: mixed-cacheline on the line of shared_config and
    shared_counter, write-domains on the line of rx_packets and tx_packets,
    none on the lines of apart_config and apart_counter; with
    --adjacent-lines, pair_ops and pair_hits on the two lines of one
    128-byte pair; group-span for `group hot`, with the lines and minimum
    recomputed from nm;
  * an optional pattern for a variable the binary lacks is no finding, a
    plain one is a stale-rule;
  * from DWARF: each variable's type as the source spells it and its
    declaration at the line of globals.c (or neighbour.h) that defines it,
    where the diagnostics point, also for declared_counter, defined after
    its extern declaration (gcc gives its file only through
    DW_AT_specification); array-neighbours for the write-hot array
    of 16-byte structs;
  * --audit=variables (no rules): the lock-like audit_refs named with
    neighbour.h's neighbour_flag exactly when nm puts them on one line, and
    mostly_refs as a lock in .data..read_mostly where that section survives
    (an object: a link merges it into .data).
"""
import re
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, parse_args, run  # noqa: E402

SRC = os.path.join(HERE, "globals.c")
NEIGHBOUR = os.path.join(HERE, "neighbour.h")
# The type each variable's definition spells (typedefs kept, as C spells them).
TYPES = {"shared_config": "int", "shared_counter": "long", "pair_ops": "const void *",
         "slots": "struct slot[4]", "audit_refs": "atomic_t", "neighbour_flag": "int",
         "mostly_refs": "atomic_t", "declared_counter": "long"}


def definition_line(path, name):
    """The line of PATH that defines NAME: its first line naming it before an
    initializer, an array bound or the end of the declaration, and not an
    extern declaration."""
    with open(path) as f:
        for no, text in enumerate(f, 1):
            if not text.lstrip().startswith(("/*", "*", "extern")) and \
                    re.search(r"\b%s\b\s*(=|\[|;)" % re.escape(name), text):
                return no
    raise Failure(f"{name} not defined in {path}")
RULES = os.path.join(HERE, "globals.rules")
CL = 64
FIXTURE_VARS = ["shared_config", "shared_counter", "apart_config", "apart_counter",
                "rx_packets", "tx_packets", "pair_ops", "pair_hits", "slots"]


def nm_symbols(binary):
    """name -> (address, size) of the data objects nm -S lists."""
    out = subprocess.run(["nm", "-S", binary], capture_output=True, text=True,
                         check=True).stdout
    syms = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4 and w[2] in "dDbB":
            syms[w[3]] = (int(w[0], 16), int(w[1], 16))
    return syms


def relocated(binary, syms):
    """For an object file nm gives offsets within each section; add where
    layoutlint places that section (the writable data sections follow each
    other, page by page, in section-header order, as docs/cli.md says)."""
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True,
                         check=True).stdout
    sections, base, nxt = {}, {}, 0
    for line in out.splitlines():
        w = line.replace("[ ", "[").split()
        if len(w) > 7 and w[0].startswith("[") and w[0].endswith("]") and w[0][1:-1].isdigit():
            sections[int(w[0][1:-1])] = (w[1], int(w[5], 16), w[2], w[7])
    for idx in sorted(sections):
        name, size, kind, flags = sections[idx]
        data = (kind in ("PROGBITS", "NOBITS") and "W" in flags and "A" in flags and
                "X" not in flags)
        if not data:
            continue
        base[idx] = nxt
        nxt += (size + 4095) // 4096 * 4096
    out = subprocess.run(["readelf", "-sW", binary], capture_output=True, text=True,
                         check=True).stdout
    placed = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 8 and w[3] == "OBJECT" and w[6].isdigit() and w[7] in syms \
                and int(w[6]) in base:
            placed[w[7]] = (base[int(w[6])] + int(w[1], 16), int(w[2]))
    return placed


def lint(tool, *args):
    rc, out, err = run([tool, "--format=json", *args])
    doc = json.loads(out) if out else {"structs": []}
    return rc, doc, err


def check(tap, label, tool, binary, is_object):
    syms = nm_symbols(binary)
    if is_object:
        syms = relocated(binary, syms)
    rc, doc, err = lint(tool, binary, "global", "variables")
    st = doc["structs"][0] if doc["structs"] else None
    if not tap.ok(rc == 0 and st and st["kind"] == "global" and st["name"] == "variables",
                  f"{label}: `global variables` is one aggregate", f"rc={rc} {err}"):
        return
    origin = st.get("origin", 0)
    members = {m["name"]: m for m in st["members"]}
    want = {v: (syms[v][0] - origin, syms[v][1]) for v in FIXTURE_VARS}
    got = {v: (members[v]["offset"], members[v]["size"]) if v in members else None
           for v in FIXTURE_VARS}
    tap.ok(origin % 4096 == 0 and got == want,
           f"{label}: each variable at nm's address minus a page-aligned origin, nm's size",
           f"origin={origin:#x}\ngot  {got}\nwant {want}")
    check_debug(tap, label, members)

    def line(v):
        return (syms[v][0] - origin) // CL

    rc, doc, err = lint(tool, "-r", RULES, "--adjacent-lines", binary)
    st = doc["structs"][0] if doc["structs"] else {"findings": []}
    found = sorted((f["rule"], f["cacheline"], tuple(sorted(f["members"])))
                   for f in st["findings"])
    expect = [("mixed-cacheline", line("shared_config"),
               ("shared_config", "shared_counter")),
              ("write-domains", line("rx_packets"), ("rx_packets", "tx_packets"))]
    pair = line("pair_ops")
    if pair % 2 == 0 and line("pair_hits") == pair + 1:
        expect.append(("adjacent-lines", pair, ("pair_hits", "pair_ops")))
    hot = ["shared_config", "apart_config", "rx_packets"]
    hot_lines = sorted({line(v) for v in hot})
    hot_need = -(-sum(syms[v][1] for v in hot) // CL)
    got_mixed = [f for f in found if f[0] in ("mixed-cacheline", "write-domains")]
    tap.ok(rc == 1 and got_mixed == sorted(expect[:2]),
           f"{label}: mixed-cacheline and write-domains where nm puts the pairs, "
           "none for the variables on lines of their own",
           f"rc={rc} {err}\ngot  {found}")
    adjacent = [f for f in found if f[0] == "adjacent-lines"]
    tap.ok(("adjacent-lines", pair, ("pair_hits", "pair_ops")) in adjacent,
           f"{label}: --adjacent-lines: pair_ops and pair_hits on the two lines of one pair",
           f"lines {pair}, {line('pair_hits')}: {adjacent}")
    span = [f for f in st["findings"] if f["rule"] == "group-span"]
    msg = span[0]["message"] if span else ""
    tap.ok(len(span) == 1 and f"touches {len(hot_lines)} cachelines" in msg and
           f"need only {hot_need}" in msg,
           f"{label}: group hot spans the lines nm says, against its minimum",
           f"{msg} (want {len(hot_lines)} lines {hot_lines}, minimum {hot_need})")
    stale = [f for f in st["findings"] if f["rule"] == "stale-rule"]
    tap.ok(not stale, f"{label}: an optional missing variable is no finding", stale)
    mixed = next((f for f in st["findings"] if f["rule"] == "mixed-cacheline"), None)
    loc = (mixed or {}).get("location") or {}
    tap.ok(loc.get("file", "").endswith("globals.c") and
           loc.get("line") == definition_line(SRC, "shared_config"),
           f"{label}: the mixed-cacheline diagnostic is at shared_config's definition",
           f"{loc}")
    arrays = [f for f in st["findings"] if f["rule"] == "array-neighbours"]
    tap.ok(len(arrays) == 1 and arrays[0]["members"] == ["slots"] and
           "struct slot[4]" in arrays[0]["message"],
           f"{label}: array-neighbours for the write-hot array of 16-byte structs",
           f"{arrays}")
    check_audit(tap, label, tool, binary, syms, origin, is_object)
    check_two_sizes(tap, label, tool, binary, syms, origin)

    # .data..percpu: its own aggregate, not among the global variables, where
    # the section survives (an object; a user-space link merges it into .data).
    sections = subprocess.run(["readelf", "-SW", binary], capture_output=True,
                              text=True).stdout
    if ".data..percpu" not in sections:
        tap.ok("pcpu_count" in members and not any(s["name"] == "percpu"
                                                   for s in doc["structs"]),
               f"{label}: no .data..percpu section (the link merged it): its variables "
               "are among the global variables", sorted(members)[:20])
        return
    pc = next((s for s in doc["structs"] if s["name"] == "percpu"), None)
    pc_members = [m["name"] for m in pc["members"]] if pc else []
    pc_mixed = [tuple(sorted(f["members"])) for f in (pc or {"findings": []})["findings"]
                if f["rule"] == "mixed-cacheline"]
    tap.ok(pc_members == ["pcpu_count", "pcpu_ops"] and pc_mixed == [("pcpu_count", "pcpu_ops")]
           and "pcpu_count" not in members and pc.get("origin", 0) % 4096 == 0 and
           # its own space: offsets from its own page, as nm's within the section
           [m["offset"] for m in pc["members"]] ==
           [syms[v][0] - syms["pcpu_count"][0] + syms["pcpu_count"][0] % 4096
            for v in ("pcpu_count", "pcpu_ops")],
           f"{label}: .data..percpu is global percpu, apart from the variables; its "
           "two variables meet on one line",
           f"{pc_members} {pc_mixed}")


def check_two_sizes(tap, label, tool, binary, syms, origin):
    """--cacheline 64,128: the aggregate linted at each size, each finding
    saying under which; mixed-cacheline pairs as nm's addresses put them on
    lines of each size."""
    rc, doc, err = lint(tool, "-r", RULES, "--cacheline", "64,128", binary)
    got, want = {}, {}
    for st in doc["structs"]:
        if st["name"] != "variables":
            continue
        size = st["cacheline"]
        got[size] = sorted((f["cacheline"], tuple(sorted(f["members"])))
                           for f in st["findings"] if f["rule"] == "mixed-cacheline")
        if not all(f["message"].endswith(f"({size}-byte lines)") for f in st["findings"]):
            got[size] = ("a message without its line size", st["findings"])
    reads = ["shared_config", "apart_config", "pair_ops"]
    writes = ["shared_counter", "apart_counter", "pair_hits", "slots"]
    for size in (64, 128):
        lines = {}
        for v in reads + writes:
            a, n = syms[v]
            for ln in range((a - origin) // size, (a + n - 1 - origin) // size + 1):
                lines.setdefault(ln, set()).add(v)
        want[size] = sorted((ln, tuple(sorted(vs))) for ln, vs in lines.items()
                            if vs & set(reads) and vs & set(writes))
    tap.ok(rc == 1 and got == want,
           f"{label}: --cacheline 64,128: mixed lines at each size where nm puts them, "
           "each finding naming its size", f"rc={rc} {err}\ngot  {got}\nwant {want}")


def check_debug(tap, label, members):
    """Types and declarations from DWARF, against the source itself."""
    bad = []
    for v, want_type in TYPES.items():
        m = members.get(v) or {}
        src = NEIGHBOUR if v == "neighbour_flag" else SRC
        decl = m.get("decl") or {}
        if m.get("type") != want_type or \
                not (decl.get("file") or "").endswith(os.path.basename(src)) or \
                decl.get("line") != definition_line(src, v):
            bad.append((v, m.get("type"), decl, want_type, definition_line(src, v)))
    tap.ok(not bad, f"{label}: each variable's type and declaring line, as the source "
           "spells them", "\n".join(map(str, bad)))


def check_audit(tap, label, tool, binary, syms, origin, is_object):
    rc, out, err = run([tool, "--audit=variables", binary])
    rows = [l.strip() for l in out.splitlines() if not l.startswith("#")]
    shared = (syms["audit_refs"][0] - origin) // CL == (syms["neighbour_flag"][0] - origin) // CL
    named = [r for r in rows if re.search(r"atomic_t audit_refs \(\S*globals\.c\) with .*"
                                          r"neighbour_flag \(\S*neighbour\.h\)", r)]
    tap.ok(rc == 0 and bool(named) == shared,
           f"{label}: --audit=variables names audit_refs with neighbour.h's variable "
           f"{'(one line, by nm)' if shared else '(not when nm puts them apart)'}",
           f"rc={rc} {err}\n{out}")
    if is_object:
        rm = [r for r in rows if "mostly_refs" in r and "in .data..read_mostly" in r]
        tap.ok(len(rm) == 1, f"{label}: --audit=variables: a lock in .data..read_mostly",
               out)


UNITS = {
    "first.c": "int first_counter = 1;\nstatic long first_static = 2;\n"
               "long *first_ptr = &first_static;\n",
    "middle.c": "struct mid { int a; long b; };\nstruct mid mid_var = { 1, 2 };\n"
                "const char mid_text[40] = \"middle\";\n",
    "late.c": "struct late_struct { int x; char pad[60]; long y; };\n"
              "struct late_struct late_var;\nint main(void) { return late_var.x; }\n",
}


def check_after_lookup(tap, tool, workdir):
    """`global variables` after a struct of a late unit in one run: the
    struct's cold lookup has libdw skip the unit headers before it behind
    one made-up header, which the variables walk of every unit must not
    meet (it did: the middle unit's variables lost their types and files)."""
    srcs = []
    for name, text in UNITS.items():
        srcs.append(os.path.join(workdir, name))
        with open(srcs[-1], "w") as f:
            f.write(text)
    for cc in ("gcc", "clang"):
        if not shutil.which(cc):
            continue
        label = f"{cc} three units"
        try:
            exe = compile_c(cc, srcs, os.path.join(workdir, f"units-{cc}.exe"), dwarf="5",
                            opt="-O0", obj=False)
        except Failure as e:
            tap.ok(False, f"{label}: compile", str(e))
            continue
        _, alone, err1 = lint(tool, "--no-cache", exe, "global", "variables")
        _, after, err2 = lint(tool, "--no-cache", exe, "struct", "late_struct", "global",
                              "variables")
        first = alone["structs"][0] if alone and alone["structs"] else None
        second = after["structs"][-1] if after and after["structs"] else None
        typed = first and all(m["type"] and m["decl"] for m in first["members"]
                              if m["name"] in ("mid_var", "mid_text", "first_counter"))
        tap.ok(bool(typed) and first == second,
               f"{label}: global variables after a late struct's lookup are the same",
               f"alone: {json.dumps(first)[:600]}\nafter: {json.dumps(second)[:600]}\n"
               f"{err1}{err2}")


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    os.makedirs(a.workdir, exist_ok=True)
    for cc in ("gcc", "clang"):
        if not shutil.which(cc):
            tap.skip(f"{cc}: compile", f"no {cc}")
            continue
        for is_object in (False, True):
            kind = "object" if is_object else "executable"
            out = os.path.join(a.workdir, f"globals-{cc}.{'o' if is_object else 'exe'}")
            try:
                compile_c(cc, SRC, out, dwarf="5", opt="-O0", obj=is_object)
            except Failure as e:
                tap.ok(False, f"{cc} {kind}: compile", str(e))
                continue
            check(tap, f"{cc} {kind}", a.layoutlint, out, is_object)

    # A plain pattern for a variable the binary lacks is a stale-rule.
    stale_rules = os.path.join(a.workdir, "stale.rules")
    with open(stale_rules, "w") as f:
        f.write("globals\n\twrite-hot shared_countr\n")
    exe = os.path.join(a.workdir, "globals-gcc.exe")
    if os.path.exists(exe):
        rc, doc, err = lint(a.layoutlint, "-r", stale_rules, exe)
        st = doc["structs"][0] if doc["structs"] else {"findings": []}
        stale = [f["message"] for f in st["findings"] if f["rule"] == "stale-rule"]
        tap.ok(rc == 1 and len(stale) == 1 and "did you mean shared_counter" in stale[0],
               "a misspelt variable is a stale-rule with 'did you mean'", f"rc={rc} {stale}")
    # A baseline of the globals' findings reads back and takes them all.
    if os.path.exists(exe):
        base = os.path.join(a.workdir, "globals.baseline")
        rc1, _, err1 = run([a.layoutlint, "-q", "-r", RULES, "--write-baseline", base, exe])
        rc2, out2, err2 = run([a.layoutlint, "-q", "-r", RULES, "--baseline", base, exe])
        with open(base) as f:
            written = json.load(f)
        tap.ok(rc1 == 1 and rc2 == 0 and
               any(p["struct"] == "global variables" for p in written["pairs"]) and
               "0 findings with new pairs" in err2,
               "a baseline of global variables' findings is read back and takes them all",
               f"write rc={rc1} {err1}\nread rc={rc2} {err2}")
    # Several line sizes: a usage error names the argument, exit 2.
    if os.path.exists(exe):
        for bad, extra in (("64,64", []), ("64,", []), ("16,32,64,128,256", []), ("64,96", []),
                           ("64,128", ["--format=patch"])):
            rc, out, err = run([a.layoutlint, "--cacheline", bad, *extra, exe, "struct", "slot"])
            first = err.splitlines()[0] if err else ""
            tap.ok(rc == 2 and "--cacheline" in first and not out,
                   f"--cacheline {bad} {' '.join(extra)}: usage error, exit 2", f"rc={rc} {err}")
    check_after_lookup(tap, a.layoutlint, a.workdir)
    # Variables spanning 300 MiB are laid out at a cost per variable; more than a
    # reader accepts (4095 MiB) is one line, exit 2, none dropped.
    for size, laid in (("300u << 20", True), ("5UL << 30", False)):
        big = os.path.join(a.workdir, "big.c")
        with open(big, "w") as f:
            f.write("char huge_buffer[%s];\nint after_it = 1;\n" % size)
        try:
            obj = compile_c("gcc", big, os.path.join(a.workdir, "big.o"), opt="-O0")
            rc, out, err = run([a.layoutlint, obj, "global", "variables"])
            if laid:
                tap.ok(rc == 0 and "char huge_buffer[314572800];" in out and
                       "cachelines: 4915264" in out and len(out) < 4096,
                       "variables spanning 300 MiB: laid out, the array's lines elided",
                       f"rc={rc} {out[:2000]} {err}")
            else:
                tap.ok(rc == 2 and not out and len(err.strip().splitlines()) == 1 and
                       "more than the 4095 MiB layoutlint maps" in err,
                       "variables spanning more than 4095 MiB: one line, exit 2",
                       f"rc={rc} {err}")
        except Failure as e:
            tap.ok(False, "compile a %s-byte .bss variable" % size, str(e))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
