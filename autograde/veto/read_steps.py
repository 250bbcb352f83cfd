"""Read the collectives a sentence says a stage runs: what each carries, when it runs, whether it is one more than the
stage before runs, how often, the only one, or where a part of the volume comes from."""
from __future__ import annotations

import re
from collections.abc import Iterator

from autograde.veto.claims import Claim
from autograde.veto.ledger import NUMBER_WORDS
from autograde.veto.prepared import PreparedSentence

LIST_REACH = 12
"""Characters before a collective within which another collective and a joiner make it an item of a list."""
REPLACED_REACH = 24
"""Characters around a collective within which a word says it is replaced or decomposed."""
MODIFIER_REACH = 14
"""Characters before a collective within which "extra", "uses" or "only" modifies it."""
USE_REACH = 32
"""Characters before a collective within which a verb says the stage runs it ("does the usual gradient all-reduce")."""
STEP_REACH = 32
"""Characters between a collective and the state it carries."""
PHASE_REACH = 48
"""Characters between a collective and the phase it runs at ("all-gather of the updated parameters after the optimizer step")."""
SOURCE_REACH = 48
"""Characters after a stated source of volume ("the third Ψ comes from") within which its state, phase or collective is named."""
INSERTED_REACH = 24
"""Characters before a phase within which a verb names it as inserted between collectives."""
COLLECTIVE_WORDS = (("ag", "all-gather"), ("gather", "all-gather"), ("rs", "reduce-scatter"), ("ar", "all-reduce"), ("broadcast", "broadcast"))
"""Word classes of the collectives and their names in facts.yaml (a broadcast is in no stage's ledger)."""
_PHASES = (("phase_update", "after-update"), ("phase_forward", "forward"), ("phase_backward", "backward"))
"""Word classes that say when a collective runs, and the phase of facts.yaml each names."""
_STATES = ("parameters", "gradients", "optimizer", "activations")
"""Word classes of the states a collective can carry, named as in facts.yaml."""
_SEPARATOR = re.compile(r"[,;]")


def step_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """The collectives a stage is said to run: what each carries, when it runs, whether it is an extra one, or that the
    stage uses it at all ("ZeRO-3 also needs an all-reduce", "ZeRO-1 的 all-gather 传的是梯度", "优化器更新后 all-gather")."""
    for word, collective in COLLECTIVE_WORDS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            subject = _possessor(sentence, clause, start) or sentence.subject(clause, start)
            if subject is None or subject in sentence.book.others or sentence.has("not_a_step", *clause) or _replaced(sentence, clause, start, end):
                continue
            if _described(sentence, clause, start, end):
                continue
            if collective == "broadcast" and (
                sentence.book.word("broadcast_by_gather").search(sentence.text, max(0, start - MODIFIER_REACH * 2), start)
                or sentence.book.word("collective_named_after").match(sentence.text, end)
            ):
                continue  # "补一个 AG（≈Ψ）广播新参数", "AG：把更新后的参数广播回去", "参数要广播给所有人：all-gather": the collective's verb
            if sentence.has("prefetch_talk") and not sentence.names_stage():
                continue
            if collective == "all-reduce" and (sentence.has("hybrid_shard") or sentence.has("cross_node", *clause) or sentence.book.word("hybrid_shard").search(sentence.previous_text)):
                continue  # hybrid sharding (named here or just before, or its all-reduce between nodes) replicates by design
            if collective == "all-reduce" and sentence.has("rs_vs_ar"):
                continue  # "“RS 比 AR 快两倍”的意思是 … AR 必须等反向结束": the prompt's two collectives compared, no step of the stage
            if sentence.dated(start, clause[0]):
                continue  # "after the reduce-scatter and the local Adam step, …": the collective dates what follows
            if sentence.book.word("time_anchor_after").match(sentence.text, end):
                continue  # "all-reduce 之后的梯度": the collective dates a state
            if word != "gather" and _sole_collective(sentence, clause, start, end):
                named = frozenset(f"names:{c}" for c in sentence.answer_collectives if c != collective)
                yield Claim(subject, "step", (collective, None, None, False, None), start, end, exact=True, flags=named)
                continue
            carries = _carries(sentence, clause, start, end)
            if carries != "activations" and sentence.has("prefetch_talk") and not sentence.names_stage(0, clause[1]):
                continue  # "the two all-gathers only need parameters, so FSDP issues them one layer ahead": ZeRO-3's steps
            when = _when(sentence, clause, start, end)
            extra = _near_before(sentence, "extra", clause, start, MODIFIER_REACH)
            uses = _near_before(sentence, "uses", clause, start, USE_REACH) and not sentence.has("not_a_use")
            count = _count(sentence, start)
            if carries is None and when is None and not extra and not uses and count is None:
                continue
            if uses and carries is None and when is None and not extra and count is None and _about_activations(sentence):
                continue  # "activation 不 redundant，shard 了也没法用 all-gather 还原": a use for activations, no stage's step
            flags = {"counted"} if carries == "activations" and _counted(sentence, clause, start) else set()
            if sentence.has("qualifies_use", *clause):
                flags.add("qualified")
            if _in_a_sum(sentence, start):
                flags.add("in-ledger")  # "有人以为 ZeRO-1 = AR 梯度 + AG 参数 = 3Ψ，其实…": a denied sum denies none of its parts
            regathered = word == "gather" and sentence.book.word("regathered_before").search(sentence.text, max(0, start - MODIFIER_REACH), start)
            if when and (word != "gather" or regathered) and not _in_a_list(sentence, start, end) and not sentence.has("zero3_variant"):
                flags.add("pass")  # a pass named for one collective alone, in no variant: precise enough to deny
            yield Claim(subject, "step", (collective, carries, when, extra, count), start, end, flags=frozenset(flags))
    yield from _sources(sentence)


