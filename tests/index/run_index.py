#!/usr/bin/env python3
"""The persistent name index (TAP): a whole-binary run leaves
$XDG_CACHE_HOME/layoutlint/BUILD-ID.index; lookups with it answer byte for
byte as without it (--no-cache, LAYOUTLINT_CACHE=off); and an index that is
truncated, damaged, foreign, stale or a symbolic link is ignored with a
note, never trusted and never a crash."""
import glob
import os
import shutil
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Lint, Tap, build_id, parse_args, run  # noqa: E402

# name_index.c's format 9: the header, then units, names, definitions,
# words, strings and postings, each 8-byte aligned with its own checksum.
HEADER = struct.Struct("<8sQ7Q128s8Q18QQ")
UNIT = struct.Struct("<4Q4I32s")
DEF = struct.Struct("<3Q10I")
NR_SECS = 6
FNV_INIT, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3
DEFS_KNOWN, IN_STR = 1, 8
DEF_FLAGS, DEF_NAMELESS = 10, 1    # a definition's flags: its field, and the typedef's bit
DEF_WORDS, DEF_FIRST_WORD, DEF_NR_WORDS = 2, 11, 12   # its words: the flag, and its fields
DEF_FILTERED, DEF_NEEDED = 4, 8   # what --audit's member filter said of it
QUERIES = [["struct", "idx_alpha"], ["struct", "idx_beta"], ["idx_anon_t"],
           ["union", "idx_union"], ["struct", "idx_gamma"], ["struct", "idx_alpha", "idx_gamma"],
           ["struct", "idx_alph"], ["struct", "zq"], ["idx_dup"],
           ["--decl-file", "*index2.c", "idx_dup"],
           ["--prefix-map", HERE + "=/elsewhere", "struct", "idx_gamma"],
           ["--srcdir", "/", "struct", "idx_beta"],
           ["--list=*"], ["--list=idx_*"], ["--list=*", "--cacheline", "32"],
           ["--list=*", "--prefix-map", HERE + "=/elsewhere"],
           ["--audit=*"], ["--contains", "idx_alpha"]]


