"""Read a sentence's communication ledger: each collective with its count and stated Ψ, sums of them and their totals."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import pairwise

NUMBER_WORDS = {"once": 1, "one": 1, "a": 1, "an": 1, "single": 1, "twice": 2, "two": 2, "three": 3}
"""Counts written as words before a collective ("twice", "two all-gathers")."""
_ASIDE = re.compile(r"\([^()]*\)")
_UNTIL_EQUALS = re.compile(r"[=;:。]")
_STOP = re.compile(r"[;。]")
TOTAL_REACH = 16
"""How far before a listed sum's last collective the total that closes the list may begin ("、梯度 RS 共 3Ψ")."""
BEFORE_PART_REACH = 24
"""How far before a collective a word that halves or replaces it may begin ("one half of a ring all-reduce", "instead of
an all-reduce")."""
_OPEN_ASIDE_REST = re.compile(r"^[^()]*\)")
_SLASH = re.compile(r"\s*/\s*")
_GLOSS_THEN_PLUS = re.compile(r"[^ψ+=≈~]{0,80}?(?:\d*(?:\.\d+)?ψ)?\s*\+\s*(?:[a-z]+\s+|[\u3400-\u9fff]{1,4}\s*)?$")
"""Between two parts: words about the first, maybe its value, then the "+" that goes on to the next (maybe past a word
that dates it: "+ bwd RS")."""
_EQUALS_BEFORE = re.compile(r"(?:=|≈)\s*$")
"""Ending the text before a value beside a collective: the value is a total stated before the collective's aside ("RS + AG
= 2Ψ (AG 发生在 step 之后)"), not the collective's."""
_EQUALS_VALUE = re.compile(r"\s*(?:=|≈)\s*((?:\d+(?:\.\d+)?)?ψ)(?!\s*[+/])")
"""Right after a collective and the value beside it: another value it equals ("AR(Ψ) = 2Ψ"), what it moves on that operand."""
_HALVED = r"(?:\s*/\s*2(?![\d.]))?"
"""A value written as a half of Ψ ("Ψ/2"): read as that multiple, unlike Ψ over N_d."""


def _psi_multiple(stated: str) -> float:
    """The multiple of Ψ a stated value is ("2ψ" → 2, "ψ" → 1, "ψ/2" → 0.5)."""
    coefficient, _, divisor = stated.partition("ψ")
    return float(coefficient or 1) / float(divisor.strip(" /") or 1)


@dataclass(frozen=True)
class Part:
    """One collective in a tagged sentence: how many times it runs and the Ψ the student gives it, if any."""

    start: int
    end: int
    collective: str
    count: int | None
    """Times the value covers ("两次 AG", "2x all-gather"; 1 for "Ψ each"); None for a bare plural ("all-gathers")."""
    value: float | None
    """The multiple of Ψ stated for it ("AG (2Ψ)", "RS 是 Ψ"), or None."""
    beside: bool
    """Whether the value sits right beside the collective ("AG Ψ", "2Ψ (AR)") rather than after a verb ("AG 也是 2Ψ")."""
    replaced: bool = False
    """Whether it is named as what others replace ("用 RS + AG 代替 AR") or as the whole of a half ("AR 的前半"): it adds to
    no sum."""
    each: bool = False
    """Whether its value is given to each of the collectives listed ("RS 和 AG 各是 2Ψ"), not to it alone."""


@dataclass(frozen=True)
class Ledger:
    """Collectives added up in one expression ("3Ψ = AG + RS"), with the total it states, if any."""

    start: int
    end: int
    parts: tuple[Part, ...]
    total: float | None


