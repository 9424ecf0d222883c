#!/usr/bin/env python3
"""Real kernel, issue 7: the 6.12 image's __cacheline_group markers and the
net_cachelines rules imported from the 6.12 tree.

usage: groups_kernel.py --layoutlint PATH --rules-dir DIR

- struct net_device, tcp_sock, netns_ipv4 and sock: the groups layoutlint
  finds start and end where pahole puts their marker members;
- each of them, with no rules and the groups on, exits 0 with no error;
- tcp_sock with no rules lists its six groups, span against minimum;
- tcp_sock.rst and net_device.rst of the 6.12 tree (scripts/fetch-kernel source)
  import to exactly the shipped rules/net/*.rules (release line aside, and
  the members marked optional by hand for 6.1), with names resolved from
  the struct's definition in the tree (tcp_rack -> rack; members only
  under #if, or gone, optional), and those load against the image with no
  stale-rule finding.
"""
import functools
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kernel_common import fetch, fetch_source  # noqa: E402
import lib  # noqa: E402
from lib import Tap, parse_args  # noqa: E402

# pahole and layoutlint on a whole vmlinux, and a first fetch of the kernel
# source, take minutes, not the two the library gives a fixture run.
run = functools.partial(lib.run, timeout=1800)

STRUCTS = ["net_device", "tcp_sock", "netns_ipv4", "sock"]
TCP_SOCK_GROUPS = ["tcp_sock_read_tx", "tcp_sock_read_txrx", "tcp_sock_read_rx",
                   "tcp_sock_write_tx", "tcp_sock_write_txrx", "tcp_sock_write_rx"]
# Documentation/networking/net_cachelines rows naming no member of the 6.12
# (Debian cloud-amd64) image.
# The importer reads the struct's definition in the same tree: macros for
# member paths become the paths, nested struct types their members, names
# only under #if or not members at all optional ('?'). None is left.
STALE = {"tcp_sock": [], "net_device": []}
# What the importer resolved from the 6.12 source, as the shipped rules say it.
RESOLVED = {
    "tcp_sock": ["\tcold           rack                    # tcp_rack: the type of member rack"],
    "net_device": ["?wireless_handlers", "?dev_refcnt", "?padded"],
}


def unmark_61(text):
    """The shipped rules less what was marked by hand for 6.1: the two
    header lines saying so, and each '?NAME  # not in Linux 6.1' back to
    what the importer writes from the 6.12 tree."""
    text = text.replace("# Optional by hand, saying so: the members Debian's Linux 6.1 image "
                        "lacks\n# (added since), so that the rules hold on 6.1 and 6.12 "
                        "alike.\n", "")
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\t\S+\s+)\?(\S+)(\s+)# not in Linux 6\.1(; (.*))?$", line)
        if m:
            pad = m.group(3) + " " if m.group(5) else ""
            line = f"{m.group(1)}{m.group(2)}{pad}{'# ' + m.group(5) if m.group(5) else ''}"
        out.append(line)
    return "\n".join(out) + "\n"


def pahole_markers(vmlinux, name):
    """marker name -> offset, from pahole's listing of struct NAME."""
    rc, out, err = run(["pahole", "-C", name, vmlinux])
    if rc != 0:
        return None
    marks = {}
    for line in out.splitlines():
        m = re.search(r"\b(__cacheline_group_(?:begin|end)__\w+)\[0\][^;]*;\s*/\*\s*(\d+)", line)
        if m:
            marks[m.group(1)] = int(m.group(2))
    return marks


def flat_members(members, out):
    for m in members or []:
        if m.get("path"):
            out[m["path"]] = m
        flat_members(m.get("members"), out)
    return out


def extent(m):
    """Bytes a member occupies; a bitfield's bit_offset counts from the struct."""
    if m.get("bit_size") is not None:
        return m["bit_offset"] // 8, (m["bit_offset"] + m["bit_size"] + 7) // 8
    return m["offset"], m["offset"] + m["size"]


