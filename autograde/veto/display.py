"""An answer as a reader sees it rendered: markup and invisible characters removed, with a map back to what was written.

Student answers are hostile input: a zero-width space, a soft hyphen or an empty `<b></b>` inside 激活 hides the word
from a matcher while the page shows it whole. The checker reads the displayed text; evidence is cut from the original.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

_BLOCK_TAGS = frozenset({"br", "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "blockquote", "pre"})
"""Tags a browser draws as a line break: the text on either side does not run together."""
_MARKUP = re.compile(
    r"<(?P<close>/?)(?P<tag>[a-zA-Z][a-zA-Z0-9]{0,15})\b[^<>]{0,400}>"  # an HTML tag, its attributes bounded
    r"|<!--.{0,2000}?-->"  # a comment
    r"|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});"  # a character reference
    r"|(?<=\w)(?:\*\*|__|~~)(?=\w)"  # markdown bold or strike-through inside a word ("激**活**")
    r"|(?<=[\u3400-\u9fff])[*_`](?=[\u3400-\u9fff])",  # emphasis or code marks between two CJK characters
    re.DOTALL,
)


@dataclass(frozen=True)
class Displayed:
    """The displayed text of an answer and, for each of its characters, where it was written."""

    text: str
    origin: tuple[int, ...]
    """origin[i] is the index in the written answer of text[i]; one extra entry holds the answer's length."""
    written: str
    cut: bool
    """Whether the written answer was longer than the limit and only its start was read."""

    def written_span(self, start: int, end: int) -> str:
        """The written characters behind text[start:end], markup and invisible characters included."""
        if start >= end:
            return ""
        return self.written[self.origin[start] : self.origin[end - 1] + 1]


def displayed(answer: str, limit: int) -> Displayed:
    """`answer` as rendered, reading at most its first `limit` characters (linear time)."""
    cut = len(answer) > limit
    written = answer[:limit] if cut else answer
    chars: list[str] = []
    origin: list[int] = []
    position = 0
    for markup in _MARKUP.finditer(written):
        _keep_visible(written, position, markup.start(), chars, origin)
        replacement = _render(markup)
        chars.extend(replacement)
        origin.extend([markup.start()] * len(replacement))
        position = markup.end()
    _keep_visible(written, position, len(written), chars, origin)
    origin.append(len(written))
    return Displayed("".join(chars), tuple(origin), written, cut)


def _render(markup: re.Match[str]) -> str:
    """What a browser shows for one piece of markup: a line break for a block tag, a referenced character, else nothing."""
    text = markup.group()
    if text.startswith("&"):
        character = html.unescape(text)
        return "" if len(character) != 1 or _invisible(character) else character
    tag = markup.group("tag")
    return "\n" if tag and tag.lower() in _BLOCK_TAGS else ""


def _keep_visible(written: str, start: int, end: int, chars: list[str], origin: list[int]) -> None:
    """Append the visible characters of written[start:end] with their positions."""
    for index in range(start, end):
        character = written[index]
        if not _invisible(character):
            chars.append(character)
            origin.append(index)


def _invisible(character: str) -> bool:
    """Whether a character draws nothing: format characters (zero-width spaces and joiners, U+2060, BOM, soft hyphen,
    bidi controls) other than line and tab breaks."""
    return unicodedata.category(character) == "Cf"
