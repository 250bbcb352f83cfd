"""Judge a claim against the lesson's facts: the veto it earns when the student holds something the facts contradict."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from autograde.veto.claims import PER_RANK_VOLUMES, VALUES_AS_BYTES, Claim, TrafficInGB
from autograde.veto.facts import Facts

SHARD_TARGET, ACTIVATIONS, VOLUME, SCALING = "wrong-shard-target", "activations-sharded", "wrong-comm-volume", "unbounded-scaling"


def resolved(claim: Claim, facts: Facts) -> Claim:
    """The claim with a relation resolved through the table: "same as ZeRO-2" → ZeRO-2's set; a volume compared with no
    stage named → with the stage before (a multiple: with DDP); states added with no stage named → over the stage before."""
    others = facts.members(claim.other or "")
    if claim.topic == "shards" and claim.relation == "same-as" and len(others) == 1:
        return claim.with_value(facts.sharded[others[0]])
    if claim.topic == "volume" and claim.relation and claim.other is None and claim.subject in facts.sharded:
        return claim.with_other("ddp" if claim.relation == "ratio-to" else facts.previous(claim.subject))  # "more" than the stage before
    if claim.topic == "shards" and claim.relation == "adds-over" and claim.other is None and claim.subject in facts.sharded:
        return claim.with_other(facts.previous(claim.subject))  # "additionally", "再把 X 也切掉": over the stage before
    return claim


def misnamed(identity: Claim, facts: Facts) -> tuple[str, str]:
    """The stage a wrong identity takes for a lesser one, and that one, in either order of saying it ("FSDP is ZeRO-2",
    "ZeRO-2, i.e. PyTorch's FSDP"): the stage that shards more is the one misnamed."""
    lesser, greater = sorted((identity.subject, str(identity.value)), key=lambda stage: facts.order.index(stage) if stage in facts.order else -1)
    return greater, lesser


def verdict_as_named(claim: Claim, facts: Facts, taken_for: Mapping[str, str]) -> tuple[str, ...]:
    """The claim's vetoes; for the traffic of a stage the answer has wrongly said is another ("FSDP (basically ZeRO-2):
    RS + AG = 2Ψ"), only those it earns for both stages: the identity is the mistake, not traffic that fits either."""
    vetoes = verdict(claim, facts)
    other = taken_for.get(claim.subject)
    if other is None or claim.topic not in ("volume", "step"):
        return vetoes
    as_other = verdict(resolved(replace(claim, subject=other), facts), facts)
    return tuple(v for v in vetoes if v in as_other)


def verdict(claim: Claim, facts: Facts) -> tuple[str, ...]:
    """The veto ids `claim` earns: none when the student's stance towards it agrees with the facts."""
    if claim.stance in ("open", "reported"):
        return ()
    found = _JUDGES[claim.topic](claim, facts)
    return (found,) if isinstance(found, str) else found or ()


def _holds(claim: Claim, true: bool | None) -> bool | None:
    """Whether the student's view of a claim whose truth is `true` is wrong: they assert a false claim (read with
    negations counted over the whole clause) or deny a true one (counted only near it, and bound strictly, and not read
    from "everything": denying that everything is sharded denies no one state)."""
    if true is None:
        return None
    if not true:
        return claim.stance == "asserted"
    return claim.narrow_stance == "denied" and claim.stance == "denied" and not {"loose", "universal"} & claim.flags


