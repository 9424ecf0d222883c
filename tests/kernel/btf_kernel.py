#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real kernel, BTF: the 6.12 image's .BTF against its own DWARF, and the
running kernel's /sys/kernel/btf/vmlinux.

usage: btf_kernel.py --layoutlint PATH --rules-dir DIR [--count N] [--workdir DIR]

- vmlinux: the real-kernel suite's structs (pahole_compare.py's selection:
  its fixed names plus a random.Random(12345) sample of pahole's unique
  layouts, 200 in all, and sk_buff and inode) read from the DWARF, from the
  ELF's .BTF (--btf) and from the raw .BTF (objcopy --dump-section): the
  two BTF readings are identical, and against DWARF every member (the whole
  tree, anonymous aggregates included) has the same offset, size, bit offset
  and width, and the struct the same size. Types are compared too, with
  BTF's spelling of arrays (char[0] and char[] are both "[]"; pahole
  flattens int[2][3]); alignment is not (BTF has no alignment attributes).
  A name either reader finds several definitions of is skipped, reported.
- xfs.ko: split BTF read with --btf-base (the raw vmlinux BTF, and the
  vmlinux ELF) against the module's DWARF, the same way, for the module's
  well-known structs.
- /sys/kernel/btf/vmlinux (skipped where it does not exist): struct file
  and struct task_struct load and lint with rules/file.rules (exit 0 or 1,
  listings and findings, JSON that parses); a struct from it takes under
  50 ms, wall clock for the whole process (median of 11 runs; min, median
  and max are printed).
"""
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Tap, parse_args, run  # noqa: E402
import pahole_compare  # noqa: E402

EXTRA = ["sk_buff", "inode"]
MODULE = "fs/xfs/xfs.ko"
MODULE_STRUCTS = ["xfs_inode", "xfs_mount", "xfs_buf", "xfs_trans", "xfs_log_item",
                  "xfs_perag", "xfs_ail", "xfs_dquot", "xfs_buftarg", "xfs_cil"]
SYS_BTF = "/sys/kernel/btf/vmlinux"
BUDGET_MS = 50.0
BATCH = 50


def diag(msg):
    for ln in str(msg).splitlines() or [""]:
        print("# " + ln)
    sys.stdout.flush()


def lint(layoutlint, args, items, timeout=900):
    """(kind, name) -> JSON struct, and name -> error, batch by batch;
    a failing batch is retried one name at a time."""
    found, errors = {}, {}
    todo = [items[i:i + BATCH] for i in range(0, len(items), BATCH)]
    while todo:
        batch = todo.pop(0)
        argv = [layoutlint, "--format=json"] + args
        for kind, name in batch:
            argv += [kind, name]
        p = run(argv, timeout=timeout)
        if p.returncode in (0, 1):
            for s in json.loads(p.stdout)["structs"]:
                found[(s["kind"], s["name"])] = s
            continue
        if len(batch) == 1:
            errors[batch[0]] = p.stderr.strip()
        else:
            todo[0:0] = [[it] for it in batch]
    return found, errors


def array_spelling(t):
    """DWARF's array spelling as BTF gives it: dimensions multiplied, [0] -> []."""
    def one(m):
        dims = re.findall(r"\[(\d*)\]", m.group(0))
        n = 1
        for x in dims:
            n *= int(x) if x else 0
        return "[%d]" % n if n else "[]"
    return re.sub(r"(\[\d*\])+", one, t) if t else t


def walk(members, out, prefix=""):
    for i, m in enumerate(members or []):
        key = m.get("path") or "%s<anon#%d>" % (prefix, i)
        out[key] = m
        walk(m.get("members"), out, key + ".")
    return out


