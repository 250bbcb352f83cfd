"""Code vetoes on submitted cells: the lesson's exercise with the blanks filled and one mistake made (a YAML table),
every wrong sharding and communication multiple of a single stage, and the grading tests' table of plain bugs."""
from __future__ import annotations

import time
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
import yaml

from autograde.building.lesson_source import read_lesson
from autograde.building.mock_submissions import (
    MockSubmission,
    load_table,
    submission_source,
)
from autograde.grading.isolated_calls import call_isolated
from autograde.grading.sandbox.settings import Sandbox
from autograde.veto.code import PROBE_CALLS, find_code_vetoes
from autograde.veto.code_behaviour import observe
from autograde.veto.code_rules import RULES_PATH, CodeRules, Misconception

ROOT = Path(__file__).resolve().parent.parent
EXERCISE = read_lesson(ROOT / "lessons" / "lesson05.qmd").only_cell("exercise").source
SUBMISSIONS = {row.student: row for row in load_table(Path(__file__).parent / "data" / "code_submissions.yaml")}
GRADING_MISTAKES = load_table(Path(__file__).parent / "data" / "submissions" / "mistakes.yaml")
S, C = "wrong-shard-target", "wrong-comm-volume"

TERMS = ("params_bf16", "grads_bf16", "opt_fp32")
LESSON_SHARDS = {1: {"opt_fp32"}, 2: {"grads_bf16", "opt_fp32"}, 3: set(TERMS)}
"""What the lesson says each stage divides by dp (written here, not read from the rules, so a wrong rule fails)."""
LESSON_COMM = {1: 2, 2: 2, 3: 3}
"""The lesson's communication per stage, as a multiple of Ψ."""
COMM_BLANK = {1: "({m} if stage == 1 else 2) * num_params", 2: "({m} if stage == 2 else 2) * num_params", 3: "{m} * num_params"}
"""Fills of blank 4 (ZeRO-1/2) or 5 (ZeRO-3) that give one stage m·Ψ and leave the others right."""


def submission(name: str) -> str:
    """The source of one submitted cell, as the table describes it."""
    return submission_source(EXERCISE, SUBMISSIONS[name])


TIMEOUT_S = 5.0
"""Seconds each submission may run: ample for the exercise (≈0.1 s) on a loaded machine. Submissions run one after
another: the sandbox that answers them is not for use from several threads."""


@cache
def answers(source: str, timeout_s: float = TIMEOUT_S) -> dict:
    """What the submission's functions return for every probe call, run in an isolated process."""
    return dict(zip(PROBE_CALLS, call_isolated(source, PROBE_CALLS, Sandbox(cell_timeout=timeout_s))))


def vetoes_of(source: str, timeout_s: float = TIMEOUT_S) -> list:
    """The code vetoes a cell earns."""
    return find_code_vetoes(source, answers(source, timeout_s))


def found(name: str, timeout_s: float = TIMEOUT_S) -> list[tuple[str, int, str]]:
    """(veto id, stage, explanation name) for each veto the fixture earns."""
    return [(v.id, v.detail["stage"], v.detail["misconception"]["name"]) for v in vetoes_of(submission(name), timeout_s)]


def sharding(stage: int, sharded: frozenset[str]) -> str:
    """The exercise with `stage` dividing exactly `sharded` by dp, written as a student would."""
    kept = [term for term in TERMS if term not in sharded]
    divided = [f"({' + '.join(term for term in TERMS if term in sharded)}) / dp"] if sharded else []
    return submission_source(EXERCISE, MockSubmission("matrix", "", blanks={stage: " + ".join(kept + divided) + " + extra"}))


def communicating(stage: int, multiple: int) -> str:
    """The exercise with `stage` communicating multiple·Ψ."""
    blank = 5 if stage == 3 else 4
    return submission_source(EXERCISE, MockSubmission("matrix", "", blanks={blank: COMM_BLANK[stage].format(m=multiple)}))


SHARDINGS = [(stage, frozenset(terms)) for stage in (1, 2, 3) for size in range(4) for terms in combinations(TERMS, size)]
MULTIPLES = [(stage, multiple) for stage in (1, 2, 3) for multiple in (0, 1, 2, 3, 4, 6)]