def _shards(claim: Claim, facts: Facts) -> str | None:
    """What a stage divides over the ranks: each state alone, a whole set ("only"), or a set related to another stage."""
    members = facts.members(claim.subject)
    if not members or "ddp" in members:
        return None
    states: frozenset[str] = claim.value  # type: ignore[assignment]
    if claim.guesses and claim.sharded and (not states <= facts.never_sharded or ("asked" in claim.flags and claim.subject in facts.groups)):
        return None  # a stage guessed from the sentences before may be any; ZeRO in general, asked of, may mean another axis
    if claim.relation == "first-at":
        if claim.stance != "asserted" or all(facts.first_sharding(s) == claim.subject for s in states):
            return None
        return ACTIVATIONS if states & facts.never_sharded else SHARD_TARGET  # "到了 ZeRO-3 激活也跟着切了"
    if claim.relation == "same-as":
        return _same_set(claim, facts, members)
    if claim.relation == "adds-over":
        return _adds_over(claim, facts, members, states)
    if claim.exact:  # "ZeRO-1 and ZeRO-2 both shard only the optimizer states" is said of each
        each = len(members) == 1 or claim.subject in facts.each
        union = len(members) > 1 and states == frozenset().union(*(facts.sharded[m] for m in members))  # "ZeRO-1/2 只切优化器和梯度": between them
        wrong = each and not union and claim.sharded and claim.stance == "asserted" and any(states != facts.sharded[m] for m in members)
        return (ACTIVATIONS if states & facts.never_sharded else SHARD_TARGET) if wrong else None
    (state,) = states
    if claim.subject in facts.groups and claim.subject not in facts.each and state not in facts.never_sharded:
        return None  # what "ZeRO" in general shards depends on the stage: only what no stage shards can be judged
    truths = {state in facts.sharded[m] and state not in facts.never_sharded for m in members}
    if len(truths) != 1:
        return None  # the stages named disagree ("ZeRO-1/2 shard the gradients"): no one truth to hold it against
    true = truths.pop() == claim.sharded
    if state in facts.never_sharded:
        return ACTIVATIONS if claim.sharded and claim.stance == "asserted" and not true else None
    if claim.sharded and "temporary" in claim.flags and true:
        return None  # "临时拼出的全量参数不会被 N_d 除掉" denies nothing about what is stored
    if "asked" in claim.flags and (not claim.sharded or true):
        return None  # a state kept whole, or denied sharding, with no stage named may be plain DP's
    return SHARD_TARGET if _holds(claim, true) else None


def _same_set(claim: Claim, facts: Facts, members: tuple[str, ...]) -> str | None:
    """"Stage A shards the same as stage B": wrong when their sets differ."""
    others = facts.members(claim.other or "")
    if len(members) != 1 or len(others) != 1 or "ddp" in others:
        return None
    return SHARD_TARGET if claim.stance == "asserted" and facts.sharded[members[0]] != facts.sharded[others[0]] else None


def _adds_over(claim: Claim, facts: Facts, members: tuple[str, ...], states: frozenset[str]) -> str | None:
    """"Stage A shards X on top of stage B": wrong when A does not shard X, or X holds nothing B does not shard already."""
    if len(members) != 1 or claim.stance != "asserted" or not claim.sharded:
        return None
    stage = members[0]
    other = claim.other or facts.previous(stage)
    others = facts.members(other or "")
    if len(others) != 1:
        return None
    if states & facts.never_sharded:
        return ACTIVATIONS
    added = facts.sharded[stage] - facts.sharded[others[0]]
    return SHARD_TARGET if not states <= facts.sharded[stage] or not states & added else None


def _axis(claim: Claim, facts: Facts) -> str | None:
    """"Stage A shards along TP (or hands out whole layers)": wrong, every stage divides its states over the DP
    ranks."""
    members = facts.members(claim.subject)
    if not members or "ddp" in members or claim.stance != "asserted":
        return None
    return SHARD_TARGET if claim.value != facts.shard_axis else None


def _identity(claim: Claim, facts: Facts) -> str | None:
    """"Stage A is stage B": wrong for two different ZeRO stages."""
    return SHARD_TARGET if claim.stance == "asserted" and claim.value != claim.subject else None


def _scaling(claim: Claim, facts: Facts) -> str | None:
    """Per-GPU memory without a floor: wrong, since the activations are never sharded and stay on every rank."""
    if not facts.never_sharded:
        return None
    held = claim.narrow_stance == "denied" and claim.stance == "denied" if claim.negated_form else claim.stance == "asserted"
    return SCALING if held else None


