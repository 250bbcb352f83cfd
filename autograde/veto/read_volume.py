"""Read what a sentence says a stage or a collective communicates: stated totals, comparisons with another stage or
collective, the ledger of collectives and their sums, and volumes per shard or growing with N_d."""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import replace

from autograde.veto.claims import PER_RANK_VOLUMES, VALUES_AS_BYTES, Claim, Relation, TrafficInGB
from autograde.veto.ledger import Ledger
from autograde.veto.prepared import PreparedSentence
from autograde.veto.read_steps import COLLECTIVE_WORDS, step_claims
from autograde.veto.stages import changed_to

NEXT_REACH = 48
"""Characters of a sentence whose value the next sentence's traffic makes a volume, and of the next sentence within which
it must name that traffic."""
MEMORY_SIZED = 10
"""A multiple of Ψ this large is a memory size (12Ψ of Adam states, 16Ψ in all), not what a step moves."""
COMPARED_REACH = 24
"""Characters around a comparison within which the collectives compared are named ("half the traffic of an all-reduce")."""
RELATIVE_REACH = 6
"""Characters between a collective and the "which" of a relative clause about it."""
QUANTITY_REACH = 16
"""A stage named after a quantity owns it only when close ("2Ψ for DDP"), not anywhere later in the clause."""
LEDGER_VALUES = 2
"""Fewest values a sentence about traffic lists for a conclusion after it ("So it's 4Ψ.") to be their total."""
LESSON_REACH = 24
"""Characters before a value within which a word names it as the lesson's ("课上说的 2Ψ")."""
SOLE_REACH = 40
"""Characters before a bare Ψ within which a word makes it the stage's whole total ("only needs Ψ per step")."""
STEP_TOTAL_REACH = 64
"""Characters before a bare Ψ within which words make it the step's whole traffic, across a comma ("ZeRO-2's per-step
volume is just the reduce-scatter, Ψ")."""
HALF_REACH = 12
"""Characters before a value, across a clause break, within which a half named makes it that half's ("前半程，数据量是 Ψ")."""
STATE_AFTER_FIGURE = 16
"""How far after a GB figure a state's name makes it that state's memory ("140 GB of bf16 grads")."""
FIRST_AT_VALUE_REACH = 160
"""Characters before a value within which a "first at" clause may own it ("要到 ZeRO-3 …才…，变成 3Ψ")."""
COMPARISONS: tuple[tuple[str, Relation], ...] = (("comm_more", "more-than"), ("comm_less", "less-than"), ("comm_same", "same-as"), ("comm_ratio", "ratio-to"))
"""Word classes that compare a stage's volume with another's, and the relation each states."""
_RATIO = re.compile(r"(\d+(?:\.\d+)?)x|\bhalf\b")
_CONTINUED = re.compile(r"\s*[+=]")
_OWN_VALUE = re.compile(r"\s*(?:/\s*⟨\w+⟩\s*)*(?:的|'s)?\s*(?:是|为|=|:|\bis\b|\bare\b)\s*(?:约|about|~|≈)?\s*(?:\d*ψ|\d+(?:\.\d+)?\s*[gtm]i?b\b)")
"""Right after a stage: a value of its own ("DDP/ZeRO-2 是 2Ψ", "ZeRO-2 is 2Ψ", "DDP 是 28GB")."""
_MORE_VALUES = re.compile(r"\s*\+\s*(\d+(?:\.\d+)?)?ψ(?![\w/])")
"""One more value added after a sum's first ("RS plus AG costs 2Ψ + 2Ψ")."""


def volume_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Every claim of `sentence` about communication volume, each marked with the rank count the answer names by then
    ("ranks:4"), for which a volume with the ring's (N_d − 1)/N_d factor is exact."""
    ranks = sentence.setting.updated(sentence.book, sentence.text).ranks
    for claim in _volume_claims(sentence):
        yield claim if ranks is None else replace(claim, flags=claim.flags | {f"ranks:{ranks}"})


