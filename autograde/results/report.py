"""The final-grade report: gradebook, vetoes and overrides → reports/<assignment>/grades.{csv,json,html}."""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from autograde.assignment_spec import AssignmentSpec, SpecError, load_spec
from autograde.grading.preprocessors.record_vetoes import VETOES_FILE
from autograde.results.final_grade import STATUSES, FinalGrade, Part, decide_vetoes
from autograde.results.gradebook_access import GradebookUnavailable
from autograde.results.gradebook_scores import read_scores
from autograde.results.overrides import (
    FILENAME,
    Override,
    OverridesError,
    load_overrides,
)
from autograde.results.ungradable import load_ungradable
from autograde.results.veto_decisions import (
    Disagreement,
    combined,
    disagreement_line,
    load_page_decisions,
)
from autograde.untrusted.csp import NO_SCRIPT_PAGE, meta_tag, policy
from autograde.untrusted.shown import for_console, for_spreadsheet
from autograde.veto.finding import CATALOGUE, VETO_IDS

TEMPLATES = Path(__file__).with_name("templates")


@dataclass(frozen=True)
class GradeReport:
    """Every student's final grade for one assignment, and what still needs the instructor."""

    spec: AssignmentSpec
    grades: tuple[FinalGrade, ...]
    unchecked: tuple[str, ...] = ()
    """Students in the gradebook without a vetoes.json: autograding stopped before the veto checks."""
    stale: tuple[Override, ...] = ()
    """Dismissals of a veto the checks did not find (left over from an earlier run)."""
    notes: tuple[tuple[str, str], ...] = ()
    """(student, note) for each submission the veto checks could not read within their limits."""
    disagreements: tuple[Disagreement, ...] = ()
    """Vetoes overrides.yaml and the grading page decide differently (overrides.yaml wins)."""

    @property
    def max_points(self) -> int:
        """Points available in the assignment."""
        return self.spec.code_points + self.spec.answer_points


def vetoes_path(root: Path, student: str, assignment: str) -> Path:
    """Where RecordVetoes wrote a student's findings during `nbgrader autograde`."""
    return root / "autograded" / student / assignment / VETOES_FILE


def gather_report(spec: AssignmentSpec, root: Path, overrides_path: Path | None = None) -> GradeReport:
    """Read the gradebook, the ungradable record, each vetoes.json, and the veto decisions of overrides.yaml and of the
    grading page under the course root."""
    notebook = spec.notebook.removesuffix(".ipynb")
    scores = {row.student: row.scores for row in read_scores(root, spec.assignment, notebook)}
    ungradable = load_ungradable(spec.assignment, root)
    students = sorted(set(scores) | set(ungradable))
    in_file = load_overrides(overrides_path or root / FILENAME, students, required=overrides_path is not None)
    overrides, disagreements = combined(in_file, load_page_decisions(root, spec.assignment, students))
    grades, unchecked, notes = [], [], []
    for student in students:
        if student in ungradable:
            grades.append(FinalGrade(student, spec.pass_points, ungradable=ungradable[student]))
            continue
        path = vetoes_path(root, student, spec.assignment)
        if not path.exists():  # autograde stopped before the veto checks: its scores cannot make a pass
            unchecked.append(student)
            grades.append(FinalGrade(student, spec.pass_points, ungradable=f"autograding did not finish (no {path.relative_to(root)}); "
                                     f"re-run `nbgrader autograde {spec.assignment} --force` and read its log"))
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        found = record["vetoes"]
        notes += [(student, str(note)) for note in record.get("notes", [])]
        got = scores[student]
        grades.append(FinalGrade(
            student,
            spec.pass_points,
            tests=tuple(Part(t.grade_id, t.points, got.get(t.grade_id)) for t in spec.tests),
            answers=tuple(Part(a.grade_id, a.points, got.get(a.grade_id)) for a in spec.answers),
            vetoes=decide_vetoes(found, {veto: o for (s, veto), o in overrides.items() if s == student}),
        ))
    found_ids = {(g.student, v.id) for g in grades for v in g.vetoes}
    stale = tuple(o for key, o in overrides.items() if o.decision == "dismissed" and key not in found_ids)
    return GradeReport(spec, tuple(grades), tuple(unchecked), stale, tuple(notes), tuple(disagreements))


def points_text(points: float | None) -> str:
    """A score as people read it: '1', '7.5', or 'pending'."""
    return "pending" if points is None else f"{points:g}"


def csv_text(report: GradeReport) -> str:
    """One CSV row per student: each part, code and total, what is pending, vetoes with their decisions."""
    spec = report.spec
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "status", *(t.grade_id for t in spec.tests), f"code/{spec.code_points}",
                     *(a.grade_id for a in spec.answers), f"total/{report.max_points}", "points_so_far",
                     "pending", "vetoes", "ungradable"])
    for grade in report.grades:
        parts = [points_text(p.points) for p in grade.parts] or [""] * (len(spec.tests) + len(spec.answers))
        writer.writerow([for_spreadsheet(cell) for cell in [
            grade.student, grade.status_label, *parts[:len(spec.tests)],
            "" if grade.code_points is None else points_text(grade.code_points), *parts[len(spec.tests):],
            "" if grade.total is None else points_text(grade.total),
            "" if grade.points is None else points_text(grade.points),
            " ".join(grade.pending),
            " | ".join(f"{v.id} [{v.decision}] {v.cell or v.origin}: {v.evidence}" for v in grade.vetoes),
            grade.ungradable or "",
        ]])
    return out.getvalue()


