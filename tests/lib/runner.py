"""A runner's command line and its run, the same for every suite.

meson passes each runner the same few options (tests/meson.build):
--layoutlint BINARY, --workdir DIR, --rules-dir DIR, --jobs N.  parse_args()
declares them by name, as OPTIONS below spell them, plus what a runner
adds; tap_main() is the whole skeleton of a new runner:

    def test(tap, a):
        obj = compile_c("gcc", SRC, "x.o", workdir=a.workdir)
        rc, out, err = Lint(a.layoutlint).run(obj, "struct", "x")
        tap.ok(rc == 0 and "x" in out, "struct x is listed", err)

    if __name__ == "__main__":
        tap_main(test, "layoutlint", "workdir", doc=__doc__)
"""
import argparse
import os
import sys

from .proc import Failure
from .tap import Tap

# The usual options, by name: argparse's add_argument keywords.
OPTIONS = {
    "layoutlint": dict(required=True, help="the layoutlint binary under test"),
    "workdir": dict(required=True, help="where the runner writes what it makes"),
    "rules-dir": dict(required=True, help="the repository's rules/ directory"),
    "jobs": dict(type=int, default=2, help="parallel jobs (make -j, compilers)"),
}


def parse_args(*names, doc=None, argv=None, **more):
    """The parsed command line: --NAME for each of NAMES as OPTIONS spells it,
    then each keyword of MORE (rules_dir= is --rules-dir) as its dict of
    add_argument keywords, over OPTIONS' when it names one of them
    (workdir=dict(required=False)); a dict's "aliases" (a tuple) adds short
    names (-j).  DOC (the runner's __doc__) gives --help its first line."""
    ap = argparse.ArgumentParser(description=doc.strip().splitlines()[0] if doc else None)
    wanted = [(n, {}) for n in names] + [(k.replace("_", "-"), v) for k, v in more.items()]
    for name, kw in wanted:
        kw = dict(OPTIONS.get(name, {}), **kw)
        ap.add_argument("--" + name, *kw.pop("aliases", ()), **kw)
    return ap.parse_args(argv)


def tap_main(test, *names, doc=None, tap=None, **more):
    """A runner's whole run: parse_args(NAMES, DOC, MORE), the workdir made when
    there is one, TEST(tap, args) (TAP: a Tap, default Tap()); a Failure
    out of TEST is a failed point naming it.  Exits with the plan's
    status."""
    a = parse_args(*names, doc=doc, **more)
    if getattr(a, "workdir", None):
        os.makedirs(a.workdir, exist_ok=True)
    tap = tap or Tap()
    try:
        test(tap, a)
    except Failure as e:
        tap.ok(False, "the runner went on to the end", str(e))
    sys.exit(tap.finish())
