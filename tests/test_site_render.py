"""Render both Quarto profiles for real and check what each site exposes (skipped without quarto)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograde.building.lesson_source import Div, read_lesson

ROOT = Path(__file__).resolve().parent.parent
QUARTO = shutil.which("quarto")
pytestmark = pytest.mark.skipif(QUARTO is None, reason="quarto is not on PATH (it cannot be installed on this machine)")
LEAKS = ["opt_fp32 / dp + extra", "(params_bf16 + grads_bf16 + opt_fp32) / dp", "3 * num_params",
         "BEGIN HIDDEN TESTS", "_hidden_test", "参考答案版", "三个问答题要点"]


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    work = tmp_path_factory.mktemp("site")
    for name in ("lessons", "_quarto.yml", "_quarto-student.yml", "_quarto-answer.yml"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, work / name)
    env = dict(os.environ, QUARTO_PYTHON=sys.executable)
    for profile in ([], ["--profile", "answer"]):
        subprocess.run([QUARTO, "render", *profile], cwd=work, env=env, check=True, timeout=600)
    return work / "_site", work / "_site-answer"


def site_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.suffix in {".html", ".json"})


def test_student_site_leaks_nothing(sites):
    """Does the student site's HTML and search.json hold no solution, rubric or hidden test?"""
    student, _ = sites
    assert (student / "search.json").exists()
    text = site_text(student)
    for leak in LEAKS:
        assert leak not in text, leak
    rubric = next(b for b, _ in read_lesson(ROOT / "lessons" / "lesson05.qmd").walk() if isinstance(b, Div) and "rubric" in b.classes)
    first_point = rubric.children[0].text.strip().splitlines()[0].lstrip("- ").split("：")[1][:20]
    assert first_point not in text


def test_answer_site_shows_the_executed_solution(sites):
    """Does the answer site show the banner and the solution cell's real output?"""
    _, answer = sites
    page = (answer / "lessons" / "lesson05.html").read_text(encoding="utf-8")
    assert "参考答案版" in page
    assert "dp=1 时三档相等 ✓" in page
    assert "38.5" in page and "opt_fp32 / dp + extra" in page
