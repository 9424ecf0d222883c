#!/usr/bin/env python3
"""Hostile inputs and targets (issue 19): no injection, nothing clobbered.

usage: run_hostile.py --layoutlint PATH --workdir DIR

Compiles tests/hostile/hostile.c with gcc -g and overwrites its placeholder
names (Q_..._Q) in the binary, byte for byte, with names no compiler accepts
but a binary may carry: shell command substitutions, terminal escapes, a
newline followed by a forged diagnostic. Then checks:
  - bash completion (completions/layoutlint.bash, run by a real bash on the
    index that `layoutlint --list` leaves) never runs what a name says, and
    offers the names that are C identifiers;
  - text output and messages never carry a control character from the
    input (names, file names): ESC, BEL, CR, LF are spelt \\x1b, \\x07, \\r, \\n;
  - --write-baseline never replaces a device, a FIFO or a symbolic link,
    keeps an existing baseline's mode, and leaves the old baseline when the
    run fails after it (stdout on /dev/full, stdout closed);
  - the name index is not written through a symbolic link planted at its
    temporary or its final name;
  - reading never blocks on a FIFO nor grows without bound on /dev/zero;
  - peak RSS stays within the bound README.md's security section states:
    an executable of 20,000 small structs (--list, a lookup), 64 MiB of
    zeros and of random bytes, and 5 KB of structs nesting each other.

Output is TAP.
"""
import functools
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import lib  # noqa: E402
from lib import Tap, build_id, parse_args  # noqa: E402

SOURCE = os.path.join(HERE, "hostile.c")
RULES = os.path.join(HERE, "hostile.rules")
COMPLETION = os.path.join(TOP, "completions", "layoutlint.bash")
# placeholder -> hostile name of the same length (see hostile.c)
NAMES = {
    b"Q_PWNED1_Q": b"$(>PWNED1)",
    b"Q_BACKTICK_PWNED2_Q": b"a`>PWNED2`bbbbbbbbb",
    b"Q_ESCAPE_NAME_Q": b"\x1b]0;OWNED\x07abcde",
    b"Q_NEWLINE_MEMBER_Q": b"m\nf.c:9:9: error:x",
    b"Q_UTF8_Q": b"\xffbad\xc3(\xe0z",
    b"Q_ESCVAR_NAME_Q": b"g\x1b]2;VAR\x07abcdef",
    b".Q_READ_MOSTLY_SECTION_Q": b".read_mostly\x1b]0;PWN\x07xxxx",
}
# placeholders in the binary more than once: a symbol's name is also its DW_AT_linkage_name
COPIES = {b"Q_ESCVAR_NAME_Q": 2}
TIMEOUT = 60


# lib's run, its output left as bytes: the names under test are not UTF-8.
run = functools.partial(lib.run, binary=True, timeout=TIMEOUT)


def build(workdir):
    exe = os.path.join(workdir, "hostile")
    subprocess.run(["gcc", "-g", "-O0", SOURCE, "-o", exe], check=True)
    data = open(exe, "rb").read()
    for old, new in NAMES.items():
        assert len(old) == len(new), old
        if data.count(old) != COPIES.get(old, 1):
            raise SystemExit("Bail out! %r is in the binary %d times, not %d"
                             % (old, data.count(old), COPIES.get(old, 1)))
        data = data.replace(old, new)
    bad = os.path.join(workdir, "hostile-names")
    with open(bad, "wb") as f:
        f.write(data)
    return exe, bad


def has_control(data):
    """Control bytes other than the line structure (LF, TAB) in DATA."""
    return any(c < 0x20 and c not in (0x0a, 0x09) or c == 0x7f for c in data)


