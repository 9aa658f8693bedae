"""Every configuration key: its type, bounds, names (TOML, the original JSON, the
environment) and documentation. :mod:`engine.core.config` resolves them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.core.models import Fusion, NearDuplicatePolicy, SearchMode, SecretPolicy
from engine.core.validation import MIN_SCORE_BOUNDS


@dataclass(frozen=True, slots=True)
class Setting:
    """Declaration of one configuration key: type, bounds, names and documentation."""

    name: str
    kind: type
    doc: str
    json_name: str
    env: str
    minimum: float | None = None
    maximum: float | None = None
    enum: type[StrEnum] | None = None
    """The engine's enum of the allowed values (the value read is one of its members)."""
    items: str = "glob patterns relative to the project root"
    """What each string of a list setting is."""
    readme: str = ""
    """Its line in the README's configuration table (markdown), which
    ``python scripts/config_table.py`` writes from these declarations."""
    readme_default: str = ""
    """The default as the README shows it, where the value itself is not the clearest."""

    @property
    def choices(self) -> tuple[str, ...]:
        """The allowed values, when they are an enum's."""
        return tuple(e.value for e in self.enum) if self.enum is not None else ()

    def allowed(self) -> str:
        """Describe the allowed values for error messages."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is tuple:
            return f"a list of strings ({self.items})"
        noun = "an integer" if self.kind is int else "a number"
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} from {_num(self.minimum)} to {_num(self.maximum)}"
        return noun if self.kind is not str else "a string"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "search_mode",
        str,
        "Default search mode.",
        "defaultSearchMode",
        "CLAUDE_MEMORY_SEARCH_MODE",
        enum=SearchMode,
        readme="default search mode",
    ),
    Setting(
        "min_score",
        float,
        "Relevance floor: a search lists results only when one reaches relevance 0.5, "
        "then those down to this (0..1; 0 or less shows every candidate). Relevance: "
        "engine/search/scoring.py. Vector and hybrid modes; keyword mode when given.",
        "minScore",
        "CLAUDE_MEMORY_MIN_SCORE",
        *MIN_SCORE_BOUNDS,
        readme="relevance floor (0..1; 0 or less: no gate): a search lists results only when one "
        "reaches 0.5, then those down to this ([How search works](#how-search-works))",
    ),
    Setting(
        "chunk_size",
        int,
        "Largest markdown chunk, in characters.",
        "chunkSize",
        "CLAUDE_MEMORY_CHUNK_SIZE",
        100,
        10_000,
        readme="largest chunk, characters (100..10000)",
    ),
    Setting(
        "chunk_overlap",
        int,
        "Percent of the previous chunk repeated at the start of the next.",
        "chunkOverlapPercent",
        "CLAUDE_MEMORY_CHUNK_OVERLAP",
        0,
        50,
        readme="overlap between chunks, percent (0..50)",
    ),
    Setting(
        "default_limit",
        int,
        "Results returned when a search names no limit.",
        "defaultLimit",
        "CLAUDE_MEMORY_DEFAULT_LIMIT",
        1,
        100,
        readme="results when no limit is given",
    ),
    Setting(
        "fusion",
        str,
        "How hybrid search fuses its two lists: zscore (sums each list's z-normalised "
        "scores; tuned on SciFact train, better on short notes) or rrf (reciprocal ranks).",
        "fusion",
        "CLAUDE_MEMORY_FUSION",
        enum=Fusion,
        readme="hybrid fusion: `zscore` (sum of z-normalised scores) or `rrf`",
    ),
    Setting(
        "rrf_k",
        int,
        "Reciprocal Rank Fusion constant k (fusion = rrf).",
        "rrfK",
        "CLAUDE_MEMORY_RRF_K",
        1,
        1000,
        readme='Reciprocal Rank Fusion constant (`fusion = "rrf"`)',
    ),
    Setting(
        "keyword_weight",
        float,
        "Weight of the keyword list in hybrid fusion (1 = equal, as tuned on SciFact train "
        "and LoCoMo dev for zscore fusion with the vector list's agreement weight; 1.5 was "
        "for rrf).",
        "keywordWeight",
        "CLAUDE_MEMORY_KEYWORD_WEIGHT",
        0.0,
        5.0,
        readme="weight of the keyword list in fusion (0..5)",
    ),
    Setting(
        "promote_threshold",
        int,
        "Reference count at which an entry that lives only in the memory (session, "
        "discovery, manual) is due for promotion to markdown.",
        "promoteThreshold",
        "CLAUDE_MEMORY_PROMOTE_THRESHOLD",
        1,
        100_000,
        readme="references before promotion",
    ),
    Setting(
        "auto_promote",
        bool,
        "Promote the entries due for promotion (session, discovery and manual entries whose "
        "reference count reached promote_threshold: what `promote --due` takes) "
        "automatically, when a face hands them out.",
        "autoPromote",
        "CLAUDE_MEMORY_AUTO_PROMOTE",
        readme="promote the entries due (`promote --due`: session, discovery and manual "
        "entries past `promote_threshold`) as soon as a search, the prompt hook or the app "
        "hands them out",
    ),
    Setting(
        "count_references",
        bool,
        "Count an entry as referenced each time a search on any face (CLI, MCP, the prompt "
        "hook) returns it or the terminal app opens it; counts order `list --sort refs` and "
        "qualify notes for promotion. Kept in the keyword index, written to the store in batches.",
        "countReferences",
        "CLAUDE_MEMORY_COUNT_REFERENCES",
        readme="count an entry each time a search (CLI, MCP, the prompt hook) returns it or the "
        "app opens it (`list --sort refs`, promotion)",
    ),
    Setting(
        "secret_policy",
        str,
        "What to do with content that looks like a secret: reject it, or redact the match.",
        "secretPolicy",
        "CLAUDE_MEMORY_SECRET_POLICY",
        enum=SecretPolicy,
        readme="`reject` or `redact` likely secrets",
    ),
    Setting(
        "secret_allowlist",
        tuple,
        "Known false positives of the secret check: exact text or sha256:<hex> fingerprints.",
        "secretAllowlist",
        "CLAUDE_MEMORY_SECRET_ALLOWLIST",
        items="each the exact text or its sha256:<hex> fingerprint, never a pattern",
        readme="known false positives of the secret check: the exact text or its `sha256:<hex>` "
        "fingerprint (never a pattern)",
    ),
    Setting(
        "sources",
        tuple,
        "Project files indexed as searchable text besides the knowledge folder: patterns in "
        ".gitignore syntax (a leading / anchors to the project root, ** crosses folders). "
        "Release notes, examples, tests, vendored and generated files are left out unless a "
        "pattern names them outright.",
        "sources",
        "CLAUDE_MEMORY_SOURCES",
        items="patterns in .gitignore syntax",
        readme_default="root `*.md`, `README.md`, `docs/**`… (kept as they are: every "
        "documentation file of the project)",
        readme="project documentation indexed besides the knowledge folder (`.gitignore` "
        "patterns; other patterns narrow the docs to them; env: comma-separated)",
    ),
    Setting(
        "sources_exclude",
        tuple,
        "Glob patterns of files never indexed as sources, even when `sources` matches them.",
        "sourcesExclude",
        "CLAUDE_MEMORY_SOURCES_EXCLUDE",
        readme="patterns never indexed as sources",
    ),
    Setting(
        "analyzer_include",
        tuple,
        "Patterns of files the analyzer counts as own code though they look like examples etc.",
        "analyzerInclude",
        "CLAUDE_MEMORY_ANALYZER_INCLUDE",
        readme="patterns the analyzer treats as the project's own code though they look like "
        "examples, tests, vendored or generated files",
    ),
    Setting(
        "analyzer_exclude",
        tuple,
        "Patterns of files the analyzer leaves out of own code (summarised once, like tests).",
        "analyzerExclude",
        "CLAUDE_MEMORY_ANALYZER_EXCLUDE",
        readme="patterns the analyzer leaves out of the project's own code (one summary entry)",
    ),
    Setting(
        "near_duplicate",
        str,
        "What adding a note close in meaning (cosine >= 0.9) to a stored one does: report "
        "it and keep both, keep both silently, or skip the new note.",
        "nearDuplicate",
        "CLAUDE_MEMORY_NEAR_DUPLICATE",
        enum=NearDuplicatePolicy,
        readme="a note added with cosine >= 0.9 to a stored one: `report` it (and keep both), "
        "`keep` silently, or `skip` it",
    ),
    Setting(
        "knowledge_dir",
        str,
        "Folder of curated markdown, relative to the project root (inside the project).",
        "knowledgeDir",
        "CLAUDE_MEMORY_KNOWLEDGE_DIR",
        readme="curated markdown folder (must lie inside the project, symlinks resolved)",
    ),
    Setting(
        "max_file_bytes",
        int,
        "Largest file indexed, checked or served, in bytes; larger ones are skipped.",
        "maxFileBytes",
        "CLAUDE_MEMORY_MAX_FILE_BYTES",
        1_000,
        100_000_000,
        readme="largest file indexed, checked or served, in bytes (`1000`..`100000000`)",
    ),
    Setting(
        "store_uri",
        str,
        "Store of record on object storage shared by several machines: s3://bucket/prefix "
        "(gs://, az://); empty = .claude/memory/vectors. Credentials and endpoint come from "
        "the object store's environment (AWS_ACCESS_KEY_ID, AWS_ENDPOINT_URL…), never here.",
        "storeUri",
        "CLAUDE_MEMORY_STORE_URI",
        readme_default="empty (`.claude/memory/vectors`)",
        readme="the store of record on object storage shared by several machines: "
        "`s3://bucket/prefix` (`gs://`, `az://`); see [Sharing one memory across machines "
        "(S3)](#sharing-one-memory-across-machines-s3). Credentials here are refused",
    ),
    Setting(
        "store_allow_http",
        bool,
        "Allow plain HTTP to a non-loopback object store endpoint (loopback always may).",
        "storeAllowHttp",
        "CLAUDE_MEMORY_STORE_ALLOW_HTTP",
        readme="allow plain HTTP to a non-loopback object store endpoint (loopback always may)",
    ),
    Setting(
        "session_capture",
        bool,
        "Keep a digest of each Claude Code session (its Stop, SessionEnd and PreCompact "
        "hooks) as a personal note, source session; false keeps nothing. A session whose "
        "prompts say #no-memory is never kept.",
        "sessionCapture",
        "CLAUDE_MEMORY_SESSION_CAPTURE",
        readme="keep a digest of each Claude Code session as a personal note "
        "([Sessions](#sessions-what-a-session-did-kept-without-asking)); a prompt saying "
        "`#no-memory` keeps nothing of its session",
    ),
    Setting(
        "session_tool_output",
        bool,
        "Also keep what tools printed (the first line of a failed command's output) in a "
        "session's digest; left out by default.",
        "sessionToolOutput",
        "CLAUDE_MEMORY_SESSION_TOOL_OUTPUT",
        readme="also keep what tools printed (a failed command's first line of output) in a digest",
    ),
    Setting(
        "session_recall_tokens",
        int,
        "Budget of the block a new session starts with (its SessionStart hook: the last "
        "sessions' digests and the notes matching their work), in tokens of about four "
        "characters; 0 adds nothing.",
        "sessionRecallTokens",
        "CLAUDE_MEMORY_SESSION_RECALL_TOKENS",
        0,
        20_000,
        readme="budget of the block a session starts with, in tokens of about four characters "
        "(`0`..`20000`; `0`: none)",
    ),
)
