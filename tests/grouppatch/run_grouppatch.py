#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--format=patch --group-markers on a kernel-like fixture tree, the compiler as reference.

usage: run_grouppatch.py --layoutlint PATH --workdir DIR

tests/grouppatch/tree has a header with two structs and no cacheline group
markers (include/net/gp_sock.h), net/gp_sock.c with a gp_sock_struct_check()
and net/gp_net.c with none, the kernel's macros (include/gp_kernel.h, asserts
on: BUILD_BUG_ON is a _Static_assert), and a net_cachelines table lacking
some members. gp.rules names three groups. The fixture is compiled for
x86-64 (gcc), 32-bit ARM and i386 (clang --target=), whose groups differ in
size; one run over the three objects must give a patch that:
  - git apply --check takes, then applies to a fresh copy (a git tree);
  - builds there with gcc and clang for the three targets, -Wall -Werror;
  - puts each group's markers around exactly its members, a MEMBER assert
    per member and a SIZE assert whose constant is the largest group size
    over the three rebuilt objects (recomputed from their JSON groups), so
    that lowering it by one breaks the build on the targets where the group
    is that large, and only there;
  - gives, read back (layoutlint --srcdir COPY on the rebuilt objects), the
    rules groups as kernel groups in JSON `groups` and group-assert verdicts
    `holds` on every binary for every assert;
  - leaves doc-drift no missing row for a group member.
