#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time two commands in alternating runs: A, B, A, B, ...

usage: bench/alternate.py RUNS 'CMD A' 'CMD B'

Prints "MEDIAN_A MEDIAN_B" in seconds. This VM's speed drifts by 20-30%
within minutes, so a ratio of two hyperfine medians taken minutes apart
(the pread floor and a lookup) moved between 1.2x and 2.0x from one run
of bench/run to the next; runs taken in turn see the same drift. Each run
is a posix_spawn and a wait, as hyperfine -N does (no shell), with the
output thrown away; one warmup run of each first.
"""
import os
import shlex
import statistics
import sys
import time


def run(argv, devnull):
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                        (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"alternate.py: {' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return elapsed


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bench/alternate.py RUNS 'CMD A' 'CMD B'")
    runs = int(sys.argv[1])
    cmds = [shlex.split(c) for c in sys.argv[2:]]
    devnull = os.open(os.devnull, os.O_WRONLY)
    times = [[], []]
    for argv in cmds:
        run(argv, devnull)
    for _ in range(runs):
        for i, argv in enumerate(cmds):
            times[i].append(run(argv, devnull))
    print("%.4f %.4f" % (statistics.median(times[0]), statistics.median(times[1])))


if __name__ == "__main__":
    main()
