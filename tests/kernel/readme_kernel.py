#!/usr/bin/env python3
"""README's "In a kernel tree" walkthrough and its pre-commit snippet, run
as written on the real 6.12 tree.

usage: readme_kernel.py --workdir DIR

The commands are read from README.md, not copied here: the first code block
of "In a kernel tree: the commit hook, step by step" is run line by line
in bash (one shell, `set -e`), from the top of a clone of this repository
(git clone of HEAD: what a user has), with HOME in WORKDIR (so ~/linux and
`git config --global` stay there). Three departures, each because the
machine is shared, each checked otherwise:
  - `scripts/install` gets a PREFIX in WORKDIR instead of /usr/local (and
    RULES= points there): the machine's /usr/local is not replaced; that
    PREFIX/bin is put first on PATH, as /usr/local/bin is;
  - the apt-get line runs only when one of its packages is missing
    (another agent may hold apt's lock; scripts/deps installs the rest);
  - the pre-commit snippet's `repo:` is the clone's path and `rev:` its
    HEAD (the README's comment allows a commit); that the README's tag
    exists and offers the hook is checked on its own.
Then, as the README goes on: moving f_pos next to f_op and running the
README's `git commit -qam ...` line is refused (exit 1) with the lines the
README shows (commit hashes and the object count aside); a comment-only
change commits; with the plain hook removed ("one, not both") the
README's .pre-commit-config.yaml, `git add -f` and `pre-commit install`
refuse the same move through the framework. WORKDIR's tree is deleted at
the end (about 3 GB). Skips when the source cannot be fetched.
"""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
from lib import Tap, parse_args, run  # noqa: E402
from kernel_common import fetch_source  # noqa: E402

FS_H = "include/linux/fs.h"


def section(text, title):
    """The README section that starts with TITLE, up to the next ## heading."""
    m = re.search(r"^## " + re.escape(title) + r".*?$(.*?)(?=^## )", text, re.M | re.S)
    return m.group(1) if m else ""


def blocks(text):
    """The fenced code blocks of TEXT, in order: (info string, body)."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S)


def move_f_pos(path):
    """bench/hook's edit: f_pos next to f_op, private_data in its place."""
    with open(path) as f:
        t = f.read()
    pos = re.search(r"^\tloff_t\t+f_pos;\n", t, re.M).group(0)
    priv = re.search(r"^\tvoid\t+\*private_data;\n", t, re.M).group(0)
    t = t.replace(pos, "@POS@", 1).replace(priv, "", 1).replace("@POS@", priv, 1)
    op = re.search(r"^\tconst struct file_operations\t+\*f_op;\n", t, re.M)
    t = t[:op.end()] + pos + t[op.end():]
    os.unlink(path)	# the tree may share the file with the pristine source
    with open(path, "w") as f:
        f.write(t)


def normal(line):
    """A README output line without what changes from run to run: hashes, counts."""
    line = re.sub(r"\((HEAD|[0-9a-f]{7,40})\b[^)]*\)", "(REV)", line)
    line = re.sub(r"[0-9a-f]{7,40}", "REV", line)
    return re.sub(r"of the \d+ built object", "of the N built object", line)


