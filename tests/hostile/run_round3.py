#!/usr/bin/env python3
"""Hostile input, round three (issue 40), one check per class (TAP):
  - a DWARF 5 unit whose unit_type byte is 0 (or any value no DWARF 5 unit
    type has) is one error line naming the unit and its offset, exit 2, in
    both scan paths (raw, LAYOUTLINT_SCAN=libdw), never a silent drop;
  - a struct claiming 64 GiB is refused before anything is allocated for
    it: one line, exit 2, whatever the output; --list and --audit show it
    as a row (issue 41: one refusal never hides the others);
  - SIGPIPE: a closed reader is an output error, its temporaries removed;
  - 'struct stats' as one word: keyword and name are separate words;
  - JSON and SARIF sample counts are exact integers;
  - --write-rules never writes a member name that is no C identifier as a pattern;
  - an output path that is also an input is refused;
  - --import-net-cachelines and --profile are linear in their rows;
  - --format=patch: the member limit before mapping, never a file outside
    --srcdir, hunks git apply takes for a file without a final newline, no
    promise for a header whose declarations differ from the build's types;
  - scripts/layoutlint-kernel: paths with a space and '[' are data, every git
    failure is exit 2 with git's message, --clean removes only its own.

usage: run_round3.py --layoutlint PATH --workdir DIR
"""
import functools
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import lib  # noqa: E402
from lib import Tap, parse_args  # noqa: E402

TIMEOUT = 120


# lib's run, its output left as bytes: the names under test are not UTF-8.
run = functools.partial(lib.run, binary=True, timeout=TIMEOUT)


def gcc(workdir, name, sources, flags=()):
    srcs = []
    for i, text in enumerate(sources):
        path = os.path.join(workdir, "%s%d.c" % (name, i))
        with open(path, "w") as f:
            f.write(text)
        srcs.append(path)
    exe = os.path.join(workdir, name)
    subprocess.run(["gcc", "-g", "-O0"] + list(flags) + srcs + ["-o", exe], check=True)
    return exe


