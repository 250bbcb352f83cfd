"""Does the text veto checker judge what a sentence asserts, not which keywords it contains?"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autograde.veto.scoring import LABELLED_DIR, load_labelled, score
from autograde.veto.text import find_vetoes

ROOT = Path(__file__).resolve().parents[1]
A, U, S, C = "activations-sharded", "unbounded-scaling", "wrong-shard-target", "wrong-comm-volume"


def ids(answer: str, question: str | None = None) -> list[str]:
    """The veto ids found in `answer`."""
    return [v.id for v in find_vetoes(answer, question)]


# (veto id, question, a sentence asserting it, the same claim negated or refuted)
TWINS = [
    (A, "q1", "ZeRO-3 会把激活也切分到各个 DP rank 上。", "ZeRO-3 不会把激活切分到各个 DP rank 上。"),
    (A, "q1", "FSDP shards the activations across data-parallel ranks.", "FSDP does not shard the activations across data-parallel ranks."),
    (A, "q1", "ZeRO-3 还会把 activations 按 rank 切开。", "ZeRO-3 没法把 activations 按 rank 切开。"),
    (U, "q3", "N_d → ∞ 时 ZeRO-3 每卡显存趋于 0。", "N_d → ∞ 时 ZeRO-3 每卡显存并不会趋于 0。"),
    (U, "q3", "With enough GPUs ZeRO-3 makes per-GPU memory arbitrarily small.", "Even with enough GPUs ZeRO-3 cannot make per-GPU memory arbitrarily small."),
    (U, "q1", "只要卡足够多，ZeRO-3 能把任何长度的序列都装下。", "卡再多，ZeRO-3 也装不下任意长的序列。"),
    (U, "q1", "ZeRO-3 alone solves long-context training.", "ZeRO-3 alone does not solve long-context training."),
    (U, "q3", "只要集群够大，ZeRO-3 的单卡显存就不再是约束：N_d 翻倍，每卡占用就减半，可以一直减下去。", "只要集群够大，ZeRO-3 的模型状态显存随 N_d 翻倍而减半，但激活显存不会变。"),
    (U, "q1", "The long-context problem goes away with ZeRO-3 if you throw enough GPUs at it.", "The long-context problem does not go away with ZeRO-3, however many GPUs you throw at it."),
    (U, "q1", "只要卡足够多，ZeRO-3 下长序列也不会 OOM。", "只要卡足够多，ZeRO-3 配上 CP，长序列就不会 OOM。"),
    (U, "q1", "With enough GPUs, ZeRO-3 removes the need for activation checkpointing.", "Even with enough GPUs, ZeRO-3 does not remove the need for activation checkpointing."),
    (S, "q2", "ZeRO-2 把参数也分片了。", "ZeRO-2 没有把参数分片。"),
    (S, "q2", "ZeRO-1 shards the gradients.", "ZeRO-1 does not shard the gradients."),
    (S, "q3", "ZeRO-3 keeps a full copy of the parameters on every GPU.", "ZeRO-3 never keeps a full copy of the parameters on every GPU."),
    (S, "q2", "ZeRO-2 的梯度不分片。", "ZeRO-2 的梯度也分片。"),
    (C, "q2", "ZeRO-2 的通信量比 ZeRO-1 大。", "ZeRO-2 的通信量并不比 ZeRO-1 大。"),
    (C, "q3", "ZeRO-3 communicates less than DDP.", "ZeRO-3 does not communicate less than DDP."),
    (C, "q3", "ZeRO-3 的优化器更新需要一次 all-gather。", "ZeRO-3 的优化器更新不需要任何通信。"),
    (C, "q2", "After the step, ZeRO-1 all-gathers the gradients.", "After the step, ZeRO-1 all-gathers the parameters, not the gradients."),
]


@pytest.mark.parametrize(("veto_id", "question", "claim", "twin"), TWINS)
def test_claim_vetoes_and_negated_twin_does_not(veto_id: str, question: str, claim: str, twin: str) -> None:
    """Does a claim raise its veto while the same claim negated raises nothing?"""
    assert ids(claim, question) == [veto_id]
    assert ids(twin, question) == []


@pytest.mark.parametrize(
    "answer",
    [
        *(f"ZeRO-3 {cue}分片激活。" for cue in ("不", "不能", "无法", "并不", "没有", "并非", "不会", "从不")),
        "ZeRO-3 不是分片激活，而是分片模型状态。",
        *(f"ZeRO-3 {cue} activations." for cue in ("does not shard", "doesn't shard", "cannot shard", "never shards", "no longer shards", "isn't able to shard")),
        "Activations are not sharded by ZeRO-3.",
        "ZeRO-3 shards parameters, not activations.",
    ],
)
def test_negation_cues(answer: str) -> None:
    """Does each negation cue, Chinese or English, keep a negated claim from vetoing?"""
    assert ids(answer, "q1") == []


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("有人以为 ZeRO-3 连激活也分片，这是错的。", "q1"),
        ("常见误解是“ZeRO-2 分片了参数”。实际上它分片的是梯度。", "q2"),
        ("一个常见错误是认为 ZeRO-2 的通信比 ZeRO-1 多。其实两者都是 2Ψ。", "q2"),
        ("It is a myth that ZeRO-3 partitions activations.", "q1"),
        ("A common mistake is to think ZeRO-3 moves 2Ψ like DDP. It moves 3Ψ.", "q3"),
        ("\"FSDP shards activations across ranks.\" That's wrong: it only shards model states.", "q1"),
        ("The claim that ZeRO-3 splits activations across ranks is wrong.", "q1"),
        ("People often assume ZeRO-3 keeps full parameters on each GPU; it doesn't.", "q3"),
        ("有同学以为 ZeRO-1 省了一半 bandwidth。No——还得 all-gather 回来，2Ψ。", "q2"),
    ],
)
def test_refuted_misconception_is_not_a_veto(answer: str, question: str) -> None:
    """Is a misconception quoted only to be rejected left alone?"""
    assert ids(answer, question) == []


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("A claim I hear a lot is that with enough GPUs ZeRO-3 makes memory a non-issue. That's only true for model states.", "q3"),
        ("A claim I hear a lot is that FSDP shards activations. That's only true if you add sequence parallelism.", "q1"),
        ("常有人说只要卡够多 ZeRO-3 的显存就趋于 0，这只对模型状态成立，激活不会变小。", "q3"),
        ("有人认为 ZeRO-2 的通信比 ZeRO-1 多，其实两者一样。", "q2"),
        ("有人以为 ZeRO-2 把梯度切了以后还得额外 all-gather 梯度，其实不需要，通信还是 2Ψ。", "q2"),
        ("People often say ZeRO-1 halves the communication, but that's only true for the reduce-scatter step.", "q2"),
        ("There's a popular myth that FSDP shards activations because it's 'fully sharded'.", "q1"),
        ("Someone in my study group claimed that since FSDP is 'fully sharded', activations must be sharded too.", "q1"),
        ("My lab partner claimed FSDP moves the same 2Ψ as DDP.", "q3"),
        ("If ZeRO could shard activations, a 128k context would just be a matter of adding GPUs.", "q1"),
    ],
)
def test_hearsay_and_partial_refutations(answer: str, question: str) -> None:
    """Is a view reported as hearsay ("常有人说", "a claim I hear a lot is"), limited afterwards ("that's only true
    for …", "这只对…成立") or put as a counterfactual left alone, and is a refuted consequence not read as its premise?"""
    assert ids(answer, question) == []


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("ZeRO-1 needs each rank to have only the gradient slice matching its optimizer shard.", "q2", []),
        ("ZeRO-1 shards the gradients across ranks.", "q2", [S]),
        ("ZeRO-1 换成 RS + AG 是为了配合优化器状态分片。", "q2", []),
        ("ZeRO-1 的 all-gather 传的是梯度。", "q2", [C]),
        ("ZeRO-1 does a reduce-scatter so each rank gets the gradient for its shard, then an all-gather of the gradients.", "q2", [C]),
        ("ZeRO-3 能跑比 DDP 更长的序列，因为模型状态被切了。", "q1", []),
        ("ZeRO-3 能跑任意长的序列。", "q1", [U]),
        ("第三阶段把中间激活也均摊到各张卡上，所以 ZeRO-3 能跑更长的序列。", "q1", [A]),
        ("RS + AG = 2Ψ，和 all-reduce 一样。", "q3", []),
        ("ZeRO-3 每步通信 2Ψ，和 DDP 一样。", "q3", [C]),
    ],
)
def test_one_error_raises_one_veto(answer: str, question: str, expected: list[str]) -> None:
    """Does a claim raise only its own veto: "its shard" is a noun, a reason for an all-gather is not its payload,
    "longer than DDP" is no unbounded claim, and an unnamed baseline total is not the question's stage?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("同组同学说“FSDP 也把激活按卡切开了”。我不同意：激活各卡不同，没有冗余。", "q1", []),
        ("同组同学说“FSDP 也把激活按卡切开了”。我同意。", "q1", [A]),
        ("A classmate argued that ZeRO-2 shards the parameters. I disagree.", "q2", []),
        ("A classmate argued that ZeRO-2 shards the parameters, and that's right.", "q2", [S]),
        ("✗ 'ZeRO-2 shards the parameters' → ✓ it shards the gradients", "q2", []),
        ("Wrong: ZeRO-2 shards the parameters. Right: it shards the gradients.", "q2", []),
        ("有篇博客写：“ZeRO-1 把通信量减半了。因为 RS 比 AR 快两倍。”这是把半句话当成了整句。", "q2", []),
        ("ZeRO-2 shards the parameters, hence the name 'stage two'.", "q2", [S]),
    ],
)
def test_reported_claims_are_not_asserted(answer: str, question: str, expected: list[str]) -> None:
    """Is a quoted or attributed claim left alone unless the student endorses it, even across sentences?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("Saying that FSDP shards activations would be wrong: activations differ on every rank.", "q1"),
        ("A tempting but false conclusion is that ZeRO-3 partitions activations because it partitions everything else.", "q1"),
        ("It would be a mistake to say ZeRO-2 shards the parameters; it shards gradients and optimizer states.", "q2"),
        ("Some textbooks loosely write that ZeRO-1 halves the communication. That is misleading: it is still 2Ψ.", "q2"),
        ("说 ZeRO-2 把参数分片是不对的，它分片的是梯度和优化器状态。", "q2"),
        ("You might expect FSDP to shard the activations as well. It doesn't, because nothing about them is duplicated.", "q1"),
    ],
)
def test_english_and_chinese_verdicts_refute(answer: str, question: str) -> None:
    """Is a claim followed or preceded by a verdict ("would be wrong", "a false conclusion is that", "it would be a
    mistake to say", "…是不对的") or put as an expectation ("you might expect") left alone?"""
    assert ids(answer, question) == []


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("ZeRO-2 shards gradients and optimizer states, and parameters stay replicated.", "q2", []),
        ("说 reduce-scatter 比 all-reduce 快两倍，就是指它只传一半的数据。", "q2", []),
        ("ZeRO-3 all-gathers the parameters once per step, so it moves 2Ψ like DDP.", "q3", [C]),
        ("Prefetching hides both all-gathers, and since the total is 2Ψ anyway it barely matters.", "q3", [C]),
        ("RS 是 Ψ，但 AG 要把 full params 发给每个 rank，算 2Ψ，所以 ZeRO-1 实际是 3Ψ。", "q2", [C]),
        ("ZeRO-3 的每卡显存是 16Ψ/N_d，没有下限，所以长序列只要加 DP 卡就行。", "q1", [U]),
        ("ZeRO-1 把梯度分了片，所以天然要用 reduce-scatter。", "q2", [S]),
        ("Already at stage 1 each rank only stores its slice of the weights.", "q1", [S]),
        ("ZeRO-3 在前向算完每一层后，会把这一层的输出按 rank 数切成 N_d 份。", "q1", [A]),
    ],
)
def test_whose_claim_and_which_stage(answer: str, question: str, expected: list[str]) -> None:
    """Is a noun with its own verb not the object of the one before, a pronoun for a collective not a stage, a marked
    total the question's stage, and does "所以" end a stage's hold on the value before it?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("Activations are redundant, so ZeRO-3 partitions them along with the parameters.", "q1", [A]),
        ("激活也有冗余，ZeRO-3 会把它和参数一起按 1/N_d 分片。", "q1", [A]),
        ("FSDP shards the saved activations too, so each rank only keeps 1/N_d of them.", "q1", [A]),
        ("Activations differ per rank, so ZeRO-3 cannot partition them.", "q1", []),
        ("ZeRO-3 shards the parameters and gathers them back before each layer.", "q3", []),
        ("Since FSDP shards every tensor it holds, including activations, each rank keeps less.", "q1", [A]),
        ("ZeRO-1 shards the optimizer states, ZeRO-3 the parameters and the activations.", "q1", [A]),
    ],
)
def test_pronoun_and_listed_objects(answer: str, question: str, expected: list[str]) -> None:
    """Does a pronoun object ("partitions them", "把它…分片") stand for the last object noun before it, and a noun listed as
    included ("…, including activations") belong to the predicate whatever verb comes between?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("ZeRO-2 并不切参数（有人把 ZeRO-2 说成切参数，那是错的）。", "q2", []),
        ("ZeRO-3 在 ZeRO-2（已切分优化器状态和参数）的基础上再切梯度。", "q3", [S]),
        ("ZeRO-3 在 ZeRO-2（已切分优化器状态和梯度）的基础上再切参数。", "q3", []),
        ("ZeRO-2 不切参数，正因为参数被切，ZeRO-3 才需要在前向 all-gather。", "q3", []),
        ("Since the parameters are sharded, ZeRO-1 must all-gather them after the update.", "q2", [S]),
        ("Activations depend on each rank's data, so they aren't redundant and ZeRO can't shard them.", "q1", []),
    ],
)
def test_asides_and_subordinate_clauses(answer: str, question: str, expected: list[str]) -> None:
    """Does an aside keep its own claim and verdict and gloss the stage before it, does a subordinate clause with no stage
    take the main clause's, and does "and <stage>" start a clause of its own?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("“RS 比 AR 快两倍”就是 volume 减半。", "q2", []),
        ('"Reduce-scatter is 2× faster than all-reduce" just says that half alone is half the traffic.', "q2", []),
        ("ZeRO-1 halves DDP's communication.", "q2", [C]),
        ("另外就算硬要切激活，ZeRO-3 每层还得额外通信。", "q1", []),
        ("Even if FSDP sharded activations, it would need more traffic.", "q1", []),
        ("Could ZeRO-3 shard activations? No: the activations differ, so partitioning them would just move data around.", "q1", []),
        ("I initially thought FSDP shards activations too, but it doesn't.", "q1", []),
    ],
)
def test_what_is_not_the_students_claim(answer: str, question: str, expected: list[str]) -> None:
    """Is the prompt's RS-versus-AR comparison about the collectives, and are concessive conditions, hypothetical actions
    and retracted first thoughts left unasserted?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("ZeRO-2 到 ZeRO-3，通信从 2Ψ 变成 3Ψ。", []),
        ("Going from ZeRO-2 to ZeRO-3 raises traffic from 2Ψ to 3Ψ.", []),
        ("ZeRO-2 到 ZeRO-3，通信从 2Ψ 变成 4Ψ。", [C]),
        ("ZeRO-3 的通信是 3Ψ：ZeRO-2 的参数常驻。", []),
    ],
)
def test_stage_changes_bind_each_value_to_its_stage(answer: str, expected: list[str]) -> None:
    """In 'from stage A to stage B, from x to y', is y read as B's value and a stage after a colon not the owner?"""
    assert ids(answer, "q3") == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("ZeRO-3 不是不能分片激活，它在前向里确实会把激活按 rank 切开。", [A]),
        ("ZeRO-2 并不是不分片参数，它确实把参数切开了。", [S]),
        ("It is not true that ZeRO-2 shards gradients.", [S]),
        ("It is not true that ZeRO-3 does not shard parameters.", []),
        ("ZeRO-2 并不是不分片梯度。", []),
        ("Neither ZeRO-2 nor ZeRO-3 partitions activations.", []),
        ("ZeRO 不会也没法切分激活。", []),
        ("ZeRO-2 不只切优化器状态，还把梯度也切了。", []),
        ("ZeRO-3 not only shards optimizer states and gradients but also the parameters.", []),
    ],
)
def test_double_negation(answer: str, expected: list[str]) -> None:
    """Do two negations cancel, while 'neither…nor', '不会也没法' and 'not only' count as they read?"""
    assert ids(answer) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("有人说 ZeRO-2 的通信会比 ZeRO-1 多，因为要切梯度，其实不对。", "q2", []),
        ("Some people think that since ZeRO-2 shards gradients it must communicate more; that is wrong.", "q2", []),
        ("有人以为 ZeRO-2 不切梯度，这是错的。", "q2", []),
        ("有人以为 ZeRO-2 的梯度是完整的，其实它的梯度不分片。", "q2", [S]),
        ("ZeRO-2 在 reduce-scatter 后丢弃不属于本 rank 的梯度分片。", "q2", []),
        ("ZeRO-2 并不会把完整的梯度切开。", "q2", [S]),
    ],
)
def test_denied_claims_need_their_own_negation(answer: str, question: str, expected: list[str]) -> None:
    """Is a 'does not shard' misconception raised only by a negation of that verb, not by a refuted premise
    ("因为要切梯度") or a negation inside a modifier ("不属于本 rank 的梯度分片")?"""
    assert ids(answer, question) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("长上下文显存不够？开 ZeRO-3、多加几张卡就解决了。", [U]),
        ("长上下文显存不够？开 ZeRO-3、多加几张卡也解决不了。", []),
        ("显存不够？开 ZeRO-3、多加几张卡就解决了。", []),
        ("ZeRO-3 会把激活按 DP rank 切开存，不然 FSDP 怎么叫 fully sharded？", [A]),
        ("ZeRO-3 会把激活按 DP rank 切开存吗？", []),
    ],
)
def test_rhetorical_questions(answer: str, expected: list[str]) -> None:
    """Does a question the answer then answers lend it its context, and an 'otherwise …?' tail leave the claim asserted?"""
    assert ids(answer, "q1") == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("我觉得 ZeRO-2 应该把参数也分片了。", [S]),
        ("I think ZeRO-2 probably needs a bit more communication than ZeRO-1.", [C]),
        ("My understanding is that ZeRO-3 also spreads the activation checkpoints across ranks.", [A]),
        ("我猜 ZeRO-3 的通信和 ZeRO-2 一样吧。", [C]),
        ("I'm not sure whether FSDP shards activations.", []),
    ],
)
def test_hedged_claims_still_assert(answer: str, expected: list[str]) -> None:
    """Does 'I think / probably / 应该' still assert, while an open 'whether' asserts nothing?"""
    assert ids(answer, "q2") == expected


