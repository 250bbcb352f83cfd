"""The grading page's Tornado handlers, under the Jupyter server's login and XSRF checks: the page, its data, its writes.

Reading and writing the gradebook happen in one worker thread (a SQLAlchemy session is not shared between threads),
with a time limit, so a slow database or a class of huge notebooks never stalls the server's event loop.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory
from sqlalchemy.exc import SQLAlchemyError
from tornado import web

from autograde.assignment_spec import AssignmentSpec, SpecError, load_spec
from autograde.building.offline_math import offline_math
from autograde.by_question.answers import (
    QuestionUnavailable,
    gradebook_rows,
    load_question,
    question_cells,
)
from autograde.by_question.page_data import page_data
from autograde.by_question.saving import (
    Change,
    InvalidChange,
    Outcome,
    save_comments,
    save_decisions,
    save_scores,
)
from autograde.server.policies import script_policy

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")
PAGE_PATH = "/autograde/by-question/{assignment}/{question}"
API_PATH = "/autograde/api/by-question/{assignment}/{question}"
STATIC_PATH = "/autograde/static/by-question/"
WORK_TIMEOUT_S = 60.0
"""Longest the page's data or one save may take before the grader is told to try again."""
BODY_BYTES = 4 << 20
NAME = r"[A-Za-z0-9_.-]{1,64}"
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="by-question")
_gradebooks: dict[tuple[str, str], Gradebook] = {}
"""One open gradebook per database, used only in the worker thread."""
Result = TypeVar("Result")


def _gradebook(course: CourseDirectory) -> Gradebook:
    """The course's gradebook, opened once (in the worker thread)."""
    key = (course.db_url, course.course_id)
    if key not in _gradebooks:
        _gradebooks[key] = Gradebook(course.db_url, course.course_id)
    return _gradebooks[key]


def _in_gradebook(course: CourseDirectory, work: Callable[[Gradebook], Result]) -> Result:
    """`work(gradebook)` in the worker thread; a failed transaction is rolled back so the next request starts clean."""
    gradebook = _gradebook(course)
    try:
        return work(gradebook)
    except BaseException:
        gradebook.db.rollback()
        raise


class CourseHandler(JupyterHandler):
    """What the page and its API share: the course formgrader serves, the assignment spec, the worker thread."""

    @property
    def course(self) -> CourseDirectory:
        """Formgrader's course directory (root, gradebook URL, folders), so both pages grade the same course."""
        formgrader = self.settings.get("nbgrader_formgrader")
        if formgrader is None:
            raise web.HTTPError(503, reason="formgrader is not enabled on this server (jupyter server extension list)")
        return formgrader.coursedir

    def spec(self, assignment: str) -> AssignmentSpec:
        """The assignment's spec; 404 when there is none."""
        try:
            return load_spec(assignment)
        except SpecError:
            raise web.HTTPError(404, reason=f"no assignment {assignment}") from None

    async def in_worker(self, work: Callable[[Gradebook], Result]) -> Result:
        """Run `work` on the course's gradebook in the worker thread, within WORK_TIMEOUT_S; errors become statuses."""
        course = self.course
        running = asyncio.get_running_loop().run_in_executor(_worker, _in_gradebook, course, work)
        try:
            return await asyncio.wait_for(running, WORK_TIMEOUT_S)
        except TimeoutError:
            raise web.HTTPError(503, reason=f"the gradebook took longer than {WORK_TIMEOUT_S:g} s; try again") from None
        except QuestionUnavailable as error:
            raise web.HTTPError(404, reason=str(error)) from None
        except InvalidChange as error:
            raise web.HTTPError(400, reason=str(error)) from None
        except SQLAlchemyError as error:
            self.log.error("autograde: gradebook error: %s", error)
            raise web.HTTPError(503, reason="the gradebook cannot be reached; see the server's log") from None


