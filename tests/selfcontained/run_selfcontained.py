#!/usr/bin/env python3
"""The repository points nowhere outside itself (TAP).

Every committed file (git ls-files; binaries too: a fuzz seed or fixture
compiled on some machine carries its build directory) is searched for paths
that only exist on the machine that wrote them: a sibling folder of the
checkout reached through a dot-dot (the shared spec and tools folder), the
work tree this project was built in, and anyone's home directory. What the
project needs must be in the repository, or fetched by a script in it
(scripts/fetch-kernel, scripts/deps). The patterns, and the samples that
prove them, are spelled in pieces so that this file does not match itself.

usage: run_selfcontained.py [--source-root DIR]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import Tap, parse_args  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Spelled in pieces so that this file does not match itself.
OUTSIDE = [
    ("a sibling folder of the checkout", rb"\.\./" + rb"shared\b"),
    ("the shared spec or tools folder", rb"\bshared/" + rb"(?:spec|tools)/"),
    ("the machine's /work tree", rb"(?<![\w.~-])/" + rb"work/"),
    ("a home directory", rb"(?<![\w.~-])/(?:" + rb"home|Users)/[A-Za-z0-9_.-]+/"),
    ("root's home directory", rb"(?<![\w.~-])/" + rb"root/"),
]
PATTERN = re.compile(b"|".join(b"(?:%s)" % p for _, p in OUTSIDE))


def hits(data):
    """(offset, matched text) of every outside path in DATA."""
    return [(m.start(), m.group().decode("utf-8", "replace")) for m in PATTERN.finditer(data)]


def where(name, data, offset):
    """NAME:LINE for text, NAME+OFFSET for a binary (a NUL before the hit)."""
    if b"\0" in data[:offset]:
        return f"{name}+0x{offset:x}"
    line = data.count(b"\n", 0, offset) + 1
    return f"{name}:{line}"


def committed_files(root):
    # Hooks export GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE; ask about ROOT itself.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    p = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, env=env)
    if p.returncode != 0:
        return None
    return [n.decode() for n in p.stdout.split(b"\0") if n]


def read(root, name):
    path = os.path.join(root, name)
    if os.path.islink(path):
        return os.readlink(path).encode()
    if not os.path.isfile(path):
        return None  # deleted in the work tree, not yet committed
    with open(path, "rb") as f:
        return f.read()


def main():
    a = parse_args(source_root=dict(default=TOP), doc=__doc__)
    tap = Tap()

    # The search itself: each kind is found, and the paths the project
    # does use in its own words are not.
    for desc, sample in [
        ("a sibling folder of the checkout", b"see ../" + b"shar" + b"ed/spec/cli.md"),
        ("the shared spec or tools folder", b"run shar" + b"ed/tools/fetch"),
        ("the machine's /work tree", b'"/' + b'work/main/build"'),
        ("a home directory", b"/" + b"home/alice/linux/vmlinux"),
        ("root's home directory", b"DW_AT_comp_dir /" + b"root/src\0"),
    ]:
        tap.ok(len(hits(sample)) == 1, f"the search finds {desc}", sample)
    for fine in [b"${XDG_CACHE_HOME:-$HOME/.cache}/layoutlint-kernels", b"~/src/pktq",
                 b"scripts/fetch-kernel", b"/sys/kernel/btf/vmlinux", b"src/report_sarif.c",
                 b"docs/rules.md", b"#include <linux/fs.h>"]:
        tap.ok(not hits(fine), f"the search leaves {fine.decode()!r} alone")

    files = committed_files(a.source_root)
    if files is None:
        print("# not a git checkout: nothing to search")
        return tap.finish()
    tap.ok(len(files) > 100 and "meson.build" in files,
           f"git ls-files lists the repository ({len(files)} files)", files[:10])
    found = []
    for name in files:
        data = read(a.source_root, name)
        if data is None:
            continue
        found += [f"{where(name, data, off)}: {text}" for off, text in hits(data)]
    tap.ok(not found, "no committed file names a path outside the repository",
           "\n".join(found))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
