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


def main():
    if len(sys.argv) < 3:
        print("usage: drgn_lookup.py IMAGE NAME...", file=sys.stderr)
        return 2
    prog = drgn.Program()
    prog.load_debug_info([sys.argv[1]])
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