def fnv(data):
    """name_index.c's ll_name_index_sum(): FNV-1a-like by 8-byte words in four lanes
    (32-byte blocks), the lanes folded, then the tail words, then bytes."""
    mask = 0xffffffffffffffff

    def step(h, w):
        h = ((h ^ w) * FNV_PRIME) & mask
        return h ^ (h >> 29)

    lanes = [FNV_INIT ^ k for k in range(4)]
    blocks = len(data) // 32 * 32
    for i in range(0, blocks, 32):
        for k in range(4):
            lanes[k] = step(lanes[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
    h = FNV_INIT
    for k in range(4):
        h = step(h, lanes[k])
    words = len(data) // 8 * 8
    for i in range(blocks, words, 8):
        h = step(h, int.from_bytes(data[i:i + 8], "little"))
    for b in data[words:]:
        h = ((h ^ b) * FNV_PRIME) & mask
    return h


def pad8(b):
    return b + bytes(-len(b) % 8)


def decode(data):
    """The index file DATA as a dict: header fields, units, names (sorted) with
    their flags, units and definitions, strings."""
    h = list(HEADER.unpack_from(data))
    nr_units, nr_names, nr_posts, nr_defs, names_bytes, strings_bytes, nr_words = h[11:18]
    secs = [h[18 + 3 * i:21 + 3 * i] for i in range(NR_SECS)]
    sec = [data[off:off + size] for off, size, _ in secs]
    units = [sec[0][i * UNIT.size:(i + 1) * UNIT.size] for i in range(nr_units)]
    n = nr_names
    name_off = struct.unpack_from(f"<{n}I", sec[1])
    post_first = struct.unpack_from(f"<{n + 1}I", sec[1], 4 * n)
    def_first = struct.unpack_from(f"<{n + 1}I", sec[1], 4 * (2 * n + 1))
    flags = struct.unpack_from(f"<{n}I", sec[1], 4 * (3 * n + 2))
    names = sec[1][4 * (4 * n + 2):4 * (4 * n + 2) + names_bytes]
    posts = struct.unpack_from(f"<{nr_posts}I", sec[5])
    defs = [list(DEF.unpack_from(sec[2], i * DEF.size)) for i in range(nr_defs)]
    words = list(struct.unpack_from(f"<{nr_words}I", sec[3]))
    strings = sec[4][:strings_bytes]
    entries = []
    for i in range(n):
        nm = names[name_off[i]:names.index(b"\0", name_off[i])]
        entries.append({"name": nm, "flags": flags[i],
                        "units": list(posts[post_first[i]:post_first[i + 1]]),
                        "defs": defs[def_first[i]:def_first[i + 1]]})
    return {"header": h, "units": units, "entries": entries, "words": words,
            "strings": strings}


def encode(ix):
    """decode()'s dict back to a file, counts and checksums redone."""
    h, ent = list(ix["header"]), ix["entries"]
    n = len(ent)
    names, name_off, post_first, def_first, posts, defs = b"", [], [0], [0], [], []
    for e in ent:
        name_off.append(len(names))
        names += e["name"] + b"\0"
        posts += e["units"]
        post_first.append(len(posts))
        defs += e["defs"]
        def_first.append(len(defs))
    sec = [b"".join(ix["units"]),
           pad8(struct.pack(f"<{n}I", *name_off) + struct.pack(f"<{n + 1}I", *post_first) +
                struct.pack(f"<{n + 1}I", *def_first) +
                struct.pack(f"<{n}I", *[e["flags"] for e in ent]) + names),
           b"".join(DEF.pack(*d) for d in defs),
           pad8(struct.pack(f"<{len(ix['words'])}I", *ix["words"])), pad8(ix["strings"]),
           pad8(struct.pack(f"<{len(posts)}I", *posts))]
    h[11:18] = [len(ix["units"]), n, len(posts), len(defs), len(names), len(ix["strings"]),
                len(ix["words"])]
    off = HEADER.size
    for i, b in enumerate(sec):
        h[18 + 3 * i:21 + 3 * i] = [off, len(b), fnv(b)]
        off += len(b)
    h[36] = fnv(HEADER.pack(*h)[:HEADER.size - 8])
    return HEADER.pack(*h) + b"".join(sec)


def forge_without(data, drop):
    """DATA's index without the name DROP (its units and definitions)."""
    ix = decode(data)
    ix["entries"] = [e for e in ix["entries"] if e["name"] != drop.encode()]
    return encode(ix)


def def_words(ix, d):
    """Definition D's words (DEF_WORDS), as the strings they name."""
    first, nr = d[DEF_FIRST_WORD], d[DEF_NR_WORDS]
    s = ix["strings"]
    return [s[o:s.index(b"\0", o)] for o in ix["words"][first:first + nr]]


def check_words(ok, lint, exe, env, index, good, cold):
    """Format 8: every definition built has the words of its member types,
    and a warm --contains builds only those that hold its word."""
    ix = decode(good)
    defs = {e["name"]: e["defs"] for e in ix["entries"]}
    built = [d for e in ix["entries"] for d in e["defs"]]
    ok(built and all(bool(d[DEF_FLAGS] & DEF_WORDS) == (d[9] != 0xffffffff) for d in built),
       "every definition --list built has its words, and only those",
       [(d[9], d[DEF_FLAGS]) for d in built])
    # idx_gamma: void *p; struct idx_beta b { char c; struct idx_alpha in
    # { int a; long b; } }: the words at every depth, sorted, each once, as
    # C spells them ("long", not DWARF's "long int"); a pointer has none.
    # (idx_alpha and idx_beta have two definitions each: never built.)
    got = {n.decode(): def_words(ix, d[0]) for n, d in defs.items() if len(d) == 1 and
           d[0][DEF_FLAGS] & DEF_WORDS}
    want = {"idx_gamma": [b"char", b"idx_alpha", b"idx_beta", b"int", b"long"],
            "idx_anon_t": [b"int"], "idx_union": [b"float", b"int"]}
    ok(all(got.get(k) == v for k, v in want.items()),
       "each definition's words: its member types' names at every depth", got)
    q = QUERIES.index(["--contains", "idx_alpha"])
    ok(cold[q].returncode == 0 and "idx_gamma" in cold[q].stdout,
       "--contains idx_alpha finds idx_gamma's b.in (the case below needs it)", cold[q].stdout)
    # The words are read: idx_gamma's without idx_alpha hide the match.
    forged = decode(good)
    for e in forged["entries"]:
        for d in e["defs"]:
            if e["name"] == b"idx_gamma":
                first = len(forged["words"])
                forged["words"] += [w for w in forged["words"][d[DEF_FIRST_WORD]:
                                                               d[DEF_FIRST_WORD] + d[DEF_NR_WORDS]]
                                    if forged["strings"].startswith(b"idx_alpha\0", w) is False]
                d[DEF_FIRST_WORD], d[DEF_NR_WORDS] = first, len(forged["words"]) - first
    open(index, "wb").write(encode(forged))
    p = lint.run("--contains", "idx_alpha", exe, extra_env=env)
    ok(p.returncode == 0 and "idx_gamma" not in p.stdout,
       "a warm --contains builds only the definitions whose words hold its type's",
       p.stdout + p.stderr)
    # Without words (a definition never built), it is built.
    for e in forged["entries"]:
        for d in e["defs"]:
            d[DEF_FLAGS] &= ~DEF_WORDS
            d[DEF_FIRST_WORD] = d[DEF_NR_WORDS] = 0
    forged["words"] = []
    open(index, "wb").write(encode(forged))
    p = lint.run("--contains", "idx_alpha", exe, extra_env=env)
    ok(p.stdout == cold[q].stdout and p.returncode == 0,
       "a definition without words is built", [p.stdout, cold[q].stdout])
    # And its words recorded: the index is again the one --list wrote.
    ok(open(index, "rb").read() == good,
       "a warm --contains records the words of the definitions it built",
       [(e["name"], [d[DEF_FLAGS] for d in e["defs"]])
        for e in decode(open(index, "rb").read())["entries"]])
    # A lookup of a few names builds its picks, and leaves the index as it was.
    open(index, "wb").write(encode(forged))
    p = lint.run(exe, "struct", "idx_gamma", extra_env=env)
    ok(p.returncode == 0 and open(index, "rb").read() == encode(forged),
       "a lookup of one name records no words", p.stderr)
    open(index, "wb").write(good)


# contains_words*.c: the structs that hold cw_leaf at some depth, by any path
# the scan's words follow (and cw_level3, whose array of them the build does
# not open: the words go through arrays), and the ones that cannot.
# (cw_twice has two definitions: a whole-image run never builds it, only
# what embeds each.)
CW_HOLD = {b"cw_holder", b"cw_level1", b"cw_level2", b"cw_level3", b"cw_paths", b"cw_anon_t",
           b"cw_embeds_twice", b"cw_embeds_there"}
CW_CANNOT = {b"cw_leaf", b"cw_pointers", b"cw_plain"}
CW_TYPES = ["cw_leaf", "struct cw_holder", "cw_holder_t", "cw_level1_t", "cw_twice", "cw_anon_t",
            "cw_level2", "int", "long", "unsigned int", "cw_lea", "cw_enum"]


def build_words(workdir):
    exe = os.path.join(workdir, "cw")
    run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "contains_words.c"),
         os.path.join(HERE, "contains_words2.c")], check=True)
    return exe


