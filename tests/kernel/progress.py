#!/usr/bin/env python3
"""The progress line: on a terminal during a long scan, never in a pipe (TAP).

Drives layoutlint in a tmux pane (tmux send-keys / capture-pane) on the
6.12 vmlinux. The line appears only once a run has lasted 0.5 s, and a
cold --list='*' now takes about that on two threads, so the terminal run
is the longest whole-image question, --audit='*', on one thread: ~1.5 s
on one VM, 0.5 s on a faster one. A run that ends within a second may end
before the line is due; then the same question is asked of the libdw
walk (LAYOUTLINT_SCAN=libdw, seconds), which must show it. The name index
would answer a warm run in milliseconds with nothing to show, so every
run here passes --no-cache.
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Lint, Tap, parse_args, run  # noqa: E402


def on_terminal(session, tmp, env, tool, vmlinux):
    """Run a one-thread --audit='*' in the tmux pane: its exit status, the
    last progress line seen, and how long it took by the shell's clock."""
    done = os.path.join(tmp, "done")
    for f in (done, os.path.join(tmp, "out.txt")):
        if os.path.exists(f):
            os.unlink(f)
    cmd = (f"s=$(date +%s.%N); {env}LAYOUTLINT_THREADS=1 {tool} --no-cache --audit='*' "
           f"{vmlinux} > {tmp}/out.txt; r=$?; e=$(date +%s.%N); echo $r $s $e > {done}.tmp; "
           f"mv {done}.tmp {done}")
    run(["tmux", "send-keys", "-t", session, cmd, "Enter"], check=True)
    seen = ""
    deadline = time.time() + 300
    while time.time() < deadline and not os.path.exists(done):
        pane = run(["tmux", "capture-pane", "-p", "-t", session]).stdout
        for line in pane.splitlines():
            if line.startswith("layoutlint: ") and "/" in line and "%" in line:
                seen = line.strip()
        time.sleep(0.05)
    if not os.path.exists(done):
        return "timeout", seen, 0.0
    rc, start, end = open(done).read().split()
    return rc, seen, float(end) - float(start)


def main():
    a = parse_args("layoutlint", doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    if not shutil.which("tmux"):
        return tap.skip_all("tmux is not installed")
    paths = fetch("6.12")
    if not paths:
        return tap.skip_all("cannot fetch the 6.12 kernel")
    vmlinux = paths[0]
    tool = os.path.abspath(a.layoutlint)
    session = f"ll-progress-{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        run(["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "20"], check=True)
        try:
            rc, seen, took = on_terminal(session, tmp, "", tool, vmlinux)
            how = "the raw scan"
            if not seen and took < 1.0:
                tap.comment(f"the raw scan's --audit took {took:.2f} s, too short to be "
                            "sure of a line: the libdw walk instead")
                rc, seen, took = on_terminal(session, tmp, "LAYOUTLINT_SCAN=libdw ", tool,
                                             vmlinux)
                how = "the libdw walk"
            tap.ok(rc == "0", f"--audit on a terminal finishes ({how}, {took:.2f} s)",
                   f"exit {rc}")
            tap.ok(bool(seen), "a progress line appears on the terminal", seen)
            pane = run(["tmux", "capture-pane", "-p", "-t", session]).stdout
            tap.ok(not any(l.startswith("layoutlint: ") and "%" in l for l in pane.splitlines()),
                   "the progress line is erased at the end", pane)
        finally:
            run(["tmux", "kill-session", "-t", session])
        p = Lint(tool, timeout=600).run("--no-cache", "--list=*", vmlinux)
        tap.ok(p.returncode == 0 and p.stderr == "", "nothing on stderr when it is a pipe",
               p.stderr[:500])
        with open(os.path.join(tmp, "out.txt")) as f:
            tap.ok("\r" not in f.read() and "\r" not in p.stdout,
                   "stdout never carries the progress line")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