@pytest.mark.parametrize(("stage", "sharded"), SHARDINGS)
def test_every_sharding_of_one_stage(stage: int, sharded: frozenset[str]) -> None:
    """Is a stage that divides any set of terms other than the lesson's vetoed (once, for that stage), and the lesson's set not?"""
    vetoes = vetoes_of(sharding(stage, sharded))
    if sharded == LESSON_SHARDS[stage]:
        assert vetoes == []
    else:
        assert [(v.id, v.detail["stage"]) for v in vetoes] == [(S, stage)]
        assert set(vetoes[0].detail["behaviour"]["sharded"][0]) == sharded


@pytest.mark.parametrize(("stage", "multiple"), MULTIPLES)
def test_every_comm_multiple_of_one_stage(stage: int, multiple: int) -> None:
    """Is a stage that communicates any multiple of Ψ other than 2Ψ (ZeRO-1/2) or 3Ψ (ZeRO-3) vetoed, and the right one not?"""
    vetoes = vetoes_of(communicating(stage, multiple))
    if multiple == LESSON_COMM[stage]:
        assert vetoes == []
    else:
        assert [(v.id, v.detail["stage"], v.detail["behaviour"]["comm"]) for v in vetoes] == [(C, stage, f"{multiple}Ψ")]


def divided_by(stage: int, sharded: frozenset[str], divisor: str) -> str:
    """The exercise with `stage` dividing exactly `sharded` by `divisor`, a name bound to a function of dp before the branch."""
    kept = [term for term in TERMS if term not in sharded]
    divided = [f"({' + '.join(term for term in TERMS if term in sharded)}) / shards"]
    row = MockSubmission(
        "amount", "", blanks={stage: " + ".join(kept + divided) + " + extra"}, replace={"    extra = 0.0\n": f"    extra = 0.0\n    shards = {divisor}\n"}
    )
    return submission_source(EXERCISE, row)


@pytest.mark.parametrize("divisor", ["dp - 1", "max(dp - 1, 1)", "2 * dp"])
@pytest.mark.parametrize("stage", [1, 2, 3])
def test_the_right_terms_divided_by_a_wrong_amount_are_no_wrong_target(stage: int, divisor: str) -> None:
    """Is a stage that divides the lesson's terms by dp - 1 (through a name the source cannot trace to dp) left without
    a wrong-shard-target veto: the amount is wrong, the target is right?"""
    assert vetoes_of(divided_by(stage, frozenset(LESSON_SHARDS[stage]), divisor)) == []


@pytest.mark.parametrize(("stage", "sharded"), [(1, frozenset(TERMS)), (2, frozenset(TERMS)), (3, frozenset({"grads_bf16", "opt_fp32"}))])
def test_wrong_terms_divided_by_a_wrong_amount_are_still_a_wrong_target(stage: int, sharded: frozenset[str]) -> None:
    """Does dividing the wrong terms by dp - 1 still earn wrong-shard-target for that stage?"""
    vetoes = vetoes_of(divided_by(stage, sharded, "dp - 1"))
    assert [(v.id, v.detail["stage"]) for v in vetoes] == [(S, stage)]


def test_correct_submission_earns_no_veto() -> None:
    """Does the reference answer pass without a veto?"""
    assert found("correct") == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("stage2_shards_everything", [(S, 2, "zero2-shards-everything")]),
        ("stage1_shards_gradients", [(S, 1, "zero1-shards-gradients")]),
        ("stage3_params_full", [(S, 3, "zero3-keeps-parameters-full")]),
        ("stage2_grads_not_optimizer", [(S, 2, "zero2-keeps-optimizer-full")]),
        ("shards_nothing", [(S, 1, "zero1-shards-nothing"), (S, 2, "zero2-shards-nothing"), (S, 3, "zero3-shards-nothing")]),
        ("comm_stage3_2psi", [(C, 3, "zero3-comm-like-zero2")]),
        ("comm_stage3_6psi", [(C, 3, "zero3-comm-three-times-ddp")]),
        ("comm_stage12_3psi", [(C, 1, "zero12-comm-like-zero3"), (C, 2, "zero12-comm-like-zero3")]),
        ("comm_4psi", [(C, 1, "zero12-comm-rs-ag-as-all-reduce"), (C, 2, "zero12-comm-rs-ag-as-all-reduce")]),
        ("comm_stage2_above_stage1", [(C, 1, "zero12-comm-reduce-scatter-only")]),
        ("k_fixed_and_stage2_shards_everything", [(S, 2, "zero2-shards-everything")]),
    ],
)
def test_known_mistakes_carry_their_explanation(name: str, expected: list[tuple[str, int, str]]) -> None:
    """Does a wrong stage named in code_misconceptions.yaml get its veto with that misconception's explanation?"""
    assert found(name) == expected