A group whose members are not contiguous gets one clear note and no
markers (the rest of the patch still applies); bad or missing inputs are
one line on stderr and exit 2.
Output is TAP.
"""

import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.join(HERE, "tree")
RULES = os.path.join(HERE, "gp.rules")
HEADER = "include/net/gp_sock.h"
RST = "Documentation/networking/net_cachelines/gp_sock.rst"
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, have, parse_args, run  # noqa: E402

TARGETS = [  # name, compiler, flags
    ("x86_64", "gcc", []),
    ("armhf", "clang", ["--target=arm-linux-gnueabihf"]),
    ("i386", "clang", ["--target=i686-linux-gnu"]),
]
SOURCES = ["net/gp_sock.c", "net/gp_net.c"]
STRUCTS = ["struct", "gp_sock", "struct", "gp_net"]


def rules_groups(path):
    """{struct: {group: [members]}} from the rules file."""
    out, cur = {}, None
    with open(path) as f:
        for line in f:
            w = line.split("#")[0].split()
            if len(w) == 2 and w[0] == "struct":
                cur = out.setdefault(w[1], {})
            elif w and w[0] == "group" and cur is not None:
                cur.setdefault(w[1], []).extend(w[2:])
    return out


def copy_tree(workdir, name):
    root = os.path.join(workdir, name)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(TREE, root)
    return root


def build(root, targets, extra=(), obj=True):
    """{target: (ok, stderr)}; objects as ROOT/gp-TARGET.o (gp_sock.c, which has both structs)."""
    out = {}
    for name, cc, flags in targets:
        ok, err = True, ""
        for src in SOURCES:
            o = os.path.join(root, "gp-%s.o" % name) if src.endswith("gp_sock.c") else os.devnull
            p = run([cc, "-g", "-c", "-Wall", "-Wextra", "-Werror", "-Iinclude", *flags, *extra,
                     src, "-o", o], cwd=root)
            ok, err = ok and p.rc == 0, err + p.err
        out[name] = (ok, err)
    return out


def git_apply(root, patch):
    """git apply --check, then git apply, in ROOT made a git tree: (ok, why)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    for cmd in (["git", "init", "-q", "."], ["git", "add", "-A"],
                ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"]):
        p = run(cmd, cwd=root, env=env)
        if p.rc:
            return False, p.err
    path = os.path.join(root, "..", os.path.basename(root) + ".patch")
    with open(path, "w") as f:
        f.write(patch)
    for cmd in (["git", "apply", "--check", path], ["git", "apply", path]):
        p = run(cmd, cwd=root, env=env)
        if p.rc:
            return False, "%s: %s" % (" ".join(cmd[:2]), p.err)
    return True, ""


def one_line_exit2(p):
    # A usage error's one line, and argp's standard pointer to --help after it.
    lines = [l for l in p.err.split("\n") if l.strip() and not l.startswith("Try `")]
    return p.rc == 2 and len(lines) == 1 and not p.out, "exit %d, stderr %r" % (p.rc, p.err)


def existing_asserts(tap, args, targets):
    """A struct whose asserts the tree has already (tests/contracts's fixture, markers and a
    grp_contract_check()): the new ones go right after its last assert, and build."""
    tree = os.path.join(HERE, "..", "contracts", "tree")
    src = "net/grp_contract.c"
    root = os.path.join(args.workdir, "existing")
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(tree, root)
    objs = []
    for name, cc, flags in targets:
        o = os.path.join(root, "grp-%s.o" % name)
        p = run([cc, "-g", "-c", *flags, "-DCACHELINE_ASSERT_GROUP_SIZE(a,b,c)=",
                 "-DCACHELINE_ASSERT_GROUP_MEMBER(a,b,c)=", src, "-o", o], cwd=root)
        if p.rc:
            tap.ok(False, "the contracts fixture builds for %s" % name, p.err)
            return
        objs.append(o)
    rules = os.path.join(args.workdir, "existing.rules")
    with open(rules, "w") as f:
        f.write("struct grp_contract\n\tgroup grp_contract_mid outside\n"
                "\tgroup grp_contract_inner inner.a\n")
    p = run([args.layoutlint, "--srcdir", root, "-r", rules, "--format=patch", "--group-markers",
             # One binary: --format=patch's reorder of this struct differs per target,
             # and several of them give one hunk each for the same lines.
             objs[0], "struct", "grp_contract"])
    copy = os.path.join(args.workdir, "existing-patched")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(tree, copy)
    ok, why = git_apply(copy, p.out) if p.rc in (0, 1) else (False, p.err)
    if not ok:
        tap.ok(False, "existing asserts: the patch applies", why + p.out[-1500:])
        return
    with open(os.path.join(copy, src)) as f:
        lines = f.read().split("\n")
    code = [i for i, l in enumerate(lines)
            if "CACHELINE_ASSERT_GROUP_" in l.split("/*")[0] and "struct grp_contract," in l]
    new = [i for i in code if "grp_contract_mid" in lines[i] or "grp_contract_inner" in lines[i]]
    old = [i for i in code if i not in new]
    builds = {name: run([cc, "-c", *flags, src, "-o", os.devnull], cwd=copy)
              for name, cc, flags in targets}
    tap.ok(len(new) == 4 and old and new == list(range(max(old) + 1, max(old) + 5)) and
           all(b.rc == 0 for b in builds.values()),
           "existing asserts: the new ones follow the tree's last one for the struct, and the "
           "tree builds with them on every target",
           "\n".join(lines[min(code):max(code) + 2]) + "".join(b.err for b in builds.values()))


def main():
    args = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    os.makedirs(args.workdir, exist_ok=True)
    targets = [t for t in TARGETS if have(t[1])]
    if len(targets) < 2 or not have("git"):
        tap.skip_all("needs gcc, clang and git")
        return
    groups = rules_groups(RULES)

    # The tree as it is: built for each target, the binaries of the run.
    orig = copy_tree(args.workdir, "orig")
    built = build(orig, targets)
    if not all(ok for ok, _ in built.values()):
        tap.bail("the fixture does not build: %s" % built)
        return
    objs = [os.path.join(orig, "gp-%s.o" % n) for n, _, _ in targets]
    binary_args = [a for o in objs for a in ("--binary", o)]
    p = run([args.layoutlint, "--srcdir", orig, "-r", RULES, "--format=patch",
             "--group-markers", *binary_args, *STRUCTS])
    tap.ok(p.rc in (0, 1) and "diff --git" in p.out and not p.err.strip(),
           "--group-markers: a patch, no note (exit %d)" % p.rc, p.err + p.out[-2000:])
    patch = p.out

    # Each group once in the patch: markers in the header, one MEMBER a member, one SIZE.
    bad = []
    for s, gs in groups.items():
        for g, members in gs.items():
            for marker in ("begin", "end"):
                n = len(re.findall(r"^\+\s*__cacheline_group_%s\(%s\);$" % (marker, g), patch, re.M))
                if n != 1:
                    bad.append("%s: %d %s markers" % (g, n, marker))
            got = re.findall(r"^\+\s*CACHELINE_ASSERT_GROUP_MEMBER\(struct %s, %s, (\w+)\);$"
                             % (s, g), patch, re.M)
            if sorted(got) != sorted(members):
                bad.append("%s: MEMBER asserts for %s, want %s" % (g, got, members))
            if len(re.findall(r"^\+\s*CACHELINE_ASSERT_GROUP_SIZE\(struct %s, %s, \d+\);$"
                              % (s, g), patch, re.M)) != 1:
                bad.append("%s: not one SIZE assert" % g)
    tap.ok(not bad, "every rules group: two markers, a MEMBER assert per member, one SIZE "
           "assert", "\n".join(bad) + "\n" + patch[-3000:])
    # gp_sock's asserts go into its gp_sock_struct_check(), gp_net's into a new function.
    files = re.findall(r"^diff --git a/(\S+) b/", patch, re.M)
    tap.ok(sorted(files) == sorted([HEADER, "net/gp_sock.c", RST]) and
           len(files) == len(set(files)),
           "one diff a file: the header, gp_sock.c (its check function), the table; "
           "not gp_net.c", str(files))

    # Applied to a fresh copy, built for every target with the asserts on.
    copy = copy_tree(args.workdir, "patched")
    ok, why = git_apply(copy, patch)
    tap.ok(ok, "git apply --check, then git apply, in a copy of the tree", why)
    if not ok:
        tap.finish()
        return
    with open(os.path.join(copy, "net/gp_sock.c")) as f:
        text = f.read()
    fn = text[text.index("gp_sock_struct_check(void)"):]
    fn = fn[:fn.index("\n}\n")]
    tap.ok(all("CACHELINE_ASSERT_GROUP_SIZE(struct gp_sock, %s," % g in fn
               for g in groups["gp_sock"]),
           "gp_sock's asserts are inside its gp_sock_struct_check()", fn)
    with open(os.path.join(copy, HEADER)) as f:
        header = f.read()
    tap.ok(re.search(r"static inline void gp_net_struct_check\(void\)\n\{\n(\tCACHELINE_ASSERT"
                     r"_GROUP_\w+\(struct gp_net, gp_net_hot, \w+\);\n)+\}", header) is not None,
           "gp_net, with no check function, gets a static inline gp_net_struct_check()", header)
    for cc in sorted({t[1] for t in targets}):
        mine = [t for t in targets if t[1] == cc]
        res = build(copy, mine)
        tap.ok(all(ok for ok, _ in res.values()),
               "the patched tree builds with %s (-Wall -Wextra -Werror) for %s, asserts on"
               % (cc, ", ".join(n for n, _, _ in mine)),
               "\n".join("%s: %s" % (n, e) for n, (ok, e) in res.items() if not ok))
    new_objs = [os.path.join(copy, "gp-%s.o" % n) for n, _, _ in targets]

    # Read back: the rules groups are kernel groups, every assert holds everywhere.
    p = run([args.layoutlint, "--srcdir", copy, *[a for o in new_objs for a in ("--binary", o)],
             "--format=json", *STRUCTS])
    doc = json.loads(p.out) if p.rc in (0, 1) and p.out else None
    if not doc:
        tap.ok(False, "layoutlint reads the rebuilt objects", p.err)
        tap.finish()
        return
    sizes = {}  # (struct, group) -> {binary: size}
    missing = []
    for s in doc["structs"]:
        have_groups = {g["name"]: g for g in s["groups"]}
        for g in groups.get(s["name"], {}):
            if g not in have_groups:
                missing.append("%s %s on %s" % (s["name"], g, s.get("binary")))
            else:
                sizes.setdefault((s["name"], g), {})[s.get("binary")] = \
                    have_groups[g]["end"] - have_groups[g]["begin"]
    tap.ok(not missing, "the rebuilt objects have every rules group as a kernel group "
           "(JSON groups)", "\n".join(missing))
    c = doc.get("contracts") or {"asserts": [], "binaries": []}
    ours = [a for a in c["asserts"] if a["group"] in
            {g for gs in groups.values() for g in gs}]
    want = sum(len(m) + 1 for gs in groups.values() for m in gs.values())
    tap.ok(len(ours) == want and c["binaries"] == new_objs and
           all(v["verdict"] == "holds" for a in ours for v in a["per_binary"]),
           "group-assert: the %d new asserts hold on each of the %d binaries" % (want, len(objs)),
           json.dumps(ours, indent=1)[:3000])
    # N is the largest size over the binaries: tight, so it fails one byte lower.
    bad = []
    for a in ours:
        if a["macro"].endswith("SIZE"):
            by_bin = sizes.get((a["struct"], a["group"]), {})
            if not by_bin or int(a["size_text"]) != max(by_bin.values()):
                bad.append("%s %s: constant %s, sizes %s" % (a["struct"], a["group"],
                                                             a["size_text"], by_bin))
    tap.ok(not bad, "each SIZE constant is the largest group size over the binaries",
           "\n".join(bad))
    # The summary's size on each binary (computed before the rebuild, in the patched
    # order) is what the rebuilt binary has.
    bad, seen = [], 0
    for m in re.finditer(r"^layoutlint: struct (\w+): group (\w+): .* size (\d+) \(([^)]*)\)$",
                         patch, re.M):
        rebuilt = {os.path.basename(b): v for b, v in sizes.get((m.group(1), m.group(2)),
                                                              {}).items()}
        for part in m.group(4).split(", "):
            size, _, path = part.partition(" on ")
            if os.path.basename(path) in rebuilt:
                seen += 1
                if int(size) != rebuilt[os.path.basename(path)]:
                    bad.append("%s on %s: said %s, rebuilt %d" % (m.group(2), path, size,
                                                                  rebuilt[os.path.basename(path)]))
    tap.ok(not bad and seen >= len(groups["gp_sock"]) + len(groups["gp_net"]),
           "the summary's size of each group on each binary is the rebuilt binary's (%d)" % seen,
           "\n".join(bad) + patch[:1500])
    # The compiler agrees: one less breaks exactly the targets where the group is that large.
    a = [x for x in ours if x["macro"].endswith("SIZE") and x["group"] == "gp_sock_rx"][0]
    lowered = copy_tree(args.workdir, "lowered")
    shutil.rmtree(lowered)
    shutil.copytree(copy, lowered, ignore=shutil.ignore_patterns(".git", "*.o"))
    path = os.path.join(lowered, a["file"])
    with open(path) as f:
        lines = f.read().split("\n")
    n = int(a["size_text"])
    lines[a["line"] - 1] = lines[a["line"] - 1].replace(", %d);" % n, ", %d);" % (n - 1))
    with open(path, "w") as f:
        f.write("\n".join(lines))
    res = build(lowered, targets)
    by_bin = sizes[(a["struct"], a["group"])]
    # Merged layouts name one binary for several: a target's size is its object's, or
    # that of the layout it shares.
    expect = {}
    for k, (name, _, _) in enumerate(targets):
        o = new_objs[k]
        size = by_bin.get(o)
        expect[name] = size is not None and size == n
    fails = {name: not ok for name, (ok, _) in res.items()}
    tap.ok(any(fails.values()) and all(fails[t] == expect[t] for t in expect if t in fails and
                                       new_objs[[x[0] for x in targets].index(t)] in by_bin),
           "gp_sock_rx lowered to %d: the build fails where the group is %d bytes (%s)"
           % (n - 1, n, ", ".join(t for t in fails if fails[t])),
           "fails %s, sizes %s" % (fails, by_bin))
    # doc-drift: no group member left out of the table.
    members = {m for gs in groups.values() for ms in gs.values() for m in ms}
    drift = [f for s in doc["structs"] for f in s["findings"]
             if f["rule"] == "doc-drift" and set(f.get("members", [])) & members]
    tap.ok(not drift, "doc-drift finds no missing row for a group member",
           json.dumps(drift, indent=1)[:2000])

    existing_asserts(tap, args, targets)

    # Members that are not contiguous: a note, no markers, and what is written still applies.
    split_rules = os.path.join(args.workdir, "split.rules")
    with open(split_rules, "w") as f:
        f.write("struct gp_sock\n\tgroup gp_sock_split refcnt flags\n"
                "\tgroup gp_sock_half mode\n"
                "struct gp_net\n\tgroup gp_net_hot hits misses\n")
    p = run([args.layoutlint, "--srcdir", orig, "-r", split_rules, "--format=patch",
             "--group-markers", *binary_args, *STRUCTS])
    note = [l for l in p.err.split("\n") if "gp_sock_split" in l]
    half = [l for l in p.err.split("\n") if "gp_sock_half" in l]
    split_copy = copy_tree(args.workdir, "split")
    ok, why = git_apply(split_copy, p.out) if "diff --git" in p.out else (False, "no diff")
    tap.ok(p.rc in (0, 1) and len(note) == 1 and "not contiguous" in note[0] and
           "gp_sock_split" not in p.out and "gp_net_hot" in p.out and ok and
           len(half) == 1 and "declared together with others" in half[0] and
           "gp_sock_half" not in p.out,
           "a group whose members are not contiguous, or share a declaration with others "
           "(u32 mode, kind:4): one note each, no markers, the rest applies", "exit %d\n%s\n%s\n%s" % (p.rc, p.err, p.out[-1500:], why))

    # Bad and missing inputs: one line, exit 2.
    no_groups = os.path.join(args.workdir, "nogroups.rules")
    with open(no_groups, "w") as f:
        f.write("struct gp_sock\n\twrite-hot rx_seq\n")
    cases = [
        ("without --format=patch", ["--srcdir", orig, "-r", RULES, "--group-markers", objs[0],
                                    *STRUCTS]),
        ("without --srcdir", ["-r", RULES, "--format=patch", "--group-markers", objs[0],
                              *STRUCTS]),
        ("with rules that have no group", ["--srcdir", orig, "-r", no_groups, "--format=patch",
                                           "--group-markers", objs[0], *STRUCTS]),
        ("with a --srcdir that does not exist", ["--srcdir", os.path.join(args.workdir, "none"),
                                                 "-r", RULES, "--format=patch",
                                                 "--group-markers", objs[0], *STRUCTS]),
    ]
    for what, argv in cases:
        p = run([args.layoutlint, *argv])
        ok, why = one_line_exit2(p)
        tap.ok(ok, "--group-markers %s: one line, exit 2" % what, why)
    tap.finish()


if __name__ == "__main__":
    main()