def main():
    a = parse_args("workdir", doc=__doc__)
    t = Tap()
    with open(os.path.join(TOP, "README.md")) as f:
        readme = f.read()
    walk = section(readme, "In a kernel tree")
    code = blocks(walk)
    snippet = [b for info, b in blocks(section(readme, "pre-commit")) if info == "yaml"]
    if not t.ok(len(code) >= 2 and snippet, "README: the walkthrough's commands, its commit "
                "and the pre-commit snippet are found", walk[:2000]):
        return t.finish()
    if not fetch_source("6.12"):
        t.skip_all("cannot fetch the 6.12 source with scripts/fetch-kernel")
        return t.finish()
    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    home, prefix, clone = (os.path.join(work, d) for d in ("home", "prefix", "layoutlint"))
    os.makedirs(home)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "LAYOUTLINT"))}
    env.update(HOME=home, PATH=f"{prefix}/bin:{env.get('PATH', '/usr/bin:/bin')}",
               PRE_COMMIT_HOME=os.path.join(work, "pre-commit-home"))
    r = run(["git", "clone", "-q", TOP, clone], env=env, timeout=600)
    if not t.ok(r.rc == 0, "git clone of this repository", r.err):
        return t.finish()

    # The walkthrough, line by line in one shell.
    lines = []
    for ln in code[0][1].splitlines():
        cmd = ln.split("  #")[0].rstrip() if "  #" in ln else ln.rstrip()
        if not cmd:
            continue
        if cmd == "scripts/install":
            cmd = f"scripts/install {prefix}"
        elif cmd.startswith("RULES=/usr/local/"):
            cmd = f"RULES={prefix}/" + cmd[len("RULES=/usr/local/"):]
        elif cmd.startswith("apt-get install"):
            pkgs = cmd.split()[3:]
            missing = [p for p in pkgs if run(["dpkg-query", "-W", "-f=${Status}", p],
                                                 env=env).out.find("install ok installed") < 0]
            if not missing:
                t.comment(f"skipped (all installed): {cmd}")
                continue
        lines.append(cmd)
    script = "set -euo pipefail\n" + "".join(
        f"echo '+ {c.replace(chr(39), '')}' >&2\n{c}\n" for c in lines)
    t0 = time.monotonic()
    r = run(["bash", "-c", script], cwd=clone, env=env, timeout=5400)
    took = time.monotonic() - t0
    tree = os.path.join(home, "linux")
    t.ok(r.rc == 0 and os.path.islink(os.path.join(tree, ".git", "hooks", "pre-commit")),
         f"README's walkthrough runs as written, to the hook's symbolic link ({took:.0f} s)",
         f"exit {r.rc}\n{r.err[-4000:]}")
    t.comment(f"the walkthrough: {took:.0f} s")
    if r.rc != 0:
        shutil.rmtree(work, ignore_errors=True)
        return t.finish()

    # "Now move f_pos up next to f_op ... and commit:" the README's own command line.
    shown = [ln for ln in code[1][1].splitlines()]
    commit = [ln[2:] for ln in shown if ln.startswith("$ ")]
    move_f_pos(os.path.join(tree, FS_H))
    t0 = time.monotonic()
    r = run(["bash", "-c", commit[0]], cwd=tree, env=env, timeout=1800)
    took = time.monotonic() - t0
    got = [normal(x) for x in (r.err + r.out).splitlines()]
    missing = []
    for want in shown:
        if want.startswith("$ ") or want.strip() == "...":
            continue
        # "..." in a shown line stands for what the README leaves out.
        w = re.compile("".join(".*" if p == "..." else re.escape(p)
                               for p in re.split(r"(\.\.\.)", normal(want))) + "$")
        if not any(w.match(g) for g in got):
            missing.append(want)
    t.ok(r.rc == 1 and not missing,
         f"README's `{commit[0]}` after moving f_pos: refused (exit 1) with the lines the README "
         f"shows ({took:.0f} s)", f"exit {r.rc}\nnot found: {missing}\n--- got\n{r.err}\n{r.out}")
    run(["git", "checkout", "-q", "HEAD", "--", FS_H], cwd=tree, env=env)

    # "A comment-only change commits."
    with open(os.path.join(tree, FS_H)) as f:
        text = f.read()
    os.unlink(os.path.join(tree, FS_H))
    with open(os.path.join(tree, FS_H), "w") as f:
        f.write(text.replace("struct file {", "/* a comment */\nstruct file {", 1))
    r = run(["git", "commit", "-qam", "fs: a comment"], cwd=tree, env=env, timeout=1800)
    t.ok(r.rc == 0, "a comment-only change commits", f"exit {r.rc}\n{r.err[-3000:]}")

    # The pre-commit framework, installed as README's "pre-commit" section says.
    tag = re.search(r"^\s*rev:\s*(\S+)", snippet[0], re.M)
    tag = tag.group(1) if tag else ""
    # A clone of one branch (CI's) has no tags: then the README's tag cannot be
    # looked at here, and the hook file of this commit stands in for it.
    has_tag = tag and run(["git", "rev-parse", "-q", "--verify", f"{tag}^{{commit}}"],
                          cwd=TOP, env=env).rc == 0
    if tag and not has_tag and not run(["git", "tag", "-l"], cwd=TOP, env=env).out.strip():
        t.skip(f"README's rev: {tag}", "this clone has no tags at all (a single-branch clone)")
        hooks = run(["git", "show", "HEAD:.pre-commit-hooks.yaml"], cwd=TOP, env=env)
        t.ok(hooks.rc == 0 and "id: layoutlint-kernel" in hooks.out,
             "HEAD's .pre-commit-hooks.yaml offers the layoutlint-kernel hook", hooks.err)
    else:
        hooks = run(["git", "show", f"{tag}:.pre-commit-hooks.yaml"], cwd=TOP, env=env)
        t.ok(tag and hooks.rc == 0 and "id: layoutlint-kernel" in hooks.out,
             f"README's rev: {tag} exists here and offers the layoutlint-kernel hook", hooks.err)
    if not shutil.which("pre-commit"):
        t.skip("the pre-commit framework", "pre-commit is not installed")
    else:
        head = run(["git", "rev-parse", "HEAD"], cwd=clone, env=env).out.strip()
        yaml = re.sub(r"^(\s*-?\s*repo:\s*)\S+", rf"\g<1>{clone}", snippet[0], count=1,
                      flags=re.M)
        yaml = re.sub(r"^(\s*rev:\s*)\S+", rf"\g<1>{head}", yaml, count=1, flags=re.M)
        os.unlink(os.path.join(tree, ".git", "hooks", "pre-commit"))	# one, not both
        with open(os.path.join(tree, ".pre-commit-config.yaml"), "w") as f:
            f.write(yaml)
        r = run(["bash", "-c", "git add -f .pre-commit-config.yaml && "
                 "git commit -qm 'pre-commit configuration' && pre-commit install"],
                cwd=tree, env=env, timeout=900)
        ok = t.ok(r.rc == 0, "README's snippet, git add -f, pre-commit install", r.err[-3000:])
        if ok:
            move_f_pos(os.path.join(tree, FS_H))
            r = run(["git", "commit", "-qam", "fs: f_pos next to f_op"], cwd=tree, env=env,
                    timeout=1800)
            t.ok(r.rc != 0 and "error: cacheline 0 of struct file mixes" in r.out + r.err and
                 "f_pos" in r.out + r.err and "installed twice" not in r.out + r.err,
                 "through the framework the same move is refused, once",
                 f"exit {r.rc}\n{r.out[-3000:]}\n{r.err[-3000:]}")
    shutil.rmtree(work, ignore_errors=True)
    return t.finish()


if __name__ == "__main__":
    sys.exit(main())
