#!/usr/bin/env python3
"""The smallest fix and config-proof asserts on a real 6.12 tree (issue 39).

usage: review_fix_kernel.py --layoutlint PATH --rules-dir DIR --workdir DIR
                            [--jobs N] [--prepare-only]

The pristine Debian 6.12 source (scripts/fetch-kernel source 6.12, cached)
is copied into WORKDIR (hard links; every file this test edits is
replaced, never written through a link) and built out of tree (make O=)
in three configurations:
  def     x86_64 defconfig + DWARF 5,
  lockdbg defconfig + DEBUG_SPINLOCK + DEBUG_MUTEXES + DEBUG_LOCK_ALLOC
          (the lock types grow: spinlock_t 4 -> 24 bytes and more),
  nosec   defconfig with CONFIG_SECURITY and CONFIG_EPOLL off (f_security
          and f_ep leave struct file).
Then:
  - the f_pos move (f_pos next to f_op, swapped with private_data, the
    change the hook refuses) is built in `def`; layoutlint --against the
    pristine object --format=patch proposes moving exactly one member,
    f_pos; `git apply` takes the patch, kbuild rebuilds fs/file_table.o
    and layoutlint reads back every offset of the pristine object;
  - the old whole re-layout is still what --relayout proposes (more
    members moved: the numbers are printed as TAP comments);
  - layoutlint --format=patch --asserts (rules/file.rules, the re-layout,
    and --against the f_pos move, the smallest fix) patches apply and
    build fs/file_table.o in all three configurations; the asserts left
    out are printed with their reasons.
Output is TAP. Skips when the source cannot be fetched.
"""
import json
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, parse_args, run  # noqa: E402
from kernel_common import fetch_source  # noqa: E402

FS_H = "include/linux/fs.h"
OBJ = "fs/file_table.o"
STAMP = ".layoutlint-review-prepared"

DWARF5 = ["--disable", "DEBUG_INFO_NONE", "--enable", "DEBUG_KERNEL", "--enable", "DEBUG_INFO",
          "--enable", "DEBUG_INFO_DWARF5"]
# name -> (scripts/config arguments, CONFIG_ lines .config must hold after olddefconfig)
CONFIGS = {
    "def": (DWARF5, ["CONFIG_DEBUG_INFO_DWARF5=y"]),
    "lockdbg": (["--enable", "DEBUG_KERNEL", "--enable", "DEBUG_SPINLOCK", "--enable",
                 "DEBUG_MUTEXES", "--enable", "DEBUG_LOCK_ALLOC"],
                ["CONFIG_DEBUG_SPINLOCK=y", "CONFIG_DEBUG_MUTEXES=y", "CONFIG_DEBUG_LOCK_ALLOC=y"]),
    # EPOLL can only be turned off under EXPERT.
    "nosec": (["--enable", "EXPERT", "--disable", "SECURITY", "--disable", "EPOLL"],
              ["# CONFIG_SECURITY is not set", "# CONFIG_EPOLL is not set"]),
}


