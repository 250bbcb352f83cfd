"""Formgrader's pages under a Content-Security-Policy, and its grading page rendered off the server's event loop.

nbgrader's SubmissionHandler renders a student's notebook inside the request, on the loop every other request
waits for; a huge notebook stalled the whole Jupyter server. Here the rendering runs in a thread with a time
limit, and every formgrader page gets a policy: the grading page (student content) may run only formgrader's and
this package's static scripts and the inline math scripts named by hash.
"""
from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from nbgrader.api import MissingEntry
from nbgrader.server_extensions.formgrader import base, handlers
from tornado import web

from autograde.server.policies import script_policy
from autograde.untrusted.csp import policy

RENDER_TIMEOUT_S = 30.0
"""Longest a grading page may take to render before the grader is told to look at the notebook another way."""
RENDER_TIMEOUT_MESSAGE = ("this submission's page took longer than {seconds:g} s to render; open "
                          "autograded/{student}/{assignment}/{notebook}.ipynb another way")
_renderer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="grading-page")


def grading_page_policy(handler: Any) -> str:
    """The grading page's policy: scripts only from the two static folders, and the inline math by hash."""
    return script_policy(handler, "/formgrader/static/", "/autograde/static/")


def list_page_policy(handler: Any) -> str:
    """Formgrader's other pages (lists built from the API with jQuery's text()): nbgrader's inline set-up scripts run."""
    return policy({"default-src": ("'self'",), "script-src": ("'self'", "'unsafe-inline'"),
                   "style-src": ("'self'", "'unsafe-inline'"), "img-src": ("'self'", "data:"),
                   "object-src": ("'none'",), "base-uri": ("'none'",), "frame-ancestors": ("'self'",)})


def _render(exporter: Any, filename: str, resources: dict[str, Any]) -> str:
    """The page's HTML (in a worker thread)."""
    html, _ = exporter.from_filename(filename, resources=resources)
    return html


@web.authenticated
@base.check_xsrf
@base.check_notebook_dir
async def submission_page(self: Any, submission_id: str) -> None:
    """nbgrader's SubmissionHandler.get, rendering in a thread under RENDER_TIMEOUT_S."""
    try:
        submission = self.gradebook.find_submission_notebook_by_id(submission_id)
        assignment_id, notebook_id = submission.assignment.assignment.name, submission.notebook.name
        student_id = submission.student.id
    except MissingEntry:
        raise web.HTTPError(404, f"Invalid submission: {submission_id}") from None
    if os.path.split(self.request.path)[1] == submission_id:
        return self.redirect(self.request.path + "/" + (f"?{self.request.query}" if self.request.query else ""), permanent=True)
    folder = self.coursedir.format_path(self.coursedir.autograded_directory, student_id, assignment_id)
    filename = os.path.join(os.path.abspath(folder), f"{notebook_id}.ipynb")
    indices = self.api.get_notebook_submission_indices(assignment_id, notebook_id)
    resources = {
        "assignment_id": assignment_id, "notebook_id": notebook_id, "submission_id": submission.id,
        "index": indices.get(submission.id, -2), "total": len(indices), "base_url": self.base_url,
        "student": student_id, "last_name": submission.student.last_name, "first_name": submission.student.first_name,
        "notebook_path": self.url_prefix + "/" + os.path.relpath(filename, self.coursedir.root),
    }
    if not os.path.exists(filename):
        resources["filename"] = filename
        self.set_status(404)
        return self.write(self.render("formgrade_404.tpl", resources=resources))
    rendering = asyncio.get_running_loop().run_in_executor(_renderer, _render, self.exporter, filename, resources)
    try:
        self.write(await asyncio.wait_for(rendering, RENDER_TIMEOUT_S))
    except TimeoutError:
        raise web.HTTPError(503, RENDER_TIMEOUT_MESSAGE.format(seconds=RENDER_TIMEOUT_S, student=student_id,
                                                               assignment=assignment_id, notebook=notebook_id)) from None


def protect_formgrader() -> None:
    """Give formgrader's handlers their policies and the grading page its threaded rendering (idempotent)."""
    base.BaseHandler.content_security_policy = property(list_page_policy)  # type: ignore[assignment]
    handlers.SubmissionHandler.content_security_policy = property(grading_page_policy)  # type: ignore[attr-defined]
    handlers.SubmissionHandler.get = submission_page  # type: ignore[method-assign]
