"""Throughput of the course's `nbgrader autograde` against plain nbgrader on the same submissions, side by side, and
the figures of a class that starts grading at once: time to the first result, one new submission, a looping one,
and the Dask cluster path beside the local pool.

Run: .venv/bin/python bench/grade_throughput.py [--sizes 60 200] [--no-cluster]

For each size two course folders are made from this repository's source notebook: "course" with grader_config.py as
committed (sandboxed, parallel, oracle outside the kernel) and "plain" with nbgrader's default autograde pipeline
(same release settings, the same 10 s per-cell timeout, interrupted rather than fatal). Both get the mistake table
(tests/data/submissions/mistakes.yaml) cycled to that many students and are autograded from fresh gradebooks; the
script prints both wall times, their ratio, the course's time to its first result (from the batch's last line),
whether the per-test points agree for every student both graded, and which students plain nbgrader failed to grade.
Then: one submission's whole command (median of SINGLE_RUNS, and how much of it is start-up), a submission whose
stage-3 function never returns (the cost against 2 × the cell timeout + 3 s), and the first size graded again on a
Dask cluster of two local workers (one machine shows the overhead, not a speed-up).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from autograde.building.mock_submissions import (  # noqa: E402
    MockSubmission,
    cycle_table,
    load_table,
    write_submissions,
)
from autograde.results.gradebook_scores import read_scores  # noqa: E402

TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
MISTAKES = ROOT / "tests" / "data" / "submissions" / "mistakes.yaml"
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
SINGLE_RUNS = 5
"""Runs of the one-new-submission command (and of the same command with nothing to grade) whose medians are printed."""
LOOPING = MockSubmission("looping", "zero_communication_volume never returns for stage 3 (make_table and the tests hit it)",
                         blanks={5: "next(n for n in iter(int, 1) if n)"})
CELL_TIMEOUT_S = 10.0
FIRST_RESULT = re.compile(r"first result after (\d+\.\d+) s")
RECORDING = re.compile(r"recording (\d+) ms each")
MOOC, WORKER_COUNTS = 10_000, (2, 8, 32, 128)
"""The class size and worker counts the cost estimate is printed for."""


def make_course(folder: Path, config: dict[str, str], rows: list) -> Path:
    """A course folder with the source notebook, its config files, its release, and the submissions."""
    folder.mkdir()
    shutil.copytree(ROOT / "source", folder / "source")
    for name, text in config.items():
        (folder / name).write_text(text, encoding="utf-8")
    nbgrader(folder, "generate_assignment", "lesson05", "--force")
    write_submissions(folder / "release" / "lesson05" / "lesson05.ipynb", rows, folder / "submitted", "lesson05")
    return folder


def nbgrader(course: Path, *args: str) -> tuple[float, str]:
    """Run an nbgrader command in a course; its wall time in seconds and what it printed on stderr."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NBGRADER_DB_URL", None)
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).with_name("nbgrader")), *args], cwd=course, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    return time.perf_counter() - started, done.stderr


def first_result(stderr: str) -> str:
    """The batch's own time to its first result, as its last line says."""
    match = FIRST_RESULT.search(stderr)
    return f"{float(match[1]):.2f} s" if match else "?"


def format_points(points: tuple[float | None, ...]) -> str:
    """Per-test points as one short string."""
    return "/".join("-" if p is None else f"{p:g}" for p in points)


def points(course: Path) -> dict[str, tuple[float | None, ...]]:
    """Per-test points of every student in a course's gradebook."""
    return {row.student: tuple(row.scores.get(test) for test in TESTS) for row in read_scores(course, "lesson05", "lesson05")}


def a_class(size: int) -> list[MockSubmission]:
    """`size` students going round the mistake table's rows that do not loop (the looping one is measured alone)."""
    rows = [row for row in load_table(MISTAKES) if "loop" not in row.student]
    # named number first, so that nbgrader's alphabetical order keeps the table's cycle (mistakes spread as in a class)
    return cycle_table(rows, size, name="s{number:03d}_{student}")


def mooc_cost(seconds: float, size: int, log: str) -> str:
    """What MOOC submissions cost on k worker processes, from this batch: each took `seconds` x cores / `size`
    worker-seconds (start-up included), and the nbgrader process records one at a time at the rate its last line says."""
    worker_s = seconds * (os.cpu_count() or 1) / size
    recording = RECORDING.search(log)
    floor = (f"; the nbgrader process records each in {recording[1]} ms, so no batch passes "
             f"{1000 / max(1, int(recording[1])):.0f} submissions/s ({MOOC * int(recording[1]) / 60_000:.0f} min for "
             f"{MOOC:,}) however many workers") if recording else ""
    estimates = ", ".join(f"{k} workers {MOOC * worker_s / k / 60:.0f} min" for k in WORKER_COUNTS)
    return f"{MOOC:,} submissions at {worker_s:.2f} worker-s each: {estimates}{floor}"


