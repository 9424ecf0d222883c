#!/usr/bin/env python3
"""Same input, same bytes out: across thread counts, the raw scan against
the plain libdw walk, and a cold page cache against a warm one.

A gcc-linked executable of several units (the fixture structs, defined
identically in each unit, so every lookup compares copies across units),
asked for every struct at once in each output format, with rules and
--suggest.

Then 300 structs, which a whole-image run builds on two threads: the same
bytes as on one, and the member budget's error at the same struct.

Then relocatable objects, as a kernel module is one (several units joined
by ld -r): gcc and clang (DWARF 4 and 5; clang's 5 names strings through
.debug_str_offsets, relocated too) on x86-64, and clang on arm64; and gcc's
again with 256 KiB between .debug_info and the other debug sections (a
linker script), so that the relocated image reads .debug_info alone. Their
debug sections are relocated by layoutlint itself (input/elf/elf_reloc.c);
LAYOUTLINT_RELOC=libdwfl has libdwfl do it, and LAYOUTLINT_RELOC=own
refuses to fall back to libdwfl, so the comparison is of the two. Both
must answer the same bytes for every whole-image mode and every struct.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Lint, Tap, compile_c, parse_args, run  # noqa: E402
FIXTURE = os.path.join(HERE, "..", "fixtures", "layouts.c")
# Freestanding (no libc headers), so that it compiles for arm64 too.
CROSS_FIXTURE = os.path.join(HERE, "..", "cross", "structs.c")
RULES = """struct big
	read-mostly pad0 last
	write-hot straddle aligned_long tail_arr
struct outer
	read-mostly kind
	write-hot inner
"""


MIPSEL = "clang mipsel DWARF 5"
MIPS64EL = "clang mips64el DWARF 4"


def cold(path):
    """Drop PATH from the page cache (this file only)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    lint = Lint(a.layoutlint)
    os.makedirs(a.workdir, exist_ok=True)
    tap = Tap(diag_lines=40)

    objs = []
    for i in range(4):
        src = os.path.join(a.workdir, f"unit{i}.c")
        with open(src, "w") as f:
            f.write(f'#include "{os.path.abspath(FIXTURE)}"\n'
                    f"int unit{i}_marker;\n")
        # The fixture defines main(); only the first unit keeps it.
        defs = [] if i == 0 else ["main=not_main_%d" % i]
        objs.append(compile_c("gcc", src, f"unit{i}.o", workdir=a.workdir, dwarf=5, opt="-O0",
                              extra=["-w"], defines=defs))
    exe = compile_c("gcc", objs, "multi", workdir=a.workdir,
                    flags=["-Wl,--allow-multiple-definition"])
    rules = os.path.join(a.workdir, "fixture.rules")
    with open(rules, "w") as f:
        f.write(RULES)

    listing = lint.run("--list=*", exe)
    names = sorted({line.split()[1] for line in listing.stdout.splitlines()[1:]
                    if len(line.split()) > 1})
    tap.ok(len(names) >= 20, f"{len(names)} structs listed", listing.stderr)

    runs = {
        "1 thread": {"LAYOUTLINT_THREADS": "1"},
        "2 threads": {"LAYOUTLINT_THREADS": "2"},
        "8 threads": {"LAYOUTLINT_THREADS": "8"},
        "libdw walk": {"LAYOUTLINT_SCAN": "libdw"},
    }
    for fmt in ("text", "json", "sarif", "html"):
        outs = {}
        for label, env in runs.items():
            for cache in ("warm", "cold"):
                if cache == "cold":
                    cold(exe)
                r = lint.run(f"--format={fmt}", "--suggest", exe, *names, extra_env=env)
                outs[f"{label}, {cache}"] = r
        ref_label = "1 thread, warm"
        ref = outs[ref_label]
        tap.ok(ref.returncode in (0, 1) and ref.stdout, f"{fmt}: exit {ref.returncode}",
               ref.stderr)
        for label, r in outs.items():
            if label == ref_label:
                continue
            tap.ok((r.returncode, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr),
                   f"{fmt}: {label} byte-identical to {ref_label}",
                   r.stderr or r.stdout[:2000])
        # With rules: the findings and the suggestions too.
        outs = []
        for env in runs.values():
            r = lint.run(f"--format={fmt}", "--suggest", "--rules", rules, exe, extra_env=env)
            outs.append((r.returncode, r.stdout, r.stderr))
        tap.ok(outs[0][0] == 1 and all(o == outs[0] for o in outs),
               f"{fmt} with rules: exit 1 and byte-identical across threads and paths",
               outs[0][2] or outs[0][1][:1000])
    # A misspelt name: the did-you-mean pass splits .debug_str between
    # threads, and must still answer as one thread does.
    for typo in [n + n[-1] for n in names[:4]] + [n[1:] + n[0] for n in names[4:6]]:
        if typo in names:
            continue
        outs = []
        for label in ("1 thread", "2 threads", "8 threads"):
            r = lint.run(exe, typo, extra_env=runs[label])
            outs.append((r.returncode, r.stdout, r.stderr))
        tap.ok(outs[0][0] == 2 and "not found" in outs[0][2] and all(o == outs[0] for o in outs),
               f"missing {typo}: exit 2, the same answer on 1, 2 and 8 threads "
               f"({outs[0][2].strip().split(': ', 1)[-1]})", repr(outs))
    check_relocatable(tap, lint, a.workdir, rules)
    check_parallel_builds(tap, lint, a.workdir)
    return tap.finish()


