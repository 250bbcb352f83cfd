"""Math in formgrader and feedback pages with no network: the course's KaTeX inlined in place of MathJax's CDN."""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from traitlets.config.loader import PyFileConfigLoader

from autograde.building.offline_math import KATEX_DIR, katex_stylesheet, offline_math

ROOT = Path(__file__).resolve().parent.parent
CONFIG = PyFileConfigLoader("grader_config.py", path=str(ROOT)).load_config()


def test_stylesheet_carries_every_font_it_names() -> None:
    """Is each KaTeX font in the stylesheet a WOFF2 data URL, with no file URL left to fetch?"""
    css = katex_stylesheet()
    assert "url(fonts/" not in css
    assert css.count("url(data:font/woff2;base64,") == len(list((KATEX_DIR / "fonts").glob("*.woff2")))


@pytest.mark.parametrize("template", ["classic", "lab"])
def test_course_config_swaps_the_mathjax_cdn_for_inlined_katex(template: str) -> None:
    """Does an HTML export under grader_config.py hold KaTeX and the typesetter instead of MathJax from a CDN?"""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("显存 $\\frac{16\\Psi}{N_d}$")])
    exporter = HTMLExporter(config=CONFIG, template_name=template)
    html, _ = exporter.from_notebook_node(notebook)
    assert offline_math() in html
    assert not re.search(r"https?://[^\s\"']*mathjax", html, re.IGNORECASE)