def section(path, name):
    """(file offset, size) of section NAME of the ELF file PATH."""
    out = subprocess.run(["readelf", "-S", "-W", path], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    for line in out.splitlines():
        if "] " + name + " " in line:
            f = line.split("]")[1].split()
            return int(f[3], 16), int(f[4], 16)
    raise SystemExit("Bail out! no %s in %s" % (name, path))


def units(data, off, size):
    """Offsets of the 32-bit DWARF units of .debug_info at OFF (SIZE bytes)."""
    at, out = 0, []
    while at < size:
        out.append(at)
        at += 4 + int.from_bytes(data[off + at:off + at + 4], "little")
    return out


def check_unit_type(tap, tool, workdir, env):
    exe = gcc(workdir, "ut", ["struct ut_a { int a; long b; }; struct ut_a ga;\n",
                              "struct ut_b { int x; char y[100]; }; struct ut_b gb;\n"
                              "int main(void) { return 0; }\n",
                              "struct ut_c { int q; }; struct ut_c gc;\n"], ["-gdwarf-5"])
    data = open(exe, "rb").read()
    off, size = section(exe, ".debug_info")
    us = units(data, off, size)
    tap.ok(len(us) >= 3, "the fixture has a unit per file", us)
    for k, u in enumerate(us[:3]):
        for value in (0, 0x7f):
            bad = bytearray(data)
            assert bad[off + u + 4] == 5, "not DWARF 5"
            bad[off + u + 6] = value
            path = os.path.join(workdir, "ut-%d-%x" % (k, value))
            open(path, "wb").write(bad)
            for scan in ("raw", "libdw"):
                for args in (["--list"], ["struct", "ut_b"]):
                    argv = [tool, "--no-cache"] + (args[:1] + [path] if args == ["--list"]
                                                     else [path] + args)
                    p = run(argv, env=dict(env, LAYOUTLINT_SCAN=scan))
                    err = p.stderr.decode(errors="replace")
                    tap.ok(p.returncode == 2 and "unit_type 0x%02x" % value in err and
                           "offset 0x%x" % u in err and len(err.splitlines()) == 1,
                           "unit %d with unit_type 0x%02x, %s scan, %s: one line naming the "
                           "unit, exit 2" % (k, value, scan, " ".join(args)),
                           "exit %d: %s" % (p.returncode, err))


def check_claimed_size(tap, tool, workdir, env):
    exe = gcc(workdir, "big", ["struct big { long hot; char arr[(1UL << 36) - 16]; long t; };\n"
                               "struct big *gp;\n"
                               "struct small { int a; }; struct small gs;\n"
                               "int main(void) { return 0; }\n"])
    ref = run([tool, "--no-cache", exe, "big"], env=env)
    want = ref.stderr.decode(errors="replace")
    tap.ok(ref.returncode == 2 and "claims 68719476736 bytes" in want and
           want.count("\n") == 1, "a lookup refuses a struct claiming 64 GiB in one line", want)
    listed = run([tool, "--no-cache", "--list", exe], env=env)
    out = listed.stdout.decode(errors="replace")
    tap.ok(listed.returncode == 0 and "68719476736" in out and "small" in out,
           "--list shows it as a row (its members cost, not its bytes), beside the others", out)
    for glob in ("*", "big"):
        p = run([tool, "--no-cache", "--audit=" + glob, exe], env=env)
        out = p.stdout.decode(errors="replace")
        tap.ok(p.returncode == 0 and "claims 68719476736 bytes" in out and "?  big: not laid out"
               in out, "--audit=%s: a row saying it is not laid out, exit 0" % glob,
               "exit %d: %s%s" % (p.returncode, out, p.stderr.decode(errors="replace")))
    for args in (["--format=patch", exe, "big"], ["--suggest", exe, "big"],
                 ["--format=json", exe, "big"], ["--format=html", exe, "big"]):
        p = run([tool, "--no-cache"] + args, env=env)
        err = p.stderr.decode(errors="replace")
        tap.ok(p.returncode == 2 and err == want,
               "%s on a struct claiming 64 GiB: the lookup's line, exit 2"
               % " ".join(a for a in args if a != exe), "exit %d: %s" % (p.returncode, err))


def check_sigpipe(tap, tool, workdir, env):
    """A reader that went away: exit 2 with a line, the old baseline kept, no temporary left."""
    exe = gcc(workdir, "pipe", ["struct conn { long hits; int mode; long misses; };\n"
                                "struct conn gconn;\nint main(void) { return 0; }\n"])
    rules = os.path.join(workdir, "pipe.rules")
    open(rules, "w").write("struct conn\n\tread-mostly mode\n\twrite-hot hits\n")
    bdir = os.path.join(workdir, "pipe-baseline")
    os.makedirs(bdir)
    base = os.path.join(bdir, "baseline.json")
    old = b'{\n  "format": 1,\n  "pairs": []\n}\n'
    open(base, "wb").write(old)
    r, w = os.pipe()
    os.close(r)
    p = run([tool, "--no-cache", "-r", rules, "--write-baseline=" + base, exe], env=env,
            stdout=w)
    os.close(w)
    err = p.stderr.decode(errors="replace")
    tap.ok(p.returncode == 2 and "Broken pipe" in err and os.listdir(bdir) == ["baseline.json"]
           and open(base, "rb").read() == old,
           "stdout a pipe nobody reads: exit 2 with a line, no temporary file, the old baseline",
           "exit %d, left %r: %s" % (p.returncode, os.listdir(bdir), err))


def check_one_word(tap, tool, workdir, env):
    exe = gcc(workdir, "word", ["struct stats { long a; }; struct stats gs;\n"
                                "int main(void) { return 0; }\n"])
    for word in ("struct stats", "union stats", "struct\tstats"):
        p = run([tool, "--no-cache", exe, word], env=env)
        err = p.stderr.decode(errors="replace")
        tap.ok(p.returncode == 2 and "keyword and name are separate words" in err,
               "%r as one word: keyword and name are separate words" % word,
               "exit %d: %s" % (p.returncode, err))


PROFILE = """# Samples: 2M of event 'cpu/mem-loads/P'
# Overhead       Samples  Data Type  Data Type Offset
# ........  ............  .........  ................
#
    60.00%       1234567  struct conn  struct conn +0 (hits)
    40.00%        822978  struct conn  struct conn +0x8 (mode)
"""


def check_exact_counts(tap, tool, workdir, env):
    """docs/cli.md promises measured sample counts exactly: %.6g made 1234567 1.23457e+06."""
    exe = gcc(workdir, "count", ["struct conn { long hits; int mode; long misses; };\n"
                                 "struct conn gconn;\nint main(void) { return 0; }\n"])
    prof = os.path.join(workdir, "count.txt")
    open(prof, "w").write(PROFILE)
    rules = os.path.join(workdir, "count.rules")
    open(rules, "w").write("struct conn\n\tread-mostly mode\n\twrite-hot hits\n")
    for fmt in ("json", "sarif"):
        p = run([tool, "--no-cache", "-r", rules, "--profile", prof, "--format=" + fmt, exe],
                env=env)
        out = p.stdout.decode(errors="replace")
        doc = json.loads(out) if p.returncode in (0, 1) else None
        counts = []

        def walk(x):
            if isinstance(x, dict):
                for k, v in x.items():
                    if k in ("samples", "measured_samples", "reads"):
                        counts.append(v)
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(doc)
        tap.ok(1234567 in counts and "e+06" not in out and
               all(isinstance(c, int) for c in counts),
               "--format=%s: measured sample counts are exact integers" % fmt,
               "exit %d, counts %r" % (p.returncode, counts[:6]))


# placeholder -> a member name no compiler accepts, of the same length
MEMBER_NAMES = {b"QQstar": b"**star", b"Qflags": b"?flags", b"aQb": b"a b", b"xQy": b"x.y"}
NAMES_PROFILE = """# Samples: 1K of event 'cpu/mem-stores/P'
# Overhead       Samples  Data Type  Data Type Offset
# ........  ............  .........  ................
#
    25.00%           250  struct wr  struct wr +0 (m)
    25.00%           250  struct wr  struct wr +0x8 (m)
    25.00%           250  struct wr  struct wr +0x10 (m)
    25.00%           250  struct wr  struct wr +0x18 (m)
"""


def check_written_names(tap, tool, workdir, env):
    """--write-rules never writes a member name as a pattern that reads back as another."""
    exe = gcc(workdir, "wr", ["struct wr { long QQstar; long Qflags; long aQb; long xQy;\n"
                              "  long cold1; };\nstruct wr gwr;\n"
                              "int main(void) { return 0; }\n"])
    data = open(exe, "rb").read()
    for old, new in MEMBER_NAMES.items():
        if data.count(old) != 1:
            raise SystemExit("Bail out! %r is in the binary %d times, not once"
                             % (old, data.count(old)))
        data = data.replace(old, new)
    open(exe, "wb").write(data)
    prof = os.path.join(workdir, "wr.txt")
    open(prof, "w").write(NAMES_PROFILE)
    out = os.path.join(workdir, "wr.rules")
    p = run([tool, "--no-cache", "--profile", prof, "--write-rules", out, exe], env=env)
    text = open(out).read() if os.path.exists(out) else ""
    stmts = [ln.split("#")[0].split() for ln in text.splitlines()
             if ln.startswith("\t") and not ln.strip().startswith("#")]
    words = [w for st in stmts for w in st[1:]]
    bad = [w for w in words if w in ("**star", "?flags", "a", "b", "x.y")]
    tap.ok(p.returncode in (0, 1) and not bad and text.count("# not written") == 4,
           "--write-rules: member names that are no C identifiers are noted, never patterns",
           "exit %d, patterns %r: %s%s" % (p.returncode, words, text,
                                          p.stderr.decode(errors="replace")))
    q = run([tool, "--no-cache", "-r", out, exe], env=env)
    tap.ok(q.returncode in (0, 1), "the rules written read back",
           q.stderr.decode(errors="replace"))


def check_output_onto_input(tap, tool, workdir, env):
    """An output that is also an input is refused, the input untouched."""
    exe = gcc(workdir, "oi", ["struct conn { long hits; int mode; long misses; };\n"
                              "struct conn gconn;\nint main(void) { return 0; }\n"])
    rules = os.path.join(workdir, "oi.rules")
    open(rules, "w").write("struct conn\n\tread-mostly mode\n\twrite-hot hits\n")
    link = os.path.join(workdir, "oi-link.rules")
    os.symlink(rules, link)
    prof = os.path.join(workdir, "oi.txt")
    open(prof, "w").write(PROFILE)
    cases = (("--write-baseline onto the rules file", ["-r", rules, "--write-baseline=" + rules]),
             ("--write-baseline onto a link to the rules file",
              ["-r", rules, "--write-baseline=" + link]),
             ("--html onto the binary", ["-r", rules, "--html=" + exe]),
             ("--write-rules onto the profile", ["--profile", prof, "--write-rules", prof]),
             ("--write-rules onto the binary", ["--profile", prof, "--write-rules", exe]))
    for what, args in cases:
        before = {f: open(f, "rb").read() for f in (rules, exe, prof)}
        p = run([tool, "--no-cache"] + args + [exe], env=env)
        err = p.stderr.decode(errors="replace")
        after = {f: open(f, "rb").read() for f in (rules, exe, prof)}
        tap.ok(p.returncode == 2 and "an input of this run" in err and before == after,
               "%s: refused, exit 2, the input untouched" % what,
               "exit %d: %s" % (p.returncode, err))
    base = os.path.join(workdir, "oi-baseline.json")
    p = run([tool, "--no-cache", "-r", rules, "--write-baseline=" + base, exe], env=env)
    q = run([tool, "--no-cache", "-r", rules, "--baseline", base, "--write-baseline=" + base, exe],
            env=env)
    tap.ok(p.returncode == 1 and q.returncode == 0,
           "--write-baseline onto --baseline's own file still refreshes it",
           q.stderr.decode(errors="replace"))


def cpu_run(argv, env, out_path):
    """Run ARGV with stdout to OUT_PATH: (exit status, CPU seconds, stderr)."""
    with open(out_path, "wb") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env)
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_utime + usage.ru_stime, err.decode(errors="replace")


