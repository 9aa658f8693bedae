"""One entry → a JSON-ready dict, and one search result → the same plus its score: the
only serializer of every face (CLI ``--json``, export json, MCP tools over stdio and HTTP).

One key style, camelCase, as declared for each field in :data:`engine.core.models.ENTRY_FIELDS`
(the store's column names, but ``line`` for ``lineStart``); the keys and values are derived
from that declaration. Values are plain JSON types: enums as their names, keywords as a
list, ``line``/``lineEnd`` None when unknown. The JSON Schemas of both shapes ship with the
package (``engine/output/schema/*.schema.json``, :func:`output_schema`); the tests check them
against the declaration, and every JSON-producing command and tool against them.

:func:`entry_record` is the lower-level picker of single fields that the tabular export
formats (csv, xml, md, text) use for their columns.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from functools import cache
from importlib import resources
from typing import Any

from engine.core.models import (
    ENTRY_COLUMNS,
    ENTRY_FIELDS,
    Entry,
    EntryField,
    FieldKind,
    Gate,
    ScoreExplanation,
    SearchResult,
    Source,
)

ALL_FIELDS: tuple[str, ...] = tuple(dict.fromkeys([*ENTRY_COLUMNS, *(f.key for f in ENTRY_FIELDS)]))
"""Every key :func:`entry_record` knows: the stored columns, then the JSON keys that
differ from them (``line``)."""

RESOURCE_SCHEME = "memory://"
"""URI scheme of the knowledge files offered as MCP resources."""
KNOWLEDGE_PREFIX = ".claude/knowledge/"
"""Where knowledge files live unless the project configures another folder."""

_LAST = "content"
"""The long text goes last in the JSON shape, after every short field."""
_FIRST_FIELDS = tuple(f for f in ENTRY_FIELDS if f.column != _LAST)
_LAST_FIELD = next(f for f in ENTRY_FIELDS if f.column == _LAST)
ENTRY_KEYS: tuple[str, ...] = (
    *(f.key for f in _FIRST_FIELDS),
    "stale",
    "staleReason",
    "uri",
    _LAST_FIELD.key,
)
"""The keys of an entry, in order: its declared fields, what is known of it beyond the
store (stale, staleReason, uri), the long ``content`` last."""
RESULT_KEYS: tuple[str, ...] = ("rank", "score", *ENTRY_KEYS[:-1], "explanation", "content")
"""The keys of a search result: an entry's, with its rank, score and explanation."""
EXPLANATION_KEYS: tuple[str, ...] = tuple(f.metadata["key"] for f in fields(ScoreExplanation))
"""The keys of a score explanation."""

_BY_NAME: dict[str, EntryField] = {f.column: f for f in ENTRY_FIELDS} | {
    f.key: f for f in ENTRY_FIELDS
}


def _json_value(field: EntryField, entry: Entry) -> Any:
    """The field's value in the JSON shape."""
    value = getattr(entry, field.attr)
    kind = field.kind
    if kind in (FieldKind.CATEGORY, FieldKind.SOURCE):
        return value.value
    if kind is FieldKind.KEYWORDS:
        return list(value)
    if kind is FieldKind.LINE:
        return value or None
    return value


def entry_record(entry: Entry, keys: Sequence[str] = ENTRY_COLUMNS) -> dict[str, object]:
    """``entry`` as a dict of ``keys`` (see :data:`ALL_FIELDS`), in that order: a JSON key
    gives the field's JSON value, a column name its stored value (``lineStart`` 0 when
    unknown, ``line`` None).

    Raises:
        KeyError: a key that is not an entry field.
    """
    record: dict[str, object] = {}
    for key in keys:
        field = _BY_NAME[key]
        # A column named otherwise in JSON (lineStart) gives its stored value.
        same = key == field.key
        record[key] = _json_value(field, entry) if same else getattr(entry, field.attr)
    return record


