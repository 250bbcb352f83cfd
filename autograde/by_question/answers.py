"""What grading one question needs: every submitted answer with its gradebook rows, its veto candidates and their
decisions, and the question's prompt and rubric key points from the source notebook.

Everything a student wrote (answers, evidence, ids) is data here: texts are bounded, ids only name rows and
folders (a folder outside autograded/ is never read), and nothing is turned into markup.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nbgrader.api import (
    Comment,
    Grade,
    Gradebook,
    GradeCell,
    MissingEntry,
    SolutionCell,
    SubmittedAssignment,
    SubmittedNotebook,
)
from nbgrader.coursedir import CourseDirectory

from autograde.assignment_spec import AssignmentSpec
from autograde.building.grading_view import cut
from autograde.grading.preprocessors.record_vetoes import VETOES_FILE
from autograde.grading.submitted_folders import UnreadableNotebook, parse_notebook, read_submitted_text
from autograde.results.overrides import (
    FILENAME,
    Override,
    OverridesError,
    load_overrides,
)
from autograde.results.ungradable import load_ungradable
from autograde.results.veto_decisions import UNDECIDED, combined, read_page_decisions

ANSWER_CHARS = 50_000
"""Longest answer shown (LayOutForGrading's default: the autograded notebook is already cut there)."""
EVIDENCE_CHARS = 2_000
NOTEBOOK_BYTES = 32 << 20
"""Largest autograded notebook read (c.Sandbox.notebook_bytes' default)."""
UNREADABLE = "[the autograded notebook cannot be read: {reason}]"
NO_ANSWER_CELL = "[no {question} cell in the autograded notebook]"
OUTSIDE = UNREADABLE.format(reason="this student id names a folder outside autograded/")
_MARK_SCHEME = re.compile(r"^### BEGIN MARK SCHEME\n(?P<body>.*?)^### END MARK SCHEME", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^#{1,6} .*\n+")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


class QuestionUnavailable(ValueError):
    """The question cannot be graded by question (unknown, or not in the gradebook yet); one line for people."""


@dataclass(frozen=True)
class VetoCandidate:
    """One veto id the checks found in this answer, with its evidence and what has been decided about it."""

    id: str
    evidence: str
    decision: str = UNDECIDED
    decided_in: str = ""
    """Where the decision stands: overrides.yaml or the grading page ("" while undecided)."""
    also_in: tuple[str, ...] = ()
    """Other cells of the same student where the checks found this id (one decision covers them all)."""


@dataclass(frozen=True)
class Answer:
    """One student's answer to the question and its gradebook rows."""

    student: str
    grade: str
    """nbgrader's Grade row id (the score)."""
    comment: str
    """nbgrader's Comment row id."""
    score: float | None
    comment_text: str
    text: str
    vetoes: tuple[VetoCandidate, ...] = ()


@dataclass(frozen=True)
class QuestionAnswers:
    """One question of one assignment across the class."""

    assignment: str
    question: str
    max_points: float
    prompt: str
    rubric_title: str
    rubric: tuple[str, ...]
    answers: tuple[Answer, ...]
    notes: tuple[str, ...] = ()
    """What the grader should know about the inputs (an overrides.yaml that cannot be read)."""


def rubric_points(source: Mapping[str, str], question: str) -> tuple[str, tuple[str, ...]]:
    """(the rubric's title line, its key points) from the source notebook's `rubric_<question>` cell."""
    text = source.get(f"rubric_{question}", "")
    found = _MARK_SCHEME.search(text)
    title = _BOLD.findall(text[:found.start()] if found else text) or (text[:found.start()] if found else text).strip().splitlines()
    points: list[str] = []
    for line in (found["body"] if found else "").splitlines():
        if line.startswith("- "):
            points.append(line[2:].strip())
        elif line.strip() and points:
            points[-1] += " " + line.strip()
    return (title[0] if title else ""), tuple(points)


def source_cells(path: Path) -> dict[str, str]:
    """grade id → source of the source notebook's cells, and `prompt_<id>` → the cell before each graded answer."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found: dict[str, str] = {}
    for before, cell in zip([None, *cells], cells):
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id:
            found[grade_id] = "".join(cell["source"])
            if before is not None:
                found[f"prompt_{grade_id}"] = _HEADING.sub("", "".join(before["source"]), count=1).strip()
    return found


@lru_cache(maxsize=1024)
def _answer_cells(path: str, _changed: tuple[int, int]) -> dict[str, str] | str:
    """grade id → source of each graded markdown cell of an autograded notebook, or why it cannot be read (cached
    per file version: (mtime_ns, size))."""
    try:
        notebook = parse_notebook(Path(path).name, read_submitted_text(Path(path), NOTEBOOK_BYTES))
    except UnreadableNotebook as error:
        return UNREADABLE.format(reason=error)
    return {cell.metadata.nbgrader["grade_id"]: cell.source for cell in notebook.cells
            if cell.cell_type == "markdown" and cell.metadata.get("nbgrader", {}).get("grade_id")}


def answer_text(folder: Path, notebook: str, question: str) -> str:
    """The student's answer as the autograded notebook holds it, bounded; a bracketed note when it cannot be read."""
    path = folder / f"{notebook}.ipynb"
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return UNREADABLE.format(reason="no such file; run nbgrader autograde")
    cells = _answer_cells(str(path), (info.st_mtime_ns, info.st_size))
    if isinstance(cells, str):
        return cells
    return cut(cells[question], ANSWER_CHARS) if question in cells else NO_ANSWER_CELL.format(question=question)


def veto_candidates(folder: Path, question: str, decisions: Mapping[str, Override]) -> tuple[VetoCandidate, ...]:
    """The veto ids found in this answer (vetoes.json), each with its evidence and decision."""
    try:
        found = json.loads((folder / VETOES_FILE).read_text(encoding="utf-8"))["vetoes"]
    except (OSError, ValueError, KeyError, TypeError):
        return ()
    cells: dict[str, list[str]] = {}
    evidence: dict[str, str] = {}
    for veto in found:
        cells.setdefault(veto["id"], []).append(str(veto.get("cell", "")))
        if veto.get("cell") == question:
            evidence.setdefault(veto["id"], cut(str(veto["evidence"]), EVIDENCE_CHARS, "…"))
    return tuple(VetoCandidate(veto, text, *((decisions[veto].decision, decisions[veto].source) if veto in decisions
                                             else (UNDECIDED, "")),
                               tuple(sorted(set(cells[veto]) - {question}))) for veto, text in evidence.items())


def question_cells(gradebook: Gradebook, assignment: str, notebook: str, question: str) -> tuple[GradeCell, SolutionCell]:
    """The question's grade cell (scores) and solution cell (comments) in the gradebook; QuestionUnavailable if absent."""
    try:
        return (gradebook.find_grade_cell(question, notebook, assignment),
                gradebook.find_solution_cell(question, notebook, assignment))
    except MissingEntry:
        raise QuestionUnavailable(f"{assignment}/{notebook}: no graded answer cell '{question}' in the gradebook; run "
                                  f"`nbgrader generate_assignment {assignment}` and `nbgrader autograde {assignment}`") from None


def gradebook_rows(gradebook: Gradebook, assignment: str, notebook: str, question: str) -> tuple[float, list[tuple]]:
    """(the question's points, [(student, Grade, Comment)] by student id); QuestionUnavailable when not there."""
    grade_cell, solution_cell = question_cells(gradebook, assignment, notebook, question)
    rows = (gradebook.db.query(SubmittedAssignment.student_id, Grade, Comment)
            .join(SubmittedNotebook, Grade.notebook_id == SubmittedNotebook.id)
            .join(SubmittedAssignment, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
            .join(Comment, (Comment.notebook_id == SubmittedNotebook.id) & (Comment.cell_id == solution_cell.id))
            .filter(Grade.cell_id == grade_cell.id)
            .order_by(SubmittedAssignment.student_id))
    return grade_cell.max_score, rows.all()


def decisions_by_student(root: Path, gradebook: Gradebook, assignment: str, students: list[str]
                         ) -> tuple[dict[str, dict[str, Override]], tuple[str, ...]]:
    """student → veto id → decision (overrides.yaml winning over the page), and notes on a broken overrides.yaml."""
    notes: tuple[str, ...] = ()
    try:  # the file may also decide for students the report lists as ungradable
        in_file = load_overrides(root / FILENAME, [*students, *load_ungradable(assignment, root)])
    except OverridesError as error:
        in_file, notes = {}, (f"{error} (its decisions are not shown until it is fixed)",)
    decided, _ = combined(in_file, read_page_decisions(gradebook.db, assignment, students))
    by_student: dict[str, dict[str, Override]] = {}
    for (student, veto), override in decided.items():
        by_student.setdefault(student, {})[veto] = override
    return by_student, notes


def load_question(course: CourseDirectory, gradebook: Gradebook, spec: AssignmentSpec, question: str) -> QuestionAnswers:
    """Every submitted answer to `question`, with what the grader needs beside it."""
    if question not in {answer.grade_id for answer in spec.answers}:
        known = ", ".join(answer.grade_id for answer in spec.answers)
        raise QuestionUnavailable(f"{spec.assignment} has no manually graded question '{question}'; use one of {known}")
    root, notebook = Path(course.root), spec.notebook.removesuffix(".ipynb")
    max_points, rows = gradebook_rows(gradebook, spec.assignment, notebook, question)
    decided, notes = decisions_by_student(root, gradebook, spec.assignment, [student for student, _, _ in rows])
    source = source_cells(Path(course.format_path(course.source_directory, ".", spec.assignment)) / spec.notebook)
    autograded = (root / course.autograded_directory).resolve()
    answers = []
    for student, grade, comment in rows:
        folder = Path(course.format_path(course.autograded_directory, student, spec.assignment))
        inside = folder.resolve().is_relative_to(autograded)  # an id like "../x" added by hand names no other folder
        answers.append(Answer(student, grade.id, comment.id, grade.manual_score, comment.manual_comment or "",
                              answer_text(folder, notebook, question) if inside else OUTSIDE,
                              veto_candidates(folder, question, decided.get(student, {})) if inside else ()))
    gradebook.db.commit()  # end the read transaction: no snapshot or lock is held between requests
    title, points = rubric_points(source, question)
    return QuestionAnswers(spec.assignment, question, max_points, source.get(f"prompt_{question}", ""), title, points,
                           tuple(answers), notes)
