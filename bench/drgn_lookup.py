#!/usr/bin/python3
"""bench/drgn_lookup.py — drgn's answer to what a layoutlint lookup answers.

Usage: drgn_lookup.py IMAGE NAME...
       drgn_lookup.py --every NAMESFILE IMAGE
Loads IMAGE's DWARF with drgn, then prints each struct NAME as C (drgn's
own rendering, "struct NAME {" first), in the order given, so
bench/complete.py can count the names that came back the same way it
counts pahole's and layoutlint's. A name drgn cannot find is one line on
stderr and exit status 2 at the end, as layoutlint does.

--every NAMESFILE ("-": standard input) looks up every name in the file
instead and prints one line, "drgn_lookup: N of M found" (no C: the
counterpart of `layoutlint --list='*'`, which prints a row a struct, not
its members). A line "struct NAME ..." or "union NAME ..." is that
aggregate, so `layoutlint --list='*' IMAGE` output can be given as it is
(its header line and its "?" rows are skipped); a line of one word is a
struct name. Each type is looked up and its size read (a complete type,
not a declaration); a name drgn does not know as KIND NAME is looked up
as a typedef of an anonymous KIND (layoutlint lists `typedef struct {...}
atomic_t;` as struct atomic_t); a name not found either way is one line on
stderr, exit 2.

Runs with Debian 12's drgn 0.0.22 (/usr/bin/python3, python3-drgn) and
with sid's 0.3.0 (scripts/fetch-drgn's wrapper: `WRAPPER drgn_lookup.py
...`).
"""
import sys

import drgn


def load(prog, path):
    """IMAGE's DWARF into PROG, as this drgn takes a file it is told of.

    drgn 0.0.22 (Debian 12) loads the paths given to load_debug_info().
    From 0.1 on, debugging information belongs to modules:
    load_debug_info([path]) on a program with no core dump and no main
    module finds no module the file belongs to and loads nothing (every
    lookup fails). The file is given instead to an extra module made for
    it, with force=True (a made-up module has no build ID to match). Tried
    with 0.3.0 (scripts/fetch-drgn's) on the 6.1 and 6.12 vmlinux, 6.12's
    xfs.ko, file61.o and an executable: the same C as 0.0.22 prints.
    An extra module, not the main module: a main module takes
    executables and a vmlinux but leaves an ET_REL object (xfs.ko,
    file61.o) unloaded. The two drgns are told apart by what Program has,
    not by version strings.
    """
    if hasattr(prog, "extra_module"):
        module = prog.extra_module(path, create=True)
        module.try_file(path, force=True)
        if module.debug_file_status != drgn.ModuleFileStatus.HAVE:
            raise SystemExit(f"drgn_lookup: {path}: drgn {drgn.__version__} did not load "
                             f"its debugging information ({module.debug_file_status})")
        return
    prog.load_debug_info([path])


def typedef_aggregate(prog, kind, name):
    """The anonymous KIND that typedef NAME names, or None.

    layoutlint lists `typedef struct { ... } atomic_t;` as struct atomic_t;
    drgn knows it only as the typedef.
    """
    try:
        t = prog.type(name)
    except LookupError:
        return None
    if t.kind != drgn.TypeKind.TYPEDEF:
        return None
    t = t.type.unqualified()
    want = drgn.TypeKind.STRUCT if kind == "struct" else drgn.TypeKind.UNION
    return t if t.kind == want and t.tag is None else None


def every_name(lines):
    """(kind, name) of each aggregate in NAMESFILE's lines."""
    names = []
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0] in ("struct", "union"):
            names.append((words[0], words[1]))
        elif len(words) == 1 and words[0] != "?":
            names.append(("struct", words[0]))
    return names


def main():
    args = sys.argv[1:]
    every = None
    if args[:1] == ["--every"] and len(args) == 3:
        every, args = args[1], args[2:]
    elif len(args) < 2 or args[0].startswith("--"):
        print("usage: drgn_lookup.py IMAGE NAME...\n"
              "       drgn_lookup.py --every NAMESFILE IMAGE", file=sys.stderr)
        return 2
    if every is not None:
        if every == "-":
            names = every_name(sys.stdin)
        else:
            with open(every) as f:
                names = every_name(f)
    else:
        names = [("struct", n) for n in args[1:]]
    prog = drgn.Program()
    load(prog, args[0])
    status = found = 0
    for kind, name in names:
        try:
            t = prog.type(kind + " " + name)
        except LookupError:
            t = typedef_aggregate(prog, kind, name) if every is not None else None
        if t is None or (every is not None and t.size is None):
            print(f"drgn_lookup: {kind} {name} not found", file=sys.stderr)
            status = 2
            continue
        if every is None:
            print(str(t))
        found += 1
    if every is not None:
        print(f"drgn_lookup: {found} of {len(names)} found")
    return status


if __name__ == "__main__":
    sys.exit(main())
