#!/usr/bin/env python3
"""What `meson install` (and so scripts/install) puts where, for real.

usage: run_install.py --builddir DIR --workdir DIR

Installs the build into WORKDIR/dest with `meson install --destdir`, then
checks: bin/layoutlint runs; bin/layoutlint-kernel is executable, prints
its help, and finds the layoutlint installed beside it with no layoutlint
on PATH and no LAYOUTLINT; the man pages layoutlint(1) and
layoutlint.rules(5) and the bash completion are in place; the bundled
rules are under share/layoutlint/rules. TAP.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, parse_args, run  # noqa: E402


def main():
    a = parse_args("workdir", builddir=dict(required=True), doc=__doc__)
    t = Tap()
    work = os.path.abspath(a.workdir)
    dest = os.path.join(work, "dest")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    r = run(["meson", "install", "-C", a.builddir, "--destdir", dest, "--no-rebuild",
             "--quiet"], timeout=300)
    if not t.ok(r.rc == 0, "meson install --destdir", r.err[-3000:]):
        return t.finish()
    prefix = run(["meson", "introspect", "--buildoptions", a.builddir], timeout=60)
    import json
    opts = {o["name"]: o["value"] for o in json.loads(prefix.out)}
    root = dest + opts["prefix"]

    def at(*p):
        return os.path.join(root, *p)

    bindir, mandir, datadir = opts["bindir"], opts["mandir"], opts["datadir"]
    ll = at(bindir, "layoutlint")
    r = run([ll, "--version"], timeout=60)
    t.ok(r.rc == 0 and "layoutlint" in r.out, f"{bindir}/layoutlint runs", r.err)
    hook = at(bindir, "layoutlint-kernel")
    t.ok(os.access(hook, os.X_OK), f"{bindir}/layoutlint-kernel is installed, executable")
    r = run([hook, "--help"], timeout=60)
    t.ok(r.rc == 0 and "Usage: layoutlint-kernel" in r.out, "layoutlint-kernel --help", r.err)
    # A git work tree with a Makefile and no rules: the first complaint after
    # the layoutlint lookup is about the rules, so layoutlint was found.
    tree = os.path.join(work, "tree")
    os.makedirs(tree)
    open(os.path.join(tree, "Makefile"), "w").close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "LAYOUTLINT"}
    env["PATH"] = "/usr/bin:/bin"
    run(["git", "init", "-q"], cwd=tree, env=env, check=True)
    r = run([hook], cwd=tree, env=env, timeout=60)
    t.ok(r.rc == 2 and "no rules" in r.err and "layoutlint not found" not in r.err,
         "layoutlint-kernel finds the layoutlint installed beside it (PATH without it, no "
         "LAYOUTLINT)", f"exit {r.rc}\n{r.err}")
    for path in (at(mandir, "man1", "layoutlint.1"), at(mandir, "man5", "layoutlint.rules.5"),
                 at(datadir, "bash-completion", "completions", "layoutlint"),
                 at(datadir, "layoutlint", "rules", "file.rules")):
        t.ok(os.path.isfile(path), f"installed: {os.path.relpath(path, root)}")
    r = run(["man", "-l", at(mandir, "man1", "layoutlint.1")], timeout=60,
            env=dict(os.environ, MANWIDTH="80")) if shutil.which("man") else None
    if r is None:
        t.skip("man -l renders the installed page", "no man")
    else:
        t.ok(r.rc == 0 and "layout-change" in r.out, "man -l renders the installed page", r.err)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
