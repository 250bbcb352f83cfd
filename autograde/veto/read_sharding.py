"""Read what a sentence says a stage shards: the states a sharding (or keep-whole) predicate acts on, whether only
those, and any stage the set is related to ("same as ZeRO-2", "on top of ZeRO-1", "not until ZeRO-3")."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from autograde.veto.claims import Claim, Relation
from autograde.veto.prepared import DASH_ASIDE_CHARS, PreparedSentence
from autograde.veto.stages import DASH

STATES = {"parameters": ("parameters",), "gradients": ("gradients",), "optimizer": ("optimizer",), "activations": ("activations",),
          "all_states": ("parameters", "gradients", "optimizer"), "model_states": ("parameters", "gradients", "optimizer"),
          "all_memory": ("parameters", "gradients", "optimizer", "activations")}
"""Word classes of the cue book that name states, and the states of facts.yaml each stands for."""
PREDICATES = (
    ("shard", True), ("hold_fraction", True), ("divided_suffix", True), ("shrinks_with_ranks", True), ("relieves", True), ("keep_full", False)
)
"""Word classes that say states are divided over the ranks (True) or kept whole on every rank (False)."""
SUFFIX_PREDICATES = frozenset({"divided_suffix", "shrinks_with_ranks"})
"""Predicates written right after the name they act on ("activation/N_d"): they take no object after them, nor the
sentence's topic when no name comes before them."""
REMOVED_REACH = 40
"""Characters before a keep-whole word within which a verb says the copies are removed or saved."""
OBJECT_REACH = 120
"""Characters between a predicate and a noun beyond which the noun is not its object."""
RELATION_REACH = 64
"""Characters around a predicate within which a relation cue ("on top of ZeRO-2", "一样") relates its states."""
OWN_FIRST_AT_REACH = 4
"""Characters after a predicate within which a "first at" cue is its own ("partitioned from ZeRO-1 onwards")."""
ONLY_REACH = 3
"""Characters between "only" and the verb it restricts ("只切", "only shards", "shards only")."""
TECHNIQUE_REACH = 120
"""Characters before a split within which a stage doing the technique read as its subject is the doer."""
_OBJECT_FILLER = re.compile(r"\s*(?:(?:(?:the|its|their|all(?: the)?)\b|了|的)\s*)?(?:(?:slice|shard|share|piece|part|portion)\s+(?=of\b))?")
"""Articles and particles between a predicate and its direct object, and the piece of it a fraction names ("keeps a 1/N_d
slice of them")."""
GERUND_REACH = 40
"""Characters before an English gerund searched for the comparison it is the object of ("a different thing from sharding")."""
_NOT_DONE = ("gerund_compared", "gerund_hypothetical")
"""Word classes that, right before an English gerund, make it an operation talked about rather than done."""
LEAD_REACH = 24
"""Characters back from a predicate within which the words leading into it must end ("只需自己的梯度分片", "something that splits")."""
_ANY_TAG = re.compile(r"⟨([a-z0-9]+)⟩")
_CJK = re.compile(r"[\u3400-\u9fff]")
_SPACES = re.compile(r"\s*")
_FRONTED_AFTER_COLLECTIVE = re.compile(r"[\s,]*(?:把|将)")
_PIECE_MARKS = (":", ";", " - ", "—")
"""Marks after which a noun opens a piece of its own: no verb before them takes it as object."""
AGENT_REACH = 40
"""How far before a noun the "by" that makes it an agent may be ("produced by identical weights")."""
_PASSIVE_GAP = re.compile(r"(?:\s+(?:get|gets|got|are|is|were|was|been|being|be|also|all|then|now))*\s*")
"""What may stand between a noun and the participle of a passive split it is the subject of ("the activations get split")."""
_IRREGULAR_PARTICIPLES = frozenset({"split", "spread", "cut"})
"""Split verbs whose participle does not end in -ed."""


