"""Hidden tests judged outside the student's process: each check's verdict from plain-number answers."""
from __future__ import annotations

import pytest

from autograde.calls import Call
from autograde.grading.hidden_tests import (
    Answer,
    Check,
    Difference,
    HiddenTest,
    check_here,
    load_hidden_tests,
)

F, G = Call("f", (1,)), Call("g", (1,))


def judge(*checks: Check, **answers: float | str) -> tuple[bool, str]:
    """The verdict of a test made of `checks` given f's and g's answers (a str answer is a reason)."""
    given = {Call(name, (1,)): Answer(None, value) if isinstance(value, str) else Answer(value) for name, value in answers.items()}
    verdict = HiddenTest("test_x", "X", checks).judge(given)
    return verdict.passed, verdict.line


def test_agreement_within_the_relative_tolerance_passes():
    """Is a number within 1e-9 relative of the expected value a pass, and one just outside a fail?"""
    assert judge(Check("f", F, 1e12), f=1e12 * (1 + 5e-10))[0]
    passed, line = judge(Check("f", F, 1e12), f=1e12 * (1 + 5e-9))
    assert not passed and line.startswith("f: expected 1000000000000.0, got")


def test_the_first_failing_check_decides_the_line():
    """Does the line name the first check that fails, not a later one?"""
    assert judge(Check("first", F, 1.0), Check("second", G, 2.0), f=0.0, g=0.0) == (False, "first: expected 1.0, got 0.0")


def test_a_missing_number_fails_with_its_reason():
    """Does a call that returned no number fail its check with the sandbox's reason?"""
    assert judge(Check("f(1)", F, 1.0), f="returned str, expected a plain int or float") == (
        False, "f(1): returned str, expected a plain int or float")


def test_differences_and_expected_calls():
    """Can a check compare a difference of two calls with a number, and one call with another?"""
    assert judge(Check("diff", Difference(F, G), 4.0), Check("same", F, G), f=5.0, g=1.0) == (False, "same: expected 1.0, got 5.0")
    assert judge(Check("diff", Difference(F, G), 0.0), Check("same", F, G), f=3.0, g=3.0)[0]


def test_an_int_too_large_for_a_float_fails_instead_of_crashing():
    """Does a huge int answer fail the check rather than raise OverflowError in the grader?"""
    assert judge(Check("f", F, 1.5), f=10 ** 400)[0] is False


def test_calls_are_listed_once_in_first_use_order():
    """Does a test list each call it reads once, in the order checks first use them?"""
    test = HiddenTest("t", "T", (Check("a", Difference(G, F), 0.0), Check("b", F, G)))
    assert test.calls == (G, F)


def test_lesson05_tests_pass_on_the_solution_and_fail_on_a_mistake():
    """Does check_here pass the lesson's formulas and raise AssertionError for ZeRO-1/2 at 3Ψ?"""
    def zero_communication_volume(num_params, stage):
        return (3 if stage >= 1 else 2) * num_params

    check_here("lesson05", "test_fp32_branch", {"zero_memory_per_gpu": _solution_memory})
    with pytest.raises(AssertionError, match=r"^zero_communication_volume\(7000000000, stage=1\): expected 14000000000"):
        check_here("lesson05", "test_communication", {"zero_communication_volume": zero_communication_volume})


def _solution_memory(num_params, dp, stage, k=12, fp32_grad_accum=False):
    """The lesson's memory formula, as a student would write it."""
    params, grads, optimizer = 2 * num_params, 2 * num_params, k * num_params
    extra = (4 * num_params if stage <= 1 else 4 * num_params / dp) if fp32_grad_accum else 0
    return {0: params + grads + optimizer, 1: params + grads + optimizer / dp, 2: params + (grads + optimizer) / dp,
            3: (params + grads + optimizer) / dp}[stage] + extra


def test_every_hidden_test_of_the_spec_has_checks():
    """Does lesson05 define checks for each of its four hidden tests, each making hundreds of calls?"""
    tests = load_hidden_tests("lesson05")
    assert sorted(tests) == ["test_communication", "test_dp1", "test_formulas", "test_fp32_branch"]
    assert all(len(test.calls) >= 300 for test in tests.values())
