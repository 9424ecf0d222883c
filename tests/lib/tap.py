"""TAP output for the python test runners (meson reads it with protocol: tap).

One test point per ok()/skip(); the plan ("1..N") comes last, from finish(),
so a runner need not know its count in advance.  A failing point prints its
diagnostic as "# " lines under it, cut to a readable size: enough to see why
without burying the next point.
"""
import sys


class Tap:
    def __init__(self, diag_lines=60, diag_width=400, out=None):
        """DIAG_LINES/DIAG_WIDTH bound a failure's diagnostic (None: no bound)."""
        self.n = 0
        self.failed = 0
        self.diag_lines = diag_lines
        self.diag_width = diag_width
        self.out = out or sys.stdout

    def _print(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def diag(self, diag):
        """DIAG (a string or a list of lines) as TAP comments, bounded."""
        lines = diag if isinstance(diag, (list, tuple)) else str(diag).splitlines()
        lines = [str(ln) for ln in lines]
        shown = lines if self.diag_lines is None else lines[:self.diag_lines]
        for line in shown:
            self._print("# " + (line if self.diag_width is None else line[:self.diag_width]))
        if len(shown) < len(lines):
            self._print("# ... and %d more lines" % (len(lines) - len(shown)))

    def ok(self, cond, desc, diag=""):
        """One test point; DIAG explains it when COND is false.  Returns COND."""
        cond = bool(cond)
        self.n += 1
        self.failed += not cond
        self._print(f"{'ok' if cond else 'not ok'} {self.n} - {desc}")
        if not cond and diag:
            self.diag(diag)
        return cond

    def skip(self, desc, why):
        """A test point that could not run here (a missing tool), said so."""
        self.n += 1
        self._print(f"ok {self.n} - {desc} # SKIP {why}")

    def comment(self, text):
        for line in str(text).splitlines() or [""]:
            self._print("# " + line)

    def skip_all(self, why):
        """The whole runner cannot run here: an empty plan with the reason."""
        self._print(f"1..0 # SKIP {why}")
        return 0

    def bail(self, why):
        """Stop: the runner itself cannot go on (meson counts it a failure)."""
        self._print(f"Bail out! {why}")
        return 1

    def finish(self):
        """The plan; the runner's exit status (1 if any point failed)."""
        self._print(f"1..{self.n}")
        return 1 if self.failed else 0
