#!/usr/bin/env python3
"""Gating only on what is new: SARIF, baselines, --against (issue 5).

usage: run_gating.py --layoutlint PATH [--workdir DIR]

Compiles tests/gating/gating.c in several variants (see its header) and
checks:
  - --format=sarif against the official SARIF 2.1.0 JSON schema
    (tests/sarif/sarif-schema-2.1.0.json, with python3-jsonschema) on runs
    with findings, without findings, with several structs, with a stale rule,
    with clang input (no columns), with input that has no source locations,
    and gated runs; and that a broken document fails the same validation.
    When the SARIF Multitool is at hand (LAYOUTLINT_SARIF_MULTITOOL, or
    Sarif.Multitool on PATH), its `validate` with GitHub's ingestion rules
    must report nothing either;
  - --write-baseline / --baseline / --strict-baseline round trips, stable
    output, atomic writes, malformed baselines (exit 2 naming FILE:LINE:COL);
  - --against on two builds of struct sess: exactly the moves, the added
    member, the size change and the one new finding;
  - fingerprints: identical across runs and across json and sarif;
  - several binaries in one run (--binary): one document, a struct with the
    same layout once, another layout again under its binary without repeated
    findings, missing structs decided over all binaries, --against DIR;
  - where a new finding is located (tests/gating/moved.c, compiled twice):
    at the member that moved, under --against and --baseline;
  - SARIF under gating: baselineState new/unchanged/absent, suppressions,
    %SRCROOT% in originalUriBaseIds.

Output is TAP. Exit status 1 if anything failed.
"""
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Lint, Tap, compile_c, parse_args, run  # noqa: E402
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(TOP, "tests", "sarif", "sarif-schema-2.1.0.json")
# The SARIF rule table must be the catalog, in its order (set from
# --list-checks in main(); tests/man/run_sync.py ties the catalog to the docs).
RULE_IDS = []


# ---- SARIF validation ---------------------------------------------------------

VALIDATE_SNIPPET = r"""
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
v = cls(schema, format_checker=cls.FORMAT_CHECKER)
errs = sorted(v.iter_errors(json.load(sys.stdin)), key=lambda e: list(e.path))
for e in errs[:20]:
    print("/".join(map(str, e.path)) + ": " + e.message)
sys.exit(1 if errs else 0)
"""


def find_validator():
    """A callable doc -> list of errors, or None when no jsonschema is at hand."""
    try:
        import jsonschema  # noqa: F401
        with open(SCHEMA) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        v = cls(schema, format_checker=cls.FORMAT_CHECKER)

        def check(doc):
            return [("/".join(map(str, e.path)) + ": " + e.message)
                    for e in v.iter_errors(doc)]
        return check, f"python {sys.version.split()[0]}, jsonschema in process"
    except ImportError:
        pass
    # The Debian package (python3-jsonschema) serves /usr/bin/python3, which
    # need not be the python3 running this script.
    for py in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if not os.access(py, os.X_OK) or os.path.realpath(py) == os.path.realpath(sys.executable):
            continue
        p = run([py, "-c", "import jsonschema"])
        if p.returncode == 0:
            def check(doc, py=py):
                q = run([py, "-c", VALIDATE_SNIPPET, SCHEMA], input=json.dumps(doc))
                return [] if q.returncode == 0 else (q.stdout + q.stderr).splitlines() or ["?"]
            return check, f"{py} with jsonschema"
    return None, None


def find_multitool():
    env = os.environ.get("LAYOUTLINT_SARIF_MULTITOOL")
    if env and os.access(env, os.X_OK):
        return env
    return shutil.which("Sarif.Multitool")


URI_RE = re.compile(r"^(file://)?[A-Za-z0-9\-._~/%]+$")


def sarif_own_checks(doc):
    """What GitHub code scanning needs beyond the schema."""
    problems = []
    if len(doc["runs"]) != 1:
        problems.append(f"{len(doc['runs'])} runs")
    run = doc["runs"][0]
    gated = "gating" in run.get("properties", {})
    driver = run["tool"]["driver"]
    if driver.get("name") != "layoutlint" or not driver.get("version"):
        problems.append("driver name/version")
    if not driver.get("informationUri"):
        problems.append("no informationUri")
    ids = [r["id"] for r in driver.get("rules", [])]
    if ids != RULE_IDS:
        problems.append(f"rules {ids}")
    for r in driver.get("rules", []):
        for k in ("shortDescription", "fullDescription", "help"):
            if not r.get(k, {}).get("text"):
                problems.append(f"rule {r['id']}: no {k}")
        if r.get("defaultConfiguration", {}).get("level") not in ("error", "warning", "note"):
            problems.append(f"rule {r['id']}: no default level")
    for i, res in enumerate(run["results"]):
        where = f"results[{i}]"
        if ids[res["ruleIndex"]] != res["ruleId"]:
            problems.append(f"{where}: ruleIndex")
        if res.get("level") not in ("error", "warning", "note"):
            problems.append(f"{where}: level")
        if not res.get("message", {}).get("text"):
            problems.append(f"{where}: message")
        locs = res.get("locations") or []
        if not locs or "physicalLocation" not in locs[0]:
            problems.append(f"{where}: no physical location")
            continue
        for loc in locs + res.get("relatedLocations", []):
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            if not URI_RE.match(uri):
                problems.append(f"{where}: uri {uri!r}")
            if not uri.startswith("file://") and \
                    loc["physicalLocation"]["artifactLocation"].get("uriBaseId") != "%SRCROOT%":
                problems.append(f"{where}: relative uri without uriBaseId")
        if not res.get("partialFingerprints", {}).get("layoutlint/v1"):
            problems.append(f"{where}: no partialFingerprints")
        state = res.get("baselineState")
        if gated and state not in ("new", "unchanged", "absent"):
            problems.append(f"{where}: gated, baselineState {state!r}")
        if not gated and state is not None:
            problems.append(f"{where}: not gated, baselineState {state!r}")
        sup = res.get("suppressions")
        if (state == "unchanged") != bool(sup) or \
                (sup and [x.get("kind") for x in sup] != ["external"]) or \
                (sup and not sup[0].get("justification")):
            problems.append(f"{where}: {state} with suppressions {sup}")
        if state == "absent" and res.get("level") != "note":
            problems.append(f"{where}: absent at level {res.get('level')}")
    fps = [r.get("partialFingerprints", {}).get("layoutlint/v1") for r in run["results"]]
    if len(set(fps)) != len(fps):
        problems.append(f"duplicate fingerprints {fps}")
    root = run.get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri", "")
    if not (root.startswith("file:///") and root.endswith("/") and URI_RE.match(root)):
        problems.append(f"originalUriBaseIds %SRCROOT%: {root!r}")
    return problems


# ---- the tests ----------------------------------------------------------------

