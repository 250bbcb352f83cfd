"""Command line: `python -m autograde {build,veto,report,demo,grade,mock-submissions}`."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def _veto(args: argparse.Namespace) -> int:
    """Read one answer on stdin and print its vetoes as JSON."""
    from autograde.veto.text import find_vetoes

    answer = sys.stdin.read()
    vetoes = find_vetoes(answer, question=args.question)
    print(json.dumps({"vetoes": [{"id": v.id, "evidence": v.evidence} for v in vetoes]}, ensure_ascii=False))
    return 0


def _build(args: argparse.Namespace) -> int:
    """Write source/<assignment>/<notebook> from the lesson, and compile the veto cue book for the graders to come."""
    from autograde.building.source_notebook import write_source_notebook
    from autograde.veto.cues import cue_book

    path = write_source_notebook(args.assignment)
    print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    cue_book()  # compiled once here, so the first autograde run's workers read its patterns (veto/pattern_cache.py)
    return 0


def _demo(args: argparse.Namespace) -> int:
    """Autograde the bundled example class and print the points table."""
    from autograde.demo import run_demo

    return run_demo(args.assignment)


def _mock_submissions(args: argparse.Namespace) -> int:
    """Write student notebooks described by a YAML table from the release notebook."""
    from autograde.assignment_spec import REPO_ROOT, load_spec
    from autograde.building.mock_submissions import load_table, write_submissions

    spec = load_spec(args.assignment)
    release = REPO_ROOT / "release" / spec.assignment / spec.notebook
    folders = write_submissions(release, load_table(Path(args.table)), Path(args.destination), spec.assignment)
    print(f"wrote {len(folders)} submissions under {args.destination}")
    return 0


def _report(args: argparse.Namespace) -> int:
    """Combine gradebook, vetoes and overrides into reports/<assignment>/grades.{csv,json,html}."""
    from autograde.results.report import run_report

    return run_report(args.assignment, Path.cwd(), args.json, args.overrides)


def _grade(args: argparse.Namespace) -> int:
    """Print what waits on a question's grading page and the link to it."""
    from autograde.by_question.link import grade_question

    for line in grade_question(Path.cwd(), args.assignment, args.question):
        print(line)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per stage of the data flow."""
    parser = argparse.ArgumentParser(prog="python -m autograde", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    build = commands.add_parser("build", help="build the nbgrader source notebook from the lesson .qmd")
    build.add_argument("assignment", help="assignment name, e.g. lesson05")
    build.set_defaults(run=_build)

    demo = commands.add_parser("demo", help="autograde examples/submissions and print per-test points")
    demo.add_argument("assignment", nargs="?", default="lesson05")
    demo.set_defaults(run=_demo)

    mock = commands.add_parser("mock-submissions", help="write student notebooks from a YAML table (examples, tests)")
    mock.add_argument("table", help="YAML list of what each student did")
    mock.add_argument("destination", help="folder to hold <student>/<assignment>/<notebook>")
    mock.add_argument("--assignment", default="lesson05")
    mock.set_defaults(run=_mock_submissions)

    report = commands.add_parser("report", help="final grades (points, vetoes, overrides) as CSV, JSON and HTML")
    report.add_argument("assignment", help="assignment name, e.g. lesson05")
    report.add_argument("--json", type=Path, metavar="PATH", help="write the JSON here instead of reports/<assignment>/")
    report.add_argument("--overrides", type=Path, metavar="PATH", help="veto decisions (default: overrides.yaml if present)")
    report.set_defaults(run=_report)

    grade = commands.add_parser("grade", help="grade one question across the class: its page's link and what waits there")
    grade.add_argument("assignment", help="assignment name, e.g. lesson05")
    grade.add_argument("question", help="a manually graded answer's grade id, e.g. q2")
    grade.set_defaults(run=_grade)

    veto = commands.add_parser("veto", help="check one free-text answer (stdin) for veto claims")
    veto.add_argument("--question", choices=("q1", "q2", "q3"), required=True)
    veto.set_defaults(run=_veto)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments and run the chosen command; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, FileNotFoundError) as error:  # bad input from a person: one line, no traceback
        print(f"error: {error}", file=sys.stderr)
        return 2
