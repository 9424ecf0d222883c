"""Shared helpers for the real-kernel suite: find and fetch Debian kernels."""
import os
import subprocess
import sys


# The project's own downloader: Debian's debug images and source trees,
# cached in ~/.cache/layoutlint-kernels (or $LAYOUTLINT_KERNEL_CACHE).
FETCH_KERNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "..", "scripts", "fetch-kernel")


def fetch_tool():
    """Path of scripts/fetch-kernel."""
    return os.path.abspath(FETCH_KERNEL)


def _fetch_lines(*args):
    out = subprocess.run([fetch_tool(), *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        return None
    return out.stdout.splitlines()


def fetch(series, *modules):
    """Paths of the vmlinux and MODULES for SERIES, or None (then skip)."""
    paths = _fetch_lines("vmlinux", series, *modules)
    return paths if paths and len(paths) == 1 + len(modules) else None


def fetch_source(series):
    """Root of the pristine Debian linux-source tree for SERIES, or None."""
    lines = _fetch_lines("source", series)
    return lines[0] if lines and len(lines) == 1 else None

