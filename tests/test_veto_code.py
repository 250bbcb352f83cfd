"""Code vetoes on submitted cells: the lesson's exercise with the blanks filled and one mistake made (a YAML table)."""
from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from autograde.building.lesson_source import read_lesson
from autograde.building.mock_submissions import load_table, submission_source
from autograde.veto.code import PROBE_CALLS, Misconception, find_code_vetoes, observe
from autograde.veto.probe import call_submission

ROOT = Path(__file__).resolve().parent.parent
EXERCISE = read_lesson(ROOT / "lessons" / "lesson05.qmd").only_cell("exercise").source
SUBMISSIONS = {row.student: row for row in load_table(Path(__file__).parent / "data" / "code_submissions.yaml")}


def submission(name: str) -> str:
    """The source of one submitted cell, as the table describes it."""
    return submission_source(EXERCISE, SUBMISSIONS[name])


def answers(source: str, timeout_s: float = 10.0) -> dict:
    """What the submission's functions return for every probe call, run in an isolated process."""
    return dict(zip(PROBE_CALLS, call_submission(source, PROBE_CALLS, timeout_s)))


def vetoes_of(name: str, timeout_s: float = 10.0) -> list:
    """The code vetoes one fixture earns."""
    source = submission(name)
    return find_code_vetoes(source, answers(source, timeout_s))


def found(name: str, timeout_s: float = 10.0) -> list[tuple[str, int, str]]:
    """(veto id, stage, misconception name) for each veto the fixture earns."""
    return [(veto.id, veto.detail["stage"], veto.detail["misconception"]["name"]) for veto in vetoes_of(name, timeout_s)]


def test_correct_submission_earns_no_veto() -> None:
    """Does the reference answer pass without a veto?"""
    assert found("correct") == []


def test_stage2_full_sharding_is_wrong_shard_target() -> None:
    """Is ZeRO-2 computed as 16Ψ/N (parameters sharded too) reported as wrong-shard-target?"""
    assert found("stage2_shards_everything") == [("wrong-shard-target", 2, "zero2-shards-everything")]


def test_stage1_sharding_gradients_is_wrong_shard_target() -> None:
    """Is ZeRO-1 dividing the gradients by dp reported as wrong-shard-target?"""
    assert found("stage1_shards_gradients") == [("wrong-shard-target", 1, "zero1-shards-gradients")]


def test_stage2_sharding_parameters_is_caught_from_the_source() -> None:
    """Is stage 2 sharding the parameters instead of the gradients reported, though its numbers equal the right ones?"""
    (veto,) = vetoes_of("stage2_divides_params")
    assert (veto.id, veto.detail["misconception"]["name"]) == ("wrong-shard-target", "zero2-shards-parameters-not-gradients")
    assert veto.detail["expected"] == veto.detail["got"]
    assert veto.detail["behaviour"]["decided_by"] == "source"
    assert "grads_bf16 + (params_bf16 + opt_fp32) / dp" in veto.evidence


def test_stage3_keeping_parameters_full_is_wrong_shard_target() -> None:
    """Is ZeRO-3 leaving the parameters unsharded reported as wrong-shard-target?"""
    assert found("stage3_params_full") == [("wrong-shard-target", 3, "zero3-keeps-parameters-full")]


def test_stage3_comm_2psi_is_wrong_comm_volume() -> None:
    """Is a ZeRO-3 volume of 2Ψ reported as wrong-comm-volume, even when the function prints?"""
    assert found("comm_stage3_2psi") == [("wrong-comm-volume", 3, "zero3-comm-like-zero2")]


def test_stage12_comm_3psi_is_wrong_comm_volume() -> None:
    """Is a ZeRO-1/2 volume of 3Ψ reported for both stages?"""
    assert found("comm_stage12_3psi") == [
        ("wrong-comm-volume", 1, "zero12-comm-like-zero3"),
        ("wrong-comm-volume", 2, "zero12-comm-like-zero3"),
    ]


