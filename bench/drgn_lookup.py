#!/usr/bin/python3
"""bench/drgn_lookup.py — drgn's answer to what a layoutlint lookup answers.

Usage: drgn_lookup.py IMAGE NAME...
Loads IMAGE's DWARF with drgn (Debian's python3-drgn), then prints each
struct NAME as C (drgn's own rendering, "struct NAME {" first), in the order
given, so bench/complete.py can count the names that came back the same way
it counts pahole's and layoutlint's. A name drgn cannot find is one line on
stderr and exit status 2 at the end, as layoutlint does.
"""
import sys

import drgn


def load(prog, path):
    """IMAGE's DWARF into PROG, as this drgn takes a file it is told of.

    drgn 0.0.22 (Debian 12) loads the paths given to load_debug_info();
    from 0.1 on, modules: load_debug_info([path]) on a program with no core
    and no main module finds nothing (every lookup fails), and a file is
    given to a module made for it (extra_module(path).try_file(path,
    force=True)). The two are told apart by what the module has, not by
    version strings. Only 0.0.22 could be run here (Debian 12's; PyPI is
    out of reach): the 0.1+ branch follows drgn's documented API, untried.
    """
    if hasattr(prog, "extra_module"):
        try:
            module = prog.extra_module(path, create=True)
        except TypeError:  # a drgn whose extra_module() always creates
            module = prog.extra_module(path)
        module.try_file(path, force=True)
        return
    prog.load_debug_info([path])


def main():
    if len(sys.argv) < 3:
        print("usage: drgn_lookup.py IMAGE NAME...", file=sys.stderr)
        return 2
    prog = drgn.Program()
    load(prog, sys.argv[1])
    status = 0
    for name in sys.argv[2:]:
        try:
            print(str(prog.type("struct " + name)))
        except LookupError:
            print(f"drgn_lookup: struct {name} not found", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