def test_stage2_sharding_parameters_is_caught_from_the_source() -> None:
    """Is stage 2 sharding the parameters instead of the gradients reported, though its numbers equal the right ones?"""
    (veto,) = vetoes_of(submission("stage2_divides_params"))
    assert (veto.id, veto.detail["misconception"]["name"]) == (S, "zero2-shards-parameters-not-gradients")
    assert veto.detail["expected"] == veto.detail["got"]
    assert veto.detail["behaviour"]["decided_by"] == "source"
    assert "grads_bf16 + (params_bf16 + opt_fp32) / dp" in veto.evidence


def test_numbers_that_fit_no_set_are_read_from_the_source() -> None:
    """Is a cell that returns GB (numbers no set of terms explains) judged by what its formula divides by dp?"""
    (veto,) = vetoes_of(submission("gigabytes_stage2_full"))
    assert (veto.id, veto.detail["stage"], veto.detail["behaviour"]["decided_by"]) == (S, 2, "source")
    assert "divides params_bf16, grads_bf16, opt_fp32 by dp" in veto.evidence


def test_an_unknown_wrong_sharding_gets_a_precise_generic_message() -> None:
    """Does a wrong sharding no misconception names say which stage, which terms, and what the lesson shards?"""
    (veto,) = vetoes_of(submission("stage1_shards_parameters_only"))
    assert veto.detail["misconception"]["en"] == "ZeRO-1 shards parameters; the lesson's ZeRO-1 shards optimizer states"
    assert veto.detail["misconception"]["zh"] == "ZeRO-1 分片了参数；课上 ZeRO-1 分片的是优化器状态"
    assert veto.detail["lesson"] == {"sharded": ["opt_fp32"]}


def test_an_unknown_wrong_volume_gets_a_precise_generic_message() -> None:
    """Does a volume no misconception names say which stage, what it sends, and the lesson's ledger?"""
    (veto,) = vetoes_of(submission("stage3_comm_5psi"))
    assert veto.detail["misconception"]["en"].startswith("ZeRO-3 communicates 5Ψ; the lesson's is 3Ψ (forward all-gather")
    assert "returned 5000 (5Ψ), expected 3000 (3Ψ)" in veto.evidence


@pytest.mark.parametrize(
    "name",
    [
        "leftover_blank", "syntax_error", "sys_exit", "os_exit", "arithmetic_bug_comm", "arithmetic_bug_memory", "fp32_branch_wrong",
        "floor_division", "int_rounding", "k_fixed_at_12", "missing_extra", "inline_numbers", "hardcoded_7b",
    ],
)
def test_plain_bugs_earn_no_veto(name: str) -> None:
    """Does a bug that leaves the sharded terms and the Ψ multiples right (blank, syntax, exit, arithmetic, `//`, int(),
    k fixed at 12, no `+ extra`, a lookup table) go without a veto?"""
    assert found(name) == []


GRADING_VETOES = {
    "z2_full_shard": [(S, 2)],
    "z1_shards_grads": [(S, 1)],
    "z2_params_not_grads": [(S, 2)],
    "comm_swapped": [(C, 1), (C, 2), (C, 3)],
    "deletes_tests": [(C, 1), (C, 2), (C, 3)],
    "loop_in_comm": [(C, 3)],
}
"""The grading tests' rows that state a wrong sharding or a wrong multiple of Ψ; every other row is a plain bug.
deletes_tests returns 0 for every stage and loop_in_comm's `next(iter(int, 1))` returns 0 at once: 0Ψ is a wrong volume."""
READ_BY_THE_SANDBOX = {"patches_builtins", "always_equal"}
"""Rows whose numbers depend on how the sandbox reads a patched interpreter or a float subclass, so not pinned here."""
NEVER_RETURNS = {"top_level_loop"}
"""Rows whose cell never finishes: given a second, not the full timeout, since no call is answered anyway."""


