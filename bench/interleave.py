#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time several commands run by run, in rotation, and print each one's medians.

usage: bench/interleave.py [--runs N] [--env NAME=VALUE ...] [--ratio-to LABEL]
                           [--no-warmup LABEL ...] [--no-rss]
                           [--tsv] LABEL[@K]='CMD' LABEL[@K]='CMD' ...

Round r runs every command once, starting at command r mod N (A B C, then
B C A, then C A B, ...): on a VM whose speed drifts by 20-30% within
minutes, and whose other tenants come and go, each command sees the same
drift and no command always runs right after the same other one. One
warmup run of each first. Each run is a posix_spawn and a wait4 (no
shell), output thrown away: wall time and CPU (user + system) come from
the kernel's accounting of that one process; peak RSS from /usr/bin/time
in one more run of each, after the timed ones.

LABEL@K runs that command in the first K rounds only (pahole's walk of
every unit takes ~10 s and 3.7 GB: 3 runs, each still taken in turn with
the others). A command that exits with a status other than --ok-exit's
(0 by default) stops the run, named. --no-warmup LABEL skips that
command's warmup (gdb's `ptype` of a vmlinux takes 1-2 minutes; the
others' warmups have brought the image into the page cache before its
first turn). --no-rss skips the /usr/bin/time run: its column is then 0
(bench/run measures peak RSS in its own run, the one whose answer it checks).

Prints a table: label, median wall, median CPU, peak RSS (largest of the
runs), and with --ratio-to the ratio LABEL's wall / this wall (above 1:
this one is faster). The load average is printed before and after.
With --tsv: one line per command, "LABEL WALL_S CPU_S RSS_KB RUNS", and
the load on a last line "load BEFORE AFTER" (for bench/run).
"""
import argparse
import os
import shlex
import statistics
import sys
import tempfile
import time


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run(argv, env, devnull):
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, env,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                        (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, code


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--ratio-to")
    ap.add_argument("--ok-exit", type=int, action="append", default=[0],
                    help="exit statuses that count as success (default 0)")
    ap.add_argument("--tsv", action="store_true")
    ap.add_argument("--no-warmup", action="append", default=[], metavar="LABEL")
    ap.add_argument("--no-rss", action="store_true")
    ap.add_argument("cmds", nargs="+", metavar="LABEL=CMD")
    args = ap.parse_args()
    env = dict(os.environ)
    for e in args.env:
        k, _, v = e.partition("=")
        env[k] = v
    labels, cmds, limit = [], [], []
    for c in args.cmds:
        label, sep, cmd = c.partition("=")
        if not sep:
            sys.exit("interleave.py: %r: want LABEL=CMD" % c)
        label, at, k = label.partition("@")
        labels.append(label)
        limit.append(int(k) if at else args.runs)
        cmds.append(shlex.split(cmd))
    devnull = os.open(os.devnull, os.O_WRONLY)
    n = len(cmds)
    walls = [[] for _ in cmds]
    cpus = [[] for _ in cmds]
    rss = [0] * n
    before = load()
    for label in args.no_warmup:
        if label not in labels:
            sys.exit("interleave.py: --no-warmup %s: no such label" % label)
    for i in range(n):
        if labels[i] not in args.no_warmup:
            run(cmds[i], env, devnull)
    for r in range(args.runs):
        for k in range(n):
            i = (r + k) % n
            if r >= limit[i]:
                continue
            w, c, m, code = run(cmds[i], env, devnull)
            if code not in args.ok_exit:
                sys.exit("interleave.py: %s: exit %d" % (" ".join(cmds[i]), code))
            walls[i].append(w)
            cpus[i].append(c)
            rss[i] = max(rss[i], m)
    after = load()
    # The peak RSS from /usr/bin/time, in one more run of each: wait4's
    # ru_maxrss keeps the high-water mark of the mm before exec, which a
    # posix_spawn child shares with this python (~15 MB for `true`).
    with tempfile.NamedTemporaryFile() as tmp:
        for i in range(0 if args.no_rss else n):
            argv = ["/usr/bin/time", "-f", "%M", "-o", tmp.name] + cmds[i]
            run(argv, env, devnull)
            with open(tmp.name) as f:
                lines = f.read().split()
            rss[i] = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    if args.tsv:
        for i in range(n):
            print("%s %.4f %.4f %d %d" % (labels[i], statistics.median(walls[i]),
                                          statistics.median(cpus[i]), rss[i], len(walls[i])))
        print("load %s %s" % (before.replace(" ", "/"), after.replace(" ", "/")))
        return
    print("load average %s before, %s after; %d runs each, in rotation" % (before, after, args.runs))
    ref = None
    if args.ratio_to:
        if args.ratio_to not in labels:
            sys.exit("interleave.py: --ratio-to %s: no such label" % args.ratio_to)
        ref = statistics.median(walls[labels.index(args.ratio_to)])
    print("%-28s %10s %10s %9s%s" % ("command", "wall", "cpu", "rss", "  ratio" if ref else ""))
    for i in range(n):
        w = statistics.median(walls[i])
        c = statistics.median(cpus[i])
        ratio = "  %5.2fx" % (ref / w) if ref else ""
        print("%-28s %8.1f ms %8.1f ms %6.0f MB%s" % (labels[i], w * 1e3, c * 1e3,
                                                    rss[i] / 1024, ratio))


if __name__ == "__main__":
    main()
