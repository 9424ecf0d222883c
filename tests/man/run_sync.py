#!/usr/bin/env python3
"""The lists that must agree, checked against each other (TAP), as bpftool's
synctypes test does for its own: the catalog of checks (--list-checks), the
man pages, docs/rules.md, the shell completion and --help.

- every check in --list-checks has an entry, with the same default level,
  under "Checks" in layoutlint(1) and in docs/rules.md's Findings table, and
  neither lists any other;
- the error for an unknown 'allow' id in a rules file names every check;
- every option --help shows is described under OPTIONS in layoutlint(1);
- every option that takes a separate argument is skipped by the
  completion's search for BINARY, and no option it skips is unknown;
- scripts/check-ids (run by the build) passes on src/ and fails, naming
  the file and line, on a copy whose catalog misspells an id and on one
  that spells an id as a string where the enum goes.
"""
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, compile_c, parse_args, run  # noqa: E402


def man_section(text, start, stop_re=r"^\.S[HS] "):
    lines = text.splitlines()
    i = lines.index(start)
    out = []
    for line in lines[i + 1:]:
        if re.match(stop_re, line):
            break
        out.append(line)
    return out


def unescape(word):
    return word.replace("\\-", "-")


def main():
    a = parse_args("layoutlint", doc=__doc__)
    tap = Tap()
    ok = tap.ok

    rc, out, _ = run([a.layoutlint, "--list-checks"])
    catalog = [l.split()[:3] for l in out.splitlines() if l.strip()]
    ok(rc == 0 and len(catalog) >= 7, "--list-checks lists the catalog", out)
    ids = [c[0] for c in catalog]

    man1 = open(os.path.join(TOP, "man", "layoutlint.1")).read()
    section = man_section(man1, ".SS Checks")
    documented = {}
    for i, line in enumerate(section):
        if line == ".TP" and i + 2 < len(section) and section[i + 1].startswith(".B "):
            cid = unescape(section[i + 1][3:].strip())
            m = re.match(r"\((error|warning|note)(; \\-\\-suggest fixes it)?\)", section[i + 2])
            documented[cid] = (m.group(1), bool(m.group(2))) if m else (None, None)
    ok(sorted(documented) == sorted(ids), "layoutlint(1) Checks lists exactly the catalog",
       f"man: {sorted(documented)}\ncatalog: {sorted(ids)}")
    for cid, level, fix in catalog:
        ok(documented.get(cid) == (level, fix == "suggest"),
           f"layoutlint(1) gives {cid} its level and fixability",
           f"man: {documented.get(cid)} catalog: {(level, fix)}")

    rules_md = open(os.path.join(TOP, "docs", "rules.md")).read()
    table = rules_md[rules_md.index("## Findings"):]
    table = table[:table.index("\n\n", table.index("| rule id"))]
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| `([a-z-]+)` \| (error|warning|note)\b", table, re.M)}
    ok(sorted(rows) == sorted(ids) and all(rows[c] == lv for c, lv, _ in catalog),
       "docs/rules.md's Findings table lists exactly the catalog, with its levels",
       f"docs: {rows}\ncatalog: {catalog}")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bad.rules")
        with open(path, "w") as f:
            f.write("struct s\n\tallow no-such-check x\n")
        obj = os.path.join(tmp, "s.o")
        src = os.path.join(tmp, "s.c")
        with open(src, "w") as f:
            f.write("struct s { int x; } s;\n")
        compile_c("gcc", src, obj)
        rc, _, err = run([a.layoutlint, "-r", path, obj])
        missing = [c for c in ids if c not in err]
        ok(rc == 2 and not missing, "an unknown allow id is refused naming every check", err)

    _, h, _ = run([a.layoutlint, "--help"])
    opts = {}
    for m in re.finditer(r"^\s+(?:-(\w), )?--([a-z][a-z-]*)(\[?=)?", h, re.M):
        opts[m.group(2)] = m.group(3)
    options_text = "\n".join(man_section(man1, ".SH OPTIONS", r"^\.SH "))
    undocumented = [o for o in opts
                    if not re.search(r"\\-\\-" + re.escape(o.replace("-", "\\-")) + r"(?![a-z]|\\-)",
                                     options_text)]
    ok(opts and not undocumented, "every --help option is described under OPTIONS",
       f"undocumented: {undocumented}")

    comp = open(os.path.join(TOP, "completions", "layoutlint.bash")).read()
    fn = comp[comp.index("_layoutlint_binary()"):comp.index("_layoutlint()")]
    skip = set()
    for m in re.finditer(r"^\s+([-|\\\w\s]+)\) \(\(i\+\+\)\) ;;", fn, re.M):
        for word in re.split(r"[|\\\s]+", m.group(1)):
            if word.startswith("--"):
                skip.add(word[2:])
            elif word.startswith("-"):
                skip.add(word)
    takes_arg = {o for o, eq in opts.items() if eq == "="}
    short = {m.group(1) for m in re.finditer(r"^\s+-(\w), --[a-z-]+=", h, re.M)}
    ok(not (takes_arg - skip), "the completion skips the argument of every option that takes one",
       f"not skipped: {sorted(takes_arg - skip)}")
    unknown = {s for s in skip if not s.startswith("-") and s not in opts}
    unknown |= {s for s in skip if s.startswith("-") and s[1:] not in short}
    ok(not unknown, "the completion skips no option --help does not know", f"{sorted(unknown)}")

    check_ids = os.path.join(TOP, "scripts", "check-ids")
    with tempfile.TemporaryDirectory() as tmp:
        p = run([check_ids, os.path.join(TOP, "src"), os.path.join(tmp, "stamp")])
        ok(p.rc == 0 and os.path.exists(os.path.join(tmp, "stamp")),
           "check-ids: every check id src/ spells is in the catalog", p.err)
        copy = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(TOP, "src"), copy)
        victim = os.path.join(copy, "checks", "catalog.c")
        with open(victim) as f:
            text = f.read()
        line = text[:text.index('.id = "split-hot"')].count("\n") + 1
        with open(victim, "w") as f:
            f.write(text.replace('.id = "split-hot"', '.id = "split-hto"', 1))
        p = run([check_ids, copy, os.path.join(tmp, "stamp2")])
        ok(p.rc == 1 and f"catalog.c:{line}: error: check id 'split-hto' does not match "
           "LL_CHECK_SPLIT_HOT" in p.err and not os.path.exists(os.path.join(tmp, "stamp2")),
           "check-ids: a catalog id that is not its enumerator's fails, at its line", p.err)
        with open(victim, "w") as f:
            f.write(text)
        victim = os.path.join(copy, "checks", "checks.c")
        with open(victim) as f:
            text = f.read()
        site = "ll_check_allowed(in->allows, in->nr_allows, rule, path)"
        line = text[:text.index(site)].count("\n") + 1
        with open(victim, "w") as f:
            f.write(text.replace(site, 'll_allowed(in->allows, in->nr_allows, "split-hot", path)', 1))
        p = run([check_ids, copy, os.path.join(tmp, "stamp3")])
        ok(p.rc == 1 and f"checks.c:{line}: error: check id 'split-hot' spelt as a string" in p.err
           and not os.path.exists(os.path.join(tmp, "stamp3")),
           "check-ids: an id spelt as a string where an id goes fails, at its file and line",
           p.err)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
