"""What the grader takes from submitted/: every folder accounted for, only notebooks read, only as regular files."""
from __future__ import annotations

import os
import time
from datetime import datetime, timedelta
from pathlib import Path

import nbformat
import pytest

from autograde.grading.parallel_autograde import STUDENT_ID
from autograde.grading.submitted_folders import (
    UnreadableNotebook,
    parse_notebook,
    read_submitted_text,
    scan_submitted,
)

MiB = 1 << 20


def submit(submitted: Path, student: str, notebook: bool = True) -> Path:
    """submitted/<student>/lesson05/ with a small valid notebook (or none); returns the assignment folder."""
    folder = submitted / student / "lesson05"
    folder.mkdir(parents=True)
    if notebook:
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), folder / "lesson05.ipynb")
    return folder


def scan(submitted: Path, **options):
    """(gradable students, {refused student: reason}) for lesson05."""
    gradable, refused = scan_submitted(submitted, "lesson05", ["lesson05"], STUDENT_ID, **options)
    return [folder.student for folder in gradable], {folder.student: folder.reason for folder in refused}


def test_every_folder_is_graded_or_refused_with_a_reason(tmp_path: Path) -> None:
    """Are odd folder names (hidden, glob characters, control characters, markup) listed as refused, none skipped?"""
    names = ["alice", "张三", "bob.smith@uni.edu", "-2+3", "...", ".name", "name_[1]", "evil\nzz code 4 of 4", "x\x1b[2J",
             "<img src=x onerror=alert(1)>", "=HYPERLINK(1)"]
    for name in names:
        submit(tmp_path, name)
    gradable, refused = scan(tmp_path)
    assert gradable == sorted(["alice", "张三", "bob.smith@uni.edu", "-2+3"])
    assert set(refused) == set(names) - set(gradable)
    assert all("cannot be a student id" in reason and "\n" not in reason and "\x1b" not in reason for reason in refused.values())


def test_a_folder_without_the_notebook_is_refused_but_other_assignments_pass(tmp_path: Path) -> None:
    """Is a lesson05 folder lacking its notebook refused, and a student with no lesson05 folder left out?"""
    submit(tmp_path, "carol", notebook=False)
    (tmp_path / "dave" / "lesson04").mkdir(parents=True)
    gradable, refused = scan(tmp_path)
    assert gradable == [] and list(refused) == ["carol"] and "lesson05.ipynb is missing" in refused["carol"]


@pytest.mark.parametrize("replace", ["link", "fifo", "folder"])
def test_a_notebook_that_is_not_a_regular_file_is_refused(tmp_path: Path, replace: str) -> None:
    """Is a notebook that is a symbolic link, a FIFO or a folder refused (nothing followed, nothing blocks)?"""
    folder = submit(tmp_path, "mallory", notebook=False)
    target = folder / "lesson05.ipynb"
    {"link": lambda: target.symlink_to("/etc/passwd"), "fifo": lambda: os.mkfifo(target), "folder": target.mkdir}[replace]()
    _, refused = scan(tmp_path)
    assert "is a " in refused["mallory"] and "not a submitted file" in refused["mallory"]


def test_other_entries_are_listed_not_read(tmp_path: Path) -> None:
    """Are links, FIFOs and stray files beside the notebook listed as ignored, and timestamp.txt taken as no time?"""
    folder = submit(tmp_path, "eve")
    (folder / "gradebook.db").symlink_to(tmp_path / "nowhere")
    os.mkfifo(folder / "pipe")
    (folder / "notes.txt").write_text("hi", encoding="utf-8")
    (folder / "timestamp.txt").write_text("2000-01-01 00:00:00", encoding="utf-8")
    gradable, _ = scan_submitted(tmp_path, "lesson05", ["lesson05"], STUDENT_ID)
    assert gradable[0].ignored == ("gradebook.db (a symbolic link)", "notes.txt (a file)", "pipe (a FIFO)")
    assert abs(gradable[0].received - datetime.utcnow()) < timedelta(minutes=1)


def test_the_received_time_is_when_the_file_arrived_not_its_modification_time(tmp_path: Path) -> None:
    """Does a notebook whose modification time was set to 2000 (as an archive would) still count as arriving now?"""
    folder = submit(tmp_path, "frank")
    old = time.mktime((2000, 1, 1, 0, 0, 0, 0, 0, 0))
    os.utime(folder / "lesson05.ipynb", (old, old))
    gradable, _ = scan_submitted(tmp_path, "lesson05", ["lesson05"], STUDENT_ID)
    assert gradable[0].received.year == datetime.utcnow().year


def test_a_plain_notebook_is_read_with_its_exact_text(tmp_path: Path) -> None:
    """Is an ordinary submitted notebook read, with the exact text the sandbox will be given?"""
    notebook = submit(tmp_path, "alice") / "lesson05.ipynb"
    text = read_submitted_text(notebook, MiB)
    assert parse_notebook(notebook.name, text).cells[0].source == "x = 1" and text == notebook.read_text(encoding="utf-8")


@pytest.mark.parametrize("replace", ["link", "fifo"])
def test_a_notebook_swapped_after_the_scan_is_still_refused(tmp_path: Path, replace: str) -> None:
    """Is a notebook replaced by a link or a FIFO after the folder was scanned refused when opened, without blocking?"""
    notebook = submit(tmp_path, "mallory") / "lesson05.ipynb"
    notebook.unlink()
    notebook.symlink_to("/etc/passwd") if replace == "link" else os.mkfifo(notebook)
    with pytest.raises(UnreadableNotebook, match="not a submitted file"):
        read_submitted_text(notebook, MiB)


def test_an_oversized_notebook_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """Is a notebook over the size limit refused with its size and the setting that raises it?"""
    notebook = submit(tmp_path, "big") / "lesson05.ipynb"
    notebook.write_text('{"cells": [], "pad": "' + "x" * (2 * MiB) + '"}', encoding="utf-8")
    with pytest.raises(UnreadableNotebook, match=r"over the 1 MiB limit \(c.Sandbox.notebook_bytes\)"):
        read_submitted_text(notebook, MiB)
    assert "over the 1 MiB limit" in scan(tmp_path, notebook_bytes=MiB)[1]["big"]


def test_deeply_nested_json_is_a_reason_not_a_crash(tmp_path: Path) -> None:
    """Is JSON nested past Python's recursion limit an unreadable notebook rather than a RecursionError?"""
    notebook = submit(tmp_path, "deep") / "lesson05.ipynb"
    notebook.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(UnreadableNotebook):
        parse_notebook(notebook.name, read_submitted_text(notebook, MiB))
