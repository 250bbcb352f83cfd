"""The record of submissions that could not be graded, and why (reports/<assignment>/ungradable.json)."""
from __future__ import annotations

import json
from pathlib import Path


def registry_path(assignment: str, root: Path | None = None) -> Path:
    """Where the ungradable record for an assignment lives."""
    return (root or Path.cwd()) / "reports" / assignment / "ungradable.json"


def load_ungradable(assignment: str, root: Path | None = None) -> dict[str, str]:
    """Student id → reason, for every submission recorded as ungradable."""
    path = registry_path(assignment, root)
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def set_ungradable(assignment: str, student: str, reason: str | None, root: Path | None = None) -> None:
    """Record (or, with reason None, clear) one student's ungradable reason."""
    record = load_ungradable(assignment, root)
    if reason is None and student not in record:
        return
    if reason is None:
        del record[student]
    else:
        record[student] = reason
    path = registry_path(assignment, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
