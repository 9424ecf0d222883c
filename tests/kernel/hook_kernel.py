#!/usr/bin/env python3
"""scripts/layoutlint-kernel as a commit hook in a real 6.12 kernel tree.

usage: hook_kernel.py --layoutlint PATH --rules-dir DIR --workdir DIR [--jobs N]

What a new user does, done for real: the pristine Debian 6.12 source
(scripts/fetch-kernel source 6.12) is copied into WORKDIR (hard links;
every file this test edits is replaced, never written through a link),
its .gitignore loses Debian's packaging section, it is configured with
x86_64 defconfig and DWARF 5, committed in a repository of its own with
rules/file.rules as the tree's .layoutlint, and fs/file_table.o and
kernel/fork.o are built. Then, with the hook installed as
.git/hooks/pre-commit (no OBJ: the script picks the object) and through
the pre-commit framework:
  - moving f_pos next to f_op in include/linux/fs.h blocks `git commit -a`,
    `git add; git commit`, a commit of the move staged while the working
    tree is as HEAD, `git commit --amend -a`, and `git commit --amend` of
    the move committed with --no-verify, with exactly one new finding,
    located at f_pos's new line; the index, the working tree, the stash,
    the branches and the worktrees are as before (compared);
  - the move in the working tree only, unstaged, does not block a commit
    of another file;
  - one more member in struct path (include/linux/path.h) commits with
    the layout-change warning "struct file: 184 -> 192 bytes; f_security
    line 1 -> 2", and is refused with the hook's --layout-change=error;
  - a comment-only change commits;
The first run (after --clean) compiles the reference without a worktree:
its state under .git/layoutlint-kernel stays under 500 MB (measured, a
TAP comment gives the time and size). And by hand: ./fs/file_table.o and
an absolute path are rebuilt, not
linted stale; a .config change (CONFIG_SECURITY off, which removes
f_security) rebuilds both sides and reports no false diff; a build error
shows the first compiler error; a missing object is exit 2 with make's
reason; SIGINT during make exits 130 and changes nothing; a second
concurrent run waits and gives the same answer; two objects with
--format=sarif give one schema-valid document with no duplicate results.
The first hook run's time and the warm runs' are printed as TAP comments
(bench/run-hook measures them properly). Skips when the source cannot be
fetched.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "gating"))
from lib import Tap, parse_args, run  # noqa: E402
from kernel_common import fetch_source  # noqa: E402
from run_gating import find_validator  # noqa: E402

SCRIPT = os.path.join(TOP, "scripts", "layoutlint-kernel")
FS_H = "include/linux/fs.h"
STAMP = ".layoutlint-hook-prepared"


def clean_env(**extra):
    """No GIT_ variable of whatever runs this test; a fixed identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="layoutlint test", GIT_AUTHOR_EMAIL="test@layoutlint.invalid",
               GIT_COMMITTER_NAME="layoutlint test",
               GIT_COMMITTER_EMAIL="test@layoutlint.invalid", **extra)
    return env


ENV = clean_env()


