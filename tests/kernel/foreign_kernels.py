#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's foreign-architecture kernels: every struct against pahole (TAP).

usage: foreign_kernels.py --layoutlint PATH [--arch ARCH]... [--only NAME]...

For each architecture (default arm64, i386 and s390x: little-endian 64-bit,
32-bit with the i386 ABI's 4-byte alignment of 8-byte types, big-endian with
256-byte cachelines) scripts/fetch-kernel fetches Debian 12's 6.1 debug
vmlinux (the only series Debian 12 builds for all three), and:

  * `--list='*'` and `--audit='*'` must exit 0, every line in the documented
    form, timed (wall clock and peak RSS printed);
  * `--list` must name what pahole names, with pahole's size and hole count;
  * EVERY struct and union `--list` shows is compared, by one layoutlint
    run, with ONE pahole dump of the image (`pahole -F dwarf
    --cacheline_size=LINE`, Debian's 1.24): size, cachelines, holes, every
    member's offset and size, bitfields' bit offset and width, anonymous
    aggregates member by member (tests/kernel/pahole_compare.py's rules);
  * a name with distinct definitions is compared definition by definition
    (`--decl-file FILE` picks each; `--size N` too where two sit at one file
    and line, as elf_thread_core_info on arm64 and s390x) with the layouts
    pahole prints for it, and every layout pahole prints must be among them;
  * what pahole's dump leaves out (typedef'd anonymous structs and unions:
    atomic_t, seqlock_t, xfrm_address_t...) and the few structs where
    pahole 1.24 is wrong (PAHOLE_WRONG below, each with its reason) are
    compared with drgn (tests/kernel/drgn_layout.py) instead; so is every
    struct with a bitfield, a check on pahole's bit positions that does
    not trust pahole (drgn reads both DWARF bitfield forms, in the image's
    byte order).
0 differences are required; each one is printed with the struct, the
member and both values.

The dump is cached next to the image as <image>.pahole.txt, its first line
a key (the image's build-id, size and mtime, pahole's version, the line
size): another image, or another pahole, is dumped again.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, build_id, parse_args  # noqa: E402
import pahole_compare as pc  # noqa: E402

# The kernel's own L1_CACHE_BYTES for each image: s390's is 256
# (arch/s390/include/asm/cache.h); arm64's is 64; Debian's 686 flavour
# builds for X86_GENERIC, whose X86_L1_CACHE_SHIFT is 6.
ARCHES = {"arm64": 64, "i386": 64, "s390x": 256}
SERIES = "6.1"
DRGN_PYTHONS = ("/usr/bin/python3", "python3")

# Where pahole 1.24 itself is wrong, found by this test and checked with
# drgn and the kernel source.  Each entry: the struct, why, and a pattern
# every difference from pahole must match.  Such a struct is still compared
# with pahole (any OTHER difference fails) and, in full, with drgn.  An
# entry pahole no longer disagrees with fails too: delete it then.
PAHOLE_WRONG = {
    "imx_pgc_domain": (
        "pahole 1.24 prints a member whose type is a const-qualified "
        "anonymous struct (drivers/soc/imx/gpcv2.c: 'const struct {...} "
        "bits;') as an anonymous struct member, without its name",
        r"^(bits: not in pahole \(layoutlint offset \d+ size \d+\)"
        r"|<anonymous>: pahole has 1 anonymous aggregates, layoutlint 0)$"),
}

LIST_ROW = re.compile(
    r"^(struct|union) +(\S+) +(\d+) +(\d+) +(\d+)  (\S.*:\d+)$")
LIST_DISTINCT = re.compile(r"^\? +(\S+) +\(distinct definitions: (.*)\)$")
DEFINITION = re.compile(r"(\S+):(\d+) \(size (\d+)(?:, DIE 0x[0-9a-f]+)?\)")
AUDIT_ROW = re.compile(r"^ *(\d+)  (struct|union) (\S+): (line \d+: .*)$")
# The global variables' row, then one indented line per lock it names.
AUDIT_GLOBAL = re.compile(r"^ *(\d+)  global (variables|percpu):$")
AUDIT_GLOBAL_LINE = re.compile(r"^      line (\d+) \(0x[0-9a-f]+\): \S.* \(.*\)")


# --------------------------------------------------------------------------
# running things: wall clock and peak RSS of the one child
# --------------------------------------------------------------------------

class Ran:
    def __init__(self, rc, out, err, secs, usage):
        self.rc, self.out, self.err = rc, out, err
        self.secs, self.rss_kb = secs, usage.ru_maxrss
        self.cpu = usage.ru_utime + usage.ru_stime

    def cost(self):
        # CPU time too: on a shared machine the wall clock says little.
        return "%.1f s (%.1f s CPU), %d MB" % (self.secs, self.cpu, self.rss_kb // 1024)


def measure(argv, timeout, stdin_text=None, out_file=None):
    """Run ARGV; its exit status, output, time and own peak RSS (wait4)."""
    with tempfile.TemporaryFile() as err:
        out = out_file or tempfile.TemporaryFile()
        t0 = time.monotonic()
        p = subprocess.Popen([str(a) for a in argv], stdout=out, stderr=err,
                             stdin=subprocess.PIPE if stdin_text is not None
                             else subprocess.DEVNULL)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        try:
            if stdin_text is not None:
                p.stdin.write(stdin_text.encode())
                p.stdin.close()
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        secs = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        errtext = err.read().decode("utf-8", "replace")
        text = ""
        if out_file is None:
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
            out.close()
        if p.returncode == -9 and secs >= timeout:
            errtext = "timed out after %d s\n%s" % (timeout, errtext)
        return Ran(p.returncode, text, errtext, secs, usage)


# --------------------------------------------------------------------------
# the pahole dump, cached with its key
# --------------------------------------------------------------------------

def dump_key(image, pahole, line):
    st = os.stat(image)
    ver = subprocess.run([pahole, "--version"], capture_output=True,
                         text=True).stdout.strip()
    return ("/* layoutlint-foreign-kernels key: build-id %s size %d mtime %d "
            "pahole %s cacheline %d */" % (build_id(image), st.st_size,
                                           st.st_mtime_ns, ver, line))


def get_dump(image, pahole, line, diag):
    """(text, what pahole took, whether it was cached).  The first line is
    the key, then what pahole took (time, CPU, RSS), then pahole's output."""
    path = image + ".pahole.txt"
    key = dump_key(image, pahole, line)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            if f.readline().rstrip("\n") == key:
                m = re.match(r"/\* pahole took (.*) \*/$", f.readline().rstrip("\n"))
                text = f.read()
                if m and pc.dump_looks_complete(path):
                    return text, m.group(1), True
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=".pahole.", suffix=".tmp",
                               dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w+b") as out:
            ran = measure([pahole, "-F", "dwarf", "--cacheline_size=%d" % line,
                           image], timeout=3600, out_file=out)
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
        for ln in ran.err.splitlines()[:10]:
            diag("pahole: " + ln)
        if ran.rc != 0 or not pc.dump_looks_complete(tmp):
            raise RuntimeError("pahole on %s failed (status %d)" % (image, ran.rc))
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("%s\n/* pahole took %s */\n%s" % (key, ran.cost(), text))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        tmp = None
        diag("pahole dump: %s (written to %s)" % (ran.cost(), path))
        return text, ran.cost(), False
    finally:
        if tmp:
            os.unlink(tmp)


# --------------------------------------------------------------------------
# --list and --audit
# --------------------------------------------------------------------------

def parse_list(out):
    """(rows [(kind, name, size, lines, holes)], distinct {name: [(file,
    line, size)]}, malformed lines)."""
    rows, distinct, bad = [], {}, []
    lines = out.splitlines()
    if not lines or lines[0].split() != ["kind", "name", "size", "lines",
                                         "holes", "declared", "at"]:
        bad.append("header: %r" % (lines[0] if lines else ""))
    for ln in lines[1:]:
        m = LIST_ROW.match(ln)
        if m:
            rows.append((m.group(1), m.group(2), int(m.group(3)),
                         int(m.group(4)), int(m.group(5))))
            continue
        m = LIST_DISTINCT.match(ln)
        defs = [(f, int(n), int(s)) for f, n, s in DEFINITION.findall(m.group(2))] if m else []
        if len(defs) >= 2:
            distinct[m.group(1)] = defs
        else:
            bad.append(ln)
    return rows, distinct, bad


def check_list(tap, arch, ran, line, pahole_uniq, pahole_names):
    title = "%s: --list='*' exits 0, every line a row" % arch
    rows, distinct, bad = parse_list(ran.out)
    tap.ok(ran.rc == 0 and rows and not bad, title,
           ["exit %d: %s" % (ran.rc, ran.err.strip())] + bad[:20])
    tap.comment("%s: --list='*': %d rows (%d names with distinct definitions), %s"
                % (arch, len(rows) + len(distinct), len(distinct), ran.cost()))
    # The same names as pahole (which also prints the distinct ones), with
    # pahole's sizes and hole counts; what pahole leaves out is checked
    # against drgn later (typedef'd anonymous aggregates).
    wrong = []
    for kind, name, size, lines, holes in rows:
        if lines != math.ceil(size / line):
            wrong.append("%s %s: %d bytes in %d lines of %d" % (kind, name, size, lines, line))
        ps = pahole_uniq.get(name)
        if ps is None or ps.kind != kind or ps.size is None:
            continue
        if (size, holes) != (ps.size, ps.holes[0]):
            wrong.append("%s %s: size %d holes %d; pahole size %d holes %d"
                         % (kind, name, size, holes, ps.size, ps.holes[0]))
    listed = {n for _, n, *_ in rows} | set(distinct)
    for name in sorted(pahole_names - listed):
        wrong.append("%s: pahole prints it, --list does not" % name)
    tap.ok(not wrong, "%s: --list agrees with pahole (names, sizes, holes, lines)"
           % arch, wrong)
    return rows, distinct


def check_audit(tap, arch, ran, listed):
    bad = []
    lines = ran.out.splitlines()
    if not lines or not lines[0].startswith("# heuristic"):
        bad.append("first line: %r" % (lines[0] if lines else ""))
    ranks = []
    global_row = None
    for ln in lines:
        if ln.startswith("#"):
            continue
        g = AUDIT_GLOBAL_LINE.match(ln)
        if g and global_row is not None:
            global_row[1].add(int(g.group(1)))
            continue
        if global_row is not None and not global_row[1]:
            bad.append("global row ranked %d names no line" % global_row[0])
        global_row = None
        g = AUDIT_GLOBAL.match(ln)
        if g:
            global_row = (int(g.group(1)), set())
            ranks.append(global_row[0])
            continue
        m = AUDIT_ROW.match(ln)
        if not m:
            bad.append("not a ranked row: %r" % ln)
            continue
        count, kind, name, rest = int(m.group(1)), m.group(2), m.group(3).rstrip(":"), m.group(4)
        if (kind, name) not in listed:
            bad.append("%s %s: not a name --list shows" % (kind, name))
        if len(re.findall(r"(?:^|; )line \d+: ", rest)) != count:
            bad.append("%s %s: rank %d, lines named: %s" % (kind, name, count, rest))
        ranks.append(count)
    if global_row is not None and not global_row[1]:
        bad.append("global row ranked %d names no line" % global_row[0])
    if ranks != sorted(ranks, reverse=True):
        bad.append("not ranked: %s" % ranks)
    tap.ok(ran.rc == 0 and ranks and not bad,
           "%s: --audit='*' exits 0 and ranks structs that --list shows" % arch,
           ["exit %d: %s" % (ran.rc, ran.err.strip())] + bad[:20])
    tap.comment("%s: --audit='*': %d structs ranked, %s" % (arch, len(ranks), ran.cost()))


# --------------------------------------------------------------------------
# layoutlint's JSON, compared
# --------------------------------------------------------------------------

def lint_json(layoutlint, image, names, extra=()):
    """One layoutlint run over NAMES; (Ran, {(kind, name): struct} or None)."""
    argv = [layoutlint, "--format=json", *extra, image]
    for n in names:
        argv += list(n) if isinstance(n, tuple) else [n]
    ran = measure(argv, timeout=1800)
    if ran.rc not in (0, 1):
        return ran, None
    try:
        doc = json.loads(ran.out)
    except ValueError as e:
        ran.err += "invalid JSON: %s" % e
        return ran, None
    ran.out = None
    return ran, {(s.get("kind"), s.get("name")): s for s in doc.get("structs") or []}


def compare_with_pahole(name, ps, js, line):
    """Differences, labelled with the struct; PAHOLE_WRONG's filtered out
    (and an entry pahole no longer disagrees with reported)."""
    bad, _ = pc.compare_struct(ps, js, line)
    label = "%s %s: " % (ps.kind, name)
    wrong = PAHOLE_WRONG.get(name)
    if wrong:
        if not bad:
            return [label + "pahole agrees now: remove it from PAHOLE_WRONG"]
        bad = [b for b in bad if not re.match(wrong[1], b)]
    return [label + b for b in bad]


def compare_with_drgn(label, dm, jm, path=""):
    """Differences between drgn's member tree DM and layoutlint's JM."""
    bad = []
    for key in ("offset", "size", "bit_offset", "bit_size"):
        if dm.get(key) != jm.get(key):
            bad.append("%s%s: %s drgn %s, layoutlint %s"
                       % (label, path or "(struct)", key, dm.get(key), jm.get(key)))
    jch = [c for c in jm.get("members") or [] if isinstance(c, dict)]
    dch = dm.get("members") or []
    if not path or jch:     # named nested structs: as deep as layoutlint goes
        if [c.get("name") for c in jch] != [c.get("name") for c in dch]:
            bad.append("%s%s: members drgn %s, layoutlint %s"
                       % (label, path or "(struct)", [c.get("name") for c in dch],
                          [c.get("name") for c in jch]))
        else:
            for k, (d, j) in enumerate(zip(dch, jch)):
                sub = d.get("name") or "<anon#%d>" % k
                bad += compare_with_drgn(label, d, j, (path + "." if path else "") + sub)
    return bad


def drgn_python():
    for py in DRGN_PYTHONS:
        if shutil.which(py) and subprocess.run([py, "-c", "import drgn"],
                                               capture_output=True).returncode == 0:
            return shutil.which(py)
    return None


def drgn_layouts(py, image, names):
    ran = measure([py, os.path.join(HERE, "drgn_layout.py"), image], timeout=900,
                  stdin_text="".join(n + "\n" for n in names))
    if ran.rc != 0:
        raise RuntimeError("drgn_layout.py: exit %d: %s" % (ran.rc, ran.err.strip()))
    return json.loads(ran.out), ran


# --------------------------------------------------------------------------
# one architecture
# --------------------------------------------------------------------------

def fetch(arch):
    p = subprocess.run([pc.find_fetch_tool(None), "foreign", arch, SERIES],
                       capture_output=True, text=True)
    paths = p.stdout.split()
    if p.returncode != 0 or len(paths) != 1:
        return None, (p.stderr.strip().splitlines() or ["no path"])[-1]
    return paths[0], None


def run_arch(tap, args, arch, dpy):
    line = ARCHES[arch]
    image, why = fetch(arch)
    if not image:
        tap.skip("%s: Debian's %s image" % (arch, SERIES), "cannot fetch: %s" % why)
        return
    tap.comment("%s: %s (%d MB)" % (arch, image, os.path.getsize(image) >> 20))

    try:
        text, pahole_cost, cached = get_dump(image, args.pahole, line, tap.comment)
    except (RuntimeError, OSError) as e:
        tap.ok(False, "%s: pahole dump" % arch, str(e))
        return
    structs, problems = pc.parse_dump(text)
    del text
    uniq = pc.unique_layouts(structs)
    tap.ok(not problems, "%s: pahole's dump parses (%d names, %d with several layouts)"
           % (arch, len(structs), len(structs) - len(uniq)), problems[:20])

    ran = measure([args.layoutlint, "--list=*", image], timeout=900)
    rows, distinct = check_list(tap, arch, ran, line, uniq, set(structs))
    listed = {(k, n) for k, n, *_ in rows}
    ran = measure([args.layoutlint, "--audit=*", image], timeout=900)
    check_audit(tap, arch, ran, listed)

    only = set(args.only)
    names = [(k, n) for k, n, *_ in rows if not only or n in only]
    in_pahole = [(k, n) for k, n in names if n in structs]
    typedefs = [(k, n) for k, n in names if n not in structs]

    # Every struct pahole prints, in one layoutlint run.
    ran, js = lint_json(args.layoutlint, image, in_pahole)
    if js is None:
        tap.ok(False, "%s: layoutlint --format=json on %d structs" % (arch, len(in_pahole)),
               "exit %d: %s" % (ran.rc, ran.err.strip()))
        return
    tap.comment("%s: layoutlint, %d structs as JSON: %s; pahole's whole dump: "
                "%s%s" % (arch, len(in_pahole), ran.cost(), pahole_cost,
                          " (when it was dumped)" if cached else ""))
    bad, compared = [], 0
    for kind, name in in_pahole:
        j = js.get((kind, name))
        layouts = [s for s in structs[name] if s is not None]
        if j is None:
            bad.append("%s %s: missing from layoutlint's JSON" % (kind, name))
        elif not layouts:
            bad.append("%s %s: pahole's text for it did not parse" % (kind, name))
        elif name in uniq:
            compared += 1
            bad += compare_with_pahole(name, uniq[name], j, line)
        elif not any(not pc.compare_struct(s, j, line)[0] for s in layouts):
            # One definition for layoutlint, several layouts in pahole:
            # layoutlint's must be one of them.
            bad.append("%s %s: one definition in layoutlint, none of pahole's %d "
                       "layouts equal to it; the first: %s"
                       % (kind, name, len(layouts),
                          pc.compare_struct(layouts[0], j, line)[0][:5]))
        else:
            compared += 1
    tap.ok(not bad and compared, "%s: %d structs and unions equal pahole's "
           "(offsets, sizes, bitfields, holes)" % (arch, compared), bad)

    check_distinct(tap, args, arch, image, line, distinct, structs, only)
    bitfields = [(k, n) for k, n in in_pahole
                 if n in uniq and (k, n) in js and has_bitfield(uniq[n].members)]
    check_drgn(tap, args, arch, image, dpy, typedefs, js, bitfields)


def check_distinct(tap, args, arch, image, line, distinct, structs, only):
    """Each definition of a name with several, picked by --decl-file, must
    be one of pahole's layouts for it, and each of those be one of them."""
    by_file, unpickable, unpickable_names = {}, [], set()
    for name, defs in sorted(distinct.items()):
        if only and name not in only:
            continue
        files = [f for f, _, _ in defs]
        for f, ln, size in defs:
            if files.count(f) == 1:
                by_file.setdefault(f, []).append(name)
            else:
                unpickable.append("%s at %s:%d (size %d)" % (name, f, ln, size))
                unpickable_names.add(name)
    bad, n, secs = [], 0, 0.0
    matched = {}
    for f, names in sorted(by_file.items()):
        ran, js = lint_json(args.layoutlint, image, names, ["--decl-file=" + f])
        secs += ran.secs
        if js is None:
            bad.append("--decl-file=%s %s: exit %d: %s"
                       % (f, " ".join(names), ran.rc, ran.err.strip()))
            continue
        for name in names:
            j = js.get(("struct", name)) or js.get(("union", name))
            layouts = [s for s in structs.get(name, []) if s is not None]
            hit = [k for k, s in enumerate(layouts) if not pc.compare_struct(s, j or {}, line)[0]]
            n += 1
            if not j:
                bad.append("%s in %s: missing from layoutlint's JSON" % (name, f))
            elif not hit:
                bad.append("%s in %s (size %s): none of pahole's %d layouts; "
                           "against the first: %s" % (name, f, j.get("size"), len(layouts),
                                                      layouts and pc.compare_struct(
                                                          layouts[0], j, line)[0][:5]))
            matched.setdefault(name, set()).update(hit)
    # Two definitions at one file and line (compat_binfmt_elf.c includes
    # binfmt_elf.c): --decl-file cannot tell them apart, --size can.
    picked = 0
    for name, defs in sorted(distinct.items()):
        if name not in unpickable_names:
            continue
        for f, ln, size in defs:
            ran, js = lint_json(args.layoutlint, image, [name],
                                ["--decl-file=" + f, "--size=%d" % size])
            secs += ran.secs
            j = (js or {}).get(("struct", name)) or (js or {}).get(("union", name))
            if not j or j.get("size") != size:
                bad.append("%s at %s:%d --size=%d: exit %d, size %s: %s"
                           % (name, f, ln, size, ran.rc, j and j.get("size"),
                              ran.err.strip()))
                continue
            picked += 1
            layouts = [s for s in structs.get(name, []) if s is not None]
            hit = [k for k, s in enumerate(layouts) if not pc.compare_struct(s, j, line)[0]]
            matched.setdefault(name, set()).update(hit)
    for name, hit in sorted(matched.items()):
        layouts = [s for s in structs.get(name, []) if s is not None]
        if len(hit) != len(layouts):
            bad.append("%s: pahole prints %d layouts, the definitions match %d"
                       % (name, len(layouts), len(hit)))
    tap.ok(not bad, "%s: %d definitions of %d names with several, each one of "
           "pahole's layouts, every pahole layout among them (%d picked by --size among "
           "definitions at one file and line; %.1f s)"
           % (arch, n + picked, len(matched), picked, secs), bad)


def has_bitfield(members):
    return any(m.bits is not None or (m.children and has_bitfield(m.children))
               for m in members)


def check_drgn(tap, args, arch, image, dpy, typedefs, js_pahole, bitfields):
    """Typedef'd anonymous aggregates (pahole's dump omits them),
    PAHOLE_WRONG's structs and, as a check on pahole's own bit positions
    (big-endian ones above all), every struct with a bitfield, against
    drgn."""
    wrong = [n for n in PAHOLE_WRONG if ("struct", n) in js_pahole]
    title = ("%s: %d typedef'd anonymous aggregates, %d structs pahole gets "
             "wrong and %d with bitfields equal drgn's"
             % (arch, len(typedefs), len(wrong), len(bitfields)))
    if not dpy:
        tap.skip(title, "drgn (python3-drgn) not installed")
        return
    ran, js = lint_json(args.layoutlint, image, typedefs)
    if js is None:
        tap.ok(False, title, "layoutlint: exit %d: %s" % (ran.rc, ran.err.strip()))
        return
    from_main = bitfields + [("struct", n) for n in wrong if ("struct", n) not in bitfields]
    js.update({k: js_pahole[k] for k in from_main})
    items = typedefs + from_main
    queries = [n for _, n in typedefs] + ["%s %s" % k for k in from_main]
    try:
        drgn, dran = drgn_layouts(dpy, image, queries)
    except (RuntimeError, ValueError) as e:
        tap.ok(False, title, str(e))
        return
    bad = []
    for (kind, name), q in zip(items, queries):
        d, j = drgn.get(q, {}), js.get((kind, name))
        label = "%s %s: " % (kind, name)
        if "error" in d or j is None:
            bad.append(label + "drgn: %s; layoutlint: %s"
                       % (d.get("error", "ok"), "ok" if j else "missing"))
            continue
        if q == name and not d.get("typedef_of_anonymous"):
            bad.append(label + "pahole does not print it, but drgn says it is "
                       "not a typedef of an anonymous struct or union")
        if d.get("kind") != kind:
            bad.append(label + "kind drgn %s" % d.get("kind"))
        if d.get("size") != j.get("size"):
            bad.append(label + "size drgn %s, layoutlint %s" % (d.get("size"), j.get("size")))
        bad += compare_with_drgn(label, dict(d, offset=None, size=None, bit_offset=None,
                                             bit_size=None), dict(j, offset=None, size=None))
    tap.ok(not bad, title, bad)
    tap.comment("%s: drgn on %d types: %s" % (arch, len(queries), dran.cost()))
    for n in wrong:
        tap.comment("%s: struct %s compared with drgn: %s" % (arch, n, PAHOLE_WRONG[n][0]))


def main():
    args = parse_args("layoutlint",
                      arch=dict(action="append", choices=sorted(ARCHES),
                                help="repeatable; default: all of %s" % ", ".join(sorted(ARCHES))),
                      only=dict(action="append", default=[], metavar="NAME",
                                help="compare just these names (repeatable), to reproduce a "
                                     "failure"),
                      pahole=dict(default=shutil.which("pahole") or "pahole"),
                      doc=__doc__)
    tap = Tap(diag_lines=400, diag_width=None)
    if not os.access(args.layoutlint, os.X_OK):
        return tap.bail("layoutlint not executable: %s" % args.layoutlint)
    if not shutil.which(args.pahole):
        return tap.skip_all("pahole not installed")
    if not shutil.which("readelf"):
        return tap.skip_all("readelf not installed (binutils)")
    dpy = drgn_python()
    for arch in args.arch or sorted(ARCHES):
        t0 = time.monotonic()
        run_arch(tap, args, arch, dpy)
        tap.comment("%s: %.1f s in all" % (arch, time.monotonic() - t0))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
