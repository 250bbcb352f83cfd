"""The pattern book: veto claim frames, cues and stage aliases, compiled from patterns.yaml."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml

from autograde.veto.finding import CATALOGUE
from autograde.veto.ledger import LEDGER_CHECKS, LedgerReader
from autograde.veto.memory_formula import FormulaReader
from autograde.veto.normalize import normalize
from autograde.veto.polarity import Polarity
from autograde.veto.quantities import QuantityCues
from autograde.veto.sharding_table import TableError, sharding_frame_specs
from autograde.veto.stages import StageTagger, tag

PATTERNS_PATH = Path(__file__).with_name("patterns.yaml")
_MACRO = re.compile(r"\{(~\d+|@[a-z0-9]+|[a-z_]+)\}")
_NOT_WORDS = re.compile(r"[\W_]+")
_PLACEHOLDER_PREFIX = re.compile(r"(?:todo|tbd|fixme)\b")


class PatternError(ValueError):
    """patterns.yaml is malformed; the message names the frame and the field."""


@dataclass(frozen=True)
class Frame:
    """One claim frame: when a clause matching it asserts a veto's misconception."""

    veto_id: str
    """The veto this frame raises; one of catalogue.yaml."""
    name: str
    """Unique name, reported as the finding's `detail["pattern"]`."""
    predicate: re.Pattern[str] | None
    """The claim's verb phrase; None for quantity, ledger and memory-formula frames."""
    quantity: tuple[frozenset[float], frozenset[float]] | None
    """(wrong, right) multiples of Ψ for quantity frames."""
    ledger: str | None
    """For ledger frames, what they check (one of ledger.LEDGER_CHECKS)."""
    memory_formula: bool
    """Whether the frame judges static-memory formulas against the split of the stage they are given for."""
    subject: frozenset[str] | None
    """Stages the claim must be about; None for any."""
    object: re.Pattern[str] | None
    """What the predicate must act on, in the same clause."""
    polarity: Literal["asserted", "denied"]
    """Whether the misconception is the claim asserted or the claim denied."""
    requires: re.Pattern[str] | None
    """Must also occur in the clause."""
    context: re.Pattern[str] | None
    """Must occur somewhere in the sentence."""
    unless: re.Pattern[str] | None
    """Exempts the clause."""
    unless_sentence: re.Pattern[str] | None
    """Exempts the whole sentence."""
    with_stages: frozenset[str] = frozenset()
    """Stages that must be mentioned elsewhere in the clause."""
    without_stages: frozenset[str] = frozenset()
    """Stages that must not be mentioned elsewhere in the clause."""
    examples: Mapping[str, list[str]] = field(default_factory=dict)
    """`veto`: sentences that must raise this veto; `ok`: sentences that must not."""


