"""The graded notebook as a grader reads it: lesson prose folded away, each answer followed by its veto candidates.

The release notebook a student works in keeps the whole lesson; the autograded copy that formgrader shows keeps only
what grading needs in view (task statements, answers, hidden-test verdicts, rubrics) and folds each run of lesson
prose into one collapsed <details> block that opens on a click.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import nbformat
from nbformat.notebooknode import NotebookNode

from autograde.building.lesson_source import CODE_SPAN
from autograde.grading.preprocessors.record_vetoes import COMMENT_MARK
from autograde.veto.finding import CATALOGUE, Veto

PROSE_TAG = "prose"
NOTE_TAG = "grader-note"
"""Tag of the cells this view adds; feedback leaves them out (see grader_config.py)."""
FOLD_SUMMARY = "▸ 课文（已折叠，点击展开）：{headings}"
NO_CANDIDATES = "✓ 一票否决检查（{cell}）：无候选。"
CANDIDATES_HEADER = "**{mark}（{cell}，{count} 条）**：决定写入 `overrides.yaml`（upheld / dismissed）。"
MARK_SCHEME_LINE = re.compile(r"^### (?:BEGIN|END) MARK SCHEME\n?", re.MULTILINE)
TITLE = re.compile(r"^#{1,2} (?P<title>.+)$", re.MULTILINE)


def is_graded(cell: NotebookNode) -> bool:
    """Whether nbgrader grades the cell or takes it as a student's answer."""
    nbgrader = cell.metadata.get("nbgrader", {})
    return bool(nbgrader.get("grade") or nbgrader.get("solution") or nbgrader.get("task"))


def is_foldable(cells: Sequence[NotebookNode], index: int) -> bool:
    """Lesson prose that does not state a task: a prose cell not directly followed by a graded or answer cell."""
    cell = cells[index]
    if cell.cell_type != "markdown" or PROSE_TAG not in cell.metadata.get("tags", []):
        return False
    return index + 1 == len(cells) or not is_graded(cells[index + 1])


def folded(run: Sequence[NotebookNode]) -> NotebookNode:
    """The run's first cell (id and nbgrader metadata kept) holding the whole run in one collapsed block."""
    cell = run[0]
    # code blocks left out: a `# comment` line in one is no section title
    titles = [match["title"].strip() for part in run for match in TITLE.finditer(CODE_SPAN.sub("", part.source))]
    headings = " · ".join(titles)
    body = "\n\n".join(part.source for part in run)
    cell.source = f"<details><summary>{FOLD_SUMMARY.format(headings=headings)}</summary>\n\n{body}\n\n</details>"
    return cell


def only_headings(run: Sequence[NotebookNode]) -> bool:
    """Whether every line of the run is a heading (a section title costs no more than its fold would)."""
    return all(line.startswith("#") for cell in run for line in cell.source.splitlines() if line.strip())


def fold_lesson_prose(cells: Sequence[NotebookNode]) -> list[NotebookNode]:
    """The cells with each run of lesson prose folded into its first cell; task statements and graded cells kept."""
    kept: list[NotebookNode] = []
    run: list[NotebookNode] = []
    for index, cell in enumerate(cells):
        if is_foldable(cells, index):
            run.append(cell)
            continue
        kept += run if only_headings(run) else [folded(run)]
        kept.append(cell)
        run = []
    return kept + (run if only_headings(run) else [folded(run)])


CUT_CODE = "\n# [cut here: the cell is {length:,} characters long; the whole cell is in the submitted notebook]"
CUT_MARKDOWN = "\n\n*[cut here: the answer is {length:,} characters long; the whole answer is in the submitted notebook]*"


def bounded_sources(cells: Sequence[NotebookNode], code_chars: int, markdown_chars: int) -> list[NotebookNode]:
    """The cells a student wrote (not the locked lesson cells) cut where longer than a page shows quickly, with a note
    (the checks have read them whole)."""
    for cell in cells:
        if not cell.metadata.get("nbgrader", {}).get("locked"):
            cell.source = cut(cell.source, *((code_chars, CUT_CODE) if cell.cell_type == "code" else (markdown_chars,)))
    return list(cells)


def cut(source: str, limit: int, note: str = CUT_MARKDOWN) -> str:
    """`source` cut after `limit` characters, with a note saying how long it is (kept whole when shorter)."""
    return source if len(source) <= limit else source[:limit] + note.format(length=len(source))


def without_mark_scheme_lines(cells: Sequence[NotebookNode]) -> list[NotebookNode]:
    """The cells with nbgrader's BEGIN/END MARK SCHEME lines taken out of rubrics (they render as two big headings)."""
    for cell in cells:
        if cell.cell_type == "markdown" and not is_graded(cell):
            cell.source = MARK_SCHEME_LINE.sub("", cell.source)
    return list(cells)


def quoted(text: str) -> str:
    """Text in Chinese quotation marks, on one line."""
    return "「" + " ".join(text.split()) + "」"


def veto_note(grade_id: str, vetoes: Sequence[Veto], lesson_says: Mapping[str, Sequence[str]]) -> NotebookNode:
    """A markdown cell listing a checked cell's veto candidates: id, meaning, evidence, the claim read from it (text
    checks), what the lesson says."""
    if not vetoes:
        source = NO_CANDIDATES.format(cell=grade_id)
    else:
        lines = [CANDIDATES_HEADER.format(mark=COMMENT_MARK, cell=grade_id, count=len(vetoes)), ""]
        for veto in vetoes:
            lines.append(f"- `{veto.id}`：{CATALOGUE[veto.id]['zh']}")
            lines.append(f"  - 证据：{quoted(veto.evidence)}")
            if veto.detail.get("claim"):
                lines.append(f"  - 读作：`{veto.detail['claim']}`")
            if lesson_says.get(veto.id):
                lines.append("  - 课文：" + " ".join(quoted(quote) for quote in lesson_says[veto.id]))
        source = "\n".join(lines)
    cell = nbformat.v4.new_markdown_cell(source, id=f"{grade_id.replace('_', '-')}-vetoes")
    cell.metadata = {"tags": [NOTE_TAG]}
    return cell


def submission_notes(notes: Sequence[str]) -> NotebookNode:
    """A markdown cell of what the grader should know about the submission itself (shown first on the page)."""
    cell = nbformat.v4.new_markdown_cell("\n".join(f"**⚠ {note}**" for note in notes), id="submission-notes")
    cell.metadata = {"tags": [NOTE_TAG]}
    return cell


def with_veto_notes(cells: Sequence[NotebookNode], findings: Mapping[str, Sequence[Veto]],
                    lesson_says: Mapping[str, Sequence[str]]) -> list[NotebookNode]:
    """The cells with a veto note right after each checked cell."""
    out: list[NotebookNode] = []
    for cell in cells:
        out.append(cell)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in findings:
            out.append(veto_note(grade_id, findings[grade_id], lesson_says))
    return out
