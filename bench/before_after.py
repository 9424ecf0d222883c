#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A change's speed, row by row: a reference layoutlint against this one.

usage: bench/before_after.py --ref OLD [--new NEW] [--runs N] [--write]
                             [--label-ref TEXT] [--label-new TEXT]

Every row runs OLD and NEW (and, on the struct file row, pahole 1.24)
run by run in rotation (bench/interleave.py), so the ratio OLD/NEW of a
row shares that row's load whatever the VM does in between; the load
average is printed with each row. Cold rows use --no-cache; warm rows
give each binary an index of its own, written by one --list='*' into a
private XDG_CACHE_HOME (never the user's). Output is not compared here:
bench/same_output.py does that.

--write puts the table between <!-- bench/before_after: begin --> and
its end marker in bench/RESULTS.md (appended when absent).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

TWENTY = ("file task_struct mm_struct sk_buff sock tcp_sock net_device inode dentry "
          "super_block page address_space vm_area_struct cred files_struct "
          "optimistic_spin_node printf_spec kmem_cache request_queue bio").split()


def fetch(*args):
    out = subprocess.run([os.path.join(TOP, "scripts", "fetch-kernel")] + list(args),
                         stdout=subprocess.PIPE, check=True).stdout.decode().split("\n")
    return [l for l in out if l]


def interleave(runs, cmds, env):
    argv = [sys.executable, os.path.join(HERE, "interleave.py"), "--runs", str(runs),
            "--ok-exit", "1", "--ok-exit", "2", "--tsv"]
    for e in env:
        argv += ["--env", e]
    argv += ["%s=%s" % (label, cmd) for label, cmd in cmds]
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout.decode()
    rows, load = {}, ""
    for line in out.splitlines():
        f = line.split()
        if f[0] == "load":
            load = f[1].split("/")[0] + "-" + f[2].split("/")[0]
        else:
            rows[f[0]] = (float(f[1]) * 1e3, float(f[2]) * 1e3, int(f[3]) / 1024)
    return rows, load


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True)
    ap.add_argument("--new", default=os.path.join(TOP, "build", "layoutlint"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--label-ref", default="before")
    ap.add_argument("--label-new", default="after")
    args = ap.parse_args()
    ref, new = os.path.abspath(args.ref), os.path.abspath(args.new)
    vm, xfs = fetch("vmlinux", "6.12", "fs/xfs/xfs.ko")
    structs = " ".join("struct " + n for n in TWENTY)
    cold = [
        ("cold: struct file", "--no-cache %s struct file" % vm, True),
        ("cold: mid optimistic_spin_node", "--no-cache %s struct optimistic_spin_node" % vm, False),
        ("cold: late printf_spec", "--no-cache %s struct printf_spec" % vm, False),
        ("cold: missing no_such_struct_x", "--no-cache %s struct no_such_struct_x" % vm, False),
        ("cold: close missing task_strct", "--no-cache %s struct task_strct" % vm, False),
        ("cold: 20 structs", "--no-cache %s %s" % (vm, structs), False),
        ("cold: --list='tcp_*'", "--no-cache --list=tcp_* %s" % vm, False),
        ("cold: --list='*'", "--no-cache --list=* %s" % vm, False),
        ("cold: --contains address_space", "--no-cache --contains=address_space %s" % vm, False),
        ("cold: --audit='*'", "--no-cache --audit=* %s" % vm, False),
        ("cold: xfs.ko xfs_buf", "--no-cache %s struct xfs_buf" % xfs, False),
    ]
    warm = [
        ("warm: late printf_spec", "%s struct printf_spec" % vm),
        ("warm: struct file", "%s struct file" % vm),
        ("warm: missing no_such_struct_x", "%s struct no_such_struct_x" % vm),
        ("warm: close missing task_strct", "%s struct task_strct" % vm),
        ("warm: 20 structs", "%s %s" % (vm, structs)),
        ("warm: --list='tcp_*'", "--list=tcp_* %s" % vm),
        ("warm: --list='*'", "--list=* %s" % vm),
        ("warm: --contains address_space", "--contains=address_space %s" % vm),
        ("warm: --audit='*'", "--audit=* %s" % vm),
    ]
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    rev = subprocess.run([os.path.join(HERE, "revision")], stdout=subprocess.PIPE,
                         cwd=TOP).stdout.decode().strip()
    out("<!-- bench/before_after: begin -->")
    out("## Before and after (6.12 image)")
    out()
    out("bench/before_after.py at %s: %s (`%s`) against %s (`%s`), %d runs each, run by run"
        % (rev, args.label_new, os.path.basename(new), args.label_ref, os.path.basename(ref),
           args.runs))
    out("in rotation per row (bench/interleave.py); medians; load: the 1-minute load average")
    out("before-after the row (above 2, other work shared the 2 cores). before/after > 1: faster now.")
    out()
    out("| case | before | before CPU | after | after CPU | after RSS | before/after | CPU ratio | pahole | load |")
    out("|---|---|---|---|---|---|---|---|---|---|")

    def row(label, largs, env, with_pahole=False):
        cmds = [("ref", "%s %s" % (ref, largs)), ("new", "%s %s" % (new, largs))]
        if with_pahole:
            cmds.append(("pahole", "pahole -F dwarf -C file %s" % vm))
        r, load = interleave(args.runs, cmds, env)
        b, a = r["ref"], r["new"]
        p = "%.1f ms (%.2fx)" % (r["pahole"][0], r["pahole"][0] / a[0]) if with_pahole else "-"
        out("| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.0f MB | %.2fx | %.2fx | %s | %s |"
            % (label, b[0], b[1], a[0], a[1], a[2], b[0] / a[0], b[1] / a[1], p, load))

    floor, floor_load = interleave(args.runs, [("ref", ref + " --version"),
                                               ("new", new + " --version")], [])
    for label, largs, pahole in cold:
        row(label, largs, [], pahole)
    with tempfile.TemporaryDirectory() as work:
        # Each binary its own index: the same file name (the build-id) in two homes.
        homes = {}
        for name, binary in (("ref", ref), ("new", new)):
            homes[name] = os.path.join(work, name)
            env = dict(os.environ, XDG_CACHE_HOME=homes[name])
            env.pop("LAYOUTLINT_CACHE", None)
            subprocess.run([binary, "--list=*", vm], env=env, stdout=subprocess.DEVNULL, check=True)
        for label, largs in warm:
            cmds = [("ref", "env XDG_CACHE_HOME=%s %s %s" % (homes["ref"], ref, largs)),
                    ("new", "env XDG_CACHE_HOME=%s %s %s" % (homes["new"], new, largs))]
            rr, load = interleave(args.runs, cmds, [])
            b, a = rr["ref"], rr["new"]
            out("| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.0f MB | %.2fx | %.2fx | - | %s |"
                % (label, b[0], b[1], a[0], a[1], a[2], b[0] / a[0], b[1] / a[1], load))
    out()
    out("Process floor (`layoutlint --version`): %.1f ms before, %.1f ms after (load %s)."
        % (floor["ref"][0], floor["new"][0], floor_load))
    out("Warm rows run each binary through `env XDG_CACHE_HOME=...` (its own index): the")
    out("same exec of env(1) in both columns.")
    out("<!-- bench/before_after: end -->")
    if args.write:
        path = os.path.join(HERE, "RESULTS.md")
        new_text = "\n".join(lines) + "\n"
        old = open(path).read()
        pat = re.compile(r"<!-- bench/before_after: begin -->.*?<!-- bench/before_after: end -->\n",
                         re.S)
        text = pat.sub(lambda m: new_text, old) if pat.search(old) else \
            old.rstrip() + "\n\n" + new_text
        open(path, "w").write(text)
        print("wrote bench/RESULTS.md", file=sys.stderr)


if __name__ == "__main__":
    main()
