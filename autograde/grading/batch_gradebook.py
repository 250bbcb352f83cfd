"""One open gradebook for the whole batch in the grading process, handed to the preprocessors that record results.

nbgrader's recording preprocessors each open (and close) a new Gradebook, and so a new SQLAlchemy engine whose
statement cache starts empty: about 0.2 s per submission, which would make the one process allowed to write the
slowest part of a parallel batch. The same writes through one session take a few milliseconds.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from nbgrader.api import Gradebook

SHARED_KEY = "gradebook"
"""resources["autograde"][SHARED_KEY]: the batch's open Gradebook, set by ParallelAutograde in the grading process."""


@contextmanager
def gradebook_in(resources: dict[str, Any]) -> Iterator[Gradebook]:
    """The batch's open gradebook when the grading process passed one, else a fresh one closed after use."""
    shared = resources.get("autograde", {}).get(SHARED_KEY)
    if shared is not None:
        yield shared
        return
    with Gradebook(resources["nbgrader"]["db_url"]) as gradebook:
        yield gradebook


@contextmanager
def one_transaction(gradebook: Gradebook) -> Iterator[None]:
    """Record one submission atomically: nbgrader's commits (one per cell) become flushes, then one commit at the end.

    SQLite syncs the disk at every commit (about 10 ms here), so this is most of the time a submission takes to record;
    and a submission whose recording fails leaves nothing half-written in the gradebook.
    """
    session = gradebook.db
    session.commit = session.flush  # an attribute of the scoped session, shadowing its commit until we are done
    try:
        yield
    except BaseException:
        session.rollback()
        raise
    finally:
        del session.commit
    session.commit()