@pytest.mark.parametrize(
    "alias", ["ZeRO-3", "ZeRO3", "Zero-3", "ZeRO\u20113", "ZeRO–3", "Z3", "stage 3", "Stage-3", "ZeRO 第三阶段", "ZeRO 第 3 阶段", "FSDP", "全分片数据并行", "P_os+g+p", "$P_{os+g+p}$"]
)
def test_zero3_aliases(alias: str) -> None:
    """Is every spelling of ZeRO-3 recognised as the stage that shards activations in the claim?"""
    assert ids(f"{alias} 会把激活分片到各个 rank 上。", "q1") == [A]


@pytest.mark.parametrize("alias", ["ZeRO-2", "zero2", "Stage 2", "ZeRO 第二阶段", "P_{os+g}", "ＺｅＲＯ－２"])
def test_zero2_aliases(alias: str) -> None:
    """Is every spelling of ZeRO-2 recognised when it is said to shard parameters?"""
    assert ids(f"{alias} 把参数也分片了。", "q2") == [S]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (r"The ZeRO-3 volume is $2\Psi$ per step.", [C]),
        (r"The ZeRO-3 volume is $3\Psi$ per step.", []),
        (r"$V_{\text{ZeRO-1}} = V_{RS} + V_{AG} = 2\Psi + 2\Psi = 4\Psi$.", [C]),
        (r"$V_{\text{ZeRO-1}} = V_{RS} + V_{AG} = \Psi + \Psi = 2\Psi$.", []),
        (r"With ZeRO-3, $\frac{16\Psi}{N_d} \to 0$, so total memory per GPU, activations included, vanishes.", [U]),
        (r"With ZeRO-3, $\frac{16\Psi}{N_d} \to 0$ as $N_d \to \infty$: that is the model-state term only.", []),
        ("ZeRO-1 总通信量 3P，ZeRO-3 是 4P。", [C]),
        ("ZeRO-1 总通信量 2P，ZeRO-3 是 3P。", []),
        ("zero_communication_volume(Ψ, 3) should return 2 * num_params, the same as stage 1.", [C]),
    ],
)
def test_latex_and_psi_spellings(answer: str, expected: list[str]) -> None:
    """Are LaTeX, P and num_params read as Ψ?"""
    assert ids(answer, "q3") == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("ZeRO-3 的通信是 DDP 的三倍。", [C]),
        ("ZeRO-3 的通信量是 DDP 的两倍。", [C]),
        ("ZeRO-3 的通信是 DDP 的 1.5 倍。", []),
        ("ZeRO-3 communicates twice as much as DDP.", [C]),
        ("ZeRO-3 communicates one and a half times as much as DDP.", []),
        ("Stage 3 sends three times the data of stage 2.", [C]),
        ("ZeRO-3 的 comm 是 two psi，跟 DDP 一样。", [C]),
        ("ZeRO-3 的 comm 是 three psi，比 DDP 多一个 psi。", []),
        ("ZeRO-1 把 all-reduce 换成 reduce-scatter，通信量减半。", [C]),
        ("reduce-scatter 的通信量是 all-reduce 的一半。", []),
        ("Reduce-scatter is twice as fast as all-reduce because it moves Ψ rather than 2Ψ.", []),
    ],
)
def test_number_words(answer: str, expected: list[str]) -> None:
    """Are 三倍 / twice / 一半 / 1.5 倍 read as numbers, and 'twice as fast' for RS left alone?"""
    assert ids(answer, "q3") == expected


