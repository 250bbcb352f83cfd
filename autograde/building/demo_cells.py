"""Run a lesson's demo cells at build time and keep what they show: markdown text and SVG figures."""
from __future__ import annotations

import contextlib
import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from autograde.building.figure_style import lesson_figure_style  # noqa: E402


@dataclass
class DemoOutput:
    """What one demo cell displayed."""

    text: str = ""
    """Everything printed (markdown when the cell has `output: asis`)."""
    figures: list[bytes] = field(default_factory=list)
    """Each matplotlib figure the cell drew, as SVG bytes."""


def _display_into(buffer: io.StringIO):
    """A stand-in for IPython's display(): markdown-like objects are written as their text."""

    def display(*objects: Any) -> None:
        for obj in objects:
            buffer.write(getattr(obj, "data", None) or str(obj))
            buffer.write("\n")

    return display


def run_demo_cell(source: str, namespace: dict[str, Any], workdir: Path, name: str) -> DemoOutput:
    """Execute one cell in `namespace` from `workdir`, capturing printed text and figures."""
    buffer = io.StringIO()
    namespace.setdefault("display", _display_into(buffer))
    output = DemoOutput()
    previous = Path.cwd()
    with lesson_figure_style(), contextlib.redirect_stdout(buffer), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.chdir(workdir)
        try:
            exec(compile(source, name, "exec"), namespace)
            for number in plt.get_fignums():
                svg = io.BytesIO()
                # no date in the metadata, so a rebuild of unchanged figures gives the same bytes
                plt.figure(number).savefig(svg, format="svg", metadata={"Date": None})
                output.figures.append(svg.getvalue())
        finally:
            plt.close("all")
            os.chdir(previous)
    output.text = buffer.getvalue()
    return output
