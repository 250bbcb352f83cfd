"""Read what a sentence says a stage or a collective communicates: stated totals, comparisons with another stage, the
ledger of collectives and their sums, the collectives a stage runs, and volumes per shard or growing with N_d."""
from __future__ import annotations

import re
from collections.abc import Iterator

from autograde.veto.claims import Claim, Relation
from autograde.veto.ledger import Ledger
from autograde.veto.prepared import PreparedSentence
from autograde.veto.stages import changed_to

MEMORY_SIZED = 10
"""A multiple of Ψ this large is a memory size (12Ψ of Adam states, 16Ψ in all), not what a step moves."""
REPLACED_REACH = 16
"""Characters around a collective within which a word says it is replaced or decomposed."""
COMPARED_REACH = 24
"""Characters after a comparison within which a collective is what it compares with ("half the traffic of an all-reduce")."""
QUANTITY_REACH = 16
"""A stage named after a quantity owns it only when close ("2Ψ for DDP"), not anywhere later in the clause."""
STEP_REACH = 32
"""Characters between a collective and the state it carries."""
PHASE_REACH = 48
"""Characters between a collective and the phase it runs at ("all-gather of the updated parameters after the optimizer step")."""
COMPARISONS: tuple[tuple[str, Relation], ...] = (("comm_more", "more-than"), ("comm_less", "less-than"), ("comm_same", "same-as"), ("comm_ratio", "ratio-to"))
"""Word classes that compare a stage's volume with another's, and the relation each states."""
_RATIO = re.compile(r"(\d+(?:\.\d+)?)x|\bhalf\b")
_PHASES = (("phase_update", "after-update"), ("phase_forward", "forward"), ("phase_backward", "backward"))
"""Word classes that say when a collective runs, and the phase of facts.yaml each names."""
_CONTINUED = re.compile(r"\s*[+=]")
_SEPARATOR = re.compile(r"[,;]")
_PHASE_LEAD = re.compile(r"\s*,\s*(?:(?:then|an?|the|one|再|然后|接着|做|进行|一次|1次)\s*)*")
"""Between a phase ending one clause and the collective opening the next ("after the optimizer step, an all-gather")."""
_FRONTED_NEXT = re.compile(r"\s*,\s*(?:把|将)\s*(?:各卡的?|所有的?|全量的?|完整的?|全部的?)?\s*")
_OWNED_BY = re.compile(r"\s*(?:的|'s)?\s*(?:约|about|~|≈)?\s*")
OWNER_REACH = 6
"""Characters between a stage and a value right after it that the stage owns ("DDP 的 2Ψ")."""
_SUM_VERB = re.compile(r"\b(?:is|are|costs?|moves?|sends?|comes? to|totals?)\b|是|为|共|合计|总共|一共")
"""Between the last part of a sum and a value after it: the value is what the sum comes to ("RS + AG is 4Ψ")."""
_MORE_VALUES = re.compile(r"\s*\+\s*(\d+(?:\.\d+)?)?ψ(?![\w/])")
_FILLER = re.compile(r"\s*(?:一次|1次|一个|1个|the|an?|one)?\s*(?:的)?\s*")
"""What may stand between a modifier and its collective ("额外一次的 all-reduce", "needs an all-gather")."""
_LISTED_AFTER = re.compile(r"\s*(?:和|与|加|\+|\band\b|\bplus\b|、|,)\s*(?:一次|1次|an?|one)?\s*(?:all-|reduce-|rs\b|ag\b|ar\b)")
_OWNED_AFTER = re.compile(r"\s*(?:的|'s\b)")
"""After a collective: it owns what follows ("只有 AR 的 1/2"), so it is no object of "only runs"."""
_ONLY_FILLER = re.compile(r"\s*(?:需要?|要|有|用|做|进行|needs?|requires?|does|uses?|has)?\s*(?:一次|1次|一个|1个|the|an?|one)?\s*(?:的)?\s*")
"""What may stand between "only" and the one collective a stage is said to run ("只需要一次 reduce-scatter", "only needs a RS")."""
_NUMBERS = {"two": 2, "twice": 2, "three": 3}
_COLLECTIVE_WORDS = (("ag", "all-gather"), ("gather", "all-gather"), ("rs", "reduce-scatter"), ("ar", "all-reduce"), ("broadcast", "broadcast"))
"""Word classes of the collectives and their names in facts.yaml (a broadcast is in no stage's ledger)."""