def test_full_width_punctuation_and_letters() -> None:
    """Are full-width letters, digits and stops treated like their ASCII forms?"""
    assert ids("ZeRO‑3 splits the activations across ranks as well；that is all．", "q1") == [A]
    assert ids("ＺｅＲＯ－３ 不会切分激活；激活每卡各异。", "q1") == []
    assert ids("ZeRO-3 moves ２Ψ per step.", "q3") == [C]


@pytest.mark.parametrize(
    "answer",
    [
        "Sequence parallelism splits the activations along the sequence within the TP group.",
        "Context parallelism shards the activations along the sequence across CP ranks; ZeRO-3 cannot do that.",
        "张量并行把每层的激活切到 TP 组内，序列并行把 LayerNorm 的激活沿序列维切开。",
        "激活 sharding 是 TP/SP 的事，ZeRO 只切 model states。",
        "不是 ZeRO 把激活切了，是 SP 把激活切了。",
        "DeepSpeed 的 partition_activations 是在模型并行（TP）组内切分激活检查点。",
    ],
)
def test_tensor_sequence_context_parallel_split_activations(answer: str) -> None:
    """Is splitting activations by TP / SP / CP accepted as correct?"""
    assert ids(answer, "q1") == []


@pytest.mark.parametrize(
    "answer",
    [
        "N_d → ∞ 时，ZeRO-3 每卡的模型状态显存趋于 0，但激活不会变。",
        "N_d 足够大时 ZeRO-3 的静态显存可以无限小。",
        "As N_d goes to infinity, only the model-state part 16Ψ/N_d goes to zero.",
        "At 10k GPUs the sharded model states per GPU essentially vanish.",
        "ZeRO-3 的每卡显存随 N_d 增大趋于 0（只指模型状态部分）。",
    ],
)
def test_model_states_going_to_zero_is_correct(answer: str) -> None:
    """Is 'model states → 0' accepted when the claim is restricted to model states?"""
    assert ids(answer, "q3") == []


