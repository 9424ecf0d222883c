#!/usr/bin/env python3
"""Same input, same bytes out: across thread counts, the raw scan against
the plain libdw walk, and a cold page cache against a warm one.

A gcc-linked executable of several units (the fixture structs, defined
identically in each unit, so every lookup compares copies across units),
asked for every struct at once in each output format, with rules and
--suggest.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Lint, Tap, compile_c  # noqa: E402
FIXTURE = os.path.join(HERE, "..", "fixtures", "layouts.c")
RULES = """struct big
	read-mostly pad0 last
	write-hot straddle aligned_long tail_arr
struct outer
	read-mostly kind
	write-hot inner
"""


def cold(path):
    """Drop PATH from the page cache (this file only)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
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
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
