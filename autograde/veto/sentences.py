"""Split an answer into sentences (kept verbatim as evidence) and a normalised sentence into clauses."""
from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence ends at Chinese or full-width stops, ! ? ; (either width), an English period followed by space, or a dash
# after a Chinese question particle ("ZeRO 能 shard activation 吗——").
_STOP = re.compile(r"[。！？!?；;．]+[\"'”’」』)）\]]*|\.(?=[\"'”’)）\]]*(?:\s|$))[\"'”’)）\]]*|\n+|(?<=[吗呢])\s*(?:——|—|--)")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|vs|etc|fig|eq|approx|cf|al|no|incl|esp|resp)\.$", re.IGNORECASE)
_NUMBER_DOT = re.compile(r"\d\.$")
"""A number's dot ("step 1. then", "v2. x") ends no sentence unless a capital letter or a Chinese character follows ("ZeRO-1. Prefetch…")."""
_SENTENCE_OPENING = re.compile(r"\s+[\"'“‘(（]?[A-Z\u3400-\u9fff]")
_BULLET = re.compile(r"\s*(?:[-*•·]|\d{1,2}[.)、]|[(（][a-z\d][)）])\s+", re.IGNORECASE)
_QUESTION_END = re.compile(r"(?:[?？][\"'”’」』)）\s]*|[吗呢]\s*(?:——|—|--)\s*)$")
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z0-9_⟨⟩']+")
_HAS_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer, verbatim."""

    text: str
    """The original text, stripped of surrounding space and a leading bullet marker."""
    start: int = 0
    """Where `text` starts in the answer."""
    written_end: int | None = None
    """Where the words it stands for end in the answer, when `text` is a reading of them (a table row) rather than them."""

    @property
    def end(self) -> int:
        """Where the sentence as written ends in the answer."""
        return self.written_end if self.written_end is not None else self.start + len(self.text)

    @property
    def is_question(self) -> bool:
        """Whether the sentence asks rather than asserts."""
        return bool(_QUESTION_END.search(self.text))


def split_sentences(answer: str, max_chars: int | None = None) -> list[Sentence]:
    """The non-empty sentences of `answer`, in order; one longer than `max_chars` is read as pieces of that length,
    each cut after its last clause break (a comma or 、) where it has one."""
    sentences: list[Sentence] = []
    start = 0
    for stop in _STOP.finditer(answer):
        if stop.group().startswith(".") and _ABBREVIATION.search(answer, max(0, stop.start() - 6), stop.start() + 1):
            continue
        if stop.group().startswith(".") and _NUMBER_DOT.search(answer, max(0, stop.start() - 1), stop.start() + 1) and not _SENTENCE_OPENING.match(answer, stop.end()):
            continue
        _append(sentences, answer, start, stop.end(), max_chars)
        start = stop.end()
    _append(sentences, answer, start, len(answer), max_chars)
    return sentences


def _append(sentences: list[Sentence], answer: str, start: int, end: int, max_chars: int | None) -> None:
    """Add answer[start:end] as a sentence (or pieces of at most `max_chars`) unless it holds no words."""
    while max_chars is not None and end - start > max_chars:
        cut = max(answer.rfind(",", start, start + max_chars), answer.rfind("，", start, start + max_chars), answer.rfind("、", start, start + max_chars))
        cut = cut + 1 if cut > start + max_chars // 2 else start + max_chars
        _append(sentences, answer, start, cut, None)
        start = cut
    piece = answer[start:end]
    lead = len(piece) - len(piece.lstrip())
    bullet = _BULLET.match(piece, lead)
    text = piece[bullet.end() if bullet else lead :].strip()
    if _HAS_WORD.search(text):
        sentences.append(Sentence(text, start + piece.index(text, lead) if text else start))


def split_clauses(
    sentence: str,
    breaks: re.Pattern[str],
    joiners: re.Pattern[str],
    closing: tuple[re.Pattern[str], re.Pattern[str]],
    own_predicate: re.Pattern[str],
    max_list_words: int = 4,
) -> list[tuple[int, int]]:
    """Clause spans of a normalised sentence.

    A piece after a comma, colon or dash that continues a list (`a, b and c`, "…，以及激活，都分片") stays with
    the clause before it: it starts with a joiner, or it is a short English piece after a comma; but not after a clause
    that `closing` (closed, extended) says closed its list ("once X and Y are sharded, activations dominate"), nor when
    `own_predicate` says the piece's noun has an aside or a reason and then a predicate of its own ("…，activations（以及中间量）
    还全在每张卡上").
    """
    cuts = sorted({0, len(sentence), *(m.start() for m in breaks.finditer(sentence))})
    spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if sentence[a:b].strip(" ,:;-()")]
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        piece = sentence[a:b]
        opener = piece.lstrip()[:1]
        short_english = opener == "," and not _CJK.search(piece) and len(_WORD.findall(piece)) <= max_list_words
        resumed = _resumed_clause(sentence, merged) if opener == ")" else None
        if resumed is not None:  # the clause goes on after a parenthetical aside ("不能把显存（包括激活）降到…")
            merged[resumed:] = [(merged[resumed][0], b)]
        elif merged and opener in ",:()-" and (short_english or joiners.match(piece.lstrip(" ,:;-()"))) \
                and not _closed_list(sentence, merged[-1][0], a, piece, closing) \
                and not own_predicate.match(sentence, b):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged or [(0, len(sentence))]


def _closed_list(sentence: str, start: int, end: int, piece: str, closing: tuple[re.Pattern[str], re.Pattern[str]]) -> bool:
    """Whether the clause at start:end closed its list before `piece`, which does not say it extends it."""
    closed, extended = closing
    return bool(closed.search(sentence, start, end)) and not extended.search(piece.strip(" ,.;"))


ASIDE_REACH = 8
"""Clauses back from a closing parenthesis within which its aside must have opened to resume the clause it interrupted."""


def _resumed_clause(sentence: str, merged: list[tuple[int, int]]) -> int | None:
    """The index of the clause that an aside closing here interrupted, if the aside opened within the sentence."""
    for index in range(len(merged) - 1, max(-1, len(merged) - 1 - ASIDE_REACH), -1):
        a, b = merged[index]
        if sentence.count("(", a, b) > sentence.count(")", a, b):
            return index - 1 if sentence[a] == "(" and index > 0 else index
    return None


_SINGLE_QUOTED = re.compile(r"(?<![\w'])'([^'\n]+?)'(?![\w'])")


def quoted_spans(sentence: str, open_at_start: bool = False, min_words: int = 3, min_cjk: int = 5) -> tuple[list[tuple[int, int]], bool]:
    """The spans of a normalised sentence that quote a whole claim, and whether a double quote is still open at its end.

    A quote opened in an earlier sentence runs on from the start (`open_at_start`). Short quotes are terms, not
    claims ("“全分片”", "'fully sharded'"): a span counts with at least `min_words` words or `min_cjk` CJK characters.
    """
    marks = [i for i, char in enumerate(sentence) if char == '"']
    if open_at_start:
        marks.insert(0, -1)
    spans = [(a + 1, b) for a, b in zip(marks[::2], [*marks[1::2], len(sentence)])]
    spans += [m.span(1) for m in _SINGLE_QUOTED.finditer(sentence)]
    claims = [(a, b) for a, b in spans if _is_claim(sentence[a:b], min_words, min_cjk)]
    return sorted(claims), len(marks) % 2 == 1


def _is_claim(quoted: str, min_words: int, min_cjk: int) -> bool:
    """Whether quoted text is long enough to be a claim rather than a term."""
    return len(quoted.split()) >= min_words or len(_CJK.findall(quoted)) >= min_cjk