def _volume_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Every claim of `sentence` about communication volume, as it says it."""
    comm = sentence.book.word("comm")
    names_traffic = comm.search(sentence.text) is not None
    about_traffic = names_traffic or comm.search(sentence.previous_question)
    traffic_beside = _traffic_next(sentence, comm) or _total_after_ledger(sentence, comm) or _total_after_traffic(sentence, comm)
    if about_traffic or traffic_beside or _stage_valued(sentence):
        if "ψ" in sentence.text:
            yield from _totals(sentence)
        yield from _comparisons(sentence)
        yield from _collective_comparisons(sentence)
    if "ψ" in sentence.text:
        yield from _ledger(sentence)
        yield from _reasoned_values(sentence)
    yield from step_claims(sentence)
    if "n_d" in sentence.text or names_traffic:
        yield from _per_rank(sentence)  # "traffic grows with the number of peers" names no N_d
    if "gb" in sentence.text and names_traffic:
        yield from _values_as_bytes(sentence)


def _traffic_next(sentence: PreparedSentence, comm: re.Pattern[str]) -> bool:
    """Whether a short sentence stating one value, with no memory (nor memory saved), formula or N_d in it, is followed by
    one that opens on its traffic ("ZeRO-3 is also 2Ψ; it just chops the traffic into more messages"): its value is a
    volume."""
    return _one_bare_value(sentence) and not sentence.has("memory_saved") and bool(comm.search(sentence.next_text[:NEXT_REACH]))


def _total_after_ledger(sentence: PreparedSentence, comm: re.Pattern[str]) -> bool:
    """Whether a short sentence stating one value, opened as a conclusion ("So really it's 4Ψ;"), follows one that lists
    traffic with values of its own ("forward all-gather Ψ, backward all-gather Ψ, then an all-reduce costing 2Ψ"): its
    value is that traffic's total."""
    return (
        _one_bare_value(sentence) and sentence.has("concluded_total")
        and sentence.previous_text.count("ψ") >= LEDGER_VALUES and bool(comm.search(sentence.previous_text))
    )


def _total_after_traffic(sentence: PreparedSentence, comm: re.Pattern[str]) -> bool:
    """Whether a sentence opened on its total ("Total ≈ 3Ψ vs DDP's 2Ψ.") or naming a value as the total ("so that's 3Ψ
    total") follows one that values traffic ("an all-gather … so it's ~2Ψ."): its total is that traffic's."""
    stated = sentence.has("total_opener") or sentence.has("value_total")
    return stated and "ψ" in sentence.previous_text and bool(comm.search(sentence.previous_text))


def _one_bare_value(sentence: PreparedSentence) -> bool:
    """Whether the sentence is short and states one value of Ψ, with no memory, formula or N_d in it."""
    text = sentence.text
    return len(text) <= NEXT_REACH and text.count("ψ") == 1 and not any(mark in text for mark in ("n_d", "+", "=", "/")) and not sentence.has("memory_noun")


def _stage_valued(sentence: PreparedSentence) -> bool:
    """Whether the sentence says a stage is a small multiple of Ψ in a clause naming no memory ("ZeRO-3 其实也是 2Ψ", "so
    ZeRO-2 is 3Ψ, the price for the memory saving"), and no N_d in that clause: a volume."""
    clauses = (sentence.clause_around(a, b) for a, b in sentence.spans("stage_valued"))
    return any(not sentence.has("memory_noun", a, b) and "n_d" not in sentence.text[a:b] for a, b in clauses)


