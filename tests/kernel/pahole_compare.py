#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-kernel layout test: compare layoutlint's JSON against pahole.

usage: pahole_compare.py --layoutlint PATH --series 6.12|6.1
                         [--arch ARCH] [--module fs/xfs/xfs.ko] [--count N]

pahole's answers come from ONE full dump per image (`pahole -F dwarf IMAGE`),
cached next to the image as `<basename>.pahole.txt` (written atomically), so
a second run costs nothing.  Structs are chosen deterministically: a fixed
set of well-known kernel structs plus a random.Random(12345) sample of the
sorted names.  Names that pahole prints with more than one layout are
skipped.  layoutlint is run once per batch of names.  Output is TAP, one test
point per struct; exit status 1 when any test point failed.

pahole 1.24 notes (what the parser relies on, checked against 6.1/6.12):
  * member line:   <decl>;  /* OFFSET  SIZE */
    bitfield line: <decl>:BITS;  /* OFFSET:BITOFF  SIZE */ where OFFSET is
    the start of the bitfield's storage unit (aligned to SIZE) and BITOFF
    counts from its lowest bit, so the absolute bit is OFFSET*8+BITOFF
    (x86-64 is little-endian; same numbering as DW_AT_data_bit_offset).
  * anonymous types are expanded inline: `union {` ... `} NAME;  /* OFF SIZE */`
    (NAME empty for an anonymous member); offsets inside are absolute
    (relative to the outermost struct).  Inline `enum {` blocks are leaves.
  * `unsigned int :0;` lines (no offset comment) are synthesized by pahole
    for alignment gaps: there is no DW_TAG_member behind them; ignored.
  * the summary is `/* size: N, cachelines: M, members: K */`, K counting
    top-level members (anonymous aggregates included).  Unions get no
    summary at all: their size is taken from a plain member of that type
    elsewhere in the dump ("union NAME x; /* OFF SIZE */"); without one only
    "every member fits" is checked.
  * a name with distinct layouts is printed once per layout (8 in 6.12).
  * the exit status is 0 even when pahole failed: an empty or truncated
    dump is detected from the text.

