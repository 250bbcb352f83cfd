"""Read each stage's formula from the submitted source: the `per_gpu = ...` line and which names it divides by dp."""
from __future__ import annotations

import ast
from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class StageFormula:
    """The formula one stage's branch assigns, as written."""

    text: str
    """The assignment, unparsed to one line."""
    divided: frozenset[str]
    """Names that sit under a division by the divisor."""
    named: frozenset[str]
    """Every name the formula reads."""


def read_stage_formulas(
    tree: ast.Module, *, function: str, selector: str, target: str, divisor: str, cases: Collection[int]
) -> dict[int, StageFormula]:
    """The final `target = ...` of each `if selector == N` branch of `function`; a chain's final else takes the one case left.

    A branch that changes `target` again after its last plain assignment (in a loop, by `+=`) has no formula here.
    When the definition Python calls has no such branches (a wrapper around the real one, or the real one kept under
    another name), the last other function that has them is read.
    """
    for definition in _definitions(tree, function):
        formulas = _formulas(definition, selector, target, divisor, cases)
        if formulas:
            return formulas
    return {}


def _formulas(definition: ast.FunctionDef, selector: str, target: str, divisor: str,
              cases: Collection[int]) -> dict[int, StageFormula]:
    """Each case's formula in one function definition."""
    formulas: dict[int, StageFormula] = {}
    for branch_case, body in _branches(definition, selector, cases):
        assignment = _final_assignment(body, target)
        if assignment is not None:
            names = frozenset(node.id for node in ast.walk(assignment.value) if isinstance(node, ast.Name))
            formulas[branch_case] = StageFormula(ast.unparse(assignment), frozenset(_divided(assignment.value, divisor)), names)
    return formulas


def _definitions(tree: ast.Module, function: str) -> list[ast.FunctionDef]:
    """Function definitions to read, best first: the top-level `function` Python would call, then every other, last first."""
    every = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    named = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function]
    return named[-1:] + [node for node in reversed(every) if node not in named[-1:]]


def _branches(definition: ast.FunctionDef, selector: str, cases: Collection[int]) -> list[tuple[int, list[ast.stmt]]]:
    """(case, body) for every branch of every `if selector == N: ... elif ...: ... else: ...` chain."""
    inner_ifs = {id(node.orelse[0]) for node in ast.walk(definition) if isinstance(node, ast.If) and len(node.orelse) == 1}
    branches: list[tuple[int, list[ast.stmt]]] = []
    for head in ast.walk(definition):
        if not isinstance(head, ast.If) or id(head) in inner_ifs:
            continue
        tested: set[int] = set()
        node: ast.If | None = head
        while node is not None:
            case = _case(node.test, selector)
            if case is None:
                break
            tested.add(case)
            branches.append((case, node.body))
            if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                continue
            left = set(cases) - tested
            if node.orelse and len(left) == 1:
                branches.append((left.pop(), node.orelse))
            node = None
    return branches


def _case(test: ast.expr, selector: str) -> int | None:
    """N for a test `selector == N` (either way round), else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    sides = (test.left, test.comparators[0])
    names = [side for side in sides if isinstance(side, ast.Name) and side.id == selector]
    numbers = [side.value for side in sides if isinstance(side, ast.Constant) and type(side.value) is int]
    return numbers[0] if names and numbers else None


def _final_assignment(body: list[ast.stmt], target: str) -> ast.Assign | None:
    """The branch's last plain `target = ...` statement, unless a later statement writes `target` too."""
    found = None
    for statement in body:
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == target for t in statement.targets):
            found = statement
        elif found is not None and _writes(statement, target):
            found = None
    return found


def _writes(statement: ast.stmt, name: str) -> bool:
    """Whether `statement`, or anything nested in it, stores to `name`."""
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) for node in ast.walk(statement)
    )


def _divided(expression: ast.expr, divisor: str) -> set[str]:
    """Names in `expression` that end up divided by an expression mentioning `divisor`."""
    if isinstance(expression, ast.BinOp) and isinstance(expression.op, (ast.Div, ast.FloorDiv)) and _mentions(expression.right, divisor):
        return {node.id for node in ast.walk(expression.left) if isinstance(node, ast.Name)}
    return set().union(*(_divided(child, divisor) for child in ast.iter_child_nodes(expression) if isinstance(child, ast.expr)))


def _mentions(expression: ast.expr, name: str) -> bool:
    """Whether `name` occurs in `expression`."""
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(expression))
