"""The graded notebook as a grader reads it: prose folded, task statements and graded cells intact, veto notes."""
from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from traitlets.config.loader import PyFileConfigLoader

from autograde.assignment_spec import load_spec
from autograde.building.grading_view import NOTE_TAG, fold_lesson_prose, veto_note
from autograde.building.source_notebook import source_notebook_path
from autograde.grading.preprocessors.lay_out_for_grading import LayOutForGrading
from autograde.veto.finding import VETO_IDS, Veto

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_spec("lesson05")
SOURCE = nbformat.read(source_notebook_path(SPEC), as_version=4)
CONFIG = PyFileConfigLoader("grader_config.py", path=str(ROOT)).load_config()
LESSON_SAYS = CONFIG.LayOutForGrading.lesson_says
CAROL = Veto("activations-sharded", "ZeRO-3 会把每层的激活也按 DP rank 切成 N_d 份分别保存。")


def grade_ids(cells) -> list[str]:
    return [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in cells]


@pytest.fixture
def laid_out() -> nbformat.NotebookNode:
    """The source notebook through LayOutForGrading, with one Q1 veto and clean checks elsewhere."""
    findings = {"zero_code": [], "q1": [CAROL], "q2": [], "q3": []}
    preprocessor = LayOutForGrading(config=CONFIG)
    notebook, _ = preprocessor.preprocess(copy.deepcopy(SOURCE), {"autograde": {"vetoes": findings}})
    return notebook


def test_graded_cells_keep_their_ids_metadata_and_text(laid_out) -> None:
    """Are the code answer, hidden tests, answers and rubrics all there, in order, with unchanged nbgrader metadata?"""
    graded = [c for c in SOURCE.cells if c.metadata.nbgrader.get("grade") or c.metadata.nbgrader.get("solution")]
    kept = {cell.id: cell for cell in laid_out.cells}
    for cell in graded:
        assert kept[cell.id].metadata == cell.metadata and kept[cell.id].source == cell.source
    order = [cell.id for cell in laid_out.cells if cell.id in {c.id for c in graded}]
    assert order == [cell.id for cell in graded]


def test_lesson_prose_is_folded_task_statements_are_not(laid_out) -> None:
    """Is the lesson folded into two collapsed blocks, with the exercise statement and Q1-Q3 left open?"""
    folds = [cell for cell in laid_out.cells if cell.source.startswith("<details>")]
    assert len(folds) == 2 and "本课目标 · 核心概念" in folds[0].source and "检查与通过标准" in folds[1].source
    shown = [cell.source.splitlines()[0] for cell in laid_out.cells
             if "prose" in cell.metadata.get("tags", []) and not cell.source.startswith("<details>")]
    assert shown == ["## 代码填空题", "## 三个问答题", "### Q1", "### Q2", "### Q3"]


def test_folding_loses_no_prose(laid_out) -> None:
    """Does every prose cell's text (figures included) survive inside a fold or as it was?"""
    text = "\n".join(cell.source for cell in laid_out.cells)
    for cell in SOURCE.cells:
        if "prose" in cell.metadata.tags:
            assert cell.source in text


def test_fold_summary_lists_section_titles_not_code_comments() -> None:
    """Does a fold's one line name the sections inside it, and not a `# comment` line of a code block?"""
    cells = [nbformat.v4.new_markdown_cell(text) for text in
             ("## 实测\n\n```bash\n# run the lab\npython -m zerolab run\n```", "### 细节\n\n正文", "## 结果\n\n表")]
    for cell in cells:
        cell.metadata = {"tags": ["prose"]}
    (fold,) = fold_lesson_prose(cells)
    assert fold.source.startswith("<details><summary>▸ 课文（已折叠，点击展开）：实测 · 结果</summary>")


def test_a_run_of_headings_alone_is_not_folded() -> None:
    """Is a run of bare section headings left as it is (a fold would take as much room)?"""
    cells = [nbformat.v4.new_markdown_cell("## 三个问答题"), nbformat.v4.new_code_cell("x = 1")]
    cells[0].metadata = {"tags": ["prose"]}
    assert fold_lesson_prose(cells) == cells


def test_veto_note_follows_each_checked_cell(laid_out) -> None:
    """Does a note follow the code cell and each answer, and only those?"""
    ids = [cell.id for cell in laid_out.cells]
    for grade_id in ("zero_code", "q1", "q2", "q3"):
        source_id = grade_id.replace("_", "-")
        assert ids[ids.index(source_id) + 1] == f"{source_id}-vetoes"
    assert sum(NOTE_TAG in cell.metadata.get("tags", []) for cell in laid_out.cells) == 4


def test_note_names_veto_evidence_and_what_the_lesson_says() -> None:
    """Does a candidate's note give the veto id, its meaning, the student's sentence and the lesson's words?"""
    note = veto_note("q1", [CAROL], LESSON_SAYS).source
    assert "`activations-sharded`" in note and "说 ZeRO-3 激活也被分片" in note
    assert "证据：「ZeRO-3 会把每层的激活也按 DP rank 切成 N_d 份分别保存。」" in note
    assert "课文：「每个 DP 节点处理的是互不重叠的 Micro-Batch 数据。」" in note
    assert "无候选" in veto_note("q2", [], LESSON_SAYS).source


def test_rubrics_lose_mark_scheme_lines_answers_do_not(laid_out) -> None:
    """Are nbgrader's BEGIN/END MARK SCHEME lines gone from rubrics, and a student's answer left untouched?"""
    rubric = next(cell for cell in laid_out.cells if cell.id == "rubric-q1")
    assert "MARK SCHEME" not in rubric.source and "冗余定义" in rubric.source
    answer = nbformat.v4.new_markdown_cell("### BEGIN MARK SCHEME\n我的答案")
    answer.metadata = {"nbgrader": {"grade": True, "solution": True, "grade_id": "q1"}}
    notebook = nbformat.v4.new_notebook(cells=[answer])
    LayOutForGrading().preprocess(notebook, {})
    assert notebook.cells[0].source == "### BEGIN MARK SCHEME\n我的答案"


def test_lesson_quotes_are_the_lessons_own_words() -> None:
    """Does grader_config.py quote the lesson word for word, for every veto id in the catalogue?"""
    lesson = SPEC.lesson.read_text(encoding="utf-8")
    assert set(LESSON_SAYS) == set(VETO_IDS)
    for veto, quotes in LESSON_SAYS.items():
        for quote in quotes:
            assert quote in lesson, (veto, quote)
