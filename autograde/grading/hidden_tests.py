"""Hidden tests whose oracle stays with the grader: each is a list of checks on calls the submission answers.

The sandbox only reports what the student's functions returned for each `Call`; `HiddenTest.judge`
compares those plain numbers with the expected values here, outside the student's process. The
same definitions run in an ordinary kernel through `check_here`, so the source notebook's test
cells still work in Jupyter, under nbval and under plain nbgrader.
"""
from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from autograde.assignment_spec import load_spec
from autograde.calls import Answer, Call

RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-9
"""Agreement asked of a number: |got − expected| ≤ 1e-9·|expected| + 1e-9."""


@dataclass(frozen=True)
class Difference:
    """The first call's number minus the second's."""

    first: Call
    second: Call


Term = Call | Difference


@dataclass(frozen=True)
class Check:
    """One comparison: `got` must agree with `expected` (a number, or another call's number)."""

    what: str
    got: Term
    expected: Term | float

    def calls(self) -> Iterator[Call]:
        """The calls this check reads."""
        for term in (self.got, self.expected):
            if isinstance(term, Call):
                yield term
            elif isinstance(term, Difference):
                yield from (term.first, term.second)


@dataclass(frozen=True)
class Verdict:
    """Pass or fail, with the one line a student sees."""

    passed: bool
    line: str


class CheckFailed(Exception):
    """A check that does not hold; the message is the line shown to the student."""


@dataclass(frozen=True)
class HiddenTest:
    """A graded test cell: its grade id, title, and checks in the order they are judged."""

    grade_id: str
    title: str
    checks: tuple[Check, ...]

    @cached_property
    def calls(self) -> tuple[Call, ...]:
        """Every call the checks read, each once, in first-use order."""
        return tuple(dict.fromkeys(call for check in self.checks for call in check.calls()))

    def judge(self, answers: Mapping[Call, Answer]) -> Verdict:
        """The first check that fails decides; all holding is a pass."""
        try:
            for check in self.checks:
                _judge_check(check, answers)
        except CheckFailed as failure:
            return Verdict(False, str(failure))
        return Verdict(True, f"{self.title}：通过（{len(self.checks)} 项检查）")


def _value(term: Term | float, answers: Mapping[Call, Answer], what: str) -> float | int:
    """The number a term stands for; CheckFailed when a call gave none."""
    if isinstance(term, Call):
        answer = answers.get(term, Answer(None, "was not called"))
        if answer.number is None:
            raise CheckFailed(f"{what}: {answer.why}")
        return answer.number
    if isinstance(term, Difference):
        return _value(term.first, answers, what) - _value(term.second, answers, what)
    return term


def _judge_check(check: Check, answers: Mapping[Call, Answer]) -> None:
    """Raise CheckFailed unless got and expected agree within the tolerance."""
    got = _value(check.got, answers, check.what)
    expected = _value(check.expected, answers, check.what)
    try:
        agree = abs(got - expected) <= RELATIVE_TOLERANCE * abs(expected) + ABSOLUTE_TOLERANCE
    except ArithmeticError:  # an int too large for a float
        agree = False
    if not agree:
        raise CheckFailed(f"{check.what}: expected {expected!r}, got {got!r}")


@cache
def load_hidden_tests(assignment: str) -> dict[str, HiddenTest]:
    """grade_id → HiddenTest for an assignment, from its spec (titles) and its hidden_tests.py (checks)."""
    spec = load_spec(assignment)
    path = spec.folder / spec.hidden_tests
    module_spec = importlib.util.spec_from_file_location(f"autograde_hidden_tests_{assignment}", path)
    if module_spec is None or module_spec.loader is None:
        raise FileNotFoundError(f"{path}: cannot load the hidden tests of {assignment}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    checks: Mapping[str, Callable[[], Iterable[Check]]] = module.CHECKS
    missing = [test.grade_id for test in spec.tests if test.grade_id not in checks]
    if missing:
        raise ValueError(f"{path}: no checks for {', '.join(missing)}; add them to CHECKS")
    return {test.grade_id: HiddenTest(test.grade_id, test.title, tuple(checks[test.grade_id]())) for test in spec.tests}


def answer_in_process(namespace: Mapping[str, Any], call: Call) -> Answer:
    """Make one call in this process (an ordinary kernel), read as the sandbox reads it."""
    from autograde.grading.sandbox.kernel import plain_number

    try:
        value = namespace[call.function](*call.args, **dict(call.kwargs))
    except KeyError:
        return Answer(None, f"{call.function} is not defined")
    except Exception as error:  # the student's function may raise anything
        return Answer(None, f"raised {type(error).__name__}: {str(error).splitlines()[0][:300] if str(error) else ''}")
    ok, number = plain_number(value)
    return Answer(number) if ok else Answer(None, number)


def check_here(assignment: str, grade_id: str, namespace: Mapping[str, Any]) -> None:
    """Run one hidden test in this kernel (source notebook, nbval, plain nbgrader): AssertionError when it fails."""
    test = load_hidden_tests(assignment)[grade_id]
    verdict = test.judge({call: answer_in_process(namespace, call) for call in test.calls})
    if not verdict.passed:
        raise AssertionError(verdict.line)
    print("✓ " + verdict.line)
