"""Strict arguments: a tool or prompt call with an argument it does not know is refused
with a message naming it (and the nearest known name), instead of the argument being
dropped silently; a prompt call that is wrong says what is wrong instead of "Internal
server error".

The SDK builds each tool's input schema from the handler's signature and validates the
known arguments with pydantic, which ignores extra keys; :func:`seal_schemas` marks the
advertised schemas ``additionalProperties: false`` and :func:`unknown_arguments` enforces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from app.words import did_you_mean


class _HasParameters(Protocol):
    parameters: dict[str, Any]


class _PromptArgument(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def required(self) -> bool | None: ...


def seal_schemas(tools: Iterable[_HasParameters]) -> None:
    """Declare in each tool's input schema that no other argument is accepted."""
    for tool in tools:
        tool.parameters["additionalProperties"] = False


def unknown_arguments(what: str, known: Sequence[str], given: Iterable[str]) -> str | None:
    """The message refusing the arguments of ``given`` that are not in ``known`` (None when
    all are known): ``unknown argument 'categry' for memory_search (did you mean
    'category'?); it takes: query, limit, category, mode``."""
    unknown = [name for name in given if name not in known]
    if not unknown:
        return None
    parts = []
    for name in unknown:
        parts.append(f"'{name}'" + did_you_mean(name, known))
    noun = "argument" if len(unknown) == 1 else "arguments"
    takes = ", ".join(known) if known else "no arguments"
    return f"unknown {noun} {', '.join(parts)} for {what}; it takes: {takes}"


def tool_arguments(parameters: Mapping[str, Any]) -> list[str]:
    """The argument names of a tool's input schema, in order."""
    return list(parameters.get("properties", {}))


def prompt_problem(
    name: str,
    prompt_arguments: Sequence[_PromptArgument] | None,
    arguments: Mapping[str, Any] | None,
    prompts: Sequence[str],
) -> str | None:
    """What is wrong with a ``prompts/get`` call (None: nothing): an unknown prompt, an
    unknown argument, or a required argument missing or blank."""
    if prompt_arguments is None and name not in prompts:
        return f"there is no prompt '{name}'; the prompts are: " + ", ".join(prompts)
    declared = list(prompt_arguments or ())
    given = dict(arguments or {})
    known = [a.name for a in declared]
    problem = unknown_arguments(f"the prompt '{name}'", known, given)
    if problem:
        return problem
    missing = [a.name for a in declared if a.required and not str(given.get(a.name) or "").strip()]
    if missing:
        return (
            f"the prompt '{name}' needs the argument "
            + ", ".join(f"'{m}'" for m in missing)
            + " (a non-empty string)"
        )
    return None