def many_structs(workdir):
    """An executable of 300 structs (more than the 64 a run needs to build on
    two threads), some embedding others."""
    src = os.path.join(workdir, "many.c")
    with open(src, "w") as f:
        f.write("struct m0 { int a; char b; long c; };\n")
        for i in range(1, 300):
            f.write(f"struct m{i} {{ char x{i}; struct m{i // 2} in; short y; "
                    f"void *p; int arr[{i % 7 + 1}]; }};\n")
        f.write("".join(f"struct m{i} g{i};\n" for i in range(300)))
        f.write("int main(void) { return 0; }\n")
    return compile_c("gcc", src, "many", workdir=workdir, dwarf=5, obj=False)


def budget_crossers(workdir):
    """120 structs of 2,048 members each: together past the member budget
    (100,000 for a small input) at about the 49th, each alone within it.
    On two threads each builds within the whole budget; the run must still
    stop where one thread stops, with the same message."""
    src = os.path.join(workdir, "budget.c")
    with open(src, "w") as f:
        f.write("struct b0 { int a, b; };\n")
        for i in range(1, 11):
            f.write(f"struct b{i} {{ struct b{i - 1} x, y; }};\n")
        for j in range(120):
            f.write(f"struct c{j:03d} {{ struct b10 e; }} gc{j};\n")
        f.write("int main(void) { return 0; }\n")
    return compile_c("gcc", src, "budget", workdir=workdir, dwarf=5, obj=False)


def check_parallel_builds(tap, lint, workdir):
    """Builds on two threads answer what one thread answers, byte for byte:
    every whole-image mode, and the member budget's error at the same struct."""
    one, two = {"LAYOUTLINT_THREADS": "1"}, {"LAYOUTLINT_THREADS": "2"}
    exe = many_structs(workdir)
    for args in (["--list=*"], ["--audit=*"], ["--contains=m3"],
                 ["--format=json", exe] + [f"m{i}" for i in range(300)]):
        argv = args if exe in args else [*args, exe]
        a = lint.run("--no-cache", *argv, extra_env=one)
        b = lint.run("--no-cache", *argv, extra_env=two)
        tap.ok((a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr) and
               a.returncode == 0 and (args[0] == "--audit=*" or a.stdout.count("\n") > 100),
               f"300 structs, {args[0]}: two threads answer one thread's bytes",
               f"1: {a.returncode} {a.stderr}\n2: {b.returncode} {b.stderr}")
    exe = budget_crossers(workdir)
    a = lint.run("--no-cache", "--list=*", exe, extra_env=one)
    b = lint.run("--no-cache", "--list=*", exe, extra_env=two)
    tap.ok(a.returncode == 2 and "members below DIE" in a.stderr and
           (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr),
           "structs past the member budget together: exit 2 at the same struct, "
           "the same message, on one thread and on two",
           f"1: {a.returncode} {a.stderr}\n2: {b.returncode} {b.stderr}")


