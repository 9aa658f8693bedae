"""One entry → a JSON-ready dict, and one search result → the same plus its score: the
only serializer of every face (CLI ``--json``, export json, MCP tools over stdio and HTTP).

One key style, camelCase, as in the store's columns (:data:`engine.core.models.ENTRY_COLUMNS`),
the original tool responses and the export formats. Values are plain JSON types: enums as
their names, keywords as a list, ``line``/``lineEnd`` None when unknown. The JSON Schemas
of both shapes ship with the package (``engine/output/schema/*.schema.json``,
:func:`output_schema`), and the tests check every JSON-producing command and tool against them.

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

from engine.core.models import ENTRY_COLUMNS, Entry, ScoreExplanation, SearchResult

ALL_FIELDS: tuple[str, ...] = (*ENTRY_COLUMNS, "line")
"""Every key :func:`entry_record` knows, stored columns first."""

RESOURCE_SCHEME = "memory://"
"""URI scheme of the knowledge files offered as MCP resources."""
KNOWLEDGE_PREFIX = ".claude/knowledge/"
"""Where knowledge files live unless the project configures another folder."""

ENTRY_KEYS: tuple[str, ...] = (
    "id",
    "category",
    "source",
    "filePath",
    "line",
    "lineEnd",
    "sectionTitle",
    "keywords",
    "referenceCount",
    "promoted",
    "promotedAt",
    "createdAt",
    "updatedAt",
    "contentHash",
    "stale",
    "staleReason",
    "uri",
    "content",
)
"""The keys of an entry, in order (the long ``content`` last)."""
RESULT_KEYS: tuple[str, ...] = ("rank", "score", *ENTRY_KEYS[:-1], "explanation", "content")
"""The keys of a search result: an entry's, with its rank, score and explanation."""
EXPLANATION_KEYS: tuple[str, ...] = (
    "vectorRank",
    "vectorSimilarity",
    "keywordRank",
    "bm25",
    "fusedScore",
    "vectorWeight",
    "coverage",
    "gate",
    "folded",
)
"""The keys of a score explanation."""

_ATTRIBUTES = {column: f.name for column, f in zip(ENTRY_COLUMNS, fields(Entry), strict=True)}


def _value(entry: Entry, key: str) -> object:
    if key == "line":
        return entry.line_start or None
    value = getattr(entry, _ATTRIBUTES[key])
    if key in ("category", "source"):
        return value.value
    if key == "keywords":
        return list(value)
    return value


def entry_record(
    entry: Entry, keys: Sequence[str] = ENTRY_COLUMNS, *, snake_case: bool = False
) -> dict[str, object]:
    """``entry`` as a dict of ``keys`` (see :data:`ALL_FIELDS`), in that order.

    Raises:
        KeyError: a key that is not an entry field.
    """
    record = {key: _value(entry, key) for key in keys}
    if snake_case:
        return {_ATTRIBUTES.get(key, key): value for key, value in record.items()}
    return record


def resource_uri(entry: Entry, knowledge_prefix: str = KNOWLEDGE_PREFIX) -> str | None:
    """The ``memory://`` resource of an entry's knowledge file, if it comes from one."""
    path = entry.file_path
    if entry.source.value != "markdown" or not path or not knowledge_prefix:
        return None
    if not path.startswith(knowledge_prefix):
        return None
    return RESOURCE_SCHEME + path[len(knowledge_prefix) :]


def entry_json(
    entry: Entry, *, stale_reason: str = "", knowledge_prefix: str = KNOWLEDGE_PREFIX
) -> dict[str, Any]:
    """``entry`` in the one JSON shape (``entry.schema.json``); ``stale_reason`` non-empty
    when the code it cites changed or disappeared."""
    return {
        "id": entry.id,
        "category": entry.category.value,
        "source": entry.source.value,
        "filePath": entry.file_path,
        "line": entry.line_start or None,
        "lineEnd": entry.line_end or None,
        "sectionTitle": entry.section_title,
        "keywords": list(entry.keywords),
        "referenceCount": entry.reference_count,
        "promoted": entry.promoted,
        "promotedAt": entry.promoted_at,
        "createdAt": entry.created_at,
        "updatedAt": entry.updated_at,
        "contentHash": entry.content_hash,
        "stale": bool(stale_reason),
        "staleReason": stale_reason,
        "uri": resource_uri(entry, knowledge_prefix),
        "content": entry.content,
    }


def explanation_json(explanation: ScoreExplanation) -> dict[str, Any]:
    """Why a result ranked where it did: each retriever's rank and score, the fused score,
    and why the relevance gate let it through (None where a retriever did not find it)."""

    def rounded(value: float | None) -> float | None:
        return None if value is None else round(float(value), 6)

    return {
        "vectorRank": explanation.vector_rank,
        "vectorSimilarity": rounded(explanation.vector_similarity),
        "keywordRank": explanation.keyword_rank,
        "bm25": rounded(explanation.keyword_score),
        "fusedScore": rounded(explanation.fused_score),
        "vectorWeight": rounded(explanation.vector_weight),
        "coverage": rounded(explanation.coverage),
        "gate": explanation.gate,
        "folded": explanation.folded,
    }


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
