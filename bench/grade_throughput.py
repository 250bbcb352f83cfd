"""Throughput of the course's `nbgrader autograde` against plain nbgrader on the same submissions, side by side.

Run: .venv/bin/python bench/grade_throughput.py [--submissions 200]

Two course folders are made from this repository's source notebook: "course" with grader_config.py as
committed (sandboxed, parallel, oracle outside the kernel) and "plain" with nbgrader's default autograde
pipeline (same release settings, the same 10 s per-cell timeout, interrupted rather than fatal). Both
get the mistake table (tests/data/submissions/mistakes.yaml) cycled to --submissions students and are
autograded from fresh gradebooks; the script prints both wall times, their ratio, whether the per-test
points agree for every student both graded, which students plain nbgrader failed to grade, and the time
one submission takes after start-up: the difference between grading it (--force) and a run with nothing to
grade, over SINGLE_RUNS alternating pairs (one pair of ~3 s commands is too noisy on its own).
"""
from __future__ import annotations

import argparse
import statistics
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograde.building.mock_submissions import cycle_table, load_table, write_submissions  # noqa: E402
from autograde.results.gradebook_scores import read_scores  # noqa: E402

TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
PLAIN_CONFIG = '''
from autograde.grading.preprocessors.clear_solutions_to_exercise import ClearSolutionsToExercise
from nbgrader.preprocessors import (CheckCellMetadata, ClearHiddenTests, ClearMarkScheme, ClearOutput, ComputeChecksums,
                                    IncludeHeaderFooter, InstantiateTests, LockCells, SaveCells)
c = get_config()
c.CourseDirectory.course_id = "dist-training-lesson05"
c.Autograde.create_student = True
c.GenerateAssignment.preprocessors = [IncludeHeaderFooter, InstantiateTests, LockCells, ClearSolutionsToExercise, ClearOutput,
                                      CheckCellMetadata, ComputeChecksums, SaveCells, ClearHiddenTests, ClearMarkScheme,
                                      ComputeChecksums, CheckCellMetadata]
c.ClearMarkScheme.enforce_metadata = False
c.Execute.timeout = 10
c.Execute.interrupt_on_timeout = True
c.OverwriteCells.add_missing_cells = True
'''
"""nbgrader's own autograde pipeline; what building the release needs, the course's cell timeout, deleted test cells restored."""


def make_course(folder: Path, config: dict[str, str], rows: list) -> Path:
    """A course folder with the source notebook, its config files, its release, and the submissions."""
    folder.mkdir()
    shutil.copytree(ROOT / "source", folder / "source")
    for name, text in config.items():
        (folder / name).write_text(text, encoding="utf-8")
    nbgrader(folder, "generate_assignment", "lesson05", "--force")
    write_submissions(folder / "release" / "lesson05" / "lesson05.ipynb", rows, folder / "submitted", "lesson05")
    return folder


SINGLE_RUNS = 5
"""Pairs of (grade one submission, run with nothing to grade) whose differences give the single-submission time."""


def nbgrader(course: Path, *args: str) -> float:
    """Run an nbgrader command in a course; its wall time in seconds."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NBGRADER_DB_URL", None)
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).with_name("nbgrader")), *args], cwd=course, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def format_points(points: tuple[float | None, ...]) -> str:
    """Per-test points as one short string."""
    return "/".join("-" if p is None else f"{p:g}" for p in points)


def points(course: Path) -> dict[str, tuple[float | None, ...]]:
    """Per-test points of every student in a course's gradebook."""
    return {row.student: tuple(row.scores.get(test) for test in TESTS) for row in read_scores(course, "lesson05", "lesson05")}


def main() -> int:
    """Grade the same class with both pipelines and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--submissions", type=int, default=200)
    args = parser.parse_args()
    # named number first, so that nbgrader's alphabetical order keeps the table's cycle (mistakes spread as in a class)
    rows = cycle_table(load_table(ROOT / "tests" / "data" / "submissions" / "mistakes.yaml"), args.submissions,
                       name="s{number:03d}_{student}")
    course_config = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("nbgrader_config.py", "grader_config.py")}
    with tempfile.TemporaryDirectory(prefix="grade-throughput-") as work:
        course = make_course(Path(work) / "course", course_config, rows)
        plain = make_course(Path(work) / "plain", {"nbgrader_config.py": PLAIN_CONFIG}, rows)
        ours_s = nbgrader(course, "autograde", "lesson05")
        plain_s = nbgrader(plain, "autograde", "lesson05")
        ours, theirs = points(course), points(plain)
        both = sorted(s for s in set(ours) & set(theirs) if None not in ours[s] + theirs[s])
        differing = {student: (ours[student], theirs[student]) for student in both if ours[student] != theirs[student]}
        plain_failed = sorted(s for s in set(ours) & set(theirs) if None in theirs[s] and None not in ours[s])
        single = make_course(Path(work) / "single", course_config, [rows[0]])
        pairs = [(nbgrader(single, "autograde", "lesson05", "--force"),
                  nbgrader(single, "autograde", "lesson05"))  # nothing left to grade: start-up only
                 for _ in range(SINGLE_RUNS)]
        grading = sorted(graded - idle for graded, idle in pairs)
    print(f"submissions: {args.submissions} (the {len(load_table(ROOT / 'tests/data/submissions/mistakes.yaml'))}-row "
          f"mistake table cycled), {os.cpu_count()} cores")
    print(f"plain nbgrader autograde : {plain_s:7.1f} s  ({plain_s / args.submissions:.3f} s/submission, {len(theirs)} graded)")
    print(f"course nbgrader autograde: {ours_s:7.1f} s  ({ours_s / args.submissions:.3f} s/submission, {len(ours)} graded, "
          f"the rest recorded as ungradable)")
    print(f"throughput ratio: {plain_s / ours_s:.1f}x")
    print(f"per-test points identical on {len(both) - len(differing)} of the {len(both)} students both graded "
          f"({(len(both) - len(differing)) * len(TESTS)} test scores)")
    for student, (course_points, plain_points) in sorted(differing.items()):
        print(f"  differ: {student}: course {format_points(course_points)}, plain {format_points(plain_points)}")
    failed_rows = sorted({student.split("_", 1)[1] for student in plain_failed})
    print(f"graded by the course but not by plain nbgrader (its run failed for them): {len(plain_failed)} "
          f"({', '.join(failed_rows) or 'none'})")
    single_s, idle_s = (statistics.median(run) for run in zip(*pairs))
    print(f"one submission: {single_s:.2f} s for the command, {idle_s:.2f} s of it start-up (a run with nothing to grade), "
          f"medians of {SINGLE_RUNS} runs: {statistics.median(grading):.2f} s to grade it "
          f"(each run: {', '.join(f'{t:.2f}' for t in grading)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
