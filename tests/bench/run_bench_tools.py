#!/usr/bin/env python3
"""The helpers bench/run trusts (TAP): bench/floor reads every byte of
.debug_info, and bench/complete.py calls an answer complete only when every
struct asked for came back (pahole -C a,b,c without --skip_missing printed 13
of 20 and was timed as if it had answered)."""
import functools
import os
import re
import shutil
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "tests"))
import lib  # noqa: E402
from lib import Tap, git_env, parse_args  # noqa: E402

COMPLETE = os.path.join(TOP, "bench", "complete.py")
ROW = os.path.join(TOP, "bench", "row.py")
ALTERNATE = os.path.join(TOP, "bench", "alternate.py")
INTERLEAVE = os.path.join(TOP, "bench", "interleave.py")
REVISION = os.path.join(TOP, "bench", "revision")


# lib's run with an empty stdin unless a check gives one.
run = functools.partial(lib.run, input="")


def debug_info_span(path):
    """.debug_info's file offset and size as readelf reports them, or (None, None)."""
    p = run(["readelf", "-SW", path])
    m = re.search(r"\] \.debug_info\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", p.stdout)
    return (int(m.group(1), 16), int(m.group(2), 16)) if m else (None, None)


def grow_debug_info(elf, path):
    """ELF64 little-endian ELF's .debug_info header edited to end a page past the file."""
    p = run(["readelf", "-SW", path])
    m = re.search(r"\[\s*(\d+)\] \.debug_info\s", p.stdout)
    shoff = int.from_bytes(elf[0x28:0x30], "little")
    shentsize = int.from_bytes(elf[0x3a:0x3c], "little")
    at = shoff + int(m.group(1)) * shentsize
    off = int.from_bytes(elf[at + 0x18:at + 0x20], "little")
    elf[at + 0x20:at + 0x28] = (len(elf) - off + 4096).to_bytes(8, "little")


def check_floor(tap, floor, binary, workdir):
    off, want = debug_info_span(binary)
    page = os.sysconf("SC_PAGE_SIZE")
    pages = (off % page + want + page - 1) // page if want else None
    for j in ("1", "2", "3"):
        p = run([floor, "-j", j, binary])
        tap.ok(p.returncode == 0 and want and
               p.stdout == f"{want} bytes of .debug_info read on {j} threads\n",
               f"floor -j {j} reads all {want} bytes of .debug_info", p.stdout + p.stderr)
        # The page floor: every page the section spans, each touched once.
        p = run([floor, "-j", j, "--map", binary])
        tap.ok(p.returncode == 0 and want and p.stdout ==
               f"{want} bytes of .debug_info mapped, {pages} pages touched on {j} threads\n",
               f"floor -j {j} --map touches each of the {pages} pages once", p.stdout + p.stderr)
    # .debug_info said to run past the end of the file: a short read, and no
    # mapping past the end (its touch would be a SIGBUS).
    cut = os.path.join(workdir, "cut")
    with open(binary, "rb") as f:
        elf = bytearray(f.read())
    grow_debug_info(elf, binary)
    with open(cut, "wb") as g:
        g.write(elf)
    for argv in ([floor, cut], [floor, "--map", cut]):
        p = run(argv)
        tap.ok(p.returncode == 2 and p.stdout == "" and
               p.stderr == f"floor: {cut}: .debug_info runs past the end of the file\n",
               f"{' '.join(argv[1:-1]) or 'pread'} on a .debug_info past the end of the file: one line, exit 2",
               p.stderr)
    text = os.path.join(workdir, "not-elf")
    with open(text, "w") as f:
        f.write("not an ELF file\n")
    for argv, what in (([floor, text], "a file that is not ELF"),
                       ([floor, os.path.join(workdir, "absent")], "a missing file"),
                       ([floor, "-j", "0", binary], "-j 0"),
                       ([floor, "--map"], "--map and no file")):
        p = run(argv)
        tap.ok(p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1,
               f"floor on {what}: one line, exit 2", p.stderr)


def check_complete(tap):
    twenty = ["s%d" % i for i in range(20)]
    whole = "".join(f"struct {n} {{\n\tint a;\n}};\n" for n in twenty)
    p = run([sys.executable, COMPLETE, ",".join(twenty)], input=whole)
    tap.ok(p.returncode == 0 and p.stdout == "20/20\n", "20 of 20 structs: complete", p.stdout)
    part = "".join(f"struct {n} {{\n}};\n" for n in twenty[:13])
    p = run([sys.executable, COMPLETE, ",".join(twenty)], input=part)
    tap.ok(p.returncode == 1 and p.stdout == "13/20\n",
           "13 of 20 structs (pahole without --skip_missing): incomplete", p.stdout)
    p = run([sys.executable, COMPLETE, "a", ""], input="struct a {\n};\nstruct b {\n};\n")
    tap.ok(p.returncode == 1, "a struct nobody asked for is not a complete answer", p.stdout)
    said = "pahole: type 'no_such_x' not found\n"
    p = run([sys.executable, COMPLETE, "", "no_such_x"], input=said)
    tap.ok(p.returncode == 0 and p.stdout == "1/1\n", "a missing name reported absent: complete",
           p.stdout)
    p = run([sys.executable, COMPLETE, "", "no_such_x"], input="")
    tap.ok(p.returncode == 1, "a missing name nobody reported: incomplete (the tool failed)",
           p.stdout)


