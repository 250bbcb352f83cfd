"""Put ParallelAutograde under `nbgrader autograde` (called from grader_config.py)."""
from __future__ import annotations

import nbgrader
from nbgrader.apps import autogradeapp

SUPPORTED_NBGRADER = "0.9."


def use_parallel_autograde() -> None:
    """Make `nbgrader autograde` build ParallelAutograde instead of nbgrader's serial Autograde.

    nbgrader 0.9 has no setting for the converter class: AutogradeApp.start() instantiates the
    name `Autograde` from its own module, so that name is pointed at the subclass. The command also ends as soon
    as its work is written (quick_exit).
    """
    if not nbgrader.__version__.startswith(SUPPORTED_NBGRADER):
        raise RuntimeError(f"grader_config.py: the sandboxed autograde supports nbgrader {SUPPORTED_NBGRADER}x, "
                           f"this is {nbgrader.__version__}; pin nbgrader==0.9.6 (pyproject.toml)")
    from autograde.grading.parallel_autograde import ParallelAutograde
    from autograde.grading.quick_exit import exit_when_done

    autogradeapp.Autograde = ParallelAutograde
    autogradeapp.AutogradeApp.start = exit_when_done(autogradeapp.AutogradeApp.start)
