#!/usr/bin/env python3
"""bench/complete.py — did a tool's answer hold every struct that was asked for?

Usage: complete.py NAMES [MISSING] < OUTPUT
NAMES and MISSING are comma lists (NAMES is empty for a "missing" row).
OUTPUT is the tool's stdout and stderr. Prints "ANSWERED/ASKED" and exits 0
when every name in NAMES was answered with a definition (a line starting
"struct NAME {", which layoutlint, pahole and drgn all print, or gdb's
`ptype /o` form, "/* offset | size */  type = struct NAME {", closed by its
"/* total size (bytes): N */" and a "}" alone on its line: inner aggregates
close with "} name;" or "};"), nothing else was, and every name in
MISSING was reported on a line saying "not found" (gdb: "No struct type
named NAME."); 1 otherwise. bench/run times a tool
only for the ratio when its answer was complete: pahole -C a,b,c without
--skip_missing stops at the first name a unit lacks and prints fewer.
"""
import re
import sys


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: complete.py NAMES [MISSING] < OUTPUT", file=sys.stderr)
        return 2
    asked = [n for n in sys.argv[1].split(",") if n]
    missing = [n for n in (sys.argv[2] if len(sys.argv) == 3 else "").split(",") if n]
    out = sys.stdin.read()
    seen = set(re.findall(r"^struct ([A-Za-z_][A-Za-z0-9_]*) \{", out, re.M))
    # gdb's ptype /o: the header comment, then "type = struct NAME {"; the
    # answer is whole only when the outermost total size and "}" came too
    # (an incomplete type prints "{<incomplete type>" and no total).
    for name, body in re.findall(r"^(?:/\*[^\n]*\*/\s*)?type = struct ([A-Za-z_][A-Za-z0-9_]*) \{"
                                 r"(.*?)^\s*/\* total size \(bytes\): *\d+ \*/\n\s*\}$", out, re.M | re.S):
        if "<incomplete type>" not in body:
            seen.add(name)
    found = [n for n in asked if n in seen]
    said = [n for n in missing
            if re.search(r"^.*\b%s\b.*not found|^No struct type named %s\.$"
                         % (re.escape(n), re.escape(n)), out, re.M)]
    print(f"{len(found) + len(said)}/{len(asked) + len(missing)}")
    return 0 if found == asked and said == missing and seen <= set(asked) else 1


if __name__ == "__main__":
    sys.exit(main())
