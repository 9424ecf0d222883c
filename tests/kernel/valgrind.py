#!/usr/bin/env python3
"""valgrind --leak-check=full on one real vmlinux struct with rules and --suggest (TAP)."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Tap, parse_args, run  # noqa: E402


def main():
    a = parse_args("layoutlint", "rules-dir", doc=__doc__)
    if not shutil.which("valgrind"):
        return Tap().skip_all("valgrind is not installed")
    paths = fetch("6.12")
    if not paths:
        return Tap().skip_all("cannot fetch the 6.12 kernel")
    tap = Tap(diag_lines=None, diag_width=None)
    for fmt in ("text", "json"):
        cmd = ["valgrind", "--leak-check=full", "--error-exitcode=3", "--quiet",
               a.layoutlint, f"--format={fmt}", "--suggest", "-r",
               os.path.join(a.rules_dir, "file.rules"), paths[0], "struct", "file"]
        p = run(cmd, extra_env={"LAYOUTLINT_THREADS": "2"}, timeout=1800)
        # 1: the findings struct file has; 3: valgrind found an error.
        tap.ok(p.returncode == 1 and "==" not in p.stderr,
               f"valgrind clean: --format={fmt} --suggest -r file.rules vmlinux struct file",
               f"exit {p.returncode}\n{p.stderr[-3000:]}")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
