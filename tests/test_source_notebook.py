"""The nbgrader source and release notebooks built from the lesson: deterministic, fresh, and leak-free."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograde.assignment_spec import load_spec
from autograde.building.lesson_source import Div, read_lesson
from autograde.building.source_notebook import build_notebook, source_notebook_path

ROOT = Path(__file__).resolve().parent.parent
SPEC = load_spec("lesson05")
NBGRADER = str(Path(sys.executable).with_name("nbgrader"))


def by_id(notebook) -> dict:
    return {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in notebook.cells}


@pytest.fixture(scope="module")
def built() -> str:
    return nbformat.writes(build_notebook(SPEC))


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """A fresh `nbgrader generate_assignment` from the committed source, in a scratch course."""
    course = tmp_path_factory.mktemp("course")
    shutil.copytree(ROOT / "source", course / "source")
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, course / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    subprocess.run([NBGRADER, "generate_assignment", "lesson05", "--force"], cwd=course, env=env, check=True,
                   capture_output=True)
    return course / "release" / "lesson05" / "lesson05.ipynb"


def test_build_is_deterministic(built):
    """Does building twice give byte-identical notebooks?"""
    assert nbformat.writes(build_notebook(SPEC)) == built


def test_committed_source_is_fresh(built):
    """Is source/lesson05/lesson05.ipynb what the lesson builds today (else run `make build`)?"""
    committed = source_notebook_path(SPEC).read_text(encoding="utf-8")
    assert committed == built + "\n" or committed == built, "source/ is stale: run `make build` and commit"


def test_committed_release_is_fresh(release):
    """Is release/lesson05/lesson05.ipynb what nbgrader generates from the source (else run `make build`)?"""
    committed = (ROOT / "release" / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8")
    assert committed == release.read_text(encoding="utf-8"), "release/ is stale: run `make build` and commit"


def test_source_cells_and_points():
    """Does the source notebook hold the code answer, four 1-point hidden tests, and Q1-Q3 at 2 points with rubrics?"""
    cells = by_id(nbformat.read(source_notebook_path(SPEC), as_version=4))
    code = cells["zero_code"]
    assert code.metadata.nbgrader["solution"] and not code.metadata.nbgrader["grade"]
    assert code.source == read_lesson(SPEC.lesson).only_cell("solution").source.strip("\n")
    for test in ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1"):
        meta = cells[test].metadata
        assert meta.nbgrader["points"] == 1 and meta.nbgrader["grade"] and meta.nbgrader["locked"]
        body = cells[test].source.split("### BEGIN HIDDEN TESTS\n", 1)
        assert len(body) == 2 and body[1].rstrip().endswith("### END HIDDEN TESTS")
        assert body[0].startswith("#") and "\n" not in body[0].strip()
        assert meta.tags == ["test"]
    for question in ("q1", "q2", "q3"):
        assert cells[question].metadata.nbgrader["points"] == 2 and cells[question].cell_type == "markdown"
        assert cells[f"rubric_{question}"].metadata.tags == ["rubric"]
        assert "### BEGIN MARK SCHEME" in cells[f"rubric_{question}"].source
    roles = {tag for cell in cells.values() for tag in cell.metadata.get("tags", [])}
    assert roles == {"prose", "exercise", "solution", "test", "answer", "rubric"}
    prose = [c for c in cells.values() if c.metadata.tags == ["prose"]]
    assert prose and all(c.cell_type == "markdown" and c.metadata.nbgrader["locked"] for c in prose)


def test_release_shows_the_original_blanks_and_leaks_nothing():
    """Is the released code the lesson's exercise verbatim, with no solution, hidden test or rubric point?"""
    release = nbformat.read(ROOT / "release" / "lesson05" / "lesson05.ipynb", as_version=4)
    cells = by_id(release)
    lesson = read_lesson(SPEC.lesson)
    assert cells["zero_code"].source == lesson.only_cell("exercise").source.strip("\n")
    text = json.dumps(release, ensure_ascii=False)
    for leak in ("opt_fp32 / dp + extra", "3 * num_params", "_hidden_test", "expected_memory", "NotImplementedError"):
        assert leak not in text, leak
    for block, _ in lesson.walk():
        if isinstance(block, Div) and "rubric" in block.classes:
            for line in block.children[0].text.splitlines():
                if line.strip():
                    assert line.strip().lstrip("- ") not in text
    for test in ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1"):
        assert "BEGIN HIDDEN TESTS" not in cells[test].source


def test_missing_assignment_is_a_one_line_error():
    """Does an unknown assignment name give one line naming the spec path and the known ones?"""
    result = subprocess.run([sys.executable, "-m", "autograde", "build", "lesson99"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "lesson05" in result.stderr and "lesson99" in result.stderr


def test_committed_examples_match_the_release(tmp_path):
    """Are examples/submissions what examples/submissions.yaml gives from today's release (else regenerate)?"""
    from autograde.building.mock_submissions import load_table, write_submissions

    table = load_table(ROOT / "examples" / "submissions.yaml")
    write_submissions(ROOT / "release" / "lesson05" / "lesson05.ipynb", table, tmp_path, "lesson05")
    for row in table:
        fresh = tmp_path / row.student / "lesson05" / "lesson05.ipynb"
        committed = ROOT / "examples" / "submissions" / row.student / "lesson05" / "lesson05.ipynb"
        assert committed.read_bytes() == fresh.read_bytes(), (
            f"{committed} is stale: python -m autograde mock-submissions examples/submissions.yaml examples/submissions")


CJK_FONT_FAMILY = "Noto Sans CJK SC"
"""A CJK family the lesson's figures name, so matplotlib would pick it up wherever it is installed."""


def write_cjk_font(path: Path) -> None:
    """A real TrueType font named like a common CJK font, one square glyph for every CJK ideograph."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)
    for x, y in ((60, -80), (940, -80), (940, 820), (60, 820)):
        (pen.lineTo if x != 60 or y != -80 else pen.moveTo)((x, y))
    pen.closePath()
    square = pen.glyph()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "ideograph"])
    builder.setupCharacterMap({code: "ideograph" for code in range(0x4E00, 0xA000)} | {0xFF0C: "ideograph"})
    builder.setupGlyf({".notdef": square, "ideograph": square})
    builder.setupHorizontalMetrics({".notdef": (1000, 60), "ideograph": (1000, 60)})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": CJK_FONT_FAMILY, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    builder.save(str(path))


def build_in_fresh_process(home: Path) -> str:
    """The source notebook as a fresh process builds it with only `home`'s fonts added to the system's."""
    env = dict(os.environ, XDG_DATA_HOME=str(home), MPLCONFIGDIR=str(home / "mplconfig"))
    code = ("import nbformat, sys; from autograde.assignment_spec import load_spec; "
            "from autograde.building.source_notebook import build_notebook; "
            "sys.stdout.write(nbformat.writes(build_notebook(load_spec('lesson05'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_build_does_not_depend_on_installed_fonts(tmp_path, built):
    """Does a machine with a CJK font installed build the same bytes as one without (and as this process)?"""
    without, with_cjk = tmp_path / "without", tmp_path / "with"
    (without / "fonts").mkdir(parents=True)
    (with_cjk / "fonts").mkdir(parents=True)
    write_cjk_font(with_cjk / "fonts" / "FakeCJK-Regular.ttf")
    assert build_in_fresh_process(without) == built
    assert build_in_fresh_process(with_cjk) == built
