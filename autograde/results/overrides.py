"""The instructor's decisions on veto candidates (overrides.yaml at the course root), read and checked."""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from autograde.veto.finding import VETO_IDS
from autograde.yaml_data import read_yaml

FILENAME = "overrides.yaml"
DECISIONS = ("upheld", "dismissed")
FIELDS = ("student", "veto", "decision", "reason")
EXAMPLE = "examples/overrides.yaml"


class OverridesError(ValueError):
    """An overrides file that cannot be applied; the message names the file and the fix."""


@dataclass(frozen=True)
class Override:
    """One decision: a student's veto id is upheld (final) or dismissed (no longer fails the student)."""

    student: str
    veto: str
    decision: Literal["upheld", "dismissed"]
    reason: str
    source: str = FILENAME
    """Where the decision was taken: overrides.yaml, or the grading page (autograde.results.veto_decisions)."""


def _entry(path: Path, number: int, raw: object, students: Collection[str]) -> Override:
    """One list entry as an Override, or a one-line error naming the entry and the fix."""
    where = f"{path}: entry {number}"
    if not isinstance(raw, dict):
        raise OverridesError(f"{where} is not a mapping; write it as {{student, veto, decision, reason}} (see {EXAMPLE})")
    unknown = sorted(set(map(str, raw)) - set(FIELDS))
    missing = [name for name in FIELDS if not str(raw.get(name) or "").strip()]
    if unknown or missing:
        problem = f"unknown field(s) {', '.join(unknown)}" if unknown else f"missing {', '.join(missing)}"
        raise OverridesError(f"{where}: {problem}; each entry has exactly {', '.join(FIELDS)}")
    override = Override(*(str(raw[name]).strip() for name in FIELDS))
    if override.student not in students:
        raise OverridesError(f"{where}: no submission from student '{override.student}'; "
                             f"fix the id (known: {', '.join(sorted(students))})")
    if override.veto not in VETO_IDS:
        raise OverridesError(f"{where}: unknown veto id '{override.veto}'; use one of {', '.join(VETO_IDS)}")
    if override.decision not in DECISIONS:
        raise OverridesError(f"{where}: decision '{override.decision}' must be 'upheld' or 'dismissed'")
    return override


def load_overrides(path: Path, students: Collection[str], required: bool = False) -> dict[tuple[str, str], Override]:
    """(student, veto id) → Override; an absent file means no decisions yet unless `required`."""
    if not path.exists():
        if required:
            raise OverridesError(f"{path}: no such file; give an existing overrides file or copy {EXAMPLE}")
        return {}
    try:
        raw = read_yaml(path)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark else ""
        raise OverridesError(f"{path}: not valid YAML{line}; fix the syntax (see {EXAMPLE})") from None
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise OverridesError(f"{path}: expected a list of {{student, veto, decision, reason}} entries (see {EXAMPLE})")
    overrides: dict[tuple[str, str], Override] = {}
    for number, entry in enumerate(raw, start=1):
        override = _entry(path, number, entry, students)
        key = (override.student, override.veto)
        if key in overrides:
            raise OverridesError(f"{path}: entry {number} decides {key[0]}/{key[1]} a second time; keep one entry")
        overrides[key] = override
    return overrides
