#!/usr/bin/env python3
"""valgrind --leak-check=full on one real vmlinux struct with rules and --suggest (TAP)."""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_common import Tap, fetch  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("--rules-dir", required=True)
    a = ap.parse_args()
    if not shutil.which("valgrind"):
        print("1..0 # SKIP valgrind is not installed")
        return 0
    paths = fetch("6.12")
    if not paths:
        print("1..0 # SKIP cannot fetch the 6.12 kernel")
        return 0
    tap = Tap()
    for fmt in ("text", "json"):
        cmd = ["valgrind", "--leak-check=full", "--error-exitcode=3", "--quiet",
               a.layoutlint, f"--format={fmt}", "--suggest", "-r",
               os.path.join(a.rules_dir, "file.rules"), paths[0], "struct", "file"]
        p = subprocess.run(cmd, capture_output=True, text=True,
                           env=dict(os.environ, LAYOUTLINT_THREADS="2"))
        # 1: the findings struct file has; 3: valgrind found an error.
        tap.ok(p.returncode == 1 and "==" not in p.stderr,
               f"valgrind clean: --format={fmt} --suggest -r file.rules vmlinux struct file",
               f"exit {p.returncode}\n{p.stderr[-3000:]}")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
