#!/usr/bin/env python3
"""The raw scan against the plain libdw walk, on the 6.12 vmlinux.

For 1,000 names drawn with a fixed seed from the image's own struct list
(plus short names that gcc stores inline, `pid` and `key`, and names that
exist in .debug_str only as the tail of longer strings, `file` and
`task_struct`), one run asks for all of them at once, and 20 of them are
asked one at a time (the byte-filter path a run of many names skips):

  - LAYOUTLINT_SCAN=libdw: every unit walked with dwarf_next_unit /
    dwarf_child / dwarf_siblingof, no raw scan, no sparse image;
  - the default path on 1 thread and on 2 threads.

The same again with the name index a whole-image run leaves: one from a
listing that looked nothing up (each name's units read, no others), and
one from a --list='*' (each name's definitions recorded: a warm lookup
reads only the unit it builds). And the whole-image runs themselves,
--list='*', --audit='*' and --contains, warm against cold. The JSON documents must be byte-identical: the same definition (its
.debug_info offset is the "origin" of each struct), the same layout.
A miss goes through the same comparison: both paths must say the same.
"""
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Lint, Tap, parse_args  # noqa: E402

SEED = 20261202
SAMPLE = 1000
MUST = ["pid", "key", "file", "task_struct"]
# Asked alone as well: a late struct, one defined in ~1,500 units, a short
# inline-capable name; then the first ALONE_SAMPLE names of the sample.
ALONE = ["printf_spec", "task_struct", "optimistic_spin_node", "cred", "pid"]
ALONE_SAMPLE = 15
# Three names with 9 .debug_str offsets between them: still the filter.
FEW = "printf_spec,optimistic_spin_node,task_struct"
TYPOS = {"task_strct": "did you mean struct task_struct?",
         "sk_buf": "did you mean struct sk_buff?",
         "printf_specs": "did you mean struct printf_spec?",
         "netdevice": "did you mean struct net_device?",
         "optimistic_spin_nod": "did you mean struct optimistic_spin_node?",
         "xyzzy_quux": "struct xyzzy_quux not found"}


# Peak resident memory of a cold whole-image run: issue 20's target, 150 MB.
# 101-114 MB measured once builds went in rounds over the file's own
# mapping, giving each round's pages back, and the variables walk its
# pages; 264-425 MB before.
PEAK_MB = 150
# A cold lookup of one late struct: 27-29 MB while libdw was handed each
# of the ~3,000 unit headers before it (a fresh page each), 15-18 MB with
# one made-up header standing in for them (ll_finder_skip_headers()).
# 16-22 MB since the heap takes huge pages from its first block on and
# each scan thread's pread buffer is one (2 MB steps, cli/main.c,
# raw/scan_unit_filter.c): the headers handed over would still add 10 MB or more.
LATE_PEAK_MB = 26


