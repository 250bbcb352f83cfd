"""The site's figures as Quarto makes them: the lesson's cells in a Jupyter kernel, in the format _quarto.yml asks for."""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import yaml
from nbclient import NotebookClient

from autograde.building.lesson_source import read_lesson

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "lesson05.qmd"
FIG_FORMAT = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))["format"]["html"]["fig-format"]


@pytest.fixture(scope="module")
def figures() -> dict[str, dict[str, str]]:
    """Each figure cell's display data (mime type → content), by label, after setup and every demo cell ran in order."""
    lesson = read_lesson(LESSON)
    cells = [lesson.only_cell("setup"), *lesson.code_cells("demo")]
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(f"%matplotlib inline\nfrom matplotlib_inline.backend_inline import "
                                  f"set_matplotlib_formats\nset_matplotlib_formats({FIG_FORMAT!r})"),
        *(nbformat.v4.new_code_cell(cell.source) for cell in cells)])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(LESSON.parent)}}).execute()
    return {cell.options["label"]: output.data
            for cell, executed in zip(cells, notebook.cells[1:])
            for output in executed.outputs
            if output.output_type == "display_data" and str(cell.options.get("label", "")).startswith("fig-")}


def test_site_figures_are_svg(figures: dict[str, dict[str, str]]) -> None:
    """Does every figure cell put out an SVG image and no bitmap with its text baked in?"""
    assert FIG_FORMAT == "svg"
    assert set(figures) == {"fig-zero-memory", "fig-lab-measured"}
    for data in figures.values():
        assert {mime for mime in data if mime.startswith("image/")} == {"image/svg+xml"}


def test_site_figure_text_is_drawn_by_the_browser(figures: dict[str, dict[str, str]]) -> None:
    """Is the Chinese in 图 3 SVG text in a font list naming CJK fonts, so a machine without them still builds it?"""
    svg = figures["fig-zero-memory"]["image/svg+xml"]
    assert "每卡静态显存 (GB)" in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    assert "'Noto Sans CJK SC'" in svg and 'id="DejaVuSans-' not in svg
