#!/usr/bin/env python3
"""The persistent name index (TAP): a whole-binary run leaves
$XDG_CACHE_HOME/layoutlint/BUILD-ID.index; lookups with it answer byte for
byte as without it (--no-cache, LAYOUTLINT_CACHE=off); and an index that is
truncated, damaged, foreign, stale or a symbolic link is ignored with a
note, never trusted and never a crash."""
import argparse
import os
import shutil
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Lint, Tap, run  # noqa: E402

HEADER = struct.Struct("<8sQQQQQQQQ128sQQQQQQ")
FNV_INIT, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3
QUERIES = [["struct", "idx_alpha"], ["struct", "idx_beta"], ["idx_anon_t"],
           ["union", "idx_union"], ["struct", "idx_gamma"], ["struct", "idx_alpha", "idx_gamma"],
           ["struct", "idx_alph"], ["struct", "zq"]]


def fnv(data):
    """name_index.c's index_sum(): FNV-1a by 8-byte words, then bytes."""
    h, mask, n = FNV_INIT, 0xffffffffffffffff, len(data) // 8 * 8
    for i in range(0, n, 8):
        h = ((h ^ int.from_bytes(data[i:i + 8], "little")) * FNV_PRIME) & mask
        h ^= h >> 29
    for b in data[n:]:
        h = ((h ^ b) * FNV_PRIME) & mask
    return h


def build(workdir, name, extra=""):
    exe = os.path.join(workdir, name)
    run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "index.c"),
         os.path.join(HERE, "index2.c")] + (["-DEXTRA=" + extra] if extra else []), check=True)
    return exe