def _totals(sentence: PreparedSentence) -> Iterator[Claim]:
    """Stated totals of Ψ, each owned by the stage it is given for; a value beside another of the same stage is
    flagged with it (from 2Ψ to 3Ψ is a correction unless the first is marked as the sum)."""
    text, quantities = sentence.text, sentence.book.quantities
    if sentence.book.word("pass_heading").match(text):
        return  # "Forward: … about Ψ per rank": one pass's part under its heading
    owned = []
    for q in quantities.totals(text):
        if q.coefficient >= MEMORY_SIZED or sentence.book.word("bound_before").search(text, max(0, q.start - QUANTITY_REACH), q.start):
            continue  # a memory size, or a bound the volume is compared with ("a bit above 2Ψ")
        if sentence.book.word("copy_before").search(text, max(0, q.start - QUANTITY_REACH), q.start):
            continue  # "梯度每卡常驻完整一份（2Ψ）": the size of a copy kept
        if sentence.book.word("converted_after").match(text, q.end):
            continue  # "3Ψ 个元素 × 2 bytes": a conversion of units, not a stated volume
        if _lesson_figure(sentence, q.start, q.end):
            continue  # "the '2Ψ' in the lecture is a simplification": the lesson's figure, dismissed
        clause = sentence.clause_around(q.start, q.end)
        if sentence.has("half_part", min(clause[0], max(0, q.start - HALF_REACH)), q.start):
            continue  # "the gradient-sync half costs Ψ", "走了 AR 的前半程，数据量是 Ψ": one half's value, not the stage's total
        sole = _sole_total(sentence, clause, q.start, q.end)
        bare_marked = sole or quantities.sum_named(text, q.start)  # a bare Ψ is one collective's unless "only" or "the total is"
        marked = bare_marked if q.coefficient == 1 else quantities.marked_total(text, q.start, q.end) or sole
        following = text.find("ψ", q.end)  # a stage after the next value owns that one ("3Ψ (vs 2Ψ for DDP)")
        reach = QUANTITY_REACH if following < 0 else min(QUANTITY_REACH, following - q.start)
        aside = text.find("(", q.end, following) if following >= 0 else -1
        if aside >= 0:  # "sum 3Ψ（DDP/ZeRO-2 只有 2Ψ）": an aside with a value of its own names its own stage
            reach = min(reach, aside - q.start)
        owner = (
            changed_to(text, q.start) or _first_at_owner(sentence, q.start) or sentence.named_right_before(q.start)
            or _described_step(sentence, clause, q.start) or sentence.subject(clause, q.start, reach, marked)
        )
        if owner is None and sole and not sentence.book.word("either_way_after").match(text, q.end):
            owner = _pronoun_collective(sentence, clause, q.start)  # "the all-reduce sends each gradient once, so it costs Ψ"
        if owner is None or owner in sentence.book.others or sentence.has("not_total", *clause) or _valued_after(sentence, q.end, owner):
            continue
        after_memory = _last_before(sentence, "memory_noun", q.start) > _last_before(sentence, "comm", q.start)
        if after_memory and not sentence.book.word("traffic_after").match(text, q.end):
            continue  # a figure said after memory, with no traffic named since (nor right after it), is a memory figure
        if owner == "zero3" and _about_variant(sentence):
            continue  # FSDP without resharding after forward moves 2Ψ by design
        if q.coefficient == 2 and sentence.has("ar_identity"):
            continue  # "RS + AG = 2Ψ = AR": the all-reduce's volume, not the stage's
        owned.append((q, owner, marked))
    reported = {q.start for q, _, _ in owned if sentence.stance.reported(q.start, q.end)}
    for q, owner, marked in owned:
        beside = frozenset(  # a value someone else gave corrects nothing the student says ("很多人说 3Ψ，我觉得是 2Ψ")
            f"beside:{other.coefficient:g}" for other, o, _ in owned
            if o == owner and other.coefficient != q.coefficient and (other.start in reported) == (q.start in reported)
        )
        yield Claim(owner, "volume", q.coefficient, q.start, q.end, marked=marked, flags=beside)


def _first_at_owner(sentence: PreparedSentence, position: int) -> str | None:
    """The stage a "first at" clause names, when the value at `position` is what the step becomes there ("要到 ZeRO-3 …
    才需要…，变成 3Ψ")."""
    found = sentence.book.word("first_at_value").search(sentence.text, max(0, position - FIRST_AT_VALUE_REACH), position)
    return found.group("stage") if found else None


def _pronoun_collective(sentence: PreparedSentence, clause: tuple[int, int], position: int) -> str | None:
    """The collective a pronoun before a sole total stands for, named earlier in the sentence; None for any other subject."""
    antecedent = sentence.pronoun_antecedent(clause, position)
    if antecedent is None or antecedent == (0, 0):
        return None
    named = _collectives_in(sentence, *antecedent)
    return named[0] if named else None


def _described_step(sentence: PreparedSentence, clause: tuple[int, int], position: int) -> str | None:
    """The one collective the clause before describes, when the value's clause only gives that step's cost
    ("reduce-scatter 要把所有梯度聚合起来，所以还是 2Ψ", "ZeRO-1 用 reduce-scatter 把梯度聚合到各自的 rank，这一步通信量是 2Ψ")."""
    if clause[0] == 0 or not sentence.book.word("step_value_opens").fullmatch(sentence.text, clause[0], position):
        return None
    before = sentence.clause_before(clause[0])
    named = set(_collectives_in(sentence, *before))
    if len(named) != 1 or not sentence.book.word("step_described").match(sentence.text, *before):
        return None
    return named.pop()


def _collectives_in(sentence: PreparedSentence, low: int, high: int) -> list[str]:
    """The collectives named by name (not by a bare "gather") within text[low:high], in the order of COLLECTIVE_WORDS."""
    return [c for w, c in COLLECTIVE_WORDS if w != "gather" and sentence.has(w, low, high)]


