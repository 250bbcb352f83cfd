"""The hostile batch's pages opened in a real browser as graders and students open them: nothing a student wrote runs.

Content attackers (tests/data/hostile/content.yaml) planted script in markdown answers, outputs, LaTeX and ids; the
payload marks the page (top.__pwned), tries to start a kernel through the server's API and to reach another host.
A grader opens each attacker's formgrader page (the page then its folded prose opened, as a grader reads it), the
student opens their feedback page, the instructor opens the report: no script may run, no request may leave the
page's own site, no kernel may start and no grade may change.
"""
from __future__ import annotations

import json
import secrets
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from formgrader_server import jupyter_server, log_in  # noqa: E402
from nbgrader.api import Grade, Gradebook  # noqa: E402
from playwright.sync_api import Browser, Page  # noqa: E402

from autograde.building.site_check import find_chromium, open_chromium, serve_directory  # noqa: E402

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")
ATTACKERS = ("c01_markdown_that_runs", "c02_outputs_that_run", "c03_latex_that_runs")
RAN_JS = """() => {
  const marks = [window.__pwned];
  for (const frame of Array.from(document.querySelectorAll("iframe"))) {
    try { marks.push(frame.contentWindow.__pwned); } catch (error) { marks.push("cross-origin frame"); }
  }
  return marks.filter(mark => mark !== undefined);
}"""
"""What the payload left behind in the page and its frames (nothing, when no script ran)."""
GRADER_ACTIONS_JS = """() => {
  document.querySelectorAll("details").forEach(details => { details.open = true; });
  document.querySelectorAll("img, svg, a, b").forEach(element => {
    element.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
  });
}"""
"""What a grader does on a page: opens the folded parts, moves the mouse over pictures and links."""


@dataclass
class PageVisit:
    """What happened while one page was open."""

    ran: list = field(default_factory=list)
    left_the_site: list[str] = field(default_factory=list)
    api_calls: list[str] = field(default_factory=list)
    policy: str = ""


def visit(page: Page, url: str, own_site: str) -> PageVisit:
    """Open `url`, act as a grader, and note any script mark, request off the site or call to the server's API."""
    seen = PageVisit()

    def note(request) -> None:
        if not request.url.startswith(own_site) and not request.url.startswith("data:"):
            seen.left_the_site.append(request.url)
        elif urlparse(request.url).path.startswith("/api/") or request.method not in ("GET", "HEAD"):
            seen.api_calls.append(f"{request.method} {request.url}")

    page.on("request", note)
    response = page.goto(url, wait_until="load")
    seen.policy = (response.headers if response else {}).get("content-security-policy", "")
    page.evaluate(GRADER_ACTIONS_JS)
    page.wait_for_timeout(500)
    seen.ran = page.evaluate(RAN_JS)
    page.remove_listener("request", note)
    return seen


def manual_scores(course: Path) -> list[tuple]:
    """Every manual score in the gradebook."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return [(grade.student.id, grade.name, grade.manual_score) for grade in gradebook.db.query(Grade)
                if grade.manual_score is not None]


def submission_ids(course: Path) -> dict[str, str]:
    """Each attacker's formgrader submission id."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return {student: gradebook.find_submission_notebook("lesson05", "lesson05", student).id for student in ATTACKERS}


@dataclass
class Visits:
    """Every page visited, and the server's state afterwards."""

    grading: dict[str, PageVisit] = field(default_factory=dict)
    feedback: dict[str, PageVisit] = field(default_factory=dict)
    report: PageVisit = field(default_factory=PageVisit)
    report_text: str = ""
    report_html: str = ""
    kernels: list = field(default_factory=list)
    scores_before: list = field(default_factory=list)
    scores_after: list = field(default_factory=list)


def new_page(browser: Browser, own_site: str) -> Page:
    """A page whose requests off `own_site` fail (as in a closed network) but are still seen by `visit`."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.route(lambda url: not url.startswith(own_site) and not url.startswith("data:"),
                  lambda route: route.abort("internetdisconnected"))
    return context.new_page()


@pytest.fixture(scope="module")
def visits(hostile_batch) -> Visits:
    """A grader's, a student's and the instructor's pages of the hostile batch, each opened once."""
    course, token, seen = hostile_batch.course, secrets.token_hex(16), Visits()
    seen.scores_before = manual_scores(course)
    with jupyter_server(course, token) as base, open_chromium(CHROMIUM) as browser:
        page = new_page(browser, base)
        log_in(page, base, token)
        for student, submission in submission_ids(course).items():
            seen.grading[student] = visit(page, f"{base}/formgrader/submissions/{submission}/", base)
        request = urllib.request.Request(f"{base}/api/kernels", headers={"Authorization": f"token {token}"})
        seen.kernels = json.loads(urllib.request.urlopen(request, timeout=10).read())
        for student in ATTACKERS:
            with serve_directory(course / "feedback" / student / "lesson05") as url:
                seen.feedback[student] = visit(new_page(browser, url), f"{url}lesson05.html", url)
        with serve_directory(course / "reports" / "lesson05") as url:
            report_page = new_page(browser, url)
            seen.report = visit(report_page, f"{url}grades.html", url)
            seen.report_text = report_page.inner_text("body")
            seen.report_html = report_page.content()
    seen.scores_after = manual_scores(course)
    return seen


@pytest.mark.parametrize("student", ATTACKERS)
def test_no_script_runs_on_the_grading_page(visits: Visits, student: str) -> None:
    """On the attacker's formgrader page, did no planted script run, no request leave, and no API call go out?"""
    seen = visits.grading[student]
    assert (seen.ran, seen.left_the_site) == ([], [])
    assert not [call for call in seen.api_calls if "/api/kernels" in call or "/formgrader/api/grade" in call]


@pytest.mark.parametrize("student", ATTACKERS)
def test_grading_page_is_sent_with_a_strict_policy(visits: Visits, student: str) -> None:
    """Does the grading page come with a Content-Security-Policy that forbids inline script and other sites?"""
    policy = visits.grading[student].policy
    assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]


def test_no_kernel_started_and_no_grade_changed(visits: Visits) -> None:
    """After the grader opened every attacker's page, is no kernel running and no score changed?"""
    assert visits.kernels == []
    assert visits.scores_after == visits.scores_before


@pytest.mark.parametrize("student", ATTACKERS)
def test_no_script_runs_on_the_feedback_page(visits: Visits, student: str) -> None:
    """On the attacker's own feedback page (opened from plain files), did nothing run or leave?"""
    seen = visits.feedback[student]
    assert (seen.ran, seen.left_the_site) == ([], [])


def test_the_report_shows_hostile_ids_as_text(visits: Visits) -> None:
    """Does the report page run nothing and show the markup id and the line-break id as plain text?"""
    assert (visits.report.ran, visits.report.left_the_site) == ([], [])
    assert "<img src=x onerror=top.__pwned=1>" in visits.report_text
    assert "Content-Security-Policy" in visits.report_html and "script-src" not in visits.report_html