def sharding_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Every claim of `sentence` about the states a stage shards or keeps whole."""
    glossed = {state for _, state, _, _ in _state_glosses(sentence)}  # each glossed with its own stage: read there
    for word, sharded in PREDICATES:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            subject = _doer(sentence, sentence.subject(clause, start), start)
            relation, other = _relation(sentence, clause, subject, start, end)
            subject = other if relation == "first-at" else subject  # "梯度要到 ZeRO-3 才切" is about the state
            if relation == "adds-over" and subject == other and not sentence.stance.inside_aside(start):
                # "ZeRO-3 就是 ZeRO-2 再加上参数分片": the subject is the stage before the cue
                subject = next((m.stage for m in reversed(sentence.mentions) if m.end <= start and m.stage != other and not m.reference), None)
            if subject is None or _exempt(sentence, word, clause, start) or _not_a_claim(sentence, clause, start, end):
                continue
            if relation == "first-at":
                clause = (clause[0], _next_first_at(sentence, clause, end))
            bound = bound_states(sentence, clause, subject, start, end, word)
            listed = _dash_list_before(sentence, clause)
            if not bound and listed is not None:  # "every piece of memory - the model states and the activations - is partitioned"
                bound = bound_states(sentence, (listed, clause[1]), subject, start, end, word)
            spelled_out = _dash_list_after(sentence, clause)
            if "all_states" in bound and spelled_out is not None:  # "把所有东西都切成了 N_d 份——参数、梯度、优化器状态，还有激活"
                bound = {**bound_states(sentence, (clause[0], spelled_out), subject, start, end, word), **bound}
            if not bound and word not in SUFFIX_PREDICATES:  # "activation/N_d" names what it divides, or nothing
                bound = _sentence_topic(sentence, clause)
            if "activations" in bound and _other_axis(sentence, clause):
                del bound["activations"]
            states = frozenset(
                state for word_class in bound for state in STATES[word_class]
                if not _not_sharding(sentence, _glossed_clause(sentence, clause, start), subject, state) and state not in glossed
            )
            if relation == "same-as" and ((not states and not _about_traffic(sentence, clause)) or sentence.book.word("same_set").match(sentence.text, end, clause[1])):
                yield Claim(subject, "shards", frozenset(), start, end, relation, other, sharded)
            if not states:
                continue
            resharded = sentence.book.word("reshard").match(sentence.text, start)  # "it only reshards the parameters"
            exact = word == "shard" and _only(sentence, start, end) and not resharded
            if exact and set(bound) == {"model_states"}:
                continue  # "ZeRO-1/2 只切 model states": a scope (not activations), not which model states
            if exact and relation == "adds-over" and not sentence.book.word("adds_right_before").search(sentence.text, max(0, start - 3), start):
                relation, other = None, None  # "区别在于 ZeRO-2 只切梯度": the set is ZeRO-2's, not what it adds
            strict = frozenset(state for word_class, is_strict in bound.items() if is_strict for state in STATES[word_class])
            temporary = frozenset({"temporary"}) if sentence.has("temporary", *clause) else frozenset()
            if exact or relation in ("adds-over", "first-at"):
                flags = temporary | (frozenset() if states <= strict else frozenset({"loose"}))
                yield from _with_contrast(sentence, Claim(subject, "shards", states, start, end, relation, other, sharded, exact, flags=flags), clause)
                continue
            universal = frozenset(state for word_class in ("all_states", "all_memory") if word_class in bound for state in STATES[word_class])
            for state in sorted(states):
                flags = temporary | (frozenset() if state in strict else frozenset({"loose"})) | (frozenset({"universal"}) if state in universal else frozenset())
                yield from _with_contrast(sentence, Claim(subject, "shards", frozenset({state}), start, end, sharded=sharded, flags=flags), clause)
    yield from _identities(sentence)
    yield from _gapped(sentence)
    yield from _notation(sentence)
    yield from _conjoined_same(sentence)
    yield from _glossed_stages(sentence)


def _dash_list_before(sentence: PreparedSentence, clause: tuple[int, int]) -> int | None:
    """Where a list set off by dashes right before the clause starts ("every piece of memory - the model states and the
    saved activations - is partitioned"), when the clause opens on its closing dash and the list names object nouns."""
    aside = sentence.dash_aside_before(clause)
    if aside is None:
        return None
    return aside[1] if sentence.has("object_noun", aside[1], clause[0]) else None


def _dash_list_after(sentence: PreparedSentence, clause: tuple[int, int]) -> int | None:
    """Where a list that spells out the clause's "everything" after a dash ends ("把所有东西都切成了 N_d 份——参数、梯度、
    优化器状态，还有各层的中间激活"), when the next clause opens on the dash and names object nouns."""
    dash = DASH.match(sentence.text, clause[1])
    if dash is None or dash.end() >= len(sentence.text):
        return None
    listed = sentence.clause_around(dash.end(), dash.end() + 1)
    if listed[1] - dash.end() > DASH_ASIDE_CHARS or not sentence.has("object_noun", dash.end(), listed[1]):
        return None
    return listed[1]


def _doer(sentence: PreparedSentence, subject: str | None, start: int) -> str | None:
    """The subject of a split, or the stage that does the technique read as its subject ("ZeRO-3 会做 partition activation
    checkpointing，把保存的激活均分到各 rank")."""
    if subject not in sentence.book.techniques:
        return subject
    doer = sentence.book.word("technique_done_by_stage").search(sentence.text, max(0, start - TECHNIQUE_REACH), start)
    return doer.group("stage") if doer else subject


def _exempt(sentence: PreparedSentence, word: str, clause: tuple[int, int], start: int) -> bool:
    """Whether the clause's predicate reads like a relation but says something else: a layer gathered for compute is whole
    only for a while ("临时拼出的全量参数"), as are those an aside on a collective says it hands out; states whole "in the first
    place" are plain DP's; copies said to be removed or saved are whole only before the stage ("saves the ~138 GB of
    replicated gradients"); a variant that replicates by design (hybrid sharding across nodes, SHARD_GRAD_OP between
    forward and backward), named in this sentence or the one before, keeps its copies whole. A relieving verb is a split
    only when a stage right before it does the relieving; a state shrinking with N_d is not one when a smaller batch per
    rank is why ("每张卡的 batch 变小了，激活也随 N_d 下降": data parallelism's own split)."""
    if word == "relieves":
        return not _stage_does_it(sentence, clause, start)
    if word == "shrinks_with_ranks":
        return sentence.has("smaller_batch")
    if word != "keep_full":
        return False
    if sentence.has("temporary", *clause) or sentence.has("before_sharding", *clause):
        return True
    if sentence.book.word("removed_before").search(sentence.text, max(clause[0], start - REMOVED_REACH), start):
        return True
    aside = sentence.stance.aside_around(start)
    if aside is not None and sentence.has("op", *sentence.clause_before(aside[0])):
        return True  # "the all-reduce pattern (each rank ends up with the full weights)": what the collective hands out
    variant = sentence.book.word("replicating_variant")
    return sentence.present(variant) or bool(variant.search(sentence.previous_text))


def _not_a_claim(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> bool:
    """Whether the predicate asserts nothing of a stage: an English gerund opening its clause ("Sharding them would
    destroy information"), named as what something else differs from ("a different thing from sharding") or as what
    doing it would amount to ("it would be splitting distinct data"), the action of a collective named right before
    ("reduce-scatter，把参数切分发到各卡"), a fraction said to be used, not held ("只有 1/N_d 被自己的优化器用到"), a
    rank's own piece named as what it needs ("只需自己的梯度分片"), a split done by no stage ("you need something that
    splits the activation itself"), a split of the batch ("激活用更多的卡分摊 batch 以后变小": data parallelism's own), a
    word of an option's quoted name ("the \"partition activations\" option"), or a Chinese split verb naming the splitting
    ("切分逻辑") or a futile one ("怎么切都没用")."""
    text = sentence.text
    if sentence.book.word("smaller_batch").match(text, _SPACES.match(text, end).end()):
        return True
    if any(a < start and end < b for a, b in sentence.spans("option_name")):
        return True
    if _CJK.match(text, end - 1) and sentence.book.word("split_not_made_after").match(text, end):
        return True
    if any(sentence.book.word(w).search(text, max(clause[0], start - LEAD_REACH), start) for w in ("needed_shard_before", "generic_doer_before")):
        return True
    if sentence.book.word("fraction_used").search(text, start, clause[1]):
        return True
    if text[start:end].endswith("ing") and (
        sentence.book.word("gerund_subject").match(text[clause[0] : start])
        or any(sentence.book.word(w).search(text, max(clause[0], start - GERUND_REACH), start) for w in _NOT_DONE)
    ):
        return True
    opening = _FRONTED_AFTER_COLLECTIVE.match(text, clause[0], start)
    return opening is not None and any(b <= clause[0] and clause[0] - b <= 3 for _, b in sentence.spans("op"))


def _stage_does_it(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> bool:
    """Whether the nearest name before a relieving verb in its clause is a ZeRO stage's ("ZeRO-3 缓解激活压力"), not
    a technique's or another axis's ("ZeRO-3 with recomputation reduces activation memory"), nor missing."""
    before = [m for m in sentence.mentions if clause[0] <= m.start < start]
    return bool(before) and not before[-1].reference and before[-1].stage not in sentence.book.others


def _glossed_clause(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> tuple[int, int]:
    """What a predicate at `start` says, for the not_sharding cues: the part of its clause inside the aside it is in, or
    its clause with the aside that gives its reason right after ("激活/N_d（因为全局 batch 被分到 N_d 张卡上）")."""
    aside = sentence.stance.aside_around(start)
    if aside:
        return max(clause[0], aside[0]), min(clause[1], aside[1])
    reason = sentence.book.word("reason_aside").match(sentence.text, clause[1])
    gloss = sentence.stance.aside_around(clause[1] + 1) if reason else None
    return (clause[0], gloss[1]) if gloss else clause


def _not_sharding(sentence: PreparedSentence, clause: tuple[int, int], subject: str, state: str) -> bool:
    """Whether the cue book says the clause only looks like a claim that `subject` shards or keeps whole `state`."""
    return any(
        subject in e.stages and state in e.states and e.when.search(sentence.text, *clause) for e in sentence.book.not_sharding
    )


def bound_states(
    sentence: PreparedSentence, clause: tuple[int, int], subject: str, start: int, end: int, word: str = "shard"
) -> dict[str, bool]:
    """The state word classes the predicate at `start:end` acts on, each with whether it is bound strictly (no other
    object noun between: the reading a denial needs).

    A noun binds when it sits in the clause with no other stage, no other verb and no open aside between it and the
    predicate; or it is what a relative clause ("activations, which ZeRO-3 also splits") or a pronoun ("partitions
    them", "把它…分片") refers back to.
    """
    text = sentence.text
    bound: dict[str, bool] = {}
    antecedent = _antecedent(sentence, clause, start, end)
    if antecedent is not None:
        bound[antecedent] = True
    direct = _direct_object(sentence, end, clause[1])
    low_limit, high_limit = max(clause[0], start - OBJECT_REACH), min(clause[1], end + OBJECT_REACH)
    later = [a for word, _ in PREDICATES for a, _ in sentence.spans(word) if end < a < high_limit]
    high_limit = min([high_limit, *later])  # "只切梯度、不切优化器状态": a noun after the next verb is that verb's
    for word_class in STATES:
        for m_start, m_end in sentence.spans(word_class):
            if not low_limit <= m_start < high_limit or sentence.book.stance.excluded(text, m_start, m_end):
                continue
            if m_start < start and direct is not None and direct not in _class_starts(sentence, word_class):
                continue  # "activation memory dominates once Z3 has sharded model states": the verb has its own object
            if m_start < start and word != "keep_full" and not _kept_split(sentence, m_end, start, end) \
                    and _object_of_an_earlier_verb(sentence, clause, m_start, m_end, start):
                continue  # "keeps the full parameters and shards the optimizer states": the noun is the first verb's
            if word in SUFFIX_PREDICATES and (m_start >= end or _added_before(text, m_end, start)):
                continue  # "optimizer/N_d + activations", "参数 + optimizer / N_d": the division is the last term's
            if word == "shrinks_with_ranks" and not sentence.book.word("suffix_filler").fullmatch(text, m_end, start):
                continue  # "激活在内的总显存都随 N_d 下降": only the name right before shrinks
            if m_start >= end and sentence.book.structure["own_verb"].match(text, m_end):
                continue  # "shards the gradients, and parameters stay replicated": the object has a verb of its own
            if word != "keep_full" and m_start >= end and sentence.book.word("whole_before").search(text, max(0, m_start - 8), m_start):
                continue  # "保存 1/N_d 参数、全量梯度和…": a noun said to be whole is no object of a split
            low, high = (end, m_start) if m_start >= end else (m_end, start)
            between = text[low:high] if low < high else ""
            if sentence.subjects.between(low, high, but=subject):
                continue  # another stage owns the object
            if sentence.book.structure["barriers"].search(between) and not sentence.book.structure["inclusion"].search(between) \
                    and not (between.rstrip().endswith(",") and sentence.book.word("included_after").match(text, m_end)):
                continue  # another verb owns it, unless it is listed as included ("…, including activations", "…, activations included")
            if between.count("(") != between.count(")") and not _enumerated(sentence, m_start):
                continue  # an aside has a claim of its own ("ZeRO-2 并不切（有人把它说成切参数，那是错的）")
            if m_start < start and _NOUN_AFTER_COMMA(sentence).search(between):
                continue  # "shards gradients, and parameters stay replicated": the nearer noun is the verb's subject
            strict = not sentence.book.word("object_noun").search(between)
            bound[word_class] = bound.get(word_class, False) or strict
    return bound


def _added_before(text: str, noun_end: int, start: int) -> bool:
    """Whether a "+" outside parentheses adds a later term between a noun and the division at `start` ("参数 140 GB +
    optimizer 840 GB / N_d"), so the division is not the noun's."""
    between = text[noun_end:start]
    return "+" in between and ")" not in between


def _about_traffic(sentence: PreparedSentence, clause: tuple[int, int]) -> bool:
    """Whether the clause is about communication ("2Ψ, same as ZeRO-2, just spread over more messages"), so a "same"
    in it compares volumes, not what is sharded."""
    return "ψ" in sentence.text[clause[0] : clause[1]] or sentence.has("op", *clause) or sentence.has("comm_noun", *clause)


def _sentence_topic(sentence: PreparedSentence, clause: tuple[int, int]) -> dict[str, bool]:
    """The state a Chinese clause with no object of its own acts on, bound loosely: the one opening the sentence when the
    clause is opened by 所以/因此 ("FP32 master 权重因为每卡都要用，所以仍然每卡全量保存"), or the one opening the clause
    before when a reason follows it there ("优化器状态因为更新时需要全量，每张卡还是完整保存的", also after 所以:
    "ZeRO-3 切参数和梯度，优化器状态因为…，所以每卡还是保留完整一份"); else nothing."""
    text, nouns = sentence.text, sentence.book.word("object_noun")
    if not _CJK.search(text, *clause) or nouns.search(text, *clause):
        return {}
    if sentence.book.structure["topic_consequence"].match(text, clause[0]):
        opening = nouns.match(text, len(text) - len(text.lstrip(" ("))) or _reasoned_topic(sentence, clause)  # its own precision word included
    else:
        opening = _reasoned_topic(sentence, clause) or _marked_topic(sentence, clause)
    if opening is None:
        return {}
    return {c: False for c in STATES if sentence.book.word(c).fullmatch(opening.group())}


def _clauses_before(sentence: PreparedSentence, clause: tuple[int, int]) -> list[tuple[int, int]]:
    """The clauses that end by `clause`'s start, each from its first word (spaces and commas skipped) to its end."""
    text = sentence.text
    return [(b - len(text[a:b].lstrip(" ,")), b) for a, b in sentence.clauses if b <= clause[0]]


def _marked_topic(sentence: PreparedSentence, clause: tuple[int, int]) -> re.Match[str] | None:
    """The state the clause right before `clause` names as its topic and nothing else ("对于 activation，")."""
    text, nouns = sentence.text, sentence.book.word("object_noun")
    before = _clauses_before(sentence, clause)
    if not before:
        return None
    a, b = before[-1]
    marker = sentence.book.structure["topic_marker"].match(text, a)
    opening = nouns.match(text, marker.end()) if marker else None
    return opening if opening and not text[opening.end() : b].strip(" ,") else None


def _reasoned_topic(sentence: PreparedSentence, clause: tuple[int, int]) -> re.Match[str] | None:
    """The state opening the clause before `clause` when a reason or purpose follows it, in that clause or as the clause
    between them ("优化器状态因为…,")."""
    text, nouns = sentence.text, sentence.book.word("object_noun")
    structure = sentence.book.structure
    reason, lead, tail = structure["topic_reason"], structure["topic_lead"], structure["topic_tail"]
    before = [(lead.match(text, a).end(), b) for a, b in _clauses_before(sentence, clause)]
    if len(before) >= 2 and reason.match(text, before[-1][0]):
        a, b = before[-2]
        opening = nouns.match(text, a) or next(  # "…只 shard m 和 v,fp32 master weight 因为…": the state set off before the reason
            (m for m in nouns.finditer(text, a, b) if not text[m.end() : b].strip() and structure["topic_set_off"].search(text, a, m.start())), None
        )
        return opening if opening and tail.fullmatch(text, opening.end(), b) else None
    opening = nouns.match(text, before[-1][0]) if before else None
    return opening if opening and reason.match(text, opening.end()) else None


def _object_of_an_earlier_verb(sentence: PreparedSentence, clause: tuple[int, int], m_start: int, m_end: int, start: int) -> bool:
    """Whether a noun before an English predicate is the object of an English verb before it ("keeps the full
    parameters … and shards only X") in the same piece (a colon or a dash starts a new one); in Chinese the object often comes
    first ("参数已经 shard 过了")."""
    text = sentence.text
    if _CJK.search(text, m_start, start):
        return False  # a Chinese noun or gap: the object comes first ("把保存下来的激活均摊到各卡")
    low = max(clause[0], m_start - 40)
    piece = max(text.rfind(mark, low, m_start) + len(mark) for mark in _PIECE_MARKS)
    return bool(sentence.book.structure["barriers"].search(text, max(low, piece), m_start))  # "uses X: the Y are split"


def _enumerated(sentence: PreparedSentence, position: int) -> bool:
    """Whether the noun at `position` is listed in parentheses right after "everything" or "every tensor" ("所有东西（params、
    grads、optimizer、activations）都 shard 成 1/N_d", "partitions every tensor across DP ranks (weights, …, activations)"):
    the list spells out what the split acts on."""
    aside = sentence.stance.aside_around(position)
    return aside is not None and any(b == len(sentence.text[: aside[0]].rstrip()) for _, b in sentence.spans("list_head"))


def _kept_split(sentence: PreparedSentence, noun_end: int, start: int, end: int) -> bool:
    """Whether a split participle follows its noun at once, or after a passive's auxiliary ("keeps the activation
    checkpoints distributed across the group", "…, the activations get split too"): the noun is what is split,
    whatever verb before it keeps it so."""
    participle = sentence.text[end - 2 : end] == "ed" or sentence.text[start:end] in _IRREGULAR_PARTICIPLES
    return participle and _PASSIVE_GAP.fullmatch(sentence.text, noun_end, start) is not None


def _class_starts(sentence: PreparedSentence, word_class: str) -> set[int]:
    """Where the word class's matches start."""
    return {a for a, _ in sentence.spans(word_class)}


def _NOUN_AFTER_COMMA(sentence: PreparedSentence) -> re.Pattern[str]:
    """An object noun that opens a new piece (", and parameters …"): the subject of the verb after it."""
    return sentence.book.word("noun_after_comma")


def _antecedent(sentence: PreparedSentence, clause: tuple[int, int], start: int, end: int) -> str | None:
    """The state a relative clause or a pronoun object stands for: the noun right before "which" (or "(which"), or
    the last object noun before a pronoun right after the predicate ("partitions them") or fronted by 把/将
    ("把它…分片"), in the sentence or else the one before it ("…leaves activations unsharded; it partitions them")."""
    text, structure = sentence.text, sentence.book.structure
    if structure["relative_opener"].match(text, clause[0]):
        before = text[max(0, clause[0] - 48) : clause[0]]
        modifier = structure["antecedent_modifier"]
        for word_class in STATES:
            if any(not before[m.end() :].strip(" ,(") or modifier.fullmatch(before, m.end()) for m in sentence.book.word(word_class).finditer(before)):
                return word_class
    filler = _OBJECT_FILLER.match(text, end, clause[1])
    after = structure["object_pronoun"].match(text, filler.end() if filler else end, clause[1])
    fronted = [m for m in structure["disposal_pronoun"].finditer(text, max(clause[0], start - OBJECT_REACH), start)
               if not structure["barriers"].search(text, m.end(), start)]
    position = after.start() if after else fronted[-1].start() if fronted else None
    if position is None:
        return None
    candidates = [
        (a, b) for a, b in sentence.spans("object_noun")
        if b <= position and not sentence.book.stance.excluded(text, a, b) and not _in_reason_before(sentence, a, position)
    ]
    agents = [span for span in candidates if sentence.book.structure["agent_before"].search(text, max(0, span[0] - AGENT_REACH), span[0])]
    nouns = [text[a:b] for a, b in candidates if (a, b) not in agents] or [text[a:b] for a, b in candidates]
    if nouns:  # a noun named as the agent ("produced by identical weights") only when no other is there
        named = nouns[-1]
    elif sentence.has("generic_noun", 0, position):
        return None  # "同一份数据在 N_d 个 rank 上各存一遍，ZeRO 把它改成只存一遍": data in general, no state
    else:  # the sentence before: its topic, the noun it opens with ("Activations can't be deduplicated the way weights can"),
        # unless it only names what a collective moves ("The gradient all-reduce is ring RS followed by ring AG")
        before, op = sentence.previous_text, sentence.book.word("op")
        named = next((m.group() for m in sentence.book.word("object_noun").finditer(before) if not op.match(before, _SPACES.match(before, m.end()).end())), None)
    if named is None:
        return None
    return next((c for c in STATES if sentence.book.word(c).fullmatch(named)), None)


def _in_reason_before(sentence: PreparedSentence, noun: int, pronoun: int) -> bool:
    """Whether the noun at `noun` sits in a subordinate clause put after a main one that names an object noun of its own
    ("activations are redundant because every rank runs the same weights") and ends before the pronoun at `pronoun`:
    such a clause only gives a reason, and "so ZeRO-3 shards them" points past it to the main clause's noun."""
    return sentence.in_reason_clause(noun, pronoun) and sentence.has("object_noun", 0, sentence.clause_around(noun, noun + 1)[0])


def _direct_object(sentence: PreparedSentence, end: int, limit: int) -> int | None:
    """Where the object noun right after the predicate ending at `end` starts ("sharded the model states"), if any."""
    filler = _OBJECT_FILLER.match(sentence.text, end, limit)
    position = filler.end() if filler else end
    return position if sentence.book.word("object_noun").match(sentence.text, position, limit) else None


def _only(sentence: PreparedSentence, start: int, end: int) -> bool:
    """Whether the predicate is restricted to the states it names: "only" right before the verb ("只切优化器状态",
    "only shards X") or, in English, right after it ("shards only X")."""
    text = sentence.text
    return any(
        (0 <= start - b <= ONLY_REACH and not text[b:start].strip()) or (0 <= a - end <= ONLY_REACH and text[a:b] == "only")
        for a, b in sentence.spans("only")
    )


def _other_axis(sentence: PreparedSentence, clause: tuple[int, int]) -> bool:
    """Whether activations said to be split are another axis's: the sentence names TP, SP, CP or PP (not a technique
    such as recomputation, which splits nothing over ranks: "…scatter 到各个 rank 上存，再配合 recompute 就够了"), or a
    split along the sequence or hidden dimension; and the clause names no ZeRO stage of its own (unless the split runs
    across the TP group), nor the sentence the data-parallel ranks as where the pieces go ("沿 hidden 维切成 N_d 份，每个 DP rank 只存一份")."""
    book = sentence.book
    named = any(m.stage in book.others and m.stage not in book.techniques and not m.reference for m in sentence.mentions)
    if not (named or sentence.has("other_axis_split")):
        return False
    over_dp = any(not book.stance.excluded(sentence.text, a, b) for a, b in sentence.spans("over_dp_ranks"))
    # "ZeRO-R partitions activation checkpoints, but across the TP group": TP's axis; a TP split said before the clause
    # is the premise of the stage's split ("ZeRO 沿 TP 维度切权重，所以激活在 ZeRO-3 下也被切开了")
    across_tp = sentence.has("tp_axis_split", clause[0], len(sentence.text))
    return (across_tp or not sentence.names_stage(*clause)) and not over_dp  # "…, not across the data-parallel group" names no DP target


def _relation(sentence: PreparedSentence, clause: tuple[int, int], subject: str | None, start: int, end: int) -> tuple[Relation | None, str | None]:
    """How the clause relates the predicate's states to another stage, and which: the same set ("和 ZeRO-2 一样",
    "does not change what is sharded compared with ZeRO-1"), the states added over it ("在 ZeRO-2 基础上", "比 ZeRO-1
    多切", "additionally"), or the stage a state is first sharded at ("要到 ZeRO-3 才切")."""
    low, high = max(clause[0], start - RELATION_REACH), min(clause[1], end + RELATION_REACH)
    references = [m for m in sentence.mentions if low <= m.start < high and m.reference and m.stage != subject]
    for a, b in sorted(sentence.spans("first_at"), key=lambda span: min(abs(span[0] - start), abs(span[0] - end))):
        if low <= a < high:  # the nearest: "梯度要到 ZeRO-2 才切，参数要到 ZeRO-3 才切"
            stage = _ANY_TAG.search(sentence.text, a, b)
            if stage:
                return "first-at", stage.group(1)
    sames = sentence.spans("same")
    for a, b in sentence.spans("adds_over"):
        if low <= a < high and not any(c <= a < d for c, d in sames):  # "并没有多分片什么" says the same set
            named = _ANY_TAG.search(sentence.text, a, b)  # "= ZeRO-2 + …", "在 ZeRO-2 基础上": the stage in the cue
            if named and not (named.group(1) == subject and sentence.stance.inside_aside(start)):
                return "adds-over", named.group(1)
            return "adds-over", references[0].stage if references else None  # an aside glossing the cue's stage
    if references and any(low <= a < high for a, _ in sentence.spans("same")):
        return "same-as", references[0].stage
    return None, None


def _next_first_at(sentence: PreparedSentence, clause: tuple[int, int], end: int) -> int:
    """Where the clause stops binding states to a predicate read with "first at": at the comma before the next such cue
    that is not the predicate's own ("partitioned from ZeRO-1 onwards, gradients from ZeRO-2 onwards")."""
    later = [a for a, _ in sentence.spans("first_at") if end + OWN_FIRST_AT_REACH < a < clause[1]]
    if not later:
        return clause[1]
    comma = max(sentence.text.rfind(",", end, later[0]), sentence.text.rfind(";", end, later[0]))
    return comma if comma != -1 else later[0]


def _with_contrast(sentence: PreparedSentence, claim: Claim, clause: tuple[int, int]) -> Iterator[Claim]:
    """The claim, and the same said by ellipsis of another stage right after its clause ("ZeRO-1/2 can't shard
    activations, but ZeRO-3 does", "ZeRO-3 切参数，而 ZeRO-2 不会"); the second's stance is read at its own words."""
    yield claim
    contrast = sentence.book.structure["contrast_ellipsis"].match(sentence.text, clause[1])
    if contrast is None:
        return
    stage = _ANY_TAG.match(contrast.group("stage"))
    if stage is not None and stage.group(1) != claim.subject and stage.group(1) not in sentence.book.others:
        yield replace(claim, subject=stage.group(1), start=contrast.end("verb"), end=contrast.end("verb"), relation=None, other=None)


def _gapped(sentence: PreparedSentence) -> Iterator[Claim]:
    """Claims whose verb is left out after an earlier clause that has one ("ZeRO-1 removes the redundant optimizer
    states, ZeRO-2 additionally the parameters, and ZeRO-3 finally the gradients"): each stage followed by nothing
    but its objects takes the nearest verb before it."""
    predicates = sorted((a, b, sharded) for word, sharded in PREDICATES for a, b in sentence.spans(word))
    for mention in sentence.mentions:
        if mention.reference or mention.stage in sentence.book.others:
            continue
        gapped = sentence.book.word("gapped_object").match(sentence.text, mention.end)
        verbs = [p for p in predicates if p[1] <= mention.start]
        if gapped is None or not verbs or any(mention.start <= a < gapped.end() for a, _, _ in predicates):
            continue
        if not any(verbs[-1][0] > m.start or verbs[-1][1] <= m.start < mention.start for m in sentence.mentions if m is not mention and not m.reference):
            continue  # the verb's own subject comes before it or between it and this stage
        objects = [sentence.text[a:b] for a, b in sentence.spans("object_noun") if mention.end <= a < gapped.end()]
        states = {s for noun in objects for c in STATES if sentence.book.word(c).fullmatch(noun) for s in STATES[c]}
        for state in sorted(states):  # one claim a state, as the judge reads an unrestricted split
            yield Claim(mention.stage, "shards", frozenset({state}), mention.end, gapped.end(), sharded=verbs[-1][2])


def _conjoined_same(sentence: PreparedSentence) -> Iterator[Claim]:
    """Two stages said together to shard the same states ("ZeRO-2 and ZeRO-3 shard the same three things"): the first
    shards the second's set."""
    for found in sentence.book.word("conjoined_same").finditer(sentence.text):
        if found.group("a") != found.group("b"):
            yield Claim(found.group("a"), "shards", frozenset(), found.start("verb"), found.end(), "same-as", found.group("b"))


def _state_glosses(sentence: PreparedSentence) -> list[tuple[str, str, int, int]]:
    """States listed each with the stage that first shards it in parentheses ("参数（ZeRO-1 就已经切了）、梯度（ZeRO-2）"),
    as (stage, state, start, end), in a list of two or more; none otherwise."""
    found = []
    for gloss in sentence.book.word("state_gloss").finditer(sentence.text):
        states = [s for c in STATES if sentence.book.word(c).fullmatch(gloss.group("state")) for s in STATES[c]]
        if len(states) == 1:
            found.append((gloss.group("stage")[1:-1], states[0], gloss.start("stage"), gloss.end()))
    return found if len(found) >= 2 else []


def _glossed_stages(sentence: PreparedSentence) -> Iterator[Claim]:
    """Each glossed stage of a list of states first shards its state."""
    for stage, state, start, end in _state_glosses(sentence):
        yield Claim(stage, "shards", frozenset({state}), start, end, "first-at", stage)


NOTATION = {"os": "optimizer", "g": "gradients", "p": "parameters"}
"""The subscripts of the ZeRO paper's notation (P_os, P_os+g, P_os+g+p) and the state each stands for."""
_NOTATION_ITEM = re.compile(r"^p_?(?=os|g|p)")


def _notation(sentence: PreparedSentence) -> Iterator[Claim]:
    """A stage written as the paper's notation for what it shards ("Z2 = P_os+p", "ZeRO-2 (P_os + P_p)"), or as a sum of
    the states themselves ("ZeRO-2 = optimizer states + parameters"): the whole set it shards. (The stage's own notation
    is tagged as the stage, so what is left to read is another set.)"""
    def noted(item: str) -> str | None:
        return NOTATION.get(_NOTATION_ITEM.sub("", item))

    def named(item: str) -> str | None:
        return next((c for c in ("parameters", "gradients", "optimizer") if sentence.book.word(c).fullmatch(item)), None)

    for word, group, state_of in (("state_notation", "notation", noted), ("state_sum", "states", named)):
        for found in sentence.book.word(word).finditer(sentence.text):
            states = [state_of(item.strip()) for item in found.group(group).split("+")]
            if None not in states:
                yield Claim(found.group("stage"), "shards", frozenset(states), found.start(), found.end(), exact=True)


def _identities(sentence: PreparedSentence) -> Iterator[Claim]:
    """Claims that one stage is another: a gloss naming a different stage ("ZeRO-1 (P_os+g)"), "FSDP 就是 ZeRO-2 的
    PyTorch 实现", or an FSDP sharding strategy glossed as another stage than it is ("SHARD_GRAD_OP，也就是 ZeRO-3",
    "ZeRO-1 is FSDP's SHARD_GRAD_OP")."""
    for a, b in sentence.spans("identity"):
        tags = _ANY_TAG.findall(sentence.text, a, b)
        if len(tags) > 2:  # a stage the first is built on ("ZeRO-2 在 ZeRO-1 的基础上再切梯度——这就是 FSDP 的 FULL_SHARD") is neither side
            based_on = sentence.spans("adds_over")
            tags = [t.group(1) for t in _ANY_TAG.finditer(sentence.text, a, b) if not any(x <= t.start() < y for x, y in based_on)]
        if len(tags) == 2 and tags[0] != tags[1]:
            yield Claim(tags[0], "identity", tags[1], a, b)
    for glossed in (m for word in ("strategy_identity", "stage_is_strategy") for m in sentence.book.word(word).finditer(sentence.text)):
        named = glossed.group("named")
        stage = next(name for name, value in glossed.groupdict().items() if value and name != "named")
        if stage != named:
            yield Claim(stage, "identity", named, glossed.start(), glossed.end())