def check_contains_words(ok, lint, exe, cache):
    """A cold --contains reads each definition's member words in the scan,
    and builds only the structs that can hold the type at some depth (the
    index it writes shows which were built); its answers are the libdw
    walk's, which builds them all."""
    env = {"XDG_CACHE_HOME": cache}
    libdw = {t: lint.run("--no-cache", "--contains", t, exe,
                         extra_env={"LAYOUTLINT_SCAN": "libdw"}) for t in CW_TYPES}
    raw = {t: lint.run("--no-cache", "--contains", t, exe) for t in CW_TYPES}
    ok(all(raw[t] == libdw[t] for t in CW_TYPES) and libdw["cw_leaf"].stdout.count("\n") == 10,
       "--contains: a struct left unbuilt by its words never hides a match (the libdw walk's "
       "answers)", [f"{t}: {raw[t]} vs {libdw[t]}" for t in CW_TYPES if raw[t] != libdw[t]])
    p = lint.run("--contains", "cw_leaf", exe, extra_env=env)
    files = os.listdir(os.path.join(cache, "layoutlint")) if os.path.isdir(cache) else []
    index = [os.path.join(cache, "layoutlint", f) for f in files if f.endswith(".index")]
    ix = decode(open(index[0], "rb").read()) if len(index) == 1 else {"entries": []}
    built = {e["name"] for e in ix["entries"] for d in e["defs"] if d[DEF_FLAGS] & DEF_WORDS}
    defined = {e["name"] for e in ix["entries"] if e["defs"]}
    ok(p.stdout == raw["cw_leaf"].stdout and built == CW_HOLD and CW_CANNOT <= defined,
       "a cold --contains cw_leaf builds exactly the structs that can hold it",
       sorted(built ^ CW_HOLD) + sorted(CW_CANNOT - defined))
    warm = {t: lint.run("--contains", t, exe, extra_env=env) for t in CW_TYPES}
    ok(all(warm[t] == raw[t] for t in CW_TYPES),
       "a warm --contains from the index that cold run wrote answers as the cold runs",
       [f"{t}: {warm[t]} vs {raw[t]}" for t in CW_TYPES if warm[t] != raw[t]])
    p = lint.run("--list", exe, extra_env=env)
    q = lint.run("--list", "--no-cache", exe)
    ok(p == q, "a warm --list from it builds the rest and lists as a cold one", [p, q])


# audit_flags.c: the structs --audit's member filter needs built (an ops
# pointer at the top level or in an anonymous member); af_plain is not.
AF_NEEDED = {b"af_mixed", b"af_nested"}


def check_audit_flags(ok, lint, exe, cache):
    """Format 9: a cold --audit records what its member filter said of each
    definition, and a warm one answers from that: it builds only the
    definitions the filter needs, and answers as cold."""
    env = {"XDG_CACHE_HOME": cache}
    cold = lint.run("--no-cache", "--audit=*", exe)
    first = lint.run("--audit=*", exe, extra_env=env)
    index = glob.glob(os.path.join(cache, "layoutlint", "*.index"))
    data = open(index[0], "rb").read() if len(index) == 1 else b""
    ix = decode(data) if data else {"entries": []}
    flags = {e["name"]: [d[DEF_FLAGS] & (DEF_FILTERED | DEF_NEEDED) for d in e["defs"]]
             for e in ix["entries"] if e["defs"]}
    needed = {n for n, fs in flags.items() if any(f & DEF_NEEDED for f in fs)}
    ok(first == cold and "af_mixed" in cold.stdout and "af_nested" in cold.stdout and flags and
       all(f & DEF_FILTERED for fs in flags.values() for f in fs) and needed == AF_NEEDED,
       "a cold --audit records what its member filter said of every definition: needed "
       "exactly where an ops pointer is", [cold, first, flags])
    if not data:
        return
    warm = lint.run("--audit=*", exe, extra_env=env)
    ok(warm == cold and open(index[0], "rb").read() == data,
       "a warm --audit answers as the cold one, and leaves the index as it was", [warm, cold])
    # The flags are what it reads: af_mixed's without NEEDED is not built.
    forged = decode(data)
    for e in forged["entries"]:
        for d in e["defs"]:
            if e["name"] == b"af_mixed":
                d[DEF_FLAGS] &= ~DEF_NEEDED
    open(index[0], "wb").write(encode(forged))
    p = lint.run("--audit=*", exe, extra_env=env)
    ok(p.returncode == 0 and "af_nested" in p.stdout and "af_mixed" not in p.stdout,
       "a warm --audit builds only the definitions the index says its filter needs",
       p.stdout + p.stderr)
    # Without them (an index --list wrote), --audit is cold, and records them.
    for e in forged["entries"]:
        for d in e["defs"]:
            d[DEF_FLAGS] &= ~(DEF_FILTERED | DEF_NEEDED)
    open(index[0], "wb").write(encode(forged))
    p = lint.run("--audit=*", exe, extra_env=env)
    ok(p == cold and open(index[0], "rb").read() == data,
       "without them, --audit answers as cold and records them", p.stdout + p.stderr)
    # The filter's word is --audit's alone: a warm --contains builds af_plain.
    want = lint.run("--no-cache", "--contains", "atomic_t", exe)
    p = lint.run("--contains", "atomic_t", exe, extra_env=env)
    ok(p == want and "af_plain" in p.stdout,
       "a warm --contains builds what --audit's filter left unbuilt", [p, want])