def _activations_alone(claim: Claim, facts: Facts) -> str | None:
    """ZeRO-3 by itself said to take care of the activations of long sequences: it would have to shard them."""
    return ACTIVATIONS if facts.never_sharded and claim.stance == "asserted" else None


def _memory(claim: Claim, facts: Facts) -> str | None:
    """A stage's per-GPU static memory: wrong when its split is not the stage's, nor that of another stage the sentence
    compares it with (whose formula it may be: "ZeRO-1 相比 DDP 的 2Ψ + 2Ψ + 12Ψ")."""
    if claim.subject not in facts.sharded or claim.stance != "asserted":
        return None
    named = {facts.memory_split(s) for s in (claim.other or "").split(",") if s in facts.sharded}
    right = facts.memory_split(claim.subject)
    return SHARD_TARGET if claim.value != right and claim.value not in named - {right} else None


_FIXED_WRONG = frozenset(PER_RANK_VOLUMES.values()) | {VALUES_AS_BYTES}
"""Volumes that no collective moves per rank (each moves a constant multiple of Ψ whatever N_d), and a count of values
given as bytes."""
_PER_SHARD = PER_RANK_VOLUMES["per_shard_volume"]
"""A shard's worth per rank, which at N_d = 2 is what the ring moves."""


def _volume(claim: Claim, facts: Facts) -> str | None:
    """What a stage, a collective or a sum of collectives moves per step."""
    if claim.stance != "asserted":
        return _denied_comparison(claim, facts)
    value = claim.value
    if value in _FIXED_WRONG:
        return None if value == _PER_SHARD and "ranks:2" in claim.flags else VOLUME  # at N_d = 2, (N_d − 1)/N_d·Ψ is Ψ/N_d
    if claim.subject == "ledger":
        total, parts = value  # type: ignore[misc]
        known = all(c in facts.units for c, _ in parts)
        if not known:
            return None
        own = sum(facts.units[c] * n for c, n in parts)
        earlier = [c for flag in claim.flags if flag.startswith("earlier:") for c in flag.split(":", 1)[1].split(",") if c in facts.units]
        right = (own, own + sum(facts.units[c] for c in earlier))  # the list may have begun a sentence before
        return VOLUME if total not in right and not _ring_factor(own, total, claim) else None  # "7/8 Ψ + 7/8 Ψ, 合计 1.75Ψ"
    if claim.subject == "each collective":
        return VOLUME if any(unit != facts.units[str(claim.other)] for unit in facts.units.values()) else None
    if claim.subject in facts.units:
        if claim.relation is not None:
            return VOLUME if _wrong_ratio(facts.units[claim.subject], claim, facts.units.get(str(claim.other))) else None
        unit = facts.units[claim.subject]
        if isinstance(value, TrafficInGB):
            return VOLUME if _wrong_in_gb(value, unit) else None
        ring = _ring_factor(unit, float(value), claim) or _at_named_ranks(unit, float(value), claim)  # type: ignore[arg-type]
        return VOLUME if value != unit and not ring else None  # a collective's own Ψ at N_d = 2 is exact
    # a stage compared with a stage the clause names ("比 ZeRO-1 多") is not that stage
    guesses = claim.guesses - {claim.other} if "named-other" in claim.flags else claim.guesses
    wrong = [_by_group(stage, facts, [_wrong_volume(claim, facts, m) for m in facts.members(stage)]) for stage in guesses or {claim.subject}]
    return VOLUME if all(wrong) else None  # a guessed stage: wrong whichever of the stages named it is about


def _denied_comparison(claim: Claim, facts: Facts) -> str | None:
    """A stage said not to move more (or less) than another it names ("ZeRO-3 doesn't cost extra bandwidth compared with
    DDP"): wrong where the comparison it denies holds."""
    if claim.relation not in ("more-than", "less-than") or claim.narrow_stance != "denied" or claim.subject not in facts.sharded:
        return None
    if "named-other" not in claim.flags:
        return None  # "it's not the volume that grows": no comparison with a stage the student names
    stages = claim.guesses or {claim.subject}
    held = [_wrong_volume(claim, facts, member) is False for stage in stages for member in facts.members(stage)]
    return VOLUME if held and all(held) else None


