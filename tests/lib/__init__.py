"""The python test runners' one library.

tap      TAP output (meson reads it with protocol: tap)
proc     running a program or the layoutlint binary: exit status, stdout,
         stderr, a time limit, one exception for "could not even run"; git_env()
         for git on a test's own repository; build_id() of an ELF file
runner   a runner's command line (--layoutlint, --workdir, --rules-dir, --jobs
         and its own) and, for a new runner, its whole skeleton: tap_main()
fixture  compiling a C fixture with gcc or clang: DWARF version, optimisation,
         object or executable, cross targets (clang --target=), into a workdir

A runner in tests/SUITE/ or tests/kernel/ imports it with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import Tap, run, Lint, compile_c, parse_args
"""
from .tap import Tap
from .proc import Failure, Timeout, Result, run, Lint, git_env, build_id
from .fixture import compile_c, have, compilers, cflags
from .runner import parse_args, tap_main

__all__ = ["Tap", "Failure", "Timeout", "Result", "run", "Lint", "git_env", "build_id",
           "compile_c", "have", "compilers", "cflags", "parse_args", "tap_main"]