@pytest.mark.parametrize("answer", ["", "   ", "TODO", "TODO: finish later", "YOUR ANSWER HERE", "不会", "略", "略。", "待补充", "N/A", "..."])
def test_empty_and_placeholder_answers(answer: str) -> None:
    """Does an empty or placeholder answer raise nothing?"""
    assert find_vetoes(answer, "q1") == []


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("为什么 ZeRO 不能分片激活？从“冗余”的定义出发解释。", "q1"),
        ("“reduce-scatter 比 all-reduce 快两倍”在这里意味着什么？", "q2"),
        ("ZeRO-3 的 3Ψ 通信量由哪三部分组成？", "q3"),
        ("说明“ZeRO-3 让模型装得下”与“ZeRO-3 让训练快”是两回事。", "q3"),
    ],
)
def test_question_quoted_back(answer: str, question: str) -> None:
    """Does repeating the question prompt raise nothing?"""
    assert find_vetoes(answer, question) == []


def test_evidence_is_the_original_asserting_sentence() -> None:
    """Is the evidence the asserting sentence exactly as the student wrote it?"""
    answer = "ZeRO 消除的是冗余。\n- ＺｅＲＯ－３ 还会把激活按 rank 均分，省下激活显存。\n重计算与 ZeRO 正交。"
    [veto] = find_vetoes(answer, "q1")
    assert (veto.id, veto.origin) == (A, "text")
    assert veto.evidence == "ＺｅＲＯ－３ 还会把激活按 rank 均分，省下激活显存。"
    assert veto.evidence in answer