def compile_variants(tap, work):
    src = os.path.join(work, "gating.c")
    shutil.copy(os.path.join(HERE, "gating.c"), src)
    for r in ("conn", "sess", "spl", "stale"):
        shutil.copy(os.path.join(HERE, r + ".rules"), os.path.join(work, r + ".rules"))
    objs = {}
    variants = {"v1": [], "newhot": ["-DNEW_HOT"], "newread": ["-DNEW_READ"],
                "fixed": ["-DFIXED"], "v2": ["-DV2"], "nosess": ["-DNO_SESS"]}
    errors = []
    for name, flags in variants.items():
        out = name + ".o"
        try:
            compile_c("gcc", "gating.c", out, cwd=work, flags=["-g", "-c", *flags])
        except Failure as e:
            errors.append(str(e))
        objs[name] = out
    # No line table: the binary itself is the location.
    p = run(["gcc", "-g", "-shared", "-nostdlib", "gating.c", "-o", "noline.so"], cwd=work)
    if p.returncode == 0:
        p = run(["objcopy", "--remove-section=.debug_line",
                 "--remove-section=.debug_line_str", "noline.so"], cwd=work)
    objs["noline"] = "noline.so" if p.returncode == 0 else None
    objs["clang"] = None
    if shutil.which("clang"):
        p = run(["clang", "-g", "-c", "gating.c", "-o", "clang.o"], cwd=work)
        objs["clang"] = "clang.o" if p.returncode == 0 else None
    tap.ok(not errors, "compile the gating.c variants with gcc -g -c", "\n".join(errors))
    return objs


def sarif_tests(tap, lint, objs, work):
    check, how = find_validator()
    if not tap.ok(check is not None,
                  "a JSON schema validator is at hand (python3-jsonschema; scripts/deps test)",
                  "install python3-jsonschema"):
        return
    print(f"# validating with {how} against {os.path.relpath(SCHEMA, TOP)}")
    multitool = find_multitool()
    cases = [
        ("findings", ["-r", "conn.rules", objs["v1"]], 1, 1),
        ("no findings", [objs["v1"], "struct", "quiet"], 0, 0),
        ("no findings with rules", ["-r", "sess.rules", "--against", objs["v1"], objs["v1"]], 0, 0),
        ("several structs", ["-r", "conn.rules", "-r", "sess.rules", "-r", "spl.rules",
                             objs["newhot"], "struct", "conn", "struct", "sess", "struct", "spl",
                             "struct", "quiet"], 1, 4),
        ("stale rule", ["-r", "stale.rules", objs["v1"]], 1, 1),
        ("--against", ["-r", "sess.rules", "--against", objs["v1"], objs["v2"]], 1, 1),
    ]
    if objs["clang"]:
        cases.append(("clang input (no columns)", ["-r", "conn.rules", objs["clang"]], 1, 1))
    if objs["noline"]:
        cases.append(("input without source locations", ["-r", "conn.rules", objs["noline"]],
                      1, 1))
    docs = {}
    for name, args, want_rc, want_results in cases:
        rc, out, err = lint("--format=sarif", *args)
        try:
            doc = json.loads(out)
        except ValueError as e:
            tap.ok(False, f"sarif {name}: a JSON document", f"{e}\n{err}")
            continue
        docs[name] = doc
        errs = check(doc)
        tap.ok(rc == want_rc and not errs, f"sarif {name}: valid SARIF 2.1.0, exit {want_rc}",
               f"exit {rc}\n{err}\n" + "\n".join(errs[:20]))
        # Under gating the reference's unchanged findings (suppressed) and
        # vanished pairs (absent) are results too: count what is raised.
        results = [r for r in doc["runs"][0]["results"]
                   if r.get("baselineState") not in ("unchanged", "absent")]
        own = sarif_own_checks(doc)
        tap.ok(len(results) == want_results and not own,
               f"sarif {name}: {want_results} raised result(s) with what code scanning needs",
               f"{len(results)} results\n" + "\n".join(own))
        if multitool:
            sarif_path = os.path.join(work, "mt-" + re.sub(r"\W+", "-", name) + ".sarif")
            log = sarif_path + ".validation"
            with open(sarif_path, "w") as f:
                f.write(out)
            if os.path.exists(log):
                os.unlink(log)
            q = run([multitool, "validate", "--rule-kind", "Gh;Sarif", "-o", log, sarif_path])
            found = []
            try:
                with open(log) as f:
                    found = [f"{r['ruleId']}: {r['message']}" for r in
                             json.load(f)["runs"][0]["results"]
                             # A location in a binary has no region to give.
                             if not (r["ruleId"] == "SARIF2017" and objs["noline"] in args)]
            except (OSError, ValueError, KeyError) as e:
                found = [f"no validation log: {e}"]
            tap.ok(q.returncode == 0 and not found,
                   f"sarif {name}: SARIF Multitool validate (GitHub rules) reports nothing",
                   q.stdout + q.stderr + "\n".join(found))

    # The validator is not a rubber stamp.
    if "findings" in docs:
        bad = json.loads(json.dumps(docs["findings"]))
        bad["runs"][0]["results"][0]["level"] = "fatal"
        del bad["version"]
        tap.ok(len(check(bad)) >= 2, "sarif: a broken document fails the schema")

    d = docs.get("findings")
    if d:
        res = d["runs"][0]["results"][0]
        loc = res["locations"][0]["physicalLocation"]
        tap.ok(loc["artifactLocation"] == {"uri": "gating.c", "uriBaseId": "%SRCROOT%"} and
               loc["region"]["startLine"] > 0 and loc["region"].get("startColumn", 0) > 0 and
               len(res.get("relatedLocations", [])) == 1,
               "sarif: result at gating.c line and column (gcc), the note as a related location",
               json.dumps(res, indent=1)[:1500])
    d = docs.get("clang input (no columns)")
    if d:
        regions = [loc["physicalLocation"]["region"] for r in d["runs"][0]["results"]
                   for loc in r["locations"] + r.get("relatedLocations", [])]
        tap.ok(regions and all("startColumn" not in reg and reg["startLine"] > 0
                               for reg in regions),
               "sarif: clang input has lines and no columns", json.dumps(regions))
    else:
        tap.skip("sarif: clang input has lines and no columns", "no clang")
    d = docs.get("input without source locations")
    if d:
        loc = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
        tap.ok(loc["artifactLocation"]["uri"] == "noline.so" and "region" not in loc,
               "sarif: without source locations the binary itself is the location",
               json.dumps(loc))
    else:
        tap.skip("sarif: without source locations the binary itself is the location",
                 "could not build noline.so")
    d = docs.get("stale rule")
    if d:
        loc = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
        tap.ok(loc["artifactLocation"]["uri"] == "stale.rules" and
               loc["region"]["startLine"] == 4,
               "sarif: a stale rule is located in the rules file", json.dumps(loc))
    d = docs.get("several structs")
    if d:
        structs = sorted({r["properties"]["struct"] for r in d["runs"][0]["results"]})
        tap.ok(structs == ["struct conn", "struct sess", "struct spl"],
               "sarif: results of several structs", structs)


