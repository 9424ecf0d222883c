#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-kernel test: layoutlint --suggest packs at least as tightly as
`pahole --reorganize`.

usage: reorganize.py --layoutlint PATH [--series 6.12] [--count N]
                     [--only NAME[,NAME...]]

Candidates come from the normal pahole dump that pahole_compare.py caches
next to the image (`<vmlinux>.pahole.txt`, produced here the same way when
missing): structs printed with a single layout, with at least one
"XXX N bytes hole", no bitfield and no __aligned__(N > 8).

pahole 1.24 ignores --reorganize in a full dump (the output is byte for byte
the normal dump): it reorganizes only the classes named with -C.  So pahole's
answers come from ONE run over every candidate,
`pahole -F dwarf --reorganize --skip_missing -C file://NAMES IMAGE`, cached
next to the image as `<basename>.pahole-reorganize.txt` (plus the name list
it was made from, `<basename>.pahole-reorganize.names`; both written
atomically; the cache is reused while the image is older and the name list
is the same).  Its format, per struct:
    struct NAME {
            ...reorganized members...
            /* size: N, cachelines: M, members: K */
            ...
    } [__attribute__((__aligned__(A)))];   [/* saved X bytes[ and Y cachelines]! */]
N (the one-tab summary) is pahole's reorganized size.

The candidates are shuffled with random.Random(4242) and walked in batches of
~50 names, one `layoutlint --suggest --format=json` run per batch, until
--count (default 120) structs pass layoutlint's own filter: holes > 0, no
member (at any depth) with a bit_size or an alignment above 8, struct
alignment <= 8 (pahole 1.24 rewrites bitfields and mis-sizes over-aligned
structs).  Names layoutlint finds ambiguous are skipped.  For each struct:
  * the suggestion exists (the struct has holes) and its size is a multiple
    of the struct's alignment;
  * sum of the top-level member sizes <= suggestion size <= pahole's size.
TAP output, one test point per struct; exit status 1 when any failed.
"""

import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Tap, Timeout, parse_args, run  # noqa: E402
import pahole_compare  # noqa: E402  (normal dump: cache + parser)

SEED = 4242
BATCH = 50
COUNT = 120
SUFFIX = ".pahole-reorganize.txt"
NAMES_SUFFIX = ".pahole-reorganize.names"

RE_HOLE = re.compile(r"/\* XXX \d+ bytes? hole")
RE_ALIGNED = re.compile(r"__aligned__\((\d+)\)")
RE_HEADER = re.compile(r"^struct ([A-Za-z_]\w*) \{$")
RE_TOP_SUMMARY = re.compile(
    r"^\t/\* size: (\d+), cachelines: (\d+), members: (\d+)")
RE_SAVED = re.compile(r"/\* saved (\d+) bytes?")


# --------------------------------------------------------------------------
# pahole --reorganize: produce / cache / parse
# --------------------------------------------------------------------------

def cache_paths(image):
    base = os.path.join(os.path.dirname(os.path.abspath(image)),
                        os.path.basename(image))
    return base + SUFFIX, base + NAMES_SUFFIX


def looks_complete(path):
    """pahole exits 0 even when it failed: check the text's last line."""
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
    return bool(last) and last[-1].startswith("}") and ";" in last[-1]


