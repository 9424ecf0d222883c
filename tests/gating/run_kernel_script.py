#!/usr/bin/env python3
"""scripts/layoutlint-kernel on a tiny kbuild-like tree of its own.

usage: run_kernel_script.py --layoutlint PATH [--workdir DIR]

tests/gating/ktree is a Makefile, two headers (include/linux/types.h and
conn.h, which defines struct conn), two objects that include conn.h
(fs/conn.c, fs/conn_stats.c) and the tree's rules (.layoutlint). The test
makes a git repository of it, with a .config that only the working tree
has, and checks the script:
  - run by hand: the reference built in a kept worktree, nothing new on a
    clean tree, one new finding located at the moved member, revisions
    named by name, two revisions compared, object paths normalised
    (./fs/conn.o, an absolute path), a header make does not see, a .config
    change rebuilding both sides, the first compiler error of a failed
    build, a missing object, objects picked by itself from the change;
  - inside real `git commit`s: as .git/hooks/pre-commit and through the
    pre-commit framework (configured with the README's snippet as written),
    with `git commit`, `git commit -a`, a move only staged, `--amend -a`,
    `--amend` of a move committed with --no-verify and a commit concluding
    a merge; a blocking change is refused with exactly its one new finding
    and leaves the index, the working tree, the stash, the branches and the
    worktrees as they were; a move only in the working tree does not block
    a commit of another file; a comment-only change commits; both hook
    mechanisms installed at once are reported;
  - an embedded typedef growing in another header lints the host struct
    and reports its layout-change; O= builds and archives are refused;
  - two objects with --format=sarif or json: one document, schema-valid,
    no duplicate results;
  - SIGINT in the middle (exit 130, nothing changed), two concurrent runs
    (the second waits, both right), --clean (only its own worktrees go).
TAP. Exit status 1 if anything failed.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, parse_args, run  # noqa: E402
from run_gating import find_validator  # noqa: E402
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(TOP, "scripts", "layoutlint-kernel")
TEMPLATE = os.path.join(HERE, "ktree")
GIT_CFG = ["-c", "user.name=layoutlint test", "-c", "user.email=test@layoutlint.invalid",
           "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
GIT = ["git", *GIT_CFG]
MOVED = "\tlong count;\t\t/* moved here, next to ops */\n"


def clean_env():
    """This test may itself run under a git hook: never let its variables in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="layoutlint test", GIT_AUTHOR_EMAIL="test@layoutlint.invalid",
               GIT_COMMITTER_NAME="layoutlint test",
               GIT_COMMITTER_EMAIL="test@layoutlint.invalid")
    return env


ENV = clean_env()


def git(tree, *args, check=True):
    return run(GIT + list(args), cwd=tree, timeout=300, check=check, env=ENV)


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, f"{old!r} not in {path}"
    with open(path, "w") as f:
        f.write(text.replace(old, new))


def move_count(header):
    """Move write-hot count next to read-mostly ops; its new line number."""
    edit(header, "\tconn_stat_t stat;\n", "\tconn_stat_t stat;\n" + MOVED)
    edit(header, "\t_Alignas(64) long count;\n\tlong bytes;\n", "\t_Alignas(64) long bytes;\n")
    with open(header) as f:
        return [i + 1 for i, line in enumerate(f) if line == MOVED][0]


def errors_of(text):
    return [ln for ln in text.splitlines() if ": error:" in ln]


def worktree_list(tree):
    """git worktree list, the user's only: the script's own (.git/layoutlint-
    kernel/base and new) follow HEAD and the index by design, and the first
    commit whose index differs from the working tree makes 'new'."""
    blocks = git(tree, "worktree", "list", "--porcelain").out.split("\n\n")
    return "\n\n".join(b for b in blocks
                       if b.strip() and "/.git/layoutlint-kernel/" not in b.splitlines()[0])


def snapshot(tree):
    """What a hook must never change: status, index, stash, worktrees."""
    return {what: git(tree, *cmd).out for what, cmd in {
        "status": ["status", "--porcelain=v1", "--untracked-files=all"],
        "index": ["ls-files", "-s"],
        "stash": ["stash", "list"],
        "head": ["rev-parse", "HEAD"],
        "refs": ["for-each-ref"],
    }.items()} | {"worktrees": worktree_list(tree)}


def diff_snapshots(a, b):
    return "\n".join(f"{k}: {a[k]!r} -> {b[k]!r}" for k in a if a[k] != b[k])


def main():
    a = parse_args("layoutlint", workdir=dict(required=False), doc=__doc__)
    missing = [t for t in ("git", "make", "cc", "awk", "flock") if not shutil.which(t)]
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
    for d in (tree, os.path.join(work, "userwt"), os.path.join(work, "pre-commit-home")):
        shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(TEMPLATE, tree)
    with open(os.path.join(tree, ".gitignore"), "w") as f:
        f.write("*.o\n.*.cmd\n.config\n")
    with open(os.path.join(tree, ".config"), "w") as f:
        f.write("# only in the working tree, as a kernel's .config is\nCONFIG_CONN_DEBUG=y\n")
    tap = Tap()
    try:
        git(tree, "init", "-q")
        git(tree, "add", "-A")
        git(tree, "commit", "-q", "-m", "struct conn")
        Suite(tap, tool, tree, work).all()
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


