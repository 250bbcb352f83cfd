"""Math on the site with no network: the KaTeX shipped in lessons/assets typesets every formula of the lesson."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from autograde.building.demo_cells import run_demo_cell
from autograde.building.lesson_source import (
    Markdown,
    math_formulas,
    read_lesson,
    solution_namespace,
)

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from playwright.sync_api import Browser  # noqa: E402

from autograde.building.site_check import find_chromium, open_chromium, serve_directory  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "lesson05.qmd"
MATH_METHOD = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))["format"]["html"]["html-math-method"]
KATEX = LESSON.parent / MATH_METHOD["url"]
CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")

TYPESET_JS = """(formulas) => formulas.map(([tex, display]) => {
  const box = document.body.appendChild(document.createElement(display ? "div" : "span"));
  try { katex.render(tex, box, {displayMode: display, throwOnError: true}); return null; }
  catch (error) { return `${tex}: ${error.message}`; }
})"""
"""Typeset each formula into the page the way the site does, but failing loudly instead of printing it red."""

FONTS_JS = """() => document.fonts.ready.then(fonts => Array.from(fonts)
  .filter(face => face.family.replace(/"/g, "").startsWith("KaTeX_") && face.status !== "unloaded")
  .map(face => `${face.family} ${face.style} ${face.weight}: ${face.status}`))"""
"""The KaTeX font faces the page needed, and whether each one loaded."""


def lesson_formulas() -> list[tuple[str, bool]]:
    """Every formula either site shows: the lesson's prose (answer-only parts too) and its computed tables."""
    lesson = read_lesson(LESSON)
    formulas = [f for block, _ in lesson.walk() if isinstance(block, Markdown) for f in math_formulas(block.text)]
    namespace = solution_namespace(LESSON)
    for cell in lesson.code_cells("demo"):
        if cell.options.get("output") == "asis":
            formulas += math_formulas(run_demo_cell(cell.source, namespace, LESSON.parent, cell.options["label"]).text)
    return formulas


def test_site_math_uses_the_shipped_katex() -> None:
    """Does _quarto.yml point KaTeX at a local folder the site ships, holding its script and every font it names?"""
    assert MATH_METHOD["method"] == "katex" and not re.match(r"\w+:", MATH_METHOD["url"])
    site = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))["project"]
    assert any(KATEX.resolve().is_relative_to((ROOT / folder.lstrip("/")).resolve()) for folder in site["resources"])
    assert (KATEX / "katex.min.js").is_file()
    fonts = re.findall(r"url\((fonts/[^)]+\.woff2)\)", (KATEX / "katex.min.css").read_text(encoding="utf-8"))
    assert len(fonts) >= 20
    assert [font for font in fonts if not (KATEX / font).is_file()] == []


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole module."""
    with open_chromium(CHROMIUM) as chromium:
        yield chromium


@needs_chromium
def test_every_formula_typesets_with_its_fonts(browser: Browser) -> None:
    """Does the shipped KaTeX typeset all of the lesson's formulas (underbraces, V_… terms) with fonts that load?"""
    formulas = lesson_formulas()
    assert len(formulas) > 150 and any("\\underbrace" in tex for tex, _ in formulas)
    with serve_directory(KATEX) as base_url:
        page = browser.new_page()
        page.goto(base_url)  # the fonts are only served to a page of their own origin
        page.set_content(f'<!DOCTYPE html><link rel="stylesheet" href="{base_url}katex.min.css"><body></body>')
        page.add_script_tag(url=f"{base_url}katex.min.js")
        assert [error for error in page.evaluate(TYPESET_JS, formulas) if error] == []
        faces = page.evaluate(FONTS_JS)
        page.close()
    assert faces and all(face.endswith(": loaded") for face in faces), faces
