"""Command line: `run` measures the stages, `report` renders a saved result, `deepspeed` sets DeepSpeed beside them."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from rich.console import Console

from zerolab.config import CHART_NAME, DEEPSPEED_NAME, DEFAULT_OUT, RESULT_NAME, LabConfig
from zerolab.errors import LabError
from zerolab.report import load_result, plot_chart, rich_table, to_markdown


class _OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line (exit 2), like the lab's own errors."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _world_sizes(values: list[str]) -> tuple[int, ...]:
    """`--world-size 2 --world-size 4`, `--world-size 2 4` and `--world-size 2,4` all mean (2, 4)."""
    sizes = []
    for item in (part for value in values for part in value.split(",") if part.strip()):
        try:
            sizes.append(int(item))
        except ValueError:
            raise LabError(f"--world-size takes whole numbers like 2 or 2,4 (got {item!r})") from None
    return tuple(sizes)


def _console(stderr: bool = False) -> Console:
    """A rich console; wide enough for the table when output is not a terminal."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 140)


def _run(args: argparse.Namespace) -> int:
    """Validate, run every world size, write JSON + PNG, print the table."""
    config = LabConfig(
        world_sizes=_world_sizes(args.world_size) if args.world_size else LabConfig.world_sizes,
        backend=args.backend, device=args.device, layers=args.layers, hidden=args.hidden, out=args.out,
        deadline_s=args.timeout,
    )
    config.validate()
    from zerolab.lab import run_lab  # imports torch, which validate() has just found

    console, status = _console(), _console(stderr=True)
    result = run_lab(config, progress=status.print)
    config.out.mkdir(parents=True, exist_ok=True)
    (config.out / RESULT_NAME).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    plot_chart(result, config.out / CHART_NAME)
    console.print(rich_table(result))
    status.print(f"wrote {config.out / RESULT_NAME} and {config.out / CHART_NAME}")
    return 0


def _report(args: argparse.Namespace) -> int:
    """Print the table of a saved result (as rich or Markdown), optionally redrawing its chart."""
    result = load_result(args.result)
    if args.markdown:
        sys.stdout.write(to_markdown(result))
    else:
        _console().print(rich_table(result))
    if args.chart:
        plot_chart(result, args.chart)
    return 0


def _deepspeed(args: argparse.Namespace) -> int:
    """Ask DeepSpeed for its estimates of the lesson's and the lab's cases, print them beside both, save them."""
    lab_result = load_result(args.result)
    from zerolab.deepspeed_estimate import compared_models, estimate  # imports deepspeed and torch
    from zerolab.deepspeed_report import comparisons, rich_tables

    estimates = estimate(compared_models(lab_result))
    console = _console()
    for table in rich_tables(estimates, lab_result):
        console.print(table)
    for row in comparisons(estimates, lab_result):
        if abs(row.unexplained) >= 1:
            console.print(f"{row.model.name} N_d={row.world_size} {row.stage}: {row.unexplained:+,.0f} B not in "
                          "zerolab/memory_terms.yaml; DeepSpeed's estimator changed, update its terms")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / DEEPSPEED_NAME).write_text(json.dumps(estimates, indent=1) + "\n", encoding="utf-8")
    _console(stderr=True).print(f"wrote {args.out / DEEPSPEED_NAME}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: `run`, `report` and `deepspeed`."""
    parser = _OneLineParser(prog="python -m zerolab", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)

    run = commands.add_parser("run", help="spawn N ranks and measure DDP, ZeRO-1, ZeRO-2-like and ZeRO-3")
    run.add_argument("--world-size", action="extend", nargs="+", metavar="N",
                     help="ranks per run; repeat or list (2,4); default: 2 and 4")
    run.add_argument("--backend", default="gloo", help="torch.distributed backend: gloo (default) or nccl")
    run.add_argument("--device", default="cpu", help="cpu (default) or cuda, one GPU per rank")
    run.add_argument("--layers", type=int, default=LabConfig.layers, help="Linear layers in the model (default 8)")
    run.add_argument("--hidden", type=int, default=LabConfig.hidden, help="width of each layer (default 512)")
    run.add_argument("--out", type=Path, default=DEFAULT_OUT,
                     help=f"folder for {RESULT_NAME} and {CHART_NAME} (default {DEFAULT_OUT})")
    run.add_argument("--timeout", type=float, default=LabConfig.deadline_s,
                     help="seconds one world size may take before its ranks are stopped (default 600)")
    run.set_defaults(handler=_run)

    report = commands.add_parser("report", help="print the table of a saved result; needs no torch")
    report.add_argument("result", nargs="?", type=Path, default=DEFAULT_OUT / RESULT_NAME,
                        help=f"result JSON (default {DEFAULT_OUT / RESULT_NAME})")
    report.add_argument("--markdown", action="store_true", help="print a Markdown table instead")
    report.add_argument("--chart", type=Path, help="also draw the chart to this PNG")
    report.set_defaults(handler=_report)

    deepspeed = commands.add_parser(
        "deepspeed", help="DeepSpeed's ZeRO-2/3 memory estimates beside the lesson's formulas and the lab's bytes")
    deepspeed.add_argument("--result", type=Path, default=DEFAULT_OUT / RESULT_NAME,
                           help=f"the lab's result JSON (default {DEFAULT_OUT / RESULT_NAME})")
    deepspeed.add_argument("--out", type=Path, default=DEFAULT_OUT,
                           help=f"folder for {DEEPSPEED_NAME} (default {DEFAULT_OUT})")
    deepspeed.set_defaults(handler=_deepspeed)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments and run the command; lab errors print one line and return 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except LabError as error:
        print(f"python -m zerolab {args.command}: error: {error}", file=sys.stderr)
        return 2