class Suite:
    def __init__(self, tap, tool, tree, work):
        self.tap, self.tool, self.tree, self.work = tap, tool, tree, work
        self.header = os.path.join(tree, "include", "linux", "conn.h")
        self.state = os.path.join(tree, ".git", "layoutlint-kernel")
        self.base_obj = os.path.join(self.state, "light-base", "fs", "conn.o")

    def script(self, *args, cwd=None, timeout=300):
        return run([SCRIPT, "--layoutlint", self.tool, *args], cwd=cwd or self.tree,
                   timeout=timeout, env=ENV)

    def restore(self, *paths):
        git(self.tree, "checkout", "-q", "HEAD", "--", *paths)

    def ok(self, cond, desc, r=None, more=""):
        diag = more
        if r is not None:
            diag = f"exit {r.rc}\n--- stdout\n{r.out}\n--- stderr\n{r.err}\n{more}"
        return self.tap.ok(cond, desc, diag)

    def all(self):
        self.by_hand()
        self.paths_and_config()
        self.failures()
        self.picked()
        self.embedded()
        self.embedding()
        self.access()
        self.two_objects()
        self.plain_hook()
        self.framework_hook()
        self.interrupt_and_lock()
        self.clean()

    # ---- by hand -------------------------------------------------------------

    def by_hand(self):
        tree, header = self.tree, self.header
        r = self.script("fs/conn.o")
        self.ok(r.rc == 0 and not errors_of(r.out),
                "clean working tree against HEAD: nothing new, exit 0", r)
        light = os.path.join(self.state, "light-base")
        self.ok(os.path.isfile(self.base_obj) and not os.path.exists(os.path.join(self.state, "base"))
                and sorted(os.listdir(os.path.join(light, "include", "linux"))) ==
                ["conn.h", "types.h"] and "no worktree" in r.err and
                "layoutlint-kernel" not in git(tree, "worktree", "list").out,
                "the reference is compiled with the tree's own command under "
                ".git/layoutlint-kernel/light-base from the files it reads (no worktree)", r)
        self.ok("\tno member added, removed or moved to another cacheline" in r.out.splitlines(),
                "same .config on both sides: no member added (debug_flags exists in both)", r)
        self.ok(re.search(r"1 finding \(2 pairs\) already in OLD-BINARY suppressed", r.err),
                "the old finding (cfg with lock and refs) is suppressed", r)
        head = git(tree, "rev-parse", "--short", "HEAD").out.strip()
        self.ok(f"against HEAD ({head})" in r.err and ".git/layoutlint-kernel" not in r.out + r.err,
                "the reference is named by its revision, not by the worktree's path", r)

        base_mtime = os.stat(self.base_obj).st_mtime_ns
        line = move_count(header)
        r = self.script("fs/conn.o")
        errors = errors_of(r.out)
        self.ok(r.rc == 1 and len(errors) == 1 and
                "cacheline 0 of struct conn mixes read-mostly ops, flags, priv with write-hot count"
                in errors[0], "count moved next to ops: exactly that new finding, exit 1", r)
        self.ok(errors and errors[0].startswith(f"include/linux/conn.h:{line}:"),
                f"the new finding is located at count's new line ({line}), where the change is",
                r)
        self.ok("\tmoved:   count: line 2 -> line 0" in r.out.splitlines(),
                "the layout diff shows count: line 2 -> line 0", r)
        self.ok(f"struct conn against HEAD ({head}):fs/conn.o:" in r.out,
                "the layout diff names the revision", r)
        self.ok(os.stat(self.base_obj).st_mtime_ns == base_mtime,
                "the reference object is reused, not rebuilt", r)

        git(tree, "commit", "-q", "--no-verify", "-am", "conn: move count next to ops")
        r = self.script("--base", "HEAD~1", "--new", "HEAD", "fs/conn.o")
        self.ok(r.rc == 1 and len(errors_of(r.out)) == 1 and "write-hot count" in r.out and
                os.path.isfile(os.path.join(self.state, "light-new", "fs", "conn.o")),
                "--base HEAD~1 --new HEAD: the commit's one new finding", r)
        r = self.script("fs/conn.o")
        self.ok(r.rc == 0 and not errors_of(r.out), "after the commit, against HEAD: nothing new",
                r)
        git(tree, "reset", "-q", "--hard", "HEAD~1")
        self.ok(self.script("fs/conn.o").rc == 0, "back at the first commit: nothing new")

    # ---- object paths, headers make misses, .config ----------------------------

    def paths_and_config(self):
        tree = self.tree
        obj = os.path.join(tree, "fs", "conn.o")
        types = os.path.join(tree, "include", "linux", "types.h")
        for spelling, cwd in (("./fs/conn.o", tree), (obj, self.work),
                              ("fs/../fs/conn.o", tree)):
            # A header change make does not see: the script must.
            edit(types, "typedef struct { long v[1]; } conn_stat_t;",
                 "typedef struct { long v[5]; } conn_stat_t;")
            t = os.stat(obj).st_mtime + 2
            os.utime(types, (t, t))
            make_q = run(["make", "-q", "fs/conn.o"], cwd=tree, timeout=300, env=ENV).rc
            r = self.script("-C", tree, spelling, cwd=cwd)
            self.ok(make_q == 0 and "fs/conn.o is older than include/linux/types.h: rebuilding"
                    in r.err and re.search(r"conn_stat_t stat; +/\* +24 +line 0 \+24 +40 ", r.out)
                    and r.rc == 0, f"{spelling}: an object older than a header its .cmd lists is "
                    "rebuilt before linting (make -q alone says up to date)", r,
                    f"make -q: {make_q}")
            self.restore("include/linux/types.h")
            self.script("fs/conn.o")
        r = self.script("../outside.o")
        self.ok(r.rc == 2 and "not inside the tree" in r.err, "an object outside the tree: exit 2",
                r)

        cfg = os.path.join(tree, ".config")
        with open(cfg) as f:
            saved = f.read()
        with open(cfg, "w") as f:
            f.write("# CONFIG_CONN_DEBUG is not set\n")
        for what in (".config change", ".config back"):
            r = self.script("fs/conn.o")
            self.ok(r.rc == 0 and "\tno member added, removed or moved to another cacheline"
                    in r.out.splitlines() and
                    "working tree: fs/conn.o is older than .config: rebuilding" in r.err and
                    ("compiling fs/conn.o from 3 files of its revision" in r.err if what ==
                     ".config change" else
                     "reusing the objects built for its tree in an earlier run" in r.err),
                    f"{what}: both sides rebuilt (back: the reference's objects for that "
                    f".config reused), no false 'added/removed: debug_flags'", r)
            with open(cfg, "w") as f:
                f.write(saved)

    # ---- failures ----------------------------------------------------------------

    def failures(self):
        edit(self.header, "struct conn {", "struct conn { syntax error")
        r = self.script("fs/conn.o")
        first = [ln for ln in r.err.splitlines() if ": error:" in ln]
        self.ok(r.rc == 2 and "make fs/conn.o failed" in r.err and first and
                first[0].startswith("include/linux/conn.h:"),
                "a build error: exit 2 with the first compiler error, not only the tail", r)
        self.restore("include/linux/conn.h")
        r = self.script("fs/conn.c")
        self.ok(r.rc == 2 and "expected an object path" in r.err, "a bad object name: exit 2", r)
        r = self.script("fs/nosuch.o")
        self.ok(r.rc == 2 and "make fs/nosuch.o failed" in r.err and "nosuch" in r.err,
                "a missing object: exit 2, make's reason shown", r)
        r = self.script("-r", "no-such.rules", "fs/conn.o")
        self.ok(r.rc == 2 and "no-such.rules" in r.err, "missing rules: exit 2 (layoutlint's)", r)
        r = self.script("--base", "no-such-rev", "fs/conn.o")
        self.ok(r.rc == 2 and "unknown revision 'no-such-rev'" in r.err,
                "an unknown revision: exit 2", r)
        # Out-of-tree builds: refused in one line that names the alternative.
        r = self.script("--make-arg", "O=/tmp/out", "fs/conn.o")
        self.ok(r.rc == 2 and len(r.err.splitlines()) == 1 and "O=" in r.err and
                "build in the source tree" in r.err and "layoutlint --against" in r.err,
                "--make-arg O=DIR: exit 2, one line naming the alternatives", r)
        r = run([SCRIPT, "--layoutlint", self.tool, "fs/conn.o"], cwd=self.tree, timeout=300,
                env=dict(ENV, KBUILD_OUTPUT="/tmp/out"))
        self.ok(r.rc == 2 and len(r.err.splitlines()) == 1 and "KBUILD_OUTPUT" in r.err,
                "KBUILD_OUTPUT set: exit 2, one line", r)
        # kbuild's built-in.a is a thin archive: its member objects are linted;
        # a regular archive is refused, naming what to give instead.
        run(["make", "fs/conn.o"], cwd=self.tree, timeout=300, env=ENV, check=True)
        run(["ar", "rcsT", "fs/built-in.a", "fs/conn.o"], cwd=self.tree, env=ENV, check=True)
        run(["ar", "rcs", "fs/lib.a", "fs/conn.o"], cwd=self.tree, env=ENV, check=True)
        r = self.script("fs/built-in.a")
        r_obj = self.script("fs/conn.o")
        self.ok(r.rc == r_obj.rc and r.rc in (0, 1) and r.out == r_obj.out,
                "layoutlint-kernel fs/built-in.a: its member fs/conn.o linted, the same "
                "report as naming it", r, f"--- fs/conn.o: exit {r_obj.rc}\n{r_obj.out}\n{r_obj.err}")
        r = self.script("fs/lib.a")
        self.ok(r.rc == 2 and len(r.err.splitlines()) == 1 and
                "name one of its objects" in r.err, "layoutlint-kernel fs/lib.a (not thin): "
                "exit 2, one line saying to name an object", r)
        r = run([self.tool, "-r", ".layoutlint", "fs/lib.a"], cwd=self.tree, env=ENV)
        self.ok(r.rc == 2 and r.err == "layoutlint: fs/lib.a: an ar archive, not an object: "
                "name one of its objects instead (ar t fs/lib.a lists them; ar x extracts "
                "them)\n" and not r.out,
                "layoutlint fs/lib.a: exit 2, one line saying to name an object", r)
        r = run([self.tool, "-r", ".layoutlint", "fs/built-in.a"], cwd=self.tree, env=ENV)
        r_obj = run([self.tool, "-r", ".layoutlint", "--binary", "fs/conn.o"], cwd=self.tree,
                    env=ENV)
        self.ok(r.rc == r_obj.rc and r.out == r_obj.out,
                "layoutlint fs/built-in.a: the report of its member, as with --binary", r)
        for a in ("fs/built-in.a", "fs/lib.a"):
            os.unlink(os.path.join(self.tree, a))

    # ---- no OBJ: picked from the change ---------------------------------------------

    def picked(self):
        tree = self.tree
        r = self.script()
        self.ok(r.rc == 0 and "nothing to lint" in r.err and not r.out,
                "no OBJ and no change: nothing to lint, exit 0", r)
        edit(os.path.join(tree, "fs", "conn.c"), "struct conn conn_instance;",
             "struct conn conn_instance;\nint conn_unrelated;")
        r = self.script()
        self.ok(r.rc == 0 and "touches no file that declares a struct the rules name" in r.err,
                "a change to a .c file that declares no rules struct: nothing to lint", r)
        self.restore("fs/conn.c")
        run(["make", "fs/conn.o", "fs/conn_stats.o"], cwd=tree, timeout=300, env=ENV, check=True)
        move_count(self.header)
        r = self.script()
        self.ok(r.rc == 1 and len(errors_of(r.out)) == 1 and
                re.search(r"struct conn: include/linux/conn\.h changed: linting fs/conn(_stats)?\.o,"
                          r" of the 2 built object\(s\) that include it", r.err),
                "no OBJ: one built object including conn.h is picked, with a note; one new "
                "finding", r)
        hidden = os.path.join(self.work, "hidden")
        shutil.rmtree(hidden, ignore_errors=True)
        os.makedirs(hidden)
        for name in ("conn.o", ".conn.o.cmd", "conn_stats.o", ".conn_stats.o.cmd"):
            shutil.move(os.path.join(tree, "fs", name), hidden)
        r = self.script()
        self.ok(r.rc == 2 and "include/linux/conn.h changed, and no built object includes it"
                in r.err and "make fs/conn.o" in r.err and len(r.err.splitlines()) == 1,
                "no object built: one line naming the header and a make command, exit 2", r)
        for name in os.listdir(hidden):
            shutil.move(os.path.join(hidden, name), os.path.join(tree, "fs", name))
        self.restore("include/linux/conn.h")

    # ---- a struct the rules name, changed through one it embeds ----------------------

    def embedded(self):
        """conn_stat_t (types.h) grows: struct conn, which embeds it and whose
        header did not change, is linted and its layout change reported."""
        tree = self.tree
        types = os.path.join(tree, "include", "linux", "types.h")
        run(["make", "fs/conn.o", "fs/conn_stats.o"], cwd=tree, timeout=300, env=ENV, check=True)
        edit(types, "typedef struct { long v[1]; } conn_stat_t;",
             "typedef struct { long v[6]; } conn_stat_t;")
        r = self.script()
        warn = [ln for ln in r.out.splitlines() if "[layout-change]" in ln]
        self.ok(r.rc == 0 and re.search(r"struct conn embeds conn_stat_t, whose definition in "
                                        r"include/linux/types\.h changed: linting fs/conn(_stats)?\.o",
                                        r.err) and
                len(warn) == 1 and "struct conn: 192 -> 256 bytes, cachelines 3 -> 4, "
                "kmalloc-192 -> kmalloc-256; lock line 1 -> 2, refs line 1 -> 2, cfg line 1 -> 2, "
                "count line 2 -> 3, bytes line 2 -> 3" in warn[0] and not errors_of(r.out),
                "no OBJ, an embedded typedef grows in another header: the host struct is linted "
                "and its layout-change warning names before and after", r)
        self.restore("include/linux/types.h")
        edit(types, "#endif", "/* a comment */\n#endif")
        r = self.script()
        self.ok(r.rc == 0 and "nothing to lint" in r.err,
                "a comment outside every struct in that header: nothing to lint", r)
        self.restore("include/linux/types.h")

    # ---- the other direction: a rules struct embedded in one no rules name -----------

    def embedding(self):
        """struct conn (rules) grows; struct conn_pool (no rules) embeds it in an
        anonymous struct inside an anonymous union: conn_pool is linted with
        struct conn's rules in place and its layout change reported."""
        tree = self.tree
        run(["make", "fs/conn.o", "fs/conn_pool.o"], cwd=tree, timeout=300, env=ENV,
            check=True)
        edit(self.header, "\tvoid *priv;\n", "\tvoid *priv;\n\tlong spare[8];\n")
        r = self.script()
        warn = [ln for ln in r.out.splitlines() if "[layout-change]" in ln]
        pool = [ln for ln in warn if "struct conn_pool: " in ln]
        self.ok(r.rc in (0, 1) and
                "struct conn_pool embeds struct conn (at primary), whose definition in "
                "include/linux/conn.h changed: linting struct conn_pool in fs/conn_pool.o" in r.err
                and len(pool) == 1 and "struct conn_pool: 320 -> 384 bytes, cachelines 5 -> 6; "
                "primary.lock line 2 -> 3, primary.refs line 2 -> 3, primary.cfg line 2 -> 3, "
                "primary.count line 3 -> 4, primary.bytes line 3 -> 4 [layout-change]" in pool[0]
                # struct conn's own findings once, not again as conn_pool's
                and "conn_pool" not in "".join(errors_of(r.out)) and
                len(re.findall(r"^layoutlint: ", r.err, re.M)) == 1,
                "no OBJ, a rules struct grows: the struct no rules name that embeds it (through "
                "an anonymous struct and union) is linted with its rules, and its layout-change "
                "names before and after", r)
        self.restore("include/linux/conn.h")
        edit(self.header, "};\n\n#endif", "};\n/* a comment */\n\n#endif")
        r = self.script()
        self.ok(r.rc == 0 and "conn_pool" not in r.err + r.out,
                "a change to that header outside struct conn: the outer struct is not linted", r)
        self.restore("include/linux/conn.h")
        for f in ("fs/conn_pool.o", "fs/.conn_pool.o.cmd"):
            os.unlink(os.path.join(tree, f))

    # ---- --access: a struct no rules name, tagged from the code ------------------------

    def access(self):
        """struct conn_live (no rules) loses the _Alignas that kept hits off ops' line:
        with --access it is linted with tags from fs/conn_live.o's code, and its new
        mixed line is refused; without --access nothing names it."""
        tree = self.tree
        env = dict(ENV, XDG_CACHE_HOME=os.path.join(self.work, "access-cache"))
        run(["make", "fs/conn_live.o"], cwd=tree, timeout=300, env=ENV, check=True)
        edit(os.path.join(tree, "include", "linux", "conn_live.h"),
             "\t_Alignas(64) long hits;", "\tlong hits;")
        r = run([SCRIPT, "--layoutlint", self.tool, "--access"], cwd=tree, timeout=300, env=env)
        errors = errors_of(r.out)
        self.ok(r.rc == 1 and "struct conn_live: its definition in include/linux/conn_live.h "
                "changed, no rules name it: linting fs/conn_live.o with tags from the code"
                in r.err and len(errors) == 1 and
                "cacheline 0 of struct conn_live mixes read-mostly ops with write-hot hits"
                in errors[0],
                "--access: a struct no rules name, whose definition changed, is linted with tags "
                "from the code and its one new mixed line refused", r)
        r = run([SCRIPT, "--layoutlint", self.tool], cwd=tree, timeout=300, env=env)
        self.ok(r.rc == 0 and "nothing to lint" in r.err,
                "without --access the same change names no struct the rules know: nothing to "
                "lint", r)
        self.restore("include/linux/conn_live.h")

    # ---- several objects, one document -------------------------------------------------

    def two_objects(self):
        move_count(self.header)
        r = self.script("fs/conn.o", "fs/conn_stats.o", "--", "--format=sarif")
        try:
            doc = json.loads(r.out)
            results = doc["runs"][0]["results"]
            ok = len(doc["runs"]) == 1
        except (ValueError, KeyError, IndexError):
            doc, results, ok = None, [], False
        fps = [res.get("partialFingerprints", {}).get("layoutlint/v1") for res in results]
        new = [res for res in results if res.get("baselineState", "new") == "new" and
               res.get("ruleId") != "layout-change"]
        self.ok(r.rc == 1 and ok and len(new) == 1 and len(fps) == len(set(fps)),
                "two objects, --format=sarif: one document, one run, the new finding once, no "
                "duplicate results", r)
        check, how = find_validator()
        if check and doc is not None:
            errs = check(doc)
            self.tap.ok(not errs, f"... and it is valid SARIF 2.1.0 ({how})", "\n".join(errs))
        else:
            self.tap.skip("... and it is valid SARIF 2.1.0", "no jsonschema")
        r = self.script("fs/conn.o", "./fs/conn_stats.o", "fs/conn.o", "--", "--format=json")
        try:
            doc = json.loads(r.out)
            names = [s["name"] for s in doc["structs"]]
        except (ValueError, KeyError, TypeError):
            names = None
        self.ok(r.rc == 1 and names == ["conn"],
                "two objects (one given twice), --format=json: one document, struct conn once",
                r)
        r = self.script("fs/conn.o", "fs/conn_stats.o")
        self.ok(r.rc == 1 and len(errors_of(r.out)) == 1 and
                r.out.count("struct conn {") == 1,
                "two objects, text: the listing and the new finding once", r)
        self.restore("include/linux/conn.h")

    # ---- inside git commit ---------------------------------------------------------------

    def blocked(self, how, commit, hook_desc):
        """A commit that moves count must be refused with exactly one finding."""
        tree = self.tree
        line = move_count(self.header)
        amended_bad = commit[0] == "committed-then-amend"
        if commit[0] == "add-then-commit":
            git(tree, "add", "include/linux/conn.h")
            commit = commit[1:]
        elif commit[0] == "stage-only":
            # Staged, then the working tree back as HEAD has it: only the
            # index, which is what gets committed, holds the move.
            git(tree, "add", "include/linux/conn.h")
            with open(self.header, "w") as f:
                f.write(git(tree, "show", "HEAD:include/linux/conn.h").out + "\n")
            commit = commit[1:]
        elif commit[0] == "committed-then-amend":
            # The bad move committed past the hook, then amended with nothing more.
            git(tree, "commit", "-q", "--no-verify", "-am", "conn: move count")
            commit = commit[1:]
        before = snapshot(tree)
        r = git(tree, *commit, check=False)
        after = snapshot(tree)
        errors = errors_of(r.out + r.err)
        self.ok(r.rc != 0 and len(errors) == 1 and
                f"include/linux/conn.h:{line}:" in errors[0] and "write-hot count" in errors[0],
                f"{hook_desc}, {how}: moving count is refused with exactly one new finding at "
                f"its new line {line}", r)
        self.ok(before == after, f"{hook_desc}, {how}: index, working tree, stash, branches, "
                "worktrees and HEAD as they were", None, diff_snapshots(before, after))
        git(tree, "reset", "-q", "--hard", "HEAD~1" if amended_bad else "HEAD")
        return r

    def merge_refused(self, hook_desc):
        """Concluding a merge (git merge --no-commit, then git commit): the
        reference is the first parent, so the branch's move is what is new."""
        tree = self.tree
        git(tree, "checkout", "-q", "-b", "side")
        line = move_count(self.header)
        git(tree, "commit", "-q", "--no-verify", "-am", "side: move count")
        git(tree, "checkout", "-q", "main")
        git(tree, "merge", "-q", "--no-ff", "--no-commit", "side")
        before = snapshot(tree)
        r = git(tree, "commit", "-q", "--no-edit", check=False)
        after = snapshot(tree)
        errors = errors_of(r.out + r.err)
        self.ok(r.rc != 0 and len(errors) == 1 and f"include/linux/conn.h:{line}:" in errors[0]
                and "against HEAD (" in r.err,
                f"{hook_desc}, git commit concluding a merge: compared with the first parent, "
                "the merged move is refused with its one finding", r)
        self.ok(before == after, f"{hook_desc}, merge: index, working tree, branches and HEAD "
                "as they were", None, diff_snapshots(before, after))
        git(tree, "merge", "--abort")
        git(tree, "branch", "-q", "-D", "side")

    def worktree_only(self, hook_desc):
        """The move in the working tree only, something else staged: what is
        committed has no move, so the commit goes through and the move stays."""
        tree = self.tree
        move_count(self.header)
        types = os.path.join(tree, "include", "linux", "types.h")
        with open(types, "a") as f:
            f.write("/* a staged comment */\n")
        git(tree, "add", "include/linux/types.h")
        head = git(tree, "rev-parse", "HEAD").out
        r = git(tree, "commit", "-q", "-m", "types.h: a comment", check=False)
        status = git(tree, "status", "--porcelain").out
        self.ok(r.rc == 0 and git(tree, "rev-parse", "HEAD").out != head and
                status.strip() == "M include/linux/conn.h" and not errors_of(r.out + r.err),
                f"{hook_desc}: a move in the working tree only, not staged, is not refused "
                "(what is committed has none); the move is still there, unstaged", r, status)
        git(tree, "reset", "-q", "--hard", "HEAD~1")

    def worktrees(self):
        return [ln for ln in git(self.tree, "worktree", "list", "--porcelain").out.splitlines()
                if ln.startswith("worktree ")]

    def passes(self, hook_desc, commit=("commit", "-q", "-am", "conn: a comment")):
        tree = self.tree
        edit(self.header, "\t/* line 0: read-mostly", "\t/* line 0: read-mostly, set at open,")
        head = git(tree, "rev-parse", "HEAD").out
        wts = self.worktrees()
        r = git(tree, *commit, check=False)
        self.ok(r.rc == 0 and git(tree, "rev-parse", "HEAD").out != head and
                not git(tree, "status", "--porcelain").out and self.worktrees() == wts,
                f"{hook_desc}: a comment-only change commits; worktrees unchanged", r,
                git(tree, "status", "--porcelain").out)

    def plain_hook(self):
        tree = self.tree
        # A worktree of the user's on a disk that is not mounted now: only
        # `git worktree prune` would drop it, and the script must not.
        git(tree, "worktree", "add", "-q", "--detach", os.path.join(self.work, "userwt"))
        shutil.rmtree(os.path.join(self.work, "userwt"))
        git(tree, "stash", "list")
        hook = os.path.join(tree, ".git", "hooks", "pre-commit")
        with open(hook, "w") as f:
            f.write(f"#!/bin/sh\nexec '{SCRIPT}' --layoutlint '{self.tool}' -- -q\n")
        os.chmod(hook, 0o755)
        # A commit of its own first, so that --amend has a parent to compare with.
        self.passes(".git/hooks/pre-commit")
        self.blocked("git commit -a", ["commit", "-q", "-am", "conn: move count"],
                     ".git/hooks/pre-commit")
        self.blocked("git add; git commit", ["add-then-commit", "commit", "-q", "-m", "move"],
                     ".git/hooks/pre-commit")
        self.blocked("staged only, working tree as HEAD", ["stage-only", "commit", "-q", "-m",
                                                           "move"], ".git/hooks/pre-commit")
        self.worktree_only(".git/hooks/pre-commit")
        self.blocked("git commit --amend -a", ["commit", "-q", "--amend", "-a", "--no-edit"],
                     ".git/hooks/pre-commit")
        self.blocked("git commit --amend of a commit made with --no-verify",
                     ["committed-then-amend", "commit", "-q", "--amend", "--no-edit"],
                     ".git/hooks/pre-commit")
        self.merge_refused(".git/hooks/pre-commit")
        self.passes(".git/hooks/pre-commit")
        wts = git(tree, "worktree", "list", "--porcelain").out
        self.ok(os.path.join(self.work, "userwt") in wts,
                "the user's worktree on a missing disk is still registered (never pruned)",
                None, wts)
        os.unlink(hook)

    def framework_hook(self):
        tree = self.tree
        if not shutil.which("pre-commit"):
            self.tap.skip("the pre-commit framework", "pre-commit is not installed")
            return
        rev = run(["git", "rev-parse", "HEAD"], cwd=TOP, env=ENV)
        if rev.rc != 0:
            self.tap.skip("the pre-commit framework", "the source is not a git clone")
            return
        # The framework clones this repository and runs the hook
        # .pre-commit-hooks.yaml offers: the committed script. The
        # configuration is the README's, as written, but for where this
        # repository is and, while it has no tag v0.1.0, its HEAD.
        with open(os.path.join(TOP, "README.md")) as f:
            readme = f.read()
        m = re.search(r"^## pre-commit\n.*?^```yaml\n(.*?)^```", readme, re.M | re.S)
        if not self.ok(m and "repos:" in m.group(1) and "/opt/layoutlint" in m.group(1),
                       "README's pre-commit snippet: a whole .pre-commit-config.yaml",
                       None, m.group(1) if m else "no ```yaml block under ## pre-commit"):
            return
        tagged = run(["git", "rev-parse", "-q", "--verify", "v0.1.0^{commit}"], cwd=TOP, env=ENV)
        config = m.group(1).replace("/opt/layoutlint", TOP)
        if tagged.rc != 0:
            config = config.replace("rev: v0.1.0", f"rev: {rev.out.strip()}")
        with open(os.path.join(tree, ".pre-commit-config.yaml"), "w") as f:
            f.write(config)
        git(tree, "add", ".pre-commit-config.yaml")
        git(tree, "commit", "-q", "--no-verify", "-m", "pre-commit configuration")
        env = dict(ENV, PRE_COMMIT_HOME=os.path.join(self.work, "pre-commit-home"))
        r = run(["pre-commit", "install"], cwd=tree, env=env, timeout=300)
        if not self.ok(r.rc == 0, "pre-commit install", r):
            return
        saved = dict(ENV)
        # As installed: layoutlint on PATH, no --layoutlint, no LAYOUTLINT.
        ENV.update(PRE_COMMIT_HOME=env["PRE_COMMIT_HOME"],
                   PATH=os.path.dirname(self.tool) + os.pathsep + ENV.get("PATH", ""))
        ENV.pop("LAYOUTLINT", None)
        try:
            r = self.blocked("git commit -a", ["commit", "-q", "-am", "conn: move count"],
                             "pre-commit framework")
            both = r.out + r.err
            self.ok("struct conn {" not in both and "moved:" not in both and
                    both.count("layoutlint: against HEAD (") == 1,
                    "pre-commit framework, the README's snippet (no args): quiet, the "
                    "diagnostics and one summary line, no listing", r)
            self.blocked("git add; git commit", ["add-then-commit", "commit", "-q", "-m", "mv"],
                         "pre-commit framework")
            self.passes("pre-commit framework")
            # Both mechanisms: a plain hook, then `pre-commit install` over
            # it (kept as pre-commit.legacy and run too): the script says so.
            run(["pre-commit", "uninstall"], cwd=tree, env=env, timeout=300)
            hook = os.path.join(tree, ".git", "hooks", "pre-commit")
            with open(hook, "w") as f:
                f.write(f"#!/bin/sh\nexec '{SCRIPT}' --layoutlint '{self.tool}'\n")
            os.chmod(hook, 0o755)
            r = run(["pre-commit", "install"], cwd=tree, env=env, timeout=300)
            edit(self.header, "\t/* line 0: read-mostly", "\t/* line 0: read-mostly (twice),")
            r = git(tree, "commit", "-q", "-am", "conn: a comment, hooked twice", check=False)
            self.ok(r.rc == 0 and "installed twice: .git/hooks/pre-commit.legacy" in r.err and
                    ".pre-commit-config.yaml both run it" in r.err,
                    "a plain hook and the pre-commit framework both installed: said, in one line "
                    "per run", r)
        finally:
            ENV.clear()
            ENV.update(saved)
        run(["pre-commit", "uninstall"], cwd=tree, env=env, timeout=300)
        hook = os.path.join(tree, ".git", "hooks", "pre-commit")
        if os.path.exists(hook):
            os.unlink(hook)

    # ---- SIGINT, a second run, --clean -----------------------------------------------------

    def interrupt_and_lock(self):
        tree = self.tree
        slow = ["--make-arg", "CC=sleep 4; cc"]
        self.script("fs/conn.o")	# the reference at HEAD, so only make is left to stop
        os.utime(self.header, None)
        before = snapshot(tree)
        p = subprocess.Popen([SCRIPT, "--layoutlint", self.tool, *slow, "fs/conn.o"], cwd=tree,
                             env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        time.sleep(1.5)
        t0 = time.monotonic()
        os.killpg(p.pid, signal.SIGINT)	# what Ctrl-C sends: the whole group
        try:
            out, err = p.communicate(timeout=30)
            took = time.monotonic() - t0
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            took = 99
        self.ok(p.returncode == 130 and "interrupted" in err.decode() and took < 5,
                f"SIGINT in the middle of make: exit 130 in {took:.1f} s", None,
                f"exit {p.returncode}\n{err.decode()}")
        self.ok(snapshot(tree) == before, "... index, working tree, stash, worktrees unchanged",
                None, diff_snapshots(before, snapshot(tree)))
        try:
            os.killpg(p.pid, signal.SIGKILL)	# a sleep the shell left behind
        except ProcessLookupError:
            pass
        r = self.script("fs/conn.o")
        self.ok(r.rc == 0 and not errors_of(r.out), "... and the next run is right", r)

        os.utime(self.header, None)
        procs = [subprocess.Popen([SCRIPT, "--layoutlint", self.tool, *slow, "fs/conn.o"],
                                  cwd=tree, env=ENV, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)]
        time.sleep(1)
        procs.append(subprocess.Popen([SCRIPT, "--layoutlint", self.tool, "fs/conn.o"], cwd=tree,
                                      env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        res = [(p.wait(timeout=120), *[s.decode() for s in p.communicate()]) for p in procs]
        self.ok(all(rc == 0 for rc, _, _ in res) and "waiting for it" in res[1][2] and
                res[0][1] == res[1][1],
                "two concurrent runs: the second waits for the first, both give the same answer",
                None, repr(res))

    def clean(self):
        tree = self.tree
        r = self.script("--clean")
        # --full-reference: the reference checked out in a kept worktree and built by make.
        r = self.script("--full-reference", "fs/conn.o")
        wts = git(tree, "worktree", "list", "--porcelain").out
        self.ok(r.rc == 0 and os.path.isfile(os.path.join(self.state, "base", "fs", "conn.o")) and
                os.path.isfile(os.path.join(self.state, "base", ".config")) and
                os.path.join(self.state, "base") in wts and "no worktree" not in r.err,
                "--full-reference: the reference is built by make in a kept worktree under "
                ".git/layoutlint-kernel, with .config", r, wts)
        r = self.script("--clean")
        wts = git(tree, "worktree", "list", "--porcelain").out
        self.ok(r.rc == 0 and not os.path.exists(self.state) and
                "layoutlint-kernel" not in wts and os.path.join(self.work, "userwt") in wts,
                "--clean removes its own worktrees and state, and only those", r, wts)
        r = self.script("fs/conn.o")
        self.ok(r.rc == 0 and os.path.isfile(self.base_obj), "after --clean, a run starts afresh",
                r)
        # Run in a linked worktree of the user's: HEAD is that worktree's.
        linked = os.path.join(self.work, "linked")
        shutil.rmtree(linked, ignore_errors=True)
        git(tree, "worktree", "add", "-q", "--detach", linked, "HEAD~1")
        shutil.copy(os.path.join(tree, ".config"), linked)
        want = git(linked, "rev-parse", "--short", "HEAD").out.strip()
        r = self.script("fs/conn.o", cwd=linked)
        self.ok(r.rc == 0 and f"against HEAD ({want})" in r.err and
                want != git(tree, "rev-parse", "--short", "HEAD").out.strip(),
                "in a linked worktree, the reference is that worktree's HEAD", r)
        git(tree, "worktree", "remove", "--force", linked)


if __name__ == "__main__":
    sys.exit(main())
