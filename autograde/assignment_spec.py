"""The assignment spec (autograde/assignments/<name>/assignment.yaml): grade ids, points, cell sources."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from autograde.yaml_data import read_yaml

ASSIGNMENTS_DIR = Path(__file__).with_name("assignments")
REPO_ROOT = Path(__file__).resolve().parent.parent


class SpecError(ValueError):
    """An assignment spec that cannot be used."""


@dataclass(frozen=True)
class TestCellSpec:
    """One hidden-test cell: grade id, points and title (its checks are in the assignment's hidden_tests.py)."""

    grade_id: str
    points: int
    title: str


@dataclass(frozen=True)
class AnswerCellSpec:
    """One manually graded free-text answer and the lesson heading it follows."""

    grade_id: str
    points: int
    after_heading: str


@dataclass(frozen=True)
class AssignmentSpec:
    """Everything the build needs to know about one assignment."""

    folder: Path
    assignment: str
    notebook: str
    lesson: Path
    code_answer_id: str
    exercise_role: str
    solution_role: str
    tests: tuple[TestCellSpec, ...]
    hidden_tests: str
    self_check_id: str
    self_check_file: str
    answers: tuple[AnswerCellSpec, ...]
    site_only_classes: tuple[str, ...]
    pass_points: float

    def read(self, name: str) -> str:
        """The text of a file beside the spec."""
        return (self.folder / name).read_text(encoding="utf-8")

    @property
    def code_points(self) -> int:
        """Points available from the hidden tests."""
        return sum(test.points for test in self.tests)

    @property
    def answer_points(self) -> int:
        """Points available from the manually graded answers."""
        return sum(answer.points for answer in self.answers)


def load_spec(assignment: str, root: Path = REPO_ROOT) -> AssignmentSpec:
    """Load autograde/assignments/<assignment>/assignment.yaml; a one-line error if it is missing or broken."""
    path = ASSIGNMENTS_DIR / assignment / "assignment.yaml"
    if not path.exists():
        known = ", ".join(sorted(p.name for p in ASSIGNMENTS_DIR.iterdir() if (p / "assignment.yaml").exists()))
        raise SpecError(f"no assignment '{assignment}' (expected {path}); known assignments: {known}")
    try:
        raw = read_yaml(path)
        return AssignmentSpec(
            folder=path.parent,
            assignment=raw["assignment"],
            notebook=raw["notebook"],
            lesson=root / raw["lesson"],
            code_answer_id=raw["code_answer"]["grade_id"],
            exercise_role=raw["code_answer"]["exercise_role"],
            solution_role=raw["code_answer"]["solution_role"],
            tests=tuple(TestCellSpec(**test) for test in raw["tests"]),
            hidden_tests=raw["hidden_tests"],
            self_check_id=raw["self_check"]["grade_id"],
            self_check_file=raw["self_check"]["file"],
            answers=tuple(AnswerCellSpec(**answer) for answer in raw["answers"]),
            site_only_classes=tuple(raw.get("site_only_classes", ())),
            pass_points=float(raw["pass_points"]),
        )
    except (KeyError, TypeError, yaml.YAMLError) as error:
        raise SpecError(f"{path}: malformed assignment spec ({error}); compare with the lesson05 spec") from None