class QuestionPageHandler(CourseHandler):
    """GET: the page for one question (a shell; the answers arrive as JSON and are inserted as data)."""

    @property
    def content_security_policy(self) -> str:
        """Scripts only from our static folder, and KaTeX inline by hash; nothing a student wrote can run."""
        return script_policy(self, STATIC_PATH)

    @web.authenticated
    def get(self, assignment: str, question: str) -> None:
        """Render the page (sets the _xsrf cookie the page's writes send back)."""
        spec = self.spec(assignment)
        if question not in {answer.grade_id for answer in spec.answers}:
            raise web.HTTPError(404, reason=f"{assignment} has no manually graded question {question}")
        _ = self.xsrf_token
        environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined)
        self.write(environment.get_template("by_question.html.j2").render(
            assignment=assignment, question=question, math=offline_math(),
            static=url_path_join(self.base_url, STATIC_PATH),
            api=url_path_join(self.base_url, API_PATH.format(assignment=assignment, question=question)),
            formgrader=url_path_join(self.base_url, "formgrader")))


class QuestionDataHandler(CourseHandler, APIHandler):
    """GET: the question's answers, groups and rubric as JSON."""

    @web.authenticated
    async def get(self, assignment: str, question: str) -> None:
        """The page's data, read fresh from the gradebook and the autograded notebooks."""
        spec, course = self.spec(assignment), self.course
        found = await self.in_worker(lambda gradebook: load_question(course, gradebook, spec, question))
        self.finish(json.dumps(page_data(found), ensure_ascii=False))


class QuestionSaveHandler(CourseHandler, APIHandler):
    """PUT {"changes": [{"target", "expected", "value"}]}: scores, comments or veto decisions; 409 lists conflicts."""

    def changes(self) -> list[Change]:
        """The request's changes; 400 when the body is not what the page sends."""
        if len(self.request.body) > BODY_BYTES:
            raise web.HTTPError(413, reason="request too large")
        try:
            raw = json.loads(self.request.body)["changes"]
            return [Change(str(item["target"]), item.get("expected"), item.get("value")) for item in raw]
        except (ValueError, KeyError, TypeError):
            raise web.HTTPError(400, reason='expected {"changes": [{"target", "expected", "value"}, …]}') from None

    @web.authenticated
    async def put(self, assignment: str, question: str, kind: str) -> None:
        """Save the changes; 200 when all are saved, 409 with the values found where others changed them first."""
        spec, changes = self.spec(assignment), self.changes()
        user = self.current_user
        grader = getattr(user, "display_name", "") or getattr(user, "username", "") or "grader"
        notebook = spec.notebook.removesuffix(".ipynb")

        def save(gradebook: Gradebook) -> Outcome:
            if kind == "vetoes":
                _, rows = gradebook_rows(gradebook, assignment, notebook, question)
                return save_decisions(gradebook, assignment, question, {row[0] for row in rows}, changes, grader)
            grade_cell, solution_cell = question_cells(gradebook, assignment, notebook, question)
            if kind == "scores":
                return save_scores(gradebook, grade_cell.id, grade_cell.max_score, changes)
            return save_comments(gradebook, solution_cell.id, changes)

        outcome = await self.in_worker(save)
        self.set_status(409 if outcome.conflicts else 200)
        self.finish(json.dumps(outcome.to_dict(), ensure_ascii=False))


def routes(base_url: str) -> list[tuple[str, Any, dict[str, Any]]]:
    """The page's URL patterns (before the general /autograde/static/ route, which would shadow ours)."""
    page = url_path_join(base_url, PAGE_PATH.format(assignment=f"({NAME})", question=f"({NAME})"))
    api = url_path_join(base_url, API_PATH.format(assignment=f"({NAME})", question=f"({NAME})"))
    return [
        (page + "/?", QuestionPageHandler, {}),
        (api, QuestionDataHandler, {}),
        (api + "/(scores|comments|vetoes)", QuestionSaveHandler, {}),
        (url_path_join(base_url, STATIC_PATH, "(.*)"), web.StaticFileHandler, {"path": str(STATIC)}),
    ]
