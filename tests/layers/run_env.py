#!/usr/bin/env python3
"""The environment is read in one place: cli/options.c's read_env() (TAP).

Below cli/ a variable arrives as a value (struct options' env,
ll_prove_opts, util/tuning.h), so that a layer's behaviour is what its
caller passed, and the fuzzers and unit tests set it without setenv().
Every LAYOUTLINT_* variable read there is documented in the man page's
ENVIRONMENT.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import tap_main  # noqa: E402

GETENV = re.compile(r"\b(?:secure_)?getenv\s*\(")
READER = os.path.join("src", "cli", "options.c")


def sources(root):
    for top, _, files in os.walk(os.path.join(root, "src")):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                path = os.path.join(top, f)
                yield os.path.relpath(path, root), open(path, errors="replace").read()


def code(text):
    """TEXT without its comments, so that one saying "getenv()" is no call."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def test(tap, a):
    tap.ok(GETENV.search('x = getenv("HOME");') and not GETENV.search("ll_getenvironment(x)"),
           "the pattern finds a call (and only a call)")
    calls = {path: GETENV.findall(code(text)) for path, text in sources(a.source_root)}
    elsewhere = sorted(p for p, c in calls.items() if c and p != READER)
    tap.ok(calls.get(READER) and not elsewhere,
           "getenv() is called in %s only" % READER, "also in: %s" % ", ".join(elsewhere))
    text = code(open(os.path.join(a.source_root, READER)).read())
    body = re.search(r"\nstatic void read_env\([^)]*\)\n\{\n(.*?)\n\}\n", text, re.S)
    outside = GETENV.findall(text.replace(body.group(1), "")) if body else ["no read_env()"]
    tap.ok(body and not outside, "in it, read_env() alone calls getenv()", outside)
    man = open(os.path.join(a.source_root, "man", "layoutlint.1")).read()
    env = re.search(r"\n\.SH ENVIRONMENT\n(.*?)\n\.SH ", man, re.S)
    names = sorted(set(re.findall(r'getenv\("(LAYOUTLINT_\w+)"\)', text)))
    missing = [n for n in names if not env or ".B " + n not in env.group(1)]
    tap.ok(names and not missing, "the man page's ENVIRONMENT documents %s" % ", ".join(names),
           "missing: %s" % ", ".join(missing))


if __name__ == "__main__":
    tap_main(test, source_root=dict(required=True), doc=__doc__)