# vars_cache.c's format 1: the header, the variables, their strings.
VARS_HEADER = struct.Struct("<8sQ7Q128s6QQ")
VAR = struct.Struct("<5Q8I")
VAR_DIE, VAR_TYPE, VAR_FILE = 0, 10, 11
NO_STRING = 0xffffffff


def decode_vars(data):
    """A kept variables file: [header fields, variables (fields), strings]."""
    h = list(VARS_HEADER.unpack_from(data))
    nr, strings_bytes = h[12], h[13]
    vs = [list(VAR.unpack_from(data, VARS_HEADER.size + i * VAR.size)) for i in range(nr)]
    at = VARS_HEADER.size + nr * VAR.size
    return [h, vs, data[at:at + strings_bytes]]


def encode_vars(h, vs, strings):
    """decode_vars()'s parts back to a file, counts and checksums redone."""
    body = b"".join(VAR.pack(*v) for v in vs)
    h = list(h)
    h[12:16] = [len(vs), len(strings), fnv(body), fnv(strings)]
    h[16] = fnv(VARS_HEADER.pack(*h)[:VARS_HEADER.size - 8])
    return VARS_HEADER.pack(*h) + body + strings


def string_at(strings, off):
    return None if off == NO_STRING else strings[off:strings.index(b"\0", off)]


def check_kept_variables(ok, lint, exe, cache):
    """A warm --audit keeps the global variables it scanned beside the index
    (BUILD-ID.vars), and the ones after read them instead of scanning: the
    same answers; the file is what they read; a damaged, forged, foreign or
    linked one is ignored (with a note where it is not another format's)."""
    env = {"XDG_CACHE_HOME": cache}
    d = os.path.join(cache, "layoutlint")
    cold = lint.run("--no-cache", "--audit=*", exe)
    first = lint.run("--audit=*", exe, extra_env=env)
    kept = glob.glob(os.path.join(d, "*.vars"))
    ok(first == cold and not kept, "a cold --audit keeps no variables (its scan read them "
       "with the structs)", [first, cold, kept])
    second = lint.run("--audit=*", exe, extra_env=env)
    kept = glob.glob(os.path.join(d, "*.vars"))
    ok(second == cold and len(kept) == 1 and oct(os.stat(kept[0]).st_mode & 0o777) == "0o600",
       "the first warm --audit keeps the variables it scanned, the user's alone",
       [second, cold, kept])
    if len(kept) != 1:
        return
    good = open(kept[0], "rb").read()
    h, vs, strings = decode_vars(good)
    names = {string_at(strings, v[9]): string_at(strings, v[VAR_TYPE]) for v in vs}
    ok(encode_vars(h, vs, strings) == good and h[0] == b"LLVARS01" and
       names == {b"g_mixed": b"struct af_mixed", b"g_nested": b"struct af_nested",
                 b"g_plain": b"struct af_plain"} and
       [v[VAR_DIE] for v in vs] == sorted(v[VAR_DIE] for v in vs),
       "it holds each global with its spelled type, in .debug_info order (format 1, as this "
       "test reads it)", names)
    third = lint.run("--audit=*", exe, extra_env=env)
    ok(third == cold and open(kept[0], "rb").read() == good,
       "a warm --audit with them answers as cold and leaves them as they were", [third, cold])
    # They are what it reads: g_plain an atomic_t of another file shows up.
    plain = [v for v in vs if string_at(strings, v[9]) == b"g_plain"][0]
    plain[VAR_TYPE], plain[VAR_FILE] = len(strings), len(strings) + 9
    open(kept[0], "wb").write(encode_vars(h, vs, strings + b"atomic_t\0/elsewhere/other.c\0"))
    p = lint.run("--audit=*", exe, extra_env=env)
    ok(p.returncode == 0 and "atomic_t g_plain (/elsewhere/other.c)" in p.stdout,
       "a warm --audit reads the kept variables, not the image's", p.stdout + p.stderr)
    h, vs, strings = decode_vars(good)
    disorder = [list(v) for v in vs]
    disorder[0][VAR_DIE], disorder[1][VAR_DIE] = vs[1][VAR_DIE], vs[0][VAR_DIE]
    beyond = [list(v) for v in vs]
    beyond[0][VAR_TYPE] = len(strings) + 100
    damaged = bytearray(good)
    damaged[VARS_HEADER.size + 3] ^= 0x40
    foreign = b"LLVARS02" + good[8:]
    for what, data, note in (("damaged", bytes(damaged), "its checksum does not match"),
                             ("out of order", encode_vars(h, disorder, strings),
                              "out of range or out of order"),
                             ("a string beyond the strings", encode_vars(h, beyond, strings),
                              "strings are out of range"),
                             ("cut short", good[:-5], "do not fit its size"),
                             ("of another format", foreign, None)):
        open(kept[0], "wb").write(data)
        p = lint.run("--audit=*", exe, extra_env=env)
        said = "ignoring the kept variables" in p.stderr
        ok(p.stdout == cold.stdout and p.returncode == 0 and
           (said and note in p.stderr if note else not said) and
           open(kept[0], "rb").read() == good,
           f"kept variables {what}: ignored{' with a note' if note else ' quietly'}, answered "
           "as cold and kept again", p.stderr)
    os.unlink(kept[0])
    os.symlink(os.path.join(d, "elsewhere"), kept[0])
    p = lint.run("--audit=*", exe, extra_env=env)
    ok(p.stdout == cold.stdout and "symbolic link" in p.stderr and os.path.islink(kept[0]) is False,
       "kept variables behind a symbolic link: refused with a note, replaced by a file",
       p.stderr)


