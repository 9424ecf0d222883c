#!/usr/bin/env python3
"""--diff FILE and --format=mail on compiled fixtures (the review of a change).

usage: run_review.py --layoutlint PATH [--workdir DIR]

struct shf, as the f_pos move in the kernel's struct file: write-hot pos
moves from line 1 up next to read-mostly op, which shifts read-mostly cred
onto line 1 beside write-hot lock. The two builds are compiled from the same
file name (the old text, then the new), and the diff is `git diff
--no-index` of the two texts, so DWARF's lines are the diff's. Checked:
  - without --diff, two new errors, one of them on cred's line, which the
    change did not touch; with --diff one, at pos's new line, cred's
    finding folded into it as notes ("shifted: ..."), and the summary line
    counts one;
  - SARIF with --diff, --reference-name and --base-revision: one new error
    result, on the changed line, the reference named, versionControl-
    Provenance with the revision, no related location without a region;
  - --format=mail: the hunk quoted ("> +" pos's line), the finding inline,
    every prose line within 72 columns, the fix as a patch that git apply
    takes on the new text and that layoutlint then finds clean;
  - a git format-patch mail (headers, diffstat, signature, CRLF) as --diff
    is read like the plain diff;
  - one file named twice in a series (b/shf.c, then ./shf.c): one file, the
    same one error;
  - bad input: a broken hunk is exit 2 naming FILE:LINE; --diff without
    --against or --baseline is a usage error.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Failure, Lint, Tap, compile_c, parse_args  # noqa: E402

OLD = """\
struct shf {
	long count;			/* write-hot, line 0 */
	const void *op;			/* read-mostly */
	long pad[5];
	const void *cred;		/* read-mostly, the last of line 0 */
	const void *path;		/* read-mostly, line 1 */
	long lock;			/* write-hot */
	long pos;			/* write-hot */
	long tail[5];
};

struct shf shf_v;
"""

RULES = """\
struct shf
	read-mostly  op cred path
	write-hot    count lock pos
