#!/usr/bin/env python3
"""Thin archives (kbuild's built-in.a, `ar rcsT`, `ar --thin`): linted as
their member objects.

usage: run_archive.py --layoutlint PATH --workdir DIR

Two fixture objects in a kbuild-like tree (fs/inode.o, fs/sub/dentry.o) are
archived three ways: `ar cDPrST` per directory as kbuild does (fs/built-in.a
holding fs/sub/built-in.a, which GNU ar flattens), `ar rcsT` at the top, and
`ar --thin` with absolute paths. The test asserts, from --format=json:

  * each archive gives exactly the structs, sizes, members and findings of
    linting its member objects with --binary, each struct from the member
    that defines it;
  * --against DIR compares each member M with DIR/M: a member grown in the
    new tree is reported as a layout change, the other is not;
  * a thin archive that names no object, one cut inside a header, and one
    whose member is gone: exit 2, one line naming the archive (and the
    member, or the header's offset); a regular archive is still refused in
    one line, and --list (one binary) refuses a thin one saying what to do.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Tap, compile_c, have, parse_args, run  # noqa: E402

INODE = """\
struct inode_like {
	long i_count;		/* write-hot */
	const void *i_op;	/* read-mostly */
	long pad[6];
};
struct inode_like inode_instance;
"""
DENTRY = """\
struct dentry_like {
	unsigned int d_flags;	/* read-mostly */
	unsigned int d_lockref;	/* write-hot */
	GROWN
	void *d_parent;
};
struct dentry_like dentry_instance;
"""
RULES = """\
cacheline 64
struct inode_like
\tread-mostly  i_op
\twrite-hot    i_count
struct dentry_like
\tread-mostly  d_flags
\twrite-hot    d_lockref
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def build_tree(root, grown=False):
    """fs/inode.o, fs/sub/dentry.o and kbuild's thin archives under ROOT."""
    write(os.path.join(root, "fs", "inode.c"), INODE)
    write(os.path.join(root, "fs", "sub", "dentry.c"),
          DENTRY.replace("GROWN", "long d_grown;" if grown else ""))
    for src in ("fs/inode.c", "fs/sub/dentry.c"):
        compile_c("gcc", os.path.join(root, src), os.path.join(root, src[:-2] + ".o"), dwarf=5)
    # kbuild's cmd_ar_builtin: rm -f $@; $(AR) cDPrST $@ $(real-prereqs), run from the top.
    for a in ("fs/sub/built-in.a", "fs/built-in.a", "top.a", "abs.a"):
        if os.path.exists(os.path.join(root, a)):
            os.unlink(os.path.join(root, a))
    for a, members in (("fs/sub/built-in.a", ["fs/sub/dentry.o"]),
                       ("fs/built-in.a", ["fs/inode.o", "fs/sub/built-in.a"])):
        run(["ar", "cDPrST", a, *members], cwd=root, check=True)
    run(["ar", "rcsT", "top.a", "fs/inode.o", "fs/sub/dentry.o"], cwd=root, check=True)
    run(["ar", "--thin", "rcs", "abs.a", os.path.join(root, "fs/inode.o"),
         os.path.join(root, "fs/sub/dentry.o")], cwd=root, check=True)


