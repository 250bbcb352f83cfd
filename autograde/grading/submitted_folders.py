"""The submitted folders of an assignment, read as student data: every folder is accounted for, only notebooks are read.

A folder's name is the student id, so it is checked before it reaches nbgrader, a log, a page or a spreadsheet;
a name that cannot be an id is recorded as ungradable, never skipped in silence. In each folder only the
assignment's notebooks are read, and only as regular files (no link is followed, no FIFO or device is opened);
everything else is left where it is and listed for the grader. The time of submission is when the notebook
arrived on the instructor's disk (its inode change time), which no file or archive a student makes can set.
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

from autograde.untrusted.shown import for_terminal

BAD_ID = ("folder name '{shown}' cannot be a student id ({why}); rename the folder to 1-64 letters, digits, "
          "'_', '.', '-', '@' or '+', not starting with '.'")
MISSING = "{notebook} is missing from the submission; ask the student to resubmit it"
NOT_A_FILE = "{name} is {kind}, not a submitted file; ask the student to resubmit the notebook itself"
TOO_BIG = ("{name} is {size:.0f} MiB, over the {limit:.0f} MiB limit (c.Sandbox.notebook_bytes); ask the student to clear "
           "its outputs and resubmit")
COLLECTED_TIMESTAMP = "timestamp.txt"
"""Written by `nbgrader collect`; never read (the student's side wrote its time), so not listed as ignored either."""


class UnreadableNotebook(ValueError):
    """A submitted file that cannot be read as a notebook; the message is the reason to record."""


@dataclass(frozen=True)
class SubmittedFolder:
    """One student's submission of the assignment, ready to grade."""

    student: str
    notebooks: tuple[Path, ...]
    received: datetime
    """When the newest notebook arrived on this disk (UTC, naive, as nbgrader stores times)."""
    ignored: tuple[str, ...]
    """Other entries of the folder, each as "name (kind)": not read, copied or served."""


@dataclass(frozen=True)
class RefusedFolder:
    """A folder under submitted/ that cannot be graded, and why (in words for the instructor)."""

    student: str
    reason: str


def kind_of(mode: int) -> str:
    """What a directory entry is, in words."""
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a folder"), (stat.S_ISREG, "a file"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def id_problem(name: str, pattern: re.Pattern[str]) -> str | None:
    """Why a folder name cannot be a student id, or None when it can."""
    if name.startswith("."):
        return "it starts with '.'"
    if not pattern.fullmatch(name):
        return "it has characters other than letters, digits, '_', '.', '-', '@', '+'" if len(name) <= 64 else "it is too long"
    return None


def scan_submitted(submitted: Path, assignment: str, notebooks: list[str], id_pattern: str, student_glob: str = "*",
                   notebook_bytes: int = 32 << 20) -> tuple[list[SubmittedFolder], list[RefusedFolder]]:
    """Every submitted/<student>/<assignment>/ folder: the gradable ones, and the refused ones with their reasons.

    A student folder without this assignment is not a submission of it and is passed over, as nbgrader does.
    """
    pattern = re.compile(id_pattern)
    gradable, refused = [], []
    entries = sorted(os.scandir(submitted), key=lambda entry: entry.name) if submitted.is_dir() else []
    for entry in entries:
        if not fnmatchcase(entry.name, student_glob):
            continue
        folder = Path(entry.path) / assignment
        if not entry.is_dir(follow_symlinks=False):
            if entry.is_symlink() and folder.exists():
                refused.append(RefusedFolder(entry.name, NOT_A_FILE.format(name=entry.name, kind="a symbolic link")))
            continue
        try:
            mode = os.lstat(folder).st_mode
        except FileNotFoundError:
            continue
        problem = id_problem(entry.name, pattern)
        if problem is not None:
            refused.append(RefusedFolder(entry.name, BAD_ID.format(shown=for_terminal(entry.name)[:80], why=problem)))
        elif not stat.S_ISDIR(mode):
            refused.append(RefusedFolder(entry.name, NOT_A_FILE.format(name=assignment, kind=kind_of(mode))))
        else:
            found = _read_folder(entry.name, folder, notebooks, notebook_bytes)
            (gradable if isinstance(found, SubmittedFolder) else refused).append(found)
    return gradable, refused


def _read_folder(student: str, folder: Path, notebooks: list[str], notebook_bytes: int) -> SubmittedFolder | RefusedFolder:
    """The folder's notebooks (checked, not yet read) and what else it holds."""
    found: dict[str, os.stat_result] = {}
    ignored = []
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
        info = entry.stat(follow_symlinks=False)
        if entry.name in (f"{name}.ipynb" for name in notebooks):
            found[entry.name] = info
        elif not (entry.name == COLLECTED_TIMESTAMP and stat.S_ISREG(info.st_mode)):
            ignored.append(f"{for_terminal(entry.name)[:80]} ({kind_of(info.st_mode)})")
    for name in (f"{notebook}.ipynb" for notebook in notebooks):
        if name not in found:
            return RefusedFolder(student, MISSING.format(notebook=name))
        if not stat.S_ISREG(found[name].st_mode):
            return RefusedFolder(student, NOT_A_FILE.format(name=name, kind=kind_of(found[name].st_mode)))
        if found[name].st_size > notebook_bytes:
            return RefusedFolder(student, TOO_BIG.format(name=name, size=found[name].st_size / (1 << 20),
                                                          limit=notebook_bytes / (1 << 20)))
    received = max(info.st_ctime for info in found.values())
    return SubmittedFolder(student, tuple(folder / name for name in sorted(found)),
                           datetime.fromtimestamp(received, UTC).replace(tzinfo=None), tuple(ignored))


def read_submitted_text(notebook: Path, max_bytes: int) -> str:
    """A submitted notebook's text, read only as a regular file of at most `max_bytes`; UnreadableNotebook otherwise.

    The file is opened without following a link or waiting on a FIFO, and checked again once open, so nothing swapped
    in after the folder was scanned is read.
    """
    try:
        handle = os.open(notebook, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        raise UnreadableNotebook(NOT_A_FILE.format(name=notebook.name, kind="not a readable file")) from error
    with os.fdopen(handle, "rb") as opened:
        info = os.fstat(opened.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableNotebook(NOT_A_FILE.format(name=notebook.name, kind=kind_of(info.st_mode)))
        data = opened.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UnreadableNotebook(TOO_BIG.format(name=notebook.name, size=len(data) / (1 << 20), limit=max_bytes / (1 << 20)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableNotebook(f"{notebook.name} is not UTF-8 text; ask the student to resubmit the notebook") from None


def parse_notebook(name: str, text: str) -> NotebookNode:
    """The notebook a submitted text holds; UnreadableNotebook with a reason for the instructor when it holds none."""
    try:
        return nbformat.reads(text, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError):
        raise UnreadableNotebook(f"{name} is not valid JSON; ask the student to re-download the release notebook "
                                 "and resubmit") from None
    except (nbformat.ValidationError, KeyError, AttributeError, TypeError, RecursionError) as error:
        raise UnreadableNotebook(f"{name} is not a valid notebook ({type(error).__name__}); "
                                 "ask the student to resubmit") from None