RULER = "=" * 29 + " " + "=" * 23 + " " + "=" * 19 + " " + "=" * 19 + " " + "=" * 42 + "\n"


def check_linear_importers(tap, tool, workdir, env):
    """80,000 rows: a scan of every earlier row per row took 8-48 s; now well under a second
    (limits in CPU seconds, so a busy machine does not fail them; ASan is ~3x slower)."""
    rows = "".join("u32".ljust(30) + ("m%d" % i).ljust(24) + "read_mostly".ljust(20) +
                   "read_write".ljust(20) + "f%d\n" % i for i in range(80000))
    rst = os.path.join(workdir, "big.rst")
    open(rst, "w").write("big struct fast path usage breakdown\n" + "=" * 36 + "\n\n" + RULER +
                         "Type".ljust(30) + "Name".ljust(24) + "fastpath_tx_access  "
                         "fastpath_rx_access  Comments\n" + RULER + rows + RULER)
    rc, cpu, err = cpu_run([tool, "--import-net-cachelines", rst], env,
                           os.path.join(workdir, "big.rules"))
    written = open(os.path.join(workdir, "big.rules")).read()
    tap.ok(rc == 0 and cpu < 3 and written.count("read-mostly") + written.count("write-hot") >=
           80000, "--import-net-cachelines, 80,000 rows: %.2f CPU s (under 3)" % cpu,
           "exit %d: %s" % (rc, err[-500:]))
    exe = gcc(workdir, "prof80k", ["struct one { long a; }; struct one g;\n"
                                   "int main(void) { return 0; }\n"])
    prof = os.path.join(workdir, "types80k.txt")
    open(prof, "w").write(
        "# Samples: 80K of event 'cpu/mem-stores/P'\n"
        "# Overhead       Samples  Data Type  Data Type Offset\n"
        "# ........  ............  .........  ................\n#\n" +
        "".join("     0.00%%            %d  struct t%d  struct t%d +0 (x)\n" % (i + 1, i, i)
                for i in range(80000)))
    rc, cpu, err = cpu_run([tool, "--no-cache", "--profile", prof, exe], env,
                           os.path.join(workdir, "types80k.out"))
    tap.ok(rc == 0 and cpu < 3,
           "--profile naming 80,000 types, none defined: %.2f CPU s (under 3)" % cpu,
           "exit %d: %s" % (rc, err[-500:]))


