#!/usr/bin/env python3
"""--list, --contains and --audit on a fixture with known answers (TAP)."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Lint, Tap, compile_c, run, tap_main  # noqa: E402


def test(tap, a):
    ok = tap.ok
    lint = Lint(a.layoutlint)

    for cc in ("gcc", "clang"):
        obj = compile_c(cc, os.path.join(HERE, "discover.c"), f"discover-{cc}.o",
                        workdir=a.workdir)

        rc, out, err = lint.run("--list=disc_*", obj)
        rows = [l.split() for l in out.splitlines()[1:]]
        names = [r[1] for r in rows]
        ok(rc == 0 and names == ["disc_clean", "disc_host", "disc_hot", "disc_inner", "disc_mild",
                                 "disc_union"], f"{cc}: --list=disc_* lists exactly the disc_ aggregates",
           out + err)
        by_name = {r[1]: r for r in rows}
        ok(by_name.get("disc_hot", [None] * 5)[2:5] == ["80", "2", "1"]
           and by_name.get("disc_union", [None])[0] == "union",
           f"{cc}: --list rows carry kind, size, cachelines, holes", out)
        rc, out, err = lint.run("--list=no_such_*", obj)
        ok(rc == 2 and "no struct or union matches" in err, f"{cc}: --list with no match exits 2", err)
        # As people type it: argp only takes --list=GLOB, the CLI takes the
        # next word when a BINARY is there too (docs/cli.md).
        want = lint.run("--list=disc_*", obj)
        for argv in (["--list", "disc_*", obj], [obj, "--list", "disc_*"],
                     ["--list", "disc_*", "-q", obj]):
            got = lint.run(*argv)
            ok(got == want, f"{cc}: {' '.join(argv[:3])}... lists what --list=disc_* lists",
               got[1] + got[2])
        rc, out, err = lint.run("--list", obj)
        ok(rc == 0 and "disc_hot" in out and len(out.splitlines()) > 7,
           f"{cc}: --list BINARY alone still lists every name", out + err)
        rc, out, err = lint.run("--list", "disc_*", obj, "disc_hot")
        ok(rc == 2 and "BINARY only" in err, f"{cc}: --list GLOB BINARY NAME is a usage error", err)

        rc, out, err = lint.run(obj, "disc_hot,disc_mild")
        ok(rc == 2 and out == "" and err.count("\n") == 1 and "separate words" in err,
           f"{cc}: a pahole-style comma list of names: one line saying names are separate "
           "words, exit 2", out + err)

        rc, out, err = lint.run("--contains", "disc_inner", obj)
        got = sorted(l.split(":")[0] + ":" + l.split()[4] for l in out.splitlines())
        ok(rc == 0 and got == ["struct disc_host:arr", "struct disc_host:inner",
                               "struct disc_host:nested.deep", "union disc_union:in"],
           f"{cc}: --contains disc_inner finds by-value members at every depth, not pointers",
           out + err)

        for typed in ("struct disc_inner", "--contains=disc_inner"):
            argv = ["--contains", typed, obj] if typed.startswith("struct") else [typed, obj]
            rc2, out2, err2 = lint.run(*argv)
            ok(rc2 == 0 and sorted(out2.splitlines()) == sorted(out.splitlines()),
               f"{cc}: {' '.join(argv[:2])} answers as --contains disc_inner", out2 + err2)
        rc, out, err = lint.run("--contains", "disc_inne", obj)
        ok(rc == 2 and out == "" and err.count("\n") == 1 and "did you mean disc_inner?" in err,
           f"{cc}: --contains with an unknown type: one line, a did-you-mean, exit 2", out + err)
        rc, out, err = lint.run("--contains", "qqqqqqqqqq", obj)
        ok(rc == 2 and out == "" and err.count("\n") == 1 and "did you mean" not in err,
           f"{cc}: --contains with a type close to nothing: one line, exit 2", out + err)
        rc, out, err = lint.run("--contains", "unsigned int", obj)
        ok(rc == 0 and err == "", f"{cc}: --contains a base type is not an unknown type", err)

        rc, out, err = lint.run("--audit", "disc_*", obj)
        ranked = [l.split()[2].rstrip(":") for l in out.splitlines() if not l.startswith("#")]
        ok(rc == 0 and ranked == ["disc_hot", "disc_mild"],
           f"{cc}: --audit ranks the two-line offender first and leaves the clean one out",
           out + err)
        ok(out.startswith("# heuristic"), f"{cc}: --audit says it is a heuristic", out)
        hot = [l for l in out.splitlines() if "disc_hot" in l]
        ok(hot and hot[0].split()[0] == "2" and "ops with lock" in hot[0] and "ops2 with refs" in hot[0],
           f"{cc}: --audit names the members on each mixed line", out)

        rc, out2, err = lint.run("--audit", "disc_hot", obj)
        ok(rc == 0 and [l.split()[2] for l in out2.splitlines() if not l.startswith("#")]
           == ["disc_hot:"], f"{cc}: --audit GLOB BINARY, GLOB a separate word", out2 + err)

        rc, out, err = lint.run("--list", "--audit", "x", obj)
        ok(rc == 2, f"{cc}: --list and --audit together are a usage error", err)
    # Completion: --list leaves a name index that the bash completion reads.
    exe = os.path.join(a.workdir, "discover-exe")
    run(["gcc", "-g", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "discover.c"),
         "-xc", "-", "-o", exe], input="int main(void){return 0;}", check=True)
    cache = os.path.join(a.workdir, "cache")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = lint.run("--list", exe, env=env)
    comp = os.path.join(HERE, "..", "..", "completions", "layoutlint.bash")
    script = (f"source {comp}; COMP_WORDS=(layoutlint {exe} struct disc_h); COMP_CWORD=3; "
              "_layoutlint; echo ${COMPREPLY[@]}")
    q = run(["bash", "-c", script], env=env)
    ok(p.returncode == 0 and sorted(q.stdout.split()) == ["disc_host", "disc_hot"],
       "bash completion offers struct names from the index --list wrote",
       p.stderr + q.stdout + q.stderr)
    check_audit_members(ok, lint, a.workdir)
    check_unlaid_rows(ok, lint, a.workdir)
    check_lean_contains(ok, lint, a.workdir)
    check_huge(ok, lint, a.workdir)


def peak_rss_kb(cmd):
    """Run CMD under /usr/bin/time -v: (exit status, stdout, stderr, peak RSS in KiB)."""
    p = run(["/usr/bin/time", "-v", *cmd])
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    err = "\n".join(l for l in p.stderr.splitlines() if not l.startswith("\t"))
    err = err.replace("Command exited with non-zero status %d" % p.returncode, "").strip()
    return p.returncode, p.stdout, err, int(m.group(1)) if m else -1


# What a struct of a few members may cost, whatever its size: the map, the
# listing and the pages are per member (a per-line map of 2 GiB is 33M entries).
HUGE_RSS_KB = 64 << 10
HUGE_OUT_BYTES = 64 << 10


def check_huge(ok, lint, workdir):
    """A struct whose size is one array member (2 GiB between two scalars;
    glibc's dtv: 2 GiB of union dtv, its name shared with a union) is laid out
    in every format, exactly as the compiler's sizeof and offsetof say, at a
    cost per member: small output, small RSS. One of 8 GiB, past what a reader
    accepts, is one line, exit 2."""
    src = os.path.join(HERE, "huge.c")
    for cc in ("gcc", "clang"):
        objs = [compile_c(cc, src, f"huge-{cc}.o", workdir=workdir),
                compile_c(cc, src, f"huge-union-{cc}.o", workdir=workdir,
                          defines=["DTV_UNION"])]
        exe = os.path.join(workdir, f"huge-{cc}")
        run([cc, *objs, "-o", exe], check=True)
        printer = os.path.join(workdir, f"huge-print-{cc}")
        run([cc, "-DPRINT", src, "-o", printer], check=True)
        facts = {}
        for line in run([printer], check=True).stdout.splitlines():
            w = line.split()
            facts[w[0]] = {"size": int(w[1]), **{w[i]: int(w[i + 1]) for i in range(2, len(w), 2)}}
        for name, kind in (("huge_arr", "struct"), ("dtv", "struct")):
            want = facts[name]
            rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, "--format=json", exe, kind, name])
            doc = json.loads(out) if rc == 0 and out else {}
            s = (doc.get("structs") or [{}])[0]
            got = {"size": s.get("size"),
                   **{m["name"]: m["offset"] for m in s.get("members", [])}}
            lines = s.get("lines", [])
            covered = sum(l.get("through", l["index"]) - l["index"] + 1 for l in lines)
            ok(rc == 0 and got == want and len(out) < HUGE_OUT_BYTES and 0 < rss < HUGE_RSS_KB
               and s.get("cachelines") == (want["size"] + 63) // 64 and
               covered == s.get("cachelines") and len(lines) <= 3 and
               all(m["lines"][1] < s["cachelines"] for m in s.get("members", [])),
               f"{cc}: {kind} {name} in JSON: the compiler's sizeof and offsetof, every "
               f"line once, runs as one object ({len(out)} bytes, {rss} KiB)",
               f"rc={rc} want {want} got {got} lines {lines} rss {rss}\n{err}")
            rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, exe, kind, name])
            ok(rc == 0 and f"size: {want['size']}, cachelines: {(want['size'] + 63) // 64}"
               in out and ("cacheline boundaries elided" in out) == (name == "huge_arr") and
               len(out) < HUGE_OUT_BYTES and 0 < rss < HUGE_RSS_KB,
               f"{cc}: {kind} {name} as text, boundaries inside the array elided "
               f"({len(out)} bytes, {rss} KiB)", f"rc={rc} rss {rss}\n{out[:2000]}{err}")
            html = os.path.join(workdir, f"huge-{cc}-{name}.html")
            rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, "--html", html, exe, kind, name])
            page = open(html, encoding="utf-8").read() if os.path.exists(html) else ""
            elided = re.findall(r'class="row elided" data-line="(\d+)" data-last="(\d+)"', page)
            ok(rc == 0 and len(elided) == 1 and int(elided[0][1]) - int(elided[0][0]) > 1 << 24
               and len(page) < HUGE_OUT_BYTES and 0 < rss < HUGE_RSS_KB,
               f"{cc}: {kind} {name} in HTML: one elided row ({len(page)} bytes, {rss} KiB)",
               f"rc={rc} elided {elided} rss {rss}\n{err}")
            for fmt in ("sarif",):
                rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, f"--format={fmt}", exe, kind,
                                                 name])
                ok(rc == 0 and json.loads(out).get("version") == "2.1.0" and
                   0 < rss < HUGE_RSS_KB,
                   f"{cc}: {kind} {name} as {fmt} ({rss} KiB)", f"rc={rc}\n{err}")
        # A union of two 2 GiB arrays, one read-mostly, one write-hot: every
        # line mixes them, and that is one finding naming the run.
        rules = os.path.join(workdir, "huge.rules")
        with open(rules, "w") as f:
            f.write("union huge_union\n\tread-mostly r\n\twrite-hot w\n")
        rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, "--format=json", "--rules",
                                         rules, exe, "union", "huge_union"])
        doc = json.loads(out) if out else {}
        s = (doc.get("structs") or [{}])[0]
        found = [f["message"] for f in s.get("findings", [])]
        ok(rc == 1 and len(found) == 1 and "cachelines 0-33554431 of union huge_union" in
           found[0] and len(s.get("lines", [])) == 1 and
           s["lines"][0].get("through") == 33554431 and 0 < rss < HUGE_RSS_KB,
           f"{cc}: a union of two 2 GiB arrays mixed on every line: one finding, one "
           f"object ({rss} KiB)", f"rc={rc} {found} {s.get('lines')}\n{err}")
        # --suggest with the 2 GiB array write-hot between read-mostly scalars:
        # the solver counts the array's lines by runs, so it costs per member
        # too (it walked 33 million lines, 12 s and 790 MB, before).
        with open(rules, "w") as f:
            f.write("struct huge_arr\n\twrite-hot a tail\n\tread-mostly before after\n")
        rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, "--format=json", "--suggest",
                                         "--rules", rules, exe, "struct", "huge_arr"])
        s = ((json.loads(out) if out else {}).get("structs") or [{}])[0]
        sug = s.get("suggestion") or {}
        order = [m.get("path") for m in sug.get("members", [])]
        ok(rc == 1 and s.get("findings") and sorted(order) == ["a", "after", "before", "tail"]
           and sug.get("findings", 1) < len(s["findings"]) and 0 < rss < HUGE_RSS_KB,
           f"{cc}: --suggest on struct huge_arr: every member placed, fewer findings "
           f"({len(s.get('findings', []))} -> {sug.get('findings')}, {rss} KiB)",
           f"rc={rc} order {order} suggestion {str(sug)[:1500]} rss {rss}\n{err}")
        # A 256 MiB hole is one entry: laid out and drawn as the compiler says.
        want = facts["huge_hole"]
        rc, out, err, rss = peak_rss_kb([lint.tool, *lint.args, "--format=json", exe,
                                         "huge_hole"])
        s = ((json.loads(out) if rc == 0 and out else {}).get("structs") or [{}])[0]
        got = {"size": s.get("size"), **{m["name"]: m["offset"] for m in s.get("members", [])}}
        html = os.path.join(workdir, f"huge-{cc}-hole.html")
        rc2, _, err2, rss2 = peak_rss_kb([lint.tool, *lint.args, "--html", html, exe,
                                          "huge_hole"])
        page = open(html, encoding="utf-8").read() if os.path.exists(html) else ""
        ok(rc == 0 and got == want and s.get("holes") == 1 and rc2 == 0 and
           "no member</text>" in page and len(page) < HUGE_OUT_BYTES and
           0 < max(rss, rss2) < HUGE_RSS_KB,
           f"{cc}: a 256 MiB hole: the compiler's offsets, one elided row in HTML "
           f"({rss}/{rss2} KiB)", f"rc={rc}/{rc2} want {want} got {got}\n{err}{err2}")
        rc, out, err = lint.run("--list=dtv", exe)
        ok(rc == 0 and "2147483648" in out, f"{cc}: --list=dtv lists the 2 GiB struct dtv",
           out + err)
        rc, out, err = lint.run(exe, "too_big")
        ok(rc == 2 and out == "" and err.count("\n") == 1 and "4095 MiB" in err and
           "--list shows it" in err,
           f"{cc}: an 8 GiB struct, past what a reader accepts, is one line, exit 2", out + err)


def check_unlaid_rows(ok, lint, workdir):
    """--list GLOB shows a name with distinct definitions as --list='*' does,
    a 2 GiB struct of one array member is listed, and neither hides the
    others."""
    src = os.path.join(HERE, "rows.c")
    for cc in ("gcc", "clang"):
        wide = compile_c(cc, src, f"rows-wide-{cc}.o", workdir=workdir, defines=["WIDE"])
        narrow = compile_c(cc, src, f"rows-narrow-{cc}.o", workdir=workdir)
        exe = os.path.join(workdir, f"rows-{cc}")
        run([cc, wide, narrow, "-o", exe], check=True)
        rc, out, err = lint.run("--list=tw*", exe)
        ok(rc == 0 and len(out.splitlines()) == 2 and
           out.splitlines()[1].split()[:3] == ["?", "twice", "(distinct"],
           f"{cc}: --list GLOB whose only match has two definitions shows its ? row, exit 0",
           out + err)
        rc, out, err = lint.run("--list=*", exe)
        rows = {l.split()[1]: l.split() for l in out.splitlines()[1:]}
        ok(rc == 0 and rows.get("huge_one", [])[2:4] == [str(1 << 31), str((1 << 31) // 64)]
           and rows.get("plain_row", [])[2:3] == ["4"] and rows.get("twice", [""])[0] == "?",
           f"{cc}: --list='*' lists the 2 GiB struct, the ambiguous name and the rest", out + err)
        rc, out, err = lint.run(exe, "huge_one")
        ok(rc == 0 and "char slots[2147483648];" in out and
           "cachelines: 33554432, members: 1" in out,
           f"{cc}: the 2 GiB struct of one array member is laid out", out + err)


def check_audit_members(ok, lint, workdir):
    """--audit on an executable, where the raw scan leaves unbuilt the structs
    it can tell have no ops pointer of their own: audit_members.c hides each
    one where that reading must still find it. The answer must be libdw's
    (LAYOUTLINT_SCAN=libdw builds every struct)."""
    want = ["aud_anon: line 0: ops with lock", "aud_deep: line 0: ops with count",
            "aud_typedefd: line 0: ops with refs"]
    for cc in ("gcc", "clang"):
        exe = os.path.join(workdir, f"audit-members-{cc}")
        p = run([cc, "-g", "-O0", "-o", exe, os.path.join(HERE, "audit_members.c")])
        if p.returncode != 0:
            ok(False, f"{cc}: compile audit_members.c", p.stderr)
            continue
        rc, out, err = lint.run("--no-cache", "--audit", "aud_*", exe)
        got = [l.split(None, 2)[2] for l in out.splitlines() if not l.startswith("#")]
        ok(rc == 0 and got == want,
           f"{cc}: --audit finds ops pointers in anonymous members and typedefs' structs",
           out + err)
        libdw = lint.run("--no-cache", "--audit", "aud_*", exe,
                         env=dict(os.environ, LAYOUTLINT_SCAN="libdw"))
        ok(libdw == (rc, out, err), f"{cc}: --audit answers as the libdw walk does",
           libdw[1] + libdw[2])
        rc, out, err = lint.run("--no-cache", "--contains", "aud_plain", exe)
        got = sorted((l.split()[1].rstrip(":"), l.split()[4]) for l in out.splitlines())
        ok(rc == 0 and got == [("aud_holder", "many"), ("aud_holder", "wrap.outer.plain"),
                               ("aud_outer", "plain")],
           f"{cc}: --contains finds a type three levels down and in an array", out + err)
        libdw = lint.run("--no-cache", "--contains", "aud_plain", exe,
                         env=dict(os.environ, LAYOUTLINT_SCAN="libdw"))
        ok(libdw == (rc, out, err), f"{cc}: --contains answers as the libdw walk does",
           libdw[1] + libdw[2])


def check_lean_contains(ok, lint, workdir):
    """--contains digests a struct none of whose member types can be
    spelled as the asked type (arrays ending at a type of that name)
    without spelling them: every match below, and no near miss, whichever
    way each struct was built (lean.c)."""
    want = {
        "long": ["struct lean_deep: long other", "struct lean_longs: long l",
                 "struct lean_longs: long[2] arr"],
        "unsigned long": ["struct lean_longs: unsigned long u"],
        "lean_long": ["struct lean_longs: lean_long typedefed"],
        "lean_t": ["struct lean_typedefs: lean_t t", "struct lean_typedefs: lean_t[3] ta"],
        "lean_in": ["struct lean_chains: struct lean_in[2][3] grid",
                    "struct lean_deep: struct lean_in deep",
                    "struct lean_deep: struct lean_in[2] wrap.named_deep",
                    "struct lean_typedefs: struct lean_in s"],
        "void": [],
    }
    want["struct lean_in"] = want["lean_in"]
    for cc in ("gcc", "clang"):
        obj = compile_c(cc, os.path.join(HERE, "lean.c"), f"lean-{cc}.o", workdir=workdir)
        for typed, lines in want.items():
            rc, out, err = lint.run("--no-cache", "--contains", typed, obj)
            got = sorted(l.split(" at offset")[0] for l in out.splitlines())
            ok(rc == 0 and err == "" and got == lines,
               f"{cc}: --contains {typed!r} finds exactly its by-value members", out + err)


if __name__ == "__main__":
    tap_main(test, "layoutlint", "workdir", doc=__doc__, tap=Tap(diag_lines=None))
