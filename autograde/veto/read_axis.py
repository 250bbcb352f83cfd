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
            if sentence.has("activations", *clause) or (word == "tp_axis_split" and not sentence.has("shard", *clause)):
                continue
            named = [m.stage for m in sentence.mentions if clause[0] <= m.start < start]  # "那是 TP group 内的切分": none
            if named and named[-1] not in sentence.book.others:
                yield Claim(named[-1], "axis", axis, start, end)
