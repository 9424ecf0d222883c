#!/usr/bin/env python3
"""--help, --version, --usage and the man pages (TAP)."""
import os
import shutil
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "tests"))
from lib import Lint, Tap, parse_args, run  # noqa: E402


def main():
    a = parse_args("layoutlint", doc=__doc__)
    tap = Tap(diag_lines=40, diag_width=None)
    ok = tap.ok
    lint = Lint(a.layoutlint)

    h = lint.run("--help")
    groups = [g for g in ("Input:", "Rules:", "Gating", "Output:") if "\n " + g in h.stdout]
    ok(h.returncode == 0 and len(groups) == 4, "--help is grouped by topic", h.stdout)
    ok(h.stdout.count("  layoutlint ") >= 3, "--help ends with examples", h.stdout[-800:])
    v = lint.run("--version")
    ok(v.returncode == 0 and "libdw" in v.stdout, "--version names the libdw version", v.stdout)
    u = lint.run("--usage")
    ok(u.returncode == 0 and "BINARY" in u.stdout, "--usage", u.stdout)
    bad = lint.run("--no-such-option")
    ok(bad.returncode == 2, "a usage error exits 2, not argp's 64", bad.stderr)
    if not shutil.which("man"):
        tap.comment("man is not installed: page rendering not checked")
    else:
        for page in ("layoutlint.1", "layoutlint.rules.5"):
            p = run(["man", "--warnings", "-l", os.path.join(TOP, "man", page)],
                    extra_env={"MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"})
            ok(p.returncode == 0 and p.stderr == "" and "layoutlint" in p.stdout,
               f"man -l {page} renders without warnings", p.stderr)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