@dataclass(frozen=True)
class PatternBook:
    """Everything the text matcher reads from patterns.yaml."""

    frames: tuple[Frame, ...]
    tagger: StageTagger
    polarity: Polarity
    quantities: QuantityCues
    ledger: LedgerReader
    formulas: FormulaReader
    clause_breaks: re.Pattern[str]
    clause_joiners: re.Pattern[str]
    object_nouns: re.Pattern[str]
    barriers: re.Pattern[str]
    strong_break: re.Pattern[str]
    subordinate: re.Pattern[str]
    """Opens a subordinate clause whose subject is the stage opening the main clause after it."""
    relative_opener: re.Pattern[str]
    """Opens a relative clause whose object is the noun before it."""
    collectives: re.Pattern[str]
    pronouns: re.Pattern[str]
    object_pronoun: re.Pattern[str]
    """A pronoun right after a predicate, standing for the object noun before it ("partitions them")."""
    disposal_pronoun: re.Pattern[str]
    """A pronoun fronted before the predicate ("把它…分片"), standing for the object noun before it."""
    inclusion: re.Pattern[str]
    """Right before an object: it is listed as included in what the predicate acts on, whatever verbs come between."""
    noun_after_comma: re.Pattern[str]
    """An object noun that opens a new piece (", and parameters …"): the subject of the verb after it."""
    own_verb: re.Pattern[str]
    """Right after an object: a verb whose subject it is (", and parameters stay replicated"), so no earlier verb acts on it."""
    rhetorical_tail: re.Pattern[str]
    question_forms: re.Pattern[str]
    placeholders: frozenset[str]
    questions: Mapping[str, tuple[str, ...]]
    topics: Mapping[str, str]

    @classmethod
    def from_file(cls, path: Path = PATTERNS_PATH) -> PatternBook:
        """Load and compile `path`."""
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        cues = data["cues"]
        expand = _Expander(data["terms"], cues["gap_blockers"])
        specs = [(veto_id, spec) for veto_id, specs in data["vetoes"].items() for spec in specs]
        try:
            specs += sharding_frame_specs(data["sharding"])
        except TableError as error:
            raise PatternError(str(error)) from error
        frames = tuple(_frame(veto_id, spec, expand) for veto_id, spec in specs)
        return cls(
            frames=frames,
            tagger=StageTagger(data["stages"], cues["reference_before"], expand(cues["reference_after"])),
            polarity=Polarity.from_cues({k: [expand(p) for p in v] if isinstance(v, list) else expand(v) for k, v in cues.items()}),
            quantities=QuantityCues.from_cues({k: expand(v) for k, v in data["quantities"].items()}),
            ledger=LedgerReader.from_cues({k: expand(v) for k, v in data["ledger"]["cues"].items()}, data["ledger"]["units"]),
            formulas=FormulaReader.from_cues({k: expand(v) for k, v in data["memory_formula"]["cues"].items()}, data["memory_formula"]["splits"]),
            clause_breaks=re.compile(cues["clause_breaks"], re.IGNORECASE),
            clause_joiners=re.compile(expand(cues["clause_joiners"]), re.IGNORECASE),
            object_nouns=re.compile(expand("{object_noun}")),
            barriers=re.compile(expand(cues["barriers"])),
            strong_break=re.compile(cues["strong_breaks"], re.IGNORECASE),
            subordinate=re.compile(f"[\\s,:;()—-]*(?:{cues['subordinate']})", re.IGNORECASE),
            relative_opener=re.compile(f"\\s*(?:{cues['relative_opener']})", re.IGNORECASE),
            collectives=re.compile(expand("{op}"), re.IGNORECASE),
            pronouns=re.compile(cues["pronouns"], re.IGNORECASE),
            object_pronoun=re.compile(cues["object_pronoun"], re.IGNORECASE),
            disposal_pronoun=re.compile(cues["disposal_pronoun"], re.IGNORECASE),
            inclusion=re.compile(f"(?:{cues['inclusion']})\\s*(?:the\\s+|even\\s+|their\\s+|its\\s+)?$", re.IGNORECASE),
            noun_after_comma=re.compile(expand(r",\s*(?:and\s+|or\s+|but\s+)?(?:the\s+)?(?:{object_noun})")),
            own_verb=re.compile(f"\\s*(?:{expand(cues['own_verb'])})", re.IGNORECASE),
            rhetorical_tail=re.compile(cues["rhetorical_tail"], re.IGNORECASE),
            question_forms=re.compile(cues["question_forms"], re.IGNORECASE),
            placeholders=frozenset(_key(p) for p in data["placeholders"]),
            questions={q: tuple(_key(p) for p in prompts) for q, prompts in data["questions"].items()},
            topics=data["topics"],
        )

    def prepare(self, sentence: str) -> str:
        """`sentence` normalised, stage-tagged and lower-cased: the form frames match."""
        return self.tagger.tag(normalize(sentence))

    def is_placeholder(self, answer: str) -> bool:
        """Whether `answer` is empty or a template placeholder ("TODO", "YOUR ANSWER HERE", "略")."""
        stripped = answer.strip().lower()
        return _key(answer) in self.placeholders or bool(_PLACEHOLDER_PREFIX.match(stripped))

    def asserted_part(self, tagged: str, is_question: bool) -> str:
        """The part of a prepared sentence that asserts: all of a statement, none of a question, and the
        statement before a rhetorical tail ("ZeRO-3 会切激活，不然怎么叫 fully sharded？")."""
        if not is_question:
            return tagged
        tail = self.rhetorical_tail.search(tagged)
        statement = tagged[: tail.start()] if tail else ""
        return "" if self.question_forms.search(statement) else statement

    def echoes(self, sentence: str, question: str | None) -> bool:
        """Whether `sentence` only repeats (part of) the question prompt."""
        key = _key(sentence)
        prompts = self.questions.get(question or "", ()) or tuple(p for ps in self.questions.values() for p in ps)
        return len(key) >= 8 and any(key in prompt for prompt in prompts)