def build_audit(workdir):
    exe = os.path.join(workdir, "af")
    run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "audit_flags.c")],
        check=True)
    return exe


def build(workdir, name, extra=""):
    exe = os.path.join(workdir, name)
    run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "index.c"),
         os.path.join(HERE, "index2.c")] + (["-DEXTRA=" + extra] if extra else []), check=True)
    return exe


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    tap = Tap(diag_lines=None)
    ok = tap.ok
    lint = Lint(a.layoutlint)
    cache = os.path.join(a.workdir, "cache")
    env = {"XDG_CACHE_HOME": cache}
    beyond = build_beyond(a.workdir)
    words = build_words(a.workdir)
    audit = build_audit(a.workdir)
    exe = build(a.workdir, "idx")
    other = build(a.workdir, "idx-other", extra="1")
    near = os.path.join(a.workdir, "near")
    run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", near, os.path.join(HERE, "near.c"),
         os.path.join(HERE, "near2.c")], check=True)
    # A binary changed in the last 2 s gets no index (a change in the same
    # timestamp tick could follow unseen): let them age.
    p = lint.run("--list", exe, extra_env=env)
    d = os.path.join(cache, "layoutlint")
    ok(p.returncode == 0 and not any(f.endswith(".index") for f in
                                     (os.listdir(d) if os.path.isdir(d) else [])),
       "a binary written just now gets no index", p.stderr)
    shutil.rmtree(cache, ignore_errors=True)
    time.sleep(3)
    bid = build_id(exe)
    index = os.path.join(cache, "layoutlint", bid + ".index")
    check_bound(a, ok, lint, exe, other)
    check_near(ok, lint, near, os.path.join(a.workdir, "near-cache"))
    check_beyond(ok, lint, beyond, os.path.join(a.workdir, "beyond-cache"))
    check_contains_words(ok, lint, words, os.path.join(a.workdir, "words-cache"))
    check_audit_flags(ok, lint, audit, os.path.join(a.workdir, "audit-cache"))
    check_kept_variables(ok, lint, audit, os.path.join(a.workdir, "vars-cache"))

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
    good = open(index, "rb").read()
    warm = answers(exe, {})
    ok(warm == cold, "every lookup, --list, --audit and --contains answers with the index as "
       "without it, byte for byte",
       [f"{q}: {w} vs {c}" for q, w, c in zip(QUERIES, warm, cold) if w != c])
    # The --audit among them records, once, what its member filter said of
    # each definition (format 9's filtered flags): the index --list wrote
    # has none. Every run after finds the index sound and leaves it.
    filled = open(index, "rb").read()
    ok(filled != good and len(filled) == len(good),
       "the first --audit with --list's index adds what its member filter said, in place")
    again = answers(exe, {})
    ok(again == cold, "with that index, every lookup answers as without one, byte for byte",
       [f"{q}: {w} vs {c}" for q, w, c in zip(QUERIES, again, cold) if w != c])
    ok(open(index, "rb").read() == filled, "runs that find a sound index leave it as it was")
    ix = decode(good)
    ok(encode(ix) == good and all(e["flags"] & DEFS_KNOWN for e in ix["entries"]),
       "the index holds every name's definitions (format 9, as this test reads it)")
    anon = [e for e in ix["entries"] if e["name"] == b"idx_anon_t"]
    ok(len(anon) == 1 and anon[0]["defs"] and
       all(d[DEF_FLAGS] & DEF_NAMELESS for d in anon[0]["defs"]) and
       not any(d[DEF_FLAGS] & DEF_NAMELESS for e in ix["entries"] if e["name"] != b"idx_anon_t"
               for d in e["defs"]),
       "a typedef's anonymous struct is recorded as nameless, and only it", anon)
    check_words(ok, lint, exe, env, index, good, cold)
    ok(all(e["flags"] & IN_STR for e in ix["entries"] if len(e["name"]) > 3),
       "every name of 4 characters or more is in .debug_str (gcc writes shorter ones inline)",
       [e["name"] for e in ix["entries"] if not e["flags"] & IN_STR])
    dup = [e for e in ix["entries"] if e["name"] == b"idx_dup"]
    ok(len(dup) == 1 and len(dup[0]["defs"]) == 2,
       "two distinct definitions of one name: two entries", dup)

    # A selector picks among the copies the index joins: such lookups go
    # the cold way, and answer as they do without the index.
    for q in (["--size", "24", "idx_dup"], ["--cu", "*index2.c", "idx_dup"],
              ["--decl-file", "*index.c", "--size", "1", "idx_dup"]):
        w = lint.run(exe, *q, extra_env=env)
        c = lint.run(exe, *q, extra_env=dict(env, LAYOUTLINT_CACHE="off"))
        ok(w == c, f"{' '.join(q)}: with the index as without it", [w, c])
    ok(open(index, "rb").read() == good, "selector lookups leave the index as it was")

    # Warm answers come from the index: forged hole counts show in --list
    # (a lookup still builds the members from DWARF).
    forged = decode(good)
    for e in forged["entries"]:
        for d in e["defs"]:
            d[9] = 7
    open(index, "wb").write(encode(forged))
    p = lint.run("--list=idx_gamma", exe, extra_env=env)
    row = [ln.split() for ln in p.stdout.splitlines() if "idx_gamma" in ln]
    ok(p.returncode == 0 and row and row[0][4] == "7",
       "a warm --list reads each row's holes from the index", p.stdout + p.stderr)
    q = lint.run(exe, "struct", "idx_gamma", extra_env=env)
    ok(q.stdout == cold[4].stdout, "a warm lookup builds the layout from DWARF", q.stdout)

    # The index is read: one that leaves idx_gamma's units out hides it.
    open(index, "wb").write(forge_without(good, "idx_gamma"))
    p = lint.run(exe, "struct", "idx_gamma", extra_env=env)
    ok(p.returncode == 2 and "not found" in p.stderr,
       "a lookup reads only the units the index lists", p.stdout + p.stderr)

    def plant(data_or_link):
        if os.path.lexists(index):
            os.unlink(index)
        if isinstance(data_or_link, bytes):
            open(index, "wb").write(data_or_link)
        else:
            os.symlink(data_or_link, index)

    def refused(data_or_link, want, what):
        got = []
        for q in QUERIES:	# planted again: a whole-image run replaces it
            plant(data_or_link)
            got.append(lint.run(exe, *q, extra_env=env))
        notes = [g.stderr.split("\n")[0] for g in got]
        same = all(g.returncode == c.returncode and g.stdout == c.stdout and
                   g.stderr == n + "\n" + c.stderr for g, c, n in zip(got, cold, notes))
        ok(same and all(want in n and "note: ignoring the name index" in n for n in notes),
           f"{what}: ignored with a note, the answers unchanged", notes[:1] +
           [f"{g} vs {c}" for g, c in zip(got, cold) if g.stdout != c.stdout][:2])

    refused(good[:100], "its size is not an index's", "a truncated header")
    refused(good[:-3], "counts do not fit", "a truncated body")
    names_at = HEADER.unpack_from(good)[21]
    flipped = bytearray(good)
    flipped[names_at + 2] ^= 0x55
    refused(bytes(flipped), "checksum", "a flipped byte")
    flipped = bytearray(good)
    flipped[HEADER.size + 3] ^= 0x55
    refused(bytes(flipped), "checksum", "a flipped byte in the unit headers")
    # The postings are read only by lookups of names whose definitions the
    # index has not recorded (a missing name, and a "did you mean", are
    # answered from the names and the definitions): with every name's
    # definitions recorded, a damaged postings section changes nothing
    # and is never read; with none recorded (an index of units only),
    # the lookups that read it note the damage.
    flipped = bytearray(good)
    flipped[-6] ^= 0x55
    got = []
    for q in QUERIES:
        plant(bytes(flipped))
        got.append(lint.run(exe, *q, extra_env=env))
    ok(all(g.returncode == c.returncode and g.stdout == c.stdout for g, c in zip(got, cold)),
       "a flipped byte in the postings, every definition recorded: the answers unchanged",
       [g.stderr for g in got if g.stderr][:3])
    units_only = decode(good)
    for e in units_only["entries"]:
        e["flags"], e["defs"] = e["flags"] & IN_STR, []
    flipped = bytearray(encode(units_only))
    flipped[-6] ^= 0x55
    got = []
    for q in QUERIES:
        plant(bytes(flipped))
        got.append(lint.run(exe, *q, extra_env=env))
    ok(all(g.returncode == c.returncode and g.stdout == c.stdout for g, c in zip(got, cold)) and
       any("checksum" in g.stderr for g in got),
       "a flipped byte in the postings of a units-only index: noted where they are read, "
       "the answers unchanged", [g.stderr for g in got if g.stderr][:3])
    flipped = bytearray(good)
    flipped[0] ^= 1
    refused(bytes(flipped), "not a layoutlint name index", "a wrong magic")
    flipped = bytearray(good)
    flipped[7] = ord("1")
    got = []
    for q in QUERIES:
        plant(bytes(flipped))
        got.append(lint.run(exe, *q, extra_env=env))
    ok(got == cold, "another layoutlint version's index: ignored quietly")
    target = os.path.join(a.workdir, "valid.index")
    open(target, "wb").write(good)
    refused(target, "symbolic link", "a symbolic link to a valid index")
    # Trusted only when ours (issue 40): a file or directory another user
    # could write, or another user's, is ignored whatever its checksums.
    def distrusted(mode=None, dir_mode=None, owner=None, want="", what=""):
        d = os.path.dirname(index)
        plant(good)
        old_dir = os.stat(d).st_mode & 0o7777

        def fix():
            if mode is not None:
                os.chmod(index, mode)
            if owner is not None:
                os.chown(index, owner, -1)
            if dir_mode is not None:
                os.chmod(d, dir_mode)
        got = []
        for q in QUERIES:
            plant(good)
            fix()
            got.append(lint.run(exe, *q, extra_env=env))
            os.chmod(d, old_dir)
        notes = [g.stderr.split("\n")[0] for g in got]
        same = all(g.returncode == c.returncode and g.stdout == c.stdout for g, c in zip(got, cold))
        ok(same and all(want in n and "note: ignoring the name index" in n for n in notes),
           f"{what}: ignored with a note, the answers unchanged", notes[:1] +
           [f"{g} vs {c}" for g, c in zip(got, cold) if g.stdout != c.stdout][:2])
    distrusted(mode=0o666, want="writable by other users", what="a world-writable index")
    distrusted(mode=0o620, want="writable by other users", what="a group-writable index")
    distrusted(dir_mode=0o777, want="its directory is writable by other users",
               what="an index in a world-writable directory")
    if os.geteuid() == 0:
        distrusted(owner=65534, want="belongs to another user", what="another user's index")
    else:
        tap.skip("another user's index", "chown needs root")
    # Nothing is written into a directory a later run would not trust.
    os.unlink(index)
    os.chmod(os.path.dirname(index), 0o777)
    p = lint.run("--list", exe, extra_env=env)
    ok(p.returncode == 0 and not os.path.exists(index),
       "--list writes no index into a world-writable directory", p.stderr)
    os.chmod(os.path.dirname(index), 0o755)

    # Every unit field validated against the header bytes and the image
    # before use: a forged abbrev_offset (valid checksums) crashed a lookup.
    for field, value, what in ((3, 1 << 40, "an abbrev_offset past .debug_abbrev"),
                               (3, None, "an abbrev_offset its header bytes do not say"),
                               (4, 9, "a unit version 9"), (5, 0, "an address size 0"),
                               (1, None, "a unit that ends before the next begins")):
        forged = decode(good)
        u = list(UNIT.unpack(forged["units"][0]))
        if value is None:
            value = u[field] + 8
        u[field] = value
        if field == 3 and value == 1 << 40:
            # The header bytes say it too: the stored fields agree, the image does not.
            head = bytearray(u[8])
            at = 8 if u[4] >= 5 else 6
            head[at:at + 4] = (0xfffffff0).to_bytes(4, "little")
            u[3] = 0xfffffff0
            u[8] = bytes(head)
        forged["units"][0] = UNIT.pack(*u)
        refused(encode(forged), "ignoring the name index", what)
    # Each entity the index names is checked when built: idx_alpha's
    # definition pointing at idx_gamma's DIE never prints gamma as alpha.
    forged = decode(good)
    one = [e for e in forged["entries"] if len(e["defs"]) == 1 and e["name"] != b"idx_gamma"
           and e["name"].startswith(b"idx_") and not e["name"].endswith(b"_t")]
    by_name = {e["name"]: e for e in forged["entries"]}
    victim_name = one[0]["name"]
    one[0]["defs"][0][0] = by_name[b"idx_gamma"]["defs"][0][0]
    one[0]["defs"][0][3] = by_name[b"idx_gamma"]["defs"][0][3]
    plant(encode(forged))
    p = lint.run(exe, victim_name.decode(), extra_env=env)
    unindexed = lint.run("--no-cache", exe, victim_name.decode(), extra_env=env)
    ok(p.returncode == 0 and "idx_gamma" not in p.stdout and p.stdout == unindexed.stdout and
       "names DIE" in p.stderr and "ignoring the name index" in p.stderr and
       len(p.stderr.splitlines()) == 1,
       "an index naming another struct's DIE: ignored with one note, the answer a run "
       "without it gives, never the other's members", p.stdout + p.stderr)

    # Another binary's index under this one's name: a foreign build-id.
    p = lint.run("--list", other, extra_env=env)
    obid = build_id(other)
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