@dataclass(frozen=True)
class LedgerReader:
    """The ledger cues of the pattern book, compiled."""

    names: Mapping[str, str]
    """Each collective's short name in the cues (ag, rs, ar) → its name in facts.yaml (all-gather, …)."""
    part: re.Pattern[str]
    """One collective with its count before it and its value beside it ("两次 AG", "AG (2Ψ)", "2Ψ (AR)")."""
    joiner: re.Pattern[str]
    """What joins two parts of a sum ("+", "plus", "加上")."""
    compared_before: re.Pattern[str]
    """Ending the text before a collective: the sum is compared with it ("加起来等于原来的 AR"), which is no part of it."""
    operand: re.Pattern[str]
    """Between a collective and a value: what it acts on ("all-reduce on Ψ elements"), not what it moves."""
    split_into: re.Pattern[str]
    """Between two collectives: the first is split into the others ("AR ≈ 2Ψ，拆成 RS(Ψ)+AG(Ψ)"), so no sum joins them."""
    negated: re.Pattern[str]
    """Between a collective and a value: a negation ("reduce-scatter 单独不是 2Ψ"), so the value is denied, not stated."""
    list_joiner: re.Pattern[str]
    """What joins the items of a listed composition (",", "、", "and"), where the sentence says they compose a whole."""
    list_break: re.Pattern[str]
    """Between two collectives of a plain list: a conclusion ("所以", "so") that opens a list of its own."""
    dated_after: re.Pattern[str]
    """Right after a collective that restates the one before: a time it dates ("先做 reduce-scatter，RS 后各自更新…")."""
    composition: re.Pattern[str]
    """Says the collectives compose a whole ("三部分", "consists of", "加起来")."""
    total_before: re.Pattern[str]
    """A total ending right before a sum ("3Ψ = ", "3Ψ 由")."""
    total_after: re.Pattern[str]
    """A total right after a sum ("= 3Ψ", "，加起来 3Ψ")."""
    aggregate: re.Pattern[str]
    """Between a collective and a value: the value covers more than one run ("AG 总共 2Ψ")."""
    source: re.Pattern[str]
    """A total right before a lone collective named as its whole source ("2Ψ 来自两次 all-reduce")."""
    both_passes: re.Pattern[str]
    """Right before a collective: it runs once in each of the forward and backward passes ("前向和反向各 all-gather 一次")."""
    one_run: re.Pattern[str]
    """Between a collective and its value: the value is one run's ("前向一次 (Ψ)")."""
    half_before: re.Pattern[str]
    """Right before a collective: a value beside it is one half's ("one half of an all-reduce (≈Ψ each)"), not its
    own."""
    half_after: re.Pattern[str]
    """Between a collective and a value: the value is one half's ("all-reduce 的前半（约 Ψ）"), not its own."""
    result: re.Pattern[str]
    """Between a collective and a value: the value is the step's total after it ("变成 3Ψ")."""
    relative: re.Pattern[str]
    """Between a collective and a value: a relative clause on the collective (", which is 2Ψ"), so the value is its own
    as if beside it, even at the end of a sum."""
    each: re.Pattern[str]
    """Between a sum and a value: the value is each part's, not the total ("各≈Ψ", "每项都是 Ψ")."""
    both: re.Pattern[str]
    """Between the last of two collectives listed and a value: the value is both's ("RS 和 AR 都是 2Ψ")."""
    listed_pair: re.Pattern[str]
    """Between two collectives listed as one subject ("RS 和 AR", "RS、AG"), matched whole."""
    replaced: re.Pattern[str]
    """Right before a collective: it is what the others replace ("RS + AG 代替 AR"), no part of the sum."""
    dropped_after: re.Pattern[str]
    """Right after a collective: it is dropped ("all-reduce 里…那一半就没必要了"), no part of the sum."""
    plain: re.Pattern[str]
    """Any collective's name."""
    compared_before_total: re.Pattern[str]
    """Right before a total stated before a sum: an increase or a value compared with ("多了 1Ψ：…", "3Ψ vs 2Ψ: …"), not
    the sum's total."""
    each_before_total: re.Pattern[str]
    """Right before a value stated before a sum: each part's value ("三部分都是 Ψ：…"), not the sum's total."""

    @classmethod
    def from_cues(cls, cues: Mapping[str, str], names: Mapping[str, str]) -> LedgerReader:
        """Compile the `ledger` section of the cue book (macros already expanded)."""
        collectives = "|".join(f"(?P<{name}>{cues[name]})" for name in names)
        plain = "|".join(cues[name] for name in names)
        value = rf"(?P<{{0}}>(?:\d+(?:\.\d+)?)?ψ{_HALVED})(?![\w]|\s*/|\s*→)(?!{{1}})"
        part = (
            rf"(?:{value.format('before', cues['not_its_volume'])}\s*(?:\(\s*(?:{cues['pass_label']})?|for\s+))?"
            rf"(?:(?<![a-z\d./⁄第各])(?<!各\s)(?P<count>\d+|{'|'.join(NUMBER_WORDS)})\s*(?:x|×|\*|次|个|times)?\s*(?:的\s*)?(?:{cues['carried']}\s*)?)?"
            rf"(?:{collectives})(?P<plural>s\b)?"
            rf"(?:(?:{cues['carried_after']})?(?P<gap>(?:(?!{plain})(?!\bso\b|\bthus\b|\bhence\b|所以|因此|\bmemory\b|显存|内存|\s[-–]+\s)(?:[^+=,;:ψ\d⟨)→—]|\d+\s*次|,(?=\s*(?:{cues['value_after_comma']})))){{0,20}}?)(?P<paren>\()?\s*{value.format('after', cues['not_its_volume'])}(?P<per_run>{cues['per_run']})?)?"
        )
        return cls(
            names=names,
            part=re.compile(part, re.IGNORECASE),
            joiner=re.compile(cues["joiner"], re.IGNORECASE),
            compared_before=re.compile(cues["compared_before"], re.IGNORECASE),
            operand=re.compile(cues["operand"], re.IGNORECASE),
            split_into=re.compile(cues["split_into"], re.IGNORECASE),
            negated=re.compile(cues["negated"], re.IGNORECASE),
            list_joiner=re.compile(cues["list_joiner"], re.IGNORECASE),
            list_break=re.compile(cues["list_break"], re.IGNORECASE),
            dated_after=re.compile(cues["dated_after"], re.IGNORECASE),
            composition=re.compile(cues["composition"], re.IGNORECASE),
            total_before=re.compile(rf"(?:(\d+(?:\.\d+)?)?ψ)\s*(?:{cues['total_before']})\s*[^=+;。ψ\d]{{0,8}}$", re.IGNORECASE),
            total_after=re.compile(
                rf"^[^=+;。ψ\d]{{0,16}}?(?:{cues['total_after']})\s*(?:约|about|~|≈)?\s*(\d+(?:\.\d+)?)?ψ(?!\s*[+/])", re.IGNORECASE
            ),
            aggregate=re.compile(cues["aggregate"], re.IGNORECASE),
            source=re.compile(rf"(\d+(?:\.\d+)?)?ψ\s*(?:的)?\s*(?:{cues['source_before']})\s*[^=+;。ψ\d]{{0,8}}$", re.IGNORECASE),
            both_passes=re.compile(f"(?:{cues['both_passes']})\\s*$", re.IGNORECASE),
            one_run=re.compile(cues["one_run"], re.IGNORECASE),
            half_before=re.compile(cues["half_before"], re.IGNORECASE),
            half_after=re.compile(cues["half_after"], re.IGNORECASE),
            result=re.compile(cues["result"], re.IGNORECASE),
            relative=re.compile(cues["relative"], re.IGNORECASE),
            each=re.compile(cues["each"], re.IGNORECASE),
            both=re.compile(cues["both"], re.IGNORECASE),
            listed_pair=re.compile(cues["listed_pair"], re.IGNORECASE),
            replaced=re.compile(f"(?:{cues['replaced']})\\s*$", re.IGNORECASE),
            dropped_after=re.compile(cues["dropped_after"], re.IGNORECASE),
            plain=re.compile(plain, re.IGNORECASE),
            compared_before_total=re.compile(cues["compared_before_total"], re.IGNORECASE),
            each_before_total=re.compile(cues["each_before_total"], re.IGNORECASE),
        )

    def parts(self, text: str) -> list[Part]:
        """Every collective of `text`, with its count and stated value."""
        found = []
        for m in self.part.finditer(text):
            collective = next(self.names[name] for name in self.names if m.group(name))
            if found and found[-1].collective == collective and not m.group("after") and self.dated_after.match(text, m.end()):
                continue  # "先做 reduce-scatter，RS 后各自更新…": the restated collective dates the update, no part of its own
            count = m.group("count")
            number = int(count) if count and count.isdigit() else NUMBER_WORDS.get((count or "").lower())
            gap = m.group("gap") or ""
            total_before = self._opens_sum(text, m.end()) or _EQUALS_BEFORE.search(text, max(0, m.start() - 4), m.start())
            before = None if m.group("before") and total_before else m.group("before")  # "3Ψ (AG + AG + RS)", "RS + AG = 2Ψ (AG …)"
            each = bool(m.group("after")) and bool(self.each.search(gap) or self.both.search(gap))  # "RS 和 AG 各是/都是 2Ψ": each one's value
            aggregate = self.aggregate.search(gap) and not each
            half_of_it = bool(self.half_after.search(gap))  # "RS 只完成了 AR 的前半（约 Ψ）": the value and the step are the half's
            halved = self.half_before.search(text, max(0, m.start() - BEFORE_PART_REACH), m.start())
            dropped = bool(self.dropped_after.match(text, m.end()))  # "all-reduce 里…那一半就没必要了：先 RS…"
            replaced = bool(self.replaced.search(text, max(0, m.start() - BEFORE_PART_REACH), m.start())) or half_of_it or dropped
            # a value beside what is replaced may be the replacement's ("RS instead of AR (≈Ψ)"): neither's for sure
            unowned = aggregate or halved or replaced or self.result.search(gap) or self.operand.match(gap) or self.negated.search(gap)
            stated = None if unowned else m.group("after") or before
            beside = m.group("before") is not None or not gap.strip() or m.group("paren") is not None or each \
                or bool(self.relative.match(gap))  # "the reduce-scatter, which is 2Ψ": the value is the collective's own
            equals = _EQUALS_VALUE.match(text, m.end()) if stated and m.group("after") else None
            if equals and self._opens_piece(text, m.start()):
                stated = equals.group(1)  # "AR(Ψ) = 2Ψ", written "ar ψ = 2ψ": Ψ is what it reduces, 2Ψ what it moves
            value = _psi_multiple(stated) if stated else None
            if m.group("per_run") and number and value is not None:
                value *= number  # "2 次 AG（fwd Ψ、bwd Ψ）", "two all-gathers, Ψ each": both runs move 2Ψ
            one = (m.group("per_run") and not number) or each or self.one_run.search(gap)
            runs = 1 if one else None if m.group("plural") and number is None else number or 1
            if number is None and self.both_passes.search(text, max(0, m.start() - 24), m.start()):
                runs = 2
            found.append(Part(m.start(), m.end(), collective, runs, value, beside, replaced, each))
        return _slash_pairs_unvalued(text, _each_value_shared(text, found, self.listed_pair))

    def _opens_piece(self, text: str, position: int) -> bool:
        """Whether nothing adds up or gives a value in the 80 characters before `position` (back to a stop): a collective
        there is no addend of a sum nor an item of a list of values."""
        piece = _STOP.split(text[max(0, position - 80) : position])[-1]
        return "ψ" not in piece and not self.joiner.search(piece)

    def _opens_sum(self, text: str, position: int) -> bool:
        """Whether the parenthesis a value opened before the collective ending at `position` goes on to add others, or to
        list them ("3Ψ (AG forward, AG backward, RS gradients)")."""
        closing = text.find(")", position)
        end = closing if closing >= 0 else position + 40
        listed = closing >= 0 and self.list_joiner.search(text, position, end) and self.part.search(text, position, end)
        return bool(self.joiner.search(text, position, end) or listed)

    def ledgers(self, text: str) -> list[Ledger]:
        """The sums of collectives in `text` ("AG + AG + RS", or a listed composition), each with its stated total."""
        parts = self.parts(text)
        listed = bool(self.composition.search(text)) or self._list_closed_by_joiner(text, parts)
        found: list[Ledger] = []
        chain: list[Part] = []
        for index, part in enumerate([*parts, None]):
            if part is not None and chain and not part.replaced and self._joined(text, chain[0].start, chain[-1], part.start, listed):
                chain.append(part)
                continue
            chain = _restated_once(parts[: index - len(chain)], chain)
            if len(chain) >= 2:
                total = self._total(text, chain[0].start, chain[-1])
                whole = _with_addends_before(text, parts[: index - len(chain)], chain, total)
                found.append(Ledger(whole[0].start, chain[-1].end, tuple(whole), total))
            elif chain and (part is None or _STOP.search(text, chain[0].end, part.start)):
                source = self.source.search(text, max(0, chain[0].start - 32), chain[0].start)
                if source:  # a lone collective, with no other in its sentence part, named as the total's whole source
                    found.append(Ledger(chain[0].start, chain[0].end, tuple(chain), float(source.group(1) or 1)))
            chain = [part] if part is not None and not part.replaced else []
        return found

    def _list_closed_by_joiner(self, text: str, parts: list[Part]) -> bool:
        """Whether a list of collectives ends in a sum's joiner ("一个 AG、一个 RS 加一个 AR", "AG, RS plus AR"): the
        list is one sum, as when the sentence says its collectives compose a whole. A joiner that goes on to a further
        part opens a sum of its own ("AG/RS 的组合，fwd AG + bwd AG + RS"), closing no list, and a collective in an aside
        that closes before the next ("（RS 后丢掉别人的分片），通信还是 RS+AG") is none of its items."""
        for index, (first, second, third) in enumerate(zip(parts, parts[1:], parts[2:])):
            listed = _ASIDE.sub(" ", text[first.end : second.start])
            joined = _ASIDE.sub(" ", text[second.end : third.start])
            after = _ASIDE.sub(" ", text[third.end : parts[index + 3].start]) if index + 3 < len(parts) else ""
            if len(listed) <= 24 and not any(mark in listed + joined for mark in "ψ⟨=()") and self.list_joiner.search(listed) and not self.joiner.search(listed) and len(joined) <= 24 \
                    and self.joiner.search(joined) and not (len(after) <= 24 and self.joiner.search(after)) and not _STOP.search(text, first.end, third.start) \
                    and len({p.value is None for p in (first, second, third)}) == 1:  # "AG 省不掉，RS Ψ + AG Ψ": no list of like items
                return True
        return False

    def _joined(self, text: str, start: int, last: Part, next_start: int, listed: bool) -> bool:
        """Whether the text between the last part of a sum begun at `start` and the next part joins them into one sum
        (asides in parentheses aside); in a sum headed by its total ("3Ψ = AG … + AG again in backward because we freed
        them after forward Ψ + RS") a long gloss of a part, its value at the end, may sit before the "+"."""
        bare = _ASIDE.sub(" ", _past_open_aside(text, last, text[last.end : next_start]))
        if listed and any(m.end() == last.end for m in self.composition.finditer(text, max(0, last.start - TOTAL_REACH), last.end)):
            return False  # "前向 AG、反向 AG、梯度 RS 共 3Ψ，两次 AG 可以 prefetch": the total closes its list
        glossed = len(bare) > 40 and _GLOSS_THEN_PLUS.match(bare) and self.total_before.search(text, 0, start)
        if "=" in bare or ("ψ" in bare or len(bare) > 40) and not glossed or self.compared_before.search(bare) or self.split_into.search(bare) \
                or (listed and self.composition.search(bare)):
            return False  # "…组成，两次 AG 可以预取": the word saying what composes the whole closes its list
        # a stage named between two listed collectives starts a clause of its own ("RS 是 AR 的一半，但 ZeRO-1 还有一个 AG")
        return bool(self.joiner.search(bare) or (listed and len(bare) <= 24 and "⟨" not in bare and self.list_joiner.search(bare) and not self.list_break.search(bare)))

    def _total(self, text: str, start: int, last: Part) -> float | None:
        """The total a sum from `start` to its `last` part states before it ("3Ψ = …") or after it ("… = 3Ψ", "…，加起来
        3Ψ"); none for a sum that goes on past what could be read as its parts (its total would be set against only
        some of them), nor a value equated to the one each part was given ("RS 和 AG 各是 Ψ = 0.875Ψ")."""
        end = last.end
        goes_on = self.joiner.search(_UNTIL_EQUALS.split(_ASIDE.sub(" ", text[end : end + 40]))[0])
        if goes_on or (last.each and _EQUALS_VALUE.match(text, end)):
            return None
        before = self.total_before.search(text, max(0, start - 32), start)
        if before and "(" in before.group(0) and ")" in text[before.end() : last.start]:
            before = None  # "Ψ (bwd AG) + Ψ (RS)": a parenthesis closed before the sum goes on glosses one value, it heads no sum
        if before and not (
            self.compared_before_total.search(text, max(0, before.start() - 8), before.start())
            or self.each_before_total.search(text, max(0, before.start() - 24), before.start())
        ):
            return float(before.group(1) or 1)
        following = _ASIDE.sub(" ", text[end : end + 60])
        after = self.total_after.match(following)
        if after is None or self.each.search(after.group(0)) or self.plain.search(after.group(0)) or self.each.match(following[after.end() :].lstrip()):
            return None  # "…、梯度 reduce-scatter，各≈Ψ", "…, ≈Ψ each": each part's; "RS + AG 代替 AR，RS ≈ Ψ": another collective's
        if "⟨" in after.group(0):
            return None  # "（前向 AG + 反向 AG + 梯度 RS），DDP 是 2Ψ": a stage named after the sum owns the value
        return float(after.group(1) or 1)