def check_completion(tap, tool, exe, workdir):
    cache = os.path.join(workdir, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache, PATH=os.path.dirname(tool) + ":" +
               os.environ.get("PATH", ""))
    p = run([tool, "--list=*", exe], env=env)
    bid = build_id(exe)
    index = os.path.join(cache, "layoutlint", "%s.names" % bid)
    tap.ok(p.returncode == 0 and os.path.exists(index) and b"$(>PWNED1)" in
           open(index, "rb").read(), "--list leaves the index with the hostile names in it",
           "exit %d, index %s: %s" % (p.returncode, index, p.stderr.decode(errors="replace")))
    victim = os.path.join(workdir, "completion-cwd")
    shutil.rmtree(victim, ignore_errors=True)
    os.makedirs(victim)
    for cur, want in (("", ["atomic_t", "conn", "plain_struct", "utf8_conn"]),
                      ("pl", ["plain_struct"]),
                      ("$(", []), ("a`", [])):
        script = (
            'source "$1"\n'
            'COMP_WORDS=(layoutlint "$2" struct "$3"); COMP_CWORD=3\n'
            '_layoutlint\n'
            'printf "%s\\n" "${COMPREPLY[@]}"\n')
        p = run(["bash", "--norc", "--noprofile", "-c", script, "bash", COMPLETION, exe, cur],
                env=env, cwd=victim)
        got = sorted(x for x in p.stdout.decode(errors="replace").splitlines() if x)
        created = sorted(os.listdir(victim))
        tap.ok(p.returncode == 0 and not created,
               "completing 'struct %s<TAB>' runs nothing a name says" % cur,
               "exit %d, files created: %r, stderr %s" % (p.returncode, created,
                                                        p.stderr.decode(errors="replace")))
        tap.ok(got == want, "completing 'struct %s<TAB>' offers %r" % (cur, want),
               "offered %r" % got)


def check_escapes(tap, tool, exe, workdir):
    # The file name carries ESC, BEL, CR and a newline with a forged diagnostic.
    odd_dir = os.path.join(workdir, "esc\x1b]0;T\x07dir\r")
    os.makedirs(odd_dir, exist_ok=True)
    odd = os.path.join(odd_dir, "bin\nx.c:1:1: error: forged")
    shutil.copy(exe, odd)
    rules = os.path.join(workdir, "escape.rules")
    with open(rules, "w") as f:
        f.write("struct conn\n\tread-mostly ops\n\twrite-hot lock\n")
    # A struct the rules name that the binary lacks: a note quoting the binary's name.
    absent_rules = os.path.join(workdir, "absent.rules")
    with open(absent_rules, "w") as f:
        f.write("struct no_such_struct_here\n\tread-mostly ops\n")
    esc_name = NAMES[b"Q_ESCAPE_NAME_Q"].decode()
    # The gating summary quotes the baseline's path.
    odd_baseline = os.path.join(odd_dir, "base\x1b[2Jline\nx.c:1:1: error: forged")
    run([tool, "-q", "-r", rules, "--write-baseline=" + odd_baseline, odd])
    cases = [
        ("listing of a struct with escapes in its name and a member's",
         [odd, "struct", esc_name], 0),
        ("--list", ["--list=*", odd], 0),
        ("--audit", ["--audit=*", odd], 0),
        ("the global variables, a symbol's name and a variable's type escaped",
         [odd, "global", "variables"], 0),
        ("not found, did you mean", [odd, "struct", esc_name[:-1] + "\x1b"], 2),
        ("findings located at a file name with a newline", ["-r", rules, odd], 1),
        ("the note for a struct the rules name and no binary defines",
         ["-r", absent_rules, odd], 0),
        ("the gating summary naming the baseline", ["-r", rules, "--baseline=" + odd_baseline, odd], 0),
    ]
    for desc, argv, want in cases:
        p = run([tool, "--color=never"] + argv)
        out = p.stdout + p.stderr
        forged = [ln for ln in out.split(b"\n") if ln.startswith(b"x.c:1:1: error")
                  or ln.startswith(b"f.c:9:9: error")]
        tap.ok(p.returncode == want and not has_control(out) and not forged,
               "text output escapes input's control characters: " + desc,
               "exit %d (want %d), forged lines %r, output %r" % (
                   p.returncode, want, forged, out[:600]))
    p = run([tool, odd, "struct", esc_name])
    tap.ok(b"struct \\x1b]0;OWNED\\x07abcde {" in p.stdout and b"int m\\nf.c:9:9" in p.stdout,
           "escaped names are spelt \\x1b, \\x07, \\n", p.stdout[:300])
    p = run([tool, "--audit=variables", odd])
    tap.ok(p.returncode == 0 and b"g_rm_count" in p.stdout and
           b".read_mostly\\x1b]0;PWN\\x07xxxx" in p.stdout and not has_control(p.stdout),
           "--audit names a read-mostly section by its escaped name", p.stdout[:600])
    p = run([tool, odd, "global", "variables"])
    tap.ok(b"g\\x1b]2;VAR\\x07abcdef" in p.stdout and
           b"struct \\x1b]0;OWNED\\x07abcde g_escape" in p.stdout,
           "the global variables' names (symbols) and types (DWARF) are escaped too",
           p.stdout[:600])


