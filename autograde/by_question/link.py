"""`python -m autograde grade <assignment> <question>`: where the question's grading page is, and what waits there."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join

from autograde.assignment_spec import load_spec
from autograde.by_question.answers import QuestionAnswers, load_question
from autograde.by_question.grouping import decisions, group_answers
from autograde.by_question.handlers import PAGE_PATH
from autograde.results.gradebook_access import course_directory, open_gradebook
from autograde.untrusted.shown import for_terminal

NO_SERVER = ("no Jupyter server is running for this course: start one in {root} with `jupyter server`, then open "
             "http://localhost:8888{path} (log in with the token it prints)")


def running_servers() -> list[dict[str, Any]]:
    """The Jupyter servers of this user that are running now (their runtime files)."""
    from jupyter_server.serverapp import list_running_servers

    return list(list_running_servers())


def page_url(root: Path, path: str, servers: Iterable[dict[str, Any]]) -> str | None:
    """The page's address on the first running server that serves the course at `root` (its folder or one above)."""
    for server in servers:
        if root.resolve().is_relative_to(Path(server.get("root_dir", "/nonexistent")).resolve()):
            token = f"?token={server['token']}" if server.get("token") else ""
            return url_path_join(server["url"], path) + token
    return None


def summary(found: QuestionAnswers) -> list[str]:
    """What waits on the page: answers, groups, scores, undecided vetoes, and the decisions groups save."""
    groups = group_answers([a.text for a in found.answers], [[v.id for v in a.vetoes] for a in found.answers])
    one_by_one, by_group = decisions(groups)
    scored = sum(answer.score is not None for answer in found.answers)
    undecided = sum(veto.decision == "undecided" for answer in found.answers for veto in answer.vetoes)
    saved = f" ({1 - by_group / one_by_one:.0%} fewer)" if one_by_one else ""
    return [(f"{found.assignment} {found.question}: {len(found.answers)} answers in {len(groups)} groups; "
             f"{scored}/{len(found.answers)} scored, {undecided} vetoes undecided"),
            f"decisions: {one_by_one} one answer at a time, {by_group} a group at a time{saved}",
            *(for_terminal(note) for note in found.notes)]


def grade_question(root: Path, assignment: str, question: str) -> list[str]:
    """The lines to print: the summary, then the link (or how to start a server)."""
    spec, course = load_spec(assignment), course_directory(root)
    with open_gradebook(root) as gradebook:
        found = load_question(course, gradebook, spec, question)
    path = PAGE_PATH.format(assignment=assignment, question=question)
    url = page_url(root, path, running_servers())
    return summary(found) + [f"open: {url}" if url else NO_SERVER.format(root=root, path=path)]