def git_apply_check(tree, patch_text):
    path = os.path.join(tree, "p.diff")
    open(path, "w").write(patch_text)
    p = run(["git", "-C", tree, "apply", "--check", path])
    return p.returncode, p.stderr.decode(errors="replace")


def check_patches(tap, tool, workdir, env):
    """--format=patch: the member limit before mapping; never a file outside --srcdir;
    hunks git apply takes for a file without a final newline."""
    wide = os.path.join(workdir, "wide")
    os.makedirs(wide)
    open(os.path.join(wide, "h.h"), "w").write(
        "struct wide {\n" + "".join("\tchar c%d;\n\tlong l%d;\n" % (i, i)
                                    for i in range(50000)) + "};\n")
    open(os.path.join(wide, "m.c"), "w").write('#include "h.h"\nstruct wide gw;\n'
                                               "int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-g", "-o", "m", "m.c"], cwd=wide, check=True)
    rc, cpu, err = cpu_run([tool, "--no-cache", "--format=patch", "--srcdir", wide,
                            os.path.join(wide, "m"), "struct", "wide"], env,
                           os.path.join(workdir, "wide.patch"))
    tap.ok(rc == 2 and "more than the 4096" in err and cpu < 1.5,
           "--format=patch, 100,000 members: the limit before the source is mapped "
           "(%.2f CPU s)" % cpu, "exit %d: %s" % (rc, err))

    # -fdebug-prefix-map=$PWD=. in tree/build: the header is ../inc/h.h.
    tree = os.path.join(workdir, "esc", "tree")
    os.makedirs(os.path.join(tree, "inc"))
    os.makedirs(os.path.join(tree, "build"))
    build = os.path.join(tree, "build")
    open(os.path.join(tree, "inc", "h.h"), "w").write(
        "struct esc {\n\tchar a;\n\tlong b;\n\tchar c;\n};\n")
    open(os.path.join(build, "m.c"), "w").write('#include "../inc/h.h"\nstruct esc ge;\n'
                                                "int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-g", "-fdebug-prefix-map=%s=." % build, "-o", "m", "m.c"],
                   cwd=build, check=True)
    p = run([tool, "--no-cache", "--format=patch", "--srcdir", ".", "m", "struct", "esc"],
            env=env, cwd=build)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    tap.ok(p.returncode == 0 and "diff --git" not in out and "../" not in out and
           "declared outside" in err,
           "--format=patch never patches a file outside --srcdir ('..' in its path)",
           "exit %d: %s%s" % (p.returncode, out, err))

    nl = os.path.join(workdir, "nl")
    os.makedirs(nl)
    run(["git", "init", "-q", nl])
    open(os.path.join(nl, "m.c"), "w").write('#include "h.h"\nstruct nl gn;\n'
                                             "int main(void) { return 0; }\n")
    open(os.path.join(nl, "r.rules"), "w").write("struct nl\n\tread-mostly a\n\twrite-hot d\n")
    for what, body, extra in (
            ("the closing line as context", "struct nl {\n\tchar a;\n\tlong b;\n\tchar c;\n"
             "\tlong d;\n};", ["struct", "nl"]),
            ("the closing line changed (--asserts)", "struct nl {\n\tchar a;\n\tlong b;\n"
             "\tchar c;\n\tlong d;\n};", ["-r", "r.rules", "--asserts"])):
        open(os.path.join(nl, "h.h"), "w").write(body)
        subprocess.run(["gcc", "-g", "-o", "m", "m.c"], cwd=nl, check=True)
        p = run([tool, "--no-cache", "--format=patch", "--srcdir", "."] +
                [a for a in extra if a.startswith("-") or a == "r.rules"] + ["m"] +
                [a for a in extra if not a.startswith("-") and a != "r.rules"],
                env=env, cwd=nl)
        out = p.stdout.decode(errors="replace")
        rc, err = git_apply_check(nl, out)
        tap.ok("@@" in out and rc == 0,
               "a header without a final newline, %s: git apply takes the hunk" % what,
               "apply %d: %s\n%s%s" % (rc, err, out, p.stderr.decode(errors="replace")))

    # A header edited after the build: the same names on the same lines, other types.
    edited = os.path.join(workdir, "edited")
    os.makedirs(edited)
    open(os.path.join(edited, "m.c"), "w").write('#include "h.h"\nstruct ed ge;\n'
                                                 "int main(void) { return 0; }\n")
    built = "struct ed {\n\tchar a;\n\tlong b;\n\tchar c;\n\tunsigned int f:3;\n\tlong d;\n};\n"
    open(os.path.join(edited, "h.h"), "w").write(built)
    subprocess.run(["gcc", "-g", "-o", "m", "m.c"], cwd=edited, check=True)
    p = run([tool, "--no-cache", "--format=patch", "--srcdir", ".", "m", "struct", "ed"],
            env=env, cwd=edited)
    tap.ok(p.returncode == 0 and "diff --git" in p.stdout.decode(),
           "the header as built: a patch", p.stderr.decode(errors="replace"))
    for old_decl, new_decl in (("\tchar a;", "\tlong a;"), ("\tlong b;", "\tlong *b;"),
                               ("\tchar c;", "\tchar c[8];"), ("f:3;", "f:5;")):
        open(os.path.join(edited, "h.h"), "w").write(built.replace(old_decl, new_decl))
        p = run([tool, "--no-cache", "--format=patch", "--srcdir", ".", "m", "struct", "ed"],
                env=env, cwd=edited)
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        tap.ok("diff --git" not in out and "offsets:" not in err and
               "the source differs from the build" in err,
               "a header edited after the build (%r -> %r): no patch, a note saying the source "
               "differs from the build" % (old_decl.strip(), new_decl.strip()),
               "exit %d: %s%s" % (p.returncode, out, err))


