"""Compiling a C fixture with the real compilers.

The fixtures are C files; the truth is what gcc or clang make of them, so
the tests compile them at test time with each compiler, DWARF version,
optimisation level and, for clang, foreign targets (--target=), into a
work directory.  A compiler that is missing is the caller's skip, not an
error: have() and compilers() say which are installed.
"""
import os
import shutil

from .proc import Failure, run

COMPILERS = ("gcc", "clang")


def have(tool):
    return shutil.which(tool) is not None


def compilers(wanted=COMPILERS):
    """The compilers of WANTED installed here, in order."""
    return [c for c in wanted if have(c)]


def cflags(dwarf=None, opt=None, target=None, obj=True, std=None, extra=()):
    """The flag list: -gdwarf-N (or plain -g), OPT, --target=, -c, STD, EXTRA."""
    flags = []
    if std:
        flags.append("-std=" + std)
    flags.append("-gdwarf-%s" % dwarf if dwarf else "-g")
    if opt:
        flags.append(opt)
    if target:
        flags.append("--target=" + target)
    if obj:
        flags.append("-c")
    return flags + list(extra)


def compile_c(cc, src, out, dwarf=None, opt=None, target=None, obj=True, std=None,
              extra=(), flags=None, workdir=None, cwd=None, defines=(), timeout=300):
    """Compile SRC (a path or a list of them) with CC into OUT (relative to WORKDIR when
    given; CWD instead runs the compiler there and keeps OUT as given, so the
    paths recorded in the debug info stay relative).  FLAGS,
    when given, is the whole flag list instead of the one cflags() builds.
    Returns OUT's path; raises Failure with the compiler's stderr."""
    if workdir:
        os.makedirs(workdir, exist_ok=True)
        out = os.path.join(workdir, out)
    if flags is None:
        flags = cflags(dwarf, opt, target, obj, std, extra)
    srcs = [src] if isinstance(src, str) else list(src)
    cmd = [cc, *flags, *["-D" + d for d in defines], *srcs, "-o", out]
    p = run(cmd, cwd=cwd, timeout=timeout)
    if p.rc != 0:
        raise Failure("%s failed (exit %d):\n%s" % (" ".join(cmd), p.rc, p.err.strip()))
    return out
