"""Which gradebook the report and demo open (nbgrader's CourseDirectory.db_url), and what people see if they cannot."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autograde.assignment_spec import REPO_ROOT
from autograde.cli import main
from autograde.results.gradebook_access import course_directory, without_password

UNOPENABLE = {
    "refused": "postgresql+psycopg://grader:s3cret@127.0.0.1:1/lesson05",
    "unknown database kind": "nosuchdb://grader:s3cret@host/lesson05",
    "not a URL": "gradebook on the shared drive",
}


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A course root holding only its config files, as the current folder, with no user config in the way."""
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(REPO_ROOT / name, tmp_path)
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path / "user-config"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_default_is_sqlite_gradebook_in_the_course_root(course: Path) -> None:
    """Without NBGRADER_DB_URL, is the gradebook nbgrader's own default, gradebook.db in the course root?"""
    assert course_directory(course).db_url == f"sqlite:///{course.resolve() / 'gradebook.db'}"


def test_environment_variable_names_the_gradebook(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Does NBGRADER_DB_URL become CourseDirectory.db_url, as grader_config.py promises?"""
    monkeypatch.setenv("NBGRADER_DB_URL", "postgresql+psycopg://grader@db.example:5432/lesson05")
    assert course_directory(course).db_url == "postgresql+psycopg://grader@db.example:5432/lesson05"


def test_user_config_applies_and_the_course_wins(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Is a db_url in the instructor's own nbgrader_config.py read as nbgrader reads it, below the course's setting?"""
    (course / "user-config").mkdir()
    (course / "user-config" / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.db_url = "sqlite:////srv/grading/user.db"\n', encoding="utf-8")
    assert course_directory(course).db_url == "sqlite:////srv/grading/user.db"
    monkeypatch.setenv("NBGRADER_DB_URL", "sqlite:////srv/grading/course.db")
    assert course_directory(course).db_url == "sqlite:////srv/grading/course.db"


@pytest.mark.parametrize("url", UNOPENABLE.values(), ids=UNOPENABLE.keys())
def test_unopenable_gradebook_is_one_line_naming_the_setting(course: Path, url: str, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Does the report stop with one line that names NBGRADER_DB_URL, shows no password and writes nothing?"""
    monkeypatch.setenv("NBGRADER_DB_URL", url)
    assert main(["report", "lesson05"]) == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith("error: cannot open the gradebook") and "\n" not in out
    assert "CourseDirectory.db_url" in out and "NBGRADER_DB_URL" in out and "s3cret" not in out
    assert not (course / "reports").exists() and not (course / "gradebook.db").exists()


def test_missing_sqlite_gradebook_asks_for_autograde_first(course: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before anything is autograded, does the report say so in one line, without creating an empty gradebook?"""
    assert main(["report", "lesson05"]) == 1
    assert "gradebook.db: no gradebook yet; run `nbgrader autograde" in capsys.readouterr().out
    assert not (course / "gradebook.db").exists()


def test_demo_stops_before_autograde_when_the_gradebook_cannot_be_opened(course: Path, monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Does the demo stop at once with the one line, before copying or autograding anyone?"""
    monkeypatch.setenv("NBGRADER_DB_URL", UNOPENABLE["refused"])
    assert main(["demo", "lesson05"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: cannot open the gradebook") and captured.err.count("\n") == 1
    assert not (course / "submitted").exists()


def test_password_is_hidden_wherever_the_url_is_shown() -> None:
    """Is the password (even one holding ':') replaced, and a URL without one left as it is?"""
    assert without_password("postgresql+psycopg://grader:pa:ss@db/lesson05") == "postgresql+psycopg://grader:***@db/lesson05"
    assert without_password("postgresql+psycopg://grader@db/lesson05") == "postgresql+psycopg://grader@db/lesson05"