# A child's ru_maxrss counts the memory of the process it was forked from
# (Linux records the old mm's high-water mark at exec): spawned from this
# test, whatever TOOL does reads as at least this test's own ~26 MB. Each
# run is therefore started from a fresh, small python (~10 MB).
SPAWN_SMALL = """import os, sys
quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=quiet)
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def peak_rss_mb(tool, *args, env_extra):
    """(exit status, peak RSS in MB) of one run of TOOL, by wait4() in a small process."""
    env = dict(os.environ, **env_extra)
    out = subprocess.run([sys.executable, "-c", SPAWN_SMALL, tool, *args], env=env,
                         capture_output=True, text=True).stdout.split()
    return (int(out[0]), int(out[1]) / 1024) if len(out) == 2 else (-1, float("inf"))


def main():
    a = parse_args("layoutlint", doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    paths = fetch("6.12")
    if not paths:
        return tap.skip_all("cannot fetch the 6.12 kernel")
    vmlinux = paths[0]
    lint = Lint(a.layoutlint, timeout=900)

    listing = lint.run("--list=*", vmlinux, extra_env={"LAYOUTLINT_CACHE": "off"})
    rows = [line.split() for line in listing.stdout.splitlines()[1:]]
    counts = {}
    for r in rows:
        if len(r) >= 2:
            counts[r[1]] = counts.get(r[1], 0) + 1
    # Names listed once: a name with distinct definitions is refused (docs/cli.md).
    pool = sorted(n for n, c in counts.items() if c == 1 and n not in MUST)
    tap.ok(len(pool) > 5000, f"the listing has {len(pool)} single-definition names")
    names = MUST + random.Random(SEED).sample(pool, SAMPLE)

    # The name index: built by a --list in a cache of this run's own, then
    # read by the index mode; the other modes run without one.
    cache = tempfile.mkdtemp(prefix="fastpath-cache-")
    built = lint.run("--list=zz_no_match*", vmlinux, extra_env={"XDG_CACHE_HOME": cache})
    index = [f for f in os.listdir(os.path.join(cache, "layoutlint")) if f.endswith(".index")] \
        if os.path.isdir(os.path.join(cache, "layoutlint")) else []
    tap.ok(built.returncode == 2 and len(index) == 1, "a whole-image run leaves a name index",
           built.stderr)
    # A --list='*' records every name's definitions as it writes the index.
    full = tempfile.mkdtemp(prefix="fastpath-full-")
    first = lint.run("--list=*", vmlinux, extra_env={"XDG_CACHE_HOME": full})
    tap.ok(first.returncode == 0 and first.stdout == listing.stdout,
           "--list='*' writing the index answers as without one", first.stderr[-500:])
    warm = lint.run("--list=*", vmlinux, extra_env={"XDG_CACHE_HOME": full})
    tap.ok(warm.returncode == 0 and warm.stdout == listing.stdout and not warm.stderr,
           "--list='*' from the index: byte-identical", warm.stderr[-500:])
    # --contains from the index builds only the structs whose recorded
    # member-type words hold TYPE's (format 8): types met at every depth,
    # typedefs and the base word of a C spelling ("long"). The first
    # --audit is cold and records what its member filter said of each
    # definition (format 9); the ones after it answer from the index,
    # building only what the filter needs (and scanning for the variables
    # alone when the glob takes them in, the first time: that scan keeps
    # them in BUILD-ID.vars, which the --audit runs after it read).
    for args in (["--audit=*"], ["--contains=address_space"], ["--contains=list_head"],
                 ["--contains=spinlock_t"], ["--contains=struct page"], ["--contains=long"],
                 ["--list=tcp_*"], ["--list=*", "--cacheline=128"],
                 ["--contains=addres_space"], ["--audit=*"], ["--audit=tcp_*"],
                 ["--audit=variables"], ["--audit=*sock*", "--cacheline=128"],
                 ["--audit=*"]):
        cold = lint.run(*args, vmlinux, extra_env={"LAYOUTLINT_CACHE": "off"})
        hot = lint.run(*args, vmlinux, extra_env={"XDG_CACHE_HOME": full})
        tap.ok((hot.returncode, hot.stdout, hot.stderr) == (cold.returncode, cold.stdout,
                                                             cold.stderr),
               f"{' '.join(args)} with the full index: byte-identical (exit {cold.returncode})",
               hot.stderr[-500:] + cold.stderr[-500:])
    kept = glob.glob(os.path.join(full, "layoutlint", "*.vars"))
    tap.ok(len(kept) == 1 and os.path.getsize(kept[0]) > 1 << 20,
           "the warm --audit kept the image's global variables beside the index", kept)
    # A cold --contains builds only the structs the scan's member words say
    # can hold TYPE; the libdw walk reads no words and builds every struct.
    for args in (["--contains=address_space"], ["--contains=spinlock_t"],
                 ["--contains=struct callback_head"]):
        cold = lint.run(*args, vmlinux, extra_env={"LAYOUTLINT_CACHE": "off"})
        every = lint.run(*args, vmlinux, extra_env={"LAYOUTLINT_CACHE": "off",
                                                    "LAYOUTLINT_SCAN": "libdw"})
        tap.ok(cold.returncode == 0 and cold.stdout and cold == every,
               f"{' '.join(args)} cold: byte-identical to the libdw walk's, which builds "
               "every struct", cold.stderr[-500:] + every.stderr[-500:])
    # An index --audit='*' wrote has hole counts and words for the ~150
    # structs it built: the first warm --list builds the rest and records
    # them (the index is then the one --list='*' writes), the next builds
    # nothing.
    audited = tempfile.mkdtemp(prefix="fastpath-audit-")
    lint.run("--audit=*", vmlinux, extra_env={"XDG_CACHE_HOME": audited})
    again = [lint.run("--list=*", vmlinux, extra_env={"XDG_CACHE_HOME": audited})
             for _ in range(2)]

    def index_bytes(root):
        d = os.path.join(root, "layoutlint")
        f = [n for n in os.listdir(d) if n.endswith(".index")] if os.path.isdir(d) else []
        return open(os.path.join(d, f[0]), "rb").read() if len(f) == 1 else None

    tap.ok(all(r.returncode == 0 and r.stdout == listing.stdout for r in again) and
           index_bytes(audited) is not None and index_bytes(audited) == index_bytes(full),
           "--list='*' twice over an --audit's index: byte-identical, and the index filled in "
           "as --list writes it", "".join(r.stderr[-300:] for r in again))
    shutil.rmtree(audited, ignore_errors=True)
    for args in (["--list=*"], ["--contains=address_space"], ["--audit=*"]):
        rc, mb = peak_rss_mb(lint.tool, *args, vmlinux,
                             env_extra={"LAYOUTLINT_CACHE": "off", "LAYOUTLINT_THREADS": "2"})
        tap.ok(rc == 0 and mb < PEAK_MB,
               f"{' '.join(args)} cold: peak RSS {mb:.0f} MB (under {PEAK_MB})", f"exit {rc}")
    # The globals aggregate fills its members on two threads (from 8,192 on): the same on one.
    for args in (["--format=json", vmlinux, "global", "variables"], ["--audit=*", vmlinux]):
        one, two = (lint.run(*args, extra_env={"LAYOUTLINT_CACHE": "off", "LAYOUTLINT_THREADS": t})
                    for t in ("1", "2"))
        tap.ok(one.returncode in (0, 1) and one.stdout and
               (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr),
               f"{args[0]} {' '.join(args[2:])}: 1 and 2 threads byte-identical",
               one.stderr[-500:] + two.stderr[-500:])
    for threads in ("1", "2"):
        rc, mb = peak_rss_mb(lint.tool, vmlinux, "struct", "printf_spec",
                             env_extra={"LAYOUTLINT_CACHE": "off", "LAYOUTLINT_THREADS": threads})
        tap.ok(rc == 0 and mb < LATE_PEAK_MB,
               f"struct printf_spec cold, {threads} thread(s): peak RSS {mb:.0f} MB "
               f"(under {LATE_PEAK_MB}: the headers before it skipped)", f"exit {rc}")
    modes = {"libdw walk": {"LAYOUTLINT_SCAN": "libdw", "LAYOUTLINT_CACHE": "off"},
             "scan, 1 thread": {"LAYOUTLINT_THREADS": "1", "LAYOUTLINT_CACHE": "off"},
             "scan, 2 threads": {"LAYOUTLINT_THREADS": "2", "LAYOUTLINT_CACHE": "off"},
             "scan, name index": {"LAYOUTLINT_THREADS": "2", "XDG_CACHE_HOME": cache},
             "warm, full index": {"LAYOUTLINT_THREADS": "2", "XDG_CACHE_HOME": full}}
    # A name the tool refuses (declared only, ...) stops the run with exit
    # 2; each such refusal must be the same on every path, then it is left
    # out and the run repeated.
    refused = []
    for _ in range(60):
        outs = {m: lint.run("--format=json", vmlinux, *names, extra_env=env)
                for m, env in modes.items()}
        ref = outs["libdw walk"]
        same = all(o.returncode == ref.returncode and o.stdout == ref.stdout and
                   o.stderr == ref.stderr for o in outs.values())
        if not same or ref.returncode != 2:
            break
        m = re.search(r": (?:struct|union) (\S+) ", ref.stderr)
        if not m or m.group(1) not in names:
            break
        refused.append(m.group(1))
        names.remove(m.group(1))
    for m, o in outs.items():
        tap.ok(o.returncode in (0, 1), f"{m}: exit {o.returncode}", o.stderr[-2000:])
    for m in ("scan, 1 thread", "scan, 2 threads", "scan, name index", "warm, full index"):
        tap.ok(outs[m].stdout == ref.stdout and outs[m].stderr == ref.stderr,
               f"{m}: byte-identical to the libdw walk ({len(names)} names)")
    try:
        doc = json.loads(ref.stdout)
    except ValueError:
        doc = {"structs": []}
    structs = doc.get("structs", [])
    tap.ok(len(structs) == len(names), f"{len(structs)} structs for {len(names)} names")
    tap.ok(all(s.get("origin") for s in structs), "every struct names its DIE offset")
    got = {s["name"] for s in structs}
    for n in MUST:
        tap.ok(n in got or n in refused, f"{n} is found (short inline / suffix-only name)")
    tap.ok(len(refused) < 50, f"{len(refused)} names refused alike on every path: "
           + ", ".join(refused[:10]))

    # One name at a time: with few .debug_str offsets the scan filters
    # units by their bytes (anchored on each offset's rarest byte) and
    # stops walking a unit once its rest cannot name a wanted struct; a
    # run of 1,000 names takes neither shortcut.
    alone = ALONE + [n for n in names if n not in ALONE][:ALONE_SAMPLE]
    for name in alone + [FEW]:
        outs = {m: lint.run("--format=json", vmlinux, *name.split(","), extra_env=env)
                for m, env in modes.items()}
        ref = outs["libdw walk"]
        same = all((o.returncode, o.stdout, o.stderr) == (ref.returncode, ref.stdout, ref.stderr)
                   for o in outs.values())
        tap.ok(same and (ref.stdout or ref.stderr), f"{name} alone: byte-identical to the libdw walk",
               repr({m: (o.returncode, o.stderr[-300:]) for m, o in outs.items()}))

    # Misspelt names: the raw suggestion (a .debug_str pass split between
    # threads, then a scan that stops at the first definition of the
    # closest candidate) against the libdw walk's suggestion.
    for typo, want in TYPOS.items():
        outs = {m: lint.run(vmlinux, "struct", typo, extra_env=env) for m, env in modes.items()}
        ref = outs["libdw walk"]
        same = all((o.returncode, o.stdout, o.stderr) == (ref.returncode, ref.stdout, ref.stderr)
                   for o in outs.values())
        tap.ok(same and ref.returncode == 2 and ref.stderr.rstrip().endswith(want),
               f"{typo}: '{want}' on every path", repr({m: o.stderr for m, o in outs.items()}))
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(full, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