def test_one_veto_per_id_with_the_first_sentence() -> None:
    """Does an answer repeating a claim get one veto, citing the first sentence?"""
    answer = "FSDP shards activations across ranks. Also, ZeRO-3 partitions activations between GPUs."
    assert [(v.id, v.evidence) for v in find_vetoes(answer, "q1")] == [(A, "FSDP shards activations across ranks.")]


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("ZeRO-2 does not change what is sharded compared with ZeRO-1.", "q2", (S, "ZeRO-2 · shards · {optimizer} (same as ZeRO-1)")),
        ("ZeRO-3 和 ZeRO-2 切分的东西一样，区别只在通信。", "q3", (S, "ZeRO-3 · shards · {gradients, optimizer} (same as ZeRO-2)")),
        ("ZeRO-2 在 ZeRO-1 的基础上再把参数也切了。", "q2", (S, "ZeRO-2 · shards · {parameters} (on top of ZeRO-1)")),
        ("梯度要到 ZeRO-3 才切。", "q3", (S, "ZeRO-3 · shards · {gradients} (first at ZeRO-3)")),
        ("ZeRO-2 的梯度不分片。", "q2", (S, "ZeRO-2 · shards · {gradients} — denied")),
        ("In ZeRO-3 the parameters are sharded, but the gradients stay complete on every card.", "q3", (S, "ZeRO-3 · keeps whole · {gradients}")),
        ("ZeRO-1 (P_os+g) shards optimizer states and gradients.", "q2", (S, "ZeRO-1 · is · zero2")),
        ("ZeRO-2 = 2Ψ/N_d + 2Ψ/N_d + 12Ψ/N_d", "q2", (S, "ZeRO-2 · memory · 16Ψ/N_d")),
        ("ZeRO-3 的通信量是 DDP 的两倍。", "q3", (C, "ZeRO-3 · volume · 2× (of DDP)")),
        ("ZeRO-2 的通信比 ZeRO-1 多。", "q2", (C, "ZeRO-2 · volume · more (than ZeRO-1)")),
        ("3Ψ = AG + RS。", "q3", (C, "all-gather + reduce-scatter · volume · 3Ψ")),
        ("ZeRO-3's optimizer step also needs a sync of the shards, small enough to ignore.", "q3", (C, "ZeRO-3 · runs · communication (after-update)")),
        ("ZeRO-1 只需要 reduce-scatter。", "q2", (C, "ZeRO-1 · runs · only reduce-scatter")),
        ("For long sequences with ZeRO-3, just add more GPUs.", "q1", (U, "ZeRO-3 · per-GPU memory · long context is solved by adding GPUs")),
    ],
)
def test_each_veto_names_the_claim_it_read(answer: str, question: str, expected: tuple[str, str]) -> None:
    """Does each veto keep the sentence as evidence and name the claim read from it, a relation resolved through the
    lesson's table ("same as ZeRO-2" is ZeRO-2's set)?"""
    [veto] = find_vetoes(answer, question)
    assert (veto.id, veto.detail["claim"]) == expected
    assert veto.evidence == answer


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("ZeRO-1 moves Ψ + Ψ = 2Ψ. A common slip is adding them as 2Ψ each and getting 4Ψ.", "q2", []),
        ("ZeRO-1 的通信量是 2Ψ，常见的错误是把 RS 和 AG 各算 2Ψ，得到 4Ψ。", "q2", []),
        ("ZeRO-3 的通信量不是 2Ψ 而是 3Ψ。", "q3", []),
        ("FSDP moves not 2Ψ but 3Ψ per step.", "q3", []),
        ("ZeRO-1 = reduce-scater (Ψ) + all-gahter (Ψ) = 2Ψ.", "q2", []),
        ("RS + AG: Σ = Ψ + Ψ = 2Ψ = AR.", "q2", []),
        ("Activations can be split, but by tensor parallelism or context parallelism, not by ZeRO.", "q1", []),
        ("Sequence parallelism partitions the activations along the sequence dimension.", "q1", []),
        ("ZeRO-3 里参数是分片的，梯度在每张卡上保持完整。", "q3", [S]),
        ("The 3Ψ is two all-gathers plus a reduce-scatter (by the way, ZeRO-3 is also 2Ψ overall).", "q3", [C]),
        ("ZeRO-3 的优化器更新还需要额外同步一次参数分片，不过量很小可以忽略。", "q3", [C]),
        ("训练长序列时开 ZeRO-3 再多加几张卡就行了。", "q1", [U]),
    ],
)
def test_kinds_of_held_out_misses(answer: str, question: str, expected: list[str]) -> None:
    """Are the kinds of claims the held-out set missed or misread (described in issue 18, written again here) read
    right: a wrong value warned against or corrected, misspelt collectives, an identity chain, another axis splitting
    activations; gradients that stay complete, an aside's wrong total, a small extra sync, just adding GPUs?"""
    assert ids(answer, question) == expected


