#!/usr/bin/env python3
"""bench/row.py — one markdown row of bench/run's table.

Usage: row.py LABEL LT LA [PT PA]...
LT: layoutlint's median seconds, then each peer's (pahole 1.24, the newer
pahole, drgn, gdb: as many as the table has columns for; "-": not run);
LA/PA: "RSS_KB ok|incomplete ANSWERED/ASKED" from bench/run's answer().
A peer whose answer was incomplete gets its time and the count, never a
ratio: timing half an answer says nothing about the whole one.
"""
import sys


def tool(t, a):
    if t == "-":
        return None
    rss, verdict, count = a.split()
    return float(t), int(rss), verdict == "ok", count


def cells(peer, ours):
    if peer is None:
        return ["-", "-", "not installed"]
    t, rss, ok, count = peer
    cell = [f"{t * 1000:.0f} ms", f"{rss / 1024:.0f} MB"]
    if not ok:
        return cell + [f"incomplete answer ({count}), no ratio"]
    if not ours[2]:
        return cell + ["-"]
    r = t / ours[0]
    return cell + [f"{r:.0f}x" if r >= 10 else f"{r:.2f}x"]


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        print("usage: row.py LABEL LT LA [PT PA]...", file=sys.stderr)
        return 2
    label, lt, la = sys.argv[1:4]
    ours = tool(lt, la)
    mine = f"{ours[0] * 1000:.0f} ms" + ("" if ours[2] else f" (incomplete: {ours[3]})")
    out = [label, mine, f"{ours[1] / 1024:.0f} MB"]
    peers = sys.argv[4:]
    for i in range(0, len(peers), 2):
        out += cells(tool(peers[i], peers[i + 1]), ours)
    print("| " + " | ".join(out) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
