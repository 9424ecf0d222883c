#!/usr/bin/env python3
"""Real kernels, --against: struct file from 6.1 to 6.12 (issue 5).

  layoutlint --against 6.1-vmlinux -r rules/file.rules 6.12-vmlinux struct file

must list the struct file members that changed cacheline between the two
Debian images and report only the pairs that newly share a line in 6.12
(f_mapping with f_count, ...), not the ones 6.1 already had (f_op with
f_count). The expectations are pahole's layouts of the two images; they are
also cross-checked against two plain runs (member lines, pair sets).
TAP; skips when the kernels cannot be fetched.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch  # noqa: E402
from lib import Lint, Tap, parse_args  # noqa: E402

# Top-level units whose cacheline changed, 6.1 -> 6.12 (pahole -C file).
MOVED = {
    "f_mode": ((1, 1), (0, 0)),
    "f_mapping": ((3, 3), (0, 0)),
    "private_data": ((3, 3), (0, 0)),
    "f_flags": ((1, 1), (0, 0)),
    "f_cred": ((2, 2), (0, 0)),
    "f_path": ((0, 0), (1, 1)),
    "f_security": ((3, 3), (1, 1)),
    "f_owner": ((1, 2), (2, 2)),
    "f_wb_err": ((3, 3), (2, 2)),
    "f_sb_err": ((3, 3), (2, 2)),
    "f_ep": ((3, 3), (2, 2)),
    "f_llist": ((0, 0), (2, 2)),
}
ADDED = {"f_pipe", "f_task_work", "f_freeptr"}
REMOVED = {"f_rcuhead", "f_version"}
# Pairs that share a line in 6.12 but not in 6.1 (read-mostly, write-hot).
NEW_PAIRS = {(r, w) for r in ("f_mode", "f_mapping", "f_flags", "f_cred")
             for w in ("f_count", "f_lock")} | {("f_path", "f_pos_lock"), ("f_path", "f_pos")}
# Pairs both kernels have: never reported as new.
OLD_PAIRS = {(r, w) for r in ("f_op", "f_inode") for w in ("f_count", "f_lock")}


def lines_of(doc):
    """path -> (first, last) for every top-level unit (members of anonymous unions too)."""
    out = {}

    def walk(members):
        for m in members:
            if m["name"] is None and m["members"]:
                walk(m["members"])
            elif m["name"] is not None and m["lines"] is not None:
                out[m["path"]] = tuple(m["lines"])
    walk(doc["structs"][0]["members"])
    return out


def pairs_of(doc):
    return {tuple(p) for f in doc["structs"][0]["findings"] for p in f["pairs"]}


def main():
    a = parse_args("layoutlint", "rules-dir", doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    lint = Lint(a.layoutlint, args=["--color=never"], timeout=600)
    old = fetch("6.1")
    new = fetch("6.12")
    if not old or not new:
        return tap.skip_all("cannot fetch the 6.1 and 6.12 kernels")
    old, new = old[0], new[0]
    rules = os.path.join(a.rules_dir, "file.rules")
    # The pair gating is checked with layout-change off (it adds a finding
    # without pairs); layout-change itself on the default run below.
    args = ["--layout-change=off", "--against", old, "-r", rules, new, "struct", "file"]

    rc, out, err = lint("-q", *args[1:])
    warn = [ln for ln in out.splitlines() + err.splitlines() if "[layout-change]" in ln]
    tagged = ["f_mode line 1 -> 0", "f_mapping line 3 -> 0", "f_flags line 1 -> 0",
              "f_cred line 2 -> 0", "f_path line 0 -> 1", "f_security line 3 -> 1",
              "f_ep line 3 -> 2"]
    tap.ok(len(warn) == 1 and ": warning: struct file: 232 -> 184 bytes, kmalloc-256 -> "
           "kmalloc-192; " + ", ".join(tagged) + " [layout-change]" in warn[0],
           "layout-change: 232 -> 184 bytes, the kmalloc class, and exactly the tagged members "
           "of the moves below (pahole's lines)", "\n".join(warn) or out[-2000:])

    rc, out, err = lint(*args)
    tap.ok(rc == 1, "--against 6.1 on 6.12 struct file: exit 1 (new findings)",
           f"exit {rc}\n{err}")
    text = out.splitlines()
    for path, ((of, ol), (nf, nl)) in sorted(MOVED.items()):
        def lines(f, last):
            return f"line {f}" if f == last else f"lines {f}-{last}"
        want = f"\tmoved:   {path}: {lines(of, ol)} -> {lines(nf, nl)}"
        tap.ok(want in text, f"text lists {path.strip()}: {lines(of, ol)} -> {lines(nf, nl)}",
               "\n".join(ln for ln in text if "moved" in ln))
    tap.ok("\tsize: 232 -> 184 bytes, cachelines: 4 -> 3" in text,
           "text gives the size and cacheline change", out[:2000])
    errors = [ln for ln in text if ": error:" in ln]
    tap.ok(len(errors) == 2 and all("[mixed-cacheline]" in ln for ln in errors),
           "text: the two mixed-cacheline findings that have new pairs", "\n".join(errors))
    note = next((ln for ln in text if "note: new since" in ln), "")
    tap.ok("f_mapping with f_count" in note and "f_op with f_count" not in note,
           "text says which pairs of line 0 are new (f_mapping with f_count, not f_op)", note)

    rc, out, err = lint("--format=json", *args)
    try:
        doc = json.loads(out)
    except ValueError as e:
        tap.ok(False, "--format=json: a JSON document", f"{e}\nexit {rc}\n{err}")
        return tap.finish()
    s = doc["structs"][0]
    ag = s["against"]
    moved = {m["path"]: (tuple(m["from"]), tuple(m["to"])) for m in ag["moved"]}
    tap.ok(moved == MOVED, "json: exactly the members that changed cacheline",
           f"got {sorted(moved.items())}\nwant {sorted(MOVED.items())}")
    tap.ok({m["path"] for m in ag["added"]} == ADDED and
           {m["path"] for m in ag["removed"]} == REMOVED,
           "json: members added and removed", json.dumps(ag)[:1500])
    new_pairs = {tuple(p) for f in s["findings"] for p in f["new_pairs"]}
    tap.ok(new_pairs == NEW_PAIRS, "json: the pairs that newly share a line in 6.12",
           f"got {sorted(new_pairs)}\nwant {sorted(NEW_PAIRS)}")
    tap.ok(("f_mapping", "f_count") in new_pairs and not (new_pairs & OLD_PAIRS),
           "f_mapping with f_count is new; f_op/f_inode with f_count/f_lock are not",
           sorted(new_pairs))
    g = doc["gating"]
    tap.ok(g["reported_findings"] == 2 and g["new_pairs"] == len(NEW_PAIRS),
           "json: gating counts", json.dumps(g)[:800])

    # Cross-check with two plain runs.
    _, o_out, _ = lint("--format=json", "-r", rules, old, "struct", "file")
    _, n_out, _ = lint("--format=json", "-r", rules, new, "struct", "file")
    try:
        o_doc, n_doc = json.loads(o_out), json.loads(n_out)
    except ValueError as e:
        tap.ok(False, "plain runs: JSON documents", e)
        return tap.finish()
    ol, nl = lines_of(o_doc), lines_of(n_doc)
    derived = {p: (ol[p], nl[p]) for p in nl if p in ol and ol[p] != nl[p]}
    tap.ok(derived == moved, "the moves agree with the lines of two plain runs",
           f"{sorted(derived.items())}")
    tap.ok(pairs_of(n_doc) - pairs_of(o_doc) == new_pairs,
           "the new pairs are the 6.12 pairs minus the 6.1 pairs",
           sorted(pairs_of(n_doc) - pairs_of(o_doc)))
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
