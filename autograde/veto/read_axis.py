"""Read the parallelism axis a sentence says a stage shards along, where it names another axis than data parallelism:
tensor parallelism's matrices, or pipeline parallelism's whole layers."""
from __future__ import annotations

from collections.abc import Iterator

from autograde.veto.claims import Claim
from autograde.veto.prepared import PreparedSentence

AXIS_SPLITS = (("tp_axis_split", "tp"), ("layer_split", "pp"))
"""Word classes of the cue book that name a split along another axis, and the axis each names (tagged as in the
text)."""


def axis_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Each stage said to split its states along another axis ("ZeRO 沿着 TP 的维度把权重切开", "ZeRO-3 把不同的 layers 分给
    不同的 GPU"), the stage named last before it in its clause; a split of activations there is another option's
    ("partition_activations 切的是 TP 组内的激活")."""
    for word, axis in AXIS_SPLITS:
        for start, end in sentence.spans(word):
            clause = sentence.clause_around(start, end)
            if sentence.has("activations", *clause) or (word == "tp_axis_split" and not _splits(sentence, clause, start)):
                continue
            stage = _splitting_stage(sentence, clause, start)
            if stage is not None:
                yield Claim(stage, "axis", axis, start, end)


def _splits(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> bool:
    """Whether the clause of a split at `start` names a split or the work of one, or opens on that split right after
    a clause that names one ("ZeRO-3 shards the states, but only along the TP dimension"), not one of activations
    ("partitions activation checkpoints, but across TP ranks": another option's)."""
    if any(sentence.has(word, *clause) for word in ("shard", "axis_work")):
        return True
    continued = sentence.book.word("split_continued").fullmatch(sentence.text, clause[0], start)
    return bool(continued) and sentence.has("shard", 0, clause[0]) and not sentence.has("activations", 0, clause[0])


def _splitting_stage(sentence: PreparedSentence, clause: tuple[int, int], start: int) -> str | None:
    """The stage a split at `start` is said of: the one named last before it in its clause ("那是 TP group 内的切分": none,
    another axis), else one likened to another axis there or right before ("ZeRO-3 和 TP 一样是沿 TP 维度切的", "ZeRO-3 跟
    TP 一样，是沿着 TP 维度切的"), else the stage named last earlier in the sentence, outside quotes, when the clause goes
    on from it ("ZeRO-3 fits because it shards params across the pipeline stages", "ZeRO-3 partitions the parameters, and
    the partitioning is done across the TP group") or opens on the split ("ZeRO-3 的三类状态都切开了，只是沿着 TP 的维度"),
    else the topic a Chinese pronoun opening the clause carries on ("它的参数分片是沿 TP 维度做的", "它把参数沿 TP 的维度切开")."""
    others = sentence.book.others
    named = [m for m in sentence.mentions if clause[0] <= m.start < start and not m.reference]  # not one compared with
    if named and named[-1].stage not in others:
        return named[-1].stage
    stages = [m for m in sentence.mentions if m.start < start and m.stage not in others]
    likened = sentence.book.word("likened_axis")
    for mention in reversed(stages):
        likening = likened.match(sentence.text, mention.start)
        if likening and (likening.end() > clause[0] or not sentence.text[likening.end():clause[0]].strip(" ,，")):
            return mention.stage
    if named:
        return None
    unquoted = [m for m in stages if not any(q0 <= m.start < q1 for q0, q1 in sentence.quotes)]
    goes_on = sentence.book.word("continuing_opener").match(sentence.text, clause[0], start)
    if unquoted and (goes_on or sentence.book.word("split_continued").fullmatch(sentence.text, clause[0], start)):
        return unquoted[-1].stage
    pronoun = sentence.book.word("pronoun_opener").match(sentence.text, clause[0])
    return sentence.topic if pronoun and sentence.topic not in (None, *others) else None
