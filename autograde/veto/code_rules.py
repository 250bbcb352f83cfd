"""The lesson's answer for each stage (from facts.yaml, through the exercise's terms) and the explanations of known
mistakes, read from code_misconceptions.yaml."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from autograde.veto.facts import Facts, lesson_facts
from autograde.veto.finding import CATALOGUE
from autograde.yaml_data import read_yaml

RULES_PATH = Path(__file__).with_name("code_misconceptions.yaml")
STAGES = (1, 2, 3)
"""The stages whose formulas are blanks."""
Kind = Literal["sharded", "comm_psi"]
KINDS: tuple[Kind, ...] = ("sharded", "comm_psi")
"""What a stage can get wrong: the terms it divides by dp, or its communication as a multiple of Ψ."""
Value = frozenset[str] | float
"""A stage's behaviour of one kind: a set of term names, or a multiple of Ψ."""


@dataclass(frozen=True)
class Term:
    """One memory term of zero_memory_per_gpu."""

    bytes: int | str
    """Bytes per parameter; "k" stands for the optimizer multiplier argument."""
    state: str
    """The model state of facts.yaml the term holds."""


@dataclass(frozen=True)
class Explanation:
    """Why a stage's behaviour is wrong, in both languages, under a name reports can group by."""

    name: str
    zh: str
    en: str


@dataclass(frozen=True)
class Misconception:
    """One known wrong answer: the stages it applies to and the behaviour it stands for."""

    name: str
    stages: tuple[int, ...]
    kind: Kind
    value: Value
    zh: str
    en: str

    @classmethod
    def from_entry(cls, entry: dict[str, Any], file_name: str) -> Misconception:
        """One entry of the rules file, checked against the stages and the kinds of behaviour."""
        name = entry.get("name", "?")
        kinds = [kind for kind in KINDS if kind in entry]
        if len(kinds) != 1 or not set(entry.get("stages", ())) <= set(STAGES) or not {"zh", "en"} <= entry.keys():
            raise ValueError(
                f"{file_name}: misconception {name!r} needs stages among {STAGES}, exactly one of {', '.join(KINDS)} "
                f"and zh/en explanations; it has stages {entry.get('stages')} and {kinds or 'neither'}"
            )
        kind = kinds[0]
        value = frozenset(entry[kind]) if kind == "sharded" else float(entry[kind])
        return cls(name, tuple(entry["stages"]), kind, value, entry["zh"], entry["en"])