def git(tree, *args, check=True, env=None, timeout=900):
    return run(["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
               cwd=tree, check=check, env=env or ENV, timeout=timeout)


def replace_file(path, text):
    """Write PATH as a new file: the tree is hard-linked to the pristine one."""
    tmp = path + ".layoutlint-tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, f"{old!r} not in {path}"
    replace_file(path, text.replace(old, new, 1))


def prepare(pristine, tree, rules, jobs, t):
    """The committed, configured tree; False on failure."""
    if not os.path.exists(os.path.join(tree, STAMP)):
        shutil.rmtree(tree, ignore_errors=True)
        r = run(["cp", "-al", pristine, tree], timeout=1800)
        if r.rc != 0:
            shutil.rmtree(tree, ignore_errors=True)
            r = run(["cp", "-a", pristine, tree], timeout=1800)
        if not t.ok(r.rc == 0, "copy the pristine 6.12 tree", r.err):
            return False
        gi = os.path.join(tree, ".gitignore")
        with open(gi) as f:
            text = f.read()
        # Debian's packaging section (/* then !/debian/) ignores everything.
        cut = re.search(r"^/\*$", text, re.M)
        if cut:
            text = text[:cut.start()]
        replace_file(gi, text)
        steps = [["make", "defconfig"],
                 ["./scripts/config", "--disable", "DEBUG_INFO_NONE", "--enable", "DEBUG_KERNEL",
                  "--enable", "DEBUG_INFO", "--enable", "DEBUG_INFO_DWARF5"],
                 ["make", "olddefconfig"]]
        for s in steps:
            r = run(["nice", *s], cwd=tree, timeout=900, env=ENV)
            if not t.ok(r.rc == 0, f"configure: {' '.join(s[-2:])}", r.err[-3000:]):
                return False
        shutil.copy(rules, os.path.join(tree, ".layoutlint"))
        t0 = time.monotonic()
        for s in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "Linux 6.12 (Debian)"],
                  ["tag", "pristine"]):
            r = git(tree, *s, check=False)
            if not t.ok(r.rc == 0, f"git {' '.join(s)}", r.err[-3000:]):
                return False
        t.comment(f"git init/add/commit of the whole tree: {time.monotonic() - t0:.0f} s")
        with open(os.path.join(tree, STAMP), "w") as f:
            f.write("defconfig + DWARF 5, committed\n")
    else:
        # A kept tree from an earlier run: back to its first commit.
        for s in (["reset", "-q", "--hard", "pristine"], ["stash", "clear"]):
            git(tree, *s)
        for hook in ("pre-commit",):
            p = os.path.join(tree, ".git", "hooks", hook)
            if os.path.exists(p):
                os.unlink(p)
        shutil.rmtree(os.path.join(tree, ".pre-commit-config.yaml"), ignore_errors=True)
    t0 = time.monotonic()
    r = run(["nice", "make", f"-j{jobs}", "fs/file_table.o", "kernel/fork.o"], cwd=tree,
            timeout=1800, env=ENV)
    ok = t.ok(r.rc == 0, "kbuild builds fs/file_table.o kernel/fork.o", r.err[-3000:])
    t.comment(f"make fs/file_table.o kernel/fork.o: {time.monotonic() - t0:.0f} s")
    return ok


def worktree_list(tree):
    """git worktree list, the user's only: the script's own (.git/layoutlint-
    kernel/base and new) follow HEAD and the index by design, and the first
    commit whose index differs from the working tree makes 'new'."""
    blocks = git(tree, "worktree", "list", "--porcelain").out.split("\n\n")
    return "\n\n".join(b for b in blocks
                       if b.strip() and "/.git/layoutlint-kernel/" not in b.splitlines()[0])


def snapshot(tree):
    return {what: git(tree, *cmd).out for what, cmd in {
        "status": ["status", "--porcelain=v1"],
        "index": ["ls-files", "-s", "--", "include", "fs"],
        "stash": ["stash", "list"],
        "head": ["rev-parse", "HEAD"],
        "refs": ["for-each-ref"],
    }.items()} | {"worktrees": worktree_list(tree)}


def changed(a, b):
    return "\n".join(f"{k}: {a[k][:300]!r} -> {b[k][:300]!r}" for k in a if a[k] != b[k])


def errors_of(text):
    return [ln for ln in text.splitlines() if ": error:" in ln]