def compare(dw, bt, counts):
    bad = []
    for k in ("kind", "size", "cacheline"):
        if dw.get(k) != bt.get(k):
            bad.append("%s: DWARF %r, BTF %r" % (k, dw.get(k), bt.get(k)))
    md, mb = walk(dw.get("members"), {}), walk(bt.get("members"), {})
    if list(md) != list(mb):
        only_d = [p for p in md if p not in mb][:5]
        only_b = [p for p in mb if p not in md][:5]
        bad.append("member paths differ: only DWARF %s, only BTF %s" % (only_d, only_b))
    for path, a in md.items():
        b = mb.get(path)
        if b is None:
            continue
        counts["members"] += 1
        counts["bitfields"] += a.get("bit_size") is not None
        for k in ("offset", "size", "bit_offset", "bit_size"):
            if a.get(k) != b.get(k):
                bad.append("%s: %s: DWARF %r, BTF %r" % (path, k, a.get(k), b.get(k)))
        if a.get("type") != b.get("type"):
            counts["types_respelt"] += 1
            if array_spelling(a.get("type")) != b.get("type"):
                bad.append("%s: type: DWARF %r, BTF %r" % (path, a.get("type"), b.get("type")))
        if b.get("decl") is not None:
            bad.append("%s: decl under BTF" % path)
        if a.get("alignment") != b.get("alignment"):
            counts["alignment_differs"] += 1
    return bad


def compare_image(tap, layoutlint, label, dwarf_args, btf_argsets, items):
    """One test point per struct: DWARF against every BTF reading."""
    t0 = time.monotonic()
    dwarf, derr = lint(layoutlint, dwarf_args, items)
    t_dwarf = time.monotonic() - t0
    btfs = []
    for args in btf_argsets:
        t0 = time.monotonic()
        btfs.append(lint(layoutlint, args, items) + (time.monotonic() - t0,))
    counts = {"members": 0, "bitfields": 0, "types_respelt": 0, "alignment_differs": 0}
    compared = skipped = 0
    for kind, name in items:
        title = "%s: %s %s: BTF = DWARF" % (label, kind, name)
        errs = [derr.get((kind, name))] + [b[1].get((kind, name)) for b in btfs]
        if any(e and re.search(r"distinct definitions", e) for e in errs):
            skipped += 1
            tap.skip(title, "several definitions: " + next(e for e in errs if e))
            continue
        if any(errs):
            tap.ok(False, title, "\n".join(e for e in errs if e))
            continue
        d = dwarf.get((kind, name))
        readings = [b[0].get((kind, name)) for b in btfs]
        bad = []
        if d is None or any(r is None for r in readings):
            bad.append("missing from a JSON document")
        else:
            for args, r in zip(btf_argsets, readings):
                if json.dumps(r, sort_keys=True) != json.dumps(readings[0], sort_keys=True):
                    bad.append("BTF via %s differs from BTF via %s" % (
                        " ".join(args), " ".join(btf_argsets[0])))
            bad += compare(d, readings[0], counts)
        compared += not bad
        tap.ok(not bad, title, "\n".join(bad[:30]))
    diag("%s: %d structs compared equal, %d skipped; %d members (%d bitfields) with "
         "identical offsets and sizes; %d types spelt the BTF way (arrays), alignment "
         "differs (explicit, not in BTF) on %d members; DWARF %.1f s, BTF %s"
         % (label, compared, skipped, counts["members"], counts["bitfields"],
            counts["types_respelt"], counts["alignment_differs"], t_dwarf,
            ", ".join("%.1f s" % b[2] for b in btfs)))


def dump_btf(image, workdir):
    """The raw .BTF of IMAGE, extracted once into WORKDIR."""
    out = os.path.join(workdir, os.path.basename(image) + ".btf")
    if not (os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(image)):
        tmp = out + ".tmp"
        p = run(["objcopy", "--dump-section", ".BTF=" + tmp, image, "/dev/null"], timeout=600)
        if p.returncode != 0 or not os.path.exists(tmp):
            return None
        os.replace(tmp, out)
    return out


def select_vmlinux(vmlinux, count):
    pahole = shutil.which("pahole")
    text, _ = pahole_compare.get_dump(vmlinux, pahole, diag)
    structs, _ = pahole_compare.parse_dump(text)
    uniq = pahole_compare.unique_layouts(structs)
    chosen = pahole_compare.select(list(uniq), count, pahole_compare.ALWAYS)
    chosen += [n for n in EXTRA if n not in chosen and n in uniq]
    return [(uniq[n].kind, n) for n in chosen]


