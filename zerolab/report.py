"""Turn the lab's JSON result into the measured-vs-formula table (rich, text, markdown) and the chart, without torch."""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from zerolab.config import SCHEMA_VERSION
from zerolab.errors import LabError
from zerolab.formulas import STAGES, STATES, StageFormula, lesson_unit_traffic

if TYPE_CHECKING:
    from matplotlib.figure import Figure

ABBREVIATIONS: dict[str, str] = {"all_reduce": "AR", "all_gather": "AG", "reduce_scatter": "RS", "broadcast": "BC"}
"""Short names for collectives in table cells."""

HEADERS: tuple[str, ...] = (
    "N", "阶段", "显存公式 (B/参数)", "显存实测 (B/参数)", "峰值实测 (B/参数)",
    "通信公式 (Ψ)", "通信实测 (元素/Ψ)", "实测按课上口径 (Ψ)",
)
"""Table columns, in order."""

UNIT_NOTE = "\n".join((
    "显存：该 rank 持有的字节数 ÷ 全模型参数量 Ψ，按 参数+梯度+优化器状态 拆分（取持有最多的 rank）。",
    "峰值：一个稳定步内的最高值，另含激活、临时缓冲与通信缓冲。",
    "通信实测：每步每种集合通信的完整张量元素数 ÷ Ψ（AR=all-reduce，AG=all-gather，RS=reduce-scatter，BC=broadcast）。",
    "课上口径：ring all-reduce 记 2Ψ（= RS + AG），其余按元素数记。",
))
"""What the numbers mean; printed under the terminal table (the lesson says it in its own prose)."""


@dataclass(frozen=True)
class StageRow:
    """One stage at one world size: the lesson's formula beside what the lab measured."""

    world_size: int
    """N, the number of ranks."""
    formula: StageFormula
    """The stage as the lesson defines it."""
    measured_bytes: dict[str, float]
    """Bytes per parameter held by the rank that holds most, split over formulas.STATES."""
    peak: float
    """Highest peak over ranks, bytes per parameter."""
    traffic: dict[str, float]
    """Elements moved per step per collective, in Ψ."""
    peak_breakdown: dict[str, float]
    """At the peak rank's peak: torch tracker category → bytes per parameter (empty on CUDA)."""

    @property
    def formula_bytes(self) -> dict[str, float]:
        """The lesson's bytes per parameter per state at this N."""
        return self.formula.bytes_per_param(self.world_size)

    @property
    def measured_total(self) -> float:
        """Measured model-state bytes per parameter."""
        return sum(self.measured_bytes.values())

    @property
    def lesson_unit_traffic(self) -> float:
        """Measured traffic converted to the lesson's unit (all-reduce counts 2Ψ)."""
        return lesson_unit_traffic(self.traffic)


def load_saved(path: str | Path, command: str) -> dict[str, Any]:
    """Read a result written by `python -m zerolab COMMAND`, refusing files of another layout."""
    path = Path(path)
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LabError(f"{path}: no such result; run: python -m zerolab {command} --out {path.parent}") from None
    except json.JSONDecodeError as exc:
        raise LabError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno}); rerun python -m zerolab {command}") \
            from None
    if result.get("schema") != SCHEMA_VERSION:
        raise LabError(
            f"{path}: result layout {result.get('schema')!r}, this zerolab reads {SCHEMA_VERSION}; "
            f"rerun python -m zerolab {command}"
        )
    return result


def load_result(path: str | Path) -> dict[str, Any]:
    """Read a result written by `python -m zerolab run`."""
    return load_saved(path, "run")


def stage_rows(result: dict[str, Any]) -> list[StageRow]:
    """Rows in run order (each N), stages in the lesson's order."""
    psi = result["config"]["params"]
    rows = []
    for run in result["runs"]:
        for key, measured in run["stages"].items():
            busiest = max(measured["held_bytes"], key=lambda held: sum(held.values()))
            rows.append(StageRow(
                world_size=run["world_size"],
                formula=STAGES[key],
                measured_bytes={s: busiest[s] / psi for s in STATES},
                peak=max(measured["peak_bytes"]) / psi,
                traffic={name: t["elements"] / psi for name, t in measured["traffic"].items()},
                peak_breakdown={k: v / psi for k, v in measured["peak_breakdown"].items()},
            ))
    return rows


def _sum_cell(parts: list[str], total: str) -> str:
    """'a+b+c = total'."""
    return f"{'+'.join(parts)} = {total}"


def _traffic_cell(traffic: dict[str, float], fmt: str) -> str:
    """'AG 2 + RS 1' in the given number format."""
    return " + ".join(f"{ABBREVIATIONS.get(name, name)} {psi:{fmt}}" for name, psi in traffic.items()) or "0"


def row_cells(row: StageRow) -> list[str]:
    """The table cells of one row, in HEADERS order."""
    formula = row.formula_bytes
    return [
        str(row.world_size),
        row.formula.label,
        _sum_cell([f"{formula[s]:.3g}" for s in STATES], f"{row.formula.total_bytes_per_param(row.world_size):.3g}"),
        _sum_cell([f"{row.measured_bytes[s]:.2f}" for s in STATES], f"{row.measured_total:.2f}"),
        f"{row.peak:.2f}",
        _traffic_cell(row.formula.traffic, "g"),
        _traffic_cell(row.traffic, ".2f"),
        f"{row.lesson_unit_traffic:.2f}",
    ]


