"""Per-student scores read from the nbgrader gradebook (None where a grade is still pending)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import MissingEntry

from autograde.results.gradebook_access import open_gradebook


@dataclass
class StudentScores:
    """One student's scores for one notebook, keyed by grade_id."""

    student: str
    scores: dict[str, float | None] = field(default_factory=dict)
    """grade_id → points; None when the cell still needs manual grading."""
    auto_comments: dict[str, str] = field(default_factory=dict)


def read_scores(root: Path, assignment: str, notebook: str) -> list[StudentScores]:
    """Every student with a submission of `notebook` in the gradebook of the course at `root`, sorted by id."""
    rows = []
    with open_gradebook(root) as gradebook:
        for student in sorted(gradebook.students, key=lambda s: s.id):
            try:
                submission = gradebook.find_submission_notebook(notebook, assignment, student.id)
            except MissingEntry:
                continue
            row = StudentScores(student.id)
            for grade in submission.grades:
                row.scores[grade.name] = None if grade.needs_manual_grade else grade.score
            for comment in submission.comments:
                if comment.auto_comment:
                    row.auto_comments[comment.name] = comment.auto_comment
            rows.append(row)
    return rows