GRADED_ROWS = [row for row in GRADING_MISTAKES if "ungradable" not in row.expect and row.student not in READ_BY_THE_SANDBOX]


@pytest.mark.parametrize("row", GRADED_ROWS, ids=lambda row: row.student)
def test_the_grading_tables_plain_bugs_earn_no_veto(row: MockSubmission) -> None:
    """Do the grading tests' submissions get a code veto only where they shard the wrong terms or send a wrong multiple of Ψ?"""
    vetoes = vetoes_of(submission_source(EXERCISE, row), 1.0 if row.student in NEVER_RETURNS else TIMEOUT_S)
    assert [(v.id, v.detail["stage"]) for v in vetoes] == GRADING_VETOES.get(row.student, [])


def test_infinite_loop_returns_within_the_timeout() -> None:
    """Does a submission that never returns give no veto, within the timeout?"""
    started = time.monotonic()
    assert found("infinite_loop", timeout_s=1.0) == []
    assert time.monotonic() - started < 3.0


def test_answers_before_a_hang_are_kept() -> None:
    """Are the stages answered before the hanging stage 3 still observed?"""
    source = submission("infinite_loop")
    behaviours = observe(source, answers(source, 1.0))
    assert behaviours[1].sharded == (frozenset({"opt_fp32"}),)
    assert behaviours[3].memory is None and behaviours[3].sharded == ()


def test_functions_stay_callable_after_a_top_level_exit() -> None:
    """Does a top-level sys.exit() leave the functions it defined observable?"""
    source = submission("sys_exit")
    behaviours = observe(source, answers(source))
    assert behaviours[2].sharded == (frozenset({"grads_bf16", "opt_fp32"}),)
    assert behaviours[3].comm_psi == 3


def test_wrong_fp32_branch_is_observed_but_not_vetoed() -> None:
    """Is a swapped FP32 extra seen in the behaviour while the terms stay right?"""
    source = submission("fp32_branch_wrong")
    behaviours = observe(source, answers(source))
    assert (behaviours[1].fp32_extra, behaviours[2].fp32_extra) == ("4Ψ/dp", "4Ψ")
    assert behaviours[2].sharded == (frozenset({"grads_bf16", "opt_fp32"}),)


def test_evidence_names_inputs_expected_got_and_misconception() -> None:
    """Does a veto carry inputs, expected, got and the misconception, plus a one-line evidence?"""
    (veto,) = vetoes_of(submission("stage2_shards_everything"))
    assert veto.origin == "code"
    assert veto.detail["inputs"] == {"function": "zero_memory_per_gpu", "num_params": 1000, "dp": 4, "stage": 2, "k": 12}
    assert (veto.detail["expected"], veto.detail["got"]) == (5500, 4000)
    assert veto.detail["misconception"]["en"].startswith("ZeRO-2 shards the parameters")
    assert "\n" not in veto.evidence and "returned 4000, expected 5500" in veto.evidence


def test_a_normal_submission_is_checked_in_well_under_a_second() -> None:
    """Does checking a normal submission take well under a second?"""
    source = submission("correct") + "\n# timed"
    started = time.monotonic()
    vetoes_of(source)
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "made-up", "stages": [2], "comm_psi": 5, "sharded": [], "zh": "", "en": ""}, "made-up"),
        ({"name": "the-answer", "stages": [3], "comm_psi": 3, "zh": "", "en": ""}, "the-answer"),
        ({"name": "bananas", "stages": [1], "sharded": ["bananas"], "zh": "", "en": ""}, "bananas"),
    ],
)
def test_a_bad_rule_is_reported_by_name(tmp_path: Path, entry: dict, message: str) -> None:
    """Is a misconception with two kinds, one that is the lesson's answer, or one with unknown terms rejected by name?"""
    data = yaml.safe_load(RULES_PATH.read_text(encoding="utf-8"))
    broken = tmp_path / "code_misconceptions.yaml"
    data["misconceptions"].append(entry)
    broken.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        CodeRules.from_file(broken)


def test_a_misconception_entry_needs_one_kind() -> None:
    """Is an entry with neither a sharded set nor a multiple of Ψ rejected?"""
    with pytest.raises(ValueError, match="needs stages"):
        Misconception.from_entry({"name": "vague", "stages": [1], "zh": "", "en": ""}, "code_misconceptions.yaml")
