"""Rewrite a sentence into the canonical form the claim readers match: one spelling per symbol and number."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

_HYPHENS = re.compile("[\u2010-\u2015\u2043\u2212\ufe58\ufe63\uff0d]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f\u00ab\u00bb\u300c\u300d\u300e\u300f]")
_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_CIRCLED = re.compile("[\u2460-\u2473]")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")

# Number words before Ψ or a Chinese counter ("two Ψ", "三倍", "两个"): digit → (English, Chinese pattern).
_NUMBER_WORDS = {"1": ("one", "一"), "2": ("two", "[二两]"), "3": ("three", "三"), "4": ("four", "四"), "6": ("six", "六")}
_COUNTERS = "(?:倍|个|份|次|段|阶段|档|级|部分|件|张)"

# Collectives: (canonical, first word, second word). Each word may be misspelt by one slip (a swapped, dropped or
# doubled letter: "all-gahter", "reduce-scater"), and the two words run together, or join with a space, "_" or "-".
_COLLECTIVES = (("all-gather", "all", "gather"), ("reduce-scatter", "reduce", "scatter"), ("all-reduce", "all", "reduce"))
_VERB_OBJECTS = "memory|the|their|its|this|that|these|those|them|it|everything|redundancy|usage|footprint|overhead|costs?"
"""Words after a spaced "all reduce" that make it the verb ("the stages all reduce memory"), not the collective."""


def _slips(word: str) -> list[str]:
    """`word` and its spellings one slip away (letters swapped, dropped or doubled; the first letter kept)."""
    swapped = [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, len(word) - 1)]
    dropped = [word[:i] + word[i + 1 :] for i in range(1, len(word))]
    doubled = [word[: i + 1] + word[i] + word[i + 1 :] for i in range(len(word))]
    return sorted({word, *swapped, *dropped, *doubled}, key=len, reverse=True)


def _collective_rewrite(canonical: str, first: str, second: str) -> tuple[str, Callable[[re.Match[str]], str]]:
    """The rewrite of one collective's spellings to its canonical name, keeping an inflection (all-gathers, all-gathered)."""
    first_forms = first if first == "all" else "|".join(_slips(first))
    second_forms = "|".join(_slips(second))
    verb = rf"(?!(?:{second_forms})\w*\s+(?:{_VERB_OBJECTS})\b)" if second == "reduce" else ""
    pattern = rf"(?i)\b(?:{first_forms})(?:[-_]|\s{verb})?(?:{second_forms})(s|d|ed|ing)?\b"
    return pattern, lambda m: _inflect(canonical, m.group(1) or "")


def _inflect(word: str, ending: str) -> str:
    """`word` with an English ending, a final e dropped before -ing/-ed (all-reducing)."""
    return word[:-1] + ending if word.endswith("e") and ending[:1] in ("i", "e") else word + ending


