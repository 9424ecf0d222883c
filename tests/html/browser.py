"""Headless Chromium for the HTML tests: render, dump the DOM, screenshot,
measure boxes after layout, and record every network request it made.

Each call starts a fresh browser with a new profile directory and a net
log; no DevTools client and no pip package is needed.
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars",
         # Nothing leaves the machine even if something asks.
         "--host-resolver-rules=MAP * ~NOTFOUND", "--force-color-profile=srgb", "--force-device-scale-factor=1"]


def chromium():
    return shutil.which("chromium")


class Result:
    def __init__(self, proc, seconds, requests):
        self.proc = proc
        self.seconds = seconds
        self.requests = requests      # (url, initiator) of every request job started

    @property
    def network(self):
        """Requests the page made: Chromium's own (time, updates, accounts) carry
        no initiator origin; anything a page loads carries its origin ("null"
        for a file: page)."""
        return sorted(u for u, init in self.requests if init != "not an origin")


def _netlog_requests(path):
    """(url, initiator) of each URL_REQUEST_START_JOB in Chromium's net log."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return [("<no net log>", None)]
    # Chromium may stop before closing the JSON array: cut at the last event.
    if not text.rstrip().endswith("}"):
        text = text[:text.rfind("},") + 1] + "]}"
    try:
        doc = json.loads(text)
        start_job = doc["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    except (json.JSONDecodeError, KeyError):
        return [("<unreadable net log>", None)]
    return [(e["params"].get("url", ""), e["params"].get("initiator"))
            for e in doc.get("events", [])
            if e.get("type") == start_job and "url" in e.get("params", {})]


def run(workdir, page, extra, timeout=120, size=(1600, 1000)):
    """Chromium on file PAGE with EXTRA flags (--dump-dom, --screenshot=...)."""
    os.makedirs(workdir, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=workdir)
    netlog = os.path.join(profile, "netlog.json")
    cmd = [chromium(), *FLAGS, f"--user-data-dir={profile}", f"--log-net-log={netlog}",
           "--net-log-capture-mode=Everything", f"--window-size={size[0]},{size[1]}",
           *extra, "file://" + os.path.abspath(page)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
    seconds = time.monotonic() - start
    requests = _netlog_requests(netlog)
    shutil.rmtree(profile, ignore_errors=True)
    return Result(proc, seconds, requests)


def dump_dom(workdir, page, **kw):
    r = run(workdir, page, ["--dump-dom", "--virtual-time-budget=2000"], **kw)
    return r, r.proc.stdout.decode("utf-8", errors="replace")


def screenshot(workdir, page, png, **kw):
    return run(workdir, page, [f"--screenshot={os.path.abspath(png)}"], **kw)


# Measure in the browser: a test-only copy of the page gets this script;
# the page itself carries none. Box positions come back in SVG user units
# (rendered pixels divided by the rendered scale of each map).
GEOMETRY_JS = """
<script>
(function () {
  var out = [];
  document.querySelectorAll('svg.lines').forEach(function (svg, mapi) {
    var sr = svg.getBoundingClientRect();
    var vb = svg.viewBox.baseVal;
    var k = sr.width / vb.width;
    svg.querySelectorAll('g.m').forEach(function (g) {
      var r = g.querySelector('rect').getBoundingClientRect();
      out.push({map: mapi, path: g.getAttribute('data-path'),
                begin: +g.getAttribute('data-begin'), end: +g.getAttribute('data-end'),
                x: (r.left - sr.left) / k, w: r.width / k, h: r.height / k,
                scale: +svg.getAttribute('data-scale'), x0: +svg.getAttribute('data-x0'),
                cacheline: +svg.getAttribute('data-cacheline')});
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'layoutlint-geometry';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def geometry(workdir, page, **kw):
    """Every member box's rendered position, as [{path, begin, end, x, w, ...}]."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    copy = os.path.join(workdir, os.path.basename(page) + ".geometry.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", GEOMETRY_JS + "</body>"))
    r, dom = dump_dom(workdir, copy, **kw)
    start = dom.find('<pre id="layoutlint-geometry">')
    if start < 0:
        return r, None
    start = dom.index(">", start) + 1
    end = dom.index("</pre>", start)
    import html
    return r, json.loads(html.unescape(dom[start:end]))


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    p, idat, width = 8, b"", 0
    while p < len(data):
        n, kind = struct.unpack(">I4s", data[p:p + 8])
        body = data[p + 8:p + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"PNG depth {depth} type {ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        p += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def colour_counts(path):
    """{(r, g, b): pixels} of the PNG at PATH."""
    _, _, rows = png_pixels(path)
    counts = {}
    for row in rows:
        for px in row:
            counts[px] = counts.get(px, 0) + 1
    return counts