def rich_table(result: dict[str, Any]) -> Table:
    """The measured-vs-formula table for the terminal."""
    config = result["config"]
    table = Table(
        title=f"ZeRO 实测 vs 公式 — {config['layers']}×Linear({config['hidden']}), Ψ = {config['params']:,}, "
        f"{config['backend']}/{config['device']}",
        caption=UNIT_NOTE, caption_justify="left",
    )
    for header in HEADERS:
        table.add_column(header, justify="right" if header == "N" else "left")
    rows = stage_rows(result)
    for i, row in enumerate(rows):
        last_of_run = i + 1 == len(rows) or rows[i + 1].world_size != row.world_size
        table.add_row(*row_cells(row), end_section=last_of_run)
    return table


def to_text(result: dict[str, Any], width: int = 160) -> str:
    """The table as plain text."""
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(rich_table(result))
    return console.export_text()


def to_markdown(result: dict[str, Any]) -> str:
    """The table as a Markdown pipe table (for Quarto), without title or note."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "|".join("---:" if h == "N" else "---" for h in HEADERS) + "|"]
    lines += ["| " + " | ".join(row_cells(row)) + " |" for row in stage_rows(result)]
    return "\n".join(lines) + "\n"


def peak_markdown(result: dict[str, Any]) -> str:
    """A Markdown table of what the peak is made of, per stage: tracker categories, largest first."""
    lines = ["| N | 阶段 | 峰值 (B/参数) | 峰值时刻的构成 (B/参数，torch 内存追踪器的分类) |", "|---:|---|---|---|"]
    for row in stage_rows(result):
        parts = sorted(row.peak_breakdown.items(), key=lambda kv: -kv[1])
        shown = ", ".join(f"{name} {value:.2f}" for name, value in parts if value >= 0.005) or "—"
        lines.append(f"| {row.world_size} | {row.formula.label} | {row.peak:.2f} | {shown} |")
    return "\n".join(lines) + "\n"


def chart_figure(result: dict[str, Any]) -> Figure:
    """The chart, left open for a notebook to show: per N, measured memory and traffic per stage beside the formula."""
    import matplotlib.pyplot as plt

    rows = stage_rows(result)
    world_sizes = list(dict.fromkeys(row.world_size for row in rows))
    fig, axes = plt.subplots(2, len(world_sizes), figsize=(3.9 * len(world_sizes), 7.0), squeeze=False, sharey="row")
    # fixed margins, not tight_layout: the layout must not depend on the build machine's font metrics
    fig.subplots_adjust(left=0.7 / fig.get_figwidth(), right=0.99, bottom=0.05, top=0.9, hspace=0.3, wspace=0.06)
    colors = {"param": "#4C72B0", "grad": "#DD8452", "optimizer": "#55A868",
              "all_reduce": "#8172B3", "all_gather": "#4C72B0", "reduce_scatter": "#DD8452", "broadcast": "#937860"}
    for col, n in enumerate(world_sizes):
        run_rows = [row for row in rows if row.world_size == n]
        x = range(len(run_rows))
        memory, traffic = axes[0][col], axes[1][col]
        bottom = [0.0] * len(run_rows)
        for state in STATES:
            heights = [row.measured_bytes[state] for row in run_rows]
            memory.bar(x, heights, bottom=bottom, color=colors[state], label=f"measured {state}")
            bottom = [b + h for b, h in zip(bottom, heights)]
        memory.scatter(x, [row.formula.total_bytes_per_param(n) for row in run_rows], marker="_", s=900,
                       color="black", linewidths=2.5, label="formula (lesson)", zorder=3)
        memory.scatter(x, [row.peak for row in run_rows], marker="o", color="crimson", label="measured peak", zorder=3)
        memory.set_title(f"N = {n}: model state per rank")
        bottom = [0.0] * len(run_rows)
        for name in ABBREVIATIONS:
            heights = [lesson_unit_traffic({name: row.traffic.get(name, 0.0)}) for row in run_rows]
            if any(heights):
                traffic.bar(x, heights, bottom=bottom, color=colors[name], label=f"measured {name}")
                bottom = [b + h for b, h in zip(bottom, heights)]
        traffic.scatter(x, [row.formula.total_traffic() for row in run_rows], marker="_", s=900, color="black",
                        linewidths=2.5, label="formula (lesson)", zorder=3)
        traffic.set_title(f"N = {n}: communication per step")
        for ax in (memory, traffic):
            ax.set_xticks(list(x), [row.formula.label for row in run_rows])
            ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("bytes per parameter (of the full model)")
    axes[1][0].set_ylabel("Ψ per step (ring all-reduce = 2Ψ)")
    for ax in axes[:, -1]:
        ax.legend(fontsize=7.5, loc="upper right", ncol=2, markerscale=0.5, columnspacing=0.8, handlelength=1.2)
    for ax in axes[:, 0]:
        ax.set_ylim(0, ax.get_ylim()[1] * 1.35)  # rows share y; leave room for the legend
    config = result["config"]
    fig.suptitle(f"ZeRO measured vs formula: {config['layers']}×Linear({config['hidden']}), "
                 f"{config['backend']}/{config['device']}, torch {result['created_with']['torch']}")
    return fig


def plot_chart(result: dict[str, Any], path: str | Path) -> None:
    """Save the chart as a PNG without opening a window."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = chart_figure(result)
    fig.savefig(path, dpi=120)
    plt.close(fig)