def _valued_after(sentence: PreparedSentence, end: int, owner: str) -> bool:
    """Whether the owner found for a value is a stage named right after it with a value of its own ("共 3Ψ（DDP/ZeRO-2 是
    2Ψ）"): it owns that one, not the value before it."""
    after = next((m for m in sentence.mentions if end <= m.start <= end + QUANTITY_REACH and m.stage == owner), None)
    return after is not None and bool(_OWN_VALUE.match(sentence.text, after.end)) and not any(m.end <= end and m.stage == owner for m in sentence.mentions)


def _last_before(sentence: PreparedSentence, word: str, position: int) -> int:
    """Where the last match of the word class `word` that ends by `position` starts (-1 when there is none)."""
    spans = sentence.spans(word)  # found by finditer: sorted, not overlapping, so their ends are sorted too
    index = bisect_right([b for _, b in spans], position)
    return spans[index - 1][0] if index else -1


def _lesson_figure(sentence: PreparedSentence, start: int, end: int) -> bool:
    """Whether the value at `start:end` is named as the lesson's and dismissed ("the '2Ψ' in the lecture is a
    simplification", "课上的 2Ψ 只是近似")."""
    book, text = sentence.book, sentence.text
    if book.word("lesson_figure_after").match(text, end):
        return True
    return bool(book.word("lesson_figure_before").search(text, max(0, start - LESSON_REACH), start) and book.word("dismissed_after").match(text, end))