def check_path_sets(tap, table, rules_path, st):
    """The imported fastpath_tx/rx groups: the lines each path touches and
    the fewest its bytes need, recomputed here from the members' offsets
    and sizes in the JSON, must be what group-span says."""
    sets = {}
    with open(rules_path) as f:
        for line in f:
            w = line.split()
            if len(w) > 2 and w[0] == "group":
                sets.setdefault(w[1], []).extend(p.lstrip("?") for p in w[2:])
    members = flat_members(st["members"], {})
    spans = {f["message"].split()[1]: f["message"] for f in st["findings"]
             if f["rule"] == "group-span" and f["message"].startswith("group fastpath_")}
    for name in ("fastpath_tx", "fastpath_rx"):
        ext = sorted(extent(members[p]) for p in sets.get(name, []) if p in members)
        ext = [(b, e) for b, e in ext if e > b]
        lines, nbytes, end = set(), 0, 0
        for b, e in ext:
            lines.update(range(b // 64, (e - 1) // 64 + 1))
            nbytes += max(0, e - max(b, end))
            end = max(end, e)
        need = -(-nbytes // 64)
        msg = spans.get(name)
        want = f"touches {len(lines)} cachelines" if len(lines) > need else None
        tap.ok(ext and (msg is None if want is None else
                        want in msg and f"its {nbytes} bytes need only {need}" in msg),
               f"{table}: group {name}: {len(lines)} lines against a minimum of {need}, "
               "as recomputed from the members", f"{msg}")


def main():
    a = parse_args("layoutlint", "rules-dir", doc=__doc__)
    tap = Tap(diag_lines=None, diag_width=None)
    tool = a.layoutlint
    paths = fetch("6.12")
    if not paths:
        return tap.skip_all("cannot fetch the 6.12 kernel")
    vmlinux = paths[0]
    have_pahole = run(["pahole", "--version"])[0] == 0

    for name in STRUCTS:
        rc, out, err = run([tool, "--format=json", vmlinux, "struct", name])
        if not tap.ok(rc in (0, 1) and out, f"struct {name}: layoutlint runs", f"rc={rc} {err}"):
            continue
        st = json.loads(out)["structs"][0]
        groups = st.get("groups", [])
        tap.ok(len(groups) > 0, f"struct {name}: has groups", groups)
        # The maintainers tuned these layouts by hand: read by their own
        # conventions (txrx is both paths; a path's reads beside its own
        # writes), the groups alone must not make an error.
        errors = [f["message"] for f in st["findings"] if f["level"] == "error"]
        tap.ok(rc == 0 and not errors,
               f"struct {name}: no rules, groups on: exit 0, no error", f"rc={rc} {errors}")
        if not have_pahole:
            continue
        marks = pahole_markers(vmlinux, name)
        want = sorted((m[len("__cacheline_group_begin__"):], off, marks.get(
            "__cacheline_group_end__" + m[len("__cacheline_group_begin__"):]))
            for m, off in (marks or {}).items() if m.startswith("__cacheline_group_begin__"))
        got = sorted((g["name"], g["begin"], g["end"]) for g in groups)
        tap.ok(got == want, f"struct {name}: group offsets match pahole's marker members",
               f"got  {got}\nwant {want}")

    rc, out, err = run([tool, "--color=never", vmlinux, "struct", "tcp_sock"])
    summary = [l.strip() for l in out.splitlines() if l.strip().startswith("/*   tcp_sock_")]
    tap.ok(rc in (0, 1) and [re.match(r"/\*\s+(\w+):", l).group(1) for l in summary]
           == TCP_SOCK_GROUPS and all(" of min " in l for l in summary),
           "tcp_sock without rules lists its six groups, span against minimum", out[-3000:])

    rc, help_text, _ = run([tool, "--help"])
    if "--import-net-cachelines" not in help_text:
        for what in ("import", "rules load"):
            tap.skip(f"net_cachelines {what}", "no --import-net-cachelines")
        return tap.finish()
    src = fetch_source("6.12")
    if not src:
        tap.skip("net_cachelines import", "no 6.12 kernel source")
        return tap.finish()
    for table in ("tcp_sock", "net_device"):
        rst = os.path.join(src, "Documentation", "networking", "net_cachelines", table + ".rst")
        rc, out, err = run([tool, "--import-net-cachelines", rst])
        shipped = os.path.join(a.rules_dir, "net", table + ".rules")
        with open(shipped) as f:
            want = unmark_61(f.read())
        tap.ok(all(r in out for r in RESOLVED[table]),
               f"{table}.rst: names resolved from the source tree's definition",
               "\n".join(r for r in RESOLVED[table] if r not in out))
        # Line 2 names the release, which moves with Debian's 6.12 updates.
        same = out.splitlines()[:1] + out.splitlines()[2:] == \
            want.splitlines()[:1] + want.splitlines()[2:]
        tap.ok(rc == 0 and same, f"{table}.rst imports to rules/net/{table}.rules",
               f"rc={rc} {err}")
        rc, js, err = run([tool, "--format=json", "-r", shipped, vmlinux])
        ok = rc in (0, 1) and js
        doc = json.loads(js) if ok else {"structs": []}
        stale = sorted(f["members"][0] for s in doc["structs"] for f in s["findings"]
                       if f["rule"] == "stale-rule")
        tap.ok(ok and [s["name"] for s in doc["structs"]] == [table],
               f"rules/net/{table}.rules loads against the 6.12 image", f"rc={rc} {err}")
        tap.ok(stale == sorted(STALE[table]),
               f"{table}: stale-rule findings are the known documentation drift",
               f"got  {stale}\nwant {sorted(STALE[table])}")
        if ok and doc["structs"]:
            check_path_sets(tap, table, shipped, doc["structs"][0])
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