# (pattern, replacement) in order; later rules see the output of earlier ones.
_REWRITES: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    # Collectives to one spelling each, PyTorch's names (all_gather_into_tensor, reduce_scatter_tensor) included.
    (r"(?i)\b(all_gather|reduce_scatter)_(?:into_)?tensor\b", r"\1"),
    *(_collective_rewrite(*names) for names in _COLLECTIVES),
    # Two collectives' Chinese names (MPI's 全收集, 归约散射); "全归约" is left alone, often any global reduction, unless
    # it is run as a step ("做一次全归约") or its volume is named ("全归约的量").
    (r"全(?:收集|聚集)", "all-gather"),
    (r"(?<=[做次个用])\s*全归约|全归约(?=\s*的?\s*(?:量|通信量|数据量))", " all-reduce"),
    (r"(?:归约|规约)\s*(?:散射|散发|分散)", "reduce-scatter"),
    # Negations written informally: contractions without their apostrophe ("cant", "doesnt"), slang for 没有 (木有, 莫得).
    (r"(?i)\b(ca|wo)nt\b", r"\1n't"),
    (r"(?i)\b(do|does|did|is|are|was|were|would|should|could|has|have|had|must|need)nt\b", r"\1n't"),
    (r"木有|莫得", "没有"),
    # A second negation set off by dashes or commas ("does not - and cannot - shard") joins the first, unbroken.
    (r"(?i)(\bnot|n't|\bcannot)\s*(?:,|\s-)\s+((?:and|or|nor)\s[^-,.;]{0,40}?)\s*(?:,|\s-)\s+", r"\1 \2 "),
    # "No X that won't fit" says any X fits.
    (r"(?i)\bno (model|context length|sequence length|sequence|context)((?: or (?:model|context length|sequence length|sequence|context))?) (?:that|which) (?:won't|will not|can't|cannot|doesn't|does not) fit", r"any \1\2 fits"),
    # "No X is too long/big" says any X: "没有太长的 context" → "任意长度的 context" (no negation left to mislead).
    (r"没有(?:太|过|再)长的", "任意长度的"),
    (r"没有(?:太|过|再)大的", "任意大小的"),
    # LaTeX commands to plain symbols.
    (r"\\(?:text|mathrm|mathbf|mathit|textbf|operatorname|mathsf)\s*\{([^{}]*)\}", r"\1"),
    # A labelled term ("\underbrace{Ψ}_{\text{fwd AG}}") reads as its label before it: "fwd AG Ψ".
    (r"\\(?:underbrace|overbrace)\s*\{([^{}]*)\}\s*[_^]\s*\{([^{}]*)\}", r" \2 \1 "),
    (r"\\(?:underbrace|overbrace)\b", " "),
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
    (r"ψ|(?<![A-Za-z])(?:psi|Psi|PSI)\b", "Ψ"),
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
    (r"\(*\s*N_d\s*-\s*1\s*\)*\s*/\s*\(*\s*N_d\s*\)*\s*[×·*]?\s*(?=Ψ)", ""),
    # Ratios: number words and Chinese multiples to "2x".
    (r"\b(?:one and a half|1\.5) times\b", "1.5x"),
    (r"(?<!差不)多(?:了|出了?)?\s*一半|增加了?\s*一半|多\s*50\s*%|增加了?\s*50\s*%|50\s*%\s*more\b|\+\s*50\s*%", "1.5x"),
    (r"一倍半", "1.5x"),
    (r"多了?一倍|翻了?一倍|翻倍|翻一番|加倍|增加了?一倍", "2x"),
    (r"\btwice\b|\bdoubl(?:e|es|ed|ing)\b", "2x"),
    (r"\btripl(?:e|es|ed|ing)\b", "3x"),
    (r"(前|后)一半", r"\1半"),  # the first or second half of the steps, not a ratio ("all-reduce 的前一半")
    (r"\bhalv(?:e|es|ed|ing)\b|\bin half\b|减半|一半", "0.5x"),
    (r"\btwo times\b", "2x"),
    (r"\bthree times\b", "3x"),
    (r"\bfour times\b", "4x"),
    *((rf"\b{english}\s*(?=Ψ)", digit) for digit, (english, _) in _NUMBER_WORDS.items()),
    *((rf"{chinese}(?=\s*{_COUNTERS}|\s*Ψ)", digit) for digit, (_, chinese) in _NUMBER_WORDS.items()),
    # A fraction of Ψ ("7/8 × Ψ", "7/8Ψ") as a decimal, and a whole multiple of it multiplied out ("2 × 0.875Ψ" → "1.75Ψ").
    (r"(?<![\d./])(\d+)\s*/\s*(\d+)\s*(?:[×·*]\s*)?Ψ", lambda m: f"{int(m.group(1)) / int(m.group(2)):g}Ψ" if int(m.group(2)) else m.group()),
    (r"(?<![\d./])(\d+)\s*[×·*]\s*(\d*\.\d+)Ψ", lambda m: f"{int(m.group(1)) * float(m.group(2)):g}Ψ"),
    # A multiple of the parameter count is a multiple of Ψ ("3 倍参数量", "3x the number of parameters").
    (r"(?<![第\d.])(\d+(?:\.\d+)?)\s*(?:倍|[×*xX]|times)\s*(?:的)?\s*(?:the\s+)?(?:模型)?(?:参数量|参数个数|参数总量|parameter count|number of parameters|param(?:eter)?s? count)", r"\1Ψ"),
    # Ψ arithmetic: "3 × Ψ", "3 个 Ψ", "Ψ × 3", "(16Ψ)" to "3Ψ" / "16Ψ".
    (r"(?<![第\d.])(\d+(?:\.\d+)?)\s*(?:[×*·xX]|倍\s*(?:的)?)?\s*(?:个|份)?\s*Ψ", r"\1Ψ"),
    (r"Ψ\s*[×*·]\s*(\d+(?:\.\d+)?)", r"\1Ψ"),
    (r"\(\s*(\d*(?:\.\d+)?Ψ)\s*\)(?=\s*/)", r"\1"),
    (r"\(\s*(\d*(?:\.\d+)?Ψ)\s*\)", r" \1 "),  # spaced, so "梯度（2Ψ）再" keeps 2Ψ a word of its own
    (r"(\d+(?:\.\d+)?)\s*(?:倍|times\b|×(?!\s*[\d(]))", r"\1x"),
    # Ψ moved a number of times is that multiple of Ψ ("moves Ψ three times per step" → "moves 3Ψ per step").
    (r"(?i)\b((?:mov|send|transfer|ship|push|communicat)\w*)\s+Ψ\s*(\d+)x\b", r"\1 \2Ψ"),
    (r"\s+", " "),
)
_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement in _REWRITES)
_RANK_COUNT = re.compile(r"(?i)\bN_d\s*=\s*(\d+)|(?<![\d.])(\d+)\s*(?:张|块|台)?\s*(?:卡|GPUs?\b|ranks?\b|cards?\b|devices?\b)")
"""A number of data-parallel ranks the sentence gives ("N_d = 8", "on 64 GPUs", "8 卡")."""


def normalize(text: str) -> str:
    """Return `text` in canonical form (case kept): NFKC, ASCII hyphens and quotes, LaTeX and number words rewritten."""
    text = _CIRCLED.sub(lambda m: f"({ord(m.group()) - 0x245F})", text)  # ③ is an item number, not a count
    text = unicodedata.normalize("NFKC", text)
    text = _HYPHENS.sub("-", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _SINGLE_QUOTES.sub("'", text)
    for _ in range(3):  # nested \frac
        text = _FRAC.sub(r"(\1)/(\2)", text)
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return _ranks_as_n_d(text).strip()


def _ranks_as_n_d(text: str) -> str:
    """`text` with Ψ divided by the number of ranks it gives written as Ψ/N_d ("on 8 GPUs … Ψ/8" → "Ψ/N_d")."""
    counts = {int(m.group(1) or m.group(2)) for m in _RANK_COUNT.finditer(text)} - {0, 1}
    if not counts:
        return text
    return re.sub(rf"Ψ\s*/\s*(?:{'|'.join(map(str, sorted(counts)))})(?![\d.])", "Ψ/N_d", text)
