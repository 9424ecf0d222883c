#!/usr/bin/env python3
"""The smallest fix under --against and --baseline, on compiled fixtures.

usage: run_fix.py --layoutlint PATH --workdir DIR

struct fx (written here, compiled with gcc -g -c): read-mostly ops, name
and table with cold longs on line 0, write-hot hits and refs on line 1.
The change under review moves hits up after name (as the f_pos move did
in struct file). Checked:
  - --against: --suggest and --format=patch move exactly hits back; the
    patch applies (git apply), the patched file compiles, and its object
    has every offset of the reference; --relayout still proposes the whole
    re-layout; the summary says what moved;
  - a reference that already mixes a write-hot lock into line 0: the
    smallest fix moves hits back and says it leaves the lock's finding
    (text, JSON and the patch summary);
  - --baseline (no reference layout): one member moved, the old finding left;
  - nothing new: no patch, and a note saying why;
  - --relayout without --against/--baseline is a usage error (exit 2);
  - the kernel hook (scripts/layoutlint-kernel, --against its base build)
    on tests/gating/ktree with the README's change (count moved onto the
    read-mostly line): `-- --format=patch` gives the smallest fix, one
    member moved, which git apply takes and after which the hook passes;
  - --asserts on struct fy, which holds a spinlock_t (bigger under
    -DDEBUG_LOCKS, as lock debugging grows the kernel's) and a member under
    #ifdef CONFIG_X: the patch holds asserts, leaves out every one the lock
    or the #ifdef member before it makes config-dependent (one line each,
    naming it), and compiles in all four configurations; the asserts left
    out, put back, fail to compile with -DDEBUG_LOCKS (the control).
Output is TAP.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Lint, Tap, compile_c, parse_args, run  # noqa: E402

RULES = os.path.join(HERE, "fix.rules")


def source(move_hits, lock):
    """struct fx, as the reference (MOVE_HITS false) or after the change."""
    decl = ["\tconst void *ops;\t\t/* read-mostly */",
            "\tconst char *name;\t\t/* read-mostly */",
            "\tconst void *table;\t\t/* read-mostly */",
            "\tlong lock;\t\t\t/* write-hot */" if lock else "\tlong c0;",
            "\tlong c1;", "\tlong c2;", "\tlong c3;", "\tlong c4;",
            "\t/* line 1 */",
            "\tlong hits;\t\t\t/* write-hot */",
            "\tlong refs;\t\t\t/* write-hot */",
            "\tlong c5;"]
    if move_hits:
        hits = decl.pop(decl.index("\tlong hits;\t\t\t/* write-hot */"))
        decl.insert(2, hits)
    return ("/* SPDX-License-Identifier: GPL-2.0-or-later */\n"
            "/* Written by tests/fix/run_fix.py. */\n"
            "struct fx {\n" + "\n".join(decl) + "\n};\n\nstruct fx fx_v;\n")


def build(work, name, text):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "fx.c"), "w") as f:
        f.write(text)
    compile_c("gcc", "fx.c", "fx.o", cwd=d, flags=["-g", "-c"])
    return d


def offsets(lint, obj):
    rc, doc, err = lint.json("--format=json", "-r", RULES, obj, "struct", "fx")
    return {m["path"]: m["offset"] for m in doc["structs"][0]["members"]}


def moved_decls(patch):
    minus = [l[1:].strip() for l in patch.splitlines()
             if l.startswith("-") and not l.startswith("---") and l[1:].strip()]
    plus = [l[1:].strip() for l in patch.splitlines()
            if l.startswith("+") and not l.startswith("+++") and l[1:].strip()]
    return minus, plus


def suggestion(lint, *args, cwd=None):
    rc, doc, err = lint.json("--format=json", "--suggest", "-r", RULES, *args, "struct", "fx",
                             cwd=cwd)
    try:
        return doc["structs"][0]["suggestion"], err
    except (KeyError, IndexError, TypeError):
        return None, f"{doc} {err}"


def against_case(t, lint, work, lock):
    what = "a reference with a finding" if lock else "one member moved"
    ref = build(work, f"ref-{int(lock)}", source(False, lock))
    cur = build(work, f"cur-{int(lock)}", source(True, lock))
    ref_o = os.path.join(ref, "fx.o")
    ref_offs = offsets(lint, ref_o)
    t.ok(offsets(lint, os.path.join(cur, "fx.o")) != ref_offs,
         f"{what}: the change moves offsets", "")
    sg, err = suggestion(lint, "--against", ref_o, "fx.o", cwd=cur)
    if not t.ok(sg, f"{what}: --suggest --against gives a suggestion", err):
        return
    moved = [m["path"] for m in sg["members"] if m["moved"]]
    t.ok(moved == ["hits"] and sg["moved"] == 1,
         f"{what}: the smallest fix moves exactly hits", f"{moved} {sg['moved']}")
    sf = sg.get("smallest_fix") or {}
    leaves = sf.get("leaves", [])
    if lock:
        t.ok(sf.get("found") and sf.get("new_after") == 0 and len(leaves) == 1 and
             "lock" in leaves[0],
             f"{what}: it leaves the reference's finding, the lock's", str(sf))
    else:
        t.ok(sf.get("found") and sf.get("new_before", 0) >= 1 and sf.get("new_after") == 0 and
             not leaves, f"{what}: every new finding removed, nothing left", str(sf))
    whole, err = suggestion(lint, "--against", ref_o, "--relayout", "fx.o", cwd=cur)
    t.ok(whole and whole.get("smallest_fix") is None and whole["findings"] == 0 and
         (lock or whole["moved"] >= 1),
         f"{what}: --relayout gives the whole re-layout", f"{whole} {err}")
    rc, out, err = lint("--suggest", "-r", RULES, "--against", ref_o, "fx.o", "struct", "fx",
                        cwd=cur)
    t.ok("/* smallest fix: 1 of" in out and
         ("leaves (already in the reference): " in out) == lock,
         f"{what}: the text listing says smallest fix and what it leaves", out)
    rc, out, err = lint("--format=patch", "-r", RULES, "--against", ref_o, "fx.o",
                        "struct", "fx", cwd=cur)
    minus, plus = moved_decls(out)
    t.ok(len(minus) == 1 and len(plus) == 1 and "hits;" in minus[0] and "hits;" in plus[0],
         f"{what}: the patch moves one declaration, hits's", out + err)
    t.ok("layoutlint:   smallest fix: 1 member moved (hits)" in out and
         out.count("leaves (already in the reference)") == (1 if lock else 0),
         f"{what}: the patch summary names the move and what it leaves", out)
    with open(os.path.join(cur, "fix.patch"), "w") as f:
        f.write(out)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "init", "-q", cur], env=env, capture_output=True)
    r = run(["git", "apply", "fix.patch"], cwd=cur, env=env)
    if not t.ok(r.rc == 0, f"{what}: git apply takes the patch", r.err):
        return
    try:
        compile_c("gcc", "fx.c", "fx.o", cwd=cur, flags=["-g", "-c"])
    except Failure as e:
        t.ok(False, f"{what}: the patched file compiles", str(e))
        return
    got = offsets(lint, os.path.join(cur, "fx.o"))
    t.ok(got == ref_offs, f"{what}: the patched object has every reference offset",
         f"{got} vs {ref_offs}")


def baseline_case(t, lint, work):
    ref = build(work, "bl-ref", source(False, True))
    cur = build(work, "bl-cur", source(True, True))
    base = os.path.join(work, "fx.baseline")
    lint("-r", RULES, "--write-baseline", base, os.path.join(ref, "fx.o"), "struct", "fx")
    sg, err = suggestion(lint, "--baseline", base, "fx.o", cwd=cur)
    sf = (sg or {}).get("smallest_fix") or {}
    t.ok(sg and sg["moved"] == 1 and sf.get("found") and sf.get("new_after") == 0 and
         len(sf.get("leaves", [])) == 1 and "lock" in sf["leaves"][0],
         "--baseline: one member moved, the baseline's finding left", f"{sg} {err}")


def nothing_new(t, lint, work):
    ref = build(work, "same", source(False, True))
    rc, out, err = lint("--format=patch", "-r", RULES, "--against", "fx.o", "fx.o",
                        "struct", "fx", cwd=ref)
    t.ok("diff --git" not in out and "no finding the reference lacks: nothing to fix" in err,
         "nothing new: no patch, and the note says why", out + err)
    rc, out, err = lint("--relayout", "--suggest", "-r", RULES, "fx.o", "struct", "fx", cwd=ref)
    t.ok(rc == 2 and "--relayout needs --against or --baseline" in err,
         "--relayout alone is a usage error (exit 2)", f"exit {rc}: {err}")


ASSERTS_RULES = os.path.join(HERE, "asserts.rules")
FY = """/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Written by tests/fix/run_fix.py. */
#include <stddef.h>
#ifdef DEBUG_LOCKS
typedef struct { int raw; unsigned int magic, owner_cpu; void *owner; char dep_map[48]; } spinlock_t;
#else
typedef struct { int raw; } spinlock_t;
#endif

