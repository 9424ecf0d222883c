"""Running a program (most often the layoutlint binary) from a test runner.

Every run has a time limit (timeout=None only for a whole-vmlinux pahole
dump), captures stdout and stderr as text (undecodable bytes replaced, so
a damaged input cannot crash the runner; no newline translation, so a
stray carriage return stays visible) and returns Result(rc, out, err).  Not being able to run at all, or running past the
limit, raises Failure (Timeout for the latter), which a runner turns into a
failed test point naming the command.
"""
import collections
import json
import os
import re
import subprocess


class Failure(Exception):
    """A step a test point depends on went wrong; the message says which."""


class Timeout(Failure):
    pass


class Result(collections.namedtuple("Result", "rc out err")):
    """Exit status and both streams; unpacks as (rc, out, err)."""
    __slots__ = ()

    @property
    def returncode(self):
        return self.rc

    @property
    def stdout(self):
        return self.out

    @property
    def stderr(self):
        return self.err


def describe(cmd):
    return " ".join(str(c) for c in cmd)


def run(cmd, cwd=None, timeout=120, check=False, env=None, input=None,
        extra_env=None, none_on_timeout=False, stdout=None, binary=False, **popen):
    """Run CMD (a list); Result.  CHECK: a non-zero exit raises Failure with
    its stderr.  ENV replaces the environment; EXTRA_ENV adds to it.
    NONE_ON_TIMEOUT: running past TIMEOUT returns None instead of raising
    Timeout, for runners whose assertion is "finished in time".  STDOUT (an
    open file) takes the output instead of memory, for dumps of a whole
    vmlinux; Result.out is then empty.  BINARY: out and err stay bytes, for
    a caller that must see invalid UTF-8 as an error of its own.  POPEN:
    more of subprocess.run's keywords (preexec_fn, start_new_session)."""
    if extra_env:
        env = dict(os.environ if env is None else env, **extra_env)
    if isinstance(input, str):
        input = input.encode()
    try:
        p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, input=input,
                           stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, **popen)
    except subprocess.TimeoutExpired:
        if none_on_timeout:
            return None
        raise Timeout("timed out after %ds: %s" % (timeout, describe(cmd)))
    except OSError as e:
        raise Failure("cannot run %s: %s" % (cmd[0], e))
    out = p.stdout or b""
    err = p.stderr
    if not binary:
        out = out.decode("utf-8", "replace")
        err = err.decode("utf-8", "replace")
    if check and p.returncode != 0:
        raise Failure("%s exited %d:\n%s" % (describe(cmd), p.returncode,
                                            p.stderr.decode("utf-8", "replace").strip()))
    return Result(p.returncode, out, err)


class Lint:
    """The layoutlint binary under test, with fixed leading arguments
    (e.g. --color=never) and a working directory."""

    def __init__(self, tool, cwd=None, args=(), timeout=120, env=None, extra_env=None,
                 none_on_timeout=False):
        self.tool = os.path.abspath(tool)
        self.cwd = cwd
        self.args = list(args)
        self.timeout = timeout
        self.env = env
        self.extra_env = extra_env
        self.none_on_timeout = none_on_timeout

    def run(self, *args, timeout=None, cwd=None, input=None, extra_env=None, env=None,
            check=False):
        """Result of layoutlint ARGS (see run() for the keywords)."""
        more = dict(self.extra_env or {}, **(extra_env or {}))
        return run([self.tool, *self.args, *args], cwd=cwd or self.cwd,
                   timeout=timeout or self.timeout, input=input, check=check,
                   env=env if env is not None else self.env, extra_env=more or None,
                   none_on_timeout=self.none_on_timeout)

    __call__ = run

    def json(self, *args, **kw):
        """(rc, parsed stdout, stderr); unparsable output becomes
        {"error": ...} so the caller's assertion fails and shows it."""
        rc, out, err = self.run(*args, **kw)
        try:
            return rc, json.loads(out), err
        except ValueError as e:
            return rc, {"error": f"not JSON: {e}: {out[:200]}"}, err


def git_env(**more):
    """os.environ for git on a tree of the test's own: without GIT_DIR,
    GIT_WORK_TREE and GIT_INDEX_FILE (hooks export them, and a test
    repository must not use another's index), with MORE added."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
    env.update(more)
    return env


def build_id(path):
    """The GNU build-id of the ELF file PATH in hex (readelf -n), or None."""
    m = re.search(r"Build ID:\s*([0-9a-f]+)", run(["readelf", "-n", "--wide", path]).out)
    return m.group(1) if m else None