SCRIPT = os.path.join(HERE, "..", "..", "scripts", "layoutlint-kernel")
KTREE = os.path.join(HERE, "..", "gating", "ktree")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@layoutlint.invalid",
       "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]


def check_hook(tap, tool, workdir, env):
    """scripts/layoutlint-kernel: paths are data, every git failure is exit 2 with git's
    words, --clean removes only what it created."""
    for t in ("git", "make", "cc", "awk", "flock"):
        if not shutil.which(t):
            tap.skip("the kernel hook", "no " + t)
            return
    env = {k: v for k, v in env.items() if not k.startswith("GIT_")}
    parent = os.path.join(workdir, "k tree [1]")
    tree = os.path.join(parent, "ktree")
    shutil.copytree(KTREE, tree)
    open(os.path.join(tree, ".gitignore"), "w").write("*.o\n.*.cmd\n.config\n")
    open(os.path.join(tree, ".config"), "w").write("CONFIG_CONN_DEBUG=y\n")

    def git(*args, cwd=tree):
        return run(GIT + list(args), env=env, cwd=cwd)

    def script(*args, cwd=tree):
        p = run([SCRIPT, "--layoutlint", tool] + list(args), env=env, cwd=cwd)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "struct conn")
    # The user's own worktree called base, made first: git names ours base1.
    user_wt = os.path.join(parent, "base")
    git("worktree", "add", "-q", "--detach", user_wt, "HEAD")
    open(os.path.join(user_wt, "staged.txt"), "w").write("the user's staged work\n")
    git("add", "staged.txt", cwd=user_wt)
    run(["make", "fs/conn.o", "fs/conn_stats.o"], env=env, cwd=tree, check=True)
    header = os.path.join(tree, "include", "linux", "conn.h")
    text = open(header).read()
    assert "\tconn_stat_t stat;\n" in text and "\t_Alignas(64) long count;\n\tlong bytes;\n" in text
    text = text.replace("\tconn_stat_t stat;\n", "\tconn_stat_t stat;\n\tlong count;\n")
    text = text.replace("\t_Alignas(64) long count;\n\tlong bytes;\n", "\t_Alignas(64) long bytes;\n")
    open(header, "w").write(text)
    for run_no in (1, 2):
        rc, out, err = script()
        picked = [ln for ln in err.splitlines() if "linting " in ln]
        tap.ok(rc == 1 and len([ln for ln in out.splitlines() if ": error:" in ln]) == 1 and
               picked and ".git" not in picked[0],
               "a tree whose path holds a space and '[' (run %d): objects picked from the "
               "tree, never from the hook's own state, one new finding" % run_no,
               "exit %d\n%s\n%s" % (rc, out, err))
    for args, what in ((["--base", "no-such-rev"], "a misspelt --base"),
                       (["--new", "no-such-rev"], "a misspelt --new")):
        rc, out, err = script(*args)
        tap.ok(rc == 2 and "no-such-rev" in err and ("fatal" in err or "Needed" in err),
               "%s, no OBJ: exit 2 with git's message, never 'nothing to lint'" % what,
               "exit %d: %s" % (rc, err))
    rc, out, err = script("--base", "no-such-rev", "fs/conn.o")
    tap.ok(rc == 2 and len(err.splitlines()) == 1 and "no-such-rev" in err,
           "a misspelt --base with an OBJ: one line with git's message, exit 2",
           "exit %d: %s" % (rc, err))
    unborn = os.path.join(parent, "unborn")
    shutil.copytree(KTREE, unborn)
    git("init", "-q", cwd=unborn)
    rc, out, err = script(cwd=unborn)
    tap.ok(rc == 2 and "HEAD" in err and "nothing to lint" not in err,
           "HEAD with no commit yet, no OBJ: exit 2 with git's message",
           "exit %d: %s" % (rc, err))
    # Our worktree locked, so git worktree remove --force refuses it: --clean must
    # not then take git's 'base' (the user's) for ours.
    state = os.path.join(tree, ".git", "layoutlint-kernel")
    script("--full-reference", "fs/conn.o")	# a worktree, not the files the object reads
    lock = git("worktree", "lock", os.path.join(state, "base"))
    tap.ok(lock.returncode == 0 and not os.path.isdir(os.path.join(tree, ".git", "worktrees",
                                                                 "base", "locked")),
           "the hook's worktree exists, and git named its metadata other than 'base'",
           lock.stderr.decode(errors="replace"))
    rc, out, err = script("--clean")
    wts = git("worktree", "list", "--porcelain").stdout.decode()
    st = git("status", "--porcelain", cwd=user_wt)
    tap.ok(rc == 0 and os.path.isdir(os.path.join(tree, ".git", "worktrees", "base")) and
           "worktree " + user_wt in wts and st.returncode == 0 and
           b"A  staged.txt" in st.stdout and not os.path.exists(state),
           "--clean removes only what the hook created: the user's worktree 'base' and its "
           "staged work stay", "exit %d: %s\n%s\n%s" % (rc, err, wts, st.stdout))


