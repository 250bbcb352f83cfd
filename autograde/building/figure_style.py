"""How the lesson's matplotlib figures are drawn, for the notebook build and the Quarto site alike.

Text stays text in the SVG, so the reader's browser draws the Chinese with its own fonts. Layout is measured
with the fonts bundled with matplotlib only, so the SVG's geometry is the same on every build machine.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import matplotlib
from matplotlib import font_manager

CJK_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei"]
"""Fonts the SVG asks the reader's browser for after DejaVu Sans, for the Chinese text."""

FIGURE_RC: dict[str, object] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "lesson-build",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", *CJK_FAMILIES],
}
"""rcParams for every lesson figure: text as text, stable clip-path ids, DejaVu for Latin then CJK families."""

BUNDLED_FONTS = Path(matplotlib.get_data_path()) / "fonts"


def _is_bundled(entry: font_manager.FontEntry) -> bool:
    """Whether a font manager entry is one of matplotlib's own font files."""
    return Path(entry.fname).is_relative_to(BUNDLED_FONTS)


def _use_fonts(entries: list[font_manager.FontEntry]) -> None:
    """Make `entries` the fonts matplotlib can find, dropping the font lookups cached from before."""
    font_manager.fontManager.ttflist = entries
    # a private cache, but a stale one would still hand out fonts from outside `entries`
    font_manager.fontManager._findfont_cached.cache_clear()


@contextmanager
def lesson_figure_style() -> Iterator[None]:
    """Draw figures inside this block in the lesson's style, then restore the caller's settings and fonts."""
    everything = list(font_manager.fontManager.ttflist)
    try:
        with matplotlib.rc_context(FIGURE_RC):
            _use_fonts([entry for entry in everything if _is_bundled(entry)])
            yield
    finally:
        _use_fonts(everything)


def apply_lesson_figure_style() -> None:
    """Use the lesson's style for the rest of this process (the site's Jupyter kernel)."""
    matplotlib.rcParams.update(FIGURE_RC)
    _use_fonts([entry for entry in font_manager.fontManager.ttflist if _is_bundled(entry)])
