"""Reading overrides.yaml: the instructor's decisions, and a one-line error for each way the file can be wrong."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from autograde.results.overrides import Override, OverridesError, load_overrides

DATA = Path(__file__).parent / "data" / "report" / "overrides"
EXAMPLES = Path(__file__).parent.parent / "examples"
STUDENTS = ("alice", "bob", "carol", "dave")


def test_valid_file_gives_one_override_per_student_and_veto() -> None:
    """Are upheld and dismissed decisions read, keyed by (student, veto id)?"""
    overrides = load_overrides(DATA / "valid.yaml", STUDENTS)
    assert overrides[("carol", "activations-sharded")] == Override(
        "carol", "activations-sharded", "dismissed", "Q1 quotes the misconception in order to refute it")
    assert overrides[("bob", "wrong-shard-target")].decision == "upheld"
    assert len(overrides) == 2


def test_absent_or_empty_file_means_no_decisions() -> None:
    """Is a course without overrides.yaml (or with an empty one) simply undecided?"""
    assert load_overrides(DATA / "absent.yaml", STUDENTS) == {}
    assert load_overrides(DATA / "empty.yaml", STUDENTS) == {}


def test_absent_file_given_explicitly_is_an_error() -> None:
    """Is a mistyped --overrides path reported instead of silently ignored?"""
    with pytest.raises(OverridesError, match="absent.yaml: no such file"):
        load_overrides(DATA / "absent.yaml", STUDENTS, required=True)


@pytest.mark.parametrize(("fixture", "says"), [
    ("unknown_student.yaml", "entry 1: no submission from student 'mallory'; fix the id (known: alice, bob, carol, dave)"),
    ("unknown_veto.yaml", "entry 1: unknown veto id 'activation-sharding'; use one of"),
    ("bad_decision.yaml", "entry 1: decision 'rejected' must be 'upheld' or 'dismissed'"),
    ("missing_reason.yaml", "entry 1: missing reason; each entry has exactly student, veto, decision, reason"),
    ("misspelt_field.yaml", "entry 1: unknown field(s) desicion;"),
    ("twice.yaml", "entry 2 decides carol/activations-sharded a second time; keep one entry"),
    ("not_a_list.yaml", "expected a list of {student, veto, decision, reason} entries"),
    ("broken.yaml", "not valid YAML at line"),
])
def test_bad_file_is_one_line_naming_the_file_and_the_fix(fixture: str, says: str) -> None:
    """Does each mistake give one line that names the file, the entry and what to change?"""
    with pytest.raises(OverridesError) as raised:
        load_overrides(DATA / fixture, STUDENTS)
    message = str(raised.value)
    assert message.startswith(f"{DATA / fixture}: ")
    assert says in message
    assert "\n" not in message


def test_documented_example_is_valid_for_the_example_class() -> None:
    """Does examples/overrides.yaml load against the students of examples/submissions.yaml?"""
    students = [row["student"] for row in yaml.safe_load((EXAMPLES / "submissions.yaml").read_text(encoding="utf-8"))]
    assert load_overrides(EXAMPLES / "overrides.yaml", students, required=True)