def baseline_args(tool, exe, path):
    return [tool, "-q", "-r", RULES, "--write-baseline=" + path, exe]


def check_utf8_baseline(tap, tool, bad, workdir):
    """A member name of invalid UTF-8 round-trips through a baseline."""
    rules = os.path.join(workdir, "utf8.rules")
    with open(rules, "w") as f:
        f.write("struct utf8_conn\n\tread-mostly *_ops\n\twrite-hot lock\n")
    base = os.path.join(workdir, "utf8.baseline")
    p1 = run([tool, "-q", "-r", rules, "--write-baseline=" + base, bad])
    p2 = run([tool, "-q", "-r", rules, "--baseline=" + base, bad])
    err = p2.stderr.decode(errors="replace")
    tap.ok(p1.returncode == 1 and p2.returncode == 0 and "0 findings with new pairs" in err,
           "a member name of invalid UTF-8 is in the baseline the same binary wrote",
           "write: exit %d; check: exit %d: %s" % (p1.returncode, p2.returncode, err))
    doc = open(base, "rb").read() if os.path.exists(base) else b""
    tap.ok(b"\\\\xffbad\\\\xc3(\\\\xe0z_ops" in doc,
           "invalid UTF-8 is spelt \\xNN in the baseline", doc[:300])


def check_import(tap, tool, workdir):
    """--import-net-cachelines on damaged tables: refused, never rules that do not parse."""
    table = open(os.path.join(TOP, "tests", "groups", "import", "new_format.rst"), "rb").read()
    cases = [
        ("invalid UTF-8 in a comment", table.replace(b"tcp_xmit_size_goal", b"tcp_\xe0size_goal"),
         "invalid UTF-8 byte 0xe0"),
        ("a NUL byte", table.replace(b"tcp_rate_gen\n", b"tcp_rate_gen\0\n"), "NUL byte"),
        ("a title naming no identifier", table.replace(b"tcp_sock struct fast",
                                                        b"tcp=sock struct fast"),
         "cannot tell which struct"),
    ]
    for desc, data, must in cases:
        path = os.path.join(workdir, "damaged.rst")
        with open(path, "wb") as f:
            f.write(data)
        p = run([tool, "--import-net-cachelines=" + path])
        err = p.stderr.decode(errors="replace").strip()
        tap.ok(p.returncode == 2 and must in err and not p.stdout,
               "--import-net-cachelines, %s: exit 2, no rules written" % desc,
               "exit %d, %d stdout bytes: %s" % (p.returncode, len(p.stdout), err[:300]))


