"""What the grader refuses to read as a submitted notebook, each with a reason an instructor can act on."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

from autograde.results.ungradable import UnreadableNotebook, read_submitted_notebook

MiB = 1 << 20


@pytest.fixture
def submitted(tmp_path: Path) -> Path:
    """submitted/alice/lesson05/lesson05.ipynb: a small valid notebook."""
    notebook = tmp_path / "submitted" / "alice" / "lesson05" / "lesson05.ipynb"
    notebook.parent.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), notebook)
    return notebook


def test_a_plain_notebook_is_read(submitted: Path) -> None:
    """Is an ordinary submitted notebook read as it is?"""
    assert read_submitted_notebook(submitted, MiB).cells[0].source == "x = 1"


@pytest.mark.parametrize("level", [0, 1, 2], ids=["notebook", "assignment folder", "student folder"])
def test_a_link_is_refused_not_followed(submitted: Path, tmp_path: Path, level: int) -> None:
    """Is a notebook reached through a symbolic link (to the solutions, say) refused with the link's name?"""
    elsewhere = tmp_path / "source" / "lesson05" / "lesson05.ipynb"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_bytes(submitted.read_bytes())
    linked = [submitted, submitted.parent, submitted.parent.parent][level]
    target = [elsewhere, elsewhere.parent, elsewhere.parent.parent][level]
    os.rename(linked, tmp_path / "moved")
    linked.symlink_to(target)
    with pytest.raises(UnreadableNotebook, match=f"^{linked.name} is a symbolic link"):
        read_submitted_notebook(submitted, MiB)


def test_an_oversized_notebook_is_refused_before_it_is_parsed(submitted: Path) -> None:
    """Is a notebook over the size limit refused with its size and the setting that raises it?"""
    submitted.write_text('{"cells": [], "pad": "' + "x" * (2 * MiB) + '"}', encoding="utf-8")
    with pytest.raises(UnreadableNotebook, match=r"is 2 MiB, over the 1 MiB limit \(c.Sandbox.notebook_bytes\)"):
        read_submitted_notebook(submitted, MiB)


def test_deeply_nested_json_is_a_reason_not_a_crash(submitted: Path) -> None:
    """Is JSON nested past Python's recursion limit an unreadable notebook rather than a RecursionError?"""
    submitted.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(UnreadableNotebook):
        read_submitted_notebook(submitted, MiB)