def forge_without(data, drop):
    """DATA's index with the name DROP's postings removed, checksum redone."""
    h = list(HEADER.unpack_from(data))
    nr_names, nr_postings = h[12], h[13]
    p = data[HEADER.size:]
    name_off = struct.unpack_from(f"<{nr_names}I", p)
    first = struct.unpack_from(f"<{nr_names + 1}I", p, 4 * nr_names)
    posts = struct.unpack_from(f"<{nr_postings}I", p, 4 * (2 * nr_names + 1))
    names = p[4 * (2 * nr_names + 1 + nr_postings):]
    new_first, new_posts = [0], []
    for i in range(nr_names):
        nm = names[name_off[i]:names.index(b"\0", name_off[i])].decode()
        if nm != drop:
            new_posts += posts[first[i]:first[i + 1]]
        new_first.append(len(new_posts))
    payload = (struct.pack(f"<{nr_names}I", *name_off) +
               struct.pack(f"<{nr_names + 1}I", *new_first) +
               struct.pack(f"<{len(new_posts)}I", *new_posts) + names)
    h[13] = len(new_posts)
    h[15] = fnv(payload)
    return HEADER.pack(*h) + payload


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    tap = Tap(diag_lines=None)
    ok = tap.ok
    lint = Lint(a.layoutlint)
    cache = os.path.join(a.workdir, "cache")
    env = {"XDG_CACHE_HOME": cache}
    exe = build(a.workdir, "idx")
    other = build(a.workdir, "idx-other", extra="1")
    # A binary changed in the last 2 s gets no index (a change in the same
    # timestamp tick could follow unseen): let them age.
    p = lint.run("--list", exe, extra_env=env)
    d = os.path.join(cache, "layoutlint")
    ok(p.returncode == 0 and not any(f.endswith(".index") for f in
                                     (os.listdir(d) if os.path.isdir(d) else [])),
       "a binary written just now gets no index", p.stderr)
    shutil.rmtree(cache, ignore_errors=True)
    time.sleep(3)
    bid = run(["readelf", "-n", exe]).stdout.split("Build ID:")[1].split()[0]
    index = os.path.join(cache, "layoutlint", bid + ".index")

    def answers(binary, extra):
        return [lint.run(binary, *q, extra_env=dict(env, **extra)) for q in QUERIES]

    cold = answers(exe, {"LAYOUTLINT_CACHE": "off"})
    ok(not os.path.exists(index), "a lookup writes no index (only whole-binary runs do)")
    for how, args, extra in (("--no-cache", ["--no-cache"], {}),
                             ("LAYOUTLINT_CACHE=off", [], {"LAYOUTLINT_CACHE": "off"})):
        p = lint.run(*args, "--list", exe, extra_env=dict(env, **extra))
        ok(p.returncode == 0 and not os.path.exists(os.path.join(cache, "layoutlint")),
           f"{how}: --list writes nothing under $XDG_CACHE_HOME", p.stderr)
    p = lint.run("--list", exe, extra_env=env)
    ok(p.returncode == 0 and os.path.isfile(index), "--list leaves BUILD-ID.index", p.stderr)
    ok(oct(os.stat(index).st_mode & 0o777) == "0o600", "the index is the user's alone",
       oct(os.stat(index).st_mode))
    warm = answers(exe, {})
    ok(warm == cold, "every lookup answers with the index as without it, byte for byte",
       [f"{q}: {w} vs {c}" for q, w, c in zip(QUERIES, warm, cold) if w != c])
    good = open(index, "rb").read()

    # The index is read: one that leaves idx_gamma's units out hides it.
    open(index, "wb").write(forge_without(good, "idx_gamma"))
    p = lint.run(exe, "struct", "idx_gamma", extra_env=env)
    ok(p.returncode == 2 and "not found" in p.stderr,
       "a lookup reads only the units the index lists", p.stdout + p.stderr)

    def refused(data_or_link, want, what):
        if os.path.lexists(index):
            os.unlink(index)
        if isinstance(data_or_link, bytes):
            open(index, "wb").write(data_or_link)
        else:
            os.symlink(data_or_link, index)
        got = answers(exe, {})
        notes = [g.stderr.split("\n")[0] for g in got]
        same = all(g.returncode == c.returncode and g.stdout == c.stdout and
                   g.stderr == n + "\n" + c.stderr for g, c, n in zip(got, cold, notes))
        ok(same and all(want in n and "note: ignoring the name index" in n for n in notes),
           f"{what}: ignored with a note, the answers unchanged", notes[:1] +
           [f"{g} vs {c}" for g, c in zip(got, cold) if g.stdout != c.stdout][:2])

    refused(good[:100], "its size is not an index's", "a truncated header")
    refused(good[:-3], "counts do not fit", "a truncated body")
    flipped = bytearray(good)
    flipped[-2] ^= 0x55
    refused(bytes(flipped), "checksum", "a flipped byte")
    flipped = bytearray(good)
    flipped[0] ^= 1
    refused(bytes(flipped), "not a layoutlint name index", "a wrong magic")
    flipped = bytearray(good)
    flipped[7] = ord("1")
    os.unlink(index)
    open(index, "wb").write(bytes(flipped))
    ok(answers(exe, {}) == cold, "another layoutlint version's index: ignored quietly")
    target = os.path.join(a.workdir, "valid.index")
    open(target, "wb").write(good)
    refused(target, "symbolic link", "a symbolic link to a valid index")
    # Another binary's index under this one's name: a foreign build-id.
    p = lint.run("--list", other, extra_env=env)
    obid = run(["readelf", "-n", other]).stdout.split("Build ID:")[1].split()[0]
    refused(open(os.path.join(cache, "layoutlint", obid + ".index"), "rb").read(),
            "another build-id", "another binary's index")
    # Writing never follows a link planted at the index's name.
    victim = os.path.join(a.workdir, "victim")
    open(victim, "w").write("untouched\n")
    os.unlink(index)
    os.symlink(victim, index)
    p = lint.run("--list", exe, extra_env=env)
    ok(p.returncode == 0 and open(victim).read() == "untouched\n" and
       not os.path.islink(index) and open(index, "rb").read() == good,
       "--list replaces a symbolic link at the index's name, never writes through it",
       p.stderr)

    # Stale: the same build-id, but the file changed since (its mtime and
    # ctime): the index is another copy's, ignored quietly.
    # (A forged index that hides idx_gamma shows it is not read.)
    open(index, "wb").write(forge_without(good, "idx_gamma"))
    st = os.stat(exe)
    os.utime(exe, ns=(st.st_atime_ns, st.st_mtime_ns + 1000))
    ok(answers(exe, {}) == cold, "an index of the file before it changed: ignored quietly")
    # The same path rebuilt: another build-id, so the old index is not its.
    build(a.workdir, "idx", extra="2")
    p = lint.run(exe, "struct", "idx_gamma", extra_env=env)
    q = lint.run(exe, "struct", "idx_gamma", extra_env=dict(env, LAYOUTLINT_CACHE="off"))
    ok(p == q and p.returncode == 0 and os.path.isfile(index),
       "a binary rebuilt at the same path: the old index is left alone, not read", p.stderr)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
