"""TAP output for the python test runners (meson reads it with protocol: tap)."""
import sys


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, desc, diag=""):
        """One test point; DIAG (first 40 lines, each cut at 400) when it fails."""
        self.n += 1
        self.failed += not cond
        print(f"{'ok' if cond else 'not ok'} {self.n} - {desc}")
        if not cond and diag:
            for line in str(diag).splitlines()[:40]:
                print(f"# {line[:400]}")
        sys.stdout.flush()
        return cond

    def finish(self):
        print(f"1..{self.n}")
        return 1 if self.failed else 0