def resource_uri(entry: Entry, knowledge_prefix: str = KNOWLEDGE_PREFIX) -> str | None:
    """The ``memory://`` resource of an entry's knowledge file, if it comes from one."""
    path = entry.file_path
    if entry.source is not Source.MARKDOWN or not path or not knowledge_prefix:
        return None
    if not path.startswith(knowledge_prefix):
        return None
    return RESOURCE_SCHEME + path[len(knowledge_prefix) :]


def entry_json(
    entry: Entry, *, stale_reason: str = "", knowledge_prefix: str = KNOWLEDGE_PREFIX
) -> dict[str, Any]:
    """``entry`` in the one JSON shape (``entry.schema.json``); ``stale_reason`` non-empty
    when the code it cites changed or disappeared."""
    shape = {f.key: _json_value(f, entry) for f in _FIRST_FIELDS}
    shape.update(
        stale=bool(stale_reason),
        staleReason=stale_reason,
        uri=resource_uri(entry, knowledge_prefix),
    )
    shape[_LAST_FIELD.key] = _json_value(_LAST_FIELD, entry)
    return shape


def explanation_json(explanation: ScoreExplanation) -> dict[str, Any]:
    """Why a result ranked where it did: each retriever's rank and score, the fused score,
    and why the relevance gate let it through (None where a retriever did not find it)."""

    shape: dict[str, Any] = {}
    for spec in fields(ScoreExplanation):
        value = getattr(explanation, spec.name)
        if value is not None and str(spec.type).startswith("float"):  # numpy's too
            value = round(float(value), 6)
        elif isinstance(value, Gate):
            value = value.value
        shape[spec.metadata["key"]] = value
    return shape


def result_json(
    result: SearchResult, rank: int, *, knowledge_prefix: str = KNOWLEDGE_PREFIX
) -> dict[str, Any]:
    """One search result in the one JSON shape (``search_result.schema.json``)."""
    entry = entry_json(
        result.entry,
        stale_reason=result.stale_reason or ("stale" if result.stale else ""),
        knowledge_prefix=knowledge_prefix,
    )
    entry.update(
        rank=rank,
        score=round(float(result.score), 4),
        explanation=explanation_json(result.explanation),
    )
    return {key: entry[key] for key in RESULT_KEYS}


def results_json(
    results: Sequence[SearchResult], *, knowledge_prefix: str = KNOWLEDGE_PREFIX
) -> list[dict[str, Any]]:
    """Results, best first, ranked from 1."""
    return [
        result_json(r, rank, knowledge_prefix=knowledge_prefix)
        for rank, r in enumerate(results, start=1)
    ]


@cache
def output_schema(name: str) -> Mapping[str, Any]:
    """The JSON Schema ``name`` (``"entry"`` or ``"search_result"``) shipped with the package."""
    folder = resources.files("engine.output").joinpath("schema")
    text = folder.joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def add_json(
    entry: Mapping[str, Any],
    *,
    created: bool,
    redactions: Sequence[str] = (),
    near_duplicate: tuple[str, float] | None = None,
) -> dict[str, Any]:
    """The answer to an add (CLI ``add --json``, MCP ``memory_add``): what happened, the
    entry as stored (``entry_json``; the existing one for a duplicate), and a stored entry
    close in meaning (id, cosine similarity), if any."""
    entry_id = entry["id"]
    if created:
        message = f"Entry added to memory as {entry_id}"
        if redactions:
            message += " (redacted: " + ", ".join(redactions) + ")"
    else:
        message = f"Identical content is already stored as {entry_id}; nothing was added"
    near = None
    if near_duplicate is not None:
        close = f"{near_duplicate[0]} (cosine similarity {near_duplicate[1]:.2f})"
        message = (
            f"{message}; it is a near duplicate of {close}: consider deleting one of them"
            if created
            else f"Not added: a near duplicate of {close} is already stored"
        )
        near = {"id": near_duplicate[0], "similarity": round(near_duplicate[1], 3)}
    return {
        "success": True,
        "created": created,
        "id": entry_id,
        "category": entry["category"],
        "message": message,
        "redactions": list(redactions),
        "nearDuplicate": near,
        "entry": dict(entry),
    }
