"""The cue book: stage names, stance and structure cues and the word classes of claims, compiled from cues.yaml."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from autograde.veto.first_chars import with_fast_start
from autograde.veto.ledger import LedgerReader
from autograde.veto.memory_formula import FormulaReader
from autograde.veto.normalize import normalize
from autograde.veto.pattern_cache import shared_cache
from autograde.veto.quantities import QuantityCues
from autograde.veto.read_tables import TableReader
from autograde.veto.sentences import split_clauses
from autograde.veto.stages import StageTagger, tag
from autograde.veto.stance import StanceCues
from autograde.yaml_data import read_yaml

CUES_PATH = Path(__file__).with_name("cues.yaml")
_MACRO = re.compile(r"\{(~\d+|@[a-z0-9]+|[a-z_][a-z0-9_]*)\}")
_NOT_WORDS = re.compile(r"[\W_]+")
_PLACEHOLDER_PREFIX = re.compile(r"(?:todo|tbd|fixme)\b")
PLACEHOLDER_CHARS = 40
"""Longer than this, an answer is no template placeholder (the longest is "not written yet")."""


class CueError(ValueError):
    """cues.yaml is malformed; the message names the entry."""


@dataclass(frozen=True)
class Limits:
    """How much of an answer is read."""

    answer_chars: int
    sentence_chars: int


@dataclass(frozen=True)
class NotSharding:
    """A reading that looks like a sharding claim about these stages and states but says something else."""

    stages: frozenset[str]
    states: frozenset[str]
    when: re.Pattern[str]
    """Words in the clause that tell ("自己那份", "the updated parameters")."""


@dataclass(frozen=True)
class ScalingReading:
    """One way of saying that per-GPU memory has no floor (see `scaling` in cues.yaml)."""

    claim: str
    says: re.Pattern[str]
    needs: re.Pattern[str] | None
    clause_needs: re.Pattern[str] | None
    limited: re.Pattern[str] | None
    limited_sentence: re.Pattern[str] | None
    limited_elsewhere: re.Pattern[str] | None
    """Limits the claim from anywhere in the sentence unless its own clause says what `reclaimed_by` says ("since memory
    is 16Ψ/N_d, per-GPU memory goes to zero": the formula is the premise of a claim about all of per-GPU memory)."""
    reclaimed_by: re.Pattern[str] | None
    denied: bool
    topic: str
    """The claim's topic for the judge: "scaling" (per-GPU memory without a floor) or "activations-alone" (ZeRO-3 by
    itself said to take care of the activations)."""


@dataclass(frozen=True)
class Scaling:
    """The scaling readings, the stages they are read for, and the words a sentence needs for any of them."""

    stages: frozenset[str]
    gate: re.Pattern[str]
    readings: tuple[ScalingReading, ...]
    consequences: frozenset[str]
    """Claims that, after the answer has said the activations are sharded, are that claim's consequence ("so long context
    fits"), not a claim of their own."""


@dataclass(frozen=True)
class CueBook:
    """Everything the claim readers read from cues.yaml."""

    limits: Limits
    tagger: StageTagger
    others: frozenset[str]
    """Tags of parallelism axes and memory techniques other than ZeRO (TP, SP, CP, PP, recomputation, accumulation)."""
    techniques: frozenset[str]
    """The others that are techniques on one rank (recomputation, accumulation), not axes that split work over ranks."""
    stance: StanceCues
    quantities: QuantityCues
    ledger: LedgerReader
    formulas: FormulaReader
    words: Mapping[str, re.Pattern[str]]
    """Every word class of `terms`, compiled (case-insensitive)."""
    structure: Mapping[str, re.Pattern[str]]
    """The clause-structure cues of `cues`, compiled."""
    not_sharding: tuple[NotSharding, ...]
    scaling: Scaling
    placeholders: frozenset[str]
    questions: Mapping[str, tuple[str, ...]]
    topics: Mapping[str, str]
    tables: TableReader

    @classmethod
    def from_file(cls, path: Path = CUES_PATH) -> CueBook:
        """Load and compile `path`."""
        data: dict[str, Any] = read_yaml(path)
        cues = data["cues"]
        terms = {**data["terms"], **data["terms_volume"]}
        expand = _Expander(terms, cues["gap_blockers"], tuple(data["others"]), frozenset(data["techniques"]))
        names = {**data["stages"], **data["others"]}
        expanded = {k: [expand(p) for p in v] if isinstance(v, list) else expand(v) for k, v in cues.items()}
        try:
            words = {name: with_fast_start(expand(f"{{{name}}}"), re.IGNORECASE) for name in terms}
            structure = {name: _compile(form.replace("{}", expanded[name])) for name, form in _STRUCTURE.items()}
        except re.error as error:
            raise CueError(f"cues.yaml: a regex does not compile ({error})") from error
        tagger = StageTagger(names, expanded)
        book = cls(
            limits=Limits(**data["limits"]),
            tagger=tagger,
            others=frozenset(data["others"]),
            techniques=frozenset(data["techniques"]),
            stance=StanceCues.from_cues(expanded),
            quantities=QuantityCues.from_cues({k: expand(v) for k, v in data["quantities"].items()}),
            ledger=LedgerReader.from_cues({k: expand(v) for k, v in data["ledger"]["cues"].items()}, data["ledger"]["names"]),
            formulas=FormulaReader.from_cues({k: expand(v) for k, v in data["memory_formula"]["cues"].items()}),
            words=words,
            structure=structure,
            not_sharding=tuple(
                NotSharding(frozenset(e["stages"]), frozenset(e["states"]), _compile(expand(e["when"]))) for e in data["not_sharding"]
            ),
            scaling=Scaling(
                frozenset(data["scaling"]["stages"]), _compile(data["scaling"]["gate"]), tuple(_reading(expand, r) for r in data["scaling"]["readings"]),
                frozenset(r["claim"] for r in data["scaling"]["readings"] if r.get("follows_sharded_activations")),
            ),
            placeholders=frozenset(_key(p) for p in data["placeholders"]),
            questions={q: tuple(_key(p) for p in prompts) for q, prompts in data["questions"].items()},
            topics=data["topics"],
            tables=TableReader(data["tables"], lambda cell: tagger.tag(normalize(cell)), words.__getitem__),
        )
        shared_cache().save()  # the next process reads the compiled patterns instead of compiling them again
        return book

    def word(self, name: str) -> re.Pattern[str]:
        """The compiled word class `name` of `terms`."""
        return self.words[name]

    def clauses(self, text: str) -> list[tuple[int, int]]:
        """The clause spans of a prepared sentence, split by the structure cues."""
        structure = self.structure
        closing = (structure["list_closed"], structure["list_extended"])
        breaks, joiners, own_predicate = structure["clause_breaks"], structure["clause_joiners"], structure["aside_then_predicate"]
        return split_clauses(text, breaks, joiners, closing, own_predicate)

    def prepare(self, sentence: str) -> str:
        """`sentence` normalised, stage-tagged and lower-cased: the form claims are read from."""
        return self.tagger.tag(normalize(sentence))

    def prepare_both(self, sentence: str) -> tuple[str, str]:
        """`sentence` normalised, and also stage-tagged and lower-cased."""
        normalized = normalize(sentence)
        return normalized, self.tagger.tag(normalized)

    def asserted_part(self, tagged: str, is_question: bool) -> str:
        """The part of a prepared sentence that asserts: all of a statement, none of a question, and the
        statement before a rhetorical tail ("ZeRO-3 会切激活，不然怎么叫 fully sharded？")."""
        if not is_question or self.structure["belief_question"].search(tagged):
            return tagged
        tail = self.structure["rhetorical_tail"].search(tagged)
        statement = tagged[: tail.start()] if tail else ""
        return "" if self.structure["question_forms"].search(statement) else statement

    def is_placeholder(self, answer: str) -> bool:
        """Whether `answer` is empty or a template placeholder ("TODO", "YOUR ANSWER HERE", "略")."""
        stripped = answer.strip().lower()
        if len(stripped) > PLACEHOLDER_CHARS:
            return bool(_PLACEHOLDER_PREFIX.match(stripped))
        return _key(answer) in self.placeholders or bool(_PLACEHOLDER_PREFIX.match(stripped))

    def echoes(self, normalized: str, question: str | None) -> bool:
        """Whether a normalised sentence only repeats (part of) the question prompt."""
        key = _NOT_WORDS.sub("", normalized.lower())
        prompts = self.questions.get(question or "", ()) or tuple(p for ps in self.questions.values() for p in ps)
        return len(key) >= 8 and any(key in prompt for prompt in prompts)


_STRUCTURE = {
    "clause_breaks": "{}",
    "clause_joiners": "{}",
    "list_closed": "{}",
    "list_extended": "{}",
    "aside_then_predicate": "{}",
    "barriers": "{}",
    "strong_breaks": "{}",
    "subordinate": r"[\s,:;()—-]*(?:{})",
    "relative_opener": r"\s*(?:{})",
    "contrast_ellipsis": "{}",
    "antecedent_modifier": "{}",
    "pronouns": "{}",
    "continues_subject": "{}",
    "object_pronoun": "{}",
    "disposal_pronoun": "{}",
    "inclusion": r"(?:{})\s*(?:the\s+|even\s+|their\s+|its\s+)?$",
    "own_verb": r"\s*(?:{})",
    "agent_before": "(?:{})",
    "rhetorical_tail": "{}",
    "question_forms": "{}",
    "belief_question": "{}",
    "topic_consequence": "{}",
    "topic_reason": "{}",
    "topic_lead": "{}",
    "topic_tail": "{}",
    "topic_set_off": "{}",
    "topic_marker": "{}",
}
"""The entries of `cues` about clause structure (the others are stance cues), each with where it must match."""


def _reading(expand: _Expander, entry: Mapping[str, Any]) -> ScalingReading:
    """One scaling reading of cues.yaml, compiled."""
    def optional(key: str) -> re.Pattern[str] | None:
        return _compile(expand(entry[key])) if key in entry else None

    return ScalingReading(
        entry["claim"], _compile(expand(entry["says"])), optional("needs"), optional("clause_needs"), optional("limited"),
        optional("limited_sentence"), optional("limited_elsewhere"), optional("reclaimed_by"), bool(entry.get("denied")),
        entry.get("topic", "scaling"),
    )


def _compile(pattern: str) -> re.Pattern[str]:
    """A case-insensitive pattern, led by the characters a match can start with."""
    return with_fast_start(pattern, re.IGNORECASE)


def _key(text: str) -> str:
    """`text` reduced to its lower-cased word characters, for comparing placeholders and prompts."""
    return _NOT_WORDS.sub("", normalize(text).lower())


class _Expander:
    """Expands {term}, {@stage}, {@any}, {@other}, {@axis} and {~N} macros inside cue regexes."""

    def __init__(self, terms: Mapping[str, str], gap_blockers: str, others: tuple[str, ...], techniques: frozenset[str]) -> None:
        self._terms = terms
        self._gap = f"(?:(?!{gap_blockers})[^,;:。!?→])"  # an arrow separates steps, as a comma separates clauses
        self._other = f"⟨(?:{'|'.join(others)})⟩"
        self._axis = f"⟨(?:{'|'.join(o for o in others if o not in techniques)})⟩"  # another axis that splits work over ranks

    def __call__(self, pattern: str, depth: int = 0) -> str:
        if depth > 8:
            raise CueError(f"cues.yaml: macro recursion too deep in {pattern[:60]!r}")
        return _MACRO.sub(lambda m: self._one(m.group(1), depth), pattern)

    def _one(self, name: str, depth: int) -> str:
        if name.startswith("~"):
            return f"{self._gap}{{0,{name[1:]}}}?"
        if name == "@any":
            return "⟨[a-z0-9]+⟩"
        if name == "@other":
            return self._other
        if name == "@axis":
            return self._axis
        if name.startswith("@"):
            return re.escape(tag(name[1:]))
        if name not in self._terms:
            raise CueError(f"unknown term {{{name}}}; define it under `terms:` in cues.yaml")
        return f"(?:{self(self._terms[name], depth + 1)})"


@cache
def cue_book() -> CueBook:
    """The cue book shipped with the package, loaded once."""
    return CueBook.from_file()