def check_many_blocks(tap, tool, exe, workdir):
    """40,000 rules blocks (a generated rules tree) parse in linear time."""
    rules = os.path.join(workdir, "many-blocks.rules")
    with open(rules, "w") as f:
        for i in range(40000):
            f.write("struct s%d\n\tread-mostly a\n\twrite-hot b\n" % i)
        f.write("struct conn\n\tread-mostly ops\n\twrite-hot lock\n")
    t0 = time.monotonic()
    p = run([tool, "-q", "-r", rules, exe, "struct", "conn"])
    took = time.monotonic() - t0
    # Quadratic, this took 10 s (20 s under ASan); linear, 0.05 s.
    tap.ok(p.returncode == 1 and "mixed-cacheline" in p.stdout.decode() and took < 5,
           "40,001 rules blocks: the last one applies, in %.2f s (under 5 s)" % took,
           "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[:300]))


def check_baseline_targets(tap, tool, exe, workdir):
    d = os.path.join(workdir, "baselines")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)

    def leftovers():
        return sorted(n for n in os.listdir(d) if ".tmp" in n)

    good = os.path.join(d, "good.json")
    p = run(baseline_args(tool, exe, good))
    tap.ok(p.returncode == 1 and os.path.isfile(good) and b'"pair"' in open(good, "rb").read(),
           "--write-baseline writes a new baseline (exit 1: the finding)",
           "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")))
    fresh = open(good, "rb").read()

    # A device node like /dev/null (never the real one: as root the old code
    # replaced it), made here when we may; a FIFO; a symbolic link.
    targets = []
    if os.geteuid() == 0:
        null = os.path.join(d, "null")
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        targets.append(("a character device (/dev/null's numbers)", null, stat.S_ISCHR))
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    targets.append(("a FIFO", fifo, stat.S_ISFIFO))
    real = os.path.join(d, "real.json")
    with open(real, "w") as f:
        f.write("the file a link points to\n")
    link = os.path.join(d, "link.json")
    os.symlink("real.json", link)
    targets.append(("a symbolic link", link, stat.S_ISLNK))
    for desc, path, is_kind in targets:
        p = run(baseline_args(tool, exe, path), timeout=20)
        err = p.stderr.decode(errors="replace").strip()
        tap.ok(p.returncode == 2 and is_kind(os.lstat(path).st_mode) and len(err.splitlines()) == 1
               and path in err and not leftovers(),
               "--write-baseline to %s: refused with one line, left as it was" % desc,
               "exit %d, now %s, stderr %r, left %r" % (
                   p.returncode, stat.filemode(os.lstat(path).st_mode), err, leftovers()))
    tap.ok(open(real).read() == "the file a link points to\n",
           "the file behind the symbolic link is untouched")

    # Mode (and content) of an existing baseline.
    private = os.path.join(d, "private.json")
    with open(private, "w") as f:
        f.write('{\n  "format": 1,\n  "pairs": []\n}\n')
    os.chmod(private, 0o600)
    p = run(baseline_args(tool, exe, private))
    mode = stat.S_IMODE(os.stat(private).st_mode)
    tap.ok(p.returncode == 1 and mode == 0o600 and open(private, "rb").read() == fresh,
           "replacing a baseline keeps its mode (600)",
           "exit %d, mode %o" % (p.returncode, mode))

    # The run fails after the baseline is computed: the old one stays.
    old = b'{\n  "format": 1,\n  "pairs": []\n}\n'
    for desc, kw in (("stdout on /dev/full", {"stdout": open("/dev/full", "wb")}),
                     ("stdout closed", {"stdout": subprocess.DEVNULL,
                                        "preexec_fn": lambda: os.close(1)})):
        with open(private, "wb") as f:
            f.write(old)
        p = run([tool, "-r", RULES, "--write-baseline=" + private, exe], **kw)
        tap.ok(p.returncode == 2 and open(private, "rb").read() == old and not leftovers(),
               "output fails (%s): exit 2, the old baseline is not replaced" % desc,
               "exit %d, baseline now %r, left %r, stderr %s" % (
                   p.returncode, open(private, "rb").read()[:80], leftovers(),
                   p.stderr.decode(errors="replace")))


