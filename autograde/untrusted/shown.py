"""Student text shown where control characters or leading signs act: a terminal (and logs), a spreadsheet cell."""
from __future__ import annotations

import logging
import unicodedata

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
"""First characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list)."""
_LINE_BREAKS = {"\u2028", "\u2029", "\x85"}


def _escaped(character: str) -> str:
    """A character as a visible escape (\\x1b, \\u202e)."""
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: object, keep: str = "") -> str:
    """`text` with every control, format (bidi) and line-separator character shown as an escape, except those in `keep`."""
    return "".join(
        character if character in keep or (unicodedata.category(character)[0] != "C" and character not in _LINE_BREAKS)
        else _escaped(character)
        for character in str(text)
    )


def for_console(text: object) -> str:
    """Student text for a rich console: control characters escaped, and no rich markup either."""
    from rich.markup import escape

    return escape(for_terminal(text))


def for_spreadsheet(cell: object) -> str:
    """A CSV cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe."""
    text = str(cell)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class EscapeControlCharacters(logging.Filter):
    """A log filter: the values in a record are shown escaped, so student ids and reasons cannot forge lines or
    drive the terminal; the message's own line breaks stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Replace the record's message by its escaped form."""
        message = record.getMessage()
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            shown = tuple(for_terminal(arg) if isinstance(arg, str) else arg for arg in args)
            try:
                message = str(record.msg) % shown
            except (TypeError, ValueError):
                pass
        record.msg, record.args = for_terminal(message, keep="\n\t"), None
        return True
