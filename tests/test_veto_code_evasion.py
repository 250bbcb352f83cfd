"""Code vetoes a submission cannot dodge: IPython syntax, functions that raise, die or answer differently for the probes."""
from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from autograde.building.lesson_source import read_lesson
from autograde.building.mock_submissions import MockSubmission, submission_source
from autograde.grading.hidden_tests import load_hidden_tests
from autograde.grading.isolated_calls import call_isolated
from autograde.grading.sandbox.settings import Sandbox
from autograde.veto.code import PROBE_CALLS, find_code_vetoes
from autograde.veto.code_behaviour import MEMORY_PROBES

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")

ROOT = Path(__file__).resolve().parent.parent
EXERCISE = read_lesson(ROOT / "lessons" / "lesson05.qmd").only_cell("exercise").source
STAGE2_SHARDS_PARAMS = submission_source(EXERCISE, MockSubmission("wrong", "", blanks={2: "(params_bf16 + grads_bf16 + opt_fp32) / dp + extra"}))
"""ZeRO-2 dividing the parameters too: a wrong shard target."""
PROBES = repr({(num_params, dp) for num_params, dp, _ in MEMORY_PROBES})
ALL_CALLS = tuple(dict.fromkeys([*PROBE_CALLS, *(call for test in load_hidden_tests("lesson05").values() for call in test.calls)]))
"""Every call a graded run answers: the hidden tests' (which hold the probes)."""


@cache
def graded_answers(source: str) -> dict:
    """What the submission's functions return for every call of the hidden tests, in the sandbox."""
    return dict(zip(ALL_CALLS, call_isolated(source, ALL_CALLS, Sandbox(cell_timeout=20))))


def stage2_vetoes(source: str) -> list:
    """The code vetoes for ZeRO-2 a submitted cell earns, with all the hidden tests' answers."""
    return [veto for veto in find_code_vetoes(source, graded_answers(source)) if veto.detail["stage"] == 2]


def test_the_wrong_formula_alone_is_vetoed() -> None:
    """Is the plain mistake vetoed from its numbers (the baseline the evasions below try to escape)?"""
    (veto,) = stage2_vetoes(STAGE2_SHARDS_PARAMS)
    assert veto.id == "wrong-shard-target" and veto.detail["behaviour"]["decided_by"] == "numbers"


def test_an_ipython_magic_does_not_hide_the_source() -> None:
    """Does a line only IPython reads (`%time`, `!ls`) leave the cell's structure readable and the veto standing?"""
    source = STAGE2_SHARDS_PARAMS + "\n%time make_table()\n!true\n"
    assert [veto.id for veto in stage2_vetoes(source)] == ["wrong-shard-target"]


def test_raising_for_the_probes_only_is_judged_on_the_other_calls() -> None:
    """When the function raises for exactly the probes' arguments, do the hidden tests' other calls decide the veto?"""
    source = STAGE2_SHARDS_PARAMS + f"""
_real = zero_memory_per_gpu
def zero_memory_per_gpu(num_params, dp, stage, k=12, fp32_grad_accum=False):
    if (num_params, dp) in {PROBES}:
        raise RuntimeError("not telling")
    return _real(num_params, dp, stage, k, fp32_grad_accum)
"""
    (veto,) = stage2_vetoes(source)
    assert veto.id == "wrong-shard-target"


def test_right_answers_for_the_probes_only_are_called_probe_evaded() -> None:
    """When the probes get the lesson's numbers and every other call the wrong ones, is it vetoed and marked evaded?"""
    source = STAGE2_SHARDS_PARAMS + f"""
_wrong = zero_memory_per_gpu
def zero_memory_per_gpu(num_params, dp, stage, k=12, fp32_grad_accum=False):
    if (num_params, dp) in {PROBES} and stage == 2:
        return 2 * num_params + (2 * num_params + k * num_params) / dp
    return _wrong(num_params, dp, stage, k, fp32_grad_accum)
"""
    (veto,) = stage2_vetoes(source)
    assert veto.detail["behaviour"]["probe_evaded"] is True and "probe evaded" in veto.evidence


def test_a_function_that_never_answers_is_judged_by_its_source() -> None:
    """When every call kills the process (no number at all), is the veto read from the formula, though a wrapper hides it?"""
    source = STAGE2_SHARDS_PARAMS + """
_real = zero_memory_per_gpu
def zero_memory_per_gpu(num_params, dp, stage, k=12, fp32_grad_accum=False):
    import os
    os._exit(1)
"""
    (veto,) = stage2_vetoes(source)
    assert veto.detail["behaviour"]["decided_by"] == "source" and "divides" in veto.evidence