With --module, the module's debug sections are relocated by layoutlint
itself; two more points run --list and the compared structs' JSON with
LAYOUTLINT_RELOC=own and =libdwfl and require the same bytes.  With --arch
(scripts/fetch-kernel foreign ARCH), Debian's image for another
architecture; for mipsel and mips64el, whose modules libdwfl cannot
relocate (libdw 0.188 has no MIPS backend), those two points require
layoutlint's own relocation alone to list and lay out the module.
"""

import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import Tap, Timeout, parse_args, run  # noqa: E402

ALWAYS = ["file", "net_device", "task_struct", "mm_struct", "sock", "tcp_sock"]
ALWAYS_MODULE = ["xfs_inode", "xfs_mount", "xfs_buf", "xfs_trans"]
SEED = 12345
BATCH = 50
MODULE_MAX = 50
# Known answer for 6.12 (Debian 6.12.x cloud-amd64): pahole agrees.
FILE_612 = {"size": 184, "cachelines": 3, "f_count": 0}

# --------------------------------------------------------------------------
# pahole dump: produce / cache
# --------------------------------------------------------------------------


def dump_path_for(image):
    return os.path.join(os.path.dirname(os.path.abspath(image)),
                        os.path.basename(image) + ".pahole.txt")


def dump_looks_complete(path):
    """pahole exits 0 on failure: check the text instead."""
    try:
        size = os.path.getsize(path)
        if size == 0:
            return False
        with open(path, "rb") as f:
            f.seek(max(0, size - 4096))
            tail = f.read().decode("utf-8", "replace")
    except OSError:
        return False
    last = [ln for ln in tail.splitlines() if ln.strip()]
    return bool(last) and last[-1].startswith("}") and last[-1].endswith(";")


def get_dump(image, pahole, diag):
    """Return (text, seconds spent dumping or None when cached)."""
    cache = dump_path_for(image)
    if (os.path.exists(cache)
            and os.path.getmtime(cache) >= os.path.getmtime(image)
            and dump_looks_complete(cache)):
        with open(cache, encoding="utf-8", errors="replace") as f:
            return f.read(), None
    t0 = time.monotonic()
    d = os.path.dirname(cache)
    fd, tmp = tempfile.mkstemp(prefix=".pahole.", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "wb") as out:
            p = run([pahole, "-F", "dwarf", image], stdout=out, timeout=None)
            out.flush()
            os.fsync(out.fileno())
        err = p.stderr.strip()
        if err:
            for ln in err.splitlines()[:10]:
                diag("pahole: " + ln)
        if p.returncode != 0 or not dump_looks_complete(tmp):
            raise RuntimeError("pahole -F dwarf %s failed (status %d, %s)"
                               % (image, p.returncode,
                                  err.splitlines()[0] if err else
                                  "empty or truncated output"))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, cache)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    with open(cache, encoding="utf-8", errors="replace") as f:
        return f.read(), time.monotonic() - t0


# --------------------------------------------------------------------------
# pahole dump: parse
# --------------------------------------------------------------------------

RE_HEADER = re.compile(r"^(struct|union) ([A-Za-z_]\w*) \{$")
RE_OFFCOMMENT = re.compile(
    r"^(?P<decl>.*?);\s*/\*\s*(?P<off>\d+)(?::\s*(?P<bit>-?\d+))?\s+(?P<size>\d+)\s*\*/\s*$")
RE_OPEN = re.compile(r"^(?:.*\s)?(struct|union|enum)(?:\s+\w+)?\s*\{$")
RE_SUMMARY = re.compile(
    r"^/\* size: (\d+), cachelines: (\d+), members: (\d+)(?:, static members: \d+)? \*/$")
# "/* sum members: 227, holes: 1, sum holes: 4 */": the struct's own holes.
RE_HOLES = re.compile(r"^/\* sum members: \d+, holes: (\d+), sum holes: (\d+)")
RE_USE = re.compile(
    r"^(?:const\s+|volatile\s+)*(struct|union)\s+([A-Za-z_]\w*)\s+[A-Za-z_]\w*$")
RE_IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_attributes(s):
    """Remove every __attribute__((...)) (balanced parentheses)."""
    while True:
        i = s.find("__attribute__")
        if i < 0:
            return s.strip()
        j = s.find("(", i)
        if j < 0:
            return s[:i].strip()
        depth = 0
        k = j
        while k < len(s):
            if s[k] == "(":
                depth += 1
            elif s[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        s = s[:i] + " " + s[k + 1:]


def decl_name(decl):
    """(name or None, bit size or None) from a pahole declaration text."""
    d = strip_attributes(decl)
    bits = None
    m = re.search(r":\s*(\d+)\s*$", d)
    if m:
        bits = int(m.group(1))
        d = d[:m.start()].rstrip()
    if not d:
        return None, bits
    m = re.search(r"\(\s*\*+\s*(?:const\s+|volatile\s+)*([A-Za-z_]\w*)", d)
    if m:                       # function pointer (or array of them)
        return m.group(1), bits
    d = re.sub(r"(\[[^\]]*\]\s*)+$", "", d).rstrip()
    ids = RE_IDENT.findall(d)
    if not ids:
        return None, bits
    return ids[-1], bits


class PMember:
    __slots__ = ("name", "offset", "size", "bit", "bits", "kind", "children")

    def __init__(self, name, offset, size, bit, bits, kind, children):
        self.name = name          # None: anonymous aggregate
        self.offset = offset      # pahole's byte offset (storage unit)
        self.size = size
        self.bit = bit            # pahole's bit offset in that unit
        self.bits = bits          # bit size, None unless bitfield
        self.kind = kind          # "leaf", "struct", "union"
        self.children = children  # list, or None for leaves

    def abs_bit(self):
        return self.offset * 8 + (self.bit or 0)

    def sig(self):
        ch = None if self.children is None else tuple(c.sig() for c in self.children)
        return (self.name, self.offset, self.size, self.bit, self.bits,
                self.kind, ch)


class PStruct:
    __slots__ = ("kind", "name", "size", "cachelines", "nmembers", "members",
                 "text", "holes")

    def sig(self):
        return (self.kind, self.size, tuple(m.sig() for m in self.members))


class ParseError(Exception):
    pass


def parse_dump(text):
    """Return (dict name -> [PStruct, ...] in dump order, list of problems)."""
    structs = {}
    problems = []
    uses = {}                   # ("union", NAME) -> sizes seen at use sites
    lines = text.split("\n")
    i = 0
    n = len(lines)
    while i < n:
        m = RE_HEADER.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        st = PStruct()
        st.kind, st.name = m.group(1), m.group(2)
        st.size = st.cachelines = st.nmembers = None
        st.holes = (0, 0)       # pahole prints no holes line for a struct without any
        st.members = []
        # stack of (kind, children-list)
        stack = [("top", st.members)]
        i += 1
        ok = True
        while i < n:
            raw = lines[i]
            if raw.startswith("}"):
                break
            s = raw.strip()
            i += 1
            if not s:
                continue
            if stack[-1][0] == "enum":
                if s.startswith("}"):
                    m2 = RE_OFFCOMMENT.match(s[1:].strip())
                    stack.pop()
                    if not m2:
                        problems.append("%s: enum block close without offset: %r"
                                        % (st.name, raw))
                        ok = False
                        continue
                    name, bits = decl_name(m2.group("decl"))
                    stack[-1][1].append(PMember(
                        name, int(m2.group("off")), int(m2.group("size")),
                        int(m2.group("bit")) if m2.group("bit") else None,
                        bits, "leaf", None))
                continue
            if s.startswith("/*"):
                m2 = RE_SUMMARY.match(s)
                if m2 and len(stack) == 1:
                    st.size, st.cachelines, st.nmembers = map(int, m2.groups())
                m2 = RE_HOLES.match(s)
                if m2 and len(stack) == 1:
                    st.holes = tuple(map(int, m2.groups()))
                continue
            if s.startswith("}"):
                m2 = RE_OFFCOMMENT.match(s[1:].strip())
                if len(stack) == 1 or not m2:
                    problems.append("%s: unexpected line %r" % (st.name, raw))
                    ok = False
                    continue
                kind, children = stack.pop()
                name, bits = decl_name(m2.group("decl"))
                stack[-1][1].append(PMember(
                    name, int(m2.group("off")), int(m2.group("size")),
                    int(m2.group("bit")) if m2.group("bit") else None,
                    bits, kind, children))
                continue
            m2 = RE_OPEN.match(s)
            if m2:
                stack.append((m2.group(1), []))
                continue
            m2 = RE_OFFCOMMENT.match(s)
            if m2:
                name, bits = decl_name(m2.group("decl"))
                if bits is None:
                    m3 = RE_USE.match(strip_attributes(m2.group("decl")))
                    if m3:
                        uses.setdefault((m3.group(1), m3.group(2)),
                                        set()).add(int(m2.group("size")))
                if name is None:
                    problems.append("%s: member without a name: %r"
                                    % (st.name, raw))
                stack[-1][1].append(PMember(
                    name, int(m2.group("off")), int(m2.group("size")),
                    int(m2.group("bit")) if m2.group("bit") else None,
                    bits, "leaf", None))
                continue
            if s.endswith(";") and ":" in s:
                continue        # synthesized "unsigned int :0;" and friends
            problems.append("%s: unrecognised line %r" % (st.name, raw))
            ok = False
        i += 1                  # the closing "};"
        if len(stack) != 1:
            problems.append("%s: unbalanced blocks" % st.name)
            ok = False
        if st.size is None and st.kind == "struct":
            problems.append("%s: no summary line" % st.name)
            ok = False
        elif st.nmembers is not None and st.nmembers != len(st.members):
            problems.append("%s: summary says %d members, parsed %d"
                            % (st.name, st.nmembers, len(st.members)))
            ok = False
        st.text = "\n".join(lines[start:i])
        if ok:
            structs.setdefault(st.name, []).append(st)
        else:
            # Keep the name so that it is known (and skipped), not tested.
            structs.setdefault(st.name, []).append(None)
    # pahole 1.24 prints no summary for a union: take its size from where it
    # is used as a plain member ("union NAME x; /* OFF SIZE */"), when all
    # uses agree.  (Struct summaries are cross-checked the same way.)
    for name, lst in structs.items():
        for st in lst:
            if st is None:
                continue
            seen = uses.get((st.kind, name), set())
            if st.kind == "union" and len(lst) == 1 and len(seen) == 1:
                st.size = next(iter(seen))
                st.cachelines = (st.size + 63) // 64
            elif (st.kind == "struct" and len(lst) == 1 and seen
                  and seen != {st.size}):
                problems.append("struct %s: size %d, but used with sizes %s"
                                % (name, st.size, sorted(seen)))
    return structs, problems


def unique_layouts(structs):
    """name -> PStruct for names with exactly one layout (and parsed OK)."""
    out = {}
    for name, lst in structs.items():
        if any(s is None for s in lst):
            continue
        sigs = {s.sig() for s in lst}
        if len(sigs) == 1:
            out[name] = lst[0]
    return out


# --------------------------------------------------------------------------
# selection
# --------------------------------------------------------------------------


def select(names, count, always):
    names = sorted(names)
    chosen = [n for n in always if n in names]
    rest = [n for n in names if n not in chosen]
    k = max(0, min(count - len(chosen), len(rest)))
    chosen += sorted(random.Random(SEED).sample(rest, k))
    return chosen


# --------------------------------------------------------------------------
# layoutlint
# --------------------------------------------------------------------------


def run_layoutlint(layoutlint, image, items, timeout):
    """items: [(kind, name)].  Returns (dict (kind, name) -> json struct,
    None) or (None, error text)."""
    argv = [layoutlint, "--format=json", image]
    for kind, name in items:
        argv += [kind, name]
    try:
        p = run(argv, timeout=timeout, binary=True)
    except Timeout:
        return None, "timed out after %d s" % timeout
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode not in (0, 1):
        return None, "exit %d: %s" % (p.returncode, err or "(no message)")
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        return None, "exit %d, invalid JSON: %s" % (p.returncode, e)
    out = {}
    for s in doc.get("structs", []) or []:
        out[(s.get("kind"), s.get("name"))] = s
        out.setdefault((None, s.get("name")), s)
    return out, None


AMBIGUOUS_RE = re.compile(r"ambiguous|distinct|definitions", re.I)


def check_relocation(tap, layoutlint, module, items, timeout):
    """A module's debug sections relocated by layoutlint (LAYOUTLINT_RELOC=own,
    no fallback) against libdwfl's relocation: the same bytes for --list of
    every struct and the JSON of the compared ones, cold."""
    argv_json = ["--format=json", module] + [w for kind, nm in items for w in (kind, nm)]
    for label, argv in (("--list='*'", ["--list=*", module]), ("JSON", argv_json)):
        got = {}
        for mode in ("own", "libdwfl"):
            p = run([layoutlint, "--no-cache", *argv], timeout=timeout,
                    extra_env={"LAYOUTLINT_RELOC": mode})
            got[mode] = (p.returncode, p.out, p.err)
        tap.ok(got["own"] == got["libdwfl"] and got["own"][0] in (0, 1) and got["own"][1],
               "%s of the module: layoutlint's relocation answers libdwfl's bytes (exit %d)"
               % (label, got["own"][0]),
               ["  own: %s" % got["own"][2][:300], "  libdwfl: %s" % got["libdwfl"][2][:300]])


def check_own_relocation(tap, layoutlint, module, items, timeout):
    """A MIPS module, which only layoutlint's relocation reads (no libdwfl
    to compare with): --list of every struct and the compared structs'
    JSON with LAYOUTLINT_RELOC=own (no fallback), cold."""
    argv_json = ["--format=json", module] + [w for kind, nm in items for w in (kind, nm)]
    p = run([layoutlint, "--no-cache", "--list=*", module], timeout=timeout,
            extra_env={"LAYOUTLINT_RELOC": "own"})
    rows = p.out.splitlines()[1:]
    tap.ok(p.returncode == 0 and len(rows) > 100 and not any(r.startswith("?") and
                                                             "not laid out" in r for r in rows),
           "--list='*' of the MIPS module, relocated by layoutlint alone (%d rows)" % len(rows),
           ["  " + p.err[:300]])
    p = run([layoutlint, "--no-cache", *argv_json], timeout=timeout,
            extra_env={"LAYOUTLINT_RELOC": "own"})
    tap.ok(p.returncode in (0, 1) and p.out.startswith("{"),
           "JSON of the compared structs, relocated by layoutlint alone (exit %d)"
           % p.returncode, ["  " + p.err[:300]])


def lint_all(layoutlint, image, items, timeout, stats):
    """Batches, splitting a failing batch in halves to isolate the name(s)
    layoutlint refuses.  Returns (results, errors name -> message)."""
    results, errors = {}, {}
    todo = [items[i:i + BATCH] for i in range(0, len(items), BATCH)]
    while todo:
        batch = todo.pop(0)
        stats["runs"] += 1
        res, err = run_layoutlint(layoutlint, image, batch, timeout)
        if res is not None:
            results.update(res)
            continue
        if len(batch) == 1:
            errors[batch[0]] = err
            continue
        # layoutlint names the struct it gave up on ("...: struct X: ..."):
        # set that one aside and rerun the rest; otherwise split the batch.
        named = [it for it in batch
                 if re.search(r"\b%s %s\b" % (it[0], re.escape(it[1])), err)]
        if len(named) == 1:
            errors[named[0]] = err
            todo.insert(0, [it for it in batch if it != named[0]])
            continue
        half = len(batch) // 2
        todo[0:0] = [batch[:half], batch[half:]]
    return results, errors


# --------------------------------------------------------------------------
# comparison
# --------------------------------------------------------------------------


def jint(v):
    return v if isinstance(v, int) and not isinstance(v, bool) else None


COUNTS = {"members": 0, "bitfields": 0, "anonymous": 0}


def compare_member(pm, jm, path, bad, notes):
    label = path
    COUNTS["members"] += 1
    COUNTS["bitfields"] += pm.bits is not None
    COUNTS["anonymous"] += pm.name is None
    if pm.bits is not None:
        pabs = pm.abs_bit()
        jbits, jbo = jint(jm.get("bit_size")), jint(jm.get("bit_offset"))
        if jbits != pm.bits:
            bad.append("%s: bit_size pahole %d, layoutlint %s"
                       % (label, pm.bits, jm.get("bit_size")))
        if jbo != pabs:
            bad.append("%s: bit_offset pahole %d (%d:%d), layoutlint %s"
                       % (label, pabs, pm.offset, pm.bit, jm.get("bit_offset")))
        if jint(jm.get("offset")) != pabs // 8:
            bad.append("%s: offset (byte of first bit) pahole %d, layoutlint %s"
                       % (label, pabs // 8, jm.get("offset")))
        if jint(jm.get("size")) != pm.size:
            bad.append("%s: size (bitfield storage) pahole %d, layoutlint %s"
                       % (label, pm.size, jm.get("size")))
    else:
        if jint(jm.get("offset")) != pm.offset:
            bad.append("%s: offset pahole %d, layoutlint %s"
                       % (label, pm.offset, jm.get("offset")))
        if jint(jm.get("size")) != pm.size:
            bad.append("%s: size pahole %d, layoutlint %s"
                       % (label, pm.size, jm.get("size")))
        if jm.get("bit_size") is not None:
            bad.append("%s: not a bitfield in pahole, layoutlint bit_size %s"
                       % (label, jm.get("bit_size")))
    if pm.children is not None:
        jch = jm.get("members") or []
        if pm.name is None or jch or not pm.children:
            compare_lists(pm.children, jch, path + ".", bad, notes)
        else:
            notes.append("%s: pahole expands its anonymous %s type (%d members),"
                         " layoutlint lists no children"
                         % (label, pm.kind, len(pm.children)))


def compare_lists(plist, jlist, prefix, bad, notes):
    jlist = [j for j in jlist if isinstance(j, dict)]
    pnamed = [p for p in plist if p.name is not None]
    panon = [p for p in plist if p.name is None]
    jnamed = {}
    janon = []
    for j in jlist:
        if j.get("name") is None:
            janon.append(j)
        else:
            jnamed.setdefault(j["name"], j)
    for pm in pnamed:
        jm = jnamed.get(pm.name)
        if jm is None:
            bad.append("%s%s: missing from layoutlint (pahole %d %d)"
                       % (prefix, pm.name, pm.offset, pm.size))
            continue
        compare_member(pm, jm, prefix + pm.name, bad, notes)
    pnames = {p.name for p in pnamed}
    for name, jm in jnamed.items():
        if name not in pnames:
            bad.append("%s%s: not in pahole (layoutlint offset %s size %s)"
                       % (prefix, name, jm.get("offset"), jm.get("size")))
    if len(panon) != len(janon):
        bad.append("%s<anonymous>: pahole has %d anonymous aggregates, "
                   "layoutlint %d" % (prefix, len(panon), len(janon)))
    for k, (pm, jm) in enumerate(zip(panon, janon)):
        compare_member(pm, jm, "%s<anon#%d@%d>" % (prefix, k, pm.offset),
                       bad, notes)
    porder = [p.name for p in plist]
    jorder = [j.get("name") for j in jlist]
    if (len(porder) == len(jorder) and porder != jorder
            and sorted(map(str, porder)) == sorted(map(str, jorder))):
        bad.append("%s*: declaration order differs: pahole %s, layoutlint %s"
                   % (prefix, porder, jorder))


def compare_struct(ps, js, cacheline=64):
    """Differences (and notes) between pahole's PS and layoutlint's JSON JS;
    CACHELINE: the line size both should use (pahole's --cacheline_size)."""
    bad, notes = [], []
    if js.get("kind") not in (None, ps.kind):
        bad.append("kind: pahole %s, layoutlint %s" % (ps.kind, js.get("kind")))
    jsize = jint(js.get("size"))
    line = jint(js.get("cacheline"))
    if line != cacheline:
        bad.append("cacheline size: expected %d, layoutlint %s"
                   % (cacheline, js.get("cacheline")))
    if ps.size is None:
        # A union pahole prints no size for (never used as a plain member):
        # at least every member must fit.
        need = max([m.offset + m.size for m in ps.members] or [0])
        if jsize != need:
            notes.append("union size unknown to pahole; members need %d bytes,"
                         " layoutlint says %s" % (need, js.get("size")))
        if jsize is None or jsize < need:
            bad.append("size: members need %d bytes, layoutlint %s"
                       % (need, js.get("size")))
    elif jsize != ps.size:
        bad.append("size: pahole %d, layoutlint %s" % (ps.size, js.get("size")))
    if jsize is not None and line and ps.cachelines is not None:
        jlines = math.ceil(jsize / line)
        if jlines != ps.cachelines:
            bad.append("cachelines: pahole %d, layoutlint %d"
                       % (ps.cachelines, jlines))
    # The summary's holes, counted as pahole does (README, The listing).
    jholes = (jint(js.get("holes")), jint(js.get("hole_bytes")))
    if ps.kind == "struct" and ps.size is not None and jholes != ps.holes:
        bad.append("holes: pahole %d holes, %d bytes; layoutlint %s holes, %s bytes"
                   % (ps.holes + jholes))
    compare_lists(ps.members, js.get("members") or [], "", bad, notes)
    return bad, notes


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def find_fetch_tool(explicit):
    """--fetch-tool (same interface as scripts/fetch-kernel), else ours."""
    for c in (explicit, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "..", "..", "scripts", "fetch-kernel")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def main():
    args = parse_args("layoutlint",
                      series=dict(required=True, help="6.12 or 6.1"),
                      module=dict(help="module path in the tree, e.g. fs/xfs/xfs.ko"),
                      arch=dict(help="another architecture's Debian image (fetch-kernel foreign)"),
                      count=dict(type=int, help="structs to test (default 200; with --module %d)"
                                                % MODULE_MAX),
                      only=dict(action="append", default=[], metavar="NAME",
                                help="compare just these structs (repeatable, or comma-"
                                     "separated); to reproduce a failure"),
                      pahole=dict(default=shutil.which("pahole") or "pahole"),
                      fetch_tool=dict(help="a script with scripts/fetch-kernel's interface"),
                      timeout=dict(type=int, default=900, help="seconds per layoutlint run"),
                      doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    diag = tap.comment

    def bail(msg):
        sys.exit(tap.bail(msg))

    def skip_all(msg):
        sys.exit(tap.skip_all(msg))

    if not os.access(args.layoutlint, os.X_OK):
        bail("layoutlint not executable: %s" % args.layoutlint)
    if not shutil.which(args.pahole):
        skip_all("pahole not installed")
    tool = find_fetch_tool(args.fetch_tool)
    if not tool:
        skip_all("no scripts/fetch-kernel")
    fargv = ([tool, "foreign", args.arch, args.series] if args.arch else
             [tool, "vmlinux", args.series]) + ([args.module] if args.module else [])
    p = subprocess.run(fargv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    paths = p.stdout.decode().split()
    if p.returncode != 0 or len(paths) < (2 if args.module else 1):
        skip_all("cannot fetch kernel %s%s%s: %s" % (
            args.arch + " " if args.arch else "",
            args.series, " " + args.module if args.module else "",
            p.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]))
    vmlinux = paths[0]
    image = paths[1] if args.module else vmlinux

    t_all = time.monotonic()
    try:
        vtext, vsecs = get_dump(vmlinux, args.pahole, diag)
    except (RuntimeError, OSError) as e:
        bail(str(e))
    diag("pahole dump of %s: %s" % (vmlinux, "cached (%s)" % dump_path_for(vmlinux)
                                    if vsecs is None else "%.1f s" % vsecs))
    t0 = time.monotonic()
    vstructs, vprob = parse_dump(vtext)
    diag("parsed %d names in %.1f s" % (len(vstructs), time.monotonic() - t0))
    del vtext

    if args.module:
        try:
            mtext, msecs = get_dump(image, args.pahole, diag)
        except (RuntimeError, OSError) as e:
            bail(str(e))
        diag("pahole dump of %s: %s" % (image, "cached" if msecs is None
                                        else "%.1f s" % msecs))
        structs, prob = parse_dump(mtext)
        del mtext
        # What the module defines: names its DWARF has and vmlinux's lacks.
        candidates = [nm for nm in structs if nm not in vstructs]
        count = args.count or MODULE_MAX
        always = ALWAYS_MODULE
        if args.arch == "mips64el":
            # pahole 1.24 reads a module through libdwfl, which cannot apply
            # MIPS64's RELA records (no MIPS backend): it reads the section
            # unrelocated, every string offset 0 plus nothing, and prints
            # wrong names ("struct trace_raw_output_xfs_inode_corrupt_class"
            # for all). mipsel's REL records hold their addends in place, so
            # pahole reads those right. The module's copies of what vmlinux
            # also defines (kernel headers, one config) are compared with
            # vmlinux's dump instead.
            p = run([args.layoutlint, "--no-cache", "--list=*", image], timeout=args.timeout)
            mine = {ln.split()[1] for ln in p.out.splitlines()[1:]
                    if ln.split() and ln.split()[0] in ("struct", "union")}
            diag("pahole misreads %s (MIPS64 RELA, no libdw backend): of its %d structs, "
                 "those vmlinux also defines are compared with vmlinux's dump"
                 % (image, len(mine)))
            structs, prob = vstructs, vprob
            candidates = [nm for nm in mine if nm in vstructs]
            always = []
    else:
        structs, prob = vstructs, vprob
        candidates = list(structs)
        count = args.count or 200
        always = ALWAYS
    for pr in prob[:20]:
        diag("pahole parser: " + pr)
    if len(prob) > 20:
        diag("pahole parser: ... %d more" % (len(prob) - 20))
    uniq = unique_layouts(structs)
    nskip = sum(1 for nm in candidates if nm not in uniq)
    candidates = [nm for nm in candidates if nm in uniq]
    if not candidates:
        bail("no structs to compare (pahole dump empty?)")
    diag("%d candidate names (%d skipped: several layouts or unparsed)"
         % (len(candidates), nskip))
    if args.only:
        only = [n for arg in args.only for n in arg.split(",") if n]
        unknown = [n for n in only if n not in uniq]
        if unknown:
            bail("not in pahole's dump with a single layout: %s"
                 % ", ".join(unknown))
        chosen = only
    else:
        chosen = select(candidates, count, always)

    check_file = (not args.module and args.series == "6.12"
                  and "file" in chosen)

    items = [(uniq[nm].kind, nm) for nm in chosen]
    stats = {"runs": 0}
    t0 = time.monotonic()
    results, errors = lint_all(args.layoutlint, image, items, args.timeout, stats)
    t_lint = time.monotonic() - t0

    skipped = 0
    for kind, nm in items:
        ps = uniq[nm]
        title = "%s %s" % (kind, nm)
        if (kind, nm) in errors:
            err = errors[(kind, nm)]
            if AMBIGUOUS_RE.search(err):
                skipped += 1
                tap.skip(title, "layoutlint: several definitions (pahole prints one layout)")
                diag("  " + err)
            else:
                tap.ok(False, title, "  layoutlint: " + err)
            continue
        js = results.get((kind, nm)) or results.get((None, nm))
        if js is None:
            tap.ok(False, title, "  missing from layoutlint's JSON output")
            continue
        bad, notes = compare_struct(ps, js)
        tap.ok(not bad, title, ["  " + b for b in bad])
        for nt in notes:
            diag("  note: " + nt)

    if check_file:
        js = results.get(("struct", "file")) or {}
        fcount = next((m.get("offset") for m in js.get("members") or []
                       if m.get("name") == "f_count"), None)
        size = jint(js.get("size"))
        lines = math.ceil(size / 64) if size is not None else None
        ps = uniq["file"]
        pfc = next((m.offset for m in ps.members if m.name == "f_count"), None)
        diag("struct file (6.12): layoutlint size %s, %s cachelines, f_count at "
             "offset %s; pahole size %d, %d cachelines, f_count at %s"
             % (size, lines, fcount, ps.size, ps.cachelines, pfc))
        good = (size == FILE_612["size"] and lines == FILE_612["cachelines"]
                and fcount == FILE_612["f_count"])
        tap.ok(good, "struct file on 6.12: size 184, 3 cachelines, f_count at 0")

    if args.module and args.arch and args.arch.startswith("mips"):
        check_own_relocation(tap, args.layoutlint, image, items, args.timeout)
    elif args.module:
        check_relocation(tap, args.layoutlint, image, items, args.timeout)

    diag("%d structs, %d failed, %d skipped; compared %d members (%d bitfields,"
         " %d anonymous aggregates); layoutlint: %d runs, %.1f s; total %.1f s"
         % (len(items), tap.failed, skipped, COUNTS["members"], COUNTS["bitfields"],
            COUNTS["anonymous"], stats["runs"], t_lint,
            time.monotonic() - t_all))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