class Suite:
    def __init__(self, t, ll, tree, jobs):
        self.t, self.ll, self.tree, self.jobs = t, ll, tree, jobs
        self.fs_h = os.path.join(tree, FS_H)
        with open(self.fs_h) as f:
            self.pristine_fs_h = f.read()

    def script(self, *args, cwd=None):
        t0 = time.monotonic()
        r = run([SCRIPT, "--layoutlint", self.ll, "-j", str(self.jobs), *args],
                cwd=cwd or self.tree, env=ENV, timeout=3600)
        return r, time.monotonic() - t0

    def ok(self, cond, desc, r=None, more=""):
        diag = more
        if r is not None:
            diag = f"exit {r.rc}\n--- stdout\n{r.out[-6000:]}\n--- stderr\n{r.err[-6000:]}\n{more}"
        return self.t.ok(cond, desc, diag)

    def restore(self):
        git(self.tree, "checkout", "-q", "HEAD", "--", FS_H)

    def move_f_pos(self):
        """f_pos (write-hot) up next to f_op (read-mostly), swapped with
        private_data (untagged, as large) so that nothing else changes
        line: one new finding, f_pos's. Returns f_pos's new line."""
        with open(self.fs_h) as f:
            text = f.read()
        pos = r"^\tloff_t\t+f_pos;\n"
        priv = r"^\tvoid\t+\*private_data;\n"
        op = r"^\tconst struct file_operations\t+\*f_op;\n"
        m = {k: re.search(v, text, re.M) for k, v in (("pos", pos), ("priv", priv), ("op", op))}
        assert all(m.values()), "struct file has changed: f_pos, private_data or f_op not found"
        decl_pos, decl_priv = m["pos"].group(0), m["priv"].group(0)
        text = re.sub(pos, "@POS@", text, count=1, flags=re.M)
        text = re.sub(priv, "", text, count=1, flags=re.M)
        text = text.replace("@POS@", decl_priv, 1)
        at = re.search(op, text, re.M).end()
        text = text[:at] + decl_pos + text[at:]
        replace_file(self.fs_h, text)
        return text[:at].count("\n") + 1

    def comment_only(self):
        edit(self.fs_h, "struct file {", "struct file {\t/* one open file */")

    # ---- the hook, both ways ------------------------------------------------------

    def blocked(self, how, commit, env=None):
        tree = self.tree
        line = self.move_f_pos()
        amended_bad = commit[0] == "committed-then-amend"
        if commit[0] == "add":
            git(tree, "add", FS_H)
            commit = commit[1:]
        elif commit[0] == "stage-only":
            # Staged, then the working tree back as HEAD has it: only the index holds the move.
            git(tree, "add", FS_H)
            replace_file(self.fs_h, git(tree, "show", f"HEAD:{FS_H}").out + "\n")
            commit = commit[1:]
        elif commit[0] == "committed-then-amend":
            git(tree, "commit", "-q", "--no-verify", "-am", "fs: f_pos next to f_op")
            commit = commit[1:]
        before = snapshot(tree)
        t0 = time.monotonic()
        r = git(tree, *commit, check=False, env=env)
        took = time.monotonic() - t0
        after = snapshot(tree)
        errors = errors_of(r.out + r.err)
        self.ok(r.rc != 0 and len(errors) == 1 and f"{FS_H}:{line}:" in errors[0] and
                "f_pos" in errors[0],
                f"{how}: moving f_pos next to f_op is refused with exactly one new finding, at "
                f"f_pos's new line {line} ({took:.1f} s)", r)
        self.ok(before == after, f"{how}: index, working tree, stash, branches, worktrees and "
                "HEAD as they were", None, changed(before, after))
        git(tree, "reset", "-q", "--hard", "HEAD~1" if amended_bad else "HEAD")
        return took

    def worktree_only(self, how):
        """The move in the working tree only, a comment in another header
        staged: what is committed has no move, so the commit goes through."""
        tree = self.tree
        self.move_f_pos()
        path_h = os.path.join(tree, "include", "linux", "path.h")
        edit(path_h, "#ifndef _LINUX_PATH_H", "/* a staged comment */\n#ifndef _LINUX_PATH_H")
        git(tree, "add", "include/linux/path.h")
        head = git(tree, "rev-parse", "HEAD").out
        t0 = time.monotonic()
        r = git(tree, "commit", "-q", "-m", "path.h: a comment", check=False)
        took = time.monotonic() - t0
        status = git(tree, "status", "--porcelain", "--", "include").out
        self.ok(r.rc == 0 and git(tree, "rev-parse", "HEAD").out != head and
                status.strip() == f"M {FS_H}" and not errors_of(r.out + r.err),
                f"{how}: a move in the working tree only, not staged, is not refused; it stays "
                f"unstaged ({took:.1f} s)", r, status)
        git(tree, "reset", "-q", "--hard", "HEAD~1")

    def path_grows(self, how):
        """One more member in struct path, which struct file embeds: fs.h
        does not change, yet struct file grows and f_security moves."""
        tree = self.tree
        path_h = os.path.join(tree, "include", "linux", "path.h")
        edit(path_h, "\tstruct dentry *dentry;\n", "\tstruct dentry *dentry;\n\tvoid *grown;\n")
        head = git(tree, "rev-parse", "HEAD").out
        t0 = time.monotonic()
        r = git(tree, "commit", "-q", "-am", "path: one more member", check=False)
        took = time.monotonic() - t0
        warn = [ln for ln in (r.out + r.err).splitlines() if "[layout-change]" in ln]
        self.ok(r.rc == 0 and "struct file embeds struct path, whose definition in "
                "include/linux/path.h changed: linting " in r.err and len(warn) == 1 and
                "warning: struct file: 184 -> 192 bytes; f_security line 1 -> 2" in warn[0] and
                warn[0].startswith(f"{FS_H}:") and not errors_of(r.out + r.err) and
                git(tree, "rev-parse", "HEAD").out != head,
                f"{how}: struct path grows: struct file is linted and warned about with its "
                f"before/after (184 -> 192 bytes, f_security line 1 -> 2) ({took:.1f} s)", r)
        git(tree, "reset", "-q", "--hard", "HEAD~1")
        # The same with the hook's `-- --layout-change=error`: refused.
        hook = os.path.join(tree, ".git", "hooks", "pre-commit")
        with open(hook) as f:
            saved = f.read()
        with open(hook, "w") as f:
            f.write(saved.replace(" -- -q\n", " -- -q --layout-change=error\n"))
        edit(path_h, "\tstruct dentry *dentry;\n", "\tstruct dentry *dentry;\n\tvoid *grown;\n")
        r = git(tree, "commit", "-q", "-am", "path: one more member", check=False)
        self.ok(r.rc != 0 and git(tree, "rev-parse", "HEAD").out == head and
                ": error: struct file: 184 -> 192 bytes; f_security line 1 -> 2" in r.out + r.err,
                f"{how}, -- --layout-change=error: the same change is refused", r)
        with open(hook, "w") as f:
            f.write(saved)
        git(tree, "reset", "-q", "--hard", "HEAD")

    def passes(self, how, env=None):
        tree = self.tree
        self.comment_only()
        head = git(tree, "rev-parse", "HEAD").out
        t0 = time.monotonic()
        r = git(tree, "commit", "-q", "-am", "fs.h: a comment", check=False, env=env)
        took = time.monotonic() - t0
        self.ok(r.rc == 0 and git(tree, "rev-parse", "HEAD").out != head,
                f"{how}: a comment-only change commits ({took:.1f} s)", r)
        return took

    def plain_hook(self):
        hook = os.path.join(self.tree, ".git", "hooks", "pre-commit")
        with open(hook, "w") as f:
            f.write(f"#!/bin/sh\nexec '{SCRIPT}' --layoutlint '{self.ll}' -j {self.jobs} -- -q\n")
        os.chmod(hook, 0o755)
        r, _ = self.script("--", "-q")
        self.ok(r.rc == 0 and "nothing to lint" in r.err, "no change: nothing to lint", r)
        # The first run, from nothing (--clean): the reference object is compiled with
        # the tree's own kbuild command from the files it reads, at HEAD: no worktree.
        state = os.path.join(self.tree, ".git", "layoutlint-kernel")
        self.script("--clean")
        r, took = self.script("fs/file_table.o", "--", "-q")
        du = run(["du", "-sk", state], env=ENV)
        kb = int(du.out.split()[0]) if du.rc == 0 and du.out.split() else -1
        self.ok(r.rc == 0 and not errors_of(r.out) and "no worktree" in r.err and
                0 < kb < 500 * 1024 and
                "layoutlint-kernel" not in git(self.tree, "worktree", "list").out,
                f"first run on the committed tree (after --clean): nothing new, the reference "
                f"compiled without a worktree ({took:.0f} s, .git/layoutlint-kernel "
                f"{kb / 1024:.1f} MB, < 500 MB)", r)
        self.t.comment(f"first run: {took:.1f} s, .git/layoutlint-kernel {kb / 1024:.1f} MB")
        # A commit of its own first, so that --amend has a parent to compare with.
        self.passes(".git/hooks/pre-commit")
        self.blocked(".git/hooks/pre-commit, git commit -a", ["commit", "-q", "-am", "move"])
        self.blocked(".git/hooks/pre-commit, git add; git commit",
                     ["add", "commit", "-q", "-m", "move"])
        self.blocked(".git/hooks/pre-commit, staged only (working tree as HEAD)",
                     ["stage-only", "commit", "-q", "-m", "move"])
        self.worktree_only(".git/hooks/pre-commit, working tree only")
        self.blocked(".git/hooks/pre-commit, git commit --amend -a",
                     ["commit", "-q", "--amend", "-a", "--no-edit"])
        self.blocked(".git/hooks/pre-commit, git commit --amend of a commit made with --no-verify",
                     ["committed-then-amend", "commit", "-q", "--amend", "--no-edit"])
        self.path_grows(".git/hooks/pre-commit")
        os.unlink(hook)

    def framework_hook(self, workdir):
        if not shutil.which("pre-commit"):
            self.t.skip("the pre-commit framework", "pre-commit is not installed")
            return
        rev = run(["git", "rev-parse", "HEAD"], cwd=TOP, env=ENV)
        if rev.rc != 0:
            self.t.skip("the pre-commit framework", "the source is not a git clone")
            return
        tree = self.tree
        with open(os.path.join(tree, ".pre-commit-config.yaml"), "w") as f:
            f.write(f"repos:\n- repo: {TOP}\n  rev: {rev.out.strip()}\n  hooks:\n"
                    f"  - id: layoutlint-kernel\n"
                    f"    args: [--layoutlint, '{self.ll}', -j, '{self.jobs}', --, -q]\n")
        git(tree, "add", "-f", ".pre-commit-config.yaml")  # .* is ignored in the kernel
        git(tree, "commit", "-q", "--no-verify", "-m", "pre-commit configuration")
        env = clean_env(PRE_COMMIT_HOME=os.path.join(workdir, "pre-commit-home"))
        r = run(["pre-commit", "install"], cwd=tree, env=env, timeout=300)
        if not self.ok(r.rc == 0, "pre-commit install", r):
            return
        self.blocked("pre-commit framework, git commit -a", ["commit", "-q", "-am", "move"],
                     env=env)
        self.passes("pre-commit framework", env=env)
        run(["pre-commit", "uninstall"], cwd=tree, env=env, timeout=300)

    # ---- by hand ---------------------------------------------------------------------

    def paths(self):
        for spelling, cwd in (("./fs/file_table.o", self.tree),
                              (os.path.join(self.tree, "fs", "file_table.o"), "/")):
            line = self.move_f_pos()
            r, took = self.script("-C", self.tree, spelling, cwd=cwd)
            errors = errors_of(r.out)
            self.ok(r.rc == 1 and len(errors) == 1 and f"{FS_H}:{line}:" in errors[0],
                    f"{spelling}: rebuilt from the edited header, not linted stale "
                    f"({took:.1f} s)", r)
            self.restore()

    def config(self):
        tree = self.tree
        cfg = os.path.join(tree, ".config")
        with open(cfg) as f:
            saved = f.read()
        for step in (["./scripts/config", "--disable", "SECURITY"], ["make", "olddefconfig"]):
            run(step, cwd=tree, env=ENV, timeout=600, check=True)
        for what in (".config change (SECURITY off)", ".config restored"):
            r, took = self.script("fs/file_table.o")
            self.ok(r.rc == 0 and
                    "no member added, removed or moved to another cacheline" in r.out and
                    not re.search(r"^\t(added|removed):", r.out, re.M) and
                    ("compiling fs/file_table.o from" in r.err
                     if what.startswith(".config change") else
                     "reusing the objects built for its tree in an earlier run" in r.err) and
                    "working tree: fs/file_table.o is older than " in r.err,
                    f"{what}: both sides rebuilt (restored: the reference's objects for that "
                    f".config reused), no false diff ({took:.0f} s)", r)
            replace_file(cfg, saved)

    def build_error(self):
        edit(self.fs_h, "struct file {", "struct file { syntax error")
        r, _ = self.script("fs/file_table.o")
        first = errors_of(r.err)
        self.ok(r.rc == 2 and first and first[0].lstrip("./").startswith(f"{FS_H}:") and
                "make fs/file_table.o failed" in r.err,
                "a build error: exit 2, the first compiler error shown", r)
        self.restore()

    def missing_object(self):
        r, _ = self.script("fs/no_such_file.o")
        self.ok(r.rc == 2 and "make fs/no_such_file.o failed" in r.err and
                "No rule to make target" in r.err,
                "a missing object: exit 2, make's reason shown", r)

    def interrupt(self):
        """Ctrl-C (SIGINT to the whole group) in the middle of the rebuild."""
        self.script("fs/file_table.o")	# the reference at HEAD: only make is left to stop
        os.utime(self.fs_h, None)
        before = snapshot(self.tree)
        p = subprocess.Popen([SCRIPT, "--layoutlint", self.ll, "fs/file_table.o"], cwd=self.tree,
                             env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        time.sleep(2)
        t0 = time.monotonic()
        os.killpg(p.pid, signal.SIGINT)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
        took = time.monotonic() - t0
        self.ok(p.returncode == 130 and b"interrupted" in err and took < 10,
                f"SIGINT during make: exit 130 after {took:.1f} s", None,
                f"exit {p.returncode}\n{err.decode()}")
        after = snapshot(self.tree)
        self.ok(before == after, "... index, working tree, stash, worktrees unchanged", None,
                changed(before, after))
        r, took = self.script("fs/file_table.o")
        self.ok(r.rc == 0 and not errors_of(r.out), f"... and the next run is right ({took:.1f} s)",
                r)

    def concurrent(self):
        os.utime(self.fs_h, None)
        args = [SCRIPT, "--layoutlint", self.ll, "fs/file_table.o", "--", "-q"]
        first = subprocess.Popen(args, cwd=self.tree, env=ENV, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        time.sleep(1)
        second = subprocess.Popen(args, cwd=self.tree, env=ENV, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        res = [(p.wait(timeout=600), *[x.decode() for x in p.communicate()])
               for p in (first, second)]
        self.ok(res[0][0] == res[1][0] == 0 and "waiting for it" in res[1][2] and
                res[0][1] == res[1][1],
                "two concurrent runs: the second waits, both give the same answer", None,
                repr(res)[:4000])

    def two_objects(self):
        line = self.move_f_pos()
        r, took = self.script("fs/file_table.o", "kernel/fork.o", "--", "--format=sarif")
        try:
            doc = json.loads(r.out)
            results = doc["runs"][0]["results"]
            ok = len(doc["runs"]) == 1
        except (ValueError, KeyError, IndexError):
            doc, results, ok = None, [], False
        fps = [x.get("partialFingerprints", {}).get("layoutlint/v1") for x in results]
        new = [x for x in results if x.get("baselineState", "new") == "new" and
               x.get("ruleId") != "layout-change"]
        self.ok(r.rc == 1 and ok and len(new) == 1 and len(fps) == len(set(fps)) and
                new[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == line,
                f"fs/file_table.o and kernel/fork.o, --format=sarif: one document, the new "
                f"finding once, at f_pos, no duplicate results ({took:.1f} s)", r)
        check, how = find_validator()
        if check and doc is not None:
            errs = check(doc)
            self.t.ok(not errs, f"... valid SARIF 2.1.0 ({how})", "\n".join(errs[:20]))
        else:
            self.t.skip("... valid SARIF 2.1.0", "no jsonschema")
        self.restore()


def main():
    a = parse_args("layoutlint",
                   "rules-dir",
                   "workdir",
                   "jobs",
                   prepare_only=dict(action="store_true",
                                     help="prepare the tree (for bench/hook), print its path, run no "
                                          "test"),
                   doc=__doc__)
    t = Tap(out=sys.stderr) if a.prepare_only else Tap()
    pristine = fetch_source("6.12")
    if not pristine:
        print("1..0 # SKIP cannot fetch the 6.12 source with scripts/fetch-kernel")
        return 0
    workdir = os.path.abspath(a.workdir)
    os.makedirs(workdir, exist_ok=True)
    tree = os.path.join(workdir, "linux-6.12")
    rules = os.path.join(os.path.abspath(a.rules_dir), "file.rules")
    if not prepare(pristine, tree, rules, a.jobs, t):
        return t.finish()
    if a.prepare_only:
        print(tree)
        return 0
    s = Suite(t, os.path.abspath(a.layoutlint), tree, a.jobs)
    s.plain_hook()
    s.framework_hook(workdir)
    s.paths()
    s.build_error()
    s.missing_object()
    s.interrupt()
    s.concurrent()
    s.two_objects()
    s.config()
    r, _ = s.script("--clean")
    wts = git(tree, "worktree", "list", "--porcelain").out
    t.ok(r.rc == 0 and "layoutlint-kernel" not in wts, "--clean removes the kept worktree", wts)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