def _past_open_aside(text: str, part: Part, between: str) -> str:
    """`between` without the rest of a parenthesis the part opened around its value and left open, to gloss it ("bwd AG
    (Ψ，因为 fwd 后已经 free 了)、RS"): what follows the aside is what joins the parts."""
    still_open = text.rfind("(", part.start, part.end) > text.rfind(")", part.start, part.end)
    return _OPEN_ASIDE_REST.sub(" ", between, count=1) if still_open else between


def _restated_once(earlier: list[Part], chain: list[Part]) -> list[Part]:
    """`chain` without the collectives it names bare and then restates in the same order, with values or as a sum ("RS +
    AG，RS 约 Ψ、AG 约 Ψ，总共 2Ψ", "先 reduce-scatter，然后 all-gather 参数，RS + AG = 2Ψ"): each collective counts once.
    The bare naming may begin before the chain, in the `earlier` parts of its sentence ("用 RS 拿到…，再 AG 新参数，RS + AG
    = 2Ψ"). Two or more are restated, so "前向 AG + 反向 AG" stays two all-gathers."""
    for size in range(max(2, (len(chain) + 1) // 2), len(chain)):
        named, restated = [*earlier, *chain][-2 * size : -size], chain[-size:]
        if len(named) == size and all(p.value is None for p in named) and [p.collective for p in named] == [p.collective for p in restated]:
            return restated
    return chain


def _each_value_shared(text: str, parts: list[Part], listed_pair: re.Pattern[str]) -> list[Part]:
    """`parts` with a value said of each of the collectives listed before it ("RS 和 AR 都是 2Ψ", "RS、AG 各 Ψ") given to
    the unvalued ones of that list too."""
    shared = list(parts)
    for i, (listed, given) in enumerate(pairwise(parts)):
        if given.each and given.value is not None and listed.value is None and listed_pair.fullmatch(text, listed.end, given.start):
            shared[i] = replace(listed, count=1, value=given.value, beside=True, each=True)
    return shared


def _slash_pairs_unvalued(text: str, parts: list[Part]) -> list[Part]:
    """`parts` with no value on collectives paired by a slash ("the AG/RS pattern and its 2Ψ"): the value is the pair's."""
    paired = {i for i in range(1, len(parts)) if _SLASH.fullmatch(text, parts[i - 1].end, parts[i].start)}
    paired |= {i - 1 for i in paired}
    return [replace(p, value=None) if i in paired else p for i, p in enumerate(parts)]


def _with_addends_before(text: str, earlier: list[Part], chain: list[Part], total: float | None) -> list[Part]:
    """`chain` led by the valued parts listed right before it, when their values and the chain's add up to its total: the
    sum began before its first joiner ("前向 AG Ψ，反向 AG Ψ，加上 RS Ψ，共 3Ψ")."""
    if total is None or any(p.value is None for p in chain):
        return chain
    lead: list[Part] = []
    for part in reversed(earlier):
        between = text[part.end : (lead or chain)[0].start]
        if part.value is None or _STOP.search(between) or "=" in between or len(_ASIDE.sub(" ", between)) > 40:
            break
        lead.insert(0, part)
    for start in range(len(lead)):
        if abs(sum(p.value or 0 for p in [*lead[start:], *chain]) - total) < 1e-9:
            return [*lead[start:], *chain]
    return chain