def _wrong_volume(claim: Claim, facts: Facts, stage: str) -> bool | None:
    """Whether the claim is wrong about one stage's volume (None: it says nothing checkable about it)."""
    own = facts.volume(stage)
    if isinstance(claim.value, TrafficInGB):
        return _wrong_in_gb(claim.value, own)
    if claim.relation is None:
        if claim.value == own or _ring_factor(own, float(claim.value), claim):  # type: ignore[arg-type]
            return False
        if not claim.marked and (claim.value == 1 or f"beside:{own:g}" in claim.flags):
            return None  # a bare Ψ is mostly one collective's; a right total beside a wrong one is a correction
        return True
    other = claim.other or ("ddp" if claim.relation == "ratio-to" else facts.previous(stage))
    others = facts.members(other or "")
    if len(others) != 1 or others[0] == stage:
        return None
    return _wrong_ratio(own, claim, facts.volume(others[0]))


OTHER_VOLUMES = (1, 2, 3, 4)
"""Multiples of Ψ a whole step's traffic in GB may be read as, two bytes a value."""


def _wrong_in_gb(traffic: TrafficInGB, own: float) -> bool | None:
    """Whether a traffic figure in GB counts the stage's BF16 values as bytes (wrong), gives two bytes a value (right), is
    the whole step of another multiple of Ψ at two bytes a value (wrong: "ZeRO-2 每步 42 GB" for 7B), or matches none."""
    values = traffic.billions * own  # billions of values the stage moves
    if abs(traffic.gigabytes - values) <= 0.05 * values:
        return True
    if abs(traffic.gigabytes - 2 * values) <= 0.1 * values:
        return False
    if traffic.whole and any(abs(traffic.gigabytes - 2 * traffic.billions * k) <= 0.05 * traffic.gigabytes for k in OTHER_VOLUMES):
        return True
    return None


RING_RANKS = 8
"""Fewest ranks for which a volume given with the ring's (N_d − 1)/N_d factor ("(7/8)Ψ + (7/8)Ψ = 1.75Ψ") is read as exact
when the answer names no rank count: "ZeRO-2 约 1.5Ψ" is a wrong total, not 2Ψ on 4 GPUs."""


def _ring_factor(right: float, value: float, claim: Claim) -> bool:
    """Whether `value`, not a whole multiple of Ψ, is `right` times (N_d − 1)/N_d for the rank count the answer names
    with the claim, or for a GPU count (a power of two) of at least RING_RANKS: not 2.5Ψ for 3Ψ (N_d = 6), a common wrong
    total."""
    if value.is_integer() or not 0 < value < right:
        return False
    ranks = right / (right - value)
    whole = round(ranks)
    if abs(ranks - whole) >= 1e-6:
        return False
    return _at_named_ranks(right, value, claim) or (ranks >= RING_RANKS and whole & (whole - 1) == 0)


def _at_named_ranks(right: float, value: float, claim: Claim) -> bool:
    """Whether `value` is exactly `right` times (N_d − 1)/N_d for a rank count the answer names with the claim ("at N_d =
    2 the all-reduce is exactly Ψ")."""
    counts = [int(flag.removeprefix("ranks:")) for flag in claim.flags if flag.startswith("ranks:")]
    return any(abs(right * (n - 1) / n - value) < 1e-9 for n in counts)


def _wrong_ratio(own: float, claim: Claim, theirs: float | None) -> bool | None:
    """Whether `own` stands to `theirs` otherwise than the claim's relation says."""
    if theirs is None:
        return None
    if claim.relation == "ratio-to":
        return abs(own - float(claim.value) * theirs) > 1e-9  # type: ignore[arg-type]
    return not {"more-than": own > theirs, "less-than": own < theirs, "same-as": own == theirs}[str(claim.relation)]


