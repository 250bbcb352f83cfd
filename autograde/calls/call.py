"""A call the trusted grader asks a submission's code to make, and its plain-number answer."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """One call to a function the submission defines, with JSON-safe arguments."""

    function: str
    """The function's name in the submission's namespace."""
    args: tuple[Any, ...]
    """Positional arguments, so a renamed parameter still gets its value."""
    kwargs: tuple[tuple[str, Any], ...] = field(default=())
    """Keyword arguments as (name, value) pairs, so the call stays hashable."""

    def to_json(self) -> list[Any]:
        """The call as the sandbox reads it: [function, args, kwargs]."""
        return [self.function, list(self.args), dict(self.kwargs)]

    def describe(self) -> str:
        """The call as a student reads it in feedback, e.g. `f(1, 2, k=12)`."""
        shown = [repr(arg) for arg in self.args] + [f"{name}={value!r}" for name, value in self.kwargs]
        return f"{self.function}({', '.join(shown)})"
