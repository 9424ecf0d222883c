#!/usr/bin/env python3
"""Each lookup path of the reader, on real kernels, in the ASan+UBSan build (TAP).

The default suites run under the sanitizers on small fixtures only, and an
overflow in the unit-header walk once stayed inside its allocation there:
it needed a unit over 512 bytes at the end of the array's capacity, which
only a vmlinux has. This runs the sanitized binary over every scanner path
on the 6.12 image and the ET_REL path on xfs.ko, and compares each answer
with the plain libdw walk's (LAYOUTLINT_SCAN=libdw), byte for byte.

Defined only in a build with -Db_sanitize=address,undefined (scripts/test
runs it in build-asan, suite kernel-sanitized).
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Lint, Tap, parse_args  # noqa: E402

TWENTY = ("file task_struct mm_struct sk_buff sock tcp_sock net_device inode dentry "
          "super_block page address_space vm_area_struct cred files_struct "
          "optimistic_spin_node printf_spec kmem_cache request_queue bio").split()
SANITIZER_WORDS = ("runtime error", "AddressSanitizer", "LeakSanitizer")


def structs(*names):
    return [w for n in names for w in ("struct", n)]


def main():
    a = parse_args("layoutlint", "rules-dir", doc=__doc__)
    paths = fetch("6.12", "fs/xfs/xfs.ko")
    if not paths:
        return Tap().skip_all("cannot fetch the 6.12 kernel")
    vmlinux, xfs = paths
    tap = Tap(diag_lines=None, diag_width=None)
    lint = Lint(a.layoutlint, timeout=1800)
    rules = os.path.join(a.rules_dir, "file.rules")
    # (what it covers, arguments, exit statuses that are answers)
    cases = [
        ("late unit, one definition", ["--format=json", vmlinux] + structs("printf_spec"),
         (0, 1)),
        ("~1,800 identical copies, rules, --suggest",
         ["--format=json", "--suggest", "-r", rules, vmlinux] + structs("file"), (0, 1)),
        ("short names stored inline", ["--format=json", vmlinux] +
         structs("pid", "key", "optimistic_spin_node"), (0, 1)),
        ("short missing name: every unit holding its bytes",
         [vmlinux] + structs("zqx"), (2,)),
        ("misspelt name: did-you-mean", [vmlinux] + structs("task_strct"), (2,)),
        ("20 structs in one run", ["--format=json", vmlinux] + structs(*TWENTY), (0, 1)),
        # Exit 2: no name matches. The libdw walk collects ~1.3 million names
        # here; growing that array one element at a time took over 10 min
        # under ASan, whose realloc always copies.
        ("forced walk of every unit", ["--list=zz_no_match*", vmlinux], (2,)),
        ("ET_REL module through libdwfl", ["--format=json", xfs] + structs("xfs_buf"),
         (0, 1)),
        # The access analyzer: every unit's top-level DIEs, osq_lock.c's code.
        ("--access on the image", ["--access", "--no-cache", "--format=json", vmlinux] +
         structs("optimistic_spin_node"), (0, 1)),
        ("--access on a module, laid out by libdwfl",
         ["--access", "--no-cache", "--format=json", xfs] + structs("xfs_buf"), (0, 1)),
    ]
    env = {"ASAN_OPTIONS": "detect_leaks=1", "LAYOUTLINT_THREADS": "2"}
    for what, args, answers in cases:
        runs = {}
        for label, extra in (("scan", {}), ("libdw walk", {"LAYOUTLINT_SCAN": "libdw"})):
            p = lint.run(*args, extra_env=dict(env, **extra))
            runs[label] = p
            tap.ok(p.returncode in answers and
                   not any(w in p.stderr for w in SANITIZER_WORDS),
                   f"{what} ({label}): exit {p.returncode}, no sanitizer report",
                   p.stderr[-3000:])
        scan, walk = runs["scan"], runs["libdw walk"]
        tap.ok((scan.returncode, scan.stdout, scan.stderr) ==
               (walk.returncode, walk.stdout, walk.stderr),
               f"{what}: the scan and the libdw walk agree byte for byte",
               f"scan: {scan.stderr[-1000:]}\nwalk: {walk.stderr[-1000:]}")
    # Warm: the name index a --list='*' leaves in a cache of this run's own,
    # then lookups it answers alone or helps with (a missing name, one
    # with close names, the struct with ~1,800 copies), each against the
    # same lookup without the index (LAYOUTLINT_CACHE=off), byte for byte.
    with tempfile.TemporaryDirectory() as cache:
        warm_env = dict(env, XDG_CACHE_HOME=cache)
        p = lint.run("--list=*", vmlinux, extra_env=warm_env)
        tap.ok(p.returncode in (0, 1) and not any(w in p.stderr for w in SANITIZER_WORDS) and
               any(f.endswith(".index") for f in os.listdir(os.path.join(cache, "layoutlint"))
                   if os.path.isdir(os.path.join(cache, "layoutlint"))),
               "--list='*' leaves a name index, no sanitizer report", p.stderr[-3000:])
        for what, args in (("warm missing name, nothing near", structs("no_such_struct_x")),
                           ("warm misspelt name: did-you-mean", structs("task_strct")),
                           ("warm short misspelt name", structs("fil")),
                           ("warm mixed: found, missing, misspelt",
                            structs("file", "no_such_struct_x", "task_strct"))):
            warm = lint.run(vmlinux, *args, extra_env=warm_env)
            cold = lint.run(vmlinux, *args, extra_env=dict(env, LAYOUTLINT_CACHE="off"))
            tap.ok(warm.returncode == 2 and
                   not any(w in warm.stderr for w in SANITIZER_WORDS) and
                   (warm.returncode, warm.stdout, warm.stderr) ==
                   (cold.returncode, cold.stdout, cold.stderr),
                   f"{what}: exit 2, no sanitizer report, as without the index",
                   f"warm: {warm.stderr[-1500:]}\ncold: {cold.stderr[-1500:]}")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
