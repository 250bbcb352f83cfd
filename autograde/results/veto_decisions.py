"""Veto decisions taken on the grading page, in a table of the gradebook's own database (safe for graders on several
machines), and how they combine with overrides.yaml.

A decision is saved only if the one in the table is still the one the grader saw (compare-and-set in one statement,
or an insert the primary key refuses when someone else's came first), so two graders never overwrite each other
unseen. overrides.yaml, edited and reviewed by hand, wins where both decide; the report lists each disagreement.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    Text,
    and_,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.orm import Session

from autograde.results.gradebook_access import open_gradebook
from autograde.results.overrides import DECISIONS, FILENAME, Override
from autograde.veto.finding import VETO_IDS

UNDECIDED = "undecided"
PAGE = "the grading page"
"""Where a decision from the table comes from, as the report names it."""
REASON = "decided on the {question} grading page by {grader}"
METADATA = MetaData()
VETO_DECISIONS = Table(
    "autograde_veto_decision", METADATA,
    Column("assignment", String(128), primary_key=True),
    Column("student", String(128), primary_key=True),
    Column("veto", String(64), primary_key=True),
    Column("decision", String(16), nullable=False),
    Column("reason", Text, nullable=False),
    Column("grader", String(128), nullable=False),
    Column("decided_at", DateTime, nullable=False),
)
"""One row per (assignment, student, veto id), as overrides.yaml has one entry per (student, veto id)."""


@dataclass(frozen=True)
class Disagreement:
    """overrides.yaml and the grading page decide the same veto differently (overrides.yaml wins)."""

    in_file: Override
    on_page: Override


def ensure_table(engine: Engine) -> None:
    """Create the table if it is missing (two servers doing so at once is fine)."""
    try:
        with engine.begin() as connection:
            METADATA.create_all(connection, checkfirst=True)
    except (IntegrityError, ProgrammingError, OperationalError):
        if not inspect(engine).has_table(VETO_DECISIONS.name):  # else another server created it after our check
            raise


def read_page_decisions(session: Session, assignment: str, students: Collection[str]) -> dict[tuple[str, str], Override]:
    """(student, veto id) → the page's decision, for known students and veto ids; undecided rows left out."""
    if not inspect(session.connection()).has_table(VETO_DECISIONS.name):
        return {}
    rows = session.execute(select(VETO_DECISIONS).where(VETO_DECISIONS.c.assignment == assignment)).all()
    return {(row.student, row.veto): Override(row.student, row.veto, row.decision, row.reason, PAGE) for row in rows
            if row.student in students and row.veto in VETO_IDS and row.decision in DECISIONS}


def current_decision(session: Session, assignment: str, student: str, veto: str) -> str:
    """The page's decision on one veto now ("undecided" without a row)."""
    found = session.execute(select(VETO_DECISIONS.c.decision).where(and_(
        VETO_DECISIONS.c.assignment == assignment, VETO_DECISIONS.c.student == student,
        VETO_DECISIONS.c.veto == veto))).scalar()
    return found or UNDECIDED


def set_decision(session: Session, assignment: str, student: str, veto: str, expected: str, value: str,
                 reason: str, grader: str) -> str | None:
    """Set one decision if the table still holds `expected`; None when saved, else the decision found instead.
    The caller commits."""
    key = and_(VETO_DECISIONS.c.assignment == assignment, VETO_DECISIONS.c.student == student,
               VETO_DECISIONS.c.veto == veto)
    values = {"decision": value, "reason": reason, "grader": grader, "decided_at": datetime.now(UTC).replace(tzinfo=None)}
    changed = session.execute(update(VETO_DECISIONS).where(key, VETO_DECISIONS.c.decision == expected).values(**values))
    if changed.rowcount == 1:
        return None
    if expected == UNDECIDED:
        try:
            with session.begin_nested():
                session.execute(VETO_DECISIONS.insert().values(assignment=assignment, student=student, veto=veto, **values))
            return None
        except IntegrityError:
            pass  # another grader's row came first
    found = current_decision(session, assignment, student, veto)
    return None if found == value else found


def combined(in_file: Mapping[tuple[str, str], Override], on_page: Mapping[tuple[str, str], Override]
             ) -> tuple[dict[tuple[str, str], Override], list[Disagreement]]:
    """Both sources' decisions, overrides.yaml winning, and where the two disagree."""
    disagreements = [Disagreement(in_file[key], decision) for key, decision in on_page.items()
                     if key in in_file and in_file[key].decision != decision.decision]
    return {**on_page, **in_file}, disagreements


def disagreement_line(found: Disagreement) -> str:
    """The report's to-do line for one disagreement."""
    return (f"{found.in_file.student}/{found.in_file.veto}: {FILENAME} says {found.in_file.decision}, {PAGE} says "
            f"{found.on_page.decision} ({found.on_page.reason}); {FILENAME} wins: remove its entry to use the page's")


def load_page_decisions(root: Path, assignment: str, students: Collection[str]) -> dict[tuple[str, str], Override]:
    """The grading page's decisions for an assignment, from the gradebook of the course at `root`."""
    with open_gradebook(root) as gradebook:
        return read_page_decisions(gradebook.db, assignment, students)
