"""Write student submissions from the release notebook and a YAML table of what each student did.

Used for the bundled examples (examples/submissions) and the grading tests; each row of the table
fills the five blanks (or leaves them), adds code around them, edits or deletes cells, answers
Q1-Q3, or breaks the file in a way real submissions break.
"""
from __future__ import annotations

import copy
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from nbformat.notebooknode import NotebookNode

from autograde.yaml_data import read_yaml

BLANK = "______"
CORRECT_BLANKS = (
    "params_bf16 + grads_bf16 + opt_fp32 / dp + extra",
    "params_bf16 + (grads_bf16 + opt_fp32) / dp + extra",
    "(params_bf16 + grads_bf16 + opt_fp32) / dp + extra",
    "2 * num_params",
    "3 * num_params",
)


@dataclass
class MockSubmission:
    """One student's submission as described in the table."""

    student: str
    why: str
    blanks: dict[int, str] = field(default_factory=dict)
    """Blank number (1-5, in source order) → the expression the student wrote; unlisted blanks are correct."""
    replace: dict[str, str] = field(default_factory=dict)
    """Literal edits applied to the filled code cell (e.g. to the given FP32 line)."""
    prepend: str = ""
    append: str = ""
    answers: dict[str, str] = field(default_factory=dict)
    edit_cells: dict[str, str] = field(default_factory=dict)
    delete_cells: list[str] = field(default_factory=list)
    raw_text: str | None = None
    """Write this text instead of a notebook (broken JSON)."""
    missing: bool = False
    """Submit the folder without the notebook."""
    extra_cells: list[str] = field(default_factory=list)
    """Code cells the student added right after the code cell."""
    duplicate_cells: list[str] = field(default_factory=list)
    """Grade ids of cells pasted a second time right after themselves (metadata and all)."""
    cell_metadata: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Grade id → nbgrader metadata fields the student changed (e.g. `grade: true` on the code cell)."""
    notebook_metadata: dict[str, Any] = field(default_factory=dict)
    """Fields added to the notebook's own metadata."""
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    """Other entries of the submission folder: name → {text: …} | {link: target} | {fifo: ""}; the notebook's own
    name with {link: …} or {fifo: ""} puts that in place of the notebook."""
    expect: dict[str, Any] = field(default_factory=dict)
    """What grading should find (per-test points, ungradable, vetoes); read by the tests."""


def load_table(path: Path) -> list[MockSubmission]:
    """Read the YAML list of submissions, or a class given as answers and how many gave each (`class_table`)."""
    rows = read_yaml(path)
    return class_table(rows) if isinstance(rows, dict) else [MockSubmission(**row) for row in rows]


def class_table(described: dict[str, Any]) -> list[MockSubmission]:
    """`size` students named by `student`, each question's answers dealt out in a shuffled order (`seed`): every
    answer `times` times, with the `score` and veto `decisions` a grader gives it kept in `expect`."""
    size = int(described["size"])
    rows = [MockSubmission(described["student"].format(number=number), why="a student of the class",
                           expect={"scores": {}, "decisions": {}}) for number in range(size)]
    for question, variants in described["answers"].items():
        given = [variant for variant in variants for _ in range(int(variant["times"]))]
        if len(given) != size:
            raise ValueError(f"{question}: the answers' `times` add up to {len(given)}, not the class size {size}")
        random.Random(f"{described.get('seed', 0)}-{question}").shuffle(given)
        for row, variant in zip(rows, given):
            if "text" in variant:
                row.answers[question] = variant["text"]
            row.expect["scores"][question] = variant.get("score")
            row.expect["decisions"].update(variant.get("decisions", {}))
    return rows


def fill_blanks(exercise: str, blanks: dict[int, str]) -> str:
    """The exercise code with each `______` replaced, in order, by the student's or the correct expression."""
    parts = exercise.split(BLANK)
    if len(parts) != len(CORRECT_BLANKS) + 1:
        raise ValueError(f"expected {len(CORRECT_BLANKS)} blanks in the exercise, found {len(parts) - 1}")
    filled = [parts[0]]
    for number, rest in enumerate(parts[1:], start=1):
        filled.append(blanks.get(number, CORRECT_BLANKS[number - 1]))
        filled.append(rest)
    return "".join(filled)


def submission_source(exercise: str, row: MockSubmission) -> str:
    """The code cell as this student wrote it: blanks filled, literal edits made, code added around it."""
    code = fill_blanks(exercise, row.blanks)
    for old, new in row.replace.items():
        if old not in code:
            raise ValueError(f"{row.student}: text to replace not found: {old!r}")
        code = code.replace(old, new)
    return "\n".join(part for part in (row.prepend.strip("\n"), code, row.append.strip("\n")) if part)


def submission_notebook(release: NotebookNode, row: MockSubmission, code_cell_id: str) -> NotebookNode:
    """The release notebook as this student would hand it in."""
    notebook = copy.deepcopy(release)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == code_cell_id:
            cell.source = submission_source(cell.source, row)
        if grade_id in row.answers:
            cell.source = row.answers[grade_id]
        if grade_id in row.edit_cells:
            cell.source = row.edit_cells[grade_id]
        if grade_id in row.cell_metadata:
            cell.metadata["nbgrader"].update(row.cell_metadata[grade_id])
    notebook.cells = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") not in row.delete_cells]
    code_index = next((i for i, c in enumerate(notebook.cells)
                       if c.metadata.get("nbgrader", {}).get("grade_id") == code_cell_id), len(notebook.cells) - 1)
    notebook.cells[code_index + 1:code_index + 1] = [nbformat.v4.new_code_cell(source) for source in row.extra_cells]
    for grade_id in row.duplicate_cells:
        index = next(i for i, c in enumerate(notebook.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
        twin = copy.deepcopy(notebook.cells[index])
        twin["id"] = twin.get("id", grade_id) + "-copy"
        notebook.cells.insert(index + 1, twin)
    notebook.metadata.update(row.notebook_metadata)
    return notebook


def write_entry(path: Path, spec: dict[str, str]) -> None:
    """One entry of a submission folder besides a notebook: a text file, a symbolic link or a FIFO."""
    if "link" in spec:
        path.symlink_to(spec["link"])
    elif "fifo" in spec:
        os.mkfifo(path)
    else:
        path.write_text(spec.get("text", ""), encoding="utf-8")


def write_submissions(release_path: Path, table: list[MockSubmission], submitted_dir: Path, assignment: str,
                      code_cell_id: str = "zero_code") -> list[Path]:
    """Write each row under <submitted_dir>/<student>/<assignment>/; returns the student folders."""
    release = nbformat.read(release_path, as_version=4)
    folders = []
    for row in table:
        folder = submitted_dir / row.student / assignment
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / release_path.name
        for name, spec in row.files.items():
            write_entry(folder / name, spec)
        if row.raw_text is not None:
            target.write_text(row.raw_text, encoding="utf-8")
        elif not row.missing and release_path.name not in row.files:
            nbformat.write(submission_notebook(release, row, code_cell_id), target)
        folders.append(folder.parent)
    return folders


def cycle_table(table: list[MockSubmission], size: int, name: str = "{student}_{number:03d}") -> list[MockSubmission]:
    """`size` submissions going round the table, each renamed by `name` (a class of any size for tests and benches)."""
    rows = []
    for number in range(size):
        row = copy.copy(table[number % len(table)])
        row.student = name.format(student=row.student, number=number)
        rows.append(row)
    return rows
