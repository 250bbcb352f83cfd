"""Build the nbgrader source notebook (source/<assignment>/<notebook>) from the lesson's .qmd."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from nbformat.notebooknode import NotebookNode

from autograde.assignment_spec import REPO_ROOT, AssignmentSpec, load_spec
from autograde.building.demo_cells import run_demo_cell
from autograde.building.lesson_source import (
    Block,
    CodeCell,
    Div,
    Lesson,
    LessonSourceError,
    Markdown,
    read_lesson,
    solution_namespace,
)
from autograde.building.notebook_prose import (
    CrossrefNumbering,
    callout_markdown,
    caption_line,
    data_url,
    inline_images,
    mermaid_markdown,
)

HEADING = re.compile(r"^#{2,3} ", re.MULTILINE)
NBGRADER_SCHEMA = 3
ANSWER_PLACEHOLDER = "（学生在此作答，中文或英文均可；评分要点见下一个单元格，学生版中为空。）"
HIDDEN_TEST_CELL = (
    "# 隐藏测试 {grade_id}（{points} 分）：{title}。批改时评分程序在沙箱中调用你的函数，在沙箱外比较结果。\n"
    "### BEGIN HIDDEN TESTS\n"
    "from autograde.grading.hidden_tests import check_here\n"
    "check_here({assignment!r}, {grade_id!r}, globals())\n"
    "### END HIDDEN TESTS"
)
"""A hidden test cell: one call; the checks live in autograde/assignments/<assignment>/hidden_tests.py."""
RUBRIC_HEADER = "**评分要点（{grade_id}，{points} 分）**：批改时显示，学生版中为空。\n\n"


def nbgrader_metadata(grade_id: str, *, grade: bool = False, solution: bool = False, locked: bool = False,
                      points: int | None = None) -> dict[str, Any]:
    """The `nbgrader` cell metadata for one cell."""
    meta: dict[str, Any] = {"grade": grade, "grade_id": grade_id, "locked": locked,
                            "schema_version": NBGRADER_SCHEMA, "solution": solution}
    if points is not None:
        meta["points"] = points
    return meta


def make_cell(kind: str, source: str, grade_id: str, roles: list[str], **nbgrader: Any) -> NotebookNode:
    """A markdown or code cell with a stable id, nbgrader metadata and course_role tags."""
    factory = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    cell = factory(source=source.strip("\n"), id=grade_id.replace("_", "-"))
    cell.metadata = {"nbgrader": nbgrader_metadata(grade_id, **nbgrader), "tags": roles}
    return cell


@dataclass
class NotebookBuilder:
    """Walks the lesson's blocks once and collects notebook cells in order."""

    spec: AssignmentSpec
    lesson: Lesson
    numbering: CrossrefNumbering
    namespace: dict[str, Any]
    rubrics: dict[str, str]
    cells: list[NotebookNode] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)

    def prose(self, markdown: str) -> None:
        """Add markdown to the prose being collected; each `##`/`###` heading starts a new cell."""
        text = self.numbering.resolve(markdown)
        starts = [match.start() for match in HEADING.finditer(text)]
        for start, end in zip([0, *starts], [*starts, len(text)]):
            segment = text[start:end]
            if HEADING.match(segment):
                self.flush()
            self.pending.append(segment)

    def flush(self) -> None:
        """Close the current prose cell; answer and rubric cells follow their question."""
        text = "\n\n".join(part.strip("\n") for part in self.pending if part.strip()).strip()
        self.pending.clear()
        if not text:
            return
        self.cells.append(make_cell("markdown", text, self.prose_id(text), ["prose"], locked=True))
        first_line = text.splitlines()[0].strip()
        for answer in self.spec.answers:
            if first_line == answer.after_heading:
                self.answer_cells(answer.grade_id, answer.points)

    def prose_id(self, text: str) -> str:
        """A grade id from the cell's first line, so inserting a section elsewhere leaves other ids alone."""
        base = "prose_" + hashlib.sha1(text.splitlines()[0].encode("utf-8")).hexdigest()[:8]
        taken = {cell.metadata["nbgrader"]["grade_id"] for cell in self.cells}
        candidate, suffix = base, 1
        while candidate in taken:
            candidate, suffix = f"{base}_{suffix}", suffix + 1
        return candidate

    def answer_cells(self, grade_id: str, points: int) -> None:
        """The free-text answer cell and, after it, its rubric (removed from the release)."""
        self.cells.append(make_cell("markdown", ANSWER_PLACEHOLDER, grade_id, ["answer"],
                                    grade=True, solution=True, points=points))
        if grade_id not in self.rubrics:
            raise LessonSourceError(f"{self.lesson.path}: no '::: {{.rubric question=\"{grade_id}\"}}' div for {grade_id}")
        rubric = (RUBRIC_HEADER.format(grade_id=grade_id.upper(), points=points)
                  + "### BEGIN MARK SCHEME\n" + self.rubrics[grade_id].strip() + "\n### END MARK SCHEME")
        self.cells.append(make_cell("markdown", rubric, f"rubric_{grade_id}", ["rubric"], locked=True))

    def code_answer(self, exercise: CodeCell) -> None:
        """The exercise/solution pair as one autograded answer, then the hidden tests and the self-check."""
        self.flush()
        solution = self.lesson.only_cell(self.spec.solution_role)
        cell = make_cell("code", solution.source, self.spec.code_answer_id, ["exercise", "solution"], solution=True)
        cell.metadata["course"] = {"exercise_source": exercise.source.strip("\n")}
        self.cells.append(cell)
        for test in self.spec.tests:
            source = HIDDEN_TEST_CELL.format(grade_id=test.grade_id, points=test.points, title=test.title,
                                             assignment=self.spec.assignment)
            self.cells.append(make_cell("code", source, test.grade_id, ["test"],
                                        grade=True, locked=True, points=test.points))
        self.cells.append(make_cell("code", self.spec.read(self.spec.self_check_file), self.spec.self_check_id,
                                    ["test"], locked=True))

    def demo(self, cell: CodeCell) -> None:
        """Run a figure/table cell now and keep its output as prose."""
        label = cell.options.get("label")
        output = run_demo_cell(cell.source, self.namespace, self.lesson.path.parent, f"{self.lesson.path}:{label}")
        parts = []
        if "tbl-cap" in cell.options:
            parts.append(caption_line(self.numbering, label, cell.options["tbl-cap"]))
        if output.text.strip():
            parts.append(output.text if cell.options.get("output") == "asis" else f"```\n{output.text}```")
        for svg in output.figures:
            parts.append(f"![{cell.options.get('fig-alt', '')}]({data_url('image/svg+xml', svg)})")
        if "fig-cap" in cell.options:
            parts.append(caption_line(self.numbering, label, cell.options["fig-cap"]))
        self.prose("\n\n".join(parts) + "\n")

    def block(self, block: Block) -> None:
        """Dispatch one block to the cell(s) it becomes."""
        if isinstance(block, Markdown):
            self.prose(inline_images(block.text, self.lesson.path.parent, self.numbering))
        elif isinstance(block, CodeCell):
            self.code_block(block)
        elif block.answer_only or set(block.classes) & set(self.spec.site_only_classes):
            return
        elif any(name.startswith("callout") for name in block.classes):
            body = "\n".join(child.text for child in block.children if isinstance(child, Markdown))
            self.prose(callout_markdown(block, body))
        else:
            for child in block.children:
                self.block(child)

    def code_block(self, cell: CodeCell) -> None:
        """Exercise, mermaid and demo cells become notebook cells; setup and solution are consumed elsewhere."""
        if cell.role == self.spec.exercise_role:
            self.code_answer(cell)
        elif cell.lang == "mermaid":
            folder = self.lesson.path.parent
            self.prose(inline_images(mermaid_markdown(cell, folder), folder, self.numbering))
        elif cell.role not in ("setup", self.spec.solution_role):
            self.demo(cell)


