"""Rewrite a sentence into the canonical form the veto patterns match: one spelling per symbol and number."""
from __future__ import annotations

import re
import unicodedata

_HYPHENS = re.compile("[\u2010-\u2015\u2043\u2212\ufe58\ufe63\uff0d]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f\u00ab\u00bb\u300c\u300d\u300e\u300f]")
_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")

# Number words before Ψ or a Chinese counter ("two Ψ", "三倍", "两个"): digit → (English, Chinese pattern).
_NUMBER_WORDS = {"1": ("one", "一"), "2": ("two", "[二两]"), "3": ("three", "三"), "4": ("four", "四"), "6": ("six", "六")}
_COUNTERS = "(?:倍|个|份|次|段|阶段|档|级|部分|件|张)"

# (pattern, replacement) in order; later rules see the output of earlier ones.
_REWRITES: tuple[tuple[str, str], ...] = (
    # LaTeX commands to plain symbols.
    (r"\\(?:text|mathrm|mathbf|mathit|textbf|operatorname|mathsf)\s*\{([^{}]*)\}", r"\1"),
    (r"\\(?:var)?[Pp]si\b", "Ψ"),
    (r"\\(?:to|rightarrow|longrightarrow|Rightarrow|mapsto)\b", "→"),
    (r"\\infty\b", "∞"),
    (r"\\(?:times|cdot)\b", "×"),
    (r"\\approx\b", "≈"),
    (r"\\(?:geq|ge)\b", "≥"),
    (r"\\(?:leq|le)\b", "≤"),
    (r"\\(?:left|right|displaystyle|quad|qquad)\b|\\[,;:! ]", " "),
    (r"_\{([^{}]*)\}", r"_\1"),
    (r"\^\{([^{}]*)\}", r"^\1"),
    (r"[${}]", " "),
    # Ψ spelled as a word, a Greek letter or the parameter count P / num_params.
    (r"ψ|\b(?:psi|Psi|PSI)\b", "Ψ"),
    (r"\b(?:num_params|n_params|N_params)\b", "Ψ"),
    (r"(?<![\w'])P(?![\w'])", "Ψ"),
    (r"(?<=\d)\s*P\b", "Ψ"),
    # Arrows and infinity.
    (r"->|⟶|⇒|=>", "→"),
    (r"无穷大?|无限大|\binfinity\b", "∞"),
    # N_d spelled one way; the (N_d-1)/N_d ring factor is ≈ 1.
    (r"\bN\s*_?\s*d\b|\bN_D\b", "N_d"),
    (r"\b1\s*/\s*(?:N|dp|DP|n)\b", "1/N_d"),
    (r"\bN\s*(?=→\s*∞)", "N_d "),
    (r"\(*\s*N_d\s*-\s*1\s*\)*\s*/\s*\(*\s*N_d\s*\)*\s*×?\s*(?=Ψ)", ""),
    # Ratios: number words and Chinese multiples to "2x".
    (r"\b(?:one and a half|1\.5) times\b", "1.5x"),
    (r"多一半|多\s*50\s*%|增加了?\s*50\s*%|50\s*%\s*more\b|\+\s*50\s*%", "1.5x"),
    (r"一倍半", "1.5x"),
    (r"多一倍|翻了?一倍|翻倍|翻一番|加倍|增加了?一倍", "2x"),
    (r"\btwice\b|\bdoubl(?:e|es|ed|ing)\b", "2x"),
    (r"\btripl(?:e|es|ed|ing)\b", "3x"),
    (r"\bhalv(?:e|es|ed|ing)\b|减半|一半", "0.5x"),
    (r"\btwo times\b", "2x"),
    (r"\bthree times\b", "3x"),
    (r"\bfour times\b", "4x"),
    *((rf"\b{english}\s*(?=Ψ)", digit) for digit, (english, _) in _NUMBER_WORDS.items()),
    *((rf"{chinese}(?=\s*{_COUNTERS}|\s*Ψ)", digit) for digit, (_, chinese) in _NUMBER_WORDS.items()),
    # Ψ arithmetic: "3 × Ψ", "3 个 Ψ", "Ψ × 3", "(16Ψ)" to "3Ψ" / "16Ψ".
    (r"(?<![第\d.])(\d+(?:\.\d+)?)\s*(?:[×*·xX]|倍\s*(?:的)?)?\s*(?:个|份)?\s*Ψ", r"\1Ψ"),
    (r"Ψ\s*[×*·]\s*(\d+(?:\.\d+)?)", r"\1Ψ"),
    (r"\(\s*(\d*(?:\.\d+)?Ψ)\s*\)", r"\1"),
    (r"(\d+(?:\.\d+)?)\s*(?:倍|times\b|×(?!\s*[\d(]))", r"\1x"),
    (r"\s+", " "),
)
_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement in _REWRITES)


def normalize(text: str) -> str:
    """Return `text` in canonical form (case kept): NFKC, ASCII hyphens and quotes, LaTeX and number words rewritten."""
    text = unicodedata.normalize("NFKC", text)
    text = _HYPHENS.sub("-", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _SINGLE_QUOTES.sub("'", text)
    for _ in range(3):  # nested \frac
        text = _FRAC.sub(r"(\1)/(\2)", text)
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return text.strip()