def compare(size: int, work: Path, course_config: dict[str, str]) -> tuple[float, dict]:
    """Grade `size` submissions with both pipelines and print the figures; returns the course's time and points."""
    rows = a_class(size)
    course = make_course(work / f"course-{size}", course_config, rows)
    plain = make_course(work / f"plain-{size}", {"nbgrader_config.py": PLAIN_CONFIG}, rows)
    ours_s, ours_log = nbgrader(course, "autograde", "lesson05")
    plain_s, _ = nbgrader(plain, "autograde", "lesson05")
    ours, theirs = points(course), points(plain)
    both = sorted(s for s in set(ours) & set(theirs) if None not in ours[s] + theirs[s])
    differing = {student: (ours[student], theirs[student]) for student in both if ours[student] != theirs[student]}
    plain_failed = sorted(s for s in set(ours) & set(theirs) if None in theirs[s] and None not in ours[s])
    print(f"{size} submissions (the mistake table's {len({row.student.split('_', 1)[1] for row in rows})} rows that do not "
          f"loop, cycled), {os.cpu_count()} cores")
    print(f"  plain nbgrader autograde : {plain_s:7.1f} s  ({plain_s / size:.3f} s/submission, {len(theirs)} graded)")
    print(f"  course nbgrader autograde: {ours_s:7.1f} s  ({ours_s / size:.3f} s/submission, {len(ours)} graded, "
          f"the rest recorded as ungradable); first result after {first_result(ours_log)} of grading")
    print(f"  throughput ratio: {plain_s / ours_s:.1f}x")
    print(f"  per-test points identical on {len(both) - len(differing)} of the {len(both)} students both graded "
          f"({(len(both) - len(differing)) * len(TESTS)} test scores)")
    for student, (course_points, plain_points) in sorted(differing.items()):
        print(f"    differ: {student}: course {format_points(course_points)}, plain {format_points(plain_points)}")
    print(f"  {mooc_cost(ours_s, size, ours_log)}")
    failed_rows = sorted({student.split("_", 1)[1] for student in plain_failed})
    print(f"  graded by the course but not by plain nbgrader (its run failed for them): {len(plain_failed)} "
          f"({', '.join(failed_rows) or 'none'})")
    return ours_s, ours


def single(work: Path, course_config: dict[str, str]) -> None:
    """One new submission in a course that already has the others: the whole command, and its start-up."""
    course = make_course(work / "single", course_config, load_table(MISTAKES)[:1])
    graded, idle = [], []
    for _ in range(SINGLE_RUNS):
        graded.append(nbgrader(course, "autograde", "lesson05", "--force")[0])
        idle.append(nbgrader(course, "autograde", "lesson05")[0])  # nothing left to grade: start-up only
    print(f"one new submission: the whole command {statistics.median(graded):.2f} s (median of {SINGLE_RUNS}: "
          f"{', '.join(f'{t:.2f}' for t in graded)}); a run with nothing to grade {statistics.median(idle):.2f} s")


def looping(work: Path, course_config: dict[str, str]) -> None:
    """A submission whose stage-3 function never returns: what it costs beyond start-up, against the goal."""
    course = make_course(work / "looping", course_config, [LOOPING])
    graded_s, _ = nbgrader(course, "autograde", "lesson05", "--force")
    idle_s, _ = nbgrader(course, "autograde", "lesson05")
    print(f"a looping submission: {graded_s - idle_s:.1f} s past start-up (goal: 2 x {CELL_TIMEOUT_S:g} s + 3 s = "
          f"{2 * CELL_TIMEOUT_S + 3:g} s); points {format_points(points(course)['looping'])}")


def on_cluster(size: int, work: Path, course_config: dict[str, str], local_s: float, local_points: dict) -> None:
    """The same class graded on a Dask cluster of two local workers, beside the local pool."""
    from dask_cluster import DaskCluster

    cluster = DaskCluster(work / "dask").start(workers=2)
    try:
        config = dict(course_config)
        config["grader_config.py"] += f'\nc.Sandbox.cluster = "{cluster.address}"\n'
        course = make_course(work / f"cluster-{size}", config, a_class(size))
        cold_s, cold_log = nbgrader(course, "autograde", "lesson05")
        same = points(course) == local_points
        warm_s, warm_log = nbgrader(course, "autograde", "lesson05", "--force")
    finally:
        cluster.stop()
    print(f"Dask cluster (2 local workers, 1 thread each) on the {size}, against the local pool's {local_s:.1f} s: "
          f"fresh workers {cold_s:.1f} s ({cold_s / local_s:.2f}x, first result after {first_result(cold_log)}), "
          f"the same workers again {warm_s:.1f} s ({warm_s / local_s:.2f}x, first result after {first_result(warm_log)}); "
          f"per-test points {'identical' if same else 'DIFFERENT'} for all {len(local_points)} students")


def main() -> int:
    """Grade the classes with both pipelines, then the single, looping and cluster figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[60, 200])
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster figure")
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "autograde")], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-c", "from autograde.veto.cues import cue_book; cue_book()"], check=True)  # as make build
    course_config = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("nbgrader_config.py", "grader_config.py")}
    with tempfile.TemporaryDirectory(prefix="grade-throughput-") as work:
        measured = {size: compare(size, Path(work), course_config) for size in args.sizes}
        single(Path(work), course_config)
        looping(Path(work), course_config)
        if not args.no_cluster:
            size = args.sizes[0]
            on_cluster(size, Path(work), course_config, *measured[size])
    return 0


if __name__ == "__main__":
    sys.exit(main())
