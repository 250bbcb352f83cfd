"""The lesson's formulas, DeepSpeed's estimates and the lab's measurement side by side, term by term, without torch."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from zerolab.accounting import (
    COMPARED_STAGES,
    Model,
    Term,
    deepspeed_sum,
    deepspeed_terms,
    difference,
    lesson_terms,
    memory_terms,
    not_counted,
    total_bytes,
)
from zerolab.formulas import STATES
from zerolab.report import StageRow, load_saved, stage_rows

HEADERS: dict[str, tuple[str, ...]] = {
    "en": ("model", "N_d", "stage", "lesson", "DeepSpeed", "lab held / peak", "DeepSpeed − lesson"),
    "zh": ("模型", "$N_d$", "阶段", "课上公式", "DeepSpeed 估算", "实测持有 / 峰值", "DeepSpeed − 课上（逐项，及其源码行）"),
}
"""Columns of the comparison table, by language: the CLI prints English, the lesson shows Chinese."""
TERM_HEADERS: dict[str, tuple[str, ...]] = {
    "en": ("term", "lesson Z2", "DS Z2", "lesson Z3", "DS Z3", "lab held", "DeepSpeed source"),
    "zh": ("项", "课上 ZeRO-2", "DeepSpeed ZeRO-2", "课上 ZeRO-3", "DeepSpeed ZeRO-3", "实测 FSDP2 持有",
           "DeepSpeed 源码行"),
}
"""Columns of the term table: bytes per covered parameter in each accounting, then DeepSpeed's source lines."""
COVERS: dict[str, dict[str, str]] = {
    "en": {"whole": "Ψ", "shard": "Ψ/N_d", "largest_layer": "L"},
    "zh": {"whole": r"\Psi", "shard": r"\Psi/N_d", "largest_layer": "L"},
}
"""How a term's coverage is written: as text in the terminal, as TeX (inside $…$) on the site."""
SEPARATOR: dict[str, str] = {"en": "; ", "zh": "；"}
"""Between the terms listed in one cell."""
ABSENT: dict[str, str] = {"en": "not in {line}", "zh": "{line} 未计入"}
"""Cites a term the lesson counts and DeepSpeed's sum leaves out."""
SOURCE_LABELS: dict[str, tuple[str, str]] = {"en": ("counted ", "kept "), "zh": ("计入：", "保存：")}
"""Before the lines where the estimator counts a term, and where ZeRO keeps it."""
LINE_BREAK: dict[str, str] = {"en": "\n", "zh": "<br>"}
"""Between the two in one cell."""


def load_estimates(path: str | Path) -> dict[str, Any]:
    """Read the estimates `python -m zerolab deepspeed` saved."""
    return load_saved(path, "deepspeed")


@dataclass(frozen=True)
class Comparison:
    """One model, world size and stage: the three accountings' bytes per GPU, and the terms DeepSpeed adds."""

    model: Model
    world_size: int
    stage: str
    """zero2 or zero3."""
    lesson: float
    """The lesson's formula, bytes."""
    deepspeed: int
    """What DeepSpeed's estimator returned, bytes."""
    measured: StageRow | None
    """The lab's measurement of this model at this N and stage (ZeRO-2-like for zero2), if it ran one."""
    extra: list[tuple[Term, float]]
    """DeepSpeed's terms minus the lesson's, with signed bytes per covered parameter."""

    @property
    def unexplained(self) -> float:
        """Bytes of DeepSpeed's estimate that its terms do not account for (under 1: its int() rounding)."""
        return self.deepspeed - total_bytes(deepspeed_terms(self.stage), self.model, self.world_size)


def comparisons(estimates: dict[str, Any], lab_result: dict[str, Any]) -> list[Comparison]:
    """Every saved estimate beside the lesson's formula and, for the lab's model, the lab's measurement."""
    measured = {(row.world_size, row.formula.key): row for row in stage_rows(lab_result)}
    rows = []
    for entry in estimates["estimates"]:
        model, n = Model(entry["model"], entry["params"], entry["largest_layer"]), entry["world_size"]
        lab_model = model.params == lab_result["config"]["params"]
        for stage in COMPARED_STAGES:
            rows.append(Comparison(
                model, n, stage, total_bytes(lesson_terms(stage), model, n), entry["gpu_bytes"][stage],
                measured.get((n, stage)) if lab_model else None,
                difference(deepspeed_terms(stage), lesson_terms(stage)),
            ))
    return rows


def _size(num_bytes: float) -> str:
    """'26.25 GB' or '16.81 MB', in powers of ten as the lesson counts."""
    return f"{num_bytes / 1e9:.4g} GB" if num_bytes >= 1e9 else f"{num_bytes / 1e6:.4g} MB"


def _symbol(term: Term, size: float, language: str, signed: bool = False) -> str:
    """Bytes per covered parameter as the tables write them: '+4Ψ/N_d' in text, '$+4\\Psi/N_d$' on the site."""
    symbol = (f"{size:+g}" if signed else f"{size:g}") + COVERS[language][term.per]
    return f"${symbol}$" if language == "zh" else symbol


def _stage_label(stage: str) -> str:
    """ZeRO-2 or ZeRO-3, as DeepSpeed names its estimators."""
    return memory_terms()["deepspeed"]["stages"][stage]["label"]


