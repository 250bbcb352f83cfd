"""`nbgrader export` writing a CSV a spreadsheet reads as data: quoted fields, formula-like cells made text."""
from __future__ import annotations

import csv
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import CsvExportPlugin

from autograde.untrusted.shown import for_spreadsheet

COLUMNS = ("assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
           "late_submission_penalty", "score", "max_score")
"""nbgrader's own columns, in its order."""


class SpreadsheetSafeCsvExport(CsvExportPlugin):
    """nbgrader's CSV export (same columns and rows), written with the csv module and OWASP's formula escaping:
    nbgrader writes fields unquoted, so a comma in a name shifts columns and an id like `=HYPERLINK(…)` runs."""

    def export(self, gradebook: Gradebook) -> None:
        """Write one row per assignment and student to `self.to` (grades.csv by default)."""
        students, assignments = {str(s) for s in self.student}, {str(a) for a in self.assignment}
        with open(self.to or "grades.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(COLUMNS)
            for assignment in gradebook.assignments:
                if assignments and assignment.name not in assignments:
                    continue
                for student in gradebook.students:
                    if not students or student.id in students:
                        row = _row(gradebook, assignment, student)
                        writer.writerow(["" if row[key] is None else for_spreadsheet(row[key]) for key in COLUMNS])


def _row(gradebook: Gradebook, assignment: Any, student: Any) -> dict[str, Any]:
    """One student's scores for one assignment, as nbgrader computes them (no submission: zero)."""
    row = {"assignment": assignment.name, "duedate": assignment.duedate, "student_id": student.id,
           "last_name": student.last_name, "first_name": student.first_name, "email": student.email,
           "max_score": assignment.max_score}
    try:
        submission = gradebook.find_submission(assignment.name, student.id)
    except MissingEntry:
        return row | {"timestamp": "", "raw_score": 0.0, "late_submission_penalty": 0.0, "score": 0.0}
    penalty = submission.late_submission_penalty
    return row | {"timestamp": submission.timestamp, "raw_score": submission.score, "late_submission_penalty": penalty,
                  "score": max(0.0, submission.score - penalty)}