"""


def moved(text):
    """pos up next to op: pad, cred and path shift 8 bytes, cred onto line 1."""
    pos = "\tlong pos;\t\t\t/* write-hot */\n"
    assert pos in text
    text = text.replace(pos, "", 1)
    op = "\tconst void *op;\t\t\t/* read-mostly */\n"
    return text.replace(op, op + pos, 1)


def line_of(text, needle):
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def errors(out):
    return [ln for ln in out.splitlines() if ": error:" in ln]


def main():
    a = parse_args("layoutlint", workdir=dict(required=False), doc=__doc__)
    tap = Tap()
    if not shutil.which("gcc") or not shutil.which("git"):
        return tap.skip_all("no gcc or git")
    work = os.path.abspath(a.workdir) if a.workdir else tempfile.mkdtemp(prefix="ll-review-")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    lint = Lint(a.layoutlint, work, args=["--color=never"])
    new = moved(OLD)
    src = os.path.join(work, "shf.c")
    with open(os.path.join(work, "shf.rules"), "w") as f:
        f.write(RULES)
    try:
        for text, obj in ((OLD, "shf-old.o"), (new, "shf-new.o")):
            with open(src, "w") as f:
                f.write(text)
            compile_c("gcc", "shf.c", obj, cwd=work, flags=["-g", "-c"])
    except Failure as e:
        tap.ok(False, "compile struct shf twice", str(e))
        return tap.finish()
    os.makedirs(os.path.join(work, "a"))
    os.makedirs(os.path.join(work, "b"))
    with open(os.path.join(work, "a", "shf.c"), "w") as f:
        f.write(OLD)
    with open(os.path.join(work, "b", "shf.c"), "w") as f:
        f.write(new)
    d = subprocess.run(["git", "diff", "--no-index", "--no-color", "a/shf.c", "b/shf.c"],
                       cwd=work, capture_output=True, text=True)
    # git names them a/a/shf.c and b/b/shf.c: the paths the build saw are shf.c.
    diff = d.stdout.replace("a/a/shf.c", "a/shf.c").replace("b/b/shf.c", "b/shf.c")
    with open(os.path.join(work, "change.diff"), "w") as f:
        f.write(diff)
    pos, cred = line_of(new, "long pos;"), line_of(new, "*cred;")
    gate = ["-r", "shf.rules", "--against", "shf-old.o", "--layout-change=off"]

    rc, out, err = lint("-q", *gate, "shf-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 2 and any(x.startswith(f"shf.c:{cred}:") for x in e),
           "without --diff: two new errors, one at cred, a line the change did not touch",
           out + err)
    rc, out, err = lint("-q", *gate, "--diff", "change.diff", "shf-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 1 and e[0].startswith(f"shf.c:{pos}:") and
           f"shf.c:{cred}:" in out and "note: shifted: cacheline 1 of struct shf" in out and
           "1 finding with new pairs" in err,
           f"--diff: one error, at pos's new line {pos}; cred's finding folded in as notes "
           "(shifted: ...), the summary counts one", out + err)

    rc, doc, err = lint.json("--format=sarif", *gate, "--diff", "change.diff",
                             "--reference-name", "HEAD (1234567)", "--base-revision",
                             "1234567" * 5 + "12345", "shf-new.o")
    run = doc.get("runs", [{}])[0]
    res = [r for r in run.get("results", []) if r.get("baselineState") == "new"]
    vcp = run.get("versionControlProvenance", [{}])
    regionless = [loc for r in run.get("results", []) for loc in r.get("relatedLocations", [])
                  if "region" not in loc.get("physicalLocation", {})]
    tap.ok(rc == 1 and len(res) == 1 and
           res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == pos and
           run.get("properties", {}).get("gating", {}).get("path") == "HEAD (1234567)" and
           vcp[0].get("revisionId") == "1234567" * 5 + "12345" and
           vcp[0].get("repositoryUri", "").startswith("file://") and
           vcp[0].get("mappedTo") == {"uriBaseId": "%SRCROOT%"} and not regionless,
           "--format=sarif --diff: one new result on the changed line, the reference named, "
           "versionControlProvenance with the revision, no regionless related location",
           json.dumps(run, indent=1)[:3000])

    rc, out, err = lint("--format=mail", *gate, "--diff", "change.diff", "shf-new.o")
    head, _, fix = out.partition("\ndiff --git ")
    # The mail's own first line is prose; the fix's summary lines (layoutlint: ...) are the
    # patch's, which the mail never wraps.
    lines = head.splitlines()
    prose = lines[:1] + [ln for ln in lines[1:] if not ln.startswith("layoutlint: ")]
    long_lines = [ln for ln in prose if len(ln.expandtabs(8)) > 72 and not ln.startswith(">")]
    tap.ok(rc == 1 and out.startswith("layoutlint: 1 new finding against shf-old.o") and
           "> +\tlong pos;" in out and f"\nshf.c:{pos}: error: cacheline 0 of struct shf" in out
           and fix and not long_lines,
           "--format=mail: the hunk quoted, the finding inline, prose within 72 columns, the "
           "fix as a patch", out + "\n" + "\n".join(long_lines))
    with open(src, "w") as f:
        f.write(new)
    with open(os.path.join(work, "fix.patch"), "w") as f:
        f.write("diff --git " + fix)
    # Outside any repository (the build tree may sit in one): git apply then
    # patches the directory it runs in.
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(work))
    ap_ = subprocess.run(["git", "apply", "fix.patch"], cwd=work, capture_output=True,
                         text=True, env=env)
    with open(src) as f:
        changed = f.read() != new
    ok, out2 = ap_.returncode == 0 and changed, ""
    if ok:
        compile_c("gcc", "shf.c", "shf-fixed.o", cwd=work, flags=["-g", "-c"])
        rc2, out2, _ = lint("-q", *gate, "shf-fixed.o")
        ok = rc2 == 0 and not errors(out2)
    tap.ok(ok, "--format=mail: its patch applies (git apply) and the rebuilt struct has no "
           "new error against the reference", ap_.stderr + out2)

    # The same change as a mail from git format-patch, CRLF and all.
    mail = ("From 1234 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\n"
            "Subject: [PATCH] shf: pos next to op\n\nBody text.\n---\n shf.c | 2 +-\n"
            " 1 file changed\n\n" + diff + "-- \n2.39.2\n").replace("\n", "\r\n")
    with open(os.path.join(work, "change.mail"), "w", newline="") as f:
        f.write(mail)
    rc, out, err = lint("-q", *gate, "--diff", "change.mail", "shf-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 1 and e[0].startswith(f"shf.c:{pos}:"),
           "--diff of a git format-patch mail (CRLF, diffstat, signature): the same", out + err)

    # One file named twice in a series, once as b/shf.c (no hunk: a mode
    # change) and once as ./shf.c: one file, its hunks found (the fuzzer's
    # find: ./ kept made a second entry, and the lookup took the empty one).
    series = ("--- a/shf.c\n+++ b/shf.c\n" +
              re.sub(r"^\+\+\+ b/shf\.c", "+++ ./shf.c", diff, count=1, flags=re.M))
    with open(os.path.join(work, "series.diff"), "w") as f:
        f.write(series)
    rc, out, err = lint("-q", *gate, "--diff", "series.diff", "shf-new.o")
    e = errors(out)
    tap.ok(rc == 1 and len(e) == 1 and e[0].startswith(f"shf.c:{pos}:"),
           "--diff naming one file as b/shf.c and ./shf.c: the same one error", out + err)

    broken = re.sub(r"^@@ -(\d+),(\d+) \+(\d+),(\d+) @@", r"@@ -\1,\2 +\3,99 @@", diff,
                    count=1, flags=re.M)
    with open(os.path.join(work, "broken.diff"), "w") as f:
        f.write(broken + "not a diff line\n")
    rc, out, err = lint("-q", *gate, "--diff", "broken.diff", "shf-new.o")
    tap.ok(rc == 2 and re.match(r"layoutlint: .*broken\.diff:\d+: the hunk ends early", err) and
           err.count("\n") == 1, "a hunk cut short: exit 2, one line naming FILE:LINE", err)
    rc, out, err = lint("-q", "-r", "shf.rules", "--diff", "change.diff", "shf-new.o")
    tap.ok(rc == 2 and "need --against or --baseline" in err,
           "--diff without --against or --baseline: a usage error", err)
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