def structs_of(doc):
    """name -> (binary, size, [(member, offset)], sorted findings) of a JSON report."""
    out = {}
    for s in doc["structs"]:
        members = [(m.get("name"), m.get("offset")) for m in s["members"]]
        findings = sorted((f.get("rule") or "", f.get("message") or "")
                          for f in s["findings"])
        out[s["name"]] = (s["binary"], s["size"], members, findings)
    return out


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tap = Tap()
    if not have("ar") or not have("gcc"):
        tap.skip_all("ar and gcc are needed")
        return tap.finish()
    tool = os.path.abspath(a.layoutlint)
    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    new, old = os.path.join(work, "new"), os.path.join(work, "old")
    try:
        build_tree(new)
        build_tree(old)
        # The new tree's dentry grows by a member: 16 -> 24 bytes.
        build_tree(new, grown=True)
    except Failure as e:
        tap.bail(f"building the fixture tree: {e}")
    write(os.path.join(new, "fs.rules"), RULES)

    r = run(["ar", "t", "fs/built-in.a"], cwd=new, check=True)
    tap.ok(r.stdout.split() == ["fs/inode.o", "fs/sub/dentry.o"],
           "kbuild's nested built-in.a is flattened by ar (the fixture is what kbuild makes)",
           r.stdout)

    def lint(*args, cwd=new):
        return run([tool, *args], cwd=cwd)

    r = lint("--format=json", "-r", "fs.rules", "--binary", "fs/inode.o",
             "--binary", "fs/sub/dentry.o")
    if r.returncode not in (0, 1):
        tap.bail(f"linting the member objects: rc={r.returncode} {r.stderr}")
    want = structs_of(json.loads(r.stdout))
    tap.ok(set(want) == {"inode_like", "dentry_like"} and
           want["inode_like"][0] == "fs/inode.o" and want["dentry_like"][0] == "fs/sub/dentry.o",
           "the member objects linted one by one: both structs, each from its object",
           r.stdout[:2000])
    for archive in ("fs/built-in.a", "top.a", "abs.a"):
        r2 = lint("--format=json", "-r", "fs.rules", archive)
        got = structs_of(json.loads(r2.stdout)) if r2.stdout.startswith("{") else {}
        if archive == "abs.a":	# ar --thin stored absolute paths: binaries are absolute
            got = {k: (os.path.relpath(v[0], new),) + v[1:] for k, v in got.items()}
        tap.ok(r2.returncode == r.returncode and got == want,
               f"layoutlint -r RULES {archive}: the members' structs, sizes, members and "
               f"findings, exit {r.returncode}", f"rc={r2.returncode} {r2.stderr}\n"
               f"got {got}\nwant {want}")
    # Text: the report names each member object.
    r = lint("-r", "fs.rules", "fs/built-in.a")
    tap.ok("[1] fs/inode.o" in r.stdout and "[2] fs/sub/dentry.o" in r.stdout,
           "the text report lists the archive's members as its binaries", r.stdout[-1500:])

    # --against DIR: each member M against DIR/M.
    r = lint("--format=json", "-r", "fs.rules", "--against", old, "fs/built-in.a")
    changes = {}
    if r.stdout.startswith("{"):
        for s in json.loads(r.stdout)["structs"]:
            changes[s["name"]] = [f for f in s["findings"] if f.get("rule") == "layout-change"]
    tap.ok(r.returncode in (0, 1) and changes.get("dentry_like") and
           not changes.get("inode_like"),
           "--against DIR fs/built-in.a: the grown member's struct is a layout change, "
           "the other member's is not", f"rc={r.returncode} {r.stderr}\n{changes}")
    r = lint("-r", "fs.rules", "--against", old, "fs/built-in.a")
    tap.ok("struct dentry_like: 16 -> 24 bytes" in r.stdout + r.stderr,
           "the layout change names the sizes before and after (16 -> 24 bytes)",
           r.stdout[-1500:] + r.stderr)

    # Bad archives: one line, exit 2, naming what is wrong.
    write(os.path.join(new, "empty.a"), "!<thin>\n")
    with open(os.path.join(new, "fs", "built-in.a"), "rb") as f:
        whole = f.read()
    with open(os.path.join(new, "cut.a"), "wb") as f:
        f.write(whole[:100])
    shutil.copy(os.path.join(new, "fs/inode.o"), os.path.join(new, "fs/gone.o"))
    run(["ar", "rcsT", "gone.a", "fs/gone.o"], cwd=new, check=True)
    os.unlink(os.path.join(new, "fs/gone.o"))
    run(["ar", "rcs", "regular.a", "fs/inode.o"], cwd=new, check=True)
    for archive, words in (("empty.a", ["empty.a: a thin archive that names no object"]),
                           ("cut.a", ["cut.a: offset ", "truncated or malformed ar member header"]),
                           ("gone.a", ["gone.a: member fs/gone.o: No such file or directory"]),
                           ("regular.a", ["regular.a: an ar archive, not an object",
                                          "ar t regular.a"])):
        r = lint("-r", "fs.rules", archive)
        tap.ok(r.returncode == 2 and not r.stdout and len(r.stderr.splitlines()) == 1 and
               all(w in r.stderr for w in words),
               f"{archive}: exit 2, one line: {words[0]}", f"rc={r.returncode} {r.stderr}")
    r = lint("--list", "fs/built-in.a")
    tap.ok(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and
           "a thin archive" in r.stderr and "name one of its objects" in r.stderr,
           "--list on a thin archive: exit 2, one line saying to name an object",
           f"rc={r.returncode} {r.stderr}")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
