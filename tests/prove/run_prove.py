#!/usr/bin/env python3
"""--prove on tests/prove/fixture.c, whose answers are known.

  * struct shared_ref (an atomic reference count on the readers' line): the
    readers must measure faster with the fix, the interval of their ratio
    above 1;
  * struct apart_ref (the count on a line of its own already): the interval
    must contain 1 and the verdict say "no measurable difference";
  * the generated source compiles with gcc and clang (-std=c11 -pthread
    -Wall -Wextra -Werror), runs on its own, and, compiled with -g and read
    back by layoutlint itself, puts every tagged member at the offset and
    size of the real struct (before) and of the suggestion (after);
  * one CPU (taskset -c 0) and bad options: exit 2, one line.

Speeds are never asserted, only intervals and verdicts; the machine is
shared, so a measurement that comes out inconclusive is taken again (at most
ATTEMPTS times, the budget growing), as tests/profile does with recordings.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, compile_c, compilers, parse_args, run  # noqa: E402

FIXTURE = os.path.join(HERE, "fixture.c")
RULES = os.path.join(HERE, "fixture.rules")
# Five: on a noisy VM the control's intervals stayed just wider than
# +-10% for three (0.89-1.07 and 0.97-1.12 at 18 s, load 2.2, under ASan).
ATTEMPTS = 5
BUDGET = 6          # seconds, times the attempt's number


def members_of(tool, binary, name, rules=None):
    """{path: (offset, size)} of NAME's members (all levels), the struct's size,
    alignment and the suggestion's {path: offset} (with RULES)."""
    args = [tool, "--format=json", binary, "struct", name]
    if rules:
        args[1:1] = ["-r", rules, "--suggest"]
    p = run(args, timeout=600)
    if p.rc not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {p.rc}: {p.err}")
    s = json.loads(p.out)["structs"][0]
    found = {}

    def walk(ms):
        for m in ms:
            if m.get("path"):
                found[m["path"]] = (m["offset"], m["size"])
            walk(m.get("members") or [])
    walk(s["members"])
    sug = {m["path"]: m["offset"] for m in (s.get("suggestion") or {}).get("members", [])
           if m.get("path")}
    return found, s["size"], s["alignment"], sug


