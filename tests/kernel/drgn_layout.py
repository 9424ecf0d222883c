#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""drgn's view of some types of a kernel image, as JSON, for a second oracle.

usage: drgn_layout.py IMAGE < NAMES    (one per line: "struct X", "union X"
                                        or a typedef name)

Prints one JSON object: name -> {"kind", "typedef_of_anonymous", "size",
"members"} or {"error": TEXT}.  Members are listed in declaration order with
offsets from the start of the outermost type (as layoutlint's JSON gives
them): {"name" (null when anonymous), "offset" (byte of the first bit),
"size" (the type's size; a bitfield's storage type), "bit_offset" and
"bit_size" (null unless a bitfield), "members" (those of a struct or union
typed member, at any depth; [] otherwise)}.

drgn is read through Debian's python3-drgn, a module of the system python
(a pyenv or venv python3 earlier in PATH does not see it), hence the
#! line: the kernel tests run this file with /usr/bin/python3.  drgn gives
DW_AT_data_bit_offset and converts DW_AT_bit_offset for the image's byte
order itself, which makes it an oracle independent of pahole on big-endian
images.
"""
import json
import sys

import drgn

AGGREGATES = (drgn.TypeKind.STRUCT, drgn.TypeKind.UNION)


def strip(t):
    """The type under typedefs and qualifiers."""
    while t.kind == drgn.TypeKind.TYPEDEF:
        t = t.type
    return t.unqualified()


def size_of(t):
    t = strip(t)
    if t.kind == drgn.TypeKind.ARRAY and t.length is None:
        return 0                # a flexible array member
    return drgn.sizeof(t)


def members(t, base_bits, depth):
    out = []
    for m in t.members:
        bits = base_bits + m.bit_offset
        mt = strip(m.type)
        entry = {
            "name": m.name,
            "offset": bits // 8,
            "size": size_of(m.type),
            "bit_offset": bits if m.bit_field_size else None,
            "bit_size": m.bit_field_size or None,
            "members": [],
        }
        if mt.kind in AGGREGATES and mt.is_complete() and depth < 64:
            entry["members"] = members(mt, bits, depth + 1)
        out.append(entry)
    return out


def describe(prog, name):
    t = prog.type(name)
    anon = False
    if t.kind == drgn.TypeKind.TYPEDEF:
        t = strip(t)
        anon = t.kind in AGGREGATES and t.tag is None
    if t.kind not in AGGREGATES:
        return {"error": "not a struct or union: %s" % t.kind.name.lower()}
    return {"kind": t.kind.name.lower(), "typedef_of_anonymous": anon,
            "size": drgn.sizeof(t), "members": members(t, 0, 0)}


def main():
    if len(sys.argv) != 2:
        print("usage: drgn_layout.py IMAGE < NAMES", file=sys.stderr)
        return 2
    prog = drgn.Program()
    prog.load_debug_info([sys.argv[1]])
    result = {}
    for name in (ln.strip() for ln in sys.stdin):
        if not name:
            continue
        try:
            result[name] = describe(prog, name)
        except (LookupError, ValueError) as e:
            result[name] = {"error": str(e)}
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