def clean_env():
    """No GIT_ variable of whatever runs this test."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


ENV = clean_env()


def replace_file(path, text):
    """Write PATH as a new file: the tree is hard-linked to the pristine one."""
    tmp = path + ".layoutlint-tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def unshare(path):
    with open(path) as f:
        replace_file(path, f.read())


def make(tree, cfg, jobs, *targets, timeout=1800):
    return run(["nice", "make", f"O={cfg_dir(tree, cfg)}", f"-j{jobs}", *targets], cwd=tree,
               timeout=timeout, env=ENV)


def cfg_dir(tree, cfg):
    return os.path.join(os.path.dirname(tree), "out-" + cfg)


def prepare(pristine, tree, jobs, t):
    """The source copy and the three configured output dirs, OBJ built in each."""
    if not os.path.exists(os.path.join(tree, STAMP)):
        shutil.rmtree(tree, ignore_errors=True)
        r = run(["cp", "-al", pristine, tree], timeout=1800)
        if r.rc != 0:
            shutil.rmtree(tree, ignore_errors=True)
            r = run(["cp", "-a", pristine, tree], timeout=1800)
        if not t.ok(r.rc == 0, "copy the pristine 6.12 tree", r.err):
            return False
        # git apply in a repository of its own, never the one around WORKDIR.
        run(["git", "init", "-q", tree], env=ENV)
        with open(os.path.join(tree, STAMP), "w") as f:
            f.write("copied\n")
    for cfg, (args, want) in CONFIGS.items():
        out = cfg_dir(tree, cfg)
        stamp = os.path.join(out, STAMP)
        if not os.path.exists(stamp):
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            steps = [["nice", "make", f"O={out}", "defconfig"],
                     ["./scripts/config", "--file", os.path.join(out, ".config"), *args],
                     ["nice", "make", f"O={out}", "olddefconfig"]]
            for s in steps:
                r = run(s, cwd=tree, timeout=900, env=ENV)
                if not t.ok(r.rc == 0, f"{cfg}: {' '.join(s[1:4])}", r.err[-3000:]):
                    return False
            with open(os.path.join(out, ".config")) as f:
                lines = set(f.read().splitlines())
            missing = [w for w in want if w not in lines]
            if not t.ok(not missing, f"{cfg}: .config holds {', '.join(want)}",
                        f"missing: {missing}"):
                return False
            with open(stamp, "w") as f:
                f.write(cfg + "\n")
        t0 = time.monotonic()
        r = make(tree, cfg, jobs, OBJ)
        if not t.ok(r.rc == 0, f"{cfg}: kbuild builds {OBJ} ({time.monotonic() - t0:.0f} s)",
                    r.err[-3000:]):
            return False
    return True


def ll_run(ll, *args, cwd):
    return run([ll, *args], cwd=cwd, timeout=600)


def offsets(ll, rules, obj, cwd):
    """Path -> offset of every named member of struct file in OBJ, and its findings."""
    from patch_kernel import named_members
    j = ll_run(ll, "--format=json", "-r", rules, obj, "struct", "file", cwd=cwd)
    d = json.loads(j.out)["structs"][0]
    return named_members(d["members"]), d["findings"]


def move_f_pos(text):
    """f_pos's declaration moved up right after f_op's: the change under review."""
    pos = re.search(r"^\tloff_t\t+f_pos;\n", text, re.M)
    assert pos, "struct file has changed: f_pos not found"
    text = text[:pos.start()] + text[pos.end():]
    op = re.search(r"^\tconst struct file_operations\t+\*f_op;\n", text, re.M)
    assert op, "struct file has changed: f_op not found"
    return text[:op.end()] + pos.group(0) + text[op.end():]


def moved_lines(patch):
    """The member declarations a patch removes and adds (no asserts, no context)."""
    minus = [l[1:].strip() for l in patch.splitlines()
             if l.startswith("-") and not l.startswith("---") and l[1:].strip()]
    plus = [l[1:].strip() for l in patch.splitlines()
            if l.startswith("+") and not l.startswith("+++") and l[1:].strip()
            and "static_assert" not in l and not l[1:].startswith("#")]
    return minus, plus


class Tree:
    def __init__(self, t, ll, rules, work, tree, jobs):
        self.t, self.ll, self.rules, self.work, self.tree, self.jobs = t, ll, rules, work, tree, jobs
        self.fs_h = os.path.join(tree, FS_H)
        with open(os.path.join(self.pristine_root, FS_H)) as f:
            self.pristine_fs_h = f.read()

    def set_fs_h(self, text):
        replace_file(self.fs_h, text)

    def build(self, cfg, what):
        t0 = time.monotonic()
        r = make(self.tree, cfg, self.jobs, OBJ)
        took = time.monotonic() - t0
        return self.t.ok(r.rc == 0, f"{what}: kbuild ({cfg}) builds {OBJ} ({took:.0f} s)",
                         "\n".join(l for l in r.err.splitlines() if "error" in l)[:3000]
                         or r.err[-3000:])

    def apply(self, patch_text, name, what):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(patch_text)
        unshare(self.fs_h)
        r = run(["git", "apply", path], cwd=self.tree, env=ENV)
        return self.t.ok(r.rc == 0, f"{what}: git apply takes it", r.err + patch_text[:3000])


def asserts_in(patch):
    return [l[1:] for l in patch.splitlines() if l.startswith("+static_assert")]


def left_out(patch):
    return [l for l in patch.splitlines() if l.startswith("layoutlint:   no static_assert")]


def check_asserts(T, patch, what, base_text):
    """PATCH (with --asserts) on BASE_TEXT builds in every configuration."""
    t = T.t
    n = len(asserts_in(patch))
    t.ok(n > 0, f"{what}: the patch holds static_asserts ({n})", patch[:3000])
    for line in left_out(patch):
        t.comment(f"{what}: {line[len('layoutlint:   '):]}")
    for cfg in CONFIGS:
        T.set_fs_h(base_text)
        if not T.apply(patch, f"asserts-{cfg}.patch", f"{what}, {cfg}"):
            continue
        T.build(cfg, f"{what}: the patched tree with its asserts")
    T.set_fs_h(base_text)


def main():
    a = parse_args("layoutlint",
                   "rules-dir",
                   "workdir",
                   "jobs",
                   prepare_only=dict(action="store_true"),
                   doc=__doc__)
    t = Tap()
    ll = os.path.abspath(a.layoutlint)
    pristine = fetch_source("6.12")
    if not pristine or not os.path.isdir(pristine):
        t.skip_all("cannot fetch the 6.12 source with scripts/fetch-kernel")
        return 0
    work = os.path.abspath(a.workdir)
    os.makedirs(work, exist_ok=True)
    tree = os.path.join(work, "linux-6.12")
    Tree.pristine_root = pristine
    if not prepare(pristine, tree, a.jobs, t) or a.prepare_only:
        return t.finish()
    rules = os.path.join(os.path.abspath(a.rules_dir), "file.rules")
    T = Tree(t, ll, rules, work, tree, a.jobs)
    obj = os.path.join(cfg_dir(tree, "def"), OBJ)
    base = os.path.join(work, "base-file_table.o")
    rel = os.path.relpath(obj, work)

    # The reference: the pristine header, built.
    T.set_fs_h(T.pristine_fs_h)
    if not T.build("def", "reference"):
        return t.finish()
    shutil.copy(obj, base)
    ref_offs, ref_findings = offsets(ll, rules, base, work)

    # The change under review: f_pos up next to f_op.
    moved_text = move_f_pos(T.pristine_fs_h)
    T.set_fs_h(moved_text)
    if not T.build("def", "the f_pos move"):
        return t.finish()
    cur_offs, _ = offsets(ll, rules, obj, work)
    t.ok(cur_offs != ref_offs, "the f_pos move changes struct file's offsets",
         f"{cur_offs}")
    common = ["--against", base, "-r", rules, "--srcdir", tree, rel, "struct", "file"]
    fix = ll_run(ll, "--format=json", "--suggest", *common, cwd=work)
    whole = ll_run(ll, "--format=json", "--suggest", "--relayout", *common, cwd=work)
    try:
        sg = json.loads(fix.out)["structs"][0]["suggestion"]
        sg_whole = json.loads(whole.out)["structs"][0]["suggestion"]
    except (ValueError, KeyError, IndexError):
        t.ok(False, "--suggest --against: JSON with a suggestion", fix.err + whole.err)
        return t.finish()
    moved = [m["path"] for m in sg["members"] if m["moved"]]
    t.ok(moved == ["f_pos"], "--suggest --against: the smallest fix moves exactly f_pos",
         f"moved: {moved}")
    t.ok(sg_whole["moved"] > sg["moved"],
         "--relayout: the whole re-layout moves more than the smallest fix",
         f"{sg_whole['moved']} vs {sg['moved']}")
    t.comment(f"f_pos move: the smallest fix moves {sg['moved']} unit ({', '.join(moved)}); "
              f"--relayout moves {sg_whole['moved']}")
    sf = sg.get("smallest_fix") or {}
    want_left = len([f for f in ref_findings
                     if f["rule"] in ("mixed-cacheline", "write-domains", "split-hot")])
    t.ok(sf.get("found") and sf.get("new_before", 0) > 0 and sf.get("new_after") == 0 and
         len(sf.get("leaves", [])) == want_left,
         f"--suggest --against: removes every new finding and leaves the reference's "
         f"{want_left}", json.dumps(sf))

    p = ll_run(ll, "--format=patch", *common, cwd=work)
    minus, plus = moved_lines(p.out)
    t.ok(len(minus) == 1 and len(plus) == 1 and "f_pos;" in minus[0] and "f_pos;" in plus[0],
         "--format=patch --against: the patch moves one declaration, f_pos's",
         p.out[:4000] + p.err)
    t.ok("smallest fix: 1 member moved (f_pos)" in p.out and
         p.out.count("leaves (already in the reference)") == want_left,
         "--format=patch --against: the summary names the move and what it leaves", p.out[:3000])
    if T.apply(p.out, "smallest-fix.patch", "the smallest fix"):
        if T.build("def", "the smallest fix"):
            got, findings = offsets(ll, rules, obj, work)
            wrong = {k: (v, got.get(k)) for k, v in ref_offs.items() if got.get(k) != v}
            t.ok(not wrong and set(got) == set(ref_offs),
                 f"the rebuilt {OBJ} has the reference's {len(ref_offs)} offsets",
                 f"reference, rebuilt: {wrong}")

    # --asserts: the smallest fix's, and the whole re-layout of the pristine header (the
    # patch of issue 39, whose f_pos assert broke DEBUG_SPINLOCK builds).
    T.set_fs_h(moved_text)
    if not T.build("def", "the f_pos move again"):
        return t.finish()
    p = ll_run(ll, "--format=patch", "--asserts", *common, cwd=work)
    check_asserts(T, p.out, "smallest fix --asserts", moved_text)
    T.set_fs_h(T.pristine_fs_h)
    if not T.build("def", "the pristine tree again"):
        return t.finish()
    p = ll_run(ll, "--format=patch", "--asserts", "-r", rules, "--srcdir", tree, rel, "struct",
               "file", cwd=work)
    check_asserts(T, p.out, "re-layout --asserts", T.pristine_fs_h)
    skipped = left_out(p.out)
    t.ok(skipped, "re-layout --asserts: some asserts are left out, each with its reason",
         p.out[:3000])
    # The control: the asserts left out, put back, break the lock-debugging build.
    m = re.search(r"^layoutlint:   offsets:(.*)$", p.out, re.M)
    promised = {k: int(v) for k, v in (x.split("@") for x in m.group(1).split())} if m else {}
    extra = []
    for line in skipped:
        name = re.match(r"layoutlint:   no static_assert for (\S+):", line).group(1)
        if name in promised:
            extra.append(f"static_assert(offsetof(struct file, {name}) / 64 == "
                         f"{promised[name] // 64});")
    if extra and T.apply(p.out, "control.patch", "control"):
        with open(T.fs_h) as f:
            text = f.read()
        at = text.index("#endif", text.index("#ifndef CONFIG_RANDSTRUCT"))
        T.set_fs_h(text[:at] + "\n".join(extra) + "\n" + text[at:])
        r = make(tree, "lockdbg", a.jobs, OBJ)
        t.ok(r.rc != 0 and "static assertion failed" in r.err,
             f"control: the {len(extra)} asserts left out fail to build with lock debugging",
             r.err[-2000:])
    T.set_fs_h(T.pristine_fs_h)
    # Leave the objects as the pristine header builds them.
    for cfg in CONFIGS:
        make(tree, cfg, a.jobs, OBJ)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
