"""Shared helpers for the real-kernel suite: find and fetch Debian kernels."""
import os
import subprocess
import sys


def fetch_tool():
    """Path of fetch-vmlinux, or None when this machine has no shared tools."""
    env = os.environ.get("LAYOUTLINT_FETCH_VMLINUX")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.abspath(os.path.join(here, "..", ".."))
    for cand in (os.path.join(top, "..", "shared", "tools", "fetch-vmlinux"),
                 "/work/shared/tools/fetch-vmlinux"):
        if os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    return None


def fetch(series, *modules):
    """Paths of the vmlinux and MODULES for SERIES, or None (then skip)."""
    tool = fetch_tool()
    if not tool:
        return None
    out = subprocess.run([tool, series, *modules], capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        return None
    paths = out.stdout.split()
    return paths if len(paths) == 1 + len(modules) else None

