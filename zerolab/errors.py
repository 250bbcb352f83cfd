"""Errors the lab reports to people: each message is one line that says what went wrong and what to do."""
from __future__ import annotations

import signal
from collections.abc import Sequence

RAISED = "rank {rank} failed{where}: {cause}"
EXITED = "rank {rank} {how} before reporting a result{where}; its own output above says why"
TIMED_OUT = "rank(s) {ranks} still running after the {deadline:g} s deadline; raise --timeout or look for a hang"


class LabError(Exception):
    """An error for people: one line naming the fix, shown without a traceback (exit status 2)."""


class RankFailed(LabError):
    """One spawned rank crashed, died or overran the deadline; the run was stopped."""

    def __init__(self, message: str, *, at_startup: bool) -> None:
        super().__init__(message)
        self.at_startup = at_startup
        """True when it happened before every rank had joined the process group (worth one retry)."""

    @staticmethod
    def _where(at_startup: bool) -> str:
        return " while joining the process group" if at_startup else ""

    @classmethod
    def raised(cls, rank: int, cause: str, *, at_startup: bool) -> RankFailed:
        """A rank raised an exception; `cause` is its one-line description."""
        return cls(RAISED.format(rank=rank, where=cls._where(at_startup), cause=cause), at_startup=at_startup)

    @classmethod
    def exited(cls, rank: int, exitcode: int | None, *, at_startup: bool) -> RankFailed:
        """A rank's process ended (signal or exit code) without sending its result."""
        if exitcode is not None and exitcode < 0:
            name = signal.Signals(-exitcode).name
            how = f"was killed by {name}" + (" (out of memory?)" if name == "SIGKILL" else "")
        else:
            how = f"exited with code {exitcode}"
        return cls(EXITED.format(rank=rank, how=how, where=cls._where(at_startup)), at_startup=at_startup)

    @classmethod
    def timed_out(cls, ranks: Sequence[int], deadline_s: float, *, at_startup: bool) -> RankFailed:
        """Some ranks were still running when the parent's deadline passed."""
        return cls(TIMED_OUT.format(ranks=", ".join(map(str, ranks)), deadline=deadline_s), at_startup=at_startup)