def json_text(report: GradeReport) -> str:
    """The report as JSON: the assignment's point scale and one object per student."""
    return json.dumps({
        "assignment": report.spec.assignment,
        "max_points": report.max_points,
        "code_points": report.spec.code_points,
        "pass_points": report.spec.pass_points,
        "students": [grade.to_dict() for grade in report.grades],
    }, ensure_ascii=False, indent=2) + "\n"


def histogram(report: GradeReport) -> list[int]:
    """How many final totals fall in each whole-point bin 0..max (students without a total are left out)."""
    bins = [0] * (report.max_points + 1)
    for grade in report.grades:
        if grade.total is not None:
            bins[min(int(grade.total), report.max_points)] += 1
    return bins


def pass_rates(report: GradeReport) -> list[tuple[str, str, int, int]]:
    """(grade id, title, students with full points, students graded) for each hidden test."""
    rates = []
    for test in report.spec.tests:
        got = [p for g in report.grades for p in g.tests if p.grade_id == test.grade_id and p.points is not None]
        rates.append((test.grade_id, test.title, sum(p.points >= p.max_points for p in got), len(got)))
    return rates


def veto_counts(report: GradeReport) -> dict[str, Counter[str]]:
    """Veto id → how many students have it, by decision (undecided, upheld, dismissed)."""
    counts: dict[str, Counter[str]] = {veto: Counter() for veto in VETO_IDS}
    for grade in report.grades:
        for veto_id, decision in {(v.id, v.decision) for v in grade.vetoes}:
            counts[veto_id][decision] += 1
    return counts


def html_text(report: GradeReport) -> str:
    """The self-contained HTML page (inline CSS and SVG; every student text escaped by Jinja's autoescape)."""
    environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined)
    environment.filters["points"] = points_text
    return environment.get_template("grades.html.j2").render(
        report=report, spec=report.spec, catalogue=CATALOGUE, histogram=histogram(report),
        pass_rates=pass_rates(report), veto_counts=veto_counts(report),
        status_counts=Counter(g.status for g in report.grades), statuses=STATUSES, pass_points=report.spec.pass_points,
        policy=meta_tag(policy(NO_SCRIPT_PAGE)),
    )


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                     delete=False) as handle:
        handle.write(text)
    os.chmod(handle.name, 0o644)  # the temporary file is private (0600); the report is meant to be read by others
    os.replace(handle.name, path)


def write_report(report: GradeReport, folder: Path, json_path: Path | None = None) -> list[Path]:
    """Render grades.csv, grades.json and grades.html, then write them; returns the paths written."""
    rendered = {folder / "grades.csv": csv_text(report), json_path or folder / "grades.json": json_text(report),
                folder / "grades.html": html_text(report)}
    for path, text in rendered.items():
        write_atomically(path, text)
    return list(rendered)


def summary(report: GradeReport) -> Table:
    """The terminal summary table: how many students have each status, and who."""
    by_label: dict[str, list[str]] = {}
    for grade in sorted(report.grades, key=lambda g: STATUSES.index(g.status)):
        by_label.setdefault(grade.status_label, []).append(grade.student)
    table = Table(title=f"{report.spec.assignment}: final grades ({len(report.grades)} students)")
    table.add_column("status")
    table.add_column("students", justify="right")
    table.add_column("who")
    for label, students in by_label.items():
        table.add_row(label, str(len(students)), for_console(", ".join(students)))
    return table


def todo(report: GradeReport) -> list[str]:
    """What the instructor still has to do, one line each (rich markup, student text escaped)."""
    lines = []
    for grade in report.grades:
        undecided: dict[str, list[str]] = {}
        for veto in grade.vetoes:
            if veto.decision == "undecided":
                undecided.setdefault(veto.id, []).append(veto.cell or veto.origin)
        lines += [f"undecided veto: {for_console(grade.student)} {veto_id} ({for_console(', '.join(dict.fromkeys(cells)))}); "
                  f"decide it on the grading page or in {FILENAME}" for veto_id, cells in undecided.items()]
    if report.unchecked:
        lines.append(f"no vetoes.json for {for_console(', '.join(report.unchecked))}: autograding did not finish, "
                     f"so they count as ungradable; re-run nbgrader autograde {report.spec.assignment} --force")
    lines += [f"{o.source}: {for_console(o.student)}/{o.veto} is dismissed but was not found; remove that decision"
              for o in report.stale]
    lines += [for_console(disagreement_line(found)) for found in report.disagreements]
    lines += [f"{for_console(student)}: {for_console(note)}" for student, note in report.notes]
    return lines


def run_report(assignment: str, root: Path, json_path: Path | None = None, overrides_path: Path | None = None,
               console: Console | None = None) -> int:
    """Gather, write and summarise the final grades; a one-line error and status 1 when an input is unusable."""
    console = console or Console()
    try:
        report = gather_report(load_spec(assignment), root, overrides_path)
    except (SpecError, OverridesError, GradebookUnavailable) as error:
        console.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)
        return 1
    written = write_report(report, root / "reports" / assignment, json_path)
    console.print(summary(report))
    for line in todo(report):
        console.print(f"[yellow]{line}[/yellow]", soft_wrap=True)
    for path in written:
        console.print(f"wrote {path.relative_to(root) if path.is_relative_to(root) else path}")
    return 0
