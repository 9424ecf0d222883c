#!/usr/bin/env python3
"""--format=patch on a real 6.12 tree, proven by kbuild.

usage: patch_kernel.py --layoutlint PATH --rules-dir DIR --workdir DIR
                       [--fetch-kernel PATH] [--jobs N]

The pristine Debian 6.12 source (scripts/fetch-kernel source 6.12, cached)
is copied into WORKDIR (hard links: kbuild and git apply write new files,
never into the pristine ones, and the files a patch touches are copied
first), configured with x86_64 defconfig and DWARF 5, and
fs/file_table.o and kernel/locking/osq_lock.o are built. Then, for
  struct file with rules/file.rules,
  struct file with tests/kernel/file_split.rules (f_count in a domain of
    its own, as upstream e249056c91a2 keeps it apart from f_lock and f_pos),
  struct optimistic_spin_node with rules/osq_lock.rules,
  struct mm_struct with tests/kernel/mm_struct.rules (a reorder inside the
    anonymous struct it consists of),
layoutlint --format=patch --asserts runs on the built object; the patch
must pass `git apply --check` and apply, kbuild must rebuild the object
from the patched tree, and layoutlint on it must show every offset the
patch's summary promised and 0 findings; the read-mostly members of
struct file must touch one line. Each patch is reverted afterwards.
With Debian's 6.12 vmlinux (scripts/fetch-kernel vmlinux 6.12): the
struct file patch made from it applies to the source, and task_struct
packed with only 'pin last thread' (tests/kernel/task_struct_last.rules)
keeps thread last.

Output is TAP. Skips when the source cannot be fetched.
"""

import functools
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import lib  # noqa: E402
from lib import Tap, git_env, parse_args  # noqa: E402

CASES = [
    # (what, rules, struct, object, source file)
    ("struct file, rules/file.rules", "RULES/file.rules", "file", "fs/file_table.o"),
    ("struct file, f_count in its own domain", os.path.join(HERE, "file_split.rules"), "file",
     "fs/file_table.o"),
    ("optimistic_spin_node, rules/osq_lock.rules", "RULES/osq_lock.rules",
     "optimistic_spin_node", "kernel/locking/osq_lock.o"),
    ("mm_struct, inside its anonymous struct", os.path.join(HERE, "mm_struct.rules"), "mm_struct",
     "fs/file_table.o"),
]


def named_members(members):
    """Path -> offset of every named member, through anonymous aggregates."""
    out = {}
    for m in members:
        if m.get("path"):
            out[m["path"]] = m["offset"]
        else:
            out.update(named_members(m.get("members") or []))
    return out


# lib's run without its time limit: make and the kernel download take what they take.
run = functools.partial(lib.run, timeout=None)


def make(tree, jobs, *targets):
    return run(["nice", "make", f"-j{jobs}", *targets], tree)


def prepare(pristine, tree, jobs, t):
    """The configured tree with both objects built; False on failure."""
    stamp = os.path.join(tree, ".layoutlint-prepared")
    if not os.path.exists(stamp):
        shutil.rmtree(tree, ignore_errors=True)
        r = run(["cp", "-al", pristine, tree])
        if r.returncode != 0:
            # Hard links do not cross file systems: a real copy then.
            shutil.rmtree(tree, ignore_errors=True)
            r = run(["cp", "-a", pristine, tree])
        if not t.ok(r.returncode == 0, "copy the pristine tree", r.stderr):
            return False
        # git apply in a tree of its own, never the repository around WORKDIR.
        run(["git", "init", "-q", tree], env=git_env())
        steps = [["nice", "make", "defconfig"],
                 ["./scripts/config", "--disable", "DEBUG_INFO_NONE", "--enable", "DEBUG_KERNEL",
                  "--enable", "DEBUG_INFO", "--enable", "DEBUG_INFO_DWARF5"],
                 ["nice", "make", "olddefconfig"]]
        for s in steps:
            r = run(s, tree)
            if not t.ok(r.returncode == 0, f"configure: {' '.join(s[-2:])}", r.stderr[-3000:]):
                return False
        with open(stamp, "w") as f:
            f.write("defconfig + DWARF 5\n")
    r = make(tree, jobs, *sorted({c[3] for c in CASES}))
    return t.ok(r.returncode == 0, "kbuild builds " + " ".join(sorted({c[3] for c in CASES})),
                r.stderr[-3000:])


def promised(stdout, name):
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"layoutlint: struct {name} ") and i + 1 < len(lines):
            m = re.match(r"layoutlint:   offsets:(.*)$", lines[i + 1])
            if m:
                return {k: int(v) for k, v in (p.split("@") for p in m.group(1).split())}
    return None


def patched_files(patch):
    return re.findall(r"^\+\+\+ b/(\S+)$", patch, re.M)


def unshare(tree, rel):
    """Give REL a copy of its own, so that no edit reaches the pristine tree."""
    path = os.path.join(tree, rel)
    tmp = path + ".layoutlint-copy"
    shutil.copy2(path, tmp)
    os.replace(tmp, path)