def test_comm_rs_plus_ag_as_4psi_is_wrong_comm_volume() -> None:
    """Is reduce-scatter + all-gather counted as 4Ψ reported as wrong-comm-volume?"""
    assert found("comm_4psi") == [
        ("wrong-comm-volume", 1, "zero12-comm-rs-ag-as-all-reduce"),
        ("wrong-comm-volume", 2, "zero12-comm-rs-ag-as-all-reduce"),
    ]


def test_stage2_sending_more_than_stage1_is_wrong_comm_volume() -> None:
    """Is a ledger where ZeRO-2 sends more than ZeRO-1 reported, alongside ZeRO-1's missing all-gather?"""
    assert found("comm_stage2_above_stage1") == [
        ("wrong-comm-volume", 1, "zero12-comm-reduce-scatter-only"),
        ("wrong-comm-volume", 2, "zero2-comm-above-zero1"),
    ]


@pytest.mark.parametrize(
    "name",
    ["leftover_blank", "syntax_error", "sys_exit", "os_exit", "arithmetic_bug_comm", "arithmetic_bug_memory", "fp32_branch_wrong"],
)
def test_plain_bugs_earn_no_veto(name: str) -> None:
    """Does a bug that matches no declared misconception (blank, syntax, exit, arithmetic, FP32 branch) go without a veto?"""
    assert found(name) == []


def test_infinite_loop_returns_within_the_timeout() -> None:
    """Does a submission that never returns give no veto, within the timeout?"""
    started = time.monotonic()
    assert found("infinite_loop", timeout_s=1.0) == []
    assert time.monotonic() - started < 3.0


def test_answers_before_a_hang_are_kept() -> None:
    """Are the stages answered before the hanging stage 3 still observed?"""
    source = submission("infinite_loop")
    behaviours = observe(ast.parse(source), answers(source, timeout_s=1.0))
    assert behaviours[1].sharded == (frozenset({"opt_fp32"}),)
    assert behaviours[3].memory is None


def test_functions_stay_callable_after_a_top_level_exit() -> None:
    """Does a top-level sys.exit() leave the functions it defined observable?"""
    source = submission("sys_exit")
    behaviours = observe(ast.parse(source), answers(source, timeout_s=10.0))
    assert behaviours[2].sharded == (frozenset({"grads_bf16", "opt_fp32"}),)
    assert behaviours[3].comm_psi == 3


def test_wrong_fp32_branch_is_observed_but_not_vetoed() -> None:
    """Is a swapped FP32 extra seen in the behaviour while the terms stay right?"""
    source = submission("fp32_branch_wrong")
    behaviours = observe(ast.parse(source), answers(source, timeout_s=10.0))
    assert (behaviours[1].fp32_extra, behaviours[2].fp32_extra) == ("4Ψ/dp", "4Ψ")
    assert behaviours[2].sharded == (frozenset({"grads_bf16", "opt_fp32"}),)


def test_evidence_names_inputs_expected_got_and_misconception() -> None:
    """Does a veto carry inputs, expected, got and the misconception, plus a one-line evidence?"""
    (veto,) = vetoes_of("stage2_shards_everything")
    assert veto.origin == "code"
    assert veto.detail["inputs"] == {"function": "zero_memory_per_gpu", "num_params": 1000, "dp": 4, "stage": 2, "k": 12}
    assert (veto.detail["expected"], veto.detail["got"]) == (5500, 4000)
    assert veto.detail["misconception"]["en"].startswith("ZeRO-2 shards the parameters")
    assert "\n" not in veto.evidence and "returned 4000, expected 5500" in veto.evidence


def test_a_normal_submission_is_checked_in_well_under_a_second() -> None:
    """Does checking a normal submission take well under a second?"""
    started = time.monotonic()
    vetoes_of("correct")
    assert time.monotonic() - started < 1.0


def test_a_bad_rule_is_reported_by_name() -> None:
    """Is a misconception with an unknown veto id rejected with its name in the message?"""
    entry = {"name": "made-up", "veto": "no-such-veto", "stages": [2], "comm_psi": 5, "zh": "", "en": ""}
    with pytest.raises(ValueError, match="made-up"):
        Misconception.from_entry(entry, "code_misconceptions.yaml")
