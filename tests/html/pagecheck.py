"""Checks of a layoutlint HTML page shared by the fixture and kernel tests:
strict parse, no external reference, and each member box's geometry in
the SVG against the offsets --format=json reports for the same run."""
import html.parser
import re

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# SVG elements the page writes self-closed.
SELF_CLOSED = {"rect", "path", "line"}


class Page(html.parser.HTMLParser):
    """Every element with its attributes and text, the nesting checked strictly."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.errors = []
        self.stack = []
        self.elements = []        # (tag, attrs dict, [ancestors' classes])
        self.texts = []           # (tag path, text)
        self.current = []         # open elements as (tag, attrs)
        self.member_rows = []     # (data-offset, first cell's text) of <tr data-offset>
        self._row = None
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed at end: {self.stack}")

    def handle_starttag(self, tag, attrs):
        names = [a for a, _ in attrs]
        if len(names) != len(set(names)):
            self.errors.append(f"duplicate attribute in <{tag}>: {names}")
        d = dict(attrs)
        self.elements.append((tag, d, [a.get("class", "") for _, a in self.current]))
        if tag == "tr" and "data-offset" in d:
            self._row = [int(d["data-offset"]), "", 0]
        elif tag == "td" and self._row and self._row[2] == 0:
            self._row[2] = 1
        if tag not in VOID:
            self.stack.append(tag)
            self.current.append((tag, d))

    def handle_startendtag(self, tag, attrs):
        d = dict(attrs)
        self.elements.append((tag, d, [a.get("class", "") for _, a in self.current]))
        if tag not in VOID and tag not in SELF_CLOSED:
            self.errors.append(f"<{tag}/> is not a void element")

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"end tag of void <{tag}>")
            return
        if tag == "td" and self._row and self._row[2] == 1:
            self.member_rows.append((self._row[1], self._row[0]))
            self._row = None
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        self.current.pop()

    def handle_data(self, data):
        if self._row and self._row[2] == 1:
            self._row[1] += data
        self.texts.append(([t for t, _ in self.current], data))

    def text(self):
        return "".join(t for _, t in self.texts)

    def by_class(self, tag, cls):
        return [(a, anc) for t, a, anc in self.elements
                if t == tag and cls in a.get("class", "").split()]


def external_references(raw, page, allowed_href_prefix=None):
    """What in the page could reach outside the file: a list of problems."""
    bad = []
    for m in re.finditer(r"https?://|@import|url\((?!#hatch\))|<link|<script|<iframe|<object"
                         r"|<embed|<img|javascript:", raw, re.I):
        ctx = raw[max(0, m.start() - 40):m.end() + 40]
        if allowed_href_prefix and raw.startswith(allowed_href_prefix, m.start()) and \
           raw[max(0, m.start() - 6):m.start()] == 'href="':
            continue
        bad.append(ctx)
    for tag, attrs, _ in page.elements:
        for k, v in attrs.items():
            if k.startswith("on") or k in ("src", "srcset", "background", "action", "formaction"):
                bad.append(f"<{tag} {k}={v!r}>")
            if k in ("href", "xlink:href") and not (v.startswith("#") or (
                    allowed_href_prefix and v.startswith(allowed_href_prefix))):
                bad.append(f"<{tag} {k}={v!r}>")
    return bad


def shown(s, raw_names=()):
    """A string of --format=json as the page shows it. JSON turns bytes that
    are not UTF-8 into U+FFFD; RAW_NAMES are the byte strings planted in the
    binary, put back where their JSON form appears."""
    parts = [s]
    for raw in raw_names:
        form = raw.decode("utf-8", errors="replace")
        parts = [x for p in parts for x in _split_keep(p, form, raw)]
    return "".join(visible(p) if isinstance(p, bytes) else
                   visible(p.encode("utf-8")) for p in parts)


def _split_keep(p, form, raw):
    if isinstance(p, bytes) or form not in p:
        return [p]
    out = []
    pieces = p.split(form)
    for i, piece in enumerate(pieces):
        if i:
            out.append(raw)
        out.append(piece)
    return out


def visible(name):
    """NAME (bytes) as the page shows it: control and non-UTF-8 bytes as \\xNN."""
    out = []
    s = name.decode("utf-8", errors="surrogateescape")
    for ch in s:
        o = ord(ch)
        if 0xdc80 <= o <= 0xdcff:
            out.append("\\x%02x" % (o - 0xdc00))
        elif o < 0x20 or o == 0x7f:
            out.append("\\x%02x" % o)
        elif 0x80 <= o <= 0x9f or 0x200b <= o <= 0x200f or 0x202a <= o <= 0x202e or \
                0x2066 <= o <= 0x2069 or o == 0xfeff:
            out.append("\\u{%x}" % o)
        else:
            out.append(ch)
    return "".join(out)


def walk(members):
    for m in members:
        yield m
        yield from walk(m["members"])


def extent(m):
    """Bytes [begin, end) of a member, bitfields widened to whole bytes."""
    if m["bit_offset"] is not None:
        return m["bit_offset"] // 8, (m["bit_offset"] + m["bit_size"] + 7) // 8
    return m["offset"], m["offset"] + m["size"]


def maps(page):
    """The maps of the page: [(svg attrs, [box attrs], [box rect attrs], [gap attrs])]."""
    out = []
    cur = None
    for tag, attrs, anc in page.elements:
        if tag == "svg" and "lines" in attrs.get("class", "").split():
            cur = (attrs, [], [], [])
            out.append(cur)
        elif cur is not None and tag == "g" and attrs.get("class", "").startswith("gap "):
            cur[3].append(attrs)
        elif cur is not None and tag == "g" and attrs.get("class", "").split()[:1] == ["m"]:
            cur[1].append(attrs)
        elif cur is not None and tag == "rect" and anc and \
                anc[-1].split()[:1] == ["m"]:
            cur[2].append(attrs)
    return out


def elided_rows(page, map_index=0):
    """The elided rows of map MAP_INDEX: [(member path, first line, last line)]."""
    out, k = [], -1
    for tag, attrs, _ in page.elements:
        if tag == "svg" and "lines" in attrs.get("class", "").split():
            k += 1
        elif k == map_index and tag == "g" and "elided" in attrs.get("class", "").split():
            out.append((attrs.get("data-path", ""), int(attrs["data-line"]),
                        int(attrs["data-last"])))
    return out


def geometry_problems(page, struct_json, map_index=0):
    """Each box of map MAP_INDEX at its offset and size at the declared scale,
    and every sized leaf member of STRUCT_JSON covered exactly by its boxes."""
    bad = []
    svg, boxes, rects, _ = maps(page)[map_index]
    scale, x0 = float(svg["data-scale"]), float(svg["data-x0"])
    cl = int(svg["data-cacheline"])
    if cl != struct_json["cacheline"]:
        bad.append(f"map cacheline {cl}, JSON {struct_json['cacheline']}")
    if len(boxes) != len(rects):
        return [f"{len(boxes)} boxes but {len(rects)} rects"]
    segs = {}
    for g, r in zip(boxes, rects):
        b, e = int(g["data-begin"]), int(g["data-end"])
        x, w = float(r["x"]), float(r["width"])
        if abs(x - (x0 + (b % cl) * scale)) > 1e-6 or abs(w - (e - b) * scale) > 1e-6:
            bad.append(f"{g['data-path']}: bytes {b}-{e} drawn at x={x} w={w}, scale {scale}")
        if b // cl != (e - 1) // cl:
            bad.append(f"{g['data-path']}: one box crosses a line ({b}-{e})")
        segs.setdefault(g["data-path"], []).append((b, e))
    # A run of lines one member fills, drawn as one short row: those lines are its bytes.
    for path, first, last in elided_rows(page, map_index):
        segs.setdefault(path, []).append((first * cl, (last + 1) * cl))
    members = {m["path"]: m for m in walk(struct_json["members"]) if m["path"]}
    for path, ss in segs.items():
        m = members.get(path)
        if not m:
            bad.append(f"box {path!r} is no member of the struct")
            continue
        ss.sort()
        merged = [ss[0]]
        for b, e in ss[1:]:
            if b != merged[-1][1]:
                merged.append((b, e))
            else:
                merged[-1] = (merged[-1][0], e)
        if merged != [extent(m)]:
            bad.append(f"{path}: boxes cover {merged}, member is {extent(m)}")
    drawn = set(segs)
    for m in walk(struct_json["members"]):
        b, e = extent(m)
        if not m["path"] or e == b or m["members"]:
            continue
        if not any(m["path"] == d or m["path"].startswith(d + ".") for d in drawn):
            bad.append(f"leaf {m['path']} ({b}-{e}) has no box")
    return bad