def build_beyond(workdir):
    """Binaries whose types are not all in their own .debug_info: DWARF 4
    type units, a dwz supplementary file (when dwz is installed), and C++
    with a namespace (qualified names the index does not record)."""
    src = [os.path.join(HERE, "index.c"), os.path.join(HERE, "index2.c")]
    out = {}
    types = os.path.join(workdir, "beyond-types")
    run(["gcc", "-g", "-gdwarf-4", "-fdebug-types-section", "-O0", "-Wl,--build-id", "-o",
         types] + src, check=True)
    out["type units"] = types
    if shutil.which("dwz"):
        a, b = os.path.join(workdir, "beyond-dwz1"), os.path.join(workdir, "beyond-dwz2")
        for exe in (a, b):
            run(["gcc", "-g", "-O0", "-Wl,--build-id", "-o", exe] + src, check=True)
        sup = os.path.join(workdir, "beyond-dwz.sup")
        if run(["dwz", "-m", sup, a, b]).returncode == 0:
            out["a dwz supplementary file"] = a
    cxx = os.path.join(workdir, "beyond.cc")
    open(cxx, "w").write("namespace ns { struct idx_ns { long a; char b; }; }\n"
                         "struct idx_top { ns::idx_ns n; int c; };\n"
                         "ns::idx_ns v1; idx_top v2;\nint main() { return 0; }\n")
    exe = os.path.join(workdir, "beyond-cxx")
    run(["g++", "-g", "-O0", "-Wl,--build-id", "-o", exe, cxx], check=True)
    out["C++ with a namespace"] = exe
    return out