def check_index_links(tap, tool, exe, workdir):
    cache = os.path.join(workdir, "cache-links")
    shutil.rmtree(cache, ignore_errors=True)
    idx_dir = os.path.join(cache, "layoutlint")
    os.makedirs(idx_dir)
    bid = build_id(exe)
    final = os.path.join(idx_dir, "%s.names" % bid)
    victim = os.path.join(workdir, "index-victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.symlink(victim, final)

    def plant():
        # In the child, before exec: its pid is the one a predictable
        # temporary name would carry.
        os.symlink(victim, "%s.%d.tmp" % (final, os.getpid()))

    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = run([tool, "--list=*", exe], env=env, preexec_fn=plant)
    tap.ok(p.returncode == 0 and open(victim).read() == "precious\n" and
           not os.path.islink(final) and b"conn" in open(final, "rb").read(),
           "the name index is written through no symbolic link (temporary or final name)",
           "exit %d, victim %r, index is a link: %s" % (
               p.returncode, open(victim).read()[:40], os.path.islink(final)))


def check_unbounded(tap, tool, exe, workdir):
    d = os.path.join(workdir, "unbounded")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    cases = [
        ("--baseline=/dev/zero", [tool, "--baseline=/dev/zero", "-r", RULES, exe]),
        ("--import-net-cachelines=/dev/zero", [tool, "--import-net-cachelines=/dev/zero"]),
        ("-r /dev/zero", [tool, "-r", "/dev/zero", exe]),
        ("a FIFO as BINARY", [tool, fifo, "struct", "conn"]),
        ("a FIFO as the rules file", [tool, "-r", fifo, exe]),
        ("a FIFO as the baseline", [tool, "--baseline=" + fifo, "-r", RULES, exe]),
    ]
    for desc, argv in cases:
        # Its own session, so that a timeout kills layoutlint too, not just MEASURE.
        p = subprocess.Popen([sys.executable, "-c", MEASURE] + argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, err = p.communicate(timeout=20)
            err = err.decode(errors="replace").strip().splitlines()
            rc, rss = p.returncode, int(err.pop()) if err else 0
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            rc, err, rss = None, ["timed out (blocked, or reading without end)"], 0
        tap.ok(rc == 2 and len(err) == 1 and rss < MAX_RSS_KB,
               "%s: one line, exit 2, no block, peak RSS under %d MiB" % (
                   desc, MAX_RSS_KB >> 10),
               "exit %s, peak RSS %d KiB: %s" % (rc, rss, "\n".join(err)[:300]))


# Runs argv; its peak RSS (KiB) as the last line of stderr.
MEASURE = ("import resource, subprocess, sys\n"
           "r = subprocess.run(sys.argv[1:])\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
           "sys.exit(r.returncode)\n")
MAX_RSS_KB = 256 << 10   # ASan's shadow included; the bounded reads need a few MiB


def peak_rss(argv, timeout=60):
    """(exit status, stderr lines, peak RSS in KiB) of ARGV, or None on a timeout.
    The child's peak counts the measuring python's pages it was forked
    with: a floor (see check_memory) under which nothing shows."""
    p = subprocess.Popen([sys.executable, "-c", MEASURE] + argv, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None
    err = err.decode(errors="replace").strip().splitlines()
    return p.returncode, err[:-1], int(err[-1])


# README.md, security: peak RSS at most RSS_PER_BYTE times the input plus
# RSS_CONSTANT_KB (measured: 21 times plus 3 MiB for the densest ordinary
# input, an executable of nothing but small structs, under --list).
RSS_PER_BYTE = 25
RSS_CONSTANT_KB = 16 << 10
# Structs that nest each other stop at the member budget (100,000 members
# for a small input), about 1 KiB each: 85 MiB measured.
NESTED_RSS_KB = 128 << 10


def sanitized(tool):
    """ASan's shadow memory and quarantine multiply RSS (about 4 times here)."""
    return b"__asan_init" in open(tool, "rb").read()


def check_memory(tap, tool, workdir):
    d = os.path.join(workdir, "memory")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    n = 20000
    src = os.path.join(d, "structs.c")
    with open(src, "w") as f:
        for i in range(n):
            f.write("struct s%d { int a; long b; char c[3]; struct s%d *next; };\n" % (i, i))
            f.write("struct s%d g%d;\n" % (i, i))
        f.write("int main(void) { return 0; }\n")
    exe = os.path.join(d, "structs")
    subprocess.run(["gcc", "-g", src, "-o", exe], check=True)
    nested = os.path.join(d, "nested.c")
    with open(nested, "w") as f:
        # Valid C: struct L16 holds 2^17 ints; 20 structs each embed one.
        f.write("struct L0 { int a, b; };\n")
        for i in range(1, 17):
            f.write("struct L%d { struct L%d x, y; };\n" % (i, i - 1))
        for j in range(20):
            f.write("struct E%d { struct L16 e; } ge%d;\n" % (j, j))
    nested_o = os.path.join(d, "nested.o")
    subprocess.run(["gcc", "-g", "-c", nested, "-o", nested_o], check=True)
    for name, make in (("zeros", lambda k: bytes(k)), ("random", os.urandom)):
        with open(os.path.join(d, name), "wb") as f:
            for _ in range(64):
                f.write(make(1 << 20))
    asan = sanitized(tool)
    floor = peak_rss(["true"])[2]

    def scaled(path):
        return os.path.getsize(path) * RSS_PER_BYTE // 1024 + RSS_CONSTANT_KB

    # (what, argv, input, exit status, limit in KiB)
    cases = [
        ("--list of %d structs" % n, ["--list=*", exe], exe, 0, scaled(exe)),
        ("a lookup among %d structs" % n, [exe, "struct", "s%d" % (n - 1)], exe, 0, scaled(exe)),
        ("64 MiB of zeros", ["--list=*", os.path.join(d, "zeros")], os.path.join(d, "zeros"),
         2, RSS_CONSTANT_KB),
        ("64 MiB of random bytes", ["--list=*", os.path.join(d, "random")],
         os.path.join(d, "random"), 2, RSS_CONSTANT_KB),
        ("5 KB of structs nesting each other, --list", ["--list=*", nested_o], nested_o, 2,
         NESTED_RSS_KB),
    ]
    for desc, argv, path, want, limit in cases:
        limit = limit * 4 + (64 << 10) if asan else limit
        t0 = time.monotonic()
        res = peak_rss([tool] + argv)
        took = time.monotonic() - t0
        if res is None:
            tap.ok(False, "memory: %s: finished within 60 s" % desc)
            continue
        rc, err, rss = res
        # The peak seen is the larger of layoutlint's and the floor.
        tap.ok(rc == want and len(err) == (1 if want else 0) and
               (rss < limit or rss <= floor + 1024),
               "memory: %s (%d bytes): exit %d, peak RSS %d KiB under %d (floor %d), %.1f s" % (
                   desc, os.path.getsize(path), want, rss, limit, floor, took),
               "exit %d, peak RSS %d KiB: %s" % (rc, rss, "\n".join(err)[:300]))


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tool = os.path.abspath(a.layoutlint)
    workdir = os.path.abspath(a.workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    tap = Tap()
    exe, bad = build(workdir)
    check_completion(tap, tool, bad, workdir)
    check_escapes(tap, tool, bad, workdir)
    check_utf8_baseline(tap, tool, bad, workdir)
    check_import(tap, tool, workdir)
    check_many_blocks(tap, tool, exe, workdir)
    check_baseline_targets(tap, tool, exe, workdir)
    check_index_links(tap, tool, exe, workdir)
    check_unbounded(tap, tool, exe, workdir)
    check_memory(tap, tool, workdir)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
