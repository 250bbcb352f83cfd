"""The real lab at world size 2, run once through the CLI: measured traffic and memory against the formulas."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch", reason="the lab runs torch.distributed; pip install -e '.[lab]'")

from zerolab.config import CHART_NAME, RESULT_NAME  # noqa: E402
from zerolab.report import StageRow, stage_rows, to_markdown  # noqa: E402

WORLD_SIZE = 2


@pytest.fixture(scope="module")
def lab_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run `python -m zerolab run --world-size 2` once for this module; the folder it wrote."""
    out = tmp_path_factory.mktemp("lab")
    command = ["run", "--world-size", str(WORLD_SIZE), "--out", str(out), "--timeout", "150"]
    done = subprocess.run([sys.executable, "-m", "zerolab", *command], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def result(lab_out: Path) -> dict[str, Any]:
    """The JSON result of that run."""
    return json.loads((lab_out / RESULT_NAME).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rows(result: dict[str, Any]) -> dict[str, StageRow]:
    """Stage key → its row at world size 2."""
    return {row.formula.key: row for row in stage_rows(result)}


def test_run_writes_result_and_chart(lab_out: Path, result: dict[str, Any]) -> None:
    """Does one run write the JSON and a PNG, for the world size asked and the default model?"""
    assert (lab_out / CHART_NAME).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [run["world_size"] for run in result["runs"]] == [WORLD_SIZE]
    assert result["config"]["params"] == 8 * (512 * 512 + 512)


def test_zero3_moves_three_psi(rows: dict[str, StageRow]) -> None:
    """Does ZeRO-3 move all-gather 2Ψ + reduce-scatter 1Ψ per step?"""
    assert sum(rows["zero3"].traffic.values()) == pytest.approx(3.00, abs=0.01)
    assert rows["zero3"].traffic["all_gather"] == pytest.approx(2.00, abs=0.01)


def test_zero2_like_moves_two_psi(rows: dict[str, StageRow]) -> None:
    """Does ZeRO-2-like (no reshard after forward) move all-gather 1Ψ + reduce-scatter 1Ψ?"""
    assert sum(rows["zero2"].traffic.values()) == pytest.approx(2.00, abs=0.01)
    assert rows["zero2"].traffic["reduce_scatter"] == pytest.approx(1.00, abs=0.01)


def test_ddp_all_reduces_one_psi(rows: dict[str, StageRow]) -> None:
    """Does DDP all-reduce every gradient exactly once (1Ψ elements, the lesson's 2Ψ of ring traffic)?"""
    assert rows["ddp"].traffic == {"all_reduce": pytest.approx(1.00, abs=0.01)}
    assert rows["ddp"].lesson_unit_traffic == pytest.approx(2.00, abs=0.01)


def test_zero1_all_reduces_then_broadcasts(rows: dict[str, StageRow]) -> None:
    """Does torch's ZeroRedundancyOptimizer all-reduce gradients and broadcast updated parameters, 1Ψ each?"""
    assert rows["zero1"].traffic == {
        "all_reduce": pytest.approx(1.00, abs=0.01), "broadcast": pytest.approx(1.00, abs=0.01)
    }


def test_zero3_holds_sixteen_over_n(rows: dict[str, StageRow]) -> None:
    """Does ZeRO-3 hold 16/N bytes per parameter of model state, as fp32 shard 4 + grad 4 + Adam 8, over N?"""
    row = rows["zero3"]
    assert row.measured_total == pytest.approx(16 / WORLD_SIZE, rel=0.02)
    assert row.measured_bytes == pytest.approx({"param": 4 / WORLD_SIZE, "grad": 4 / WORLD_SIZE,
                                                "optimizer": 8 / WORLD_SIZE}, rel=0.02)


def test_ddp_holds_sixteen(rows: dict[str, StageRow]) -> None:
    """Does DDP hold 16 bytes per parameter on every rank?"""
    assert rows["ddp"].measured_total == pytest.approx(16, rel=0.02)


def test_zero1_shards_only_optimizer_state(rows: dict[str, StageRow]) -> None:
    """Does ZeRO-1 keep fp32 parameters and gradients whole and split only Adam's m and v?"""
    assert rows["zero1"].measured_bytes == pytest.approx({"param": 4, "grad": 4, "optimizer": 8 / WORLD_SIZE}, rel=0.02)


def test_peak_is_at_least_the_held_state(rows: dict[str, StageRow]) -> None:
    """Is every stage's peak at least the model state it holds at rest?"""
    for row in rows.values():
        assert row.peak >= row.measured_total * 0.98


def test_result_renders_without_torch_specific_fields(result: dict[str, Any]) -> None:
    """Does a fresh result render to the Markdown table the lesson shows, one row per stage?"""
    assert to_markdown(result).count("\n| 2 |") == 4