def rubric_texts(lesson: Lesson) -> dict[str, str]:
    """The markdown of every `.rubric` div, keyed by its question id."""
    return {
        block.attributes["question"]: "\n".join(c.text for c in block.children if isinstance(c, Markdown))
        for block, _ in lesson.walk()
        if isinstance(block, Div) and "rubric" in block.classes
    }


def build_notebook(spec: AssignmentSpec) -> NotebookNode:
    """The nbgrader source notebook for `spec`, built from its lesson."""
    lesson = read_lesson(spec.lesson)
    builder = NotebookBuilder(spec, lesson, CrossrefNumbering.from_lesson(lesson),
                              solution_namespace(spec.lesson), rubric_texts(lesson))
    title = lesson.front_matter.get("title", spec.assignment)
    builder.cells.append(make_cell(
        "markdown",
        f"# {title}\n\n本 notebook 由 `{spec.lesson.relative_to(REPO_ROOT)}` 生成。"
        f"请补全 `{spec.code_answer_id}` 单元格中的五处 `______`，运行自查单元格，并回答 Q1–Q3。",
        "prose_title", ["prose"], locked=True))
    for block in lesson.blocks:
        builder.block(block)
    builder.flush()
    notebook = nbformat.v4.new_notebook(cells=builder.cells)
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    nbformat.validate(notebook)
    return notebook


def source_notebook_path(spec: AssignmentSpec, root: Path = REPO_ROOT) -> Path:
    """Where nbgrader expects the source notebook: source/<assignment>/<notebook>."""
    return root / "source" / spec.assignment / spec.notebook


def write_source_notebook(assignment: str, root: Path = REPO_ROOT) -> Path:
    """Build and write the source notebook; returns its path."""
    spec = load_spec(assignment, root)
    path = source_notebook_path(spec, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(build_notebook(spec), path)
    return path
