#!/usr/bin/env python3
"""The broken-input corpus: each case and exactly what layoutlint must do.

make_corpus.py builds the cases (real gcc objects damaged at known
offsets, and rules files); this runs layoutlint on each with a time limit
and checks the exit status and the one-line error, word for word, or, for
inputs that are odd but valid, the exact layout. Offsets in the expected
messages are read from the undamaged build, so they follow the compiler.
Every damaged binary is also run whole (--list, --audit, --contains), with
the raw scan and with LAYOUTLINT_SCAN=libdw: the same one line, exit 2,
never a unit or a struct dropped in silence. One exception, by design:
--audit builds only the structs that hold a pointer to a const ops table
(the only ones it can find a mixed line in), and where the raw scan can
tell a damaged struct holds none (damage in its sizes or offsets, not in
what the scan reads), that struct is not read: exit 0, nothing mixed. So
with --contains=victim: no struct can hold victim, so none is built, and
victim's own damage goes unread: exit 0, nothing printed.
The same cases run under ASan/UBSan when meson test runs this in the
sanitizer build: a report there fails the case (non-zero exit, stderr).
"""
import glob
import json
import math
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import make_corpus as mc  # noqa: E402
from lib import Lint, Tap, parse_args  # noqa: E402

TIMEOUT = 60
# A sanitizer report must fail the case: leaks checked, UBSan stops.
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=1",
                 "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}


def whole_modes(case):
    """The whole-binary modes; --contains asks of every struct the filter keeps."""
    return (["--list=*"], ["--audit=*"],
            ["--contains=alpha" if case.startswith("children-2-") else "--contains=victim"])


SCANS = (("raw scan", {}), ("libdw walk", {"LAYOUTLINT_SCAN": "libdw"}))

# Damage only a build sees (sizes, offsets, a typedef cycle), in a struct
# the raw scan reads as holding no ops pointer: --audit does not build it.
AUDIT_UNREAD = ("typedef-cycle", "member-beyond-size", "overlapping-members",
                "array-size-overflow")
# The same, where the scan's member words show that no struct can hold the
# --contains type (a typedef cycle leaves the words unknown: built).
CONTAINS_UNREAD = ("member-beyond-size", "overlapping-members", "array-size-overflow")


def whole_filter(case):
    """--decl-file for a whole run of CASE: the unit its damage is in.
    victim3.c's struct huge_arr is 8 GiB even intact, refused by any run
    that builds it, so the other cases leave it out."""
    if case == "array-size-overflow":
        return ["--decl-file=*/victim3.c"]
    if case.startswith(("children-2-", "alpha-")):
        return []
    return ["--decl-file=*/victim.c"]


def check_whole_runs(tap, lint, bins, expect, dw):
    """Every damaged binary, run whole and looked up, with each reader: the
    lookup's line (or, where a whole run meets the damage first in another
    struct, that struct's), exit 2. Intact, the same runs exit 0."""
    info = dw.elf.sec(".debug_info")
    uses_td_m0 = dw.members(dw.find("structure_type", "uses_td"))[0]
    # bad-abbrev-form breaks the member abbreviation all unit 0's structs
    # share: a whole run builds uses_td before victim.
    first = {"bad-abbrev-form": (2, f"layoutlint: {bins['bad-abbrev-form']}: struct uses_td: "
                                    f"member at DIE 0x{uses_td_m0['at'] - info['offset']:x}: "
                                    f"unreadable DW_AT_name (form 0x7f): no string data\n")}
    for intact in ("intact", "alpha-intact", "alpha-relocatable-intact"):
        for how, env in SCANS:
            for mode in whole_modes(intact)[:2]:
                res = lint.run(*mode, *whole_filter(intact), bins[intact], extra_env=env)
                tap.ok(res is not None and res[0] == 0 and res[2] == "",
                       f"{intact} {mode[0]} ({how}): exit 0, the baseline of the damaged runs",
                       res and f"exit {res[0]}: {res[2][:300]}")
    for case, (args, want) in expect.items():
        for how, env in SCANS:
            runs = [(args[:1], [bins[case], *args])] if env else []
            runs += [(mode, [*mode, *whole_filter(case), bins[case]])
                     for mode in whole_modes(case)]
            for mode, argv in runs:
                res = lint.run(*argv, extra_env=env)
                w = first.get(case, want) if mode[0].startswith("--") else want
                if mode[0] == "--audit=*" and not env and case in AUDIT_UNREAD:
                    tap.ok(res is not None and res[0] == 0 and res[2] == "" and
                           res[1].endswith("# no struct matching the glob mixes them\n"),
                           f"{case} {mode[0]} ({how}): the damaged struct holds no ops "
                           "pointer, so it is not read: exit 0, nothing mixed",
                           res and f"exit {res[0]}: {res[2]}{res[1][:300]}")
                    continue
                if mode[0].startswith("--contains") and not env and case in CONTAINS_UNREAD:
                    tap.ok(res is not None and res == (0, "", ""),
                           f"{case} {mode[0]} ({how}): no struct can hold the type, so none "
                           "is built, the damaged one neither: exit 0, nothing printed",
                           res and f"exit {res[0]}: {res[2]}{res[1][:300]}")
                    continue
                tap.ok(res is not None and (res[0], res[2]) == w and res[1] == "",
                       f"{case} {mode[0]} ({how}): exit 2, one line",
                       res and f"exit {res[0]}: {res[2]}{res[1][:300]}")
    check_audit_warm(tap, lint, bins)