def _described(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the collective opens its clause as the subject of what it does ("all-reduce 让每卡都拿到全部梯度", "an
    all-reduce gives every rank the full sum"): in a sentence naming no stage, or after a contrast in one that does ("而
    all-reduce 给的是全量梯度之和"), that describes the collective, not a step."""
    text = sentence.text
    opens = sentence.book.word("contrast_opens" if sentence.mentions else "collective_opens")
    return bool(opens.fullmatch(text, clause[0], start) and sentence.book.word("describes").match(text, end))


def _in_a_list(sentence: PreparedSentence, start: int, end: int) -> bool:
    """Whether the collective is one item of a sum or list ("不是前向AG+反向RS+更新后AG")."""
    text = sentence.text
    return bool(sentence.book.word("listed_after").match(text, end) or sentence.book.word("listed_before").search(text, max(0, start - LIST_REACH), start))


def _in_a_sum(sentence: PreparedSentence, start: int) -> bool:
    """Whether the collective at `start` is a part of a sum of collectives with a total ("AR 梯度 + AG 参数 = 3Ψ")."""
    ledgers = sentence.book.ledger.ledgers(sentence.text)
    return any(lg.start <= start < lg.end and lg.total is not None for lg in ledgers)


def _replaced(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the collective is named as what another replaces or splits into ("instead of an all-reduce", "把 AR 换成
    RS + AG", "all-reduce = RS + AG", "all-reduce 是白费，所以改成 RS"), not as a step the stage runs."""
    text = sentence.text
    return bool(
        sentence.book.word("replaced_before").search(text, max(clause[0], start - REPLACED_REACH), start)
        or sentence.book.word("replaced_after").match(text, end, min(clause[1], end + REPLACED_REACH))
        or sentence.book.word("replaced_later").match(text, end)
    )


def _sole_collective(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the clause says the stage runs only this collective ("只需要一次 reduce-scatter", "only needs a RS"): "only"
    right before it, not a comparison ("比起只做 RS"), not "merely" (只是), not one of a list, not what can be hidden, not
    the only one to cost a value ("only an all-reduce (= RS + AG) costs ~2Ψ")."""
    text = sentence.text
    for a, b in sentence.spans("only_runs"):
        if max(clause[0], start - MODIFIER_REACH) <= a and b <= start and sentence.book.word("only_filler").fullmatch(text, b, start):
            return not (
                sentence.has("step_capability", *clause)
                or sentence.book.word("compared_before").search(text, max(clause[0], a - 8), a)
                or sentence.book.word("listed_after").match(text, end)
                or sentence.book.word("owned_after").match(text, end)
                or sentence.book.word("cost_after").match(text, end)
            )
    return False


def _sources(sentence: PreparedSentence) -> Iterator[Claim]:
    """Where a part of a stage's volume is said to come from ("the third Ψ comes from the optimizer step", "多出来的 Ψ
    是因为梯度也切了", "optimizer step 也需要同步"), read as an extra step carrying that state or run at that phase."""
    if "ψ" not in sentence.text and not sentence.has("optimizer"):
        return
    for start, end in sentence.spans("volume_source"):
        if sentence.book.word("source_denied").match(sentence.text, end):
            continue  # "the extra Ψ is not from the optimizer step but from …": the source named next is denied
        clause = sentence.clause_around(start, end)
        subject = sentence.subject(clause, start)
        if subject is None or subject in sentence.book.others:
            continue
        extra = sentence.has("extra_psi", start, end)
        pivot = sentence.book.word("source_pivot").search(sentence.text, start, end)
        if pivot is not None:
            start = pivot.start()  # "多出来的 Ψ 不是来自优化器 step，而是…": the source is what follows the turn
        carries = _carries(sentence, clause, start, end, reach=SOURCE_REACH)
        when = _when(sentence, clause, start, end, reach=SOURCE_REACH, inside=True)
        collective = next((c for w, c in COLLECTIVE_WORDS if sentence.has(w, start, min(clause[1], end + SOURCE_REACH))), None)
        if carries is None and when is None and collective is None:
            synced = sentence.book.word("synced_state").search(sentence.text, start, end)  # "再加一次优化器状态的同步"
            carries = next((state for state in _STATES if sentence.has(state, *synced.span())), None) if synced else None
            if carries is None:
                continue
        yield Claim(subject, "step", (collective, carries, when, extra, None), start, end, flags=frozenset({"source"}))



def _possessor(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> str | None:
    """The stage the collective at `start` is said to belong to ("ZeRO-1 里的那次 AG", "ZeRO-1's all-gather"), if any."""
    owner = sentence.book.word("possessor").search(sentence.text, clause[0], start)
    return owner.group(1) if owner else None


def _carries(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int, reach: int = STEP_REACH) -> str | None:
    """The state a collective moves: named right after it ("all-gather the gradients", "AG 梯度", "all-gather of
    activations"), right before it ("梯度 all-gather") or fronted ("把梯度 all-gather"), with no reason, negation or other
    collective between."""
    text = sentence.text
    best: tuple[int, str] | None = None
    phases = sentence.spans("phase_update")
    ops = _other_collectives(sentence, start, end)
    for state in _STATES:
        for a, b in sentence.spans(state):
            if any(p0 <= a < p1 for p0, p1 in phases):
                continue  # "optimizer" in "the optimizer update" names when, not what
            if clause[0] <= a and b <= clause[1] and end <= a <= end + reach:
                if any(o0 >= b and not text[b:o0].strip() for o0, _ in ops):
                    continue  # "a reduce-scatter on top of the two parameter all-gathers": the state names the next one's
                between = text[end:a]
            elif end <= a <= end + reach and sentence.book.word("fronted_next").fullmatch(text, end, a):
                between = ""  # "reduce-scatter，把全量参数…": the clause after the collective says what it moves
            elif clause[0] <= a and b <= start and (text[b:start].strip() in ("", "的") or sentence.book.word("patient_before").fullmatch(text, b, start)):
                between = ""  # "梯度 all-gather", "激活的 reduce-scatter", "优化器状态还要 all-reduce": the state names what it moves
            elif clause[0] <= a and b <= start and start - b <= 12 and sentence.book.word("fronted").search(text, max(clause[0], a - 32), a):
                between = text[b:start]
            elif clause[0] <= a and b <= start and start - b <= 32 and sentence.book.word("passive_before").search(text, b, start):
                between = ""  # "the optimizer shards, which must be broadcast": the state is the passive subject
            else:
                continue
            if sentence.book.word("carry_blockers").search(between) or sentence.book.stance.excluded(text, a, b):
                continue
            if sentence.book.word("named_as_sharded").match(text, b):
                continue  # "为了配合优化器状态分片": the state is what is sharded, not what is moved
            distance = abs(a - end)
            if best is None or distance < best[0]:
                best = (distance, state)
    return best[1] if best else None


def _other_collectives(sentence: PreparedSentence, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the sentence's collectives other than the one at start:end."""
    return [span for span in sentence.spans("op") if span != (start, end)]


def _counted(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> bool:
    """Whether the collective at `start` is counted as a part of the volume: its clause gives a part ("3Ψ 里第二个 Ψ 是
    …"), a ledger heads the sentence ("3Ψ: …"), or a list headed before a semicolon goes on here ("ZeRO-3 的 3Ψ：…；反向
    all-gather 的其实是激活，…，Ψ")."""
    if sentence.has("volume_part", *clause) or sentence.has("volume_head", 0, start):
        return True
    before = sentence.previous_text
    return before.rstrip().endswith(";") and bool(sentence.book.word("volume_head").search(before)) and sentence.has("volume_part", clause[0], len(sentence.text))


def _when(
    sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int, reach: int = PHASE_REACH, inside: bool = False
) -> str | None:
    """The phase a collective is said to run at ("优化器更新后", "after the optimizer step", "前向", "in the backward"),
    the nearest one in the clause (or, for a stated source, one inside it: "the optimizer step needs a sync")."""
    text = sentence.text
    ops = _other_collectives(sentence, start, end)

    def gap(o0: int, o1: int, a: int, b: int) -> float:
        """How far a collective at o0:o1 is from a phase at a:b; infinite for a phase past a comma after it (such a
        phase opens what follows: "RS，以及优化器 step 之后把新参数 AG", "after the optimizer step, an all-gather") or
        past "之后" after it, or before it unless it leads into the collective ("after the optimizer step, an all-gather"); and
        for a phase said to be local ("grad RS (optimizer step local)"), an item of its own."""
        if sentence.book.word("phase_local").match(text, b):
            return float("inf")
        if o1 <= a:
            next_part = "+" in text[o1:a] and any(0 <= n0 - b <= PHASE_REACH // 2 for n0, _ in sentence.spans("op"))  # "RS（≈Ψ）+ 更新后 params 的 AG"
            if _SEPARATOR.search(text, o1, a) or "=" in text[o1:a] or next_part or sentence.book.word("phase_follows").match(text, o1, a):
                return float("inf")  # past "= 3Ψ" (the sum's aside), a "+" before the next part's phase, or "RS 之后" (a phase after the collective)
            return a - o1
        if b <= o0 and _SEPARATOR.search(text, b, o0) and not sentence.book.word("phase_lead").fullmatch(text, b, o0):
            return float("inf")  # "…in the backward, and (3) all-gather …": the phase closed an item before this one
        if b <= o0 and sentence.book.word("placed_between").search(text, b, o0):
            return float("inf")  # "does the optimizer update on the shard between RS and AG": the phase sits between them
        return max(0, o0 - b)

    found = [
        (distance, phase)
        for word, phase in _PHASES
        for a, b in sentence.spans(word)
        if (
            clause[0] <= a < clause[1]
            or (b <= start and sentence.book.word("phase_lead").fullmatch(text, b, start) and not _inserted(sentence, a))
        )
        and (0 <= start - b <= reach or 0 <= a - end <= reach or (inside and start <= a < end))
        for distance in [0 if start <= a < end else gap(start, end, a, b)]
        if distance != float("inf") and not any(gap(o0, o1, a, b) < distance for o0, o1 in ops)  # nearer another collective: its
    ]
    return min(found)[1] if found else None


def _inserted(sentence: PreparedSentence, position: int) -> bool:
    """Whether the phase at `position` is named as what is inserted between collectives ("中间插入 sharded optimizer
    step，RS 传 gradients"): an object, not the time the collective after it runs at."""
    return bool(sentence.book.word("phase_inserted").search(sentence.text, max(0, position - INSERTED_REACH), position))


def _near_before(
    sentence: PreparedSentence, word: str, clause: tuple[int, int], position: int, reach: int, filler: str = "collective_filler"
) -> bool:
    """Whether the word class ends right before `position` ("额外一次 all-reduce", "needs an all-gather"), in the clause."""
    low = max(clause[0], position - reach)
    between = sentence.book.word(filler)
    return any(low <= a and b <= position and between.fullmatch(sentence.text, b, position) for a, b in sentence.spans(word))


def _count(sentence: PreparedSentence, start: int) -> int | None:
    """How many times a collective is said to run ("2次 reduce-scatter", "two reduce-scatters"), when more than once."""
    for m in sentence.book.word("collective_count").finditer(sentence.text, max(0, start - 16), start):
        if m.end() == start or not sentence.text[m.end() : start].strip():
            number = next(g for g in m.groups() if g)
            times = NUMBER_WORDS.get(number) or int(number)
            return times if times > 1 else None
    return None


def _about_activations(sentence: PreparedSentence) -> bool:
    """Whether the sentence names activations and none of the model states: a collective it uses would act on them."""
    return sentence.has("activations") and not sentence.has("state_noun")