COMPLETION = os.path.join(HERE, "..", "..", "completions", "layoutlint.bash")


def check_completion_trust(tap, tool, workdir, env):
    """Completion names come only from a list the user owns in a directory only the
    user can write, and layoutlint writes none elsewhere."""
    exe = gcc(workdir, "compl", ["struct compl_one { int a; }; struct compl_one g1;\n"
                                 "int main(void) { return 0; }\n"])
    cache = os.path.join(workdir, "compl-cache")
    cenv = dict(env, XDG_CACHE_HOME=cache,
                PATH=os.path.dirname(tool) + ":" + os.environ.get("PATH", ""))
    p = run([tool, "--list=*", exe], env=cenv)
    d = os.path.join(cache, "layoutlint")
    names = [f for f in os.listdir(d) if f.endswith(".names")] if os.path.isdir(d) else []
    script = ('source "$1"\nCOMP_WORDS=(layoutlint "$2" struct "$3"); COMP_CWORD=3\n'
              '_layoutlint\nprintf "%s\\n" "${COMPREPLY[@]}"\n')

    def offered():
        q = run(["bash", "--norc", "--noprofile", "-c", script, "bash", COMPLETION, exe,
                 "compl"], env=cenv)
        return [x for x in q.stdout.decode(errors="replace").splitlines() if x]
    tap.ok(p.returncode == 0 and names and offered() == ["compl_one"],
           "completion offers the names of the user's own list", p.stderr)
    os.chmod(d, 0o777)
    got = offered()
    os.chmod(d, 0o755)
    tap.ok(got == [], "a list in a world-writable directory is not offered", got)
    os.chmod(os.path.join(d, names[0]), 0o666)
    got = offered()
    os.chmod(os.path.join(d, names[0]), 0o600)
    tap.ok(got == [], "a world-writable list is not offered", got)
    os.unlink(os.path.join(d, names[0]))
    os.chmod(d, 0o777)
    p = run([tool, "--list=*", exe], env=cenv)
    os.chmod(d, 0o755)
    tap.ok(p.returncode == 0 and not [f for f in os.listdir(d) if f.endswith(".names")],
           "--list writes no completion list into a world-writable directory", p.stderr)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tool = os.path.abspath(a.layoutlint)
    workdir = os.path.abspath(a.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(workdir, "cache"))
    tap = Tap()
    check_unit_type(tap, tool, workdir, env)
    check_claimed_size(tap, tool, workdir, env)
    check_sigpipe(tap, tool, workdir, env)
    check_one_word(tap, tool, workdir, env)
    check_exact_counts(tap, tool, workdir, env)
    check_written_names(tap, tool, workdir, env)
    check_output_onto_input(tap, tool, workdir, env)
    check_linear_importers(tap, tool, workdir, env)
    check_patches(tap, tool, workdir, env)
    check_hook(tap, tool, workdir, env)
    check_completion_trust(tap, tool, workdir, env)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
