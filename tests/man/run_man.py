#!/usr/bin/env python3
"""--help, --version, --usage and the man pages (TAP)."""
import argparse
import os
import shutil
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutlint", required=True)
    a = ap.parse_args()
    n = failed = 0

    def ok(cond, desc, diag=""):
        nonlocal n, failed
        n += 1
        failed += not cond
        print(f"{'ok' if cond else 'not ok'} {n} - {desc}")
        if not cond:
            for line in str(diag).splitlines()[:40]:
                print(f"# {line}")

    h = subprocess.run([a.layoutlint, "--help"], capture_output=True, text=True)
    groups = [g for g in ("Input:", "Rules:", "Gating", "Output:") if "\n " + g in h.stdout]
    ok(h.returncode == 0 and len(groups) == 4, "--help is grouped by topic", h.stdout)
    ok(h.stdout.count("  layoutlint ") >= 3, "--help ends with examples", h.stdout[-800:])
    v = subprocess.run([a.layoutlint, "--version"], capture_output=True, text=True)
    ok(v.returncode == 0 and "libdw" in v.stdout, "--version names the libdw version", v.stdout)
    u = subprocess.run([a.layoutlint, "--usage"], capture_output=True, text=True)
    ok(u.returncode == 0 and "BINARY" in u.stdout, "--usage", u.stdout)
    bad = subprocess.run([a.layoutlint, "--no-such-option"], capture_output=True, text=True)
    ok(bad.returncode == 2, "a usage error exits 2, not argp's 64", bad.stderr)
    if not shutil.which("man"):
        print("# man is not installed: page rendering not checked")
    else:
        for page in ("layoutlint.1", "layoutlint.rules.5"):
            p = subprocess.run(["man", "--warnings", "-l", os.path.join(TOP, "man", page)],
                               capture_output=True, text=True,
                               env=dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat"))
            ok(p.returncode == 0 and p.stderr == "" and "layoutlint" in p.stdout,
               f"man -l {page} renders without warnings", p.stderr)
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
