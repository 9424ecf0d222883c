#!/usr/bin/env python3
"""--format=html and --html FILE on gcc-compiled fixtures, checked by a strict
parser and in headless Chromium: structure, no external reference, escaping
of hostile names (struct, member and declaring file replaced byte for byte
in the object), geometry in the SVG and after layout in the browser, no
network request, a screenshot that is not blank, dark mode and print.

Screenshots are kept in WORKDIR/artifacts.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from lib import Tap, parse_args  # noqa: E402
import browser  # noqa: E402
import pagecheck  # noqa: E402

PH_STRUCT = b"hostile_struct_name_placeholder_" + b"x" * 32
PH_MEMBER = b"hostile_member_placeholder_" + b"x" * 38
PH_DIR = b"srcdir_placeholder_" + b"z" * 45


def same_length(hostile, placeholder):
    assert len(hostile) <= len(placeholder), (hostile, placeholder)
    return hostile + b"Z" * (len(placeholder) - len(hostile))


# Markup, both quotes, an ampersand, ESC (a terminal sequence), a C0 byte,
# a bidi override and a byte that is not UTF-8.
HOSTILE_STRUCT = same_length(b"<script>alert(1)</script>\"'&amp;\x1b[2J\x01", PH_STRUCT)
HOSTILE_MEMBER = same_length(b"m<img src=x onerror=alert(2)>\"\xe2\x80\xae'\xff", PH_MEMBER)
HOSTILE_DIR = same_length(b"d\"><svg onload=alert(3)>'&lt;\x7f", PH_DIR)


def patch(path, pairs):
    with open(path, "rb") as f:
        data = f.read()
    for old, new in pairs:
        assert len(old) == len(new) and old in data, old
        data = data.replace(old, new)
    with open(path, "wb") as f:
        f.write(data)


def build(work):
    """The fixture object, its hostile copy and the --against reference."""
    src_dir = os.path.join(work, PH_DIR.decode())
    os.makedirs(src_dir, exist_ok=True)
    src = os.path.join(src_dir, "html.c")
    shutil.copy(os.path.join(HERE, "html.c"), src)
    objs = {}
    for name, extra in (("html.o", []), ("old.o", ["-DOLD_LAYOUT"])):
        out = os.path.join(work, name)
        # Relative source path: the declaring file is PH_DIR/html.c.
        subprocess.run(["gcc", "-g", "-gdwarf-5", "-O0", "-c", *extra, "-o", out,
                        os.path.join(PH_DIR.decode(), "html.c")], cwd=work, check=True)
        objs[name] = out
    hostile = os.path.join(work, "hostile.o")
    shutil.copy(objs["html.o"], hostile)
    patch(hostile, [(PH_STRUCT, HOSTILE_STRUCT), (PH_MEMBER, HOSTILE_MEMBER),
                    (PH_DIR, HOSTILE_DIR)])
    objs["hostile.o"] = hostile
    return objs


def lint(ll, *args, cwd=None):
    return subprocess.run([ll, *args], capture_output=True, cwd=cwd)


def main():
    a = parse_args("layoutlint", "workdir", doc=__doc__)
    t = Tap()
    work = a.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "artifacts"))
    objs = build(work)
    rules = os.path.join(HERE, "html.rules")
    ll = a.layoutlint

    # --- structure and escaping, on the hostile object ----------------------
    r = lint(ll, "--format=html", "-r", rules, objs["hostile.o"], "struct", "html_demo",
             "struct", HOSTILE_STRUCT)
    t.ok(r.returncode == 1 and not r.stderr, "hostile object: page written, findings exit 1",
         r.stderr.decode(errors="replace"))
    raw = r.stdout.decode("utf-8")
    page = pagecheck.Page(raw)
    t.ok(not page.errors, "the page parses with strict nesting", "\n".join(page.errors))
    bad = pagecheck.external_references(raw, page)
    t.ok(not bad, "no external reference: no URL, <link>, @import, script or handler",
         "\n".join(bad))
    t.ok(b"\x1b" not in r.stdout and b"\x01" not in r.stdout and b"\x7f" not in r.stdout and
         b"\xff" not in r.stdout and "\u202e" not in raw,
         "no control byte, bidi override or invalid UTF-8 reaches the page")
    tags = {tag for tag, _, _ in page.elements}
    t.ok(not tags & {"script", "img", "iframe", "object", "embed", "link"},
         "no element a hostile name could have opened", sorted(tags))
    text = page.text()
    for what, name in (("struct", HOSTILE_STRUCT), ("member", HOSTILE_MEMBER),
                       ("declaring file", HOSTILE_DIR)):
        shown = pagecheck.visible(name)
        t.ok(shown in text, f"hostile {what} name appears as text", shown)
    h2 = [txt for path, txt in page.texts if path and path[-1] == "h2"]
    t.ok(f"struct {pagecheck.visible(HOSTILE_STRUCT)}" in h2,
         "hostile struct name is the text of its heading", h2)
    titles = [txt for path, txt in page.texts if path and path[-1] == "title"]
    t.ok(any(pagecheck.visible(HOSTILE_MEMBER) in x for x in titles),
         "hostile member name in its box's hover title")

    # Every member with its offset, against --format=json of the same run.
    j = lint(ll, "--format=json", "-r", rules, objs["hostile.o"], "struct", "html_demo",
             "struct", HOSTILE_STRUCT)
    doc = json.loads(j.stdout)
    raws = (HOSTILE_STRUCT, HOSTILE_MEMBER, HOSTILE_DIR)
    listed = set(page.member_rows)
    missing = []
    for s in doc["structs"]:
        for m in pagecheck.walk(s["members"]):
            if m["path"] and (pagecheck.shown(m["path"], raws), m["offset"]) not in listed:
                missing.append(f"{m['path']} @ {m['offset']}")
    t.ok(not missing and len(listed) >= 16, f"every member listed with its offset "
         f"({len(listed)} rows)", "\n".join(missing) + f"\n{sorted(listed)[:5]}")

    # --- geometry in the SVG ------------------------------------------------
    for si, s in enumerate(doc["structs"]):
        t.ok(len(pagecheck.maps(page)) == 2, "one map per struct without --suggest")
        for m in pagecheck.walk(s["members"]):
            if m["path"]:
                m["path"] = pagecheck.shown(m["path"], raws)
        bad = pagecheck.geometry_problems(page, s, map_index=si)
        t.ok(not bad, f"{s['kind']} {pagecheck.visible(s['name'].encode(errors='surrogateescape'))[:20]}: "
             "every box at its offset and size at the declared scale", "\n".join(bad))
    demo = doc["structs"][0]
    gaps = [(a["class"].split()[1], int(a["data-begin"]), int(a["data-end"]))
            for a in pagecheck.maps(page)[0][3]]
    covered = set()
    for m in pagecheck.walk(demo["members"]):
        if not m["members"]:
            b, e = pagecheck.extent(m)
            covered.update(range(b, e))
    ends = max(covered) + 1
    want, b = [], None
    for i in range(demo["size"] + 1):
        free = i < demo["size"] and i not in covered
        if free and b is None:
            b = i
        if not free and b is not None:
            want.append(("pad" if b >= ends else "hole", b, i))
            b = None
    lines = demo["cachelines"]
    want.append(("beyond", demo["size"], lines * demo["cacheline"]))
    # The page cuts gaps at line boundaries; join them back.
    got = []
    for kind, b, e in sorted(gaps, key=lambda g: g[1]):
        if got and got[-1][0] == kind and got[-1][2] == b:
            got[-1] = (kind, got[-1][1], e)
        else:
            got.append((kind, b, e))
    t.ok(got == want, "holes, padding and the bytes past the end drawn where no member is",
         f"got {got}\nwant {want}")
    grp = page.by_class("g", "grp")
    t.ok([(a["data-group"], a["data-begin"], a["data-end"]) for a, _ in grp] ==
         [(g["name"], str(g["begin"]), str(g["end"])) for g in demo["groups"]],
         "kernel cacheline groups outlined over their bytes",
         [(a, g) for a, _ in grp for g in demo["groups"]])
    flagged = sorted(int(a["data-line"]) for a, _ in page.by_class("g", "flagged"))
    want_lines = sorted({f["cacheline"] for s in doc["structs"] for f in s["findings"]
                         if f["cacheline"] is not None and f["cacheline"] >= 0})
    t.ok(flagged == want_lines, "findings drawn on their lines", f"{flagged} {want_lines}")
    findings_li = page.by_class("li", "finding")
    t.ok(len(findings_li) == sum(len(s["findings"]) for s in doc["structs"]),
         "every finding listed")
    msgs = [f["message"] for s in doc["structs"] for f in s["findings"]]
    t.ok(all(pagecheck.visible(m.encode(errors="surrogateescape")) in text for m in msgs),
         "each finding's message in the page")
    loc = demo["findings"][0]["location"]
    gcc = f"{pagecheck.visible(loc['file'].encode(errors='surrogateescape'))}:{loc['line']}:" \
          f"{loc['column']}: error: {demo['findings'][0]['message']} [mixed-cacheline]"
    t.ok(gcc in text, "findings in gcc's form FILE:LINE:COL: level: message [rule]", gcc)

    # --- --source-url -------------------------------------------------------
    tmpl = "https://src.example/tree/{file}#L{line}"
    r2 = lint(ll, "--format=html", "--source-url", tmpl, "-r", rules, objs["hostile.o"],
              "struct", "html_demo")
    raw2 = r2.stdout.decode()
    p2 = pagecheck.Page(raw2)
    hrefs = [a["href"] for tag, a, _ in p2.elements if tag == "a" and
             not a["href"].startswith("#")]
    t.ok(not p2.errors and hrefs and all(h.startswith("https://src.example/tree/d%22%3E%3Csvg")
                                         for h in hrefs),
         "--source-url: links with the hostile path percent-encoded; none for the rules file",
         [h for h in hrefs if "%22%3E" not in h][:3] + p2.errors)
    fl = doc["structs"][0]["findings"][0]["location"]["line"]
    t.ok(any(h.endswith(f"html.c#L{fl}") for h in hrefs), "--source-url: a finding links its line",
         [h[-20:] for h in hrefs])
    bad = pagecheck.external_references(raw2, p2, allowed_href_prefix="https://src.example/")
    t.ok(not bad, "--source-url: links are the only references out", "\n".join(bad))
    r3 = lint(ll, "--source-url", "https://x/", objs["html.o"], "struct", "html_demo")
    t.ok(r3.returncode == 2 and b"{file}" in r3.stderr, "--source-url without {file}: exit 2",
         r3.stderr)

    # --- --html FILE beside another format ---------------------------------
    out_html = os.path.join(work, "side.html")
    r4 = lint(ll, "--format=json", "--html", out_html, "-r", rules, objs["html.o"], "struct",
              "html_demo")
    r5 = lint(ll, "--format=html", "-r", rules, objs["html.o"], "struct", "html_demo")
    t.ok(r4.returncode == 1 and json.loads(r4.stdout)["structs"][0]["name"] == "html_demo",
         "--html FILE: stdout still the JSON, exit status still gates", r4.stderr)
    t.ok(os.path.exists(out_html) and open(out_html, "rb").read() == r5.stdout,
         "--html FILE holds the same page as --format=html")
    r6 = lint(ll, "--html", out_html + ".list", "--list", objs["html.o"])
    t.ok(r6.returncode == 2 and not os.path.exists(out_html + ".list") and b"--list" in r6.stderr,
         "--html with --list: a usage error, not a silently missing page", r6.stderr)
    bad_path = os.path.join(work, "no-such-dir", "x.html")
    r6 = lint(ll, "--html", bad_path, "-r", rules, objs["html.o"], "struct", "html_demo")
    t.ok(r6.returncode == 2 and not r6.stdout and r6.stderr.count(b"\n") == 1 and
         b"no-such-dir" in r6.stderr, "--html to an unwritable path: one line, exit 2, no output",
         r6.stderr)
    with open(out_html, "w") as f:
        f.write("keep")
    os.chmod(work, 0o555)
    try:
        r7 = lint(ll, "--html", out_html, "-r", rules, objs["html.o"], "struct", "html_demo")
    finally:
        os.chmod(work, 0o755)
    if os.geteuid() != 0:
        t.ok(r7.returncode == 2 and open(out_html).read() == "keep",
             "--html: a page that cannot be written leaves the old file whole")
    else:
        t.ok(True, "# SKIP root ignores directory permissions")

    # Hover titles name the rule, or the group, that tagged the member.
    p5 = pagecheck.Page(r5.stdout.decode())
    hover = {}
    for path, txt in p5.texts:
        if path[-2:] == ["g", "title"] and txt.count("\n") >= 4:
            hover.setdefault(txt.split("\n")[0], txt)
    t.ok("html.rules:5" in hover.get("hot_counter", "") and
         "group demo_read" in hover.get("read_a", "") and
         "\ntype long\n" in hover.get("read_a", "") and   # as C spells it, not "long int"
         "no rule" in hover.get("u_long", "") and
         "offset 40 (line 0 +40), size 8" in hover.get("read_a", ""),
         "hover: offset, size, type, tag and the rule or group that tagged it",
         "\n---\n".join(hover.get(k, "?") for k in ("hot_counter", "read_a", "u_long")))

    # A struct of 50,000 members: no lookup per box may be linear (one per
    # member through the tree took 26 s for 100,000 here).
    big_c = os.path.join(work, "big.c")
    with open(big_c, "w") as f:
        f.write("struct big {\n" + "".join(f"\tchar m{i};\n" for i in range(50000)) +
                "};\nstruct big big;\n")
    big_rules = os.path.join(work, "big.rules")
    with open(big_rules, "w") as f:
        f.write("struct big\n\twrite-hot m1 m*7\n\tread-mostly m2 m*3\n")
    subprocess.run(["gcc", "-g", "-c", "-o", big_c + ".o", big_c], check=True)
    import time
    times = {}
    for fmt in ("json", "html"):
        start = time.monotonic()
        rb = lint(ll, f"--format={fmt}", "-r", big_rules, big_c + ".o", "struct", "big")
        times[fmt] = time.monotonic() - start
    t.ok(rb.returncode == 1 and times["html"] < 3 * times["json"] + 2.0,
         f"50,000 members: html {times['html']:.2f} s, json {times['json']:.2f} s",
         rb.stderr[-300:])

    # --- --cacheline and --line-pairs ----------------------------------------
    r10 = lint(ll, "--format=html", "--cacheline", "128", "-r", rules, objs["html.o"],
               "struct", "html_demo")
    j10 = json.loads(lint(ll, "--format=json", "--cacheline", "128", "-r", rules,
                          objs["html.o"], "struct", "html_demo").stdout)["structs"][0]
    p10 = pagecheck.Page(r10.stdout.decode())
    svg10 = pagecheck.maps(p10)[0][0]
    bad = pagecheck.geometry_problems(p10, j10, 0)
    t.ok(svg10["data-cacheline"] == "128" and float(svg10["data-scale"]) == 6 and not bad and
         len(p10.by_class("g", "row")) == j10["cachelines"] == 2,
         "--cacheline 128: two rows of 128 bytes, boxes at half the scale", bad)
    r11 = lint(ll, "--format=html", "--line-pairs", "-r", rules, objs["html.o"], "struct",
               "html_demo")
    p11 = pagecheck.Page(r11.stdout.decode())
    pairs = [a["data-pair"] for a, _ in p11.by_class("g", "pair")]
    t.ok(pairs == ["0"], "--line-pairs: lines 0-1 bracketed as one 128-byte pair (line 2 "
         "has no partner)", pairs)
    t.ok(not pagecheck.Page(r5.stdout.decode()).by_class("g", "pair"),
         "no pair brackets unless asked")

    # --- --suggest and --against --------------------------------------------
    sug = os.path.join(work, "suggest.html")
    r8 = lint(ll, "--format=html", "--suggest", "-r", rules, objs["html.o"], "struct",
              "html_demo")
    with open(sug, "wb") as f:
        f.write(r8.stdout)
    js = json.loads(lint(ll, "--format=json", "--suggest", "-r", rules, objs["html.o"],
                         "struct", "html_demo").stdout)["structs"][0]
    p8 = pagecheck.Page(r8.stdout.decode())
    t.ok(len(pagecheck.maps(p8)) == 2 and not p8.errors,
         "--suggest: the proposal drawn beside the current layout")
    moved_json = {m["path"] for m in js["suggestion"]["members"] if m["moved"] and m["path"]}
    prop_svg, prop_boxes, _, _ = pagecheck.maps(p8)[1]
    moved_drawn = {g["data-path"] for g in prop_boxes if "moved" in g["class"].split()}
    t.ok(moved_json and moved_json <= moved_drawn, "--suggest: moved members marked",
         f"{moved_json} {moved_drawn}")
    sg = js["suggestion"]
    ba = f"after{sg['size']}{sg['cachelines']}{sg['holes']} ({sg['hole_bytes']} bytes)" \
         f"{sg['findings']}"
    t.ok(ba in p8.text().replace("\n", ""), "--suggest: the before/after line", ba)
    # The proposal's boxes at the suggested offsets, and drawn there at the scale.
    offs = {m["path"]: m for m in sg["members"] if m["path"]}
    badp = []
    scale, x0, cl = float(prop_svg["data-scale"]), float(prop_svg["data-x0"]), js["cacheline"]
    for g, rect in zip(prop_boxes, pagecheck.maps(p8)[1][2]):
        m = offs.get(g["data-path"])
        if m and m.get("bit_offset") is None and m["size"] and \
                int(g["data-offset"]) != m["offset"]:
            badp.append(f"{g['data-path']} drawn at {g['data-offset']}, suggested {m['offset']}")
        b, e = int(g["data-begin"]), int(g["data-end"])
        if abs(float(rect["x"]) - (x0 + (b % cl) * scale)) > 1e-6 or \
                abs(float(rect["width"]) - (e - b) * scale) > 1e-6:
            badp.append(f"{g['data-path']}: bytes {b}-{e} at x={rect['x']} w={rect['width']}")
    t.ok(not badp and len(offs) >= 10, "--suggest: proposal boxes at the suggested offsets",
         "\n".join(badp))
    # Its new findings are compared with --baseline's below: layout-change's
    # included, as a baseline records the layouts it compares.
    r9 = lint(ll, "--format=html", "--against", objs["old.o"], "-r",
              rules, objs["html.o"], "struct", "html_demo")
    p9 = pagecheck.Page(r9.stdout.decode())
    new_li = [a for a, _ in p9.by_class("li", "new")]
    t.ok(new_li and all("new" in a["class"] for a in new_li) and "NEW" in p9.text(),
         "--against: new findings highlighted", r9.stderr)
    moved_rows = p9.by_class("tr", "moved")
    moved_boxes = {a["data-path"] for a in pagecheck.maps(p9)[0][1]
                   if "moved" in a["class"].split()}
    t.ok(moved_rows and "lock" in moved_boxes, "--against: members that moved between lines "
         "listed and marked", moved_boxes)
    # --baseline: the old object's pairs and layouts as a baseline file, the same new findings.
    base = os.path.join(work, "old.baseline")
    rb = lint(ll, "-q", "--write-baseline", base, "-r", rules, objs["old.o"], "struct", "html_demo")
    r10 = lint(ll, "--format=html", "--baseline", base, "-r", rules, objs["html.o"],
               "struct", "html_demo")
    p10 = pagecheck.Page(r10.stdout.decode())
    new10 = [a for a, _ in p10.by_class("li", "new")]
    t.ok(os.path.isfile(base) and r10.returncode == 1 and len(new10) == len(new_li) and
         "NEW" in p10.text(), f"--baseline: the same {len(new_li)} new finding(s) highlighted",
         rb.stderr + r10.stderr)

    # --- a member many lines long: the middle of its run is one short row ------
    big_src = os.path.join(work, "big.c")
    with open(big_src, "w") as f:
        f.write("struct big_demo { long hot; char blob[64 * 1000]; const void *ops; };\n"
                "struct big_demo *big_p;\n")
    big = os.path.join(work, "big.o")
    subprocess.run(["gcc", "-g", "-c", "-o", big, big_src], check=True)
    big_rules = os.path.join(work, "big.rules")
    with open(big_rules, "w") as f:
        f.write("struct big_demo\n\twrite-hot hot\n\tread-mostly ops blob\n")
    r11 = lint(ll, "--format=html", "-r", big_rules, big, "struct", "big_demo")
    p11 = pagecheck.Page(r11.stdout.decode())
    j11 = json.loads(lint(ll, "--format=json", "-r", big_rules, big, "struct",
                          "big_demo").stdout)["structs"][0]
    nlines = j11["cachelines"]
    drawn = sorted(int(a["data-line"]) for a, _ in p11.by_class("g", "row")
                   if "elided" not in a["class"].split())
    elided = [(int(a["data-line"]), int(a["data-last"])) for a, _ in p11.by_class("g", "elided")]
    # blob fills lines 1..999 whole (bytes 64..64063); line 0 (hot, blob's start: a finding)
    # and the last lines stay.
    want = [(2, 998)]
    geo11 = pagecheck.geometry_problems(p11, j11)
    t.ok(not geo11, "the big member's boxes and elided row cover its bytes exactly",
         "\n".join(geo11))
    t.ok(r11.returncode == 1 and not p11.errors and elided == want and
         drawn == [0, 1, 999, 1000, 1001][:nlines - 997] and
         "lines 2-998 (997): inside blob" in p11.text() and len(r11.stdout) < 200000,
         "a member 1000 lines long: lines 2-998 one short row, the others drawn "
         "(%d bytes of page)" % len(r11.stdout),
         "elided %s drawn %s of %d lines\n%s" % (elided, drawn, nlines, "\n".join(p11.errors)))

    # --- in Chromium ---------------------------------------------------------
    if not browser.chromium():
        t.ok(False, "chromium is installed (scripts/deps test installs it)")
        return t.finish()
    page_path = os.path.join(work, "hostile.html")
    with open(page_path, "w", encoding="utf-8") as f:
        f.write(raw)
    res, dom = browser.dump_dom(work, page_path)
    t.ok(res.proc.returncode == 0 and "<main>" in dom, "Chromium renders the page",
         res.proc.stderr.decode(errors="replace")[-2000:])
    dom_page = pagecheck.Page(dom)
    t.ok(all(pagecheck.visible(m.encode(errors="surrogateescape")) in dom_page.text()
             for m in msgs), "rendered DOM holds the findings")
    t.ok(not {"script", "img", "iframe"} & {tag for tag, _, _ in dom_page.elements},
         "no element injected after parsing in the browser")
    t.ok(not res.network, "net log: the page requested nothing", res.network)
    # The same check on a page that does reach out: it must see the requests.
    control = os.path.join(work, "control.html")
    with open(control, "w") as f:
        f.write('<!DOCTYPE html><html><head><link rel="stylesheet" href="http://127.0.0.1:9/a.css">'
                '</head><body><img src="http://127.0.0.1:9/b.png"></body></html>')
    rc, _ = browser.dump_dom(work, control)
    t.ok(len(rc.network) >= 2, "net log check sees the requests of a page that makes them",
         rc.requests)
    rg, boxes = browser.geometry(work, page_path)
    badg = []
    for b in boxes or []:
        want_x = b["x0"] + (b["begin"] % b["cacheline"]) * b["scale"]
        want_w = (b["end"] - b["begin"]) * b["scale"]
        if abs(b["x"] - want_x) > 0.05 or abs(b["w"] - want_w) > 0.05:
            badg.append(f"{b['path']}: {b}")
    t.ok(boxes and not badg, f"after layout in Chromium: {len(boxes or [])} boxes at their "
         "offsets and sizes", "\n".join(badg[:10]))
    png = os.path.join(work, "artifacts", "html-demo-suggest.png")
    rs = browser.screenshot(work, sug, png, size=(1400, 700))
    counts = browser.colour_counts(png) if os.path.exists(png) else {}
    total = sum(counts.values()) or 1
    bg = max(counts, key=counts.get) if counts else None
    near = lambda c: sum(n for px, n in counts.items()  # noqa: E731
                         if all(abs(px[i] - c[i]) <= 6 for i in range(3)))
    t.ok(counts and counts[bg] / total < 0.97 and len(counts) > 20,
         f"screenshot is not blank ({len(counts)} colours)", rs.proc.stderr[-500:])
    t.ok(near((0x9e, 0xcb, 0xff)) > 200 and near((0xff, 0x8f, 0x8f)) > 200,
         "screenshot shows read-mostly and write-hot boxes in their colours")
    t.ok(not rs.network, "screenshot run: no network request", rs.network)
    dark = os.path.join(work, "artifacts", "html-demo-dark.png")
    browser.run(work, sug, ["--force-dark-mode", "--blink-settings=preferredColorScheme=0",
                            f"--screenshot={dark}"], size=(1400, 700))
    dc = browser.colour_counts(dark) if os.path.exists(dark) else {}
    dbg = max(dc, key=dc.get) if dc else (255, 255, 255)
    t.ok(sum(dbg) < 120, f"dark mode: dark background {dbg}")
    pdf = os.path.join(work, "artifacts", "html-demo.pdf")
    rp = browser.run(work, sug, [f"--print-to-pdf={pdf}", "--no-pdf-header-footer"])
    t.ok(os.path.exists(pdf) and os.path.getsize(pdf) > 5000 and not rp.network,
         "prints to PDF", rp.proc.stderr[-500:])
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
