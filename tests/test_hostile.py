"""Hostile submissions graded in one batch by the course's own `nbgrader autograde`, honest classmates after them.

attacks.yaml: students who know no formula attack with code (read the solutions, write the gradebook, escape the
sandbox). content.yaml: students attack with content that reaches trusted places (markup, records on the results
channel, links and FIFOs beside the notebook, forged metadata, odd folder names, backdated timestamps, bombs for
the trusted parsers). Each must get exactly its honest points (or be listed as ungradable with its reason), nothing
may reach the host, a classmate, the gradebook, a log line or a spreadsheet cell, and the batch must finish.
The pages these submissions make are opened in a browser by test_hostile_pages.py.
"""
from __future__ import annotations

import csv
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from nbgrader.api import Grade, Gradebook

from autograde.results.ungradable import load_ungradable

TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
SOLUTION_LINES = ("params_bf16 + (grads_bf16 + opt_fp32) / dp + extra", "(params_bf16 + grads_bf16 + opt_fp32) / dp + extra")
ORACLE_WORDS = ("expected_memory", "6364136223846793005", "LESSON_CASES", "check_here")
RESULT_LINE = re.compile(r"^  (\S+)\s+code (\S+)/4 .*\((\d+\.\d+) s\)$", re.MULTILINE)


@pytest.fixture(scope="module")
def batch(hostile_batch):
    """The shared hostile batch (tests/hostile_course.py)."""
    return hostile_batch


def graded_rows(batch):
    """Rows expected to be graded, with their points."""
    return [row for row in batch.table if "ungradable" not in row.expect]


def outputs(course: Path) -> dict[tuple[str, Path], str]:
    """Every file the grader wrote for a student (autograded notebook, vetoes.json, feedback page), by student."""
    found = {}
    for folder in ("autograded", "feedback"):
        for path in (course / folder).rglob("*"):
            if path.is_file():
                found[path.relative_to(course / folder).parts[0], path] = path.read_text(encoding="utf-8", errors="replace")
    return found


def test_the_batch_finishes_and_accounts_for_everyone(batch):
    """Does the batch end, every graded student in the gradebook and every refused one in ungradable.json (exit 1)?"""
    autograde = batch.runs["autograde"]
    assert autograde.returncode == 1, autograde.stderr[-3000:]
    assert "Traceback" not in autograde.stderr + autograde.stdout, autograde.stderr[-3000:]
    assert {row.student for row in graded_rows(batch)} <= set(batch.scores)
    ungradable = load_ungradable("lesson05", batch.course)
    assert set(ungradable) | set(batch.scores) == {row.student for row in batch.table}


def test_each_submission_gets_exactly_its_honest_points(batch):
    """Does every attacker get only its honest points and every control its true points?"""
    rows = graded_rows(batch)
    got = {row.student: {test: batch.scores[row.student][test] for test in TESTS} for row in rows}
    expected = {row.student: {test: float(row.expect[test]) for test in TESTS} for row in rows}
    assert {student: (got[student], expected[student]) for student in got if got[student] != expected[student]} == {}


def test_refused_folders_are_ungradable_with_their_reason(batch):
    """Is each folder that cannot be graded (odd names, a FIFO notebook) recorded with its reason, never scored?"""
    ungradable = load_ungradable("lesson05", batch.course)
    refused = {row.student: row.expect["ungradable"] for row in batch.table if "ungradable" in row.expect}
    assert {student: reason in ungradable.get(student, "") for student, reason in refused.items()} == dict.fromkeys(refused, True)
    assert not set(refused) & set(batch.scores)


def test_vetoes_are_not_dodged(batch):
    """Does every submission that hid its mistake (magic, killed or raising probes, forged records, invisible text)
    still get its veto?"""
    rows = [row for row in batch.table if "vetoes" in row.expect]
    found = {row.student: {veto["id"] for veto in json.loads(
        (batch.course / "autograded" / row.student / "lesson05" / "vetoes.json").read_text(encoding="utf-8"))["vetoes"]}
        for row in rows}
    assert found == {row.student: set(row.expect["vetoes"]) for row in rows}


def test_nobody_wrote_the_gradebook(batch):
    """Is there no manual score anywhere in the gradebook, though one attacker tried to give itself 2/2/2?"""
    with Gradebook(f"sqlite:///{batch.course / 'gradebook.db'}") as gradebook:
        manual = [(grade.student.id, grade.name, grade.manual_score) for grade in gradebook.db.query(Grade)
                  if grade.manual_score is not None]
    assert manual == []


def test_submission_times_come_from_the_instructors_disk(batch):
    """Is a submission whose timestamp.txt says 2000 (or is a FIFO) recorded as arriving when it was written here?"""
    with Gradebook(f"sqlite:///{batch.course / 'gradebook.db'}") as gradebook:
        times = {student: gradebook.find_submission("lesson05", student).timestamp
                 for student in ("c08_backdated", "c07_fifos_beside", "zz_control_correct")}
    written = datetime.fromtimestamp(batch.started, timezone.utc).replace(tzinfo=None)
    assert all(abs((stamp - written).total_seconds()) < 600 for stamp in times.values()), times