JUDGED_PHASES = frozenset({"after-update"})
"""Phases a step claim is judged at: the optimizer step. A forward or backward pass only qualifies the collective
("ZeRO-1 all-gathers before the next forward" is loose wording, not a wrong step)."""


def _step(claim: Claim, facts: Facts) -> str | tuple[str, ...] | None:
    """A collective a stage runs: what it carries, when, whether it is extra, how often, or that it runs at all."""
    collective, carries, when, extra, count = claim.value  # type: ignore[misc]
    members = facts.members(claim.subject)
    if not members or "ddp" in members:
        return None
    phase = when if when in JUDGED_PHASES else None
    if claim.exact:  # "ZeRO-1 只需要 reduce-scatter": the stage runs that collective and no other
        named = {flag.split(":", 1)[1] for flag in claim.flags if flag.startswith("names:")}
        wrong = [{s.collective for s in facts.steps[m]} - named != {collective} for m in members]  # "只做 RS，更新后再 AG" names the rest
        return VOLUME if claim.stance == "asserted" and _by_group(claim.subject, facts, wrong) else None
    if claim.stance == "denied":
        if "in-ledger" in claim.flags:
            return None  # a sum refuted as a whole ("3Ψ = AG + RS + AR 是错的") denies the sum, not each of its parts
        phase = when if "pass" in claim.flags else phase  # "FSDP 反向时不需要再 all-gather 参数" denies the backward gather
        if extra or claim.narrow_stance != "denied" or "source" in claim.flags or (when and phase is None) or (phase is None and carries is None and "qualified" in claim.flags):
            return None  # "ZeRO-1 不需要额外的 all-gather", "ZeRO-2 前向不需要 all-gather": no step of the stage denied
        right = [not _wrong_step(facts, m, collective, carries, phase, False, count) for m in members]
        return VOLUME if _by_group(claim.subject, facts, right) else None
    guessed = claim.guesses - {"ddp"}  # carried from sentences that named several stages: wrong whichever of them it is about
    stages = {claim.subject} | (guessed if len(guessed) > 1 else set())
    if not all(_by_group(s, facts, [_wrong_step(facts, m, collective, carries, phase, extra, count) for m in facts.members(s)]) for s in stages):
        return None
    if carries in facts.never_sharded:
        return (ACTIVATIONS, VOLUME) if {"counted", "source"} & claim.flags else ACTIVATIONS
    return VOLUME


def _wrong_step(facts: Facts, stage: str, collective: str | None, carries: str | None, when: str | None, extra: bool, count: int | None) -> bool:
    """Whether the stage runs no such step."""
    if extra:
        previous = facts.previous(stage)
        if previous is None:
            return False
        candidates = facts.extra_steps(stage, previous)
    else:
        candidates = list(facts.steps[stage])
    matching = [
        s for s in candidates
        if (collective is None or s.collective == collective) and (carries is None or s.carries == carries) and (when is None or s.when == when)
    ]
    if count is not None and count > 1 and not extra:
        return len(matching) != count
    return not matching


def _by_group(subject: str, facts: Facts, wrong: list[bool | None]) -> bool:
    """Whether a claim about `subject` judged per member is wrong: for a stage, when it is wrong about it; for a group
    named as each of its stages ("ZeRO-1/2"), when wrong about one; for ZeRO in general, when wrong about all."""
    if subject in facts.groups and subject not in facts.each:
        return all(w is True for w in wrong)
    return any(w is True for w in wrong)


_JUDGES: dict[str, Callable[[Claim, Facts], str | tuple[str, ...] | None]] = {
    "shards": _shards,
    "axis": _axis,
    "identity": _identity,
    "memory": _memory,
    "volume": _volume,
    "step": _step,
    "scaling": _scaling,
    "activations-alone": _activations_alone,
}
