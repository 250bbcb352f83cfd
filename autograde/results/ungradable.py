"""The record of submissions that could not be graded, and why (reports/<assignment>/ungradable.json)."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import nbformat

log = logging.getLogger("autograde")


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
        log.error("UNGRADABLE %s/%s: %s", student, assignment, reason)
    path = registry_path(assignment, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def unreadable_reason(notebook: Path) -> str | None:
    """Why a submitted notebook cannot be read, or None if nbformat reads it."""
    try:
        nbformat.read(notebook, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError):
        return f"{notebook.name} is not valid JSON; ask the student to re-download the release notebook and resubmit"
    except (nbformat.ValidationError, UnicodeDecodeError, KeyError) as error:
        return f"{notebook.name} is not a valid notebook ({type(error).__name__}); ask the student to resubmit"
    return None


def record_unreadable_notebooks(assignment: str, student: str, notebooks: list[str]) -> None:
    """nbgrader pre-convert hook: record notebooks nbgrader is about to fail on; clear a stale record.

    nbgrader passes the student *pattern* ('*'), so the student id is read from each path
    (submitted/<student>/<assignment>/<notebook>).
    """
    by_student: dict[str, list[str]] = {}
    for path in map(Path, notebooks):
        reason = unreadable_reason(path)
        by_student.setdefault(path.parent.parent.name, [])
        if reason:
            by_student[path.parent.parent.name].append(reason)
    for student_id, reasons in by_student.items():
        set_ungradable(assignment, student_id, "; ".join(reasons) or None)


def record_missing_notebooks(assignment: str, notebook: str, root: Path | None = None) -> list[str]:
    """Record students whose submitted/<student>/<assignment>/ folder lacks the notebook; returns them."""
    missing = []
    for folder in sorted(((root or Path.cwd()) / "submitted").glob(f"*/{assignment}")):
        if folder.is_dir() and not (folder / notebook).exists():
            missing.append(folder.parent.name)
            set_ungradable(assignment, folder.parent.name,
                           f"{notebook} is missing from the submission; ask the student to resubmit it", root)
    return missing
