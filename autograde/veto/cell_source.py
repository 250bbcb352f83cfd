"""A submitted code cell as Python reads it: IPython's magics and shell escapes turned into calls first, within a size limit."""
from __future__ import annotations

import ast

MAX_SOURCE_CHARS = 200_000
"""Longest cell read for its structure; the lesson's cell is about 3 000 characters."""


def parse_cell(source: str) -> ast.Module | None:
    """The cell's syntax tree as IPython would run it (`%time f()` → a run_line_magic call); None if it is not Python.

    Call this only under autograde.untrusted.bounded_call: parsing hostile text can take a lot of memory.
    """
    if len(source) > MAX_SOURCE_CHARS:
        return None
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