def _key(text: str) -> str:
    """`text` reduced to its lower-cased word characters, for comparing placeholders and prompts."""
    return _NOT_WORDS.sub("", normalize(text).lower())


class _Expander:
    """Expands {term}, {@stage} and {~N} macros inside pattern regexes."""

    def __init__(self, terms: Mapping[str, str], gap_blockers: str) -> None:
        self._terms = terms
        self._gap = f"(?:(?!{gap_blockers})[^,;:。!?→])"  # an arrow separates steps, as a comma separates clauses

    def __call__(self, pattern: str, depth: int = 0) -> str:
        if depth > 8:
            raise PatternError(f"macro recursion too deep in {pattern[:60]!r}")
        return _MACRO.sub(lambda m: self._one(m.group(1), depth), pattern)

    def _one(self, name: str, depth: int) -> str:
        if name.startswith("~"):
            return f"{self._gap}{{0,{name[1:]}}}?"
        if name == "@any":
            return "⟨[a-z0-9]+⟩"
        if name.startswith("@"):
            return re.escape(tag(name[1:]))
        if name not in self._terms:
            raise PatternError(f"unknown term {{{name}}}; define it under `terms:` in patterns.yaml")
        return f"(?:{self(self._terms[name], depth + 1)})"


def _frame(veto_id: str, spec: dict[str, Any], expand: _Expander) -> Frame:
    """Compile one frame of patterns.yaml, with errors that name it."""
    where = f"patterns.yaml: veto {veto_id!r}, frame {spec.get('name')!r}"
    if veto_id not in CATALOGUE:
        raise PatternError(f"{where}: unknown veto id; it must be one of catalogue.yaml")
    if sum(key in spec for key in ("predicate", "quantity", "ledger", "memory_formula")) != 1:
        raise PatternError(f"{where}: give exactly one of `predicate`, `quantity`, `ledger` or `memory_formula`")
    if spec.get("ledger", LEDGER_CHECKS[0]) not in LEDGER_CHECKS:
        raise PatternError(f"{where}: `ledger` must be one of {', '.join(LEDGER_CHECKS)}")

    def regex(key: str) -> re.Pattern[str] | None:
        if key not in spec:
            return None
        try:
            return re.compile(expand(spec[key]), re.IGNORECASE)
        except re.error as error:
            raise PatternError(f"{where}: field {key!r} is not a valid regex ({error})") from error

    quantity = spec.get("quantity")
    return Frame(
        veto_id=veto_id,
        name=spec["name"],
        predicate=regex("predicate"),
        quantity=(frozenset(map(float, quantity["wrong"])), frozenset(map(float, quantity["right"]))) if quantity else None,
        ledger=spec.get("ledger"),
        memory_formula=bool(spec.get("memory_formula")),
        subject=frozenset(spec["subject"]) if "subject" in spec else None,
        object=regex("object"),
        polarity=spec.get("polarity", "asserted"),
        requires=regex("requires"),
        context=regex("context"),
        unless=regex("unless"),
        unless_sentence=regex("unless_sentence"),
        with_stages=frozenset(spec.get("with", ())),
        without_stages=frozenset(spec.get("without", ())),
        examples=spec.get("examples", {}),
    )


@lru_cache(maxsize=1)
def pattern_book() -> PatternBook:
    """The pattern book shipped with the package, loaded once."""
    return PatternBook.from_file()
