"""Two graders on two Jupyter servers (two machines) grading Q2 at once, on SQLite and on PostgreSQL: no update is
lost; a save that finds someone else's value is refused with that value (409) and can then be made knowingly.

Each grader is an API client of its own server (token login); the servers share the course's gradebook, so every
race below is decided by the database, not by one server's thread. The report reads the page's veto decisions, and
names each one overrides.yaml decides otherwise.
"""
from __future__ import annotations

import json
import secrets
import shutil
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from by_question_driver import ASSIGNMENT, class_rows, make_course, run
from formgrader_server import jupyter_server
from postgres_server import postgres_database

ROWS = [row for row in class_rows("") if row.student in ("s00", "s01", "s02", "s03", "s04")]
"""Five students of the mock class; s04's Q2 has a wrong-comm-volume candidate."""
VETOED = "s04"


@dataclass(frozen=True)
class Grader:
    """One grader's API client of one server."""

    base: str
    token: str

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """(status, JSON body) of one request to the page's API."""
        request = urllib.request.Request(f"{self.base}/autograde/api/by-question/{ASSIGNMENT}/q2{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def answers(self) -> dict[str, dict]:
        """The page's answers by student, read now."""
        return {answer["student"]: answer for answer in self.call("GET", "")[1]["answers"]}

    def save(self, kind: str, target: str, expected: Any, value: Any) -> tuple[int, Any]:
        """One change, as the page sends it."""
        return self.call("PUT", f"/{kind}", {"changes": [{"target": target, "expected": expected, "value": value}]})


@dataclass(frozen=True)
class Course:
    """A course with two servers on its gradebook, and a grader on each."""

    root: Path
    ada: Grader
    ben: Grader


def at_once(*calls: Any) -> list[Any]:
    """Run the calls in threads released together; their results in order."""
    start, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run_one(number: int) -> None:
        start.wait()
        results[number] = calls[number]()

    threads = [threading.Thread(target=run_one, args=(number,)) for number in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def course(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Course]:
    """Five students autograded into the backend's gradebook, and two servers with a grader each."""
    root = tmp_path_factory.mktemp(request.param)
    with pytest.MonkeyPatch.context() as environment:
        if request.param == "postgresql":
            url = request.getfixturevalue("postgres_url")
            environment.setenv("NBGRADER_DB_URL", url)
        make_course(root, ROWS)
        tokens = secrets.token_hex(16), secrets.token_hex(16)
        with jupyter_server(root, tokens[0]) as first, jupyter_server(root, tokens[1]) as second:
            yield Course(root, Grader(first, tokens[0]), Grader(second, tokens[1]))


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A private PostgreSQL server's empty database (skips where none is installed)."""
    with postgres_database() as url:
        yield url


def test_a_save_over_a_changed_score_is_refused_with_the_value_found(course: Course) -> None:
    """Ada and Ben load the page; Ada scores s00; does Ben's save, from what he loaded, come back 409 with Ada's
    score, and does his save made knowingly then go through?"""
    seen_by_ben = course.ben.answers()["s00"]
    row = course.ada.answers()["s00"]["grade"]
    assert course.ada.save("scores", row, None, 2)[0] == 200
    status, outcome = course.ben.save("scores", row, seen_by_ben["score"], 1)
    assert (status, outcome["conflicts"]) == (409, [{"target": row, "yours": 1, "current": 2.0}])
    assert course.ben.save("scores", row, 2, 1) == (200, {"saved": [{"target": row, "value": 1}], "conflicts": []})
    assert course.ada.answers()["s00"]["score"] == 1


def test_racing_saves_of_a_whole_group_never_lose_one(course: Course) -> None:
    """Ada and Ben each save a group score for all five students at the same instant, from the same unscored view:
    is every score saved by exactly one of them, is the other told each value, and does the gradebook hold it?"""
    answers = course.ada.answers()
    rows = {answers[s]["grade"]: s for s in ("s01", "s02", "s03", "s04")}
    changes = {name: {"changes": [{"target": row, "expected": None, "value": value} for row in rows]}
               for name, value in (("ada", 2), ("ben", 0))}
    (ada_status, ada), (ben_status, ben) = at_once(lambda: course.ada.call("PUT", "/scores", changes["ada"]),
                                                   lambda: course.ben.call("PUT", "/scores", changes["ben"]))
    saved = {item["target"]: item["value"] for item in ada["saved"] + ben["saved"]}
    refused = {item["target"]: item["current"] for item in ada["conflicts"] + ben["conflicts"]}
    assert sorted(saved) == sorted(refused) == sorted(rows)  # each saved once, refused once
    assert all(refused[row] == saved[row] for row in rows)  # the refused one is told the winner's value
    assert {ada_status, ben_status} <= {200, 409}
    final = course.ben.answers()
    assert {row: final[student]["score"] for row, student in rows.items()} == saved


def test_racing_veto_decisions_never_lose_one(course: Course) -> None:
    """Ada upholds and Ben dismisses s04's veto at the same instant, both from "undecided": does one win, the other
    learn what was decided, and the page show the winner's decision?"""
    target = f"{VETOED}/wrong-comm-volume"
    results = at_once(lambda: course.ada.save("vetoes", target, "undecided", "upheld"),
                      lambda: course.ben.save("vetoes", target, "undecided", "dismissed"))
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 409], results
    winner = next(body["saved"][0]["value"] for status, body in results if status == 200)
    loser = next(body["conflicts"][0] for status, body in results if status == 409)
    assert loser["current"] == winner
    [veto] = course.ada.answers()[VETOED]["vetoes"]
    assert (veto["decision"], veto["decided_in"]) == (winner, "the grading page")


def test_the_report_reads_the_page_decisions_and_names_a_disagreement(course: Course) -> None:
    """Does the report show the page's decision on s04's veto, and, once overrides.yaml decides it the other way,
    follow the file and print one line naming both?"""
    decided = course.ada.answers()[VETOED]["vetoes"][0]["decision"]
    other = {"upheld": "dismissed", "dismissed": "upheld"}[decided]

    def report() -> tuple[str, dict]:
        done = run(course.root, sys.executable, "-m", "autograde", "report", ASSIGNMENT)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        rows = json.loads((course.root / "reports" / ASSIGNMENT / "grades.json").read_text(encoding="utf-8"))["students"]
        return done.stdout, next(row for row in rows if row["student"] == VETOED)

    _, row = report()
    assert [(v["id"], v["decision"]) for v in row["vetoes"]] == [("wrong-comm-volume", decided)]
    (course.root / "overrides.yaml").write_text(f"- student: {VETOED}\n  veto: wrong-comm-volume\n  decision: {other}\n"
                                                "  reason: read again by the instructor\n", encoding="utf-8")
    printed, row = report()
    assert [(v["id"], v["decision"]) for v in row["vetoes"]] == [("wrong-comm-volume", other)]
    assert f"{VETOED}/wrong-comm-volume: overrides.yaml says {other}, the grading page says {decided}" in " ".join(printed.split())
    shutil.move(course.root / "overrides.yaml", course.root / "overrides.yaml.done")