def volume_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Every claim of `sentence` about communication volume."""
    comm = sentence.book.word("comm")
    if comm.search(sentence.text) or comm.search(sentence.previous_question):
        if "ψ" in sentence.text:
            yield from _totals(sentence)
        yield from _comparisons(sentence)
        yield from _collective_comparisons(sentence)
    if "ψ" in sentence.text:
        yield from _ledger(sentence)
    yield from _steps(sentence)
    if "n_d" in sentence.text:
        yield from _per_rank(sentence)


def _totals(sentence: PreparedSentence) -> Iterator[Claim]:
    """Stated totals of Ψ, each owned by the stage it is given for; a value beside another of the same stage is
    flagged with it (from 2Ψ to 3Ψ is a correction unless the first is marked as the sum)."""
    text, quantities = sentence.text, sentence.book.quantities
    owned = []
    for q in quantities.totals(text):
        if q.coefficient >= MEMORY_SIZED:
            continue
        clause = sentence.clause_around(q.start, q.end)
        sole = _sole_total(sentence, clause, q.start)
        marked = sole if q.coefficient == 1 else quantities.marked_total(text, q.start, q.end) or sole  # a bare Ψ is one collective's unless "only"
        owner = changed_to(text, q.start) or _named_right_before(sentence, q.start) or sentence.subject(clause, q.start, QUANTITY_REACH, marked)
        if owner is None or owner in sentence.book.others or sentence.has("not_total", *clause):
            continue
        if owner == "zero3" and sentence.has("zero3_variant"):
            continue  # FSDP without resharding after forward moves 2Ψ by design
        if q.coefficient == 2 and sentence.has("ar_identity"):
            continue  # "RS + AG = 2Ψ = AR": the all-reduce's volume, not the stage's
        owned.append((q, owner, marked))
    for q, owner, marked in owned:
        beside = frozenset(f"beside:{other.coefficient:g}" for other, o, _ in owned if o == owner and other.coefficient != q.coefficient)
        yield Claim(owner, "volume", q.coefficient, q.start, q.end, marked=marked, flags=beside)


def _named_right_before(sentence: PreparedSentence, start: int) -> str | None:
    """The stage named right before a value, compared with or not ("vs DDP 2Ψ", "DDP 的 2Ψ", "DDP's 2Ψ"): its owner."""
    for mention in sentence.mentions:
        if 0 <= start - mention.end <= OWNER_REACH and _OWNED_BY.fullmatch(sentence.text, mention.end, start):
            return mention.stage
    return None


def _sole_total(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> bool:
    """Whether a bare Ψ is said to be the stage's whole total ("only needs Ψ per step", "通信量为 Ψ", "which costs Ψ") in
    a clause that names no collective it could belong to, nor one part of several ("each of the three costs Ψ")."""
    return (
        bool(sentence.book.word("sole_total_before").search(sentence.text, max(clause[0], start - 40), start))
        and not sentence.has("op", *clause)
        and not sentence.has("per_part", *clause)
    )


def _comparisons(sentence: PreparedSentence) -> Iterator[Claim]:
    """A stage's volume compared with another stage's: more, less, the same, or a multiple."""
    for word, relation in COMPARISONS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            subject = sentence.subject(clause, start)
            if subject is None or subject in sentence.book.others or sentence.has("not_stage_volume", clause[0], end):
                continue
            if relation != "same-as" and sentence.has_unexcluded("op", end, min(clause[1], end + COMPARED_REACH)):
                continue  # "half the traffic of an all-reduce" compares with a collective, not a stage
            if relation in ("less-than", "ratio-to") and sentence.has("comm_same") and word != "comm_same":
                continue  # "halves this step, the total stays the same": the ratio is a part's
            others = [m.stage for m in sentence.mentions if clause[0] <= m.start < clause[1] and m.reference and m.stage != subject]
            if relation == "same-as" and not others:  # "ZeRO-2 和 ZeRO-3 一样", "no difference between ZeRO-2 and ZeRO-3"
                others = sorted(sentence.subjects.between(clause[0], clause[1], but=subject) - sentence.book.others)
            if relation == "same-as" and not others:
                continue  # "stays the same" says nothing about another stage ("per-rank volume stays 3Ψ as N_d grows")
            if not others and _prompt_comparison(sentence, clause, subject):
                continue  # the prompt's "reduce-scatter is twice as fast as all-reduce" compares two collectives
            value: object = relation
            if relation == "ratio-to":
                ratio = _RATIO.search(sentence.text, start, end)
                value = 0.5 if ratio is None or ratio.group(1) is None else float(ratio.group(1))
            for other in others or [None]:
                yield Claim(subject, "volume", value, start, end, relation, other)


def _prompt_comparison(sentence: PreparedSentence, clause: tuple[int, int], subject: str) -> bool:
    """Whether a comparison may be the prompt's of one reduce-scatter with one all-reduce (made or quoted): made in its
    clause, or in a sentence that does not name the stage compared ("快两倍就是数据量减半")."""
    if not sentence.has("rs_vs_ar"):
        return False
    return sentence.has("rs_vs_ar", *clause) or all(m.stage != subject for m in sentence.mentions)


def _collective_comparisons(sentence: PreparedSentence) -> Iterator[Claim]:
    """One collective's volume compared with another's ("RS 的通信量和 AR 一样", "a reduce-scatter moves the same as an
    all-reduce", "each as large as an all-reduce"): the first named right before the comparison, the other right after
    it or between them after a comparing word ("和", "than", "as")."""
    for word, relation in COMPARISONS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            if sentence.subjects.first_from(clause[0], clause[1]) is not None:
                continue
            named = sorted((a, b, c) for w, c in _COLLECTIVE_WORDS if w != "gather" for a, b in sentence.spans(w) if clause[0] <= a < clause[1])
            before = [(a, b, c) for a, b, c in named if max(clause[0], start - COMPARED_REACH) <= a and b <= end]
            if not before:
                continue
            subject = before[0]
            compared = [c for a, b, c in named if c != subject[2] and (end <= a <= end + COMPARED_REACH or (
                subject[1] <= a < end and sentence.book.word("compared_with").search(sentence.text, max(subject[1], a - 6), a)))]
            if not compared:
                continue
            value: object = relation
            if relation == "ratio-to":
                ratio = _RATIO.search(sentence.text, start, end)
                value = 0.5 if ratio is None or ratio.group(1) is None else float(ratio.group(1))
            yield Claim(subject[2], "volume", value, start, end, relation, compared[0])
    for start, end in sentence.spans("each_like_ar"):
        yield Claim("each collective", "volume", "all-reduce", start, end, "same-as", "all-reduce")


def _ledger(sentence: PreparedSentence) -> Iterator[Claim]:
    """Each collective given a Ψ of its own, and each sum of collectives given a total."""
    ledger = sentence.book.ledger
    text = sentence.text
    ledgers = ledger.ledgers(text)
    tails = {lg.parts[-1] for lg in ledgers}
    for part in ledger.parts(text):
        if part.value is not None and part.count and (part.beside or part not in tails):
            yield Claim(part.collective, "volume", part.value / part.count, part.start, part.end)
    for lg in ledgers:
        yield from _parallel_values(lg, text)
        last = lg.parts[-1]
        # The value after the last part, past a verb ("RS + AG is 4Ψ"), is the sum's, unless an addition goes on after it.
        said = last.value if not last.beside and _SUM_VERB.search(text, last.start, last.end) and not _CONTINUED.match(text, last.end) else None
        total = lg.total if lg.total is not None else said
        if total is not None and all(p.count is not None for p in lg.parts):
            parts = tuple((p.collective, p.count) for p in lg.parts)
            yield Claim("ledger", "volume", (total, parts), lg.start, lg.end)
        if total is None:
            continue  # a list of collectives with no total is no volume ledger ("…all-gather 回来，两段加起来正好是 all-reduce 的量")
        clause = sentence.clause_around(lg.start, lg.end)
        owner = sentence.subject(clause, lg.start)
        for part in lg.parts:
            if owner is not None:
                yield Claim(owner, "step", (part.collective, None, None, False, None), part.start, part.end, flags=frozenset({"in-ledger"}))


def _replaced(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the collective is named as what another replaces or splits into ("instead of an all-reduce", "把 AR 换成
    RS + AG", "all-reduce = RS + AG"), not as a step the stage runs."""
    text = sentence.text
    return bool(
        sentence.book.word("replaced_before").search(text, max(clause[0], start - REPLACED_REACH), start)
        or sentence.book.word("replaced_after").match(text, end, min(clause[1], end + REPLACED_REACH))
    )


def _sole_collective(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the clause says the stage runs only this collective ("只需要一次 reduce-scatter", "only needs a RS"): "only"
    right before it, not a comparison ("比起只做 RS"), not "merely" (只是), not one of a list, not what can be hidden."""
    text = sentence.text
    for a, b in sentence.spans("only_runs"):
        if max(clause[0], start - 14) <= a and b <= start and _ONLY_FILLER.fullmatch(text, b, start):
            return not (
                sentence.has("step_capability", *clause)
                or sentence.book.word("compared_before").search(text, max(clause[0], a - 8), a)
                or _LISTED_AFTER.match(text, end)
                or _OWNED_AFTER.match(text, end)
            )
    return False


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


def _steps(sentence: PreparedSentence) -> Iterator[Claim]:
    """The collectives a stage is said to run: what each carries, when it runs, whether it is an extra one, or that the
    stage uses it at all ("ZeRO-3 also needs an all-reduce", "ZeRO-1 的 all-gather 传的是梯度", "优化器更新后 all-gather")."""
    text = sentence.text
    for word, collective in _COLLECTIVE_WORDS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            subject = sentence.subject(clause, start)
            if subject is None or subject in sentence.book.others or sentence.has("not_a_step", *clause) or _replaced(sentence, clause, start, end):
                continue
            if word != "gather" and _sole_collective(sentence, clause, start, end):
                named = frozenset(f"names:{c}" for w, c in _COLLECTIVE_WORDS if c != collective and sentence.has(w))
                yield Claim(subject, "step", (collective, None, None, False, None), start, end, exact=True, flags=named)
                continue
            carries = _carries(sentence, clause, start, end)
            when = _when(sentence, clause, start, end)
            extra = _near_before(sentence, "extra", clause, start, 10)
            uses = _near_before(sentence, "uses", clause, start, 12) and not sentence.has("not_a_use")
            count = _count(sentence, start)
            if carries is None and when is None and not extra and not uses and count is None:
                continue
            counted = sentence.has("volume_part", *clause) or sentence.has("volume_head", 0, start)
            flags = {"counted"} if carries == "activations" and counted else set()
            if sentence.has("qualifies_use", *clause):
                flags.add("qualified")
            yield Claim(subject, "step", (collective, carries, when, extra, count), start, end, flags=frozenset(flags))
    yield from _sources(sentence)


def _sources(sentence: PreparedSentence) -> Iterator[Claim]:
    """Where a part of a stage's volume is said to come from ("the third Ψ comes from the optimizer step", "多出来的 Ψ
    是因为梯度也切了", "optimizer step 也需要同步"), read as an extra step carrying that state or run at that phase."""
    if "ψ" not in sentence.text and not sentence.has("optimizer"):
        return
    for start, end in sentence.spans("volume_source"):
        clause = sentence.clause_around(start, end)
        subject = sentence.subject(clause, start)
        if subject is None or subject in sentence.book.others:
            continue
        carries = _carries(sentence, clause, start, end, reach=48)
        when = _when(sentence, clause, start, end, reach=48, inside=True)
        collective = next((c for w, c in _COLLECTIVE_WORDS if sentence.has(w, start, min(clause[1], end + 48))), None)
        if carries is None and when is None and collective is None:
            continue
        extra = sentence.has("extra_psi", start, end)
        yield Claim(subject, "step", (collective, carries, when, extra, None), start, end, flags=frozenset({"source"}))


def _carries(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int, reach: int = STEP_REACH) -> str | None:
    """The state a collective moves: named right after it ("all-gather the gradients", "AG 梯度", "all-gather of
    activations") or fronted ("把梯度 all-gather"), with no reason, negation or other collective between."""
    text = sentence.text
    best: tuple[int, str] | None = None
    phases = sentence.spans("phase_update")
    for word_class, states in (("parameters", "parameters"), ("gradients", "gradients"), ("optimizer", "optimizer"), ("activations", "activations")):
        for a, b in sentence.spans(word_class):
            if any(p0 <= a < p1 for p0, p1 in phases):
                continue  # "optimizer" in "the optimizer update" names when, not what
            if clause[0] <= a and b <= clause[1] and end <= a <= end + reach:
                between = text[end:a]
            elif end <= a <= end + reach and _FRONTED_NEXT.fullmatch(text, end, a):
                between = ""  # "reduce-scatter，把全量参数…": the clause after the collective says what it moves
            elif clause[0] <= a and b <= start and start - b <= 12 and sentence.book.word("fronted").search(text, max(clause[0], a - 32), a):
                between = text[b:start]
            elif clause[0] <= a and b <= start and start - b <= 32 and sentence.book.word("passive_before").search(text, b, start):
                between = ""  # "the optimizer shards, which must be broadcast": the state is the passive subject
            else:
                continue
            if sentence.book.word("carry_blockers").search(between) or sentence.book.stance.negated_before(text, a):
                continue
            if sentence.book.word("named_as_sharded").match(text, b):
                continue  # "为了配合优化器状态分片": the state is what is sharded, not what is moved
            distance = abs(a - end)
            if best is None or distance < best[0]:
                best = (distance, states)
    return best[1] if best else None


def _when(
    sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int, reach: int = PHASE_REACH, inside: bool = False
) -> str | None:
    """The phase a collective is said to run at ("优化器更新后", "after the optimizer step", "前向", "in the backward"),
    the nearest one in the clause (or, for a stated source, one inside it: "the optimizer step needs a sync")."""
    text = sentence.text
    ops = [span for span in sentence.spans("op") if span != (start, end)]

    def gap(o0: int, o1: int, a: int, b: int) -> float:
        """How far a collective at o0:o1 is from a phase at a:b; infinite for a phase past a comma after it (such a
        phase opens what follows: "RS，以及优化器 step 之后把新参数 AG", "after the optimizer step, an all-gather")."""
        if o1 <= a:
            return float("inf") if _SEPARATOR.search(text, o1, a) else a - o1
        return max(0, o0 - b)

    found = [
        (distance, phase)
        for word, phase in _PHASES
        for a, b in sentence.spans(word)
        if (clause[0] <= a < clause[1] or (b <= start and _PHASE_LEAD.fullmatch(text, b, start))) and (0 <= start - b <= reach or 0 <= a - end <= reach or (inside and start <= a < end))
        for distance in [0 if start <= a < end else gap(start, end, a, b)]
        if distance != float("inf") and not any(gap(o0, o1, a, b) < distance for o0, o1 in ops)  # nearer another collective: its
    ]
    return min(found)[1] if found else None


def _near_before(
    sentence: PreparedSentence, word: str, clause: tuple[int, int], position: int, reach: int, filler: re.Pattern[str] | None = None
) -> bool:
    """Whether the word class ends right before `position` ("额外一次 all-reduce", "needs an all-gather"), in the clause."""
    low = max(clause[0], position - reach)
    filler = filler or _FILLER
    return any(low <= a and b <= position and filler.fullmatch(sentence.text, b, position) for a, b in sentence.spans(word))


def _count(sentence: PreparedSentence, start: int) -> int | None:
    """How many times a collective is said to run ("2次 reduce-scatter", "two reduce-scatters"), when more than once."""
    for m in sentence.book.word("collective_count").finditer(sentence.text, max(0, start - 16), start):
        if m.end() == start or not sentence.text[m.end() : start].strip():
            number = next(g for g in m.groups() if g)
            times = _NUMBERS.get(number) or int(number)
            return times if times > 1 else None
    return None


def _per_rank(sentence: PreparedSentence) -> Iterator[Claim]:
    """Volumes that do not exist per rank: a collective moving only Ψ/N_d, or N_d·Ψ, or a volume growing with N_d."""
    for word, value in (("per_shard_volume", "Ψ/N_d"), ("rank_scaled_volume", "N_d·Ψ"), ("volume_grows", "growing with N_d")):
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            if sentence.has(f"not_{word}", *clause):
                continue
            subject = sentence.subject(clause, start) or "ledger"
            if subject in sentence.book.others:
                continue
            yield Claim(subject, "volume", value, start, end)