def prove(tool, obj, name, budget, extra=()):
    p = run([tool, "-r", RULES, obj, "struct", name, "--prove", "--format=json",
             f"--prove-budget={budget}", *extra], timeout=budget * 3 + 120)
    return p, (json.loads(p.out) if p.rc == 0 else None)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    tool = os.path.abspath(a.layoutlint)
    tap = Tap()
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir, exist_ok=True)
    if not compilers(["gcc"]):
        return tap.skip_all("no gcc")
    obj = compile_c("gcc", FIXTURE, "fixture.o", workdir=a.workdir)
    ncpu = len(os.sched_getaffinity(0))

    # Bad options and refusals: exit 2 and one line.
    bad = [
        (["--prove-budget=0", "--prove"], "a budget of 0 s"),
        (["--prove-budget=x", "--prove"], "a budget that is no number"),
        (["--prove-source", os.path.join(a.workdir, "x.c")], "--prove-source without --prove"),
        (["--prove-smt"], "--prove-smt without --prove"),
        (["--prove", "--format=sarif"], "--prove with --format=sarif"),
        (["--prove", "struct", "apart_ref"], "--prove with two structs"),
    ]
    for extra, what in bad:
        p = run([tool, "-r", RULES, obj, "struct", "shared_ref", *extra])
        tap.ok(p.rc == 2 and p.out == "", f"refused: {what}", p.err)
    p = run([tool, obj, "struct", "shared_ref", "--prove"])
    tap.ok(p.rc == 2 and len(p.err.strip().splitlines()) == 1 and "write-hot" in p.err,
           "refused in one line: a struct with no tags", p.err)
    p = run([tool, "-r", RULES, obj, "struct", "shared_ref", "--prove",
             "--prove-source", RULES])
    tap.ok(p.rc == 2 and "rules" in p.err, "refused: --prove-source onto the rules file", p.err)
    if shutil.which("taskset") and ncpu > 1:
        p = run(["taskset", "-c", "0", tool, "-r", RULES, obj, "struct", "shared_ref",
                 "--prove"])
        tap.ok(p.rc == 2 and len(p.err.strip().splitlines()) == 1 and "two CPUs" in p.err,
               "taskset -c 0: refused in one line, the CPU count from sched_getaffinity", p.err)
    else:
        tap.skip("taskset -c 0 refused", "no taskset or one CPU only")
    if ncpu < 2:
        tap.comment("one CPU: nothing to measure here")
        return tap.finish()

    # The false-sharing fixture: readers faster with the fix.
    src = os.path.join(a.workdir, "shared_ref.c")
    doc = None
    for attempt in range(1, ATTEMPTS + 1):
        p, doc = prove(tool, obj, "shared_ref", BUDGET * attempt, ["--prove-source", src])
        if p.rc != 0:
            break
        reader = [c for c in doc["classes"] if c["name"] == "reader"]
        if reader and reader[0]["low"] and reader[0]["low"] > 1:
            break
        tap.comment(f"attempt {attempt} of {ATTEMPTS}: {doc['verdict']} "
                    f"(load {doc['load_average']})")
    if not tap.ok(p.rc == 0, "--prove shared_ref runs", p.err):
        return tap.finish()
    tap.comment(f"shared_ref: {doc['verdict']}; {doc['pairs']} pairs, load {doc['load_average']}")
    reader = {c["name"]: c for c in doc["classes"]}.get("reader")
    tap.ok(reader and reader["low"] > 1 and reader["ratio"] > 1,
           "shared_ref: the readers' interval lies above 1 with the fix", json.dumps(doc["classes"]))
    tap.ok(doc["verdict"].startswith("reader throughput x") or
           "reader throughput x" in doc["verdict"],
           "shared_ref: the verdict names the readers' speed-up", doc["verdict"])
    keys_ok = all(set(["name", "before", "after", "ratio", "low", "high"]) <= set(c)
                  for c in doc["classes"])
    ratios_ok = all(abs(c["ratio"] - c["after"] / c["before"]) < 1e-3 * c["ratio"] and
                    c["low"] <= c["ratio"] <= c["high"] for c in doc["classes"])
    tap.ok(keys_ok and ratios_ok, "JSON classes: {name, before, after, ratio, low, high}, "
           "ratio = after/before inside its interval", json.dumps(doc["classes"]))
    tap.ok("commit_message" in doc and "shared_ref" in doc["commit_message"] and
           "perf c2c record" in doc["perf_c2c"]["record"] and
           "0x10" in doc["perf_c2c"]["expected_lines"],
           "commit paragraph and perf c2c line with refs' offset 0x10",
           json.dumps(doc.get("perf_c2c")))
    pmu = os.path.exists("/sys/bus/event_source/devices/cpu")
    tap.ok(doc["perf_stat"]["pmu"] == pmu and (pmu or "no hardware PMU" in doc["perf_stat"]["note"]),
           "perf stat: says whether the PMU offers counters", json.dumps(doc["perf_stat"]))

    # The generated source: gcc and clang, strict; runs on its own.
    for cc in compilers(["gcc", "clang"]):
        out = os.path.join(a.workdir, f"prove-{cc}")
        p = run([cc, "-std=c11", "-pthread", "-Wall", "-Wextra", "-Werror", "-O2", src, "-o", out])
        tap.ok(p.rc == 0, f"--prove-source compiles with {cc} -std=c11 -pthread -Wall -Werror", p.err)
    exe = os.path.join(a.workdir, "prove-g")
    p = run(["gcc", "-std=c11", "-pthread", "-g", "-O0", src, "-o", exe])
    tap.ok(p.rc == 0, "--prove-source compiles with -g", p.err)
    r = run([exe, "1", "20"], timeout=60)
    tap.ok(r.rc == 0 and r.out.count("S A") == len(doc["classes"]) and
           r.out.count("S B") == len(doc["classes"]), "the benchmark runs on its own", r.out + r.err)

    # Read back with layoutlint: every tagged member where the real struct has it.
    real, real_size, real_align, sug = members_of(tool, obj, "shared_ref", RULES)
    gen = {}
    for which in ("before", "after"):
        gen[which] = members_of(tool, exe, f"shared_ref_{which}")
    bad = []
    for m in doc["members"]:
        want_before = real[m["path"]]
        got_before = gen["before"][0].get(m["field"])
        if got_before != want_before or m["offset_before"] != want_before[0]:
            bad.append(f"{m['path']}: before {got_before} vs {want_before}")
        want_after = (sug.get(m["path"]), want_before[1])
        got_after = gen["after"][0].get(m["field"])
        if got_after != want_after:
            bad.append(f"{m['path']}: after {got_after} vs suggested {want_after}")
    tap.ok(doc["members"] and not bad, f"{len(doc['members'])} tagged members at the real "
           "offsets and sizes (before) and the suggested ones (after), read back from -g",
           bad)
    tap.ok(gen["before"][1] == real_size and gen["before"][2] == real_align and
           gen["after"][1] == doc["layouts"][1]["size"],
           "the generated structs' sizes and alignment are the real ones",
           f"{gen['before'][1:3]} vs {real_size, real_align}")

    # The clean layout: a control; no measurable difference.
    for attempt in range(1, ATTEMPTS + 1):
        p, doc = prove(tool, obj, "apart_ref", BUDGET * attempt)
        if p.rc != 0 or doc["verdict"] == "no measurable difference":
            break
        tap.comment(f"attempt {attempt} of {ATTEMPTS}: {doc['verdict']} "
                    f"(load {doc['load_average']})")
    if tap.ok(p.rc == 0, "--prove apart_ref runs", p.err):
        tap.comment(f"apart_ref: {doc['verdict']}; {doc['pairs']} pairs")
        tap.ok(doc["same_layout"], "apart_ref: the suggestion keeps the layout (a control)")
        tap.ok(all(c["low"] <= 1 <= c["high"] for c in doc["classes"]),
               "apart_ref: every interval contains 1", json.dumps(doc["classes"]))
        tap.ok(doc["verdict"] == "no measurable difference",
               "apart_ref: verdict 'no measurable difference'", doc["verdict"])
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
