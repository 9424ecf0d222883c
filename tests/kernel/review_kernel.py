#!/usr/bin/env python3
"""Review where kernel review happens, on the real 6.12 tree: the hook's
SARIF and HTML with the change at hand, b4's per-patch check, the NIPA runner.

usage: review_kernel.py --layoutlint PATH --rules-dir DIR --workdir DIR [--jobs N]

WORKDIR is the kernel-hook test's: the committed, configured tree it
prepares (tests/kernel/hook_kernel.py, reused with its helpers) is shared,
so only the first of the two tests pays for kbuild. The change is the one
the issue was filed on: f_pos moved up next to f_op in struct file, which
shifts f_cred onto cacheline 1 beside f_pos_lock.
  - scripts/layoutlint-kernel fs/file_table.o -- --format=sarif: exactly one
    new result (layout-change aside), on f_pos's new line, with f_cred as a
    related location; the base revision in versionControlProvenance and
    gating.path "HEAD (sha)"; no path of the hook's worktree anywhere and
    no result or related location without a region; valid SARIF 2.1.0.
  - ... -- --format=html: the page names the reference HEAD (sha) and the
    rules .layoutlint (their path in the tree), never the worktree's path
    or the rules' absolute path.
  - --b4-check fed the move as a git format-patch mail: one JSON object of
    the documented shape, status fail, the finding in the summary, the
    quoted hunk and the fix in the details; the fix applies (git apply
    --check) on the patched tree; the user's index, working tree, stash,
    branches and HEAD as they were. A comment-only patch: pass. A mail with
    no patch: warn, saying why.
  - contrib/nipa/layoutlint/run.sh with the move committed as HEAD: exit 1,
    one line on DESC_FD, the mail on stdout.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, parse_args, run  # noqa: E402
from kernel_common import fetch_source  # noqa: E402
import hook_kernel as hk  # noqa: E402

NIPA = os.path.join(TOP, "contrib", "nipa", "layoutlint", "run.sh")
B4_KEYS = {"tool": str, "status": str, "summary": str, "url": str, "details": str}


def b4_shape(doc):
    """Problems with DOC against the documented --b4-check answer."""
    if not isinstance(doc, list) or len(doc) != 1 or not isinstance(doc[0], dict):
        return ["not an array of one object"]
    o, bad = doc[0], []
    for k, v in o.items():
        if k not in B4_KEYS:
            bad.append(f"unknown key {k}")
        elif not isinstance(v, B4_KEYS[k]):
            bad.append(f"{k} is not a {B4_KEYS[k].__name__}")
    for k in ("tool", "status", "summary", "details"):
        if k not in o:
            bad.append(f"no {k}")
    if o.get("status") not in ("pass", "warn", "fail"):
        bad.append(f"status {o.get('status')!r}")
    if "\n" in o.get("summary", ""):
        bad.append("summary is more than one line")
    return bad


class Review:
    def __init__(self, t, ll, tree, jobs):
        self.t, self.ll, self.tree, self.jobs = t, ll, tree, jobs
        self.fs_h = os.path.join(tree, hk.FS_H)

    def script(self, *args, stdin=None):
        t0 = time.monotonic()
        p = subprocess.run([hk.SCRIPT, "--layoutlint", self.ll, "-j", str(self.jobs), *args],
                           cwd=self.tree, env=hk.ENV, input=stdin, capture_output=True,
                           timeout=3600)
        return p, time.monotonic() - t0

    def move_f_pos(self):
        """f_pos out of line 1, in after f_op: f_cred shifts to line 1. Its new line."""
        with open(self.fs_h) as f:
            text = f.read()
        pos = re.search(r"^\tloff_t\t+f_pos;\n", text, re.M)
        assert pos, "struct file has changed: no f_pos"
        decl = pos.group(0)
        text = text[:pos.start()] + text[pos.end():]
        op = re.search(r"^\tconst struct file_operations\t+\*f_op;\n", text, re.M)
        text = text[:op.end()] + decl + text[op.end():]
        hk.replace_file(self.fs_h, text)
        return text[:op.end()].count("\n") + 1

    def restore(self):
        hk.git(self.tree, "checkout", "-q", "HEAD", "--", hk.FS_H)

    def mail_of(self, change, subject):
        """CHANGE() made in the tree, as a git format-patch mail; the tree as before."""
        change()
        hk.git(self.tree, "commit", "-q", "--no-verify", "-am", subject)
        mail = hk.git(self.tree, "format-patch", "-1", "--stdout").out
        hk.git(self.tree, "reset", "-q", "--hard", "HEAD~1")
        return mail

    def sarif_and_html(self):
        line = self.move_f_pos()
        head = hk.git(self.tree, "rev-parse", "HEAD").out.strip()
        short = hk.git(self.tree, "rev-parse", "--short", "HEAD").out.strip()
        p, took = self.script("fs/file_table.o", "--", "--format=sarif")
        text = p.stdout.decode()
        try:
            doc = json.loads(text)
            runs = doc["runs"][0]
        except (ValueError, KeyError, IndexError):
            doc, runs = None, {}
        res = runs.get("results", [])
        new = [r for r in res if r.get("baselineState") == "new" and
               r.get("ruleId") != "layout-change"]
        related = [x["physicalLocation"]["region"]["startLine"]
                   for x in (new[0].get("relatedLocations", []) if new else [])
                   if "region" in x.get("physicalLocation", {})]
        with open(self.fs_h) as f:
            cred = next(i for i, ln in enumerate(f, 1) if re.match(r"\tconst struct cred\s", ln))
        vcp = runs.get("versionControlProvenance", [{}])[0]
        regionless = [r["ruleId"] for r in res
                      if "region" not in r["locations"][0]["physicalLocation"]] + \
                     [x for r in res for x in r.get("relatedLocations", [])
                      if "region" not in x.get("physicalLocation", {})]
        self.t.ok(p.returncode == 1 and len(new) == 1 and
                  new[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == line and
                  cred in related,
                  f"hook, SARIF: exactly one new result, on f_pos's new line {line}, f_cred "
                  f"(line {cred}, shifted) a related location ({took:.0f} s)",
                  f"exit {p.returncode}\n{json.dumps(new, indent=1)[:4000]}\n"
                  f"{p.stderr.decode()[-3000:]}")
        self.t.ok(vcp.get("revisionId") == head and
                  runs.get("properties", {}).get("gating", {}).get("path") == f"HEAD ({short})"
                  and "layoutlint-kernel/" not in text and not regionless,
                  "hook, SARIF: the base revision in versionControlProvenance, the reference "
                  "named HEAD (sha), no path of the hook's worktree, nothing without a region",
                  json.dumps({"vcp": vcp, "gating": runs.get("properties", {}).get("gating"),
                              "regionless": regionless[:5],
                              "internal": re.findall(r"[^\"]*layoutlint-kernel/[^\"]*", text)[:5]},
                             indent=1)[:3000])
        check, how = hk.find_validator()
        if check and doc is not None:
            errs = check(doc)
            self.t.ok(not errs, f"hook, SARIF: valid SARIF 2.1.0 ({how})", "\n".join(errs[:20]))
        else:
            self.t.skip("hook, SARIF: valid SARIF 2.1.0", "no jsonschema")
        p, _ = self.script("fs/file_table.o", "--", "--format=html")
        page = p.stdout.decode()
        self.t.ok(p.returncode == 1 and f"HEAD ({short})" in page and ".layoutlint:" in page and
                  "layoutlint-kernel/" not in page and f"{self.tree}/.layoutlint" not in page,
                  "hook, HTML: the reference named HEAD (sha), the rules by their path in the "
                  "tree (.layoutlint), no internal path",
                  "\n".join(re.findall(r".{60}(?:layoutlint-kernel/|/\.layoutlint).{40}",
                                       page)[:5]) or page[-2000:])
        self.restore()

    def b4(self):
        tree = self.tree
        mail = self.mail_of(self.move_f_pos, "fs: move f_pos next to f_op")
        before = hk.snapshot(tree)
        p, took = self.script("--b4-check", stdin=mail.encode())
        after = hk.snapshot(tree)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        bad = b4_shape(doc)
        o = doc[0] if not bad else {}
        d = o.get("details", "")
        self.t.ok(p.returncode == 0 and not bad and o["status"] == "fail" and
                  o["tool"] == "layoutlint" and "f_pos" in o["summary"] and
                  "[mixed-cacheline]" in o["summary"] and "> +\tloff_t" in d and
                  "include/linux/fs.h:" in d and "\ndiff --git a/include/linux/fs.h" in d,
                  f"--b4-check, the f_pos move as a git format-patch mail: fail, the finding in "
                  f"the summary, the quoted hunk and the fix in the details; the documented "
                  f"shape ({took:.0f} s)",
                  f"exit {p.returncode} {bad}\n{p.stdout.decode()[:4000]}\n"
                  f"{p.stderr.decode()[-3000:]}")
        self.t.ok(before == after, "--b4-check: index, working tree, stash, branches, HEAD and "
                  "worktrees as they were", hk.changed(before, after))
        # The fix, on the patched tree: git apply takes it.
        fix = d[d.find("\ndiff --git ") + 1:] if "\ndiff --git " in d else ""
        r1 = run(["git", "apply", "-"], cwd=tree, input=mail, env=hk.ENV)
        r2 = run(["git", "apply", "--check", "-"], cwd=tree, input=fix, env=hk.ENV)
        self.t.ok(r1.rc == 0 and fix and r2.rc == 0,
                  "--b4-check: its fix applies (git apply --check) on the patched tree",
                  r1.err + r2.err)
        hk.git(tree, "reset", "-q", "--hard", "HEAD")

        def comment():
            hk.edit(self.fs_h, "struct file {", "struct file {\t/* one open file */")
        mail = self.mail_of(comment, "fs: a comment on struct file")
        p, took = self.script("--b4-check", stdin=mail.encode())
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        bad = b4_shape(doc)
        self.t.ok(p.returncode == 0 and not bad and doc[0]["status"] == "pass",
                  f"--b4-check, a comment-only patch: pass ({took:.0f} s)",
                  f"{bad}\n{p.stdout.decode()[:3000]}\n{p.stderr.decode()[-2000:]}")
        p, _ = self.script("--b4-check", stdin=b"From: a@b\nSubject: no patch\n\nhello\n")
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        bad = b4_shape(doc)
        self.t.ok(p.returncode == 0 and not bad and doc[0]["status"] == "warn" and
                  "does not apply" in doc[0]["summary"],
                  "--b4-check, a mail with no patch: warn, saying it does not apply",
                  f"{bad}\n{p.stdout.decode()[:2000]}")
        return mail

    def nipa(self):
        tree = self.tree
        mail = self.mail_of(self.move_f_pos, "fs: move f_pos next to f_op")
        r = run(["git", "am", "-q"], cwd=tree, input=mail, env=hk.ENV)
        if not self.t.ok(r.rc == 0, "git am the f_pos move for NIPA", r.err):
            return
        rd, wd = os.pipe()
        env = dict(hk.ENV, LAYOUTLINT=self.ll, LAYOUTLINT_KERNEL=hk.SCRIPT, DESC_FD=str(wd))
        t0 = time.monotonic()
        p = subprocess.run([NIPA], cwd=tree, env=env, pass_fds=(wd,), capture_output=True,
                           timeout=3600)
        os.close(wd)
        with os.fdopen(rd) as f:
            desc = f.read()
        took = time.monotonic() - t0
        out = p.stdout.decode()
        self.t.ok(p.returncode == 1 and desc.count("\n") == 1 and "new finding" in desc and
                  "HEAD~ (" in desc and "> +\tloff_t" in out and "diff --git" in out,
                  f"NIPA run.sh, the move as HEAD: exit 1, one line on DESC_FD, the mail on "
                  f"stdout ({took:.0f} s)",
                  f"exit {p.returncode}\ndesc {desc!r}\n{out[:2000]}\n{p.stderr.decode()[-2000:]}")
        hk.git(tree, "reset", "-q", "--hard", "HEAD~1")


def main():
    a = parse_args("layoutlint", "rules-dir", "workdir", "jobs", doc=__doc__)
    t = Tap()
    pristine = fetch_source("6.12")
    if not pristine:
        print("1..0 # SKIP cannot fetch the 6.12 source with scripts/fetch-kernel")
        return 0
    workdir = os.path.abspath(a.workdir)
    os.makedirs(workdir, exist_ok=True)
    tree = os.path.join(workdir, "linux-6.12")
    rules = os.path.join(os.path.abspath(a.rules_dir), "file.rules")
    if not hk.prepare(pristine, tree, rules, a.jobs, t):
        return t.finish()
    s = Review(t, os.path.abspath(a.layoutlint), tree, a.jobs)
    s.sarif_and_html()
    s.b4()
    s.nipa()
    # No --clean: kernel-hook, which runs next on this tree, starts from the
    # reference built here and cleans up at its end.
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