@dataclass(frozen=True)
class CodeRules:
    """The contents of code_misconceptions.yaml."""

    terms: dict[str, Term]
    expected: dict[Kind, dict[int, Value]]
    ledger: dict[int, dict[str, str]]
    """The lesson's communication ledger per stage, in both languages."""
    vetoes: dict[Kind, str]
    """The veto id a difference of each kind earns."""
    messages: dict[str, dict[str, str]]
    misconceptions: tuple[Misconception, ...]

    @classmethod
    def from_file(cls, path: Path = RULES_PATH, facts: Facts | None = None) -> CodeRules:
        """Load and check the rules, the lesson's answer taken from `facts` (default facts.yaml); a wrong entry is reported by name."""
        data = read_yaml(path)
        facts = facts or lesson_facts()
        terms = {name: Term(**term) for name, term in data["terms"].items()}
        unknown = sorted(t.state for t in terms.values() if t.state not in facts.state_bytes)
        if unknown:
            raise ValueError(f"{path.name}: terms name states {unknown} that facts.yaml does not know")
        expected: dict[Kind, dict[int, Value]] = {
            "sharded": {n: frozenset(t for t, term in terms.items() if term.state in facts.sharded[f"zero{n}"]) for n in STAGES},
            "comm_psi": {n: facts.volume(f"zero{n}") for n in STAGES},
        }
        rules = cls(
            terms=terms,
            expected=expected,
            ledger={n: _ledger(facts, f"zero{n}", data["messages"]["step"]) for n in STAGES},
            vetoes=data["vetoes"],
            messages=data["messages"],
            misconceptions=tuple(Misconception.from_entry(entry, path.name) for entry in data["misconceptions"]),
        )
        rules._check(path.name)
        return rules

    def _check(self, file_name: str) -> None:
        """Reject missing stages, veto ids outside the catalogue, unknown terms, and a 'misconception' that is the lesson's answer."""
        for kind in KINDS:
            if set(self.expected[kind]) != set(STAGES) or self.vetoes.get(kind) is None:
                raise ValueError(f"{file_name}: expected.{kind} needs stages {STAGES} and vetoes.{kind} a veto id")
        for kind, veto_id in self.vetoes.items():
            if veto_id not in CATALOGUE:
                raise ValueError(f"{file_name}: vetoes.{kind} is {veto_id!r}, not a veto id of catalogue.yaml")
        for misconception in self.misconceptions:
            unknown = misconception.value - self.terms.keys() if isinstance(misconception.value, frozenset) else set()
            right = [s for s in misconception.stages if misconception.value == self.expected[misconception.kind][s]]
            if unknown or right:
                raise ValueError(
                    f"{file_name}: misconception {misconception.name!r} names unknown terms {sorted(unknown)} "
                    f"or is the lesson's answer for stages {right}"
                )

    def explain(self, kind: Kind, stage: int, got: Value) -> Explanation:
        """The known misconception that `got` is for this stage, else a generic one: which stage, what it does, what the lesson says."""
        for misconception in self.misconceptions:
            if misconception.kind == kind and stage in misconception.stages and _same(misconception.value, got):
                return Explanation(misconception.name, misconception.zh, misconception.en)
        expected = self.expected[kind][stage]
        if isinstance(got, frozenset) and isinstance(expected, frozenset):
            shown = {lang: (self.list_terms(got, lang), self.list_terms(expected, lang)) for lang in ("zh", "en")}
            name = f"zero{stage}-shards-{'-'.join(self.ordered(got)) or 'nothing'}"
        else:
            shown = {lang: (f"{show_number(float(got))}Ψ", f"{show_number(float(expected))}Ψ") for lang in ("zh", "en")}
            name = f"zero{stage}-comm-{show_number(float(got))}psi"
        text = {
            lang: self.messages[kind][lang].format(
                stage=stage, got=shown[lang][0], expected=shown[lang][1], ledger=self.ledger[stage][lang]
            )
            for lang in ("zh", "en")
        }
        return Explanation(name, text["zh"], text["en"])

    def ordered(self, names: Iterable[str]) -> list[str]:
        """Term names in the exercise's order."""
        chosen = set(names)
        return [name for name in self.terms if name in chosen]

    def list_terms(self, names: frozenset[str], lang: str) -> str:
        """Term nouns in one language, or its word for nothing."""
        nouns = [lesson_facts().names[self.terms[name].state].name(lang) for name in self.ordered(names)]
        return self.messages["joiner"][lang].join(nouns) or self.messages["nothing"][lang]


def _ledger(facts: Facts, stage: str, step: dict[str, str]) -> dict[str, str]:
    """The stage's collectives as the lesson lists them, in both languages ("forward all-gather of the parameters Ψ + …")."""
    return {
        lang: " + ".join(
            template.format(
                when=facts.names[s.when].name(lang),
                collective=s.collective,
                carries=facts.names[s.carries].name(lang),
                psi="Ψ" if facts.units[s.collective] == 1 else f"{show_number(facts.units[s.collective])}Ψ",
            )
            for s in facts.steps[stage]
        )
        for lang, template in step.items()
    }


def _same(a: Value, b: Value) -> bool:
    """Equal sets, or equal multiples up to float rounding."""
    if isinstance(a, frozenset) or isinstance(b, frozenset):
        return a == b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def show_number(value: float) -> str:
    """A number as a grader reads it: no trailing .0."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


RULES = CodeRules.from_file()
