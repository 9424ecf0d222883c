#!/usr/bin/env python3
"""scripts/layoutlint-kernel on a tiny kbuild-like tree of its own (issue 5).

usage: run_kernel_script.py --layoutlint PATH [--workdir DIR]

tests/gating/ktree is a Makefile, two headers (include/linux/types.h and
conn.h, which defines struct conn), fs/conn.c and the tree's rules
(.layoutlint). The test makes a git repository of it, with a .config that
only the working tree has, and checks that the script:
  - with a clean working tree: builds the reference in a kept worktree with
    the tree's .config, and reports nothing new (exit 0) although struct
    conn has an old finding;
  - after an edit that moves write-hot count next to read-mostly ops:
    exactly that one new finding and the move (exit 1), without rebuilding
    the reference;
  - compares two revisions (--base HEAD~1 --new HEAD) once it is committed;
  - rebuilds an object that is older than a header its .cmd file lists,
    although make itself thinks it up to date;
  - passes layoutlint options through (SARIF), and fails with exit 2 on a
    build error, a missing rules file or a bad object name.
TAP. Exit status 1 if anything failed.
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, run  # noqa: E402
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(TOP, "scripts", "layoutlint-kernel")
TEMPLATE = os.path.join(HERE, "ktree")
GIT = ["git", "-c", "user.name=layoutlint test", "-c", "user.email=test@layoutlint.invalid",
       "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, f"{old!r} not in {path}"
    with open(path, "w") as f:
        f.write(text.replace(old, new))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("--workdir")
    a = ap.parse_args()
    missing = [t for t in ("git", "make", "cc", "awk") if not shutil.which(t)]
    if missing:
        return Tap().skip_all(f"no {' '.join(missing)}")
    tool = os.path.abspath(a.layoutlint)
    tmp = None
    if a.workdir:
        work = os.path.abspath(a.workdir)
        os.makedirs(work, exist_ok=True)
    else:
        work = tmp = tempfile.mkdtemp(prefix="layoutlint-ktree-")
    tree = os.path.join(work, "ktree")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(TEMPLATE, tree)
    with open(os.path.join(tree, ".gitignore"), "w") as f:
        f.write("*.o\n.*.cmd\n.config\n")
    with open(os.path.join(tree, ".config"), "w") as f:
        f.write("# only in the working tree, as a kernel's .config is\nCONFIG_CONN_DEBUG=y\n")
    tap = Tap()
    try:
        run(GIT + ["init", "-q"], cwd=tree, timeout=300, check=True)
        run(GIT + ["add", "-A"], cwd=tree, timeout=300, check=True)
        run(GIT + ["commit", "-q", "-m", "struct conn"], cwd=tree, timeout=300, check=True)
        run_tests(tap, tool, tree)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


def run_tests(tap, tool, tree):
    def script(*args):
        return run([SCRIPT, "--layoutlint", tool, *args], cwd=tree, timeout=300)

    common = run(["git", "rev-parse", "--git-common-dir"], cwd=tree, check=True).stdout.strip()
    base = os.path.join(tree, common, "layoutlint-kernel", "base")
    base_obj = os.path.join(base, "fs", "conn.o")
    header = os.path.join(tree, "include", "linux", "conn.h")

    rc, out, err = script("fs/conn.o")
    lines = out.splitlines()
    tap.ok(rc == 0 and not [ln for ln in lines if ": error:" in ln],
           "clean working tree against HEAD: nothing new, exit 0", f"exit {rc}\n{out}\n{err}")
    tap.ok(os.path.isfile(base_obj) and os.path.isfile(os.path.join(base, ".config")),
           "the reference is built in a worktree under .git/layoutlint-kernel, with .config",
           err)
    tap.ok("\tno member added, removed or moved to another cacheline" in lines,
           "same .config on both sides: no member added (debug_flags exists in both)", out)
    tap.ok(re.search(r"1 finding \(2 pairs\) already in OLD-BINARY suppressed", err),
           "the old finding (cfg with lock and refs) is suppressed", err)

    base_mtime = os.stat(base_obj).st_mtime_ns
    edit(header, "\tconn_stat_t stat;\n",
         "\tconn_stat_t stat;\n\tlong count;\t\t/* moved here, next to ops */\n")
    edit(header, "\t_Alignas(64) long count;\n\tlong bytes;\n", "\t_Alignas(64) long bytes;\n")
    rc, out, err = script("fs/conn.o")
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    tap.ok(rc == 1 and len(errors) == 1 and
           errors[0].startswith("include/linux/conn.h:") and
           "cacheline 0 of struct conn mixes read-mostly ops, flags, priv with write-hot count"
           in errors[0],
           "count moved next to ops in the working tree: exactly that new finding, exit 1",
           f"exit {rc}\n{out}\n{err}")
    tap.ok("\tmoved:   count: line 2 -> line 0" in out.splitlines(),
           "the layout diff shows count: line 2 -> line 0", out)
    tap.ok(os.stat(base_obj).st_mtime_ns == base_mtime,
           "the reference object is reused, not rebuilt", err)

    run(GIT + ["commit", "-q", "-am", "conn: move count next to ops"], cwd=tree, timeout=300,
        check=True)
    rc, out, err = script("--base", "HEAD~1", "--new", "HEAD", "fs/conn.o")
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    tap.ok(rc == 1 and len(errors) == 1 and "write-hot count" in errors[0] and
           os.path.isfile(os.path.join(tree, common, "layoutlint-kernel", "new", "fs", "conn.o")),
           "--base HEAD~1 --new HEAD: the commit's one new finding", f"exit {rc}\n{out}\n{err}")
    rc, out, err = script("fs/conn.o")
    tap.ok(rc == 0 and ": error:" not in out,
           "after the commit, against HEAD: nothing new", f"exit {rc}\n{out}\n{err}")

    # A header change make does not see: the script must.
    obj = os.path.join(tree, "fs", "conn.o")
    types = os.path.join(tree, "include", "linux", "types.h")
    edit(types, "typedef struct { long v[1]; } conn_stat_t;",
         "typedef struct { long v[5]; } conn_stat_t;")
    t = os.stat(obj).st_mtime + 2
    os.utime(types, (t, t))
    make_q = run(["make", "-q", "fs/conn.o"], cwd=tree, timeout=300).returncode
    rc, out, err = script("fs/conn.o")
    tap.ok(make_q == 0, "make alone thinks fs/conn.o is up to date after the header edit",
           f"make -q: {make_q}")
    tap.ok("fs/conn.o is older than include/linux/types.h: rebuilding" in err and
           "\tmoved:   count: line 0 -> line 1" in out.splitlines() and rc == 0,
           "an object older than a header its .cmd lists is rebuilt before linting",
           f"exit {rc}\n{out}\n{err}")
    run(GIT + ["checkout", "-q", "--", "include/linux/types.h"], cwd=tree, timeout=300, check=True)

    rc, out, err = script("fs/conn.o", "--", "--format=sarif")
    try:
        doc = json.loads(out)
        ok = rc == 0 and doc["version"] == "2.1.0" and doc["runs"][0]["results"] == []
    except (ValueError, KeyError):
        ok = False
    tap.ok(ok, "layoutlint options after -- pass through (--format=sarif)",
           f"exit {rc}\n{out[:500]}\n{err}")

    edit(header, "struct conn {", "struct conn { syntax error")
    rc, out, err = script("fs/conn.o")
    tap.ok(rc == 2 and "make fs/conn.o failed" in err, "a build error: exit 2 with make's log",
           f"exit {rc}\n{err}")
    run(GIT + ["checkout", "-q", "--", "include/linux/conn.h"], cwd=tree, timeout=300, check=True)
    rc, out, err = script("fs/conn.c")
    tap.ok(rc == 2 and "expected an object path" in err, "a bad object name: exit 2", err)
    rc, out, err = script("-r", "no-such.rules", "fs/conn.o")
    tap.ok(rc == 2 and "no-such.rules" in err, "missing rules: exit 2 (layoutlint's)", err)
    rc, out, err = script("--base", "no-such-rev", "fs/conn.o")
    tap.ok(rc == 2 and "unknown revision 'no-such-rev'" in err, "an unknown revision: exit 2",
           err)


if __name__ == "__main__":
    sys.exit(main())