def check_audit_warm(tap, lint, bins):
    """The name index a whole run leaves must not make the next --audit
    build what its scan reads as holding no ops pointer: warm as cold, exit
    0 (the index records no member types; answered from it, --audit built
    every struct, and met this damage)."""
    case = "member-beyond-size"
    path = bins[case]
    # No index for a binary changed within 2 s, counted in whole seconds
    # (name_index.c's racy(): ctime or mtime >= now - 2): wait for the
    # second three after the change. Waiting 2.5 s from it fell short
    # whenever the change came early in its second.
    st = os.stat(path)
    wait = math.floor(max(st.st_mtime, st.st_ctime)) + 3 - time.time()
    if wait > 0:
        time.sleep(wait)
    with tempfile.TemporaryDirectory() as cache:
        env = {"XDG_CACHE_HOME": cache}
        cold = lint.run("--audit=*", *whole_filter(case), path, extra_env=env)
        written = glob.glob(os.path.join(cache, "layoutlint", "*.index"))
        res = lint.run("--audit=*", *whole_filter(case), path, extra_env=env)
        tap.ok(written and res is not None and res == cold and res[0] == 0,
               f"{case} --audit=* again, with the index the first one left: exit 0, "
               "as without it", res and f"index {written}; exit {res[0]}: {res[2]}{res[1][:300]}")
        # That index has no words for victim (never built): a warm --contains
        # builds it, meets the damage, and answers as cold instead, where the
        # scan's member words leave victim unread.
        cold = lint.run("--no-cache", "--contains=victim", *whole_filter(case), path)
        res = lint.run("--contains=victim", *whole_filter(case), path, extra_env=env)
        tap.ok(cold == (0, "", "") and res == cold,
               f"{case} --contains=victim with that index: exit 0, nothing printed, as cold",
               res and f"exit {res[0]}: {res[2]}{res[1][:300]}")


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    lint = Lint(a.layoutlint, timeout=TIMEOUT, extra_env=SANITIZER_ENV, none_on_timeout=True)
    os.makedirs(a.workdir, exist_ok=True)
    tap = Tap(diag_lines=40)

    bins = mc.make_binaries(a.workdir)
    rules = mc.make_rules(a.workdir)
    intact = open(bins["intact"], "rb").read()
    dw = mc.Dwarf(intact)
    info = dw.elf.sec(".debug_info")

    def rel(die):
        return die["at"] - info["offset"]

    victim = dw.find("structure_type", "victim")
    members = dw.members(victim)
    uses_td = dw.find("structure_type", "uses_td")
    alpha_at = mc.alpha_children_at(open(bins["alpha-intact"], "rb").read())
    td_b = dw.find("typedef", "td_b")
    huge = dw.find("structure_type", "huge_arr", unit=2)
    huge_m = dw.members(huge)[0]
    x_type = mc.value_at(dw.members(uses_td)[0], "type")[0]
    # A DW_FORM_ref4 counts from its unit's start.
    huge_arr_type = huge_m["unit"]["offset"] - info["offset"] + mc.value_at(huge_m, "type")[0]
    # The halved section ends inside this unit.
    halved_in = [u["offset"] - info["offset"] for u in dw.units
                 if u["offset"] - info["offset"] < info["size"] // 2 <= u["end"] - info["offset"]]
    assert x_type == rel(td_b), "uses_td.x is declared td_b"
    only_victim = ["--decl-file=*/victim.c"]

    def err(case, text):
        return (2, f"layoutlint: {bins[case]}: {text}\n")

    def children_2(case, at):
        return (["struct", "alpha"], err(
            case, f"invalid DW_CHILDREN value 0x2 at .debug_abbrev offset 0x{at:x}, in the "
            f"abbreviations of the unit at .debug_info offset 0x0"))

    size = os.path.getsize
    # case: (layoutlint arguments after the file, (exit, exact stderr) or a check)
    expect = {
        "empty": (["struct", "victim"], err("empty", "not an ELF file (too short for an ELF header)")),
        "truncated-elf-header": (["struct", "victim"], err(
            "truncated-elf-header", "not an ELF file (too short for an ELF header)")),
        # The section table went with the end of the file.
        "truncated-in-debug-info": (["struct", "victim"], err(
            "truncated-in-debug-info",
            f"truncated or malformed ELF: the section header table at offset "
            f"0x{dw.elf.shoff:x} runs past the end of the file "
            f"({size(bins['truncated-in-debug-info'])} bytes)")),
        "section-headers-past-eof": (["struct", "victim"], err(
            "section-headers-past-eof",
            f"truncated or malformed ELF: the section header table at offset "
            f"0x{len(intact) + 0x10000:x} runs past the end of the file ({len(intact)} bytes)")),
        "debug-info-size-halved": (["struct", "victim"], err(
            "debug-info-size-halved",
            f"the unit at .debug_info offset 0x{halved_in[0]:x} runs past the end of the section "
            f"(0x{info['size'] // 2:x} bytes)")),
        "unit-length-overruns": (["struct", "victim"], err(
            "unit-length-overruns",
            f"the unit at .debug_info offset 0x0 runs past the end of the section "
            f"(0x{info['size']:x} bytes)")),
        "unit-version-7": (["struct", "victim"], err(
            "unit-version-7", "unreadable compilation unit at .debug_info offset 0x0: "
            "invalid DWARF")),
        "undefined-abbrev-code": (["struct", "victim"], err(
            "undefined-abbrev-code",
            f"unreadable DIE at .debug_info offset 0x{rel(victim):x}: invalid DWARF")),
        "bad-abbrev-form": (["struct", "victim"] + only_victim, err(
            "bad-abbrev-form",
            f"struct victim: member at DIE 0x{rel(members[0]):x}: unreadable DW_AT_name "
            f"(form 0x7f): no string data")),
        "type-ref-outside-unit": (["struct", "victim"] + only_victim, err(
            "type-ref-outside-unit",
            f"struct victim: member b at DIE 0x{rel(members[1]):x} has no valid type")),
        "typedef-cycle": (["struct", "uses_td"], err(
            "typedef-cycle",
            f"struct uses_td: type at DIE 0x{rel(td_b):x} has no size (a cycle or void)")),
        "member-beyond-size": (["struct", "victim"] + only_victim, err(
            "member-beyond-size",
            f"struct victim: member b at offset 8 (8 bytes) does not fit in the 8 bytes "
            f"the struct at DIE 0x{rel(victim):x} declares, or in its enclosing member")),
        # The overlap check of model/builder.c: only a union's members may.
        "overlapping-members": (["struct", "victim"] + only_victim, err(
            "overlapping-members",
            f"struct victim: member c at offset 12 overlaps member b before it, in the struct "
            f"at DIE 0x{rel(victim):x} (only a union's members may)")),
        # DW_CHILDREN 2 in unit 0's table: libdw took it for "no" and dropped
        # the unit (or struct alpha's members) in silence; the raw scan read
        # it as "yes". Linked, and an ld -r object (libdw walk only).
        "children-2-unit": children_2("children-2-unit", alpha_at["unit"]),
        "children-2-struct": children_2("children-2-struct", alpha_at["struct"]),
        "children-2-relocatable": children_2("children-2-relocatable", alpha_at["unit"]),
        "abbrev-code-twice": (["struct", "alpha"], err(
            "abbrev-code-twice", f"abbreviation code {alpha_at['unit_code']} defined twice, "
            f"again at .debug_abbrev offset 0x{alpha_at['struct_code']:x}, in the abbreviations "
            f"of the unit at .debug_info offset 0x0")),
        "array-size-overflow": (["struct", "huge_arr"], err(
            "array-size-overflow",
            f"struct huge_arr: array at DIE 0x{huge_arr_type:x}: byte size "
            f"overflows 64 bits")),
        "empty-debug-str": (["struct", "victim"], err(
            "empty-debug-str",
            f"DIE at .debug_info offset 0x{rel(victim):x}: unreadable DW_AT_name: "
            f".debug_str section missing")),
        "gz-corrupt-stream": (["struct", "victim"], err(
            "gz-corrupt-stream",
            f"section .debug_info at offset "
            f"0x{mc.Elf(open(bins['gz-corrupt-stream'], 'rb').read()).sec('.debug_info')['offset']:x}"
            f": cannot decompress: cannot decompress data")),
    }
    victim_layout = [("a", 0, 4), ("b", 8, 8), ("c", 16, 10), ("next", 32, 8)]

    def layout_is(expected_size, expected_members):
        def check(res):
            rc, out, errs = res
            if rc != 0 or errs:
                return False, f"exit {rc}: {errs}"
            s = json.loads(out)["structs"][0]
            got = [(m["name"], m["offset"], m["size"]) for m in s["members"]]
            if expected_members is not None and got != expected_members:
                return False, f"members {got}"
            return s["size"] == expected_size, f"size {s['size']}"
        return check

    def many(res):
        rc, out, errs = res
        if rc != 0 or errs:
            return False, f"exit {rc}: {errs}"
        s = json.loads(out)["structs"][0]
        ms = s["members"]
        ok = (s["size"] == 400000 and len(ms) == 100000 and
              all(m["offset"] == 4 * i and m["name"] == f"m{i}" for i, m in enumerate(ms)))
        return ok, f"size {s['size']}, {len(ms)} members"

    checks = {
        # Valid, if unusual: must give the exact layout.
        "intact": (["--format=json", "struct", "victim"] + only_victim,
                   layout_is(40, victim_layout)),
        # gcc -gdwarf-2 -gstrict-dwarf: DW_OP_plus_uconst location expressions.
        "member-location-expression": (["--format=json", "struct", "victim"] + only_victim,
                                       layout_is(40, victim_layout)),
        "100k-members": (["--format=json", "struct", "many"], many),
        # .debug_aranges only hints where a unit starts; a wrong hint costs time.
        "aranges-off-unit-start": (["--format=json", "struct", "victim"] + only_victim,
                                   layout_is(40, victim_layout)),
    }

    for case, (args, want) in expect.items():
        res = lint.run(bins[case], *args)
        if res is None:
            tap.ok(False, f"{case}: finished within {TIMEOUT} s")
            continue
        rc, out, errs = res
        tap.ok((rc, errs) == want and out == "", f"{case}: exit {want[0]}, {want[1].strip()}",
               f"got exit {rc}: {errs}{out[:300]}")
    check_whole_runs(tap, lint, bins, expect, dw)
    for case, (args, check) in checks.items():
        res = lint.run(bins[case], *args)
        if res is None:
            tap.ok(False, f"{case}: finished within {TIMEOUT} s")
            continue
        good, why = check(res)
        tap.ok(good, f"{case}: the exact layout", why)

    # Rules: UTF-8 text (docs/rules.md); a NUL or an invalid byte is an error at
    # its line and column, a long line is just long.
    rexpect = {
        "nul-byte.rules": (2, "{p}:3:15: error: NUL byte in rules text\n"),
        "invalid-utf8.rules": (2, "{p}:3:14: error: invalid UTF-8 byte 0xff\n"),
        "invalid-utf8-comment.rules": (2, "{p}:1:6: error: invalid UTF-8 byte 0xe9\n"),
    }
    for case, (code, text) in rexpect.items():
        res = lint.run(*["--rules", rules[case], bins["intact"]] + only_victim)
        want = text.format(p=rules[case])
        tap.ok(res is not None and res[0] == code and res[2] == want and res[1] == "",
               f"{case}: exit {code}, {want.strip()}", res and f"exit {res[0]}: {res[2]}")
    for case in ("1mb-comment-line.rules", "1mb-member-line.rules"):
        res = lint.run(*["--rules", rules[case], "--format=json", bins["intact"]] + only_victim)
        good = res is not None and res[0] == 1 and res[2] == ""
        if good:
            tags = {m["name"]: m["tag"] for m in json.loads(res[1])["structs"][0]["members"]}
            good = tags == {"a": "write-hot", "b": "read-mostly", "c": "untagged",
                            "next": "untagged"}
        tap.ok(good, f"{case}: a 1 MB line is read whole; a and b tagged, exit 1",
               res and f"exit {res[0]}: {res[2][:500]}")
    # 100,000 members against the rules, then against the solver's limit.
    res = lint.run("--rules", rules["many.rules"], "--format=json", bins["100k-members"])
    good = res is not None and res[0] == 1 and res[2] == ""
    if good:
        ms = json.loads(res[1])["structs"][0]["members"]
        good = (ms[1]["tag"] == "write-hot" and
                all(m["tag"] == "read-mostly" for i, m in enumerate(ms) if i >= 10))
    tap.ok(good, "100k-members with rules: every member tagged, exit 1",
           res and f"exit {res[0]}: {res[2][:500]}")
    res = lint.run("--rules", rules["many.rules"], "--suggest", bins["100k-members"])
    want = "layoutlint: struct many: 100000 members to place, more than the 4096 --suggest takes\n"
    tap.ok(res is not None and res[0] == 2 and res[2] == want,
           "100k-members --suggest: the solver's limit, exit 2", res and f"exit {res[0]}: {res[2]}")
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