def test_only_the_notebook_is_taken_from_a_submission_folder(batch):
    """Do links, FIFOs and stray files beside the notebook stay out of autograded/ and feedback/, listed for the grader?"""
    student = "c05_links_beside_the_notebook"
    assert sorted(p.name for p in (batch.course / "autograded" / student / "lesson05").iterdir()) == ["lesson05.ipynb", "vetoes.json"]
    assert sorted(p.name for p in (batch.course / "feedback" / student / "lesson05").iterdir()) == ["lesson05.html"]
    notes = json.loads((batch.course / "autograded" / student / "lesson05" / "vetoes.json").read_text(encoding="utf-8"))["notes"]
    assert "passwd (a symbolic link)" in notes[0] and "gradebook.db (a symbolic link)" in notes[0]


def test_no_result_line_is_forged_and_no_control_character_reaches_the_terminal(batch):
    """Does each student appear on exactly one result line, with no escape sequence or raw id line break in the log?"""
    autograde = batch.runs["autograde"]
    log = autograde.stdout + autograde.stderr + batch.runs["report"].stdout
    students = [match[1] for match in RESULT_LINE.finditer(autograde.stderr)]
    assert students.count("zz_control_correct") == 1
    assert "\x1b[2J" not in log and "\x1b[31m" not in log
    assert "evil\\x0a" in autograde.stderr


def test_csv_cells_are_text_for_a_spreadsheet(batch):
    """Are formula-looking ids written as text (a leading apostrophe) in the report's and nbgrader export's CSV?"""
    report = list(csv.reader((batch.course / "reports" / "lesson05" / "grades.csv").open(encoding="utf-8")))
    export = list(csv.reader((batch.course / "grades.csv").open(encoding="utf-8")))
    for rows in (report, export):
        cells = [cell for row in rows[1:] for cell in row]
        assert "'-2+3" in cells and "'@sum" in cells
        assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]


def test_time_limits_hold_for_the_whole_submission(batch):
    """Did 24 cells each sleeping under the cell timeout stop at the submission's limit (8 s here), not run 43 s?"""
    seconds = {match[1]: float(match[3]) for match in RESULT_LINE.finditer(batch.runs["autograde"].stderr)}
    assert seconds["c19_sleepy_cells"] < 8 + 8


def test_bombs_for_the_trusted_side_stay_bounded(batch):
    """Did the 5 MB and 100 KB code cells and the 40 KB sentence leave feedback quick and the grading pages small?"""
    assert batch.seconds["generate_feedback lesson05"] < 240
    for student in ("c16_five_megabytes_of_code", "c17_hundred_kilobytes_of_code", "c18_forty_kilobyte_sentence"):
        page = batch.course / "feedback" / student / "lesson05" / "lesson05.html"
        assert page.stat().st_size < 3_000_000, student


def test_nothing_was_planted_on_the_host(batch):
    """Are the course, the instructor's home, site-packages, /tmp and cron free of anything an attacker wrote?"""
    mark, course, home = batch.mark, batch.course, batch.home
    assert batch.site_after == batch.site_before
    planted = [p for root in (course, home) for p in root.rglob(f"*{mark}*")]
    planted += [p for folder in (Path("/tmp"), Path("/var/spool/cron/crontabs")) if folder.is_dir()
                for p in folder.iterdir() if mark in p.name]
    assert planted == []
    assert not (home / ".ipython").exists() and not (home / ".bashrc").exists()
    ungradable = course / "reports" / "lesson05" / "ungradable.json"
    assert not ungradable.exists() or mark not in ungradable.read_text()


def test_no_process_outlives_the_batch(batch):
    """Is every daemon, orphan and sleeping child the attackers started gone when grading ends?"""
    assert batch.leftovers == []


def test_no_network_reached_the_host(batch):
    """Did no submission connect to a server on the grader's loopback?"""
    assert batch.listener.connections == 0


def test_no_secret_or_success_reaches_any_output(batch):
    """Does no output hold a solution, oracle code, a secret, a linked file or forged output, or grow huge?"""
    mark, course = batch.mark, batch.course
    forbidden = (*SOLUTION_LINES, *ORACLE_WORDS, f"{mark}-secret", f"{mark}-a01 found", f"{mark}-a02 imported",
                 f"{mark}-a02 oracle", f"{mark}-a03 copied", f"{mark}-a04 wrote", f"{mark}-a09 got",
                 f"{mark}-a16 connected", f"{mark}-a18 read", f"{mark}-c10", "root:x:0:0")
    for (student, path), text in outputs(course).items():
        submitted = (course / "submitted" / student / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8")
        leaked = [word for word in forbidden if word in text and word not in submitted]
        assert leaked == [], path
        assert len(text) < 3_000_000, path


def test_hidden_tests_show_a_verdict_and_one_line(batch):
    """Does each hidden test cell hold exactly one output, a single line, and nothing the student printed?"""
    for path in (batch.course / "autograded").rglob("lesson05.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("grade_id") in TESTS:
                (output,) = cell["outputs"]
                text = "".join(output.get("text", "")) + output.get("evalue", "")
                assert text.strip().count("\n") == 0 and batch.mark not in text, (path, text)


def test_feedback_and_export_work_for_everyone_graded(batch):
    """Do generate_feedback, export and the report succeed, with a feedback page per graded student?"""
    for name in ("feedback", "export", "report"):
        assert batch.runs[name].returncode == 0, (name, batch.runs[name].stderr[-2000:])
    assert len(list((batch.course / "feedback").rglob("*.html"))) == len(graded_rows(batch))