# The debug sections apart: 256 KiB of something else between .debug_info
# and the others, so that the relocated image reads .debug_info alone
# (relocated_range() in reader_open.c) and the rest from the mapping.
APART = "gcc DWARF 5, debug sections apart"
APART_SCRIPT = """SECTIONS {
  .debug_info 0 : { *(.debug_info) }
  .apart 0 : { BYTE(1) . = . + 0x40000; }
}
"""


def section_offsets(path):
    """{name: (file offset, size)} of PATH's sections, as readelf -SW prints them."""
    out = {}
    for line in run(["readelf", "-SW", path]).out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[0].startswith("[") and f[1].startswith("."):
            out[f[1]] = (int(f[4], 16), int(f[5], 16))
    return out


def relocatable_objects(workdir):
    """(label, path) of each ld -r of several units, as a module is built."""
    builds = [("gcc DWARF 5", "gcc", FIXTURE, None, 5, "ld"),
              ("clang DWARF 5", "clang", FIXTURE, None, 5, "ld"),
              ("clang DWARF 4", "clang", FIXTURE, None, 4, "ld"),
              ("clang arm64 DWARF 5", "clang", CROSS_FIXTURE, "aarch64-linux-gnu", 5, "ld.lld"),
              (APART, "gcc", FIXTURE, None, 5, "ld"),
              # libdw 0.188 has no MIPS backend: libdwfl cannot relocate these.
              (MIPSEL, "clang", CROSS_FIXTURE, "mipsel-linux-gnu", 5, "ld.lld"),
              (MIPS64EL, "clang", CROSS_FIXTURE, "mips64el-linux-gnuabi64", 4, "ld.lld")]
    out = []
    for label, cc, fixture, target, dwarf, linker in builds:
        tag = label.replace(" ", "-")
        objs = []
        for i in range(3):
            src = os.path.join(workdir, f"rel-{tag}-{i}.c")
            with open(src, "w") as f:
                f.write(f'#include "{os.path.abspath(fixture)}"\n'
                        f"int rel_unit{i}_marker;\n")
            objs.append(compile_c(cc, src, f"rel-{tag}-{i}.o", workdir=workdir, dwarf=dwarf,
                                  opt="-O0", target=target, extra=["-w"],
                                  defines=["main=rel_main_%d" % i]))
        joined = os.path.join(workdir, f"rel-{tag}.ko")
        script = []
        if label == APART:
            script = ["-T", os.path.join(workdir, "apart.ld")]
            with open(script[1], "w") as f:
                f.write(APART_SCRIPT)
        p = run([linker, "-r", "--allow-multiple-definition", *script, "-o", joined, *objs])
        out.append((label, joined if p.rc == 0 else None, p.err))
    # An i386 object (SHT_REL): libdwfl's, and "own" says it is not ours.
    out.append(("gcc -m32", None, None))
    return out


