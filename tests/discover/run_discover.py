#!/usr/bin/env python3
"""--list, --contains and --audit on a fixture with known answers (TAP)."""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutlint", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    n = failed = 0

    def ok(cond, desc, diag=""):
        nonlocal n, failed
        n += 1
        failed += not cond
        print(f"{'ok' if cond else 'not ok'} {n} - {desc}")
        if not cond:
            for line in str(diag).splitlines():
                print(f"# {line}")

    def run(*args):
        p = subprocess.run([a.layoutlint, *args], capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    for cc in ("gcc", "clang"):
        obj = os.path.join(a.workdir, f"discover-{cc}.o")
        subprocess.run([cc, "-g", "-c", "-o", obj, os.path.join(HERE, "discover.c")], check=True)

        rc, out, err = run("--list=disc_*", obj)
        rows = [l.split() for l in out.splitlines()[1:]]
        names = [r[1] for r in rows]
        ok(rc == 0 and names == ["disc_clean", "disc_host", "disc_hot", "disc_inner", "disc_mild",
                                 "disc_union"], f"{cc}: --list=disc_* lists exactly the disc_ aggregates",
           out + err)
        by_name = {r[1]: r for r in rows}
        ok(by_name.get("disc_hot", [None] * 5)[2:5] == ["80", "2", "1"]
           and by_name.get("disc_union", [None])[0] == "union",
           f"{cc}: --list rows carry kind, size, cachelines, holes", out)
        rc, out, err = run("--list=no_such_*", obj)
        ok(rc == 2 and "no struct or union matches" in err, f"{cc}: --list with no match exits 2", err)

        rc, out, err = run("--contains", "disc_inner", obj)
        got = sorted(l.split(":")[0] + ":" + l.split()[4] for l in out.splitlines())
        ok(rc == 0 and got == ["struct disc_host:arr", "struct disc_host:inner",
                               "struct disc_host:nested.deep", "union disc_union:in"],
           f"{cc}: --contains disc_inner finds by-value members at every depth, not pointers",
           out + err)

        rc, out, err = run("--audit", "disc_*", obj)
        ranked = [l.split()[2].rstrip(":") for l in out.splitlines() if not l.startswith("#")]
        ok(rc == 0 and ranked == ["disc_hot", "disc_mild"],
           f"{cc}: --audit ranks the two-line offender first and leaves the clean one out",
           out + err)
        ok(out.startswith("# heuristic"), f"{cc}: --audit says it is a heuristic", out)
        hot = [l for l in out.splitlines() if "disc_hot" in l]
        ok(hot and hot[0].split()[0] == "2" and "ops with lock" in hot[0] and "ops2 with refs" in hot[0],
           f"{cc}: --audit names the members on each mixed line", out)

        rc, out, err = run("--list", "--audit", "x", obj)
        ok(rc == 2, f"{cc}: --list and --audit together are a usage error", err)
    # Completion: --list leaves a name index that the bash completion reads.
    exe = os.path.join(a.workdir, "discover-exe")
    subprocess.run(["gcc", "-g", "-Wl,--build-id", "-o", exe, os.path.join(HERE, "discover.c"),
                    "-xc", "-", "-o", exe], input="int main(void){return 0;}", text=True,
                   check=True)
    cache = os.path.join(a.workdir, "cache")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = subprocess.run([a.layoutlint, "--list", exe], capture_output=True, text=True, env=env)
    comp = os.path.join(HERE, "..", "..", "completions", "layoutlint.bash")
    script = (f"source {comp}; COMP_WORDS=(layoutlint {exe} struct disc_h); COMP_CWORD=3; "
              "_layoutlint; echo ${COMPREPLY[@]}")
    q = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env)
    ok(p.returncode == 0 and sorted(q.stdout.split()) == ["disc_host", "disc_hot"],
       "bash completion offers struct names from the index --list wrote",
       p.stderr + q.stdout + q.stderr)
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
