#!/usr/bin/env python3
"""Broken inputs for layoutlint, made from real objects at known offsets.

victim.c, victim2.c and victim3.c are compiled with gcc (DWARF 4, so every
form is one this file decodes) and linked; each case then edits bytes the ELF
section headers, the unit headers and the abbreviation table locate, so a
case is the same damage on any machine. The rules cases are written
directly. `make_corpus.py DIR` writes every case into DIR; run_corpus.py
imports it and pins what layoutlint must say about each.
"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import compile_c  # noqa: E402

# DWARF constants used here (dwarf.h).
DW_TAG = {"array_type": 0x01, "member": 0x0d, "structure_type": 0x13, "subrange_type": 0x21,
          "typedef": 0x16, "compile_unit": 0x11}
DW_AT = {"name": 0x03, "byte_size": 0x0b, "type": 0x49, "data_member_location": 0x38,
         "upper_bound": 0x2f, "sibling": 0x01}
FORM_FIXED = {0x01: 8, 0x0b: 1, 0x05: 2, 0x06: 4, 0x07: 8, 0x0e: 4, 0x11: 1, 0x12: 2,
              0x13: 4, 0x14: 8, 0x17: 4, 0x19: 0, 0x0c: 1, 0x1f: 4, 0x21: 0, 0x1e: 16,
              0x25: 1, 0x26: 2, 0x27: 3, 0x28: 4, 0x20: 8, 0x10: 4}
FORM_STRING, FORM_SDATA, FORM_UDATA, FORM_EXPRLOC = 0x08, 0x0d, 0x0f, 0x18
FORM_BLOCK1, FORM_BLOCK2, FORM_BLOCK4, FORM_BLOCK, FORM_REF_UDATA = 0x0a, 0x03, 0x04, 0x09, 0x15


def uleb(b, p):
    v = shift = 0
    while True:
        x = b[p]
        p += 1
        v |= (x & 0x7f) << shift
        shift += 7
        if not x & 0x80:
            return v, p


def abbrev_table(b, p):
    """The abbreviation table at file offset P: {code: abbreviation}."""
    table = {}
    while True:
        code, p = uleb(b, p)
        if code == 0:
            return table
        code_at = p
        tag, p = uleb(b, p)
        children_at = p
        children = b[p]
        p += 1
        specs = []
        while True:
            spec_at = p
            at, p = uleb(b, p)
            form_at = p
            form, p = uleb(b, p)
            if at == 0 and form == 0:
                break
            specs.append((at, form, form_at, spec_at))
        table[code] = {"tag": tag, "children": children, "specs": specs, "at": code_at,
                       "children_at": children_at}


class Elf:
    """Section headers of a 64-bit little-endian ELF file."""

    def __init__(self, data):
        self.data = data
        assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1
        self.shoff, = struct.unpack_from("<Q", data, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", data, 0x3a)
        self.sections = {}
        strtab = self.header(self.shstrndx)
        for i in range(self.shnum):
            h = self.header(i)
            end = data.index(b"\0", strtab["offset"] + h["name"])
            name = data[strtab["offset"] + h["name"]:end].decode()
            h["index"] = i
            self.sections[name] = h

    def header(self, i):
        at = self.shoff + i * self.shentsize
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", self.data, at)
        return {"name": name, "type": typ, "flags": flags, "offset": off, "size": size,
                "at": at}

    def sec(self, name):
        return self.sections[name]


class Dwarf:
    """DIEs of every DWARF 4 unit, with the file offset of each attribute value."""

    def __init__(self, data):
        self.data = data
        self.elf = Elf(data)
        info, abbrev = self.elf.sec(".debug_info"), self.elf.sec(".debug_abbrev")
        self.strs = self.elf.sec(".debug_str")
        self.dies = []
        self.units = []
        off = info["offset"]
        end = off + info["size"]
        while off < end:
            length, version, abbrev_off, addr_size = struct.unpack_from("<IHIB", data, off)
            assert version == 4, "make_corpus decodes DWARF 4 only"
            unit = {"offset": off, "version_at": off + 4, "end": off + 4 + length,
                    "abbrevs": self.abbrevs(abbrev["offset"] + abbrev_off)}
            self.units.append(unit)
            self.walk(unit, off + 11, off + 4 + length)
            off += 4 + length

    def abbrevs(self, p):
        return abbrev_table(self.data, p)

    def walk(self, unit, p, end):
        b = self.data
        while p < end:
            die_at = p
            code, p = uleb(b, p)
            if code == 0:
                continue
            a = unit["abbrevs"][code]
            attrs = {}
            for at, form, _, _ in a["specs"]:
                vat = p
                if form in FORM_FIXED:
                    n = FORM_FIXED[form]
                    v = int.from_bytes(b[p:p + n], "little") if n <= 8 else None
                    p += n
                elif form == FORM_STRING:
                    e = b.index(b"\0", p)
                    v = b[p:e].decode(errors="replace")
                    p = e + 1
                elif form in (FORM_SDATA, FORM_UDATA, FORM_REF_UDATA):
                    v, p = uleb(b, p)
                elif form in (FORM_EXPRLOC, FORM_BLOCK):
                    n, p = uleb(b, p)
                    v = bytes(b[p:p + n])
                    p += n
                elif form in (FORM_BLOCK1, FORM_BLOCK2, FORM_BLOCK4):
                    w = {FORM_BLOCK1: 1, FORM_BLOCK2: 2, FORM_BLOCK4: 4}[form]
                    n = int.from_bytes(b[p:p + w], "little")
                    p += w
                    v = bytes(b[p:p + n])
                    p += n
                else:
                    raise ValueError(f"form 0x{form:x} at 0x{p:x}")
                if form == 0x0e:
                    s = self.strs["offset"] + v
                    v = b[s:b.index(b"\0", s)].decode(errors="replace")
                attrs[at] = (v, vat, form)
            self.dies.append({"at": die_at, "unit": unit, "tag": a["tag"], "attrs": attrs,
                              "abbrev": a, "code": code})

    def find(self, tag, name=None, unit=0):
        for d in self.dies:
            if d["unit"] is self.units[unit] and d["tag"] == DW_TAG[tag] and \
                    (name is None or d["attrs"].get(DW_AT["name"], (None,))[0] == name):
                return d
        raise KeyError(f"{tag} {name}")

    def members(self, struct_die):
        out, seen = [], False
        for d in self.dies:
            if d is struct_die:
                seen = True
                continue
            if seen:
                if d["tag"] != DW_TAG["member"]:
                    break
                out.append(d)
        return out


VICTIM_FLAGS = ["-g", "-gdwarf-4", "-O0", "-fno-eliminate-unused-debug-types"]


def compile_victim(work, extra=(), name="victim", cc="gcc"):
    """Link victim.c, victim2.c and victim3.c (three units) into WORK/NAME."""
    return compile_c(cc, [os.path.join(HERE, s) for s in ("victim.c", "victim2.c", "victim3.c")],
                     name, workdir=work, flags=[*VICTIM_FLAGS, *extra])


def patched(src, dst, edits):
    """Copy SRC to DST with EDITS: (file offset, bytes) pairs."""
    data = bytearray(open(src, "rb").read())
    for off, new in edits:
        data[off:off + len(new)] = new
    with open(dst, "wb") as f:
        f.write(data)
    return dst


def value_at(die, attr):
    return die["attrs"][DW_AT[attr]]


def alpha_children_at(data):
    """.debug_abbrev offsets of the DW_CHILDREN bytes the alpha cases set to
    2, in unit 0's table of the alpha/beta build DATA: 'unit', the compile
    unit's abbreviation; 'struct', struct alpha's (linked builds only: an
    ld -r object's DIEs are read here without its relocations). Unit 0's
    table is at .debug_abbrev offset 0 in both."""
    elf = Elf(data)
    ab, info = elf.sec(".debug_abbrev"), elf.sec(".debug_info")
    assert struct.unpack_from("<I", data, info["offset"] + 6)[0] == 0, "unit 0's table is at 0"
    table = abbrev_table(data, ab["offset"])
    cu = [a for a in table.values() if a["tag"] == DW_TAG["compile_unit"]]
    at = {"unit": cu[0]["children_at"] - ab["offset"]}
    if struct.unpack_from("<H", data, 16)[0] != 1:     # e_type: not ET_REL
        alpha = Dwarf(data).find("structure_type", "alpha")
        at["struct"] = alpha["abbrev"]["children_at"] - ab["offset"]
        # Struct alpha's abbreviation code (one ULEB byte), and the compile
        # unit's code, which the "code twice" case gives it.
        at["struct_code"] = alpha["abbrev"]["at"] - 1 - ab["offset"]
        at["unit_code"] = [c for c, a in table.items() if a["tag"] == DW_TAG["compile_unit"]][0]
        assert at["unit_code"] < 128 and data[ab["offset"] + at["struct_code"]] < 128
    return at


def make_alpha(work):
    """The DW_CHILDREN cases: alpha.c and beta.c (both define struct alpha
    from alpha.h) linked, and as an ld -r object; unit 0's compile unit
    abbreviation, or struct alpha's, says DW_CHILDREN 2 (only 0 and 1
    exist). libdw read 2 as no children and dropped the unit (or the
    members) in silence, where the raw scan read 2 as yes."""
    srcs = [os.path.join(HERE, "alpha.c"), os.path.join(HERE, "beta.c")]
    cases = {"alpha-intact": compile_c("gcc", srcs, "alpha-intact", workdir=work,
                                        flags=VICTIM_FLAGS)}
    objs = [compile_c("gcc", src, os.path.join(work, os.path.basename(src)[:-2] + ".o"),
                      flags=[*VICTIM_FLAGS, "-c"]) for src in srcs]
    rel = os.path.join(work, "alpha-relocatable-intact")
    subprocess.run(["ld", "-r", *objs, "-o", rel], check=True)
    cases["alpha-relocatable-intact"] = rel
    for base, damaged, what in (("alpha-intact", "children-2-unit", "unit"),
                                ("alpha-intact", "children-2-struct", "struct"),
                                ("alpha-relocatable-intact", "children-2-relocatable", "unit")):
        data = open(cases[base], "rb").read()
        at = Elf(data).sec(".debug_abbrev")["offset"] + alpha_children_at(data)[what]
        assert data[at] == 1, (damaged, data[at])
        cases[damaged] = patched(cases[base], os.path.join(work, damaged), [(at, b"\x02")])
    # One code defined twice: libdw and the raw scan each used another
    # definition for DIEs of that code, and disagreed (a fuzz_scan_diff find).
    data = open(cases["alpha-intact"], "rb").read()
    where = alpha_children_at(data)
    at = Elf(data).sec(".debug_abbrev")["offset"] + where["struct_code"]
    cases["abbrev-code-twice"] = patched(cases["alpha-intact"],
                                         os.path.join(work, "abbrev-code-twice"),
                                         [(at, bytes([where["unit_code"]]))])
    return cases


def make_binaries(work):
    """Every binary case: {name: path}; the pristine build is 'intact'."""
    base = compile_victim(work, name="intact")
    data = open(base, "rb").read()
    dw = Dwarf(data)
    elf = dw.elf
    info = elf.sec(".debug_info")
    cases = {"intact": base}

    def case(name, edits):
        cases[name] = patched(base, os.path.join(work, name), edits)

    with open(os.path.join(work, "empty"), "wb"):
        pass
    cases["empty"] = os.path.join(work, "empty")
    with open(os.path.join(work, "truncated-elf-header"), "wb") as f:
        f.write(data[:40])
    cases["truncated-elf-header"] = os.path.join(work, "truncated-elf-header")
    # The file cut in the middle of .debug_info: everything after, the
    # section header table included, is gone.
    with open(os.path.join(work, "truncated-in-debug-info"), "wb") as f:
        f.write(data[:info["offset"] + info["size"] // 2])
    cases["truncated-in-debug-info"] = os.path.join(work, "truncated-in-debug-info")
    # The section header says .debug_info ends halfway through a unit.
    case("debug-info-size-halved", [(info["at"] + 32, struct.pack("<Q", info["size"] // 2))])
    # The first unit claims to run past the end of the section.
    u0 = dw.units[0]
    case("unit-length-overruns", [(u0["offset"], struct.pack("<I", info["size"] + 0x1000))])
    case("unit-version-7", [(u0["version_at"], struct.pack("<H", 7))])

    victim = dw.find("structure_type", "victim")
    # An abbreviation code no table defines, on struct victim's DIE.
    case("undefined-abbrev-code", [(victim["at"], bytes([0x7e]))])
    # The DW_AT_name spec of the member abbreviation gets form 0x7f.
    member_abbrev = dw.members(victim)[0]["abbrev"]
    name_spec = [s for s in member_abbrev["specs"] if s[0] == DW_AT["name"]][0]
    case("bad-abbrev-form", [(name_spec[2], bytes([0x7f]))])
    # Member b's DW_AT_type (ref4) points far outside its unit.
    b = dw.members(victim)[1]
    case("type-ref-outside-unit", [(value_at(b, "type")[1], struct.pack("<I", 0x7fffff00))])
    # typedef td_a (-> int) now points at td_b, which points at td_a.
    td_a, td_b = dw.find("typedef", "td_a"), dw.find("typedef", "td_b")
    case("typedef-cycle", [(value_at(td_a, "type")[1],
                            struct.pack("<I", td_b["at"] - td_b["unit"]["offset"]))])
    # struct victim says 8 bytes; its members run to 40.
    size_v, size_at, size_form = value_at(victim, "byte_size")
    assert size_form == 0x0b
    case("member-beyond-size", [(size_at, bytes([8]))])
    # Member c (offset 16) moved to 12: it overlaps b (8 bytes at 8).
    c_loc = value_at(dw.members(victim)[2], "data_member_location")
    assert c_loc[0] == 16 and c_loc[2] == 0x0b, c_loc
    case("overlapping-members", [(c_loc[1], bytes([12]))])
    # struct huge_arr: 16 bytes by its own account, but m's outer bound
    # makes (bound + 1) * 2 overflow 64 bits.
    huge = dw.find("structure_type", "huge_arr", unit=2)
    hsize = value_at(huge, "byte_size")
    m = dw.members(huge)[0]
    arr_off = m["unit"]["offset"] + value_at(m, "type")[0]
    arr = [d for d in dw.dies if d["at"] == arr_off][0]
    sub = dw.dies[dw.dies.index(arr) + 1]
    ub = value_at(sub, "upper_bound")
    assert sub["tag"] == DW_TAG["subrange_type"] and ub[2] == 0x07, ub
    case("array-size-overflow", [
        (hsize[1], (16).to_bytes(FORM_FIXED[hsize[2]], "little")),
        (ub[1], struct.pack("<Q", 0x8000000000000000))])
    # No strings at all: every .debug_str offset is out of range.
    case("empty-debug-str", [(dw.strs["at"] + 32, struct.pack("<Q", 0))])
    case("section-headers-past-eof", [(0x28, struct.pack("<Q", len(data) + 0x10000))])
    # Every .debug_aranges set names an offset 3 bytes into the last unit:
    # the two-thread header walk starts its second half there, must notice
    # that the first half does not end there, and walk it all in order.
    ar = elf.sec(".debug_aranges")
    bad_info_off = dw.units[-1]["offset"] - info["offset"] + 3
    edits, at = [], ar["offset"]
    while at < ar["offset"] + ar["size"]:
        set_len, = struct.unpack_from("<I", data, at)
        edits.append((at + 6, struct.pack("<I", bad_info_off)))
        at += 4 + set_len
    assert edits, "no .debug_aranges sets"
    case("aranges-off-unit-start", edits)

    # DW_AT_data_member_location as a location expression (DW_OP_plus_uconst):
    # what gcc writes for strict DWARF 2. Must read as plain offsets.
    cases["member-location-expression"] = compile_victim(
        work, ["-gdwarf-2", "-gstrict-dwarf"], name="member-location-expression")

    # -gz with a damaged zlib stream in .debug_info.
    gz = compile_victim(work, ["-gz=zlib"], name="gz-intact")
    gzdata = bytearray(open(gz, "rb").read())
    gzinfo = Elf(bytes(gzdata)).sec(".debug_info")
    assert gzinfo["flags"] & 0x800, "gcc -gz did not compress .debug_info"
    mid = gzinfo["offset"] + 24 + (gzinfo["size"] - 24) // 2     # past the Elf64_Chdr
    for i in range(16):
        gzdata[mid + i] ^= 0x5a
    with open(os.path.join(work, "gz-corrupt-stream"), "wb") as f:
        f.write(gzdata)
    cases["gz-corrupt-stream"] = os.path.join(work, "gz-corrupt-stream")

    cases.update(make_alpha(work))

    # 100,000 members, one per line of C.
    src = os.path.join(work, "many.c")
    with open(src, "w") as f:
        f.write("struct many {\n")
        for i in range(100000):
            f.write(f"\tint m{i};\n")
        f.write("};\nstruct many g_many;\n")
    cases["100k-members"] = os.path.join(work, "many.o")
    compile_c("gcc", src, cases["100k-members"], flags=["-g", "-gdwarf-4", "-c"])
    return cases


def make_rules(work):
    """Every rules case: {name: path}."""
    cases = {}

    def write(name, content):
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(content)
        cases[name] = path

    # One line of 1 MB: a comment (fine) and a member list (an error).
    write("1mb-comment-line.rules",
          b"# " + b"x" * (1 << 20) + b"\nstruct victim\n\twrite-hot a\n\tread-mostly b\n")
    write("1mb-member-line.rules",
          b"struct victim\n\twrite-hot " + b"a " * (1 << 19) + b"\n\tread-mostly b\n")
    write("nul-byte.rules", b"struct victim\n\twrite-hot a\n\tread-mostly b\0c\n")
    write("invalid-utf8.rules", b"struct victim\n\twrite-hot a\n\tread-mostly \xff\xfe\n")
    # Against the 100,000-member struct: a pattern matching all but one.
    write("many.rules", b"struct many\n\twrite-hot m1\n\tread-mostly m?*\n")
    write("invalid-utf8-comment.rules",
          b"# caf\xe9 latin-1 in a comment\nstruct victim\n\twrite-hot a\n\tread-mostly b\n")
    return cases


def main():
    if len(sys.argv) != 2:
        print("usage: make_corpus.py DIR", file=sys.stderr)
        return 2
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name, path in {**make_binaries(work), **make_rules(work)}.items():
        print(f"{name}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
