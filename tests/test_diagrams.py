"""The lesson's mermaid diagrams as committed SVG pictures: fresh, safe to embed, and refused when stale."""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import nbformat
import pytest

from autograde.assignment_spec import load_spec
from autograde.building.diagrams import (
    DIAGRAMS_DIR,
    REGENERATE,
    committed_diagram,
    mermaid_cells,
)
from autograde.building.lesson_source import CodeCell, LessonSourceError
from autograde.building.notebook_prose import data_url
from autograde.building.source_notebook import source_notebook_path

SPEC = load_spec("lesson05")
LESSON_DIR = SPEC.lesson.parent
CELLS = mermaid_cells(SPEC.lesson)
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("cell", CELLS, ids=[cell.options["label"] for cell in CELLS])
def test_committed_picture_matches_its_mermaid_source(cell: CodeCell) -> None:
    """Was each committed SVG drawn from the diagram's source as the lesson has it today (else regenerate)?"""
    committed_diagram(cell, LESSON_DIR)


@pytest.mark.parametrize("cell", CELLS, ids=[cell.options["label"] for cell in CELLS])
def test_picture_is_standalone_svg(cell: CodeCell) -> None:
    """Does each picture parse as XML with an <svg> root of fixed size, no script and nothing fetched from elsewhere?"""
    path = committed_diagram(cell, LESSON_DIR)
    root = ElementTree.parse(path).getroot()
    assert root.tag == SVG and float(root.get("width")) > 100 and float(root.get("height")) > 100
    text = path.read_text(encoding="utf-8")
    assert "<script" not in text and "http://" not in text.replace("http://www.w3.org/", "")
    assert "https://" not in text


def test_source_notebook_shows_pictures_not_mermaid_code() -> None:
    """Does the built notebook show each diagram as its committed SVG in a data: URL, with no ```mermaid block left?

    (JupyterLab does not show SVG cell attachments in a notebook it does not trust, as a student's is.)
    """
    notebook = nbformat.read(source_notebook_path(SPEC), as_version=4)
    text = "\n".join(cell.source for cell in notebook.cells)
    assert "```mermaid" not in text and "attachment:" not in text
    for cell in CELLS:
        assert f"]({data_url('image/svg+xml', committed_diagram(cell, LESSON_DIR).read_bytes())})" in text


def test_stale_picture_is_a_one_line_error(tmp_path: Path) -> None:
    """Is a diagram edited after its picture was drawn refused in one line naming the file and the command?"""
    shutil.copytree(LESSON_DIR / DIAGRAMS_DIR, tmp_path / DIAGRAMS_DIR)
    changed = CodeCell("mermaid", CELLS[0].options, CELLS[0].source.replace("AllGather", "All-Gather"))
    with pytest.raises(LessonSourceError) as error:
        committed_diagram(changed, tmp_path)
    message = str(error.value)
    assert "\n" not in message and f"{CELLS[0].options['label']}.svg" in message and REGENERATE in message


def test_missing_picture_is_a_one_line_error(tmp_path: Path) -> None:
    """Is a diagram with no committed picture refused in one line naming the file and the command?"""
    cell = CodeCell("mermaid", {"label": "fig-new"}, "flowchart LR\n  A --> B\n")
    with pytest.raises(LessonSourceError, match=rf"fig-new\.svg: missing .*{REGENERATE}"):
        committed_diagram(cell, tmp_path)