def check_beyond(ok, lint, beyond, cache):
    """No index is written or read for an input with types outside its own
    .debug_info, nor one with qualified names: answers as without one."""
    queries = [["--list=*"], ["--list=*"], ["struct", "idx_alpha"], ["idx_dup"],
               ["--audit=*"], ["struct", "ns::idx_ns"], ["struct", "idx_top"]]
    for what, exe in beyond.items():
        bid = build_id(exe)
        env = {"XDG_CACHE_HOME": cache}
        warm = [lint.run(exe, *q, extra_env=env) for q in queries]
        cold = [lint.run(exe, *q, extra_env=dict(env, LAYOUTLINT_CACHE="off")) for q in queries]
        index = os.path.join(cache, "layoutlint", bid + ".index")
        ok(warm == cold and not os.path.exists(index),
           f"{what}: no index written, every answer as without one",
           [f"{q}: {w} vs {c}" for q, w, c in zip(queries, warm, cold) if w != c])


def check_near(ok, lint, exe, cache):
    """"Did you mean" proposes the closest struct or union the binary defines,
    however many closer strings (variables) .debug_str holds, and never a
    typedef's anonymous struct, a name .debug_str does not hold, or one
    with a byte no identifier has; with the index (every definition
    recorded, units only, or naming a DIE that is not the definition) as
    without it."""
    env = {"XDG_CACHE_HOME": cache}
    want = {"idx_near_q": "did you mean struct idx_nearby_q?",
            "idx_near_u": "did you mean struct idx_nearby_q?",
            "idx_nearby_qq": "did you mean struct idx_nearby_q?",
            "idx_nezr_t": None,     # one edit from the typedef idx_near_t only
            # one line of near.h: a typedef's anonymous struct in near.c, the
            # struct near_foox in near2.c (both recorded, one nameless)
            "near_fooy": "did you mean struct near_foox?",
            # near$bar, one edit away: the scan meets only its tail, bar
            "near_bar": "did you mean union near_su?",
            "qzz": None,            # qz: inline, and no string of .debug_str ends so
            # union near_su in near.c, struct near_su in near2.c: the first in
            # .debug_info order, on any thread
            "near_sv": "did you mean union near_su?"}

    def answers(extra):
        return {q: lint.run(exe, "struct", q, extra_env=dict(env, **extra)) for q in want}

    cold = answers({"LAYOUTLINT_CACHE": "off"})
    bad = {q: p.stderr for q, p in cold.items()
           if p.returncode != 2 or
           (not p.stderr.rstrip().endswith(want[q]) if want[q] else "did you mean" in p.stderr)}
    ok(not bad, "did you mean: the closest struct, past 20 closer variables and a typedef "
       "of an anonymous struct", bad)
    p = lint.run("--list", exe, extra_env=env)
    index = os.path.join(cache, "layoutlint", build_id(exe) + ".index")
    warm = answers({})
    ok(p.returncode == 0 and os.path.isfile(index) and warm == cold,
       "did you mean: answered from the index as without it", {q: (warm[q].stderr, cold[q].stderr)
                                                              for q in want if warm[q] != cold[q]})
    good = open(index, "rb").read()
    # A definition recorded at another DIE (a forged or stale index): read
    # and found wrong, with a note; the scan answers.
    moved = decode(good)
    for e in moved["entries"]:
        if e["name"] == b"idx_nearby_q":
            for d in e["defs"]:
                d[0] = [x for x in moved["entries"] if x["name"] == b"idx_near_t"][0]["defs"][0][0]
    open(index, "wb").write(encode(moved))
    p = lint.run(exe, "struct", "idx_near_q", extra_env=env)
    ok(p.returncode == 2 and p.stderr.rstrip().endswith(want["idx_near_q"]) and
       "is not its definition" in p.stderr,
       "did you mean: a recorded definition that is not one is noted, and the scan answers",
       p.stderr)
    units_only = decode(good)
    for e in units_only["entries"]:
        e["flags"], e["defs"] = e["flags"] & IN_STR, []
    open(index, "wb").write(encode(units_only))
    warm = answers({})
    ok(warm == cold, "did you mean: from an index of units only (the postings) as without it",
       {q: (warm[q].stderr, cold[q].stderr) for q in want if warm[q] != cold[q]})