PARAPHRASES = yaml.safe_load((LABELLED_DIR / "paraphrases.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", PARAPHRASES, ids=lambda row: row["text"][:40])
def test_paraphrases(row: dict) -> None:
    """Does each paraphrase of a right or wrong claim (other verbs, word order, notation, stance) raise exactly its vetoes?"""
    assert sorted(ids(row["text"], row["question"])) == row["vetoes"]


def test_long_answer_with_one_wrong_sentence() -> None:
    """Is the one wrong sentence of an otherwise right answer found, and only it?"""
    answer = (
        "ZeRO-1 用 reduce-scatter 代替 all-reduce，每卡拿到 1/N_d 的梯度去更新自己那份优化器状态，再 all-gather 参数，"
        "总共 2Ψ。RS 快两倍指 RS 只有 AR 一半的数据量。ZeRO-2 相比 ZeRO-1 多切了参数，所以显存更省，通信不变。"
    )
    assert [(v.id, v.evidence) for v in find_vetoes(answer, "q2")] == [(S, "ZeRO-2 相比 ZeRO-1 多切了参数，所以显存更省，通信不变。")]


SENTENCES = yaml.safe_load((LABELLED_DIR / "sentences.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("veto_id", "sentence", "should_veto"),
    [(veto_id, sentence, kind == "veto") for veto_id, kinds in SENTENCES.items() for kind, sentences in kinds.items() for sentence in sentences],
)
def test_labelled_sentences(veto_id: str, sentence: str, should_veto: bool) -> None:
    """Does every sentence of sentences.yaml raise its veto, or not, as labelled?"""
    assert (veto_id in ids(sentence)) is should_veto, sentence


LESSON_SHARDS = {1: {"optimizer"}, 2: {"gradients", "optimizer"}, 3: {"parameters", "gradients", "optimizer"}}
"""What the lesson says each stage shards (written here, not read from facts.yaml, so a wrong table fails)."""
STATE_NOUNS = {"parameters": ("parameters", "参数"), "gradients": ("gradients", "梯度"), "optimizer": ("optimizer states", "优化器状态"), "activations": ("activations", "激活")}
SHARDING_PHRASES = [
    ("ZeRO-{n} shards the {en}.", True),
    ("ZeRO-{n} does not shard the {en}.", False),
    ("ZeRO-{n} keeps a full copy of the {en} on every GPU.", False),
    ("ZeRO-{n} does not keep a full copy of the {en} on every GPU.", True),
    ("In ZeRO-{n} each rank holds only 1/N_d of the {en}.", True),
    ("ZeRO-{n} 把{zh}分片了。", True),
    ("ZeRO-{n} 不切分{zh}。", False),
    ("ZeRO-{n} 每张卡都保留完整的{zh}。", False),
    ("ZeRO-{n} 每张卡只保存 1/N_d 的{zh}。", True),
]
"""(sentence, whether it says the state is sharded); "keeps a full copy" is not asked of activations, which differ per rank."""


@pytest.mark.parametrize(
    ("stage", "state", "phrase", "says_sharded"),
    [
        (stage, state, phrase, says_sharded)
        for stage in (1, 2, 3)
        for state in STATE_NOUNS
        for phrase, says_sharded in SHARDING_PHRASES
        if not (state == "activations" and ("full" in phrase or "完整" in phrase))
    ],
)
def test_every_stage_and_state_is_judged_against_the_lesson(stage: int, state: str, phrase: str, says_sharded: bool) -> None:
    """Does each way of saying that stage N shards (or keeps whole) a state veto exactly when the lesson says otherwise?"""
    en, zh = STATE_NOUNS[state]
    if state == "activations":
        expected = [A] if says_sharded else []
    else:
        expected = [] if says_sharded == (state in LESSON_SHARDS[stage]) else [S]
    assert ids(phrase.format(n=stage, en=en, zh=zh)) == expected


# Floors a little under the measured figures, so that a regression fails (see bench/veto_accuracy.py).
FLOORS = {
    "dev": (0.97, 0.97),
    "train": (0.99, 0.98),  # t017 labels "…shards activations; that is why long sequences fit" unbounded too; the blind writers do not
    "train2": (0.97, 0.97),
    "train3": (0.97, 0.95),
    "train4": (0.97, 0.93),
    "train5": (0.97, 0.97),
    "holdout": (0.97, 0.97),
    "holdout2": (0.97, 0.88),
    "blind": (0.97, 0.97),
    "blind2": (0.97, 0.97),
    "blind3": (0.97, 0.97),
    "blind4": (0.97, 0.97),
    "blind5": (0.97, 0.97),
    "blind6": (0.97, 0.97),
    "blind7": (0.97, 0.97),
    "blind8": (0.96, 0.96),
    "blind9": (0.97, 0.95),
    "blind10": (0.97, 0.95),
    "blind39": (0.90, 0.80),  # tuned on in the fifteenth claims round (with holdout2 and the odd ids of blind11…38)
    "blind40": (0.90, 0.82),
}


@pytest.mark.parametrize(("name", "floor"), FLOORS.items())
def test_accuracy_floor(name: str, floor: tuple[float, float]) -> None:
    """Do precision and recall on each labelled set stay above their floors?"""
    result = score(load_labelled(LABELLED_DIR / f"{name}.jsonl"))
    precision, recall = result.overall.precision, result.overall.recall
    assert (precision, recall) >= floor and precision >= floor[0] and recall >= floor[1], "\n".join(result.failures)


def test_labelled_sets_are_large_enough() -> None:
    """Are there at least 150 training and 60 held-out labelled answers, with known veto ids?"""
    train, holdout = (load_labelled(LABELLED_DIR / f"{n}.jsonl") for n in ("train", "holdout"))
    assert len(train) >= 150 and len(holdout) >= 60
    known = {A, U, S, C}
    assert all(set(row["vetoes"]) <= known for row in train + holdout)


def test_cli_prints_vetoes_as_json() -> None:
    """Does `python -m autograde veto` read an answer on stdin and print its vetoes as JSON?"""
    run = subprocess.run(
        [sys.executable, "-m", "autograde", "veto", "--question", "q1"],
        input="激活没有冗余。FSDP 会把激活按 DP rank 均分保存。",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(run.stdout) == {"vetoes": [{"id": A, "evidence": "FSDP 会把激活按 DP rank 均分保存。"}]}


STANCES = yaml.safe_load((LABELLED_DIR / "stances.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("stance", "lang"), [(stance, lang) for stance in ("refuting", "asserting") for lang in ("en", "zh")])
def test_a_claims_stance_decides_its_veto(stance: str, lang: str) -> None:
    """Does every claim of stances.yaml veto inside each asserting frame (hedged, endorsed, in passing) and not inside any
    refuting frame (quoted, attributed, rejected), in English and Chinese?"""
    wrong = []
    for frame in STANCES[stance][lang]:
        for claim in STANCES["claims"][lang]:
            answer = frame.format(c=claim["text"])
            if bool(ids(answer, claim["question"])) != (stance == "asserting"):
                wrong.append(answer)
    assert wrong == []


def test_every_stance_claim_vetoes_alone() -> None:
    """Does each claim of stances.yaml veto on its own (so the stance tests test the stance, not the claim)?"""
    assert [c["text"] for lang in ("en", "zh") for c in STANCES["claims"][lang] if not ids(c["text"], c["question"])] == []
