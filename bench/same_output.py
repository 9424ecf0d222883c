#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that a faster layoutlint prints exactly what the reference did.

usage: bench/same_output.py --ref OLD --new NEW [--image VMLINUX] [--count 200]
                            [--no-fixtures]

A speed change must not change one byte of output. Both binaries are run
on the same inputs and their stdout, stderr and exit status compared:

- the fixture programs (tests/fixtures/*.c) compiled by gcc and clang at
  DWARF 4 and 5: --format=json of every struct --list finds, and --list;
- on the image (default: the cached 6.12 vmlinux): --list='*',
  --audit='*', --contains, --list='tcp_*', missing names (one close to a
  real name, one far from any), and COUNT structs one per run (the
  well-known ones plus a random.Random(12345) sample of --list='*'),
  each cold (--no-cache) and then warm from a name index each binary
  wrote in a private XDG_CACHE_HOME.

Prints one line per difference and a summary; exit 1 on any difference.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
WELL_KNOWN = ["file", "task_struct", "sk_buff", "inode", "page", "mm_struct",
              "net_device", "sock", "super_block", "dentry", "printf_spec",
              "optimistic_spin_node", "xfs_buf", "address_space"]


def run(argv, env):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return p.returncode, p.stdout, p.stderr


class Compare:
    def __init__(self, ref, new, cache_ref, cache_new):
        self.ref, self.new = ref, new
        self.env = {}
        for name, cache in (("ref", cache_ref), ("new", cache_new)):
            env = dict(os.environ)
            env["XDG_CACHE_HOME"] = cache
            env.pop("LAYOUTLINT_CACHE", None)
            self.env[name] = env
        self.checked = 0
        self.differ = 0

    def same(self, what, args):
        a = run([self.ref] + args, self.env["ref"])
        b = run([self.new] + args, self.env["new"])
        self.checked += 1
        if a != b:
            self.differ += 1
            fields = [n for n, x, y in zip(("exit", "stdout", "stderr"), a, b) if x != y]
            print("DIFFER %s: %s (%s)" % (what, " ".join(args), ", ".join(fields)))
            for n, x, y in zip(("exit", "stdout", "stderr"), a, b):
                if x != y and n != "exit":
                    print("  ref %s: %r" % (n, x[:300]))
                    print("  new %s: %r" % (n, y[:300]))
        return a


def list_names(out):
    names = []
    for line in out.decode(errors="replace").splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("struct", "union"):
            names.append((parts[0], parts[1]))
    return names


def fixtures(cmp, work):
    for src in sorted(os.listdir(os.path.join(TOP, "tests", "fixtures"))):
        if not src.endswith(".c"):
            continue
        for cc in ("gcc", "clang"):
            for dw in ("4", "5"):
                obj = os.path.join(work, "%s-%s-dwarf%s.o" % (src[:-2], cc, dw))
                if subprocess.run([cc, "-c", "-g", "-gdwarf-" + dw, "-O0", "-o", obj,
                                   os.path.join(TOP, "tests", "fixtures", src)],
                                  stderr=subprocess.DEVNULL).returncode:
                    print("skip %s with %s: does not compile" % (src, cc))
                    continue
                _, out, _ = cmp.same("fixture list", ["--no-cache", "--list=*", obj])
                args = ["--no-cache", "--format=json", obj]
                for kind, name in list_names(out):
                    args += [kind, name]
                cmp.same("fixture json", args)


def typos(names, n):
    """N misspelt names: a character dropped, two swapped, one changed or added."""
    rnd = random.Random(4242)
    out = []
    for _, name in rnd.sample(names, min(n, len(names))):
        i = rnd.randrange(len(name))
        kind = rnd.randrange(4)
        if kind == 0 and len(name) > 1:
            t = name[:i] + name[i + 1:]
        elif kind == 1 and i + 1 < len(name):
            t = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        elif kind == 2:
            t = name[:i] + rnd.choice("abcdefghijklmnopqrstuvwxyz_") + name[i + 1:]
        else:
            t = name + rnd.choice("sx_")
        if t != name:
            out.append(t)
    return out


def image(cmp, img, count):
    _, out, _ = cmp.same("list", ["--no-cache", "--list=*", img])
    names = list_names(out)
    cmp.same("audit", ["--no-cache", "--audit=*", img])
    cmp.same("contains", ["--no-cache", "--contains=address_space", img])
    cmp.same("list glob", ["--no-cache", "--list=tcp_*", img])
    missing = ["no_such_struct_x", "fil", "task_strct", "zqx"] + typos(names, 60)
    for m in missing:
        cmp.same("missing cold", ["--no-cache", img, "struct", m])
    known = [n for n in names if n[1] in WELL_KNOWN]
    rest = [n for n in names if n[1] not in WELL_KNOWN]
    chosen = known + sorted(random.Random(12345).sample(rest, max(0, min(len(rest), count - len(known)))))
    for kind, name in chosen:
        cmp.same("struct cold", ["--no-cache", img, kind, name])
    cmp.same("json cold", ["--no-cache", "--format=json", img, "struct", "file"])
    mixed = [img, "struct", "task_strct", "struct", "file", "struct", "no_such_struct_x",
             "union", "inode"]
    cmp.same("mixed cold", ["--no-cache"] + mixed)
    # Warm: each binary writes its own index, then answers from it.
    cmp.same("list (writes the index)", ["--list=*", img])
    for m in missing:
        cmp.same("missing warm", [img, "struct", m])
    for kind, name in chosen:
        cmp.same("struct warm", [img, kind, name])
    cmp.same("mixed warm", mixed)
    cmp.same("audit warm", ["--audit=*", img])
    cmp.same("contains warm", ["--contains=address_space", img])
    cmp.same("list warm", ["--list=*", img])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--image")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--no-fixtures", action="store_true")
    args = ap.parse_args()
    img = args.image
    if img is None:
        img = subprocess.run([os.path.join(TOP, "scripts", "fetch-kernel"), "vmlinux", "6.12"],
                             stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    with tempfile.TemporaryDirectory() as work:
        cmp = Compare(os.path.abspath(args.ref), os.path.abspath(args.new),
                      os.path.join(work, "cache-ref"), os.path.join(work, "cache-new"))
        if not args.no_fixtures:
            fixtures(cmp, work)
        image(cmp, img, args.count)
    print("same_output: %d comparisons, %d differ" % (cmp.checked, cmp.differ))
    return 1 if cmp.differ else 0


if __name__ == "__main__":
    sys.exit(main())
