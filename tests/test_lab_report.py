"""The torch-free half of the lab: formulas, and the table and chart rendered from a saved JSON result."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zerolab.errors import LabError
from zerolab.formulas import STAGES, lesson_unit_traffic
from zerolab.report import (
    load_result,
    peak_markdown,
    plot_chart,
    stage_rows,
    to_markdown,
    to_text,
)

DATA = Path(__file__).parent / "data" / "lab"
RESULT = DATA / "result.json"
"""A real N = 2, 4 gloo/CPU result; the .md files beside it are its expected renderings (regenerate both together)."""


@pytest.mark.parametrize(
    ("stage", "n", "expected"),
    [("ddp", 4, 16), ("zero1", 4, 4 + 12 / 4), ("zero2", 4, 2 + 14 / 4), ("zero3", 4, 16 / 4), ("zero3", 1, 16)],
)
def test_formula_totals_match_the_lesson(stage: str, n: int, expected: float) -> None:
    """Are the lesson's 16Ψ, 4Ψ+12Ψ/N, 2Ψ+14Ψ/N and 16Ψ/N what the formulas give?"""
    assert STAGES[stage].total_bytes_per_param(n) == pytest.approx(expected)


def test_formula_traffic_matches_the_lesson() -> None:
    """Are the lesson's per-step volumes 2Ψ, 2Ψ, 2Ψ and 3Ψ?"""
    assert [s.total_traffic() for s in STAGES.values()] == [2, 2, 2, 3]


def test_all_reduce_counts_double_in_the_lesson_unit() -> None:
    """Is an all-reduce of Ψ elements 2Ψ in the lesson's ring unit, and all-gather/reduce-scatter 1Ψ?"""
    assert lesson_unit_traffic({"all_reduce": 1.0}) == 2.0
    assert lesson_unit_traffic({"all_gather": 2.0, "reduce_scatter": 1.0}) == 3.0


def test_markdown_table_matches_golden() -> None:
    """Does the saved result render to exactly the expected Markdown table?"""
    assert to_markdown(load_result(RESULT)) == (DATA / "result_table.md").read_text(encoding="utf-8")


def test_peak_table_matches_golden() -> None:
    """Does the saved result render to exactly the expected peak-breakdown table?"""
    assert peak_markdown(load_result(RESULT)) == (DATA / "result_peak.md").read_text(encoding="utf-8")


def test_rows_take_the_busiest_rank() -> None:
    """Is a row's measured split the one of the rank that holds most, and its peak the highest?"""
    result = load_result(RESULT)
    zero1 = result["runs"][0]["stages"]["zero1"]
    zero1["held_bytes"][1]["optimizer"] *= 2
    zero1["peak_bytes"][1] += 10**6
    psi = result["config"]["params"]
    row = next(r for r in stage_rows(result) if r.formula.key == "zero1")
    assert row.measured_bytes["optimizer"] == pytest.approx(zero1["held_bytes"][1]["optimizer"] / psi)
    assert row.peak == pytest.approx(zero1["peak_bytes"][1] / psi)


def test_text_table_explains_its_units() -> None:
    """Does the text table carry the unit note (bytes per parameter, elements per Ψ, ring all-reduce = 2Ψ)?"""
    text = to_text(load_result(RESULT))
    assert "ZeRO-2-like" in text and "AR=all-reduce" in text and "ring all-reduce 记 2Ψ" in text


def test_chart_is_a_png(tmp_path: Path) -> None:
    """Is the chart written as a PNG?"""
    plot_chart(load_result(RESULT), tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_other_layout_is_refused(tmp_path: Path) -> None:
    """Is a result of another layout refused in one line that says to rerun the lab?"""
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"schema": 0}), encoding="utf-8")
    with pytest.raises(LabError, match=r"result layout 0, this zerolab reads 1; rerun python -m zerolab run$"):
        load_result(path)


def test_report_needs_no_torch() -> None:
    """Does `python -m zerolab report --markdown` work where torch cannot be imported?"""
    code = "import sys; sys.modules['torch'] = None; from zerolab.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "report", "--markdown", str(RESULT)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (DATA / "result_table.md").read_text(encoding="utf-8")
