"""The record of submissions that could not be graded, and why (reports/<assignment>/ungradable.json)."""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode


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


class UnreadableNotebook(ValueError):
    """A submitted file that nbformat cannot read; the message is the reason to record."""


def read_submitted_notebook(notebook: Path, max_bytes: int) -> NotebookNode:
    """The submitted notebook; UnreadableNotebook with a reason for a person when it is not a plain file of at most
    `max_bytes` that nbformat can read.

    A link (the notebook, or its student or assignment folder) could point the grader at the solutions or at a
    classmate's work, so it is refused rather than followed.
    """
    linked = next((part for part in (notebook, notebook.parent, notebook.parent.parent) if part.is_symlink()), None)
    if linked is not None:
        raise UnreadableNotebook(f"{linked.name} is a symbolic link, not a submitted file; ask the student to resubmit "
                                 "the notebook itself")
    size = notebook.stat().st_size
    if size > max_bytes:
        raise UnreadableNotebook(f"{notebook.name} is {size / (1 << 20):.0f} MiB, over the {max_bytes / (1 << 20):.0f} MiB "
                                 "limit (c.Sandbox.notebook_bytes); ask the student to clear its outputs and resubmit")
    try:
        return nbformat.read(notebook, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError):
        raise UnreadableNotebook(f"{notebook.name} is not valid JSON; ask the student to re-download the release notebook "
                                 "and resubmit") from None
    except (nbformat.ValidationError, UnicodeDecodeError, KeyError, AttributeError, TypeError, RecursionError) as error:
        raise UnreadableNotebook(f"{notebook.name} is not a valid notebook ({type(error).__name__}); "
                                 "ask the student to resubmit") from None


def record_missing_notebooks(assignment: str, notebook: str, root: Path | None = None) -> list[str]:
    """Record students whose submitted/<student>/<assignment>/ folder lacks the notebook; returns them."""
    missing = []
    for folder in sorted(((root or Path.cwd()) / "submitted").glob(f"*/{assignment}")):
        if folder.is_dir() and not (folder / notebook).exists():
            missing.append(folder.parent.name)
            set_ungradable(assignment, folder.parent.name,
                           f"{notebook} is missing from the submission; ask the student to resubmit it", root)
    return missing
