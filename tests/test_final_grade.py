"""The final status of a student: ungradable > veto > needs-manual-grading > pass / fail, on small inputs."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from autograde.assignment_spec import load_spec
from autograde.results.final_grade import DecidedVeto, FinalGrade, Part, decide_vetoes
from autograde.results.overrides import Override

SPEC = load_spec("lesson05")
ALL_TESTS = tuple(float(t.points) for t in SPEC.tests)
FOUND = {"id": "activations-sharded", "evidence": "ZeRO-3 也把激活切成 N_d 份", "origin": "text", "cell": "q1"}


def grade(answers: Sequence[float | None], tests: Sequence[float | None] = ALL_TESTS,
          vetoes: Sequence[DecidedVeto] = ()) -> FinalGrade:
    """A lesson05 row with these points per hidden test and per answer (None = not graded yet)."""
    return FinalGrade(
        "student",
        SPEC.pass_points,
        tests=tuple(Part(t.grade_id, t.points, p) for t, p in zip(SPEC.tests, tests, strict=True)),
        answers=tuple(Part(a.grade_id, a.points, p) for a, p in zip(SPEC.answers, answers, strict=True)),
        vetoes=tuple(vetoes),
    )


def veto(decision: str) -> DecidedVeto:
    """The activations-sharded finding in Q1, with an instructor decision."""
    return DecidedVeto(FOUND["id"], FOUND["evidence"], "q1", "text", decision)


def test_exactly_the_pass_line_passes() -> None:
    """Does a total of exactly 8/10 pass?"""
    row = grade([2, 2, 0])
    assert (row.total, row.status) == (8, "pass")


def test_half_a_point_below_fails() -> None:
    """Does 7.5/10 fail?"""
    row = grade([2, 1.5, 0])
    assert (row.total, row.status) == (7.5, "fail")


def test_pending_answer_is_not_zero() -> None:
    """Is an ungraded answer pending (no total, needs manual grading) rather than a 0 that fails?"""
    row = grade([None, None, None])
    assert row.status == "needs-manual-grading"
    assert row.total is None
    assert (row.points, row.pending) == (SPEC.code_points, tuple(a.grade_id for a in SPEC.answers))


def test_answer_that_scored_zero_is_final() -> None:
    """Is an answer graded 0 (e.g. 'No response') a final 0 that can fail the student?"""
    row = grade([0, 0, 0], tests=[1, 0, 1, 1])
    assert (row.total, row.code_points, row.status) == (3, 3, "fail")


def test_ungradable_is_not_zero() -> None:
    """Does an ungradable submission have no points at all, and win over a veto?"""
    row = FinalGrade("grace", SPEC.pass_points, vetoes=(veto("upheld"),), ungradable="lesson05.ipynb is not valid JSON; resubmit")
    assert row.status == "ungradable"
    assert (row.points, row.total, row.code_points) == (None, None, None)
    assert row.to_dict()["parts"] == {}


@pytest.mark.parametrize(("decision", "status", "label"), [
    ("undecided", "veto", "veto (undecided)"),
    ("upheld", "veto", "veto (upheld)"),
    ("dismissed", "pass", "pass"),
])
def test_veto_blocks_full_marks_until_dismissed(decision: str, status: str, label: str) -> None:
    """Does a veto fail a 10/10 student when undecided or upheld, and not once dismissed?"""
    row = grade([2, 2, 2], vetoes=[veto(decision)])
    assert (row.total, row.status, row.status_label) == (10, status, label)


def test_veto_wins_over_pending_answers() -> None:
    """Is a student with a veto candidate and ungraded answers shown as a veto, not just pending?"""
    assert grade([None, 2, None], vetoes=[veto("undecided")]).status == "veto"


def test_upheld_wins_over_undecided_in_the_label() -> None:
    """With one upheld and one undecided veto, is the student shown as upheld (final)?"""
    row = grade([2, 2, 2], vetoes=[veto("undecided"), DecidedVeto("wrong-comm-volume", "3Ψ", decision="upheld")])
    assert row.status_label == "veto (upheld)"


def test_decision_applies_to_every_finding_of_that_id() -> None:
    """Does one override decide all of a student's findings with that veto id, and no other id?"""
    found = [FOUND, dict(FOUND, cell="q3"), {"id": "wrong-comm-volume", "evidence": "3Ψ", "origin": "code"}]
    decided = decide_vetoes(found, {"activations-sharded": Override("s", "activations-sharded", "dismissed", "quoted")})
    assert [(v.id, v.cell, v.decision) for v in decided] == [
        ("activations-sharded", "q1", "dismissed"), ("activations-sharded", "q3", "dismissed"),
        ("wrong-comm-volume", "", "undecided")]


def test_upheld_override_without_finding_adds_an_instructor_veto() -> None:
    """Can an instructor uphold a veto the checks missed, and is a dismissal of nothing ignored?"""
    decided = decide_vetoes([], {
        "unbounded-scaling": Override("s", "unbounded-scaling", "upheld", "Q3 says N_d → ∞ needs no memory"),
        "activations-sharded": Override("s", "activations-sharded", "dismissed", "not found anyway"),
    })
    assert decided == (DecidedVeto("unbounded-scaling", "Q3 says N_d → ∞ needs no memory", origin="instructor",
                                   decision="upheld", reason="Q3 says N_d → ∞ needs no memory"),)