def check_relocatable(tap, lint, workdir, rules):
    """Our relocation against libdwfl's, byte for byte, on relocatable objects."""
    libdwfl = {"LAYOUTLINT_RELOC": "libdwfl"}
    own = {"LAYOUTLINT_RELOC": "own"}
    for label, obj, why in relocatable_objects(workdir):
        if label == "gcc -m32":
            check_not_ours(tap, lint, workdir)
            continue
        if not obj:
            tap.ok(False, f"{label}: ld -r", why)
            continue
        if label in (MIPSEL, MIPS64EL):
            check_mips(tap, lint, label, obj)
            continue
        if label == APART:
            sec = section_offsets(obj)
            info, apart = sec.get(".debug_info"), sec.get(".apart")
            tap.ok(info and apart and all(name in sec and sec[name][0] > apart[0]
                                          for name in (".debug_abbrev", ".debug_str")) and
                   apart[0] > info[0] and apart[1] > 8 * info[1],
                   f"{label}: 256 KiB between .debug_info and the others", str(sec))
        listing = lint.run("--list=*", obj, extra_env=own)
        names = sorted({line.split()[1] for line in listing.stdout.splitlines()[1:]
                        if len(line.split()) > 1})
        tap.ok(listing.returncode == 0 and len(names) >= 5,
               f"{label}: {len(names)} structs listed from the relocatable object",
               listing.stderr)
        modes = [["--list=*"], ["--audit=*"], ["--audit=variables"],
                 ["--format=json", "--suggest", obj, *names],
                 ["--rules", rules, "--format=json", obj]]
        for args in modes:
            argv = args if obj in args else [*args, obj]
            ours = lint.run("--no-cache", *argv, extra_env=own)
            theirs = lint.run("--no-cache", *argv, extra_env=libdwfl)
            tap.ok((ours.returncode, ours.stdout, ours.stderr) ==
                   (theirs.returncode, theirs.stdout, theirs.stderr) and ours.stdout,
                   f"{label}: {' '.join(args[:2])}: our relocation answers libdwfl's bytes "
                   f"(exit {ours.returncode})",
                   f"ours: {ours.stderr}{ours.stdout[:1500]}\nlibdwfl: {theirs.stderr}"
                   f"{theirs.stdout[:1500]}")


def check_mips(tap, lint, label, obj):
    """No libdwfl to compare with: the three units' module must list what
    one unit's object does (each unit includes the same fixture), every
    row from the right file, and libdwfl must not be needed."""
    own = {"LAYOUTLINT_RELOC": "own"}
    unit0 = obj[:-len(".ko")] + "-0.o"
    joined = lint.run("--no-cache", "--list=*", obj, extra_env=own)
    single = lint.run("--no-cache", "--list=*", unit0, extra_env=own)
    rows = joined.stdout.splitlines()[1:]
    tap.ok(joined.returncode == 0 and single.returncode == 0 and len(rows) >= 5 and
           joined.stdout == single.stdout and
           sum(os.path.basename(CROSS_FIXTURE) + ":" in line for line in rows) >= 5,
           f"{label}: the ld -r module of three units lists what one unit does "
           f"({len(rows)} rows), relocated here",
           f"module: {joined.stderr}{joined.stdout[:1500]}\nunit: {single.stderr}"
           f"{single.stdout[:1500]}")
    names = [line.split()[1] for line in rows]
    ours = lint.run("--no-cache", "--format=json", obj, *names, extra_env=own)
    one = lint.run("--no-cache", "--format=json", unit0, *names, extra_env=own)
    tap.ok(ours.returncode == 0 and ours.stdout == one.stdout.replace(unit0, obj),
           f"{label}: every struct of the module laid out as in one unit",
           f"module: {ours.stderr}\nunit: {one.stderr}")


def check_not_ours(tap, lint, workdir):
    """An i386 object has SHT_REL relocations, which ours does not apply:
    by default libdwfl answers, and LAYOUTLINT_RELOC=own says why not."""
    obj = compile_c("clang", CROSS_FIXTURE, "rel-i386.o", workdir=workdir, dwarf=5,
                    target="i386-linux-gnu", extra=["-w"])
    default = lint.run("--list=*", obj)
    strict = lint.run("--list=*", obj, extra_env={"LAYOUTLINT_RELOC": "own"})
    tap.ok(default.returncode == 0 and default.stdout.count("\n") > 5,
           "i386 object (SHT_REL): listed through libdwfl", default.stderr)
    tap.ok(strict.returncode == 2 and strict.stdout == "" and
           strict.stderr == f"layoutlint: {obj}: LAYOUTLINT_RELOC=own: its debug sections are "
           "not ones layoutlint relocates (little-endian: x86-64 or arm64 ELF64 RELA, "
           "mipsel REL, mips64el RELA; .debug_info stored plainly)\n",
           "i386 object with LAYOUTLINT_RELOC=own: exit 2, one line naming why", strict.stderr)


if __name__ == "__main__":
    sys.exit(main())
