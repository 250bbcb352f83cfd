"""The sandbox's limits and switches, set in grader_config.py as `c.Sandbox.<name>`."""
from __future__ import annotations

import os

from traitlets import Bool, Float, Integer, Unicode
from traitlets.config import Configurable

GiB, MiB, KiB = 1 << 30, 1 << 20, 1 << 10


class Sandbox(Configurable):
    """Where and under which limits student code runs during `nbgrader autograde`."""

    memory_bytes: int = Integer(2 * GiB, help="Address-space limit of every process a submission starts (RLIMIT_AS).").tag(config=True)
    max_processes: int = Integer(64, help="Processes a submission may run at once; more kills the submission's run.").tag(config=True)
    cpu_seconds: int = Integer(60, help="CPU seconds per process (RLIMIT_CPU).").tag(config=True)
    file_bytes: int = Integer(64 * MiB, help="Largest file a submission may write (RLIMIT_FSIZE).").tag(config=True)
    scratch_bytes: int = Integer(256 * MiB, help="Size of the private tmpfs behind /tmp, HOME, the submission folder and /dev/shm.").tag(config=True)
    output_bytes: int = Integer(64 * KiB, help="Output kept per cell (stdout, stderr, displays); the rest is dropped.").tag(config=True)
    notebook_bytes: int = Integer(32 * MiB, help="Largest submitted notebook read for grading; a bigger one is recorded as ungradable.").tag(config=True)
    cell_timeout: float = Float(10.0, help="Seconds a cell or a hidden test may run before it is interrupted.").tag(config=True)
    check_timeout: float = Float(2.0, help=(
        "Seconds one call of a hidden test, or a locked cell of the assignment's own (the self-check), may wait on the "
        "student's code. A hidden test is decided by its first failing check, so a call that has not returned fails "
        "the test at once; the student's own cells keep cell_timeout.")).tag(config=True)
    submission_timeout: float = Float(120.0, help="Seconds all of one submission's cells and tests may take together.").tag(config=True)
    workers: int = Integer(0, help=(
        "Submissions graded at once; 0 means one per CPU core. A submission still running after 2 s (a loop waiting "
        "for its timeout) runs at a lower priority and lets one more start beside it, up to three per core."
    )).tag(config=True)
    cluster: str = Unicode("", help=(
        "Address of a Dask distributed scheduler (e.g. tcp://grader.example.org:8786) to grade on instead of local "
        "worker processes; each Dask worker grades in its own sandbox. Empty: the local pool (Dask is not imported)."
    )).tag(config=True)
    allow_unsandboxed: bool = Bool(False, help=(
        "Run student code without bubblewrap and namespaces where they are unavailable. Student code then runs "
        "with your rights and can read the solutions and the gradebook: only for a machine you throw away."
    )).tag(config=True)

    def worker_count(self) -> int:
        """How many submissions to grade at once."""
        return self.workers if self.workers > 0 else (os.cpu_count() or 1)