def _sole_total(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether a bare Ψ is said to be the stage's whole total: the step's traffic said to be only that ("每步通信只剩 Ψ"),
    a stage said to be that much per step ("ZeRO-2 is about Ψ per step"), or "only needs Ψ per step", "通信量为 Ψ",
    "which costs Ψ" in a clause that names no collective it could belong to, nor one part of several ("each of the
    three costs Ψ")."""
    low = max(clause[0], start - SOLE_REACH)
    aside = sentence.stance.aside_around(start)
    if aside is not None:  # "you all-gather its weights (summed over layers that's Ψ)": the aside values its clause's collective
        clause = (sentence.clause_before(aside[0])[0], clause[1])
    if sentence.book.word("step_total_before").search(sentence.text, max(0, start - STEP_TOTAL_REACH), start):
        return True  # "每步通信只剩 Ψ", "ZeRO-2's per-step volume is just the reduce-scatter, Ψ": the step's whole traffic
    if sentence.book.word("stage_is_before").search(sentence.text, low, start) and sentence.book.word("step_total_after").match(sentence.text, end):
        return True
    return (
        bool(sentence.book.word("sole_total_before").search(sentence.text, low, start))
        and not sentence.has("op", *clause)
        and not sentence.has("gather", *clause)
        and not sentence.has("per_part", *clause)
    )


def _comparisons(sentence: PreparedSentence) -> Iterator[Claim]:
    """A stage's volume compared with another stage's: more, less, the same, or a multiple."""
    for word, relation in COMPARISONS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            subject = sentence.subject(clause, start)
            if relation == "same-as":  # "the total ends up the same as DDP": a stage named as compared with after it
                compared = (m for m in sentence.mentions if start <= m.start < clause[1] and m.reference)
                inside = [m.stage for m in compared if m.stage not in sentence.book.others]
            else:  # "整体通信是 DDP 的一半": the stage inside the comparison is the one compared with
                inside = _named_inside(sentence, start, end)
            subject = _outside(sentence, subject, inside, start)
            if subject is None or subject in sentence.book.others or _not_stage_volume(sentence, clause[0], end, start):
                continue
            if relation != "same-as" and sentence.has_unexcluded("op", end, min(clause[1], end + COMPARED_REACH)):
                continue  # "half the traffic of an all-reduce" compares with a collective, not a stage
            if relation in ("less-than", "ratio-to") and sentence.has("comm_same") and word != "comm_same":
                continue  # "halves this step, the total stays the same": the ratio is a part's
            if relation in ("less-than", "ratio-to") and sentence.has("half_part", clause[0], start):
                continue  # "the gradient-sync half is half the traffic": the ratio is that half's
            if relation in ("less-than", "ratio-to") and not sentence.mentions and _opens_on_collective(sentence):
                continue  # "RS 只是半个 all-reduce，通信量一半": a collective's ratio, said with no stage
            others = [m.stage for m in sentence.mentions if clause[0] <= m.start < clause[1] and (m.reference or m.stage in inside) and m.stage != subject]
            if relation == "same-as" and not others:  # "ZeRO-2 和 ZeRO-3 一样", "no difference between ZeRO-2 and ZeRO-3"
                others = sorted(sentence.subjects.between(clause[0], clause[1], but=subject) - sentence.book.others)
            if relation == "same-as" and not others:
                continue  # "stays the same" says nothing about another stage ("per-rank volume stays 3Ψ as N_d grows")
            if not others and _prompt_comparison(sentence, clause, subject):
                continue  # the prompt's "reduce-scatter is twice as fast as all-reduce" compares two collectives
            value = _compared_value(sentence, relation, start, end)
            named = frozenset({"named-other"}) if others else frozenset()
            for other in others or [None]:
                yield Claim(subject, "volume", value, start, end, relation, other, flags=named)


def _opens_on_collective(sentence: PreparedSentence) -> bool:
    """Whether the sentence opens on a collective as its subject ("RS 只是半个 all-reduce…") or as the one step it does
    ("所以只做 reduce-scatter，…")."""
    op = sentence.book.word("op")
    openings = (sentence.book.word(w).match(sentence.text) for w in ("collective_opens", "step_opens"))
    return any(op.match(sentence.text, opening.end()) for opening in openings if opening)


def _compared_value(sentence: PreparedSentence, relation: Relation, start: int, end: int) -> object:
    """A comparison's value: the multiple for a ratio ("1.5x", "half"), else the relation itself."""
    if relation != "ratio-to":
        return relation
    ratio = _RATIO.search(sentence.text, start, end)
    return 0.5 if ratio is None or ratio.group(1) is None else float(ratio.group(1))


def _not_stage_volume(sentence: PreparedSentence, low: int, high: int, at: int) -> bool:
    """Whether words within text[low:high] make a comparison at `at` no stage's whole volume (a collective, memory, one
    layer), other than words in a quote the student then reads as saying it ("“RS 比 AR 快两倍”说明 ZeRO-1 每步通信只有 DDP
    的一半": the quoted collectives are the topic, the comparison the student's reading)."""
    read = [(a, b) for a, b in sentence.quotes if b <= at and sentence.book.word("quote_read_as").match(sentence.text, b)]
    return any(low <= a and b <= high and not any(q0 <= a < q1 for q0, q1 in read) for a, b in sentence.spans("not_stage_volume"))


def _prompt_comparison(sentence: PreparedSentence, clause: tuple[int, int], subject: str) -> bool:
    """Whether a comparison may be the prompt's of one reduce-scatter with one all-reduce (made or quoted): made in its
    clause outside quotes, or in a sentence that names the stage compared only after the comparison's clause, if at all
    ("快两倍就是数据量减半", "… means half the volume per op, not that ZeRO-1 communicates less")."""
    if not sentence.has("rs_vs_ar"):
        return False
    made_here = sentence.present(sentence.book.word("rs_vs_ar"), *clause)  # "ZeRO-1 halves it - that's what 'RS is 2x …' means"
    return made_here or all(m.stage != subject or m.start >= clause[1] for m in sentence.mentions)


def _collective_comparisons(sentence: PreparedSentence) -> Iterator[Claim]:
    """One collective's volume compared with another's ("RS 的通信量和 AR 一样", "a reduce-scatter moves the same as an
    all-reduce", "each as large as an all-reduce"): the first named right before the comparison, the other right after
    it or between them after a comparing word ("和", "than", "as")."""
    for word, relation in COMPARISONS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            if sentence.subjects.first_from(clause[0], clause[1]) is not None or sentence.clause_around(start, start + 1) != clause:
                continue  # a stage's comparison, or words read across a clause break ("half the traffic -- the half saved")
            every = sorted((a, b, c) for w, c in COLLECTIVE_WORDS if w != "gather" for a, b in sentence.spans(w))
            named = [(a, b, c) for a, b, c in every if clause[0] <= a < clause[1]]
            before = [(a, b, c) for a, b, c in named if max(clause[0], start - COMPARED_REACH) <= a and b <= end] or _relative_antecedent(sentence, clause, every)
            summed = len(before) > 1 and sentence.book.ledger.joiner.search(sentence.text, before[0][1], before[1][0])
            if not before or summed:
                continue  # "RS + AG has the same α and β terms as one all-reduce": a sum compared, no one collective
            subject = before[0]
            compared = [c for a, b, c in named if c != subject[2] and (end <= a <= end + COMPARED_REACH or (
                subject[1] <= a < end and sentence.book.word("compared_with").search(sentence.text, max(subject[1], a - 6), a)))]
            if not compared:
                continue
            yield Claim(subject[2], "volume", _compared_value(sentence, relation, start, end), start, end, relation, compared[0])
    for start, end in sentence.spans("each_like_ar"):
        yield Claim("each collective", "volume", "all-reduce", start, end, "same-as", "all-reduce")


def _relative_antecedent(sentence: PreparedSentence, clause: tuple[int, int], collectives: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The collective a relative clause refers back to ("a gradient reduce-scatter, which costs the same as an
    all-reduce"): the one that ends the text right before the clause's "which"."""
    opener = sentence.book.structure["relative_opener"].search(sentence.text, clause[0], min(clause[1], clause[0] + RELATIVE_REACH))
    if opener is None:
        return []
    return [(a, b, c) for a, b, c in collectives if 0 <= clause[0] - b <= RELATIVE_REACH][-1:]


def _ledger(sentence: PreparedSentence) -> Iterator[Claim]:
    """Each collective given a Ψ of its own, and each sum of collectives given a total."""
    ledger = sentence.book.ledger
    text = sentence.text
    ledgers = ledger.ledgers(text)
    tails = {lg.parts[-1] for lg in ledgers}
    summed = {  # "RS + AG 2Ψ": a value only beside the last part, as large as the sum, is the sum's
        lg.parts[-1] for lg in ledgers
        if lg.total is None and all(p.value is None for p in lg.parts[:-1]) and (lg.parts[-1].value or 0) >= len(lg.parts)
    }
    for part in ledger.parts(text):
        if part.value is not None and part.count and (part.beside or part not in tails) and part not in summed:
            yield Claim(part.collective, "volume", part.value / part.count, part.start, part.end)
    before = [p.collective for p in ledger.parts(sentence.previous_text) for _ in range(p.count or 1)] if ledgers else []
    earlier = frozenset({"earlier:" + ",".join(before)}) if before else frozenset()
    for lg in ledgers:
        yield from _parallel_values(lg, text)
        last = lg.parts[-1]
        # The value after the last part, past a verb ("RS + AG is 4Ψ") or beside it, when no other part has one ("RS + AG
        # 2Ψ", not "RS moves Ψ and AG moves Ψ"), is the sum's, unless an addition goes on after it.
        sole = last in summed and last.beside
        verbed = not last.beside and all(p.value is None for p in lg.parts[:-1]) and sentence.book.word("sum_verb").search(text, last.start, last.end)
        said = last.value if (sole or verbed) and not _CONTINUED.match(text, last.end) else None
        total = lg.total if lg.total is not None else said
        if lg.total is not None and len(lg.parts) == 1 and text.rstrip().endswith(";"):
            continue  # "3Ψ 来自：前向 all-gather（Ψ）；…": the heading's list goes on past the semicolon
        if total is not None and all(p.count is not None for p in lg.parts):
            parts = tuple((p.collective, p.count) for p in lg.parts)
            yield Claim("ledger", "volume", (total, parts), lg.start, lg.end, flags=earlier)
        if total is None:
            continue  # a list of collectives with no total is no volume ledger ("…all-gather 回来，两段加起来正好是 all-reduce 的量")
        clause = sentence.clause_around(lg.start, lg.end)
        owner = sentence.subject(clause, lg.start)
        for part in lg.parts:
            if owner is not None:
                yield Claim(owner, "step", (part.collective, None, None, False, None), part.start, part.end, flags=frozenset({"in-ledger"}))


def _reasoned_values(sentence: PreparedSentence) -> Iterator[Claim]:
    """A collective's value concluded after the clause that explains it ("reduce-scatter 要先 reduce 再 scatter，两步所以是
    2Ψ"): the collective's own, which the ledger's short reach past a comma does not take."""
    reasoned = sentence.book.word("reasoned_value_after")
    for word, collective in COLLECTIVE_WORDS:
        for start, end in sentence.spans(word) if word != "gather" else ():
            found = reasoned.match(sentence.text, end)
            if found:
                yield Claim(collective, "volume", float(found.group("value") or 1), start, found.end())


def _parallel_values(lg: Ledger, text: str) -> Iterator[Claim]:
    """Values listed after a sum in the order of its parts ("RS plus AG costs 2Ψ + 2Ψ"): each part's own."""
    last = lg.parts[-1]
    if last.beside or last.value is None:
        return
    values = [last.value] + [float(m.group(1) or 1) for m in _MORE_VALUES.finditer(text, last.end, last.end + 40)]
    values = values[: 1 + len(list(_takewhile_adjacent(text, last.end)))]
    if len(values) == len(lg.parts) > 1:
        for part, value in zip(lg.parts, values):
            if part.count:
                yield Claim(part.collective, "volume", value / part.count, part.start, part.end)


def _takewhile_adjacent(text: str, position: int) -> Iterator[re.Match[str]]:
    """The "+ kΨ" values that follow `position` one right after another."""
    for m in _MORE_VALUES.finditer(text, position, position + 40):
        if m.start() != position:
            return
        yield m
        position = m.end()


def _per_rank(sentence: PreparedSentence) -> Iterator[Claim]:
    """Volumes that do not exist per rank: a collective moving only Ψ/N_d (or a whole Ψ plus a Ψ/N_d), or N_d·Ψ, or a
    volume growing or shrinking with N_d, or one multiplied by the number of layers."""
    words = ["per_shard_volume", "rank_scaled_volume", "volume_grows", "volume_shrinks", "layer_scaled_volume"]
    if sentence.has("op") or sentence.book.word("op").search(sentence.previous_text):
        words.append("per_shard_total")  # "RS 只收 Ψ/N_d，AG 只发 Ψ/N_d，所以 total 是 2Ψ/N_d"; "The parts are … so ZeRO-3 is 3Ψ/N_d"
    if sentence.has("comm") or _total_after_traffic(sentence, sentence.book.word("comm")):
        words.append("whole_plus_shard_volume")  # "the step costs Ψ + Ψ/N_d", "…all-gathers Ψ/N_d. Total ≈ Ψ + Ψ/N_d"
    for word in words:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(end - 1, end)  # the value's clause ("RS 每卡只收到 Ψ/N_d，AG 也只发 Ψ/N_d": the last)
            if sentence.has(f"not_{word}", *clause):
                continue
            inside = _named_inside(sentence, start, end)  # "是 DDP 的 N_d 倍": DDP is compared with
            subject = _outside(sentence, sentence.subject(clause, start), inside, start) or "ledger"
            if subject in sentence.book.others:
                continue
            yield Claim(subject, "volume", PER_RANK_VOLUMES[word], start, end)


def _named_inside(sentence: PreparedSentence, start: int, end: int) -> list[str]:
    """The stages named within `start:end` (no other axis or technique)."""
    return [m.stage for m in sentence.mentions if start <= m.start < end and m.stage not in sentence.book.others]


def _outside(sentence: PreparedSentence, subject: str | None, inside: list[str], start: int) -> str | None:
    """`subject`, unless it is a stage named inside the comparison starting at `start`: then the last stage named before
    it that is no reference, or the sentence's topic ("整体通信是 DDP 的一半": the stage inside is the one compared with)."""
    if subject not in inside:
        return subject
    return next((m.stage for m in reversed(sentence.mentions) if m.end <= start and m.stage not in inside and not m.reference), sentence.topic)


def _values_as_bytes(sentence: PreparedSentence) -> Iterator[Claim]:
    """Volumes in GB for the model size and half precision the answer has named: a count of values given as its size in
    GB ("7B model in BF16: ZeRO-1 moves 2Ψ = 14 GB", two bytes a value, so 28 GB), a collective's traffic ("the
    reduce-scatter moves ~14 GB"), and a stage's traffic given in GB alone ("ZeRO-3 costs ~21 GB of traffic", "通信账：ZeRO-2
    每步 42 GB"), for the judge to hold against their volumes. A stage's figure that may be one of its parts counts only
    with the size named in this sentence or the one before."""
    text = sentence.text
    setting = sentence.setting.updated(sentence.book, text)
    if setting.billions is None or not setting.half:
        return
    billions = setting.billions
    named_near = sentence.has("half_precision") and bool(sentence.has("model_size") or sentence.book.word("model_size").search(sentence.previous_text))
    for figure in sentence.book.word("psi_in_gb").finditer(text):
        coefficient, gigabytes = float(figure.group(1)), float(figure.group(2))
        if coefficient >= MEMORY_SIZED or abs(gigabytes - coefficient * billions) > 0.05 * gigabytes:
            continue
        if sentence.has("state_noun", figure.end(), figure.end() + STATE_AFTER_FIGURE) \
                or sentence.book.word("state_before_figure").search(text, max(0, figure.start() - STATE_AFTER_FIGURE), figure.start()):
            continue  # "2Ψ = 140 GB of bf16 grads", "省的是 gradient：2Ψ = 140 GB": the memory a state takes, in bytes
        clause = sentence.clause_around(figure.start(), figure.end())
        owner = sentence.subject(clause, figure.start())
        if owner is not None and owner not in sentence.book.others:
            yield Claim(owner, "volume", VALUES_AS_BYTES, figure.start(), figure.end())
    for figure in sentence.book.word("traffic_gb").finditer(text):
        factor = sentence.book.word("product_factor")
        if factor.search(text, max(0, figure.start() - 2), figure.start()) or factor.match(text, figure.end()):
            continue  # "2×(7/8)×14 GB": a factor of a product, not a figure of its own
        clause = sentence.clause_around(figure.start(), figure.end())
        collective = _collective_before(sentence, clause, figure.start())
        if collective is not None:  # "the reduce-scatter moves ~14 GB": the collective's figure, not its stage's
            yield Claim(collective, "volume", TrafficInGB(float(figure.group(1)), billions, whole=True), figure.start(), figure.end())
            continue
        owner = sentence.subject(clause, figure.start(), QUANTITY_REACH)
        about_traffic = any(sentence.has(word, *clause) for word in ("comm_noun", "comm_verb"))
        if owner is not None and owner not in sentence.book.others and (about_traffic or _traffic_heading(sentence, figure.start())):
            traffic = TrafficInGB(float(figure.group(1)), billions, _whole_step_figure(sentence, clause, owner, figure.start(), figure.end()))
            if traffic.whole or named_near:
                yield Claim(owner, "volume", traffic, figure.start(), figure.end())


def _collective_before(sentence: PreparedSentence, clause: tuple[int, int], position: int) -> str | None:
    """The collective a figure at `position` is said of: the last one before it in its clause, with only a verb or a
    hedge between (the cue book's `collective_figure_gap`: "RS 约 14 GB", "the all-gather moves about 14 GB"), and not the
    second of a pair summed ("RS+AG 约 28 GB")."""
    ops = [(a, b) for a, b in sentence.spans("op") if clause[0] <= a and b <= position]
    if not ops or not sentence.book.word("collective_figure_gap").fullmatch(sentence.text, ops[-1][1], position):
        return None
    if len(ops) > 1 and sentence.book.word("collective_sum_gap").fullmatch(sentence.text, ops[-2][1], ops[-1][0]):
        return None  # "RS+AG 约 28 GB": the pair's figure, the stage's step
    named = sentence.text[ops[-1][0] : ops[-1][1]]
    return next((c for w, c in COLLECTIVE_WORDS if sentence.book.word(w).fullmatch(named)), None)


def _whole_step_figure(sentence: PreparedSentence, clause: tuple[int, int], owner: str, start: int, end: int) -> bool:
    """Whether a GB figure is its stage's whole step: the stage is the last one named before it in the clause, or the
    clause is the figure said as a total ("合计 56 GB", "in total ~42 GB"); none is named right after it in the clause;
    and the clause has no Ψ it converts ("DDP 的 2Ψ（约 28 GB）"), no comparison, part or extra ("versus 28 GB for DDP"),
    nor a collective unless it is a total's part."""
    text = sentence.text
    before = [m for m in sentence.mentions if clause[0] <= m.start and m.end <= start]
    after = [m for m in sentence.mentions if end <= m.start <= min(end + QUANTITY_REACH, clause[1])]
    item = max(clause[0], *(text.rfind(mark, clause[0], start) + 1 for mark in ",;:"))  # "…, RS 14 GB, in total 56 GB"
    summed = not before and bool(sentence.book.word("total_figure_before").fullmatch(text, item, start))
    if not (summed or before and before[-1].stage == owner) or after or "ψ" in text[clause[0] : clause[1]]:
        return False
    parts = ("compared_figure", "not_total", "extra") if summed else ("compared_figure", "op", "not_total", "extra")
    return not any(sentence.has(word, *clause) for word in parts)


def _traffic_heading(sentence: PreparedSentence, position: int) -> bool:
    """Whether the figure at `position` follows a heading about traffic that ends in a colon ("7B 模型的通信账（BF16）：DDP
    每步 28 GB，ZeRO-2 每步 42 GB"): the items listed after it are traffic."""
    colon = sentence.text.find(":", 0, position)
    return colon >= 0 and sentence.has("comm_noun", 0, colon) and not sentence.has("memory_noun", 0, colon)


def _about_variant(sentence: PreparedSentence) -> bool:
    """Whether the sentence is about a ZeRO-3 variant that keeps parameters between the passes (reshard_after_forward=False,
    SHARD_GRAD_OP): it names one, or, naming no stage of its own, goes on from a sentence that did ("设成 False 就…回到 2Ψ")."""
    if sentence.has("zero3_variant"):
        return True
    return not sentence.names_stage() and bool(sentence.book.word("zero3_variant").search(sentence.previous_text))
