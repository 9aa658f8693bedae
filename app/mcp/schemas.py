"""Input limits and output models of the MCP tools (the JSON schemas clients see).

Input limits follow the original design (query 1-500 characters, limit 1-20, content up to
10,000 characters, at most 10 keywords, list limit up to 100). Output models describe the
``structuredContent`` of successful calls; the same JSON is sent as text for older clients.
Field names are camelCase, as on every face: entries and search results are serialized by
:mod:`engine.output.serialize` and follow its JSON Schemas; :class:`EntryOut` is derived
from the engine's declaration of an entry's fields.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from engine import (
    ENTRY_FIELDS,
    ENTRY_KEYS,
    MAX_CONTENT_LENGTH,
    MAX_KEYWORDS,
    MIN_SCORE_BOUNDS,
    Category,
    FieldKind,
    Gate,
    ScoreExplanation,
    SearchMode,
    Source,
    output_schema,
)

MAX_QUERY_LENGTH = 500
MAX_SEARCH_LIMIT = 20
MAX_LIST_LIMIT = 100
DEFAULT_LIST_LIMIT = 50
MAX_ID_LENGTH = 200

# The engine's enums as the JSON schema's string choices (never restated: a test checks).
CategoryName = Literal[tuple(c.value for c in Category)]  # type: ignore[valid-type]
ModeName = Literal[tuple(m.value for m in SearchMode)]  # type: ignore[valid-type]
SourceName = Literal[tuple(s.value for s in Source)]  # type: ignore[valid-type]
GateName = Literal[tuple(g.value for g in Gate)]  # type: ignore[valid-type]

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_QUERY_LENGTH,
        description="What to look for: a question, a concept, or exact terms "
        "(identifiers, error messages). Any text is accepted.",
    ),
]
SearchLimit = Annotated[
    int | None,
    Field(
        ge=1,
        le=MAX_SEARCH_LIMIT,
        description="Most results to return (1-20; default: the project's default_limit, 5).",
    ),
]
SearchCategory = Annotated[
    CategoryName | None, Field(description="Only entries of this category (omit for all).")
]
SearchSource = Annotated[
    SourceName | None,
    Field(
        description="Only entries from this source: markdown (knowledge files), session "
        "(agents' notes), discovery (codebase analysis), manual (added by a person)."
    ),
]
StaleOnly = Annotated[
    bool,
    Field(
        description="Only entries whose cited code changed or disappeared since they were "
        "written (stale=true), e.g. to review or refresh them."
    ),
]
Mode = Annotated[
    ModeName | None,
    Field(
        description="keyword: exact terms (BM25); vector: meaning, paraphrases; hybrid: both, "
        "fused (best default). Default: the project's search_mode (hybrid)."
    ),
]
MinScore = Annotated[
    float | None,
    Field(
        ge=MIN_SCORE_BOUNDS[0],
        le=MIN_SCORE_BOUNDS[1],
        description="Relevance floor (0 to 1; 0 or below shows every candidate) for this "
        "search, instead of the project's min_score (default 0.2): results show only when "
        "one reaches 0.5, then those down to this. Raise it for fewer, closer results "
        "(vector and hybrid modes).",
    ),
]
Content = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_CONTENT_LENGTH,
        description="The knowledge to store: one self-contained fact, decision or gotcha, "
        "in plain text or markdown (at most 10,000 characters). <private>…</private> "
        "is redacted; secrets are refused.",
    ),
]
AddCategory = Annotated[
    CategoryName,
    Field(description="What kind of knowledge this is (embedded with the text, unless general)."),
]
Keywords = Annotated[
    list[Annotated[str, Field(max_length=100)]] | None,
    Field(
        max_length=MAX_KEYWORDS,
        description="Up to 10 terms a later question would use to find this entry, "
        "above all those its text does not say (the tool, the area): searched by keyword "
        "and embedded with the text for meaning search.",
    ),
]
ListLimit = Annotated[
    int, Field(ge=1, le=MAX_LIST_LIMIT, description="Most entries to return (1-100).")
]
ListCategory = Annotated[
    CategoryName | None, Field(description="Only entries of this category (omit for all).")
]
EntryId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_ID_LENGTH,
        description="The id of the entry, as returned by memory_search, memory_list or memory_add.",
    ),
]


_PYTHON_TYPES: dict[FieldKind, Any] = {
    FieldKind.ID: str,
    FieldKind.TEXT: str,
    FieldKind.CATEGORY: str,
    FieldKind.SOURCE: str,
    FieldKind.KEYWORDS: list[str],
    FieldKind.COUNT: int,
    FieldKind.FLAG: bool,
    FieldKind.LINE: int | None,
}
"""The Python type of each kind of entry field in the JSON shape."""

_BEYOND_THE_STORE: dict[str, tuple[Any, str]] = {
    "stale": (bool, "The code this entry cites changed or disappeared since it was written."),
    "staleReason": (str, "Why it is stale ('' when it is not)."),
    "uri": (str | None, "memory:// resource of its knowledge file (null if none)."),
}


def _entry_model_fields() -> dict[str, Any]:
    """The fields of :class:`EntryOut`, in the JSON shape's order: the declared entry
    fields (``engine.ENTRY_FIELDS``) and what is known of an entry beyond the store."""
    declared = {f.key: f for f in ENTRY_FIELDS}
    out: dict[str, Any] = {}
    for key in ENTRY_KEYS:
        if key in declared:
            spec = declared[key]
            out[key] = (_PYTHON_TYPES[spec.kind], Field(description=spec.description))
        else:
            kind, description = _BEYOND_THE_STORE[key]
            out[key] = (kind, Field(description=description))
    return out


if TYPE_CHECKING:

    class EntryOut(BaseModel):
        """One entry, in the shape every face writes (engine ``entry.schema.json``)."""

else:
    EntryOut = create_model(
        "EntryOut",
        __doc__="One entry, in the shape every face writes (engine ``entry.schema.json``).",
        **_entry_model_fields(),
    )


def _explanation_model_fields() -> dict[str, Any]:
    """The fields of :class:`Explanation`: the engine's score explanation (its JSON keys,
    ``engine.EXPLANATION_KEYS``), each described as the shipped JSON Schema describes it."""
    shipped = output_schema("search_result")["properties"]["explanation"]["properties"]
    kinds = {"int": int, "float": float, "Gate": GateName}
    out: dict[str, Any] = {}
    for spec in fields(ScoreExplanation):
        key = spec.metadata["key"]
        name, _, optional = str(spec.type).partition(" | ")
        kind = kinds[name] | None if optional else kinds[name]
        out[key] = (kind, Field(description=shipped[key]["description"]))
    return out


if TYPE_CHECKING:

    class Explanation(BaseModel):
        """Why a result ranked where it did (null: that retriever did not find it)."""

else:
    Explanation = create_model(
        "Explanation",
        __doc__="Why a result ranked where it did (null: that retriever did not find it).",
        **_explanation_model_fields(),
    )


class SearchHit(EntryOut):
    """One search result: the entry with its rank, score and score explanation."""

    rank: int
    score: float = Field(
        description="Relevance 0..1, the same scale for every query and memory (0.5: the "
        "default gate); results are sorted by it."
    )
    explanation: Explanation


class SearchOutput(BaseModel):
    """Result of ``memory_search``."""

    query: str
    mode: str = Field(description="The mode asked for.")
    used: str = Field(description="The mode actually run (keyword while the model loads).")
    count: int
    results: list[SearchHit]
    warnings: list[str]


class NearDuplicateRef(BaseModel):
    """The stored entry a new note nearly duplicates."""

    id: str
    similarity: float


class AddOutput(BaseModel):
    """Result of ``memory_add``."""

    success: bool
    created: bool = Field(description="False when identical content was already stored.")
    id: str = Field(description="The new entry's id, or the existing entry's for a duplicate.")
    category: str
    message: str
    redactions: list[str] = Field(description="Kinds of secret redacted before storage.")
    nearDuplicate: NearDuplicateRef | None = Field(
        default=None,
        description="A stored entry close in meaning (cosine >= 0.9), or null. With the "
        "project's near_duplicate = \"skip\" the note was not added and id is that entry's.",
    )
    entry: EntryOut = Field(description="The entry as stored.")


class ListOutput(BaseModel):
    """Result of ``memory_list``."""

    entries: list[EntryOut]
    count: int
    total: int = Field(description="Entries in the memory that match the filters.")
    category: str | None


class DeleteOutput(BaseModel):
    """Result of ``memory_delete``; a missing id is an answer, not an error."""

    deleted: bool
    id: str
    reason: str | None = None


class LanguageCount(BaseModel):
    """Files and lines of one language."""

    language: str
    files: int
    lines: int


class EntryChanges(BaseModel):
    """How the discovery entries changed."""

    created: int
    kept: int
    deleted: int


class AnalyzeOutput(BaseModel):
    """Result of ``memory_analyze``."""

    name: str
    files: int
    languages: list[LanguageCount]
    sourceDirs: list[str]
    entryPoints: list[str]
    frameworks: list[str]
    testTools: list[str]
    symbols: int
    entries: EntryChanges
    errors: int = Field(description="Files that could not be read or parsed.")
