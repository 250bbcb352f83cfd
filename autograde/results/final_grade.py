"""A student's final grade: points per graded cell, vetoes with the instructor's decisions, and the status they give."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from autograde.results.overrides import Override

Decision = Literal["undecided", "upheld", "dismissed"]
Status = Literal["pass", "fail", "veto", "needs-manual-grading", "ungradable"]
STATUSES: tuple[Status, ...] = ("pass", "fail", "veto", "needs-manual-grading", "ungradable")


@dataclass(frozen=True)
class Part:
    """One graded cell of the notebook."""

    grade_id: str
    max_points: float
    points: float | None
    """None while the cell still waits for a manual grade."""


@dataclass(frozen=True)
class DecidedVeto:
    """A veto finding together with what the instructor decided about it."""

    id: str
    evidence: str
    cell: str = ""
    origin: str = "text"
    """"text" or "code" for the automatic checks; "instructor" for a veto only overrides.yaml raises."""
    decision: Decision = "undecided"
    reason: str = ""

    @property
    def blocks_pass(self) -> bool:
        """Whether this veto still stops the student passing (anything but a dismissal does)."""
        return self.decision != "dismissed"

    def to_dict(self) -> dict[str, str]:
        """The JSON form."""
        return {"id": self.id, "evidence": self.evidence, "cell": self.cell, "origin": self.origin,
                "decision": self.decision, "reason": self.reason}


def decide_vetoes(found: Sequence[Mapping[str, Any]], overrides: Mapping[str, Override]) -> tuple[DecidedVeto, ...]:
    """Attach each veto id's override to the findings (vetoes.json entries); an upheld id nobody found is added."""
    decided = [
        DecidedVeto(v["id"], v["evidence"], v.get("cell", ""), v.get("origin", "text"),
                    overrides[v["id"]].decision if v["id"] in overrides else "undecided",
                    overrides[v["id"]].reason if v["id"] in overrides else "")
        for v in found
    ]
    found_ids = {v["id"] for v in found}
    decided += [DecidedVeto(o.veto, o.reason, origin="instructor", decision="upheld", reason=o.reason)
                for o in overrides.values() if o.decision == "upheld" and o.veto not in found_ids]
    return tuple(decided)


@dataclass(frozen=True)
class FinalGrade:
    """One student's row of the final report; `status` applies the course's precedence."""

    student: str
    pass_points: float
    """The pass line (the spec's pass_points)."""
    tests: tuple[Part, ...] = ()
    answers: tuple[Part, ...] = ()
    vetoes: tuple[DecidedVeto, ...] = ()
    ungradable: str | None = None
    """Why the submission could not be graded; wins over any score."""

    @property
    def parts(self) -> tuple[Part, ...]:
        """The hidden tests, then the manually graded answers."""
        return self.tests + self.answers

    @property
    def code_points(self) -> float | None:
        """Points from the hidden tests so far (None when ungradable)."""
        return None if self.ungradable else sum(p.points or 0.0 for p in self.tests)

    @property
    def points(self) -> float | None:
        """Points so far, pending cells not counted (None when ungradable)."""
        return None if self.ungradable else sum(p.points or 0.0 for p in self.parts)

    @property
    def pending(self) -> tuple[str, ...]:
        """Grade ids still waiting for a grade."""
        return tuple(p.grade_id for p in self.parts if p.points is None)

    @property
    def total(self) -> float | None:
        """The final points, only once nothing is pending."""
        return None if self.ungradable or self.pending else self.points

    @property
    def status(self) -> Status:
        """ungradable > veto (any not dismissed) > needs-manual-grading > pass (total ≥ pass line) / fail."""
        if self.ungradable:
            return "ungradable"
        if any(v.blocks_pass for v in self.vetoes):
            return "veto"
        if self.total is None:
            return "needs-manual-grading"
        return "pass" if self.total >= self.pass_points else "fail"

    @property
    def status_label(self) -> str:
        """The status as shown to people: a veto says whether it is upheld or still undecided."""
        if self.status != "veto":
            return self.status
        return "veto (upheld)" if any(v.decision == "upheld" for v in self.vetoes) else "veto (undecided)"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the row."""
        return {
            "student": self.student,
            "status": self.status,
            "status_label": self.status_label,
            "parts": {p.grade_id: p.points for p in self.parts},
            "code": self.code_points,
            "points": self.points,
            "total": self.total,
            "pending": list(self.pending),
            "vetoes": [v.to_dict() for v in self.vetoes],
            "ungradable": self.ungradable,
        }