def comparison_cells(row: Comparison, language: str) -> list[str]:
    """One row's cells, in HEADERS order."""
    psi = row.model.params
    lab = f"{_size(row.measured.measured_total * psi)} / {_size(row.measured.peak * psi)}" if row.measured else "—"
    sum_line = deepspeed_sum(row.stage).cited
    extra = [f"{_symbol(term, delta, language, signed=True)} {term.name(language)} "
             f"[{term.counted.cited if term.counted else ABSENT[language].format(line=sum_line)}]"
             for term, delta in row.extra]
    return [row.model.name, str(row.world_size), _stage_label(row.stage), _size(row.lesson), _size(row.deepspeed),
            lab, SEPARATOR[language].join(extra)]


def term_cells(lab_result: dict[str, Any], language: str) -> list[list[str]]:
    """Per term: its bytes per covered parameter in each accounting, then where DeepSpeed counts and keeps it."""
    lesson = {stage: {t.key: t for t in lesson_terms(stage)} for stage in COMPARED_STAGES}
    deepspeed = {stage: {t.key: t for t in deepspeed_terms(stage)} for stage in COMPARED_STAGES}
    columns = [lesson["zero2"], deepspeed["zero2"], lesson["zero3"], deepspeed["zero3"], _lab_terms(lab_result)]
    rows = []
    for key, names in memory_terms()["terms"].items():
        cells = [_symbol(terms[key], terms[key].bytes, language) if key in terms else "—" for terms in columns]
        cited = [deepspeed[stage][key] for stage in COMPARED_STAGES if key in deepspeed[stage]]
        lines = [[t.counted.cited for t in cited if t.counted], [t.kept.cited for t in cited if t.kept]]
        sources = [label + ", ".join(dict.fromkeys(found))
                   for label, found in zip(SOURCE_LABELS[language], lines) if found]
        rows.append([names[language], *cells, LINE_BREAK[language].join(sources) or "—"])
    return rows


def _lab_terms(lab_result: dict[str, Any]) -> dict[str, Term]:
    """What the lab measured at rest under FSDP2 (ZeRO-3 rows), as terms: bytes per parameter of each shard."""
    runs = [row for row in stage_rows(lab_result) if row.formula.key == "zero3"]
    states = memory_terms()["lab_states"]
    return {states[s]: Term(states[s], round(max(row.measured_bytes[s] * row.world_size for row in runs), 2), "shard")
            for s in STATES}


def not_counted_lines(language: str) -> list[str]:
    """What ZeRO-3 keeps that its estimator leaves out, one line each with its source line."""
    return [f"{words[language]} [{line.cited}]" for line, words in not_counted()]


def not_counted_markdown() -> str:
    """The same, as a Markdown list for the lesson."""
    return "".join(f"- {line}\n" for line in not_counted_lines("zh"))


def _markdown_table(headers: tuple[str, ...], rows: list[list[str]]) -> str:
    """A Markdown pipe table, left-aligned but for N_d."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" if "N_d" in h else ":---" for h in headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in rows]) + "\n"


def comparison_markdown(estimates: dict[str, Any], lab_result: dict[str, Any]) -> str:
    """The three-way table for the lesson."""
    return _markdown_table(HEADERS["zh"], [comparison_cells(row, "zh") for row in comparisons(estimates, lab_result)])


def terms_markdown(lab_result: dict[str, Any]) -> str:
    """The term table for the lesson."""
    return _markdown_table(TERM_HEADERS["zh"], term_cells(lab_result, "zh"))


def rich_tables(estimates: dict[str, Any], lab_result: dict[str, Any]) -> list[Table]:
    """The comparison and the term tables for the terminal."""
    config = lab_result["config"]
    made = estimates["created_with"]
    comparison = Table(
        title=f"Per-GPU model state, nothing offloaded: the lesson's formula, DeepSpeed {made['deepspeed']}'s "
        f"estimator, the lab's FSDP2 measurement ({config['backend']}/{config['device']}, ZeRO-2 row: ZeRO-2-like)",
        caption="GB = 10^9 B, MB = 10^6 B; Ψ: parameters, N_d: GPUs, L: parameters of the largest module",
        caption_justify="left",
    )
    for header in HEADERS["en"]:
        comparison.add_column(header, justify="right" if header == "N_d" else "left")
    for row in comparisons(estimates, lab_result):
        comparison.add_row(*map(escape, comparison_cells(row, "en")), end_section=row.stage == COMPARED_STAGES[-1])
    terms = Table(title="Each term in bytes per parameter it covers (Z2/Z3: ZeRO-2/3, DS: DeepSpeed, lab held: FSDP2 "
                  "at rest), and the lines of deepspeed/runtime/zero/ that count and keep it",
                  caption=escape("Kept by ZeRO-3, not counted by its estimator: " + "; ".join(not_counted_lines("en"))),
                  caption_justify="left")
    for header in TERM_HEADERS["en"]:
        terms.add_column(header, no_wrap=header == "DeepSpeed source")  # a source line split in two reads wrong
    for cells in term_cells(lab_result, "en"):
        terms.add_row(*map(escape, cells))
    return [comparison, terms]