def sys_btf(tap, layoutlint, rules_dir):
    if not os.path.exists(SYS_BTF):
        tap.skip(SYS_BTF, "this kernel has no BTF in sysfs")
        return
    rules = os.path.join(rules_dir, "file.rules")
    p = run([layoutlint, "-r", rules, SYS_BTF, "struct", "file", "struct", "task_struct"])
    good = p.returncode in (0, 1) and "struct file {" in p.stdout and \
        "struct task_struct {" in p.stdout and "[" in p.stdout
    tap.ok(good, "%s: struct file and struct task_struct load and lint with %s (exit %d)"
           % (SYS_BTF, rules, p.returncode), p.stderr)
    diag("  " + "\n  ".join([ln for ln in p.stdout.splitlines() if "error:" in ln][:3]))
    p = run([layoutlint, "--format=json", "-r", rules, SYS_BTF, "struct", "file",
             "struct", "task_struct"])
    try:
        doc = json.loads(p.stdout)
        sizes = {s["name"]: (s["size"], len(s["findings"]), s["alignment_inferred"])
                 for s in doc["structs"]}
        good = p.returncode in (0, 1) and set(sizes) == {"file", "task_struct"} and \
            all(v[0] > 0 and v[2] for v in sizes.values())
        diag("  running kernel: %s" % ", ".join("struct %s %d bytes, %d findings" % (n, v[0], v[1])
                                               for n, v in sorted(sizes.items())))
    except (ValueError, KeyError) as e:
        good, sizes = False, str(e)
    tap.ok(good, "%s: the same as JSON: both structs, sizes, alignment inferred" % SYS_BTF,
           p.stderr)
    argv = [layoutlint, "-q", SYS_BTF, "struct", "file"]
    # As a user runs it: meson test sets MALLOC_PERTURB_, which makes glibc
    # fill every allocation, and so fault in libbpf's 5 MB copy page by page.
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}

    def measure():
        runs = []
        for _ in range(11):
            t0 = time.perf_counter()
            run(argv, env=env)
            runs.append((time.perf_counter() - t0) * 1000)
        return statistics.median(runs), runs

    med, runs = measure()
    if med >= BUDGET_MS:
        # One more series: a busy machine (parallel tests) is not a slow reader.
        diag("first series: median %.1f ms (%s); measuring again" % (
            med, " ".join("%.0f" % r for r in runs)))
        med, runs = min((med, runs), measure())
    tap.ok(med < BUDGET_MS, "%s: struct file in %.1f ms (median of 11; min %.1f, max %.1f; "
           "budget %.0f ms, process start included)" % (SYS_BTF, med, min(runs), max(runs),
                                                       BUDGET_MS))


def main():
    a = parse_args("layoutlint",
                   "rules-dir",
                   count=dict(type=int, default=200),
                   workdir=dict(required=False,
                                help="where the extracted .BTF goes (default: a temporary "
                                     "directory)"),
                   doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    layoutlint = os.path.abspath(a.layoutlint)
    workdir = a.workdir or tempfile.mkdtemp(prefix="layoutlint-btf-kernel-")
    os.makedirs(workdir, exist_ok=True)

    paths = fetch("6.12", MODULE) or fetch("6.12")
    if not paths or not shutil.which("pahole") or not shutil.which("objcopy"):
        diag("no 6.12 image (or no pahole/objcopy): only the running kernel's BTF")
    else:
        vmlinux = paths[0]
        raw = dump_btf(vmlinux, workdir)
        tap.ok(raw is not None, "objcopy --dump-section .BTF of %s" % vmlinux)
        if raw:
            items = select_vmlinux(vmlinux, a.count)
            compare_image(tap, layoutlint, "vmlinux 6.12", [vmlinux],
                          [["--btf", vmlinux], [raw]], items)
            if len(paths) > 1:
                ko = paths[1]
                compare_image(tap, layoutlint, "xfs.ko 6.12", [ko],
                              [["--btf-base", raw, ko], ["--btf-base", vmlinux, ko]],
                              [("struct", n) for n in MODULE_STRUCTS])
    sys_btf(tap, layoutlint, a.rules_dir)
    if not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