struct fy {
	long hits;			/* write-hot */
	const void *ops;		/* read-mostly */
	long c0;
	const void *table;		/* read-mostly */
	long c1;
	spinlock_t lock;		/* write-hot */
	long c2;
	long refs;			/* write-hot */
	const void *cfg;		/* read-mostly */
	long c3;
	long c4;
	long c5;
	long c6;
#ifdef CONFIG_X
	char x[64];
#endif
	long c7;
	const void *tail;		/* read-mostly */
};

struct fy fy_v;

struct fz {
	long hits;			/* write-hot */
	const void *ops;		/* read-mostly */
#ifdef CONFIG_X
	char x[64];
#endif
	long c0;
	long c1;
	long c2;
	long c3;
	long c4;
	long c5;
	long refs;			/* write-hot */
	const void *table;		/* read-mostly */
};

struct fz fz_v;
"""
CONFIGS = [[], ["-DDEBUG_LOCKS"], ["-DCONFIG_X"], ["-DDEBUG_LOCKS", "-DCONFIG_X"]]


def asserts_case(t, lint, work):
    d = build(work, "asserts", FY)
    os.replace(os.path.join(d, "fx.c"), os.path.join(d, "fy.c"))
    compile_c("gcc", "fy.c", "fy.o", cwd=d, flags=["-g", "-c"])
    rc, out, err = lint("--format=patch", "--asserts", "-r", ASSERTS_RULES, "fy.o", "struct", "fy",
                        cwd=d)
    rz, outz, errz = lint("--format=patch", "--asserts", "-r", ASSERTS_RULES, "fy.o", "struct",
                          "fz", cwd=d)
    mz = re.search(r"^layoutlint:   offsets:(.*)$", outz, re.M)
    offz = {k: int(v) for k, v in (x.split("@") for x in mz.group(1).split())} if mz else {}
    skz = re.findall(r"^layoutlint:   no static_assert for (\S+): (.*)$", outz, re.M)
    t.ok(skz and all("#if run before it (fy.c:" in why for _, why in skz) and
         any(l.startswith("+_Static_assert") for l in outz.splitlines()),
         "--asserts: after an #ifdef run compiled out here, the asserts are left out, naming "
         "its line", outz + errz)
    asserts = [l[1:] for l in out.splitlines() if l.startswith("+_Static_assert")]
    skipped = re.findall(r"^layoutlint:   no static_assert for (\S+): (.*)$", out, re.M)
    t.ok(asserts and skipped, "--asserts: some asserts written, some left out", out + err)
    m = re.search(r"^layoutlint:   offsets:(.*)$", out, re.M)
    offs = {k: int(v) for k, v in (x.split("@") for x in m.group(1).split())} if m else {}
    # Whatever comes after the lock or the #ifdef run in the new order is left out, naming it.
    lock_at = offs.get("lock", -1)
    bad = [(n, why) for n, why in skipped
           if not (("lock before it has a spinlock_t" in why and offs.get(n, -1) > lock_at) or
                   "#if" in why)]
    t.ok(offs and not bad, "--asserts: each left-out assert names the lock or the #if before it",
         f"{bad}\n{out}")
    written = [re.search(r"\(struct fy, (\w+)\)", a).group(1) for a in asserts]
    t.ok(all(offs[n] <= lock_at for n in written if n in offs),
         "--asserts: only members before the lock are asserted", f"{written} {offs}")
    with open(os.path.join(d, "asserts.patch"), "w") as f:
        f.write(out)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "init", "-q", d], env=env, capture_output=True)
    r = run(["git", "apply", "asserts.patch"], cwd=d, env=env)
    if not t.ok(r.rc == 0, "--asserts: git apply takes the patch", r.err):
        return
    for flags in CONFIGS:
        r = run(["gcc", "-c", *flags, "fy.c", "-o", "fy-cfg.o"], cwd=d)
        t.ok(r.rc == 0, f"--asserts: the patched file compiles with {flags or 'no -D'}", r.err)
    # The control: the left-out asserts are false in some configuration.
    with open(os.path.join(d, "fy.c")) as f:
        text = f.read()
    extra = "".join(f"_Static_assert(offsetof(struct fy, {n}) / 64 == {offs[n] // 64}, \"{n}\");\n"
                    for n, _ in skipped if n in offs)
    with open(os.path.join(d, "fy-control.c"), "w") as f:
        f.write(text + extra)
    fails = [flags for flags in CONFIGS[1:]
             if run(["gcc", "-c", *flags, "fy-control.c", "-o", "fy-control.o"], cwd=d).rc != 0]
    t.ok(fails, "control: the asserts left out break some configuration", extra)
    # struct fz's patch on the pristine file: builds with and without CONFIG_X, and its
    # left-out asserts, put back, do not.
    with open(os.path.join(d, "fy.c"), "w") as f:
        f.write(FY)
    with open(os.path.join(d, "fz.patch"), "w") as f:
        f.write(outz)
    r = run(["git", "apply", "fz.patch"], cwd=d, env=env)
    if t.ok(r.rc == 0, "--asserts, struct fz: git apply takes the patch", r.err):
        for flags in ([], ["-DCONFIG_X"]):
            r = run(["gcc", "-c", *flags, "fy.c", "-o", "fy-cfg.o"], cwd=d)
            t.ok(r.rc == 0, f"--asserts, struct fz: compiles with {flags or 'no -D'}", r.err)
        with open(os.path.join(d, "fy.c")) as f:
            text = f.read()
        extra = "".join(f"_Static_assert(offsetof(struct fz, {n}) / 64 == {offz[n] // 64}, "
                        f"\"{n}\");\n" for n, _ in skz if n in offz)
        with open(os.path.join(d, "fz-control.c"), "w") as f:
            f.write(text + extra)
        r = run(["gcc", "-c", "-DCONFIG_X", "fz-control.c", "-o", "fz-control.o"], cwd=d)
        t.ok(r.rc != 0, "control: struct fz's left-out asserts break CONFIG_X", extra)


def hook_case(t, lint, work):
    top = os.path.abspath(os.path.join(HERE, "..", ".."))
    k = os.path.join(work, "ktree")
    shutil.rmtree(k, ignore_errors=True)
    shutil.copytree(os.path.join(top, "tests", "gating", "ktree"), k)
    env = {kk: v for kk, v in os.environ.items() if not kk.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    for cmd in (["init", "-q"], ["add", "-A"], ["-c", "commit.gpgsign=false", "commit", "-qm",
                                                "base"]):
        run(["git", *cmd], cwd=k, env=env, check=True)
    h = os.path.join(k, "include", "linux", "conn.h")
    with open(h) as f:
        text = f.read()
    text = text.replace("_Alignas(64) long count;", "_Alignas(64) long spare;")
    text = re.sub(r"^\tconn_stat_t stat;$", "\tconn_stat_t stat;\n\tlong count;", text, flags=re.M)
    with open(h, "w") as f:
        f.write(text)
    hook = [os.path.join(top, "scripts", "layoutlint-kernel"), "--layoutlint", lint.tool,
            "fs/conn.o"]
    r = run([*hook, "--", "--format=patch"], cwd=k, env=env, timeout=300)
    minus, plus = moved_decls(r.out)
    t.ok(r.rc == 1 and "smallest fix: 1 member moved (count)" in r.out and
         minus == ["long count;"] and plus == ["long count;"],
         "hook -- --format=patch: the smallest fix moves count alone", r.out + r.err)
    with open(os.path.join(k, "fix.patch"), "w") as f:
        f.write(r.out)
    a = run(["git", "apply", "fix.patch"], cwd=k, env=env)
    os.unlink(os.path.join(k, "fix.patch"))
    r = run(hook, cwd=k, env=env, timeout=300)
    t.ok(a.rc == 0 and r.rc == 0, "hook: after git apply of the fix, the change passes",
         a.err + r.out + r.err)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    t = Tap()
    work = os.path.abspath(a.workdir)
    os.makedirs(work, exist_ok=True)
    lint = Lint(a.layoutlint, args=["--color=never"])
    try:
        against_case(t, lint, work, lock=False)
        against_case(t, lint, work, lock=True)
        baseline_case(t, lint, work)
        nothing_new(t, lint, work)
        asserts_case(t, lint, work)
        hook_case(t, lint, work)
    except Failure as e:
        t.ok(False, "could not run a step", str(e))
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