def check_bound(a, ok, lint, exe, other):
    """LAYOUTLINT_CACHE_MAX_MB: the least recently used index files go first;
    nothing but *.index and *.names regular files is ever removed."""
    cache = os.path.join(a.workdir, "bounded")
    d = os.path.join(cache, "layoutlint")
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(d)
    env = {"XDG_CACHE_HOME": cache}
    old, older = os.path.join(d, "old.index"), os.path.join(d, "older.index")
    keep = os.path.join(d, "notes.txt")
    victim = os.path.join(a.workdir, "bound-victim")
    for path, age in ((old, 100), (older, 200), (keep, 300), (victim, 300)):
        open(path, "wb").write(bytes(3000))
        os.utime(path, (time.time() - age, time.time() - age))
    os.symlink(victim, os.path.join(d, "link.index"))
    # 4 KiB: room for the new index and names and for neither old file.
    p = lint.run("--list", exe, extra_env=dict(env, LAYOUTLINT_CACHE_MAX_MB="0.004"))
    left = sorted(os.listdir(d))
    ok(p.returncode == 0 and not os.path.exists(old) and not os.path.exists(older) and
       any(f.endswith(".index") and f[0] not in "ol" for f in left) and
       os.path.exists(keep) and os.path.islink(os.path.join(d, "link.index")) and
       os.path.getsize(victim) == 3000,
       "the cache bound evicts the oldest index files, nothing else", left)
    open(old, "wb").write(bytes(3000))
    os.utime(old, (time.time() - 100, time.time() - 100))
    p = lint.run("--list", other, extra_env=dict(env, LAYOUTLINT_CACHE_MAX_MB="0.005"))
    left = sorted(f for f in os.listdir(d) if f.endswith(".index") and f[0] not in "ol")
    ok(p.returncode == 0 and not os.path.exists(old) and len(left) == 2,
       "least recently used first: an older planted index goes, both real ones stay", left)
    p = lint.run("--list", exe, extra_env=dict(env, LAYOUTLINT_CACHE_MAX_MB="0"))
    left = [f for f in os.listdir(d) if f.endswith((".index", ".names"))]
    ok(p.returncode == 0 and left == ["link.index"], "LAYOUTLINT_CACHE_MAX_MB=0 keeps nothing",
       left)


if __name__ == "__main__":
    sys.exit(main())