def atomic_write(path, writer):
    """Run writer(binary file) on a temporary file, then rename onto PATH."""
    fd, tmp = tempfile.mkstemp(prefix=".pahole-reorganize.", suffix=".tmp",
                               dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as out:
            ok = writer(out, tmp)
            out.flush()
            os.fsync(out.fileno())
        if not ok:
            return False
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
        return True
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def get_reorg_dump(image, pahole, names, diag):
    """Return (text, seconds or None when cached)."""
    cache, names_file = cache_paths(image)
    want = "".join(n + "\n" for n in names)
    try:
        with open(names_file, encoding="utf-8") as f:
            have = f.read()
    except OSError:
        have = None
    if (have == want and os.path.exists(cache)
            and os.path.getmtime(cache) >= os.path.getmtime(image)
            and looks_complete(cache)):
        with open(cache, encoding="utf-8", errors="replace") as f:
            return f.read(), None
    t0 = time.monotonic()
    # pahole reads the names from a temporary file (-C file://...); the
    # sidecar is renamed into place only after the dump, so a dump and a
    # name list that do not belong together are never both current.
    fd, list_tmp = tempfile.mkstemp(prefix=".pahole-reorganize.",
                                    suffix=".names.tmp",
                                    dir=os.path.dirname(names_file))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(want)
    err = []

    def dump(out, tmp):
        p = run([pahole, "-F", "dwarf", "--reorganize", "--skip_missing",
                 "-C", "file://" + list_tmp, image], stdout=out, timeout=None)
        out.flush()
        text = p.stderr.strip()
        # --skip_missing still reports each missing name on stderr.
        lines = [ln for ln in text.splitlines() if "not found" not in ln]
        for ln in lines[:10]:
            diag("pahole: " + ln)
        if p.returncode != 0 or not looks_complete(tmp):
            err.append("pahole --reorganize failed (status %d, %s)"
                       % (p.returncode, lines[0] if lines
                          else "empty or truncated output"))
            return False
        return True

    try:
        if not atomic_write(cache, dump):
            raise RuntimeError(err[0] if err else "pahole --reorganize failed")
    finally:
        os.unlink(list_tmp)
    atomic_write(names_file, lambda out, tmp: out.write(want.encode()) or True)
    with open(cache, encoding="utf-8", errors="replace") as f:
        return f.read(), time.monotonic() - t0


def parse_reorg(text):
    """name -> list of (size, cachelines, saved bytes or None), dump order."""
    out = {}
    cur = None
    size = None
    for ln in text.split("\n"):
        if cur is None:
            m = RE_HEADER.match(ln)
            if m:
                cur, size = m.group(1), None
            continue
        m = RE_TOP_SUMMARY.match(ln)
        if m:
            size = (int(m.group(1)), int(m.group(2)))
            continue
        if ln.startswith("}"):
            m = RE_SAVED.search(ln)
            if size is not None:
                out.setdefault(cur, []).append(
                    (size[0], size[1], int(m.group(1)) if m else None))
            else:
                out.setdefault(cur, []).append(None)
            cur = None
    return out


# --------------------------------------------------------------------------
# layoutlint
# --------------------------------------------------------------------------

AMBIGUOUS_RE = re.compile(r"ambiguous|distinct|definitions", re.I)


def run_layoutlint(layoutlint, image, names, timeout):
    argv = [layoutlint, "--suggest", "--format=json", image]
    for n in names:
        argv += ["struct", n]
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
    return {s.get("name"): s for s in doc.get("structs") or []
            if s.get("kind") == "struct"}, None


def lint_batch(layoutlint, image, names, timeout, stats):
    """Like pahole_compare.lint_all: set aside the name layoutlint refuses
    (or split the batch) and rerun the rest.  Returns (results, errors)."""
    results, errors = {}, {}
    todo = [list(names)]
    while todo:
        batch = todo.pop(0)
        if not batch:
            continue
        stats["runs"] += 1
        res, err = run_layoutlint(layoutlint, image, batch, timeout)
        if res is not None:
            results.update(res)
            continue
        if len(batch) == 1:
            errors[batch[0]] = err
            continue
        named = [n for n in batch
                 if re.search(r"\bstruct %s\b" % re.escape(n), err)]
        if len(named) == 1:
            errors[named[0]] = err
            todo.insert(0, [n for n in batch if n != named[0]])
            continue
        half = len(batch) // 2
        todo[0:0] = [batch[:half], batch[half:]]
    return results, errors


def walk(members):
    for m in members or []:
        if isinstance(m, dict):
            yield m
            yield from walk(m.get("members"))


def exclusion(js):
    """Why layoutlint's JSON rules the struct out, or None."""
    if not js.get("holes"):
        return "no holes per layoutlint"
    if (js.get("alignment") or 0) > 8:
        return "struct aligned to %s" % js.get("alignment")
    for m in walk(js.get("members")):
        if m.get("bit_size") is not None:
            return "bitfield %s" % (m.get("path") or m.get("name"))
        if (m.get("alignment") or 0) > 8:
            return "member %s aligned to %s" % (m.get("path") or m.get("name"),
                                                m.get("alignment"))
    return None


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def main():
    args = parse_args("layoutlint",
                      series=dict(default="6.12"),
                      count=dict(type=int, default=COUNT,
                                 help="structs to test (default %d)" % COUNT),
                      only=dict(action="append", default=[], metavar="NAME",
                                help="test just these structs (repeatable or comma-"
                                     "separated); to reproduce a failure"),
                      pahole=dict(default=shutil.which("pahole") or "pahole"),
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
    paths = fetch(args.series)
    if not paths:
        skip_all("cannot fetch kernel %s" % args.series)
    image = paths[0]
    t_all = time.monotonic()

    # Candidates from the normal dump (shared with pahole_compare.py).
    try:
        text, secs = pahole_compare.get_dump(image, args.pahole, diag)
    except (RuntimeError, OSError) as e:
        bail(str(e))
    diag("pahole dump: %s" % ("cached (%s)" % pahole_compare.dump_path_for(image)
                              if secs is None else "%.1f s" % secs))
    structs, _ = pahole_compare.parse_dump(text)
    del text
    uniq = pahole_compare.unique_layouts(structs)

    def has_bitfield(members):
        return any(m.bits is not None or
                   (m.children is not None and has_bitfield(m.children))
                   for m in members)

    candidates = sorted(
        nm for nm, st in uniq.items()
        if st.kind == "struct" and RE_HOLE.search(st.text)
        and not has_bitfield(st.members)
        and all(int(a) <= 8 for a in RE_ALIGNED.findall(st.text)))
    diag("%d candidates in pahole's dump (one layout, holes, no bitfield, "
         "no __aligned__ > 8)" % len(candidates))
    if not candidates:
        bail("no candidates (pahole dump empty?)")

    try:
        rtext, rsecs = get_reorg_dump(image, args.pahole, candidates, diag)
    except (RuntimeError, OSError) as e:
        bail(str(e))
    diag("pahole --reorganize dump: %s" % ("cached (%s)" % cache_paths(image)[0]
                                          if rsecs is None
                                          else "%.1f s" % rsecs))
    reorg = parse_reorg(rtext)
    del rtext
    diag("pahole reorganized %d of them" % len(reorg))

    if args.only:
        order = [n for a in args.only for n in a.split(",") if n]
        unknown = [n for n in order if n not in reorg]
        if unknown:
            bail("not among pahole's reorganized candidates: %s"
                 % ", ".join(unknown))
        want = len(order)
    else:
        order = [n for n in candidates if n in reorg
                 and len(reorg[n]) == 1 and reorg[n][0] is not None]
        random.Random(SEED).shuffle(order)
        want = args.count

    stats = {"runs": 0}
    counts = {"smaller": 0, "equal": 0, "larger": 0, "excluded": 0,
              "ambiguous": 0, "bytes_saved_vs_pahole": 0}
    larger = []
    tested = 0
    t_lint = 0.0
    pos = 0
    while tested < want and pos < len(order):
        batch = order[pos:pos + BATCH]
        pos += len(batch)
        t0 = time.monotonic()
        results, errors = lint_batch(args.layoutlint, image, batch,
                                     args.timeout, stats)
        t_lint += time.monotonic() - t0
        for nm in batch:
            if tested >= want:
                break
            if nm in errors:
                if AMBIGUOUS_RE.search(errors[nm]):
                    counts["ambiguous"] += 1
                    diag("skip struct %s: layoutlint: %s"
                         % (nm, errors[nm].splitlines()[0]))
                    continue
                tested += 1
                tap.ok(False, "struct %s" % nm, "layoutlint: " + errors[nm])
                continue
            js = results.get(nm)
            if js is None:
                tested += 1
                tap.ok(False, "struct %s" % nm,
                       "missing from layoutlint's JSON output")
                continue
            why = exclusion(js)
            if why and not args.only:
                counts["excluded"] += 1
                continue
            tested += 1
            psize, plines, _saved = reorg[nm][0]
            sg = js.get("suggestion")
            bad = []
            if not isinstance(sg, dict):
                bad.append("no suggestion although layoutlint counts %s holes"
                           % js.get("holes"))
                tap.ok(False, "struct %s" % nm, "\n".join(bad))
                continue
            ssize = sg.get("size")
            align = js.get("alignment") or 1
            msum = sum(m.get("size") or 0 for m in js.get("members") or []
                       if isinstance(m, dict))
            if not isinstance(ssize, int):
                bad.append("suggestion size %r" % (ssize,))
            else:
                if ssize > psize:
                    bad.append("suggestion %d bytes (%s lines) > pahole "
                               "--reorganize %d bytes (%d lines); original %s"
                               % (ssize, sg.get("cachelines"), psize, plines,
                                  js.get("size")))
                    counts["larger"] += 1
                    larger.append((nm, js.get("size"), ssize, psize))
                elif ssize < psize:
                    counts["smaller"] += 1
                    counts["bytes_saved_vs_pahole"] += psize - ssize
                else:
                    counts["equal"] += 1
                if ssize < msum:
                    bad.append("suggestion %d bytes < sum of member sizes %d"
                               % (ssize, msum))
                if ssize % align:
                    bad.append("suggestion %d bytes not a multiple of the "
                               "alignment %d" % (ssize, align))
            desc = "struct %s: suggestion %s <= pahole %d (original %s, " \
                   "members %d)" % (nm, ssize, psize, js.get("size"), msum)
            if why:
                desc += " [%s]" % why
            tap.ok(not bad, desc, "\n".join(bad))

    if tested < want:
        tap.ok(False, "at least %d structs tested" % want,
               "only %d eligible structs" % tested)
    for nm, orig, s, p in larger:
        diag("LARGER than pahole: struct %s original %s, layoutlint %d, "
             "pahole %d" % (nm, orig, s, p))
    diag("%d structs tested: %d smaller than pahole (by %d bytes in all), "
         "%d equal, %d larger; %d excluded by layoutlint's JSON "
         "(bitfield/alignment/no holes), %d ambiguous; %d of %d candidates "
         "looked at; layoutlint: %d runs, %.1f s; total %.1f s"
         % (tested, counts["smaller"], counts["bytes_saved_vs_pahole"],
            counts["equal"], counts["larger"], counts["excluded"],
            counts["ambiguous"], pos, len(order), stats["runs"], t_lint,
            time.monotonic() - t_all))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
