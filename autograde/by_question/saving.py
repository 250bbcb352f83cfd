"""The grading page's writes: scores and comments into nbgrader's own gradebook rows (as formgrader writes them),
veto decisions into the decisions table; each saved only if it still holds what the grader saw.

nbgrader's rows have no version column, so each write is a compare-and-set in one UPDATE (`… WHERE id = :row AND
manual_score IS :seen`): on PostgreSQL a second grader's UPDATE waits for the first one's row lock and then finds the
row changed; on SQLite the database lock does the same. A change that finds another value comes back as a conflict
with the value found, and the page lets the grader choose. Rows are changed in id order, so two graders' group saves
cannot deadlock.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from nbgrader.api import Comment, Grade, Gradebook
from sqlalchemy import case, select, update
from sqlalchemy.orm import Session

from autograde.results.veto_decisions import (
    DECISIONS,
    REASON,
    UNDECIDED,
    ensure_table,
    set_decision,
)
from autograde.veto.finding import VETO_IDS

COMMENT_CHARS = 10_000
MAX_CHANGES = 10_000
"""Most changes one request may carry (a group is a part of one class)."""


class InvalidChange(ValueError):
    """A change the page cannot have sent (unknown row, value out of range); nothing of its request is saved."""


@dataclass(frozen=True)
class Change:
    """Set `target` (a Grade or Comment row id, or "student/veto id") from `expected` (what the grader saw) to `value`."""

    target: str
    expected: Any
    value: Any


@dataclass
class Outcome:
    """What a request saved, and each change that found another value than the one expected."""

    saved: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"saved": self.saved, "conflicts": self.conflicts}


def _same(column: Any, value: Any) -> Any:
    """SQL: the column holds `value` (NULL included)."""
    return column.is_(None) if value is None else column == value


def _apply(session: Session, changes: Sequence[Change], write: Callable[[Change], tuple[Any] | None]) -> Outcome:
    """Run `write` (None when saved, else the value found) for each change in target order, in one transaction."""
    if len(changes) > MAX_CHANGES:
        raise InvalidChange(f"at most {MAX_CHANGES} changes per request")
    outcome = Outcome()
    try:
        for change in sorted(changes, key=lambda c: c.target):
            found = write(change)
            if found is None:
                outcome.saved.append({"target": change.target, "value": change.value})
            else:
                outcome.conflicts.append({"target": change.target, "yours": change.value, "current": found[0]})
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return outcome


def checked_score(value: Any, low: float = -math.inf, high: float = math.inf) -> float | None:
    """A score as the page sends it: none, or a number from `low` to `high`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high or math.isnan(value):
        raise InvalidChange(f"a score is a number from {low:g} to {high:g}")
    return float(value)


def save_scores(gradebook: Gradebook, cell_id: str, max_score: float, changes: Sequence[Change]) -> Outcome:
    """Set manual scores of the question's Grade rows (and needs_manual_grade, as formgrader's API does)."""
    session = gradebook.db

    def write(change: Change) -> tuple[float | None] | None:
        value, expected = checked_score(change.value, 0, max_score), checked_score(change.expected)
        row = (Grade.id == change.target) & (Grade.cell_id == cell_id)
        needs = case((Grade.auto_score.is_(None), True), else_=False) if value is None else False
        if session.execute(update(Grade).where(row, _same(Grade.manual_score, expected))
                           .values(manual_score=value, needs_manual_grade=needs)).rowcount == 1:
            return None
        current = session.execute(select(Grade.manual_score).where(row)).one_or_none()
        if current is None:
            raise InvalidChange(f"no score {change.target} for this question")
        return None if current[0] == value else (current[0],)

    return _apply(session, changes, write)


def checked_comment(value: Any) -> str | None:
    """A comment the page may save: none, or text of at most COMMENT_CHARS characters (empty is none)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > COMMENT_CHARS:
        raise InvalidChange(f"a comment is text of at most {COMMENT_CHARS} characters")
    return value


def save_comments(gradebook: Gradebook, cell_id: str, changes: Sequence[Change]) -> Outcome:
    """Set manual comments of the question's Comment rows."""
    session = gradebook.db

    def write(change: Change) -> tuple[str | None] | None:
        value, expected = checked_comment(change.value), checked_comment(change.expected)
        row = (Comment.id == change.target) & (Comment.cell_id == cell_id)
        if session.execute(update(Comment).where(row, _same(Comment.manual_comment, expected))
                           .values(manual_comment=value)).rowcount == 1:
            return None
        current = session.execute(select(Comment.manual_comment).where(row)).one_or_none()
        if current is None:
            raise InvalidChange(f"no comment {change.target} for this question")
        return None if (current[0] or None) == value else (current[0],)

    return _apply(session, changes, write)


def save_decisions(gradebook: Gradebook, assignment: str, question: str, students: Collection[str],
                   changes: Sequence[Change], grader: str) -> Outcome:
    """Set veto decisions ("student/veto id" targets) of students who answered the question."""
    session = gradebook.db
    ensure_table(gradebook.engine)

    def write(change: Change) -> tuple[str] | None:
        student, _, veto = change.target.rpartition("/")
        allowed = (UNDECIDED, *DECISIONS)
        if student not in students or veto not in VETO_IDS or change.value not in allowed or change.expected not in allowed:
            raise InvalidChange(f"a decision is one of {', '.join(allowed)} on a veto id of a student who answered")
        found = set_decision(session, assignment, student, veto, change.expected, change.value,
                             REASON.format(question=question, grader=grader), grader)
        return None if found is None else (found,)

    return _apply(session, changes, write)
