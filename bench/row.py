#!/usr/bin/env python3
"""bench/row.py — one markdown row of bench/run's table.

Usage: row.py LABEL LT LA PT PA DT DA
LT/PT/DT: layoutlint's, pahole's and drgn's median seconds ("-": not run);
LA/PA/DA: "RSS_KB ok|incomplete ANSWERED/ASKED" from bench/run's answer().
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
    label, lt, la, pt, pa, dt, da = sys.argv[1:]
    ours = tool(lt, la)
    mine = f"{ours[0] * 1000:.0f} ms" + ("" if ours[2] else f" (incomplete: {ours[3]})")
    out = [label, mine, f"{ours[1] / 1024:.0f} MB"] + cells(tool(pt, pa), ours) + \
        cells(tool(dt, da), ours)
    print("| " + " | ".join(out) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
