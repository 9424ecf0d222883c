#!/usr/bin/env python3
"""--format=patch end to end, proven by the compiler.

usage: run_patch.py --layoutlint PATH --workdir DIR

Each directory of tests/patch/cases/ is a small source tree (a header, a
.c that defines one instance, a rules file) and a case.json:
  struct, rules     what to lint;
  build             compiler flags of "the binary's configuration";
  configs           every configuration the patched header must compile in;
  asserts           pass --asserts;
  expect            "patch", or "refuse" with the exact stderr line "message";
  patch_has         lines the patch must add;
  last              the members the proposal must end with, in order;
  spelling          declarations the listing and the suggestion must show
                    (gcc's DWARF says "long unsigned int", C "unsigned long").
For gcc and clang, a copy of the tree becomes a git repository, the
object is built with -g, and layoutlint --format=patch runs on it. A
patch must pass `git apply --check` and apply; the patched header must
compile (-Wall -Werror) under each configuration; the rebuilt object must
show, in layoutlint's JSON, exactly the offsets the patch's summary
promised, and no finding. A refusal must be one line on stderr, that
line, and print no diff.

Output is TAP. Exit status 1 if anything failed.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from lib import Tap, git_env, parse_args, run  # noqa: E402

CASES = os.path.join(HERE, "cases")
COMPILERS = ["gcc", "clang"]


def fixture_git_env():
    return git_env(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1", HOME="/nonexistent")


def source_of(tree):
    return [f for f in sorted(os.listdir(tree)) if f.endswith(".c")][0]


def build(cc, tree, flags, obj):
    src = source_of(tree)
    return run([cc, "-g", "-c", "-Wall", "-Werror"] + flags + [src, "-o", obj], tree)


def promised_offsets(stdout, name):
    """The 'offsets:' line of the summary for struct NAME."""
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"layoutlint: struct {name} ") and i + 1 < len(lines):
            m = re.match(r"layoutlint:   offsets:(.*)$", lines[i + 1])
            if m:
                return {k: int(v) for k, v in
                        (p.split("@") for p in m.group(1).split())}
    return None


def layout(ll, tree, obj, case):
    r = run([ll, "--format=json", "-r", case["rules"], obj, "struct", case["struct"]], tree)
    d = json.loads(r.stdout)["structs"][0]
    level = d["members"]
    # The anonymous struct a struct consists of (mm_struct) is the level that moves.
    anon = [m for m in level if not m.get("path") and (m.get("type") or "").startswith("struct")]
    if len(anon) == 1 and all(m is anon[0] or m["size"] == 0 for m in level):
        level = anon[0]["members"] + [m for m in level if m is not anon[0]]
    top = [m for m in level if m.get("path") and m.get("bit_size") is None]
    return {m["path"]: m["offset"] for m in top}, len(d["findings"]), [m["path"] for m in top]


def one(t, ll, work, name, case, cc):
    tree = os.path.join(work, f"{name}-{cc}")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(os.path.join(CASES, name), tree)
    env = fixture_git_env()
    run(["git", "init", "-q"], tree, env=env)
    run(["git", "add", "."], tree, env=env)
    run(["git", "commit", "-qm", "fixture"], tree, env=env)
    what = f"{name} ({cc})"
    r = build(cc, tree, case["build"], "before.o")
    if not t.ok(r.returncode == 0, f"{what}: the fixture builds", r.stderr):
        return
    if case.get("spelling"):
        r = run([ll, "-q", "--suggest", "-r", case["rules"], "before.o", "struct", case["struct"]],
                tree)
        listing = run([ll, "before.o", "struct", case["struct"]], tree).stdout + r.stdout
        t.ok(all(w in listing for w in case["spelling"]) and "long unsigned int" not in listing,
             f"{what}: layouts and suggestions spell types as C does", listing)
    cmd = [ll, "--format=patch", "--srcdir", tree, "-r", case["rules"], "before.o",
           "struct", case["struct"]]
    if case.get("asserts"):
        cmd.insert(1, "--asserts")
    p = run(cmd, tree)
    if case["expect"] == "refuse":
        err = [line for line in p.stderr.splitlines() if "no patch" in line]
        t.ok("diff --git" not in p.stdout, f"{what}: no hunk", p.stdout)
        t.ok(len(err) == 1 and err[0] == case["message"],
             f"{what}: one clear line saying why", p.stderr)
        return
    if not t.ok("diff --git" in p.stdout and p.returncode in (0, 1),
                f"{what}: a patch", p.stdout + p.stderr):
        return
    promised = promised_offsets(p.stdout, case["struct"])
    if not t.ok(promised, f"{what}: the summary promises offsets", p.stdout):
        return
    for line in case.get("patch_has", []):
        t.ok(f"\n+{line}" in p.stdout or any(
            added.startswith("+") and line in added for added in p.stdout.splitlines()),
             f"{what}: the patch adds '{line}'", p.stdout)
    with open(os.path.join(tree, "proposal.patch"), "w") as f:
        f.write(p.stdout)
    r = run(["git", "apply", "--check", "proposal.patch"], tree, env=env)
    t.ok(r.returncode == 0, f"{what}: git apply --check", r.stderr + p.stdout)
    r = run(["git", "apply", "proposal.patch"], tree, env=env)
    if not t.ok(r.returncode == 0, f"{what}: git apply", r.stderr):
        return
    for flags in case["configs"]:
        r = build(cc, tree, flags, "cfg.o")
        t.ok(r.returncode == 0, f"{what}: the patched header compiles with {flags or 'no flags'}",
             r.stderr)
    r = build(cc, tree, case["build"], "after.o")
    if not t.ok(r.returncode == 0, f"{what}: the rebuilt object", r.stderr):
        return
    offs, findings, order = layout(ll, tree, "after.o", case)
    wrong = {k: (v, offs.get(k)) for k, v in promised.items() if offs.get(k) != v}
    unpromised = [o for o in order if o not in promised]
    t.ok(not wrong and not unpromised, f"{what}: the rebuilt layout has the promised offsets",
         f"promised, got: {wrong}; not promised: {unpromised}")
    t.ok(findings == 0, f"{what}: layoutlint finds 0 findings on the rebuilt object",
         f"{findings} findings")
    if "last" in case:
        t.ok(order[-len(case["last"]):] == case["last"],
             f"{what}: ends with {case['last']}", str(order))


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    t = Tap()
    ll = os.path.abspath(a.layoutlint)
    os.makedirs(a.workdir, exist_ok=True)
    for name in sorted(os.listdir(CASES)):
        with open(os.path.join(CASES, name, "case.json")) as f:
            case = json.load(f)
        for cc in COMPILERS:
            if shutil.which(cc) is None:
                t.ok(False, f"{name}: {cc} is installed (scripts/deps installs it)")
                continue
            one(t, ll, os.path.abspath(a.workdir), name, case, cc)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
