"""`make demo`: put the example class into submitted/, autograde it with nbgrader, print per-test points."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from autograde.assignment_spec import AssignmentSpec, load_spec
from autograde.results.gradebook_access import check_reachable
from autograde.results.gradebook_scores import read_scores
from autograde.results.report import vetoes_path
from autograde.results.ungradable import load_ungradable
from autograde.untrusted.shown import for_console

EXAMPLES = Path("examples") / "submissions"


def copy_examples(examples: Path, root: Path) -> list[str]:
    """Copy each example student's folder into submitted/ unless that student already has one."""
    copied = []
    for student_dir in sorted(p for p in examples.iterdir() if p.is_dir()):
        target = root / "submitted" / student_dir.name
        if not target.exists():
            shutil.copytree(student_dir, target)
            copied.append(student_dir.name)
    return copied


def run_autograde(spec: AssignmentSpec, root: Path) -> int:
    """`nbgrader autograde <assignment>` from the course root; returns its exit status."""
    command = [str(Path(sys.executable).with_name("nbgrader")), "autograde", spec.assignment]
    return subprocess.run(command, cwd=root, check=False).returncode


def vetoes_of(root: Path, student: str, assignment: str) -> list[dict]:
    """The findings RecordVetoes wrote for one student (empty when none were written)."""
    path = vetoes_path(root, student, assignment)
    return json.loads(path.read_text(encoding="utf-8"))["vetoes"] if path.exists() else []


def points_text(score: float | None) -> str:
    """Points as shown in the table, or 'pending' where nobody has graded them yet."""
    return "pending" if score is None else f"{score:g}"


def points_table(spec: AssignmentSpec, root: Path) -> Table:
    """Per student: each hidden test's points, the code total, Q1-Q3 status, vetoes, ungradable reason."""
    ungradable = load_ungradable(spec.assignment, root)
    scores = {row.student: row for row in read_scores(root, spec.assignment, spec.notebook.removesuffix(".ipynb"))}
    table = Table(title=f"{spec.assignment}: autograded points per student")
    table.add_column("student")
    for test in spec.tests:
        table.add_column(test.grade_id.removeprefix("test_"), justify="right")
    table.add_column(f"code /{spec.code_points}", justify="right")
    table.add_column("Q1-Q3")
    table.add_column("vetoes / status")
    for student in sorted(set(scores) | set(ungradable)):
        if student in ungradable:
            table.add_row(for_console(student), *["–"] * (len(spec.tests) + 2), "ungradable (reason below)")
            continue
        got = scores[student].scores
        points = [got.get(test.grade_id) for test in spec.tests]
        answers = ", ".join(f"{a.grade_id}: {points_text(got.get(a.grade_id))}" for a in spec.answers)
        vetoes = ", ".join(sorted({f"{v['id']} ({v['cell']})" for v in vetoes_of(root, student, spec.assignment)})) or "—"
        table.add_row(for_console(student), *[points_text(p) for p in points], f"{sum(p or 0 for p in points):g}", answers, vetoes)
    return table


def run_demo(assignment: str, root: Path | None = None, examples: Path = EXAMPLES) -> int:
    """From the course root (default: here), copy the examples, autograde them, print the table.

    Returns non-zero only for an autograde failure that no ungradable record explains.
    """
    root = root or Path.cwd()
    spec = load_spec(assignment, root)
    examples = root / examples
    console = Console(width=None if sys.stdout.isatty() else 140)
    check_reachable(root)  # a wrong db_url stops here in one line, not as nbgrader tracebacks for each student
    copied = copy_examples(examples, root)
    console.print(f"examples copied into submitted/: {', '.join(copied) or 'none (already there)'}")
    status = run_autograde(spec, root)
    ungradable = load_ungradable(spec.assignment, root)
    console.print(points_table(spec, root))
    for student, reason in sorted(ungradable.items()):
        console.print(f"ungradable {for_console(student)}: {for_console(reason)}")
    scored = {row.student for row in read_scores(root, spec.assignment, spec.notebook.removesuffix(".ipynb"))}
    unexplained = sorted({p.parent.name for p in (root / "submitted").glob(f"*/{spec.assignment}")} - scored - set(ungradable))
    if status != 0 and unexplained:
        console.print(f"[red]nbgrader autograde exited with {status}; not graded and not recorded as ungradable: "
                      f"{for_console(', '.join(unexplained))} (see the nbgrader log above)[/red]")
        return status
    return 0
