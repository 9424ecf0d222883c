#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The raw DWARF reader (src/input/dwarf/raw/) sees no libdw.

usage: raw_includes.py SRC_DIR STAMP FILE...   (a build step: src/meson.build)
       raw_includes.py --self-test             (a test: tests/meson.build)

Its library links without libdw (tests/layers/main.c, layer-input-dwarf-raw);
this checks what it includes: no header of libdw, libdwfl, libdwelf, libelf
or gelf, directly or through a header of the tree ("input/...", "util/..."
are followed), and no header of the libdw side of input/dwarf. <dwarf.h>
is allowed: the DWARF standard's constants, no code to link. One line per
include found, exit 1.
"""
import os
import re
import sys
import tempfile

FORBIDDEN_SYSTEM = re.compile(r"^(elfutils/.*|libelf\.h|gelf\.h|libdw.*\.h)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def problems(src_dir, files):
    found = []
    seen = set()
    todo = [(os.path.abspath(f), None) for f in files]
    raw_dir = os.path.join(os.path.abspath(src_dir), "input", "dwarf", "raw") + os.sep
    while todo:
        path, via = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        where = path + (" (through %s)" % via if via else "")
        for kind, name in INCLUDE.findall(text):
            if kind == "<":
                if FORBIDDEN_SYSTEM.match(name):
                    found.append("%s: includes <%s>" % (where, name))
                continue
            target = os.path.join(os.path.abspath(src_dir), name)
            if not os.path.exists(target):
                target = os.path.join(os.path.dirname(path), name)
            if not os.path.exists(target):
                continue    # config.h and the like: generated, no code
            target = os.path.abspath(target)
            if name.startswith("input/dwarf/") and not target.startswith(raw_dir):
                found.append('%s: includes "%s", the libdw side' % (where, name))
                continue
            todo.append((target, via or path))
    return found


def self_test():
    with tempfile.TemporaryDirectory() as top:
        raw = os.path.join(top, "input", "dwarf", "raw")
        os.makedirs(raw)
        util = os.path.join(top, "util")
        os.makedirs(util)
        with open(os.path.join(util, "ok.h"), "w") as f:
            f.write("#include <stdint.h>\n#include <dwarf.h>\n")
        with open(os.path.join(util, "bad.h"), "w") as f:
            f.write("#include <elfutils/libdw.h>\n")
        with open(os.path.join(top, "input", "dwarf", "side.h"), "w") as f:
            f.write("#include <stdint.h>\n")
        cases = [('#include "util/ok.h"\n', 0), ("#include <elfutils/libdw.h>\n", 1),
                 ('#include "util/bad.h"\n', 1), ("#include <gelf.h>\n", 1),
                 ('#include "input/dwarf/side.h"\n', 1), ("#  include <libdwfl.h>\n", 1)]
        print("1..%d" % len(cases))
        for i, (text, want) in enumerate(cases):
            path = os.path.join(raw, "case%d.c" % i)
            with open(path, "w") as f:
                f.write(text)
            got = len(problems(top, [path]))
            if got != want:
                print("not ok %d - %r: %d problems, expected %d" % (i + 1, text, got, want))
                return 1
            print("ok %d - %r" % (i + 1, text.strip()))
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    src_dir, stamp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    found = problems(src_dir, files)
    for line in found:
        print("layer input-dwarf-raw: " + line, file=sys.stderr)
    if found:
        return 1
    with open(stamp, "w") as f:
        f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
