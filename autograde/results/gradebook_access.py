"""The course's gradebook: where nbgrader's config puts it (CourseDirectory.db_url), opened as nbgrader opens it."""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from jupyter_core.paths import jupyter_config_path
from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, InterfaceError, OperationalError
from traitlets.config import Application

CONFIG_FILE = "nbgrader_config.py"
"""The file `nbgrader` reads in the course root (ours only loads grader_config.py)."""

NOT_CREATED = "{path}: no gradebook yet; run `nbgrader autograde <assignment>` (or `make demo`) first"
UNREACHABLE = ("cannot open the gradebook {url}: {reason}; fix CourseDirectory.db_url, which grader_config.py takes "
               "from NBGRADER_DB_URL (unset: gradebook.db in the course root; see README, PostgreSQL gradebook)")


class GradebookUnavailable(ValueError):
    """The gradebook named by the course's config cannot be read; the message is one line saying what to do."""

    @classmethod
    def unreachable(cls, url: str, error: Exception) -> GradebookUnavailable:
        """The URL is malformed, its driver is missing, or its server refuses us."""
        reason = str(getattr(error, "orig", None) or error).strip() or type(error).__name__
        return cls(UNREACHABLE.format(url=without_password(url), reason=reason.splitlines()[0]))


class GradebookNotCreated(GradebookUnavailable):
    """The SQLite file does not exist yet: nothing has been autograded."""

    @classmethod
    def at(cls, path: Path) -> GradebookNotCreated:
        """The error for the missing file at `path`."""
        return cls(NOT_CREATED.format(path=path))


def without_password(url: str) -> str:
    """The URL as it may be printed: any password replaced by ***."""
    return re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url)


def course_directory(root: Path) -> CourseDirectory:
    """nbgrader's CourseDirectory for the course at `root`, configured from the files `nbgrader` run there reads."""
    loader = Application(raise_config_file_errors=True)
    # the user's and system's files too, with the course's winning, as in nbgrader
    loader.load_config_file(CONFIG_FILE, path=[str(root), *jupyter_config_path()])
    return CourseDirectory(config=loader.config, root=str(root.resolve()))


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL; None for a server database, an in-memory one or a malformed URL."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    in_file = parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:")
    return Path(parsed.database) if in_file else None


@contextmanager
def open_gradebook(root: Path) -> Iterator[Gradebook]:
    """The course's gradebook with nbgrader's db_url and course_id; GradebookUnavailable when it cannot be opened."""
    course = course_directory(root)
    path = sqlite_file(course.db_url)
    if path is not None and not path.exists():  # opening would create an empty gradebook.db
        raise GradebookNotCreated.at(path)
    try:
        with Gradebook(course.db_url, course.course_id) as gradebook:
            yield gradebook
    except (ArgumentError, InterfaceError, OperationalError, ImportError) as error:
        raise GradebookUnavailable.unreachable(course.db_url, error) from None


def check_reachable(root: Path) -> None:
    """Raise GradebookUnavailable now if db_url cannot be opened; a SQLite file nbgrader has yet to create is fine."""
    with suppress(GradebookNotCreated), open_gradebook(root):
        pass