def baseline_tests(tap, lint, objs, work):
    base = os.path.join(work, "conn.baseline")
    for f in os.listdir(work):
        if f.startswith("conn.baseline"):
            os.unlink(os.path.join(work, f))
    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "-r", "spl.rules",
                             "--write-baseline", base, objs["v1"])
    tap.ok(rc == 1 and os.path.exists(base), "--write-baseline: run with findings writes FILE",
           f"exit {rc}\n{err}")
    try:
        with open(base) as f:
            text = f.read()
        written = json.loads(text)
    except (OSError, ValueError) as e:
        tap.ok(False, "the baseline is JSON", e)
        return
    pairs = [(e["rule"], e["struct"], tuple(e["pair"])) for e in written["pairs"]]
    want = sorted((f["rule"], f"struct {s['name']}", tuple(p)) for s in doc["structs"]
                  for f in s["findings"] for p in f["pairs"])
    tap.ok(written.get("layoutlint-baseline") == 1 and pairs == want,
           "the baseline lists every pair of every finding, sorted",
           f"got {pairs}\nwant {want}")
    tap.ok(("split-hot", "struct spl", ("hot",)) in pairs,
           "a split-hot finding is one single-member entry", pairs)
    lines = text.splitlines()
    tap.ok(len([ln for ln in lines if '"rule"' in ln]) == len(pairs),
           "one entry per line", text)
    lint("-r", "conn.rules", "-r", "spl.rules", "--write-baseline", base, objs["v1"])
    with open(base) as f:
        again = f.read()
    leftovers = [f for f in os.listdir(work) if f.startswith("conn.baseline.")]
    tap.ok(again == text and not leftovers, "rewriting the baseline: same bytes, no temp file",
           f"{leftovers}\n{again}")

    rc, out, err = lint("-r", "conn.rules", "-r", "spl.rules", "--baseline", base, objs["v1"])
    tap.ok(rc == 0 and ": error:" not in out and ": note:" not in out,
           "--baseline: the same run exits 0 and reports nothing", f"exit {rc}\n{out}\n{err}")
    tap.ok(re.search(r"2 findings \(2 pairs\) already in the baseline suppressed", err)
           is not None, "--baseline: stderr says how many were suppressed", err)
    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "-r", "spl.rules",
                             "--baseline", base, objs["v1"])
    g = doc.get("gating", {})
    tap.ok(rc == 0 and all(not s["findings"] for s in doc["structs"]) and
           g.get("suppressed_findings") == 2 and g.get("suppressed_pairs") == 2 and
           g.get("reported_findings") == 0 and g.get("reference") == "baseline",
           "--baseline --format=json: no findings, a gating object with the counts",
           json.dumps(g))

    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "--baseline", base,
                             objs["newhot"])
    found = [f for s in doc["structs"] for f in s["findings"]]
    tap.ok(rc == 1 and len(found) == 1 and found[0]["rule"] == "mixed-cacheline" and
           found[0]["cacheline"] == 1 and
           sorted(map(tuple, found[0]["pairs"])) == [("cfg", "hits"), ("flags", "hits")] and
           sorted(map(tuple, found[0]["new_pairs"])) == [("cfg", "hits"), ("flags", "hits")],
           "a new write-hot member next to read-mostly ones: exactly that finding, exit 1",
           f"exit {rc}\n{json.dumps(found, indent=1)}\n{err}")
    rc, out, err = lint("-q", "-r", "conn.rules", "--baseline", base, objs["newhot"])
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    tap.ok(rc == 1 and len(errors) == 1 and "hits" in errors[0],
           "the same in text: one error line", out)

    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "--baseline", base,
                             objs["newread"])
    found = [f for s in doc["structs"] for f in s["findings"]]
    tap.ok(rc == 1 and len(found) == 1 and found[0]["cacheline"] == 0 and
           sorted(map(tuple, found[0]["pairs"])) == [("name", "lock"), ("ops", "lock")] and
           found[0]["new_pairs"] == [["name", "lock"]],
           "a finding with old and new pairs is reported; new_pairs names the new one",
           f"exit {rc}\n{json.dumps(found, indent=1)}")
    rc, out, err = lint("-q", "-r", "conn.rules", "--baseline", base, objs["newread"])
    tap.ok(rc == 1 and re.search(r"note: new since .*: name with lock \(1 of 2 pairs", out),
           "text says which pairs are new", out)

    rc, out, err = lint("-r", "conn.rules", "--baseline", base, objs["fixed"])
    tap.ok(rc == 0 and "1 pair of the baseline no longer occurs" in err,
           "a fixed finding passes without --strict-baseline (and is counted)",
           f"exit {rc}\n{err}")
    rc, out, err = lint("-q", "-r", "conn.rules", "--baseline", base, "--strict-baseline",
                        objs["fixed"])
    want_line = next(i + 1 for i, ln in enumerate(lines) if '"ops","lock"' in ln)
    tap.ok(rc == 1 and f"{os.path.basename(base)}:{want_line}: error: baseline pair no longer "
           "occurs: mixed-cacheline, struct conn: ops with lock" in out,
           "--strict-baseline: a vanished pair fails, named with its baseline line",
           f"exit {rc}\n{out}\n{err}")
    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "--baseline", base,
                             "--strict-baseline", objs["fixed"])
    van = doc.get("gating", {}).get("vanished", [])
    tap.ok(rc == 1 and van == [{"rule": "mixed-cacheline", "struct": "struct conn",
                                "pair": ["ops", "lock"], "line": want_line}],
           "--strict-baseline --format=json lists it", json.dumps(van))
    rc, out, err = lint("-r", "conn.rules", "-r", "spl.rules", "--baseline", base,
                        "--strict-baseline", objs["v1"])
    tap.ok(rc == 0, "--strict-baseline passes when every pair still occurs", f"exit {rc}\n{out}")
    rc, out, err = lint("-r", "conn.rules", "--baseline", base, "--strict-baseline",
                        objs["v1"], "struct", "conn")
    tap.ok(rc == 0, "--strict-baseline ignores pairs of structs not linted (struct spl)",
           f"exit {rc}\n{out}")

    def malformed(name, content, want):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(content)
        rc, out, err = lint("-r", "conn.rules", "--baseline", path, objs["v1"])
        tap.ok(rc == 2 and out == "" and re.search(want, err) and len(err.splitlines()) == 1,
               f"malformed baseline ({name}): exit 2, one line naming the place",
               f"exit {rc}\nstdout {out!r}\nstderr {err!r}")

    malformed("truncated.json", text[: len(text) // 2],
              r"truncated\.json:\d+:\d+: malformed baseline: ")
    malformed("norule.json", '{\n  "layoutlint-baseline": 1,\n  "pairs": [\n'
              '    {"struct": "struct conn", "pair": ["ops", "lock"]}\n  ]\n}\n',
              r"norule\.json:4:5: malformed baseline: entry has no \"rule\"")
    malformed("badrule.json", '{"layoutlint-baseline": 1, "pairs": [\n'
              '{"rule": "mixed-cachelin", "struct": "struct conn", "pair": ["ops"]}]}',
              r"badrule\.json:2:10: malformed baseline: unknown rule 'mixed-cachelin'")
    malformed("notbaseline.json", '{"pairs": []}', r"notbaseline\.json:1:1: .*layoutlint-baseline")
    malformed("trailing.json", '{"layoutlint-baseline": 1, "pairs": []}\n]',
              r"trailing\.json:2:1: malformed baseline: text after the end")
    malformed("empty.json", "", r"empty\.json:1:1: malformed baseline: unexpected end")
    rc, out, err = lint("-r", "conn.rules", "--baseline", os.path.join(work, "missing.json"),
                        objs["v1"])
    tap.ok(rc == 2 and out == "" and "missing.json" in err, "missing baseline: exit 2",
           f"exit {rc}\n{err}")
    rc, out, err = lint("--format=json", "-r", "conn.rules", "--write-baseline",
                        os.path.join(work, "no-such-dir", "b.json"), objs["v1"])
    tap.ok(rc == 2 and out == "" and "no-such-dir/b.json" in err,
           "an unwritable baseline: exit 2 and no output at all", f"exit {rc}\n{out}\n{err}")
    rc, _, err = lint("-r", "conn.rules", "--strict-baseline", objs["v1"])
    rc2, _, err2 = lint("-r", "conn.rules", "--baseline", base, "--against", objs["v1"],
                        objs["v1"])
    tap.ok(rc == 2 and rc2 == 2 and "--baseline" in err and "--against" in err2,
           "usage errors: --strict-baseline alone, --baseline with --against", err + err2)


def against_tests(tap, lint, objs):
    rc, doc, err = lint.json("--format=json", "-r", "sess.rules", "--against", objs["v1"],
                             objs["v2"], "struct", "sess")
    s = doc.get("structs", [{}])[0]
    a = s.get("against", {})
    found = s.get("findings", [])
    tap.ok(rc == 1 and len(found) == 1 and found[0]["cacheline"] == 1 and
           found[0]["pairs"] == [["ops", "counter"]],
           "--against: exactly the one new finding (ops with counter on line 1), exit 1",
           f"exit {rc}\n{json.dumps(found, indent=1)}\n{err}")
    moved = sorted((m["path"], tuple(m["from"]), tuple(m["to"])) for m in a.get("moved", []))
    tap.ok(moved == [("cfg", (2, 2), (0, 0)), ("ops", (0, 0), (1, 1))],
           "--against: exactly the moves (cfg line 2 -> 0, ops line 0 -> 1)", moved)
    tap.ok(a.get("added") == [{"path": "extra", "lines": [2, 3]}] and a.get("removed") == [],
           "--against: one member added, none removed", json.dumps(a))
    tap.ok(a.get("size") == {"old": 192, "new": 256} and
           a.get("cachelines") == {"old": 3, "new": 4} and a.get("in_reference") is True,
           "--against: size and cacheline count change", json.dumps(a))
    g = doc.get("gating", {})
    tap.ok(g.get("reference") == "against" and g.get("path") == objs["v1"] and
           g.get("reported_findings") == 1 and g.get("new_pairs") == 1 and
           g.get("vanished_pairs") == 1,
           "--against --format=json: the gating object", json.dumps(g))

    rc, out, err = lint("-r", "sess.rules", "--against", objs["v1"], objs["v2"],
                        "struct", "sess")
    want = ["\tsize: 192 -> 256 bytes, cachelines: 3 -> 4",
            "\tmoved:   cfg: line 2 -> line 0",
            "\tmoved:   ops: line 0 -> line 1",
            "\tadded:   extra: lines 2-3"]
    missing = [w for w in want if w not in out.splitlines()]
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    tap.ok(rc == 1 and not missing and len(errors) == 1 and
           "mixes read-mostly ops with write-hot counter" in errors[0] and
           "struct sess against v1.o:" in out,
           "--against text: the layout diff and one diagnostic", f"missing {missing}\n{out}")

    rc, out, err = lint("-r", "sess.rules", "--against", objs["v1"], objs["v1"], "struct", "sess")
    tap.ok(rc == 0 and ": error:" not in out and
           "no member added, removed or moved to another cacheline" in out and
           "size: 192 bytes, cachelines: 3 (unchanged)" in out,
           "--against the same build: exit 0, nothing new, nothing moved", f"exit {rc}\n{out}")

    rc, doc, err = lint.json("--format=json", "-r", "sess.rules", "--against", objs["nosess"],
                             objs["v1"], "struct", "sess")
    s = doc.get("structs", [{}])[0]
    tap.ok(rc == 1 and s.get("against", {}).get("in_reference") is False and
           len(s.get("findings", [])) == 1,
           "--against a build without the struct: all its findings are new", json.dumps(s)[:800])
    rc, out, err = lint("-r", "sess.rules", "--against", os.path.join("nope.o"), objs["v1"])
    tap.ok(rc == 2 and "nope.o" in err and out == "", "--against a missing file: exit 2", err)



# ---- several binaries, one run (--binary) -------------------------------------

def sarif_valid(tap, doc, what):
    """Schema and code scanning checks of DOC, as one test."""
    check, _ = find_validator()
    errs = (check(doc) if check else []) + sarif_own_checks(doc)
    tap.ok(not errs, f"{what}: valid SARIF 2.1.0 with what code scanning needs",
           "\n".join(errs[:20]))


def several_binaries_tests(tap, lint, objs, work):
    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "--binary", objs["v1"],
                             "--binary", objs["v1"])
    structs = doc.get("structs", [])
    tap.ok(rc == 1 and [s["name"] for s in structs] == ["conn"] and
           len(structs[0]["findings"]) == 1 and structs[0].get("binary") == objs["v1"] and
           doc.get("binary", {}).get("path") == objs["v1"] and
           [b["path"] for b in doc.get("binaries", [])] == [objs["v1"], objs["v1"]],
           "--binary twice, same layout: one JSON document, the struct and its finding once, "
           "binary and binaries", f"exit {rc}\n{json.dumps(doc)[:1500]}\n{err}")

    rc, doc, err = lint.json("--format=json", "-r", "conn.rules", "--binary", objs["newhot"],
                             "--binary", objs["v1"])
    structs = doc.get("structs", [])
    tap.ok(rc == 1 and [(s["name"], s.get("binary")) for s in structs] ==
           [("conn", objs["newhot"]), ("conn", objs["v1"])] and
           len(structs[0]["findings"]) == 2 and structs[1]["findings"] == [],
           "another layout of the struct is listed again under its binary, without the "
           "findings already reported (same fingerprint)", json.dumps(doc)[:1500])
    rc, out, err = lint("-r", "conn.rules", "--binary", objs["newhot"], "--binary", objs["v1"])
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    tap.ok(rc == 1 and len(errors) == len(set(errors)) == 2 and
           f"/* in {objs['newhot']} */" in out and f"/* in {objs['v1']} */" in out,
           "text: each listing says its binary; no diagnostic twice", out)
    rc, doc, err = lint.json("--format=sarif", "-r", "conn.rules", "--binary", objs["newhot"],
                             "--binary", objs["v1"])
    runs = doc.get("runs", [])
    tap.ok(rc == 1 and len(runs) == 1 and len(runs[0]["results"]) == 2 and
           [b["path"] for b in runs[0]["properties"].get("binaries", [])] ==
           [objs["newhot"], objs["v1"]],
           "sarif: one log, one run, each finding once, the binaries in its properties",
           json.dumps(doc)[:1500])
    if runs:
        sarif_valid(tap, doc, "sarif of two binaries")

    if objs["noline"]:
        rc, out, err = lint("-q", "-r", "sess.rules", "--binary", objs["v2"], "--binary",
                            objs["noline"])
        errors = [ln for ln in out.splitlines() if ": error:" in ln]
        tap.ok(rc == 1 and len(errors) == 2 and errors[0].startswith("gating.c:") and
               errors[1].startswith("noline.so: struct sess: error:"),
               "a finding without a source location starts with its own binary", out)
        rc, doc, err = lint.json("--format=sarif", "-r", "sess.rules", "--binary", objs["v2"],
                                 "--binary", objs["noline"])
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in doc.get("runs", [{}])[0].get("results", [])]
        tap.ok(uris == ["gating.c", "noline.so"], "sarif: ... and is located at it", uris)
    else:
        tap.skip("a finding without a source location starts with its own binary", "no noline")

    rc, out, err = lint("--format=html", "-r", "sess.rules", "--binary", objs["v2"], "--binary",
                        objs["v1"])
    sys.path.insert(0, os.path.join(HERE, "..", "html"))
    import pagecheck  # noqa: E402
    page = pagecheck.Page(out)
    tap.ok(rc == 1 and not page.errors and out.count("<section class=\"struct\"") == 2 and
           f"in {objs['v2']} &middot;" in out and f"in {objs['v1']} &middot;" in out,
           "html: one page, each struct under its binary, strictly well-formed",
           f"exit {rc}\n{page.errors}")

    # Missing structs are decided over all the binaries.
    rc, out, err = lint("-r", "sess.rules", "--binary", objs["nosess"], "--binary", objs["nosess"])
    notes = [ln for ln in err.splitlines() if "note:" in ln]
    tap.ok(rc == 0 and len(notes) == 1 and "struct sess is defined by none of the 2 binaries"
           in notes[0] and notes[0].startswith("sess.rules:2: note:"),
           "rules name a struct no binary defines: one note, exit 0", f"exit {rc}\n{err}")
    rc, out, err = lint("--format=json", "-r", "sess.rules", "--binary", objs["nosess"],
                        "--binary", objs["nosess"])
    try:
        notes = json.loads(out).get("notes", [])
    except ValueError:
        notes = None
    tap.ok(rc == 0 and err == "" and notes and len(notes) == 1 and
           notes[0].startswith("sess.rules:2: struct sess is defined by none of the 2 binaries"),
           "with JSON that note is the document's, located at the rules block, stderr quiet",
           f"exit {rc}\nnotes {notes}\n{err}")
    rc, out, err = lint("--require-all", "-r", "sess.rules", "--binary", objs["nosess"],
                        "--binary", objs["nosess"])
    tap.ok(rc == 2 and out == "" and len(err.splitlines()) == 1 and
           "struct sess is defined by none of the 2 binaries" in err,
           "--require-all: that is exit 2, one line", f"exit {rc}\n{err}")
    rc, out, err = lint("--require-all", "-r", "sess.rules", "--binary", objs["nosess"],
                        "--binary", objs["v1"])
    tap.ok(rc == 1 and "note:" not in err and "struct sess {" in out,
           "--require-all: defined by one binary of two is enough", f"exit {rc}\n{err}")
    rc, out, err = lint("-r", "sess.rules", "--binary", objs["nosess"], "--binary", objs["v1"],
                        "struct", "sess")
    tap.ok(rc == 1 and err == "" and out.count("struct sess {") == 1,
           "a named struct missing from one binary but found in another: fine",
           f"exit {rc}\n{err}")
    rc, out, err = lint("--binary", objs["nosess"], "--binary", objs["nosess"], "struct", "sess")
    tap.ok(rc == 2 and out == "" and len(err.splitlines()) == 1 and
           "struct sess is defined by none of the 2 binaries" in err,
           "a named struct missing from every binary: exit 2, one line", f"exit {rc}\n{err}")
    rc, out, err = lint("--binary", objs["v1"], "struct", "quiet")
    tap.ok(rc == 0 and "struct quiet {" in out and "/* in " in out,
           "with --binary every argument is a NAME", f"exit {rc}\n{out}\n{err}")
    rc, out, err = lint("--binary", objs["v1"], "--list")
    tap.ok(rc == 2 and out == "" and err.startswith("layoutlint: --binary is for linting"),
           "--binary with --list: usage error", err)

    # --against a directory: REF/B for each binary B.
    for d in ("ref/sub", "sub"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    for dst, src in (("ref/sub/a.o", "v1"), ("ref/sub/b.o", "v1"), ("sub/a.o", "v2"),
                     ("sub/b.o", "v1")):
        shutil.copy(os.path.join(work, objs[src]), os.path.join(work, dst))
    rc, doc, err = lint.json("--format=json", "-r", "sess.rules", "--against", "ref",
                             "--binary", "sub/a.o", "--binary", "sub/b.o")
    structs = doc.get("structs", [])
    found = [f["pairs"] for s in structs for f in s["findings"]]
    g = doc.get("gating", {})
    tap.ok(rc == 1 and [(s.get("binary"), s.get("against", {}).get("reference"))
                        for s in structs] == [("sub/a.o", "ref/sub/a.o"),
                                              ("sub/b.o", "ref/sub/b.o")] and
           found == [[["ops", "counter"]]] and g.get("suppressed_findings") == 1 and
           g.get("path") == "ref",
           "--against DIR: each binary against DIR/BINARY, the new finding only, exit 1",
           f"exit {rc}\n{json.dumps(doc)[:2000]}\n{err}")
    rc, out, err = lint("-r", "sess.rules", "--against", "ref", "--binary", "sub/a.o",
                        "--binary", "sub/b.o")
    tap.ok(rc == 1 and "struct sess against ref/sub/a.o:" in out and
           "struct sess against ref/sub/b.o:" in out and "\tmoved:   ops: line 0 -> line 1" in out,
           "--against DIR, text: each struct's diff names its own reference", out)
    rc, out, err = lint("-r", "sess.rules", "--against", "ref", "sub/a.o")
    tap.ok(rc == 1 and "struct sess against ref/sub/a.o:" in out,
           "--against DIR with a positional BINARY: DIR/BINARY", f"exit {rc}\n{out}\n{err}")
    for args, what in (
            (["--against", "ref/sub/a.o", "--binary", "sub/a.o", "--binary", "sub/b.o"],
             "several binaries and a file as the reference"),
            (["--against", "ref", "--binary", "sub/../sub/a.o"], "a binary with '..'"),
            (["--against", "ref", "--binary", os.path.join(work, "sub", "a.o")],
             "an absolute binary")):
        rc, out, err = lint("-r", "sess.rules", *args)
        tap.ok(rc == 2 and out == "" and len(err.splitlines()) == 1 and "--against" in err,
               f"--against with {what}: exit 2, one line", f"exit {rc}\n{err}")
    rc, doc, err = lint.json("--format=sarif", "-r", "sess.rules", "--against", "ref",
                             "--binary", "sub/a.o", "--binary", "sub/b.o")
    states = sorted(r.get("baselineState") for r in doc.get("runs", [{}])[0].get("results", []))
    tap.ok(rc == 1 and states == ["new", "unchanged"],
           "--against DIR, sarif: the new finding and b.o's unchanged one", states)
    if "runs" in doc:
        sarif_valid(tap, doc, "sarif --against DIR of two binaries")


# ---- where a new finding is located -------------------------------------------

def decl_line(src, marker):
    with open(src) as f:
        for i, line in enumerate(f, 1):
            if f"/* {marker}" in line:
                return i
    raise AssertionError(f"{marker} not in {src}")


def location_tests(tap, lint, work):
    for name in ("moved.c", "moved.rules"):
        shutil.copy(os.path.join(HERE, name), os.path.join(work, name))
    try:
        compile_c("gcc", "moved.c", "mv-old.o", cwd=work, flags=["-g", "-c"])
        compile_c("gcc", "moved.c", "mv-new.o", cwd=work, flags=["-g", "-c", "-DMOVED"])
    except Failure as e:
        tap.ok(False, "compile moved.c twice", str(e))
        return
    src = os.path.join(work, "moved.c")
    hits, table = decl_line(src, "@hits, moved"), decl_line(src, "@table, moved")
    ops, cfg = decl_line(src, "read-mostly */") , 0
    with open(src) as f:
        cfg = next(i for i, ln in enumerate(f, 1) if "const void *cfg;" in ln)

    def errors(out):
        return [ln for ln in out.splitlines() if ": error:" in ln]

    rc, out, err = lint("-q", "-r", "moved.rules", "mv-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 2 and e[0].startswith(f"moved.c:{ops}:") and
           e[1].startswith(f"moved.c:{cfg}:"),
           "without gating: at the first read-mostly member of each line (ops, cfg)", out)
    rc, out, err = lint("-q", "-r", "moved.rules", "--against", "mv-old.o", "mv-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 2 and e[0].startswith(f"moved.c:{hits}:") and
           e[1].startswith(f"moved.c:{table}:"),
           "--against: each new finding at the member that moved (hits, table)", out)
    tap.ok(f"moved.c:{ops}:14: note: read-mostly ops shares cacheline 0" in out and
           f"moved.c:{cfg}:27: note: read-mostly cfg shares cacheline 1" in out and
           f"moved.c:{table}:14: note: new since mv-old.o: table with refs" in out,
           "--against: the members the checks put them at are notes like the others", out)
    rc, doc, err = lint.json("--format=json", "-r", "moved.rules", "--against", "mv-old.o",
                             "mv-new.o")
    locs = [f["location"]["line"] for s in doc.get("structs", []) for f in s["findings"]]
    tap.ok(locs == [hits, table], "--against --format=json: the same locations", locs)
    rc, doc, err = lint.json("--format=sarif", "-r", "moved.rules", "--against", "mv-old.o",
                             "mv-new.o")
    res = doc.get("runs", [{}])[0].get("results", [])
    got = [(r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["logicalLocations"][0]["name"]) for r in res]
    tap.ok(got == [(hits, "hits"), (table, "table")],
           "--against --format=sarif: the same locations, the member named logically", got)
    base = os.path.join(work, "mv.baseline")
    lint("-r", "moved.rules", "--write-baseline", base, "mv-old.o")
    rc, out, err = lint("-q", "-r", "moved.rules", "--baseline", base, "mv-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 2 and e[1].startswith(f"moved.c:{table}:"),
           "--baseline: at the first member of the new pairs no baseline pair names (table)",
           out)


# ---- SARIF under gating: baselineState, suppressions, %SRCROOT% ---------------

def line_starting(name, text, nth=1):
    """The line of the NTH line of tests/gating/NAME that starts with TEXT."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name)) as f:
        hits = [i for i, ln in enumerate(f, 1) if ln.startswith(text)]
    return hits[nth - 1] if len(hits) >= nth else None


def sarif_gating_tests(tap, lint, objs, work):
    rc, doc, err = lint.json("--format=sarif", "-r", "sess.rules", "--against", objs["v1"],
                             objs["v2"])
    res = doc.get("runs", [{}])[0].get("results", [])
    by = {r.get("baselineState"): r for r in res}
    absent = by.get("absent", {})
    tap.ok(rc == 1 and sorted(by) == ["absent", "new"] and len(res) == 2 and
           absent.get("level") == "note" and absent.get("ruleId") == "mixed-cacheline" and
           absent["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "gating.c"
           and absent["locations"][0]["physicalLocation"].get("region", {}).get("startLine") ==
           line_starting("gating.c", "struct sess {", 2) and
           absent["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "struct sess"
           and absent.get("properties", {}).get("pair") == ["cfg", "lock"],
           "--against, sarif: the new finding, and the vanished pair as an absent note at the "
           "struct's declaration (a region review tools can show, not the whole binary)",
           json.dumps(res, indent=1)[:2500])
    rc, doc, err = lint.json("--format=sarif", "-r", "sess.rules", "--against", objs["v1"],
                             objs["v1"])
    res = doc.get("runs", [{}])[0].get("results", [])
    sup = res[0].get("suppressions", []) if res else []
    tap.ok(rc == 0 and len(res) == 1 and res[0].get("baselineState") == "unchanged" and
           len(sup) == 1 and sup[0].get("kind") == "external" and
           "in the reference" in sup[0].get("justification", ""),
           "--against the same build, sarif: the old finding, unchanged and suppressed; exit 0",
           json.dumps(res, indent=1)[:2000])
    if "runs" in doc:
        sarif_valid(tap, doc, "sarif with an unchanged result")
    rc2, out2, _ = lint("-r", "sess.rules", "--against", objs["v1"], objs["v1"])
    rc3, doc3, _ = lint.json("--format=json", "-r", "sess.rules", "--against", objs["v1"],
                             objs["v1"])
    tap.ok(rc2 == 0 and ": error:" not in out2 and
           all(not s["findings"] for s in doc3.get("structs", [])),
           "... while text and JSON still report nothing", out2)

    base = os.path.join(work, "conn.baseline")
    rc, doc, err = lint.json("--format=sarif", "-r", "conn.rules", "--baseline", base,
                             "--strict-baseline", objs["fixed"])
    res = doc.get("runs", [{}])[0].get("results", [])
    with open(base) as f:
        want_line = next(i + 1 for i, ln in enumerate(f) if '"ops","lock"' in ln)
    loc = res[0]["locations"][0]["physicalLocation"] if res else {}
    tap.ok(rc == 1 and len(res) == 1 and res[0].get("baselineState") == "absent" and
           loc.get("artifactLocation", {}).get("uri", "").endswith("conn.baseline") and
           loc.get("region", {}).get("startLine") == want_line,
           "--strict-baseline, sarif: the vanished pair at its line of the baseline, exit 1",
           json.dumps(res, indent=1)[:2000])
    if "runs" in doc:
        sarif_valid(tap, doc, "sarif with an absent result")

    real = os.path.realpath(work)
    rc, doc, err = lint.json("--format=sarif", "-r", "conn.rules", objs["v1"])
    root = doc.get("runs", [{}])[0].get("originalUriBaseIds", {}).get("%SRCROOT%", {})
    tap.ok(root.get("uri") == "file://" + real + "/",
           "sarif: %SRCROOT% is the working directory, as a file URI with a trailing slash",
           f"{root} {real}")
    spaced = os.path.join(work, "src dir")
    os.makedirs(spaced, exist_ok=True)
    rc, doc, err = lint.json("--format=sarif", "--srcdir", "src dir", "-r", "conn.rules",
                             objs["v1"])
    root = doc.get("runs", [{}])[0].get("originalUriBaseIds", {}).get("%SRCROOT%", {})
    tap.ok(root.get("uri") == "file://" + real + "/src%20dir/",
           "sarif: with --srcdir it is that directory, absolute and percent-encoded", root)

def fingerprint_tests(tap, lint, objs):
    args = ["-r", "conn.rules", "-r", "sess.rules", "-r", "spl.rules", objs["newhot"]]

    def fps_json():
        _, doc, _ = lint.json("--format=json", *args)
        return [f["fingerprint"] for s in doc["structs"] for f in s["findings"]]

    def fps_sarif():
        _, doc, _ = lint.json("--format=sarif", *args)
        return [r["partialFingerprints"]["layoutlint/v1"] for r in doc["runs"][0]["results"]]

    a, b, c = fps_json(), fps_json(), fps_sarif()
    tap.ok(len(a) == 4 and a == b and len(set(a)) == len(a),
           "fingerprints: identical across two runs, distinct per finding", f"{a}\n{b}")
    tap.ok(a == c, "fingerprints: identical in --format=json and --format=sarif", f"{a}\n{c}")
    # Line numbers and offsets are not part of it: the moved sess keeps its
    # finding's fingerprint when the same pairs meet on another line.
    _, d1, _ = lint.json("--format=json", "-r", "conn.rules", objs["v1"], "struct", "conn")
    _, d2, _ = lint.json("--format=json", "-r", "conn.rules", objs["newread"], "struct", "conn")
    f1 = d1["structs"][0]["findings"][0]["fingerprint"]
    f2 = [f["fingerprint"] for f in d2["structs"][0]["findings"]]
    tap.ok(f1 not in f2, "fingerprints: a finding with another member gets another one",
           f"{f1} {f2}")
    _, d3, _ = lint.json("--format=json", "-r", "conn.rules", "--baseline",
                         os.path.join(lint.cwd, "conn.baseline"), objs["newhot"])
    _, d4, _ = lint.json("--format=json", "-r", "conn.rules", objs["newhot"])
    g = {f["fingerprint"] for s in d3["structs"] for f in s["findings"]}
    p = {f["fingerprint"] for s in d4["structs"] for f in s["findings"]}
    tap.ok(g and g <= p, "fingerprints: the same under --baseline", f"{g} {p}")


def layout_change_tests(tap, lint, work):
    """layout-change: embed.c as it is and with -DGROW (a struct embedded by
    value grew; members added), compiled by gcc."""
    shutil.copy(os.path.join(HERE, "embed.c"), os.path.join(work, "embed.c"))
    shutil.copy(os.path.join(HERE, "embed.rules"), os.path.join(work, "embed.rules"))
    try:
        compile_c("gcc", "embed.c", "embed1.o", cwd=work, flags=["-g", "-c"])
        compile_c("gcc", "embed.c", "embed2.o", cwd=work, flags=["-g", "-c", "-DGROW"])
    except Failure as e:
        tap.ok(False, "compile embed.c with and without -DGROW", str(e))
        return
    rc, out, err = lint("-q", "-r", "embed.rules", "--against", "embed1.o", "embed2.o")
    got = sorted(ln.split(": warning: ", 1)[1] for ln in err.splitlines() + out.splitlines()
                 if ": warning: " in ln)
    want = sorted(["struct file: 184 -> 192 bytes; f_security line 1 -> 2 [layout-change]",
                   "struct req: 96 -> 104 bytes, kmalloc-96 -> kmalloc-128 [layout-change]",
                   "struct big: 128 -> 136 bytes, cachelines 2 -> 3, kmalloc-128 -> kmalloc-192 "
                   "[layout-change]"])
    tap.ok(rc == 0 and got == want,
           "layout-change: an embedded struct's growth moves a tagged member (struct file "
           "184 -> 192, f_security line 1 -> 2), a kmalloc class and a cacheline crossed; an "
           "untagged member's move is no finding; a warning: exit 0",
           f"exit {rc}\ngot {got}\nwant {want}\n{out}\n{err}")
    loc = [ln for ln in out.splitlines() + err.splitlines() if "struct file: 184" in ln]
    tap.ok(loc and loc[0].startswith("embed.c:22:"),
           "layout-change: located at the first tagged member that moved (f_security)", loc)
    rc, out, err = lint("-q", "-r", "embed.rules", "--against", "embed1.o", "embed1.o")
    tap.ok(rc == 0 and "layout-change" not in out + err,
           "layout-change: the same build has none", out + err)
    rc, out, err = lint("-q", "--layout-change=error", "-r", "embed.rules", "--against",
                        "embed1.o", "embed2.o", "struct", "file")
    tap.ok(rc == 1 and ": error: struct file: 184 -> 192 bytes" in out + err,
           "--layout-change=error: an error, exit 1", f"exit {rc}\n{out}{err}")
    rc, out, err = lint("-q", "--layout-change=off", "-r", "embed.rules", "--against",
                        "embed1.o", "embed2.o")
    tap.ok(rc == 0 and "layout-change" not in out + err, "--layout-change=off: none",
           out + err)
    with open(os.path.join(work, "embed-allow.rules"), "w") as f:
        f.write(open(os.path.join(work, "embed.rules")).read().replace(
            "\tcold         f_security\n",
            "\tcold         f_security\n\tallow layout-change f_security\n"))
    rc, out, err = lint("-q", "-r", "embed-allow.rules", "--against", "embed1.o", "embed2.o",
                        "struct", "file", "struct", "big")
    got = [ln.split(": warning: ", 1)[1] for ln in (out + err).splitlines() if ": warning: " in ln]
    tap.ok(rc == 0 and got == ["struct big: 128 -> 136 bytes, cachelines 2 -> 3, kmalloc-128 -> "
                               "kmalloc-192 [layout-change]"],
           "allow layout-change f_security: struct file's only reason goes, and its finding; "
           "struct big keeps its own", f"exit {rc}\n{got}\n{out}{err}")
    rc, out, err = lint("--layout-change=loud", "-r", "embed.rules", "embed1.o")
    tap.ok(rc == 2 and "unknown --layout-change 'loud'" in err.splitlines()[0],
           "--layout-change with an unknown level: exit 2, argp's usage error", f"exit {rc}\n{err}")
    baseline_layout_tests(tap, lint, work, want)
    rc, doc, err = lint.json("--format=sarif", "-r", "embed.rules", "--against", "embed1.o",
                             "embed2.o", "struct", "file")
    try:
        res = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "layout-change"]
        rules = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
    except (TypeError, KeyError, IndexError):
        res, rules = [], []
    tap.ok(len(res) == 1 and res[0]["level"] == "warning" and "layout-change" in rules and
           res[0].get("baselineState", "new") == "new",
           "layout-change in SARIF: one new warning result, the rule in the table",
           json.dumps(res)[:2000])


def baseline_layout_tests(tap, lint, work, want):
    """layout-change under --baseline: the baseline records each struct's
    layout, and a later build is compared with it as --against compares
    with a binary (WANT: --against's three warnings for embed1 -> embed2)."""
    base = os.path.join(work, "embed-base.json")
    rc, out, err = lint("-q", "-r", "embed.rules", "--write-baseline", base, "embed1.o")
    try:
        with open(base) as f:
            doc = json.load(f)
        layouts = {x["struct"]: x for x in doc.get("layouts", [])}
    except (OSError, ValueError) as e:
        doc, layouts = {}, {}
        err += str(e)
    f = layouts.get("struct file", {})
    members = {m[0]: m[1:] for m in f.get("members", [])}
    tap.ok(f.get("size") == 184 and f.get("cachelines") == 3 and f.get("cacheline") == 64 and
           members.get("f_security") == [1, 1] and members.get("f_op") == [0, 0] and
           set(layouts) == {"struct file", "struct req", "struct big", "struct quiet"},
           "--write-baseline records each linted struct's size, cachelines and members' lines "
           "(struct file: 184 bytes, 3 lines, f_security on line 1)",
           f"exit {rc}\n{json.dumps(layouts)[:2000]}\n{err}")
    with open(base) as fh:
        text = fh.read()
    tap.ok(all(ln.startswith('    {"struct":') for ln in text.splitlines()
               if '"cachelines"' in ln) and text.count('"cachelines"') == 4,
           "the baseline lists one layout a line (it diffs well)", text[-1500:])
    rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", base, "embed2.o")
    got = sorted(ln.split(": warning: ", 1)[1] for ln in err.splitlines() + out.splitlines()
                 if ": warning: " in ln)
    tap.ok(rc == 0 and got == want,
           "--baseline: the layout changes --against reports (struct file 184 -> 192, "
           "f_security line 1 -> 2; a kmalloc class; a cacheline), from the baseline alone",
           f"exit {rc}\ngot {got}\nwant {want}\n{out}\n{err}")
    loc = [ln for ln in out.splitlines() + err.splitlines() if "struct file: 184" in ln]
    tap.ok(loc and loc[0].startswith("embed.c:22:"),
           "--baseline layout-change: located at f_security, as under --against", loc)
    rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", base, "embed1.o")
    tap.ok(rc == 0 and "layout-change" not in out + err,
           "--baseline: the build the baseline was written from has no layout-change", out + err)
    rc, out, err = lint("-q", "--layout-change=error", "-r", "embed.rules", "--baseline", base,
                        "embed2.o", "struct", "file")
    tap.ok(rc == 1 and ": error: struct file: 184 -> 192 bytes" in out + err,
           "--baseline --layout-change=error: an error, exit 1", f"exit {rc}\n{out}{err}")
    rc, out, err = lint("-q", "--layout-change=off", "-r", "embed.rules", "--baseline", base,
                        "embed2.o")
    tap.ok(rc == 0 and "layout-change" not in out + err,
           "--baseline --layout-change=off: none", out + err)
    # Refreshing the baseline from the grown build: its layouts are the new ones, and a
    # layout-change adds no pair (a later move of f_security is news again).
    fresh = os.path.join(work, "embed-fresh.json")
    shutil.copy(base, fresh)
    rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", fresh, "--write-baseline",
                        fresh, "embed2.o")
    with open(fresh) as fh:
        doc = json.load(fh)
    sizes = {x["struct"]: x["size"] for x in doc.get("layouts", [])}
    tap.ok(sizes.get("struct file") == 192 and
           not [p for p in doc["pairs"] if p["rule"] == "layout-change"],
           "a refreshed baseline records the new layouts (struct file 192) and no "
           "layout-change pair", json.dumps(doc)[:2000])
    rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", fresh, "embed2.o")
    tap.ok(rc == 0 and "layout-change" not in out + err,
           "--baseline with the refreshed baseline: no layout-change", out + err)
    # A baseline of pairs only (written before layouts were): a note, no layout-change.
    old = os.path.join(work, "embed-pairs-only.json")
    with open(base) as fh:
        doc = json.load(fh)
    doc.pop("layouts")
    with open(old, "w") as fh:
        json.dump(doc, fh)
    rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", old, "embed2.o")
    tap.ok(rc == 0 and "layout-change" not in out and "records no layouts" in err,
           "a baseline without layouts: no layout-change, one note saying why", err)
    # Malformed layouts: FILE:LINE:COLUMN, exit 2.
    for bad, words in (('"layouts": {}', "\"layouts\" must be an array"),
                       ('"layouts": [{"struct":"struct file","cacheline":48,"size":1,'
                        '"cachelines":1,"members":[]}]', "\"cacheline\" must be a power of two"),
                       ('"layouts": [{"struct":"struct file","cacheline":64,"size":1,'
                        '"cachelines":1,"members":[["a",2,1]]}]', "the first not after the last"),
                       ('"layouts": [{"struct":"file","cacheline":64,"size":1,'
                        '"cachelines":1,"members":[]}]', "\"struct\" must be")):
        path = os.path.join(work, "embed-bad.json")
        with open(path, "w") as fh:
            fh.write('{"layoutlint-baseline": 1, "pairs": [],\n ' + bad + '}\n')
        rc, out, err = lint("-q", "-r", "embed.rules", "--baseline", path, "embed2.o")
        tap.ok(rc == 2 and not out and err.startswith(f"layoutlint: {path}:2:") and
               words in err and len(err.splitlines()) == 1,
               f"a malformed layout ({words}): exit 2, one line at FILE:LINE:COLUMN",
               f"exit {rc}\n{err}")


def main():
    a = parse_args("layoutlint", workdir=dict(required=False), doc=__doc__)
    tool = os.path.abspath(a.layoutlint)
    tap = Tap()
    _, checks, _ = run([tool, "--list-checks"], check=True)
    RULE_IDS[:] = [line.split()[0] for line in checks.splitlines() if line.strip()]
    if not shutil.which("gcc"):
        return tap.skip_all("no gcc")
    tmp = None
    if a.workdir:
        work = os.path.abspath(a.workdir)
        os.makedirs(work, exist_ok=True)
    else:
        work = tmp = tempfile.mkdtemp(prefix="layoutlint-gating-")
    try:
        # The pair-gating cases count findings exactly: layout-change, which
        # --against also raises, is off there and tested on its own below.
        lint = Lint(tool, work, args=["--color=never", "--layout-change=off"])
        objs = compile_variants(tap, work)
        sarif_tests(tap, lint, objs, work)
        baseline_tests(tap, lint, objs, work)
        against_tests(tap, lint, objs)
        fingerprint_tests(tap, lint, objs)
        several_binaries_tests(tap, lint, objs, work)
        location_tests(tap, lint, work)
        sarif_gating_tests(tap, lint, objs, work)
        layout_change_tests(tap, Lint(tool, work, args=["--color=never"]), work)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