def check_case(t, ll, tree, jobs, what, rules, name, obj):
    cmd = [ll, "--format=patch", "--asserts", "--srcdir", tree, "-r", rules, obj, "struct", name]
    p = run(cmd, tree)
    if not t.ok("diff --git" in p.stdout, f"{what}: a patch", p.stdout + p.stderr):
        return
    offs = promised(p.stdout, name)
    if not t.ok(offs, f"{what}: the summary promises offsets", p.stdout):
        return
    patch = os.path.join(tree, "layoutlint.patch")
    with open(patch, "w") as f:
        f.write(p.stdout)
    env = git_env()
    r = run(["git", "apply", "--check", patch], tree, env=env)
    if not t.ok(r.returncode == 0, f"{what}: git apply --check", r.stderr + p.stdout):
        return
    for rel in patched_files(p.stdout):
        unshare(tree, rel)
    r = run(["git", "apply", patch], tree, env=env)
    if not t.ok(r.returncode == 0, f"{what}: git apply", r.stderr):
        return
    try:
        r = make(tree, jobs, obj)
        if not t.ok(r.returncode == 0, f"{what}: kbuild rebuilds {obj} from the patched tree",
                    r.stderr[-3000:]):
            return
        j = run([ll, "--format=json", "-r", rules, obj, "struct", name], tree)
        d = json.loads(j.stdout)["structs"][0]
        got = named_members(d["members"])
        wrong = {k: (v, got.get(k)) for k, v in offs.items() if got.get(k) != v}
        t.ok(not wrong, f"{what}: the rebuilt {obj} has the {len(offs)} promised offsets",
             f"promised, got: {wrong}")
        t.ok(not d["findings"], f"{what}: 0 findings on the rebuilt object",
             json.dumps(d["findings"])[:2000])
        if name == "file":
            lines = set()
            for m in d["members"]:
                if m.get("tag") == "read-mostly":
                    lines.update(range(m["lines"][0], m["lines"][1] + 1))
            t.ok(len(lines) == 1, f"{what}: the read-mostly members touch one line",
                 f"lines {sorted(lines)}")
        print(f"# {what}: {p.stdout.splitlines()[0]}")
    finally:
        r = run(["git", "apply", "-R", patch], tree, env=env)
        t.ok(r.returncode == 0, f"{what}: the patch reverts cleanly", r.stderr)
        # The next case reads the object: it must be the pristine tree's again.
        r = make(tree, jobs, obj)
        t.ok(r.returncode == 0, f"{what}: kbuild rebuilds {obj} from the reverted tree",
             r.stderr[-3000:])


def main():
    a = parse_args("layoutlint",
                   "rules-dir",
                   "workdir",
                   "jobs",
                   fetch_kernel=dict(default=os.path.join(TOP, "scripts", "fetch-kernel")),
                   doc=__doc__)
    t = Tap()
    ll = os.path.abspath(a.layoutlint)
    f = run([a.fetch_kernel, "source", "6.12"]) if os.access(a.fetch_kernel, os.X_OK) else None
    if f is None or f.returncode != 0 or not os.path.isdir(f.stdout.strip()):
        print("1..0 # SKIP cannot fetch the 6.12 source with scripts/fetch-kernel")
        return 0
    os.makedirs(a.workdir, exist_ok=True)
    tree = os.path.join(os.path.abspath(a.workdir), "linux-6.12")
    if not prepare(f.stdout.strip(), tree, a.jobs, t):
        return t.finish()
    for what, rules, name, obj in CASES:
        rules = rules.replace("RULES", os.path.abspath(a.rules_dir))
        check_case(t, ll, tree, a.jobs, what, rules, name, obj)
    # The reviewer's command: Debian's own vmlinux and the source tree beside it.
    v = run([a.fetch_kernel, "vmlinux", "6.12"])
    vmlinux = v.stdout.split("\n")[0].strip() if v.returncode == 0 else ""
    if os.path.isfile(vmlinux):
        rules = os.path.join(os.path.abspath(a.rules_dir), "file.rules")
        p = run([ll, "--format=patch", "--srcdir", tree, "-r", rules, vmlinux, "struct", "file"],
                tree)
        patch = os.path.join(tree, "vmlinux.patch")
        with open(patch, "w") as f:
            f.write(p.stdout)
        r = run(["git", "apply", "--check", patch], tree, env=git_env())
        t.ok("diff --git" in p.stdout and r.returncode == 0,
             "Debian 6.12 vmlinux, struct file: the patch applies to the 6.12 source",
             p.stdout + p.stderr + r.stderr)
        # Only "pin last" in the rules: packing task_struct must leave thread at the end.
        j = run([ll, "--format=json", "--suggest", "-r", os.path.join(HERE, "task_struct_last.rules"),
                 vmlinux, "struct", "task_struct"])
        sg = json.loads(j.stdout)["structs"][0]["suggestion"] if j.returncode == 0 else None
        t.ok(sg and sg["members"] and sg["members"][-1]["path"] == "thread" and
             sg["cachelines"] <= sg["before"]["cachelines"],
             "Debian 6.12 vmlinux, task_struct with 'pin last thread': packed, thread last",
             j.stderr + json.dumps(sg)[:1500])
    else:
        print("# no 6.12 vmlinux from scripts/fetch-kernel: the vmlinux cases are not run")
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