def check_row(tap):
    p = run([sys.executable, ROW, "20 structs", "0.2", "40960 ok 20/20", "5.0", "2000000 ok 20/20",
             "0.4", "300000 ok 20/20"])
    tap.ok(p.stdout == "| 20 structs | 200 ms | 40 MB | 5000 ms | 1953 MB | 25x "
                       "| 400 ms | 293 MB | 2.00x |\n", "a complete row has ratios", p.stdout)
    p = run([sys.executable, ROW, "20 structs", "0.2", "40960 ok 20/20", "5.0",
             "2000000 incomplete 13/20", "-", "-"])
    tap.ok("incomplete answer (13/20), no ratio" in p.stdout and "25x" not in p.stdout
           and "not installed" in p.stdout,
           "an incomplete peer gets no ratio; a missing peer says so", p.stdout)


def check_alternate(tap, workdir):
    """bench/alternate.py runs the two commands in turn and reports each one's median."""
    log = os.path.join(workdir, "turns")
    if os.path.exists(log):
        os.remove(log)
    a = f"sh -c 'echo A >> {log}; sleep 0.05'"
    b = f"sh -c 'echo B >> {log}'"
    p = run([sys.executable, ALTERNATE, "3", a, b])
    with open(log) as f:
        turns = f.read().split()
    tap.ok(p.returncode == 0 and turns == ["A", "B"] * 4,
           "a warmup of each, then 3 runs of each in turn", " ".join(turns) + p.stderr)
    medians = [float(x) for x in p.stdout.split()] if p.returncode == 0 else []
    tap.ok(len(medians) == 2 and medians[0] >= 0.05 > medians[1],
           "each command's own median, in the order given", p.stdout)
    p = run([sys.executable, ALTERNATE, "3", "true", "false"])
    tap.ok(p.returncode != 0 and p.stdout == "" and "false" in p.stderr,
           "a command that fails stops it, named", p.stderr)


def check_interleave(tap, workdir):
    """bench/interleave.py rotates who goes first each round, runs a
    LABEL@K command K times only, and reports each command's own median."""
    log = os.path.join(workdir, "rotation")
    if os.path.exists(log):
        os.remove(log)
    cmds = [f"{x}{'@2' if x == 'C' else ''}=sh -c 'echo {x} >> {log}'" for x in "ABC"]
    cmds[0] = f"A=sh -c 'echo A >> {log}; sleep 0.05'"
    p = run([sys.executable, INTERLEAVE, "--runs", "3", "--tsv"] + cmds)
    with open(log) as f:
        turns = f.read().split()
    # Warmups A B C (C twice more: its RSS run comes after), then rounds
    # starting at A, then B, then C; C skipped in round 3; one RSS run each.
    want = ["A", "B", "C", "A", "B", "C", "B", "C", "A", "A", "B", "A", "B", "C"]
    tap.ok(p.returncode == 0 and turns == want,
           "a warmup of each, rounds in rotation, C only in its 2 rounds, one RSS run each",
           " ".join(turns) + p.stderr)
    rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()} if p.returncode == 0 else {}
    tap.ok(set(rows) == {"A", "B", "C", "load"} and float(rows["A"][1]) >= 0.05 >
           float(rows["B"][1]) and rows["C"][4] == "2" and rows["A"][4] == "3" and
           int(rows["A"][3]) > 0,
           "each command's median, its runs and its peak RSS; the load last", p.stdout)
    p = run([sys.executable, INTERLEAVE, "--runs", "2", "a=true", "b=false"])
    tap.ok(p.returncode != 0 and "false" in p.stderr,
           "a command that fails stops it, named", p.stderr)


def check_revision(tap, workdir):
    """bench/revision: -dirty for a changed source, not for the results
    file bench/run has just written."""
    repo = os.path.join(workdir, "revision-repo")
    shutil.rmtree(repo, ignore_errors=True)  # a run before left its commit there
    os.makedirs(os.path.join(repo, "bench"), exist_ok=True)
    with open(REVISION) as f, open(os.path.join(repo, "bench", "revision"), "w") as g:
        g.write(f.read())
    os.chmod(os.path.join(repo, "bench", "revision"), 0o755)
    for name in ("RESULTS.md", "run"):
        with open(os.path.join(repo, "bench", name), "w") as f:
            f.write("before\n")
    env = git_env(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                  GIT_COMMITTER_EMAIL="t@t")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "x"]):
        run(argv, cwd=repo, env=env, check=True)

    def revision():
        return run([os.path.join(repo, "bench", "revision")], env=env).stdout.strip()
    head = run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, env=env).stdout.strip()
    clean = revision()
    with open(os.path.join(repo, "bench", "RESULTS.md"), "w") as f:
        f.write("after\n")
    results = revision()
    with open(os.path.join(repo, "bench", "run"), "w") as f:
        f.write("after\n")
    changed = revision()
    tap.ok(clean == head and results == head and changed == head + "-dirty",
           "bench/revision: -dirty for a changed script, not for a rewritten RESULTS.md",
           f"head {head}: clean {clean!r}, results {results!r}, changed {changed!r}")


def main():
    a = parse_args("layoutlint", "workdir", floor=dict(required=True), doc=__doc__)
    os.makedirs(a.workdir, exist_ok=True)
    tap = Tap()
    check_floor(tap, a.floor, a.layoutlint, a.workdir)
    check_complete(tap)
    check_row(tap)
    check_alternate(tap, a.workdir)
    check_interleave(tap, a.workdir)
    check_revision(tap, a.workdir)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
